// <plinth/backend/compiler_option_allow_list.hpp>: the one list of the compiler options plinth
// passes on from input it does not trust, per API. Unit-tested by
// tests/core/sdk/compiler_option_allow_list_test.cpp.

#include <plinth/backend/compiler_option_allow_list.hpp>
#include <plinth/printable.hpp>

#include <algorithm>
#include <array>

namespace plinth::backend {

namespace {

constexpr std::size_t max_quoted = 200;  // bytes of a refused option a message quotes

bool is_identifier(std::string_view name) {
  if (name.empty() || (name.front() >= '0' && name.front() <= '9')) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  });
}

bool has_control(std::string_view text) {
  return std::any_of(text.begin(), text.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte < 0x20 || byte == 0x7f;
  });
}

/// All of `text` is made of letters, digits and `extra`, and it is not empty.
bool is_word(std::string_view text, std::string_view extra) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [&](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           extra.find(c) != std::string_view::npos;
  });
}

/// `-DNAME`, `-DNAME=value` (any value without control characters), `-UNAME`.
bool is_macro(std::string_view option) {
  if (option.starts_with("-U")) return is_identifier(option.substr(2));
  if (!option.starts_with("-D")) return false;
  const auto definition = option.substr(2);
  const auto equals = definition.find('=');
  return is_identifier(definition.substr(0, equals)) &&
         (equals == std::string_view::npos || !has_control(definition.substr(equals + 1)));
}

/// `-cl-<name>[=<value>]`: OpenCL's build options (-cl-std=CL2.0, -cl-mad-enable...).
bool is_opencl_option(std::string_view option) {
  if (!option.starts_with("-cl-")) return false;
  const auto rest = option.substr(4);
  const auto equals = rest.find('=');
  return is_word(rest.substr(0, equals), "-_") &&
         (equals == std::string_view::npos || is_word(rest.substr(equals + 1), "._+-"));
}

/// `-W<name>[=<value>]` without a comma (`-Wl,`, `-Wa,`, `-Wp,` pass options on).
bool is_warning(std::string_view option) {
  return option.starts_with("-W") && is_word(option.substr(2), "-_=");
}

bool is_one_of(std::string_view option, std::span<const std::string_view> names) {
  return std::find(names.begin(), names.end(), option) != names.end();
}

/// `name` or `-name` (NVRTC spells every long option with one dash or two).
bool is_nvrtc_name(std::string_view option, std::span<const std::string_view> names) {
  if (option.starts_with("--")) option.remove_prefix(1);
  return is_one_of(option, names);
}

/// `-<name>=<value>` (or `--`) with `name` in `names` and `value` in `values`.
bool is_nvrtc_setting(std::string_view option, std::span<const std::string_view> names,
                      std::span<const std::string_view> values) {
  const auto equals = option.find('=');
  if (equals == std::string_view::npos) return false;
  return is_nvrtc_name(option.substr(0, equals), names) &&
         is_one_of(option.substr(equals + 1), values);
}

constexpr auto standards = std::to_array<std::string_view>({"c++11", "c++14", "c++17", "c++20"});

bool is_nvrtc_option(std::string_view option) {
  static constexpr auto switches = std::to_array<std::string_view>(
      {"-G", "-device-debug", "-lineinfo", "-generate-line-info", "-restrict", "-default-device",
       "-use_fast_math", "-device-as-default-execution-space", "-w", "-disable-warnings",
       "-extra-device-vectorization"});
  static constexpr auto booleans = std::to_array<std::string_view>(
      {"-ftz", "-prec-sqrt", "-prec-div", "-fmad", "-modify-stack-limit"});
  static constexpr auto true_false = std::to_array<std::string_view>({"true", "false"});
  static constexpr auto dopt = std::to_array<std::string_view>({"-dopt"});
  static constexpr auto on_off = std::to_array<std::string_view>({"on", "off"});
  static constexpr auto std_name = std::to_array<std::string_view>({"-std"});
  if (is_nvrtc_name(option, switches) || is_nvrtc_setting(option, booleans, true_false) ||
      is_nvrtc_setting(option, dopt, on_off) || is_nvrtc_setting(option, std_name, standards))
    return true;
  // -maxrregcount=N: a register count, 1 to 4 digits.
  const auto equals = option.find('=');
  static constexpr auto maxrregcount = std::to_array<std::string_view>({"-maxrregcount"});
  if (equals == std::string_view::npos || !is_nvrtc_name(option.substr(0, equals), maxrregcount))
    return false;
  const auto count = option.substr(equals + 1);
  return !count.empty() && count.size() <= 4 &&
         std::all_of(count.begin(), count.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool is_hiprtc_option(std::string_view option) {
  static constexpr auto switches =
      std::to_array<std::string_view>({"-O0", "-O1", "-O2", "-O3", "-g", "-w", "-mcumode",
                                       "-mno-cumode", "-mwavefrontsize64", "-mno-wavefrontsize64"});
  if (is_one_of(option, switches) || is_warning(option)) return true;
  return option.starts_with("-std=") && is_one_of(option.substr(5), standards);
}

/// What an API accepts besides the macros, for messages.
std::string_view accepted(std::string_view api) {
  if (api == "opencl") return "-D/-U macros, -cl-* options, -w and -Werror";
  if (api == "level_zero") return "-D/-U macros, -cl-* options, -w, -Werror and -W<warning>";
  if (api == "cuda")
    return "-D/-U macros and NVRTC's code-generation options (-G, -lineinfo, -dopt=, "
           "-maxrregcount=, -ftz=, -prec-sqrt=, -prec-div=, -fmad=, -use_fast_math, -std=, -w, "
           "...)";
  if (api == "hip")
    return "-D/-U macros, -O0 to -O3, -std=, -g, -w, -W<warning> and the -m[no-]cumode and "
           "-m[no-]wavefrontsize64 switches";
  return "-D/-U macros only (plinth knows no other option of this API)";
}

bool allowed(std::string_view api, std::string_view option) {
  if (is_macro(option)) return api != "opencl" || option.find(' ') == std::string_view::npos;
  if (api == "opencl") return is_opencl_option(option) || option == "-w" || option == "-Werror";
  if (api == "level_zero") return is_opencl_option(option) || option == "-w" || is_warning(option);
  if (api == "cuda") return is_nvrtc_option(option);
  if (api == "hip") return is_hiprtc_option(option);
  return false;
}

}  // namespace

std::string compiler_option_problem(std::string_view api_shortcut,
                                    std::span<const std::string> options) {
  for (const auto& option : options) {
    if (allowed(api_shortcut, option)) continue;
    std::string quoted = printable(std::string_view(option).substr(0, max_quoted));
    if (option.size() > max_quoted) quoted += "...";
    std::string why;
    if (option == "-D" || option == "-U")
      why = "; give the macro in the same option, as -DNAME=value";
    else if (option.starts_with("@"))
      why = ": it names a file of options";
    else if (option.starts_with("-I") || option.starts_with("-include") ||
             option.starts_with("--include"))
      why = ": it makes the compiler read other files";
    else if (option.starts_with("-f") || option.starts_with("-X") || option.starts_with("-W"))
      why = ": it can make the compiler load code or hand options to other programs";
    return "the compiler option '" + quoted + "' is not accepted for " + printable(api_shortcut) +
           why + " (accepted: " + std::string(accepted(api_shortcut)) + ")";
  }
  return {};
}

}  // namespace plinth::backend
