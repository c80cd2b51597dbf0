#include <plinth/program.hpp>

#include "cache/program_cache.hpp"
#include "compile/program_recorder.hpp"
#include "diagnostics/debug.hpp"
#include "runtime/impl.hpp"
#include "runtime/kept_directory.hpp"
#include "runtime/launch_shape.hpp"
#include "runtime/program_build.hpp"

#include <plinth/errors.hpp>
#include <plinth/image.hpp>
#include <plinth/render.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string_view>
#include <utility>

namespace plinth {

namespace detail {

const LoadedApi& ProgramImpl::api() const { return loaded(devices.context().api()); }

bool ProgramImpl::rebuild_from_source(std::size_t slot, const std::string& reason) {
  const std::lock_guard lock(*parts_mutex);
  auto& part = parts[slot_refs[slot].part];
  if (!part.rebuild) return false;
  const auto rebuild = std::move(part.rebuild);
  part.rebuild = nullptr;  // once, even when compiling fails
  auto rebuilt = rebuild(reason);
  part.replaced.push_back(std::move(part.adapter));
  part.adapter = std::move(rebuilt);
  return true;
}

namespace {

const char* input_name(backend::ProgramInputKind kind) {
  switch (kind) {
    case backend::ProgramInputKind::source: return "source";
    case backend::ProgramInputKind::spirv: return "SPIR-V";
    case backend::ProgramInputKind::binary: return "binaries";
  }
  return "input";
}

/// A program's state before its adapters exist: devices, options and what the core passes.
std::shared_ptr<ProgramImpl> start(const BoundMultiDevice& devices, const ProgramOptions& options,
                                   backend::BuildOptions& build) {
  auto impl = std::make_shared<ProgramImpl>(
      ProgramImpl{devices, {}, {}, {}, {}, {}, std::make_unique<std::mutex>()});
  for (const auto& device : devices) impl->context_indices.push_back(device.index());
  impl->constant_arrays = options.constant_arrays;
  build.fast_math = options.fast_math;
  build.compiler_options = options.compiler_options;
  for (const auto& array : options.constant_arrays) {
    build.constant_arrays.push_back({array.name, array.ctype, array.length, array.itemsize});
  }
  return impl;
}

}  // namespace

Program with_owner(const Program& program, const Context& context) {
  const auto& from = *detail::Access::impl(program);
  std::vector<BoundDevice> devices;
  devices.reserve(from.devices.size());
  for (const auto& device : from.devices)
    devices.push_back(detail::Access::make<BoundDevice>(context, device.index()));
  auto impl = std::make_shared<ProgramImpl>(
      ProgramImpl{detail::Access::make<BoundMultiDevice>(std::move(devices)),
                  from.context_indices,
                  {},
                  from.slot_refs,
                  from.kept_directory,
                  from.constant_arrays,
                  std::make_unique<std::mutex>()});
  {
    const std::lock_guard lock(*from.parts_mutex);
    impl->parts = from.parts;
  }
  return detail::Access::make<Program>(std::move(impl));
}

namespace {

/// The kept files of one part of a program built in several: its files' names start with
/// "part<n>-", so that the parts share the program's directory.
class PartKeptFiles final : public backend::KeptFiles {
 public:
  PartKeptFiles(backend::KeptFiles& all, std::size_t part) : all_(all), part_(part) {}
  void write(std::string_view name, std::span<const std::byte> data) override {
    all_.write(fmt::format("part{}-{}", part_, name), data);
  }

