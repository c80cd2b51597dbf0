#pragma once

// Small value types shared by the SDK interfaces.

#include <plinth/device_parameters.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::backend {

/// A vendor handle (cl_mem, CUdeviceptr, CUstream, ze_*_handle_t...) as an integer.
using NativeHandle = std::uintptr_t;

/// What a kernel parameter is, as far as the backend can tell.
///
/// A backend that cannot introspect its kernels' parameters (Level Zero reports a count;
/// the CUDA driver reports sizes but not kinds) reports them as `unknown`, with the size
/// where it knows it (0 otherwise). For an `unknown` parameter the core checks only what it
/// can: that there is an argument, that a Buffer argument is on the launch's device, and the
/// size when it is not 0. Either a Buffer (its kernel_arg()) or a scalar's bytes is passed.
enum class ParamKind {
  unknown,       ///< the backend cannot introspect this parameter (see above)
  global_ptr,    ///< a pointer to global memory: takes a Buffer
  constant_ptr,  ///< a pointer to constant memory: takes a Buffer
  /// A pointer to local memory: takes no argument. Only a trailing LOCAL_MEM_DYNAMIC
  /// parameter of a DynamicLocalMemory::last_parameter kernel is usable, and the backend
  /// binds it to LaunchShape::local_mem.
  local_ptr,
  scalar,   ///< a value passed by copy; `size` is its size in bytes
  image,    ///< SDK 1.8: an image (type_name says which: "image2d_t"): takes an Image
  sampler,  ///< SDK 1.8: a sampler: takes a Sampler
};

/// A kernel parameter, as introspected once when the kernel is created.
struct ParamInfo {
  ParamKind kind = ParamKind::unknown;  ///< what the parameter takes

  std::size_t size = 0;   ///< bytes the argument must have (scalars and pointers); 0 if unknown
  std::string type_name;  ///< the declared type, where the backend knows it (for messages)
  std::string name;       ///< the declared name, where the backend knows it (for messages)
};

/// One kernel argument as the backend receives it: `size` bytes at `data`, which stay valid
/// for the duration of the launch call. For a Buffer or Array argument it is the buffer's
/// BufferAdapter::kernel_arg() as returned (an Image's or Sampler's likewise), for a scalar
/// the caller's value. No ArgValue is passed for a local_ptr parameter (see ParamKind). The
/// core keeps up to 64 of them on the stack.
struct ArgValue {
  // No initialisers: the core keeps arrays of these on the launch path.
  const void* data;  ///< the argument's bytes
  std::size_t size;  ///< how many bytes `data` points to
};

/// The shape of a launch: work items in total and per group, dimension 0 varying fastest
/// (get_global_id(0)). `global[d]` is a multiple of `local[d]`; unused dimensions are 1.
struct LaunchShape {
  unsigned dims = 1;                           ///< dimensions used, 1 to 3
  std::array<std::size_t, 3> global{1, 1, 1};  ///< work items in total, per dimension
  std::array<std::size_t, 3> local{1, 1, 1};   ///< work items per group, per dimension
  std::size_t local_mem = 0;  ///< bytes of dynamic local memory (LOCAL_MEM_DYNAMIC)
};

/// A constant-memory array a program declares (ProgramOptions::constant_arrays).
struct ConstantArrayDecl {
  std::string name;          ///< the identifier the source refers to the array by
  std::string ctype;         ///< element C type, e.g. "float"
  std::size_t length = 0;    ///< number of elements
  std::size_t itemsize = 0;  ///< bytes per element
};

class KeptFiles;

/// How to build a program. (Fields are only ever appended, so that a plugin of an older
/// minor version reads the prefix it knows.)
struct BuildOptions {
  /// ProgramOptions::fast_math: applies to compilation, as the backend's compiler offers it
  /// (the prelude then defines PLINTH_FAST_MATH).
  bool fast_math = false;
  /// ProgramOptions::compiler_options, passed to the compiler as they are (unused for
  /// binaries).
  std::vector<std::string> compiler_options;
  /// SDK 1.0 only: when set, leave the source and the compiler's intermediate files in this
  /// directory. Plugins of 1.1 and later get `keep` instead and this stays empty.
  std::filesystem::path keep_dir;
  /// The constant arrays the program declares (ProgramOptions::constant_arrays): a 1.1
  /// backend puts its own declarations of them between the prelude and the source, and
  /// ProgramAdapter::set_constant_array() fills them.
  std::vector<ConstantArrayDecl> constant_arrays;
  /// SDK 1.1: with ProgramOptions::keep, where to leave the source as compiled, the log and
  /// intermediate files (the core writes them); null otherwise.
  KeptFiles* keep = nullptr;
};

