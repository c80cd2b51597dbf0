#pragma once

// Building a Program from a template, shared by Program and StaticKernel: each device's
// source is rendered with its own render globals, and devices whose sources are equal share
// one backend program.

#include "runtime/impl.hpp"

#include <plinth/program.hpp>
#include <plinth/template.hpp>

#include <memory>
#include <vector>

namespace plinth::detail {

/// The render global every Program source sees: the DeviceParameters of the device it is
/// rendered for. A user's global of this name is refused.
inline constexpr const char* device_params_global = "device_params";

/// Renders `source` once per device of `devices` with options.render_args and the globals
/// options.render_globals, device_params (that device's) and `extra_globals[slot]` (when
/// present; they win over the user's), then builds one backend program per distinct source.
/// Throws LogicError for a user global named device_params, RenderError, CompileError.
std::shared_ptr<ProgramImpl> build_program(const BoundMultiDevice& devices,
                                           const ProgramSource& source,
                                           const ProgramOptions& options,
                                           const std::vector<RenderGlobals>& extra_globals = {});

/// A kernel of `program` on each of its devices, not yet prepared. Throws LogicError for a
/// kernel the program does not have; BackendError.
std::shared_ptr<KernelImpl> make_kernel(const Program& program, const std::string& name);

/// Prepares `kernel` on program slot `slot`: its launch shape and how many arguments a launch
/// takes, refusing dynamic local memory that the kernel cannot take. Throws LogicError.
void prepare_slot(KernelImpl& kernel, std::size_t slot, const std::vector<std::size_t>& global_size,
                  const std::vector<std::size_t>& local_size, std::size_t local_mem);

/// `program` with its devices' Context held through `context` (the same context): for a
/// program built with a handle that does not own its context (the kernel store's, see
/// algorithms/kit/kernel_store.hpp) that a user is to keep. The backend programs are shared.
/// Throws nothing but std::bad_alloc.
Program with_owner(const Program& program, const Context& context);

}  // namespace plinth::detail
