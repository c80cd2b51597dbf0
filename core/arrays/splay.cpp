#include <plinth/splay.hpp>

#include <plinth/errors.hpp>

#include <fmt/format.h>

namespace plinth {

BaseSplay::~BaseSplay() = default;

std::vector<std::size_t> EqualSplay::row_counts(std::size_t rows, std::size_t parts) {
  if (parts == 0) throw LogicError("EqualSplay: no devices to split among");
  if (parts > rows) {
    throw LogicError(
        fmt::format("EqualSplay: cannot split {} row(s) of the outermost dimension "
                    "among {} devices (more devices than rows)",
                    rows, parts));
  }
  const std::size_t chunk = (rows + parts - 1) / parts;
  const std::size_t remainder = rows % parts;
  std::vector<std::size_t> counts(parts);
  for (std::size_t i = 0; i < parts; ++i) {
    counts[i] = remainder == 0 || i < remainder ? chunk : chunk - 1;
  }
  return counts;
}

std::vector<std::vector<Index>> EqualSplay::split(const std::vector<std::size_t>& shape,
                                                  const BoundMultiDevice& devices) const {
  if (shape.empty()) throw LogicError("EqualSplay: cannot split an array without dimensions");
  std::vector<std::vector<Index>> parts;
  std::ptrdiff_t start = 0;
  for (const auto rows : row_counts(shape[0], devices.size())) {
    const auto stop = start + static_cast<std::ptrdiff_t>(rows);
    parts.push_back({Slice(start, stop)});
    start = stop;
  }
  return parts;
}

std::vector<std::vector<Index>> CloneSplay::split(const std::vector<std::size_t>& /*shape*/,
                                                  const BoundMultiDevice& devices) const {
  return std::vector<std::vector<Index>>(devices.size());
}

}  // namespace plinth
