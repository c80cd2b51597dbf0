#pragma once

// SDK 1.8: images and samplers (include/plinth/image.hpp). A backend that has them answers
// ContextAdapter::image_support() and implements create_image(), create_sampler() and the
// image copies of QueueAdapter; every one of them is optional, and the defaults say the
// backend has no images.

#include <plinth/backend/types.hpp>
#include <plinth/image_format.hpp>

#include <cstddef>

namespace plinth::backend {

/// What ContextAdapter::create_image() makes. The core has checked it against
/// ContextAdapter::image_support(): the type and format supported, every used axis between 1
/// and its limit, the unused ones 1.
struct ImageDesc {
  ImageType type = ImageType::image2d;  ///< 1-D, 2-D or 3-D, or a 1-D or 2-D array
  ImageFormat format;                   ///< the channel order and type of every pixel
  /// The size in pixels: a 2-D image has depth 1 and layers 1, a layered one depth 1.
  ImageExtent extent;
};

/// An image on one device: made by ContextAdapter::create_image(), or lent by
/// GlResourceAdapter::map_image().
///
/// The core destroys it once no Image handle refers to it, before the context. As for
/// buffers, the last handle may go while queued work still uses the image: the backend makes
/// that safe (OpenCL releases memory objects after their commands; CUDA's cuArrayDestroy
/// waits; Level Zero destroys a dropped image only once every queue that might use it has
/// idled, since Level Zero forbids destroying it while the device may use it).
class ImageAdapter {
 public:
  virtual ~ImageAdapter() = default;
  /// What a kernel's image parameter receives for this image: OpenCL and Level Zero the
  /// image handle (a cl_mem); CUDA and HIP the prelude's plinth_image struct (GpuImageData,
  /// 160 bytes: 16 texture objects, one per sampler setting the format allows, made on the
  /// first call; a surface object; the extent; the channel type and count).
  ///
  /// Points to storage inside the adapter. Called at every launch that passes the image, on
  /// the launching thread; the core takes no lock, so launches on several threads may call
  /// it for one image at once, and a backend that makes what it needs on the first call (CUDA's
  /// texture objects) makes that safe. Throws BackendError. Since SDK 1.8; required of images.
  virtual ArgValue kernel_arg() = 0;
  /// cl_mem, CUarray, hipArray_t, ze_image_handle_t.
  ///
  /// Called by Image::native_handle(), from any thread. Since SDK 1.8; required of images.
  virtual NativeHandle native_handle() const = 0;
};

/// A sampler of a context, valid for every device of it: made by
/// ContextAdapter::create_sampler(), destroyed by the core before the context.
class SamplerAdapter {
 public:
  virtual ~SamplerAdapter() = default;
  /// What a kernel's sampler parameter receives: a cl_sampler, a ze_sampler_handle_t; CUDA
  /// and HIP the prelude's plinth_sampler, the setting `address | filter << 2 | normalized <<
  /// 3` (sampler_setting()) that picks the image's texture object.
  ///
  /// Points to storage inside the adapter. Called at every launch that passes the sampler,
  /// on the launching thread, possibly on several at once; must not allocate. Since SDK 1.8;
  /// required of samplers.
  virtual ArgValue kernel_arg() const = 0;
  /// cl_sampler, ze_sampler_handle_t; 0 where the API has no sampler objects (CUDA, HIP).
  ///
  /// Called by Sampler::native_handle(), from any thread. Since SDK 1.8; required of
  /// samplers.
  virtual NativeHandle native_handle() const = 0;
};

}  // namespace plinth::backend
