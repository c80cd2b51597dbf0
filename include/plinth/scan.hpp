#pragma once

/// \file
/// Prefix scans (PyCUDA's InclusiveScanKernel and ExclusiveScanKernel): the running
/// combination of an array's elements under a user's associative operator.
///
///     // Inclusive: out[i] = x[0] + x[1] + ... + x[i].
///     ScanKernel sum(DType::int32(), "a + b", "0");
///     sum(queue, x, out);
///
///     // Exclusive: out[0] = neutral, out[i] = x[0] ... x[i - 1]; here the running maximum.
///     ScanKernel running_max(DType::float32(), "fmax(a, b)", "-3.402823466e+38f",
///                            ScanKind::exclusive, {.name = "running_max"});
///
///     // Complex numbers through the functions library.
///     const auto c64 = DType::complex64();
///     ScanKernel csum(c64, "${add}(a, b)", c_constant(0, c64), ScanKind::inclusive,
///                     {.render_globals = {{"add", functions::add({c64, c64})}}});
///
///     // numpy's cumsum (int32 accumulates in int64):
///     const Array sums = cumsum(queue, x);
///
/// **The operator** is an expression of the kernel dialect over two values `a` and `b` of the
/// scan's dtype (C type `ctype(dtype)`) giving a value of that type; it must be associative
/// (it need not be commutative: the order of the elements is kept, so `a` always stands for
/// earlier elements than `b`). **The neutral element** is C source for a value `e` with
/// `op(e, x) == x` for every x, used as the initialiser of a variable of the dtype (so `0`,
/// `-3.402823466e+38f`, `COMPLEX_CTR(float2)(0, 0)` and, for structs, `{1, 0, 0, 1}` all work).
/// Both are templates, like the preamble: `${name}` placeholders are bound to
/// ScanOptions::render_globals (and `device_params`).
///
/// **Arrays.** The input is any array (any view: offsets, gaps, negative strides), read in
/// C order over its shape as one flat sequence; the output must be a C-contiguous array with
/// as many elements (its shape is not otherwise looked at), written in C order. The output
/// may be the input itself (a scan in place: the same first byte, the same dtype, both
/// contiguous). An input that is not contiguous is first gathered into the output (one more
/// pass), and one that shares the output's allocation without being exactly the output (a
/// reversed view of it, another slice of the same array, an input of another dtype in the
/// output's bytes, even from the same first byte) into a temporary array first (Buffer::overlaps,
/// which sees sub-regions of one allocation too), so any overlap gives the right result; memory
/// wrapped twice by from_backend_buffer is not detected.
///
/// **MultiArrays** (on a MultiQueue) are scanned as the whole array they stand for: each
/// device scans its part, the last value of each part (for an exclusive scan, combined with
/// the part's last input) is copied to one device, where the operator's exclusive scan of
/// them gives each part its carry, and each later part is then combined with its carry on
/// its device (one more read and write of those parts).
///
/// **Axes.** `operator()(queue, input, output, axis)` and `cumsum(queue, x, axis)` scan every
/// line of elements along one axis on its own (numpy's `cumsum(x, axis)`). Along the last
/// axis of a C-contiguous input the rows are scanned where they lie; along another axis (or
/// for a view) the input is first copied with that axis moved last (the tiled copy, coalesced
/// on both sides), scanned, and copied back into the output. Many short rows are scanned in
/// one launch, one group a row at a time (`_rows`); a few long rows one flat scan each.
///
/// **Algorithm**, chosen per device by ScanOptions::algorithm; PLINTH_DEBUG=compile prints
/// the choice for each device. The single pass runs where the device reports
/// DeviceFeatures::atomics and device_scope_acquire_release, the three passes everywhere.
/// `automatic` takes the three passes on every device for now: measured on an H100
/// (bench/'s `algorithms/exclusive_scan_int32_1GiB/single_pass` and `/three_pass`, 1 GiB of
/// int32) the single pass reaches 0.56 of CUB's `DeviceScan::ExclusiveSum` and the three
/// passes 0.76, so the single pass is chosen only when asked for (`single_pass`) until it is
/// the faster one.
/// A tile is `local size x items per work item` elements, loaded into local memory with
/// coalesced reads, scanned in registers, across the group (within each sub-group by
/// shuffles for the dialect's scalar types, in local memory otherwise), and stored with
/// coalesced writes. Indices are 64-bit where the device's are, so any number of elements,
/// beyond 2^32 included, is scanned.
/// - *Single pass* (Merrill & Garland's decoupled look-back; reads and writes each element
///   once): one group per tile, which takes its tile number from an atomic counter (so a
///   group only ever waits for groups that started before it, whatever order the device
///   runs them in), publishes its tile's aggregate at once (the value written first, then
///   its status with a release store), and looks back over its predecessors' statuses
///   (acquire loads; one predecessor per lane of the group's first sub-group, a window at a
///   time, combined in order) until it meets an inclusive prefix; it then publishes its own
///   inclusive prefix and scans its tile from it. Values of any dtype (structs, complex)
///   work: the status is a separate word. The statuses and the counter are zeroed by a small
///   launch before each scan (4 bytes a tile). Inputs of more than 2^31 tiles take the
///   three passes.
/// - *Three passes* (any device): reduce, then scan, in three launches on the queue (no host
///   synchronisation): each of a few groups per compute unit reduces a contiguous run of
///   tiles (stage 1); one group scans the group totals (stage 2); each group scans its tiles
///   again, starting from its prefix (stage 3): three passes over memory (read, read, write).
///
/// **Compilation and memory.** One Program per device (its kernels), built on the first
/// call on that device and kept in the kernel object; the on-disk program cache applies as to
/// every Program. The group totals (three passes) and the tile statuses and values (single
/// pass: 4 bytes and two values a tile) come from the context's memory pool for the call's
/// queue, so a call of a size seen before on a queue allocates nothing, unless its input
/// needs a temporary (an axis other than the last: two). Nothing is launched, and nothing
/// compiled, for an empty input.

