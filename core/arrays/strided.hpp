#pragma once

// Copying elements between two strided layouts in host memory: the host side of transfers
// of non-contiguous arrays (gather before a write, scatter after a read).

#include <plinth/export.hpp>

#include <cstddef>
#include <span>

namespace plinth::detail {

/// Copies every element of a `shape` array of `itemsize`-byte elements from the layout
/// (`src`, `src_strides`) to (`dst`, `dst_strides`); `src` and `dst` point to the first
/// elements, strides are in bytes. Rows that are contiguous on both sides are copied whole.
PLINTH_EXPORT void copy_strided(std::byte* dst, std::span<const std::ptrdiff_t> dst_strides,
                                const std::byte* src, std::span<const std::ptrdiff_t> src_strides,
                                std::span<const std::size_t> shape, std::size_t itemsize) noexcept;

}  // namespace plinth::detail
