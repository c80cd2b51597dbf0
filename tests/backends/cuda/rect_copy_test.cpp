// The CUDA backend's rectangular copies (SDK 1.6) and pitched allocations against the fake
// driver (fake_driver.hpp): CUDA_MEMCPY2D, CUDA_MEMCPY3D and CUDA_MEMCPY3D_PEER filled from the
// core's sides (offsets in the pointers, pitches, slices as heights in rows), refusals where
// the driver would refuse (pitches beyond CU_DEVICE_ATTRIBUTE_MAX_PITCH, slice pitches that
// are not whole rows), and cuMemAllocPitch.

#include "buffer.hpp"
#include "context.hpp"
#include "fake_driver.hpp"
#include "queue.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace rect_copy_test {
namespace {

using plinth::backend::RectShape;
using plinth::backend::RectSide;
using plinth::cuda::Buffer;
using plinth::cuda::Context;
using plinth::cuda::ContextState;
using plinth::cuda::Queue;
using plinth::cuda::test::FakeDriver;

class CudaRectCopy : public ::testing::Test {
 protected:
  CudaRectCopy() {
    FakeDriver::set_max_pitch(4096);
    state_->add(0, FakeDriver::context(0));
    state_->add(1, FakeDriver::context(1));
    FakeDriver::set_host_base(host_.data());
  }

