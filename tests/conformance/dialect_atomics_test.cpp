// The dialect's read-modify-write atomics (docs/kernel-dialect.md, "Atomics"): every operation
// and type on global and local memory with every work item on one address, the final value
// checked exactly and the returned old values checked against a serialisation of the
// operations (add and sub: the old values, sorted, are the partial sums; xchg: the old values
// and the final one are a permutation of the inputs; cmpxchg: one winner); min/max with
// negative values and, for floats, NaN (a NaN value never replaces anything, a NaN in memory
// stays); cmpxchg of floats by bit pattern; a histogram of 2^16 values into 7 bins, in global
// and in local memory, against the host's; a lock-free counter from atomic_cmpxchg on every
// type and space; a spin lock in local memory guarding a non-atomic update. One program holds
// every kernel; the 64-bit integer and double kernels exist where the device has them.

#include "dialect_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace plinth::conformance {
namespace dialect_atomics_test {
namespace {

using namespace dialect;

// The read-modify-write operations of one kernel, in the order of their slots (one address
// each); min_nan/max_nan are min and max on memory that holds a NaN.
const std::vector<std::string> integer_slots{"add", "sub", "min",  "max",    "and",
                                             "or",  "xor", "xchg", "cmpxchg"};
const std::vector<std::string> float_slots{"add",  "sub",     "min",     "max",
                                           "xchg", "cmpxchg", "min_nan", "max_nan"};

template <class T>
const std::vector<std::string>& slots_of() {
  return std::is_floating_point_v<T> ? float_slots : integer_slots;
}

std::string operation_of(const std::string& slot) {
  return slot == "min_nan" ? "min" : slot == "max_nan" ? "max" : slot;
}

// rmw_global_<S>: every work item of the launch applies slot k's operation to targets[k] with
// values[k * n + i] and writes what it returns to olds[k * n + i]. rmw_local_<S>: the same on
// a local copy of targets[group * K .. + K] per group, copied back at the end.
template <class T>
std::string rmw_kernels() {
  const auto& slots = slots_of<T>();
  std::string global_body, local_body;
  for (std::size_t k = 0; k < slots.size(); ++k) {
    const std::string op = operation_of(slots[k]);
    const std::string at = std::to_string(k);
    const std::string args =
        op == "cmpxchg" ? "e, values[" + at + " * n + i]" : "values[" + at + " * n + i]";
    global_body += "    olds[" + at + " * n + i] = atomic_" + op + "_global_$S(targets + " + at +
                   ", " + args + ");\n";
    local_body += "    olds[" + at + " * n + i] = atomic_" + op + "_local_$S(slots + " + at + ", " +
                  args + ");\n";
  }
  const std::string count = std::to_string(slots.size());
  return for_type<T>(
      "KERNEL void rmw_global_$S(GLOBAL_MEM $T *targets, GLOBAL_MEM const $T *values,\n"
      "                          GLOBAL_MEM $T *olds, GLOBAL_MEM const $T *expected)\n"
      "{\n"
      "    const SIZE_T n = get_global_size(0), i = get_global_id(0);\n"
      "    const $T e = expected[0];\n" +
      global_body +
      "}\n\n"
      "KERNEL void rmw_local_$S(GLOBAL_MEM $T *targets, GLOBAL_MEM const $T *values,\n"
      "                         GLOBAL_MEM $T *olds, GLOBAL_MEM const $T *expected)\n"
      "{\n"
      "    LOCAL_MEM $T slots[" +
      count +
      "];\n"
      "    const SIZE_T n = get_global_size(0), i = get_global_id(0);\n"
      "    const SIZE_T l = get_local_id(0), g = get_group_id(0);\n"
      "    const $T e = expected[0];\n"
      "    if (l < " +
      count + ") slots[l] = targets[g * " + count +
      " + l];\n"
      "    LOCAL_BARRIER;\n" +
      local_body +
      "    LOCAL_BARRIER;\n"
      "    if (l < " +
      count + ") targets[g * " + count +
      " + l] = slots[l];\n"
      "}\n\n"
      // A counter from compare-and-swap loops: each work item adds 1 and records the value it
      // replaced, on global memory and (per group) on local memory.
      "KERNEL void cas_counter_$S(GLOBAL_MEM $T *counter, GLOBAL_MEM $T *seen,\n"
      "                           GLOBAL_MEM $T *group_totals)\n"
      "{\n"
      "    LOCAL_MEM $T local_counter;\n"
      "    const SIZE_T n = get_global_size(0), i = get_global_id(0);\n"
      "    if (get_local_id(0) == 0) local_counter = ($T)0;\n"
      "    LOCAL_BARRIER;\n"
      "    $T old = atomic_load_global_$S(counter, MEM_ORDER_RELAXED);\n"
      "    for (;;) {\n"
      "        const $T prev = atomic_cmpxchg_global_$S(counter, old, old + ($T)1);\n"
      "        if (prev == old) break;\n"
      "        old = prev;\n"
      "    }\n"
      "    seen[i] = old;\n"
      "    old = atomic_load_local_$S(&local_counter, MEM_ORDER_RELAXED);\n"
      "    for (;;) {\n"
      "        const $T prev = atomic_cmpxchg_local_$S(&local_counter, old, old + ($T)1);\n"
      "        if (prev == old) break;\n"
      "        old = prev;\n"
      "    }\n"
      "    seen[n + i] = old;\n"
      "    LOCAL_BARRIER;\n"
      "    if (get_local_id(0) == 0) group_totals[get_group_id(0)] = local_counter;\n"
      "}\n\n");
}

// One work item: cmpxchg_bits_<S> compares bit patterns (-0.0 is not +0.0, a NaN equals
// itself when its bits do), in global and in local memory.
template <class T>
std::string cmpxchg_bits_kernel() {
  return for_type<T>(
      "KERNEL void cmpxchg_bits_$S(GLOBAL_MEM $T *memory, GLOBAL_MEM const $T *expected,\n"
      "                            GLOBAL_MEM const $T *desired, GLOBAL_MEM $T *olds,\n"
      "                            unsigned int cases)\n"
      "{\n"
      "    LOCAL_MEM $T cell[8];\n"
      "    for (unsigned int k = 0; k < cases; ++k) {\n"
      "        cell[k] = memory[k];\n"
      "        olds[k] = atomic_cmpxchg_global_$S(memory + k, expected[k], desired[k]);\n"
      "        olds[cases + k] = atomic_cmpxchg_local_$S(cell + k, expected[k], desired[k]);\n"
      "        memory[cases + k] = cell[k];\n"
      "    }\n"
      "}\n\n");
}

const char* const shared_kernels = R"(
// 7 bins of x[i] % 7: a count (uint) and a sum of weights x[i] & 3 (float, exact).
KERNEL void histogram_global(GLOBAL_MEM const unsigned int *x, unsigned int n,
                             GLOBAL_MEM unsigned int *counts, GLOBAL_MEM float *weights)
{
    for (SIZE_T i = get_global_id(0); i < n; i += get_global_size(0)) {
        const unsigned int v = x[i];
        atomic_add_global_uint(counts + v % 7u, 1u);
        atomic_add_global_float(weights + v % 7u, (float)(v & 3u));
    }
}

KERNEL void histogram_local(GLOBAL_MEM const unsigned int *x, unsigned int n,
                            GLOBAL_MEM unsigned int *counts, GLOBAL_MEM float *weights)
{
    LOCAL_MEM unsigned int local_counts[7];
    LOCAL_MEM float local_weights[7];
    const SIZE_T l = get_local_id(0);
    if (l < 7) {
        local_counts[l] = 0;
        local_weights[l] = 0.0f;
    }
    LOCAL_BARRIER;
    for (SIZE_T i = get_global_id(0); i < n; i += get_global_size(0)) {
        const unsigned int v = x[i];
        atomic_add_local_uint(local_counts + v % 7u, 1u);
        atomic_add_local_float(local_weights + v % 7u, (float)(v & 3u));
    }
    LOCAL_BARRIER;
    if (l < 7) {
        atomic_add_global_uint(counts + l, local_counts[l]);
        atomic_add_global_float(weights + l, local_weights[l]);
    }
}

// A work-group spin lock (cmpxchg, then an acquire fence; a release fence, then a relaxed
// store) guarding a non-atomic read-modify-write of two local variables. The critical section
// sits inside the loop, so a sub-group whose work items run in lockstep still progresses.
KERNEL void spin_lock_local(GLOBAL_MEM unsigned int *out)
{
    LOCAL_MEM int lock;
    LOCAL_MEM unsigned int plain[2];
    const SIZE_T l = get_local_id(0);
    if (l == 0) {
        lock = 0;
        plain[0] = 0;
        plain[1] = 0;
    }
    LOCAL_BARRIER;
    int done = 0;
    while (!done) {
        if (atomic_cmpxchg_local_int(&lock, 0, 1) == 0) {
            atomic_fence(MEM_ORDER_ACQUIRE, MEM_SCOPE_WORK_GROUP);
            const unsigned int before = plain[0];
            plain[0] = before + 1u;
            plain[1] = plain[1] + before;
            atomic_fence(MEM_ORDER_RELEASE, MEM_SCOPE_WORK_GROUP);
            atomic_store_local_int(&lock, 0, MEM_ORDER_RELAXED);
            done = 1;
        }
    }
    LOCAL_BARRIER;
    if (l == 0) {
        out[2 * get_group_id(0)] = plain[0];
        out[2 * get_group_id(0) + 1] = plain[1];
    }
}
)";

// The program of this file for `device`: every kernel above, for the types it has.
std::string atomics_source(const BoundDevice& device) {
  const auto types = atomic_types(device);
  std::string source = shared_kernels;
  source += rmw_kernels<std::int32_t>() + rmw_kernels<std::uint32_t>() + rmw_kernels<float>();
  source += cmpxchg_bits_kernel<float>();
  if (types.int64) source += rmw_kernels<std::int64_t>() + rmw_kernels<std::uint64_t>();
  if (types.float64) source += rmw_kernels<double>() + cmpxchg_bits_kernel<double>();
  return source;
}

class DialectAtomicsTest : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (IsSkipped()) return;
    PLINTH_SKIP_WITHOUT_DIALECT();
    program_.emplace(context(), atomics_source(device()));
  }
  const Program& program() const { return *program_; }

  template <class T>
  bool skip_type(std::string& why) const {
    const auto types = atomic_types(device());
    if ((std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::uint64_t>)&&!types.int64) {
      why = device().name() + " has no 64-bit integer atomics (features().int64_atomics)";
      return true;
    }
    if (std::is_same_v<T, double> && !types.float64) {
      why = device().name() + (device().params().supports_double
                                   ? " has no double atomics (features().double_atomics)"
                                   : " has no doubles (params().supports_double)");
      return true;
    }
    return false;
  }

  /// The local size of the tests: 64, or the device's largest if that is smaller.
  std::size_t local_size(std::size_t wanted) const {
    return std::min(wanted, device().params().max_total_local_size);
  }

 private:
  std::optional<Program> program_;
};

