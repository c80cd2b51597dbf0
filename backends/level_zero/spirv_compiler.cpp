// Compiling the kernel dialect's OpenCL C to SPIR-V by running clang and llvm-spirv as
// programs: `clang -target spir64 -cl-std=CL2.0 -emit-llvm -c` makes LLVM bitcode, and
// `llvm-spirv` translates it.
//
// Why programs rather than libclang-cpp and libLLVMSPIRVLib in-process:
// - No LLVM in the plugin. Other plugins bring their own LLVMs into the same process (PoCL's
//   OpenCL compiler, HIP's comgr, Mesa's drivers), each a different version; a second LLVM
//   linked in clashes with them by symbol name (LLVM's global options register twice, and the
//   first copy's functions get called with the second copy's objects).
// - Packaging: the plugin links the Level Zero loader and nothing else, so it loads (and lists
//   no devices, with the reason) on any machine; the compiler is an optional package
//   (compiler_problem() says which), needed only to build from source.
// - A compiler that crashes or runs out of memory on some source takes down its own process,
//   not the user's: the user gets a BackendError with its output.
// The cost is starting two programs per build, measured on this project's 2-core CI machine:
// ~0.05 s per program (clang ~0.03 s, llvm-spirv ~0.02 s), for a small kernel and for the
// largest program of the conformance suite alike; plinth-compile builds the 675 programs of a
// conformance run in ~21 s on two threads. The program cache makes it once per program.
//
// What clang makes: unoptimised LLVM IR (see the flags below for why), which the driver's
// compiler optimises when zeModuleCreate builds the module for the device.

#include "spirv_compiler.hpp"

#include <plinth/backend/compiler_option_allow_list.hpp>
#include <plinth/errors.hpp>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

extern char** environ;  // NOLINT: POSIX declares it nowhere else

