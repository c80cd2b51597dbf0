#pragma once

// SDK 1.8 on Level Zero: images (zeImageCreate, always with ZE_IMAGE_FLAG_KERNEL_WRITE) and
// samplers (zeSamplerCreate), which kernels take as their handles (zeKernelSetArgumentValue
// of a ze_image_handle_t, a ze_sampler_handle_t: what OpenCL C's image and sampler parameters
// become in SPIR-V, spirv_reflection.cpp); what a device makes (zeDeviceGetImageProperties);
// and the commands of the image copies (zeCommandListAppendImageCopy{From,To}Memory[Ext],
// zeCommandListAppendImageCopyRegion), which queue.cpp appends as it appends its other
// commands. Boxes keep OpenCL's axes, as Level Zero's image regions do (it is OpenCL's image
// model): a 1-D array's layers along y, a 2-D array's along z.
//
// Dropped images and samplers are destroyed once no queue may still use them
// (retirements.hpp). The descriptor translations are pure functions, unit-tested without a
// driver (tests/backends/level_zero/image_test.cpp).

#include <plinth/backend/image.hpp>
#include <plinth/backend/rect_copy.hpp>

#include <level_zero/ze_api.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

namespace plinth::level_zero {

class ContextState;
class Retirements;

/// The ze_image_format_t of `format`: the layout of its channel count and size (R: 8, 16,
/// 32; RG: 8_8...; RGBA: 8_8_8_8...), the type (UINT, SINT, UNORM, SNORM, FLOAT), and the
/// swizzle that reads missing channels as OpenCL does: R (r, 0, 0, 1), RG (r, g, 0, 1), so
/// that a border without alpha is (0, 0, 0, 1) too. Every plinth format has one.
ze_image_format_t image_format(const ImageFormat& format) noexcept;

/// The ze_image_desc_t of `desc`: ZE_IMAGE_FLAG_KERNEL_WRITE, the type, the format, the
/// extent (height and depth 1 where unused; arraylevels the layers of a layered image, else
/// 0), no mipmaps.
ze_image_desc_t image_desc(const backend::ImageDesc& desc) noexcept;

/// The ze_sampler_desc_t of `desc`: clamp_to_edge ZE_SAMPLER_ADDRESS_MODE_CLAMP,
/// clamp_to_border CLAMP_TO_BORDER, repeat REPEAT, mirrored_repeat MIRROR; filter NEAREST or
/// LINEAR; isNormalized.
ze_sampler_desc_t sampler_desc(const SamplerDesc& desc) noexcept;

/// What a device with `properties` (zeDeviceGetImageProperties) supports: none without image
/// dimensions, image reads and writes in kernels, or samplers (the reason names the field);
/// else its limits (1-D and 1-D array widths maxImageDims1D; 2-D and 2-D array sides
/// maxImageDims2D; 3-D sides maxImageDims3D; layers maxImageArraySlices), every format in each
/// type whose limits are not 0 (Level Zero has no format query; ze_image_format_t takes all
/// of plinth's), and 3-D writes where there are 3-D images (OpenCL C 2.0 has them).
ImageSupport image_support_from(const ze_device_image_properties_t& properties);

/// How a memory side (host or device memory) of an image copy is laid out for Level Zero, or
/// nullopt where it cannot be said.
struct MemoryLayout {
  /// The *Ext copy with these pitches (ZE_extension_image_copy); else the plain one, which
  /// takes packed rows and slices.
  bool pitched = false;
  std::uint32_t row_pitch = 0;
  std::uint32_t slice_pitch = 0;
};

/// The layout of `side` for a copy of `box` of an image of `type` with pixels of `pixel_size`
/// bytes: packed (rows box.size[0] pixels apart where the box has more than one, slices a
/// packed slice apart where it has more than one) takes the plain copy; otherwise, where the
/// driver has ZE_extension_image_copy (`pitched_copies`), a 2-D image, a 3-D image or a 2-D
/// array take their pitches (32-bit; a 2-D image's slice pitch 0, as the extension asks), and
/// nullopt for the rest (1-D arrays, whose layer pitch the extension names ambiguously;
/// pitches beyond 32 bits; no extension): the core packs through a temporary.
std::optional<MemoryLayout> memory_layout(ImageType type, const ImageBox& box,
                                          const backend::RectSide& side, std::size_t pixel_size,
                                          bool pitched_copies) noexcept;

/// The ze_image_region_t of a box at `origin` of `size` pixels (plinth's axes are Level
/// Zero's), or nullopt where a number is beyond 32 bits (no image is that large).
std::optional<ze_image_region_t> image_region(const std::array<std::size_t, 3>& origin,
                                              const std::array<std::size_t, 3>& size) noexcept;

/// A ze_image_handle_t (owned: retired when the adapter goes).
class Image final : public backend::ImageAdapter {
 public:
  /// Adopts `image`, made on `device` as `desc` says.
  Image(std::shared_ptr<Retirements> retirements, std::size_t device, ze_image_handle_t image,
        const backend::ImageDesc& desc) noexcept
      : retirements_(std::move(retirements)), device_(device), image_(image), desc_(desc) {}
  /// Retires the image: zeImageDestroy once no queue of its device may use it.
  ~Image() override;
  Image(const Image&) = delete;
  Image& operator=(const Image&) = delete;

