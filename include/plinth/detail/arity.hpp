#pragma once

// The number of parameters of a callable, for DefTemplate::from_callable (template.hpp). Its
// own header because Doxygen, which reads template.hpp, mistakes the primary template's
// derivation from its own specialization for a recursive class relation.

#include <cstddef>
#include <type_traits>

namespace plinth::detail {

// The number of parameters of a function pointer, a lambda (not a generic one), or a
// function object with one non-template operator().
template <class F>
struct Arity : Arity<decltype(&F::operator())> {};
template <class R, class... A, bool NE>
struct Arity<R (*)(A...) noexcept(NE)> : std::integral_constant<std::size_t, sizeof...(A)> {};
template <class R, class C, class... A, bool NE>
struct Arity<R (C::*)(A...) const noexcept(NE)>
    : std::integral_constant<std::size_t, sizeof...(A)> {};
template <class R, class C, class... A, bool NE>
struct Arity<R (C::*)(A...) noexcept(NE)> : std::integral_constant<std::size_t, sizeof...(A)> {};

}  // namespace plinth::detail
