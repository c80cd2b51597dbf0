// The dialect's ordered loads and stores and its fences (docs/kernel-dialect.md, "Atomics"
// and "Fences and barriers"): atomic_load/atomic_store of every type with every order, on
// global and local memory, never tearing under concurrent stores; message passing between
// groups at device scope (release fence + relaxed store observed by relaxed loads + acquire
// fence, and release stores observed by acquire loads), the writer group chosen by an atomic
// ticket so that readers only wait for a group that started before them; and the same within
// a group at work-group scope, with a bounded wait (no API promises that work items of one
// group progress while another spins). Device scope with acquire or release is skipped where
// features().device_scope_acquire_release is false.

#include "dialect_support.hpp"

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace plinth::conformance {
namespace dialect_fences_test {
namespace {

using namespace dialect;

// Odd work items store a or b (alternating by round) with every order, even ones load and
// count what is neither a, b nor the initial value; global acquire/release where the device
// has them (ACQREL). At the end group 0 copies its local cells to cells[2..3].
template <class T>
std::string load_store_kernel(bool device_acquire_release) {
  const std::string ordered_global_store =
      device_acquire_release
          ? "            atomic_store_global_$S(cells + 1, mine, MEM_ORDER_RELEASE);\n"
          : "            atomic_store_global_$S(cells + 1, mine, MEM_ORDER_RELAXED);\n";
  const std::string ordered_global_load =
      device_acquire_release
          ? "            v = atomic_load_global_$S(cells + 1, MEM_ORDER_ACQUIRE);\n"
          : "            v = atomic_load_global_$S(cells + 1, MEM_ORDER_RELAXED);\n";
  return for_type<T>(
      "KERNEL void load_store_$S(GLOBAL_MEM $T *cells, GLOBAL_MEM const $T *patterns,\n"
      "                          GLOBAL_MEM unsigned int *torn, unsigned int rounds)\n"
      "{\n"
      "    LOCAL_MEM $T local_cells[2];\n"
      "    const SIZE_T i = get_global_id(0), l = get_local_id(0);\n"
      "    const $T a = patterns[0], b = patterns[1], init = patterns[2];\n"
      "    if (l == 0) {\n"
      "        atomic_store_local_$S(local_cells, init, MEM_ORDER_RELAXED);\n"
      "        atomic_store_local_$S(local_cells + 1, init, MEM_ORDER_RELEASE);\n"
      "    }\n"
      "    LOCAL_BARRIER;\n"
      "    unsigned int bad = 0;\n"
      "    for (unsigned int r = 0; r < rounds; ++r) {\n"
      "        const $T mine = ((i + r) & 2) ? a : b;\n"
      "        if (i & 1) {\n"
      "            atomic_store_global_$S(cells, mine, MEM_ORDER_RELAXED);\n" +
      ordered_global_store +
      "            atomic_store_local_$S(local_cells, mine, MEM_ORDER_RELAXED);\n"
      "            atomic_store_local_$S(local_cells + 1, mine, MEM_ORDER_RELEASE);\n"
      "        } else {\n"
      "            $T v = atomic_load_global_$S(cells, MEM_ORDER_RELAXED);\n"
      "            bad += (v == a || v == b || v == init) ? 0u : 1u;\n" +
      ordered_global_load +
      "            bad += (v == a || v == b || v == init) ? 0u : 1u;\n"
      "            v = atomic_load_local_$S(local_cells, MEM_ORDER_RELAXED);\n"
      "            bad += (v == a || v == b || v == init) ? 0u : 1u;\n"
      "            v = atomic_load_local_$S(local_cells + 1, MEM_ORDER_ACQUIRE);\n"
      "            bad += (v == a || v == b || v == init) ? 0u : 1u;\n"
      "        }\n"
      "    }\n"
      "    torn[i] = bad;\n"
      "    LOCAL_BARRIER;\n"
      "    if (i == 0) {\n"
      "        cells[2] = atomic_load_local_$S(local_cells, MEM_ORDER_RELAXED);\n"
      "        cells[3] = atomic_load_local_$S(local_cells + 1, MEM_ORDER_ACQUIRE);\n"
      "    }\n"
      "}\n\n");
}

// Message passing between groups: the group with ticket 0 writes `chunk` values per work
// item, then publishes each work item's chunk with its own flag; every other group's work
// items wait for another work item's flag and check its chunk. FENCES: release fence +
// relaxed store / relaxed load + acquire fence; otherwise release store / acquire load.
const char* const device_messages = R"(
#define PLINTH_MESSAGE(round, w, k) ((round) * 1000003u + (w) * 977u + (k))

KERNEL void message_groups_fences(GLOBAL_MEM unsigned int *ticket, GLOBAL_MEM unsigned int *data,
                                  GLOBAL_MEM unsigned int *flags, GLOBAL_MEM unsigned int *errors,
                                  unsigned int chunk, unsigned int round)
{
    LOCAL_MEM unsigned int role;
    const unsigned int l = get_local_id(0), size = get_local_size(0);
    if (l == 0) role = atomic_add_global_uint(ticket, 1u);
    LOCAL_BARRIER;
    const unsigned int r = role;
    if (r == 0) {
        for (unsigned int k = 0; k < chunk; ++k) data[l * chunk + k] = PLINTH_MESSAGE(round, l, k);
        atomic_fence(MEM_ORDER_RELEASE, MEM_SCOPE_DEVICE);
        atomic_store_global_uint(flags + l, round, MEM_ORDER_RELAXED);
    } else {
        const unsigned int w = (l + r) % size;
        while (atomic_load_global_uint(flags + w, MEM_ORDER_RELAXED) != round) {
        }
        atomic_fence(MEM_ORDER_ACQUIRE, MEM_SCOPE_DEVICE);
        unsigned int wrong = 0;
        for (unsigned int k = 0; k < chunk; ++k)
            wrong += data[w * chunk + k] == PLINTH_MESSAGE(round, w, k) ? 0u : 1u;
        if (wrong != 0) atomic_add_global_uint(errors, wrong);
    }
}

KERNEL void message_groups_ordered(GLOBAL_MEM unsigned int *ticket, GLOBAL_MEM unsigned int *data,
                                   GLOBAL_MEM unsigned int *flags, GLOBAL_MEM unsigned int *errors,
                                   unsigned int chunk, unsigned int round)
{
    LOCAL_MEM unsigned int role;
    const unsigned int l = get_local_id(0), size = get_local_size(0);
    if (l == 0) role = atomic_add_global_uint(ticket, 1u);
    LOCAL_BARRIER;
    const unsigned int r = role;
    if (r == 0) {
        for (unsigned int k = 0; k < chunk; ++k) data[l * chunk + k] = PLINTH_MESSAGE(round, l, k);
        atomic_store_global_uint(flags + l, round, MEM_ORDER_RELEASE);
    } else {
        const unsigned int w = (l + r) % size;
        while (atomic_load_global_uint(flags + w, MEM_ORDER_ACQUIRE) != round) {
        }
        unsigned int wrong = 0;
        for (unsigned int k = 0; k < chunk; ++k)
            wrong += data[w * chunk + k] == PLINTH_MESSAGE(round, w, k) ? 0u : 1u;
        if (wrong != 0) atomic_add_global_uint(errors, wrong);
    }
}
)";

// Message passing within a group at work-group scope, in local memory: work items take
// tickets; ticket 2p writes pair p's chunk and publishes it, ticket 2p + 1 waits for it (at
// most `patience` loads) and checks it. results[i]: 3 for a writer, 1 for a reader that saw
// the message intact, 2 for one that saw it torn or stale, 0 for one that gave up waiting.
const char* const group_messages = R"(
#define PLINTH_GROUP_CHUNK 4
#define PLINTH_GROUP_MAX 256

KERNEL void message_in_group(GLOBAL_MEM unsigned int *results, unsigned int patience,
                             unsigned int ordered)
{
    LOCAL_MEM unsigned int ticket;
    LOCAL_MEM unsigned int flags[PLINTH_GROUP_MAX / 2];
    LOCAL_MEM unsigned int data[PLINTH_GROUP_MAX / 2 * PLINTH_GROUP_CHUNK];
    const unsigned int l = get_local_id(0);
    if (l == 0) ticket = 0;
    if (l < get_local_size(0) / 2) flags[l] = 0;
    LOCAL_BARRIER;
    const unsigned int t = atomic_add_local_uint(&ticket, 1u);
    const unsigned int pair = t / 2;
    unsigned int result = 3;
    if (t % 2 == 0) {
        for (unsigned int k = 0; k < PLINTH_GROUP_CHUNK; ++k)
            data[pair * PLINTH_GROUP_CHUNK + k] = pair * 7919u + k + 1u;
        if (ordered) {
            atomic_store_local_uint(flags + pair, 1u, MEM_ORDER_RELEASE);
        } else {
            atomic_fence(MEM_ORDER_RELEASE, MEM_SCOPE_WORK_GROUP);
            atomic_store_local_uint(flags + pair, 1u, MEM_ORDER_RELAXED);
        }
    } else {
        unsigned int seen = 0;
        for (unsigned int spin = 0; spin < patience && seen == 0; ++spin) {
            seen = ordered ? atomic_load_local_uint(flags + pair, MEM_ORDER_ACQUIRE)
                           : atomic_load_local_uint(flags + pair, MEM_ORDER_RELAXED);
        }
        result = 0;
        if (seen != 0) {
            if (!ordered) atomic_fence(MEM_ORDER_ACQUIRE, MEM_SCOPE_WORK_GROUP);
            result = 1;
            for (unsigned int k = 0; k < PLINTH_GROUP_CHUNK; ++k)
                if (data[pair * PLINTH_GROUP_CHUNK + k] != pair * 7919u + k + 1u) result = 2;
        }
    }
    results[get_global_id(0)] = result;
}
)";

std::string fences_source(const BoundDevice& device) {
  const auto types = atomic_types(device);
  const bool acqrel = device.features().device_scope_acquire_release;
  std::string source = group_messages;
  if (acqrel) source += device_messages;
  source += load_store_kernel<std::int32_t>(acqrel) + load_store_kernel<std::uint32_t>(acqrel) +
            load_store_kernel<float>(acqrel);
  if (types.int64)
    source += load_store_kernel<std::int64_t>(acqrel) + load_store_kernel<std::uint64_t>(acqrel);
  if (types.float64) source += load_store_kernel<double>(acqrel);
  return source;
}

class DialectFencesTest : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    PLINTH_SKIP_WITHOUT_DIALECT();
    program_.emplace(context(), fences_source(device()));
  }
  const Program& program() const { return *program_; }
  std::size_t local_size(std::size_t wanted) const {
    return std::min(wanted, device().params().max_total_local_size);
  }

 private:
  std::optional<Program> program_;
};

