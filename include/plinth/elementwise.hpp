#pragma once

/// \file
/// Elementwise kernels (PyCUDA's ElementwiseKernel): a kernel made from the names and dtypes
/// of its arguments and one operation on element `i`, compiled for each device and layout of
/// arrays it is called with.
///
///     ElementwiseKernel saxpy({ElementwiseArg::output("z", DType::float32()),
///                              ElementwiseArg::scalar("a", DType::float32()),
///                              ElementwiseArg::input("x", DType::float32()),
///                              ElementwiseArg::input("y", DType::float32())},
///                             "z[i] = a * x[i] + y[i]", {.name = "saxpy"});
///     saxpy(queue, z, 2.0f, x, y);
///
///     // Modules and the functions library through render globals:
///     const auto c64 = DType::complex64();
///     ElementwiseKernel cmul({ElementwiseArg::output("z", c64), ElementwiseArg::input("x", c64),
///                             ElementwiseArg::input("y", c64)},
///                            "z[i] = ${mul}(x[i], y[i])",
///                            {.render_globals = {{"mul", functions::mul({c64, c64})}}});
///
/// **The operation** is a statement (or several) of the kernel dialect, run once for every
/// flat index `i` (a VSIZE_T, 64 bits wide where the device is) of the *iteration shape*, in
/// C order. The iteration shape is the shape of the first array argument in declaration
/// order (usually the output). Array arguments are pointers named as declared (`GLOBAL_MEM
/// const T *` for inputs, `GLOBAL_MEM T *` for the others) to their first element; scalar
/// arguments are values of their C type (`ctype(dtype)`). The operation and the preamble are
/// templates: `${name}` placeholders are bound to ElementwiseOptions::render_globals (and
/// `device_params`, as in every Program); `<%def>`s of the preamble are usable in the
/// operation.
///
/// **Layouts.** Every array argument must broadcast to the iteration shape by numpy's rules
/// (the shapes aligned at their last dimensions; each extent of the array equal to the
/// iteration shape's or 1; no more dimensions than the iteration shape). An array that is
/// contiguous (ArrayMetadata::is_contiguous) and has as many elements as the iteration shape
/// takes the fast path: `x[i]` is a plain load. For any other array (views with gaps,
/// negative strides or offsets, transposes, broadcast extents of 1) every occurrence of
/// exactly `x[i]` in the operation — the array's name as a whole identifier (not after `.` or
/// `->`), optional whitespace, `[`, `i`, `]` with optional whitespace inside the brackets, and
/// outside comments, string and character literals and `${...}` placeholders — is rewritten
/// to address the element of `x` at the multi-index of `i` (with index 0 in the broadcast
/// dimensions). Any other use of an array's name in the operation (`x[i + 1]`, `x[0]`, `*x`,
/// `x + i`) is left as it is, addressing memory from the first element as a plain C-order
/// array; calls with such an array must give it the fast-path layout (LogicError otherwise).
/// The same holds for the text that brings an array's name into the operation from outside
/// it: the preamble's `#define` directives (with their continuation lines) and `<%def>`
/// bodies, and render globals that are strings: `x[i]` there is rewritten as in the
/// operation, and any other use of `x` there needs the fast-path layout (the LogicError
/// names the array and where it is used). The rest of the preamble is code at file scope,
/// which cannot see the kernel's arrays, and is left as it is. Text from Snippets and
/// Modules is not looked at: address strided arrays there only through `x[i]` in the
/// operation or one of the places above. Arrays that are written (output, inout) must not be
/// broadcast: their size must equal the iteration shape's (LogicError otherwise). Strides must be
/// multiples of the itemsize, and the first element must be a whole number of elements into the
/// base buffer (views made by Array::view always are).
///
/// **Compilation.** A Program is built on the first call on a device for each distinct
/// *layout signature* — which arrays the flat index addresses directly and which are strided,
/// the rank of the planned layout, whether offsets are computed in 32 bits, whether the
/// inputs may be `restrict`, and whether elements move as vectors (see Launch) — and kept in
/// the device's Context (kernel_caches.hpp: it goes with the Context, and
/// clear_kernel_caches() drops it), not in the kernel object; the on-disk program cache
/// (PLINTH_CACHE_DIR) applies as to every Program. Array sizes, strides and offsets are kernel
/// arguments, so calls with other sizes or views of the same kind reuse the program.
///
/// **Layout planning** (as PyTorch's TensorIterator and CuPy's indexer do): extents of 1 are
/// dropped; unless the operation (or the preamble) uses `i` itself or a range is given, the
/// dimensions are ordered by the first written array's strides, largest first, so that
/// arrays transposed alike are walked in memory order; neighbouring dimensions that every
/// array steps through as one are merged. An array whose strides over the result are the
/// row-major ones is addressed directly (`x[i]`); the others through offsets, computed with
/// 32-bit arithmetic (a multiply and shift for each division) where every index and offset of
/// the call is below 2^31, and with 64-bit division otherwise.
///
/// **Launch.** A grid-stride loop over the flat indices, with up to 256 work items per group
/// (within the device's and kernel's limits) and at most 32 groups per compute unit, so any
/// number of elements, beyond 2^32 included, runs in one launch. Where every array is
/// addressed directly, its dtype is a plain value of 1, 2, 4 or 8 bytes, the operation uses
/// each array only as `x[i]`, and each array's first element of the call is aligned to its
/// vector's size (checked per call), each work item loads inputs (and in/out arrays) 16 bytes
/// at a time (up to 8 elements) and runs the operation once per element of the vector;
/// outputs are stored as vectors too with ElementwiseOptions::writes_every_element, one
/// element at a time without. Otherwise, where no input array shares memory with a written
/// one (Buffer::overlaps), the inputs are declared `restrict` and each step of the loop runs
/// the operation for four indices a grid stride apart, so that their loads are in flight
/// together (a bandwidth-bound kernel needs that). The operation must therefore not leave its
/// step: no `return`, and no `break` or `continue` outside loops of its own. Nothing is
/// launched, and nothing is compiled, for an empty iteration shape or range.

