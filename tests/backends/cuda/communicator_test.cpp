// The NCCL communicator (backends/cuda/communicator.hpp) against a stand-in libnccl.so.2
// (fake_nccl.cpp, found first on LD_LIBRARY_PATH as ctest sets it) and a fake driver: which
// NCCL calls each collective makes, with which addresses, types, operations, roots and
// streams, grouped as NCCL requires, and how communicators are made and destroyed.

#include "communicator.hpp"
#include "api.hpp"
#include "buffer.hpp"
#include "context.hpp"
#include "driver.hpp"
#include "fake_driver.hpp"
#include "nccl.hpp"
#include "queue.hpp"

#include <plinth/errors.hpp>

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <array>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace {

namespace backend = plinth::backend;
namespace nccl = plinth::cuda::nccl;
using plinth::cuda::Buffer;
using plinth::cuda::Communicator;
using plinth::cuda::ContextState;
using plinth::cuda::Queue;
using plinth::cuda::test::FakeDriver;

// The fake library's record of calls, and a way to clear it.
struct FakeNccl {
  const char* (*log)() = nullptr;
  void (*reset)() = nullptr;
  void (*on_group_end)(void (*)()) = nullptr;
};

FakeNccl fake_nccl() {
  FakeNccl fake;
  void* handle = ::dlopen("libnccl.so.2", RTLD_NOW | RTLD_NOLOAD);
  if (handle == nullptr) return fake;
  fake.log = reinterpret_cast<const char* (*)()>(::dlsym(handle, "fake_nccl_log"));
  fake.reset = reinterpret_cast<void (*)()>(::dlsym(handle, "fake_nccl_reset"));
  fake.on_group_end =
      reinterpret_cast<void (*)(void (*)())>(::dlsym(handle, "fake_nccl_on_group_end"));
  ::dlclose(handle);  // still loaded by nccl::library()
  return fake;
}

// A context of two (fake) devices, 0 and 1.
std::shared_ptr<ContextState> two_devices() {
  auto state = std::make_shared<ContextState>(ContextState::Ownership::primary);
  state->add(0, FakeDriver::context(0));
  state->add(1, FakeDriver::context(1));
  return state;
}

class CudaCommunicator : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(nccl::library().available) << nccl::library().description;
    fake_ = fake_nccl();
    ASSERT_NE(fake_.log, nullptr) << "libnccl.so.2 is not the test's fake: LD_LIBRARY_PATH?";
    fake_.reset();
  }

  std::string log() const { return fake_.log(); }

  backend::CollectivePart part(int rank, std::size_t send_offset, std::size_t recv_offset) {
    auto& queue = rank == 0 ? queue_0_ : queue_1_;
    auto& send = rank == 0 ? send_0_ : send_1_;
    auto& recv = rank == 0 ? recv_0_ : recv_1_;
    return {&queue, &send, send_offset, &recv, recv_offset};
  }

  FakeDriver driver_;  // first: outlives everything that calls the driver
  FakeNccl fake_;
  std::shared_ptr<ContextState> state_ = two_devices();  // after the fake driver
  Buffer send_0_{state_, 0, 0x10000, 4096, false};
  Buffer recv_0_{state_, 0, 0x11000, 4096, false};
  Buffer send_1_{state_, 1, 0x20000, 4096, false};
  Buffer recv_1_{state_, 1, 0x21000, 4096, false};
  Queue queue_0_{state_, 0, reinterpret_cast<CUstream>(0x5000), false};
  Queue queue_1_{state_, 1, reinterpret_cast<CUstream>(0x6000), false};
};