template <class T>
T from_bits(std::uint64_t bits) {
  T value;
  if constexpr (sizeof(T) == 4) {
    const auto narrow = static_cast<std::uint32_t>(bits);
    std::memcpy(&value, &narrow, 4);
  } else {
    std::memcpy(&value, &bits, 8);
  }
  return value;
}

template <class T>
void check_load_store(const Queue& queue, const Program& program, std::size_t local) {
  const std::string suffix(dialect_type<T>().first);
  SCOPED_TRACE(suffix);
  // Patterns whose halves differ, so that a torn 64-bit access is neither (finite as
  // doubles and floats).
  const std::vector<T> patterns{from_bits<T>(0x3123456789abcdefULL),
                                from_bits<T>(0x4edcba9876543210ULL),
                                from_bits<T>(0x2222222211111111ULL)};
  const std::size_t n = 4 * local;
  auto cells = upload(queue, std::vector<T>(4, patterns[2]));
  auto torn = upload(queue, std::vector<std::uint32_t>(n));
  const auto pattern_buffer = upload(queue, patterns);
  program.kernel("load_store_" + suffix)(queue, {n}, {local}, cells, pattern_buffer, torn, 64u);
  const auto bad = download<std::uint32_t>(queue, torn);
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_EQ(bad[i], 0u) << "work item " << i << " loaded torn values";
  const auto after = download<T>(queue, cells);
  for (std::size_t c = 0; c < 4; ++c) {
    EXPECT_TRUE(bits_of(after[c]) == bits_of(patterns[0]) ||
                bits_of(after[c]) == bits_of(patterns[1]))
        << "cell " << c << " holds " << after[c] << " after the stores";
  }
}

