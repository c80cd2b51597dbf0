// The dialect's sub-groups (docs/kernel-dialect.md, "Sub-groups"): every work item reports
// get_sub_group_size(), get_sub_group_local_id(), get_sub_group_id(),
// get_max_sub_group_size() and get_num_sub_groups(); the reports are checked for consistency
// (each sub-group's local ids are 0 .. size - 1; consecutive linear local ids on CUDA and HIP;
// size 1 where sub-groups are emulated), and every sub-group operation of every type is
// checked against the host's answer computed from those reports: broadcast, the four
// shuffles with sources outside the sub-group, ballot/any/all, reduce and both scans (float
// sums of small integers, exact in any order), and SUB_GROUP_BARRIER over local memory. Group
// sizes 1, 7, 32, 48, 64, 100 and 256 and 2-D groups (8x4, 5x3, 16x6), where the device
// allows them.

#include "dialect_support.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace plinth::conformance {
namespace dialect_sub_groups_test {
namespace {

using namespace dialect;

// What each work item reports in sub_group_info: 8 unsigned ints.
enum Report : std::size_t {
  group_linear,
  local_linear,
  sg_size,
  sg_local_id,
  sg_id,
  sg_max,
  sg_count,
  barrier_neighbour,
  report_count
};

const char* const info_kernel = R"(
#define PLINTH_LINEAR_ID (get_global_id(0) + get_global_size(0) * get_global_id(1))
#define PLINTH_SG_SCRATCH 512

KERNEL void sub_group_info(GLOBAL_MEM unsigned int *info, GLOBAL_MEM const int *predicates,
                           GLOBAL_MEM unsigned long *ballots, GLOBAL_MEM int *any_all)
{
    LOCAL_MEM unsigned int scratch[PLINTH_SG_SCRATCH];
    const SIZE_T i = PLINTH_LINEAR_ID;
    const unsigned int size = get_sub_group_size(), own = get_sub_group_local_id();
    const unsigned int id = get_sub_group_id(), max_size = get_max_sub_group_size();
    GLOBAL_MEM unsigned int *mine = info + 8 * i;
    mine[0] = get_group_id(0) + get_num_groups(0) * get_group_id(1);
    mine[1] = get_local_id(0) + get_local_size(0) * get_local_id(1);
    mine[2] = size;
    mine[3] = own;
    mine[4] = id;
    mine[5] = max_size;
    mine[6] = get_num_sub_groups();
    // SUB_GROUP_BARRIER: every work item writes its linear local id to its slot, then reads
    // its right neighbour's in the sub-group.
    const unsigned int slot = id * max_size + own;
    if (slot < PLINTH_SG_SCRATCH) scratch[slot] = mine[1];
    SUB_GROUP_BARRIER;
    const unsigned int neighbour = id * max_size + (own + 1u) % size;
    mine[7] = neighbour < PLINTH_SG_SCRATCH ? scratch[neighbour] : 0xffffffffu;
    const int predicate = predicates[i];
    ballots[i] = sub_group_ballot(predicate);
    any_all[2 * i] = sub_group_any(predicate);
    any_all[2 * i + 1] = sub_group_all(predicate);
}
)";

// The operations of sub_group_ops_<S>, in the order of their outputs.
const std::vector<std::string> operations{
    "broadcast",     "broadcast_any_lane", "shuffle",       "shuffle_up",    "shuffle_down",
    "shuffle_xor",   "reduce_add",         "reduce_min",    "reduce_max",    "inclusive_add",
    "inclusive_min", "inclusive_max",      "exclusive_add", "exclusive_min", "exclusive_max"};

template <class T>
std::string ops_kernel() {
  return for_type<T>(R"(
KERNEL void sub_group_ops_$S(GLOBAL_MEM const $T *x, GLOBAL_MEM $T *out, unsigned int lane,
                             unsigned int delta, unsigned int mask)
{
    const SIZE_T n = get_global_size(0) * get_global_size(1);
    const SIZE_T i = PLINTH_LINEAR_ID;
    const $T v = x[i];
    const unsigned int size = get_sub_group_size(), own = get_sub_group_local_id();
    out[0 * n + i] = sub_group_broadcast_$S(v, lane % size);
    out[1 * n + i] = sub_group_broadcast_$S(v, lane);
    out[2 * n + i] = sub_group_shuffle_$S(v, (own * 5u + lane) % (size + 2u));
    out[3 * n + i] = sub_group_shuffle_up_$S(v, delta);
    out[4 * n + i] = sub_group_shuffle_down_$S(v, delta);
    out[5 * n + i] = sub_group_shuffle_xor_$S(v, mask);
    out[6 * n + i] = sub_group_reduce_add_$S(v);
    out[7 * n + i] = sub_group_reduce_min_$S(v);
    out[8 * n + i] = sub_group_reduce_max_$S(v);
    out[9 * n + i] = sub_group_scan_inclusive_add_$S(v);
    out[10 * n + i] = sub_group_scan_inclusive_min_$S(v);
    out[11 * n + i] = sub_group_scan_inclusive_max_$S(v);
    out[12 * n + i] = sub_group_scan_exclusive_add_$S(v);
    out[13 * n + i] = sub_group_scan_exclusive_min_$S(v);
    out[14 * n + i] = sub_group_scan_exclusive_max_$S(v);
}
)");
}

std::string sub_groups_source(const BoundDevice& device) {
  std::string source = info_kernel;
  source += ops_kernel<std::int32_t>() + ops_kernel<std::uint32_t>() + ops_kernel<std::int64_t>() +
            ops_kernel<std::uint64_t>() + ops_kernel<float>();
  if (device.params().supports_double) source += ops_kernel<double>();
  return source;
}

/// A launch shape: local sizes (1-D or 2-D) and groups per dimension.
struct Shape {
  std::vector<std::size_t> local;
  std::vector<std::size_t> groups;
  std::vector<std::size_t> global() const {
    std::vector<std::size_t> g(local.size());
    for (std::size_t d = 0; d < local.size(); ++d) g[d] = local[d] * groups[d];
    return g;
  }
  std::size_t items() const {
    std::size_t n = 1;
    for (std::size_t d = 0; d < local.size(); ++d) n *= local[d] * groups[d];
    return n;
  }
  std::string name() const {
    std::string s;
    for (const auto l : local) s += (s.empty() ? "" : "x") + std::to_string(l);
    return "local size " + s;
  }
};

/// Where work items are in their sub-groups, from their reports: for each (group, sub-group
/// id), the linear global index of the work item of each sub-group local id.
struct SubGroups {
  std::vector<std::uint32_t> reports;  // report_count per work item
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::size_t>> members;

