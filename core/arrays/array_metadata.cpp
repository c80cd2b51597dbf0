#include <plinth/array_metadata.hpp>

#include <plinth/errors.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <numeric>
#include <utility>

// GCC 12 reports std::optional's disengaged payload as maybe-uninitialized once the
// Index/Slice copies are inlined (GCC bug 80635); the payload is only read when engaged.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace plinth {

namespace {

std::ptrdiff_t checked_mul(std::ptrdiff_t a, std::ptrdiff_t b, const char* what) {
  std::ptrdiff_t result = 0;
  if (__builtin_mul_overflow(a, b, &result)) {
    throw LogicError(fmt::format("{}: a byte offset overflows", what));
  }
  return result;
}

std::ptrdiff_t checked_add(std::ptrdiff_t a, std::ptrdiff_t b, const char* what) {
  std::ptrdiff_t result = 0;
  if (__builtin_add_overflow(a, b, &result)) {
    throw LogicError(fmt::format("{}: a byte offset overflows", what));
  }
  return result;
}

/// Python's slice.indices() followed by the length of the range: the first position and
/// the number of positions a slice selects in a dimension of `length`.
std::pair<std::ptrdiff_t, std::size_t> resolve(const Slice& slice, std::size_t length,
                                               std::size_t dim) {
  if (slice.step == 0) {
    throw LogicError(fmt::format("view: the slice of dimension {} has step 0", dim));
  }
  const auto n = static_cast<std::ptrdiff_t>(length);
  const std::ptrdiff_t step = slice.step;
  // Negative positions count from the end; then clamp into the range a walk in the
  // direction of `step` can take: [0, n] forwards, [-1, n - 1] backwards.
  const std::ptrdiff_t low = step > 0 ? 0 : -1;
  const std::ptrdiff_t high = step > 0 ? n : n - 1;
  const auto normalize = [&](const std::optional<std::ptrdiff_t>& value, std::ptrdiff_t absent) {
    if (!value) return absent;
    std::ptrdiff_t v = *value;
    if (v < 0) v = v < -n ? -n - 1 : v + n;  // avoid overflow for huge negatives
    return std::clamp(v, low, high);
  };
  const std::ptrdiff_t start = normalize(slice.start, step > 0 ? 0 : n - 1);
  const std::ptrdiff_t stop = normalize(slice.stop, step > 0 ? n : -1);
  std::size_t count = 0;
  if (step > 0 && stop > start) {
    count = static_cast<std::size_t>((stop - start - 1) / step + 1);
  } else if (step < 0 && start > stop) {
    // -step overflows for PTRDIFF_MIN: divide by its magnitude as an unsigned number.
    const std::size_t magnitude = std::size_t{0} - static_cast<std::size_t>(step);
    count = static_cast<std::size_t>(start - stop - 1) / magnitude + 1;
  }
  return {start, count};
}

/// True if the elements lie in `order` without gaps, extent-1 dimensions skipped (numpy's
/// _UpdateContiguousFlags for an array of more than one element).
bool contiguous_in(const std::vector<std::size_t>& shape,
                   const std::vector<std::ptrdiff_t>& strides, std::ptrdiff_t itemsize,
                   Order order) {
  std::ptrdiff_t expected = itemsize;
  const std::size_t n = shape.size();
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = order == Order::C ? n - 1 - k : k;
    if (shape[i] == 1) continue;
    if (strides[i] != expected) return false;
    expected *= static_cast<std::ptrdiff_t>(shape[i]);
  }
  return true;
}

}  // namespace

std::vector<std::ptrdiff_t> ArrayMetadata::default_strides(std::span<const std::size_t> shape,
                                                           std::size_t itemsize) {
  std::vector<std::ptrdiff_t> strides(shape.size());
  auto stride = static_cast<std::ptrdiff_t>(itemsize);
  for (std::size_t i = shape.size(); i-- > 0;) {
    strides[i] = stride;
    // An extent of 0 leaves nothing to address; keep the strides finite.
    stride = checked_mul(stride, static_cast<std::ptrdiff_t>(std::max<std::size_t>(shape[i], 1)),
                         "ArrayMetadata");
  }
  return strides;
}

