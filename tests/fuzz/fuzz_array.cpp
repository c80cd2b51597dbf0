// Fuzzes array layouts and views: ArrayMetadata's constructor (shape, strides, first element
// offset, buffer size) and view() by numpy's basic indexing, checked against a reference
// written with 128-bit arithmetic; and HostArray over memory of exactly buffer_size() bytes,
// so that AddressSanitizer sees any element a layout puts outside its block.
//
// Input (fuzz_common.hpp's Reader): dtype, ndim, the extents, optional strides, optional
// first element offset, optional buffer size, then up to four chained views, each a list
// of integer indices and slices (optional start, optional stop, step).

#include "fuzz_common.hpp"

#include <plinth/array_metadata.hpp>
#include <plinth/dtype.hpp>
#include <plinth/errors.hpp>
#include <plinth/host_array.hpp>

#include <array>
#include <cstddef>
#include <limits>
#include <optional>
#include <vector>

namespace {

using plinth::ArrayMetadata;
using plinth::DType;
using plinth::HostArray;
using plinth::Index;
using plinth::Slice;
using i128 = __int128;

constexpr std::size_t max_ndim = 5;
constexpr std::size_t max_host_bytes = std::size_t{1} << 16;

DType pick_dtype(std::uint8_t byte) {
  switch (byte % 8) {
    case 0: return DType::boolean();
    case 1: return DType::int8();
    case 2: return DType::int16();
    case 3: return DType::float32();
    case 4: return DType::float64();
    case 5: return DType::complex128();
    case 6: return DType::float16();
    default: return DType::uint64();
  }
}

// What every valid layout satisfies: its elements lie in [0, buffer_size()), and the
// reported size, min_offset() and span() are what the shape and strides say.
void check_layout(const ArrayMetadata& md) {
  const auto& shape = md.shape();
  const auto& strides = md.strides();
  PLINTH_FUZZ_CHECK(strides.size() == shape.size());
  // Every value below fits in 64 bits if plinth accepted the layout, so none of these
  // 128-bit sums and products overflows unless an earlier check has failed.
  constexpr i128 limit = static_cast<i128>(1) << 64;
  i128 count = 1;
  for (const auto extent : shape) {
    count *= extent;
    PLINTH_FUZZ_CHECK(count < limit);
  }
  PLINTH_FUZZ_CHECK(count == static_cast<i128>(md.size()));
  const auto itemsize = static_cast<i128>(md.dtype().itemsize());
  PLINTH_FUZZ_CHECK(static_cast<i128>(md.nbytes()) == count * itemsize);
  if (md.size() == 0) {
    PLINTH_FUZZ_CHECK(md.span() == 0);
    PLINTH_FUZZ_CHECK(md.first_element_offset() <= md.buffer_size());
    return;
  }
  i128 low = 0;
  i128 high = itemsize;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    const i128 last = static_cast<i128>(shape[i] - 1) * strides[i];
    PLINTH_FUZZ_CHECK(last < limit && last > -limit);
    (last < 0 ? low : high) += last;
  }
  const i128 first = md.first_element_offset();
  PLINTH_FUZZ_CHECK(first + low >= 0);
  PLINTH_FUZZ_CHECK(first + high <= static_cast<i128>(md.buffer_size()));
  PLINTH_FUZZ_CHECK(static_cast<i128>(md.min_offset()) == first + low);
  PLINTH_FUZZ_CHECK(static_cast<i128>(md.span()) == high - low);
  if (md.is_contiguous() || md.is_dense()) PLINTH_FUZZ_CHECK(md.span() == md.nbytes());
}

// Python's slice.indices() and len(range(...)), without overflow.
std::pair<i128, i128> reference_slice(const Slice& slice, i128 n) {
  const i128 step = slice.step;
  const i128 lower = step < 0 ? -1 : 0;
  const i128 upper = step < 0 ? n - 1 : n;
  const auto bound = [&](const std::optional<std::ptrdiff_t>& value, i128 absent) {
    if (!value) return absent;
    i128 v = *value;
    if (v < 0) v += n;
    return v < lower ? lower : v > upper ? upper : v;
  };
  const i128 start = bound(slice.start, step < 0 ? upper : lower);
  const i128 stop = bound(slice.stop, step < 0 ? lower : upper);
  i128 count = 0;
  if (step > 0 && stop > start) count = (stop - start - 1) / step + 1;
  if (step < 0 && start > stop) count = (start - stop - 1) / -step + 1;
  return {start, count};
}