  std::uint32_t report(std::size_t i, Report what) const {
    return reports[i * report_count + what];
  }
  const std::vector<std::size_t>& of(std::size_t i) const {
    return members.at({report(i, group_linear), report(i, sg_id)});
  }
};

class DialectSubGroupsTest : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    PLINTH_SKIP_WITHOUT_DIALECT();
    program_.emplace(context(), sub_groups_source(device()));
  }
  const Program& program() const { return *program_; }

  /// The shapes of the tests that the device allows.
  std::vector<Shape> shapes() const {
    const auto& p = device().params();
    std::vector<Shape> all;
    for (const std::size_t l : {1, 7, 32, 48, 64, 100, 256}) all.push_back({{l}, {3}});
    all.push_back({{8, 4}, {2, 2}});
    all.push_back({{5, 3}, {2, 2}});
    all.push_back({{16, 6}, {2, 1}});
    std::vector<Shape> allowed;
    for (const auto& s : all) {
      std::size_t total = 1;
      bool fits = true;
      for (std::size_t d = 0; d < s.local.size(); ++d) {
        total *= s.local[d];
        fits = fits && d < p.max_local_sizes.size() && s.local[d] <= p.max_local_sizes[d];
      }
      if (fits && total <= p.max_total_local_size) allowed.push_back(s);
    }
    return allowed;
  }

  /// Runs sub_group_info on `shape`, checks the reports and the ballots, and leaves the
  /// reports in `result`.
  void run_info(const Shape& shape, SubGroups& result) const;

  template <class T>
  void check_operations(const Shape& shape, std::uint64_t seed) const;

 private:
  std::optional<Program> program_;
};

