#include "image.hpp"

#include "context.hpp"
#include "error.hpp"
#include "runtime_library.hpp"

#include <plinth/errors.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <limits>
#include <string>
#include <type_traits>

namespace plinth::hip {

namespace {

/// hipCreateSurfaceObject and hipDestroySurfaceObject, looked up in the HIP runtime the plugin
/// is linked with when first needed: HIP 5.2's header declares them without extern "C" (its
/// library exports them by their C++ names), later HIP's with it, so a direct call ties the
/// plugin to one of them (built on Debian's 5.2, it did not load with Ubuntu's 5.7). Null
/// where the runtime has neither name.
struct SurfaceCalls {
  hipError_t (*create)(hipSurfaceObject_t*, const hipResourceDesc*) = nullptr;
  hipError_t (*destroy)(hipSurfaceObject_t) = nullptr;
};

const SurfaceCalls& surface_calls() {
  static const SurfaceCalls calls = [] {
    SurfaceCalls found;
    void* runtime = runtime_library();
    if (runtime == nullptr) return found;
    const auto find = [&](auto& function, const char* c_name, const char* cxx_name) {
      void* symbol = dlsym(runtime, c_name);
      if (symbol == nullptr) symbol = dlsym(runtime, cxx_name);
      function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(symbol);
    };
    find(found.create, "hipCreateSurfaceObject",
         "_Z22hipCreateSurfaceObjectPP13__hip_surfacePK15hipResourceDesc");
    find(found.destroy, "hipDestroySurfaceObject", "_Z23hipDestroySurfaceObjectP13__hip_surface");
    return found;
  }();
  return calls;
}

/// The array format of each ChannelType, in its order: the normalised types are integer
/// arrays that texture reads with hipReadModeNormalizedFloat return as floats.
constexpr hipArray_Format array_formats[] = {
    HIP_AD_FORMAT_UNSIGNED_INT8,   // unorm_int8
    HIP_AD_FORMAT_UNSIGNED_INT16,  // unorm_int16
    HIP_AD_FORMAT_SIGNED_INT8,     // snorm_int8
    HIP_AD_FORMAT_SIGNED_INT16,    // snorm_int16
    HIP_AD_FORMAT_SIGNED_INT8,     // int8
    HIP_AD_FORMAT_SIGNED_INT16,    // int16
    HIP_AD_FORMAT_SIGNED_INT32,    // int32
    HIP_AD_FORMAT_UNSIGNED_INT8,   // uint8
    HIP_AD_FORMAT_UNSIGNED_INT16,  // uint16
    HIP_AD_FORMAT_UNSIGNED_INT32,  // uint32
    HIP_AD_FORMAT_HALF,            // float16
    HIP_AD_FORMAT_FLOAT,           // float32
};
static_assert(std::size(array_formats) == channel_type_count);

/// The address mode of each AddressMode, in its order.
constexpr hipTextureAddressMode address_modes[] = {hipAddressModeClamp, hipAddressModeBorder,
                                                   hipAddressModeWrap, hipAddressModeMirror};

/// `value` as a size (0 where it is not positive).
std::size_t positive(int value) noexcept { return value > 0 ? static_cast<std::size_t>(value) : 0; }

/// A resource description of `array`, for hipCreateTextureObject and hipCreateSurfaceObject.
hipResourceDesc array_resource(hipArray_t array) noexcept {
  hipResourceDesc resource{};
  resource.resType = hipResourceTypeArray;
  resource.res.array.array = array;
  return resource;
}

/// A texture or surface object as the dialect's struct holds it.
template <class Object>
unsigned long long object_bits(Object object) noexcept {
  return static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(object));
}

/// Whether `value` fits HIP 5's 32-bit copy fields.
bool fits_32_bits(std::size_t value) noexcept {
  return value <= std::numeric_limits<std::uint32_t>::max();
}

/// Whether an end is a 1-D layered array, whose box rows HIP 6.1 keeps along z.
bool is_1d_array(const ImageCopyEnd& end) noexcept {
  return end.array != nullptr && end.type == ImageType::image1d_array;
}

/// A position of `end`'s box in HIP's axes: a 1-D array's rows along z where `on_z`.
hipPos position(const ImageCopyEnd& end, bool on_z) noexcept {
  const auto& o = end.origin;
  if (on_z && is_1d_array(end)) return make_hipPos(o[0], 0, o[1]);
  return make_hipPos(o[0], o[1], o[2]);
}

/// `end` (memory) as a hipPitchedPtr for a copy of `extent` (HIP's axes) of rows of
/// `row_bytes`, whose slices are single rows of the box if `slices_are_rows`; nullopt where it
/// cannot be said (see image_copies()).
std::optional<hipPitchedPtr> pitched(const ImageCopyEnd& end, std::size_t row_bytes,
                                     std::size_t max_pitch,
                                     const std::array<std::size_t, 3>& extent,
                                     bool slices_are_rows) noexcept {
  const auto& side = end.side;
  if (side.row_pitch > max_pitch || !fits_32_bits(side.row_pitch)) return std::nullopt;
  std::size_t rows = 0;  // rows per slice
  if (slices_are_rows) {
    rows = 1;  // each slice one row of the box, `row_pitch` after the last
  } else if (extent[2] == 1) {
    rows = extent[1];
  } else {
    if (side.slice_pitch % side.row_pitch != 0) return std::nullopt;
    rows = side.slice_pitch / side.row_pitch;
  }
  if (rows > std::numeric_limits<std::uint32_t>::max() / side.row_pitch) return std::nullopt;
  return make_hipPitchedPtr(static_cast<std::byte*>(end.memory) + side.offset, side.row_pitch,
                            row_bytes, rows);
}

/// One hipMemcpy3DParms of a box of `size` pixels (plinth's axes) between `dst` and `src`,
/// with 1-D arrays' layers along z where `on_z`, and the copy's rows as HIP's slices where
/// `rows_on_z` (a 1-D array and memory or another 1-D array, on HIP 6.1); false where a
/// memory side cannot be said.
bool one_copy(const ImageCopyEnd& dst, const ImageCopyEnd& src,
              const std::array<std::size_t, 3>& size, std::size_t pixel_size, std::size_t max_pitch,
              bool on_z, bool rows_on_z, hipMemcpy3DParms& copy) {
  const std::array<std::size_t, 3> extent =
      rows_on_z ? std::array<std::size_t, 3>{size[0], 1, size[1]} : size;
  copy = hipMemcpy3DParms{};
  for (const bool to : {false, true}) {
    const ImageCopyEnd& end = to ? dst : src;
    hipArray_t& array = to ? copy.dstArray : copy.srcArray;
    hipPos& pos = to ? copy.dstPos : copy.srcPos;
    hipPitchedPtr& pointer = to ? copy.dstPtr : copy.srcPtr;
    if (end.array != nullptr) {
      array = end.array;
      pos = position(end, on_z);  // x in pixels: an array's elements
    } else {
      const auto side = pitched(end, size[0] * pixel_size, max_pitch, extent, rows_on_z);
      if (!side) return false;
      pointer = *side;
      pos = make_hipPos(0, 0, 0);  // the offset is in the pointer
    }
  }
  // With an array on either side (always), the extent's width is in its elements.
  copy.extent = make_hipExtent(extent[0], extent[1], extent[2]);
  const bool from_host = src.array == nullptr && src.host;
  const bool to_host = dst.array == nullptr && dst.host;
  copy.kind = from_host ? hipMemcpyHostToDevice
              : to_host ? hipMemcpyDeviceToHost
                        : hipMemcpyDeviceToDevice;
  return true;
}

/// `end` moved `row` rows down plinth's box.
ImageCopyEnd row_of(const ImageCopyEnd& end, std::size_t row) noexcept {
  ImageCopyEnd moved = end;
  moved.origin[1] += row;
  return moved;
}

/// hipArrayDestroy, reported and not thrown.
void destroy_array(hipArray_t array) noexcept {
  PLINTH_CHECK_IN_DESTRUCTOR(hipArrayDestroy(array));
}

}  // namespace

