#include "compiler.hpp"

#include "error.hpp"
#include "targets.hpp"

#include <plinth/errors.hpp>

#include <algorithm>
#include <array>
#include <mutex>

namespace plinth::hip {

namespace {

struct HiprtcProgram {
  hiprtcProgram handle = nullptr;
  HiprtcProgram() = default;
  HiprtcProgram(const HiprtcProgram&) = delete;
  HiprtcProgram& operator=(const HiprtcProgram&) = delete;
  ~HiprtcProgram() {
    if (handle) PLINTH_CHECK_IN_DESTRUCTOR(hiprtcDestroyProgram(&handle));
  }
};

// Options that choose the processor or its features: plinth sets the target itself, and
// hiprtc corrupts the heap on one that comgr does not know.
constexpr std::array<std::string_view, 12> target_options{
    "--offload-arch", "-offload-arch", "--cuda-gpu-arch", "--amdgpu-target",
    "-mcpu",          "-march",        "-target",         "--target",
    "-mxnack",        "-mno-xnack",    "-msram-ecc",      "-mno-sram-ecc"};

void check_options(const std::vector<std::string>& options, std::string_view target) {
  for (const auto& option : options) {
    const bool chooses_target =
        std::any_of(target_options.begin(), target_options.end(),
                    [&](std::string_view prefix) { return option.starts_with(prefix); });
    if (chooses_target)
      throw LogicError(
          "the hiprtc option '" + option +
          "' chooses the target, which plinth sets (--offload-arch=" + std::string(target) + ")");
  }
}

// A file name for kept files: the target ID with ':' made '_'.
std::string file_stem(std::string_view target) {
  std::string stem = "program_" + std::string(target);
  std::replace(stem.begin(), stem.end(), ':', '_');
  return stem;
}

}  // namespace

std::string full_source(const backend::ProgramInput& input, const backend::BuildOptions& build) {
  std::string source(input.prelude);
  if (!source.empty()) source += '\n';
  for (const auto& array : build.constant_arrays)
    source += "__constant__ " + array.ctype + " " + array.name + "[" +
              std::to_string(array.length) + "];\n";
  source += input.source;
  return source;
}

CodeObject compile(const std::string& source, std::string_view target,
                   const backend::BuildOptions& build, const std::string& device) {
  if (const auto problem = target_problem(target)) throw LogicError(*problem);
  check_options(build.compiler_options, target);
  std::vector<std::string> options{"--offload-arch=" + std::string(target), "-O3", "-std=c++17"};
  if (build.fast_math) options.emplace_back("-ffast-math");
  options.insert(options.end(), build.compiler_options.begin(), build.compiler_options.end());
  std::vector<const char*> pointers;
  for (const auto& option : options) pointers.push_back(option.c_str());

  // One compile at a time in the process: hiprtc 5.2 is not safe to enter from several threads
  // at once. Its comgr registers LLVM's command-line options when it first compiles, and two
  // threads doing that together abort the process ("CommandLine Error: Option 'h' registered
  // more than once!", seen with plinth-compile compiling on two threads).
  static std::mutex hiprtc_mutex;
  const std::lock_guard lock(hiprtc_mutex);
  HiprtcProgram program;
  PLINTH_CHECK(
      hiprtcCreateProgram(&program.handle, source.c_str(), "program.hip", 0, nullptr, nullptr));
  const hiprtcResult result =
      hiprtcCompileProgram(program.handle, static_cast<int>(pointers.size()), pointers.data());
  std::size_t log_size = 0;
  PLINTH_CHECK(hiprtcGetProgramLogSize(program.handle, &log_size));
  std::string log(log_size, '\0');
  if (log_size > 0) PLINTH_CHECK(hiprtcGetProgramLog(program.handle, log.data()));
  while (!log.empty() && log.back() == '\0') log.pop_back();
  const std::string stem = file_stem(target);
  if (build.keep != nullptr) build.keep->write_text(stem + ".log", log);
  if (result == HIPRTC_ERROR_COMPILATION) throw CompileError(log, options, source, device);
  if (result ==
      HIPRTC_ERROR_INVALID_OPTION)  // with the options and the log, which the result lacks
    throw CompileError(std::string("hiprtc refused an option (HIPRTC_ERROR_INVALID_OPTION)") +
                           (log.empty() ? "" : ":\n" + log),
                       options, source, device);
  plinth::backend::check(result, "hiprtcCompileProgram");

  CodeObject compiled;
  std::size_t size = 0;
  PLINTH_CHECK(hiprtcGetCodeSize(program.handle, &size));
  if (size == 0)
    throw CompileError("hiprtc produced no code object:\n" + log, options, source, device);
  compiled.code.resize(size);
  PLINTH_CHECK(hiprtcGetCode(program.handle, reinterpret_cast<char*>(compiled.code.data())));
  if (build.keep != nullptr) build.keep->write(stem + ".hsaco", compiled.code);
  compiled.log = std::move(log);
  compiled.options = std::move(options);
  return compiled;
}

std::string hip_version_string(int version) {
  return std::to_string(version / 10000000) + "." + std::to_string(version / 100000 % 100) + "." +
         std::to_string(version % 100000);
}

std::string compiler_version() {
  int major = 0, minor = 0;
  PLINTH_CHECK(hiprtcVersion(&major, &minor));
  int runtime = 0;
  PLINTH_CHECK(hipRuntimeGetVersion(&runtime));  // the library's version; needs no device
  return "hiprtc " + std::to_string(major) + "." + std::to_string(minor) + " (HIP " +
         hip_version_string(runtime) + ")";
}

}  // namespace plinth::hip