std::vector<std::ptrdiff_t> ArrayMetadata::default_strides(std::span<const std::size_t> shape,
                                                           std::size_t itemsize, Order order) {
  if (order == Order::C) return default_strides(shape, itemsize);
  std::vector<std::ptrdiff_t> strides(shape.size());
  auto stride = static_cast<std::ptrdiff_t>(itemsize);
  for (std::size_t i = 0; i < shape.size(); ++i) {
    strides[i] = stride;
    stride = checked_mul(stride, static_cast<std::ptrdiff_t>(std::max<std::size_t>(shape[i], 1)),
                         "ArrayMetadata");
  }
  return strides;
}

ArrayMetadata::ArrayMetadata(std::vector<std::size_t> shape, const DType& dtype,
                             std::optional<std::vector<std::ptrdiff_t>> strides,
                             std::optional<std::size_t> first_element_offset,
                             std::optional<std::size_t> buffer_size)
    : shape_(std::move(shape)), dtype_(dtype) {
  const char* const what = "ArrayMetadata";
  const auto itemsize = static_cast<std::ptrdiff_t>(dtype_.itemsize());
  size_ = 1;
  constexpr auto max_offset = static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max());
  for (std::size_t dim = 0; dim < shape_.size(); ++dim) {
    // Even with no elements (another extent 0): views and strides count positions signed.
    if (shape_[dim] > max_offset) {
      throw LogicError(
          fmt::format("{}: extent {} of dimension {} is larger than the largest "
                      "ptrdiff_t",
                      what, shape_[dim], dim));
    }
  }
  for (const auto extent : shape_) {
    if (__builtin_mul_overflow(size_, extent, &size_) ||
        size_ > static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max()) /
                    dtype_.itemsize()) {
      throw LogicError(
          fmt::format("{}: the shape ({}) has too many elements", what, fmt::join(shape_, ", ")));
    }
  }
  if (strides) {
    if (strides->size() != shape_.size()) {
      throw LogicError(fmt::format("{}: {} strides for a {}-dimensional shape", what,
                                   strides->size(), shape_.size()));
    }
    strides_ = std::move(*strides);
  } else {
    strides_ = default_strides(shape_, dtype_.itemsize());
  }

  // Offsets of the lowest and one past the highest byte, relative to the first element.
  std::ptrdiff_t low = 0;
  std::ptrdiff_t high = itemsize;
  for (std::size_t i = 0; i < shape_.size(); ++i) {
    if (shape_[i] == 0) continue;
    const auto last = checked_mul(static_cast<std::ptrdiff_t>(shape_[i] - 1), strides_[i], what);
    (last < 0 ? low : high) = checked_add(last < 0 ? low : high, last, what);
  }
  if (size_ == 0) low = high = 0;

  // low may be PTRDIFF_MIN: negate and subtract as unsigned numbers (low <= 0 < high).
  const std::size_t min_first = std::size_t{0} - static_cast<std::size_t>(low);
  first_element_offset_ = first_element_offset.value_or(min_first);
  if (first_element_offset_ < min_first) {
    throw LogicError(fmt::format(
        "{}: with these strides an element lies {} bytes before the first one, so the first "
        "element offset must be at least {}, not {}",
        what, min_first, min_first, first_element_offset_));
  }
  min_offset_ = first_element_offset_ - min_first;
  span_ = static_cast<std::size_t>(high) + min_first;
  std::size_t end = 0;
  if (span_ > max_offset || __builtin_add_overflow(min_offset_, span_, &end) || end > max_offset) {
    throw LogicError(fmt::format("{}: a byte offset overflows", what));
  }
  buffer_size_ = buffer_size.value_or(end);
  if (buffer_size_ < end) {
    throw LogicError(fmt::format("{}: the elements reach byte {} but the buffer has {} bytes", what,
                                 end, buffer_size_));
  }

  // Contiguous in C or Fortran order without gaps, ignoring extent-1 dimensions (numpy's
  // flags).
  contiguous_ = size_ <= 1 || contiguous_in(shape_, strides_, itemsize, Order::C);
  f_contiguous_ = size_ <= 1 || contiguous_in(shape_, strides_, itemsize, Order::F);
  // Dense: the dimensions that move, sorted by |stride|, tile the span exactly.
  dense_ = contiguous_ || f_contiguous_;
  if (!dense_) {
    std::vector<std::pair<std::ptrdiff_t, std::size_t>> moving;
    for (std::size_t i = 0; i < shape_.size(); ++i) {
      if (shape_[i] > 1)
        moving.emplace_back(strides_[i] < 0 ? -strides_[i] : strides_[i], shape_[i]);
    }
    std::sort(moving.begin(), moving.end());
    std::ptrdiff_t expected = itemsize;
    dense_ = true;
    for (const auto& [stride, extent] : moving) {
      if (stride != expected) {
        dense_ = false;
        break;
      }
      expected *= static_cast<std::ptrdiff_t>(extent);
    }
  }
}