#include <plinth/array.hpp>
#include <plinth/detail/access.hpp>
#include <plinth/dtype.hpp>
#include <plinth/export.hpp>
#include <plinth/multi_array.hpp>
#include <plinth/program.hpp>
#include <plinth/queue.hpp>
#include <plinth/template.hpp>

#include <array>
#include <complex>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

namespace plinth {

namespace detail {
struct ElementwiseData;
/// What an ElementwiseValue holds.
using ElementwiseVariant = std::variant<Array, MultiArray, bool, std::int64_t, std::uint64_t,
                                        double, std::complex<double>>;
}  // namespace detail

/// One declared argument of an ElementwiseKernel: an array (read, written, or both) or a
/// scalar, with its name in the operation and its dtype. A value type (any thread may use
/// it); the factories only record what they are given (ElementwiseKernel's constructor checks
/// it) and throw nothing.
class PLINTH_EXPORT ElementwiseArg {
 public:
  /// How the kernel uses an argument.
  enum class Kind {
    input,   ///< an array the operation reads (a `const` pointer: writing it does not compile)
    output,  ///< an array the operation writes
    inout,   ///< an array the operation reads and writes
    scalar,  ///< a value passed by value
  };

  /// An array argument that is only read.
  static ElementwiseArg input(std::string name, DType dtype) {
    return {std::move(name), std::move(dtype), Kind::input};
  }
  /// An array argument that is written.
  static ElementwiseArg output(std::string name, DType dtype) {
    return {std::move(name), std::move(dtype), Kind::output};
  }
  /// An array argument that is read and written.
  static ElementwiseArg inout(std::string name, DType dtype) {
    return {std::move(name), std::move(dtype), Kind::inout};
  }
  /// A scalar argument.
  static ElementwiseArg scalar(std::string name, DType dtype) {
    return {std::move(name), std::move(dtype), Kind::scalar};
  }

  /// The name the operation uses for the argument.
  const std::string& name() const noexcept { return name_; }
  /// The declared dtype: of the array's elements, or of the scalar.
  const DType& dtype() const noexcept { return dtype_; }
  /// Whether it is an input, output or inout array, or a scalar.
  Kind kind() const noexcept { return kind_; }
  /// True for input, output and inout.
  bool is_array() const noexcept { return kind_ != Kind::scalar; }
  /// True for output and inout.
  bool is_written() const noexcept { return kind_ == Kind::output || kind_ == Kind::inout; }

 private:
  ElementwiseArg(std::string name, DType dtype, Kind kind)
      : name_(std::move(name)), dtype_(std::move(dtype)), kind_(kind) {}

