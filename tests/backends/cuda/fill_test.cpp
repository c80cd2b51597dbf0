// Queue::fill (SDK 1.6) against a fake driver (fake_driver.hpp): the widest of
// cuMemsetD32/D16/D8Async that the address, the size and the pattern allow, with the value
// as the aligned words see it, on the queue's stream with its context current; patterns of
// other sizes refused, calling nothing.

#include "buffer.hpp"
#include "context.hpp"
#include "fake_driver.hpp"
#include "queue.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace fill_test {
namespace {

using plinth::cuda::Buffer;
using plinth::cuda::ContextState;
using plinth::cuda::Queue;
using plinth::cuda::test::FakeDriver;

std::vector<std::byte> bytes(std::initializer_list<int> values) {
  std::vector<std::byte> out;
  for (const int v : values) out.push_back(std::byte(v));
  return out;
}

class CudaFill : public ::testing::Test {
 protected:
  CudaFill() { state_->add(0, FakeDriver::context(0)); }

  std::vector<std::string> fill(std::size_t offset, std::size_t size,
                                const std::vector<std::byte>& pattern, bool expected = true) {
    FakeDriver::calls().clear();
    Queue queue(state_, 0, reinterpret_cast<CUstream>(0x5000), false);
    EXPECT_EQ(queue.fill(buffer_, offset, size, pattern), expected);
    return FakeDriver::calls();
  }

  FakeDriver driver_;
  std::shared_ptr<ContextState> state_ =
      std::make_shared<ContextState>(ContextState::Ownership::primary);
  Buffer buffer_{state_, 0, 0x10000, 4096, false};
  // Wrapped memory may start anywhere: 0x20001 is odd.
  Buffer odd_{state_, 0, 0x20001, 4096, false};
};

TEST_F(CudaFill, AlignedWordsTakeOneD32WhateverThePatternsSize) {
  EXPECT_EQ(fill(16, 64, bytes({1, 2, 3, 4})),
            std::vector<std::string>{
                "cuMemsetD32Async 0x10010 value=0x4030201 count=16 stream=0x5000 current=dev0"});
  EXPECT_EQ(fill(0, 8, bytes({0xab})),
            std::vector<std::string>{
                "cuMemsetD32Async 0x10000 value=0xabababab count=2 stream=0x5000 current=dev0"});
  EXPECT_EQ(fill(4, 8, bytes({1, 2})),
            std::vector<std::string>{
                "cuMemsetD32Async 0x10004 value=0x2010201 count=2 stream=0x5000 current=dev0"});
  EXPECT_EQ(FakeDriver::current(), nullptr);  // the thread's context is restored
}

TEST_F(CudaFill, TwoByteAlignedHalfWordsTakeD16AndOddOnesD8) {
  EXPECT_EQ(fill(2, 6, bytes({1, 2})),
            std::vector<std::string>{
                "cuMemsetD16Async 0x10002 value=0x201 count=3 stream=0x5000 current=dev0"});
  EXPECT_EQ(fill(3, 5, bytes({7})),
            std::vector<std::string>{
                "cuMemsetD8Async 0x10003 value=0x7 count=5 stream=0x5000 current=dev0"});
}

TEST_F(CudaFill, AnUnalignedAddressGetsTheAlignedMiddleAndBytesAround) {
  // 4-byte pattern at an odd wrapped address: bytes at 0x20001..3, the middle from 0x20004
  // (its words start with the pattern's byte 3), then the 1 byte left.
  const std::vector<std::string> expected{
      "cuMemsetD32Async 0x20004 value=0x3020104 count=3 stream=0x5000 current=dev0",
      "cuMemsetD8Async 0x20001 value=0x1 count=1 stream=0x5000 current=dev0",
      "cuMemsetD8Async 0x20002 value=0x2 count=1 stream=0x5000 current=dev0",
      "cuMemsetD8Async 0x20003 value=0x3 count=1 stream=0x5000 current=dev0",
      "cuMemsetD8Async 0x20010 value=0x4 count=1 stream=0x5000 current=dev0"};
  FakeDriver::calls().clear();
  {
    Queue queue(state_, 0, reinterpret_cast<CUstream>(0x5000), false);
    EXPECT_TRUE(queue.fill(odd_, 0, 16, bytes({1, 2, 3, 4})));
  }
  EXPECT_EQ(FakeDriver::calls(), expected);
  // A 2-byte pattern at an odd address: no D16 (misaligned), so words and bytes too.
  FakeDriver::calls().clear();
  {
    Queue queue(state_, 0, reinterpret_cast<CUstream>(0x5000), false);
    EXPECT_TRUE(queue.fill(odd_, 2, 4, bytes({5, 6})));  // 0x20003: under 8 bytes
  }
  EXPECT_EQ(FakeDriver::calls(),
            (std::vector<std::string>{
                "cuMemsetD8Async 0x20003 value=0x5 count=1 stream=0x5000 current=dev0",
                "cuMemsetD8Async 0x20004 value=0x6 count=1 stream=0x5000 current=dev0",
                "cuMemsetD8Async 0x20005 value=0x5 count=1 stream=0x5000 current=dev0",
                "cuMemsetD8Async 0x20006 value=0x6 count=1 stream=0x5000 current=dev0"}));
}

TEST_F(CudaFill, LongerPatternsAreRefusedCallingNothing) {
  EXPECT_TRUE(fill(0, 64, std::vector<std::byte>(8, std::byte{1}), false).empty());
  EXPECT_TRUE(fill(0, 48, std::vector<std::byte>(3, std::byte{1}), false).empty());
}

}  // namespace
}  // namespace fill_test
