#include "common.hpp"

#include "kernels.hpp"

#include <plinth/program_cache.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <new>
#include <stdexcept>
#include <string_view>

#include <execinfo.h>
#include <signal.h>
#include <unistd.h>

namespace plinth_bench {

std::string size_name(std::size_t bytes) {
  constexpr std::size_t KiB = 1024;
  if (bytes >= KiB * KiB * KiB && bytes % (KiB * KiB * KiB) == 0)
    return std::to_string(bytes / (KiB * KiB * KiB)) + "GiB";
  if (bytes >= KiB * KiB && bytes % (KiB * KiB) == 0)
    return std::to_string(bytes / (KiB * KiB)) + "MiB";
  if (bytes >= KiB && bytes % KiB == 0) return std::to_string(bytes / KiB) + "KiB";
  return std::to_string(bytes) + "B";
}

std::string unique_token() {
  static std::atomic<std::uint64_t> counter{0};
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  return std::to_string(std::chrono::duration_cast<std::chrono::nanoseconds>(now).count()) + "_" +
         std::to_string(::getpid()) + "_" + std::to_string(counter.fetch_add(1));
}

TemporaryProgramCache::TemporaryProgramCache() {
  if (std::getenv("PLINTH_CACHE_DIR") != nullptr) return;
  std::string pattern = (std::filesystem::temp_directory_path() / "plinth-bench-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) return;
  directory_ = pattern;
  ::setenv("PLINTH_CACHE_DIR", (directory_ + "/cache").c_str(), 1);
}

TemporaryProgramCache::~TemporaryProgramCache() {
  std::error_code ec;
  if (!directory_.empty()) std::filesystem::remove_all(directory_, ec);
}

void register_warm_build(const std::function<void(const std::string&)>& build) {
  auto pair = register_pair(
      {"build/warm-vs-cold", Measure::latency, 0.01, {}},
      [build](benchmark::State& state) {
        const auto info = plinth::program_cache_info();
        require(info.on_disk, "the program cache", "is not on disk: " + info.state);
        const std::string source = build_source(unique_token());
        build(source);  // cold: compiles and stores
        const auto loaded = plinth::program_cache_info().loaded;
        for (auto _ : state) build(source);
        require(plinth::program_cache_info().loaded >=
                    loaded + static_cast<std::size_t>(state.iterations()),
                "the warm builds", "compiled instead of loading from the cache");
      },
      [build](benchmark::State& state) {
        for (auto _ : state) build(build_source(unique_token()));
      });
  pair.first->Iterations(20)->UseRealTime()->Unit(benchmark::kMillisecond);
  pair.second->Iterations(build_iterations)->UseRealTime()->Unit(benchmark::kMillisecond);
}

void require(bool ok, const char* call, const std::string& what) {
  if (!ok) throw std::runtime_error(std::string(call) + " failed: " + what);
}

namespace {

struct Result {
  bool present = false;
  bool median = false;  // from a median aggregate (with --benchmark_repetitions)
  double cv = -1;       // coefficient of variation over the repetitions; -1: unknown
  std::string error;
  double seconds = 0;      // real (or manual) time per iteration
  double cpu_seconds = 0;  // CPU time of the benchmarking thread per iteration
  bool manual = false;     // timed on the device (UseManualTime): no host CPU time to compare
  double bytes_per_second = 0;
  benchmark::UserCounters counters;
};

struct Entry {
  Operation op;
  Result plinth;
  Result raw;
};

std::vector<Entry>& entries() {
  static std::vector<Entry> list;
  return list;
}

/// Whether the command line asked for a file of results (--benchmark_out=...).
bool& writes_results_file() {
  static bool writes = false;
  return writes;
}

Entry* find_entry(const std::string& name) {
  for (auto& entry : entries())
    if (entry.op.name == name) return &entry;
  return nullptr;
}

std::string format(const char* pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof(text), pattern, value);
  return text;
}

/// `value` with three significant digits, trailing zeros kept ("1.10", "12.0", "103").
std::string three_digits(double value) {
  const int decimals = value >= 100 ? 0 : value >= 10 ? 1 : 2;
  char text[64];
  std::snprintf(text, sizeof(text), "%.*f", decimals, value);
  return text;
}

std::string format_time(double seconds) {
  if (seconds < 1e-6) return three_digits(seconds * 1e9) + " ns";
  if (seconds < 1e-3) return three_digits(seconds * 1e6) + " us";
  if (seconds < 1) return three_digits(seconds * 1e3) + " ms";
  return three_digits(seconds) + " s";
}

std::string format_rate(double bytes_per_second) {
  if (bytes_per_second < 1e9) return format("%.1f MB/s", bytes_per_second / 1e6);
  return format("%.2f GB/s", bytes_per_second / 1e9);
}

std::string format_counter(double value) {
  if (value != 0 && (value >= 1e6 || value < 1e-2)) return format("%.3g", value);
  return format("%.4g", value);
}

std::string pad(const std::string& text, std::size_t width, bool right = false) {
  if (text.size() >= width) return text;
  const std::string fill(width - text.size(), ' ');
  return right ? fill + text : text + fill;
}

class RatioReporter : public benchmark::ConsoleReporter {
 public:
  using ConsoleReporter::ConsoleReporter;

  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const auto& run : runs) record(run);
  }