// ---- the host's side: inputs per slot, and the checks of one address's results ----

template <class T>
struct SlotInput {
  T init;
  std::vector<T> values;  // one per work item of the launch
};

template <class T>
SlotInput<T> slot_input(const std::string& slot, std::size_t n, std::uint64_t seed) {
  using L = std::numeric_limits<T>;
  Sequence random(seed);
  SlotInput<T> in{T{}, std::vector<T>(n)};
  constexpr int bits = static_cast<int>(sizeof(T) * 8);
  // Values with both halves of a 64-bit word in play.
  const T wide = sizeof(T) == 8 ? static_cast<T>(std::int64_t{1} << 40) : T{0};
  for (std::size_t i = 0; i < n; ++i) {
    T& v = in.values[i];
    const auto si = static_cast<std::int64_t>(i);
    if constexpr (std::is_floating_point_v<T>) {
      if (slot == "add" || slot == "sub") v = static_cast<T>(random.in(1, 8));
      if (slot == "min" || slot == "max" || slot == "min_nan" || slot == "max_nan")
        v = random.in(0, 7) == 0 && slot.size() == 3 ? L::quiet_NaN()
                                                     : static_cast<T>(random.in(-5000, 5000));
      if (slot == "xchg") v = static_cast<T>(si) * T(0.25) - T(100);
      if (slot == "cmpxchg") v = static_cast<T>(1000 + si);
    } else {
      if (slot == "add" || slot == "sub") v = static_cast<T>(random.in(1, 7));
      if (slot == "min" || slot == "max")
        v = L::is_signed ? static_cast<T>(random.in(-100000, 100000) * (wide ? wide : 1))
                         : static_cast<T>(random.next() << (bits == 64 ? 16 : 0));
      if (slot == "and") v = static_cast<T>(~(T{1} << random.in(0, bits / 2 - 1)));
      if (slot == "or") v = static_cast<T>(T{1} << random.in(bits / 2, bits - 2));
      if (slot == "xor") v = static_cast<T>(random.next() * 0x9E3779B97F4A7C15ULL);
      if (slot == "xchg")
        v = static_cast<T>(static_cast<T>(L::is_signed ? -1500 : L::max() - 2000) +
                           static_cast<T>(3 * si) + wide);
      if (slot == "cmpxchg") v = static_cast<T>(1000 + si + wide);
    }
  }
  if constexpr (std::is_floating_point_v<T>) {
    in.init = slot == "add" || slot == "sub" ? T(0.5)
              : slot == "min"                ? T(100)
              : slot == "max"                ? T(-100)
              : slot == "xchg"               ? T(12345.5)
              : slot == "cmpxchg"            ? T(42)
                                             : L::quiet_NaN();
  } else {
    in.init = slot == "add"    ? static_cast<T>(L::max() - 500)
              : slot == "sub"  ? static_cast<T>(L::min() + 500)
              : slot == "min"  ? static_cast<T>(L::is_signed ? 50 : T{1} << (bits - 1))
              : slot == "max"  ? static_cast<T>(L::is_signed ? -50 : T{1} << (bits - 2))
              : slot == "and"  ? static_cast<T>(L::max() >> 1 | T{1} << (bits - 2))
              : slot == "or"   ? T{1}
              : slot == "xor"  ? static_cast<T>(0x5A5A5A5A5A5A5A5AULL)
              : slot == "xchg" ? static_cast<T>(7777 + wide)
                               : static_cast<T>(42);
  }
  return in;
}

