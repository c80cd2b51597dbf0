#include "static_kernels/virtual_size.hpp"

#include <plinth/errors.hpp>
#include <plinth/virtual_size.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

namespace plinth {

namespace detail {

namespace {

constexpr std::size_t size_max = std::numeric_limits<std::size_t>::max();

// Limits may be as good as unlimited (2^31 - 1 groups in three dimensions and more), so their
// products saturate rather than wrap.
std::size_t saturating_mul(std::size_t a, std::size_t b) {
  std::size_t product = 0;
  return __builtin_mul_overflow(a, b, &product) ? size_max : product;
}

std::size_t saturating_product(std::span<const std::size_t> sizes) {
  std::size_t product = 1;
  for (const auto size : sizes) product = saturating_mul(product, size);
  return product;
}

std::size_t ceil_div(std::size_t a, std::size_t b) { return a / b + (a % b != 0 ? 1 : 0); }

// The smallest g >= 1 with g^n >= x, exactly (grunnur's ceil(x ** (1 / n)) in floating point
// can be one too large or too small).
std::size_t ceil_root(std::size_t x, std::size_t n) {
  if (x <= 1) return 1;
  if (n == 1) return x;
  const auto reaches = [&](std::size_t g) {
    std::size_t power = 1;
    for (std::size_t i = 0; i < n && power < x; ++i) power = saturating_mul(power, g);
    return power >= x;
  };
  // For n >= 2 the root is below 2^32; the estimate only saves steps.
  const double estimate = std::ceil(std::pow(static_cast<double>(x), 1.0 / static_cast<double>(n)));
  auto g = static_cast<std::size_t>(std::clamp(estimate, 1.0, 4294967296.0));
  while (g > 1 && reaches(g - 1)) --g;
  while (!reaches(g)) ++g;
  return g;
}

using Factors = std::vector<std::pair<std::size_t, std::size_t>>;  // (prime, exponent)

std::size_t power(std::size_t base, std::size_t exponent) {
  std::size_t result = 1;
  for (std::size_t i = 0; i < exponent; ++i) result *= base;
  return result;
}

// Every decomposition of the number `factors` make into `parts` factors, appended to
// `prefix`: the first factor takes each choice of exponents, the first prime's slowest and
// each from the largest down (grunnur's itertools.product over descending ranges).
bool decompose(const Factors& factors, std::size_t parts, std::vector<std::size_t>& prefix,
               const std::function<bool(std::span<const std::size_t>)>& visit) {
  if (parts == 1) {
    std::size_t value = 1;
    for (const auto& [prime, exponent] : factors) value *= power(prime, exponent);
    prefix.push_back(value);
    const bool more = visit(prefix);
    prefix.pop_back();
    return more;
  }
  std::vector<std::size_t> chosen;
  for (const auto& factor : factors) chosen.push_back(factor.second);
  while (true) {
    std::size_t part = 1;
    Factors rest;
    for (std::size_t i = 0; i < factors.size(); ++i) {
      part *= power(factors[i].first, chosen[i]);
      if (chosen[i] < factors[i].second)
        rest.emplace_back(factors[i].first, factors[i].second - chosen[i]);
    }
    prefix.push_back(part);
    const bool more = decompose(rest, parts - 1, prefix, visit);
    prefix.pop_back();
    if (!more) return false;
    // The next choice: the last exponent counts down fastest.
    bool advanced = false;
    for (std::size_t i = chosen.size(); i-- > 0;) {
      if (chosen[i] > 0) {
        --chosen[i];
        advanced = true;
        break;
      }
      chosen[i] = factors[i].second;
    }
    if (!advanced) return true;
  }
}

std::string size_list_text(std::span<const std::size_t> shape) {
  return fmt::format("[{}]", fmt::join(shape, ", "));
}

}  // namespace

std::vector<std::size_t> prime_factors(std::size_t n) {
  std::vector<std::size_t> factors;
  for (; n % 2 == 0 && n > 1; n /= 2) factors.push_back(2);
  for (std::size_t q = 3; q <= n / q; q += 2) {
    for (; n % q == 0; n /= q) factors.push_back(q);
  }
  if (n > 1) factors.push_back(n);
  return factors;
}

void for_each_decomposition(std::size_t n, std::size_t parts,
                            const std::function<bool(std::span<const std::size_t>)>& visit) {
  Factors factors;
  for (const auto prime : prime_factors(n)) {
    if (!factors.empty() && factors.back().first == prime)
      ++factors.back().second;
    else
      factors.emplace_back(prime, 1);
  }
  std::vector<std::size_t> prefix;
  decompose(factors, std::max<std::size_t>(parts, 1), prefix, visit);
}

std::vector<std::size_t> find_local_size(std::span<const std::size_t> global,
                                         std::size_t flat_local) {
  const std::size_t work_items = saturating_product(global);
  if (flat_local >= work_items) return {global.begin(), global.end()};

  std::vector<std::size_t> best;
  std::size_t best_bounding = size_max;
  std::size_t seen = 0;
  for_each_decomposition(flat_local, global.size(), [&](std::span<const std::size_t> local) {
    std::size_t bounding = 1;
    for (std::size_t d = 0; d < global.size(); ++d)
      bounding = saturating_mul(bounding, saturating_mul(ceil_div(global[d], local[d]), local[d]));
    // Fewer than 5% padding work items: good enough, stop looking.
    if (saturating_mul(bounding - work_items, 20) < work_items) {
      best.assign(local.begin(), local.end());
      return false;
    }
    if (best.empty() || bounding < best_bounding) {
      best.assign(local.begin(), local.end());
      best_bounding = bounding;
    }
    return ++seen < max_local_size_candidates;
  });
  return best;
}

DimensionGroups group_dimensions(std::span<const std::size_t> virtual_shape,
                                 std::span<const std::size_t> available) {
  const auto product = [](std::span<const std::size_t> shape, std::size_t begin, std::size_t end) {
    end = std::min(end, shape.size());
    return begin < end ? saturating_product(shape.subspan(begin, end - begin)) : 1;
  };
  DimensionGroups groups;
  std::size_t v = 0;  // the first virtual dimension not grouped yet
  std::size_t a = 0;  // the first real dimension not used yet
  while (v < virtual_shape.size()) {
    std::size_t v_count = 1;
    std::size_t a_count = 1;
    while (true) {
      if (a + a_count > available.size())
        throw LogicError(fmt::format("virtual shape {} does not fit in the real shape {}",
                                     size_list_text(virtual_shape), size_list_text(available)));
      // More virtual work items in the group than real ones: one more real dimension.
      if (product(virtual_shape, v, v + v_count) > product(available, a, a + a_count)) {
        ++a_count;
        continue;
      }
      // The rest does not fit in the remaining real dimensions: one more virtual dimension.
      if (product(virtual_shape, v + v_count, virtual_shape.size()) >
          product(available, a + a_count, available.size())) {
        ++v_count;
        continue;
      }
      break;
    }
    // Trivial dimensions that follow join the group, so that none is left without a real one.
    while (v + v_count < virtual_shape.size() && virtual_shape[v + v_count] == 1) ++v_count;

    std::vector<std::size_t> v_group(v_count);
    std::vector<std::size_t> a_group(a_count);
    for (std::size_t i = 0; i < v_count; ++i) v_group[i] = v + i;
    for (std::size_t i = 0; i < a_count; ++i) a_group[i] = a + i;
    groups.virtual_dims.push_back(std::move(v_group));
    groups.real_dims.push_back(std::move(a_group));
    v += v_count;
    a += a_count;
  }
  return groups;
}

std::vector<std::size_t> find_bounding_shape(std::size_t size,
                                             std::span<const std::size_t> available) {
  std::vector<std::size_t> shape(available.size(), 1);
  std::vector<bool> fixed(available.size(), false);
  std::size_t free_size = size;
  std::size_t free_count = available.size();
  // Each free dimension takes the free_count-th root of what is left; a dimension that cannot
  // take it is fixed at its maximum and the rest is shared out again. (grunnur stops when the
  // fixed dimensions' product is 1, which leaves the shape too small when only dimensions of
  // maximum 1 were fixed; this stops when none was fixed.)
  while (free_count > 0) {
    const std::size_t guess = ceil_root(free_size, free_count);
    std::size_t fixed_size = 1;
    bool fixed_any = false;
    for (std::size_t d = 0; d < available.size(); ++d) {
      if (fixed[d]) continue;
      if (guess > available[d]) {
        fixed[d] = true;
        fixed_any = true;
        --free_count;
        fixed_size = saturating_mul(fixed_size, available[d]);
        shape[d] = available[d];
      } else {
        shape[d] = guess;
      }
    }
    if (!fixed_any) break;
    free_size = ceil_div(free_size, fixed_size);
  }
  return shape;
}

ShapeMap map_shape(std::span<const std::size_t> virtual_shape,
                   std::span<const std::size_t> available, bool prefer_exact) {
  ShapeMap map;
  map.groups = group_dimensions(virtual_shape, available);
  map.dims.resize(virtual_shape.size());
  for (std::size_t g = 0; g < map.groups.virtual_dims.size(); ++g) {
    const auto& v_group = map.groups.virtual_dims[g];
    const auto& a_group = map.groups.real_dims[g];
    const auto group_available = available.subspan(a_group.front(), a_group.size());
    const std::size_t group_size =
        saturating_product(virtual_shape.subspan(v_group.front(), v_group.size()));

    auto real = find_bounding_shape(group_size, group_available);
    if (prefer_exact && saturating_product(real) != group_size) {
      std::size_t seen = 0;
      for_each_decomposition(group_size, a_group.size(), [&](std::span<const std::size_t> parts) {
        bool fits = true;
        for (std::size_t i = 0; i < parts.size(); ++i)
          fits = fits && parts[i] <= group_available[i];
        if (fits) real.assign(parts.begin(), parts.end());
        return !fits && ++seen < max_local_size_candidates;
      });
    }

    std::vector<FlatTerm> terms;
    std::size_t stride = 1;
    for (std::size_t i = 0; i < a_group.size(); ++i) {
      terms.push_back({static_cast<unsigned>(a_group[i]), stride});
      stride = saturating_mul(stride, real[i]);
    }
    if (group_size < stride) map.skips.push_back({group_size, terms});
    map.real_shape.insert(map.real_shape.end(), real.begin(), real.end());

    // The major dimension, whose id needs no modulus (skip() catches the rest), is the last
    // one of the group that is not trivial.
    std::size_t major = v_group.front();
    for (auto it = v_group.rbegin(); it != v_group.rend(); ++it) {
      if (virtual_shape[*it] > 1) {
        major = *it;
        break;
      }
    }
    std::size_t divisor = 1;
    for (const auto vdim : v_group) {
      map.dims[vdim] = {terms, divisor, virtual_shape[vdim], vdim == major};
      divisor = saturating_mul(divisor, virtual_shape[vdim]);
    }
  }
  return map;
}

std::size_t virtual_id(const VirtualDimensionMap& map, const std::array<std::size_t, 3>& real_ids) {
  if (map.size == 1) return 0;
  std::size_t flat = 0;
  for (const auto& term : map.terms) flat += real_ids[term.real_dim] * term.stride;
  flat /= map.divisor;
  return map.major ? flat : flat % map.size;
}

bool is_skipped(const SkipThreshold& skip, const std::array<std::size_t, 3>& real_ids) {
  std::size_t flat = 0;
  for (const auto& term : skip.terms) flat += real_ids[term.real_dim] * term.stride;
  return flat >= skip.threshold;
}

}  // namespace detail

namespace {

using detail::FlatTerm;
using detail::size_list_text;
using detail::VirtualDimensionMap;

// The kernel functions are generated with C++ rather than a template language, as
// functions.cpp does: the text depends only on the numbers. Numbers are plain decimals (long
// or long long in the dialect) except beyond INT64_MAX, where they need an unsigned suffix.
std::string literal(std::size_t n) {
  return n > static_cast<std::size_t>(std::numeric_limits<std::int64_t>::max())
             ? fmt::format("{}u", n)
             : fmt::format("{}", n);
}

// `text` in parentheses if it is more than one name or call.
std::string grouped(const std::string& text) {
  return text.find(' ') == std::string::npos ? text : "(" + text + ")";
}

// `real_id(d0) * s0 + real_id(d1) * s1 + ...`, where real_id is get_local_id or get_group_id.
std::string flat_index(const std::vector<FlatTerm>& terms, const char* real_id) {
  std::string text;
  for (const auto& term : terms) {
    if (!text.empty()) text += " + ";
    text += fmt::format("{}({})", real_id, term.real_dim);
    if (term.stride != 1) text += " * " + literal(term.stride);
  }
  return text;
}

std::string id_expression(const VirtualDimensionMap& map, const char* real_id) {
  std::string text = flat_index(map.terms, real_id);
  if (map.divisor != 1) text = grouped(text) + " / " + literal(map.divisor);
  if (!map.major) text = grouped(text) + " % " + literal(map.size);
  return text;
}

// Functions are not INLINE (see functions.cpp: OpenCL's `inline` alone emits no symbol).
std::string function(const char* type, const char* params, const std::string& body) {
  return fmt::format("FUNCTION {} ${{prefix}}({})\n{{\n{}}}\n", type, params, body);
}

// `VSIZE_T f(unsigned int dim)`: a switch over the virtual dimensions.
std::string dimension_switch(const std::vector<std::string>& cases, const char* otherwise) {
  std::string body = "    switch (dim)\n    {\n";
  for (std::size_t d = 0; d < cases.size(); ++d) {
    if (!cases[d].empty()) body += fmt::format("    case {}: return {};\n", d, cases[d]);
  }
  body += fmt::format("    default: return {};\n    }}\n", otherwise);
  return function("VSIZE_T", "unsigned int dim", body);
}

std::string ids_function(const detail::ShapeMap& map, const char* real_id) {
  std::vector<std::string> cases;
  for (const auto& dim : map.dims)
    cases.push_back(dim.size == 1 ? "" : id_expression(dim, real_id));
  return dimension_switch(cases, "0");
}

std::string sizes_function(const std::vector<std::size_t>& sizes) {
  std::vector<std::string> cases;
  for (const auto size : sizes) cases.push_back(size == 1 ? "" : literal(size));
  return dimension_switch(cases, "1");
}

Module module(const char* name, std::string text, RenderGlobals globals = {}) {
  return Module::from_string(std::move(text), name, std::move(globals));
}

// The state of a VirtualSizes before its modules exist.
struct Mapping {
  const std::vector<std::size_t>& global;
  const std::vector<std::size_t>& local;
  const std::vector<std::size_t>& grid;
  const std::vector<std::size_t>& bounding;
  const detail::ShapeMap& local_map;
  const detail::ShapeMap& grid_map;
};

VsizeModules make_modules(const Mapping& data) {
  auto local_id = module("vsize_local_id", ids_function(data.local_map, "get_local_id"));
  auto local_size = module("vsize_local_size", sizes_function(data.local));
  auto group_id = module("vsize_group_id", ids_function(data.grid_map, "get_group_id"));
  auto num_groups = module("vsize_num_groups", sizes_function(data.grid));
  auto global_id =
      module("vsize_global_id",
             function("VSIZE_T", "unsigned int dim",
                      "    return ${local_id}(dim) + ${group_id}(dim) * ${local_size}(dim);\n"),
             {{"local_id", local_id}, {"group_id", group_id}, {"local_size", local_size}});
  auto global_size = module("vsize_global_size", sizes_function(data.global));

  std::string flat_id;
  std::size_t stride = 1;
  for (std::size_t d = 0; d < data.global.size(); ++d) {
    if (d > 0) flat_id += " + ";
    flat_id += fmt::format("${{global_id}}({})", d);
    if (stride != 1) flat_id += " * " + literal(stride);
    stride *= data.global[d];
  }
  auto global_flat_id =
      module("vsize_global_flat_id", function("VSIZE_T", "", "    return " + flat_id + ";\n"),
             {{"global_id", global_id}});
  auto global_flat_size = module("vsize_global_flat_size",
                                 function("VSIZE_T", "", "    return " + literal(stride) + ";\n"));

  // Padding work items: within a group (local dimensions sharing real ones), whole groups
  // (likewise on the grid), and beyond the global size where it is not a multiple of the
  // local size.
  std::string skip_body;
  for (const auto& skip : data.local_map.skips) {
    skip_body += fmt::format("    if ({} >= {}) return true;\n",
                             flat_index(skip.terms, "get_local_id"), literal(skip.threshold));
  }
  for (const auto& skip : data.grid_map.skips) {
    skip_body += fmt::format("    if ({} >= {}) return true;\n",
                             flat_index(skip.terms, "get_group_id"), literal(skip.threshold));
  }
  for (std::size_t d = 0; d < data.global.size(); ++d) {
    if (data.global[d] < data.bounding[d]) {
      skip_body += fmt::format("    if (${{global_id}}({}) >= {}) return true;\n", d,
                               literal(data.global[d]));
    }
  }
  skip_body += "    return false;\n";
  auto skip = module("vsize_skip", function("bool", "", skip_body), {{"global_id", global_id}});

  return VsizeModules{local_id,    local_size,     group_id,         num_groups, global_id,
                      global_size, global_flat_id, global_flat_size, skip};
}

void check_sizes(const char* what, const std::vector<std::size_t>& sizes) {
  for (std::size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] == 0)
      throw VirtualSizeError(fmt::format("The virtual {} size {} is 0 in dimension {}", what,
                                         size_list_text(sizes), d));
  }
}