TEST_P(DialectFencesTest, LoadsAndStoresOfEveryOrderNeverTear32) {
  const std::size_t local = local_size(64);
  check_load_store<std::int32_t>(queue(), program(), local);
  check_load_store<std::uint32_t>(queue(), program(), local);
  check_load_store<float>(queue(), program(), local);
}

TEST_P(DialectFencesTest, LoadsAndStoresOfEveryOrderNeverTearInt64) {
  if (!atomic_types(device()).int64)
    GTEST_SKIP() << device().name() << " has no 64-bit integer atomics (features().int64_atomics)";
  const std::size_t local = local_size(64);
  check_load_store<std::int64_t>(queue(), program(), local);
  check_load_store<std::uint64_t>(queue(), program(), local);
}

TEST_P(DialectFencesTest, LoadsAndStoresOfEveryOrderNeverTearDouble) {
  if (!atomic_types(device()).float64)
    GTEST_SKIP() << device().name() << " has no double atomics (features().double_atomics, "
                 << "params().supports_double)";
  check_load_store<double>(queue(), program(), local_size(64));
}

TEST_P(DialectFencesTest, MessagesPassBetweenGroupsAtDeviceScope) {
  if (!device().features().device_scope_acquire_release)
    GTEST_SKIP()
        << device().name()
        << " has no device-scope acquire/release (features().device_scope_acquire_release)";
  const std::size_t local = local_size(64);
  const std::size_t groups = 8;
  const unsigned chunk = 16;
  auto data = upload(queue(), std::vector<std::uint32_t>(local * chunk));
  auto flags = upload(queue(), std::vector<std::uint32_t>(local));
  for (const char* kernel : {"message_groups_fences", "message_groups_ordered"}) {
    SCOPED_TRACE(kernel);
    for (unsigned round = 1; round <= 4; ++round) {
      auto ticket = upload(queue(), std::vector<std::uint32_t>{0});
      auto errors = upload(queue(), std::vector<std::uint32_t>{0});
      const unsigned tag = (std::string(kernel).ends_with("fences") ? 0u : 10u) + round;
      program().kernel(kernel)(queue(), {groups * local}, {local}, ticket, data, flags, errors,
                               chunk, tag);
      EXPECT_EQ(download<std::uint32_t>(queue(), ticket)[0], groups);
      EXPECT_EQ(download<std::uint32_t>(queue(), errors)[0], 0u)
          << "round " << round << ": readers saw stale data after the flag";
    }
  }
}

