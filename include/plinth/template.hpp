#pragma once

/// \file
/// Kernel templates: source text with `${name}` and `${name(arg, ...)}` placeholders.
///
/// A placeholder names a render global or a parameter of the def being rendered, optionally
/// followed by `.field` (a map key) or `.N` (a list index, also written `[N]`, as in
/// `${device_params.max_local_sizes[0]}`), and optionally called with
/// arguments; an argument is such a name or a literal (`42`, `-1.5e3`, `"text"`). A literal
/// alone renders as itself, so `${"${"}` writes a literal `${`. An integer literal is an
/// int64_t (a uint64_t above that range), any other number a finite double; a number that does
/// not fit (`99999999999999999999999`, `1e999`, an index `.N` beyond size_t) is a RenderError.
/// What a name renders to depends on its RenderValue: strings and numbers verbatim, Snippets
/// in place, Modules as their prefix (see module.hpp and render.hpp). There is no template
/// language: control flow lives in C++ callables that return source text
/// (DefTemplate::from_callable).

#include <plinth/detail/access.hpp>
#include <plinth/detail/arity.hpp>
#include <plinth/export.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace plinth {

namespace detail {
struct DefData;
struct TemplateData;
struct SnippetData;
struct ModuleData;
class NodeRelease;
}  // namespace detail

class Snippet;
class Module;
class RenderValue;

/// Objects other than the built-in RenderValue kinds take part in rendering through this
/// customisation point (grunnur's `__process_modules__`): declare, next to your type,
///
///     plinth::RenderValue to_render_value(const MyType& object);
///
/// returning what the object stands for, usually a RenderValue::Map of its fields. The
/// object can then be used as a render global or argument; `${object.field}` reaches the
/// fields, and Modules and Snippets among them render as any other (found where they are used).
template <class T>
concept RenderConvertible = !
std::same_as<std::remove_cvref_t<T>, RenderValue>&& requires(const T& object) {
                                                      {
                                                        to_render_value(object)
                                                        } -> std::same_as<RenderValue>;
                                                    };

/// What a placeholder or a def argument is bound to: nothing, a bool, an integer, a double,
/// a string, a Snippet, a Module, a list or a map of RenderValues. Cheap to copy (lists and
/// maps are shared and immutable). Converts implicitly from all of these and from
/// RenderConvertible objects. Lists and maps may nest, and Snippets and Modules may hold each
/// other, as deep as memory allows: they are compared and destroyed in loops, not recursions.
class PLINTH_EXPORT RenderValue {
 public:
  /// A list: placeholders index it as `${x.0}` or `${x[0]}`.
  using List = std::vector<RenderValue>;
  /// A map: placeholders reach its entries as `${x.key}`.
  using Map = std::map<std::string, RenderValue>;

  /// Nothing: renders as an error, useful as a default.
  RenderValue() = default;
  ///@{
  /// Copies share lists, maps, Snippets and Modules (all immutable).
  RenderValue(const RenderValue&) = default;
  RenderValue& operator=(const RenderValue&) = default;
  ///@}
  /// Leaves `other` as nothing (never a Snippet or Module without its object).
  RenderValue(RenderValue&& other) noexcept : value_(std::move(other.value_)) {
    other.value_ = std::monostate{};
  }
  /// Leaves `other` as nothing.
  RenderValue& operator=(RenderValue&& other) noexcept {
    value_ = std::move(other.value_);
    other.value_ = std::monostate{};
    return *this;
  }
  ~RenderValue() = default;
  ///@{
  /// Renders as the text itself (not quoted).
  RenderValue(std::string text) : value_(std::move(text)) {}         // NOLINT
  RenderValue(std::string_view text) : value_(std::string(text)) {}  // NOLINT
  RenderValue(const char* text) : value_(std::string(text)) {}       // NOLINT
  ///@}
  /// Renders as `true` or `false`.
  template <std::same_as<bool> T>
  RenderValue(T flag) : value_(flag) {}  // NOLINT
  /// Renders as the plain decimal number.
  template <std::integral T>
    requires(!std::same_as<T, bool>)
  RenderValue(T number) {  // NOLINT
    if constexpr (std::is_signed_v<T>)
      value_ = static_cast<std::int64_t>(number);
    else
      value_ = static_cast<std::uint64_t>(number);
  }
  /// Renders with the fewest digits that read back as the same double, always with a point or
  /// an exponent (`1.0`, `0.1`, `1e+100`), so C parses a double. Non-finite values cannot be
  /// rendered (RenderError when used).
  template <std::floating_point T>
  RenderValue(T number) : value_(static_cast<double>(number)) {}  // NOLINT
  /// A Snippet, rendered in place where a placeholder names or calls it.
  RenderValue(const Snippet& snippet);  // NOLINT
  /// A Module, rendered once at the root; a placeholder that names it renders its prefix.
  RenderValue(const Module& module);  // NOLINT
  /// A list, shared (see List).
  RenderValue(List list);  // NOLINT
  /// A map, shared (see Map).
  RenderValue(Map map);  // NOLINT
  /// Through the object's to_render_value() (see RenderConvertible).
  template <RenderConvertible T>
  RenderValue(const T& object) : RenderValue(to_render_value(object)) {}  // NOLINT