  void Finalize() override {
    ConsoleReporter::Finalize();
    print_table(GetOutputStream());
  }

  bool failed() const { return failed_; }

 private:
  void record(const Run& run) {
    const std::string& name = run.run_name.function_name;
    const auto slash = name.rfind('/');
    if (slash == std::string::npos) return;
    Entry* entry = find_entry(name.substr(0, slash));
    if (entry == nullptr) return;
    const std::string variant = name.substr(slash + 1);
    Result* result = variant == "plinth" ? &entry->plinth
                     : variant == "raw"  ? &entry->raw
                                         : nullptr;
    if (result == nullptr) return;
    if (run.error_occurred) {
      failed_ = true;
      result->present = true;
      result->error = run.error_message;
      return;
    }
    if (run.run_type == Run::RT_Aggregate && run.aggregate_name == "cv") {
      // A fraction, held in the time field (of the manual time, for device-timed ones).
      result->cv = run.real_accumulated_time;
      return;
    }
    const bool median = run.run_type == Run::RT_Aggregate;
    if (median && run.aggregate_name != "median") return;
    if (!median && result->median) return;
    result->present = true;
    result->median = median;
    const double iterations = run.iterations > 0 ? static_cast<double>(run.iterations) : 1.0;
    result->seconds = run.real_accumulated_time / iterations;
    result->cpu_seconds = run.cpu_accumulated_time / iterations;
    result->manual = run.run_name.time_type.starts_with("manual_time");
    result->counters = run.counters;
    const auto bytes = run.counters.find("bytes_per_second");
    result->bytes_per_second = bytes != run.counters.end() ? bytes->second.value : 0;
  }

  static std::string value_of(const Operation& op, const Result& result) {
    if (!result.present) return "-";
    if (!result.error.empty()) return "error";
    return op.measure == Measure::latency ? format_time(result.seconds)
                                          : format_rate(result.bytes_per_second);
  }

  static std::string counter_text(const Operation& op, const Entry& entry) {
    std::string text;
    for (const auto& name : op.counters) {
      bool rate = false;
      auto value = [&](const Result& result) {
        const auto it = result.counters.find(name);
        if (it == result.counters.end()) return std::string("-");
        rate = rate || (it->second.flags & benchmark::Counter::kIsRate) != 0;
        return format_counter(it->second.value);
      };
      const std::string values = value(entry.plinth) + " / " + value(entry.raw);
      if (!text.empty()) text += "; ";
      text += name + (rate ? "/s " : " ") + values;
    }
    return text;
  }

