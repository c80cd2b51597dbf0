#include "arrays/strided.hpp"

#include <cstring>

namespace plinth::detail {

namespace {

void copy_dim(std::byte* dst, const std::ptrdiff_t* dst_strides, const std::byte* src,
              const std::ptrdiff_t* src_strides, const std::size_t* shape, std::size_t ndim,
              std::size_t itemsize) noexcept {
  const std::size_t extent = shape[0];
  if (ndim == 1) {
    const auto item = static_cast<std::ptrdiff_t>(itemsize);
    if (dst_strides[0] == item && src_strides[0] == item) {
      std::memcpy(dst, src, extent * itemsize);
      return;
    }
    for (std::size_t i = 0; i < extent; ++i) {
      const auto n = static_cast<std::ptrdiff_t>(i);
      std::memcpy(dst + n * dst_strides[0], src + n * src_strides[0], itemsize);
    }
    return;
  }
  for (std::size_t i = 0; i < extent; ++i) {
    const auto n = static_cast<std::ptrdiff_t>(i);
    copy_dim(dst + n * dst_strides[0], dst_strides + 1, src + n * src_strides[0], src_strides + 1,
             shape + 1, ndim - 1, itemsize);
  }
}

}  // namespace

void copy_strided(std::byte* dst, std::span<const std::ptrdiff_t> dst_strides, const std::byte* src,
                  std::span<const std::ptrdiff_t> src_strides, std::span<const std::size_t> shape,
                  std::size_t itemsize) noexcept {
  for (const auto extent : shape) {
    if (extent == 0) return;
  }
  if (shape.empty()) {
    std::memcpy(dst, src, itemsize);
    return;
  }
  copy_dim(dst, dst_strides.data(), src, src_strides.data(), shape.data(), shape.size(), itemsize);
}

}  // namespace plinth::detail
