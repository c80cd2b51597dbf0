#include <plinth/errors.hpp>
#include <plinth/module.hpp>

#include "templates/template.hpp"

#include <fmt/format.h>

namespace plinth {

namespace {

// A def from `source`: one <%def ...> block, or else a body with `parameters`.
DefTemplate def_from_string(std::string source, std::string name,
                            std::vector<std::string> parameters) {
  const auto first = source.find_first_not_of(" \t\r\n");
  if (first == std::string::npos || source.compare(first, 5, "<%def") != 0)
    return DefTemplate::from_string(std::move(name), std::move(source), std::move(parameters));
  const auto parsed = detail::parse_template(source, "<string>");
  if (parsed->defs.size() != 1 ||
      parsed->body->text.find_first_not_of(" \t\r\n") != std::string::npos)
    throw RenderError(fmt::format(
        "a source that starts with <%def must be exactly one <%def>…</%def> block: {}", source));
  auto def = *parsed->defs.front();
  def.origin.clear();  // a standalone def, not part of a template
  return detail::Access::make<DefTemplate>(std::make_shared<const detail::DefData>(std::move(def)));
}

}  // namespace

namespace detail {

SnippetData::~SnippetData() {
  NodeRelease release;  // a chain of Snippets and Modules is released in a loop
  release.take(def);
  release.take(globals);
}

ModuleData::~ModuleData() {
  NodeRelease release;
  release.take(def);
  release.take(globals);
}

}  // namespace detail

Snippet::Snippet(DefTemplate def, RenderGlobals globals)
    : impl_(std::make_shared<const detail::SnippetData>(std::move(def), std::move(globals))) {}

Snippet Snippet::from_string(std::string source, std::string name, RenderGlobals globals) {
  return Snippet(def_from_string(std::move(source), std::move(name), {}), std::move(globals));
}

const std::string& Snippet::name() const { return impl_->def.name(); }
const DefTemplate& Snippet::def() const { return impl_->def; }
const RenderGlobals& Snippet::globals() const { return impl_->globals; }

Module::Module(DefTemplate def, RenderGlobals globals) {
  if (def.parameters().empty())
    throw LogicError(fmt::format(
        "module '{}' has no parameters; its first parameter receives the prefix", def.name()));
  impl_ = std::make_shared<const detail::ModuleData>(std::move(def), std::move(globals));
}

Module Module::from_string(std::string source, std::string name, RenderGlobals globals) {
  return Module(def_from_string(std::move(source), std::move(name), {"prefix"}),
                std::move(globals));
}

const std::string& Module::name() const { return impl_->def.name(); }
const DefTemplate& Module::def() const { return impl_->def; }
const RenderGlobals& Module::globals() const { return impl_->globals; }

}  // namespace plinth
