// grunnur's tutorial example with complex numbers: multiply two complex64 arrays element by
// element with functions::mul (the dialect's complex type is a vector, so `a * b` would be
// wrong), on the default API; check on the host; print what it ran on and OK.

#include <plinth/plinth.hpp>

#include <complex>
#include <cstdlib>
#include <iostream>
#include <random>
#include <vector>

const char* const source = R"(
KERNEL void multiply_them(GLOBAL_MEM ${ctype} *dest, GLOBAL_MEM const ${ctype} *a,
                          GLOBAL_MEM const ${ctype} *b, int n)
{
    const SIZE_T i = get_global_id(0);
    if (i < (SIZE_T)n)
        dest[i] = ${mul}(a[i], b[i]);
}
)";

int main() try {
  const auto api = plinth::API::from_env();
  const auto context = plinth::Context::from_criteria(api);  // honours PLINTH_DEVICE
  const auto device = context.devices()[0];
  const plinth::Queue queue(device);

  const int n = 1 << 16;
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<std::complex<float>> a(n), b(n), dest(n);
  for (int i = 0; i < n; ++i) {
    a[i] = {uniform(rng), uniform(rng)};
    b[i] = {uniform(rng), uniform(rng)};
  }

  const auto bytes = n * sizeof(std::complex<float>);
  auto a_dev = plinth::Buffer::allocate(device, bytes);
  auto b_dev = plinth::Buffer::allocate(device, bytes);
  auto dest_dev = plinth::Buffer::allocate(device, bytes);
  a_dev.set(queue, std::as_bytes(std::span(a)));
  b_dev.set(queue, std::as_bytes(std::span(b)));

  const auto complex64 = plinth::DType::complex64();
  plinth::ProgramOptions options;
  options.render_globals = {{"ctype", plinth::ctype(complex64)},
                            {"mul", plinth::functions::mul({complex64, complex64})}};
  const plinth::Program program(context, source, options);
  program.kernel("multiply_them")(queue, {n}, {}, dest_dev, a_dev, b_dev, n);
  dest_dev.get(queue, std::as_writable_bytes(std::span(dest)));

  // The device may fuse multiply-adds, so compare within single precision.
  for (int i = 0; i < n; ++i) {
    const auto expected = a[i] * b[i];
    if (std::abs(dest[i] - expected) > 1e-6f * std::abs(a[i]) * std::abs(b[i])) {
      std::cerr << "mismatch at " << i << ": " << dest[i] << " != " << expected << "\n";
      return 1;
    }
  }
  std::cout << "complex_multiply: " << n << " elements on " << api.name() << ", " << device.name()
            << "\nOK\n";
  return 0;
} catch (const plinth::Error& e) {
  std::cerr << "complex_multiply: " << e.what() << "\n";
  return 1;
}
