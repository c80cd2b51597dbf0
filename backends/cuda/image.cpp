#include "image.hpp"

#include "context.hpp"
#include "driver.hpp"

#include <plinth/errors.hpp>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>

namespace plinth::cuda {

namespace {

/// The array format of each ChannelType, in its order: the normalised types are integer
/// arrays that texture reads without CU_TRSF_READ_AS_INTEGER return as floats.
constexpr CUarray_format array_formats[] = {
    CU_AD_FORMAT_UNSIGNED_INT8,   // unorm_int8
    CU_AD_FORMAT_UNSIGNED_INT16,  // unorm_int16
    CU_AD_FORMAT_SIGNED_INT8,     // snorm_int8
    CU_AD_FORMAT_SIGNED_INT16,    // snorm_int16
    CU_AD_FORMAT_SIGNED_INT8,     // int8
    CU_AD_FORMAT_SIGNED_INT16,    // int16
    CU_AD_FORMAT_SIGNED_INT32,    // int32
    CU_AD_FORMAT_UNSIGNED_INT8,   // uint8
    CU_AD_FORMAT_UNSIGNED_INT16,  // uint16
    CU_AD_FORMAT_UNSIGNED_INT32,  // uint32
    CU_AD_FORMAT_HALF,            // float16
    CU_AD_FORMAT_FLOAT,           // float32
};
static_assert(std::size(array_formats) == channel_type_count);

/// The address mode of each AddressMode, in its order.
constexpr CUaddress_mode address_modes[] = {CU_TR_ADDRESS_MODE_CLAMP, CU_TR_ADDRESS_MODE_BORDER,
                                            CU_TR_ADDRESS_MODE_WRAP, CU_TR_ADDRESS_MODE_MIRROR};

/// The smallest of `attributes` of `device`, as a size (0 where one is not positive).
template <std::size_t N>
std::size_t smallest(CUdevice device, const CUdevice_attribute (&attributes)[N]) {
  int least = INT_MAX;
  for (const auto attribute : attributes) {
    int value = 0;
    CU_CHECK(cuDeviceGetAttribute(&value, attribute, device));
    least = std::min(least, value);
  }
  return static_cast<std::size_t>(std::max(least, 0));
}

/// A resource description of `array`, for cuTexObjectCreate and cuSurfObjectCreate.
CUDA_RESOURCE_DESC array_resource(CUarray array) noexcept {
  CUDA_RESOURCE_DESC resource{};
  resource.resType = CU_RESOURCE_TYPE_ARRAY;
  resource.res.array.hArray = array;
  return resource;
}

/// A box's origin (or size) as CUDA addresses the array of an image of `type`, in pixels: a
/// 1-D array's layers (y in plinth's box) along z, the array's y unused.
std::array<std::size_t, 3> cuda_axes(ImageType type, const std::array<std::size_t, 3>& axes,
                                     std::size_t unused) noexcept {
  if (type == ImageType::image1d_array) return {axes[0], unused, axes[1]};
  return axes;
}

/// Whether an end is a 1-D array, whose box rows CUDA keeps as slices.
bool rows_as_slices(const ImageCopyEnd& end) noexcept {
  return end.image != nullptr && end.image->type() == ImageType::image1d_array;
}

/// One end of a CUDA_MEMCPY3D, as its src* and dst* fields name it alike.
struct CudaEnd {
  CUmemorytype memory_type = CU_MEMORYTYPE_HOST;
  std::size_t x_in_bytes = 0;
  std::size_t y = 0;
  std::size_t z = 0;
  CUarray array = nullptr;
  CUdeviceptr device = 0;
  const void* host = nullptr;
  std::size_t pitch = 0;
  std::size_t height = 0;
};

/// `end` of a copy of `size` pixels (CUDA's axes) as a CUDA_MEMCPY3D says it, where a memory
/// side's slices are single rows of the box if `slices_are_rows`; false where it cannot be
/// said (see copy_image_3d()).
bool cuda_end(const ImageCopyEnd& end, std::size_t pixel_size, std::size_t max_pitch,
              const std::array<std::size_t, 3>& size, bool slices_are_rows, CudaEnd& out) noexcept {
  if (end.image != nullptr) {
    const auto origin = cuda_axes(end.image->type(), end.origin, 0);
    out.memory_type = CU_MEMORYTYPE_ARRAY;
    out.array = end.image->array();
    out.x_in_bytes = origin[0] * pixel_size;
    out.y = origin[1];
    out.z = origin[2];
    return true;
  }
  const auto& side = end.side;
  if (side.row_pitch > max_pitch) return false;
  if (slices_are_rows) {
    out.height = 1;  // each slice one row of the box, `row_pitch` after the last
  } else if (size[2] == 1) {
    out.height = size[1];
  } else {
    if (side.slice_pitch % side.row_pitch != 0) return false;
    out.height = side.slice_pitch / side.row_pitch;
  }
  out.pitch = side.row_pitch;
  if (end.host != nullptr) {
    out.memory_type = CU_MEMORYTYPE_HOST;
    out.host = static_cast<const std::byte*>(end.host) + side.offset;
  } else {
    out.memory_type = CU_MEMORYTYPE_DEVICE;
    out.device = end.device + side.offset;
  }
  return true;
}

/// One cuMemcpy3DAsync of a box of `size` pixels (plinth's axes) between `dst` and `src`,
/// whose rows are CUDA's slices where `slices_are_rows` (a 1-D array and memory); false
/// where a memory side cannot be said.
bool enqueue_copy(CUstream stream, std::size_t max_pitch, const ImageCopyEnd& dst,
                  const ImageCopyEnd& src, const std::array<std::size_t, 3>& size,
                  bool slices_are_rows) {
  const std::size_t pixel_size =
      (dst.image != nullptr ? dst.image : src.image)->format().pixel_size();
  const auto extent = slices_are_rows ? cuda_axes(ImageType::image1d_array, size, 1) : size;
  CudaEnd from;
  CudaEnd to;
  if (!cuda_end(src, pixel_size, max_pitch, extent, slices_are_rows, from) ||
      !cuda_end(dst, pixel_size, max_pitch, extent, slices_are_rows, to))
    return false;
  CUDA_MEMCPY3D copy{};
  copy.srcMemoryType = from.memory_type;
  copy.srcXInBytes = from.x_in_bytes;
  copy.srcY = from.y;
  copy.srcZ = from.z;
  copy.srcArray = from.array;
  copy.srcDevice = from.device;
  copy.srcHost = from.host;
  copy.srcPitch = from.pitch;
  copy.srcHeight = from.height;
  copy.dstMemoryType = to.memory_type;
  copy.dstXInBytes = to.x_in_bytes;
  copy.dstY = to.y;
  copy.dstZ = to.z;
  copy.dstArray = to.array;
  copy.dstDevice = to.device;
  copy.dstHost = const_cast<void*>(to.host);
  copy.dstPitch = to.pitch;
  copy.dstHeight = to.height;
  copy.WidthInBytes = extent[0] * pixel_size;
  copy.Height = extent[1];
  copy.Depth = extent[2];
  CU_CHECK(cuMemcpy3DAsync(&copy, stream));
  return true;
}

/// `end` moved `row` rows down plinth's box.
ImageCopyEnd row_of(const ImageCopyEnd& end, std::size_t row) noexcept {
  ImageCopyEnd moved = end;
  moved.origin[1] += row;
  return moved;
}

}  // namespace

bool texture_desc(unsigned int setting, ImageType type, const ImageFormat& format,
                  CUDA_TEXTURE_DESC& desc) noexcept {
  if (!backend::sampler_setting_valid(setting, format)) return false;
  const auto sampler = backend::sampler_of_setting(setting);
  const auto address = sampler.address;
  const auto filter = sampler.filter;
  const bool normalized = sampler.normalized_coords;
  const bool read_as_float = format.read_kind() == ImageReadKind::float_;
  desc = CUDA_TEXTURE_DESC{};
  const CUaddress_mode mode = address_modes[static_cast<std::size_t>(address)];
  for (std::size_t axis = 0; axis < 3; ++axis)
    desc.addressMode[axis] = axis < backend::spatial_axes(type) ? mode : CU_TR_ADDRESS_MODE_CLAMP;
  desc.filterMode =
      filter == FilterMode::linear ? CU_TR_FILTER_MODE_LINEAR : CU_TR_FILTER_MODE_POINT;
  desc.mipmapFilterMode = CU_TR_FILTER_MODE_POINT;
  if (normalized) desc.flags |= CU_TRSF_NORMALIZED_COORDINATES;
  if (!read_as_float) desc.flags |= CU_TRSF_READ_AS_INTEGER;  // int8..uint32
  // borderColor stays (0, 0, 0, 0); the dialect fills the channels the format lacks.
  return true;
}

CUDA_ARRAY3D_DESCRIPTOR array_descriptor(const backend::ImageDesc& desc) noexcept {
  const auto& extent = desc.extent;
  CUDA_ARRAY3D_DESCRIPTOR array{};
  array.Width = extent.width;
  switch (desc.type) {
    case ImageType::image1d: break;
    case ImageType::image2d: array.Height = extent.height; break;
    case ImageType::image3d:
      array.Height = extent.height;
      array.Depth = extent.depth;
      break;
    case ImageType::image1d_array: array.Depth = extent.layers; break;
    case ImageType::image2d_array:
      array.Height = extent.height;
      array.Depth = extent.layers;
      break;
  }
  array.Format = array_formats[static_cast<std::size_t>(desc.format.type)];
  array.NumChannels = static_cast<unsigned int>(desc.format.channels());
  array.Flags =
      CUDA_ARRAY3D_SURFACE_LDST | (backend::is_layered(desc.type) ? CUDA_ARRAY3D_LAYERED : 0U);
  return array;
}

Image::Image(std::shared_ptr<ContextState> state, std::size_t device, CUarray array,
             const backend::ImageDesc& desc, Array holding, bool surface) noexcept
    : state_(std::move(state)),
      device_(device),
      array_(array),
      desc_(desc),
      holding_(holding),
      surface_(surface) {
  data_ = backend::gpu_image_data(desc);
}

Image::~Image() {
  ScopedContext current((*state_)[device_].context, std::nothrow);
  for (const auto texture : data_.tex)
    if (texture != 0) CU_CHECK_IN_DESTRUCTOR(cuTexObjectDestroy(texture));
  if (data_.surf != 0) CU_CHECK_IN_DESTRUCTOR(cuSurfObjectDestroy(data_.surf));
  if (holding_ == Array::owned) CU_CHECK_IN_DESTRUCTOR(cuArrayDestroy(array_));
}

backend::ArgValue Image::kernel_arg() {
  // Launches on several threads may pass the same image: one makes the objects, the others
  // wait for it and see data_ complete (the flag's release and acquire).
  if (objects_made_.load(std::memory_order_acquire)) return {&data_, sizeof(data_)};
  const std::lock_guard lock(objects_mutex_);
  if (!objects_made_.load(std::memory_order_relaxed)) {
    // Whatever a failed call made stays in data_ (destroyed with the image); the next call
    // makes the rest.
    ScopedContext current((*state_)[device_].context);
    const CUDA_RESOURCE_DESC resource = array_resource(array_);
    if (surface_ && data_.surf == 0) {
      CUsurfObject surface = 0;
      CU_CHECK(cuSurfObjectCreate(&surface, &resource));
      data_.surf = surface;
    }
    for (unsigned int setting = 0; setting < sampler_setting_count; ++setting) {
      CUDA_TEXTURE_DESC texture_settings{};
      if (data_.tex[setting] != 0 ||
          !texture_desc(setting, desc_.type, desc_.format, texture_settings))
        continue;
      CUtexObject texture = 0;
      CU_CHECK(cuTexObjectCreate(&texture, &resource, &texture_settings, nullptr));
      data_.tex[setting] = texture;
    }
    objects_made_.store(true, std::memory_order_release);
  }
  return {&data_, sizeof(data_)};
}

ImageSupport query_image_support(const ContextState& state, std::size_t device) {
  ImageSupport support;
  try {
    const CUdevice cu_device = state[device].device;
    auto& limits = support.limits;
    // Every image is a texture and a surface; a layered image is bounded by the 1-D and 2-D
    // fields too, so they take the layered limits' minimum as well.
    limits.max_width_1d =
        smallest(cu_device, {CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH,
                             CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH,
                             CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH,
                             CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH});
    limits.max_width_2d =
        smallest(cu_device, {CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH,
                             CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH,
                             CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH,
                             CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH});
    limits.max_height_2d =
        smallest(cu_device, {CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT,
                             CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT,
                             CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT,
                             CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT});
    limits.max_width_3d = smallest(cu_device, {CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH,
                                               CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH});
    limits.max_height_3d = smallest(cu_device, {CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT,
                                                CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT});
    limits.max_depth_3d = smallest(cu_device, {CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH,
                                               CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH});
    limits.max_layers = smallest(cu_device, {CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS,
                                             CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_LAYERS,
                                             CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS,
                                             CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS});
    // Arrays take 1, 2 or 4 channels of every channel type: all formats, every type.
    constexpr std::uint64_t all =
        (std::uint64_t{1} << (channel_order_count * channel_type_count)) - 1;
    support.formats.fill(all);
    support.writes_3d = true;  // surface stores reach 3-D arrays
    support.available = true;
  } catch (const Error& e) {
    support = ImageSupport{};
    support.reason = std::string("the device's image limits could not be queried: ") + e.what();
  }
  return support;
}

std::unique_ptr<Image> create_image(const std::shared_ptr<ContextState>& state, std::size_t device,
                                    const backend::ImageDesc& desc) {
  const CUDA_ARRAY3D_DESCRIPTOR descriptor = array_descriptor(desc);
  ScopedContext current((*state)[device].context);
  CUarray array = nullptr;
  CU_CHECK(cuArray3DCreate(&array, &descriptor));
  try {
    return std::make_unique<Image>(state, device, array, desc);
  } catch (...) {
    CU_CHECK_IN_DESTRUCTOR(cuArrayDestroy(array));
    throw;
  }
}

bool copy_image_3d(CUstream stream, std::size_t max_pitch, const ImageCopyEnd& dst,
                   const ImageCopyEnd& src, const std::array<std::size_t, 3>& size) {
  const bool dst_rows = rows_as_slices(dst);
  const bool src_rows = rows_as_slices(src);
  if (dst.image != nullptr && src.image != nullptr && dst_rows != src_rows) {
    // A 1-D array and another type: their rows lie along different CUDA axes, so one copy
    // per row (size[2] is 1: a 1-D array's box has one slice).
    for (std::size_t row = 0; row < size[1]; ++row)
      enqueue_copy(stream, max_pitch, row_of(dst, row), row_of(src, row), {size[0], 1, 1}, false);
    return true;
  }
  // Two 1-D arrays keep their layers along z alike; a 1-D array and memory: the memory's
  // rows are the copy's slices.
  return enqueue_copy(stream, max_pitch, dst, src, size, dst_rows || src_rows);
}

}  // namespace plinth::cuda
