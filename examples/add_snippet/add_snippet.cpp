// grunnur's snippet tutorial: a Snippet renders in place, here `${add("x")}` → `x + 1`.
// Runs on the default API, prints the kernel as compiled (less the prelude), checks on the
// host, prints OK.

#include <plinth/plinth.hpp>

#include <iostream>
#include <numeric>
#include <string>
#include <vector>

const char* const source = R"(
KERNEL void test(GLOBAL_MEM int *arr)
{
    const SIZE_T idx = get_global_id(0);
    int x = arr[idx];
    arr[idx] = ${add("x")};
}
)";

int main() try {
  const auto api = plinth::API::from_env();
  const auto context = plinth::Context::from_criteria(api);  // honours PLINTH_DEVICE
  const auto device = context.devices()[0];
  const plinth::Queue queue(device);

  // The snippet's parameter `varname` receives the text "x"; `num` is its own render global.
  const auto add = plinth::Snippet::from_callable(
      [](const plinth::RenderValue&) -> std::string { return "${varname} + ${num}"; }, {"varname"},
      "add", {{"num", 1}});

  const int n = 1024;
  std::vector<int> arr(n);
  std::iota(arr.begin(), arr.end(), 0);
  auto arr_dev = plinth::Buffer::allocate(device, n * sizeof(int));
  arr_dev.set(queue, std::as_bytes(std::span(arr)));

  plinth::ProgramOptions options;
  options.render_globals = {{"add", add}};
  const plinth::Program program(context, source, options);
  program.kernel("test")(queue, {n}, {}, arr_dev);
  arr_dev.get(queue, std::as_writable_bytes(std::span(arr)));

  const auto& compiled = program.source();
  const auto start = compiled.find("KERNEL void test");
  std::cout << (start == std::string::npos ? compiled : compiled.substr(start));
  for (int i = 0; i < n; ++i) {
    if (arr[i] != i + 1) {
      std::cerr << "mismatch at " << i << ": " << arr[i] << " != " << i + 1 << "\n";
      return 1;
    }
  }
  std::cout << "add_snippet: " << n << " elements on " << api.name() << ", " << device.name()
            << "\nOK\n";
  return 0;
} catch (const plinth::Error& e) {
  std::cerr << "add_snippet: " << e.what() << "\n";
  return 1;
}
