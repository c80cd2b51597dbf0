// A sum across the devices of one context: each device holds its own contribution to a
// vector (a CloneSplay MultiArray, one whole copy per device, set to different values), and
// all_reduce leaves the sum of every device's contribution on every device. NCCL runs it
// where the backend has it (CUDA), plinth's own copies and kernels otherwise (PoCL, one
// device or several). Each device's result is checked on the host; prints OK.

#include <plinth/collectives.hpp>
#include <plinth/plinth.hpp>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <vector>

int main() try {
  // NVLink multicast (NVLS) stays off before anything may start NCCL: on the shared GPU hosts
  // it can take the GPUs out of service. Not optional there, harmless elsewhere.
  setenv("NCCL_NVLS_ENABLE", "0", 1);

  const auto api = plinth::API::from_env();
  // Every device of the first platform (or those PLINTH_DEVICE names).
  const auto context = plinth::Context::from_criteria(api, false, std::nullopt);
  const auto devices = context.devices();
  const auto queues = plinth::MultiQueue::on_devices(devices);
  const plinth::Communicator comm(queues);

  // Device d contributes (d + 1) * i to element i.
  const std::size_t n = 1 << 20;
  const auto clone = std::make_shared<plinth::CloneSplay>();
  const auto vector = plinth::MultiArray::empty(devices, {n}, plinth::DType::float32(), {}, clone);
  for (std::size_t d = 0; d < devices.size(); ++d) {
    std::vector<float> contribution(n);
    for (std::size_t i = 0; i < n; ++i) contribution[i] = static_cast<float>((d + 1) * (i % 1000));
    vector[devices[d]].set(queues[devices[d]], plinth::HostArray::from_values(contribution), true);
  }

  comm.all_reduce(vector, plinth::ReduceOp::sum);  // in place, on every device
  queues.synchronize();

  // The sum of (d + 1) over the devices: N (N + 1) / 2. Exact in float32 (small integers).
  const std::size_t factor = devices.size() * (devices.size() + 1) / 2;
  bool ok = true;
  for (const auto& device : devices) {
    const auto result = vector[device].get(queues[device]).to_vector<float>();
    for (std::size_t i = 0; i < n; ++i) {
      if (result[i] != static_cast<float>(factor * (i % 1000))) {
        std::cerr << "device " << device.index() << " ('" << device.name() << "'): element " << i
                  << " is " << result[i] << ", expected " << factor * (i % 1000) << "\n";
        ok = false;
        break;
      }
    }
  }
  std::cout << "all_reduce on " << api.name() << ", " << devices.size() << " device(s) ('"
            << devices[0].name() << "'...), by " << comm.engine() << ": " << n
            << " elements, sum of " << devices.size() << " contributions\n";
  if (!ok) return 1;
  std::cout << "OK\n";
  return 0;
} catch (const plinth::Error& e) {
  std::cerr << "all_reduce: " << e.what() << "\n";
  return 1;
}
