#pragma once

/// \file
/// Reduction kernels (PyCUDA's ReductionKernel, pygpu's reduce1): a *map* expression gives a
/// value for every element `i` of the arguments, and a *reduce* expression combines two values
/// into one, over the whole iteration shape or along some of its axes. The result stays on
/// the device, in a new Array (or one given), until it is read.
///
///     ReductionKernel dot({ElementwiseArg::input("x", DType::float32()),
///                          ElementwiseArg::input("y", DType::float32())},
///                         DType::float32(), "0.0f", "a + b", "x[i] * y[i]", {.name = "dot"});
///     Array result = dot(queue, x, y);                   // shape (), on the device
///     float value = result.get(queue).to_vector<float>()[0];
///
///     // Along axes: a (4, 5, 6) array reduced over axes 0 and 2 gives shape (5,).
///     ReductionKernel total({ElementwiseArg::input("x", DType::int32())}, DType::int64(), "0",
///                           "a + b", "x[i]");
///     Array sums = total(queue, ReductionTarget{.axes = {{0, 2}}}, x);
///
///     // Complex values through the functions library (the dialect's `+` is not complex):
///     const auto c64 = DType::complex64();
///     ReductionKernel csum({ElementwiseArg::input("z", c64)}, c64,
///                          "COMPLEX_CTR(float2)(0.0f, 0.0f)", "${add}(a, b)", "z[i]",
///                          {.render_globals = {{"add", functions::add({c64, c64})}}});
///
/// **Arguments** are declared as for ElementwiseKernel (elementwise.hpp), but only inputs and
/// scalars: the reduction writes nothing but its result. The *iteration shape* is the shape
/// of the first array argument; every array broadcasts to it, and `x[i]` in the map is
/// rewritten for views, negative strides and broadcasting exactly as an ElementwiseKernel
/// operation is (other uses of an array's name need a contiguous array of the iteration
/// shape), in the map and in the preamble's macros and defs and string render globals.
///
/// **The map** is an expression of the dialect (not a statement) whose value is converted to
/// the output's C type as an initialisation converts it (use functions::cast where C does
/// not convert, e.g. to a complex type). `i` is a VSIZE_T, the flat index of the element in C
/// order — for an axis reduction, the flat index over the iteration shape with the kept axes
/// first and the reduced ones last (each group in its order).
/// **The reduce expression** combines `a` and `b`, two values of the output's C type, into
/// one (`a + b`, `max(a, b)`, `${add}(a, b)`); it must be associative and commutative (up to
/// rounding: floating-point sums come out in another order than a sequential loop's).
/// **The neutral** is an expression of the output type that the reduce expression leaves
/// the other operand unchanged with (`0`, `-INFINITY`...): it is the result of reducing no
/// elements. The reduce expression and the neutral cannot use the arguments (they are also
/// compiled into the second stage, which has none). All three and the preamble are
/// templates, rendered with ReductionOptions::render_globals.
///
/// **The output dtype** is any DType a kernel argument may have (not bool or float16),
/// structs included.
///
/// **Strategy.** A program with two kernels, compiled per device and layout signature
/// (as ElementwiseKernel: at most 32 signatures per kernel object, the oldest dropped first;
/// the on-disk cache applies). Stage 1 runs a bounded number of groups (8 per compute unit),
/// each a grid-stride loop over its share of the reduced elements with four independent
/// accumulators per work item (loads at r, r + G, r + 2G, r + 3G: coalesced, several in
/// flight), then a tree reduction in local memory, writing one partial value per group; stage
/// 2 reduces the partials of each output with one group. Both are enqueued on the call's
/// queue without waiting on the host. When the reduced extent is small, a group serves
/// several outputs (a power-of-two segment of work items per output, down to one work item)
/// and stage 2 is skipped; when one group per output is enough, too; with many long outputs
/// (row sums), segments are narrower (down to 32 work items) while the outputs still fill
/// the groups. Where an array is strided, a second program takes over, compiled per merged
/// rank of the kept and of the reduced axes (merged apart): its rows kernel is the stage 1
/// above with each output's offsets computed once and each element's from its index among
/// the reduced ones; its columns kernel serves **strided reduced axes** (the kept axes hold
/// the smaller strides, e.g. column sums of a C-contiguous matrix), giving each work item one
/// output (consecutive work items on consecutive outputs, so every read is coalesced) and a
/// part of its reduced extent, looping over it with four accumulators; the extent is split
/// into parts over a second grid dimension only while the outputs alone do not fill the
/// device, and stage 2 then combines each output's parts. Indices are 64 bits wide
/// where the device's are, so more than 2^32 elements work.
///
/// **Partials** live in a buffer kept per queue in the kernel object (grown when a call needs
/// more, never shrunk, dropped when the queue is gone): calls on one queue run in its order,
/// so they share it safely; a call allocates nothing else than its result.