#include <plinth/array.hpp>
#include <plinth/dtype.hpp>
#include <plinth/export.hpp>
#include <plinth/multi_array.hpp>
#include <plinth/program.hpp>
#include <plinth/queue.hpp>
#include <plinth/template.hpp>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace plinth {

namespace detail {
struct ScanData;
}  // namespace detail

/// Which prefix a ScanKernel computes.
enum class ScanKind {
  inclusive,  ///< out[i] = x[0] op ... op x[i]
  exclusive,  ///< out[0] = neutral, out[i] = x[0] op ... op x[i - 1]
};

/// Which algorithm a ScanKernel runs on a device (see the file comment).
enum class ScanAlgorithm {
  automatic,    ///< the faster of the two where both run: three_pass on every device today
  single_pass,  ///< decoupled look-back: needs DeviceFeatures::atomics and
                ///< device_scope_acquire_release
  three_pass,   ///< reduce, scan the group totals, scan: runs on every device
};

/// How a ScanKernel is built. Every member has a default, so designated initializers may
/// name any of them (`{.name = "cumsum"}`).
struct ScanOptions {
  /// The kernels' name (a C identifier, any: `max` or `float` too), used in messages; the
  /// program's kernel functions are `_scan_kernel_<name>_reduce`, `..._groups`, `..._final`,
  /// `..._rows`, `..._clear` and (single pass) `..._single`, and its source starts with a
  /// comment naming the ScanKernel.
  std::string name = "scan";
  /// Source placed before the kernels (helper functions, macros, `<%def>`s), a template like
  /// the operator.
  std::string preamble{};
  /// Names the operator's, the neutral element's and the preamble's `${...}` placeholders may
  /// use (Modules such as functions::add, Snippets, strings, numbers). Names starting with
  /// `_scan_` are reserved.
  RenderGlobals render_globals{};
  /// The input's dtype, when it differs from the scan's: each element is converted with a C
  /// cast as it is read (e.g. int32 input scanned in int64). Only real scalar dtypes (integers
  /// and floats) convert this way; nothing means the scan's own dtype.
  std::optional<DType> input_dtype{};
  /// As ProgramOptions::fast_math.
  bool fast_math = false;
  /// As ProgramOptions::compiler_options.
  std::vector<std::string> compiler_options{};
  /// The algorithm, chosen per device (see the file comment); forcing single_pass on a device
  /// without what it needs is a LogicError at the first call on it.
  ScanAlgorithm algorithm = ScanAlgorithm::automatic;
};

