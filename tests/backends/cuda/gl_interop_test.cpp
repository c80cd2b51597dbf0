// The CUDA backend's OpenGL interop (SDK 1.9, backends/cuda/gl_interop.hpp) through the SDK's
// adapters, against the fake driver (fake_driver.hpp): gl_sharing() with and without the
// driver's graphics functions, the registration flags of each GlAccess (SURFACE_LDST for
// textures that kernels may write), registration in the device's context, mapping and
// unmapping on the queue's stream, a mapped buffer that is not freed and a mapped image whose
// CUarray is not destroyed (its texture and surface objects are; none of the latter where
// registered read-only), a layered texture's level as its mipmapped array's, a failed mapping
// undone, the resource unregistered when destroyed, and Api::create_gl_context()'s refusals (null
// handles, no GL context current, a GL context on other devices, a driver without interop), and 1-D
// textures, which CUDA does not register.

#include "gl_interop.hpp"
#include "api.hpp"
#include "buffer.hpp"
#include "device.hpp"
#include "driver.hpp"
#include "image.hpp"
#include "queue.hpp"
#include "two_device_context.hpp"

#include <plinth/errors.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace cuda_gl_interop_test {
namespace {

using plinth::BackendError;
using plinth::ChannelOrder;
using plinth::ChannelType;
using plinth::GlAccess;
using plinth::GlContext;
using plinth::GlTextureDesc;
using plinth::ImageBox;
using plinth::ImageType;
using plinth::LogicError;
using plinth::cuda::ImageData;
using plinth::cuda::Queue;
using plinth::cuda::test::FakeDriver;
using plinth::cuda::test::TwoDeviceContext;

constexpr unsigned gl_texture_2d = 0x0DE1;        // GL_TEXTURE_2D
constexpr unsigned gl_texture_2d_array = 0x8C1A;  // GL_TEXTURE_2D_ARRAY

/// A 64x32 rgba unorm8 2-D texture level `level` of texture object `name`.
GlTextureDesc texture_2d(unsigned name, int level) {
  GlTextureDesc texture;
  texture.name = name;
  texture.target = gl_texture_2d;
  texture.level = level;
  texture.internal_format = 0x8058;  // GL_RGBA8
  texture.type = ImageType::image2d;
  texture.format = {ChannelOrder::rgba, ChannelType::unorm_int8};
  texture.extent = {64, 32, 1, 1};
  return texture;
}

/// Whether any recorded call starts with `prefix`.
bool called(const std::string& prefix) {
  const auto& calls = FakeDriver::calls();
  return std::any_of(calls.begin(), calls.end(),
                     [&](const std::string& line) { return line.starts_with(prefix); });
}

/// The message of the LogicError `call` throws ("" and a test failure if none).
template <class Call>
std::string logic_error_of(Call&& call) {
  try {
    call();
  } catch (const LogicError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no LogicError";
  return {};
}

/// A context of the fake driver's two devices and a queue of device 1 on stream 0x5000.
class CudaGlInterop : public TwoDeviceContext {
 protected:
  CUstream stream_ = reinterpret_cast<CUstream>(0x5000);
  Queue queue_{state_, 1, stream_, false};
};

TEST_F(CudaGlInterop, EveryDeviceSharesWhereTheDriverHasTheGraphicsFunctions) {
  const auto sharing = context_.gl_sharing(1);
  EXPECT_TRUE(sharing.available) << sharing.reason;
  EXPECT_TRUE(context_.gl_sharing(0).available);
  EXPECT_EQ(plinth::cuda::missing_gl_functions(plinth::cuda::driver()), "");
}

TEST_F(CudaGlInterop, ADriverWithoutTheGraphicsFunctionsSaysWhichAndRegistersNothing) {
  FakeDriver::remove_gl_functions();
  const auto sharing = context_.gl_sharing(1);
  EXPECT_FALSE(sharing.available);
  EXPECT_NE(sharing.reason.find("no OpenGL interop"), std::string::npos) << sharing.reason;
  EXPECT_NE(sharing.reason.find("cuGLGetDevices_v2"), std::string::npos) << sharing.reason;
  EXPECT_NE(sharing.reason.find("cuGraphicsGLRegisterBuffer"), std::string::npos);
  EXPECT_NE(sharing.reason.find("cuGraphicsSubResourceGetMappedArray"), std::string::npos);
  EXPECT_EQ(sharing.reason.find("cuGraphicsMapResources"), std::string::npos);  // still there
  EXPECT_NE(logic_error_of([&] {
              context_.register_gl_buffer(1, 7, GlAccess::read_write);
            }).find("no OpenGL interop"),
            std::string::npos);
  EXPECT_NE(logic_error_of([&] {
              context_.register_gl_texture(1, texture_2d(5, 0), GlAccess::read_only);
            }).find("no OpenGL interop"),
            std::string::npos);
  EXPECT_TRUE(FakeDriver::calls().empty());
}

TEST_F(CudaGlInterop, RegistrationFlagsFollowTheAccessAndTexturesGetSurfaceLoadStore) {
  using plinth::cuda::gl_register_flags;
  EXPECT_EQ(gl_register_flags(GlAccess::read_write, false), 0U);
  EXPECT_EQ(gl_register_flags(GlAccess::read_only, false), 1U);
  EXPECT_EQ(gl_register_flags(GlAccess::write_only, false), 2U);
  EXPECT_EQ(gl_register_flags(GlAccess::read_write, true), 4U);
  EXPECT_EQ(gl_register_flags(GlAccess::read_only, true), 1U);
  EXPECT_EQ(gl_register_flags(GlAccess::write_only, true), 6U);
  {
    auto a = context_.register_gl_buffer(1, 7, GlAccess::read_write);
    auto b = context_.register_gl_buffer(1, 8, GlAccess::read_only);
    auto c = context_.register_gl_buffer(0, 9, GlAccess::write_only);
    auto d = context_.register_gl_texture(1, texture_2d(5, 0), GlAccess::read_write);
    auto e = context_.register_gl_texture(1, texture_2d(6, 0), GlAccess::read_only);
    auto f = context_.register_gl_texture(0, texture_2d(7, 0), GlAccess::write_only);
    EXPECT_EQ(FakeDriver::current(), nullptr);  // the thread's context is restored
    EXPECT_EQ(FakeDriver::gl_registered(), 6U);
  }
  const std::vector<std::string> expected{
      "cuGraphicsGLRegisterBuffer buffer=7 flags=none current=dev1 -> 0x6100",
      "cuGraphicsGLRegisterBuffer buffer=8 flags=read_only current=dev1 -> 0x6200",
      "cuGraphicsGLRegisterBuffer buffer=9 flags=write_discard current=dev0 -> 0x6300",
      "cuGraphicsGLRegisterImage image=5 target=0xde1 flags=surface_ldst current=dev1 -> 0x6400",
      "cuGraphicsGLRegisterImage image=6 target=0xde1 flags=read_only current=dev1 -> 0x6500",
      "cuGraphicsGLRegisterImage image=7 target=0xde1 flags=write_discard|surface_ldst "
      "current=dev0 -> 0x6600",
      // Destroyed in reverse order, each unregistered in its device's context.
      "cuGraphicsUnregisterResource 0x6600 current=dev0",
      "cuGraphicsUnregisterResource 0x6500 current=dev1",
      "cuGraphicsUnregisterResource 0x6400 current=dev1",
      "cuGraphicsUnregisterResource 0x6300 current=dev0",
      "cuGraphicsUnregisterResource 0x6200 current=dev1",
      "cuGraphicsUnregisterResource 0x6100 current=dev1",
  };
  EXPECT_EQ(FakeDriver::calls(), expected);
  EXPECT_EQ(FakeDriver::gl_registered(), 0U);
  EXPECT_EQ(FakeDriver::current(), nullptr);
}

TEST_F(CudaGlInterop, AMappedBufferIsTheGlBuffersMemoryOnTheQueuesStreamAndIsNotFreed) {
  FakeDriver::set_gl_buffer_size(1000);
  auto resource = context_.register_gl_buffer(1, 7, GlAccess::write_only);
  const auto handle = static_cast<plinth::cuda::GlResource&>(*resource).resource();
  FakeDriver::calls().clear();
  {
    auto mapped = resource->map_buffer(queue_);
    EXPECT_TRUE(FakeDriver::gl_mapped(handle));
    EXPECT_EQ(FakeDriver::current(), nullptr);
    EXPECT_EQ(mapped->size(), 1000U);
    EXPECT_EQ(mapped->native_handle(), 0xc06100U);
    CUdeviceptr argument = 0;
    const auto arg = mapped->kernel_arg();
    ASSERT_EQ(arg.size, sizeof(argument));
    std::memcpy(&argument, arg.data, sizeof(argument));
    EXPECT_EQ(argument, 0xc06100U);
    // The queue uses it as any buffer of its device.
    const std::array<std::byte, 4> pattern{std::byte{1}, std::byte{0}, std::byte{0}, std::byte{0}};
    EXPECT_TRUE(queue_.fill(*mapped, 0, 64, pattern));
    auto part = mapped->sub_region(256, 100);
    EXPECT_EQ(part->native_handle(), 0xc06200U);
  }  // the adapters go: no cuMemFree
  resource->unmap(queue_);
  EXPECT_FALSE(FakeDriver::gl_mapped(handle));
  const std::vector<std::string> expected{
      "cuGraphicsMapResources 0x6100 stream=0x5000 current=dev1",
      "cuGraphicsResourceGetMappedPointer 0x6100 current=dev1",
      "cuMemsetD32Async 0xc06100 value=0x1 count=16 stream=0x5000 current=dev1",
      "cuGraphicsUnmapResources 0x6100 stream=0x5000 current=dev1",
  };
  EXPECT_EQ(FakeDriver::calls(), expected);
  EXPECT_FALSE(called("cuMemFree"));
  // Mapped again, after the unmap: the same resource.
  resource->map_buffer(queue_).reset();
  resource->unmap(queue_);
  FakeDriver::calls().clear();
  resource.reset();
  EXPECT_EQ(FakeDriver::calls(),
            std::vector<std::string>{"cuGraphicsUnregisterResource 0x6100 current=dev1"});
  EXPECT_EQ(FakeDriver::current(), nullptr);
}

TEST_F(CudaGlInterop, AMappedTextureIsAnImageOfItsLevelsArrayThatDoesNotDestroyIt) {
  auto resource = context_.register_gl_texture(1, texture_2d(5, 2), GlAccess::read_write);
  FakeDriver::calls().clear();
  {
    auto image = resource->map_image(queue_);
    // Level 2 of resource 0x6100: array 0x106102 (fake_driver.hpp).
    EXPECT_EQ(image->native_handle(), 0x106102U);
    auto& cuda_image = dynamic_cast<plinth::cuda::Image&>(*image);  // what the queue casts to
    EXPECT_EQ(cuda_image.type(), ImageType::image2d);
    const auto arg = image->kernel_arg();
    ASSERT_EQ(arg.size, sizeof(ImageData));
    ImageData data;
    std::memcpy(&data, arg.data, sizeof(data));
    EXPECT_EQ(data.surf, 0x5100U);  // kernels may write it
    EXPECT_NE(data.tex[0], 0U);
    EXPECT_EQ(data.width, 64);
    EXPECT_EQ(data.height, 32);
    EXPECT_EQ(data.channels, 4);
    EXPECT_EQ(data.channel_type, static_cast<int>(ChannelType::unorm_int8));
    const auto* texture = FakeDriver::texture(data.tex[0]);
    ASSERT_NE(texture, nullptr);
    EXPECT_EQ(texture->array, reinterpret_cast<CUarray>(0x106102));
    // The queue's image copies take it as any image of its device.
    std::array<std::byte, 64 * 4 * 2> host{};
    FakeDriver::set_host_base(host.data());
    EXPECT_TRUE(queue_.write_image(*image, ImageBox{{0, 0, 0}, {64, 2, 1}}, host.data(),
                                   {0, 256, 512}, true));
  }
  resource->unmap(queue_);
  const auto& calls = FakeDriver::calls();
  ASSERT_GE(calls.size(), 3U);
  EXPECT_EQ(calls[0], "cuGraphicsMapResources 0x6100 stream=0x5000 current=dev1");
  EXPECT_EQ(calls[1], "cuGraphicsSubResourceGetMappedArray 0x6100 index=0 level=2 current=dev1");
  EXPECT_EQ(calls[2], "cuSurfObjectCreate 0x5100 array 0x106102 current=dev1");
  EXPECT_TRUE(
      called("cuMemcpy3DAsync array=0x106102 x=0 y=0 z=0 <- host+0 pitch=256 height=2 256x2x1 "
             "stream=0x5000 current=dev1"));
  // The image's objects are destroyed, its array is not; then the unmap.
  EXPECT_TRUE(called("cuTexObjectDestroy"));
  EXPECT_TRUE(called("cuSurfObjectDestroy 0x5100 current=dev1"));
  EXPECT_FALSE(called("cuArrayDestroy"));
  EXPECT_EQ(calls.back(), "cuGraphicsUnmapResources 0x6100 stream=0x5000 current=dev1");
  EXPECT_EQ(FakeDriver::current(), nullptr);
}

TEST_F(CudaGlInterop, ALayeredTexturesLevelIsItsMipmappedArraysAndReadOnlyHasNoSurface) {
  GlTextureDesc layered = texture_2d(6, 1);
  layered.target = gl_texture_2d_array;
  layered.type = ImageType::image2d_array;
  layered.format = {ChannelOrder::r, ChannelType::float32};
  layered.extent = {16, 8, 1, 3};
  auto resource = context_.register_gl_texture(1, layered, GlAccess::read_only);
  EXPECT_EQ(FakeDriver::calls(), std::vector<std::string>{"cuGraphicsGLRegisterImage image=6 "
                                                          "target=0x8c1a flags=read_only "
                                                          "current=dev1 -> 0x6100"});
  FakeDriver::calls().clear();
  auto image = resource->map_image(queue_);
  // A layered texture's array indices are its layers: the level of its mipmapped array is
  // the one layered array (fake_driver.hpp: 0x200000 + the resource + the level).
  EXPECT_EQ(image->native_handle(), 0x206101U);
  const std::vector<std::string> mapping{
      "cuGraphicsMapResources 0x6100 stream=0x5000 current=dev1",
      "cuGraphicsResourceGetMappedMipmappedArray 0x6100 current=dev1",
      "cuMipmappedArrayGetLevel 0x206100 level=1 current=dev1",
  };
  EXPECT_EQ(FakeDriver::calls(), mapping);
  ImageData data;
  std::memcpy(&data, image->kernel_arg().data, sizeof(data));
  EXPECT_EQ(data.surf, 0U);
  EXPECT_NE(data.tex[0], 0U);
  EXPECT_EQ(data.layers, 3);
  EXPECT_EQ(data.width, 16);
  EXPECT_FALSE(called("cuSurfObjectCreate"));
  image.reset();
  resource->unmap(queue_);
  EXPECT_FALSE(called("cuArrayDestroy"));
}

TEST_F(CudaGlInterop, AFailedMappingIsUndoneOnTheSameStream) {
  auto buffer = context_.register_gl_buffer(1, 7, GlAccess::read_write);
  auto texture = context_.register_gl_texture(1, texture_2d(5, 0), GlAccess::read_write);
  FakeDriver::calls().clear();
  FakeDriver::fail_next("cuGraphicsResourceGetMappedPointer", CUDA_ERROR_UNKNOWN);
  EXPECT_THROW(buffer->map_buffer(queue_), BackendError);
  FakeDriver::fail_next("cuGraphicsSubResourceGetMappedArray", CUDA_ERROR_INVALID_VALUE);
  EXPECT_THROW(texture->map_image(queue_), BackendError);
  FakeDriver::fail_next("cuGraphicsMapResources", CUDA_ERROR_UNKNOWN);
  EXPECT_THROW(buffer->map_buffer(queue_), BackendError);
  const std::vector<std::string> expected{
      "cuGraphicsMapResources 0x6100 stream=0x5000 current=dev1",
      "cuGraphicsResourceGetMappedPointer 0x6100 current=dev1",
      "cuGraphicsUnmapResources 0x6100 stream=0x5000 current=dev1",
      "cuGraphicsMapResources 0x6200 stream=0x5000 current=dev1",
      "cuGraphicsSubResourceGetMappedArray 0x6200 index=0 level=0 current=dev1",
      "cuGraphicsUnmapResources 0x6200 stream=0x5000 current=dev1",
      "cuGraphicsMapResources 0x6100 stream=0x5000 current=dev1",
  };
  EXPECT_EQ(FakeDriver::calls(), expected);
  EXPECT_EQ(FakeDriver::current(), nullptr);
  // Usable afterwards.
  auto mapped = buffer->map_buffer(queue_);
  EXPECT_EQ(mapped->native_handle(), 0xc06100U);
  mapped.reset();
  buffer->unmap(queue_);
}

TEST_F(CudaGlInterop, MisuseIsALogicErrorAndAResourceDestroyedMappedIsUnmappedFirst) {
  auto buffer = context_.register_gl_buffer(1, 7, GlAccess::read_write);
  auto texture = context_.register_gl_texture(1, texture_2d(5, 0), GlAccess::read_write);
  EXPECT_THROW(buffer->unmap(queue_), LogicError);  // not mapped
  EXPECT_THROW(buffer->map_image(queue_), LogicError);
  EXPECT_THROW(texture->map_buffer(queue_), LogicError);
  auto mapped = buffer->map_buffer(queue_);
  EXPECT_THROW(buffer->map_buffer(queue_), LogicError);  // already mapped
  mapped.reset();
  GlTextureDesc negative = texture_2d(5, -1);
  EXPECT_THROW(context_.register_gl_texture(1, negative, GlAccess::read_write), LogicError);
  // cuGraphicsGLRegisterImage takes no 1-D textures.
  GlTextureDesc line = texture_2d(55, 0);
  line.target = 0x0DE0;  // GL_TEXTURE_1D
  line.type = ImageType::image1d;
  line.extent = {64, 1, 1, 1};
  EXPECT_NE(logic_error_of([&] {
              context_.register_gl_texture(1, line, GlAccess::read_write);
            }).find("GL_TEXTURE_1D"),
            std::string::npos);
  line.type = ImageType::image1d_array;
  EXPECT_THROW(context_.register_gl_texture(1, line, GlAccess::read_only), LogicError);
  EXPECT_FALSE(called("cuGraphicsGLRegisterImage image=55"));
  FakeDriver::fail_next("cuGraphicsGLRegisterBuffer", CUDA_ERROR_INVALID_VALUE);
  EXPECT_THROW(context_.register_gl_buffer(1, 99, GlAccess::read_write), BackendError);
  EXPECT_EQ(FakeDriver::gl_registered(), 2U);
  EXPECT_EQ(FakeDriver::current(), nullptr);
  FakeDriver::calls().clear();
  buffer.reset();  // still mapped
  const std::vector<std::string> expected{
      "cuGraphicsUnmapResources 0x6100 stream=0x0 current=dev1",
      "cuGraphicsUnregisterResource 0x6100 current=dev1",
  };
  EXPECT_EQ(FakeDriver::calls(), expected);
  EXPECT_EQ(FakeDriver::gl_registered(), 1U);
}

/// The Api with the fake driver's devices 0 and 1.
class CudaGlContexts : public ::testing::Test {
 protected:
  /// create_gl_context() on the devices `which` with `gl`.
  std::unique_ptr<plinth::backend::ContextAdapter> make(const std::vector<int>& which,
                                                        const GlContext& gl) {
    std::vector<const plinth::backend::DeviceAdapter*> devices;
    for (const int index : which) devices.push_back(&devices_[static_cast<std::size_t>(index)]);
    return api_.create_gl_context(devices, gl);
  }

  FakeDriver driver_;
  plinth::cuda::Api api_;  // never initialised: create_gl_context() calls the driver table
  std::array<plinth::cuda::Device, 2> devices_{plinth::cuda::Device(0, "13.0"),
                                               plinth::cuda::Device(1, "13.0")};
  int display_ = 0;
  int context_ = 0;
  GlContext gl_{plinth::GlWindowSystem::egl, &display_, &context_};
};

TEST_F(CudaGlContexts, AContextOfDevicesTheGlContextRunsOnIsAnOrdinaryOne) {
  FakeDriver::set_gl_devices({1, 0});
  auto context = make({0, 1}, gl_);
  ASSERT_NE(context, nullptr);
  EXPECT_EQ(context->device_count(), 2U);
  EXPECT_TRUE(context->gl_sharing(1).available);
  const auto& calls = FakeDriver::calls();
  ASSERT_GE(calls.size(), 3U);
  EXPECT_EQ(calls[0], "cuGLGetDevices_v2 capacity=64 list=1");  // CU_GL_DEVICE_LIST_ALL
  EXPECT_EQ(calls[1], "cuDevicePrimaryCtxRetain 0");
  EXPECT_EQ(calls[2], "cuDevicePrimaryCtxRetain 1");
  // One device of several the GL context runs on will do.
  FakeDriver::calls().clear();
  EXPECT_EQ(make({1}, gl_)->device_count(), 1U);
}

TEST_F(CudaGlContexts, NullHandlesAreRefusedBeforeTheDriverIsAsked) {
  const GlContext no_display{plinth::GlWindowSystem::egl, nullptr, &context_};
  const GlContext no_context{plinth::GlWindowSystem::glx, &display_, nullptr};
  EXPECT_NE(logic_error_of([&] { make({0}, no_display); }).find("display handle is null"),
            std::string::npos);
  EXPECT_NE(logic_error_of([&] { make({0}, no_context); }).find("context handle is null"),
            std::string::npos);
  EXPECT_TRUE(FakeDriver::calls().empty());
}

TEST_F(CudaGlContexts, DevicesTheGlContextDoesNotRunOnAreNamed) {
  FakeDriver::set_gl_devices({0});
  EXPECT_EQ(logic_error_of([&] { make({1}, gl_); }),
            "the GL context current on this thread does not run on CUDA device 1 "
            "(cuGLGetDevices lists device 0)");
  EXPECT_EQ(logic_error_of([&] {
              make({0, 1}, gl_);
            }),
            "the GL context current on this thread does not run on CUDA device 1 "
            "(cuGLGetDevices lists device 0)");
  FakeDriver::set_gl_devices({});
  EXPECT_EQ(logic_error_of([&] {
              make({0, 1}, gl_);
            }),
            "the GL context current on this thread does not run on CUDA devices 0, 1 "
            "(cuGLGetDevices lists no device)");
  EXPECT_FALSE(called("cuDevicePrimaryCtxRetain"));  // no context was made
}

TEST_F(CudaGlContexts, NoGlContextCurrentOrOneOnAnotherRendererIsSaid) {
  FakeDriver::set_gl_devices({}, CUDA_ERROR_INVALID_GRAPHICS_CONTEXT);
  const std::string none = logic_error_of([&] { make({0}, gl_); });
  EXPECT_TRUE(none.starts_with("no GL context is current on this thread")) << none;
  EXPECT_NE(none.find("CUDA_ERROR_INVALID_GRAPHICS_CONTEXT"), std::string::npos) << none;
  FakeDriver::set_gl_devices({}, CUDA_ERROR_NO_DEVICE);
  const std::string elsewhere = logic_error_of([&] { make({0}, gl_); });
  EXPECT_TRUE(elsewhere.starts_with("the GL context current on this thread runs on no CUDA device"))
      << elsewhere;
  EXPECT_NE(elsewhere.find("CUDA_ERROR_NO_DEVICE"), std::string::npos) << elsewhere;
  FakeDriver::set_gl_devices({}, CUDA_ERROR_OPERATING_SYSTEM);
  const std::string other = logic_error_of([&] { make({0}, gl_); });
  EXPECT_NE(other.find("CUDA_ERROR_OPERATING_SYSTEM"), std::string::npos) << other;
  EXPECT_FALSE(called("cuDevicePrimaryCtxRetain"));
}

TEST_F(CudaGlContexts, ADriverWithoutGlInteropIsRefused) {
  FakeDriver::remove_gl_functions();
  EXPECT_NE(logic_error_of([&] { make({0}, gl_); }).find("no OpenGL interop"), std::string::npos);
  EXPECT_TRUE(FakeDriver::calls().empty());
}

}  // namespace
}  // namespace cuda_gl_interop_test
