// plinth-compile: builds kernels for a named target with no device present ("does my kernel
// build for gfx90a and sm_90?"), through plinth::compile_for_target(). Inputs are kernel
// source files (templates, rendered with -D globals) or job files that PLINTH_RECORD_PROGRAMS
// wrote; outputs are the binaries, or with --check only the verdict and the compiler's log.

#include "compile_job.hpp"

#include <plinth/plinth.hpp>

#include <fmt/format.h>
#include <boost/program_options.hpp>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace po = boost::program_options;
namespace fs = std::filesystem;
using plinth_compile::CompileJob;

namespace {

struct Options {
  std::string api;
  std::vector<std::string> targets;
  std::vector<std::string> sources;
  std::vector<std::string> jobs;
  std::optional<std::string> output;
  plinth::ProgramOptions program;
  bool check = false;
  bool list_targets = false;
  bool quiet = false;
  unsigned threads = 1;
};

const char* const usage =
    "Usage: plinth-compile --api API --target T[,T...] [options] SOURCE...\n"
    "       plinth-compile --api API --target T[,T...] [options] --job FILE...\n"
    "       plinth-compile --list-targets [--api API]\n"
    "Compiles kernels in plinth's dialect for targets no device here need have (sm_90,\n"
    "compute_90, gfx90a...). Writes NAME.TARGET.EXT for each input and target (into the\n"
    "current directory, or -o); exits 0 when everything compiled, 1 when something did not,\n"
    "2 for a bad command line.\nOptions";

std::vector<std::string> split_commas(const std::vector<std::string>& values) {
  std::vector<std::string> items;
  for (const auto& value : values) {
    std::size_t start = 0;
    while (start <= value.size()) {
      auto end = value.find(',', start);
      if (end == std::string::npos) end = value.size();
      if (end > start) items.push_back(value.substr(start, end - start));
      start = end + 1;
    }
  }
  return items;
}

/// The command line; nullopt after --help. Throws std::exception for a bad one.
std::optional<Options> parse(int argc, char** argv) {
  Options options;
  std::vector<std::string> defines, constant_arrays, targets;
  unsigned threads = 0;
  po::options_description description(usage);
  description.add_options()("help,h", "show this help")("api", po::value(&options.api),
                                                        "the API: a shortcut such as cuda or hip")(
      "target,t", po::value(&targets)->composing(),
      "a target of the API, or a comma list (repeatable); see --list-targets")(
      "list-targets", po::bool_switch(&options.list_targets),
      "list the targets of --api (or of every API that has some)")(
      "job", po::value(&options.jobs)->composing()->multitoken(),
      "job files that PLINTH_RECORD_PROGRAMS wrote (one or more; repeatable)")(
      "define,D", po::value(&defines)->composing(),
      "name=value: a render global of the source template (an integer, true/false, or text)")(
      "compiler-option,X", po::value(&options.program.compiler_options)->composing(),
      "passed to the API's compiler as it is (repeatable)")(
      "fast-math", po::bool_switch(&options.program.fast_math),
      "let the compiler trade accuracy for speed (defines PLINTH_FAST_MATH)")(
      "no-prelude", po::bool_switch(&options.program.no_prelude),
      "do not prepend the API's prelude (KERNEL, GLOBAL_MEM, ... are then undefined)")(
      "constant-array", po::value(&constant_arrays)->composing(),
      "name:ctype:length:itemsize: a constant array the program declares (repeatable)")(
      "keep", po::bool_switch(&options.program.keep),
      "keep the source and the compiler's files in a temporary directory (printed)")(
      "output,o", po::value<std::string>(),
      "where to write: a file (one input, one target) or a directory")(
      "check", po::bool_switch(&options.check), "only compile: write nothing")(
      "quiet,q", po::bool_switch(&options.quiet), "print only failures and the summary")(
      "jobs,j", po::value(&threads), "compile on this many threads (default: one per core)");
  po::options_description hidden;
  hidden.add_options()("source", po::value(&options.sources)->composing());
  po::options_description all;
  all.add(description).add(hidden);
  po::positional_options_description positional;
  positional.add("source", -1);
  po::variables_map vm;
  po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), vm);
  po::notify(vm);
  if (vm.count("help") != 0) {
    std::cout << description << "\n";
    return std::nullopt;
  }
  if (vm.count("output") != 0) options.output = vm["output"].as<std::string>();
  options.targets = split_commas(targets);
  for (const auto& d : defines)
    options.program.render_globals.insert(plinth_compile::parse_define(d));
  for (const auto& c : constant_arrays) {
    options.program.constant_arrays.push_back(plinth_compile::parse_constant_array(c));
  }
  options.threads = threads != 0 ? threads : std::max(1U, std::thread::hardware_concurrency());
  if (options.list_targets) return options;
  if (options.api.empty()) throw std::runtime_error("--api is required");
  if (options.targets.empty()) throw std::runtime_error("--target is required");
  if (options.sources.empty() && options.jobs.empty()) {
    throw std::runtime_error("nothing to compile: give a source file or --job");
  }
  if (!options.jobs.empty() && (!defines.empty() || !options.program.compiler_options.empty() ||
                                options.program.no_prelude || !constant_arrays.empty())) {
    throw std::runtime_error(
        "-D, -X, --no-prelude and --constant-array apply to source files; a job file carries "
        "its own");
  }
  return options;
}