template <class T>
std::string show(T v) {
  std::ostringstream out;
  out.precision(17);
  if constexpr (sizeof(T) == 1) {
    out << static_cast<int>(v);
  } else {
    out << v;
  }
  return out.str();
}

// What is wrong with one address's results: `init` and `values` went in, `olds` came back
// (one per work item) and `final` stayed; empty when nothing is.
template <class T>
std::string check_slot(const std::string& slot, T init, std::span<const T> values,
                       std::span<const T> olds, T final) {
  const std::size_t n = values.size();
  std::ostringstream why;
  auto same = [](T a, T b) { return bits_of(a) == bits_of(b); };
  if (slot == "add" || slot == "sub") {
    // The old values in the order the work items were served: each is the one before it plus
    // (minus) that one's value.
    const bool add = slot == "add";
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    auto key = [&](std::size_t i) {
      if constexpr (std::is_floating_point_v<T>) {
        return add ? olds[i] - init : init - olds[i];
      } else {
        using U = std::make_unsigned_t<T>;
        return add ? static_cast<U>(static_cast<U>(olds[i]) - static_cast<U>(init))
                   : static_cast<U>(static_cast<U>(init) - static_cast<U>(olds[i]));
      }
    };
    std::sort(order.begin(), order.end(), [&](auto a, auto b) { return key(a) < key(b); });
    T expected = init;
    for (const std::size_t i : order) {
      if (!same(olds[i], expected)) {
        why << "work item " << i << " got " << show(olds[i]) << ", not the partial " << slot << " "
            << show(expected);
        return why.str();
      }
      if constexpr (std::is_floating_point_v<T>) {
        expected = add ? expected + values[i] : expected - values[i];
      } else {
        using U = std::make_unsigned_t<T>;
        expected = static_cast<T>(add ? static_cast<U>(expected) + static_cast<U>(values[i])
                                      : static_cast<U>(expected) - static_cast<U>(values[i]));
      }
    }
    if (!same(final, expected)) why << "final " << show(final) << " != " << show(expected);
    return why.str();
  }
  if (slot == "min" || slot == "max" || slot == "min_nan" || slot == "max_nan") {
    const bool is_min = slot[1] == 'i';
    T expected = init;
    for (const T v : values) {
      if (is_min ? v < expected : v > expected) expected = v;  // NaN never replaces
    }
    if (!same(final, expected) &&
        !(std::isnan(static_cast<double>(final)) && std::isnan(static_cast<double>(expected)))) {
      why << "final " << show(final) << " != " << show(expected);
      return why.str();
    }
    std::size_t saw_init = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const T old = olds[i];
      if (std::isnan(static_cast<double>(init))) {
        if (!std::isnan(static_cast<double>(old)))
          why << "work item " << i << " saw " << show(old) << " in place of the NaN; ";
        continue;
      }
      const bool known = same(old, init) || std::any_of(values.begin(), values.end(),
                                                        [&](T v) { return same(v, old); });
      if (std::isnan(static_cast<double>(old)) || !known ||
          (is_min ? old < expected : old > expected)) {
        why << "work item " << i << " got " << show(old) << ", not a value memory held; ";
      }
      saw_init += same(old, init) ? 1 : 0;
    }
    if (saw_init == 0 && !std::isnan(static_cast<double>(init)))
      why << "no work item got the initial value";
    return why.str();
  }
  if constexpr (!std::is_floating_point_v<T>) {
    if (slot == "and" || slot == "or" || slot == "xor") {
      T expected = init;
      for (const T v : values)
        expected = static_cast<T>(slot == "and"  ? expected & v
                                  : slot == "or" ? expected | v
                                                 : expected ^ v);
      if (final != expected) {
        why << "final " << show(final) << " != " << show(expected);
        return why.str();
      }
      std::size_t saw_init = 0;
      for (std::size_t i = 0; i < n; ++i) {
        const T old = olds[i];
        saw_init += old == init ? 1 : 0;
        const bool possible = slot == "and"  ? (old & final) == final && (old & ~init) == 0
                              : slot == "or" ? (old | final) == final && (old & init) == init
                                             : true;
        if (!possible) why << "work item " << i << " got " << show(old) << "; ";
      }
      if (saw_init == 0) why << "no work item got the initial value";
      return why.str();
    }
  }
  if (slot == "xchg") {
    std::vector<std::uint64_t> in, out;
    in.push_back(bits_of(init));
    for (const T v : values) in.push_back(bits_of(v));
    out.push_back(bits_of(final));
    for (const T v : olds) out.push_back(bits_of(v));
    std::sort(in.begin(), in.end());
    std::sort(out.begin(), out.end());
    if (in != out) why << "the old values and the final one are not a permutation of the inputs";
    return why.str();
  }
  if (slot == "cmpxchg") {
    std::vector<std::size_t> winners;
    for (std::size_t i = 0; i < n; ++i)
      if (same(olds[i], init)) winners.push_back(i);
    if (winners.size() != 1) {
      why << winners.size() << " work items found the expected value";
      return why.str();
    }
    const T won = values[winners[0]];
    if (!same(final, won)) why << "final " << show(final) << " is not the winner's " << show(won);
    for (std::size_t i = 0; i < n; ++i)
      if (i != winners[0] && !same(olds[i], won))
        why << "work item " << i << " got " << show(olds[i]) << " after the winner; ";
    return why.str();
  }
  return "unknown slot " + slot;
}