  /// `ratio_target` followed by the plinth side's own targets (plinth_max_seconds,
  /// plinth_zero_counters), each with "ok" or "MISSED", separated by "; ".
  static std::string plinth_targets(const Operation& op, const Result& plinth,
                                    std::string ratio_target) {
    std::string text = std::move(ratio_target);
    if (!plinth.present || !plinth.error.empty()) return text;
    auto add = [&text](const std::string& what, bool met) {
      if (!text.empty()) text += "; ";
      text += what + (met ? " ok" : " MISSED");
    };
    if (op.plinth_max_seconds > 0 && op.measure == Measure::latency)
      add("plinth <= " + format_time(op.plinth_max_seconds),
          plinth.seconds <= op.plinth_max_seconds);
    for (const auto& name : op.plinth_zero_counters) {
      const auto it = plinth.counters.find(name);
      add(name + " = 0", it != plinth.counters.end() && it->second.value == 0);
    }
    return text;
  }

  void print_table(std::ostream& out) const {
    constexpr std::size_t columns = 8;
    using Row = std::array<std::string, columns>;
    std::vector<Row> rows;
    rows.push_back({"operation", "plinth", "raw", "ratio", "cpu ratio", "cv", "target",
                    "counters (plinth / raw)"});
    std::vector<std::string> errors;
    for (const auto& entry : entries()) {
      const auto& op = entry.op;
      if (!entry.plinth.present && !entry.raw.present) continue;  // filtered out
      Row row{op.name, value_of(op, entry.plinth), value_of(op, entry.raw), "-", "", "", "", ""};
      const bool both = entry.plinth.present && entry.raw.present && entry.plinth.error.empty() &&
                        entry.raw.error.empty();
      if (both) {
        const double ratio = op.measure == Measure::latency
                                 ? entry.plinth.seconds / entry.raw.seconds
                                 : entry.plinth.bytes_per_second / entry.raw.bytes_per_second;
        row[3] = format("%.3f", ratio);
        // The calling thread's CPU time, for host-timed latencies: less disturbed than real
        // time by other processes on a busy machine.
        if (op.measure == Measure::latency && !entry.plinth.manual && entry.raw.cpu_seconds > 0)
          row[4] = format("%.3f", entry.plinth.cpu_seconds / entry.raw.cpu_seconds);
        if (entry.plinth.cv >= 0 && entry.raw.cv >= 0)
          row[5] = format("%.0f%%", 100 * std::max(entry.plinth.cv, entry.raw.cv));
        if (op.target > 0) {
          const bool met = op.measure == Measure::latency ? ratio <= op.target : ratio >= op.target;
          row[6] = (op.measure == Measure::latency ? "<= " : ">= ") + format("%.2f", op.target) +
                   (met ? " ok" : " MISSED");
        }
      }
      row[6] = plinth_targets(op, entry.plinth, row[6]);
      row[7] = counter_text(op, entry);
      rows.push_back(row);
      for (const auto* result : {&entry.plinth, &entry.raw})
        if (!result->error.empty())
          errors.push_back(op.name + (result == &entry.plinth ? "/plinth: " : "/raw: ") +
                           result->error);
    }
    if (rows.size() == 1) return;
    std::array<std::size_t, columns> widths{};
    for (const auto& row : rows)
      for (std::size_t c = 0; c < columns; ++c) widths[c] = std::max(widths[c], row[c].size());
    out << "\nplinth / raw, " << (any_median() ? "medians of the repetitions" : "single runs")
        << ". latency: ratio of times (lower is better); throughput: ratio of rates (higher is "
           "better);\ncv: the larger coefficient of variation of the two sides over the "
           "repetitions (above ~10%, the machine was too noisy for the ratio to mean much)\n";
    for (std::size_t r = 0; r < rows.size(); ++r) {
      std::string line = pad(rows[r][0], widths[0]);
      for (std::size_t c = 1; c < columns; ++c)
        line += " | " + pad(rows[r][c], widths[c], r > 0 && c <= 5);
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out << line << '\n';
      if (r == 0) {
        std::string rule;
        for (std::size_t c = 0; c < columns; ++c) rule += std::string(widths[c] + (c ? 3 : 0), '-');
        out << rule << '\n';
      }
    }
    for (const auto& error : errors) out << "error: " << error << '\n';
    out << std::flush;
  }

