// Virtual sizes: grunnur's cases (its tests/test_vsize.py), the errors, the rendered kernel
// functions, and every real work item of several grids simulated on the host.
//
// Order: grunnur takes a virtual size row-major (its last dimension fastest) and reverses it
// before anything else; plinth takes it dimension 0 fastest. So each of grunnur's virtual
// sizes appears here reversed — grunnur's global size (8, 16, 32, 60) is {60, 32, 16, 8} —
// and the expected virtual values are grunnur's internal lists (already reversed), which read
// the same. Real sizes are in the same order in both; error messages print virtual sizes in
// the order given, as grunnur's do.

#include "error_message.hpp"

#include <plinth/errors.hpp>
#include <plinth/render.hpp>
#include <plinth/virtual_size.hpp>

#include "static_kernels/virtual_size.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <functional>
#include <numeric>
#include <set>
#include <string>
#include <vector>

namespace plinth {
namespace virtual_size_test {
namespace {

using Sizes = std::vector<std::size_t>;

std::size_t product(const Sizes& sizes) {
  return std::accumulate(sizes.begin(), sizes.end(), std::size_t{1}, std::multiplies<>());
}

std::size_t min_blocks(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

// grunnur's test limits: a CUDA GPU's.
const VirtualSizeLimits gpu{1024, {1024, 1024, 64}, {2147483647, 65536, 65536}, 16};

// The VirtualSizeError's message (fails if nothing is thrown).
std::string error_of(const VirtualSizeLimits& limits, const Sizes& global, const Sizes& local) {
  try {
    VirtualSizes sizes(limits, global, local);
  } catch (const VirtualSizeError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no VirtualSizeError";
  return {};
}

// ---- The steps (grunnur's test_factorize ... test_shape_groups) ----

TEST(VirtualSizeSteps, Factorize) {
  EXPECT_EQ(detail::prime_factors(1 << 10), Sizes(10, 2));
  EXPECT_EQ(detail::prime_factors(8 * 9 * 7 * 13 * 251), (Sizes{2, 2, 2, 3, 3, 7, 13, 251}));
  EXPECT_EQ(detail::prime_factors(1), Sizes{});
  EXPECT_EQ(detail::prime_factors(251), Sizes{251});
}

TEST(VirtualSizeSteps, Decompositions) {
  const std::size_t n = 8 * 9 * 7 * 13;
  std::vector<Sizes> all;
  detail::for_each_decomposition(n, 3, [&](std::span<const std::size_t> parts) {
    all.emplace_back(parts.begin(), parts.end());
    return true;
  });
  // Each prime's exponent e splits into 3 parts in C(e + 2, 2) ways.
  EXPECT_EQ(all.size(), 10u * 6u * 3u * 3u);
  EXPECT_EQ(std::set<Sizes>(all.begin(), all.end()).size(), all.size());
  for (const auto& parts : all) {
    EXPECT_EQ(parts.size(), 3u);
    EXPECT_EQ(product(parts), n);
  }
  // grunnur's order: the first part from the largest divisor down.
  EXPECT_EQ(all.front(), (Sizes{n, 1, 1}));
  EXPECT_EQ(all[1], (Sizes{n / 13, 13, 1}));
  EXPECT_EQ(all.back(), (Sizes{1, 1, n}));

  std::size_t visited = 0;
  detail::for_each_decomposition(1024, 4,
                                 [&](std::span<const std::size_t>) { return ++visited < 5; });
  EXPECT_EQ(visited, 5u);
  std::vector<Sizes> of_one;
  detail::for_each_decomposition(1, 2, [&](std::span<const std::size_t> parts) {
    of_one.emplace_back(parts.begin(), parts.end());
    return true;
  });
  EXPECT_EQ(of_one, (std::vector<Sizes>{{1, 1}}));
}

TEST(VirtualSizeSteps, FindLocalSize) {
  // Some decomposition wastes less than 5%.
  Sizes global{128, 200, 300};
  auto local = detail::find_local_size(global, 1024);
  ASSERT_EQ(local.size(), 3u);
  EXPECT_EQ(product(local), 1024u);
  std::size_t bounding = 1;
  for (std::size_t d = 0; d < 3; ++d) bounding *= min_blocks(global[d], local[d]) * local[d];
  EXPECT_LE(static_cast<double>(bounding - product(global)) / static_cast<double>(product(global)),
            0.05);
  // None does: the best one.
  local = detail::find_local_size(Sizes{100, 200, 300}, 1024);
  ASSERT_EQ(local.size(), 3u);
  EXPECT_EQ(product(local), 1024u);
  // A global size below the local size is the local size.
  EXPECT_EQ(detail::find_local_size(Sizes{10, 10, 10}, 1024), (Sizes{10, 10, 10}));
}

TEST(VirtualSizeSteps, GroupDimensions) {
  using Groups = std::vector<Sizes>;
  // More virtual dimensions than real ones.
  auto groups = detail::group_dimensions(Sizes{8, 8, 8, 8}, Sizes{32, 32, 32});
  EXPECT_EQ(groups.virtual_dims, (Groups{{0}, {1, 2, 3}}));
  EXPECT_EQ(groups.real_dims, (Groups{{0}, {1, 2}}));
  // Fewer.
  groups = detail::group_dimensions(Sizes{8, 8}, Sizes{32, 32, 32});
  EXPECT_EQ(groups.virtual_dims, (Groups{{0}, {1}}));
  EXPECT_EQ(groups.real_dims, (Groups{{0}, {1}}));
  // Trivial dimensions join the group before them.
  groups = detail::group_dimensions(Sizes{8, 1, 1, 8, 1}, Sizes{32, 32, 32});
  EXPECT_EQ(groups.virtual_dims, (Groups{{0, 1, 2}, {3, 4}}));
  EXPECT_EQ(groups.real_dims, (Groups{{0}, {1}}));
}

TEST(VirtualSizeSteps, FindBoundingShape) {
  EXPECT_EQ(detail::find_bounding_shape(100, Sizes{8, 16}), (Sizes{8, 13}));
  EXPECT_EQ(detail::find_bounding_shape(120, Sizes{11, 11}), (Sizes{11, 11}));
  // Fixing only dimensions of maximum 1 still shares the size out again (grunnur stops there
  // with [1, 10]).
  EXPECT_EQ(detail::find_bounding_shape(100, Sizes{1, 200}), (Sizes{1, 100}));
  EXPECT_EQ(detail::find_bounding_shape(98, Sizes{7, 7, 7}), (Sizes{5, 5, 5}));
  EXPECT_EQ(detail::find_bounding_shape(64, Sizes{4, 4, 4}), (Sizes{4, 4, 4}));
}

TEST(VirtualSizeSteps, ShapeMap) {
  using Terms = std::vector<detail::FlatTerm>;
  auto map = detail::map_shape(Sizes{8, 8, 8, 8}, Sizes{32, 32, 32});
  EXPECT_EQ(map.real_shape, (Sizes{8, 23, 23}));
  ASSERT_EQ(map.dims.size(), 4u);
  EXPECT_EQ(map.dims[0].terms, (Terms{{0, 1}}));
  for (std::size_t d = 1; d < 4; ++d) EXPECT_EQ(map.dims[d].terms, (Terms{{1, 1}, {2, 23}}));
  EXPECT_EQ(map.dims[1].divisor, 1u);
  EXPECT_EQ(map.dims[2].divisor, 8u);
  EXPECT_EQ(map.dims[3].divisor, 64u);
  EXPECT_TRUE(map.dims[0].major);
  EXPECT_FALSE(map.dims[1].major);
  EXPECT_FALSE(map.dims[2].major);
  EXPECT_TRUE(map.dims[3].major);
  EXPECT_EQ(map.skips, (std::vector<detail::SkipThreshold>{{512, {{1, 1}, {2, 23}}}}));

  // All dimensions trivial: the first is the major one.
  map = detail::map_shape(Sizes{1, 1, 1}, Sizes{32});
  EXPECT_EQ(map.real_shape, (Sizes{1}));
  for (const auto& dim : map.dims) {
    EXPECT_EQ(dim.terms, (Terms{{0, 1}}));
    EXPECT_EQ(dim.divisor, 1u);
  }
  EXPECT_TRUE(map.dims[0].major);
  EXPECT_FALSE(map.dims[1].major);
  EXPECT_TRUE(map.skips.empty());

  // An exact layout where there is one, for local sizes.
  EXPECT_EQ(detail::map_shape(Sizes{20}, Sizes{8, 8}).real_shape, (Sizes{5, 5}));
  EXPECT_EQ(detail::map_shape(Sizes{20}, Sizes{8, 8}, true).real_shape, (Sizes{4, 5}));
  EXPECT_TRUE(detail::map_shape(Sizes{20}, Sizes{8, 8}, true).skips.empty());
}

// ---- VirtualSizes (grunnur's test_virtual_sizes and test_vsize_errors) ----

TEST(VirtualSize, ChoosesTheLocalSize) {
  // grunnur: global (8, 16, 32, 60), local chosen.
  const VirtualSizes sizes(gpu, {60, 32, 16, 8});
  EXPECT_EQ(sizes.virtual_local_size(), (Sizes{4, 32, 8, 1}));
  EXPECT_EQ(sizes.virtual_global_size(), (Sizes{60, 32, 16, 8}));
  EXPECT_EQ(sizes.bounding_global_size(), (Sizes{60, 32, 16, 8}));
  EXPECT_EQ(sizes.virtual_num_groups(), (Sizes{15, 1, 2, 8}));
  EXPECT_EQ(sizes.real_local_size(), (Sizes{4, 32, 8}));
  EXPECT_EQ(sizes.real_global_size(), (Sizes{60, 64, 64}));
}

TEST(VirtualSize, SmallGlobalSizeIsOneGroup) {
  // grunnur: global (8, 16), below the maximum local size.
  const VirtualSizes sizes(gpu, {16, 8});
  EXPECT_EQ(sizes.virtual_local_size(), (Sizes{16, 8}));
  EXPECT_EQ(sizes.bounding_global_size(), (Sizes{16, 8}));
  EXPECT_EQ(sizes.virtual_num_groups(), (Sizes{1, 1}));
  EXPECT_EQ(sizes.real_local_size(), (Sizes{16, 8}));
  EXPECT_EQ(sizes.real_global_size(), (Sizes{16, 8}));
}

TEST(VirtualSize, GivenLocalSize) {
  // grunnur: global (123, 345), local (13, 15).
  const VirtualSizes sizes(gpu, {345, 123}, {15, 13});
  EXPECT_EQ(sizes.virtual_local_size(), (Sizes{15, 13}));
  EXPECT_EQ(sizes.bounding_global_size(), (Sizes{345, 130}));
  EXPECT_EQ(sizes.virtual_num_groups(), (Sizes{23, 10}));
  EXPECT_EQ(sizes.real_local_size(), (Sizes{15, 13}));
  EXPECT_EQ(sizes.real_global_size(), (Sizes{345, 130}));
}

TEST(VirtualSize, LocalSizeAboveTheMaximum) {
  // grunnur: global (8, 16, 32, 60), local (8, 8, 8, 8).
  EXPECT_STARTS_WITH(error_of(gpu, {60, 32, 16, 8}, {8, 8, 8, 8}),
                     "Requested local size is greater than the maximum 1024");
  // The maximum is lowered to the product of the maxima per dimension.
  const VirtualSizeLimits narrow{1024, {4, 4, 4}, {1024, 1024, 1024}, 1};
  EXPECT_STARTS_WITH(error_of(narrow, {100}, {65}),
                     "Requested local size is greater than the maximum 64");
}

TEST(VirtualSize, TooManyGroups) {
  // grunnur: global (8, 16, 32, 60), local (4, 4, 4, 4), at most (4, 4, 4) groups.
  const VirtualSizeLimits few_groups{1024, {1024, 1024, 64}, {4, 4, 4}, 16};
  EXPECT_STARTS_WITH(error_of(few_groups, {60, 32, 16, 8}, {4, 4, 4, 4}),
                     "Bounding global size [60, 32, 16, 8] is too large");

  // 2^29 groups do not fit in 2^10 x 2^10 x 2^8; 2^28 do.
  const VirtualSizeLimits small{16, {16, 16, 16}, {1 << 10, 1 << 10, 1 << 8}, 16};
  EXPECT_STARTS_WITH(error_of(small, {1 << 14, 1 << 11, 1 << 8}, {16, 1, 1}),
                     "Bounding global size [16384, 2048, 256] is too large");
  const VirtualSizes fits(small, {1 << 14, 1 << 10, 1 << 8}, {16, 1, 1});
  EXPECT_EQ(fits.virtual_num_groups(), (Sizes{1 << 10, 1 << 10, 1 << 8}));
  EXPECT_EQ(fits.real_local_size(), (Sizes{16, 1, 1}));
  EXPECT_EQ(fits.real_global_size(), (Sizes{1 << 14, 1 << 10, 1 << 8}));
}

TEST(VirtualSize, Misuse) {
  // grunnur: global (8, 16, 32, 60), local (4, 4, 4).
  EXPECT_EQ(error_of(gpu, {60, 32, 16, 8}, {4, 4, 4}),
            "The virtual local size [4, 4, 4] has 3 dimension(s) and the virtual global size "
            "[60, 32, 16, 8] has 4; they must have the same number");
  EXPECT_CONTAINS(error_of(gpu, {}, {}), "global size is empty");
  EXPECT_EQ(error_of(gpu, {8, 0}, {}), "The virtual global size [8, 0] is 0 in dimension 1");
  EXPECT_EQ(error_of(gpu, {8, 8}, {0, 8}), "The virtual local size [0, 8] is 0 in dimension 0");
  // A given local size that only a padded layout holds, beyond the maximum.
  EXPECT_EQ(error_of({997, {512, 512, 512}, {64, 64, 64}, 1}, {5000}, {997}),
            "The virtual local size [997] cannot be laid onto the real local dimensions (at most "
            "512 x 512 x 512) within the maximum of 997 work items per group: it would take "
            "[32, 32]");
  auto zero = gpu;
  zero.max_num_groups[2] = 0;
  EXPECT_EQ(error_of(zero, {8}, {}),
            "VirtualSizeLimits: max_num_groups[2] is 0; every limit must be at least 1");
  EXPECT_CONTAINS(error_of(gpu, {std::size_t{1} << 40, std::size_t{1} << 40}, {}),
                  "more work items than a size_t holds");
  // A VirtualSizeError is a LogicError.
  EXPECT_THROW(VirtualSizes(gpu, {8}, {2, 2}), LogicError);
}

TEST(VirtualSize, LimitsForADevice) {
  DeviceParameters device;
  device.max_total_local_size = 256;
  device.max_local_sizes = {256, 128};
  device.max_num_groups = {1000, 0, 30};
  device.warp_size = 64;
  const auto limits = VirtualSizeLimits::for_device(device);
  EXPECT_EQ(limits.max_total_local_size, 256u);
  EXPECT_EQ(limits.max_local_sizes, (std::array<std::size_t, 3>{256, 128, 1}));
  EXPECT_EQ(limits.max_num_groups, (std::array<std::size_t, 3>{1000, 1, 30}));
  EXPECT_EQ(limits.local_size_multiple, 64u);
}

// ---- The kernel functions ----

TEST(VirtualSize, RendersTheKernelFunctions) {
  // 5 x 10 virtual groups of 20 x 3 on a grid of at most 4 x 4 x 4 groups of at most 8 x 8 x 8:
  // the local dimension 0 spreads over real dimensions 0 and 1 (4 x 5, no padding), the
  // groups share all three (4 x 4 x 4 for 50), and 29 is not a multiple of 3.
  const VirtualSizeLimits limits{64, {8, 8, 8}, {4, 4, 4}, 1};
  const VirtualSizes sizes(limits, {100, 29}, {20, 3});
  EXPECT_EQ(sizes.real_local_size(), (Sizes{4, 5, 3}));
  EXPECT_EQ(sizes.real_global_size(), (Sizes{16, 20, 12}));
  // Modules are numbered in the order of first use, and written before their users.
  EXPECT_EQ(
      render_source("${static.skip}();", {}, {{"static", sizes.modules()}}),
      "FUNCTION VSIZE_T _mod_vsize_local_id_2_(unsigned int dim)\n"
      "{\n"
      "    switch (dim)\n"
      "    {\n"
      "    case 0: return get_local_id(0) + get_local_id(1) * 4;\n"
      "    case 1: return get_local_id(2);\n"
      "    default: return 0;\n"
      "    }\n"
      "}\n"
      "FUNCTION VSIZE_T _mod_vsize_group_id_3_(unsigned int dim)\n"
      "{\n"
      "    switch (dim)\n"
      "    {\n"
      "    case 0: return (get_group_id(0) + get_group_id(1) * 4 + get_group_id(2) * 16) % 5;\n"
      "    case 1: return (get_group_id(0) + get_group_id(1) * 4 + get_group_id(2) * 16) / 5;\n"
      "    default: return 0;\n"
      "    }\n"
      "}\n"
      "FUNCTION VSIZE_T _mod_vsize_local_size_4_(unsigned int dim)\n"
      "{\n"
      "    switch (dim)\n"
      "    {\n"
      "    case 0: return 20;\n"
      "    case 1: return 3;\n"
      "    default: return 1;\n"
      "    }\n"
      "}\n"
      "FUNCTION VSIZE_T _mod_vsize_global_id_1_(unsigned int dim)\n"
      "{\n"
      "    return _mod_vsize_local_id_2_(dim) + _mod_vsize_group_id_3_(dim) * "
      "_mod_vsize_local_size_4_(dim);\n"
      "}\n"
      "FUNCTION bool _mod_vsize_skip_0_()\n"
      "{\n"
      "    if (get_group_id(0) + get_group_id(1) * 4 + get_group_id(2) * 16 >= 50) return true;\n"
      "    if (_mod_vsize_global_id_1_(1) >= 29) return true;\n"
      "    return false;\n"
      "}\n"
      "_mod_vsize_skip_0_();");
  // Padding within a group: 61 work items as 8 x 8.
  const VirtualSizes prime({64, {8, 8, 8}, {64, 64, 64}, 1}, {500}, {61});
  EXPECT_EQ(prime.real_local_size(), (Sizes{8, 8}));
  EXPECT_CONTAINS(render_source("${s.skip}", {}, {{"s", prime.modules()}}),
                  "    if (get_local_id(0) + get_local_id(1) * 8 >= 61) return true;\n");
}

TEST(VirtualSize, ModulesAreOneRenderGlobal) {
  const VirtualSizes sizes(gpu, {60, 32, 16, 8});
  const auto text = render_source(
      "${static.global_flat_id}() ${static.global_flat_size}() ${static.num_groups}(3) "
      "${static.global_size}(0) ${static.global_id}(1) ${static.skip}()",
      {}, {{"static", sizes.modules()}});
  // global_id renders once, though three modules use it.
  EXPECT_EQ(text.find("FUNCTION VSIZE_T _mod_vsize_global_id_"),
            text.rfind("FUNCTION VSIZE_T _mod_vsize_global_id_"))
      << text;
  EXPECT_CONTAINS(text,
                  "_mod_vsize_global_id_1_(0) + _mod_vsize_global_id_1_(1) * 60 + "
                  "_mod_vsize_global_id_1_(2) * 1920 + _mod_vsize_global_id_1_(3) * "
                  "30720;");
  EXPECT_CONTAINS(text, "    return 245760;\n");
  EXPECT_CONTAINS(text, "    case 3: return 8;\n");  // num_groups(3)
  // No padding: skip() is always false.
  EXPECT_CONTAINS(text, "FUNCTION bool _mod_vsize_skip_8_()\n{\n    return false;\n}\n");
  // The same Module objects each time.
  EXPECT_EQ(RenderValue(sizes.modules()), RenderValue(sizes.modules()));
}

// ---- Every work item, simulated ----

struct Case {
  VirtualSizeLimits limits;
  Sizes global;
  Sizes local;  // empty: chosen
};

std::string describe(const Case& c) {
  return testing::PrintToString(c.global) + " local " + testing::PrintToString(c.local);
}

// Runs every real work item through the host copy of the kernel functions: each virtual
// global id is reached exactly once by a work item that is not skipped, with local and group
// ids that split it, and the real sizes are within the limits.
void check_every_work_item(const Case& c) {
  SCOPED_TRACE(describe(c));
  const VirtualSizes sizes(c.limits, c.global, c.local);
  const auto& real_global = sizes.real_global_size();
  const auto& real_local = sizes.real_local_size();
  const auto& local = sizes.virtual_local_size();
  ASSERT_GE(real_global.size(), 1u);
  ASSERT_LE(real_global.size(), 3u);
  ASSERT_EQ(real_local.size(), real_global.size());
  if (!c.local.empty()) {
    EXPECT_EQ(local, c.local);
  }
  EXPECT_LE(product(local), c.limits.max_total_local_size);
  EXPECT_LE(product(real_local), c.limits.max_total_local_size);

  std::array<std::size_t, 3> groups{1, 1, 1};
  std::array<std::size_t, 3> items{1, 1, 1};
  for (std::size_t d = 0; d < real_global.size(); ++d) {
    ASSERT_EQ(real_global[d] % real_local[d], 0u);
    EXPECT_LE(real_local[d], c.limits.max_local_sizes[d]);
    groups[d] = real_global[d] / real_local[d];
    items[d] = real_local[d];
    EXPECT_LE(groups[d], c.limits.max_num_groups[d]);
  }
  for (std::size_t d = 0; d < c.global.size(); ++d)
    EXPECT_EQ(sizes.virtual_num_groups()[d], min_blocks(c.global[d], local[d]));

  std::vector<int> reached(product(c.global), 0);
  std::size_t failures = 0;
  std::array<std::size_t, 3> group{};
  std::array<std::size_t, 3> item{};
  for (group[2] = 0; group[2] < groups[2]; ++group[2])
    for (group[1] = 0; group[1] < groups[1]; ++group[1])
      for (group[0] = 0; group[0] < groups[0]; ++group[0])
        for (item[2] = 0; item[2] < items[2]; ++item[2])
          for (item[1] = 0; item[1] < items[1]; ++item[1])
            for (item[0] = 0; item[0] < items[0]; ++item[0]) {
              const auto ids = sizes.ids(item, group);
              if (ids.skip) continue;
              std::size_t flat = 0;
              std::size_t stride = 1;
              bool ok = true;
              for (std::size_t d = 0; d < c.global.size(); ++d) {
                const auto id = ids.global_id[d];
                ok = ok && id < c.global[d] && ids.local_id[d] == id % local[d] &&
                     ids.group_id[d] == id / local[d];
                flat += id * stride;
                stride *= c.global[d];
              }
              ok = ok && flat == ids.global_flat_id;
              if (!ok || flat >= reached.size()) {
                if (++failures <= 5)
                  ADD_FAILURE() << "work item " << testing::PrintToString(item) << " of group "
                                << testing::PrintToString(group) << " has global id "
                                << testing::PrintToString(ids.global_id) << ", local id "
                                << testing::PrintToString(ids.local_id) << ", group id "
                                << testing::PrintToString(ids.group_id);
                continue;
              }
              ++reached[flat];
            }
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < reached.size(); ++i) {
    if (reached[i] != 1 && ++wrong <= 5)
      ADD_FAILURE() << "virtual flat id " << i << " reached " << reached[i] << " times";
  }
}

TEST(VirtualSize, EveryWorkItemOnceGrunnursDeviceCases) {
  // grunnur's test_vsize_on_device: global (51, 201), local (5, 10) or chosen, at most
  // 16 x 16 groups of 8 x 8: every kind of skip() is needed.
  const VirtualSizeLimits limits{64, {8, 8, 1}, {16, 16, 1}, 2};
  check_every_work_item({limits, {201, 51}, {10, 5}});
  check_every_work_item({limits, {201, 51}, {}});
}

TEST(VirtualSize, EveryWorkItemOnceFiveDimensions) {
  check_every_work_item({gpu, {3, 5, 7, 11, 13}, {}});
  check_every_work_item({gpu, {3, 5, 7, 11, 13}, {3, 5, 1, 1, 2}});
  const VirtualSizeLimits small{16, {4, 4, 4}, {16, 16, 16}, 4};
  check_every_work_item({small, {3, 5, 7, 11, 13}, {}});
  check_every_work_item({small, {3, 5, 7, 11, 13}, {1, 2, 2, 1, 3}});
  check_every_work_item({small, {1, 7, 1, 5, 1}, {}});
}

TEST(VirtualSize, EveryWorkItemOnceBeyondTheGroupLimits) {
  // 1-D sizes that need more groups than one real dimension holds.
  check_every_work_item({{8, {8, 8, 8}, {5, 5, 5}, 1}, {999}, {}});
  // ...and more work items per group than one real local dimension holds.
  check_every_work_item({{8, {4, 4, 4}, {7, 7, 7}, 1}, {777}, {}});
  check_every_work_item({{32, {32, 1, 1}, {10, 10, 10}, 32}, {5000}, {}});
  check_every_work_item({{64, {8, 8, 8}, {4, 4, 4}, 1}, {100, 30}, {20, 3}});
  check_every_work_item({gpu, {100003}, {}});
  check_every_work_item({{1024, {1024, 1024, 64}, {100, 100, 100}, 32}, {1000, 1000}, {}});
  // A prime local size that no real dimension holds: padding within the group.
  check_every_work_item({{64, {8, 8, 8}, {64, 64, 64}, 1}, {500}, {61}});
  // A chosen total of 997 would take 32 x 32 > 997 work items: 996 instead, laid out as the
  // first decomposition that fits (2^2 * 3 x 83).
  const VirtualSizeLimits prime_total{997, {512, 512, 512}, {64, 64, 64}, 1};
  check_every_work_item({prime_total, {5000}, {}});
  EXPECT_EQ(VirtualSizes(prime_total, {5000}).real_local_size(), (Sizes{12, 83}));
}

TEST(VirtualSize, IdsOutsideTheRealGridAreMisuse) {
  const VirtualSizes sizes(gpu, {16, 8});
  EXPECT_THROW(sizes.ids({16, 0, 0}, {0, 0, 0}), LogicError);
  EXPECT_THROW(sizes.ids({0, 0, 1}, {0, 0, 0}), LogicError);
  EXPECT_THROW(sizes.ids({0, 0, 0}, {1, 0, 0}), LogicError);
  EXPECT_FALSE(sizes.ids({15, 7, 0}, {0, 0, 0}).skip);
}

}  // namespace
}  // namespace virtual_size_test
}  // namespace plinth