 private:
  backend::KeptFiles& all_;
  std::size_t part_;
};

/// Refuses what the backend cannot create programs from.
void check_input(const LoadedApi& api, backend::ProgramInputKind kind) {
  if (api.abi_minor < 1) {
    throw LogicError(fmt::format(
        "{} cannot create programs from {}: its plugin implements SDK 1.0, which builds from "
        "source only (1.1 is needed)",
        api.name, input_name(kind)));
  }
  if ((api.adapter->program_inputs() & static_cast<unsigned>(kind)) == 0) {
    throw LogicError(fmt::format("{} cannot create programs from {}", api.name, input_name(kind)));
  }
}

/// With options.keep, a new kept directory for the program.
std::optional<KeptDirectory> kept_directory(ProgramImpl& impl, const ProgramOptions& options) {
  std::optional<KeptDirectory> kept;
  if (options.keep) {
    kept.emplace();
    impl.kept_directory = kept->path().string();
    debug(DebugTopic::compile, "keeping the source and intermediate files in {}",
          impl.kept_directory);
  }
  return kept;
}

/// Program slots grouped by equal sources: the first slot of each group, in slot order.
std::vector<std::vector<std::size_t>> group_equal(const std::vector<std::string>& sources) {
  std::vector<std::vector<std::size_t>> groups;
  for (std::size_t slot = 0; slot < sources.size(); ++slot) {
    auto group = std::find_if(groups.begin(), groups.end(),
                              [&](const auto& g) { return sources[g.front()] == sources[slot]; });
    if (group == groups.end()) {
      groups.push_back({slot});
    } else {
      group->push_back(slot);
    }
  }
  return groups;
}

}  // namespace

std::shared_ptr<ProgramImpl> build_program(const BoundMultiDevice& devices,
                                           const ProgramSource& template_source,
                                           const ProgramOptions& options,
                                           const std::vector<RenderGlobals>& extra_globals) {
  if (options.render_globals.contains(device_params_global)) {
    throw LogicError(
        fmt::format("The global name '{}' is reserved: plinth binds it to the parameters of "
                    "the device each source is rendered for",
                    device_params_global));
  }
  // Each device's source, rendered with its own parameters (and the caller's extras).
  std::vector<std::string> sources;
  sources.reserve(devices.size());
  for (std::size_t slot = 0; slot < devices.size(); ++slot) {
    RenderGlobals globals = options.render_globals;
    globals.emplace(device_params_global,
                    to_render_value(devices[slot].params(), devices[slot].features()));
    if (slot < extra_globals.size()) {
      for (const auto& [name, value] : extra_globals[slot]) globals.insert_or_assign(name, value);
    }
    sources.push_back(template_source.render(options.render_args, globals));
  }

  backend::BuildOptions build;
  auto impl = start(devices, options, build);
  const auto& api = impl->api();
  const std::string prelude =
      options.no_prelude ? std::string() : api.adapter->prelude(options.fast_math);
  const auto groups = group_equal(sources);
  impl->slot_refs.resize(devices.size());
  if (api.abi_minor >= 1) check_input(api, backend::ProgramInputKind::source);
  auto kept = kept_directory(*impl, options);
  for (std::size_t part = 0; part < groups.size(); ++part) {
    const auto& group = groups[part];
    const std::string& source = sources[group.front()];
    std::vector<std::size_t> context_indices;
    for (std::size_t i = 0; i < group.size(); ++i) {
      impl->slot_refs[group[i]] = {part, i};
      context_indices.push_back(impl->context_indices[group[i]]);
    }
    auto& added = impl->parts.emplace_back();
    added.source = options.no_prelude ? source : prelude + "\n" + source;
    debug(DebugTopic::compile, "building a program of {} bytes for {} device(s) of {}",
          added.source.size(), group.size(), api.name);
    if (api.abi_minor >= 1) {
      backend::ProgramInput input;
      input.kind = backend::ProgramInputKind::source;
      input.prelude = prelude;
      input.source = source;
      std::optional<PartKeptFiles> part_kept;
      if (kept && groups.size() > 1) part_kept.emplace(*kept, part);
      build.keep = part_kept ? static_cast<backend::KeptFiles*>(&*part_kept)
                   : kept    ? static_cast<backend::KeptFiles*>(&*kept)
                             : nullptr;
      // From the compiled-program cache where it has every device's binary (cache/).
      auto cached = create_program_cached(api, devices, group, context_indices, input, build);
      added.adapter = std::move(cached.adapter);
      added.rebuild = std::move(cached.rebuild);
    } else {
      // SDK 1.0: the joined source, and the backend writes the kept files itself.
      if (kept) {
        build.keep_dir = kept->path();
        if (groups.size() > 1) {
          build.keep_dir /= fmt::format("part{}", part);
          std::filesystem::create_directory(build.keep_dir);
        }
      }
      added.adapter =
          api.adopt(adapter(devices.context()).build_program(context_indices, added.source, build));
    }
    record_program(api.id.shortcut, source, options);  // PLINTH_RECORD_PROGRAMS, for CI
  }
  return impl;
}

namespace {

std::shared_ptr<ProgramImpl> load(const BoundMultiDevice& devices, backend::ProgramInputKind kind,
                                  std::span<const std::span<const std::byte>> binaries,
                                  const ProgramOptions& options) {
  if (!options.render_args.empty()) {
    throw LogicError(fmt::format("a program from {} takes no render_args", input_name(kind)));
  }
  for (std::size_t i = 0; i < binaries.size(); ++i) {
    if (binaries[i].empty()) {
      throw LogicError(
          fmt::format("a program from {}: {} {} is empty", input_name(kind),
                      kind == backend::ProgramInputKind::spirv ? "the module" : "binary", i));
    }
  }
  backend::BuildOptions build;
  auto impl = start(devices, options, build);
  check_input(impl->api(), kind);
  backend::ProgramInput input;
  input.kind = kind;
  input.binaries = binaries;
  debug(DebugTopic::compile, "creating a program from {} for {} device(s) of {}", input_name(kind),
        devices.size(), impl->api().name);
  auto kept = kept_directory(*impl, options);
  build.keep = kept ? &*kept : nullptr;
  auto& part = impl->parts.emplace_back();
  part.adapter = impl->api().adopt(
      adapter(devices.context()).create_program(impl->context_indices, input, build));
  for (std::size_t slot = 0; slot < devices.size(); ++slot) impl->slot_refs.push_back({0, slot});
  return impl;
}

/// How kernel `adapter` takes dynamic local memory: declared from SDK 1.1; for 1.0, what the
/// core assumed then (a trailing local pointer is bound by the backend).
backend::DynamicLocalMemory dynamic_local_of(const LoadedApi& api,
                                             const backend::KernelAdapter& adapter) {
  if (api.abi_minor >= 1) return adapter.dynamic_local_memory();
  const auto params = adapter.parameters();
  return !params.empty() && params.back().kind == backend::ParamKind::local_ptr
             ? backend::DynamicLocalMemory::last_parameter
             : backend::DynamicLocalMemory::launch_parameter;
}

std::vector<std::size_t> slots_of(const ProgramImpl& program) {
  std::vector<std::size_t> slots(program.devices.context().unbound_devices().size(),
                                 static_cast<std::size_t>(-1));
  for (std::size_t slot = 0; slot < program.context_indices.size(); ++slot) {
    slots[program.context_indices[slot]] = slot;
  }
  return slots;
}

}  // namespace

std::shared_ptr<KernelImpl> make_kernel(const Program& program, const std::string& name) {
  auto impl = std::make_shared<KernelImpl>(KernelImpl{program, name, {}, {}, nullptr});
  const auto& p = *detail::Access::impl(program);
  impl->slots.reserve(p.context_indices.size());
  for (std::size_t slot = 0; slot < p.context_indices.size(); ++slot) {
    auto& kernel = impl->slots.emplace_back();
    try {
      kernel.adapter = p.api().adopt(p.adapter(slot).create_kernel(p.adapter_slot(slot), name));
    } catch (const LogicError& e) {
      // A program from the compiled-program cache without the kernel is another program's
      // binary under this program's key (a damaged cache): compiled anew, it has the kernel.
      if (!detail::Access::impl(program)->rebuild_from_source(
              slot, fmt::format("lacks kernel '{}' ({})", name, e.what())))
        throw;
      kernel.adapter = p.api().adopt(p.adapter(slot).create_kernel(p.adapter_slot(slot), name));
    }
    kernel.dynamic_local = dynamic_local_of(p.api(), *kernel.adapter);
    kernel.params = kernel.adapter->parameters();
  }
  impl->slot_of_context_device = slots_of(p);
  return impl;
}

namespace {

const char* kind_name(backend::ParamKind kind) {
  switch (kind) {
    case backend::ParamKind::global_ptr: return "a global pointer";
    case backend::ParamKind::constant_ptr: return "a constant pointer";
    case backend::ParamKind::local_ptr: return "a local pointer";
    case backend::ParamKind::scalar: return "a scalar";
    case backend::ParamKind::unknown: return "a parameter";
    case backend::ParamKind::image: return "an image";
    case backend::ParamKind::sampler: return "a sampler";
  }
  return "a parameter";
}

[[noreturn]] void bad_argument(const KernelImpl& kernel, std::size_t index,
                               const backend::ParamInfo& param, const std::string& problem) {
  std::string declared;
  if (!param.type_name.empty() || !param.name.empty()) {
    declared = fmt::format(" ('{}{}{}')", param.type_name,
                           param.type_name.empty() || param.name.empty() ? "" : " ", param.name);
  }
  throw LogicError(
      fmt::format("kernel '{}': argument {}{}: {}", kernel.name, index, declared, problem));
}

const char* pass_what(backend::ParamKind kind) {
  return kind == backend::ParamKind::image     ? "an Image"
         : kind == backend::ParamKind::sampler ? "a Sampler"
                                               : "a Buffer";
}

/// The image type an OpenCL-style parameter type name ("image2d_t", possibly qualified:
/// "read_only image2d_t") declares, or nothing for a name that names none.
std::optional<ImageType> declared_image_type(std::string_view type_name) {
  static constexpr std::pair<std::string_view, ImageType> names[] = {
      {"image1d_array_t", ImageType::image1d_array},
      {"image2d_array_t", ImageType::image2d_array},
      {"image1d_t", ImageType::image1d},
      {"image2d_t", ImageType::image2d},
      {"image3d_t", ImageType::image3d},
  };
  for (const auto& [name, type] : names) {
    if (type_name.find(name) != std::string_view::npos) return type;
  }
  return std::nullopt;
}

/// An Image or a Sampler argument, checked against `param`: the kind where the backend
/// reports kinds, the image type where it names the declared type, the device (image) or the
/// context (sampler).
backend::ArgValue bind_image_or_sampler(const KernelImpl& kernel, std::size_t index,
                                        const backend::ParamInfo& param, const KernelArg& arg,
                                        const BoundDevice& device) {
  using backend::ParamKind;
  const bool is_image = arg.kind() == KernelArg::Kind::image;
  const auto wanted = is_image ? ParamKind::image : ParamKind::sampler;
  if (param.kind != wanted && param.kind != ParamKind::unknown) {
    bad_argument(kernel, index, param,
                 fmt::format("expected {}{}, got {}", kind_name(param.kind),
                             param.kind == ParamKind::scalar
                                 ? fmt::format(" of {} bytes", param.size)
                                 : fmt::format(" (pass {})", pass_what(param.kind)),
                             is_image ? "an Image" : "a Sampler"));
  }
  if (is_image) {
    const Image& image = *arg.image();
    if (!(image.device() == device)) {
      bad_argument(kernel, index, param,
                   detail::describe_mismatch("Image", image.device(), "queue", device));
    }
    const auto declared = declared_image_type(param.type_name);
    if (!declared && param.type_name.find("image") != std::string::npos) {
      // image1d_buffer_t, depth and multisample images: no plinth Image is one.
      bad_argument(kernel, index, param,
                   fmt::format("the parameter is an {}, which no plinth Image is (an {} was given)",
                               param.type_name, to_string(image.type())));
    }
    if (declared && *declared != image.type()) {
      bad_argument(kernel, index, param,
                   fmt::format("the parameter is an {}, the image an {}", to_string(*declared),
                               to_string(image.type())));
    }
    return detail::Access::adapter(image).kernel_arg();
  }
  const Sampler& sampler = *arg.sampler();
  if (!(sampler.context() == device.context())) {
    bad_argument(kernel, index, param,
                 "the sampler was made for another context than the kernel's");
  }
  return detail::Access::adapter(sampler).kernel_arg();
}

/// Turns `arg` into what the backend takes, checking it against `param`.
backend::ArgValue bind(const KernelImpl& kernel, std::size_t index, const backend::ParamInfo& param,
                       const KernelArg& arg, const BoundDevice& device) {
  using backend::ParamKind;
  backend::ArgValue value{};
  if (param.kind == ParamKind::local_ptr) {
    // Only a trailing LOCAL_MEM_DYNAMIC parameter can have local memory, from the launch's
    // local_mem (prepare_slot() took it off the arguments); no argument fills one.
    bad_argument(kernel, index, param,
                 "a local pointer takes no argument: only a kernel's last parameter can be a "
                 "LOCAL_MEM_DYNAMIC pointer, sized by the local_mem given to prepare()");
  }
  if (arg.kind() == KernelArg::Kind::image || arg.kind() == KernelArg::Kind::sampler) {
    value = bind_image_or_sampler(kernel, index, param, arg, device);
  } else if (arg.kind() == KernelArg::Kind::buffer) {
    const Buffer& buffer = *arg.buffer();
    if (param.kind == ParamKind::scalar || param.kind == ParamKind::image ||
        param.kind == ParamKind::sampler) {
      bad_argument(kernel, index, param,
                   fmt::format("expected {}, got a{}", kind_name(param.kind),
                               arg.is_array() ? "n Array" : " Buffer"));
    }
    if (!(buffer.device() == device)) {
      bad_argument(kernel, index, param,
                   detail::describe_mismatch(arg.is_array() ? "Array" : "Buffer", buffer.device(),
                                             "queue", device));
    }
    try {
      value = detail::Access::adapter(buffer).kernel_arg();
    } catch (const LogicError& e) {  // e.g. an OpenCL region that cannot start where it does
      bad_argument(kernel, index, param, e.what());
    }
  } else {
    if (param.kind == ParamKind::global_ptr || param.kind == ParamKind::constant_ptr ||
        param.kind == ParamKind::image || param.kind == ParamKind::sampler) {
      bad_argument(kernel, index, param,
                   fmt::format("expected {} (pass {}), got a {}-byte scalar", kind_name(param.kind),
                               pass_what(param.kind), arg.size()));
    }
    value = {arg.data(), arg.size()};
  }
  if (param.size != 0 && value.size != param.size) {
    bad_argument(
        kernel, index, param,
        fmt::format("the parameter has {} bytes, the argument {}", param.size, value.size));
  }
  return value;
}

constexpr std::size_t max_args_on_stack = 64;

}  // namespace

namespace {

/// The launch of `kernel` on program slot `slot` with a shape: the shape and how many
/// arguments a launch takes, refusing dynamic local memory that the kernel cannot take.
/// Throws LogicError.
SlotLaunch prepared_launch(const KernelImpl& kernel, std::size_t slot,
                           const std::vector<std::size_t>& global_size,
                           const std::vector<std::size_t>& local_size, std::size_t local_mem) {
  const auto& program = *detail::Access::impl(kernel.program);
  const auto& prepared = kernel.slots[slot];
  SlotLaunch launch;
  launch.shape =
      make_launch_shape(kernel.name, global_size, local_size, local_mem,
                        program.devices[slot].params(), prepared.adapter->max_total_local_size());
  const auto params = prepared.params;
  launch.arg_count = params.size();
  if (local_mem == 0) {
    if (prepared.dynamic_local == backend::DynamicLocalMemory::last_parameter && !params.empty() &&
        params.back().kind == backend::ParamKind::local_ptr) {
      throw LogicError(fmt::format(
          "kernel '{}' ends in a LOCAL_MEM_DYNAMIC parameter ({}): prepare it with local_mem, "
          "the bytes of dynamic local memory it gets",
          kernel.name, params.back().name.empty() ? "a local pointer" : params.back().name));
    }
    return launch;
  }
  switch (prepared.dynamic_local) {
    case backend::DynamicLocalMemory::none:
      throw LogicError(fmt::format("kernel '{}' cannot take dynamic local memory on {} ('{}')",
                                   kernel.name, program.api().name, program.devices[slot].name()));
    case backend::DynamicLocalMemory::launch_parameter: return launch;
    case backend::DynamicLocalMemory::last_parameter: {
      const auto kind = params.empty() ? backend::ParamKind::scalar : params.back().kind;
      if (kind != backend::ParamKind::local_ptr && kind != backend::ParamKind::unknown) {
        throw LogicError(fmt::format(
            "kernel '{}' is given {} bytes of dynamic local memory, so its last parameter must "
            "be a LOCAL_MEM_DYNAMIC pointer; {}",
            kernel.name, local_mem,
            params.empty() ? std::string("it has no parameters")
                           : fmt::format("parameter {} is {}", params.size() - 1,
                                         kind_name(params.back().kind))));
      }
      launch.arg_count = params.size() - 1;
      return launch;
    }
  }
  return launch;
}

}  // namespace

/// Prepares `kernel` on program slot `slot`: its launch shape and how many arguments a launch
/// takes, refusing dynamic local memory that the kernel cannot take.
void prepare_slot(KernelImpl& kernel, std::size_t slot, const std::vector<std::size_t>& global_size,
                  const std::vector<std::size_t>& local_size, std::size_t local_mem) {
  const auto launch = prepared_launch(kernel, slot, global_size, local_size, local_mem);
  kernel.slots[slot].shape = launch.shape;
  kernel.slots[slot].arg_count = launch.arg_count;
}

namespace {

/// Whether `entry` remembers the shape (global_size, local_size, local_mem).
bool same_shape(const LaunchCache::Entry& entry, std::span<const std::size_t> global_size,
                std::span<const std::size_t> local_size, std::size_t local_mem) {
  return entry.last_used != 0 && entry.global_dims == global_size.size() &&
         entry.local_dims == local_size.size() && entry.local_mem == local_mem &&
         std::equal(global_size.begin(), global_size.end(), entry.global.begin()) &&
         std::equal(local_size.begin(), local_size.end(), entry.local.begin());
}

/// The cache's entry for a shape, prepared on every program slot: found (no allocation), or
/// made in place of the least recently used one. Throws LogicError for a bad shape (the
/// entry it was to replace is then forgotten). The caller holds cache.mutex.
const LaunchCache::Entry& remembered_launch(const KernelImpl& kernel, LaunchCache& cache,
                                            std::span<const std::size_t> global_size,
                                            std::span<const std::size_t> local_size,
                                            std::size_t local_mem) {
  LaunchCache::Entry* oldest = &cache.entries.front();
  for (auto& entry : cache.entries) {
    if (same_shape(entry, global_size, local_size, local_mem)) [[likely]] {
      entry.last_used = ++cache.clock;
      return entry;
    }
    if (entry.last_used < oldest->last_used) oldest = &entry;
  }
  // Unseen: prepared as prepare() does, on every device (so a shape that one device refuses
  // throws, as prepare() would).
  auto& entry = *oldest;
  entry.last_used = 0;
  const std::vector<std::size_t> global(global_size.begin(), global_size.end());
  const std::vector<std::size_t> local(local_size.begin(), local_size.end());
  entry.slots.resize(kernel.slots.size());
  for (std::size_t slot = 0; slot < kernel.slots.size(); ++slot) {
    entry.slots[slot] = prepared_launch(kernel, slot, global, local, local_mem);
  }
  // prepared_launch() refused more than 3 dimensions and a local size of other dimensions.
  entry.global_dims = static_cast<std::uint8_t>(global.size());
  entry.local_dims = static_cast<std::uint8_t>(local.size());
  std::copy(global.begin(), global.end(), entry.global.begin());
  std::copy(local.begin(), local.end(), entry.local.begin());
  entry.local_mem = local_mem;
  entry.last_used = ++cache.clock;
  return entry;
}

/// Launches `kernel` on program slot `slot` (the queue's device) with `launch`'s shape,
/// checking `args` against the kernel's parameters. No heap allocation for up to
/// max_args_on_stack arguments. Throws LogicError, BackendError.
void launch_slot(const KernelImpl& kernel, std::size_t slot, const SlotLaunch& launch,
                 const Queue& queue, std::span<const KernelArg> args) {
  const auto& prepared = kernel.slots[slot];
  const auto params = prepared.params;
  if (launch.arg_count != args.size()) [[unlikely]] {
    throw LogicError(fmt::format(
        "kernel '{}' takes {} argument(s){}, {} given", kernel.name, launch.arg_count,
        launch.arg_count != params.size() ? " besides its dynamic local memory" : "", args.size()));
  }
  std::array<backend::ArgValue, max_args_on_stack> on_stack;
  std::vector<backend::ArgValue> on_heap;  // only for kernels with very many parameters
  std::span<backend::ArgValue> values(on_stack.data(), args.size());
  if (args.size() > on_stack.size()) {
    on_heap.resize(args.size());
    values = on_heap;
  }
  const BoundDevice& device = queue.device();
  for (std::size_t i = 0; i < args.size(); ++i) {
    values[i] = bind(kernel, i, params[i], args[i], device);
    if (args[i].kind() == KernelArg::Kind::buffer) note_use(*args[i].buffer(), queue);
  }
  prepared.adapter->launch(detail::Access::adapter(queue), launch.shape, values);
}

}  // namespace

}  // namespace detail

std::string ProgramSource::render(const std::vector<RenderValue>& args,
                                  const RenderGlobals& globals) const {
  return std::visit([&](const auto& source) { return render_source(source, args, globals); },
                    source_);
}

Program::Program(const BoundMultiDevice& devices, const ProgramSource& source,
                 const ProgramOptions& options)
    : impl_(detail::build_program(devices, source, options)) {}

Program::Program(const Context& context, const ProgramSource& source, const ProgramOptions& options)
    : Program(context.devices(), source, options) {}

Program Program::from_binaries(const BoundMultiDevice& devices,
                               const std::vector<std::vector<std::byte>>& binaries,
                               const ProgramOptions& options) {
  if (binaries.size() != devices.size()) {
    throw LogicError(fmt::format("Program::from_binaries: {} binaries for {} device(s)",
                                 binaries.size(), devices.size()));
  }
  std::vector<std::span<const std::byte>> spans(binaries.begin(), binaries.end());
  return Program(detail::load(devices, backend::ProgramInputKind::binary, spans, options));
}

Program Program::from_spirv(const BoundMultiDevice& devices, std::span<const std::byte> spirv,
                            const ProgramOptions& options) {
  const std::array<std::span<const std::byte>, 1> spans{spirv};
  return Program(detail::load(devices, backend::ProgramInputKind::spirv, spans, options));
}

Kernel Program::kernel(const std::string& name) const {
  auto kernel = detail::make_kernel(*this, name);
  kernel->launch_cache = std::make_unique<detail::LaunchCache>();  // Kernel::operator()'s
  return detail::Access::make<Kernel>(std::move(kernel));
}

const std::string& Program::source() const { return impl_->parts.front().source; }

const BoundMultiDevice& Program::devices() const { return impl_->devices; }
const std::string& Program::kept_directory() const { return impl_->kept_directory; }

namespace {

std::size_t program_slot(const detail::ProgramImpl& program, const std::vector<std::size_t>& slots,
                         const BoundDevice& device, const char* what) {
  const std::size_t slot =
      device.context() == program.devices.context() && device.index() < slots.size()
          ? slots[device.index()]
          : static_cast<std::size_t>(-1);
  if (slot == static_cast<std::size_t>(-1)) {
    if (!(device.context() == program.devices.context())) {
      throw LogicError(fmt::format(
          "{}: the queue (or device) belongs to another context than the program: the program "
          "was built in a context of {} device(s) and can run only on queues of that context",
          what, program.devices.context().unbound_devices().size()));
    }
    throw LogicError(fmt::format("{}: device {} ('{}') is not one the program was built for", what,
                                 device.index(), device.name()));
  }
  return slot;
}

}  // namespace

const std::string& Program::source(const BoundDevice& device) const {
  const auto slots = detail::slots_of(*impl_);
  const std::size_t slot = program_slot(*impl_, slots, device, "source");
  return impl_->parts[impl_->slot_refs[slot].part].source;
}

PerDevice<std::string> Program::sources() const {
  PerDevice<std::string> sources;
  for (std::size_t slot = 0; slot < impl_->devices.size(); ++slot) {
    sources.insert(impl_->devices[slot], impl_->parts[impl_->slot_refs[slot].part].source);
  }
  return sources;
}
void Program::set_constant_array(const Queue& queue, const std::string& name,
                                 const Buffer& src) const {
  const auto slots = detail::slots_of(*impl_);
  const std::size_t slot = program_slot(*impl_, slots, queue.device(), "set_constant_array");
  const auto array = std::find_if(impl_->constant_arrays.begin(), impl_->constant_arrays.end(),
                                  [&](const ConstantArray& a) { return a.name == name; });
  if (array == impl_->constant_arrays.end()) {
    throw LogicError(
        fmt::format("set_constant_array: the program declares no constant array '{}'", name));
  }
  if (src.size() != array->length * array->itemsize) {
    throw LogicError(fmt::format("set_constant_array: '{}' has {} bytes, the source {}", name,
                                 array->length * array->itemsize, src.size()));
  }
  if (!(src.device() == queue.device())) {
    throw LogicError("set_constant_array: the source buffer is not on the queue's device");
  }
  detail::note_use(src, queue);
  impl_->adapter(slot).set_constant_array(impl_->adapter_slot(slot), detail::Access::adapter(queue),
                                          name, detail::Access::adapter(src), src.size());
}

std::vector<std::byte> Program::binary(const BoundDevice& device) const {
  const auto slots = detail::slots_of(*impl_);
  const std::size_t slot = program_slot(*impl_, slots, device, "binary");
  const auto& api = impl_->api();
  std::vector<std::byte> binary;
  if (api.abi_minor >= 1) binary = impl_->adapter(slot).binary(impl_->adapter_slot(slot));
  if (binary.empty()) {
    throw LogicError(fmt::format("{} cannot hand out the binaries of its programs{}", api.name,
                                 api.abi_minor >= 1 ? "" : " (its plugin implements SDK 1.0)"));
  }
  return binary;
}

std::uintptr_t Program::native_handle(const BoundDevice& device) const {
  const auto slots = detail::slots_of(*impl_);
  const std::size_t slot = program_slot(*impl_, slots, device, "native_handle");
  return impl_->adapter(slot).native_handle(impl_->adapter_slot(slot));
}

PreparedKernel Kernel::prepare(const std::vector<std::size_t>& global_size,
                               const std::vector<std::size_t>& local_size,
                               std::size_t local_mem) const {
  auto prepared = detail::make_kernel(impl_->program, impl_->name);
  for (std::size_t slot = 0; slot < prepared->slots.size(); ++slot) {
    detail::prepare_slot(*prepared, slot, global_size, local_size, local_mem);
  }
  return detail::Access::make<PreparedKernel>(std::move(prepared));
}

const std::string& Kernel::name() const { return impl_->name; }
const Program& Kernel::program() const { return impl_->program; }

std::vector<std::size_t> Kernel::max_total_local_sizes() const {
  std::vector<std::size_t> sizes;
  for (const auto& slot : impl_->slots) sizes.push_back(slot.adapter->max_total_local_size());
  return sizes;
}

void PreparedKernel::launch(const Queue& queue, std::span<const KernelArg> args) const {
  const auto& kernel = *impl_;
  const BoundDevice& device = queue.device();
  const std::size_t slot = program_slot(*detail::Access::impl(kernel.program),
                                        kernel.slot_of_context_device, device, "kernel call");
  const auto& prepared = kernel.slots[slot];
  if (prepared.shape.dims == 0) [[unlikely]] {  // prepared with per-device global sizes
    throw LogicError(
        fmt::format("kernel '{}' was prepared with no global size for device {} "
                    "('{}')",
                    kernel.name, device.index(), device.name()));
  }
  detail::launch_slot(kernel, slot, {prepared.shape, prepared.arg_count}, queue, args);
}

void Kernel::launch(const Queue& queue, std::span<const std::size_t> global_size,
                    std::span<const std::size_t> local_size,
                    std::span<const KernelArg> args) const {
  const auto& kernel = *impl_;
  std::unique_lock<std::mutex> lock;
  if (kernel.launch_cache) lock = std::unique_lock(kernel.launch_cache->mutex, std::try_to_lock);
  if (!lock.owns_lock()) [[unlikely]] {
    // A copy of this Kernel is launching on another thread (or the Kernel has no cache): a
    // KernelImpl of its own, as prepare() makes.
    prepare(std::vector<std::size_t>(global_size.begin(), global_size.end()),
            std::vector<std::size_t>(local_size.begin(), local_size.end()))
        .launch(queue, args);
    return;
  }
  const auto& launch = detail::remembered_launch(kernel, *kernel.launch_cache, global_size,
                                                 local_size, /*local_mem=*/0);
  const std::size_t slot =
      program_slot(*detail::Access::impl(kernel.program), kernel.slot_of_context_device,
                   queue.device(), "kernel call");
  detail::launch_slot(kernel, slot, launch.slots[slot], queue, args);
}

std::vector<std::size_t> PreparedKernel::global_size(const BoundDevice& device) const {
  const auto slot = program_slot(*detail::Access::impl(impl_->program),
                                 impl_->slot_of_context_device, device, "global_size");
  const auto& shape = impl_->slots[slot].shape;
  return {shape.global.begin(), shape.global.begin() + shape.dims};
}

std::vector<std::size_t> PreparedKernel::local_size(const BoundDevice& device) const {
  const auto slot = program_slot(*detail::Access::impl(impl_->program),
                                 impl_->slot_of_context_device, device, "local_size");
  const auto& shape = impl_->slots[slot].shape;
  return {shape.local.begin(), shape.local.begin() + shape.dims};
}

// ---------------------------------------------------------------------------------------
// Multi-device calls: kernels on a MultiQueue (the templates are in program.hpp).
// ---------------------------------------------------------------------------------------

PreparedKernel Kernel::prepare_per_device(const PerDevice<std::vector<std::size_t>>& global_sizes,
                                          const std::vector<std::size_t>& local_size,
                                          std::size_t local_mem) const {
  auto prepared = detail::make_kernel(impl_->program, impl_->name);
  const auto& program = *detail::Access::impl(impl_->program);
  // dims == 0 marks the devices without a global size; launching on them throws.
  backend::LaunchShape unprepared;
  unprepared.dims = 0;
  for (auto& slot : prepared->slots) slot.shape = unprepared;
  for (const auto& [device, global_size] : global_sizes) {
    const std::size_t slot =
        program_slot(program, prepared->slot_of_context_device, device, "prepare_per_device");
    detail::prepare_slot(*prepared, slot, global_size, local_size, local_mem);
  }
  return detail::Access::make<PreparedKernel>(std::move(prepared));
}

}  // namespace plinth
