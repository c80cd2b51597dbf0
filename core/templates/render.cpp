#include "templates/identifiers.hpp"

#include <plinth/errors.hpp>
#include <plinth/render.hpp>

#include "templates/template.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace plinth {

namespace {

using detail::is_digit;
using detail::is_ident_char;

// ---- Placeholders: ${path}, ${path(arg, ...)}, ${literal} ----

// A name path (`a.b.0`, also written `a.b[0]`) or, when `path` is empty, a literal.
struct Expression {
  std::vector<std::string> path;
  RenderValue literal;
};

struct Placeholder {
  std::string text;  // as written, for messages
  std::size_t line = 0;
  std::size_t end = 0;  // just after the closing '}'
  Expression head;
  bool called = false;
  std::vector<Expression> args;
};

struct SyntaxError {
  std::string cause;
};

// A number literal that does not fit in its type.
struct RangeError {
  std::string cause;
};

class PlaceholderParser {
 public:
  PlaceholderParser(std::string_view text, std::size_t open) : text_(text), pos_(open + 2) {}

  Placeholder parse() {
    Placeholder placeholder;
    placeholder.head = expression();
    if (skip_spaces() == '(') {
      placeholder.called = true;
      ++pos_;
      if (skip_spaces() == ')')
        ++pos_;
      else
        for (;;) {
          placeholder.args.push_back(expression());
          const char next = skip_spaces();
          ++pos_;
          if (next == ')') break;
          if (next != ',') throw SyntaxError{"expected ',' or ')' after an argument"};
        }
    }
    if (skip_spaces() != '}') throw SyntaxError{"expected '}'"};
    placeholder.end = ++pos_;
    return placeholder;
  }

 private:
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  char skip_spaces() {
    while (peek() == ' ' || peek() == '\t' || peek() == '\n') ++pos_;
    return peek();
  }

  Expression expression() {
    const char c = skip_spaces();
    if (c == '"' || c == '\'') return {{}, string_literal(c)};
    if (is_digit(c) || c == '-' || c == '.') return {{}, number_literal()};
    if (!is_ident_char(c)) throw SyntaxError{"expected a name or a literal"};
    Expression expression;
    for (;;) {
      const auto start = pos_;
      while (is_ident_char(peek())) ++pos_;
      if (pos_ == start) throw SyntaxError{"expected a field name or an index after '.'"};
      expression.path.emplace_back(text_.substr(start, pos_ - start));
      while (peek() == '[') expression.path.push_back(subscript());
      if (peek() != '.') return expression;
      ++pos_;
    }
  }

  // `[3]`, Python's spelling of the index `.3`: the digits.
  std::string subscript() {
    ++pos_;
    skip_spaces();
    const auto start = pos_;
    while (is_digit(peek())) ++pos_;
    if (pos_ == start) throw SyntaxError{"expected an index (digits) after '['"};
    std::string index(text_.substr(start, pos_ - start));
    if (skip_spaces() != ']') throw SyntaxError{"expected ']' after an index"};
    ++pos_;
    return index;
  }

  // "text" or 'text' (as grunnur's templates write them): a backslash escapes the next
  // character.
  RenderValue string_literal(char quote) {
    std::string value;
    for (++pos_; peek() != quote; ++pos_) {
      if (peek() == '\0') throw SyntaxError{"unterminated string literal"};
      if (peek() == '\\') ++pos_;
      if (pos_ < text_.size()) value += text_[pos_];
    }
    ++pos_;
    return value;
  }

  // An integer (int64_t, or uint64_t above its range) or a finite double.
  RenderValue number_literal() {
    const char* first = text_.data() + pos_;
    const char* last = text_.data() + text_.size();
    std::int64_t integer = 0;
    const auto as_integer = std::from_chars(first, last, integer);
    const bool more = as_integer.ptr != last &&
                      (*as_integer.ptr == '.' || *as_integer.ptr == 'e' || *as_integer.ptr == 'E');
    if (!more && as_integer.ec == std::errc()) {
      pos_ += static_cast<std::size_t>(as_integer.ptr - first);
      return integer;
    }
    if (!more && as_integer.ec == std::errc::result_out_of_range) {
      std::uint64_t unsigned_integer = 0;
      const auto as_unsigned = std::from_chars(first, last, unsigned_integer);
      if (as_unsigned.ec == std::errc() && as_unsigned.ptr == as_integer.ptr) {
        pos_ += static_cast<std::size_t>(as_unsigned.ptr - first);
        return unsigned_integer;
      }
      throw RangeError{fmt::format("the integer {} does not fit in 64 bits",
                                   std::string_view(first, as_integer.ptr))};
    }
    double number = 0;
    const auto as_double = std::from_chars(first, last, number);
    if (as_double.ec == std::errc::result_out_of_range)
      throw RangeError{fmt::format("the number {} does not fit in a double",
                                   std::string_view(first, as_double.ptr))};
    if (as_double.ec != std::errc() || !std::isfinite(number))  // (no `inf` or `nan`)
      throw SyntaxError{"malformed number"};
    pos_ += static_cast<std::size_t>(as_double.ptr - first);
    return number;
  }