  FakeDriver driver_;  // first: outlives everything that calls the driver
  std::shared_ptr<ContextState> state_ =
      std::make_shared<ContextState>(ContextState::Ownership::primary);
  Buffer on_0_{state_, 0, 0x10000, 1 << 20, false};
  Buffer other_0_{state_, 0, 0x40000, 1 << 20, false};
  Buffer on_1_{state_, 1, 0x20000, 1 << 20, false};
  CUstream stream_ = reinterpret_cast<CUstream>(0x5000);
  std::array<std::byte, 4096> host_{};
};

TEST_F(CudaRectCopy, TwoDimensionalCopiesFillCudaMemcpy2D) {
  {
    Queue queue(state_, 0, stream_, false);
    EXPECT_TRUE(queue.copy_rect(on_0_, {16, 256, 2048}, other_0_, {3, 1000, 8000}, {100, 7, 1}));
    EXPECT_TRUE(
        queue.write_rect(on_0_, {0, 512, 0}, host_.data(), {8, 100, 700}, {100, 7, 1}, true));
    EXPECT_TRUE(
        queue.read_rect(host_.data(), {4, 100, 700}, on_0_, {64, 512, 0}, {100, 7, 1}, false));
  }
  const std::vector<std::string> expected{
      "cuMemcpy2DAsync dev=0x10010 pitch=256 <- dev=0x40003 pitch=1000 x=0,0 y=0,0 100x7 "
      "stream=0x5000 current=dev0",
      "cuMemcpy2DAsync dev=0x10000 pitch=512 <- host+8 pitch=100 x=0,0 y=0,0 100x7 "
      "stream=0x5000 current=dev0",
      "cuMemcpy2DAsync host+4 pitch=100 <- dev=0x10040 pitch=512 x=0,0 y=0,0 100x7 "
      "stream=0x5000 current=dev0",
      "cuStreamSynchronize 0x5000"};  // the synchronous read
  EXPECT_EQ(FakeDriver::calls(), expected);
  EXPECT_EQ(FakeDriver::current(), nullptr);
}

TEST_F(CudaRectCopy, ThreeDimensionalCopiesGiveSlicesAsRowsOrAreRefused) {
  Queue queue(state_, 0, stream_, false);
  EXPECT_TRUE(queue.copy_rect(on_0_, {0, 128, 128 * 10}, other_0_, {5, 64, 64 * 8}, {60, 8, 3}));
  // 1000 is not a whole number of 64-byte rows: CUDA_MEMCPY3D cannot say it.
  EXPECT_FALSE(queue.copy_rect(on_0_, {0, 128, 1280}, other_0_, {0, 64, 1000}, {60, 8, 3}));
  EXPECT_FALSE(
      queue.write_rect(on_0_, {0, 128, 1280}, host_.data(), {0, 64, 1000}, {60, 8, 3}, true));
  // One plane: any slice pitch, since there is no second slice.
  EXPECT_TRUE(queue.copy_rect(on_0_, {0, 128, 1280}, other_0_, {0, 64, 1000}, {60, 8, 1}));
  const std::vector<std::string> expected{
      "cuMemcpy3DAsync dev=0x10000 pitch=128 height=10 <- dev=0x40005 pitch=64 height=8 xyz=0 "
      "60x8x3 arrays=0 stream=0x5000 current=dev0",
      "cuMemcpy2DAsync dev=0x10000 pitch=128 <- dev=0x40000 pitch=64 x=0,0 y=0,0 60x8 "
      "stream=0x5000 current=dev0"};
  EXPECT_EQ(FakeDriver::calls(), expected);
}

TEST_F(CudaRectCopy, PitchesBeyondTheDevicesLimitAreRefused) {
  Queue queue(state_, 0, stream_, false);
  EXPECT_FALSE(queue.copy_rect(on_0_, {0, 8192, 0}, other_0_, {0, 64, 0}, {60, 2, 1}));
  EXPECT_FALSE(queue.read_rect(host_.data(), {0, 4097, 0}, on_0_, {0, 64, 0}, {60, 2, 1}, true));
  EXPECT_TRUE(queue.copy_rect(on_0_, {0, 4096, 0}, other_0_, {0, 64, 0}, {60, 2, 1}));
  EXPECT_EQ(FakeDriver::calls().size(), 1U);
}

TEST_F(CudaRectCopy, PeerCopiesFillCudaMemcpy3DPeer) {
  {
    Queue queue(state_, 1, stream_, false);
    EXPECT_TRUE(
        queue.copy_rect_peer(on_1_, 1, {32, 256, 256 * 4}, on_0_, 0, {7, 100, 0}, {90, 4, 1}));
    EXPECT_TRUE(
        queue.copy_rect_peer(on_1_, 1, {0, 256, 256 * 5}, on_0_, 0, {0, 100, 100 * 4}, {90, 4, 2}));
    EXPECT_FALSE(
        queue.copy_rect_peer(on_1_, 1, {0, 256, 256 * 5}, on_0_, 0, {0, 100, 450}, {90, 4, 2}));
  }
  const std::vector<std::string> expected{
      "cuDeviceCanAccessPeer 0->1",
      "cuCtxEnablePeerAccess current=dev0 peer=dev1 flags=0",
      "cuDeviceCanAccessPeer 1->0",
      "cuCtxEnablePeerAccess current=dev1 peer=dev0 flags=0",
      "cuMemcpy3DPeerAsync dev=0x20020 pitch=256 height=4 dev1 <- dev=0x10007 pitch=100 "
      "height=4 dev0 90x4x1 stream=0x5000 current=dev1",
      "cuMemcpy3DPeerAsync dev=0x20000 pitch=256 height=5 dev1 <- dev=0x10000 pitch=100 "
      "height=4 dev0 90x4x2 stream=0x5000 current=dev1"};
  EXPECT_EQ(FakeDriver::calls(), expected);
}

TEST_F(CudaRectCopy, PitchedAllocationsAreCuMemAllocPitch) {
  Context context(state_);
  std::size_t pitch = 0;
  {
    auto buffer = context.allocate_pitched(1, 1000, 30, pitch);
    ASSERT_NE(buffer, nullptr);
    EXPECT_EQ(pitch, 1024U);
    EXPECT_EQ(buffer->size(), 1024U * 30);
  }
  // Wider than the largest pitch: the core's default.
  EXPECT_EQ(context.allocate_pitched(0, 5000, 2, pitch), nullptr);
  const std::vector<std::string> expected{"cuMemAllocPitch 1000x30 element=16 current=dev1",
                                          "cuMemFree 0x70000"};
  EXPECT_EQ(FakeDriver::calls(), expected);
}

}  // namespace
}  // namespace rect_copy_test
