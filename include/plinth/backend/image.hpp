#pragma once

// SDK 1.8: images and samplers (include/plinth/image.hpp). A backend that has them answers
// ContextAdapter::image_support() and implements create_image(), create_sampler() and the
// image copies of QueueAdapter; every one of them is optional, and the defaults say the
// backend has no images.

#include <plinth/backend/types.hpp>
#include <plinth/image_format.hpp>

#include <cstddef>

namespace plinth::backend {

/// What ContextAdapter::create_image() makes. The core has checked that the device supports
/// `type` in `format` (image_support()) and that `extent` is within its limits, with unused
/// axes 1.
struct ImageDesc {
  ImageType type = ImageType::image2d;
  ImageFormat format;
  ImageExtent extent;
};

/// An image on one device. Created by ContextAdapter::create_image(); the core destroys it
/// once no Image handle or queued work refers to it.
class ImageAdapter {
 public:
  virtual ~ImageAdapter() = default;
  /// What a kernel's image parameter receives for this image (OpenCL and Level Zero: the
  /// image handle; CUDA and HIP: the prelude's plinth_image struct of texture and surface
  /// objects). Points to storage inside the adapter. Called when arguments are bound (a
  /// prepare, not a launch), from one thread at a time per image: it may make what it
  /// needs the first time (CUDA's texture objects). Throws BackendError.
  virtual ArgValue kernel_arg() = 0;
  /// cl_mem, CUarray, hipArray_t, ze_image_handle_t.
  virtual NativeHandle native_handle() const = 0;
};

/// A sampler of a context (valid for every device of it). Created by
/// ContextAdapter::create_sampler().
class SamplerAdapter {
 public:
  virtual ~SamplerAdapter() = default;
  /// What a kernel's sampler parameter receives (a cl_sampler, ze_sampler_handle_t; CUDA and
  /// HIP: the prelude's plinth_sampler, a number). Points to storage inside the adapter;
  /// must not allocate.
  virtual ArgValue kernel_arg() const = 0;
  /// cl_sampler, ze_sampler_handle_t; 0 where the API has no sampler objects (CUDA, HIP).
  virtual NativeHandle native_handle() const = 0;
};

}  // namespace plinth::backend
