// CommunicatorId: made by the backend's collectives library, written as
// "<api shortcut>:<hex>" and read back strictly (the text may come from anywhere).
// collectives_support() too: both ask the API's library.

#include "collectives/communicator_impl.hpp"
#include "runtime/handle_text.hpp"
#include "runtime/impl.hpp"

#include <plinth/collectives.hpp>
#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <exception>

namespace plinth {

namespace {

constexpr std::size_t max_id_bytes = 4096;

void check_size(const char* call, std::size_t size) {
  if (size == 0) throw LogicError(fmt::format("{}: the id is empty", call));
  if (size > max_id_bytes) {
    throw LogicError(
        fmt::format("{}: the id has {} bytes, more than {}", call, size, max_id_bytes));
  }
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
  detail::check_handle_shortcut(call, shortcut);
  if (hex.size() % 2 != 0) {
    throw LogicError(
        fmt::format("{}: the id has an odd number ({}) of hex digits", call, hex.size()));
  }
  check_size(call, hex.size() / 2);
  auto bytes = detail::parse_hex(call, "the id", hex);
  return CommunicatorId(std::string(shortcut), std::move(bytes));
}

CommunicatorId CommunicatorId::from_bytes(std::string_view api_shortcut,
                                          std::span<const std::byte> bytes) {
  constexpr const char* call = "CommunicatorId::from_bytes";
  detail::check_handle_shortcut(call, api_shortcut);
  check_size(call, bytes.size());
  return CommunicatorId(std::string(api_shortcut), {bytes.begin(), bytes.end()});
}

std::string CommunicatorId::to_string() const {
  std::string text = api_;
  text += ':';
  detail::append_hex(text, bytes_);
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