void check_limits(const VirtualSizeLimits& limits) {
  const auto check = [](std::size_t value, const std::string& name) {
    if (value == 0)
      throw VirtualSizeError(
          fmt::format("VirtualSizeLimits: {} is 0; every limit must be at least 1", name));
  };
  check(limits.max_total_local_size, "max_total_local_size");
  check(limits.local_size_multiple, "local_size_multiple");
  for (std::size_t d = 0; d < 3; ++d) {
    check(limits.max_local_sizes[d], fmt::format("max_local_sizes[{}]", d));
    check(limits.max_num_groups[d], fmt::format("max_num_groups[{}]", d));
  }
}

}  // namespace

VirtualSizeLimits VirtualSizeLimits::for_device(const DeviceParameters& device) {
  const auto entry = [](const std::vector<std::size_t>& values, std::size_t d) {
    return d < values.size() && values[d] > 0 ? values[d] : std::size_t{1};
  };
  VirtualSizeLimits limits;
  limits.max_total_local_size = std::max<std::size_t>(device.max_total_local_size, 1);
  for (std::size_t d = 0; d < 3; ++d) {
    limits.max_local_sizes[d] = entry(device.max_local_sizes, d);
    limits.max_num_groups[d] = entry(device.max_num_groups, d);
  }
  limits.local_size_multiple = std::max<std::size_t>(device.warp_size, 1);
  return limits;
}