/// Prints the targets of `options.api`; 1 if it has none.
int list_targets(const Options& options) {
  const auto targets = plinth::compile_targets({options.api});
  fmt::print("{}:\n", options.api);
  std::size_t width = 0;
  for (const auto& t : targets) width = std::max(width, t.name.size());
  for (const auto& t : targets) {
    fmt::print("  {:<{}}  {}\n", t.name, width, plinth::printable(t.description));
  }
  return 0;
}

/// --list-targets without --api: every backend's targets, each listed by a child process of
/// its own (`--list-targets --api <shortcut>`, see main()); backends that offer none are left
/// out. No plugin is opened in this process: they are only listed, all excluded.
int list_all_targets(const char* self) {
  setenv("PLINTH_API", "", 1);  // names no API: every plugin is listed and none opened
  bool any = false;
  for (const auto& id : plinth::all_api_ids()) {
    std::fflush(stdout);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    std::string api = id.shortcut;
    std::array<char*, 5> args{const_cast<char*>(self), const_cast<char*>("--list-targets"),
                              const_cast<char*>("--api"), api.data(), nullptr};
    pid_t child = 0;
    const int error =
        posix_spawn(&child, "/proc/self/exe", &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (error != 0)
      throw std::runtime_error(fmt::format("cannot run itself: {}", std::strerror(error)));
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    any = any || (WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  if (!any) {
    std::cerr << "plinth-compile: no API can compile for a named target here\n"
              << plinth::describe_plugins(plinth::plugins());
    return 1;
  }
  return 0;
}

/// What one (job, target) pair came to.
enum class Outcome { compiled, failed, skipped };

struct Task {
  const CompileJob* job;
  std::string target;
};

class Runner {
 public:
  Runner(const Options& options, std::vector<CompileJob> jobs)
      : options_(options), jobs_(std::move(jobs)) {
    for (const auto& job : jobs_) {
      for (const auto& target : options_.targets) tasks_.push_back({&job, target});
    }
    single_file_ = options_.output && tasks_.size() == 1 && !fs::is_directory(*options_.output);
    if (options_.output && !single_file_ && !options_.check)
      fs::create_directories(*options_.output);
  }

  /// Runs every task on the options' threads; returns the exit status.
  int run() {
    std::vector<std::thread> threads;
    const unsigned count = std::min<std::size_t>(options_.threads, tasks_.size());
    for (unsigned i = 0; i < count; ++i) threads.emplace_back([this] { work(); });
    for (auto& t : threads) t.join();
    fmt::print(stderr, "plinth-compile: {} compiled, {} failed, {} skipped\n", compiled_.load(),
               failed_.load(), skipped_.load());
    return failed_ == 0 ? 0 : 1;
  }

 private:
  void work() {
    for (std::size_t i = next_++; i < tasks_.size(); i = next_++) {
      std::string report;
      Outcome outcome = Outcome::failed;
      try {
        outcome = compile(tasks_[i], report);
      } catch (const std::exception& e) {  // plinth::Error, or writing the output
        report += fmt::format("error: {}\n", e.what());
      }
      (outcome == Outcome::compiled ? compiled_
       : outcome == Outcome::failed ? failed_
                                    : skipped_)++;
      if (options_.quiet && outcome != Outcome::failed) continue;
      const std::lock_guard lock(print_);
      std::cerr << report;
    }
  }

  Outcome compile(const Task& task, std::string& report) {
    const CompileJob& job = *task.job;
    const std::string what = fmt::format("{} for {} {}", plinth::printable(job.path.string()),
                                         options_.api, task.target);
    plinth::ProgramOptions program = job.options;
    program.keep = options_.program.keep;
    if (!job.recorded_api.empty() && job.recorded_api != options_.api) {
      if (program.no_prelude) {
        report += fmt::format("{}: skipped: written for {} without the prelude\n", what,
                              plinth::printable(job.recorded_api));
        return Outcome::skipped;
      }
      if (!program.compiler_options.empty()) {
        report += fmt::format(
            "{}: note: {}'s compiler options left out: {}\n", what,
            plinth::printable(job.recorded_api),
            plinth::printable(fmt::format("{}", fmt::join(program.compiler_options, " "))));
        program.compiler_options.clear();
      }
    }
    // A recorded source is rendered already: it must not be rendered a second time.
    const plinth::ProgramSource source =
        job.recorded_api.empty()
            ? plinth::ProgramSource(job.source)
            : plinth::ProgramSource(plinth::Template::from_string("${source}", "<recorded>"));
    if (!job.recorded_api.empty()) program.render_globals.insert_or_assign("source", job.source);
    try {
      const auto result = plinth::compile_for_target({options_.api}, task.target, source, program);
      if (!result.log.empty()) report += fmt::format("{}: compiler log:\n{}\n", what, result.log);
      if (!result.kept_directory.empty()) {
        report += fmt::format("{}: files kept in {}\n", what, result.kept_directory);
      }
      if (!options_.check) {
        const fs::path path = output_path(job, result.target, result.extension);
        write(path, result.binary);
        report +=
            fmt::format("{}: wrote {} ({} bytes)\n", what, path.string(), result.binary.size());
      } else {
        report += fmt::format("{}: ok ({} bytes)\n", what, result.binary.size());
      }
      return Outcome::compiled;
    } catch (const plinth::CompileError& e) {
      report += fmt::format("{}: does not compile:\n{}\n", what, e.what());
      return Outcome::failed;
    } catch (const plinth::Error& e) {  // RenderError, BackendError...
      report += fmt::format("{}: {}\n", what, e.what());
      return Outcome::failed;
    }
  }

  fs::path output_path(const CompileJob& job, const std::string& target,
                       const std::string& extension) const {
    if (single_file_) return *options_.output;
    const fs::path directory = options_.output ? fs::path(*options_.output) : fs::path(".");
    return directory / fmt::format("{}.{}.{}", job.name, target, extension);
  }

  static void write(const fs::path& path, const std::vector<std::byte>& data) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data.data()),
              static_cast<std::streamsize>(data.size()));
    out.close();
    if (!out) throw std::runtime_error(fmt::format("cannot write {}", path.string()));
  }

  const Options& options_;
  std::vector<CompileJob> jobs_;
  std::vector<Task> tasks_;
  bool single_file_ = false;
  std::atomic<std::size_t> next_{0};
  std::atomic<unsigned> compiled_{0}, failed_{0}, skipped_{0};
  std::mutex print_;
};