  /// The ze_image_handle_t, as zeKernelSetArgumentValue takes it.
  backend::ArgValue kernel_arg() override { return {&image_, sizeof(image_)}; }
  /// The ze_image_handle_t.
  backend::NativeHandle native_handle() const override {
    return reinterpret_cast<backend::NativeHandle>(image_);
  }

  ze_image_handle_t handle() const noexcept { return image_; }
  ImageType type() const noexcept { return desc_.type; }
  const ImageFormat& format() const noexcept { return desc_.format; }

 private:
  std::shared_ptr<Retirements> retirements_;
  std::size_t device_;
  ze_image_handle_t image_;
  backend::ImageDesc desc_;
};

/// A ze_sampler_handle_t (owned: retired when the adapter goes).
class Sampler final : public backend::SamplerAdapter {
 public:
  /// Adopts `sampler`.
  Sampler(std::shared_ptr<Retirements> retirements, ze_sampler_handle_t sampler) noexcept
      : retirements_(std::move(retirements)), sampler_(sampler) {}
  /// Retires the sampler: zeSamplerDestroy once no queue of the context may use it.
  ~Sampler() override;
  Sampler(const Sampler&) = delete;
  Sampler& operator=(const Sampler&) = delete;

  /// The ze_sampler_handle_t, as zeKernelSetArgumentValue takes it.
  backend::ArgValue kernel_arg() const override { return {&sampler_, sizeof(sampler_)}; }
  /// The ze_sampler_handle_t.
  backend::NativeHandle native_handle() const override {
    return reinterpret_cast<backend::NativeHandle>(sampler_);
  }

 private:
  std::shared_ptr<Retirements> retirements_;
  ze_sampler_handle_t sampler_;
};

/// What `device` supports: image_support_from() of its zeDeviceGetImageProperties, or none,
/// naming the result, where that call fails. Never throws beyond std::bad_alloc.
ImageSupport query_image_support(ze_device_handle_t device);

/// zeImageCreate of `desc` (checked by the core) on `device` of `state`. Throws
/// OutOfMemoryError, BackendError.
std::unique_ptr<Image> create_image(const ContextState& state,
                                    std::shared_ptr<Retirements> retirements, std::size_t device,
                                    const backend::ImageDesc& desc);

/// zeSamplerCreate of `desc` on the context's first device that makes images (zeSamplerCreate
/// takes one device, a plinth sampler serves every device of the context: see context.hpp).
/// Throws BackendError.
std::unique_ptr<Sampler> create_sampler(const ContextState& state,
                                        std::shared_ptr<Retirements> retirements,
                                        const SamplerDesc& desc);

}  // namespace plinth::level_zero