  std::string_view text_;
  std::size_t pos_;
};

// ---- Rendering ----

// What a def being rendered sees.
struct Frame {
  const DefTemplate& def;
  std::span<const RenderValue> args;
  const RenderGlobals& globals;
};

std::string names_of(const RenderGlobals& globals) {
  std::vector<std::string> names;
  for (const auto& entry : globals) names.push_back(entry.first);
  return names.empty() ? "(none)" : fmt::format("{}", fmt::join(names, ", "));
}

RenderError render_error(const Frame& frame, const Placeholder* placeholder,
                         const std::string& cause) {
  auto message = fmt::format("cannot render {}: {}", frame.def.signature(), cause);
  if (placeholder != nullptr)
    message += fmt::format("\n  at {} (line {})", placeholder->text, placeholder->line);
  if (!frame.def.parameters().empty())
    message += fmt::format("\n  parameters: {}", fmt::join(frame.def.parameters(), ", "));
  message += fmt::format("\n  globals: {}", names_of(frame.globals));
  return RenderError(message);
}

RenderError called_from(const RenderError& inner, const Frame& frame,
                        const Placeholder& placeholder) {
  return RenderError(fmt::format("{}\n  called from {} at {} (line {})", inner.what(),
                                 frame.def.signature(), placeholder.text, placeholder.line));
}

std::string plural(std::size_t count, std::string_view what) {
  return fmt::format("{} {}{}", count, what, count == 1 ? "" : "s");
}

class Renderer {
 public:
  std::string render(const DefTemplate& def, std::span<const RenderValue> args,
                     const RenderGlobals& globals) {
    const Frame frame{def, args, globals};
    if (depth_ == max_render_depth)
      throw render_error(frame, nullptr,
                         fmt::format("snippets and modules nest more than {} deep (the limit; "
                                     "does a def use itself?)",
                                     max_render_depth));
    ++depth_;
    count_produced(render_cost, frame);  // a render's own work, however short its text
    std::string generated;
    if (const auto& callable = detail::Access::impl(def)->callable) {
      try {
        generated = callable(args);
      } catch (const RenderError&) {
        throw;
      } catch (const std::exception& e) {
        throw render_error(frame, nullptr, fmt::format("its callable threw: {}", e.what()));
      } catch (...) {
        throw render_error(frame, nullptr, "its callable threw something not a std::exception");
      }
    }
    const std::string& text = detail::Access::impl(def)->callable ? generated : def.text();

    std::string out;
    std::size_t pos = 0;
    std::size_t line = 1;     // the line of text[counted]: each newline is counted once,
    std::size_t counted = 0;  // as the scan goes
    for (auto open = text.find("${"); open != std::string::npos; open = text.find("${", pos)) {
      const std::size_t before = out.size();
      out.append(text, pos, open - pos);
      line += static_cast<std::size_t>(
          std::count(text.begin() + static_cast<std::ptrdiff_t>(counted),
                     text.begin() + static_cast<std::ptrdiff_t>(open), '\n'));
      counted = open;
      Placeholder placeholder;
      const auto fail = [&](const std::string& cause) {
        Placeholder fragment;
        fragment.text =
            text.substr(open, std::min(text.find_first_of("}\n", open), text.size()) + 1 - open);
        fragment.line = line;
        return render_error(frame, &fragment, cause);
      };
      try {
        placeholder = PlaceholderParser(text, open).parse();
      } catch (const SyntaxError& e) {
        throw fail("placeholder syntax: " + e.cause);
      } catch (const RangeError& e) {
        throw fail(e.cause);
      }
      placeholder.text = text.substr(open, placeholder.end - open);
      placeholder.line = line;
      out += substitute(placeholder, frame);
      pos = placeholder.end;
      count_produced(out.size() - before, frame);
    }
    out.append(text, pos);
    count_produced(text.size() - pos, frame);
    --depth_;  // (an exception ends the whole render, so only the normal path needs this)
    return out;
  }