#include <plinth/array.hpp>
#include <plinth/detail/access.hpp>
#include <plinth/dtype.hpp>
#include <plinth/elementwise.hpp>
#include <plinth/export.hpp>
#include <plinth/multi_array.hpp>
#include <plinth/program.hpp>
#include <plinth/queue.hpp>
#include <plinth/template.hpp>

#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace plinth {

namespace detail {
struct ReductionData;
}  // namespace detail

/// How a ReductionKernel is built. Every member has a default, so designated initializers
/// may name any of them (`{.name = "norm2"}`).
struct ReductionOptions {
  /// The kernel's name (a C identifier, any: `dot` or `max` too), used in messages; the
  /// program's kernel functions are `_red_kernel_<name>` and `_red_kernel_<name>_final`, and
  /// its source starts with a comment naming the ReductionKernel.
  std::string name = "reduction";
  /// Source placed before the kernels (helper functions, macros, `<%def>`s), a template.
  std::string preamble{};
  /// Names the placeholders of the map, reduce, neutral and preamble may use. Names starting
  /// with `_elw_` or `_red_` are reserved.
  RenderGlobals render_globals{};
  /// As ProgramOptions::fast_math.
  bool fast_math = false;
  /// As ProgramOptions::compiler_options.
  std::vector<std::string> compiler_options{};
};

/// Where a reduction goes: along which axes, and into which array.
struct ReductionTarget {
  /// The axes of the iteration shape to reduce (each at most once, in any order); nothing:
  /// all of them. The result's shape is the iteration shape without these axes (numpy's
  /// keepdims=false): `()` when all are reduced.
  std::optional<std::vector<std::size_t>> axes{};
  /// The array to write the result into: of the output dtype, on the queue's device, of the
  /// result's shape, and contiguous (ArrayMetadata::is_contiguous). Nothing: a new array.
  std::optional<Array> out{};
};

/// A kernel that reduces the values of a map expression with a reduce expression (see the
/// file comment). Not bound to a context: it compiles for each device it is called on.
///
/// Cheap to copy (copies share the program and partials caches). Threads: any thread may
/// call any member function at any time, on one object or its copies (the caches are
/// guarded); a queue is still used by one thread at a time (queue.hpp).
class PLINTH_EXPORT ReductionKernel {
 public:
  /// A kernel over `args` (in call order; inputs and scalars) reducing `map` with `reduce`
  /// from `neutral` into values of dtype `output`.
  /// Throws LogicError, naming the culprit, as ElementwiseKernel's constructor does (names,
  /// dtypes, no array argument), and if an argument is an output or inout, if `output` is
  /// bool or float16, if options.name is not a C identifier, if a render global's name is
  /// reserved, or if `map`, `reduce` or `neutral` is empty. Nothing is compiled yet.
  ReductionKernel(std::vector<ElementwiseArg> args, DType output, std::string neutral,
                  std::string reduce, std::string map, ReductionOptions options = {});

  /// Reduces over the whole iteration shape on `queue`: `args` are the values of the
  /// declared arguments (Arrays for arrays, scalars converted exactly to their dtype).
  /// Returns a new array of shape `()` with the result; asynchronous (read it with
  /// Array::get, which waits). Compiles the program for this device and layout signature
  /// first if it has not been.
  /// Throws LogicError naming the argument as ElementwiseKernel::operator() does (count,
  /// kind, dtype, device, broadcasting, layout, scalar values, double precision);
  /// RenderError or CompileError (with the generated source) when the program does not
  /// build; OutOfMemoryError; BackendError. Nothing is enqueued when it throws.
  template <ElementwiseArgument... Args>
  Array operator()(const Queue& queue, const Args&... args) const {
    const std::array<ElementwiseValue, sizeof...(Args)> values{ElementwiseValue(args)...};
    return launch(queue, values, ReductionTarget{});
  }
  /// As above, along `target.axes` and into `target.out` where given; returns the result
  /// (target.out itself where given). Throws LogicError also for an axis out of range or
  /// given twice, and for an `out` of another dtype, device or shape, or not contiguous.
  template <ElementwiseArgument... Args>
  Array operator()(const Queue& queue, const ReductionTarget& target, const Args&... args) const {
    const std::array<ElementwiseValue, sizeof...(Args)> values{ElementwiseValue(args)...};
    return launch(queue, values, target);
  }

