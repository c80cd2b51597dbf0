// grunnur's static kernel example: the outer product of two vectors, written with virtual
// ids (`${static.global_id}(0)`) instead of get_global_id(), so the kernel neither computes
// indices from groups nor cares how the sizes fit the device's grid. It runs on every device
// of the default context, each computing its own rows: `a` is split (EqualSplay), `b` cloned
// (CloneSplay). Prints the real sizes chosen per device, checks on the host, prints OK.

#include <plinth/plinth.hpp>

#include <iostream>
#include <memory>
#include <numeric>
#include <vector>

const char* const source = R"(
KERNEL void multiply(GLOBAL_MEM float *dest, GLOBAL_MEM const float *a,
                     GLOBAL_MEM const float *b)
{
    if (${static.skip}()) return;
    const VSIZE_T x = ${static.global_id}(0);  // varies fastest: the column, over b
    const VSIZE_T y = ${static.global_id}(1);  // the row, over a
    dest[${static.global_flat_id}()] = a[y] * b[x];
}
)";

std::string shape(const std::vector<std::size_t>& sizes) {
  std::string text;
  for (const auto size : sizes) text += (text.empty() ? "" : " x ") + std::to_string(size);
  return text;
}

int main() try {
  const auto api = plinth::API::from_env();
  const auto context = plinth::Context::from_criteria(api);  // honours PLINTH_DEVICE
  const auto devices = context.devices();
  const auto queues = plinth::MultiQueue::on_devices(devices);

  const std::size_t rows = 1000, cols = 300;
  std::vector<float> a(rows), b(cols);
  std::iota(a.begin(), a.end(), 1.0f);
  std::iota(b.begin(), b.end(), 0.5f);
  const auto a_dev = plinth::MultiArray::from_host(queues, plinth::HostArray::from_values(a));
  const auto b_dev = plinth::MultiArray::from_host(queues, plinth::HostArray::from_values(b),
                                                   std::make_shared<plinth::CloneSplay>());
  const auto dest = plinth::MultiArray::empty(devices, {rows, cols}, plinth::DType::float32());

  // Each device's virtual global size: (columns, its rows), dimension 0 fastest.
  plinth::PerDevice<std::vector<std::size_t>> global;
  for (const auto& device : devices) global.insert(device, {cols, dest.shapes()[device][0]});
  const plinth::StaticKernel multiply(devices, source, "multiply", global);
  multiply(queues, dest, a_dev, b_dev);

  const auto result = dest.get(queues);
  for (std::size_t y = 0; y < rows; ++y) {
    for (std::size_t x = 0; x < cols; ++x) {
      if (result.at<float>({y, x}) != a[y] * b[x]) {
        std::cerr << "mismatch at " << y << ", " << x << "\n";
        return 1;
      }
    }
  }
  for (const auto& device : devices) {
    std::cout << "static_kernel: " << device.name() << ": virtual " << shape(global[device])
              << ", real global " << shape(multiply.real_global_size(device)) << ", local "
              << shape(multiply.real_local_size(device)) << "\n";
  }
  std::cout << "static_kernel: a " << rows << " x " << cols << " outer product on "
            << devices.size() << " device(s) of " << api.name() << "\nOK\n";
  return 0;
} catch (const plinth::Error& e) {
  std::cerr << "static_kernel: " << e.what() << "\n";
  return 1;
}
