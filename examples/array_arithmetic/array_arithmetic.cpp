// PyCUDA's first example, on the default API (PLINTH_API, or the first available): an array
// from host data times two, a sum, and random numbers — no kernel written by hand. Each result
// is checked on the host; prints what it ran on and OK.

#include <plinth/plinth.hpp>

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <vector>

int main() try {
  const auto api = plinth::API::from_env();
  const auto context = plinth::Context::from_criteria(api);  // honours PLINTH_DEVICE
  const plinth::Queue queue(context.devices()[0]);

  // result = gpu_array * 2
  std::vector<float> values(1000);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = 0.5f * static_cast<float>(i);
  const auto gpu_array = plinth::Array::from_host(queue, plinth::HostArray::from_values(values));
  const plinth::Array result = plinth::evaluate(queue, gpu_array * 2.0f);
  const auto doubled = result.get(queue).to_vector<float>();

  // A sum on the device: 0.5 * (0 + 1 + ... + 999) * 2.
  const plinth::Array total = plinth::sum(queue, result);
  const float sum = total.get(queue).to_vector<float>()[0];

  // A random array: a million normal numbers of mean 1 and standard deviation 2, reproducible
  // from the seed on every device. Their mean, computed on the device, lies near 1.
  plinth::RandomGenerator rng(2026);
  const auto noise = plinth::Array::empty(queue.device(), {1000, 1000}, plinth::DType::float32());
  rng.normal(queue, noise, 1.0, 2.0);
  const plinth::Array noise_sum = plinth::sum(queue, noise, {}, plinth::DType::float64());
  const double mean = noise_sum.get(queue).to_vector<double>()[0] / 1e6;

  bool ok = true;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (doubled[i] != 2.0f * values[i]) {
      std::cerr << "gpu_array * 2: element " << i << " is " << doubled[i] << "\n";
      ok = false;
      break;
    }
  }
  if (sum != 499500.0f) {  // exact: every partial sum is an integer below 2^24
    std::cerr << "sum: " << sum << ", expected 499500\n";
    ok = false;
  }
  if (!(std::fabs(mean - 1.0) < 0.01)) {  // 5 standard errors (2 / sqrt(10^6) = 0.002)
    std::cerr << "normal numbers: mean " << mean << ", expected 1 within 0.01\n";
    ok = false;
  }
  std::cout << "array_arithmetic on " << api.name() << ", " << queue.device().name()
            << ": (gpu_array * 2)[999] = " << doubled.back() << ", sum = " << sum
            << ", mean of 10^6 normal numbers = " << mean << "\n";
  if (!ok) return 1;
  std::cout << "OK\n";
  return 0;
} catch (const plinth::Error& e) {
  std::cerr << "array_arithmetic: " << e.what() << "\n";
  return 1;
}
