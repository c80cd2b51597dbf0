#pragma once

// SDK 1.8 on CUDA: images are CUDA arrays (cuArray3DCreate, always with surface load/store),
// which kernels read through texture objects (one per sampler setting, made on first use) and
// write through a surface object; a sampler is only its setting, a number that picks the
// texture object. The kernel side is the dialect's plinth_image structs
// (core/sdk/dialect/gpu_cxx_images.cpp), filled here as ImageData. Copies are cuMemcpy3DAsync
// between an array and host or device memory, or between two arrays (queue.cpp calls
// copy_image_3d()).

#include <plinth/backend/gpu_image.hpp>
#include <plinth/backend/image.hpp>
#include <plinth/backend/rect_copy.hpp>

#include <cuda.h>

#include <array>
#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <utility>

namespace plinth::cuda {

class ContextState;

/// The kernel argument of an image: the dialect's plinth_image_data (backend/gpu_image.hpp).
using ImageData = backend::GpuImageData;
using backend::sampler_setting;
using backend::sampler_setting_count;

/// The settings of the texture object of `setting` for an image of `type` and `format` (what
/// cuTexObjectCreate receives), or false where the setting is invalid for it. The axes the
/// type has take the setting's address mode, the others CU_TR_ADDRESS_MODE_CLAMP: a 1-D
/// array's texture is filtered as one row of a 2-D one, and a border on its second axis would
/// halve every linear read (seen on an H200, driver 580).
bool texture_desc(unsigned int setting, ImageType type, const ImageFormat& format,
                  CUDA_TEXTURE_DESC& desc) noexcept;

/// The CUDA_ARRAY3D_DESCRIPTOR of an image as `desc` says: Width, Height (0 for 1-D images
/// and 1-D layered ones), Depth (0 for 1-D and 2-D; the depth of a 3-D image; the layers of a
/// layered one), the format and channels, CUDA_ARRAY3D_SURFACE_LDST and, for the layered
/// types, CUDA_ARRAY3D_LAYERED.
CUDA_ARRAY3D_DESCRIPTOR array_descriptor(const backend::ImageDesc& desc) noexcept;

/// A CUDA array (owned, or borrowed from a mapped GL texture: gl_interop.hpp), and the
/// texture and surface objects kernels use it through, made on the first kernel_arg() and
/// destroyed with the image.
class Image final : public backend::ImageAdapter {
 public:
  /// How an Image holds its array.
  enum class Array {
    owned,     ///< made for the image (cuArray3DCreate), destroyed with it
    borrowed,  ///< someone else's (a mapped GL texture level's), left alone
  };

  /// Adopts `array`, made in the context of `device` of `state` as `desc` says.
  Image(std::shared_ptr<ContextState> state, std::size_t device, CUarray array,
        const backend::ImageDesc& desc) noexcept
      : Image(std::move(state), device, array, desc, Array::owned, true) {}
  /// Holds `array` of `device` of `state` as `holding` says. `surface`: whether the array
  /// has surface load/store (a GL texture registered read-only has not), so that
  /// kernel_arg() makes a surface object of it; without, the ImageData's surface stays 0.
  Image(std::shared_ptr<ContextState> state, std::size_t device, CUarray array,
        const backend::ImageDesc& desc, Array holding, bool surface) noexcept;
  /// Destroys the texture and surface objects made, and the array if owned (in the device's
  /// context; errors are reported, not thrown).
  ~Image() override;
  Image(const Image&) = delete;
  Image& operator=(const Image&) = delete;

  /// The ImageData, with the surface and texture objects made the first time (in the
  /// device's context). Throws BackendError; a failed call makes what is missing next time.
  /// Any thread: the core calls it at every launch, on the launching thread, and the first
  /// calls may come from several at once (one makes the objects, the others wait).
  backend::ArgValue kernel_arg() override;
  /// The CUarray.
  backend::NativeHandle native_handle() const override {
    return reinterpret_cast<backend::NativeHandle>(array_);
  }

  CUarray array() const noexcept { return array_; }
  ImageType type() const noexcept { return desc_.type; }
  const ImageFormat& format() const noexcept { return desc_.format; }
  /// The data a kernel receives (its objects are 0 before the first kernel_arg()).
  const ImageData& data() const noexcept { return data_; }

 private:
  std::shared_ptr<ContextState> state_;
  std::size_t device_;
  CUarray array_;
  backend::ImageDesc desc_;
  ImageData data_;
  Array holding_;
  bool surface_;
  std::mutex objects_mutex_;                // held while kernel_arg() makes the objects
  std::atomic<bool> objects_made_ = false;  // set (release) once data_ holds every object
};

/// A sampler: only its setting, which kernels use to pick the image's texture object.
class Sampler final : public backend::SamplerAdapter {
 public:
  explicit Sampler(const SamplerDesc& desc) noexcept : setting_(sampler_setting(desc)) {}

  /// The 4-byte plinth_sampler.
  backend::ArgValue kernel_arg() const override { return {&setting_, sizeof(setting_)}; }
  /// 0: CUDA has no sampler objects.
  backend::NativeHandle native_handle() const override { return 0; }

 private:
  unsigned int setting_;
};

/// What `device` of `state` supports: every format of every type, on every CUDA device, up to
/// the smaller of the texture and surface limits of all the types an ImageLimits field
/// bounds (cuDeviceGetAttribute). Never throws beyond std::bad_alloc.
ImageSupport query_image_support(const ContextState& state, std::size_t device);

/// A new CUDA array as `desc` says, in the context of `device`. Throws OutOfMemoryError,
/// BackendError.
std::unique_ptr<Image> create_image(const std::shared_ptr<ContextState>& state, std::size_t device,
                                    const backend::ImageDesc& desc);

/// One side of an image copy: an image's box, or host or device memory laid out as a RectSide
/// (rows of the box `row_pitch` apart, slices `slice_pitch` apart).
struct ImageCopyEnd {
  Image* image = nullptr;  // an image when set: `origin` is its box's origin
  std::array<std::size_t, 3> origin{0, 0, 0};
  CUdeviceptr device = 0;      // else device memory when `host` is null
  const void* host = nullptr;  // else host memory
  backend::RectSide side;

  /// The box of `image` at `origin`.
  static ImageCopyEnd of(Image& image, const std::array<std::size_t, 3>& origin) noexcept {
    ImageCopyEnd end;
    end.image = &image;
    end.origin = origin;
    return end;
  }
  /// Host memory from `host`.
  static ImageCopyEnd of(const void* host, const backend::RectSide& side) noexcept {
    ImageCopyEnd end;
    end.host = host;
    end.side = side;
    return end;
  }
  /// Device memory from `device`.
  static ImageCopyEnd of(CUdeviceptr device, const backend::RectSide& side) noexcept {
    ImageCopyEnd end;
    end.device = device;
    end.side = side;
    return end;
  }
};

/// Enqueues on `stream` (its context current) the copy of a box of `size` pixels (plinth's
/// ImageBox conventions: a 1-D array's layers along y) from `src` to `dst`: one
/// cuMemcpy3DAsync, or one per layer where exactly one side is a 1-D array (whose layers CUDA
/// keeps along z). Returns false, having done nothing, where a memory side's layout cannot be
/// said in a CUDA_MEMCPY3D: a pitch beyond `max_pitch`, or a slice pitch that is not a
/// multiple of the row pitch when the box has more than one slice. Throws BackendError.
bool copy_image_3d(CUstream stream, std::size_t max_pitch, const ImageCopyEnd& dst,
                   const ImageCopyEnd& src, const std::array<std::size_t, 3>& size);

}  // namespace plinth::cuda
