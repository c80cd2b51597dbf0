// Loading NCCL at run time (backends/cuda/nccl.hpp) on a machine without a GPU: the real
// library (NCCL is installed with the toolkit here), names that cannot be loaded, a library
// that is not NCCL, and how NCCL's results become errors. main() sets NCCL_NVLS_ENABLE=0
// before anything can start NCCL (a rule of the shared GPU machines); ctest sets it too.

#include "api.hpp"
#include "communicator.hpp"
#include "context.hpp"
#include "nccl.hpp"

#include <plinth/errors.hpp>

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace nccl = plinth::cuda::nccl;

namespace {

TEST(NcclLibrary, VersionStringsDecodeBothEncodings) {
  EXPECT_EQ(nccl::version_string(22809), "2.28.9");  // NCCL_VERSION(2, 28, 9)
  EXPECT_EQ(nccl::version_string(21000), "2.10.0");
  EXPECT_EQ(nccl::version_string(2804), "2.8.4");  // before 2.9: X * 1000 + Y * 100 + Z
  EXPECT_EQ(nccl::version_string(31203), "3.12.3");
}

TEST(NcclLibrary, LoadsTheInstalledLibrary) {
  const nccl::Library& library = nccl::library();
  ASSERT_TRUE(library.available) << library.description;
  EXPECT_GE(library.version, nccl::minimum_version);
  EXPECT_EQ(library.description, "NCCL " + nccl::version_string(library.version));
  // The version the library reports, asked again through the table.
  int version = 0;
  ASSERT_EQ(library.functions.ncclGetVersion(&version), nccl::Result::success);
  EXPECT_EQ(version, library.version);
  EXPECT_NE(library.functions.ncclAllReduce, nullptr);
  EXPECT_NE(library.functions.ncclReduceScatter, nullptr);
  // Once per process: the same object every time.
  EXPECT_EQ(&nccl::library(), &library);
  // The real NCCL, not the stand-in of communicator_test (fake_nccl.cpp).
  void* handle = ::dlopen("libnccl.so.2", RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(handle, nullptr);
  EXPECT_EQ(::dlsym(handle, "fake_nccl_log"), nullptr);
  ::dlclose(handle);
}

TEST(NcclLibrary, TheApiReportsTheLibrary) {
  const plinth::cuda::Api api;  // collectives() needs no driver
  const auto collectives = api.collectives();
  EXPECT_TRUE(collectives.available) << collectives.description;
  EXPECT_EQ(collectives.description, nccl::library().description);
}

TEST(NcclLibrary, CommunicatorIdsAreNcclsUniqueIds) {
  const plinth::cuda::Api api;
  std::vector<std::byte> first;
  try {
    first = api.create_communicator_id();
  } catch (const plinth::BackendError& error) {
    // Without a usable network interface NCCL cannot make an id: a clear error then.
    EXPECT_EQ(error.api(), "NCCL");
    EXPECT_EQ(error.call(), "ncclGetUniqueId");
    EXPECT_NE(error.code(), 0);
    GTEST_SKIP() << "ncclGetUniqueId failed here: " << error.what();
  }
  ASSERT_EQ(first.size(), 128U);
  EXPECT_TRUE(
      std::any_of(first.begin(), first.end(), [](std::byte b) { return b != std::byte{}; }));
  // Each id is new (NCCL draws a random magic number for each).
  const auto second = api.create_communicator_id();
  ASSERT_EQ(second.size(), 128U);
  EXPECT_NE(first, second);
}

TEST(NcclLibrary, AMissingLibraryIsUnavailableWithTheLoadersText) {
  const char* name = "libplinth-no-such-nccl.so.2";
  const nccl::Library library = nccl::open_library(name);
  EXPECT_FALSE(library.available);
  EXPECT_EQ(library.version, 0);
  EXPECT_EQ(library.functions.ncclGetVersion, nullptr);
  // dlerror's own words, as a direct dlopen gives them.
  ASSERT_EQ(::dlopen(name, RTLD_NOW | RTLD_LOCAL), nullptr);
  const std::string expected = ::dlerror();
  EXPECT_EQ(library.description, expected);
  EXPECT_NE(library.description.find("cannot open shared object file"), std::string::npos)
      << library.description;
}

TEST(NcclLibrary, ALibraryWithoutNcclsFunctionsIsUnavailable) {
  const nccl::Library library = nccl::open_library("libc.so.6");
  EXPECT_FALSE(library.available);
  EXPECT_EQ(library.functions.ncclAllReduce, nullptr);
  EXPECT_NE(library.description.find("libc.so.6 has no ncclGetVersion"), std::string::npos)
      << library.description;
  EXPECT_NE(library.description.find("ncclReduceScatter"), std::string::npos)
      << library.description;
  // The optional functions are not asked for.
  EXPECT_EQ(library.description.find("ncclCommFinalize"), std::string::npos) << library.description;
}

TEST(NcclLibrary, FailedResultsAreBackendErrorsNamingTheCall) {
  ASSERT_TRUE(nccl::library().available);
  try {
    nccl::check(nccl::Result::invalid_usage, "ncclGroupEnd");
    FAIL() << "no error";
  } catch (const plinth::BackendError& error) {
    EXPECT_EQ(error.api(), "NCCL");
    EXPECT_EQ(error.call(), "ncclGroupEnd");
    EXPECT_EQ(error.code(), 5);
    EXPECT_EQ(error.code_name(), "ncclInvalidUsage");
    // NCCL's own text for the code.
    const std::string text = nccl::functions().ncclGetErrorString(nccl::Result::invalid_usage);
    EXPECT_NE(std::string(error.what()).find(text), std::string::npos) << error.what();
  }
  EXPECT_NO_THROW(nccl::check(nccl::Result::success, "ncclGroupEnd"));
  EXPECT_FALSE(nccl::check_in_destructor(nccl::Result::internal_error, "ncclCommDestroy"));
  EXPECT_TRUE(nccl::check_in_destructor(nccl::Result::success, "ncclCommDestroy"));
}

TEST(NcclLibrary, ARealNcclFailureComesBackAsABackendError) {
  ASSERT_TRUE(nccl::library().available);
  // A null output pointer: NCCL rejects the arguments itself, without a GPU.
  try {
    NCCL_CHECK(ncclGetVersion(nullptr));
    FAIL() << "no error";
  } catch (const plinth::BackendError& error) {
    EXPECT_EQ(error.api(), "NCCL");
    EXPECT_EQ(error.call(), "ncclGetVersion");
    EXPECT_EQ(error.code(), 4);
    EXPECT_EQ(error.code_name(), "ncclInvalidArgument");
    const std::string text = nccl::functions().ncclGetErrorString(nccl::Result::invalid_argument);
    EXPECT_NE(std::string(error.what()).find("ncclInvalidArgument (4): " + text), std::string::npos)
        << error.what();
  }
}

// The checks before NCCL is asked: an empty context (no device) suffices.
class NcclCommunicatorArguments : public ::testing::Test {
 protected:
  std::shared_ptr<plinth::cuda::ContextState> state_ =
      std::make_shared<plinth::cuda::ContextState>(plinth::cuda::ContextState::Ownership::primary);
};

TEST_F(NcclCommunicatorArguments, AnIdOfAnotherSizeIsALogicError) {
  const std::vector<std::byte> id(64);
  try {
    plinth::cuda::Communicator::join(state_, 0, id, 2, 0);
    FAIL() << "no error";
  } catch (const plinth::LogicError& error) {
    EXPECT_NE(std::string(error.what()).find("128 bytes; got 64"), std::string::npos)
        << error.what();
  }
  plinth::cuda::Context context(state_);
  EXPECT_THROW(context.join_communicator(0, {}, 2, 0), plinth::LogicError);
}

TEST_F(NcclCommunicatorArguments, ARankOutOfRangeIsALogicError) {
  const std::vector<std::byte> id(128);
  EXPECT_THROW(plinth::cuda::Communicator::join(state_, 0, id, 2, 2), plinth::LogicError);
}

TEST_F(NcclCommunicatorArguments, ADeviceOutOfRangeIsALogicError) {
  const std::vector<std::byte> id(128);
  EXPECT_THROW(plinth::cuda::Communicator::join(state_, 0, id, 2, 1), plinth::LogicError);
  const std::array<std::size_t, 1> devices{0};
  EXPECT_THROW(plinth::cuda::Communicator::create(state_, devices), plinth::LogicError);
  plinth::cuda::Context context(state_);
  EXPECT_THROW(context.create_communicator(devices), plinth::LogicError);
}

TEST_F(NcclCommunicatorArguments, NoDevicesIsALogicError) {
  EXPECT_THROW(plinth::cuda::Communicator::create(state_, {}), plinth::LogicError);
}

}  // namespace

int main(int argc, char** argv) {
  ::setenv("NCCL_NVLS_ENABLE", "0", 1);  // before anything can start NCCL: never multicast
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
