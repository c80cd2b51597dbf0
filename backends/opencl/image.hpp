#pragma once

// SDK 1.8 on OpenCL: images (clCreateImage, OpenCL 1.2) and samplers (clCreateSampler), what a
// device supports (CL_DEVICE_IMAGE_SUPPORT, its limits, clGetSupportedImageFormats), and the
// commands that copy images (clEnqueue{Write,Read,Copy}Image, clEnqueueCopy{Buffer,Image}To...).

#include <plinth/backend/image.hpp>
#include <plinth/backend/rect_copy.hpp>

#include <CL/cl.h>

#include <array>
#include <cstddef>

namespace plinth::opencl {

class Buffer;

/// A cl_mem image (one reference owned).
class Image final : public backend::ImageAdapter {
 public:
  /// Adopts `memory`'s reference; its pixels have `pixel_size` bytes.
  Image(cl_mem memory, std::size_t pixel_size) noexcept
      : memory_(memory), pixel_size_(pixel_size) {}
  Image(const Image&) = delete;
  Image& operator=(const Image&) = delete;
  ~Image() override;

  backend::ArgValue kernel_arg() override { return {&memory_, sizeof(memory_)}; }
  backend::NativeHandle native_handle() const override {
    return reinterpret_cast<backend::NativeHandle>(memory_);
  }
  cl_mem memory() const noexcept { return memory_; }
  std::size_t pixel_size() const noexcept { return pixel_size_; }

 private:
  cl_mem memory_;
  std::size_t pixel_size_;
};

/// A cl_sampler (one reference owned).
class Sampler final : public backend::SamplerAdapter {
 public:
  explicit Sampler(cl_sampler sampler) noexcept : sampler_(sampler) {}
  Sampler(const Sampler&) = delete;
  Sampler& operator=(const Sampler&) = delete;
  ~Sampler() override;

  backend::ArgValue kernel_arg() const override { return {&sampler_, sizeof(sampler_)}; }
  backend::NativeHandle native_handle() const override {
    return reinterpret_cast<backend::NativeHandle>(sampler_);
  }

 private:
  cl_sampler sampler_;
};

/// What `device` of `context` supports: none before OpenCL 1.2 (no clCreateImage) or without
/// CL_DEVICE_IMAGE_SUPPORT; else its limits and the formats clGetSupportedImageFormats lists
/// for CL_MEM_READ_WRITE images of each type. Never throws beyond std::bad_alloc.
ImageSupport query_image_support(cl_context context, cl_device_id device);

/// clCreateImage of `desc` (checked by the core). Throws OutOfMemoryError, BackendError.
std::unique_ptr<Image> create_image(cl_context context, const backend::ImageDesc& desc);

/// clCreateSampler. Throws BackendError.
std::unique_ptr<Sampler> create_sampler(cl_context context, const SamplerDesc& desc);

/// The commands of QueueAdapter's image copies on `queue` (queue.cpp forwards to them); each
/// returns false for a layout OpenCL cannot take (see queue.hpp).
bool write_image(cl_command_queue queue, Image& dst, const ImageBox& box, const void* src,
                 const backend::RectSide& src_side, bool async);
bool read_image(cl_command_queue queue, void* dst, const backend::RectSide& dst_side, Image& src,
                const ImageBox& box, bool async);
bool copy_buffer_to_image(cl_command_queue queue, Image& dst, const ImageBox& box, Buffer& src,
                          const backend::RectSide& src_side);
bool copy_image_to_buffer(cl_command_queue queue, Buffer& dst, const backend::RectSide& dst_side,
                          Image& src, const ImageBox& box);
void copy_image(cl_command_queue queue, Image& dst, const std::array<std::size_t, 3>& dst_origin,
                Image& src, const ImageBox& src_box);

}  // namespace plinth::opencl