  static bool any_median() {
    for (const auto& entry : entries())
      if (entry.plinth.median || entry.raw.median) return true;
    return false;
  }

  bool failed_ = false;
};

}  // namespace

namespace detail {

void declare(const Operation& op) {
  if (find_entry(op.name) != nullptr)
    throw std::logic_error("benchmark operation declared twice: " + op.name);
  entries().push_back({op, {}, {}});
}

}  // namespace detail

void report_crashes() {
  static constexpr std::array signals{SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
  struct sigaction action {};
  // Only async-signal-safe calls in the handler: write() and backtrace_symbols_fd() (whose
  // first call may allocate, so backtrace() runs once here first).
  action.sa_handler = [](int signal) {
    const char* name = signal == SIGSEGV  ? "SIGSEGV"
                       : signal == SIGBUS ? "SIGBUS"
                       : signal == SIGFPE ? "SIGFPE"
                       : signal == SIGILL ? "SIGILL"
                                          : "SIGABRT";
    static constexpr char prefix[] = "\nplinth-bench: crashed with ";
    [[maybe_unused]] auto written = ::write(STDERR_FILENO, prefix, sizeof prefix - 1);
    written = ::write(STDERR_FILENO, name, std::strlen(name));
    written = ::write(STDERR_FILENO, "; backtrace:\n", 13);
    std::array<void*, 64> frames{};
    const int count = ::backtrace(frames.data(), static_cast<int>(frames.size()));
    ::backtrace_symbols_fd(frames.data(), count, STDERR_FILENO);
    std::signal(signal, SIG_DFL);
    std::raise(signal);
  };
  action.sa_flags = SA_RESETHAND;
  sigemptyset(&action.sa_mask);
  std::array<void*, 1> warm_up{};
  ::backtrace(warm_up.data(), 1);
  for (const int signal : signals) ::sigaction(signal, &action, nullptr);
}

std::vector<char*> with_default_options(int argc, char** argv) {
  report_crashes();
  static std::string repetitions_option =
      "--benchmark_repetitions=" + std::to_string(default_repetitions);
  static char interleave[] = "--benchmark_enable_random_interleaving=true";
  static char aggregates[] = "--benchmark_display_aggregates_only=true";
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]).starts_with("--benchmark_out=")) writes_results_file() = true;
  }
  std::vector<char*> args{argv[0], repetitions_option.data(), interleave, aggregates};
  args.insert(args.end(), argv + 1, argv + argc);
  args.push_back(nullptr);
  return args;
}

int run_benchmarks() {
  const auto options = ::isatty(STDOUT_FILENO) ? benchmark::ConsoleReporter::OO_Color
                                               : benchmark::ConsoleReporter::OO_None;
  RatioReporter reporter(options);
  // Each operation's measure and target, for what reads the file of results (bench/plot):
  // Google Benchmark's JSON has the two sides' times but not what their ratio should be. Only
  // with a results file: the console's context would open with one line per operation.
  if (writes_results_file()) {
    for (const auto& entry : entries()) {
      const bool latency = entry.op.measure == Measure::latency;
      std::string value = latency ? "latency" : "throughput";
      if (entry.op.target > 0) {
        std::array<char, 32> target{};
        std::snprintf(target.data(), target.size(), "%.2f", entry.op.target);
        value += (latency ? " <= " : " >= ") + std::string(target.data());
      }
      benchmark::AddCustomContext("plinth_op:" + entry.op.name, value);
    }
  }
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return reporter.failed() ? 1 : 0;
}

}  // namespace plinth_bench