  std::string name_;
  DType dtype_;
  Kind kind_;
};

/// How an ElementwiseKernel is built. Every member has a default, so designated initializers
/// may name any of them (`{.name = "saxpy"}`).
struct ElementwiseOptions {
  /// The kernel's name (a C identifier, any: `sin` or `kernel` too), used in messages; the
  /// program's kernel function is `_elw_kernel_<name>`, and its source starts with a comment
  /// naming the ElementwiseKernel.
  std::string name = "elementwise";
  /// Source placed before the kernel (helper functions, macros, `<%def>`s), a template like
  /// the operation.
  std::string preamble{};
  /// Names the operation's and the preamble's `${...}` placeholders may use (Modules such as
  /// functions::mul, Snippets, strings, numbers). Names starting with `_elw_` are reserved.
  RenderGlobals render_globals{};
  /// As ProgramOptions::fast_math.
  bool fast_math = false;
  /// As ProgramOptions::compiler_options.
  std::vector<std::string> compiler_options{};
  /// A promise that the operation assigns every output argument's element `i` for each `i`
  /// it runs for (no store left out under a condition). It lets plinth store outputs 16 bytes
  /// at a time, as it loads inputs; where it does, an element the operation leaves unassigned
  /// gets an unspecified value. Without it outputs are stored one element at a time.
  bool writes_every_element = false;
};

/// A sub-range [begin, end) of the flat indices of the iteration shape (PyCUDA's `range`):
/// the operation runs only for `begin <= i < end`.
struct ElementwiseRange {
  std::size_t begin = 0;  ///< the first flat index
  std::size_t end = 0;    ///< one past the last flat index
};

/// What a kernel call passes for one argument: an Array, a MultiArray (MultiQueue calls), or
/// a scalar — bool, an integer type, float, double, std::complex<float> or
/// std::complex<double> (other types, such as long double, do not convert). Built implicitly
/// from the call's arguments; holds copies of array handles, so it may outlive them. Scalars
/// are kept exactly (integers as 64-bit integers, reals as double, complex values as
/// std::complex<double>) until a call converts them to the declared dtype. A value type; the
/// constructors throw nothing.
class PLINTH_EXPORT ElementwiseValue {
 public:
  ///@{
  /// An array argument (a MultiArray for MultiQueue calls).
  ElementwiseValue(const Array& array) : value_(array) {}       // NOLINT
  ElementwiseValue(const MultiArray& array) : value_(array) {}  // NOLINT
  ///@}
  /// A bool scalar.
  template <std::same_as<bool> T>               // NOLINT
  ElementwiseValue(T value) : value_(value) {}  // NOLINT
  /// An integer scalar, kept as std::int64_t or std::uint64_t.
  template <std::integral T>          // NOLINT
    requires(!std::same_as<T, bool>)  //
  ElementwiseValue(T value) {         // NOLINT
    if constexpr (std::is_signed_v<T>) {
      value_ = static_cast<std::int64_t>(value);
    } else {
      value_ = static_cast<std::uint64_t>(value);
    }
  }
  ///@{
  /// A real or complex scalar, kept as double or std::complex<double>.
  ElementwiseValue(float value) : value_(static_cast<double>(value)) {}  // NOLINT
  ElementwiseValue(double value) : value_(value) {}                      // NOLINT
  ElementwiseValue(std::complex<float> value)                            // NOLINT
      : value_(std::complex<double>(value)) {}
  ElementwiseValue(std::complex<double> value) : value_(value) {}  // NOLINT

  ///@}

 private:
  friend struct detail::Access;

  const detail::ElementwiseVariant& impl() const noexcept { return value_; }

  detail::ElementwiseVariant value_ = false;
};

/// The types an ElementwiseKernel call takes as arguments (see ElementwiseValue).
template <class T>
concept ElementwiseArgument =
    std::same_as<std::remove_cvref_t<T>, Array> ||
    std::same_as<std::remove_cvref_t<T>, MultiArray> || std::integral<std::remove_cvref_t<T>> ||
    std::same_as<std::remove_cvref_t<T>, float> || std::same_as<std::remove_cvref_t<T>, double> ||
    std::same_as<std::remove_cvref_t<T>, std::complex<float>> ||
    std::same_as<std::remove_cvref_t<T>, std::complex<double>>;

/// A kernel that runs an operation on every element of its array arguments (see the file
/// comment for the operation, the layouts, compilation and the launch). Not bound to a
/// context: it compiles for each device it is called on.
///
/// Cheap to copy (copies share the program cache). Threads: any thread may call any member
/// function at any time, on one object or its copies (the cache is guarded; each launch
/// uses its own copy of the compiled kernel); a queue is still used by one thread at a time
/// (queue.hpp).
class PLINTH_EXPORT ElementwiseKernel {
 public:
  /// A kernel with parameters `args` (in call order) running `operation` for each element.
  /// Throws LogicError, naming the culprit, if an argument's name is not a C identifier, is
  /// `i`, starts with `_elw_` or repeats; if an argument's dtype is bool or float16 (no kernel
  /// argument type on every backend: use uint8 or float32), or a scalar's is a struct; if
  /// there is no array argument; if options.name is not a C identifier; if a render global's
  /// name starts with `_elw_`. Nothing is compiled yet.
  ElementwiseKernel(std::vector<ElementwiseArg> args, std::string operation,
                    ElementwiseOptions options = {});