bool texture_desc(unsigned int setting, ImageType type, const ImageFormat& format,
                  hipTextureDesc& desc) noexcept {
  if (!backend::sampler_setting_valid(setting, format)) return false;
  const auto sampler = backend::sampler_of_setting(setting);
  const auto address = sampler.address;
  const auto filter = sampler.filter;
  const bool normalized = sampler.normalized_coords;
  desc = hipTextureDesc{};
  const hipTextureAddressMode mode = address_modes[static_cast<std::size_t>(address)];
  for (std::size_t axis = 0; axis < 3; ++axis)
    desc.addressMode[axis] = axis < backend::spatial_axes(type) ? mode : hipAddressModeClamp;
  desc.filterMode = filter == FilterMode::linear ? hipFilterModeLinear : hipFilterModePoint;
  desc.mipmapFilterMode = hipFilterModePoint;
  desc.readMode = format.normalized() ? hipReadModeNormalizedFloat : hipReadModeElementType;
  desc.normalizedCoords = normalized ? 1 : 0;
  // borderColor stays (0, 0, 0, 0); the dialect fills the channels the format lacks. sRGB,
  // anisotropy and the mipmap levels stay 0 (HIP 5 refuses the level clamps otherwise).
  return true;
}

HIP_ARRAY3D_DESCRIPTOR array_descriptor(const backend::ImageDesc& desc,
                                        bool surface_flag) noexcept {
  const auto& extent = desc.extent;
  HIP_ARRAY3D_DESCRIPTOR array{};
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
  array.Flags = (backend::is_layered(desc.type) ? hipArrayLayered : 0U) |
                (surface_flag ? hipArraySurfaceLoadStore : 0U);
  return array;
}

