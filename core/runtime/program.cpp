#include <plinth/program.hpp>

#include "diagnostics/debug.hpp"
#include "runtime/impl.hpp"
#include "runtime/launch_shape.hpp"

#include <plinth/errors.hpp>
#include <plinth/render.hpp>

#include <fmt/format.h>

#include <array>
#include <cstdlib>
#include <filesystem>

namespace plinth {

namespace detail {

const LoadedApi& ProgramImpl::api() const { return loaded(devices.context().api()); }

namespace {

std::string make_kept_directory() {
  auto pattern = (std::filesystem::temp_directory_path() / "plinth-keep-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw Error(fmt::format("ProgramOptions::keep: cannot create a directory like {}", pattern));
  }
  return pattern;
}

std::shared_ptr<ProgramImpl> build(const BoundMultiDevice& devices,
                                   const ProgramSource& template_source,
                                   const ProgramOptions& options) {
  const std::string source = template_source.render(options.render_args, options.render_globals);
  auto impl = std::make_shared<ProgramImpl>(ProgramImpl{devices, {}, {}, {}, {}, {}});
  const auto& api = impl->api();
  for (const auto& device : devices) impl->context_indices.push_back(device.index());
  impl->source =
      options.no_prelude ? source : api.adapter->prelude(options.fast_math) + "\n" + source;
  impl->constant_arrays = options.constant_arrays;

  backend::BuildOptions build;
  build.fast_math = options.fast_math;
  build.compiler_options = options.compiler_options;
  for (const auto& array : options.constant_arrays) {
    build.constant_arrays.push_back({array.name, array.ctype, array.length, array.itemsize});
  }
  if (options.keep) {
    impl->kept_directory = make_kept_directory();
    build.keep_dir = impl->kept_directory;
    debug(DebugTopic::compile, "keeping the source and intermediate files in {}",
          impl->kept_directory);
  }
  debug(DebugTopic::compile, "building a program of {} bytes for {} device(s) of {}",
        impl->source.size(), devices.size(), api.name);
  impl->adapter = api.adopt(
      adapter(devices.context()).build_program(impl->context_indices, impl->source, build));
  return impl;
}

std::vector<std::size_t> slots_of(const ProgramImpl& program) {
  std::vector<std::size_t> slots(program.devices.context().unbound_devices().size(),
                                 static_cast<std::size_t>(-1));
  for (std::size_t slot = 0; slot < program.context_indices.size(); ++slot) {
    slots[program.context_indices[slot]] = slot;
  }
  return slots;
}

std::shared_ptr<KernelImpl> make_kernel(const Program& program, const std::string& name) {
  auto impl = std::make_shared<KernelImpl>(KernelImpl{program, name, {}, {}, {}});
  const auto& p = *program.impl();
  for (std::size_t slot = 0; slot < p.context_indices.size(); ++slot) {
    impl->adapters.push_back(p.api().adopt(p.adapter->create_kernel(slot, name)));
  }
  impl->slot_of_context_device = slots_of(p);
  return impl;
}

const char* kind_name(backend::ParamKind kind) {
  switch (kind) {
    case backend::ParamKind::global_ptr: return "a global pointer";
    case backend::ParamKind::constant_ptr: return "a constant pointer";
    case backend::ParamKind::local_ptr: return "a local pointer";
    case backend::ParamKind::scalar: return "a scalar";
    case backend::ParamKind::unknown: return "a parameter";
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

/// Turns `arg` into what the backend takes, checking it against `param`.
backend::ArgValue bind(const KernelImpl& kernel, std::size_t index, const backend::ParamInfo& param,
                       const KernelArg& arg, const BoundDevice& device) {
  using backend::ParamKind;
  backend::ArgValue value{};
  if (arg.kind() == KernelArg::Kind::buffer) {
    const Buffer& buffer = *arg.buffer();
    if (param.kind == ParamKind::scalar || param.kind == ParamKind::local_ptr) {
      bad_argument(kernel, index, param,
                   fmt::format("expected {}, got a{}", kind_name(param.kind),
                               arg.is_array() ? "n Array" : " Buffer"));
    }
    if (!(buffer.device() == device)) {
      bad_argument(kernel, index, param,
                   detail::describe_mismatch(arg.is_array() ? "Array" : "Buffer", buffer.device(),
                                             "queue", device));
    }
    value = buffer.adapter().kernel_arg();
  } else {
    if (param.kind == ParamKind::global_ptr || param.kind == ParamKind::constant_ptr ||
        param.kind == ParamKind::local_ptr) {
      bad_argument(kernel, index, param,
                   fmt::format("expected {} (pass a Buffer), got a {}-byte scalar",
                               kind_name(param.kind), arg.size()));
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

}  // namespace detail

std::string ProgramSource::render(const std::vector<RenderValue>& args,
                                  const RenderGlobals& globals) const {
  return std::visit([&](const auto& source) { return render_source(source, args, globals); },
                    source_);
}

Program::Program(const BoundMultiDevice& devices, const ProgramSource& source,
                 const ProgramOptions& options)
    : impl_(detail::build(devices, source, options)) {}

Program::Program(const Context& context, const ProgramSource& source, const ProgramOptions& options)
    : Program(context.devices(), source, options) {}

Kernel Program::kernel(const std::string& name) const {
  return Kernel(detail::make_kernel(*this, name));
}

const std::string& Program::source() const { return impl_->source; }
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
    throw LogicError(fmt::format(
        "{}: device {} ('{}'){} is not one the program was built for", what, device.index(),
        device.name(), device.context() == program.devices.context() ? "" : " of another context"));
  }
  return slot;
}

}  // namespace

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
  impl_->adapter->set_constant_array(slot, queue.adapter(), name, src.adapter(), src.size());
}

std::uintptr_t Program::native_handle(const BoundDevice& device) const {
  const auto slots = detail::slots_of(*impl_);
  return impl_->adapter->native_handle(program_slot(*impl_, slots, device, "native_handle"));
}

PreparedKernel Kernel::prepare(const std::vector<std::size_t>& global_size,
                               const std::vector<std::size_t>& local_size,
                               std::size_t local_mem) const {
  auto prepared = detail::make_kernel(impl_->program, impl_->name);
  const auto& program = *impl_->program.impl();
  for (std::size_t slot = 0; slot < prepared->adapters.size(); ++slot) {
    prepared->shapes.push_back(detail::make_launch_shape(
        impl_->name, global_size, local_size, local_mem, program.devices[slot].params(),
        prepared->adapters[slot]->max_total_local_size()));
  }
  return PreparedKernel(std::move(prepared));
}

const std::string& Kernel::name() const { return impl_->name; }
const Program& Kernel::program() const { return impl_->program; }

std::vector<std::size_t> Kernel::max_total_local_sizes() const {
  std::vector<std::size_t> sizes;
  for (const auto& adapter : impl_->adapters) sizes.push_back(adapter->max_total_local_size());
  return sizes;
}

void PreparedKernel::launch(const Queue& queue, std::span<const KernelArg> args) const {
  const auto& kernel = *impl_;
  const BoundDevice& device = queue.device();
  const std::size_t slot =
      program_slot(*kernel.program.impl(), kernel.slot_of_context_device, device, "kernel call");
  auto& adapter = *kernel.adapters[slot];
  const auto& shape = kernel.shapes[slot];
  if (shape.dims == 0) [[unlikely]] {  // prepared with per-device global sizes, not this one
    throw LogicError(
        fmt::format("kernel '{}' was prepared with no global size for device {} "
                    "('{}')",
                    kernel.name, device.index(), device.name()));
  }
  const auto params = adapter.parameters();
  // With dynamic local memory, OpenCL binds a trailing local pointer parameter itself.
  const bool trailing_local = shape.local_mem > 0 && params.size() == args.size() + 1 &&
                              params.back().kind == backend::ParamKind::local_ptr;
  if (params.size() != args.size() && !trailing_local) {
    throw LogicError(fmt::format("kernel '{}' takes {} argument(s), {} given", kernel.name,
                                 params.size(), args.size()));
  }
  std::array<backend::ArgValue, detail::max_args_on_stack> on_stack;
  std::vector<backend::ArgValue> on_heap;  // only for kernels with very many parameters
  std::span<backend::ArgValue> values(on_stack.data(), args.size());
  if (args.size() > on_stack.size()) {
    on_heap.resize(args.size());
    values = on_heap;
  }
  for (std::size_t i = 0; i < args.size(); ++i) {
    values[i] = detail::bind(kernel, i, params[i], args[i], device);
  }
  adapter.launch(queue.adapter(), shape, values);
}

std::vector<std::size_t> PreparedKernel::global_size(const BoundDevice& device) const {
  const auto slot =
      program_slot(*impl_->program.impl(), impl_->slot_of_context_device, device, "global_size");
  const auto& shape = impl_->shapes[slot];
  return {shape.global.begin(), shape.global.begin() + shape.dims};
}

std::vector<std::size_t> PreparedKernel::local_size(const BoundDevice& device) const {
  const auto slot =
      program_slot(*impl_->program.impl(), impl_->slot_of_context_device, device, "local_size");
  const auto& shape = impl_->shapes[slot];
  return {shape.local.begin(), shape.local.begin() + shape.dims};
}

// ---------------------------------------------------------------------------------------
// Multi-device calls: kernels on a MultiQueue (the templates are in program.hpp).
// ---------------------------------------------------------------------------------------

PreparedKernel Kernel::prepare_per_device(const PerDevice<std::vector<std::size_t>>& global_sizes,
                                          const std::vector<std::size_t>& local_size,
                                          std::size_t local_mem) const {
  auto prepared = detail::make_kernel(impl_->program, impl_->name);
  const auto& program = *impl_->program.impl();
  // dims == 0 marks the devices without a global size; launching on them throws.
  backend::LaunchShape unprepared;
  unprepared.dims = 0;
  prepared->shapes.assign(prepared->adapters.size(), unprepared);
  for (const auto& [device, global_size] : global_sizes) {
    const std::size_t slot =
        program_slot(program, prepared->slot_of_context_device, device, "prepare_per_device");
    prepared->shapes[slot] = detail::make_launch_shape(
        impl_->name, global_size, local_size, local_mem, program.devices[slot].params(),
        prepared->adapters[slot]->max_total_local_size());
  }
  return PreparedKernel(std::move(prepared));
}

}  // namespace plinth