void DialectSubGroupsTest::run_info(const Shape& shape, SubGroups& result) const {
  SCOPED_TRACE(shape.name());
  const std::size_t n = shape.items();
  const auto& features = device().features();
  // Predicates: random, mostly true (some sub-groups all true), and all false but one.
  Sequence random(n);
  for (int pattern = 0; pattern < 3; ++pattern) {
    std::vector<std::int32_t> predicates(n);
    for (std::size_t i = 0; i < n; ++i) {
      predicates[i] = pattern == 0   ? static_cast<std::int32_t>(random.in(0, 1)) * 5
                      : pattern == 1 ? (i % 37 == 5 ? 0 : -1)
                                     : (i == n / 2 ? 1 : 0);
    }
    auto info = upload(queue(), std::vector<std::uint32_t>(n * report_count));
    auto ballots = upload(queue(), std::vector<std::uint64_t>(n));
    auto any_all = upload(queue(), std::vector<std::int32_t>(2 * n));
    const auto predicate_buffer = upload(queue(), predicates);
    program()
        .kernel("sub_group_info")
        .launch(queue(), shape.global(), shape.local,
                std::vector<KernelArg>{info, predicate_buffer, ballots, any_all});
    result.reports = download<std::uint32_t>(queue(), info);
    result.members.clear();
    // The reports: sizes, ids, and every sub-group's local ids exactly 0 .. size - 1.
    std::size_t group_size = 1;
    for (const auto l : shape.local) group_size *= l;
    std::map<std::uint32_t, std::pair<std::uint32_t, std::uint32_t>> per_group;  // count, max
    for (std::size_t i = 0; i < n; ++i) {
      const auto size = result.report(i, sg_size), own = result.report(i, sg_local_id);
      ASSERT_GE(size, 1u) << "work item " << i;
      ASSERT_LE(size, 64u) << "work item " << i;
      ASSERT_LT(own, size) << "work item " << i;
      ASSERT_LE(size, result.report(i, sg_max)) << "work item " << i;
      ASSERT_LT(result.report(i, sg_id), result.report(i, sg_count)) << "work item " << i;
      const auto [known, inserted] = per_group.try_emplace(
          result.report(i, group_linear), result.report(i, sg_count), result.report(i, sg_max));
      ASSERT_EQ(known->second.first, result.report(i, sg_count))
          << "work items of one group report different get_num_sub_groups()";
      ASSERT_EQ(known->second.second, result.report(i, sg_max))
          << "work items of one group report different get_max_sub_group_size()";
      auto& slots = result.members[{result.report(i, group_linear), result.report(i, sg_id)}];
      if (slots.size() < size) slots.resize(size, n);
      ASSERT_EQ(slots.size(), size) << "work items of one sub-group report different sizes";
      ASSERT_EQ(slots[own], n) << "two work items report sub-group local id " << own;
      slots[own] = i;
      // get_max_sub_group_size(): the smaller of one of the device's sub-group sizes and the
      // group's size.
      const auto max_size = result.report(i, sg_max);
      ASSERT_TRUE(std::any_of(features.sub_group_sizes.begin(), features.sub_group_sizes.end(),
                              [&](std::size_t s) { return max_size == std::min(s, group_size); }))
          << "get_max_sub_group_size() is " << max_size << " in a group of " << group_size;
      if (!features.native_sub_groups) {
        ASSERT_EQ(size, 1u) << "emulated sub-groups have one work item";
        ASSERT_EQ(result.report(i, sg_max), 1u);
        ASSERT_EQ(result.report(i, sg_count), group_size);
        ASSERT_EQ(result.report(i, sg_id), result.report(i, local_linear));
      }
      const auto api = device().device().api().shortcut();
      if (api == "cuda" || api == "hip") {
        // Consecutive in the linear local id.
        ASSERT_EQ(result.report(i, sg_id), result.report(i, local_linear) / max_size) << i;
        ASSERT_EQ(own, result.report(i, local_linear) % max_size) << i;
      }
    }
    std::map<std::uint32_t, std::size_t> sub_groups_per_group;
    for (const auto& [key, slots] : result.members) {
      for (const auto member : slots) ASSERT_LT(member, n) << "a sub-group has a hole";
      ++sub_groups_per_group[key.first];
    }
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(sub_groups_per_group[result.report(i, group_linear)], result.report(i, sg_count))
          << "get_num_sub_groups() of work item " << i;
      const auto& m = result.of(i);
      const auto own = result.report(i, sg_local_id);
      ASSERT_EQ(result.report(i, barrier_neighbour),
                result.report(m[(own + 1) % m.size()], local_linear))
          << "work item " << i << " read its neighbour's slot after SUB_GROUP_BARRIER";
    }
    const auto ballot_values = download<std::uint64_t>(queue(), ballots);
    const auto any_all_values = download<std::int32_t>(queue(), any_all);
    for (std::size_t i = 0; i < n; ++i) {
      std::uint64_t expected = 0;
      bool any = false, all = true;
      const auto& m = result.of(i);
      for (std::size_t k = 0; k < m.size(); ++k) {
        const bool p = predicates[m[k]] != 0;
        expected |= p ? std::uint64_t{1} << k : 0;
        any = any || p;
        all = all && p;
      }
      ASSERT_EQ(ballot_values[i], expected)
          << "sub_group_ballot, work item " << i << ", pattern " << pattern;
      ASSERT_EQ(any_all_values[2 * i] != 0, any) << "sub_group_any, work item " << i;
      ASSERT_EQ(any_all_values[2 * i + 1] != 0, all) << "sub_group_all, work item " << i;
    }
  }
}

