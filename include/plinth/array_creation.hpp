#pragma once

/// \file
/// Array creation (numpy's): zeros, ones, full, arange, linspace, eye, and the *_like forms,
/// each a new array filled by one generated kernel on a queue (asynchronous, as a launch;
/// nothing is uploaded from the host).
///
///     Array z = zeros(queue, {1024, 768}, DType::float32());
///     Array f = full(queue, {3, 3}, 2.5);                    // float64, as numpy's
///     Array r = arange(queue, 0.0, 1.0, 0.1);                // 10 float64 values
///     Array x = linspace(queue, 0.0, 1.0, 101);              // numpy's values, bit for bit
///     Array i = eye(queue, 4, std::nullopt, 1, DType::int32(), Order::F);
///
/// **Values** are numpy's exactly. arange's are numpy's fill rule: the first element is
/// `start`, the second `start + step` (computed as a double, or exactly for integers), each
/// converted to the dtype, and element i > 1 is `first + i * (second - first)` computed in the
/// dtype without a fused multiply-add (i converted to the dtype first), so a float32 arange
/// matches numpy's to the last bit. linspace computes in float64 as numpy does (`i * step +
/// start`, or `(i / div) * delta + start` where the step underflows to 0, the last element
/// `stop` when `endpoint`) and converts to the dtype (integer dtypes take the floor first, as
/// numpy's). On a device without doubles linspace computes in float32 instead, and its values
/// may then differ from numpy's by an ulp.
///
/// **Dtypes.** zeros, ones and eye take every scalar dtype, bool and float16 included (no
/// structs); full takes what fill() takes (array_expression.hpp: no float16 or structs);
/// arange and linspace take the integer types, float32 and float64 (not bool, float16 or
/// complex, which numpy also accepts). Without a dtype, full takes numpy's type of the value
/// (bool, int64, float64, complex128), arange int64 when every argument is an integer and
/// float64 otherwise, linspace float64.
///
/// **Orders.** Order::F lays a new array out in Fortran order (ArrayMetadata::is_f_contiguous).
/// The *_like forms without an order keep `like`'s (numpy's `order='K'` for the layouts plinth
/// makes: Order::F when `like` is F-contiguous and not C-contiguous, Order::C otherwise).
///
/// Errors are LogicErrors naming the problem: an unsupported dtype, a step of 0, a value that
/// does not fit the dtype (arange's start and second value, full's value), or a double dtype on
/// a device without doubles; OutOfMemoryError, CompileError and BackendError as for any launch.

#include <plinth/array.hpp>
#include <plinth/array_expression.hpp>
#include <plinth/dtype.hpp>
#include <plinth/export.hpp>
#include <plinth/multi_array.hpp>
#include <plinth/queue.hpp>
#include <plinth/splay.hpp>

#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

