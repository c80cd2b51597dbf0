#pragma once

// SDK 1.8 on HIP, as on CUDA (backends/cuda/image.hpp): images are HIP arrays
// (hipArray3DCreate), which kernels read through texture objects (hipCreateTextureObject, one
// per sampler setting, made on first use) and write through the image descriptor of a surface
// object; a sampler is only its setting, a number that picks the texture object. The kernel
// side is the dialect's plinth_image structs (core/sdk/dialect/gpu_cxx_images.cpp), filled here
// as ImageData: HIP's texture and surface objects are pointers to device-readable records that
// start with the image's 8-dword descriptor, which the prelude's ockl stores take. Copies are
// hipMemcpy3DAsync between an array and host or device memory, or between two arrays
// (queue.cpp calls image_copies()).
//
// What HIP's versions do differently, read from their sources (hipamd rocm-5.2.3 to 5.6,
// clr rocm-6.x), none of it run here (no AMD GPU):
// - hipArray3DCreate refuses hipArraySurfaceLoadStore (hipErrorNotSupported) up to 5.6, while
//   later versions make surface objects only of arrays with it (or with no flag at all): an
//   array is asked for with it first, then without.
// - hipMemcpy3D addresses a 1-D layered array's layers along y up to 6.0 (OpenCL's axes, as
//   plinth's boxes), along z from 6.1 (CUDA's, converted inside): layers_on_z().
// - A texture object reads every axis with addressMode[0] (ROCclr has one mode per sampler).
// - A texture object that reads a normalised format (hipReadModeNormalizedFloat) is made over
//   a view of the array in the UNORM or SNORM format, while the array and its surface object
//   keep the integer format: a float store through the surface would store the float's bits.
//   So a normalised image's `surf` is its first texture object, whose record starts with the
//   view's descriptor: stores through it convert floats as OpenCL's write_imagef does.

#include <plinth/backend/gpu_image.hpp>
#include <plinth/backend/image.hpp>
#include <plinth/backend/rect_copy.hpp>

#include <hip/hip_runtime_api.h>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

namespace plinth::hip {

class ContextState;

/// The kernel argument of an image: the dialect's plinth_image_data (backend/gpu_image.hpp).
using ImageData = backend::GpuImageData;
using backend::sampler_setting;
using backend::sampler_setting_count;

/// The settings of the texture object of `setting` for an image of `type` and `format` (what
/// hipCreateTextureObject receives), or false where the setting is invalid for it (CUDA's
/// rule, backends/cuda/image.cpp). The axes the type has take the setting's address mode, the
/// others hipAddressModeClamp (HIP reads only the first; CUDA needed the others clamped);
/// normalised formats are read with hipReadModeNormalizedFloat, the others as they are.
bool texture_desc(unsigned int setting, ImageType type, const ImageFormat& format,
                  hipTextureDesc& desc) noexcept;

/// The HIP_ARRAY3D_DESCRIPTOR of an image as `desc` says: Width, Height (0 for 1-D images and
/// 1-D layered ones), Depth (0 for 1-D and 2-D; the depth of a 3-D image; the layers of a
/// layered one), the format and channels, hipArrayLayered for the layered types, and
/// hipArraySurfaceLoadStore where `surface_flag` (see the top of this file).
HIP_ARRAY3D_DESCRIPTOR array_descriptor(const backend::ImageDesc& desc, bool surface_flag) noexcept;

/// The layers of 1-D and 2-D layered images, which HIP 5's hipDeviceProp_t (the headers plinth
/// builds with) does not say and hipDeviceAttributeMaxTexture{1,2}DLayered do not answer on
/// AMD GPUs (HIP 6 keeps them in hipDeviceProp_tR0600 only): OpenCL 1.2's minimum, which AMD's
/// OpenCL, on the same runtime (ROCclr), meets.
inline constexpr std::size_t fallback_max_layers = 2048;

/// What a device with `properties` supports, where hipDeviceAttributeImageSupport said
/// `images` and its layered images take `max_layers` layers: none without image support;
/// else every format (arrays take 1, 2 or 4 channels of every channel type) in every type
/// whose limits are not 0 (maxTexture1D, maxTexture2D, maxTexture3D; layered: the 1-D and 2-D
/// limits and `max_layers`), and 3-D writes (image stores reach 3-D images).
ImageSupport image_support_from(const hipDeviceProp_t& properties, bool images,
                                std::size_t max_layers);

/// Whether hipMemcpy3D of the HIP runtime of `runtime_version` (hipRuntimeGetVersion: major *
/// 10000000 + minor * 100000 + patch) addresses a 1-D layered array's layers along z (HIP 6.1
/// and later, as CUDA) rather than y.
bool layers_on_z(int runtime_version) noexcept;

/// A HIP array (owned, or borrowed from a mapped GL texture: gl_interop.hpp), and the texture
/// and surface objects kernels use it through, made on the first kernel_arg() and destroyed
/// with the image.
class Image final : public backend::ImageAdapter {
 public:
  /// How an Image holds its array.
  enum class Array {
    owned,     ///< made for the image (hipArray3DCreate), destroyed with it
    borrowed,  ///< someone else's (a mapped GL texture level's), left alone
  };