  /// Whether this is nothing (the default).
  bool is_none() const { return value_.index() == 0; }
  /// Whether this is a bool.
  bool is_bool() const { return std::holds_alternative<bool>(value_); }
  /// Whether this is an integer (signed or unsigned).
  bool is_integer() const;
  ///@{
  /// Whether this is a double, a string, a Snippet, a Module, a list or a map.
  bool is_double() const { return std::holds_alternative<double>(value_); }
  bool is_string() const { return std::holds_alternative<std::string>(value_); }
  bool is_snippet() const;
  bool is_module() const;
  bool is_list() const;
  bool is_map() const;
  ///@}

  /// The value itself. Each throws LogicError naming both kinds if this is another kind.
  bool as_bool() const;
  /// Also for an unsigned integer that fits.
  std::int64_t as_int() const;
  /// Also for an integer.
  double as_double() const;
  ///@{
  /// The string, Snippet, Module, list or map itself; LogicError for another kind.
  const std::string& as_string() const;
  Snippet as_snippet() const;
  Module as_module() const;
  const List& as_list() const;
  const Map& as_map() const;
  ///@}
  /// An element of a list. Throws LogicError if this is not a list or `index` is too large.
  const RenderValue& operator[](std::size_t index) const;
  /// An entry of a map. Throws LogicError if this is not a map or has no `key`.
  const RenderValue& operator[](std::string_view key) const;

  /// What the kind is called in messages: "none", "bool", "integer", "double", "string",
  /// "Snippet", "Module", "list" or "map".
  std::string_view kind_name() const;
  /// The text of a bool, number or string as a placeholder renders it. Throws LogicError
  /// for the other kinds (which render only as placeholders) and for non-finite doubles.
  std::string to_string() const;

  /// Equal kinds and values; Snippets and Modules are equal when they are the same object
  /// (copies of one handle). Decides when a Module call renders again (module.hpp).
  /// Compares nested lists and maps in a loop, so their depth is limited only by memory.
  friend PLINTH_EXPORT bool operator==(const RenderValue& a, const RenderValue& b);

 private:
  friend class detail::NodeRelease;  // releases nested values without recursion

  std::variant<std::monostate, bool, std::int64_t, std::uint64_t, double, std::string,
               std::shared_ptr<const detail::SnippetData>,
               std::shared_ptr<const detail::ModuleData>, std::shared_ptr<const List>,
               std::shared_ptr<const Map>>
      value_;
};

/// Names bound for a whole render: what `${name}` finds when no def parameter has that name.
using RenderGlobals = RenderValue::Map;

/// A named, parametrised template body: either text with placeholders, or a C++ callable that
/// receives the arguments and returns such text (rendered afterwards, with the parameters and
/// globals in scope). Cheap to copy (shared, immutable).
class PLINTH_EXPORT DefTemplate {
 public:
  /// A callable body: receives one RenderValue per parameter, returns the source text.
  using Body = std::function<std::string(std::span<const RenderValue> args)>;

  /// A def `name(parameters...)` with the body `text`.
  /// Throws LogicError if a name is not a C identifier or a parameter repeats.
  static DefTemplate from_string(std::string name, std::string text,
                                 std::vector<std::string> parameters = {});
  /// A def whose body is `body`, called with exactly `parameters.size()` arguments.
  static DefTemplate from_body(std::string name, std::vector<std::string> parameters, Body body);
  /// A def whose body is `callable`, which takes one argument per parameter (each a
  /// `const RenderValue&` or something it converts to) and returns the source text:
  ///
  ///     auto def = DefTemplate::from_callable("load", {"ctype", "ptr"},
  ///         [](const RenderValue& ctype, const RenderValue&) -> std::string {
  ///           return ctype.as_string() == "float" ? "${ptr}[0]" : "(${ctype})${ptr}[0]";
  ///         });
  ///
  /// Throws LogicError if the callable's arity is not `parameters.size()`, or as from_string.
  /// Exceptions the callable throws while rendering become RenderErrors.
  template <class F>
  static DefTemplate from_callable(std::string name, std::vector<std::string> parameters,
                                   F callable);