  /// As operator(), with the arguments already gathered.
  Array launch(const Queue& queue, std::span<const ElementwiseValue> args,
               const ReductionTarget& target = {}) const;

  /// Reduces a MultiArray as the whole array it stands for, on every queue of `queues` (one
  /// per device of the array, no other): the first array argument must be a MultiArray (the
  /// iteration shape is its whole shape), each device reduces its part (the map's `i` is the
  /// index within that part, as in ElementwiseKernel's MultiQueue call), and the result is a
  /// new MultiArray on the same devices:
  /// - when the reduced axes include the axis the array is split along (EqualSplay: axis 0),
  ///   each device's partial result is copied to the array's first device (its first
  ///   part's), the partials are combined there by a second reduction applying only the
  ///   `reduce` expression (from `neutral`), and the result is copied back to every device: a
  ///   CloneSplay MultiArray of the result's shape, each device holding all of it (as
  ///   Communicator::all_reduce leaves it). Read it with MultiArray::get, or take one
  ///   device's copy with operator[];
  /// - when they do not, the result is split like the input: each device's part is the
  ///   reduction of its own part, along the kept axis the array was split along;
  /// - when every device holds the whole array (CloneSplay), each reduces its copy and the
  ///   result is a CloneSplay MultiArray too.
  /// Other array arguments are MultiArrays split alike, or held whole on every device where
  /// they broadcast along the split axis (CloneSplay). Asynchronous; the queues are ordered
  /// among themselves by events where a copy crosses devices (no host synchronisation).
  /// Throws LogicError naming the argument if the first array argument is not a MultiArray,
  /// if an array's parts are not blocks of it (its splay's views have integer indices or
  /// steps) or are blocks along several axes where the reduction crosses them, if another
  /// array is not split like the first, if `queues` lacks a device of the array or has one
  /// without a part, if `target.out` is given (a new MultiArray is always made), for an axis
  /// out of range or given twice; and as the single-queue call on each device. Every
  /// device's call is checked (and its programs built) before anything is enqueued.
  template <ElementwiseArgument... Args>
  MultiArray operator()(const MultiQueue& queues, const Args&... args) const {
    const std::array<ElementwiseValue, sizeof...(Args)> values{ElementwiseValue(args)...};
    return launch(queues, values, ReductionTarget{});
  }
  /// As above, along `target.axes` (`target.out` must be empty).
  template <ElementwiseArgument... Args>
  MultiArray operator()(const MultiQueue& queues, const ReductionTarget& target,
                        const Args&... args) const {
    const std::array<ElementwiseValue, sizeof...(Args)> values{ElementwiseValue(args)...};
    return launch(queues, values, target);
  }
  /// As the MultiQueue operator(), with the arguments already gathered.
  MultiArray launch(const MultiQueue& queues, std::span<const ElementwiseValue> args,
                    const ReductionTarget& target = {}) const;

  /// The program a whole-array call on `queue` with `args` runs (built if it was not): e.g.
  /// to read the generated source. Throws as operator() does before it enqueues.
  Program program(const Queue& queue, std::span<const ElementwiseValue> args) const;

  /// The declared arguments.
  const std::vector<ElementwiseArg>& arguments() const noexcept;
  /// The output dtype.
  const DType& output_dtype() const noexcept;
  /// The kernel's name (ReductionOptions::name).
  const std::string& name() const noexcept;
  /// How many programs the in-process cache holds now. Shared by copies.
  std::size_t cached_programs() const;

  ///@{
  /// Copies share the object; there are no move operations (a moved-from kernel still
  /// refers to its object).
  ReductionKernel(const ReductionKernel&) = default;
  ReductionKernel& operator=(const ReductionKernel&) = default;
  ~ReductionKernel() = default;
  ///@}

 private:
  friend struct detail::Access;

  explicit ReductionKernel(std::shared_ptr<detail::ReductionData> impl) : impl_(std::move(impl)) {}

  std::shared_ptr<detail::ReductionData> impl_;
};

}  // namespace plinth