/// A prefix scan of one dtype under one operator (see the file comment). Not bound to a
/// context: it compiles for each device it is called on.
///
/// Cheap to copy (copies share the program cache). Threads: any thread may call any member
/// function at any time, on one object or its copies; a queue is still used by one thread at
/// a time (queue.hpp).
class PLINTH_EXPORT ScanKernel {
 public:
  /// A scan of `dtype` values with the operator `scan_expression` (over `a` and `b`) and the
  /// neutral element `neutral`. Throws LogicError if the dtype (or options.input_dtype) is
  /// bool or float16 (no kernel type on every backend: use uint8 or float32); if
  /// options.input_dtype differs from `dtype` and either is not a real scalar dtype; if the
  /// operator or the neutral element is empty; if options.name is not a C identifier; if a
  /// render global's name starts with `_scan_`. Nothing is compiled yet.
  ScanKernel(DType dtype, std::string scan_expression, std::string neutral,
             ScanKind kind = ScanKind::inclusive, ScanOptions options = {});

  /// Scans `input` into `output` on `queue` (see the file comment for the layouts).
  /// Asynchronous: returns once the work is enqueued. Compiles the program for this device
  /// first if it has not been.
  /// Throws LogicError naming the argument ('input' or 'output') for an array of another
  /// dtype or on another device than the queue's, an output that is not C-contiguous or has
  /// another number of elements, strides that are not multiples of the itemsize, a
  /// double-precision dtype on a device without doubles, ScanAlgorithm::single_pass on a
  /// device without what it needs (naming the device and the feature); RenderError or
  /// CompileError (with the generated source) when the program does not build;
  /// OutOfMemoryError, BackendError.
  /// Nothing is enqueued when it throws a LogicError.
  void operator()(const Queue& queue, const Array& input, const Array& output) const;
  /// Scans `array` in place, as operator()(queue, array, array): it must be C-contiguous
  /// (LogicError naming 'output' otherwise).
  void operator()(const Queue& queue, const Array& array) const;

  /// Scans `input` along its axis `axis` into `output` (numpy's `cumsum(x, axis)` for a sum):
  /// every line of elements along that axis is scanned on its own, all in one call (see the
  /// file comment). `axis` counts from the end when negative (-1: the last). `input` is any
  /// view; `output` must be C-contiguous with the input's shape (it may be the input itself).
  /// Asynchronous, as the flat call. Throws LogicError for an axis out of range (a
  /// zero-dimensional input has none) and as the flat call, an output of another shape too.
  void operator()(const Queue& queue, const Array& input, const Array& output, int axis) const;

  /// Scans the whole array `input` stands for into `output`, on every queue of `queues` (one
  /// per device of the arrays, no other), as one flat sequence in C order: each device's part
  /// must hold a run of consecutive elements of it in C order (EqualSplay, or any split along
  /// the first axis), `output`'s part on each device the same run of its own elements (any
  /// shape with as many elements, C-contiguous parts), so that the result is what one Array
  /// scanned whole would hold. The totals of the parts before each part are carried into it
  /// (see the file comment), through copies between the devices ordered by events (no host
  /// synchronisation); the device holding the array's first elements combines them. Where
  /// every device holds the whole array (CloneSplay), each scans its own copy. Asynchronous,
  /// as the single-queue call.
  /// Throws LogicError naming the argument if `queues` lacks a device of the input or has one
  /// without a part, if `output` has no part on a device of the input or another number of
  /// elements, if a part is not a run of consecutive elements (a split along another axis,
  /// parts that overlap or leave gaps), if the output's runs are not the input's; and as the
  /// single-queue call for each device's parts. Every part is checked, and each device's
  /// program built, before anything is enqueued.
  void operator()(const MultiQueue& queues, const MultiArray& input,
                  const MultiArray& output) const;
  /// Scans `array` in place, as operator()(queues, array, array).
  void operator()(const MultiQueue& queues, const MultiArray& array) const;