ImageSupport image_support_from(const hipDeviceProp_t& properties, bool images,
                                std::size_t max_layers) {
  ImageSupport support;
  if (!images) {
    support.reason = "hipDeviceAttributeImageSupport is 0";
    return support;
  }
  auto& limits = support.limits;
  limits.max_width_1d = positive(properties.maxTexture1D);
  limits.max_width_2d = positive(properties.maxTexture2D[0]);
  limits.max_height_2d = positive(properties.maxTexture2D[1]);
  limits.max_width_3d = positive(properties.maxTexture3D[0]);
  limits.max_height_3d = positive(properties.maxTexture3D[1]);
  limits.max_depth_3d = positive(properties.maxTexture3D[2]);
  limits.max_layers = max_layers;
  // Arrays take 1, 2 or 4 channels of every channel type: all formats, every type.
  constexpr std::uint64_t all =
      (std::uint64_t{1} << (channel_order_count * channel_type_count)) - 1;
  const bool one_d = limits.max_width_1d > 0;
  const bool two_d = limits.max_width_2d > 0 && limits.max_height_2d > 0;
  const bool three_d =
      limits.max_width_3d > 0 && limits.max_height_3d > 0 && limits.max_depth_3d > 0;
  const auto set = [&](ImageType type, bool made) {
    support.formats[static_cast<std::size_t>(type)] = made ? all : 0;
  };
  set(ImageType::image1d, one_d);
  set(ImageType::image2d, two_d);
  set(ImageType::image3d, three_d);
  set(ImageType::image1d_array, one_d && max_layers > 0);
  set(ImageType::image2d_array, two_d && max_layers > 0);
  if (!one_d && !two_d && !three_d) {
    support = ImageSupport{};
    support.reason = "its image limits (maxTexture1D, maxTexture2D, maxTexture3D) are 0";
    return support;
  }
  support.writes_3d = three_d;  // image stores reach 3-D images
  support.available = true;
  return support;
}

bool layers_on_z(int runtime_version) noexcept { return runtime_version >= 60100000; }

Image::Image(std::shared_ptr<ContextState> state, std::size_t device, hipArray_t array,
             const backend::ImageDesc& desc, Array holding, bool writable) noexcept
    : state_(std::move(state)),
      device_(device),
      array_(array),
      desc_(desc),
      holding_(holding),
      writable_(writable) {
  data_ = backend::gpu_image_data(desc);
}

Image::~Image() {
  ScopedDevice current((*state_)[device_].device, std::nothrow);
  // Kernels and copies on any of the device's streams may still use the array and its
  // objects, and HIP frees them at once (hipArrayDestroy waits for the null streams only).
  PLINTH_CHECK_IN_DESTRUCTOR(hipDeviceSynchronize());
  for (const auto texture : data_.tex)
    if (texture != 0)
      PLINTH_CHECK_IN_DESTRUCTOR(
          hipDestroyTextureObject(reinterpret_cast<hipTextureObject_t>(texture)));
  if (surface_ != nullptr && surface_calls().destroy != nullptr)
    PLINTH_CHECK_IN_DESTRUCTOR(surface_calls().destroy(surface_));
  if (holding_ == Array::owned) destroy_array(array_);
}

