#pragma once

#include <plinth/context.hpp>
#include <plinth/detail/access.hpp>
#include <plinth/export.hpp>
#include <plinth/kernel_arg.hpp>
#include <plinth/per_device.hpp>
#include <plinth/queue.hpp>
#include <plinth/template.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

namespace plinth {

namespace detail {
struct ProgramImpl;
struct KernelImpl;
}  // namespace detail

/// A constant-memory array a program declares (see Program::set_constant_array).
struct ConstantArray {
  std::string name;          ///< the array's name in the source
  std::string ctype;         ///< element C type, e.g. "float"
  std::size_t length = 0;    ///< elements
  std::size_t itemsize = 0;  ///< bytes per element
};

/// What a Program is built from: source text or a template, rendered with
/// ProgramOptions::render_args and render_globals before it is compiled (so `${name}`
/// placeholders and Modules work in every form; plain source renders to itself).
class PLINTH_EXPORT ProgramSource {
 public:
  /// Source text, rendered as Template::from_string(text): its `<%def>`s are available.
  ProgramSource(std::string text) : source_(std::move(text)) {}  // NOLINT: implicit by design
  /// As above.
  ProgramSource(const char* text) : source_(std::string(text)) {}  // NOLINT
  /// A template's top-level text (its defs are available to it).
  ProgramSource(Template tmpl) : source_(std::move(tmpl)) {}  // NOLINT
  /// A def, rendered with render_args bound to its parameters.
  ProgramSource(DefTemplate def) : source_(std::move(def)) {}  // NOLINT

  /// The final source. Throws RenderError.
  std::string render(const std::vector<RenderValue>& args, const RenderGlobals& globals) const;

 private:
  std::variant<std::string, Template, DefTemplate> source_;
};

/// How a Program is built.
struct ProgramOptions {
  /// Do not prepend the backend's prelude (KERNEL, GLOBAL_MEM, ... are then undefined).
  bool no_prelude = false;
  /// Let the compiler trade accuracy for speed; defines PLINTH_FAST_MATH in the prelude.
  bool fast_math = false;
  /// Passed to the backend's compiler as they are, except where plinth starts a compiler
  /// process itself (Level Zero runs clang-15 to make SPIR-V): there only the options on that
  /// API's allow-list are taken (<plinth/backend/compiler_option_allow_list.hpp>: -D/-U macros,
  /// -cl-* options, -w and -W<warning>), and any other option (-fplugin=, -Xclang, -I,
  /// -include, `@file`...) is a LogicError before the compiler starts. `plinth-compile --job`
  /// applies the same lists to the options of a job file, for every API.
  std::vector<std::string> compiler_options;
  /// Keep the source and the compiler's intermediate files in a new temporary directory,
  /// whose path Program::kept_directory() returns (and PLINTH_DEBUG=compile prints).
  bool keep = false;
  /// Constant-memory arrays the program declares (CUDA: __constant__ globals).
  std::vector<ConstantArray> constant_arrays;
  /// Bound to the parameters of a DefTemplate source (must be empty for other sources).
  std::vector<RenderValue> render_args;
  /// Names a template's placeholders may use, besides its parameters and defs.
  RenderGlobals render_globals;
};

class Kernel;
class PreparedKernel;

/// Source code built for some devices of a context. Cheap to copy (shared handle).
class PLINTH_EXPORT Program {
 public:
  /// Renders `source` with options.render_args and render_globals, then builds it for
  /// `devices` (the backend's prelude first, unless options.no_prelude). The source is
  /// rendered for each device with one more global, `device_params`: that device's
  /// DeviceParameters (`${device_params.max_total_local_size}`, `${device_params.warp_size}`,
  /// ...), so one template adapts to every device; devices whose sources come out equal share
  /// one compilation. Compiled programs are cached (PLINTH_CACHE_DIR; program_cache.hpp): a
  /// build that was done before, in this process or another, on a device with the same
  /// compiler identity loads the binary instead of compiling (not with options.keep, which
  /// needs the compiler's files); a cache problem never fails a build.
  /// Throws LogicError if render_globals has a `device_params` of its own,
  /// RenderError, or CompileError with the compiler's log, the options and the numbered
  /// source.
  Program(const BoundMultiDevice& devices, const ProgramSource& source,
          const ProgramOptions& options = {});
  /// Builds for every device of `context`.
  Program(const Context& context, const ProgramSource& source, const ProgramOptions& options = {});

