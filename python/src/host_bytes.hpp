#pragma once

// Host memory of Python objects as bytes, through the buffer protocol: what Buffer's and
// Image's byte transfers take (numpy arrays, bytes, bytearray, memoryview).

#include <plinth/errors.hpp>

#include <nanobind/nanobind.h>

#include <cstddef>
#include <span>
#include <string>

namespace plinth::python {

namespace nb = nanobind;

/// A C-contiguous view of a Python object's memory through the buffer protocol (numpy
/// arrays, bytes, bytearray, memoryview), released with this object. Throws LogicError,
/// saying why, for memory that is not C-contiguous (or read-only where `writable`); Python's
/// TypeError for an object without the buffer protocol.
class BufferView {
 public:
  BufferView(nb::handle object, bool writable) {
    const int flags = PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(object.ptr(), &view_, flags) != 0) {
      const nb::python_error error;
      if (!error.matches(PyExc_BufferError) && !error.matches(PyExc_ValueError)) throw error;
      throw LogicError(
          std::string(writable ? "the destination must be a writable" : "the source must be a") +
          " C-contiguous bytes-like object (numpy array, bytes, bytearray, "
          "memoryview): " +
          error.what());
    }
  }
  BufferView(const BufferView&) = delete;
  BufferView& operator=(const BufferView&) = delete;
  ~BufferView() { PyBuffer_Release(&view_); }
  std::span<std::byte> bytes() const {
    return {static_cast<std::byte*>(view_.buf), static_cast<std::size_t>(view_.len)};
  }

 private:
  Py_buffer view_{};
};

}  // namespace plinth::python
