#include "image.hpp"

#include "buffer.hpp"
#include "device.hpp"
#include "error.hpp"

#include <plinth/backend/check.hpp>
#include <plinth/errors.hpp>

#include <cstdio>
#include <optional>
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

std::size_t image_pixel_size(cl_mem image) {
  std::size_t size = 0;
  PLINTH_CHECK(clGetImageInfo(image, CL_IMAGE_ELEMENT_SIZE, sizeof(size), &size, nullptr));
  return size;
}

cl_mem_object_type object_type(cl_mem image) {
  cl_mem_object_type type = 0;
  PLINTH_CHECK(clGetMemObjectInfo(image, CL_MEM_TYPE, sizeof(type), &type, nullptr));
  return type;
}

/// The host pitches OpenCL takes for `side` of a copy of `box` of `image`, or nothing where
/// they cannot say it: a 1-D image has one row (pitch 0: NVIDIA's OpenCL refuses any other
/// with CL_INVALID_VALUE); a 1-D array's layers (y in the box) are its slices; a 1-D or 2-D
/// image, and a box of one slice, take a slice pitch of 0; NVIDIA's OpenCL refuses a slice
/// pitch that is not a multiple of the row pitch (CL_INVALID_VALUE), which the core then packs.
std::optional<std::array<std::size_t, 2>> host_pitches(cl_mem image, const ImageBox& box,
                                                       const backend::RectSide& side) {
  switch (object_type(image)) {
    case CL_MEM_OBJECT_IMAGE1D: return std::array<std::size_t, 2>{0, 0};
    case CL_MEM_OBJECT_IMAGE2D: return std::array<std::size_t, 2>{side.row_pitch, 0};
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
      // Packed layers only, given as pitch 0: NVIDIA's OpenCL refuses any layer pitch but 0
      // (CL_INVALID_VALUE), even for one layer.
      if (box.size[1] > 1 && side.row_pitch != box.size[0] * image_pixel_size(image))
        return std::nullopt;
      return std::array<std::size_t, 2>{0, 0};
    default:
      if (box.size[2] == 1) return std::array<std::size_t, 2>{side.row_pitch, 0};
      if (side.slice_pitch % side.row_pitch != 0) return std::nullopt;
      return std::array<std::size_t, 2>{side.row_pitch, side.slice_pitch};
  }
}

/// PoCL's kernels (3.1 and 5.0, the versions checked) read float16 images wrongly (raw values,
/// not the halves' floats) and write wrong bits to them (found by
/// tests/conformance/image_test.cpp): such images are not offered there, so that no kernel
/// computes a wrong answer from one. Later PoCL versions are trusted until checked.
bool float16_images_broken(cl_device_id device) {
  const auto platform = device_value<cl_platform_id>(device, CL_DEVICE_PLATFORM);
  const auto version = info_string(
      [&](std::size_t size, void* value, std::size_t* size_ret) {
        return clGetPlatformInfo(platform, CL_PLATFORM_VERSION, size, value, size_ret);
      },
      "clGetPlatformInfo");
  const auto at = version.find("PoCL ");
  int major = 0;
  return at != std::string::npos && std::sscanf(version.c_str() + at, "PoCL %d", &major) == 1 &&
         major <= 5;
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
  const auto pitches = host_pitches(dst.memory(), box, src_side);
  if (!pitches) return false;
  PLINTH_CHECK(clEnqueueWriteImage(queue, dst.memory(), async ? CL_FALSE : CL_TRUE,
                                   box.origin.data(), region.data(), (*pitches)[0], (*pitches)[1],
                                   static_cast<const std::byte*>(src) + src_side.offset, 0, nullptr,
                                   nullptr));
  return true;
}

bool read_image(cl_command_queue queue, void* dst, const backend::RectSide& dst_side, Image& src,
                const ImageBox& box, bool async) {
  const auto region = region_of(box);
  const auto pitches = host_pitches(src.memory(), box, dst_side);
  if (!pitches) return false;
  PLINTH_CHECK(clEnqueueReadImage(queue, src.memory(), async ? CL_FALSE : CL_TRUE,
                                  box.origin.data(), region.data(), (*pitches)[0], (*pitches)[1],
                                  static_cast<std::byte*>(dst) + dst_side.offset, 0, nullptr,
                                  nullptr));
  return true;
}