  /// Recreates a program from binaries that binary() returned, one per device of `devices`
  /// in order, without compiling (PyCUDA's module_from_buffer). `options` supplies the
  /// constant arrays the program declares and `keep`; render and compiler options are not
  /// used. Throws LogicError when the backend cannot load binaries (its plugin implements
  /// SDK 1.0, or it has none) or for a count mismatch, or an empty binary; CompileError,
  /// naming the device, for a binary the device cannot load (e.g. built for another
  /// architecture, or not a binary at all). A truncated or corrupted binary is refused
  /// before the vendor's loader sees it: each backend checks its own container (PoCL's
  /// program binaries, NVIDIA's PTX, CUDA and HIP ELF images, SPIR-V); a binary for an OpenCL
  /// implementation plinth does not know is passed on unchecked.
  static Program from_binaries(const BoundMultiDevice& devices,
                               const std::vector<std::vector<std::byte>>& binaries,
                               const ProgramOptions& options = {});
  /// Creates a program from one SPIR-V module for every device of `devices`. Throws
  /// LogicError when the backend takes no SPIR-V, CompileError when a device refuses it.
  static Program from_spirv(const BoundMultiDevice& devices, std::span<const std::byte> spirv,
                            const ProgramOptions& options = {});

  /// The kernel `name`. Throws LogicError if the program has no such kernel. A program
  /// built from the compiled-program cache that lacks it (a damaged cache holding another
  /// program's binary) is first compiled again from its source, its cache entries replaced:
  /// then what compiling throws (CompileError, BackendError) may come from here too.
  Kernel kernel(const std::string& name) const;
  /// The full source as compiled (rendered, prelude included) for the program's first
  /// device; empty for a program from binaries or SPIR-V.
  const std::string& source() const;
  /// The source as compiled for `device` (sources differ between devices whose parameters
  /// differ, when the template uses `device_params`). Throws LogicError for a device the
  /// program was not built for.
  const std::string& source(const BoundDevice& device) const;
  /// Every device's source as compiled.
  PerDevice<std::string> sources() const;
  /// The devices the program was built for.
  const BoundMultiDevice& devices() const;
  /// Where `keep` left the files; empty unless ProgramOptions::keep.
  const std::string& kept_directory() const;
  /// Copies `src` (exactly the array's size in bytes) into constant array `name` on `queue`'s
  /// device. Throws LogicError for an unknown name or a size mismatch.
  void set_constant_array(const Queue& queue, const std::string& name, const Buffer& src) const;
  /// cl_program, CUmodule, ... of `device`. Throws LogicError for a device not built for.
  std::uintptr_t native_handle(const BoundDevice& device) const;
  /// The program's binary for `device` (a cubin, an OpenCL program binary, ...), which
  /// from_binaries() takes back. Throws LogicError for a device not built for, or when the
  /// backend cannot hand out binaries; BackendError.
  std::vector<std::byte> binary(const BoundDevice& device) const;

  ///@{
  /// Copies share the object. Moving copies too (there are no move operations), so a
  /// moved-from Program still refers to its object and every call on it is defined.
  Program(const Program&) = default;
  Program& operator=(const Program&) = default;
  ~Program() = default;
  ///@}

 private:
  friend struct detail::Access;

  explicit Program(std::shared_ptr<detail::ProgramImpl> impl) : impl_(std::move(impl)) {}
  const std::shared_ptr<detail::ProgramImpl>& impl() const { return impl_; }

  std::shared_ptr<detail::ProgramImpl> impl_;
};

/// A kernel of a program, callable on any of the program's devices. Calls on one Kernel
/// object must not overlap in time (prepare() one PreparedKernel per thread instead). Copies
/// share the shapes operator() remembers; calls on different copies may overlap (a call that
/// finds the shared shapes in use on another thread prepares its own, as prepare() does).
class PLINTH_EXPORT Kernel {
 public:
  /// Fixes the launch shape: `global_size` work items (1 to 3 dimensions, dimension 0 is
  /// get_global_id(0)), `local_size` per group (empty: chosen automatically, dividing the
  /// global size and within the device's and kernel's limits), `local_mem` bytes of dynamic
  /// local memory. Throws LogicError if a local size does not divide the global size or
  /// exceeds a limit.
  PreparedKernel prepare(const std::vector<std::size_t>& global_size,
                         const std::vector<std::size_t>& local_size = {},
                         std::size_t local_mem = 0) const;