TEST_P(DialectFencesTest, MessagesPassWithinAGroupAtWorkGroupScope) {
  const std::size_t local = local_size(256) / 2 * 2;
  if (local < 2) GTEST_SKIP() << "needs groups of two work items";
  const std::size_t groups = 4;
  for (const unsigned ordered : {0u, 1u}) {
    SCOPED_TRACE(ordered ? "release store, acquire load" : "fences");
    auto results = upload(queue(), std::vector<std::uint32_t>(groups * local));
    program().kernel("message_in_group")(queue(), {groups * local}, {local}, results, 1u << 16,
                                         ordered);
    const auto values = download<std::uint32_t>(queue(), results);
    std::size_t writers = 0, intact = 0, broken = 0, gave_up = 0;
    for (const auto v : values) {
      writers += v == 3 ? 1 : 0;
      intact += v == 1 ? 1 : 0;
      broken += v == 2 ? 1 : 0;
      gave_up += v == 0 ? 1 : 0;
    }
    EXPECT_EQ(writers, groups * local / 2);
    EXPECT_EQ(broken, 0u) << "readers saw the flag before the data";
    // A reader may give up only where its writer shares its sub-group and the sub-group runs in
    // lockstep; some messages always arrive.
    EXPECT_GT(intact, 0u) << gave_up << " readers gave up waiting";
  }
}

PLINTH_INSTANTIATE_DEVICE_TEST(DialectFencesTest);

}  // namespace
}  // namespace dialect_fences_test
}  // namespace plinth::conformance