TEST_F(CudaCommunicator, RunsEachCollectiveOnEveryRankInOneGroup) {
  const std::array<std::size_t, 2> devices{1, 0};  // ranks in this order
  {
    auto communicator = Communicator::create(state_, devices);
    EXPECT_EQ(FakeDriver::current(), nullptr);  // restored after ncclCommInitAll
    const std::array parts{part(1, 0, 0), part(0, 8, 16)};
    using K = backend::CollectiveKind;
    using T = backend::CollectiveType;
    using O = backend::CollectiveOp;
    communicator->run({K::all_reduce, T::float32, O::sum, 4, 0}, parts);
    communicator->run({K::reduce, T::int64, O::min, 5, 1}, parts);
    communicator->run({K::broadcast, T::uint8, O::sum, 6, 1}, parts);
    communicator->run({K::all_gather, T::float16, O::sum, 7, 0}, parts);
    communicator->run({K::reduce_scatter, T::float64, O::avg, 8, 0}, parts);
    EXPECT_EQ(FakeDriver::current(), nullptr);
  }
  const std::string s1 = " send=0x20000 recv=0x21000";
  const std::string s0 = " send=0x10008 recv=0x11010";
  const std::string expected =
      "CommInitAll 1:comm0 0:comm1\n"
      "GroupStart\n"
      "AllReduce comm0" +
      s1 +
      " count=4 type=7 stream=0x6000 op=0\n"
      "AllReduce comm1" +
      s0 +
      " count=4 type=7 stream=0x5000 op=0\n"
      "GroupEnd\n"
      "GroupStart\n"
      "Reduce comm0" +
      s1 +
      " count=5 type=4 stream=0x6000 op=3 root=1\n"
      "Reduce comm1" +
      s0 +
      " count=5 type=4 stream=0x5000 op=3 root=1\n"
      "GroupEnd\n"
      "GroupStart\n"
      "Broadcast comm0" +
      s1 +
      " count=6 type=1 stream=0x6000 root=1\n"
      "Broadcast comm1" +
      s0 +
      " count=6 type=1 stream=0x5000 root=1\n"
      "GroupEnd\n"
      "GroupStart\n"
      "AllGather comm0" +
      s1 +
      " count=7 type=6 stream=0x6000\n"
      "AllGather comm1" +
      s0 +
      " count=7 type=6 stream=0x5000\n"
      "GroupEnd\n"
      "GroupStart\n"
      "ReduceScatter comm0" +
      s1 +
      " count=8 type=8 stream=0x6000 op=4\n"
      "ReduceScatter comm1" +
      s0 +
      " count=8 type=8 stream=0x5000 op=4\n"
      "GroupEnd\n"
      // Destroyed: finalized together (one thread, several ranks), then destroyed.
      "GroupStart\n"
      "CommFinalize comm0\n"
      "CommFinalize comm1\n"
      "GroupEnd\n"
      "CommDestroy comm0\n"
      "CommDestroy comm1\n";
  EXPECT_EQ(log(), expected);
}

TEST_F(CudaCommunicator, AFailingRankClosesTheGroupAndThrowsNcclsError) {
  const std::array<std::size_t, 2> devices{0, 1};
  auto communicator = Communicator::create(state_, devices);
  fake_.reset();
  const std::array parts{part(0, 0, 0), part(1, 0, 0)};
  try {
    communicator->run({backend::CollectiveKind::all_reduce, backend::CollectiveType::int32,
                       backend::CollectiveOp::max, 13, 0},  // the fake fails count 13
                      parts);
    FAIL() << "no error";
  } catch (const plinth::BackendError& error) {
    EXPECT_EQ(error.api(), "NCCL");
    EXPECT_EQ(error.call(), "ncclAllReduce");
    EXPECT_EQ(error.code(), 4);
    EXPECT_EQ(error.code_name(), "ncclInvalidArgument");
    EXPECT_NE(std::string(error.what()).find("fake invalid argument; fake last error"),
              std::string::npos)
        << error.what();
  }
  EXPECT_EQ(log(),
            "GroupStart\n"
            "AllReduce comm0 send=0x10000 recv=0x11000 count=13 type=2 stream=0x5000 op=2\n"
            "GroupEnd\n");
  EXPECT_EQ(FakeDriver::current(), nullptr);
}