// Runs rmw_<space>_<S> with `n` work items in groups of `local` and checks every slot; for
// local memory, every group's addresses on their own.
template <class T>
void check_rmw(const Queue& queue, const Program& program, bool local_space, std::size_t n,
               std::size_t local) {
  const auto& slots = slots_of<T>();
  const std::size_t k_count = slots.size();
  const std::size_t groups = local_space ? n / local : 1;
  std::vector<SlotInput<T>> inputs;
  std::vector<T> targets(groups * k_count), values(k_count * n);
  for (std::size_t k = 0; k < k_count; ++k) {
    inputs.push_back(slot_input<T>(slots[k], n, 7 * k + 1));
    for (std::size_t g = 0; g < groups; ++g) targets[g * k_count + k] = inputs[k].init;
    std::copy(inputs[k].values.begin(), inputs[k].values.end(), values.begin() + k * n);
  }
  const std::vector<T> expected{
      inputs[std::find(slots.begin(), slots.end(), "cmpxchg") - slots.begin()].init};
  auto targets_buffer = upload(queue, targets);
  auto values_buffer = upload(queue, values);
  auto olds_buffer = upload(queue, std::vector<T>(k_count * n));
  auto expected_buffer = upload(queue, expected);
  const std::string name = std::string(local_space ? "rmw_local_" : "rmw_global_") +
                           std::string(dialect_type<T>().first);
  program.kernel(name)(queue, {n}, {local}, targets_buffer, values_buffer, olds_buffer,
                       expected_buffer);
  const auto finals = download<T>(queue, targets_buffer);
  const auto olds = download<T>(queue, olds_buffer);
  const std::size_t per_group = n / groups;
  for (std::size_t k = 0; k < k_count; ++k) {
    for (std::size_t g = 0; g < groups; ++g) {
      const auto first = k * n + g * per_group;
      const std::string wrong =
          check_slot<T>(slots[k], inputs[k].init, std::span(values).subspan(first, per_group),
                        std::span(olds).subspan(first, per_group), finals[g * k_count + k]);
      EXPECT_EQ(wrong, "") << name << ", atomic " << slots[k] << ", group " << g << " of " << groups
                           << ", " << per_group << " work items";
    }
  }
}