  // The modules' text, then `main`.
  std::string assemble(const std::string& main) const {
    std::string out;
    for (const auto& source : sources_) out += source;
    return out + main;
  }

 private:
  struct ModuleCall {
    std::shared_ptr<const detail::ModuleData> module;
    std::vector<RenderValue> args;
    std::string prefix;
    bool done = false;
  };

  std::string substitute(const Placeholder& placeholder, const Frame& frame) {
    // A def of the template being rendered, called by its name, renders as a Snippet with
    // the caller's globals; rendering it directly spares copying them into one.
    const auto* own = own_def(placeholder.head, frame);
    const RenderValue value = own ? RenderValue() : evaluate(placeholder.head, frame, placeholder);
    std::vector<RenderValue> args;
    for (const auto& arg : placeholder.args) args.push_back(evaluate(arg, frame, placeholder));

    if (own != nullptr) {
      const auto def = detail::Access::make<DefTemplate>(*own, detail::Access::owner(frame.def));
      check_arguments(def, "Snippet", false, args.size(), frame, placeholder);
      return render_nested(def, args, frame.globals, frame, placeholder);
    }
    if (value.is_snippet() || value.is_module()) {
      const bool module = value.is_module();
      const DefTemplate& def = module ? value.as_module().def() : value.as_snippet().def();
      check_arguments(def, value.kind_name(), module, args.size(), frame, placeholder);
      if (module) return use(value.as_module(), std::move(args), frame, placeholder);
      return render_nested(def, args, value.as_snippet().globals(), frame, placeholder);
    }
    if (placeholder.called)
      throw render_error(
          frame, &placeholder,
          fmt::format("a {} cannot be called (only a Snippet or a Module)", value.kind_name()));
    try {
      return value.to_string();
    } catch (const LogicError& e) {
      throw render_error(frame, &placeholder, e.what());
    }
  }

  // The def of the frame's template that `expression` names (unless a parameter has its name).
  static const std::shared_ptr<const detail::DefData>* own_def(const Expression& expression,
                                                               const Frame& frame) {
    const auto& owner = detail::Access::owner(frame.def);
    if (!owner || expression.path.size() != 1) return nullptr;
    const auto& name = expression.path.front();
    const auto& parameters = frame.def.parameters();
    if (std::find(parameters.begin(), parameters.end(), name) != parameters.end()) return nullptr;
    return owner->find(name);
  }

  static void check_arguments(const DefTemplate& def, std::string_view kind, bool module,
                              std::size_t given, const Frame& frame,
                              const Placeholder& placeholder) {
    const std::size_t wanted = def.parameters().size() - (module ? 1 : 0);
    if (given != wanted)
      throw render_error(
          frame, &placeholder,
          fmt::format("{} '{}' takes {}{}, but got {}", kind, def.name(),
                      plural(wanted, "argument"), module ? " after its prefix" : "", given));
  }

  std::string render_nested(const DefTemplate& def, std::span<const RenderValue> args,
                            const RenderGlobals& globals, const Frame& frame,
                            const Placeholder& placeholder) {
    try {
      return render(def, args, globals);
    } catch (const RenderError& e) {
      throw called_from(e, frame, placeholder);
    }
  }