TEST_F(CudaCommunicator, TheThreadsContextIsRestoredWhereNcclLeavesAnother) {
  const std::array<std::size_t, 2> devices{0, 1};
  auto communicator = Communicator::create(state_, devices);
  // The caller has device 0's context current (Context::activate(), say), and NCCL, as
  // cudaSetDevice does, leaves device 1's current.
  ASSERT_EQ(plinth::cuda::driver().cuCtxSetCurrent(FakeDriver::context(0)), CUDA_SUCCESS);
  fake_.on_group_end([] { plinth::cuda::driver().cuCtxSetCurrent(FakeDriver::context(1)); });
  const std::array parts{part(0, 0, 0), part(1, 0, 0)};
  communicator->run({backend::CollectiveKind::all_gather, backend::CollectiveType::uint8,
                     backend::CollectiveOp::sum, 4, 0},
                    parts);
  EXPECT_EQ(FakeDriver::current(), FakeDriver::context(0));
  fake_.on_group_end(nullptr);
}

TEST_F(CudaCommunicator, PartsThatDoNotMatchTheRanksAreLogicErrors) {
  const std::array<std::size_t, 2> devices{0, 1};
  auto communicator = Communicator::create(state_, devices);
  fake_.reset();
  const backend::CollectiveCall reduce{backend::CollectiveKind::reduce,
                                       backend::CollectiveType::float32, backend::CollectiveOp::sum,
                                       4, 2};
  const std::array two{part(0, 0, 0), part(1, 0, 0)};
  const std::array one{part(0, 0, 0)};
  EXPECT_THROW(communicator->run(reduce, two), plinth::LogicError);  // root 2 of 2 ranks
  auto all_reduce = reduce;
  all_reduce.kind = backend::CollectiveKind::all_reduce;  // no root: 2 is not checked
  EXPECT_THROW(communicator->run(all_reduce, one), plinth::LogicError);
  EXPECT_NO_THROW(communicator->run(all_reduce, two));
  auto missing = two;
  missing[1].recv = nullptr;
  EXPECT_THROW(communicator->run(all_reduce, missing), plinth::LogicError);
  EXPECT_EQ(log(),
            "GroupStart\n"
            "AllReduce comm0 send=0x10000 recv=0x11000 count=4 type=7 stream=0x5000 op=0\n"
            "AllReduce comm1 send=0x20000 recv=0x21000 count=4 type=7 stream=0x6000 op=0\n"
            "GroupEnd\n");
}

TEST_F(CudaCommunicator, JoinsWithTheIdOnItsDeviceAndRunsWithoutAGroup) {
  const plinth::cuda::Api api;
  const auto id = api.create_communicator_id();
  ASSERT_EQ(id.size(), 128U);
  {
    plinth::cuda::Context context(state_);
    auto communicator = context.join_communicator(1, id, 4, 2);
    const std::array parts{part(1, 0, 0)};
    communicator->run({backend::CollectiveKind::broadcast, backend::CollectiveType::uint32,
                       backend::CollectiveOp::sum, 3, 3},  // root: a rank of another process
                      parts);
  }
  EXPECT_EQ(log(),
            "GetUniqueId\n"
            "CommInitRank ranks=4 rank=2 id0=1 id127=-128 comm0\n"
            "Broadcast comm0 send=0x20000 recv=0x21000 count=3 type=3 stream=0x6000 root=3\n"
            "CommFinalize comm0\n"
            "CommDestroy comm0\n");
}

TEST_F(CudaCommunicator, AnOldNcclIsUnavailableSayingItsVersion) {
  ::setenv("FAKE_NCCL_VERSION", "20906", 1);
  const nccl::Library old = nccl::open_library("libnccl.so.2");
  ::unsetenv("FAKE_NCCL_VERSION");
  EXPECT_FALSE(old.available);
  EXPECT_EQ(old.description, "libnccl.so.2 is NCCL 2.9.6; plinth needs NCCL 2.10.0 or later");
  // The process's library is the one loaded first.
  EXPECT_EQ(nccl::library().description, "NCCL 2.28.9");
}

}  // namespace

int main(int argc, char** argv) {
  ::setenv("NCCL_NVLS_ENABLE", "0", 1);  // the rule wherever NCCL may start (here a fake)
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