// Skips the rest of a test unless the device's kernels may use atomics of type T.
#define PLINTH_SKIP_UNLESS_ATOMIC_TYPE(T)       \
  do {                                          \
    std::string why;                            \
    if (skip_type<T>(why)) GTEST_SKIP() << why; \
  } while (false)

TEST_P(DialectAtomicsTest, EveryOperationOnOneGlobalAddress32) {
  const std::size_t local = local_size(64);
  check_rmw<std::int32_t>(queue(), program(), false, 16 * local, local);
  check_rmw<std::uint32_t>(queue(), program(), false, 16 * local, local);
  check_rmw<float>(queue(), program(), false, 16 * local, local);
}

TEST_P(DialectAtomicsTest, EveryOperationOnOneGlobalAddressInt64) {
  PLINTH_SKIP_UNLESS_ATOMIC_TYPE(std::int64_t);
  const std::size_t local = local_size(64);
  check_rmw<std::int64_t>(queue(), program(), false, 16 * local, local);
  check_rmw<std::uint64_t>(queue(), program(), false, 16 * local, local);
}

TEST_P(DialectAtomicsTest, EveryOperationOnOneGlobalAddressDouble) {
  PLINTH_SKIP_UNLESS_ATOMIC_TYPE(double);
  const std::size_t local = local_size(64);
  check_rmw<double>(queue(), program(), false, 16 * local, local);
}

