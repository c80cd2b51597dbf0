// IpcMemoryHandle and IpcEventHandle as text ("<api>:<size>:<offset>:<hex>", "<api>:<hex>")
// and bytes (a tag, the shortcut, little-endian numbers, the vendor handle), read back
// strictly: they come from another process, through files, sockets or the environment.

#include "runtime/handle_text.hpp"
#include "runtime/ipc_limits.hpp"

#include <plinth/errors.hpp>
#include <plinth/ipc.hpp>

#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <limits>

namespace plinth {

namespace {

constexpr std::array<char, 4> memory_tag{'p', 'l', 'm', '1'};
constexpr std::array<char, 4> event_tag{'p', 'l', 'e', '1'};

void check_vendor(std::string_view call, std::size_t size) {
  if (size == 0) throw LogicError(fmt::format("{}: the vendor handle is empty", call));
  if (size > detail::max_ipc_vendor_bytes) {
    throw LogicError(fmt::format("{}: the vendor handle has {} bytes, more than {}", call, size,
                                 detail::max_ipc_vendor_bytes));
  }
}

void check_region(std::string_view call, std::uint64_t size, std::uint64_t offset) {
  if (size == 0) throw LogicError(fmt::format("{}: the size is 0", call));
  if (size > std::numeric_limits<std::size_t>::max() ||
      offset > std::numeric_limits<std::size_t>::max() - size) {
    throw LogicError(
        fmt::format("{}: the region [{}, {} + {}) does not fit this process's address space", call,
                    offset, offset, size));
  }
}

// The bytes' common head: the tag and the shortcut.
void write_head(std::vector<std::byte>& out, const std::array<char, 4>& tag,
                const std::string& api) {
  for (const char c : tag) out.push_back(static_cast<std::byte>(c));
  out.push_back(static_cast<std::byte>(api.size()));
  for (const char c : api) out.push_back(static_cast<std::byte>(c));
}

void write_u64(std::vector<std::byte>& out, std::uint64_t value) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<std::byte>((value >> (8 * i)) & 0xff));
}

// Reads the bytes a field at a time, refusing to read past the end.
class Reader {
 public:
  Reader(std::string_view call, std::span<const std::byte> bytes) : call_(call), bytes_(bytes) {}

  std::span<const std::byte> take(std::size_t count, std::string_view what) {
    if (count > bytes_.size() - at_) {
      throw LogicError(fmt::format("{}: the bytes end at {} in the middle of {} ({} bytes needed)",
                                   call_, bytes_.size(), what, count));
    }
    const auto part = bytes_.subspan(at_, count);
    at_ += count;
    return part;
  }

  std::uint64_t u64(std::string_view what) {
    const auto part = take(8, what);
    std::uint64_t value = 0;
    for (int i = 7; i >= 0; --i) value = (value << 8) | std::to_integer<std::uint64_t>(part[i]);
    return value;
  }

  std::span<const std::byte> rest() { return take(bytes_.size() - at_, "the vendor handle"); }

 private:
  std::string_view call_;
  std::span<const std::byte> bytes_;
  std::size_t at_ = 0;
};

std::string read_head(Reader& reader, std::string_view call, const std::array<char, 4>& tag,
                      std::string_view kind) {
  const auto got = reader.take(4, "the tag");
  for (std::size_t i = 0; i < 4; ++i) {
    if (static_cast<char>(got[i]) != tag[i]) {
      throw LogicError(fmt::format(
          "{}: the bytes do not start with \"{}\" (not {} from to_bytes(), or of another "
          "version)",
          call, std::string_view(tag.data(), tag.size()), kind));
    }
  }
  const auto length = std::to_integer<std::size_t>(reader.take(1, "the shortcut's length")[0]);
  const auto chars = reader.take(length, "the API shortcut");
  std::string api(length, '\0');
  for (std::size_t i = 0; i < length; ++i) api[i] = static_cast<char>(chars[i]);
  detail::check_handle_shortcut(call, api);
  return api;
}

// Splits off the text up to the next ':' (the field `what`); throws if there is none.
std::string_view next_field(std::string_view& text, std::string_view call, std::string_view what,
                            std::string_view form) {
  const auto colon = text.find(':');
  if (colon == std::string_view::npos) {
    throw LogicError(fmt::format("{}: no ':' after {} (\"{}\")", call, what, form));
  }
  const auto field = text.substr(0, colon);
  text.remove_prefix(colon + 1);
  return field;
}

}  // namespace

