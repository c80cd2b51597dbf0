#include "image.hpp"

#include "buffer.hpp"
#include "device.hpp"
#include "error.hpp"

#include <plinth/backend/check.hpp>
#include <plinth/errors.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace plinth::opencl {

namespace {

constexpr cl_channel_order orders[] = {CL_R, CL_RG, CL_RGBA};
constexpr cl_channel_type types[] = {
    CL_UNORM_INT8,     CL_UNORM_INT16,    CL_SNORM_INT8,   CL_SNORM_INT16,
    CL_SIGNED_INT8,    CL_SIGNED_INT16,   CL_SIGNED_INT32, CL_UNSIGNED_INT8,
    CL_UNSIGNED_INT16, CL_UNSIGNED_INT32, CL_HALF_FLOAT,   CL_FLOAT,
};
constexpr cl_mem_object_type object_types[] = {
    CL_MEM_OBJECT_IMAGE1D,       CL_MEM_OBJECT_IMAGE2D,       CL_MEM_OBJECT_IMAGE3D,
    CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_MEM_OBJECT_IMAGE2D_ARRAY,
};

cl_image_format cl_format(const ImageFormat& format) {
  return {orders[static_cast<std::size_t>(format.order)],
          types[static_cast<std::size_t>(format.type)]};
}

/// The index of `value` in `table`, or its size.
template <class T, std::size_t N>
std::size_t index_of(const T (&table)[N], T value) {
  std::size_t i = 0;
  while (i < N && table[i] != value) ++i;
  return i;
}

/// "OpenCL <major>.<minor> ..." as major * 10 + minor; 0 if it does not read so.
int device_version(cl_device_id device) {
  const auto text = device_string(device, CL_DEVICE_VERSION);
  int major = 0;
  int minor = 0;
  if (std::sscanf(text.c_str(), "OpenCL %d.%d", &major, &minor) != 2) return 0;
  return major * 10 + minor;
}

std::size_t size_value(cl_device_id device, cl_device_info param) {
  return device_value<std::size_t>(device, param);
}

std::array<std::size_t, 3> region_of(const ImageBox& box) { return box.size; }

/// The host pitches OpenCL takes for `side` of a copy of `box` of `image`: a 1-D array's
/// layers (y in the box) are its slices; a 1-D or 2-D image takes a slice pitch of 0.
std::array<std::size_t, 2> host_pitches(cl_mem image, const backend::RectSide& side) {
  cl_mem_object_type type = 0;
  PLINTH_CHECK(clGetMemObjectInfo(image, CL_MEM_TYPE, sizeof(type), &type, nullptr));
  switch (type) {
    case CL_MEM_OBJECT_IMAGE1D:
    case CL_MEM_OBJECT_IMAGE2D: return {side.row_pitch, 0};
    case CL_MEM_OBJECT_IMAGE1D_ARRAY: return {side.row_pitch, side.row_pitch};
    default: return {side.row_pitch, side.slice_pitch};
  }
}

/// PoCL 3's kernels read float16 images wrongly (raw values, not the halves' floats) and
/// write 0 to them (found by tests/conformance/image_test.cpp, PoCL 3.1): such images are not
/// offered there, so that no kernel computes a wrong answer from one.
bool float16_images_broken(cl_device_id device) {
  const auto platform = device_value<cl_platform_id>(device, CL_DEVICE_PLATFORM);
  const auto version = info_string(
      [&](std::size_t size, void* value, std::size_t* size_ret) {
        return clGetPlatformInfo(platform, CL_PLATFORM_VERSION, size, value, size_ret);
      },
      "clGetPlatformInfo");
  return version.find("PoCL 3.") != std::string::npos;
}

/// Whether a buffer side is packed for `box`: OpenCL's buffer-image copies take no pitch.
bool packed(const backend::RectSide& side, const ImageBox& box, std::size_t pixel_size) {
  return side.row_pitch == box.size[0] * pixel_size &&
         (box.size[2] == 1 || side.slice_pitch == side.row_pitch * box.size[1]);
}

}  // namespace

Image::~Image() { PLINTH_CHECK_IN_DESTRUCTOR(clReleaseMemObject(memory_)); }

Sampler::~Sampler() { PLINTH_CHECK_IN_DESTRUCTOR(clReleaseSampler(sampler_)); }