TEST_P(DialectAtomicsTest, EveryOperationOnOneLocalAddressPerGroup32) {
  const std::size_t local = local_size(256);
  if (local < integer_slots.size()) GTEST_SKIP() << "needs groups of 9 work items";
  check_rmw<std::int32_t>(queue(), program(), true, 4 * local, local);
  check_rmw<std::uint32_t>(queue(), program(), true, 4 * local, local);
  check_rmw<float>(queue(), program(), true, 4 * local, local);
}

TEST_P(DialectAtomicsTest, EveryOperationOnOneLocalAddressPerGroupInt64) {
  PLINTH_SKIP_UNLESS_ATOMIC_TYPE(std::int64_t);
  const std::size_t local = local_size(256);
  if (local < integer_slots.size()) GTEST_SKIP() << "needs groups of 9 work items";
  check_rmw<std::int64_t>(queue(), program(), true, 4 * local, local);
  check_rmw<std::uint64_t>(queue(), program(), true, 4 * local, local);
}

TEST_P(DialectAtomicsTest, EveryOperationOnOneLocalAddressPerGroupDouble) {
  PLINTH_SKIP_UNLESS_ATOMIC_TYPE(double);
  const std::size_t local = local_size(256);
  if (local < integer_slots.size()) GTEST_SKIP() << "needs groups of 9 work items";
  check_rmw<double>(queue(), program(), true, 4 * local, local);
}