  /// The def's name, as placeholders call it.
  const std::string& name() const;
  /// The parameter names, in call order.
  const std::vector<std::string>& parameters() const;
  /// The body text; empty for a callable body.
  const std::string& text() const;
  /// `name(a, b)`, and where the def comes from (`in templates.cl`), as messages show it.
  std::string signature() const;

  ///@{
  /// Copies share the def. Moving copies too (there are no move operations), so a
  /// moved-from DefTemplate still refers to its def and every call on it is defined.
  DefTemplate(const DefTemplate&) = default;
  DefTemplate& operator=(const DefTemplate&) = default;
  ~DefTemplate() = default;
  ///@}

 private:
  friend struct detail::Access;

  explicit DefTemplate(std::shared_ptr<const detail::DefData> def,
                       std::shared_ptr<const detail::TemplateData> owner = {});
  const std::shared_ptr<const detail::DefData>& impl() const { return def_; }
  // The Template this def belongs to (null for a standalone def).
  const std::shared_ptr<const detail::TemplateData>& owner() const { return owner_; }

  friend class detail::NodeRelease;  // releases a chain of defs without recursion

  std::shared_ptr<const detail::DefData> def_;
  std::shared_ptr<const detail::TemplateData> owner_;
};

/// A file or string of named, parametrised defs, plus optional top-level text (the
/// template's own body, with no parameters):
///
///     <%def name="add(a, b)">${a} + ${b}</%def>
///     <%def name="kernel_body(x)">
///     y = ${add(x, 1)};
///     </%def>
///     ...top-level text...
///
/// A def's body is the text between `>` and `</%def>`, less one newline right after `>` and
/// the indentation before `</%def>`; a newline right after `</%def>` belongs to the def
/// block. The defs of one template see each other: `${add(x, 1)}` above renders the def
/// `add` in place, as a Snippet with the caller's globals (a def parameter or a def shadows
/// a global of the same name). Defs do not nest. Cheap to copy (shared, immutable).
class PLINTH_EXPORT Template {
 public:
  /// Parses `text`; `name` identifies it in messages. Throws RenderError naming the template
  /// and the line for a malformed `<%def ...>` or a missing `</%def>`.
  static Template from_string(std::string text, std::string name = "<string>");
  /// Parses the file at `path` (named by its path in messages). Throws RenderError if it
  /// cannot be read, or as from_string.
  static Template from_file(const std::filesystem::path& path);

  /// The name given to from_string(), or the path given to from_file().
  const std::string& name() const;
  /// The def `name`. Throws RenderError naming the template and its defs if it has none.
  DefTemplate get_def(std::string_view name) const;
  /// The names of the defs, in the order they appear.
  std::vector<std::string> def_names() const;
  /// The top-level text as a def with no parameters, named after the template.
  DefTemplate body() const;

  ///@{
  /// Copies share the template. Moving copies too (there are no move operations), so a
  /// moved-from Template still refers to its template and every call on it is defined.
  Template(const Template&) = default;
  Template& operator=(const Template&) = default;
  ~Template() = default;
  ///@}

 private:
  explicit Template(std::shared_ptr<const detail::TemplateData> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const detail::TemplateData> impl_;
};

namespace detail {

PLINTH_EXPORT void check_arity(const std::string& name, std::size_t parameters, std::size_t arity);

}  // namespace detail

template <class F>
DefTemplate DefTemplate::from_callable(std::string name, std::vector<std::string> parameters,
                                       F callable) {
  constexpr std::size_t arity = detail::Arity<std::decay_t<F>>::value;
  detail::check_arity(name, parameters.size(), arity);
  Body body = [callable = std::move(callable)](std::span<const RenderValue> args) mutable {
    (void)args;  // unused when arity is 0
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return std::string(callable(args[I]...));
    }
    (std::make_index_sequence<arity>{});
  };
  return from_body(std::move(name), std::move(parameters), std::move(body));
}

}  // namespace plinth