/// SDK 1.1: the files a backend leaves for ProgramOptions::keep (BuildOptions::keep). The
/// core owns the directory and does the writing, so that every backend's files land the same
/// way: it creates the directory (mkdtemp, mode 0700, under the temporary directory) before
/// the build, Program::kept_directory() returns it, and PLINTH_DEBUG=compile prints it. The
/// object is valid for the duration of the create_program() (or compile_for_target()) call
/// only, and only the building thread calls it. The names of the files (program.cu,
/// program.log, program.ptx...) are the backend's choice.
class KeptFiles {
 public:
  virtual ~KeptFiles() = default;
  /// Writes `data` to the file `name` in the directory, replacing an earlier one.
  ///
  /// `name` is a plain file name such as "program.cu": not empty, not "." or "..", without
  /// '/' or NUL. Throws Error if the file cannot be written, LogicError for a name that is
  /// not a file name; unless the backend catches it, the exception becomes the build's error.
  virtual void write(std::string_view name, std::span<const std::byte> data) = 0;
  /// write() for text (not virtual).
  void write_text(std::string_view name, std::string_view text) {
    write(name, std::as_bytes(std::span(text.data(), text.size())));
  }
};

/// SDK 1.1: what a program is made from. ApiAdapter::program_inputs() says which kinds a
/// backend takes (a bit mask of these values).
enum class ProgramInputKind : unsigned {
  source = 1,  ///< the kernel dialect: `prelude` and `source`
  spirv = 2,   ///< one SPIR-V module for every device: `binaries[0]`
  binary = 4,  ///< what ProgramAdapter::binary() gave, one per device: `binaries[i]`
};

/// SDK 1.1: the input of ContextAdapter::create_program(). Everything it refers to stays
/// valid for the duration of the call only.
struct ProgramInput {
  /// Which of the fields below hold the input; one of ApiAdapter::program_inputs().
  ProgramInputKind kind = ProgramInputKind::source;
  /// source: ApiAdapter::prelude(), or empty with ProgramOptions::no_prelude.
  std::string_view prelude;
  /// source: the user's rendered source. The backend compiles the prelude, then its own
  /// declarations (the constant arrays of BuildOptions), then this.
  std::string_view source;
  /// spirv: one module; binary: one image per device of the build, in the same order.
  std::span<const std::span<const std::byte>> binaries;
};

/// SDK 1.1: how a kernel takes dynamic local memory (LaunchShape::local_mem), as the kernel
/// adapter declares it (KernelAdapter::dynamic_local_memory()).
enum class DynamicLocalMemory {
  /// The kernel cannot take any: the core refuses a launch shape with local_mem > 0.
  none,
  /// The launch passes the size (CUDA, HIP): parameters() lists only the kernel's own
  /// parameters and the core passes an argument for each of them.
  launch_parameter,
  /// The kernel's last parameter is a local pointer (LOCAL_MEM_DYNAMIC) that the backend
  /// binds to LaunchShape::local_mem (OpenCL, Level Zero). With local_mem > 0 the core passes
  /// one argument fewer than parameters() has, after checking that the last parameter is a
  /// local_ptr (or unknown); with local_mem == 0 it passes one for every parameter, and
  /// refuses at prepare time a kernel whose last parameter is a local_ptr.
  last_parameter,
};

/// SDK 1.3: a target that ApiAdapter::compile_for_target() builds for with no device present.
struct CompileTarget {
  /// What the user names it by, such as "sm_90", "compute_90", "gfx90a": 1 to 64 letters,
  /// digits, '_', '-', '.', ':' and '+' (the core drops an entry with another name).
  std::string name;
  /// One line for `plinth-compile --list-targets`, such as "cubin for compute capability 9.0".
  std::string description;
  /// The file name extension of the binary, without the dot, such as "cubin", "ptx" or
  /// "hsaco" (the core takes "bin" for one that is not a valid target name).
  std::string extension;
  /// A typical device of this target, bound as the render global `device_params` when a
  /// template is rendered for it (warp size, local memory, group limits, double support).
  /// driver_version stays empty (the core clears it); type is gpu for GPU targets.
  DeviceParameters params;
};

/// SDK 1.3: what ApiAdapter::compile_for_target() returns.
struct TargetBinary {
  std::vector<std::byte> binary;  ///< the cubin, PTX text, code object...
  std::string log;                ///< the compiler's log (warnings); may be empty
};

}  // namespace plinth::backend
