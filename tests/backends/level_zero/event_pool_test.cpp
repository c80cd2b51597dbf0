// The bookkeeping of event pools' slots (SlotBook, event_pool.hpp), without a driver: slots
// are handed out once, given back, reused only once their recording is done, and a full book
// asks for a new pool.

#include "event_pool.hpp"

#include <plinth/errors.hpp>

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <utility>

namespace plinth::level_zero {
namespace event_pool_test {
namespace {

using Slot = SlotBook::Slot;

auto never_done = [](const Slot&) { return false; };
auto always_done = [](const Slot&) { return true; };

TEST(EventSlotBook, EmptyBookAsksForAPool) {
  SlotBook book(4);
  EXPECT_EQ(book.pool_count(), 0u);
  EXPECT_FALSE(book.take().has_value());
  EXPECT_EQ(book.add_pool(), 0u);
  EXPECT_EQ(book.pool_count(), 1u);
  EXPECT_TRUE(book.take().has_value());
}

TEST(EventSlotBook, HandsOutEverySlotOnceThenAsksForAnotherPool) {
  SlotBook book(4);
  book.add_pool();
  std::set<std::pair<std::size_t, std::uint32_t>> seen;
  for (int i = 0; i < 4; ++i) {
    const auto slot = book.take();
    ASSERT_TRUE(slot.has_value());
    EXPECT_EQ(slot->pool, 0u);
    EXPECT_LT(slot->index, 4u);
    EXPECT_FALSE(slot->reused);
    EXPECT_TRUE(seen.insert({slot->pool, slot->index}).second) << "slot handed out twice";
  }
  EXPECT_EQ(book.in_use(), 4u);
  EXPECT_FALSE(book.take(always_done).has_value());  // full: nothing retired either
  EXPECT_EQ(book.add_pool(), 1u);
  const auto next = book.take();
  ASSERT_TRUE(next.has_value());
  EXPECT_EQ(next->pool, 1u);
  EXPECT_EQ(next->index, 0u);
  EXPECT_EQ(book.in_use(), 5u);
}

TEST(EventSlotBook, LowestIndexFirstInAFreshPool) {
  SlotBook book(3);
  book.add_pool();
  EXPECT_EQ(book.take()->index, 0u);
  EXPECT_EQ(book.take()->index, 1u);
  EXPECT_EQ(book.take()->index, 2u);
}

TEST(EventSlotBook, ASlotGivenBackUnrecordedIsFreeAtOnce) {
  SlotBook book(1);
  book.add_pool();
  const auto slot = book.take();
  ASSERT_TRUE(slot.has_value());
  book.give_back(*slot, false);
  EXPECT_EQ(book.in_use(), 0u);
  EXPECT_EQ(book.retired(), 0u);
  const auto again = book.take(never_done);
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(*again, *slot);
  EXPECT_FALSE(again->reused);
}

TEST(EventSlotBook, ARetiredSlotWaitsUntilItsRecordingIsDone) {
  SlotBook book(2);
  book.add_pool();
  const auto a = *book.take();
  const auto b = *book.take();
  book.give_back(a, true);
  book.give_back(b, true);
  EXPECT_EQ(book.retired(), 2u);
  EXPECT_EQ(book.in_use(), 0u);
  EXPECT_FALSE(book.take(never_done).has_value());  // the caller would add a pool
  EXPECT_EQ(book.retired(), 2u);
  // Only b is done: b is taken, a stays retired; a reused slot says it must be reset.
  const auto taken = book.take([&](const Slot& slot) { return slot == b; });
  ASSERT_TRUE(taken.has_value());
  EXPECT_EQ(*taken, b);
  EXPECT_TRUE(taken->reused);
  EXPECT_EQ(book.retired(), 1u);
  const auto oldest = book.take(always_done);
  ASSERT_TRUE(oldest.has_value());
  EXPECT_EQ(*oldest, a);
  EXPECT_EQ(book.in_use(), 2u);
}

TEST(EventSlotBook, FreeSlotsGoBeforeRetiredOnes) {
  SlotBook book(2);
  book.add_pool();
  const auto a = *book.take();
  book.give_back(a, true);
  int asked = 0;
  const auto slot = book.take([&](const Slot&) {
    ++asked;
    return true;
  });
  ASSERT_TRUE(slot.has_value());
  EXPECT_EQ(slot->index, 1u);  // the never-used slot, without asking the driver
  EXPECT_FALSE(slot->reused);
  EXPECT_EQ(asked, 0);
}

TEST(EventSlotBook, AThrowingCheckLeavesTheBookUnchanged) {
  SlotBook book(1);
  book.add_pool();
  const auto a = *book.take();
  book.give_back(a, true);
  EXPECT_THROW(book.take([](const Slot&) -> bool { throw std::runtime_error("driver"); }),
               std::runtime_error);
  EXPECT_EQ(book.retired(), 1u);
  EXPECT_EQ(book.in_use(), 0u);
  EXPECT_TRUE(book.take(always_done).has_value());
}

TEST(EventSlotBook, GivingBackTwiceOrUnknownSlotsIsALogicError) {
  SlotBook book(2);
  book.add_pool();
  const auto a = *book.take();
  book.give_back(a, false);
  EXPECT_THROW(book.give_back(a, false), LogicError);
  EXPECT_THROW(book.give_back(a, true), LogicError);
  EXPECT_THROW(book.give_back(Slot{3, 0, false}, false), LogicError);  // no pool 3
  EXPECT_THROW(book.give_back(Slot{0, 7, false}, false), LogicError);  // no slot 7
  const auto b = *book.take();
  book.give_back(b, true);
  EXPECT_THROW(book.give_back(b, true), LogicError);  // retired already
  EXPECT_EQ(book.in_use(), 0u);
}

TEST(EventSlotBook, AnEmptyPoolIsRefused) { EXPECT_THROW(SlotBook(0), LogicError); }

TEST(EventSlotBook, ManyPoolsManyCycles) {
  SlotBook book(8);
  std::vector<Slot> held;
  for (int round = 0; round < 5; ++round) {
    while (held.size() < 20) {
      auto slot = book.take(always_done);
      if (!slot) {
        book.add_pool();
        slot = book.take();
      }
      ASSERT_TRUE(slot.has_value());
      held.push_back(*slot);
    }
    for (std::size_t i = 0; i < held.size(); ++i) book.give_back(held[i], i % 2 == 0);
    held.clear();
    EXPECT_EQ(book.in_use(), 0u);
  }
  EXPECT_EQ(book.pool_count(), 3u);  // 20 slots at a time never need more than 3 pools of 8
}

}  // namespace
}  // namespace event_pool_test
}  // namespace plinth::level_zero