/// The pieces a buffer-image copy of `box` is made in: the whole box, or a 1-D array's layers
/// one at a time (NVIDIA's OpenCL refuses a buffer copy of several layers of a 1-D array with
/// CL_INVALID_VALUE). Calls `piece(origin, region, bytes before it in the buffer side)`.
template <class Piece>
void buffer_pieces(cl_mem image, const ImageBox& box, const backend::RectSide& side,
                   Piece&& piece) {
  if (object_type(image) != CL_MEM_OBJECT_IMAGE1D_ARRAY || box.size[1] == 1) {
    piece(box.origin, region_of(box), std::size_t{0});
    return;
  }
  for (std::size_t layer = 0; layer < box.size[1]; ++layer) {
    piece(std::array<std::size_t, 3>{box.origin[0], box.origin[1] + layer, 0},
          std::array<std::size_t, 3>{box.size[0], 1, 1}, layer * side.row_pitch);
  }
}

bool copy_buffer_to_image(cl_command_queue queue, Image& dst, const ImageBox& box, Buffer& src,
                          const backend::RectSide& src_side) {
  if (!packed(src_side, box, dst.pixel_size())) return false;
  buffer_pieces(
      dst.memory(), box, src_side, [&](const auto& origin, const auto& region, std::size_t skip) {
        const cl_int code = clEnqueueCopyBufferToImage(
            queue, src.root(), dst.memory(), src.offset() + src_side.offset + skip, origin.data(),
            region.data(), 0, nullptr, nullptr);
        if (code == CL_INVALID_VALUE && object_type(dst.memory()) == CL_MEM_OBJECT_IMAGE1D_ARRAY) {
          // NVIDIA's OpenCL (CUDA 13.0) refuses every copy between a 1-D array and
          // a buffer: through the host instead, blocking.
          const std::size_t bytes = region[0] * dst.pixel_size();
          std::vector<std::byte> host(bytes);
          PLINTH_CHECK(clEnqueueReadBuffer(queue, src.root(), CL_TRUE,
                                           src.offset() + src_side.offset + skip, bytes,
                                           host.data(), 0, nullptr, nullptr));
          PLINTH_CHECK(clEnqueueWriteImage(queue, dst.memory(), CL_TRUE, origin.data(),
                                           region.data(), 0, 0, host.data(), 0, nullptr, nullptr));
          return;
        }
        PLINTH_CHECK(code);
      });
  return true;
}

bool copy_image_to_buffer(cl_command_queue queue, Buffer& dst, const backend::RectSide& dst_side,
                          Image& src, const ImageBox& box) {
  if (!packed(dst_side, box, src.pixel_size())) return false;
  buffer_pieces(
      src.memory(), box, dst_side, [&](const auto& origin, const auto& region, std::size_t skip) {
        const cl_int code = clEnqueueCopyImageToBuffer(
            queue, src.memory(), dst.root(), origin.data(), region.data(),
            dst.offset() + dst_side.offset + skip, 0, nullptr, nullptr);
        if (code == CL_INVALID_VALUE && object_type(src.memory()) == CL_MEM_OBJECT_IMAGE1D_ARRAY) {
          // NVIDIA's OpenCL (CUDA 13.0) refuses every copy from a 1-D array to a
          // buffer: through the host instead, blocking.
          const std::size_t bytes = region[0] * src.pixel_size();
          std::vector<std::byte> host(bytes);
          PLINTH_CHECK(clEnqueueReadImage(queue, src.memory(), CL_TRUE, origin.data(),
                                          region.data(), 0, 0, host.data(), 0, nullptr, nullptr));
          PLINTH_CHECK(clEnqueueWriteBuffer(queue, dst.root(), CL_TRUE,
                                            dst.offset() + dst_side.offset + skip, bytes,
                                            host.data(), 0, nullptr, nullptr));
          return;
        }
        PLINTH_CHECK(code);
      });
  return true;
}

void copy_image(cl_command_queue queue, Image& dst, const std::array<std::size_t, 3>& dst_origin,
                Image& src, const ImageBox& src_box) {
  const auto region = region_of(src_box);
  PLINTH_CHECK(clEnqueueCopyImage(queue, src.memory(), dst.memory(), src_box.origin.data(),
                                  dst_origin.data(), region.data(), 0, nullptr, nullptr));
}

}  // namespace plinth::opencl