  /// Runs the operation for every element of the iteration shape on `queue`: `args` are the
  /// values of the declared arguments, in order (Arrays for array arguments; scalars for
  /// scalar arguments, converted to the declared dtype). Asynchronous: returns once the
  /// kernel is enqueued. Compiles the program for this device and layout signature first if
  /// it has not been.
  /// Throws LogicError naming the argument for a wrong count, an Array where a scalar is
  /// declared or the reverse, an array of another dtype or on another device than the
  /// queue's, a shape that does not broadcast to the iteration shape (or a written array
  /// that would be broadcast), a layout the operation cannot use (see the file comment), a
  /// scalar that the declared dtype does not hold exactly (e.g. 0.1 for float32: pass 0.1f;
  /// 1.5 or 2^40 for int32; a complex value for a real dtype), a double-precision argument
  /// on a device without doubles; RenderError or CompileError (with the generated source)
  /// when the program does not build; BackendError. Nothing is enqueued when it throws.
  template <ElementwiseArgument... Args>
  void operator()(const Queue& queue, const Args&... args) const {
    const std::array<ElementwiseValue, sizeof...(Args)> values{ElementwiseValue(args)...};
    launch(queue, values);
  }
  /// As above, only for the flat indices in `range`. Throws LogicError if range.begin >
  /// range.end or range.end exceeds the number of elements of the iteration shape, and as
  /// above.
  template <ElementwiseArgument... Args>
  void operator()(const Queue& queue, const ElementwiseRange& range, const Args&... args) const {
    const std::array<ElementwiseValue, sizeof...(Args)> values{ElementwiseValue(args)...};
    launch(queue, values, range);
  }
  /// Runs the kernel on every queue of `queues`: on each device, with each MultiArray's part
  /// on that device (the iteration shape and `i` are then those of the device's part) and the
  /// other arguments as they are. Every device's arguments are checked (and its program
  /// compiled) before anything is enqueued. Throws LogicError if a MultiArray has no part on
  /// a device of `queues`, and as the single-queue call.
  template <ElementwiseArgument... Args>
  void operator()(const MultiQueue& queues, const Args&... args) const {
    const std::array<ElementwiseValue, sizeof...(Args)> values{ElementwiseValue(args)...};
    launch(queues, values);
  }

  /// As operator(), with the arguments already gathered (and an optional range, whose
  /// absence means every element).
  void launch(const Queue& queue, std::span<const ElementwiseValue> args,
              const std::optional<ElementwiseRange>& range = std::nullopt) const;
  /// As the MultiQueue operator().
  void launch(const MultiQueue& queues, std::span<const ElementwiseValue> args) const;

  /// The program a call on `queue` with `args` runs (built if it was not): e.g. to read the
  /// generated source (Program::source()). Throws as operator() does before it enqueues.
  Program program(const Queue& queue, std::span<const ElementwiseValue> args) const;

  /// The declared arguments.
  const std::vector<ElementwiseArg>& arguments() const noexcept;
  /// The operation as given.
  const std::string& operation() const noexcept;
  /// The kernel's name (ElementwiseOptions::name).
  const std::string& name() const noexcept;
  /// How many programs are built for this kernel now, over every live Context (one per
  /// device and layout signature called with; each Context keeps its own, and drops them when
  /// it goes or clear_kernel_caches() is called). Shared by copies.
  std::size_t cached_programs() const;

  ///@{
  /// Copies share the object. Moving copies too (there are no move operations), so a
  /// moved-from ElementwiseKernel still refers to its object and every call on it is defined.
  ElementwiseKernel(const ElementwiseKernel&) = default;
  ElementwiseKernel& operator=(const ElementwiseKernel&) = default;
  ~ElementwiseKernel() = default;
  ///@}

 private:
  std::shared_ptr<detail::ElementwiseData> impl_;
};

}  // namespace plinth
