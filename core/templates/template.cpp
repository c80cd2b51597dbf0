#include <plinth/errors.hpp>
#include <plinth/template.hpp>

#include "templates/identifiers.hpp"
#include "templates/template.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace plinth {

// ---- RenderValue ----

namespace {

using SnippetPtr = std::shared_ptr<const detail::SnippetData>;
using ModulePtr = std::shared_ptr<const detail::ModuleData>;
using ListPtr = std::shared_ptr<const RenderValue::List>;
using MapPtr = std::shared_ptr<const RenderValue::Map>;

// Deletes a list or a map after handing its elements to a NodeRelease (no recursion).
struct ReleasingDelete {
  template <class T>
  void operator()(const T* node) const noexcept {
    detail::NodeRelease release;
    release.take(*const_cast<T*>(node));  // allocated non-const by RenderValue
    delete node;
  }
};

}  // namespace

RenderValue::RenderValue(const Snippet& snippet) : value_(detail::Access::impl(snippet)) {}
RenderValue::RenderValue(const Module& module) : value_(detail::Access::impl(module)) {}
RenderValue::RenderValue(List list)
    : value_(ListPtr(new List(std::move(list)), ReleasingDelete{})) {}
RenderValue::RenderValue(Map map) : value_(MapPtr(new Map(std::move(map)), ReleasingDelete{})) {}

bool RenderValue::is_integer() const {
  return std::holds_alternative<std::int64_t>(value_) ||
         std::holds_alternative<std::uint64_t>(value_);
}
bool RenderValue::is_snippet() const { return std::holds_alternative<SnippetPtr>(value_); }
bool RenderValue::is_module() const { return std::holds_alternative<ModulePtr>(value_); }
bool RenderValue::is_list() const { return std::holds_alternative<ListPtr>(value_); }
bool RenderValue::is_map() const { return std::holds_alternative<MapPtr>(value_); }

std::string_view RenderValue::kind_name() const {
  static constexpr std::array<std::string_view, 10> names{
      "none", "bool", "integer", "integer", "double", "string", "Snippet", "Module", "list", "map"};
  return names[value_.index()];
}

namespace {

[[noreturn]] void wrong_kind(const RenderValue& value, std::string_view wanted) {
  throw LogicError(fmt::format("RenderValue: a {} is not a {}", value.kind_name(), wanted));
}

}  // namespace

bool RenderValue::as_bool() const {
  if (!is_bool()) wrong_kind(*this, "bool");
  return std::get<bool>(value_);
}