namespace plinth::level_zero {

namespace {

constexpr const char* api_name = "Level Zero";
constexpr const char* install_hint = "install clang-15 and llvm-spirv-15 (Debian/Ubuntu)";
constexpr const char* llvm_bin = "/usr/lib/llvm-15/bin/";
// The SPIR-V version every Level Zero driver takes: Intel's older drivers report 1.2 as the only
// one (ze_device_module_properties_t::spirvVersionSupported), newer ones 1.0 to 1.5.
constexpr const char* spirv_max_version = "1.2";
constexpr std::size_t max_log = std::size_t{4} << 20;  // bytes of a tool's output kept

// Whether `path` is a regular file this process may execute.
bool executable(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
         ::access(path.c_str(), X_OK) == 0;
}

// `name` looked up in the absolute directories of PATH (a relative entry, such as "" or ".",
// would find programs in the current directory: skipped); empty when none has it.
std::string on_path(const std::string& name) {
  const char* path = ::secure_getenv("PATH");
  std::string_view rest = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  while (true) {
    const auto end = rest.find(':');
    const std::string_view dir = rest.substr(0, end);
    if (!dir.empty() && dir.front() == '/') {
      std::string candidate(dir);
      candidate += '/';
      candidate += name;
      if (executable(candidate)) return candidate;
    }
    if (end == std::string_view::npos) return {};
    rest.remove_prefix(end + 1);
  }
}

// One of the two programs: its path, or why it is not there.
struct Tool {
  std::string path;
  std::string problem;
};

// Finds a tool: the program the environment variable `variable` names (a path, or a name
// looked up on PATH), else `name` on PATH, else `llvm_name` in /usr/lib/llvm-15/bin.
Tool find_tool(const char* variable, const std::string& name, const std::string& llvm_name,
               const char* role) {
  if (const char* chosen = ::secure_getenv(variable); chosen != nullptr && *chosen != '\0') {
    const std::string value = chosen;
    // Absolute: the tools run in their own directory (run_tool()).
    std::error_code ignored;
    const std::string path = value.find('/') != std::string::npos
                                 ? std::filesystem::absolute(value, ignored).string()
                                 : on_path(value);
    if (!path.empty() && executable(path)) return {path, {}};
    return {{},
            std::string(variable) + "='" + value + "' names no executable program (" + role + ")"};
  }
  if (auto path = on_path(name); !path.empty()) return {path, {}};
  if (const std::string path = llvm_bin + llvm_name; executable(path)) return {path, {}};
  return {{}, name + " (" + role + ") is neither on PATH nor in " + llvm_bin};
}

// The two programs, looked up once per process (thread-safe).
struct Tools {
  Tool clang;
  Tool llvm_spirv;
  std::optional<std::string> problem;
};

const Tools& tools() {
  static const Tools found = [] {
    Tools result{find_tool("PLINTH_CLANG", "clang-15", "clang", "clang, the OpenCL C compiler"),
                 find_tool("PLINTH_LLVM_SPIRV", "llvm-spirv-15", "llvm-spirv",
                           "llvm-spirv, the LLVM to SPIR-V translator"),
                 std::nullopt};
    std::string problem = result.clang.problem;
    if (!result.llvm_spirv.problem.empty())
      problem += (problem.empty() ? "" : "; ") + result.llvm_spirv.problem;
    if (!problem.empty())
      result.problem = "cannot compile kernels to SPIR-V: " + problem + ": " + install_hint +
                       ", or name the programs in PLINTH_CLANG and PLINTH_LLVM_SPIRV";
    return result;
  }();
  return found;
}

std::string errno_text(int code) {
  return std::error_code(code, std::generic_category()).message();
}

// "ENOENT" for ENOENT.
std::string errno_name(int code) {
  const char* name = ::strerrorname_np(code);
  return name != nullptr ? name : "errno";
}

// Owns a posix_spawn_file_actions_t / an fd, for the scope.
struct FileActions {
  posix_spawn_file_actions_t actions{};
  FileActions() { ::posix_spawn_file_actions_init(&actions); }
  FileActions(const FileActions&) = delete;
  FileActions& operator=(const FileActions&) = delete;
  ~FileActions() { ::posix_spawn_file_actions_destroy(&actions); }
};
struct Fd {
  int fd = -1;
  Fd() = default;
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { close(); }
  void close() noexcept {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
};

// How a tool ended and what it wrote (stdout and stderr together).
struct Outcome {
  bool exited = false;  // false: killed by `signal`
  int status = 0;       // the exit status, or the signal
  std::string output;
};

// Runs the program argv[0] with the arguments argv[1...] (no shell: every element is one
// argument as it is) in the directory `dir`, with stdin from /dev/null and stdout and stderr
// into a pipe read here. Throws BackendError when it cannot be started. Any thread: the
// pipe's descriptors are close-on-exec, so a tool started by another thread at the same time
// does not inherit them (and keep this pipe open).
Outcome run_tool(const std::vector<std::string>& argv, const std::filesystem::path& dir) {
  std::array<int, 2> pipe_fds{};
  if (::pipe2(pipe_fds.data(), O_CLOEXEC) != 0)
    throw BackendError(api_name, "pipe2", errno, errno_name(errno), errno_text(errno));
  Fd read_end, write_end;
  read_end.fd = pipe_fds[0];
  write_end.fd = pipe_fds[1];

  FileActions files;
  ::posix_spawn_file_actions_addopen(&files.actions, 0, "/dev/null", O_RDONLY, 0);
  ::posix_spawn_file_actions_adddup2(&files.actions, write_end.fd, 1);
  ::posix_spawn_file_actions_adddup2(&files.actions, write_end.fd, 2);
  ::posix_spawn_file_actions_addchdir_np(&files.actions, dir.c_str());
  posix_spawnattr_t attributes{};
  ::posix_spawnattr_init(&attributes);
  sigset_t signals;
  sigemptyset(&signals);
  ::posix_spawnattr_setsigmask(&attributes, &signals);  // the caller's thread's mask is its own
  ::posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK);

  std::vector<char*> args;
  for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int started =
      ::posix_spawn(&pid, argv.front().c_str(), &files.actions, &attributes, args.data(), environ);
  ::posix_spawnattr_destroy(&attributes);
  write_end.close();
  if (started != 0)
    throw BackendError(api_name, "posix_spawn", started, errno_name(started),
                       "cannot start " + argv.front() + ": " + errno_text(started));

  // Reaps the child however this function ends (the output is read first: a child blocked on
  // a full pipe would never end).
  struct Child {
    pid_t pid;
    int status = 0;
    bool reaped = false;
    int wait() noexcept {
      while (!reaped) {
        if (::waitpid(pid, &status, 0) >= 0)
          reaped = true;
        else if (errno != EINTR)
          return errno;
      }
      return 0;
    }
    ~Child() { wait(); }
  } child{pid};

