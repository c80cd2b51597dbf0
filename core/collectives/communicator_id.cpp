// CommunicatorId: made by the backend's collectives library, written as
// "<api shortcut>:<hex>" and read back strictly (the text may come from anywhere).
// collectives_support() too: both ask the API's library.

#include "collectives/communicator_impl.hpp"
#include "runtime/impl.hpp"

#include <plinth/collectives.hpp>
#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <exception>

namespace plinth {

namespace {

constexpr std::size_t max_id_bytes = 4096;
constexpr std::size_t max_shortcut = 64;

bool shortcut_char(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; }

void check_shortcut(const char* call, std::string_view shortcut) {
  if (shortcut.empty()) throw LogicError(fmt::format("{}: the API shortcut is empty", call));
  if (shortcut.size() > max_shortcut) {
    throw LogicError(fmt::format("{}: the API shortcut has {} characters, more than {}", call,
                                 shortcut.size(), max_shortcut));
  }
  for (std::size_t i = 0; i < shortcut.size(); ++i) {
    if (!shortcut_char(shortcut[i])) {
      throw LogicError(fmt::format(
          "{}: character {} of the API shortcut (byte 0x{:02x}) is not one of a-z, 0-9, _", call, i,
          static_cast<unsigned char>(shortcut[i])));
    }
  }
}

void check_size(const char* call, std::size_t size) {
  if (size == 0) throw LogicError(fmt::format("{}: the id is empty", call));
  if (size > max_id_bytes) {
    throw LogicError(
        fmt::format("{}: the id has {} bytes, more than {}", call, size, max_id_bytes));
  }
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

CommunicatorId CommunicatorId::create(const API& api) {
  const auto& loaded = detail::loaded(api);
  const auto library = detail::collectives_library(loaded);
  if (!library.available) {
    throw LogicError(
        detail::no_collectives_library_message("CommunicatorId::create", loaded, library));
  }
  auto bytes = loaded.adapter->create_communicator_id();
  if (bytes.empty() || bytes.size() > max_id_bytes) {
    throw BackendError(loaded.id.shortcut, "create_communicator_id", 0, "bad id",
                       fmt::format("the backend made an id of {} bytes (1 to {} expected)",
                                   bytes.size(), max_id_bytes));
  }
  return CommunicatorId(loaded.id.shortcut, std::move(bytes));
}

CommunicatorId CommunicatorId::from_string(std::string_view text) {
  constexpr const char* call = "CommunicatorId::from_string";
  const auto colon = text.find(':');
  if (colon == std::string_view::npos) {
    throw LogicError(
        fmt::format("{}: no ':' between the API shortcut and the id (\"<api>:<hex>\")", call));
  }
  const auto shortcut = text.substr(0, colon);
  const auto hex = text.substr(colon + 1);
  check_shortcut(call, shortcut);
  if (hex.size() % 2 != 0) {
    throw LogicError(
        fmt::format("{}: the id has an odd number ({}) of hex digits", call, hex.size()));
  }
  check_size(call, hex.size() / 2);
  std::vector<std::byte> bytes(hex.size() / 2);
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    const int high = hex_value(hex[i]);
    const int low = hex_value(hex[i + 1]);
    if (high < 0 || low < 0) {
      const std::size_t bad = high < 0 ? i : i + 1;
      throw LogicError(fmt::format("{}: character {} of the id (byte 0x{:02x}) is not a hex digit",
                                   call, bad, static_cast<unsigned char>(hex[bad])));
    }
    bytes[i / 2] = static_cast<std::byte>(high * 16 + low);
  }
  return CommunicatorId(std::string(shortcut), std::move(bytes));
}

CommunicatorId CommunicatorId::from_bytes(std::string_view api_shortcut,
                                          std::span<const std::byte> bytes) {
  constexpr const char* call = "CommunicatorId::from_bytes";
  check_shortcut(call, api_shortcut);
  check_size(call, bytes.size());
  return CommunicatorId(std::string(api_shortcut), {bytes.begin(), bytes.end()});
}

std::string CommunicatorId::to_string() const {
  static constexpr char digits[] = "0123456789abcdef";
  std::string text = api_;
  text.reserve(api_.size() + 1 + 2 * bytes_.size());
  text += ':';
  for (const auto byte : bytes_) {
    const auto value = std::to_integer<unsigned>(byte);
    text += digits[value >> 4];
    text += digits[value & 15];
  }
  return text;
}

CollectivesSupport collectives_support(const API& api) {
  try {
    const auto library = detail::collectives_library(detail::loaded(api));
    return {library.available, library.description};
  } catch (const std::exception& e) {
    return {false, e.what()};
  } catch (...) {
    return {false, "the backend failed to say"};
  }
}

namespace detail {

backend::CollectivesLibrary collectives_library(const LoadedApi& api) {
  if (api.abi_minor < 4) {
    return {false, fmt::format("the {} plugin is of SDK 1.{}, which has no collectives (1.4 "
                               "added them)",
                               api.id.shortcut, api.abi_minor)};
  }
  return api.adapter->collectives();
}

std::string no_collectives_library_message(std::string_view call, const LoadedApi& api,
                                           const backend::CollectivesLibrary& library) {
  std::string message = fmt::format("{} needs a collectives library, and the {} backend has none",
                                    call, api.id.shortcut);
  if (!library.description.empty() && library.description != backend::no_collectives_library) {
    message += ": " + library.description;
  }
  return message;
}

}  // namespace detail

}  // namespace plinth