  /// Adopts `array`, made on `device` of `state` as `desc` says.
  Image(std::shared_ptr<ContextState> state, std::size_t device, hipArray_t array,
        const backend::ImageDesc& desc) noexcept
      : Image(std::move(state), device, array, desc, Array::owned, true) {}
  /// Holds `array` of `device` of `state` as `holding` says. `writable`: whether kernels may
  /// store to it (not a GL texture registered read-only); without, kernel_arg() makes no
  /// surface object and the ImageData's surface stays 0.
  Image(std::shared_ptr<ContextState> state, std::size_t device, hipArray_t array,
        const backend::ImageDesc& desc, Array holding, bool writable) noexcept;
  /// Waits for the device's work (HIP destroys arrays and texture objects at once, and
  /// queued kernels may read them), then destroys the objects and the array if owned.
  ~Image() override;
  Image(const Image&) = delete;
  Image& operator=(const Image&) = delete;

  /// The ImageData, with the surface and texture objects made the first time (with the
  /// device current). Throws BackendError; a failed call makes what is missing next time.
  backend::ArgValue kernel_arg() override;
  /// The hipArray_t.
  backend::NativeHandle native_handle() const override {
    return reinterpret_cast<backend::NativeHandle>(array_);
  }

  hipArray_t array() const noexcept { return array_; }
  ImageType type() const noexcept { return desc_.type; }
  const ImageFormat& format() const noexcept { return desc_.format; }
  /// The data a kernel receives (its objects are 0 before the first kernel_arg()).
  const ImageData& data() const noexcept { return data_; }

 private:
  std::shared_ptr<ContextState> state_;
  std::size_t device_;
  hipArray_t array_;
  backend::ImageDesc desc_;
  ImageData data_;
  hipSurfaceObject_t surface_ = nullptr;  // of the formats that are not normalised
  Array holding_;
  bool writable_;
  std::mutex objects_mutex_;                // held while kernel_arg() makes the objects
  std::atomic<bool> objects_made_ = false;  // set (release) once data_ holds every object
};

/// A sampler: only its setting, which kernels use to pick the image's texture object.
class Sampler final : public backend::SamplerAdapter {
 public:
  /// The setting of `desc`.
  explicit Sampler(const SamplerDesc& desc) noexcept : setting_(sampler_setting(desc)) {}

  /// The 4-byte plinth_sampler.
  backend::ArgValue kernel_arg() const override { return {&setting_, sizeof(setting_)}; }
  /// 0: HIP has no sampler objects.
  backend::NativeHandle native_handle() const override { return 0; }

 private:
  unsigned int setting_;
};

/// What `device` of `state` supports: image_support_from() of its properties, image support
/// attribute and fallback_max_layers. Never throws beyond std::bad_alloc.
ImageSupport query_image_support(const ContextState& state, std::size_t device);

/// A new HIP array as `desc` says, on `device` (current for the call). Throws
/// OutOfMemoryError, BackendError.
std::unique_ptr<Image> create_image(const std::shared_ptr<ContextState>& state, std::size_t device,
                                    const backend::ImageDesc& desc);

/// One side of an image copy: an array's box, or host or device memory laid out as a RectSide
/// (rows of the box `row_pitch` apart, slices `slice_pitch` apart).
struct ImageCopyEnd {
  hipArray_t array = nullptr;  // an array when set: `origin` is its box's origin
  ImageType type = ImageType::image2d;
  std::size_t pixel_size = 0;  // an array's
  std::array<std::size_t, 3> origin{0, 0, 0};
  void* memory = nullptr;  // else memory at `memory` (its offset not yet added)
  bool host = false;       // host memory, else device memory
  backend::RectSide side;

  /// The box of `image` at `origin`.
  static ImageCopyEnd of(Image& image, const std::array<std::size_t, 3>& origin) noexcept {
    ImageCopyEnd end;
    end.array = image.array();
    end.type = image.type();
    end.pixel_size = image.format().pixel_size();
    end.origin = origin;
    return end;
  }
  /// Memory at `memory`, host memory if `host`.
  static ImageCopyEnd of(void* memory, bool host, const backend::RectSide& side) noexcept {
    ImageCopyEnd end;
    end.memory = memory;
    end.host = host;
    end.side = side;
    return end;
  }
};

/// The hipMemcpy3DAsync calls that copy a box of `size` pixels (plinth's axes) from `src` to
/// `dst` (at least one an array, whose pixel size counts): one, or one per row where both are
/// arrays, exactly one of them 1-D layered, and `on_z` (layers_on_z(): its rows are then z,
/// the other's y). nullopt, for
/// a layout a HIP copy cannot say: a memory side's row pitch beyond `max_pitch` or 32 bits, its
/// slice (row pitch times rows per slice) beyond 32 bits (HIP 5 multiplies them in 32 bits), or
/// a slice pitch that is not a multiple of the row pitch where the box has several slices.
std::optional<std::vector<hipMemcpy3DParms>> image_copies(const ImageCopyEnd& dst,
                                                          const ImageCopyEnd& src,
                                                          const std::array<std::size_t, 3>& size,
                                                          std::size_t max_pitch, bool on_z);

}  // namespace plinth::hip