std::int64_t RenderValue::as_int() const {
  if (const auto* number = std::get_if<std::int64_t>(&value_)) return *number;
  const auto* number = std::get_if<std::uint64_t>(&value_);
  if (number == nullptr) wrong_kind(*this, "integer");
  if (*number > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    throw LogicError(fmt::format("RenderValue: {} does not fit an int64_t", *number));
  return static_cast<std::int64_t>(*number);
}

double RenderValue::as_double() const {
  if (const auto* number = std::get_if<double>(&value_)) return *number;
  if (const auto* number = std::get_if<std::int64_t>(&value_)) return static_cast<double>(*number);
  if (const auto* number = std::get_if<std::uint64_t>(&value_)) return static_cast<double>(*number);
  wrong_kind(*this, "double");
}

const std::string& RenderValue::as_string() const {
  if (!is_string()) wrong_kind(*this, "string");
  return std::get<std::string>(value_);
}

Snippet RenderValue::as_snippet() const {
  if (!is_snippet()) wrong_kind(*this, "Snippet");
  return detail::Access::make<Snippet>(std::get<SnippetPtr>(value_));
}

Module RenderValue::as_module() const {
  if (!is_module()) wrong_kind(*this, "Module");
  return detail::Access::make<Module>(std::get<ModulePtr>(value_));
}

const RenderValue::List& RenderValue::as_list() const {
  if (!is_list()) wrong_kind(*this, "list");
  return *std::get<ListPtr>(value_);
}

const RenderValue::Map& RenderValue::as_map() const {
  if (!is_map()) wrong_kind(*this, "map");
  return *std::get<MapPtr>(value_);
}

const RenderValue& RenderValue::operator[](std::size_t index) const {
  const auto& list = as_list();
  if (index >= list.size())
    throw LogicError(fmt::format("RenderValue: index {} of a list of {}", index, list.size()));
  return list[index];
}

const RenderValue& RenderValue::operator[](std::string_view key) const {
  const auto& map = as_map();
  const auto found = map.find(std::string(key));
  if (found == map.end()) throw LogicError(fmt::format("RenderValue: the map has no '{}'", key));
  return found->second;
}

std::string RenderValue::to_string() const {
  if (const auto* flag = std::get_if<bool>(&value_)) return *flag ? "true" : "false";
  if (const auto* number = std::get_if<std::int64_t>(&value_)) return fmt::format("{}", *number);
  if (const auto* number = std::get_if<std::uint64_t>(&value_)) return fmt::format("{}", *number);
  if (const auto* text = std::get_if<std::string>(&value_)) return *text;
  if (const auto* number = std::get_if<double>(&value_)) {
    if (!std::isfinite(*number))
      throw LogicError(fmt::format("the double {} has no C literal", *number));
    // {fmt}'s shortest round-trip form; "1" must become "1.0" to stay a double in C.
    auto text = fmt::format("{}", *number);
    if (text.find_first_of(".e") == std::string::npos) text += ".0";
    return text;
  }
  if (is_snippet() || is_module())
    throw LogicError(fmt::format("a {} renders only through a placeholder", kind_name()));
  throw LogicError(fmt::format("a {} cannot be rendered as text", kind_name()));
}

bool operator==(const RenderValue& a, const RenderValue& b) {
  // Pairs of nested values still to compare: a loop, not a recursion, however deep they nest.
  std::vector<std::pair<const RenderValue*, const RenderValue*>> pending;
  const RenderValue* x = &a;
  const RenderValue* y = &b;
  for (;;) {
    if (x->value_.index() != y->value_.index()) return false;
    if (const auto* list = std::get_if<ListPtr>(&x->value_)) {
      const auto& other = std::get<ListPtr>(y->value_);
      if (*list != other) {
        if (!*list || !other || (*list)->size() != other->size()) return false;
        for (std::size_t i = 0; i < other->size(); ++i)
          pending.emplace_back(&(**list)[i], &(*other)[i]);
      }
    } else if (const auto* map = std::get_if<MapPtr>(&x->value_)) {
      const auto& other = std::get<MapPtr>(y->value_);
      if (*map != other) {
        if (!*map || !other || (*map)->size() != other->size()) return false;
        for (auto i = (*map)->begin(), j = other->begin(); i != (*map)->end(); ++i, ++j) {
          if (i->first != j->first) return false;
          pending.emplace_back(&i->second, &j->second);
        }
      }
    } else if (!std::visit(
                   [&](const auto& value) {
                     return value == std::get<std::decay_t<decltype(value)>>(y->value_);
                   },
                   x->value_)) {
      return false;
    }
    if (pending.empty()) return true;
    std::tie(x, y) = pending.back();
    pending.pop_back();
  }
}

// ---- Releasing chains ----

namespace detail {

namespace {

// The work list of the NodeRelease that is releasing on this thread, if one is.
thread_local std::vector<std::shared_ptr<const void>>* releasing = nullptr;

}  // namespace

NodeRelease::~NodeRelease() {
  if (nodes_.empty()) return;  // (also when another NodeRelease was releasing: see take)
  auto* const outer = std::exchange(releasing, &nodes_);
  while (!nodes_.empty()) {
    auto node = std::move(nodes_.back());
    nodes_.pop_back();
    node.reset();  // what the node holds goes onto nodes_ (through take), not deeper
  }
  releasing = outer;
}

void NodeRelease::take(std::shared_ptr<const void> node) noexcept {
  auto& nodes = releasing != nullptr ? *releasing : nodes_;
  try {
    nodes.push_back(std::move(node));
  } catch (...) {
    // No memory for the work list: release `node` here (by recursion, where it is a chain).
  }
}

void NodeRelease::take(RenderValue& value) noexcept {
  std::visit(
      [&](auto& held) {
        if constexpr (std::is_same_v<std::decay_t<decltype(held)>, SnippetPtr> ||
                      std::is_same_v<std::decay_t<decltype(held)>, ModulePtr> ||
                      std::is_same_v<std::decay_t<decltype(held)>, ListPtr> ||
                      std::is_same_v<std::decay_t<decltype(held)>, MapPtr>) {
          if (held.use_count() == 1) take(std::shared_ptr<const void>(std::move(held)));
        }
      },
      value.value_);
}

void NodeRelease::take(RenderValue::List& list) noexcept {
  for (auto& value : list) take(value);
}

void NodeRelease::take(RenderValue::Map& map) noexcept {
  for (auto& entry : map) take(entry.second);
}

void NodeRelease::take(DefTemplate& def) noexcept {
  // A callable body may hold Snippets or Modules (say, a lambda's captures).
  // Only from the destructor of what holds `def`: leaves it without its data.
  if (def.def_.use_count() != 1) return;
  take(std::shared_ptr<const void>(std::move(def.def_)));
}

}  // namespace detail

// ---- DefTemplate ----

namespace detail {

namespace {

void check_def(const std::string& name, const std::vector<std::string>& parameters) {
  check_identifier(name, "a def name");
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    check_identifier(parameters[i], "a def parameter");
    if (std::find(parameters.begin(), parameters.begin() + static_cast<std::ptrdiff_t>(i),
                  parameters[i]) != parameters.begin() + static_cast<std::ptrdiff_t>(i))
      throw LogicError(fmt::format("def '{}': parameter '{}' repeats", name, parameters[i]));
  }
}

}  // namespace

void check_identifier(const std::string& name, const char* what) {
  if (!is_c_identifier(name))
    throw LogicError(fmt::format("'{}' is not a C identifier, so it cannot be {}", name, what));
}

void check_arity(const std::string& name, std::size_t parameters, std::size_t arity) {
  if (parameters != arity)
    throw LogicError(
        fmt::format("def '{}' has {} parameter(s), but its callable takes {} argument(s)", name,
                    parameters, arity));
}

}  // namespace detail