  Outcome outcome;
  std::array<char, 8192> buffer{};
  while (true) {
    const ssize_t got = ::read(read_end.fd, buffer.data(), buffer.size());
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    if (outcome.output.size() < max_log)
      outcome.output.append(buffer.data(), std::min<std::size_t>(static_cast<std::size_t>(got),
                                                                 max_log - outcome.output.size()));
  }
  if (const int error = child.wait(); error != 0) {
    child.reaped = true;  // nothing more to wait for
    throw BackendError(api_name, "waitpid", error, errno_name(error),
                       argv.front() + ": " + errno_text(error));
  }
  outcome.exited = WIFEXITED(child.status);
  outcome.status = outcome.exited ? WEXITSTATUS(child.status) : WTERMSIG(child.status);
  return outcome;
}

// A private directory (0700, from mkdtemp) under $TMPDIR or /tmp, removed with the scope.
class TemporaryDirectory {
 public:
  TemporaryDirectory() {
    const char* tmp = ::secure_getenv("TMPDIR");
    std::string pattern = tmp != nullptr && tmp[0] == '/' ? tmp : "/tmp";
    pattern += "/plinth-spirv-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr)
      throw BackendError(api_name, "mkdtemp", errno, errno_name(errno),
                         "cannot make a temporary directory " + pattern + ": " + errno_text(errno));
    path_ = pattern;
  }
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;
  ~TemporaryDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::filesystem::path& path() const noexcept { return path_; }

 private:
  std::filesystem::path path_;
};

void write_file(const std::filesystem::path& path, std::string_view text) {
  std::ofstream out(path, std::ios::binary);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  if (!out) throw BackendError(api_name, "write", EIO, "EIO", "cannot write " + path.string());
}

std::vector<std::byte> read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.eof() && in.fail())
    throw BackendError(api_name, "read", EIO, "EIO", "cannot read " + path.string());
  std::vector<std::byte> result(bytes.size());
  if (!bytes.empty()) std::memcpy(result.data(), bytes.data(), bytes.size());
  return result;
}

std::string ending(const Outcome& outcome) {
  return outcome.exited ? "exit status " + std::to_string(outcome.status)
                        : std::string("killed by signal ") + std::to_string(outcome.status) + " (" +
                              ::strsignal(outcome.status) + ")";
}

// "clang 15.0.6" from `name --version`'s first line ("Debian clang version 15.0.6"), or the
// name with what went wrong.
std::string tool_version(const std::string& path, const std::string& label) {
  try {
    const auto outcome = run_tool({path, "--version"}, "/");
    const std::string_view text = outcome.output;
    const auto at = text.find("version ");
    if (!outcome.exited || outcome.status != 0 || at == std::string_view::npos)
      return label + " (version unknown)";
    const auto start = at + 8;
    const auto end = text.find_first_of(" \n", start);
    return label + " " + std::string(text.substr(start, end - start));
  } catch (const Error&) {
    return label + " (version unknown)";
  }
}

}  // namespace

std::string translation_unit(const backend::ProgramInput& input,
                             const backend::BuildOptions& options) {
  if (!options.constant_arrays.empty()) {
    // As on OpenCL: declaring them would take kernel parameters the user's kernels do not
    // have; refusing here beats a compile error about an undeclared name far from the cause.
    throw LogicError("ProgramOptions::constant_arrays ('" + options.constant_arrays.front().name +
                     "', ...) are not supported on Level Zero: pass the data as a CONSTANT_MEM "
                     "kernel argument (a Buffer) instead");
  }
  std::string source(input.prelude);
  if (!source.empty()) source += '\n';
  source += input.source;
  return source;
}

std::vector<std::string> device_dialect_flags(bool int64_atomics) {
  if (int64_atomics) return {};
  // A cc1 option: the driver would ignore it.
  return {"-Xclang", "-cl-ext=-cl_khr_int64_base_atomics,-cl_khr_int64_extended_atomics"};
}