// Checks a view plinth made against the reference (only when plinth accepted it: where
// plinth refuses, an overflow it detects may be the reason).
void check_view(const ArrayMetadata& base, const std::vector<Index>& indices,
                const ArrayMetadata& view) {
  PLINTH_FUZZ_CHECK(indices.size() <= base.ndim());
  PLINTH_FUZZ_CHECK(view.buffer_size() == base.buffer_size());
  PLINTH_FUZZ_CHECK(view.dtype() == base.dtype());
  constexpr i128 limit = static_cast<i128>(1) << 64;
  std::vector<i128> shape;
  std::vector<i128> strides;
  i128 offset = base.first_element_offset();
  // plinth computes each term of the offset in 64 bits; beyond that the view is refused.
  const auto add_offset = [&](i128 term) {
    PLINTH_FUZZ_CHECK(term < limit && term > -limit);
    offset += term;
  };
  for (std::size_t dim = 0; dim < base.ndim(); ++dim) {
    const i128 extent = base.shape()[dim];
    const i128 stride = base.strides()[dim];
    const Index index = dim < indices.size() ? indices[dim] : Index(Slice::all());
    if (index.is_slice()) {
      PLINTH_FUZZ_CHECK(index.slice().step != 0);
      const auto [start, count] = reference_slice(index.slice(), extent);
      shape.push_back(count);
      // With one position or none, a stride * step that does not fit keeps the stride
      // (it is never used); otherwise plinth refuses it.
      const i128 product = stride * index.slice().step;
      const bool fits = product <= std::numeric_limits<std::ptrdiff_t>::max() &&
                        product >= std::numeric_limits<std::ptrdiff_t>::min();
      strides.push_back(fits || count > 1 ? product : stride);
      if (count > 0) add_offset(start * stride);
    } else {
      i128 position = index.position();
      if (position < 0) position += extent;
      PLINTH_FUZZ_CHECK(position >= 0 && position < extent);
      add_offset(position * stride);
    }
  }
  PLINTH_FUZZ_CHECK(view.ndim() == shape.size());
  bool empty = false;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    PLINTH_FUZZ_CHECK(static_cast<i128>(view.shape()[i]) == shape[i]);
    PLINTH_FUZZ_CHECK(static_cast<i128>(view.strides()[i]) == strides[i]);
    if (shape[i] == 0) empty = true;
  }
  if (!empty && base.size() > 0)
    PLINTH_FUZZ_CHECK(static_cast<i128>(view.first_element_offset()) == offset);
}

Index read_index(plinth_fuzz::Reader& in) {
  const std::uint8_t kind = in.byte();
  if ((kind & 3) == 0) return Index(static_cast<std::ptrdiff_t>(in.interesting_signed()));
  std::optional<std::ptrdiff_t> start;
  std::optional<std::ptrdiff_t> stop;
  if (kind & 4) start = static_cast<std::ptrdiff_t>(in.interesting_signed());
  if (kind & 8) stop = static_cast<std::ptrdiff_t>(in.interesting_signed());
  std::ptrdiff_t step = 1;
  if (kind & 16) step = static_cast<std::ptrdiff_t>(in.interesting_signed());
  return Index(Slice(start, stop, step));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  plinth_fuzz::Reader in(data, size);
  const DType dtype = pick_dtype(in.byte());
  const std::size_t ndim = in.byte() % (max_ndim + 1);
  const std::uint8_t options = in.byte();

  std::vector<std::size_t> shape;
  for (std::size_t i = 0; i < ndim; ++i) shape.push_back(in.interesting_unsigned());
  std::optional<std::vector<std::ptrdiff_t>> strides;
  if (options & 1) {
    strides.emplace();
    for (std::size_t i = 0; i < ndim; ++i) {
      auto stride = static_cast<std::ptrdiff_t>(in.interesting_signed());
      // Mostly whole elements, as real layouts have.
      if ((options & 8) && stride > -4096 && stride < 4096)
        stride *= static_cast<std::ptrdiff_t>(dtype.itemsize());
      strides->push_back(stride);
    }
  }
  std::optional<std::size_t> first_element_offset;
  if (options & 2) first_element_offset = in.interesting_unsigned();
  std::optional<std::size_t> buffer_size;
  if (options & 4) buffer_size = in.interesting_unsigned();

  std::optional<ArrayMetadata> md;
  try {
    md.emplace(shape, dtype, strides, first_element_offset, buffer_size);
  } catch (const plinth::Error&) {
    return 0;
  }
  check_layout(*md);
  PLINTH_FUZZ_CHECK(md->shape() == shape);
  if (strides) PLINTH_FUZZ_CHECK(md->strides() == *strides);

  // Real memory of exactly buffer_size() bytes, when small enough.
  std::vector<std::byte> memory;
  std::optional<HostArray> host;
  if (md->buffer_size() <= max_host_bytes) {
    memory.resize(md->buffer_size());
    host = HostArray::wrap(memory, *md);
    try {
      if (md->size() <= max_host_bytes) (void)host->copy();  // reads every element
    } catch (const plinth::Error&) {
    }
  }

  const std::size_t views = in.byte() % 5;
  for (std::size_t v = 0; v < views; ++v) {
    std::vector<Index> indices;
    const std::size_t count = in.byte() % (md->ndim() + 2);
    for (std::size_t i = 0; i < count; ++i) indices.push_back(read_index(in));
    std::optional<ArrayMetadata> view;
    try {
      view.emplace(md->view(indices));
    } catch (const plinth::Error&) {
      continue;
    }
    check_layout(*view);
    check_view(*md, indices, *view);
    if (host) {
      const HostArray host_view = host->view(indices);
      PLINTH_FUZZ_CHECK(host_view.metadata() == *view);
      host = host_view;
      if (view->size() <= max_host_bytes) {
        try {
          const HostArray copy = host_view.copy();  // reads every element of the view
          host_view.assign(copy);                   // and writes it back
        } catch (const plinth::Error&) {
        }
      }
    }
    md = view;
  }
  return 0;
}
