// CommunicatorId's text and byte forms, without a device (include/plinth/collectives.hpp):
// round trips, and every malformed text refused with a LogicError naming the problem.

#include <plinth/collectives.hpp>
#include <plinth/errors.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

namespace plinth {
namespace communicator_id_test {
namespace {

std::vector<std::byte> bytes_of(std::initializer_list<int> values) {
  std::vector<std::byte> bytes;
  for (const int value : values) bytes.push_back(static_cast<std::byte>(value));
  return bytes;
}

// The message of the LogicError that from_string(text) throws.
std::string refusal(std::string_view text) {
  try {
    CommunicatorId::from_string(text);
  } catch (const LogicError& e) {
    return e.what();
  }
  return "(no LogicError)";
}

void expect_refused(std::string_view text, const std::string& words) {
  const auto message = refusal(text);
  EXPECT_NE(message.find(words), std::string::npos)
      << "text \"" << text.substr(0, 80) << "\": " << message;
}

TEST(CommunicatorIdText, RoundTrips) {
  const auto bytes = bytes_of({0x00, 0x01, 0x7f, 0x80, 0xab, 0xff});
  const auto id = CommunicatorId::from_bytes("cuda", bytes);
  EXPECT_EQ(id.to_string(), "cuda:00017f80abff");
  EXPECT_EQ(id.api_shortcut(), "cuda");
  EXPECT_EQ(std::vector<std::byte>(id.bytes().begin(), id.bytes().end()), bytes);
  const auto back = CommunicatorId::from_string(id.to_string());
  EXPECT_EQ(back, id);
  // Upper-case digits read the same.
  EXPECT_EQ(CommunicatorId::from_string("cuda:00017F80ABFF"), id);
  // Every byte value, at the largest size.
  std::vector<std::byte> all(4096);
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<std::byte>(i * 7 % 256);
  const auto big = CommunicatorId::from_bytes("level_zero", all);
  const auto text = big.to_string();
  EXPECT_EQ(text.size(), std::string("level_zero:").size() + 2 * 4096);
  EXPECT_EQ(CommunicatorId::from_string(text), big);
  EXPECT_FALSE(CommunicatorId::from_string("cuda:00") == CommunicatorId::from_string("hip:00"));
  EXPECT_FALSE(CommunicatorId::from_string("cuda:00") == CommunicatorId::from_string("cuda:01"));
}

TEST(CommunicatorIdText, RefusesMalformedText) {
  expect_refused("", "no ':'");
  expect_refused("cuda", "no ':'");
  expect_refused("cuda0011", "no ':'");
  expect_refused(":0011", "the API shortcut is empty");
  expect_refused("cuda:", "the id is empty");
  expect_refused("cuda:0", "odd number (1)");
  expect_refused("cuda:001", "odd number (3)");
  expect_refused("cuda:0g", "character 1 of the id (byte 0x67) is not a hex digit");
  expect_refused("cuda:zz", "character 0 of the id");
  expect_refused("cuda:00:1", "character 2 of the id (byte 0x3a)");
  expect_refused("cuda: 00 ", "character 0 of the id (byte 0x20)");
  expect_refused("cuda:0x00", "character 1 of the id");
  expect_refused("CUDA:00", "character 0 of the API shortcut (byte 0x43)");
  expect_refused("cu da:00", "character 2 of the API shortcut (byte 0x20)");
  expect_refused(std::string_view("cu\0a:00", 7), "character 2 of the API shortcut (byte 0x00)");
  expect_refused("\xff\xfe:00", "character 0 of the API shortcut (byte 0xff)");
  expect_refused(std::string(65, 'a') + ":00", "65 characters, more than 64");
  expect_refused("cuda:" + std::string(2 * 4097, 'a'), "4097 bytes, more than 4096");
  expect_refused("cuda:" + std::string(1'000'001, 'a'), "odd number");
  // A hex digit pair cut off by a non-digit in the second place.
  expect_refused("cuda:a\xc3", "character 1 of the id (byte 0xc3)");
}

TEST(CommunicatorIdBytes, RefusesEmptyAndOversizedIds) {
  EXPECT_THROW(CommunicatorId::from_bytes("cuda", {}), LogicError);
  const std::vector<std::byte> too_big(4097);
  try {
    CommunicatorId::from_bytes("cuda", too_big);
    FAIL() << "accepted 4097 bytes";
  } catch (const LogicError& e) {
    EXPECT_NE(std::string(e.what()).find("4097 bytes, more than 4096"), std::string::npos);
  }
  const std::vector<std::byte> one(1);
  EXPECT_THROW(CommunicatorId::from_bytes("", one), LogicError);
  EXPECT_THROW(CommunicatorId::from_bytes("cu:da", one), LogicError);
  EXPECT_EQ(CommunicatorId::from_bytes("hip", one).to_string(), "hip:00");
}

}  // namespace
}  // namespace communicator_id_test
}  // namespace plinth
