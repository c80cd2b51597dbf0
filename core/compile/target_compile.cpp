#include <plinth/compile.hpp>

#include "compile/program_recorder.hpp"
#include "diagnostics/debug.hpp"
#include "runtime/impl.hpp"
#include "runtime/kept_directory.hpp"
#include "runtime/program_build.hpp"

#include <plinth/errors.hpp>
#include <plinth/printable.hpp>
#include <plinth/render.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <optional>

namespace plinth {

namespace {

/// Whether `name` is a target name the core accepts from a plugin: 1 to 64 characters of
/// letters, digits and _ - . : + (so that it is safe in file names and messages).
bool valid_target_name(std::string_view name) {
  return !name.empty() && name.size() <= 64 && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == '.' || c == ':' || c == '+';
  });
}

/// The loaded API `id`, refusing one that cannot compile for named targets.
std::shared_ptr<detail::LoadedApi> compiling_api(const APIID& id) {
  auto api = detail::find_loaded(id.shortcut);
  if (api->abi_minor < 3) {
    throw LogicError(fmt::format(
        "{} cannot compile for a named target: its plugin implements SDK 1.{}, and compiling "
        "without a device came with SDK 1.3",
        api->name, api->abi_minor));
  }
  return api;
}

/// The plugin's targets, made safe: entries with names outside valid_target_name() are
/// dropped (PLINTH_DEBUG=compile says so), texts made printable.
std::vector<CompileTarget> targets_of(const detail::LoadedApi& api) {
  std::vector<CompileTarget> targets;
  for (auto& t : api.adapter->compile_targets()) {
    if (!valid_target_name(t.name)) {
      detail::debug(detail::DebugTopic::compile,
                    "{} offers a compile target with an unusable name '{}': ignored", api.name,
                    t.name);
      continue;
    }
    t.params.compute_capability = printable(t.params.compute_capability);
    t.params.driver_version.clear();
    DeviceFeatures features;
    if (api.abi_minor >= 5) api.adapter->target_features(t.name, features);
    targets.push_back(CompileTarget{std::move(t.name), printable(t.description),
                                    valid_target_name(t.extension) ? t.extension : "bin",
                                    std::move(t.params), std::move(features)});
  }
  if (targets.empty()) {
    throw LogicError(fmt::format("{} cannot compile for a named target: it offers none", api.name));
  }
  return targets;
}

std::string names_of(const std::vector<CompileTarget>& targets) {
  std::string names;
  for (const auto& t : targets) names += (names.empty() ? "" : ", ") + t.name;
  return names;
}

}  // namespace

std::vector<CompileTarget> compile_targets(const APIID& api) {
  return targets_of(*compiling_api(api));
}

TargetBinary compile_for_target(const APIID& id, std::string_view target,
                                const ProgramSource& source, const ProgramOptions& options) {
  const auto api = compiling_api(id);
  const auto targets = targets_of(*api);
  const auto found = std::find_if(targets.begin(), targets.end(),
                                  [&](const CompileTarget& t) { return t.name == target; });
  if (found == targets.end()) {
    throw LogicError(fmt::format("{} has no compile target '{}'; it offers: {}", api->name,
                                 printable(target), names_of(targets)));
  }
  if (options.render_globals.contains(detail::device_params_global)) {
    throw LogicError(
        fmt::format("The global name '{}' is reserved: plinth binds it to the parameters of "
                    "the target the source is rendered for",
                    detail::device_params_global));
  }
  RenderGlobals globals = options.render_globals;
  globals.emplace(detail::device_params_global, to_render_value(found->params, found->features));
  const std::string rendered = source.render(options.render_args, globals);

  backend::BuildOptions build;
  build.fast_math = options.fast_math;
  build.compiler_options = options.compiler_options;
  for (const auto& array : options.constant_arrays) {
    build.constant_arrays.push_back({array.name, array.ctype, array.length, array.itemsize});
  }
  const std::string prelude =
      options.no_prelude ? std::string() : api->adapter->prelude(options.fast_math);
  backend::ProgramInput input;
  input.kind = backend::ProgramInputKind::source;
  input.prelude = prelude;
  input.source = rendered;

  TargetBinary result;
  std::optional<detail::KeptDirectory> kept;
  if (options.keep) {
    kept.emplace();
    result.kept_directory = kept->path().string();
    build.keep = &*kept;
  }
  detail::debug(detail::DebugTopic::compile, "compiling a program of {} bytes for {} target {}",
                rendered.size(), api->name, found->name);
  auto compiled = api->adapter->compile_for_target(found->name, input, build);
  if (compiled.binary.empty()) {
    throw Error(
        fmt::format("{}'s plugin compiled for {} but returned no binary", api->name, found->name));
  }
  result.api = api->id;
  result.target = found->name;
  result.extension = found->extension;
  result.binary = std::move(compiled.binary);
  result.log = std::move(compiled.log);
  result.source = options.no_prelude ? rendered : prelude + "\n" + rendered;
  return result;
}

}  // namespace plinth
