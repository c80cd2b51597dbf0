#pragma once

// Small value types shared by the SDK interfaces.

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace plinth::backend {

/// A vendor handle (cl_mem, CUdeviceptr, CUstream, ze_*_handle_t...) as an integer.
using NativeHandle = std::uintptr_t;

/// What a kernel parameter is, as far as the backend can tell.
enum class ParamKind {
  unknown,       ///< the backend cannot introspect this parameter; it is not checked
  global_ptr,    ///< a pointer to global memory: takes a Buffer
  constant_ptr,  ///< a pointer to constant memory: takes a Buffer
  local_ptr,     ///< a pointer to local memory: takes a size, no data
  scalar,        ///< a value passed by copy; `size` is its size in bytes
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

/// How to build a program.
struct BuildOptions {
  bool fast_math = false;
  std::vector<std::string> compiler_options;
  /// When set, leave the source and the compiler's intermediate files in this directory.
  std::filesystem::path keep_dir;
  std::vector<ConstantArrayDecl> constant_arrays;
};

}  // namespace plinth::backend
