#pragma once

// numpy arrays <-> plinth::HostArray, without copying where the layout allows.

#include <plinth/host_array.hpp>

#include <nanobind/nanobind.h>

namespace plinth::python {

namespace nb = nanobind;

/// A numpy array (or anything numpy.asarray() takes: lists, scalars, buffer-protocol objects)
/// as a HostArray over the same memory, strides included (a HostArray::wrap of it).
/// `converted` receives the numpy array the HostArray points into: the caller keeps it alive
/// as long as the HostArray is used. With `writable`, a read-only array is a LogicError.
/// With `dtype`, the object is converted to it first (numpy.asarray(object, dtype)), which
/// copies only if the dtype differs. Throws LogicError for what plinth has no dtype for.
HostArray host_view(nb::handle object, nb::object& converted, bool writable = false,
                    const std::optional<DType>& dtype = std::nullopt);

/// A numpy array over `host`'s elements (shape, dtype, strides), keeping `host` alive.
/// No copy.
nb::object to_numpy(const HostArray& host);

}  // namespace plinth::python
