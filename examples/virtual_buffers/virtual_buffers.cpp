// Virtual allocations (grunnur's virtual_alloc): a pipeline of temporaries, each declared
// with the arrays it must not share memory with, so that a ZeroOffsetManager can put the
// others in the same real allocations (a preview stage first, then a pipeline). Prints the
// memory use before and after pack(), runs the pipeline, checks the result on the host and
// prints OK.

#include <plinth/plinth.hpp>

#include <cstdlib>
#include <iostream>
#include <vector>

const char* const source = R"(
KERNEL void scale(GLOBAL_MEM float *dest, GLOBAL_MEM const float *src, float factor)
{
    const SIZE_T i = get_global_id(0);
    dest[i] = src[i] * factor;
}
KERNEL void add(GLOBAL_MEM float *dest, GLOBAL_MEM const float *a, GLOBAL_MEM const float *b)
{
    const SIZE_T i = get_global_id(0);
    dest[i] = a[i] + b[i];
}
)";

int main() try {
  const auto api = plinth::API::from_env();
  const auto context = plinth::Context::from_criteria(api);  // honours PLINTH_DEVICE
  const auto device = context.devices()[0];
  const plinth::Queue queue(device);
  const plinth::Program program(context, source);
  const auto scale = program.kernel("scale");
  const auto add = program.kernel("add");

  const std::size_t n = 1 << 16;
  const auto f32 = plinth::DType::float32();
  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<float>(i % 100);
  const auto input = plinth::Array::from_host(queue, plinth::HostArray::from_values(x));

  plinth::ZeroOffsetManager manager(device);
  auto empty = [&](const plinth::Allocator& allocator, std::size_t size) {
    return plinth::Array::empty(device, {size}, f32, std::nullopt, std::nullopt, allocator);
  };
  // A first stage: a preview of the first quarter, read back at once, so that it depends on
  // nothing that comes later. Its real allocation is too small for the later temporaries,
  // which is what pack() repairs.
  const auto preview = empty(manager.allocator(), n / 4);
  scale(queue, {n / 4}, {}, preview, input, 2.0f);
  const auto preview_values = preview.get(queue).to_vector<float>();
  std::cout << "preview: " << preview_values[1] << ", " << preview_values[2] << ", ...\n";

  // Then result = 2x + (3 * 2x) + 0.5 * (2x + 3 * 2x), through four temporaries. Each is
  // declared with the temporaries that are still needed while it is written.
  const auto doubled = empty(manager.allocator(), n);
  const auto tripled = empty(manager.allocator(doubled), n);
  const auto sum = empty(manager.allocator({doubled, tripled}), n);
  const auto half = empty(manager.allocator(sum), n);
  const auto result = empty(manager.allocator({sum, half}), n);
  std::cout << "before pack: " << manager.statistics() << "\n";
  manager.pack(queue);
  std::cout << "after pack:  " << manager.statistics() << "\n";

  scale(queue, {n}, {}, doubled, input, 2.0f);
  scale(queue, {n}, {}, tripled, doubled, 3.0f);
  add(queue, {n}, {}, sum, doubled, tripled);
  scale(queue, {n}, {}, half, sum, 0.5f);
  add(queue, {n}, {}, result, sum, half);
  const auto got = result.get(queue).to_vector<float>();

  for (std::size_t i = 0; i < n; ++i) {
    const float s = 2.0f * x[i] + 3.0f * (2.0f * x[i]);
    const float expected = s + 0.5f * s;
    if (got[i] != expected) {
      std::cerr << "mismatch at " << i << ": " << got[i] << " != " << expected << "\n";
      return 1;
    }
  }
  std::cout << "virtual_buffers: " << n << " elements on " << api.name() << ", " << device.name()
            << "\nOK\n";
  return 0;
} catch (const plinth::Error& e) {
  std::cerr << "virtual_buffers: " << e.what() << "\n";
  return 1;
}