  /// The program a call on `queue` runs (built if it was not): e.g. to read the generated
  /// source (Program::source()). Throws LogicError for a double-precision dtype on a device
  /// without doubles or a forced single pass it cannot run, RenderError, CompileError.
  Program program(const Queue& queue) const;

  /// The scan's dtype (of the output).
  const DType& dtype() const noexcept;
  /// The input's dtype (ScanOptions::input_dtype, or dtype()).
  const DType& input_dtype() const noexcept;
  /// Inclusive or exclusive.
  ScanKind kind() const noexcept;
  /// The operator as given.
  const std::string& scan_expression() const noexcept;
  /// The neutral element as given.
  const std::string& neutral() const noexcept;
  /// The kernels' name (ScanOptions::name).
  const std::string& name() const noexcept;
  /// How many programs (one per device called on) the kernel object holds now. Shared by
  /// copies.
  std::size_t cached_programs() const;

  ///@{
  /// Copies share the object. Moving copies too (there are no move operations), so a
  /// moved-from ScanKernel still refers to its object and every call on it is defined.
  ScanKernel(const ScanKernel&) = default;
  ScanKernel& operator=(const ScanKernel&) = default;
  ~ScanKernel() = default;
  ///@}

 private:
  std::shared_ptr<detail::ScanData> impl_;
};

/// The dtype numpy's cumsum accumulates `dtype` in: int64 for the signed integers narrower
/// than 64 bits, uint64 for the unsigned ones, the dtype itself for 64-bit integers, floats
/// and complex numbers. Throws LogicError for bool, float16 and structs (no sum to take).
PLINTH_EXPORT DType cumsum_dtype(const DType& dtype);

/// numpy's cumsum of all of `array`'s elements in C order (as numpy's with no axis): a new
/// one-dimensional array of cumsum_dtype(array.dtype()) on the array's device, computed on
/// `queue` (asynchronously: the result is valid for later work on the queue). Its kernel is
/// made at each call (the program cache turns every build after the first into a load): make
/// a ScanKernel once for repeated scans. Throws LogicError for dtypes without a
/// sum (see cumsum_dtype), an array on another device than the queue's, and as ScanKernel.
PLINTH_EXPORT Array cumsum(const Queue& queue, const Array& array);

/// numpy's cumsum along `axis` (negative counts from the end): an array of `array`'s shape and
/// dtype cumsum_dtype(array.dtype()), C-contiguous, on the array's device, computed on `queue`
/// (asynchronously). Throws LogicError for an axis out of range, and as cumsum(queue, array).
PLINTH_EXPORT Array cumsum(const Queue& queue, const Array& array, int axis);

/// numpy's cumprod of all of `array`'s elements in C order (no axis): a new one-dimensional
/// array of cumsum_dtype(array.dtype()) (numpy's rule for cumprod is cumsum's: signed
/// integers narrower than 64 bits multiply in int64, unsigned ones in uint64, the rest in
/// their own dtype), computed on `queue` (asynchronously). Integer products wrap around as in
/// numpy. Throws LogicError as cumsum.
PLINTH_EXPORT Array cumprod(const Queue& queue, const Array& array);

/// numpy's cumprod along `axis` (negative counts from the end): an array of `array`'s shape.
/// Throws LogicError as cumsum(queue, array, axis).
PLINTH_EXPORT Array cumprod(const Queue& queue, const Array& array, int axis);

/// numpy's cumsum of all of a MultiArray's elements in C order, on every queue of `queues`
/// (ScanKernel's MultiQueue call): a new one-dimensional MultiArray on the same devices, each
/// device's part holding the sums of the elements its part of `array` holds. Throws
/// LogicError as cumsum and as ScanKernel's MultiQueue call.
PLINTH_EXPORT MultiArray cumsum(const MultiQueue& queues, const MultiArray& array);

/// numpy's cumprod of all of a MultiArray's elements in C order, as the MultiArray cumsum with
/// products. Throws LogicError as that cumsum.
PLINTH_EXPORT MultiArray cumprod(const MultiQueue& queues, const MultiArray& array);

}  // namespace plinth
