// Image: allocation checked against the device's image support, the whole-image copies,
// and the box checks the copies share (image_impl.hpp).

#include "images/image_impl.hpp"
#include "runtime/impl.hpp"

#include <plinth/array.hpp>
#include <plinth/dtype.hpp>
#include <plinth/errors.hpp>
#include <plinth/host_array.hpp>
#include <plinth/image.hpp>

#include <fmt/format.h>

namespace plinth {

namespace detail {

std::array<std::size_t, 3> box_axes(ImageType type, const ImageExtent& e) noexcept {
  switch (type) {
    case ImageType::image1d: return {e.width, 1, 1};
    case ImageType::image2d: return {e.width, e.height, 1};
    case ImageType::image3d: return {e.width, e.height, e.depth};
    case ImageType::image1d_array: return {e.width, e.layers, 1};
    case ImageType::image2d_array: return {e.width, e.height, e.layers};
  }
  return {e.width, e.height, e.depth};
}

void check_box(const Image& image, const ImageBox& box, const char* function, const char* side) {
  const auto axes = box_axes(image.type(), image.extent());
  static constexpr const char* names[] = {"x", "y", "z"};
  for (std::size_t a = 0; a < 3; ++a) {
    if (box.size[a] == 0) {
      throw LogicError(
          fmt::format("{}: the {} box's size along {} is 0", function, side, names[a]));
    }
    if (box.origin[a] > axes[a] || box.size[a] > axes[a] - box.origin[a]) {
      throw LogicError(fmt::format(
          "{}: the {} box [{}, {}) x [{}, {}) x [{}, {}) does not fit the {} {} of {} x {} x {} "
          "(along {})",
          function, side, box.origin[0], box.origin[0] + box.size[0], box.origin[1],
          box.origin[1] + box.size[1], box.origin[2], box.origin[2] + box.size[2],
          to_string(image.type()), side, axes[0], axes[1], axes[2], names[a]));
    }
  }
}

backend::RectShape box_shape(const ImageBox& box, const ImageFormat& format) noexcept {
  return {box.size[0] * format.pixel_size(), box.size[1], box.size[2]};
}

void check_image_queue(const Queue& queue, const Image& image, const char* function) {
  if (!(queue.device() == image.device())) {
    throw LogicError(fmt::format(
        "{}: {}", function, describe_mismatch("queue", queue.device(), "image", image.device())));
  }
}

}  // namespace detail

namespace {

/// The SDK's image methods exist only from 1.8 on: older vtables end before them.
bool has_sdk_1_8(const BoundDevice& device) {
  return detail::loaded(device.context().api()).abi_minor >= 8;
}

void check_enums(ImageType type, ImageFormat format) {
  if (static_cast<std::size_t>(type) >= image_type_count) {
    throw LogicError(fmt::format("Image::allocate: {} is no image type", static_cast<int>(type)));
  }
  if (static_cast<std::size_t>(format.order) >= channel_order_count) {
    throw LogicError(
        fmt::format("Image::allocate: {} is no channel order", static_cast<int>(format.order)));
  }
  if (static_cast<std::size_t>(format.type) >= channel_type_count) {
    throw LogicError(
        fmt::format("Image::allocate: {} is no channel type", static_cast<int>(format.type)));
  }
}

/// Refuses an extent with a used axis of 0, an unused axis other than 1, or an axis beyond
/// the device's limit.
void check_extent(ImageType type, const ImageExtent& e, const ImageLimits& limits,
                  const BoundDevice& device) {
  struct Axis {
    const char* name;
    std::size_t value;
    bool used;
    std::size_t limit;
  };
  const bool is_1d = type == ImageType::image1d || type == ImageType::image1d_array;
  const bool is_3d = type == ImageType::image3d;
  const bool layered = type == ImageType::image1d_array || type == ImageType::image2d_array;
  const Axis axes[] = {
      {"width", e.width, true,
       is_1d   ? limits.max_width_1d
       : is_3d ? limits.max_width_3d
               : limits.max_width_2d},
      {"height", e.height, !is_1d, is_3d ? limits.max_height_3d : limits.max_height_2d},
      {"depth", e.depth, is_3d, limits.max_depth_3d},
      {"layers", e.layers, layered, limits.max_layers},
  };
  for (const auto& axis : axes) {
    if (!axis.used && axis.value != 1) {
      throw LogicError(fmt::format("Image::allocate: an {} has no {}: it must be 1, not {}",
                                   to_string(type), axis.name, axis.value));
    }
    if (axis.used && axis.value == 0) {
      throw LogicError(fmt::format("Image::allocate: the {}'s {} must be greater than 0",
                                   to_string(type), axis.name));
    }
    if (axis.used && axis.value > axis.limit) {
      throw LogicError(fmt::format(
          "Image::allocate: an {} {} of {} exceeds device {} ('{}')'s limit of {}", to_string(type),
          axis.name, axis.value, device.index(), device.name(), axis.limit));
    }
  }
}

DType dtype_of(ChannelType type) {
  switch (type) {
    case ChannelType::unorm_int8:
    case ChannelType::uint8: return DType::uint8();
    case ChannelType::snorm_int8:
    case ChannelType::int8: return DType::int8();
    case ChannelType::unorm_int16:
    case ChannelType::uint16: return DType::uint16();
    case ChannelType::snorm_int16:
    case ChannelType::int16: return DType::int16();
    case ChannelType::int32: return DType::int32();
    case ChannelType::uint32: return DType::uint32();
    case ChannelType::float16: return DType::float16();
    case ChannelType::float32: return DType::float32();
  }
  return DType::uint8();
}

/// Whether `shape` is the image's shape(), or that without a single channel's trailing 1.
bool matches_shape(const Image& image, const std::vector<std::size_t>& shape) {
  auto expected = image.shape();
  if (shape == expected) return true;
  if (image.format().channels() == 1 && expected.size() > 1) {
    expected.pop_back();
    return shape == expected;
  }
  return false;
}

std::string shape_text(const std::vector<std::size_t>& shape) {
  return fmt::format("({})", fmt::join(shape, ", "));
}

void check_array_like(const Image& image, const std::vector<std::size_t>& shape, const DType& dtype,
                      bool contiguous, const char* function, const char* what) {
  if (!matches_shape(image, shape)) {
    throw LogicError(fmt::format(
        "{}: the {} has shape {}, the image {} ({} {} of {} x {} x {})", function, what,
        shape_text(shape), shape_text(image.shape()), to_string(image.type()),
        to_string(image.format()), image.extent().width, image.extent().height,
        image.type() == ImageType::image3d ? image.extent().depth : image.extent().layers));
  }
  if (!(dtype == image.channel_dtype())) {
    throw LogicError(fmt::format("{}: the {} has dtype {}, the image's channels {} ({})", function,
                                 what, dtype.name(), image.channel_dtype().name(),
                                 to_string(image.format().type)));
  }
  if (!contiguous) {
    throw LogicError(fmt::format("{}: the {} is not C-contiguous; copy it into one that is first",
                                 function, what));
  }
}

}  // namespace

ImageSupport image_support(const BoundDevice& device) {
  if (!has_sdk_1_8(device)) {
    const auto& api = detail::loaded(device.context().api());
    ImageSupport none;
    none.reason = fmt::format("{}'s plugin implements SDK 1.{}, and images need SDK 1.8", api.name,
                              api.abi_minor);
    return none;
  }
  try {
    auto support = detail::adapter(device.context()).image_support(device.index());
    if (!support.available && support.reason.empty()) support.reason = "the backend has no images";
    return support;
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {  // the SDK says it never throws; say so if it does
    ImageSupport none;
    none.reason = fmt::format("the backend failed to say: {}", e.what());
    return none;
  }
}

Image Image::allocate(const BoundDevice& device, ImageType type, ImageFormat format,
                      ImageExtent extent) {
  check_enums(type, format);
  const auto support = image_support(device);
  if (!support.available) {
    throw LogicError(fmt::format("Image::allocate: device {} ('{}') has no images: {}",
                                 device.index(), device.name(), support.reason));
  }
  if (!support.supports(type, format)) {
    throw LogicError(fmt::format("Image::allocate: device {} ('{}') makes no {} in {}",
                                 device.index(), device.name(), to_string(type),
                                 to_string(format)));
  }
  check_extent(type, extent, support.limits, device);
  const backend::ImageDesc desc{type, format, extent};
  auto adapter = detail::adapter(device.context()).create_image(device.index(), desc);
  if (adapter == nullptr) {
    throw LogicError("Image::allocate: the backend returned no image");
  }
  const auto& api = detail::loaded(device.context().api());
  return Image(std::make_shared<detail::ImageImpl>(
      detail::ImageImpl{device, api.adopt(std::move(adapter)), type, format, extent}));
}

ImageType Image::type() const noexcept { return impl_->type; }
ImageFormat Image::format() const noexcept { return impl_->format; }
ImageExtent Image::extent() const noexcept { return impl_->extent; }
const BoundDevice& Image::device() const noexcept { return impl_->device; }
backend::ImageAdapter& Image::adapter() const { return *impl_->adapter; }
std::uintptr_t Image::native_handle() const { return impl_->adapter->native_handle(); }
DType Image::channel_dtype() const { return dtype_of(impl_->format.type); }

ImageBox Image::box() const noexcept {
  return ImageBox{{0, 0, 0}, detail::box_axes(impl_->type, impl_->extent)};
}

std::size_t Image::nbytes() const noexcept {
  const auto axes = detail::box_axes(impl_->type, impl_->extent);
  return axes[0] * axes[1] * axes[2] * impl_->format.pixel_size();  // bounded by the limits
}

std::vector<std::size_t> Image::shape() const {
  const auto& e = impl_->extent;
  const auto channels = impl_->format.channels();
  switch (impl_->type) {
    case ImageType::image1d: return {e.width, channels};
    case ImageType::image2d: return {e.height, e.width, channels};
    case ImageType::image3d: return {e.depth, e.height, e.width, channels};
    case ImageType::image1d_array: return {e.layers, e.width, channels};
    case ImageType::image2d_array: return {e.layers, e.height, e.width, channels};
  }
  return {};
}

void Image::set(const Queue& queue, std::span<const std::byte> src, bool no_async) const {
  if (src.size() != nbytes()) {
    throw LogicError(
        fmt::format("Image::set: the host data has {} bytes, the image {}", src.size(), nbytes()));
  }
  write_image(queue, *this, box(), src, {}, no_async);
}

void Image::get(const Queue& queue, std::span<std::byte> dst, bool async) const {
  if (dst.size() != nbytes()) {
    throw LogicError(fmt::format("Image::get: the host memory has {} bytes, the image {}",
                                 dst.size(), nbytes()));
  }
  read_image(queue, dst, {}, *this, box(), async);
}

void Image::set(const Queue& queue, const HostArray& src, bool no_async) const {
  check_array_like(*this, src.shape(), src.dtype(), src.metadata().is_c_contiguous(), "Image::set",
                   "host array");
  write_image(queue, *this, box(), {src.data(), src.nbytes()}, {}, no_async);
  detail::after_host_write(queue, src, !no_async);
}

void Image::get(const Queue& queue, const HostArray& dst, bool async) const {
  check_array_like(*this, dst.shape(), dst.dtype(), dst.metadata().is_c_contiguous(), "Image::get",
                   "host array");
  read_image(queue, {dst.data(), dst.nbytes()}, {}, *this, box(), async);
  detail::after_host_read(queue, dst, async);
}

void Image::set(const Queue& queue, const Array& src) const {
  check_array_like(*this, src.shape(), src.dtype(), src.is_c_contiguous(), "Image::set", "array");
  copy_buffer_to_image(queue, *this, box(), src.first_element_buffer(), {});
}

void Image::get(const Queue& queue, const Array& dst) const {
  check_array_like(*this, dst.shape(), dst.dtype(), dst.is_c_contiguous(), "Image::get", "array");
  copy_image_to_buffer(queue, dst.first_element_buffer(), {}, *this, box());
}

}  // namespace plinth
