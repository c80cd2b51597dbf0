#include "arrays/reshape_rules.hpp"

#include "algorithms/array_expression_rules.hpp"

#include <plinth/errors.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <string>

namespace plinth::detail {

namespace {

std::string requested_tuple(std::span<const std::ptrdiff_t> requested) {
  if (requested.size() == 1) return fmt::format("({},)", requested[0]);
  return fmt::format("({})", fmt::join(requested, ", "));
}

/// numpy's _attempt_nocopy_reshape: the old dimensions of extent 1 dropped, groups of old and
/// new dimensions of equal products matched, each old group checked to step through memory as
/// one dimension in `order`, and the new group's strides derived from it.
std::optional<std::vector<std::ptrdiff_t>> nocopy_strides(const ArrayMetadata& metadata,
                                                          std::span<const std::size_t> shape,
                                                          Order order) {
  std::vector<std::ptrdiff_t> olddims, oldstrides;
  for (std::size_t d = 0; d < metadata.ndim(); ++d) {
    if (metadata.shape()[d] == 1) continue;
    olddims.push_back(static_cast<std::ptrdiff_t>(metadata.shape()[d]));
    oldstrides.push_back(metadata.strides()[d]);
  }
  const bool f = order == Order::F;
  const std::size_t oldnd = olddims.size(), newnd = shape.size();
  const auto newdim = [&](std::size_t k) { return static_cast<std::ptrdiff_t>(shape[k]); };
  std::vector<std::ptrdiff_t> newstrides(newnd, 0);
  std::size_t oi = 0, oj = 1, ni = 0, nj = 1;
  while (ni < newnd && oi < oldnd) {
    std::ptrdiff_t np = newdim(ni), op = olddims[oi];
    while (np != op) {
      if (np < op) {
        np *= newdim(nj++);
      } else {
        op *= olddims[oj++];
      }
    }
    for (std::size_t ok = oi; ok + 1 < oj; ++ok) {
      const bool combine = f ? oldstrides[ok + 1] == olddims[ok] * oldstrides[ok]
                             : oldstrides[ok] == olddims[ok + 1] * oldstrides[ok + 1];
      if (!combine) return std::nullopt;
    }
    if (f) {
      newstrides[ni] = oldstrides[oi];
      for (std::size_t nk = ni + 1; nk < nj; ++nk) {
        newstrides[nk] = newstrides[nk - 1] * newdim(nk - 1);
      }
    } else {
      newstrides[nj - 1] = oldstrides[oj - 1];
      for (std::size_t nk = nj - 1; nk > ni; --nk) newstrides[nk - 1] = newstrides[nk] * newdim(nk);
    }
    ni = nj++;
    oi = oj++;
  }
  // The new shape's trailing extents of 1.
  std::ptrdiff_t last =
      ni >= 1 ? newstrides[ni - 1] : static_cast<std::ptrdiff_t>(metadata.dtype().itemsize());
  if (f && ni >= 1) last *= newdim(ni - 1);
  for (std::size_t nk = ni; nk < newnd; ++nk) newstrides[nk] = last;
  return newstrides;
}

}  // namespace

std::vector<std::size_t> resolve_reshape(std::span<const std::size_t> shape,
                                         std::span<const std::ptrdiff_t> requested) {
  std::size_t size = 1;
  for (const auto extent : shape) size *= extent;
  const auto mismatch = [&] {
    return LogicError(
        fmt::format("reshape: cannot reshape an array of shape {} ({} elements) into "
                    "shape {}",
                    shape_text(shape), size, requested_tuple(requested)));
  };
  std::optional<std::size_t> unknown;
  std::size_t known = 1;
  std::vector<std::size_t> result(requested.size());
  for (std::size_t k = 0; k < requested.size(); ++k) {
    if (requested[k] < 0) {
      if (unknown) {
        throw LogicError(
            fmt::format("reshape: the shape {} has more than one unknown (negative) "
                        "extent; only one can be inferred",
                        requested_tuple(requested)));
      }
      unknown = k;
      continue;
    }
    result[k] = static_cast<std::size_t>(requested[k]);
    if (__builtin_mul_overflow(known, result[k], &known)) throw mismatch();
  }
  if (unknown) {
    if (known == 0 || size % known != 0) throw mismatch();
    result[*unknown] = size / known;
  } else if (known != size) {
    throw mismatch();
  }
  return result;
}

std::optional<std::vector<std::ptrdiff_t>> reshape_strides(const ArrayMetadata& metadata,
                                                           std::span<const std::size_t> shape,
                                                           Order order) {
  if (std::equal(shape.begin(), shape.end(), metadata.shape().begin(), metadata.shape().end())) {
    return metadata.strides();
  }
  const bool contiguous =
      order == Order::C ? metadata.is_c_contiguous() : metadata.is_f_contiguous();
  if (contiguous) {
    return ArrayMetadata::default_strides(shape, metadata.dtype().itemsize(), order);
  }
  return nocopy_strides(metadata, shape, order);
}

}  // namespace plinth::detail
