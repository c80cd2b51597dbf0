// The packing of virtual allocations without a device (core/virtual_alloc/packing.hpp,
// book.hpp): grunnur's ten-buffer sequence, placement, re-packing, forgetting.

#include "virtual_alloc/packing.hpp"
#include "virtual_alloc/book.hpp"

#include <plinth/errors.hpp>
#include <plinth/virtual_alloc.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <map>
#include <set>
#include <sstream>
#include <vector>

namespace plinth::detail {
namespace packing_test {
namespace {

struct Request {
  std::size_t size;
  std::vector<std::size_t> dependencies;  // earlier requests, by index
};

/// grunnur's tests/test_virtual_alloc.py: (id, size, dependencies).
const std::vector<Request> ten_buffers = {
    {2, {}}, {5, {0}}, {5, {0}},     {10, {1, 2}}, {8, {1, 3}},
    {5, {}}, {3, {3}}, {10, {2, 5}}, {5, {1, 6}},  {20, {2, 4, 8}},
};

/// Adds the ten buffers to `book` as a manager does; returns their ids.
std::vector<VirtualId> add_all(VirtualBook& book) {
  std::vector<VirtualId> ids;
  for (const auto& request : ten_buffers) {
    std::vector<VirtualId> deps;
    for (const auto d : request.dependencies) deps.push_back(ids[d]);
    const auto place = book.place(request.size, deps);
    ids.push_back(book.add(request.size, deps, place).first);
  }
  return ids;
}

/// No two virtual allocations that conflict share a real allocation, and each fits in its own.
void expect_valid(const VirtualBook& book) {
  for (const auto& [id, v] : book.virtuals()) {
    ASSERT_TRUE(book.reals().contains(v.real));
    EXPECT_LE(v.size, book.reals().at(v.real).size);
    EXPECT_TRUE(book.reals().at(v.real).members.contains(id));
    for (const auto other : v.conflicts) {
      EXPECT_NE(book.virtuals().at(other).real, v.real) << id << " shares with " << other;
    }
  }
}

TEST(VirtualPacking, FirstFitTakesTheSmallestFreeLargeEnough) {
  const std::vector<RealCandidate> reals = {
      {10, false}, {5, true}, {8, false}, {8, false}, {3, false}};
  EXPECT_EQ(first_fit(reals, 6), 2u);
  EXPECT_EQ(first_fit(reals, 9), 0u);
  EXPECT_EQ(first_fit(reals, 2), 4u);
  EXPECT_EQ(first_fit(reals, 11), std::nullopt);
  EXPECT_EQ(first_fit({}, 1), std::nullopt);
}

TEST(VirtualPacking, TenBuffersPackIntoThreeOf33Bytes) {
  std::vector<std::size_t> sizes;
  std::vector<std::vector<std::size_t>> conflicts(ten_buffers.size());
  for (std::size_t i = 0; i < ten_buffers.size(); ++i) {
    sizes.push_back(ten_buffers[i].size);
    for (const auto d : ten_buffers[i].dependencies) {
      conflicts[i].push_back(d);
      conflicts[d].push_back(i);
    }
  }
  const auto packing = pack_zero_offset(sizes, conflicts);
  EXPECT_EQ(packing.real_sizes, (std::vector<std::size_t>{20, 8, 5}));
  ASSERT_EQ(packing.real_of.size(), sizes.size());
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    EXPECT_LE(sizes[i], packing.real_sizes[packing.real_of[i]]);
    for (const auto j : conflicts[i]) EXPECT_NE(packing.real_of[i], packing.real_of[j]);
  }
}

TEST(VirtualPacking, NoConflictsShareOneAndAllConflictingGetOneEach) {
  const std::vector<std::size_t> sizes = {4, 9, 1, 9};
  EXPECT_EQ(pack_zero_offset(sizes, {}).real_sizes, (std::vector<std::size_t>{9}));
  std::vector<std::vector<std::size_t>> all(4);
  for (std::size_t i = 0; i < 4; ++i) {
    for (std::size_t j = 0; j < 4; ++j) all[i].push_back(j);  // self-loops are ignored
  }
  EXPECT_EQ(pack_zero_offset(sizes, all).real_sizes, (std::vector<std::size_t>{9, 9, 4, 1}));
  EXPECT_TRUE(pack_zero_offset({}, {}).real_sizes.empty());
}

TEST(VirtualBookTest, ZeroOffsetTenBuffers) {
  VirtualBook book(true);
  const auto ids = add_all(book);
  expect_valid(book);
  auto stats = book.statistics();
  EXPECT_EQ(stats.virtual_num, 10u);
  EXPECT_EQ(stats.virtual_size_total, 73u);
  EXPECT_EQ(stats.virtual_sizes,
            (std::map<std::size_t, std::size_t>{{2, 1}, {3, 1}, {5, 4}, {8, 1}, {10, 2}, {20, 1}}));
  // grunnur's greedy placement: 2, 5, 10, 8 and 20 bytes.
  EXPECT_EQ(stats.real_num, 5u);
  EXPECT_EQ(stats.real_size_total, 45u);

  const auto plan = book.plan({});
  EXPECT_TRUE(book.improves(plan, {}));
  book.install(plan, book.reusable(plan));
  expect_valid(book);
  stats = book.statistics();
  EXPECT_EQ(stats.real_num, 3u);
  EXPECT_EQ(stats.real_size_total, 33u);
  EXPECT_EQ(stats.real_sizes, (std::map<std::size_t, std::size_t>{{5, 1}, {8, 1}, {20, 1}}));
  EXPECT_EQ(stats.virtual_size_total, 73u);

  // Packing again finds nothing better, and would move nothing.
  const auto again = book.plan({});
  EXPECT_FALSE(book.improves(again, {}));
  for (const auto& reuse : book.reusable(again)) EXPECT_TRUE(reuse.has_value());

  // Forgetting every virtual allocation forgets every real one.
  std::set<RealId> freed;
  for (const auto id : ids) {
    if (const auto real = book.remove(id)) {
      EXPECT_TRUE(freed.insert(*real).second);
    }
  }
  EXPECT_EQ(freed.size(), 3u);
  EXPECT_TRUE(book.reals().empty());
  EXPECT_TRUE(book.virtuals().empty());
  EXPECT_EQ(book.statistics(), VirtualAllocationStatistics{});
}

TEST(VirtualBookTest, TrivialTenBuffers) {
  VirtualBook book(false);
  add_all(book);
  const auto stats = book.statistics();
  EXPECT_EQ(stats.real_num, 10u);
  EXPECT_EQ(stats.real_size_total, 73u);
  EXPECT_EQ(stats.real_sizes, stats.virtual_sizes);
  EXPECT_FALSE(book.improves(book.plan({}), {}));
}

TEST(VirtualBookTest, KeptBuffersAreKeptApart) {
  VirtualBook book(true);
  const auto a = book.add(8, {}, book.place(8, {})).first;
  const auto b = book.add(8, {}, book.place(8, {})).first;  // shares with a
  EXPECT_EQ(book.reals().size(), 1u);
  const std::vector<VirtualId> keep = {a, b};
  const auto plan = book.plan(keep);
  EXPECT_TRUE(book.improves(plan, keep));  // they share now, so it is worth it
  book.install(plan, book.reusable(plan));
  EXPECT_EQ(book.reals().size(), 2u);
  EXPECT_NE(book.virtuals().at(a).real, book.virtuals().at(b).real);
}

TEST(VirtualBookTest, RemovingOneMemberKeepsTheRealAllocation) {
  VirtualBook book(true);
  const auto a = book.add(8, {}, book.place(8, {})).first;
  const auto b = book.add(4, {}, book.place(4, {})).first;
  const auto c = book.add(4, std::vector<VirtualId>{a}, book.place(4, std::vector<VirtualId>{a}));
  EXPECT_NE(c.second, book.virtuals().at(a).real);
  EXPECT_EQ(book.remove(a), std::nullopt);  // b is still there
  EXPECT_TRUE(book.virtuals().at(c.first).conflicts.empty());
  EXPECT_EQ(book.remove(b).has_value(), true);
  EXPECT_EQ(book.remove(b), std::nullopt);  // unknown: nothing
  EXPECT_EQ(book.reals().size(), 1u);
}

TEST(VirtualBookTest, DeadDependencyIsAnErrorNamingIt) {
  VirtualBook book(true);
  const std::vector<VirtualId> missing = {12345};
  try {
    (void)book.place(10, missing);
    FAIL() << "no LogicError";
  } catch (const LogicError& e) {
    EXPECT_NE(std::string(e.what()).find("12345"), std::string::npos) << e.what();
  }
  EXPECT_THROW(book.add(10, missing, std::nullopt), LogicError);
  EXPECT_TRUE(book.virtuals().empty());
}

TEST(VirtualStatistics, PrintsCountsTotalsAndHistograms) {
  VirtualBook book(true);
  add_all(book);
  const auto stats = book.statistics();
  std::ostringstream os;
  os << stats;
  EXPECT_EQ(os.str(), stats.to_string());
  EXPECT_EQ(stats.to_string(),
            "VirtualAllocationStatistics(real: 5 allocs, total size 45b, buffers: 1x2b, 1x5b, "
            "1x8b, 1x10b, 1x20b; virtual: 10 allocs, total size 73b, buffers: 1x2b, 1x3b, 4x5b, "
            "1x8b, 2x10b, 1x20b)");
}

}  // namespace
}  // namespace packing_test
}  // namespace plinth::detail