DefTemplate::DefTemplate(std::shared_ptr<const detail::DefData> def,
                         std::shared_ptr<const detail::TemplateData> owner)
    : def_(std::move(def)), owner_(std::move(owner)) {}

DefTemplate DefTemplate::from_string(std::string name, std::string text,
                                     std::vector<std::string> parameters) {
  detail::check_def(name, parameters);
  return DefTemplate(std::make_shared<const detail::DefData>(
      detail::DefData{std::move(name), std::move(parameters), std::move(text), {}, {}}));
}

DefTemplate DefTemplate::from_body(std::string name, std::vector<std::string> parameters,
                                   Body body) {
  detail::check_def(name, parameters);
  return DefTemplate(std::make_shared<const detail::DefData>(
      detail::DefData{std::move(name), std::move(parameters), {}, std::move(body), {}}));
}

const std::string& DefTemplate::name() const { return def_->name; }
const std::vector<std::string>& DefTemplate::parameters() const { return def_->parameters; }
const std::string& DefTemplate::text() const { return def_->text; }

std::string DefTemplate::signature() const {
  if (owner_ && def_ == owner_->body) return fmt::format("the top level of '{}'", owner_->name);
  auto signature = fmt::format("{}({})", def_->name, fmt::join(def_->parameters, ", "));
  if (!def_->origin.empty()) signature += fmt::format(" in '{}'", def_->origin);
  return signature;
}

// ---- Template ----

