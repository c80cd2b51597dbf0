// plinth-bench-peer: plinth's side of bench/peer, the comparison with CuPy (bench/peer/run
// runs this program, then the same workloads through CuPy, and prints the ratios; see
// docs/performance.md, "bench/peer"). Each workload runs `--warmup` batches, then `--reps`
// timed batches of `batch` calls between two events recorded on the queue; per call, the
// median and the best of the device times (events) and the median of the host times (the
// batch's wall time up to its last result) are printed as one JSON line.
//
//     plinth-bench-peer [--api cuda] [--large 268435456] [--small 4096] [--reps 20]
//                       [--warmup 3] [--batch-large 10] [--batch-small 1000]
//                       [--workloads axpy_new,axpy_into,small_new,sum]
//
// The device is PLINTH_DEVICE's, else the API's first. CUDA is what CuPy runs on; `--api
// opencl` runs the same workloads elsewhere (on PoCL, to try the program without a GPU).

#include "../allocation_count.hpp"

#include <plinth/plinth.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

/// The command line's settings.
struct Options {
  std::string api = "cuda";
  std::size_t large = std::size_t{1} << 28;  // elements of the bandwidth-bound workloads
  std::size_t small = 4096;                  // elements of the host-bound workload
  int reps = 20;
  int warmup = 3;
  int batch_large = 10;
  int batch_small = 1000;
  std::vector<std::string> workloads = {"axpy_new", "axpy_into", "small_new", "sum"};
};

constexpr const char* usage =
    "usage: plinth-bench-peer [--api cuda] [--large N] [--small N] [--reps N] [--warmup N]\n"
    "                         [--batch-large N] [--batch-small N] [--workloads a,b,...]\n"
    "workloads: axpy_new, axpy_into, small_new, sum\n";

std::size_t positive(const std::string& option, const std::string& text) {
  std::size_t used = 0;
  unsigned long long value = 0;
  try {
    value = std::stoull(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || value == 0 || text.front() == '-')
    throw std::invalid_argument(option + " takes a positive integer, not '" + text + "'");
  return static_cast<std::size_t>(value);
}

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string option = argv[i];
    if (option == "--help" || option == "-h") {
      std::cout << usage;
      std::exit(0);
    }
    if (i + 1 >= argc) throw std::invalid_argument(option + ": a value is missing");
    const std::string value = argv[++i];
    auto count = [&] {
      return static_cast<int>(std::min<std::size_t>(positive(option, value), 1u << 30));
    };
    if (option == "--api") {
      options.api = value;
    } else if (option == "--large") {
      options.large = positive(option, value);
    } else if (option == "--small") {
      options.small = positive(option, value);
    } else if (option == "--reps") {
      options.reps = count();
    } else if (option == "--warmup") {
      options.warmup = count();
    } else if (option == "--batch-large") {
      options.batch_large = count();
    } else if (option == "--batch-small") {
      options.batch_small = count();
    } else if (option == "--workloads") {
      options.workloads.clear();
      std::stringstream list(value);
      for (std::string name; std::getline(list, name, ',');) {
        if (name != "axpy_new" && name != "axpy_into" && name != "small_new" && name != "sum")
          throw std::invalid_argument("unknown workload '" + name + "'");
        options.workloads.push_back(name);
      }
    } else {
      throw std::invalid_argument("unknown option '" + option + "'");
    }
  }
  return options;
}

/// `text` as a JSON string.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", value);
  return text;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

/// One workload: what it runs and what it moves.
struct Workload {
  std::string name;
  std::string how;      // the plinth call, for the table's notes
  std::string measure;  // "bandwidth" (GB/s of `bytes`) or "latency" (host time per call)
  std::size_t elements = 0;
  std::size_t bytes = 0;  // bytes read and written per call
  int batch = 1;
  std::function<void()> call;
  std::function<std::string()> check;  // after the warm-up: "" if the result is right
};

/// The first `count` elements of `array` (float32) on the host.
std::vector<float> head(const plinth::Queue& queue, const plinth::Array& array, std::size_t count) {
  const auto part = array.view({plinth::Slice(0, static_cast<std::ptrdiff_t>(count))});
  return part.get(queue).to_vector<float>();
}

std::string expect_all(const std::vector<float>& values, float expected, const char* what) {
  for (const float value : values)
    if (value != expected)
      return std::string(what) + " gave " + number(value) + ", expected " + number(expected);
  return {};
}

