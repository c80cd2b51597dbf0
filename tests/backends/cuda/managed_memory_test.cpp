// SDK 1.6's managed memory and memory info in the CUDA backend against a fake driver
// (fake_driver.hpp): cuMemAllocManaged with the attach flag, in the device's context, refused
// where CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY is 0; cuMemPrefetchAsync and cuMemAdvise with
// CUDA 13's CUmemLocation (and no prefetch without concurrent managed access);
// cuStreamAttachMemAsync on the queue's stream; cuMemGetInfo in the device's context.

#include "buffer.hpp"
#include "context.hpp"
#include "fake_driver.hpp"
#include "queue.hpp"
#include "two_device_context.hpp"

#include <plinth/errors.hpp>

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace managed_memory_test {
namespace {

using plinth::ManagedAdvice;
using plinth::ManagedAttach;
using plinth::ManagedLocation;
using plinth::cuda::Context;
using plinth::cuda::Queue;
using plinth::cuda::test::FakeDriver;

class CudaManagedMemory : public plinth::cuda::test::TwoDeviceContext {
 protected:
  CUstream stream_ = reinterpret_cast<CUstream>(0x5000);
};

TEST_F(CudaManagedMemory, AllocatesInTheDevicesContextWithTheAttachFlag) {
  {
    const auto global = context_.allocate_managed(1, 4096, ManagedAttach::global);
    EXPECT_EQ(global->host_pointer(), reinterpret_cast<void*>(0x70000));
    const auto region = global->sub_region(256, 16);
    EXPECT_EQ(region->host_pointer(), reinterpret_cast<void*>(0x70100));
    const auto host = context_.allocate_managed(0, 64, ManagedAttach::host);
  }
  const std::vector<std::string> expected{"cuMemAllocManaged size=4096 flags=1 current=dev1",
                                          "cuMemAllocManaged size=64 flags=2 current=dev0",
                                          "cuMemFree 0x70000", "cuMemFree 0x70000"};
  EXPECT_EQ(FakeDriver::calls(), expected);
  EXPECT_EQ(FakeDriver::current(), nullptr);
  // Ordinary memory has no host side.
  const plinth::cuda::Buffer ordinary(state_, 0, 0x10000, 64, false);
  EXPECT_EQ(ordinary.host_pointer(), nullptr);
}

TEST_F(CudaManagedMemory, ADeviceWithoutManagedMemoryIsRefusedNamingTheAttribute) {
  FakeDriver::set_attribute(CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, 1, 0);
  try {
    context_.allocate_managed(1, 64, ManagedAttach::global);
    FAIL() << "no LogicError";
  } catch (const plinth::LogicError& e) {
    EXPECT_EQ(std::string(e.what()),
              "CUDA device 1 ('Fake GPU 1') has no managed memory "
              "(CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY is 0)");
  }
  EXPECT_TRUE(FakeDriver::calls().empty());
}

TEST_F(CudaManagedMemory, PrefetchAdviceAndAttachUseTheLocationAndTheStream) {
  const auto buffer = context_.allocate_managed(1, 4096, ManagedAttach::global);
  const auto region = buffer->sub_region(512, 128);
  FakeDriver::calls().clear();
  {
    Queue queue(state_, 1, stream_, false);
    EXPECT_TRUE(queue.prefetch(*buffer, ManagedLocation::device));
    EXPECT_TRUE(queue.prefetch(*region, ManagedLocation::host));
    EXPECT_TRUE(queue.advise(*buffer, ManagedAdvice::set_read_mostly, ManagedLocation::device));
    EXPECT_TRUE(
        queue.advise(*region, ManagedAdvice::set_preferred_location, ManagedLocation::host));
    EXPECT_TRUE(queue.advise(*buffer, ManagedAdvice::unset_accessed_by, ManagedLocation::device));
    EXPECT_TRUE(queue.attach(*buffer, ManagedAttach::single));
    EXPECT_TRUE(queue.attach(*buffer, ManagedAttach::host));
    // Without concurrent managed access there is no prefetch, and it says so.
    FakeDriver::set_attribute(CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, 1, 0);
    EXPECT_FALSE(queue.prefetch(*buffer, ManagedLocation::device));
  }
  const std::vector<std::string> expected{
      "cuMemPrefetchAsync 0x70000 size=4096 to=device 1 flags=0 stream=0x5000 current=dev1",
      "cuMemPrefetchAsync 0x70200 size=128 to=host flags=0 stream=0x5000 current=dev1",
      "cuMemAdvise 0x70000 size=4096 advice=1 location=device 1",
      "cuMemAdvise 0x70200 size=128 advice=3 location=host",
      "cuMemAdvise 0x70000 size=4096 advice=6 location=device 1",
      "cuStreamAttachMemAsync stream=0x5000 0x70000 length=0 flags=4",
      "cuStreamAttachMemAsync stream=0x5000 0x70000 length=0 flags=2"};
  EXPECT_EQ(FakeDriver::calls(), expected);
  EXPECT_EQ(FakeDriver::current(), nullptr);
}

TEST_F(CudaManagedMemory, MemoryInfoAsksInTheDevicesContext) {
  plinth::MemoryInfo info;
  EXPECT_TRUE(context_.memory_info(1, info));
  EXPECT_EQ(info.total, std::size_t{80} << 30);
  ASSERT_TRUE(info.free.has_value());
  EXPECT_EQ(*info.free, std::size_t{3} << 30);
  EXPECT_EQ(FakeDriver::calls(), std::vector<std::string>{"cuMemGetInfo current=dev1"});
  EXPECT_EQ(FakeDriver::current(), nullptr);
}

}  // namespace
}  // namespace managed_memory_test
