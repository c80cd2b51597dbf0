#pragma once

#include <plinth/allocator.hpp>
#include <plinth/array.hpp>
#include <plinth/context.hpp>
#include <plinth/detail/access.hpp>
#include <plinth/dtype.hpp>
#include <plinth/export.hpp>
#include <plinth/host_array.hpp>
#include <plinth/per_device.hpp>
#include <plinth/queue.hpp>
#include <plinth/splay.hpp>

#include <cstddef>
#include <memory>
#include <vector>

namespace plinth {

namespace detail {
struct MultiArrayImpl;
}

/// An array divided among several devices of one context (grunnur's MultiArray): one Array
/// per device, holding the part of the whole array that the splay gives it (EqualSplay by
/// default: consecutive blocks of rows). Each part is a C-order array of its own.
///
/// As an argument of a kernel called on a MultiQueue (see PreparedKernel), each device's
/// launch receives that device's part.
///
/// A shared handle, cheap to copy; the parts are freed with the last copy.
class PLINTH_EXPORT MultiArray {
 public:
  /// A new array of `shape` and `dtype` split among `devices` by `splay` (default:
  /// EqualSplay), each part allocated by `allocator` (default: Buffer::allocate); contents
  /// undefined. Throws LogicError if the splay cannot split `shape` among `devices` (e.g.
  /// EqualSplay with more devices than rows) or returns the wrong number of parts.
  static MultiArray empty(const BoundMultiDevice& devices, std::vector<std::size_t> shape,
                          const DType& dtype, const Allocator& allocator = {},
                          std::shared_ptr<const BaseSplay> splay = nullptr);
  /// A new array on the devices of `queues` with a copy of `host`, split by `splay`; returns
  /// once the copies are done. Throws as empty().
  static MultiArray from_host(const MultiQueue& queues, const HostArray& host,
                              std::shared_ptr<const BaseSplay> splay = nullptr);

  /// Copies the whole array into a new C-order host array, each part through its device's
  /// queue. With `async`, valid after queues.synchronize() (see Array::get).
  /// Throws LogicError if `queues` has no queue on a device of the array.
  HostArray get(const MultiQueue& queues, bool async = false) const;
  /// Copies the whole array into `dest` (same shape and dtype, any layout).
  /// Throws LogicError on a shape or dtype mismatch, or if `queues` lacks a device.
  void get(const MultiQueue& queues, const HostArray& dest, bool async = false) const;
  /// Copies `src` (the whole array's shape and dtype) into the parts. Asynchronous unless
  /// `no_async` (see Array::set): `src` must stay valid until the queues are synchronized.
  /// Throws LogicError on a shape or dtype mismatch, or if `queues` lacks a device.
  void set(const MultiQueue& queues, const HostArray& src, bool no_async = false) const;
  /// Copies each part of `src` into this array's part on the same device.
  /// Throws LogicError if the two are not on the same devices, or on a part's shape or
  /// dtype mismatch.
  void set(const MultiQueue& queues, const MultiArray& src, bool no_async = false) const;

  /// A new array on the same devices with the same elements, split by `splay` instead (e.g.
  /// from EqualSplay to CloneSplay), each new part copied on the devices from the parts that
  /// hold its elements: peer copies between devices where the backend has them (PLINTH_DEBUG=
  /// transfer says how each went), ordered on `queues` after the work already enqueued
  /// there. Asynchronous unless `no_async` (copies through the host block). Throws LogicError
  /// if `queues` lacks a device of the array, or as empty() for a splay that cannot split the
  /// shape.
  MultiArray resplay(const MultiQueue& queues, std::shared_ptr<const BaseSplay> splay,
                     bool no_async = false) const;

  /// The devices, in the order of the splay's parts.
  const BoundMultiDevice& devices() const noexcept;
  /// The whole array's shape.
  const std::vector<std::size_t>& shape() const noexcept;
  /// The type of the elements (of every part).
  const DType& dtype() const noexcept;
  /// Each device's part's shape.
  const PerDevice<std::vector<std::size_t>>& shapes() const noexcept;
  /// Each device's part.
  const PerDevice<Array>& subarrays() const noexcept;
  /// The part on `device`. Throws LogicError if the array has no part there.
  const Array& operator[](const BoundDevice& device) const;
  /// How the whole array is divided among the devices.
  const BaseSplay& splay() const noexcept;

  ///@{
  /// Copies share the object. Moving copies too (there are no move operations), so a
  /// moved-from MultiArray still refers to its object and every call on it is defined.
  MultiArray(const MultiArray&) = default;
  MultiArray& operator=(const MultiArray&) = default;
  ~MultiArray() = default;
  ///@}

 private:
  friend struct detail::Access;

  explicit MultiArray(std::shared_ptr<const detail::MultiArrayImpl> impl)
      : impl_(std::move(impl)) {}

  std::shared_ptr<const detail::MultiArrayImpl> impl_;
};

}  // namespace plinth