template <class T>
void check_cmpxchg_bits(const Queue& queue, const Program& program) {
  using L = std::numeric_limits<T>;
  using Bits = decltype(bits_of(T{}));
  auto from_bits = [](Bits b) {
    T v;
    std::memcpy(&v, &b, sizeof v);
    return v;
  };
  const T nan_a = from_bits(static_cast<Bits>(bits_of(L::quiet_NaN()) | Bits{1}));
  const T nan_b = from_bits(static_cast<Bits>(bits_of(L::quiet_NaN()) | Bits{2}));
  // memory, expected, desired; and whether it stores
  const std::vector<T> memory{T(0), T(-0.0), nan_a, nan_a, T(1.5)};
  const std::vector<T> expected{T(-0.0), T(-0.0), nan_a, nan_b, T(1.5)};
  const std::vector<T> desired{T(5), T(6), T(7), T(8), T(9)};
  const std::vector<bool> stores{false, true, true, false, true};
  const auto cases = static_cast<unsigned>(memory.size());
  std::vector<T> memory_twice(memory);
  memory_twice.insert(memory_twice.end(), memory.begin(), memory.end());
  auto memory_buffer = upload(queue, memory_twice);
  auto olds_buffer = upload(queue, std::vector<T>(2 * cases));
  program.kernel("cmpxchg_bits_" + std::string(dialect_type<T>().first))(
      queue, {1}, {1}, memory_buffer, upload(queue, expected), upload(queue, desired), olds_buffer,
      cases);
  const auto after = download<T>(queue, memory_buffer);
  const auto olds = download<T>(queue, olds_buffer);
  for (unsigned k = 0; k < cases; ++k) {
    for (const unsigned space : {0u, 1u}) {
      SCOPED_TRACE((space ? "local, case " : "global, case ") + std::to_string(k));
      EXPECT_EQ(bits_of(olds[space * cases + k]), bits_of(memory[k]));
      EXPECT_EQ(bits_of(after[space * cases + k]), bits_of(stores[k] ? desired[k] : memory[k]));
    }
  }
}

TEST_P(DialectAtomicsTest, FloatCompareAndSwapComparesBits) {
  check_cmpxchg_bits<float>(queue(), program());
}

TEST_P(DialectAtomicsTest, DoubleCompareAndSwapComparesBits) {
  PLINTH_SKIP_UNLESS_ATOMIC_TYPE(double);
  check_cmpxchg_bits<double>(queue(), program());
}

TEST_P(DialectAtomicsTest, HistogramOfSevenBinsMatchesTheHost) {
  const unsigned n = 1u << 16;
  std::vector<std::uint32_t> x(n);
  Sequence random(3);
  for (auto& v : x) v = static_cast<std::uint32_t>(random.next());
  std::vector<std::uint32_t> counts(7, 0);
  std::vector<float> weights(7, 0.0f);
  for (const auto v : x) {
    ++counts[v % 7];
    weights[v % 7] += static_cast<float>(v & 3u);
  }
  const auto x_buffer = upload(queue(), x);
  const std::size_t local = local_size(64);
  for (const char* kernel : {"histogram_global", "histogram_local"}) {
    SCOPED_TRACE(kernel);
    auto counts_buffer = upload(queue(), std::vector<std::uint32_t>(7, 0));
    auto weights_buffer = upload(queue(), std::vector<float>(7, 0.0f));
    program().kernel(kernel)(queue(), {64 * local}, {local}, x_buffer, n, counts_buffer,
                             weights_buffer);
    EXPECT_EQ(download<std::uint32_t>(queue(), counts_buffer), counts);
    EXPECT_EQ(download<float>(queue(), weights_buffer), weights);
  }
}

