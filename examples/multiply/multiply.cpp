// grunnur's first example: multiply two arrays element by element on the default API
// (PLINTH_API, or the first available), check on the host, print what it ran on and OK.

#include <plinth/plinth.hpp>

#include <cstdlib>
#include <iostream>
#include <random>
#include <vector>

const char* const source = R"(
KERNEL void multiply_them(GLOBAL_MEM float *dest, GLOBAL_MEM const float *a,
                          GLOBAL_MEM const float *b, int n)
{
    const SIZE_T i = get_global_id(0);
    if (i < (SIZE_T)n)
        dest[i] = a[i] * b[i];
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
  std::vector<float> a(n), b(n), dest(n);
  for (int i = 0; i < n; ++i) {
    a[i] = uniform(rng);
    b[i] = uniform(rng);
  }

  const auto bytes = n * sizeof(float);
  auto a_dev = plinth::Buffer::allocate(device, bytes);
  auto b_dev = plinth::Buffer::allocate(device, bytes);
  auto dest_dev = plinth::Buffer::allocate(device, bytes);
  a_dev.set(queue, std::as_bytes(std::span(a)));
  b_dev.set(queue, std::as_bytes(std::span(b)));

  const plinth::Program program(context, source);
  program.kernel("multiply_them")(queue, {n}, {}, dest_dev, a_dev, b_dev, n);
  dest_dev.get(queue, std::as_writable_bytes(std::span(dest)));

  for (int i = 0; i < n; ++i) {
    if (dest[i] != a[i] * b[i]) {
      std::cerr << "mismatch at " << i << ": " << dest[i] << " != " << a[i] * b[i] << "\n";
      return 1;
    }
  }
  std::cout << "multiply: " << n << " elements on " << api.name() << ", " << device.name()
            << "\nOK\n";
  return 0;
} catch (const plinth::Error& e) {
  std::cerr << "multiply: " << e.what() << "\n";
  return 1;
}
