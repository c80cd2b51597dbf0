#pragma once

// Images and samplers: PyCUDA's CUDA arrays, textures and surfaces, OpenCL's images and
// samplers. An Image is a 1-D, 2-D or 3-D (or layered 1-D/2-D) grid of pixels on one
// device that kernels read through a Sampler (with the hardware's filtering and address
// modes) and write pixel by pixel; the dialect's functions are in docs/kernel-dialect.md
// ("Images"). The value types are in <plinth/image_format.hpp>.

#include <plinth/buffer.hpp>
#include <plinth/context.hpp>
#include <plinth/detail/access.hpp>
#include <plinth/export.hpp>
#include <plinth/image_format.hpp>
#include <plinth/queue.hpp>
#include <plinth/rect_copy.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

namespace plinth {

namespace backend {
class ImageAdapter;
class SamplerAdapter;
}  // namespace backend

namespace detail {
struct ImageImpl;
struct SamplerImpl;
}  // namespace detail

class Array;
class HostArray;
class DType;

/// Whether `device` makes images, in which formats, and how large. Never throws beyond
/// std::bad_alloc (a backend of SDK 1.7 or older: not available, saying so). Any thread.
PLINTH_EXPORT ImageSupport image_support(const BoundDevice& device);

/// An image on one device. Cheap to copy (shared handle); the image is freed with the last
/// copy, once no queued work uses it. Kernels take it as an image parameter (KernelArg).
/// Copies are ordered in the queue they are given, like Buffer's. Any thread may call the
/// members; a queue's work is enqueued by one thread at a time.
class PLINTH_EXPORT Image {
 public:
  /// A new image of `type` and `format` with `extent` pixels on `device` (unused axes must be
  /// 1: a 2-D image's depth and layers). Its contents are unspecified. Throws LogicError when
  /// the device has no images (saying why), does not make this type in this format, or an
  /// axis is 0 or beyond image_support(device).limits (naming it); OutOfMemoryError;
  /// BackendError.
  static Image allocate(const BoundDevice& device, ImageType type, ImageFormat format,
                        ImageExtent extent);

  ///@{
  /// The image's type, format and extent as allocated, and the device it lives on.
  ImageType type() const noexcept;
  ImageFormat format() const noexcept;
  ImageExtent extent() const noexcept;
  const BoundDevice& device() const noexcept;
  ///@}
  /// The whole image as a box (ImageBox's conventions: the layers of a 1-D array along y).
  ImageBox box() const noexcept;
  /// The bytes of the whole image packed: pixels of pixel_size(), rows of width, no gaps.
  std::size_t nbytes() const noexcept;
  /// The numpy shape of the whole image packed: (layers|depth, height, width, channels)
  /// without the axes the type lacks, e.g. (480, 640, 4) for a 640x480 RGBA 2-D image.
  std::vector<std::size_t> shape() const;
  /// The dtype of one channel (uint8 for unorm_int8 and uint8, float16 for float16...).
  DType channel_dtype() const;
  /// cl_mem, CUarray, hipArray_t or ze_image_handle_t.
  std::uintptr_t native_handle() const;

  /// Copies the whole image from packed host pixels (nbytes() of them; shape() order),
  /// through `queue` (of the image's device). Asynchronous unless `no_async`: `src` must
  /// then stay valid until the queue is synchronized. Throws LogicError (another device,
  /// a wrong size), BackendError.
  void set(const Queue& queue, std::span<const std::byte> src, bool no_async = false) const;
  /// Copies the whole image to packed host pixels (nbytes() of them). With `async`, `dst` is
  /// valid after queue.synchronize(); without, on return. Throws as set().
  void get(const Queue& queue, std::span<std::byte> dst, bool async = false) const;
  /// From a C-contiguous host array of shape() (a single-channel image's trailing 1 may be
  /// left out) and channel_dtype(). The queue keeps `src` alive until the copy is done.
  /// Throws LogicError naming a shape or dtype that does not match, or a host array that is
  /// not C-contiguous (copy it into one that is first).
  void set(const Queue& queue, const HostArray& src, bool no_async = false) const;
  /// To a host array as set() takes (contiguous). Throws as set().
  void get(const Queue& queue, const HostArray& dst, bool async = false) const;
  /// From a C-contiguous device array of shape() and channel_dtype() on the image's device,
  /// ordered in `queue`. Throws LogicError (another device, shape, dtype, not contiguous).
  void set(const Queue& queue, const Array& src) const;
  /// To a C-contiguous device array as set() takes, ordered in `queue`.
  void get(const Queue& queue, const Array& dst) const;

