#include "memory/context_pools.hpp"

#include "diagnostics/debug.hpp"
#include "runtime/env_values.hpp"

#include <cstdlib>
#include <limits>

namespace plinth::detail {

MemoryPoolSettings memory_pool_settings_from(
    const std::function<const char*(const char*)>& getenv) {
  MemoryPoolSettings settings;
  if (const char* value = getenv("PLINTH_MEMORY_POOL"); value != nullptr && *value != '\0') {
    const std::string_view text(value);
    if (means_off(text)) {
      settings.enabled = false;
    } else if (text != "on" && text != "ON" && text != "1" && text != "true") {
      warn(
          fmt::format("PLINTH_MEMORY_POOL='{}' is neither off (off, 0, false, none) nor on; the "
                      "memory pool stays on",
                      text));
    }
  }
  if (const char* value = getenv("PLINTH_MEMORY_POOL_LIMIT"); value != nullptr && *value != '\0') {
    std::uint64_t bytes = 0;
    if (parse_byte_size(value, bytes) && bytes <= std::numeric_limits<std::size_t>::max()) {
      settings.limit = static_cast<std::size_t>(bytes);
    } else {
      warn(
          fmt::format("PLINTH_MEMORY_POOL_LIMIT='{}' is not a byte count (digits, optionally "
                      "followed by K, M or G); the memory pool has no limit",
                      value));
    }
  }
  return settings;
}

std::shared_ptr<ContextPools> make_context_pools(
    const std::shared_ptr<backend::ContextAdapter>& adapter,
    const std::vector<std::size_t>& alignments, const std::shared_ptr<const void>& plugin) {
  auto pools = std::make_shared<ContextPools>();
  pools->settings =
      memory_pool_settings_from([](const char* name) { return ::secure_getenv(name); });
  if (!pools->settings.enabled) return pools;
  for (std::size_t i = 0; i < alignments.size(); ++i) {
    pools->devices.push_back(
        std::make_shared<DevicePool>(adapter, i, alignments[i], plugin, pools->settings.limit));
  }
  return pools;
}

}  // namespace plinth::detail
