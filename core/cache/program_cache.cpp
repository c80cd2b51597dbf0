#include "cache/program_cache.hpp"

#include "cache/cache_key.hpp"
#include "cache/cache_settings.hpp"
#include "cache/disk_cache.hpp"
#include "cache/memory_cache.hpp"
#include "cache/program_cache_state.hpp"
#include "diagnostics/debug.hpp"

#include <plinth/backend/abi_version.hpp>
#include <plinth/errors.hpp>
#include <plinth/version.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <optional>
#include <string>
#include <vector>

namespace plinth::detail {

namespace {

/// The key of the binary that `input` with `options` builds for `device` of `api`; nullopt
/// when the device has no compiler identity (its binaries are not to be reused).
std::optional<CacheKey> device_key(const LoadedApi& api, const Device& device,
                                   const backend::ProgramInput& input,
                                   const backend::BuildOptions& options) {
  const DeviceData& data = device_data(device);
  if (data.compiler_identity.empty()) return std::nullopt;
  const PlatformData& platform = platform_data(device.platform());
  CacheKeyHasher hasher;
  hasher.add("plinth compiled-program cache key 1")
      .add(fmt::format("plinth {}.{}.{}, SDK {}.{}", PLINTH_VERSION_MAJOR, PLINTH_VERSION_MINOR,
                       PLINTH_VERSION_PATCH, PLINTH_ABI_MAJOR, PLINTH_ABI_MINOR))
      .add(api.name)
      .add(static_cast<std::uint64_t>(api.abi_minor))
      .add(platform.name)
      .add(platform.vendor)
      .add(platform.version)
      .add(data.name)
      .add(data.params.driver_version)
      .add(data.params.compute_capability)
      .add(data.compiler_identity)
      .add(input.prelude)
      .add(input.source)
      .add(std::uint64_t{options.fast_math})
      .add(static_cast<std::uint64_t>(options.compiler_options.size()));
  for (const auto& option : options.compiler_options) hasher.add(option);
  hasher.add(static_cast<std::uint64_t>(options.constant_arrays.size()));
  for (const auto& array : options.constant_arrays) {
    hasher.add(array.name)
        .add(array.ctype)
        .add(static_cast<std::uint64_t>(array.length))
        .add(static_cast<std::uint64_t>(array.itemsize));
  }
  return hasher.key();
}

std::optional<std::vector<std::byte>> lookup(ProgramCacheState& cache, const CacheKey& key) {
  if (cache.disk) {
    bool rejected = false;
    auto found = cache.disk->read(key, &rejected);
    if (rejected) ++cache.rejected;
    return found;
  }
  return cache.memory.find(key);
}

void forget(ProgramCacheState& cache, const CacheKey& key) {
  if (cache.disk) {
    cache.disk->remove(key);
  } else {
    cache.memory.remove(key);
  }
}

/// Stores the binaries of `program` (one per key) where the cache keeps them.
void store(ProgramCacheState& cache, const LoadedApi& api, backend::ProgramAdapter& program,
           const std::vector<CacheKey>& keys) {
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (std::find(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(i), keys[i]) !=
        keys.begin() + static_cast<std::ptrdiff_t>(i)) {
      continue;  // stored for an earlier device with an equal identity
    }
    std::vector<std::byte> binary;
    try {
      binary = program.binary(i);
    } catch (const std::exception& e) {
      debug(DebugTopic::cache, "{} program binary of device {}: not stored: {}", api.name, i,
            e.what());
      return;
    }
    if (binary.empty()) {
      debug(DebugTopic::cache, "{} hands out no program binaries: not cached", api.name);
      return;
    }
    if (cache.disk) {
      if (cache.disk->write(keys[i], binary)) ++cache.stored;
    } else {
      cache.memory.insert(keys[i], binary);
      ++cache.stored;
    }
  }
}

}  // namespace