IpcMemoryHandle IpcMemoryHandle::from_parts(std::string_view api_shortcut,
                                            std::span<const std::byte> vendor_handle,
                                            std::size_t size, std::size_t offset) {
  constexpr std::string_view call = "IpcMemoryHandle::from_parts";
  detail::check_handle_shortcut(call, api_shortcut);
  check_vendor(call, vendor_handle.size());
  check_region(call, size, offset);
  return IpcMemoryHandle(std::string(api_shortcut), {vendor_handle.begin(), vendor_handle.end()},
                         size, offset);
}

IpcMemoryHandle IpcMemoryHandle::from_string(std::string_view text) {
  constexpr std::string_view call = "IpcMemoryHandle::from_string";
  constexpr std::string_view form = "<api>:<size>:<offset>:<hex>";
  const auto api = next_field(text, call, "the API shortcut", form);
  detail::check_handle_shortcut(call, api);
  const auto size =
      detail::parse_decimal(call, "the size", next_field(text, call, "the size", form));
  const auto offset =
      detail::parse_decimal(call, "the offset", next_field(text, call, "the offset", form));
  check_region(call, size, offset);
  if (text.size() % 2 == 0) check_vendor(call, text.size() / 2);
  auto vendor = detail::parse_hex(call, "the vendor handle", text);
  return IpcMemoryHandle(std::string(api), std::move(vendor), static_cast<std::size_t>(size),
                         static_cast<std::size_t>(offset));
}

IpcMemoryHandle IpcMemoryHandle::from_bytes(std::span<const std::byte> bytes) {
  constexpr std::string_view call = "IpcMemoryHandle::from_bytes";
  Reader reader(call, bytes);
  auto api = read_head(reader, call, memory_tag, "a memory handle");
  const auto size = reader.u64("the size");
  const auto offset = reader.u64("the offset");
  check_region(call, size, offset);
  const auto vendor = reader.rest();
  check_vendor(call, vendor.size());
  return IpcMemoryHandle(std::move(api), {vendor.begin(), vendor.end()},
                         static_cast<std::size_t>(size), static_cast<std::size_t>(offset));
}

std::string IpcMemoryHandle::to_string() const {
  std::string text = fmt::format("{}:{}:{}:", api_, size_, offset_);
  detail::append_hex(text, vendor_);
  return text;
}

std::vector<std::byte> IpcMemoryHandle::to_bytes() const {
  std::vector<std::byte> out;
  out.reserve(4 + 1 + api_.size() + 16 + vendor_.size());
  write_head(out, memory_tag, api_);
  write_u64(out, size_);
  write_u64(out, offset_);
  out.insert(out.end(), vendor_.begin(), vendor_.end());
  return out;
}

IpcEventHandle IpcEventHandle::from_parts(std::string_view api_shortcut,
                                          std::span<const std::byte> vendor_handle) {
  constexpr std::string_view call = "IpcEventHandle::from_parts";
  detail::check_handle_shortcut(call, api_shortcut);
  check_vendor(call, vendor_handle.size());
  return IpcEventHandle(std::string(api_shortcut), {vendor_handle.begin(), vendor_handle.end()});
}

IpcEventHandle IpcEventHandle::from_string(std::string_view text) {
  constexpr std::string_view call = "IpcEventHandle::from_string";
  const auto api = next_field(text, call, "the API shortcut", "<api>:<hex>");
  detail::check_handle_shortcut(call, api);
  if (text.size() % 2 == 0) check_vendor(call, text.size() / 2);
  auto vendor = detail::parse_hex(call, "the vendor handle", text);
  return IpcEventHandle(std::string(api), std::move(vendor));
}

IpcEventHandle IpcEventHandle::from_bytes(std::span<const std::byte> bytes) {
  constexpr std::string_view call = "IpcEventHandle::from_bytes";
  Reader reader(call, bytes);
  auto api = read_head(reader, call, event_tag, "an event handle");
  const auto vendor = reader.rest();
  check_vendor(call, vendor.size());
  return IpcEventHandle(std::move(api), {vendor.begin(), vendor.end()});
}

std::string IpcEventHandle::to_string() const {
  std::string text = api_ + ':';
  detail::append_hex(text, vendor_);
  return text;
}

std::vector<std::byte> IpcEventHandle::to_bytes() const {
  std::vector<std::byte> out;
  out.reserve(4 + 1 + api_.size() + vendor_.size());
  write_head(out, event_tag, api_);
  out.insert(out.end(), vendor_.begin(), vendor_.end());
  return out;
}

}  // namespace plinth