  /// Prepares and launches in one go on `queue` (see prepare() and PreparedKernel). The
  /// last few launch shapes are remembered (shared by copies of the Kernel), so a call with
  /// a shape seen before costs about a PreparedKernel call, with no heap allocation inside
  /// plinth. Throws as prepare() and PreparedKernel's call.
  template <class... Args>
  void operator()(const Queue& queue, const std::vector<std::size_t>& global_size,
                  const std::vector<std::size_t>& local_size, const Args&... args) const {
    const std::array<KernelArg, sizeof...(Args)> packed{KernelArg(args)...};
    launch(queue, global_size, local_size, packed);
  }
  /// As above, for sizes written in braces (`kernel(queue, {n}, {}, ...)`): the sizes are
  /// read in place, so the call allocates nothing for them.
  template <class... Args>
  void operator()(const Queue& queue, std::initializer_list<std::size_t> global_size,
                  std::initializer_list<std::size_t> local_size, const Args&... args) const {
    const std::array<KernelArg, sizeof...(Args)> packed{KernelArg(args)...};
    launch(queue, std::span(global_size.begin(), global_size.size()),
           std::span(local_size.begin(), local_size.size()), packed);
  }
  /// As operator(), with the arguments already packed (`local_size` empty: chosen
  /// automatically). Throws as operator().
  void launch(const Queue& queue, std::span<const std::size_t> global_size,
              std::span<const std::size_t> local_size, std::span<const KernelArg> args) const;

  // Multi-device calls (definitions in the "Multi-device calls" block below).
  /// As prepare(), with a global size per device: the PreparedKernel runs only on the
  /// devices of `global_sizes` (a launch on another throws LogicError).
  /// Throws LogicError for a bad shape, or a device the program was not built for.
  PreparedKernel prepare_per_device(const PerDevice<std::vector<std::size_t>>& global_sizes,
                                    const std::vector<std::size_t>& local_size = {},
                                    std::size_t local_mem = 0) const;
  /// Prepares and launches on every queue of `queues` (see PreparedKernel's MultiQueue call),
  /// with the same global size on each device...
  template <class... Args>
  void operator()(const MultiQueue& queues, const std::vector<std::size_t>& global_size,
                  const std::vector<std::size_t>& local_size, const Args&... args) const {
    launch_all(queues, global_size, local_size, args...);
  }
  /// (The same, for sizes written in braces.)
  template <class... Args>
  void operator()(const MultiQueue& queues, std::initializer_list<std::size_t> global_size,
                  std::initializer_list<std::size_t> local_size, const Args&... args) const {
    launch_all(queues, std::span(global_size.begin(), global_size.size()),
               std::span(local_size.begin(), local_size.size()), args...);
  }
  /// ...or with each device's own (prepared afresh at every call: per-device shapes are not
  /// remembered; prepare_per_device() once for a hot loop).
  template <class... Args>
  void operator()(const MultiQueue& queues, const PerDevice<std::vector<std::size_t>>& global_sizes,
                  const std::vector<std::size_t>& local_size, const Args&... args) const;

  /// The kernel's name in the program.
  const std::string& name() const;
  /// The largest work-group size the kernel can run with, per program device.
  std::vector<std::size_t> max_total_local_sizes() const;
  /// The program the kernel belongs to.
  const Program& program() const;

  ///@{
  /// Copies share the object. Moving copies too (there are no move operations), so a
  /// moved-from Kernel still refers to its object and every call on it is defined.
  Kernel(const Kernel&) = default;
  Kernel& operator=(const Kernel&) = default;
  ~Kernel() = default;
  ///@}

 private:
  friend struct detail::Access;

  explicit Kernel(std::shared_ptr<detail::KernelImpl> impl) : impl_(std::move(impl)) {}

  /// The same-size MultiQueue call (definition in the "Multi-device calls" block below).
  template <class... Args>
  void launch_all(const MultiQueue& queues, std::span<const std::size_t> global_size,
                  std::span<const std::size_t> local_size, const Args&... args) const;

