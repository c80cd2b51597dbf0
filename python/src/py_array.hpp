#pragma once

// plinth.Array: a plinth::Array together with the queue its operations use when none is given
// (PyOpenCL's and pygpu's model: `a.get()`, `a + b`, `a[1:3] = 0` run on `a.queue`).

#include <plinth/array.hpp>
#include <plinth/queue.hpp>

#include <optional>

namespace plinth::python {

struct PyExpression;

/// What Python's plinth.Array holds. Copying it copies the two shared handles.
struct PyArray {
  PyArray(Array array_, Queue queue_) : array(std::move(array_)), queue(std::move(queue_)) {}
  /// The expression's value (evaluated on its queue the first time; expressions.cpp): what
  /// lets every function that takes an Array take an expression too.
  explicit PyArray(const PyExpression& expression);

  Array array;
  /// The default queue: of the array's device (checked when it is set).
  Queue queue;

  /// `queue` if given, else the default one.
  const Queue& queue_or_default(const std::optional<Queue>& given) const {
    return given ? *given : queue;
  }
};

}  // namespace plinth::python