void run(const Options& options) {
  const auto api = plinth::API::from_api_id(plinth::APIID{options.api});
  const auto context = plinth::Context::from_criteria(api);
  const plinth::Queue queue(context.devices()[0]);
  const auto& device = queue.device();
  const plinth::MemoryPool pool = plinth::MemoryPool::of(context);
  std::cout << "{\"impl\": \"plinth\", \"kind\": \"setup\", \"api\": " << quoted(api.name())
            << ", \"device\": " << quoted(device.device().name()) << ", \"version\": \""
            << PLINTH_VERSION_MAJOR << '.' << PLINTH_VERSION_MINOR << '.' << PLINTH_VERSION_PATCH
            << "\""
            << ", \"memory_pool\": " << (pool.enabled() ? "true" : "false") << "}" << std::endl;

  const auto f32 = plinth::DType::float32();
  auto wanted = [&](const char* name) {
    return std::find(options.workloads.begin(), options.workloads.end(), name) !=
           options.workloads.end();
  };
  const bool large_needed = wanted("axpy_new") || wanted("axpy_into") || wanted("sum");
  std::optional<plinth::Array> x, y, z, small;
  if (large_needed) {
    x = plinth::Array::empty(queue, {options.large}, f32);
    y = plinth::Array::empty(queue, {options.large}, f32);
    z = plinth::Array::empty(queue, {options.large}, f32);
    plinth::fill(queue, *x, 1.0f);
    plinth::fill(queue, *y, 1.0f);
    plinth::fill(queue, *z, 0.0f);
  }
  if (wanted("small_new")) {
    small = plinth::Array::empty(queue, {options.small}, f32);
    plinth::fill(queue, *small, 1.0f);
  }
  queue.synchronize();

  const std::size_t large_bytes = options.large * sizeof(float);
  std::vector<Workload> workloads;
  for (const auto& name : options.workloads) {
    if (name == "axpy_new") {
      workloads.push_back(
          {name, "evaluate(queue, 2.5*x + y)", "bandwidth", options.large, 3 * large_bytes,
           options.batch_large, [&] { const auto r = plinth::evaluate(queue, 2.5 * *x + *y); },
           [&] {
             return expect_all(head(queue, plinth::evaluate(queue, 2.5 * *x + *y), 16), 3.5f,
                               "2.5*x + y");
           }});
    } else if (name == "axpy_into") {
      workloads.push_back({name, "assign(queue, z, 2.5*x + y)", "bandwidth", options.large,
                           3 * large_bytes, options.batch_large,
                           [&] { plinth::assign(queue, *z, 2.5 * *x + *y); },
                           [&] { return expect_all(head(queue, *z, 16), 3.5f, "z = 2.5*x + y"); }});
    } else if (name == "small_new") {
      workloads.push_back({name, "evaluate(queue, x*2 + 1)", "latency", options.small,
                           2 * options.small * sizeof(float), options.batch_small,
                           [&] { const auto r = plinth::evaluate(queue, *small * 2 + 1); },
                           [&] {
                             return expect_all(head(queue, plinth::evaluate(queue, *small * 2 + 1),
                                                    std::min<std::size_t>(options.small, 16)),
                                               3.0f, "x*2 + 1");
                           }});
    } else if (name == "sum") {
      workloads.push_back({name, "sum(queue, x)", "bandwidth", options.large, large_bytes,
                           options.batch_large, [&] { const auto r = plinth::sum(queue, *x); },
                           [&]() -> std::string {
                             const float total =
                                 plinth::sum(queue, *x).get(queue).to_vector<float>()[0];
                             const auto n = static_cast<double>(options.large);
                             if (std::fabs(total - n) <= 1e-3 * n) return {};
                             return "sum(x) gave " + number(total) + ", expected " + number(n);
                           }});
    }
  }

  for (auto& workload : workloads) {
    // One batch: `batch` calls between two events, each new result dropped at once (as a
    // Python caller's that is not kept).
    auto batch = [&] {
      queue.synchronize();
      const auto host_start = std::chrono::steady_clock::now();
      const auto start = queue.record_event();
      for (int i = 0; i < workload.batch; ++i) workload.call();
      const auto end = queue.record_event();
      end.wait();
      const std::chrono::duration<double> host = std::chrono::steady_clock::now() - host_start;
      return std::pair{plinth::elapsed_ms(start, end) / 1e3 / workload.batch,
                       host.count() / workload.batch};
    };
    for (int i = 0; i < options.warmup; ++i) batch();
    queue.synchronize();
    if (const std::string problem = workload.check(); !problem.empty())
      throw std::runtime_error(workload.name + ": wrong result: " + problem);
    queue.synchronize();
    std::vector<double> device_seconds, host_seconds;
    const auto misses = pool.stats(device).misses;
    const auto allocations = plinth_bench::allocations();
    for (int i = 0; i < options.reps; ++i) {
      const auto [on_device, on_host] = batch();
      device_seconds.push_back(on_device);
      host_seconds.push_back(on_host);
    }
    // Heap allocations over the timed batches, the events and host timing included
    // (record_event reuses its events: none there on a warm queue).
    const double calls = static_cast<double>(options.reps) * workload.batch;
    const double allocations_per_call =
        static_cast<double>(plinth_bench::allocations() - allocations) / calls;
    // A pool turned off counts no misses, though every result is then a driver allocation.
    const std::string misses_per_call =
        pool.enabled() ? number(static_cast<double>(pool.stats(device).misses - misses) / calls)
                       : "null";
    std::cout << "{\"impl\": \"plinth\", \"kind\": \"workload\", \"workload\": "
              << quoted(workload.name) << ", \"how\": " << quoted(workload.how)
              << ", \"measure\": " << quoted(workload.measure)
              << ", \"elements\": " << workload.elements << ", \"dtype\": \"float32\""
              << ", \"bytes\": " << workload.bytes << ", \"batch\": " << workload.batch
              << ", \"reps\": " << options.reps
              << ", \"seconds\": " << number(median(device_seconds)) << ", \"best_seconds\": "
              << number(*std::min_element(device_seconds.begin(), device_seconds.end()))
              << ", \"host_seconds\": " << number(median(host_seconds))
              << ", \"pool_misses_per_call\": " << misses_per_call
              << ", \"host_allocs_per_call\": " << number(allocations_per_call) << "}" << std::endl;
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  try {
    options = parse(argc, argv);
  } catch (const std::exception& error) {
    std::cerr << "plinth-bench-peer: " << error.what() << "\n" << usage;
    return 2;
  }
  try {
    run(options);
  } catch (const std::exception& error) {
    std::cerr << "plinth-bench-peer: " << error.what() << std::endl;
    return 1;
  }
  return 0;
}