ArrayMetadata ArrayMetadata::view(std::span<const Index> indices) const {
  if (indices.size() > shape_.size()) {
    throw LogicError(fmt::format("view: {} indices for a {}-dimensional array of shape ({})",
                                 indices.size(), shape_.size(), fmt::join(shape_, ", ")));
  }
  std::vector<std::size_t> shape;
  std::vector<std::ptrdiff_t> strides;
  auto offset = static_cast<std::ptrdiff_t>(first_element_offset_);
  bool empty = false;
  for (std::size_t dim = 0; dim < shape_.size(); ++dim) {
    const Index index = dim < indices.size() ? indices[dim] : Index(Slice::all());
    const auto extent = static_cast<std::ptrdiff_t>(shape_[dim]);
    if (index.is_slice()) {
      const auto [start, count] = resolve(index.slice(), shape_[dim], dim);
      shape.push_back(count);
      std::ptrdiff_t stride = 0;
      if (__builtin_mul_overflow(strides_[dim], index.slice().step, &stride)) {
        // With one position or none the stride is never used (a[2::PTRDIFF_MIN] is fine).
        if (count > 1) throw LogicError("view: a byte offset overflows");
        stride = strides_[dim];
      }
      strides.push_back(stride);
      if (count == 0) empty = true;
      if (count > 0)
        offset = checked_add(offset, checked_mul(start, strides_[dim], "view"), "view");
    } else {
      std::ptrdiff_t position = index.position();
      if (position < 0 && position >= -extent) position += extent;
      if (position < 0 || position >= extent) {
        throw LogicError(fmt::format(
            "view: index {} is out of bounds for dimension {} of extent {} (shape ({}))",
            index.position(), dim, extent, fmt::join(shape_, ", ")));
      }
      offset = checked_add(offset, checked_mul(position, strides_[dim], "view"), "view");
    }
  }
  // An empty view addresses nothing; keep its offset inside the block.
  if (empty || size_ == 0) offset = static_cast<std::ptrdiff_t>(first_element_offset_);
  return ArrayMetadata(std::move(shape), dtype_, std::move(strides),
                       static_cast<std::size_t>(offset), buffer_size_);
}

ArrayMetadata ArrayMetadata::get_sub_region(std::size_t origin, std::size_t size) const {
  std::size_t region_end = 0;
  if (__builtin_add_overflow(origin, size, &region_end) || region_end > buffer_size_) {
    throw LogicError(
        fmt::format("ArrayMetadata::get_sub_region: the region [{}, {}) is outside the block of "
                    "{} bytes",
                    origin, origin + size, buffer_size_));
  }
  if (origin > min_offset_ || min_offset_ + span_ > region_end ||
      first_element_offset_ - origin > size) {
    throw LogicError(fmt::format(
        "ArrayMetadata::get_sub_region: the region [{}, {}) does not hold the elements, which lie "
        "in [{}, {}) (first element at {})",
        origin, region_end, min_offset_, min_offset_ + span_, first_element_offset_));
  }
  return ArrayMetadata(shape_, dtype_, strides_, first_element_offset_ - origin, size);
}

ArrayMetadata::SubRegion ArrayMetadata::minimal_subregion() const {
  return SubRegion{min_offset_, span_, get_sub_region(min_offset_, span_)};
}

}  // namespace plinth
