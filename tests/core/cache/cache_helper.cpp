// A small program for the program-cache tests (program_cache_test.cpp): builds N programs on
// every device of the first platform with devices (twice each with --twice), runs each on the
// first device and checks its result, then prints the cache's counters on one line:
//   state=<...> compiled=C loaded=L stored=S rejected=R entries=E size=B
// Exit status: 0 done, 3 a wrong result, 77 no device. With PLINTH_CACHE_HELPER_START set to
// a path, waits until that file exists before building (so that many start at one moment);
// with PLINTH_CACHE_HELPER_KERNEL set, the kernel has that name instead of "add".
//   plinth-cache-helper <programs> [--twice]

#include <plinth/plinth.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>
#include <thread>

namespace {

int run(int programs, int builds) {
  std::vector<plinth::Device> devices;
  for (const auto& api : plinth::API::all_available()) {
    for (const auto& platform : plinth::Platform::all(api)) {
      devices = plinth::Device::all(platform);
      if (!devices.empty()) break;
    }
    if (!devices.empty()) break;
  }
  if (devices.empty()) {
    std::puts("no device");
    return 77;
  }
  const auto context = plinth::Context::from_devices(devices);
  const plinth::Queue queue(context.devices()[0]);
  const char* kernel_name = std::getenv("PLINTH_CACHE_HELPER_KERNEL");
  const std::string kernel = kernel_name != nullptr ? kernel_name : "add";
  for (int p = 0; p < programs; ++p) {
    const std::string source =
        "#define VALUE " + std::to_string(p + 1) + "\nKERNEL void " + kernel +
        "(GLOBAL_MEM int *out) { out[0] = VALUE + (int)get_global_id(0); }\n";
    for (int b = 0; b < builds; ++b) {
      const plinth::Program program(context, source);
      auto out = plinth::Buffer::allocate(queue.device(), sizeof(int));
      program.kernel(kernel)(queue, {1}, {1}, out);
      int value = -1;
      out.get(queue, std::as_writable_bytes(std::span(&value, 1)));
      if (value != p + 1) {
        std::printf("program %d gave %d\n", p, value);
        return 3;
      }
    }
  }
  const auto info = plinth::program_cache_info();
  std::printf("state=%s compiled=%zu loaded=%zu stored=%zu rejected=%zu entries=%zu size=%llu\n",
              info.state.c_str(), info.compiled, info.loaded, info.stored, info.rejected,
              info.entries, static_cast<unsigned long long>(info.size));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fputs("usage: plinth-cache-helper <programs> [--twice]\n", stderr);
    return 2;
  }
  if (const char* start = std::getenv("PLINTH_CACHE_HELPER_START")) {
    while (!std::filesystem::exists(start)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  try {
    return run(std::atoi(argv[1]), argc > 2 && std::string(argv[2]) == "--twice" ? 2 : 1);
  } catch (const std::exception& e) {
    std::printf("error: %s\n", e.what());
    return 1;
  }
}
