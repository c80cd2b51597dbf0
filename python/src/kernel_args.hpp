#pragma once

// Python call arguments as plinth::KernelArg, for Program kernels and StaticKernels: the hot
// path of a launch from Python, so the conversion does type checks against cached type
// objects, no attribute lookups, and no heap allocation for calls of up to inline_args
// arguments.

#include <plinth/kernel_arg.hpp>

#include <nanobind/nanobind.h>

#include <array>
#include <cstddef>
#include <memory>
#include <span>
#include <vector>

namespace plinth::python {

namespace nb = nanobind;

/// The Python types of the argument kinds, looked up once (after the module's classes are
/// bound: the first conversion happens in a call, long after import). A type not bound
/// (nullptr) never matches.
struct ArgumentTypes {
  PyTypeObject* array = nullptr;
  PyTypeObject* expression = nullptr;
  PyTypeObject* buffer = nullptr;
  PyTypeObject* image = nullptr;
  PyTypeObject* sampler = nullptr;
  PyTypeObject* numpy_generic = nullptr;
};

/// The types, looked up by the first call (with the GIL held). Throws nothing after it.
const ArgumentTypes& argument_types();

/// Whether `object` is an instance of `type` (false for a null `type`). Needs the GIL.
bool is_instance(PyObject* object, PyTypeObject* type);

/// The KernelArgs of Python objects, in order:
/// - plinth.Array: its elements (a pointer to the first one);
/// - plinth.Expression: its value (evaluated into a new Array the first time);
/// - plinth.Buffer: its memory;
/// - plinth.Image and plinth.Sampler: for image and sampler parameters;
/// - a numpy scalar (numpy.int32(5), numpy.float32(0.5), a structured numpy.void...): its
///   bytes, whose size the launch checks against the kernel parameter's (LogicError naming
///   the argument, from the C++ call).
/// Python's bool, int, float and complex are a LogicError naming the argument: a kernel
/// parameter's C type is not known from Python, so the value's size would be a guess (pass
/// numpy.int32(...), numpy.float32(...) and so on). Anything else is a TypeError.
/// The KernelArgs refer to the objects (which the caller keeps alive, as a call's argument
/// tuple does) and to this object's storage: use them while both live.
class KernelArgs {
 public:
  /// Arguments converted without a heap allocation.
  static constexpr std::size_t inline_args = 16;
  /// Scalar bytes kept inline per argument (complex128 fits; larger structs go to the heap).
  static constexpr std::size_t inline_scalar_bytes = 16;

  /// Converts `objects` (argument 0 is the first: the kernel's parameter numbering).
  explicit KernelArgs(std::span<PyObject* const> objects);
  KernelArgs(const KernelArgs&) = delete;
  KernelArgs& operator=(const KernelArgs&) = delete;
  ~KernelArgs() = default;

  std::span<const KernelArg> args() const { return {data_, size_}; }

 private:
  void add(std::size_t index, PyObject* object);
  void push(const KernelArg& arg);

  union Slot {
    Slot() {}
    KernelArg arg;
  };
  std::array<Slot, inline_args> inline_;
  std::vector<KernelArg> heap_;
  KernelArg* data_ = nullptr;
  std::size_t size_ = 0;
  alignas(16) std::array<std::array<std::byte, inline_scalar_bytes>, inline_args> scalars_;
  std::vector<std::unique_ptr<std::byte[]>> large_scalars_;
};

/// The objects of a call's `*args` (a tuple), as KernelArgs take them.
inline std::span<PyObject* const> tuple_items(const nb::args& args) {
  return {&PyTuple_GET_ITEM(args.ptr(), 0), static_cast<std::size_t>(PyTuple_GET_SIZE(args.ptr()))};
}

/// A launch size: a Python int, or a tuple or list of ints (1 to 3 of them for a launch; more
/// are passed on for the C++ call to refuse). None (where `none_is_empty`) is the empty size,
/// "choose automatically". Holds up to 8 extents without allocating.
class LaunchSize {
 public:
  LaunchSize(nb::handle object, const char* what, bool none_is_empty);
  std::span<const std::size_t> extents() const { return {values_.data(), size_}; }
  std::vector<std::size_t> vector() const { return {values_.begin(), values_.begin() + size_}; }

 private:
  std::array<std::size_t, 8> values_{};
  std::size_t size_ = 0;
};

}  // namespace plinth::python