template <class T>
T min_of(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) return std::fmin(a, b);
  return std::min(a, b);
}
template <class T>
T max_of(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) return std::fmax(a, b);
  return std::max(a, b);
}
template <class T>
T add_of(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    return a + b;
  } else {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  }
}

template <class T>
void DialectSubGroupsTest::check_operations(const Shape& shape, std::uint64_t seed) const {
  const std::string suffix(dialect_type<T>().first);
  SCOPED_TRACE(suffix + ", " + shape.name());
  SubGroups groups;
  run_info(shape, groups);
  if (::testing::Test::HasFatalFailure()) return;
  const std::size_t n = shape.items();
  Sequence random(seed);
  std::vector<T> x(n);
  for (auto& v : x) {
    if constexpr (std::is_floating_point_v<T>) {
      v = static_cast<T>(random.in(-64, 64));
    } else if constexpr (std::is_signed_v<T>) {
      v = static_cast<T>(random.in(-1000, 1000));
      if constexpr (sizeof(T) == 8)
        v = static_cast<T>(v * (std::int64_t{1} << 33) + random.in(0, 99));
    } else {
      v = static_cast<T>(random.in(0, 2000));
      if constexpr (sizeof(T) == 8) v = static_cast<T>(v << 33 | static_cast<T>(random.in(0, 99)));
    }
  }
  using L = std::numeric_limits<T>;
  const T lowest = L::has_infinity ? -L::infinity() : L::lowest();
  const T highest = L::has_infinity ? L::infinity() : L::max();
  const auto kernel = program().kernel("sub_group_ops_" + suffix);
  // (lane, delta, mask): inside small sub-groups and outside them.
  for (const auto& [lane, delta, mask] :
       std::vector<std::array<unsigned, 3>>{{0, 1, 1}, {5, 3, 6}, {33, 17, 16}}) {
    SCOPED_TRACE("lane " + std::to_string(lane) + ", delta " + std::to_string(delta) + ", mask " +
                 std::to_string(mask));
    auto out = upload(queue(), std::vector<T>(operations.size() * n));
    const auto x_buffer = upload(queue(), x);
    kernel.launch(queue(), shape.global(), shape.local,
                  std::vector<KernelArg>{x_buffer, out, lane, delta, mask});
    const auto got = download<T>(queue(), out);
    for (std::size_t i = 0; i < n; ++i) {
      const auto& m = groups.of(i);
      const std::size_t size = m.size();
      const std::size_t own = groups.report(i, sg_local_id);
      auto at = [&](std::size_t source) { return source < size ? x[m[source]] : x[i]; };
      std::vector<T> expected{at(lane % size),
                              at(lane),
                              at((own * 5 + lane) % (size + 2)),
                              own >= delta ? x[m[own - delta]] : x[i],
                              at(own + delta),
                              at(own ^ mask)};
      T sum = 0, low = highest, high = lowest;
      T in_sum = 0, in_low = highest, in_high = lowest;
      T ex_sum = 0, ex_low = highest, ex_high = lowest;
      for (std::size_t k = 0; k < size; ++k) {
        const T v = x[m[k]];
        if (k == own) {
          ex_sum = sum;
          ex_low = low;
          ex_high = high;
        }
        sum = add_of(sum, v);
        low = min_of(low, v);
        high = max_of(high, v);
        if (k == own) {
          in_sum = sum;
          in_low = low;
          in_high = high;
        }
      }
      for (const T v : {sum, low, high, in_sum, in_low, in_high, ex_sum, ex_low, ex_high})
        expected.push_back(v);
      for (std::size_t op = 0; op < operations.size(); ++op) {
        ASSERT_EQ(bits_of(got[op * n + i]), bits_of(expected[op]))
            << "sub_group_" << operations[op] << "_" << suffix << ", work item " << i
            << " (sub-group local id " << own << " of " << size << "): got " << got[op * n + i]
            << ", expected " << expected[op];
      }
    }
  }
}

