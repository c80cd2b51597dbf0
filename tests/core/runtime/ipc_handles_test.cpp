// IpcMemoryHandle's and IpcEventHandle's text and byte forms, without a device
// (include/plinth/ipc.hpp): round trips, the exact forms, and malformed text and bytes refused
// with a LogicError naming the problem.

#include <plinth/errors.hpp>
#include <plinth/ipc.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

namespace plinth {
namespace ipc_handles_test {
namespace {

std::vector<std::byte> bytes_of(std::string_view text) {
  std::vector<std::byte> bytes;
  for (const char c : text) bytes.push_back(static_cast<std::byte>(c));
  return bytes;
}

template <class F>
std::string refusal(F&& f) {
  try {
    f();
  } catch (const LogicError& e) {
    return e.what();
  }
  return "(no LogicError)";
}

TEST(IpcMemoryHandleForms, RoundTripInTheirExactForms) {
  const std::vector<std::byte> vendor{std::byte{0x00}, std::byte{0xab}, std::byte{0xff}};
  const auto handle = IpcMemoryHandle::from_parts("cuda", vendor, 4096, 258);
  EXPECT_EQ(handle.to_string(), "cuda:4096:258:00abff");
  EXPECT_EQ(IpcMemoryHandle::from_string("cuda:4096:258:00ABFF"), handle);
  const auto bytes = handle.to_bytes();
  std::vector<std::byte> expected = bytes_of(
      "plm1\x04"
      "cuda");
  for (const int b : {0, 16, 0, 0, 0, 0, 0, 0, 2, 1, 0, 0, 0, 0, 0, 0})
    expected.push_back(static_cast<std::byte>(b));
  expected.insert(expected.end(), vendor.begin(), vendor.end());
  EXPECT_EQ(bytes, expected);
  EXPECT_EQ(IpcMemoryHandle::from_bytes(bytes), handle);
}

TEST(IpcMemoryHandleForms, MalformedTextIsRefusedNamingTheProblem) {
  const auto text = [](std::string_view t) {
    return refusal([&] { IpcMemoryHandle::from_string(t); });
  };
  EXPECT_NE(text("cuda").find("no ':' after the API shortcut"), std::string::npos);
  EXPECT_NE(text("cuda:12:ab").find("no ':' after the offset"), std::string::npos);
  EXPECT_NE(text("CUDA:1:0:ab").find("is not one of a-z, 0-9, _"), std::string::npos);
  EXPECT_NE(text("cuda:0:0:ab").find("the size is 0"), std::string::npos);
  EXPECT_NE(text("cuda:-1:0:ab").find("of the size (byte 0x2d) is not a decimal digit"),
            std::string::npos);
  EXPECT_NE(text("cuda:99999999999999999999:0:ab").find("does not fit 64 bits"), std::string::npos);
  EXPECT_NE(text("cuda:2:18446744073709551615:ab").find("does not fit"), std::string::npos);
  EXPECT_NE(text("cuda:1:0:").find("the vendor handle is empty"), std::string::npos);
  EXPECT_NE(text("cuda:1:0:abc").find("odd number (3) of hex digits"), std::string::npos);
  EXPECT_NE(text("cuda:1:0:zz").find("is not a hex digit"), std::string::npos);
  EXPECT_NE(text("cuda:1:0:" + std::string(8194, 'a')).find("more than 4096"), std::string::npos);
}

TEST(IpcMemoryHandleForms, MalformedBytesAreRefusedNamingTheProblem) {
  const auto from = [](std::string_view b) {
    return refusal([&] { IpcMemoryHandle::from_bytes(bytes_of(b)); });
  };
  const auto good = IpcMemoryHandle::from_parts("hip", bytes_of("xy"), 8, 0).to_bytes();
  const std::string text(reinterpret_cast<const char*>(good.data()), good.size());
  EXPECT_NE(from("").find("in the middle of the tag"), std::string::npos);
  EXPECT_NE(from("ple1\x03hip").find("do not start with \"plm1\""), std::string::npos);
  EXPECT_NE(from(text.substr(0, 10)).find("in the middle of the size"), std::string::npos);
  EXPECT_NE(from(text.substr(0, text.size() - 2)).find("the vendor handle is empty"),
            std::string::npos);
  EXPECT_NE(from(std::string("plm1\x00", 5)).find("the API shortcut is empty"), std::string::npos);
  EXPECT_NE(from("plm1\x09hip").find("in the middle of the API shortcut"), std::string::npos);
}

TEST(IpcEventHandleForms, RoundTripAndRefusals) {
  const auto handle = IpcEventHandle::from_parts("level_zero", bytes_of("\x01\x02"));
  EXPECT_EQ(handle.to_string(), "level_zero:0102");
  EXPECT_EQ(IpcEventHandle::from_string(handle.to_string()), handle);
  EXPECT_EQ(IpcEventHandle::from_bytes(handle.to_bytes()), handle);
  EXPECT_NE(refusal([] { IpcEventHandle::from_string("0102"); }).find("no ':'"), std::string::npos);
  // A memory handle's bytes are not an event handle's.
  const auto memory = IpcMemoryHandle::from_parts("cuda", bytes_of("ab"), 1, 0).to_bytes();
  EXPECT_NE(refusal([&] { IpcEventHandle::from_bytes(memory); }).find("\"ple1\""),
            std::string::npos);
  EXPECT_NE(refusal([] { IpcEventHandle::from_parts("cuda", {}); }).find("empty"),
            std::string::npos);
}

}  // namespace
}  // namespace ipc_handles_test
}  // namespace plinth