namespace detail {

namespace {

std::size_t line_of(std::string_view text, std::size_t pos) {
  return 1 + static_cast<std::size_t>(
                 std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
}

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

// Reads the value of `name="..."` (or '...') in the attributes of a <%def ...> tag.
std::optional<std::string_view> name_attribute(std::string_view attributes) {
  for (auto at = attributes.find("name"); at != std::string_view::npos;
       at = attributes.find("name", at + 1)) {
    auto rest = trim(attributes.substr(at + 4));
    if (rest.empty() || rest[0] != '=') continue;
    rest = trim(rest.substr(1));
    if (rest.empty() || (rest[0] != '"' && rest[0] != '\'')) return std::nullopt;
    const auto end = rest.find(rest[0], 1);
    if (end == std::string_view::npos) return std::nullopt;
    return rest.substr(1, end - 1);
  }
  return std::nullopt;
}

// Splits "f(a, b)" into the name and the parameters; nullopt if it is not of that form.
std::optional<std::pair<std::string, std::vector<std::string>>> split_signature(
    std::string_view signature) {
  signature = trim(signature);
  const auto open = signature.find('(');
  std::pair<std::string, std::vector<std::string>> result{
      std::string(trim(signature.substr(0, open))), {}};
  if (!is_c_identifier(result.first)) return std::nullopt;
  if (open == std::string_view::npos) return result;
  if (signature.back() != ')') return std::nullopt;
  const auto list = signature.substr(open + 1, signature.size() - open - 2);
  if (trim(list).empty()) return result;
  for (std::size_t start = 0;;) {
    const auto comma = list.find(',', start);
    const auto parameter = std::string(trim(list.substr(start, comma - start)));
    if (!is_c_identifier(parameter)) return std::nullopt;
    result.second.push_back(parameter);
    if (comma == std::string_view::npos) return result;
    start = comma + 1;
  }
}

}  // namespace

std::shared_ptr<const TemplateData> parse_template(const std::string& text,
                                                   const std::string& template_name) {
  const auto fail = [&](std::size_t at, const std::string& cause) {
    throw RenderError(
        fmt::format("template '{}', line {}: {}", template_name, line_of(text, at), cause));
  };
  auto data = std::make_shared<TemplateData>();
  data->name = template_name;
  std::string top_level;
  std::size_t pos = 0;
  for (auto open = text.find("<%def"); open != std::string::npos; open = text.find("<%def", pos)) {
    top_level.append(text, pos, open - pos);
    const auto tag_end = text.find('>', open);
    if (tag_end == std::string::npos) fail(open, "<%def has no closing '>'");
    const auto tag = std::string_view(text).substr(open, tag_end + 1 - open);
    const auto name = name_attribute(tag.substr(5));
    if (!name) fail(open, fmt::format("{} has no name=\"f(a, b)\" attribute", tag));
    const auto signature = split_signature(*name);
    if (!signature)
      fail(open, fmt::format("'{}' is not a def signature such as \"f(a, b)\"", *name));
    if (!data->index.emplace(signature->first, data->defs.size()).second)
      fail(open, fmt::format("def '{}' is defined twice", signature->first));

    auto body_start = tag_end + 1;
    if (body_start < text.size() && text[body_start] == '\n') ++body_start;
    const auto close = text.find("</%def>", body_start);
    if (close == std::string::npos) fail(open, fmt::format("{} has no </%def>", tag));
    if (const auto nested = text.find("<%def", body_start); nested < close)
      fail(nested, "defs do not nest");
    auto body = text.substr(body_start, close - body_start);
    if (const auto last = body.find_last_not_of(" \t");
        last != std::string::npos && body[last] == '\n')
      body.erase(last + 1);  // the indentation before </%def>

    data->defs.push_back(std::make_shared<const DefData>(
        DefData{signature->first, signature->second, std::move(body), {}, template_name}));
    pos = close + 7;
    if (pos < text.size() && text[pos] == '\n') ++pos;
  }
  top_level.append(text, pos);
  data->body = std::make_shared<const DefData>(
      DefData{template_name, {}, std::move(top_level), {}, template_name});
  return data;
}

}  // namespace detail

Template Template::from_string(std::string text, std::string name) {
  return Template(detail::parse_template(text, name));
}

Template Template::from_file(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file)
    throw RenderError(
        fmt::format("cannot read the template file '{}': {}", path.string(), std::strerror(errno)));
  std::ostringstream text;
  text << file.rdbuf();
  return from_string(text.str(), path.string());
}

const std::string& Template::name() const { return impl_->name; }

DefTemplate Template::get_def(std::string_view name) const {
  const auto* def = impl_->find(name);
  if (def == nullptr) {
    const auto names = def_names();
    throw RenderError(
        fmt::format("template '{}' has no def '{}'; its defs: {}", impl_->name, name,
                    names.empty() ? "(none)" : fmt::format("{}", fmt::join(names, ", "))));
  }
  return detail::Access::make<DefTemplate>(*def, impl_);
}

std::vector<std::string> Template::def_names() const {
  std::vector<std::string> names;
  for (const auto& def : impl_->defs) names.push_back(def->name);
  return names;
}

DefTemplate Template::body() const { return detail::Access::make<DefTemplate>(impl_->body, impl_); }

}  // namespace plinth