RenderValue to_render_value(const VsizeModules& modules) {
  return RenderValue::Map{{"local_id", modules.local_id},
                          {"local_size", modules.local_size},
                          {"group_id", modules.group_id},
                          {"num_groups", modules.num_groups},
                          {"global_id", modules.global_id},
                          {"global_size", modules.global_size},
                          {"global_flat_id", modules.global_flat_id},
                          {"global_flat_size", modules.global_flat_size},
                          {"skip", modules.skip}};
}

VirtualSizes::VirtualSizes(const VirtualSizeLimits& limits, std::vector<std::size_t> global_size,
                           std::vector<std::size_t> local_size) {
  if (global_size.empty())
    throw VirtualSizeError("The virtual global size is empty; it needs at least one dimension");
  if (!local_size.empty() && local_size.size() != global_size.size()) {
    throw VirtualSizeError(fmt::format(
        "The virtual local size {} has {} dimension(s) and the virtual global size {} has {}; "
        "they must have the same number",
        size_list_text(local_size), local_size.size(), size_list_text(global_size),
        global_size.size()));
  }
  check_sizes("global", global_size);
  check_sizes("local", local_size);
  check_limits(limits);

  // A maximum per dimension above the total cannot be used; a total above the product of the
  // maxima per dimension neither; a multiple above the total would leave no local size.
  std::array<std::size_t, 3> max_local_sizes{};
  for (std::size_t d = 0; d < 3; ++d)
    max_local_sizes[d] = std::min(limits.max_total_local_size, limits.max_local_sizes[d]);
  const std::size_t max_total =
      std::min(limits.max_total_local_size, detail::saturating_product(max_local_sizes));
  const std::size_t multiple = std::min(limits.local_size_multiple, max_total);

  std::size_t work_items = 1;
  for (const auto size : global_size) {
    if (__builtin_mul_overflow(work_items, size, &work_items))
      throw VirtualSizeError(
          fmt::format("The virtual global size {} has more work items than a size_t holds",
                      size_list_text(global_size)));
  }

  // The local size is laid onto the real local dimensions without padding where it can be;
  // where it cannot, the padded layout must still be within the maximum.
  const auto lay_out = [&](const std::vector<std::size_t>& local) {
    return detail::map_shape(local, max_local_sizes, /*prefer_exact=*/true);
  };
  const auto fits = [&](const detail::ShapeMap& map) {
    return detail::saturating_product(map.real_shape) <= max_total;
  };
  detail::ShapeMap local_map;
  if (local_size.empty()) {
    // The more work items per group the better (occupancy is not considered). A total whose
    // layout would exceed the maximum (a prime above every real dimension's maximum, say) is
    // lowered until one fits; a total of 1 always does.
    std::size_t flat_local =
        work_items < max_total ? work_items : multiple * (max_total / multiple);
    while (true) {
      local_size = detail::find_local_size(global_size, flat_local);
      local_map = lay_out(local_size);
      if (fits(local_map) || flat_local == 1) break;
      flat_local -= flat_local > multiple ? multiple : 1;
    }
  } else {
    if (detail::saturating_product(local_size) > max_total) {
      throw VirtualSizeError(
          fmt::format("Requested local size is greater than the maximum {} (local size {})",
                      max_total, size_list_text(local_size)));
    }
    local_map = lay_out(local_size);
    if (!fits(local_map)) {
      throw VirtualSizeError(fmt::format(
          "The virtual local size {} cannot be laid onto the real local dimensions (at most {}) "
          "within the maximum of {} work items per group: it would take {}",
          size_list_text(local_size), fmt::join(max_local_sizes, " x "), max_total,
          size_list_text(local_map.real_shape)));
    }
  }

  std::vector<std::size_t> grid(global_size.size());
  std::vector<std::size_t> bounding(global_size.size());
  for (std::size_t d = 0; d < global_size.size(); ++d) {
    grid[d] = detail::ceil_div(global_size[d], local_size[d]);
    if (__builtin_mul_overflow(grid[d], local_size[d], &bounding[d]))
      throw VirtualSizeError(fmt::format(
          "The virtual global size {} rounded up to whole groups of {} does not fit in a size_t",
          size_list_text(global_size), size_list_text(local_size)));
  }
  const std::size_t groups = detail::saturating_product(grid);  // at most work_items
  const std::size_t max_groups = detail::saturating_product(limits.max_num_groups);
  if (groups > max_groups) {
    throw VirtualSizeError(fmt::format(
        "Bounding global size {} is too large: {} groups of {} are more than the real grid "
        "holds ({})",
        size_list_text(bounding), groups, size_list_text(local_size),
        fmt::join(limits.max_num_groups, " x ")));
  }

  auto grid_map = detail::map_shape(grid, limits.max_num_groups);

  auto real_local = local_map.real_shape;
  auto real_grid = grid_map.real_shape;
  const std::size_t rank = std::max(real_local.size(), real_grid.size());
  real_local.resize(rank, 1);
  real_grid.resize(rank, 1);
  std::vector<std::size_t> real_global(rank);
  for (std::size_t d = 0; d < rank; ++d) {
    if (__builtin_mul_overflow(real_grid[d], real_local[d], &real_global[d]))
      throw VirtualSizeError(fmt::format(
          "The real grid {} of groups of {} for the virtual global size {} does not fit in a "
          "size_t",
          size_list_text(real_grid), size_list_text(real_local), size_list_text(global_size)));
  }

  auto modules = make_modules({global_size, local_size, grid, bounding, local_map, grid_map});
  impl_ = std::make_shared<const detail::VirtualSizesData>(detail::VirtualSizesData{
      limits, std::move(global_size), std::move(local_size), std::move(grid), std::move(bounding),
      std::move(real_global), std::move(real_local), std::move(local_map), std::move(grid_map),
      std::move(modules)});
}