namespace {

/// Compiles the part and stores its binaries under `keys` (when there are any).
std::shared_ptr<backend::ProgramAdapter> compile_and_store(
    const LoadedApi& api, const BoundMultiDevice& devices,
    std::span<const std::size_t> context_indices, const backend::ProgramInput& input,
    const backend::BuildOptions& options, const std::vector<CacheKey>& keys) {
  auto& context = *detail::Access::impl(devices.context())->adapter;
  auto& cache = program_cache_state();
  auto program = api.adopt(context.create_program(context_indices, input, options));
  ++cache.compiled;
  if (keys.empty()) return program;
  try {
    store(cache, api, *program, keys);
  } catch (const std::exception& e) {
    debug(DebugTopic::cache, "the program's binaries were not stored: {}", e.what());
  }
  return program;
}

}  // namespace

CachedProgram create_program_cached(const LoadedApi& api, const BoundMultiDevice& devices,
                                    std::span<const std::size_t> slots,
                                    std::span<const std::size_t> context_indices,
                                    const backend::ProgramInput& input,
                                    const backend::BuildOptions& options) {
  auto& context = *detail::Access::impl(devices.context())->adapter;
  auto& cache = program_cache_state();
  auto compile = [&]() -> CachedProgram {
    return {compile_and_store(api, devices, context_indices, input, options, {}), {}};
  };
  const bool reloadable = (api.adapter->program_inputs() &
                           static_cast<unsigned>(backend::ProgramInputKind::binary)) != 0;
  if (cache.settings.off || !reloadable) return compile();

  std::vector<CacheKey> keys;
  std::vector<std::vector<std::byte>> binaries;
  bool all_found = !options.keep;
  try {
    for (const std::size_t slot : slots) {
      auto key = device_key(api, devices[slot].device(), input, options);
      if (!key) {
        debug(DebugTopic::cache, "{} ('{}') has no compiler identity: not cached", api.name,
              devices[slot].name());
        return compile();
      }
      keys.push_back(*key);
      // Devices with equal identities (two of one kind) share one entry: read it once.
      const auto same = std::find(keys.begin(), keys.end() - 1, *key);
      if (all_found && same != keys.end() - 1) {
        binaries.push_back(binaries[static_cast<std::size_t>(same - keys.begin())]);
      } else if (all_found) {
        auto binary = lookup(cache, *key);
        if (binary) {
          binaries.push_back(std::move(*binary));
        } else {
          all_found = false;
        }
      }
    }
  } catch (const std::exception& e) {
    debug(DebugTopic::cache, "the cache is skipped for this program: {}", e.what());
    return compile();
  }

  if (all_found) {
    std::vector<std::span<const std::byte>> spans(binaries.begin(), binaries.end());
    backend::ProgramInput cached;
    cached.kind = backend::ProgramInputKind::binary;
    cached.binaries = spans;
    try {
      auto program = api.adopt(context.create_program(context_indices, cached, options));
      ++cache.loaded;
      debug(DebugTopic::cache, "{}: a program for {} device(s) created from cached binaries",
            api.name, keys.size());
      // The strings the input views, owned by the rebuild.
      auto rebuild = [&api, devices,
                      context_indices =
                          std::vector<std::size_t>(context_indices.begin(), context_indices.end()),
                      prelude = std::string(input.prelude), source = std::string(input.source),
                      options, keys](const std::string& reason) {
        auto& state = program_cache_state();
        ++state.rejected;
        debug(DebugTopic::cache,
              "{}: the program created from cached binaries {}: removing them, compiling and "
              "storing anew",
              api.name, reason);
        for (const auto& key : keys) forget(state, key);
        backend::ProgramInput again;
        again.kind = backend::ProgramInputKind::source;
        again.prelude = prelude;
        again.source = source;
        return compile_and_store(api, devices, context_indices, again, options, keys);
      };
      return {std::move(program), std::move(rebuild)};
    } catch (const std::exception& e) {
      ++cache.rejected;
      debug(DebugTopic::cache,
            "{} refused the cached binaries ({}): removing them, compiling and storing anew",
            api.name, e.what());
      for (const auto& key : keys) forget(cache, key);
    }
  }

  return {compile_and_store(api, devices, context_indices, input, options, keys), {}};
}

}  // namespace plinth::detail
