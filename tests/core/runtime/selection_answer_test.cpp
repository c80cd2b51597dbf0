// Answers to select_devices(interactive = true): detail::parse_selection.

#include "runtime/selection_answer.hpp"

#include <gtest/gtest.h>

namespace plinth::detail {
namespace selection_answer_test {
namespace {

using Indices = std::vector<std::size_t>;

TEST(SelectionAnswer, NumbersSeparatedByCommasOrSpaces) {
  EXPECT_EQ(parse_selection("2", 4, 1, {0}, "device").chosen, Indices{2});
  EXPECT_EQ(parse_selection(" 3, 1 ", 4, 2, {0, 1}, "device").chosen, (Indices{3, 1}));
  EXPECT_EQ(parse_selection("0 2\r", 4, 2, {0, 1}, "device").chosen, (Indices{0, 2}));
}

// Before: an empty answer was refused instead of taking the default shown in brackets.
TEST(SelectionAnswer, AnEmptyAnswerTakesTheDefault) {
  EXPECT_EQ(parse_selection("", 4, 2, {0, 1}, "device").chosen, (Indices{0, 1}));
  EXPECT_EQ(parse_selection("   ", 3, 1, {0}, "platform").chosen, Indices{0});
  EXPECT_EQ(bracketed({0, 1}), "[0, 1]");
}

// Before: "1xyz" was read as 1.
TEST(SelectionAnswer, AnythingElseIsRefusedWithTheReason) {
  EXPECT_EQ(parse_selection("1xyz", 4, 1, {0}, "device").problem, "'1xyz' is not a number");
  EXPECT_EQ(parse_selection("-1", 4, 1, {0}, "device").problem, "'-1' is not a number");
  EXPECT_EQ(parse_selection("4", 4, 1, {0}, "device").problem,
            "there is no device 4: choose from 0 to 3");
  EXPECT_EQ(parse_selection("1,1", 4, 2, {0, 1}, "device").problem, "device 1 is chosen twice");
  EXPECT_EQ(parse_selection("99999999999999999999999", 4, 1, {0}, "device").problem,
            "'99999999999999999999999' is not a number");
  EXPECT_EQ(parse_selection("\x1b[2J", 4, 1, {0}, "device").problem, "'\\x1b[2J' is not a number");
  EXPECT_TRUE(parse_selection("1xyz", 4, 1, {0}, "device").chosen.empty());
}

TEST(SelectionAnswer, TheWrongCountIsRefusedAsGrunnurSays) {
  EXPECT_EQ(parse_selection("0", 4, 2, {0, 1}, "device").problem,
            "Exactly 2 devices must be selected");
  EXPECT_EQ(parse_selection("0,1", 4, 1, {0}, "platform").problem,
            "Exactly 1 platform must be selected");
  EXPECT_EQ(parse_selection("", 4, std::nullopt, {}, "device").problem,
            "choose at least one device");
  EXPECT_EQ(parse_selection("3,0,2", 4, std::nullopt, {}, "device").chosen, (Indices{3, 0, 2}));
}

}  // namespace
}  // namespace selection_answer_test
}  // namespace plinth::detail
