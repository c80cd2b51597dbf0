#pragma once

// The state behind DefTemplate, Template, Snippet and Module. Internal to the core.

#include <plinth/module.hpp>
#include <plinth/template.hpp>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace plinth::detail {

struct DefData {
  std::string name;
  std::vector<std::string> parameters;
  std::string text;  // the body, when `callable` is empty
  DefTemplate::Body callable;
  std::string origin;  // the template it belongs to, for messages; empty if standalone
};

struct TemplateData {
  std::string name;
  std::shared_ptr<const DefData> body;
  std::vector<std::shared_ptr<const DefData>> defs;       // in order of appearance
  std::map<std::string, std::size_t, std::less<>> index;  // defs by name

  const std::shared_ptr<const DefData>* find(std::string_view def_name) const {
    const auto found = index.find(def_name);
    return found == index.end() ? nullptr : &defs[found->second];
  }
};

// Snippets, Modules, lists and maps hold each other through shared_ptrs, so a chain of them
// can be as long as memory allows. Destroying one of them hands its children to a
// NodeRelease, which releases them in a loop instead of a recursion as deep as the chain:
// the releases that start while one is already running on this thread add to its work list.
class NodeRelease {
 public:
  NodeRelease() = default;
  NodeRelease(const NodeRelease&) = delete;
  NodeRelease& operator=(const NodeRelease&) = delete;
  // Releases what was taken, and what that holds in turn.
  ~NodeRelease();

  // Take the shared objects (Snippets, Modules, lists, maps, def bodies) held by what they
  // are given, when the given object is their last owner; the rest is left in place, where
  // its release does not reach further.
  void take(RenderValue& value) noexcept;
  void take(RenderValue::List& list) noexcept;
  void take(RenderValue::Map& map) noexcept;
  void take(DefTemplate& def) noexcept;

 private:
  void take(std::shared_ptr<const void> node) noexcept;

  std::vector<std::shared_ptr<const void>> nodes_;
};

struct SnippetData {
  SnippetData(DefTemplate snippet_def, RenderGlobals snippet_globals)
      : def(std::move(snippet_def)), globals(std::move(snippet_globals)) {}
  SnippetData(const SnippetData&) = delete;
  SnippetData& operator=(const SnippetData&) = delete;
  ~SnippetData();

  DefTemplate def;
  RenderGlobals globals;
};

struct ModuleData {
  ModuleData(DefTemplate module_def, RenderGlobals module_globals)
      : def(std::move(module_def)), globals(std::move(module_globals)) {}
  ModuleData(const ModuleData&) = delete;
  ModuleData& operator=(const ModuleData&) = delete;
  ~ModuleData();

  DefTemplate def;
  RenderGlobals globals;
};

// Throws LogicError unless `name` is a C identifier; `what` says what it names.
void check_identifier(const std::string& name, const char* what);

// Parses `<%def name="f(a, b)">` ... `</%def>` blocks out of `text`. Throws RenderError
// naming `template_name` and the line.
std::shared_ptr<const TemplateData> parse_template(const std::string& text,
                                                   const std::string& template_name);

}  // namespace plinth::detail