template <class T>
void check_cas_counter(const Queue& queue, const Program& program, std::size_t n,
                       std::size_t local) {
  SCOPED_TRACE(std::string(dialect_type<T>().first));
  auto counter = upload(queue, std::vector<T>{T(0)});
  auto seen = upload(queue, std::vector<T>(2 * n));
  auto totals = upload(queue, std::vector<T>(n / local));
  program.kernel("cas_counter_" + std::string(dialect_type<T>().first))(queue, {n}, {local},
                                                                        counter, seen, totals);
  const auto values = download<T>(queue, seen);
  EXPECT_EQ(download<T>(queue, counter)[0], static_cast<T>(n));
  std::vector<T> global_seen(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(n));
  std::sort(global_seen.begin(), global_seen.end());
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(global_seen[i], static_cast<T>(i)) << "global counter: not every count was seen once";
  }
  for (std::size_t g = 0; g < n / local; ++g) {
    std::vector<T> group(values.begin() + static_cast<std::ptrdiff_t>(n + g * local),
                         values.begin() + static_cast<std::ptrdiff_t>(n + (g + 1) * local));
    std::sort(group.begin(), group.end());
    for (std::size_t i = 0; i < local; ++i) {
      ASSERT_EQ(group[i], static_cast<T>(i)) << "local counter of group " << g;
    }
  }
  for (const T total : download<T>(queue, totals)) EXPECT_EQ(total, static_cast<T>(local));
}

TEST_P(DialectAtomicsTest, CompareAndSwapLoopsCountEveryWorkItemOnce32) {
  const std::size_t local = local_size(128);
  check_cas_counter<std::int32_t>(queue(), program(), 8 * local, local);
  check_cas_counter<std::uint32_t>(queue(), program(), 8 * local, local);
  check_cas_counter<float>(queue(), program(), 8 * local, local);
}

TEST_P(DialectAtomicsTest, CompareAndSwapLoopsCountEveryWorkItemOnceInt64) {
  PLINTH_SKIP_UNLESS_ATOMIC_TYPE(std::int64_t);
  const std::size_t local = local_size(128);
  check_cas_counter<std::int64_t>(queue(), program(), 8 * local, local);
  check_cas_counter<std::uint64_t>(queue(), program(), 8 * local, local);
}

TEST_P(DialectAtomicsTest, CompareAndSwapLoopsCountEveryWorkItemOnceDouble) {
  PLINTH_SKIP_UNLESS_ATOMIC_TYPE(double);
  const std::size_t local = local_size(128);
  check_cas_counter<double>(queue(), program(), 8 * local, local);
}

TEST_P(DialectAtomicsTest, SpinLockGuardsALocalUpdate) {
  const std::size_t local = local_size(256);
  const std::size_t groups = 4;
  auto out = upload(queue(), std::vector<std::uint32_t>(2 * groups));
  program().kernel("spin_lock_local")(queue(), {groups * local}, {local}, out);
  const auto values = download<std::uint32_t>(queue(), out);
  for (std::size_t g = 0; g < groups; ++g) {
    EXPECT_EQ(values[2 * g], local) << "group " << g << ": increments lost";
    EXPECT_EQ(values[2 * g + 1], local * (local - 1) / 2) << "group " << g;
  }
}

PLINTH_INSTANTIATE_DEVICE_TEST(DialectAtomicsTest);

}  // namespace
}  // namespace dialect_atomics_test
}  // namespace plinth::conformance