SpirvModule compile_to_spirv(std::string_view source, const backend::BuildOptions& options,
                             const std::vector<std::string>& device_flags) {
  // clang is a program plinth starts: an option such as -fplugin= or -Xclang -load would run
  // code, -I or @file read files. Only the allow-list passes, checked before anything runs.
  if (auto problem = backend::compiler_option_problem("level_zero", options.compiler_options);
      !problem.empty())
    throw LogicError(problem);
  const auto& found = tools();
  // A machine without the compiler cannot build this program: a CompileError, as for source
  // the compiler refuses, whose log says what to install.
  if (found.problem) throw CompileError(*found.problem, {}, std::string(source));

  // The options CompileError shows: what decides the compilation, without the file names.
  std::vector<std::string> flags{
      "-target", "spir64", "-cl-std=CL2.0",
      // OpenCL's declarations (the clang driver adds this too; explicit for other drivers).
      "-Xclang", "-finclude-default-header",
      // Parameter names in the module, for reflect_kernels().
      "-cl-kernel-arg-info",
      // LLVM's optimisations make IR that llvm-spirv 15 cannot translate (`freeze`,
      // switch tables of i31) or translates into invalid SPIR-V (blocks before their
      // dominators, undefined ids): 128 of the conformance suite's 682 programs failed so.
      // The driver's compiler (IGC) optimises the SPIR-V anyway, so clang only generates
      // code (llvm-spirv's --spirv-mem2reg below removes the stack traffic).
      "-Xclang", "-disable-llvm-passes",
      // With no inliner, a C99 `inline` function (INLINE) would be an inline-only
      // definition, which llvm-spirv makes an imported function with a body (invalid); GNU
      // inline semantics make it an ordinary definition.
      "-fgnu89-inline"};
  if (options.fast_math) flags.emplace_back("-cl-fast-relaxed-math");
  flags.insert(flags.end(), device_flags.begin(), device_flags.end());
  flags.insert(flags.end(), options.compiler_options.begin(), options.compiler_options.end());

  if (options.keep != nullptr) options.keep->write_text("program.cl", source);
  const TemporaryDirectory dir;
  write_file(dir.path() / "program.cl", source);

  std::vector<std::string> clang{found.clang.path};
  clang.insert(clang.end(), flags.begin(), flags.end());
  // Last, so that no user option chooses the output; no crash reproducers left in /tmp.
  for (const char* arg :
       {"-fno-crash-diagnostics", "-emit-llvm", "-c", "-o", "program.bc", "--", "program.cl"})
    clang.emplace_back(arg);
  const auto compiled = run_tool(clang, dir.path());
  std::string log = compiled.output;
  const auto keep_log = [&] {
    if (options.keep != nullptr) options.keep->write_text("build.log", log);
  };
  if (!compiled.exited) {
    keep_log();
    throw BackendError(api_name, found.clang.path, compiled.status, ending(compiled),
                       "the compiler crashed:\n" + log);
  }
  if (compiled.status != 0) {
    keep_log();
    throw CompileError(log, flags, std::string(source));
  }

  const auto translated = run_tool(
      {found.llvm_spirv.path, std::string("--spirv-max-version=") + spirv_max_version,
       "--spirv-mem2reg",  // values in registers rather than on the stack
       // The dialect's sub-group shuffles (intel_sub_group_shuffle*): SPIR-V 1.2 has no
       // others, and every Level Zero GPU (Intel's) takes these.
       "--spirv-ext=+SPV_INTEL_subgroups",
       // kernel_arg_type OpStrings: the parameters' type names
       "--preserve-ocl-kernel-arg-type-metadata-through-string", "program.bc", "-o", "program.spv"},
      dir.path());
  log += translated.output;
  keep_log();
  if (!translated.exited || translated.status != 0)
    throw BackendError(api_name, found.llvm_spirv.path, translated.status, ending(translated),
                       "translating the compiled program to SPIR-V failed:\n" + translated.output);

  SpirvModule module{read_file(dir.path() / "program.spv"), std::move(log)};
  if (module.binary.empty() || module.binary.size() % 4 != 0)
    throw BackendError(
        api_name, found.llvm_spirv.path, 0, "no module",
        "llvm-spirv wrote no SPIR-V module (" + std::to_string(module.binary.size()) + " bytes)");
  if (options.keep != nullptr) options.keep->write("program.spv", module.binary);
  return module;
}

std::optional<std::string> compiler_problem() { return tools().problem; }

std::string compiler_version() {
  static const std::string version = [] {
    const auto& found = tools();
    if (found.problem) return std::string();
    // llvm-spirv prints the version of the LLVM it was built with, not its own.
    std::string llvm = tool_version(found.llvm_spirv.path, "LLVM");
    return tool_version(found.clang.path, "clang") + "; llvm-spirv (" + llvm +
           "); OpenCL C 2.0, unoptimised, mem2reg; SPIR-V " + spirv_max_version + " at most";
  }();
  return version;
}

}  // namespace plinth::level_zero
