// Queue::copy_peer (SDK 1.4) against a fake driver (fake_driver.hpp): peer access enabled
// once per pair of devices, in each direction the hardware allows, from the right context;
// cuMemcpyPeerAsync with the buffers' addresses and contexts, on the queue's stream.

#include "buffer.hpp"
#include "context.hpp"
#include "fake_driver.hpp"
#include "queue.hpp"

#include <plinth/errors.hpp>

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace peer_copy_test {
namespace {

using plinth::cuda::Buffer;
using plinth::cuda::ContextState;
using plinth::cuda::Queue;
using plinth::cuda::test::FakeDriver;

class CudaPeerCopy : public ::testing::Test {
 protected:
  CudaPeerCopy() {
    state_->add(0, FakeDriver::context(0));
    state_->add(1, FakeDriver::context(1));
    state_->add(2, FakeDriver::context(2));
  }

  FakeDriver driver_;  // first: outlives everything that calls the driver
  std::shared_ptr<ContextState> state_ =
      std::make_shared<ContextState>(ContextState::Ownership::primary);
  Buffer on_0_{state_, 0, 0x10000, 4096, false};
  Buffer on_1_{state_, 1, 0x20000, 4096, false};
  Buffer on_2_{state_, 2, 0x30000, 4096, false};
  CUstream stream_ = reinterpret_cast<CUstream>(0x5000);
};

TEST_F(CudaPeerCopy, EnablesAccessOncePerPairThenCopiesOnTheQueuesStream) {
  FakeDriver::set_can_access(1, 0, false);                                     // one direction only
  FakeDriver::set_next_enable_result(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED);  // by NCCL, say
  {
    Queue queue(state_, 1, stream_, false);
    EXPECT_TRUE(queue.copy_peer(on_1_, 1, 16, on_0_, 0, 32, 100));
    EXPECT_TRUE(queue.copy_peer(on_1_, 1, 0, on_0_, 0, 0, 50));
    EXPECT_TRUE(queue.copy_peer(on_1_, 1, 0, on_0_, 0, 0, 0));  // nothing to do
  }
  const std::vector<std::string> expected{
      "cuDeviceCanAccessPeer 0->1", "cuCtxEnablePeerAccess current=dev0 peer=dev1 flags=0",
      "cuDeviceCanAccessPeer 1->0",
      "cuMemcpyPeerAsync dst=0x20010 dev1 src=0x10020 dev0 size=100 stream=0x5000 current=dev1",
      "cuMemcpyPeerAsync dst=0x20000 dev1 src=0x10000 dev0 size=50 stream=0x5000 current=dev1"};
  EXPECT_EQ(FakeDriver::calls(), expected);
  EXPECT_EQ(FakeDriver::current(), nullptr);  // the thread's context is restored
}

TEST_F(CudaPeerCopy, EachPairIsEnabledInBothDirectionsWhateverTheCopysDirection) {
  {
    Queue queue(state_, 0, stream_, false);
    EXPECT_TRUE(queue.copy_peer(on_0_, 0, 0, on_2_, 2, 0, 8));
    Queue other(state_, 2, stream_, false);
    EXPECT_TRUE(other.copy_peer(on_2_, 2, 0, on_0_, 0, 0, 8));  // the same pair: enabled
  }
  const std::vector<std::string> expected{
      "cuDeviceCanAccessPeer 0->2",
      "cuCtxEnablePeerAccess current=dev0 peer=dev2 flags=0",
      "cuDeviceCanAccessPeer 2->0",
      "cuCtxEnablePeerAccess current=dev2 peer=dev0 flags=0",
      "cuMemcpyPeerAsync dst=0x10000 dev0 src=0x30000 dev2 size=8 stream=0x5000 current=dev0",
      "cuMemcpyPeerAsync dst=0x30000 dev2 src=0x10000 dev0 size=8 stream=0x5000 current=dev2"};
  EXPECT_EQ(FakeDriver::calls(), expected);
}

TEST_F(CudaPeerCopy, AFailureToEnableIsABackendErrorAndIsTriedAgain) {
  Queue queue(state_, 1, stream_, false);
  FakeDriver::set_next_enable_result(CUDA_ERROR_TOO_MANY_PEERS);
  try {
    queue.copy_peer(on_1_, 1, 0, on_0_, 0, 0, 8);
    FAIL() << "no error";
  } catch (const plinth::BackendError& error) {
    EXPECT_EQ(error.call(), "cuCtxEnablePeerAccess");
    EXPECT_EQ(error.code(), CUDA_ERROR_TOO_MANY_PEERS);
  }
  EXPECT_EQ(FakeDriver::current(), nullptr);
  FakeDriver::calls().clear();
  EXPECT_TRUE(queue.copy_peer(on_1_, 1, 0, on_0_, 0, 0, 8));
  ASSERT_EQ(FakeDriver::calls().size(), 5U);  // both directions again, then the copy
  EXPECT_EQ(FakeDriver::calls()[0], "cuDeviceCanAccessPeer 0->1");
  EXPECT_EQ(FakeDriver::calls()[4].substr(0, 17), "cuMemcpyPeerAsync");
}

}  // namespace
}  // namespace peer_copy_test
