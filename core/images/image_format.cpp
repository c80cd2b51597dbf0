// The names of the image value types (image_format.hpp).

#include <plinth/image_format.hpp>

namespace plinth {

std::string to_string(ImageType type) {
  switch (type) {
    case ImageType::image1d: return "image1d";
    case ImageType::image2d: return "image2d";
    case ImageType::image3d: return "image3d";
    case ImageType::image1d_array: return "image1d_array";
    case ImageType::image2d_array: return "image2d_array";
  }
  return "image type " + std::to_string(static_cast<int>(type));
}

std::string to_string(ChannelOrder order) {
  switch (order) {
    case ChannelOrder::r: return "r";
    case ChannelOrder::rg: return "rg";
    case ChannelOrder::rgba: return "rgba";
  }
  return "channel order " + std::to_string(static_cast<int>(order));
}

std::string to_string(ChannelType type) {
  switch (type) {
    case ChannelType::unorm_int8: return "unorm_int8";
    case ChannelType::unorm_int16: return "unorm_int16";
    case ChannelType::snorm_int8: return "snorm_int8";
    case ChannelType::snorm_int16: return "snorm_int16";
    case ChannelType::int8: return "int8";
    case ChannelType::int16: return "int16";
    case ChannelType::int32: return "int32";
    case ChannelType::uint8: return "uint8";
    case ChannelType::uint16: return "uint16";
    case ChannelType::uint32: return "uint32";
    case ChannelType::float16: return "float16";
    case ChannelType::float32: return "float32";
  }
  return "channel type " + std::to_string(static_cast<int>(type));
}

std::string to_string(AddressMode mode) {
  switch (mode) {
    case AddressMode::clamp_to_edge: return "clamp_to_edge";
    case AddressMode::clamp_to_border: return "clamp_to_border";
    case AddressMode::repeat: return "repeat";
    case AddressMode::mirrored_repeat: return "mirrored_repeat";
  }
  return "address mode " + std::to_string(static_cast<int>(mode));
}

std::string to_string(FilterMode mode) {
  switch (mode) {
    case FilterMode::nearest: return "nearest";
    case FilterMode::linear: return "linear";
  }
  return "filter mode " + std::to_string(static_cast<int>(mode));
}

std::string to_string(const ImageFormat& format) {
  return to_string(format.order) + " " + to_string(format.type);
}

}  // namespace plinth