TEST_P(DialectSubGroupsTest, ReportsBallotAnyAllAndBarrier) {
  for (const auto& shape : shapes()) {
    SubGroups groups;
    run_info(shape, groups);
    if (HasFatalFailure()) return;
  }
}

#define PLINTH_SUB_GROUP_TEST(Name, T, seed) \
  TEST_P(DialectSubGroupsTest, Name) {       \
    for (const auto& shape : shapes()) {     \
      check_operations<T>(shape, seed);      \
      if (HasFatalFailure()) return;         \
    }                                        \
  }

PLINTH_SUB_GROUP_TEST(EveryOperationOfInt, std::int32_t, 1)
PLINTH_SUB_GROUP_TEST(EveryOperationOfUint, std::uint32_t, 2)
PLINTH_SUB_GROUP_TEST(EveryOperationOfLong, std::int64_t, 3)
PLINTH_SUB_GROUP_TEST(EveryOperationOfUlong, std::uint64_t, 4)
PLINTH_SUB_GROUP_TEST(EveryOperationOfFloat, float, 5)

TEST_P(DialectSubGroupsTest, EveryOperationOfDouble) {
  if (!device().params().supports_double)
    GTEST_SKIP() << device().name() << " has no doubles (params().supports_double)";
  for (const auto& shape : shapes()) {
    check_operations<double>(shape, 6);
    if (HasFatalFailure()) return;
  }
}

PLINTH_INSTANTIATE_DEVICE_TEST(DialectSubGroupsTest);

}  // namespace
}  // namespace dialect_sub_groups_test
}  // namespace plinth::conformance