namespace plinth {

namespace detail {
PLINTH_EXPORT Array full(const Queue& queue, std::vector<std::size_t> shape,
                         const ScalarValue& value, const std::optional<DType>& dtype, Order order);
PLINTH_EXPORT Array arange(const Queue& queue, const ScalarValue& start, const ScalarValue& stop,
                           const ScalarValue& step, const std::optional<DType>& dtype);
PLINTH_EXPORT Array linspace(const Queue& queue, const ScalarValue& start, const ScalarValue& stop,
                             std::size_t num, bool endpoint, const std::optional<DType>& dtype);
PLINTH_EXPORT MultiArray full(const MultiQueue& queues, std::vector<std::size_t> shape,
                              const ScalarValue& value, const std::optional<DType>& dtype,
                              std::shared_ptr<const BaseSplay> splay);
PLINTH_EXPORT Order like_order(const Array& like) noexcept;
}  // namespace detail

/// A new array of `shape` and `dtype` in `order`, every element 0 (numpy's zeros). Throws
/// LogicError for a struct dtype.
PLINTH_EXPORT Array zeros(const Queue& queue, std::vector<std::size_t> shape,
                          const DType& dtype = DType::float64(), Order order = Order::C);
/// As zeros(), every element 1 (true for bool).
PLINTH_EXPORT Array ones(const Queue& queue, std::vector<std::size_t> shape,
                         const DType& dtype = DType::float64(), Order order = Order::C);

/// A new array of `shape` in `order`, every element `value` converted to `dtype` as fill()
/// converts (numpy's full; without `dtype`, numpy's type of the value). Throws as fill().
template <ExpressionScalar T>
Array full(const Queue& queue, std::vector<std::size_t> shape, T value,
           const std::optional<DType>& dtype = std::nullopt, Order order = Order::C) {
  return detail::full(queue, std::move(shape), detail::to_scalar_value(value), dtype, order);
}

/// numpy's arange(start, stop, step): ceil((stop - start) / step) values (none if that is not
/// positive), computed as the file comment says. Integers give an exact length; reals the
/// ceiling of the double quotient, as numpy's. Throws LogicError for a step of 0, a NaN
/// length, complex arguments, an unsupported dtype, a start or second value that does not
/// fit an integer dtype (numpy's OverflowError).
template <ExpressionScalar A, ExpressionScalar B, ExpressionScalar C = int>
Array arange(const Queue& queue, A start, B stop, C step = 1,
             const std::optional<DType>& dtype = std::nullopt) {
  return detail::arange(queue, detail::to_scalar_value(start), detail::to_scalar_value(stop),
                        detail::to_scalar_value(step), dtype);
}
/// numpy's arange(stop): arange(0, stop, 1).
template <ExpressionScalar T>
Array arange(const Queue& queue, T stop, const std::optional<DType>& dtype = std::nullopt) {
  return detail::arange(queue, std::int64_t{0}, detail::to_scalar_value(stop), std::int64_t{1},
                        dtype);
}

/// `num` values from `start` to `stop` (numpy's linspace; `stop` included when `endpoint`),
/// computed as the file comment says. Throws LogicError for complex arguments or an
/// unsupported dtype.
template <ExpressionScalar A, ExpressionScalar B>
Array linspace(const Queue& queue, A start, B stop, std::size_t num = 50, bool endpoint = true,
               const std::optional<DType>& dtype = std::nullopt) {
  return detail::linspace(queue, detail::to_scalar_value(start), detail::to_scalar_value(stop), num,
                          endpoint, dtype);
}

/// An `n` x `m` array (m = n when absent) with ones on diagonal `k` (0 the main one, positive
/// above it, negative below) and zeros elsewhere (numpy's eye). Throws LogicError for a struct
/// dtype.
PLINTH_EXPORT Array eye(const Queue& queue, std::size_t n,
                        std::optional<std::size_t> m = std::nullopt, std::ptrdiff_t k = 0,
                        const DType& dtype = DType::float64(), Order order = Order::C);

/// A new array of `like`'s shape, of `dtype` (default `like`'s) in `order` (default: see the
/// file comment), with undefined contents (numpy's empty_like; Array::empty_like is grunnur's,
/// always C order). `like` may be on any device. Throws as Array::empty().
PLINTH_EXPORT Array empty_like(const Queue& queue, const Array& like,
                               const std::optional<DType>& dtype = std::nullopt,
                               std::optional<Order> order = std::nullopt);
/// As empty_like(), every element 0 (numpy's zeros_like). Throws as zeros().
PLINTH_EXPORT Array zeros_like(const Queue& queue, const Array& like,
                               const std::optional<DType>& dtype = std::nullopt,
                               std::optional<Order> order = std::nullopt);
/// As empty_like(), every element 1 (numpy's ones_like). Throws as ones().
PLINTH_EXPORT Array ones_like(const Queue& queue, const Array& like,
                              const std::optional<DType>& dtype = std::nullopt,
                              std::optional<Order> order = std::nullopt);
/// As empty_like(), every element `value` converted to the dtype (numpy's full_like; the dtype
/// is `like`'s unless given). Throws as fill().
template <ExpressionScalar T>
Array full_like(const Queue& queue, const Array& like, T value,
                const std::optional<DType>& dtype = std::nullopt,
                std::optional<Order> order = std::nullopt) {
  return detail::full(queue, like.shape(), detail::to_scalar_value(value),
                      dtype.value_or(like.dtype()), order.value_or(detail::like_order(like)));
}

/// A new MultiArray of `shape` split among the devices of `queues` by `splay` (default
/// EqualSplay), every element `value` converted to `dtype` (default: numpy's type of the
/// value), each part filled on its device's queue. Throws as MultiArray::empty() and fill().
template <ExpressionScalar T>
MultiArray full(const MultiQueue& queues, std::vector<std::size_t> shape, T value,
                const std::optional<DType>& dtype = std::nullopt,
                std::shared_ptr<const BaseSplay> splay = nullptr) {
  return detail::full(queues, std::move(shape), detail::to_scalar_value(value), dtype,
                      std::move(splay));
}
/// full() on a MultiQueue with the value 0 (numpy's zeros). Throws as full().
PLINTH_EXPORT MultiArray zeros(const MultiQueue& queues, std::vector<std::size_t> shape,
                               const DType& dtype = DType::float64(),
                               std::shared_ptr<const BaseSplay> splay = nullptr);

}  // namespace plinth
