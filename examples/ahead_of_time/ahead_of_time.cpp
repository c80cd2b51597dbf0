// Compiling ahead of time: a kernel built for a named target (with plinth-compile, on a
// machine that need not have that GPU, or with plinth::compile_for_target()) and loaded with
// Program::from_binaries(), so that the program compiles nothing at run time.
//
//   ahead_of_time kernel.cl            compiles kernel.cl for the default device's target,
//                                      where its API can (CUDA, HIP), else from source
//   ahead_of_time kernel.cl BINARY     loads BINARY (e.g. from
//                                      plinth-compile --api cuda -t sm_90 -D real=float
//                                      kernel.cl) on the default device
// Then runs axpy on 2^16 floats, checks the result on the host, and prints OK.

#include <plinth/plinth.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <vector>

namespace {

std::vector<char> read_file(const char* path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw plinth::Error(std::string("cannot open ") + path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// The compile target of `device`'s API that has its compute capability (CUDA: sm_XY;
/// HIP: the ISA), if the API compiles for named targets.
std::optional<plinth::CompileTarget> target_of(const plinth::API& api,
                                               const plinth::BoundDevice& device) {
  std::vector<plinth::CompileTarget> targets;
  try {
    targets = plinth::compile_targets(api.id());
  } catch (const plinth::LogicError&) {
    return std::nullopt;  // OpenCL: programs are compiled by the device's driver
  }
  const auto& capability = device.params().compute_capability;
  const auto found = std::find_if(targets.begin(), targets.end(), [&](const auto& t) {
    return !capability.empty() && t.params.compute_capability == capability && t.extension != "ptx";
  });
  return found == targets.end() ? std::nullopt : std::optional(*found);
}

}  // namespace

int main(int argc, char** argv) try {
  if (argc < 2 || argc > 3) {
    std::cerr << "usage: ahead_of_time kernel.cl [binary]\n";
    return 2;
  }
  const auto api = plinth::API::from_env();
  const auto context = plinth::Context::from_criteria(api);  // honours PLINTH_DEVICE
  const auto device = context.devices()[0];
  const plinth::Queue queue(device);

  plinth::ProgramOptions options;
  options.render_globals.emplace("real", "float");
  std::optional<plinth::Program> program;
  std::string how;
  if (argc == 3) {
    const auto bytes = read_file(argv[2]);
    const auto* data = reinterpret_cast<const std::byte*>(bytes.data());
    program = plinth::Program::from_binaries(context.devices(), {{data, data + bytes.size()}});
    how = std::string("loaded ") + argv[2];
  } else {
    const auto source = read_file(argv[1]);
    const std::string text(source.begin(), source.end());
    if (const auto target = target_of(api, device)) {
      const auto binary = plinth::compile_for_target(api.id(), target->name, text, options);
      program = plinth::Program::from_binaries(context.devices(), {binary.binary});
      how = "compiled for " + target->name + " with compile_for_target()";
    } else {
      program.emplace(context, text, options);
      how = "compiled for the device";
    }
  }

  const int n = 1 << 16;
  std::vector<float> x(n), y(n), expected(n);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 97) * 0.5f;
    y[i] = static_cast<float>(i % 13);
    expected[i] = 3.0f * x[i] + y[i];
  }
  auto x_dev = plinth::Buffer::allocate(device, n * sizeof(float));
  auto y_dev = plinth::Buffer::allocate(device, n * sizeof(float));
  x_dev.set(queue, std::as_bytes(std::span(x)));
  y_dev.set(queue, std::as_bytes(std::span(y)));
  program->kernel("axpy")(queue, {n}, {}, y_dev, x_dev, 3.0f, n);
  y_dev.get(queue, std::as_writable_bytes(std::span(y)));
  for (int i = 0; i < n; ++i) {
    if (y[i] != expected[i]) {
      std::cerr << "mismatch at " << i << ": " << y[i] << " != " << expected[i] << "\n";
      return 1;
    }
  }
  std::cout << "ahead_of_time: " << how << "; axpy on " << n << " elements on " << api.name()
            << ", " << device.name() << "\nOK\n";
  return 0;
} catch (const plinth::Error& e) {
  std::cerr << "ahead_of_time: " << e.what() << "\n";
  return 1;
}