ImageSupport query_image_support(cl_context context, cl_device_id device) {
  ImageSupport support;
  try {
    if (const int version = device_version(device); version < 12) {
      support.reason = "the device implements OpenCL " + std::to_string(version / 10) + "." +
                       std::to_string(version % 10) + ", and images need OpenCL 1.2";
      return support;
    }
    if (device_value<cl_bool>(device, CL_DEVICE_IMAGE_SUPPORT) != CL_TRUE) {
      support.reason = "the device has no images (CL_DEVICE_IMAGE_SUPPORT is false)";
      return support;
    }
    auto& limits = support.limits;
    limits.max_width_1d = size_value(device, CL_DEVICE_IMAGE2D_MAX_WIDTH);
    limits.max_width_2d = limits.max_width_1d;
    limits.max_height_2d = size_value(device, CL_DEVICE_IMAGE2D_MAX_HEIGHT);
    limits.max_width_3d = size_value(device, CL_DEVICE_IMAGE3D_MAX_WIDTH);
    limits.max_height_3d = size_value(device, CL_DEVICE_IMAGE3D_MAX_HEIGHT);
    limits.max_depth_3d = size_value(device, CL_DEVICE_IMAGE3D_MAX_DEPTH);
    limits.max_layers = size_value(device, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE);
    for (std::size_t t = 0; t < image_type_count; ++t) {
      cl_uint count = 0;
      PLINTH_CHECK(clGetSupportedImageFormats(context, CL_MEM_READ_WRITE, object_types[t], 0,
                                              nullptr, &count));
      std::vector<cl_image_format> formats(count);
      if (count > 0) {
        PLINTH_CHECK(clGetSupportedImageFormats(context, CL_MEM_READ_WRITE, object_types[t], count,
                                                formats.data(), nullptr));
      }
      for (const auto& f : formats) {
        const auto order = index_of(orders, f.image_channel_order);
        const auto type = index_of(types, f.image_channel_data_type);
        if (order == std::size(orders) || type == std::size(types)) continue;
        support.formats[t] |= std::uint64_t{1} << (order * channel_type_count + type);
      }
    }
    if (float16_images_broken(device)) {
      for (auto& mask : support.formats) {
        for (std::size_t order = 0; order < channel_order_count; ++order) {
          mask &= ~(std::uint64_t{1}
                    << ImageFormat{static_cast<ChannelOrder>(order), ChannelType::float16}.index());
        }
      }
    }
    support.writes_3d =
        device_string(device, CL_DEVICE_EXTENSIONS).find("cl_khr_3d_image_writes") !=
        std::string::npos;
    support.available = true;
  } catch (const Error& e) {
    support = ImageSupport{};
    support.reason = std::string("the device's image support could not be queried: ") + e.what();
  }
  return support;
}

std::unique_ptr<Image> create_image(cl_context context, const backend::ImageDesc& desc) {
  const auto format = cl_format(desc.format);
  cl_image_desc image{};
  image.image_type = object_types[static_cast<std::size_t>(desc.type)];
  image.image_width = desc.extent.width;
  image.image_height = desc.extent.height;
  image.image_depth = desc.extent.depth;
  image.image_array_size = desc.extent.layers;
  cl_int code = CL_SUCCESS;
  cl_mem memory = clCreateImage(context, CL_MEM_READ_WRITE, &format, &image, nullptr, &code);
  check_alloc(code, "clCreateImage");
  return std::make_unique<Image>(memory, desc.format.pixel_size());
}

std::unique_ptr<Sampler> create_sampler(cl_context context, const SamplerDesc& desc) {
  static constexpr cl_addressing_mode modes[] = {CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP,
                                                 CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT};
  cl_int code = CL_SUCCESS;
  cl_sampler sampler = clCreateSampler(
      context, desc.normalized_coords ? CL_TRUE : CL_FALSE,
      modes[static_cast<std::size_t>(desc.address)],
      desc.filter == FilterMode::linear ? CL_FILTER_LINEAR : CL_FILTER_NEAREST, &code);
  PLINTH_CHECK(code);
  return std::make_unique<Sampler>(sampler);
}

bool write_image(cl_command_queue queue, Image& dst, const ImageBox& box, const void* src,
                 const backend::RectSide& src_side, bool async) {
  const auto region = region_of(box);
  const auto pitches = host_pitches(dst.memory(), src_side);
  PLINTH_CHECK(clEnqueueWriteImage(
      queue, dst.memory(), async ? CL_FALSE : CL_TRUE, box.origin.data(), region.data(), pitches[0],
      pitches[1], static_cast<const std::byte*>(src) + src_side.offset, 0, nullptr, nullptr));
  return true;
}

bool read_image(cl_command_queue queue, void* dst, const backend::RectSide& dst_side, Image& src,
                const ImageBox& box, bool async) {
  const auto region = region_of(box);
  const auto pitches = host_pitches(src.memory(), dst_side);
  PLINTH_CHECK(clEnqueueReadImage(
      queue, src.memory(), async ? CL_FALSE : CL_TRUE, box.origin.data(), region.data(), pitches[0],
      pitches[1], static_cast<std::byte*>(dst) + dst_side.offset, 0, nullptr, nullptr));
  return true;
}

bool copy_buffer_to_image(cl_command_queue queue, Image& dst, const ImageBox& box, Buffer& src,
                          const backend::RectSide& src_side) {
  if (!packed(src_side, box, dst.pixel_size())) return false;
  const auto region = region_of(box);
  PLINTH_CHECK(clEnqueueCopyBufferToImage(queue, src.root(), dst.memory(),
                                          src.offset() + src_side.offset, box.origin.data(),
                                          region.data(), 0, nullptr, nullptr));
  return true;
}

bool copy_image_to_buffer(cl_command_queue queue, Buffer& dst, const backend::RectSide& dst_side,
                          Image& src, const ImageBox& box) {
  if (!packed(dst_side, box, src.pixel_size())) return false;
  const auto region = region_of(box);
  PLINTH_CHECK(clEnqueueCopyImageToBuffer(queue, src.memory(), dst.root(), box.origin.data(),
                                          region.data(), dst.offset() + dst_side.offset, 0, nullptr,
                                          nullptr));
  return true;
}

void copy_image(cl_command_queue queue, Image& dst, const std::array<std::size_t, 3>& dst_origin,
                Image& src, const ImageBox& src_box) {
  const auto region = region_of(src_box);
  PLINTH_CHECK(clEnqueueCopyImage(queue, src.memory(), dst.memory(), src_box.origin.data(),
                                  dst_origin.data(), region.data(), 0, nullptr, nullptr));
}

}  // namespace plinth::opencl