backend::ArgValue Image::kernel_arg() {
  // Launches on several threads may pass the same image: one makes the objects, the others
  // wait for it and see data_ complete (the flag's release and acquire).
  if (objects_made_.load(std::memory_order_acquire)) return {&data_, sizeof(data_)};
  const std::lock_guard lock(objects_mutex_);
  if (!objects_made_.load(std::memory_order_relaxed)) {
    // Whatever a failed call made stays here (destroyed with the image); the next call makes
    // the rest.
    ScopedDevice current((*state_)[device_].device);
    const hipResourceDesc resource = array_resource(array_);
    const bool normalized = desc_.format.normalized();
    if (writable_ && surface_ == nullptr && !normalized) {
      if (surface_calls().create == nullptr)
        throw LogicError(
            "this HIP runtime exports no hipCreateSurfaceObject (by its C or its C++ name): "
            "kernels cannot write its images");
      PLINTH_CHECK(surface_calls().create(&surface_, &resource));
    }
    for (unsigned int setting = 0; setting < sampler_setting_count; ++setting) {
      hipTextureDesc texture_settings{};
      if (data_.tex[setting] != 0 ||
          !texture_desc(setting, desc_.type, desc_.format, texture_settings))
        continue;
      hipTextureObject_t texture = nullptr;
      PLINTH_CHECK(hipCreateTextureObject(&texture, &resource, &texture_settings, nullptr));
      data_.tex[setting] = object_bits(texture);
    }
    // A normalised format's stores go through its first texture object's descriptor (the
    // view in the normalised format: see image.hpp); setting 0 (clamp to edge, nearest, pixel
    // coordinates) is valid for every format. A read-only image (a GL texture registered
    // so) takes no stores: 0.
    data_.surf = !writable_ ? 0 : normalized ? data_.tex[0] : object_bits(surface_);
    objects_made_.store(true, std::memory_order_release);
  }
  return {&data_, sizeof(data_)};
}

ImageSupport query_image_support(const ContextState& state, std::size_t device) {
  try {
    const int ordinal = state[device].device;
    hipDeviceProp_t properties{};
    PLINTH_CHECK(hipGetDeviceProperties(&properties, ordinal));
    int images = 0;
    PLINTH_CHECK(hipDeviceGetAttribute(&images, hipDeviceAttributeImageSupport, ordinal));
    return image_support_from(properties, images != 0, fallback_max_layers);
  } catch (const Error& e) {
    ImageSupport none;
    none.reason = std::string("the device's image limits could not be queried: ") + e.what();
    return none;
  }
}

std::unique_ptr<Image> create_image(const std::shared_ptr<ContextState>& state, std::size_t device,
                                    const backend::ImageDesc& desc) {
  ScopedDevice current((*state)[device].device);
  hipArray_t array = nullptr;
  HIP_ARRAY3D_DESCRIPTOR descriptor = array_descriptor(desc, true);
  hipError_t result = hipArray3DCreate(&array, &descriptor);
  if (result == hipErrorNotSupported) {
    // HIP up to 5.6 takes no hipArraySurfaceLoadStore, and makes surfaces of any array.
    (void)hipGetLastError();
    descriptor = array_descriptor(desc, false);
    result = hipArray3DCreate(&array, &descriptor);
  }
  backend::check(result, "hipArray3DCreate");
  try {
    return std::make_unique<Image>(state, device, array, desc);
  } catch (...) {
    destroy_array(array);
    throw;
  }
}

std::optional<std::vector<hipMemcpy3DParms>> image_copies(const ImageCopyEnd& dst,
                                                          const ImageCopyEnd& src,
                                                          const std::array<std::size_t, 3>& size,
                                                          std::size_t max_pitch, bool on_z) {
  const std::size_t pixel_size = (dst.array != nullptr ? dst : src).pixel_size;
  std::vector<hipMemcpy3DParms> copies;
  const bool dst_rows = on_z && is_1d_array(dst);
  const bool src_rows = on_z && is_1d_array(src);
  if (dst.array != nullptr && src.array != nullptr && dst_rows != src_rows) {
    // A 1-D array and another type: their rows lie along different HIP axes, so one copy
    // per row (size[2] is 1: a 1-D array's box has one slice).
    copies.resize(size[1]);
    for (std::size_t row = 0; row < size[1]; ++row)
      one_copy(row_of(dst, row), row_of(src, row), {size[0], 1, 1}, pixel_size, max_pitch, on_z,
               false, copies[row]);
    return copies;
  }
  // Two 1-D arrays keep their layers along one axis alike; a 1-D array and memory on z: the
  // memory's rows are the copy's slices.
  copies.resize(1);
  if (!one_copy(dst, src, size, pixel_size, max_pitch, on_z, dst_rows || src_rows, copies[0]))
    return std::nullopt;
  return copies;
}

}  // namespace plinth::hip