std::vector<CompileJob> read_jobs(const Options& options) {
  std::vector<CompileJob> jobs;
  for (const auto& source : options.sources) {
    CompileJob job;
    job.path = source;
    job.name = fs::path(source).stem().string();
    job.source = plinth_compile::read_text(source);
    job.options = options.program;
    jobs.push_back(std::move(job));
  }
  for (const auto& file : options.jobs) {
    jobs.push_back(plinth_compile::parse_job(file, plinth_compile::read_text(file)));
  }
  return jobs;
}

/// Refuses inputs whose outputs would have one name (one/k.cl and two/k.cl both write
/// k.<target>.<ext>): the second would overwrite the first, and both be reported as written.
void refuse_clashing_outputs(const Options& options, const std::vector<CompileJob>& jobs) {
  if (options.check) return;  // nothing is written
  std::map<std::string, const CompileJob*> seen;
  for (const auto& job : jobs) {
    const auto [it, added] = seen.emplace(job.name, &job);
    if (!added) {
      throw std::runtime_error(fmt::format(
          "{} and {} would both be written as {}.{}.* (outputs are named after the file): "
          "rename one, or compile them in separate runs",
          plinth::printable(it->second->path.string()), plinth::printable(job.path.string()),
          plinth::printable(job.name), plinth::printable(options.targets.front())));
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::optional<Options> options;
  try {
    options = parse(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "plinth-compile: " << e.what() << "\n(plinth-compile --help shows the options)\n";
    return 2;
  }
  if (!options) return 0;
  try {
    if (options->list_targets && options->api.empty()) return list_all_targets(argv[0]);
    // Only the named API's plugin is opened: the tool needs no other, and some vendor stacks
    // cannot share a process (on Debian 12, the comgr that hiprtc loads and PoCL's compiler
    // both register LLVM 15's command-line options, and LLVM aborts).
    setenv("PLINTH_API", options->api.c_str(), 1);
    if (options->list_targets) return list_targets(*options);
    // Unknown APIs and targets are refused before anything is compiled.
    const auto targets = plinth::compile_targets({options->api});
    for (const auto& wanted : options->targets) {
      if (std::none_of(targets.begin(), targets.end(),
                       [&](const plinth::CompileTarget& t) { return t.name == wanted; })) {
        std::string names;
        for (const auto& t : targets) names += (names.empty() ? "" : ", ") + t.name;
        std::cerr << fmt::format("plinth-compile: {} has no target '{}'; it offers: {}\n",
                                 options->api, plinth::printable(wanted), names);
        return 2;
      }
    }
    auto jobs = read_jobs(*options);
    refuse_clashing_outputs(*options, jobs);
    Runner runner(*options, std::move(jobs));
    return runner.run();
  } catch (const std::exception& e) {
    std::cerr << "plinth-compile: " << e.what() << "\n";
    return 2;
  }
}