  ///@{
  /// Copies share the image.
  Image(const Image&) = default;
  Image& operator=(const Image&) = default;
  ///@}
  /// True for copies of one image (identity, not contents).
  friend bool operator==(const Image& a, const Image& b) noexcept { return a.impl_ == b.impl_; }

 private:
  friend struct detail::Access;

  explicit Image(std::shared_ptr<detail::ImageImpl> impl) : impl_(std::move(impl)) {}
  const std::shared_ptr<detail::ImageImpl>& impl() const noexcept { return impl_; }
  backend::ImageAdapter& adapter() const;

  std::shared_ptr<detail::ImageImpl> impl_;
};

/// How an image is sampled: address mode, filter, normalised coordinates. Made for a
/// context, valid on every device of it. Cheap to copy (shared handle). Kernels take it as a
/// sampler parameter (KernelArg).
class PLINTH_EXPORT Sampler {
 public:
  /// A sampler of `context`. Throws LogicError for repeat or mirrored repeat without
  /// normalised coordinates (OpenCL forbids them), or when no device of the context has
  /// images; BackendError.
  static Sampler create(const Context& context, const SamplerDesc& desc);

  ///@{
  /// The settings and the context the sampler was made with.
  const SamplerDesc& desc() const noexcept;
  const Context& context() const noexcept;
  ///@}
  /// cl_sampler or ze_sampler_handle_t; 0 on CUDA and HIP, whose samplers are part of their
  /// texture objects (made per image and sampler settings).
  std::uintptr_t native_handle() const;

  ///@{
  /// Copies share the sampler.
  Sampler(const Sampler&) = default;
  Sampler& operator=(const Sampler&) = default;
  ///@}

 private:
  friend struct detail::Access;

  explicit Sampler(std::shared_ptr<detail::SamplerImpl> impl) : impl_(std::move(impl)) {}
  const std::shared_ptr<detail::SamplerImpl>& impl() const noexcept { return impl_; }
  backend::SamplerAdapter& adapter() const;

  std::shared_ptr<detail::SamplerImpl> impl_;
};

// ---- Box copies -----------------------------------------------------------------------------
// Each copies the box `box` of an image (ImageBox: pixels; checked to lie inside the image,
// every size > 0) to or from a rectangular region of host memory or a buffer (RectRegion,
// <plinth/rect_copy.hpp>: bytes; a row of the box is box.size[0] * pixel_size() bytes, and
// the region must fit its side). Ordered in `queue`, of the image's device. They throw
// LogicError for a queue, buffer or image of another device, a box outside the image, a
// region outside its side or a pitch smaller than a row (slice); OutOfMemoryError for a
// temporary; BackendError.

/// Host to image. Asynchronous unless `no_async` (then `src` stays valid until the queue is
/// synchronized).
PLINTH_EXPORT void write_image(const Queue& queue, const Image& dst, const ImageBox& box,
                               std::span<const std::byte> src, const RectRegion& src_region = {},
                               bool no_async = false);
/// Image to host. With `async`, `dst` is valid after queue.synchronize().
PLINTH_EXPORT void read_image(const Queue& queue, std::span<std::byte> dst,
                              const RectRegion& dst_region, const Image& src, const ImageBox& box,
                              bool async = false);
/// Buffer to image (PyCUDA's Memcpy2D/3D to an array), never blocking the host.
PLINTH_EXPORT void copy_buffer_to_image(const Queue& queue, const Image& dst, const ImageBox& box,
                                        const Buffer& src, const RectRegion& src_region = {});
/// Image to buffer, never blocking the host.
PLINTH_EXPORT void copy_image_to_buffer(const Queue& queue, const Buffer& dst,
                                        const RectRegion& dst_region, const Image& src,
                                        const ImageBox& box);
/// Image to image of the same format on the same device: `src_box` of `src` to the box of
/// its size at `dst_origin` of `dst`. Throws LogicError also for different formats and for
/// a copy within one image whose boxes overlap.
PLINTH_EXPORT void copy_image(const Queue& queue, const Image& dst,
                              const std::array<std::size_t, 3>& dst_origin, const Image& src,
                              const ImageBox& src_box);

}  // namespace plinth

namespace std {

/// Hashes a Image by identity, consistently with operator==: copies of one image hash alike.
/// For unordered containers keyed by Image. Never throws.
template <>
struct hash<plinth::Image> {
  /// The hash of the image `image` refers to.
  std::size_t operator()(const plinth::Image& image) const noexcept {
    return std::hash<const void*>{}(plinth::detail::Access::impl(image).get());
  }
};

}  // namespace std
