#pragma once

// The one way into the state behind the public handles, for the core, the Python module and
// tests of internals. Not API: user code must not name it.
//
// The handles (Buffer, Context, Queue, ...) keep their constructors from that state and their
// getters for it private, and befriend this struct, which forwards to them. One friend instead
// of one per user keeps what may reach inside in one place, and keeps those members out of
// the public API and its reference. Private members keep their mangled names, so moving them
// here changed nothing in libplinth's exported symbols.

#include <utility>

namespace plinth::detail {

struct Access {
  /// The handle's state: the shared_ptr its copies share (`impl()`).
  template <class T>
  static decltype(auto) impl(const T& handle) noexcept {
    return handle.impl();
  }

  /// The plugin's adapter behind a Buffer, Image, Sampler, Queue or Event.
  template <class T>
  static decltype(auto) adapter(const T& handle) {
    return handle.adapter();
  }

  /// A handle made with one of its private constructors (from its state).
  template <class T, class... Args>
  static T make(Args&&... args) {
    return T(std::forward<Args>(args)...);
  }

  /// An Event's detail::EventKind.
  template <class T>
  static auto kind(const T& event) noexcept {
    return event.kind();
  }

  /// The Template a DefTemplate belongs to (null for a standalone def).
  template <class T>
  static decltype(auto) owner(const T& def) noexcept {
    return def.owner();
  }
};

}  // namespace plinth::detail
