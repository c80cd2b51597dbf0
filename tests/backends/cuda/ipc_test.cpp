// SDK 1.6's interprocess memory and events on the CUDA backend against the fake driver
// (fake_driver.hpp): a region is exported as its allocation's base handle and its offset
// there, imports are mapped with lazy peer access on the importing device's context and
// unmapped with their buffer, events are made interprocess without timing, and handles of the
// wrong size are refused before the driver sees them.

#include "buffer.hpp"
#include "context.hpp"
#include "event.hpp"
#include "fake_driver.hpp"
#include "queue.hpp"
#include "two_device_context.hpp"

#include <plinth/errors.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace ipc_test {
namespace {

using plinth::cuda::Buffer;
using plinth::cuda::Context;
using plinth::cuda::Queue;
using plinth::cuda::test::FakeDriver;

class CudaIpc : public plinth::cuda::test::TwoDeviceContext {};

TEST_F(CudaIpc, ARegionIsExportedAsItsAllocationsHandleAndItsOffset) {
  Buffer allocation(state_, 1, 0x30000, 4096, false);
  const auto region = allocation.sub_region(0x234, 16);
  const auto exported = context_.export_memory(1, *region);
  EXPECT_EQ(exported.offset, 0x234U);
  ASSERT_EQ(exported.handle.size(), 64U);
  std::uint64_t base = 0;
  std::memcpy(&base, exported.handle.data(), sizeof(base));
  EXPECT_EQ(base, 0x30000U);
  const std::vector<std::string> expected{"cuMemGetAddressRange 0x30234 current=dev1",
                                          "cuIpcGetMemHandle 0x30000 current=dev1"};
  EXPECT_EQ(FakeDriver::calls(), expected);
  EXPECT_EQ(FakeDriver::current(), nullptr);  // the thread's context is restored
}

TEST_F(CudaIpc, AnImportIsMappedOnTheImportingDeviceAndUnmappedWithItsBuffer) {
  Buffer exporter(state_, 0, 0x50000, 4096, false);
  const auto handle = context_.export_memory(0, exporter).handle;
  FakeDriver::calls().clear();
  {
    auto imported = context_.import_memory(1, handle, 4096);
    EXPECT_EQ(imported->size(), 4096U);
    EXPECT_EQ(imported->native_handle(), 0x950000U);
    const auto region = imported->sub_region(100, 8);
    EXPECT_EQ(region->native_handle(), 0x950064U);
  }
  const std::vector<std::string> expected{
      "cuIpcOpenMemHandle 0x50000 flags=" + std::to_string(CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS) +
          " current=dev1",
      "cuIpcCloseMemHandle 0x950000 current=dev1"};
  EXPECT_EQ(FakeDriver::calls(), expected);
  EXPECT_EQ(FakeDriver::current(), nullptr);
}

TEST_F(CudaIpc, HandlesOfTheWrongSizeAreRefusedAndDriverRefusalsAreBackendErrors) {
  const std::vector<std::byte> short_handle(63);
  try {
    context_.import_memory(0, short_handle, 16);
    FAIL() << "no error";
  } catch (const plinth::LogicError& error) {
    EXPECT_STREQ(error.what(), "not a CUDA IPC memory handle: 63 bytes, 64 expected");
  }
  EXPECT_THROW(context_.import_event(0, short_handle), plinth::LogicError);
  EXPECT_TRUE(FakeDriver::calls().empty());
  const std::vector<std::byte> zero_handle(64);  // the fake refuses base 0
  try {
    context_.import_memory(0, zero_handle, 16);
    FAIL() << "no error";
  } catch (const plinth::BackendError& error) {
    EXPECT_EQ(error.code(), CUDA_ERROR_INVALID_HANDLE);
  }
}

TEST_F(CudaIpc, EventsAreInterprocessWithoutTimingAndRecordedOnTheQueuesStream) {
  {
    auto event = context_.create_ipc_event(0);
    const auto handle = context_.export_event(*event);
    EXPECT_EQ(handle.size(), 64U);
    auto opened = context_.import_event(1, handle);
    Queue queue(state_, 0, reinterpret_cast<CUstream>(0x5000), false);
    queue.record_ipc_event(*event);
  }
  const std::vector<std::string> expected{
      "cuEventCreate 0x7000 flags=" +
          std::to_string(CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING) + " current=dev0",
      "cuIpcGetEventHandle 0x7000 current=dev0",  // the driver refuses it with no context
      "cuIpcOpenEventHandle 0x7000 as 0x7001 current=dev1",
      "cuEventRecord 0x7000 stream=0x5000 current=dev0",
      "cuEventDestroy 0x7001",
      "cuEventDestroy 0x7000"};
  EXPECT_EQ(FakeDriver::calls(), expected);
}

TEST_F(CudaIpc, AvailabilityFollowsTheDevicesIpcAttribute) {
  auto answer = context_.ipc_availability(0);
  EXPECT_TRUE(answer.memory);
  EXPECT_TRUE(answer.events);
  FakeDriver::set_ipc_supported(false);
  answer = context_.ipc_availability(0);
  EXPECT_FALSE(answer.memory);
  EXPECT_FALSE(answer.events);
  EXPECT_NE(answer.reason.find("CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED is 0"), std::string::npos);
}

}  // namespace
}  // namespace ipc_test
