#pragma once

/// \file
/// Snippets and Modules: reusable pieces of kernel source, bound to render globals and used
/// from templates through placeholders.
///
///     // A Module renders once at the top of the source; `${mul}` becomes its prefix.
///     auto mul = Module::from_string(
///         "FUNCTION float ${prefix}(float a, float b) { return a * b; }", "mul");
///     // A Snippet renders in place, with arguments.
///     auto twice = Snippet::from_string(R"~(<%def name="twice(x)">${mul}(${x}, 2)</%def>)~", "",
///                                       {{"mul", mul}});
///     render_source("y = ${twice(x)};", {}, {{"twice", twice}, {"x", "x"}});
///     // FUNCTION float _mod_mul_0_(float a, float b) { return a * b; }
///     // y = _mod_mul_0_(x, 2);

#include <plinth/detail/access.hpp>
#include <plinth/export.hpp>
#include <plinth/template.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace plinth {

/// A def rendered in place, with its own render globals: `${snip}` renders it with no
/// arguments, `${snip(x, y)}` with the arguments the caller's names `x`, `y` are bound to.
/// Cheap to copy (shared, immutable).
class PLINTH_EXPORT Snippet {
 public:
  /// A snippet that renders `def` with `globals` (its own: not the caller's).
  explicit Snippet(DefTemplate def, RenderGlobals globals = {});

  /// `source` is a body with no parameters (the snippet is called `name`), or one
  /// `<%def name="f(a, b)">…</%def>` block whose name and parameters it takes.
  /// Throws RenderError for a malformed def, LogicError for a bad name.
  static Snippet from_string(std::string source, std::string name = "_snippet",
                             RenderGlobals globals = {});
  /// A Snippet whose body is `callable` (see DefTemplate::from_callable): it receives the
  /// arguments named by `parameters` and returns the source text.
  template <class F>
  static Snippet from_callable(F callable, std::vector<std::string> parameters = {},
                               std::string name = "_snippet", RenderGlobals globals = {}) {
    return Snippet(
        DefTemplate::from_callable(std::move(name), std::move(parameters), std::move(callable)),
        std::move(globals));
  }

  /// The def's name.
  const std::string& name() const;
  /// The def it renders.
  const DefTemplate& def() const;
  /// The render globals its def sees.
  const RenderGlobals& globals() const;

  ///@{
  /// Copies share the object. Moving copies too (there are no move operations), so a
  /// moved-from Snippet still refers to its object and every call on it is defined.
  Snippet(const Snippet&) = default;
  Snippet& operator=(const Snippet&) = default;
  ~Snippet() = default;
  ///@}

  /// True for copies of one Snippet (identity: two snippets made alike are not equal).
  friend bool operator==(const Snippet& a, const Snippet& b) noexcept { return a.impl_ == b.impl_; }

 private:
  friend struct detail::Access;

  explicit Snippet(std::shared_ptr<const detail::SnippetData> impl) : impl_(std::move(impl)) {}
  const std::shared_ptr<const detail::SnippetData>& impl() const { return impl_; }

  std::shared_ptr<const detail::SnippetData> impl_;
};

/// A def rendered once at the root of the source, before the code that uses it; its first
/// parameter receives a unique prefix `_mod_<name>_<n>_`, which the module puts on every
/// global name it defines, and the placeholder that uses it renders as that prefix
/// (`${mod}func(x)` calls the module's `${prefix}func`). Within one render, the same Module
/// object (or a copy of it) called with equal arguments renders once; each distinct argument
/// list renders once more, with a new prefix. Cheap to copy (shared, immutable).
class PLINTH_EXPORT Module {
 public:
  /// Throws LogicError if `def` has no parameters (the first receives the prefix).
  explicit Module(DefTemplate def, RenderGlobals globals = {});

  /// `source` is a body whose one parameter, `prefix`, receives the prefix (the module is
  /// called `name`), or one `<%def name="m(prefix, a)">…</%def>` block whose name and
  /// parameters it takes. Throws RenderError for a malformed def, LogicError as the
  /// constructor.
  static Module from_string(std::string source, std::string name = "_module",
                            RenderGlobals globals = {});
  /// A Module whose body is `callable` (see DefTemplate::from_callable); the callable's first
  /// parameter, `parameters[0]`, receives the prefix.
  template <class F>
  static Module from_callable(F callable, std::vector<std::string> parameters = {"prefix"},
                              std::string name = "_module", RenderGlobals globals = {}) {
    return Module(
        DefTemplate::from_callable(std::move(name), std::move(parameters), std::move(callable)),
        std::move(globals));
  }

  /// The def's name (part of the prefix).
  const std::string& name() const;
  /// The def it renders; its first parameter receives the prefix.
  const DefTemplate& def() const;
  /// The render globals its def sees.
  const RenderGlobals& globals() const;

  ///@{
  /// Copies share the object. Moving copies too (there are no move operations), so a
  /// moved-from Module still refers to its object and every call on it is defined.
  Module(const Module&) = default;
  Module& operator=(const Module&) = default;
  ~Module() = default;
  ///@}

  /// True for copies of one Module (identity: two modules made alike are not equal).
  friend bool operator==(const Module& a, const Module& b) noexcept { return a.impl_ == b.impl_; }

 private:
  friend struct detail::Access;

  explicit Module(std::shared_ptr<const detail::ModuleData> impl) : impl_(std::move(impl)) {}
  const std::shared_ptr<const detail::ModuleData>& impl() const { return impl_; }

  std::shared_ptr<const detail::ModuleData> impl_;
};

}  // namespace plinth

namespace std {

/// Hashes a Snippet by identity, consistently with operator==: copies of one snippet hash alike.
/// For unordered containers keyed by Snippet. Never throws.
template <>
struct hash<plinth::Snippet> {
  /// The hash of the snippet `snippet` refers to.
  std::size_t operator()(const plinth::Snippet& snippet) const noexcept {
    return std::hash<const void*>{}(plinth::detail::Access::impl(snippet).get());
  }
};

/// Hashes a Module by identity, consistently with operator==: copies of one module hash alike.
/// For unordered containers keyed by Module. Never throws.
template <>
struct hash<plinth::Module> {
  /// The hash of the module `module` refers to.
  std::size_t operator()(const plinth::Module& module) const noexcept {
    return std::hash<const void*>{}(plinth::detail::Access::impl(module).get());
  }
};

}  // namespace std