const VirtualSizeLimits& VirtualSizes::limits() const { return impl_->limits; }
const std::vector<std::size_t>& VirtualSizes::virtual_global_size() const { return impl_->global; }
const std::vector<std::size_t>& VirtualSizes::virtual_local_size() const { return impl_->local; }
const std::vector<std::size_t>& VirtualSizes::virtual_num_groups() const { return impl_->grid; }
const std::vector<std::size_t>& VirtualSizes::bounding_global_size() const {
  return impl_->bounding;
}
const std::vector<std::size_t>& VirtualSizes::real_global_size() const {
  return impl_->real_global;
}
const std::vector<std::size_t>& VirtualSizes::real_local_size() const { return impl_->real_local; }
const VsizeModules& VirtualSizes::modules() const { return impl_->modules; }

VirtualIds VirtualSizes::ids(const std::array<std::size_t, 3>& real_local_id,
                             const std::array<std::size_t, 3>& real_group_id) const {
  const auto& data = *impl_;
  for (std::size_t d = 0; d < 3; ++d) {
    const std::size_t local = d < data.real_local.size() ? data.real_local[d] : 1;
    const std::size_t groups = d < data.real_local.size() ? data.real_global[d] / local : 1;
    if (real_local_id[d] >= local || real_group_id[d] >= groups) {
      throw LogicError(fmt::format(
          "VirtualSizes::ids: real local id {} or group id {} is outside the real grid (local "
          "size {}, global size {})",
          size_list_text(real_local_id), size_list_text(real_group_id),
          size_list_text(data.real_local), size_list_text(data.real_global)));
    }
  }

  VirtualIds ids;
  for (const auto& skip : data.local_map.skips)
    ids.skip = ids.skip || detail::is_skipped(skip, real_local_id);
  for (const auto& skip : data.grid_map.skips)
    ids.skip = ids.skip || detail::is_skipped(skip, real_group_id);
  std::size_t stride = 1;
  for (std::size_t d = 0; d < data.global.size(); ++d) {
    const auto local = detail::virtual_id(data.local_map.dims[d], real_local_id);
    const auto group = detail::virtual_id(data.grid_map.dims[d], real_group_id);
    const auto global = local + group * data.local[d];
    ids.local_id.push_back(local);
    ids.group_id.push_back(group);
    ids.global_id.push_back(global);
    if (data.global[d] < data.bounding[d] && global >= data.global[d]) ids.skip = true;
    ids.global_flat_id += global * stride;
    stride *= data.global[d];
  }
  return ids;
}

}  // namespace plinth
