#pragma once

// The state behind DefTemplate, Template, Snippet and Module. Internal to the core.

#include <plinth/module.hpp>
#include <plinth/template.hpp>

#include <map>
#include <string>
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
  std::vector<std::shared_ptr<const DefData>> defs;  // in order of appearance

  const std::shared_ptr<const DefData>* find(std::string_view def_name) const {
    for (const auto& def : defs)
      if (def->name == def_name) return &def;
    return nullptr;
  }
};

struct SnippetData {
  DefTemplate def;
  RenderGlobals globals;
};

struct ModuleData {
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