  std::shared_ptr<detail::KernelImpl> impl_;
};

/// A kernel with a fixed launch shape: the hot path. Calling it checks the arguments against
/// the kernel's parameters (count; scalar sizes; buffers on the queue's device) and enqueues
/// it, with no heap allocation. Calls on one PreparedKernel must not overlap in time, and
/// copies of a PreparedKernel share its state (the argument block): prepare() one per thread
/// to launch from several threads at once.
class PLINTH_EXPORT PreparedKernel {
 public:
  /// Enqueues the kernel on `queue` with `args` (Buffers and scalars, in parameter order).
  /// Throws LogicError naming the kernel and the argument if they do not match its
  /// parameters, or if the queue is not on a device of the program; BackendError.
  template <class... Args>
  void operator()(const Queue& queue, const Args&... args) const {
    const std::array<KernelArg, sizeof...(Args)> packed{KernelArg(args)...};
    launch(queue, packed);
  }
  /// As operator(), with the arguments already packed.
  void launch(const Queue& queue, std::span<const KernelArg> args) const;

  /// Enqueues the kernel on every queue of `queues`, so that it runs on all their devices
  /// at once. Each argument is, on each device: for a MultiArray, its part on that device;
  /// for a PerDevice<T>, that device's value (a scalar, Buffer or Array); for anything else
  /// (a scalar, Buffer, Array), the argument itself. Each launch goes through the
  /// single-queue call (same checks; no heap allocation).
  /// Throws LogicError if a MultiArray or PerDevice lacks a device of `queues` (before
  /// anything is enqueued), and as the single-queue call (on the first device whose
  /// arguments fail, after the launches on the devices before it).
  template <class... Args>
  void operator()(const MultiQueue& queues, const Args&... args) const;

  ///@{
  /// The global and local sizes on `device` (as chosen, when the local size was automatic).
  std::vector<std::size_t> global_size(const BoundDevice& device) const;
  std::vector<std::size_t> local_size(const BoundDevice& device) const;
  ///@}

  ///@{
  /// Copies share the object. Moving copies too (there are no move operations), so a
  /// moved-from PreparedKernel still refers to its object and every call on it is defined.
  PreparedKernel(const PreparedKernel&) = default;
  PreparedKernel& operator=(const PreparedKernel&) = default;
  ~PreparedKernel() = default;
  ///@}

 private:
  friend struct detail::Access;

  explicit PreparedKernel(std::shared_ptr<detail::KernelImpl> impl) : impl_(std::move(impl)) {}

  std::shared_ptr<detail::KernelImpl> impl_;
};

// ---------------------------------------------------------------------------------------
// Multi-device calls: kernels on a MultiQueue, with MultiArray and PerDevice arguments.
// ---------------------------------------------------------------------------------------

class MultiArray;

namespace detail {

template <class T>
struct is_per_device : std::false_type {};
template <class T>
struct is_per_device<PerDevice<T>> : std::true_type {};

/// What `arg` is on `device`: a MultiArray's part, a PerDevice's value, or `arg` itself.
template <class T>
decltype(auto) argument_on(const T& arg, const BoundDevice& device) {
  if constexpr (std::is_same_v<T, MultiArray> || is_per_device<T>::value) {
    return arg[device];  // a const reference; throws LogicError if the device has none
  } else {
    return (arg);
  }
}

}  // namespace detail

template <class... Args>
void PreparedKernel::operator()(const MultiQueue& queues, const Args&... args) const {
  // Every per-device argument has a value on every device before anything is enqueued.
  for (const auto& queue : queues.queues()) {
    (static_cast<void>(detail::argument_on(args, queue.device())), ...);
  }
  for (const auto& queue : queues.queues()) {
    const std::array<KernelArg, sizeof...(Args)> packed{
        KernelArg(detail::argument_on(args, queue.device()))...};
    launch(queue, packed);
  }
}

template <class... Args>
void Kernel::launch_all(const MultiQueue& queues, std::span<const std::size_t> global_size,
                        std::span<const std::size_t> local_size, const Args&... args) const {
  // As PreparedKernel's MultiQueue call: every per-device argument has a value on every
  // device before anything is enqueued, and the first launch prepares an unseen shape on
  // every device of the program (so a bad shape throws before anything is enqueued too).
  for (const auto& queue : queues.queues()) {
    (static_cast<void>(detail::argument_on(args, queue.device())), ...);
  }
  for (const auto& queue : queues.queues()) {
    const std::array<KernelArg, sizeof...(Args)> packed{
        KernelArg(detail::argument_on(args, queue.device()))...};
    launch(queue, global_size, local_size, packed);
  }
}

template <class... Args>
void Kernel::operator()(const MultiQueue& queues,
                        const PerDevice<std::vector<std::size_t>>& global_sizes,
                        const std::vector<std::size_t>& local_size, const Args&... args) const {
  prepare_per_device(global_sizes, local_size)(queues, args...);
}

}  // namespace plinth
