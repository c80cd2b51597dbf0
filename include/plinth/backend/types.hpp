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
  local_ptr,     ///< a pointer to local memory: takes a size, no data
  scalar,        ///< a value passed by copy; `size` is its size in bytes
  image,         ///< SDK 1.8: an image (type_name says which: "image2d_t"): takes an Image
  sampler,       ///< SDK 1.8: a sampler: takes a Sampler
};

/// A kernel parameter, as introspected once when the kernel is created.
struct ParamInfo {
  ParamKind kind = ParamKind::unknown;
  std::size_t size = 0;   ///< bytes the argument must have (scalars and pointers); 0 if unknown
  std::string type_name;  ///< the declared type, where the backend knows it (for messages)
  std::string name;       ///< the declared name, where the backend knows it (for messages)
};

/// One kernel argument as the backend receives it: `size` bytes at `data`, which stay valid
/// for the duration of the launch call. For a local_ptr parameter, `data` is null and `size`
/// is the number of bytes of local memory.
struct ArgValue {
  const void* data;  // no initialisers: the core keeps arrays of these on the launch path
  std::size_t size;
};

/// The shape of a launch: work items in total and per group, dimension 0 varying fastest
/// (get_global_id(0)). `global[d]` is a multiple of `local[d]`; unused dimensions are 1.
struct LaunchShape {
  unsigned dims = 1;
  std::array<std::size_t, 3> global{1, 1, 1};
  std::array<std::size_t, 3> local{1, 1, 1};
  std::size_t local_mem = 0;  ///< bytes of dynamic local memory (LOCAL_MEM_DYNAMIC)
};

/// A constant-memory array a program declares (ProgramOptions::constant_arrays).
struct ConstantArrayDecl {
  std::string name;
  std::string ctype;       ///< element C type, e.g. "float"
  std::size_t length = 0;  ///< number of elements
  std::size_t itemsize = 0;
};

class KeptFiles;

/// How to build a program. (Fields are only ever appended, so that a plugin of an older
/// minor version reads the prefix it knows.)
struct BuildOptions {
  bool fast_math = false;
  std::vector<std::string> compiler_options;
  /// SDK 1.0 only: when set, leave the source and the compiler's intermediate files in this
  /// directory. Plugins of 1.1 and later get `keep` instead and this stays empty.
  std::filesystem::path keep_dir;
  std::vector<ConstantArrayDecl> constant_arrays;
  /// SDK 1.1: with ProgramOptions::keep, where to leave the source as compiled, the log and
  /// intermediate files (the core writes them); null otherwise.
  KeptFiles* keep = nullptr;
};

/// SDK 1.1: the files a backend leaves for ProgramOptions::keep. The core owns the directory
/// and does the writing, so that every backend's files land the same way. Valid for the
/// duration of the build call; called from the building thread.
class KeptFiles {
 public:
  virtual ~KeptFiles() = default;
  /// Writes `data` to the file `name`, a plain file name such as "program.cu" (no '/').
  /// Throws Error if it cannot be written, LogicError for a name that is not a file name.
  virtual void write(std::string_view name, std::span<const std::byte> data) = 0;
  /// write() for text.
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
  /// What the user names it by, e.g. "sm_90", "compute_90", "gfx90a": letters, digits, '_',
  /// '-', '.', ':' and '+' only (the core checks, and refuses the plugin's list otherwise).
  std::string name;
  /// One line for `plinth-compile --list-targets`, e.g. "cubin for compute capability 9.0".
  std::string description;
  /// The file name extension of the binary, without the dot, e.g. "cubin", "ptx", "hsaco".
  std::string extension;
  /// A typical device of this target, bound as the render global `device_params` when a
  /// template is rendered for it (warp size, local memory, group limits, double support).
  /// driver_version stays empty; type is gpu for GPU targets.
  DeviceParameters params;
};

/// SDK 1.3: what ApiAdapter::compile_for_target() returns.
struct TargetBinary {
  std::vector<std::byte> binary;  ///< the cubin, PTX text, code object...
  std::string log;                ///< the compiler's log (warnings); may be empty
};

}  // namespace plinth::backend
