#pragma once

#include <plinth/array_metadata.hpp>
#include <plinth/context.hpp>
#include <plinth/export.hpp>

#include <cstddef>
#include <vector>

namespace plinth {

/// How a MultiArray divides an array among devices (grunnur's splays): for the whole
/// array's shape and the devices, the part each device holds, as the indices of a view of
/// the whole array (what Array::view and HostArray::view take). MultiArray::empty makes
/// each device's Array with its part's shape; get and set move each part between its
/// device and that view of the host array.
///
/// Derive from it for other divisions; a splay must be stateless or immutable, as
/// MultiArrays share it.
///
///     // The last row on the last device, the rest on the first.
///     struct LastRowSplay : BaseSplay {
///       std::vector<std::vector<Index>> split(const std::vector<std::size_t>& shape,
///                                             const BoundMultiDevice& devices) const override {
///         const auto rows = static_cast<std::ptrdiff_t>(shape.at(0));
///         std::vector<std::vector<Index>> parts(devices.size(), {Slice(0, 0)});
///         parts.front() = {Slice(0, rows - 1)};
///         parts.back() = {Slice(rows - 1, rows)};
///         return parts;
///       }
///     };
class PLINTH_EXPORT BaseSplay {
 public:
  virtual ~BaseSplay();
  /// The part of an array of `shape` that each of `devices` holds, in the devices' order
  /// (one entry each). Throws LogicError if the array cannot be divided so.
  virtual std::vector<std::vector<Index>> split(const std::vector<std::size_t>& shape,
                                                const BoundMultiDevice& devices) const = 0;
};

/// Splits the outermost dimension as evenly as possible: with `rows` rows on `n` devices,
/// each device gets ceil(rows / n) rows, except that when rows % n is not 0 only the first
/// rows % n devices do and the others get one fewer (10 rows on 3 devices: 4, 3, 3; on 4:
/// 3, 3, 2, 2). The default splay of MultiArray.
class PLINTH_EXPORT EqualSplay : public BaseSplay {
 public:
  /// Throws LogicError for an array without dimensions or with fewer rows than devices.
  std::vector<std::vector<Index>> split(const std::vector<std::size_t>& shape,
                                        const BoundMultiDevice& devices) const override;
  /// The number of rows of each of `parts` devices. Throws LogicError if parts is 0 or
  /// greater than rows.
  static std::vector<std::size_t> row_counts(std::size_t rows, std::size_t parts);
};

/// Gives every device the whole array (a copy each). get() reads every device's copy into
/// the destination in turn, so the last device's copy is what remains.
class PLINTH_EXPORT CloneSplay : public BaseSplay {
 public:
  std::vector<std::vector<Index>> split(const std::vector<std::size_t>& shape,
                                        const BoundMultiDevice& devices) const override;
};

}  // namespace plinth