  RenderValue evaluate(const Expression& expression, const Frame& frame,
                       const Placeholder& placeholder) {
    if (expression.path.empty()) return expression.literal;
    const auto& name = expression.path.front();
    RenderValue value;
    const auto& parameters = frame.def.parameters();
    const auto& owner = detail::Access::owner(frame.def);
    if (const auto found = std::find(parameters.begin(), parameters.end(), name);
        found != parameters.end()) {
      value = frame.args[static_cast<std::size_t>(found - parameters.begin())];
    } else if (const auto* def = owner ? owner->find(name) : nullptr) {
      value = Snippet(detail::Access::make<DefTemplate>(*def, owner), frame.globals);
    } else if (const auto global = frame.globals.find(name); global != frame.globals.end()) {
      value = global->second;
    } else {
      throw render_error(frame, &placeholder, fmt::format("unknown name '{}'", name));
    }

    std::string reached = name;
    for (std::size_t i = 1; i < expression.path.size(); ++i) {
      const auto& field = expression.path[i];
      std::optional<RenderValue> next;
      std::size_t index = 0;
      if (value.is_map()) {
        const auto found = value.as_map().find(field);
        if (found == value.as_map().end())
          throw render_error(frame, &placeholder,
                             fmt::format("'{}' has no field '{}'; its fields: {}", reached, field,
                                         names_of(value.as_map())));
        next = found->second;
      } else if (const auto parsed =
                     std::from_chars(field.data(), field.data() + field.size(), index);
                 value.is_list() && parsed.ptr == field.data() + field.size()) {
        if (parsed.ec != std::errc())
          throw render_error(
              frame, &placeholder,
              fmt::format("the index {} of '{}' does not fit in a size_t; it has {}", field,
                          reached, plural(value.as_list().size(), "element")));
        if (index >= value.as_list().size())
          throw render_error(frame, &placeholder,
                             fmt::format("'{}' has {}, so no element {}", reached,
                                         plural(value.as_list().size(), "element"), index));
        next = value.as_list()[index];
      } else {
        throw render_error(frame, &placeholder,
                           fmt::format("'{}' is a {}, which has no field '{}'", reached,
                                       value.kind_name(), field));
      }
      value = *next;
      reached += "." + field;
    }
    return value;
  }

  // Renders `module` once per distinct argument list; returns its prefix.
  std::string use(const Module& module, std::vector<RenderValue> args, const Frame& frame,
                  const Placeholder& placeholder) {
    auto& calls_of_module = calls_by_module_[detail::Access::impl(module).get()];
    for (const auto i : calls_of_module) {
      const auto& call = calls_[i];
      if (call.args != args) continue;
      if (!call.done)
        throw render_error(frame, &placeholder,
                           fmt::format("module '{}' uses itself", module.name()));
      return call.prefix;
    }
    auto prefix = fmt::format("_mod_{}_{}_", module.name(), calls_.size());
    const auto index = calls_.size();
    calls_.push_back({detail::Access::impl(module), args, prefix, false});
    calls_of_module.push_back(index);

    args.insert(args.begin(), prefix);
    auto source = render_nested(module.def(), args, module.globals(), frame, placeholder);
    if (source.empty() || source.back() != '\n') source += '\n';
    sources_.push_back(std::move(source));
    calls_[index].done = true;
    return prefix;
  }

  std::vector<ModuleCall> calls_;
  // For each module, its calls (indices in calls_), so that each use looks at its own only.
  std::unordered_map<const detail::ModuleData*, std::vector<std::size_t>> calls_by_module_;
  std::vector<std::string> sources_;
  std::size_t depth_ = 0;
  std::size_t produced_ = 0;  // bytes of text rendered so far, at every level
  /// What rendering a Snippet or def costs against max_render_size besides its text.
  static constexpr std::size_t render_cost = 256;

  /// Counts `bytes` more rendered text; a RenderError beyond max_render_size (a few defs that
  /// each use the next twice expand exponentially, which the depth limit does not stop).
  void count_produced(std::size_t bytes, const Frame& frame) {
    produced_ += bytes;
    if (produced_ > max_render_size) {
      throw render_error(frame, nullptr,
                         fmt::format("the render produced more than {} bytes (the limit; do "
                                     "defs expand each other exponentially?)",
                                     max_render_size));
    }
  }
};

void check_count(const DefTemplate& def, std::size_t given, const RenderGlobals& globals) {
  if (given != def.parameters().size())
    throw render_error(
        Frame{def, {}, globals}, nullptr,
        fmt::format("it takes {}, but got {}", plural(def.parameters().size(), "argument"), given));
}

}  // namespace

std::string render_source(const DefTemplate& def, const std::vector<RenderValue>& args,
                          const RenderGlobals& globals) {
  check_count(def, args.size(), globals);
  Renderer renderer;
  const auto main = renderer.render(def, args, globals);
  return renderer.assemble(main);
}

std::string render_source(const Template& tmpl, const std::vector<RenderValue>& args,
                          const RenderGlobals& globals) {
  return render_source(tmpl.body(), args, globals);
}

std::string render_source(const std::string& source, const std::vector<RenderValue>& args,
                          const RenderGlobals& globals) {
  return render_source(Template::from_string(source, "<source>"), args, globals);
}

std::string render_source(const Snippet& snippet, const std::vector<RenderValue>& args) {
  return render_source(snippet.def(), args, snippet.globals());
}

}  // namespace plinth
