// One rank of the multi-process collectives tests (two_processes_test.cpp): joins a
// communicator of `ranks` ranks (two, or one per CUDA device) as `rank` on CUDA device `rank`,
// runs every collective and checks the results on the host, and prints "rank R: OK" on success.
//   plinth-collective-rank <rank> <ranks> <id file>
//   plinth-collective-rank --count      prints the number of CUDA devices (CUDA_VISIBLE_DEVICES
//                                       applies), or exits with 77 saying what is missing
// Rank 0 creates the communicator id and writes it to <id file> (written to a temporary file and
// renamed, so that a reader never sees half of it); the others wait for the file: the "a file"
// way of handing an id to the other ranks. Exit status: 0 done, 1 a failure (printed),
// 77 what the test needs is missing (two CUDA devices, a collectives library).
//
// NCCL_NVLS_ENABLE=0 is set before anything can start NCCL: the shared GPU hosts must never
// create NVLink multicast objects.

#include <plinth/plinth.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <numeric>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace fs = std::filesystem;

std::string read_id(const fs::path& file) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!fs::exists(file)) {
    if (std::chrono::steady_clock::now() > deadline) {
      throw std::runtime_error("no communicator id in " + file.string() + " after 60 s");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::ifstream in(file);
  std::string text;
  std::getline(in, text);
  return text;
}

void write_id(const fs::path& file, const std::string& text) {
  const fs::path temporary = file.string() + ".partial";
  {
    std::ofstream out(temporary);
    out << text << '\n';
  }
  fs::rename(temporary, file);
}

template <class T>
void expect(const std::vector<T>& got, const std::vector<T>& want, const char* what) {
  if (got == want) return;
  std::ostringstream message;
  message << what << ": wrong result";
  for (std::size_t i = 0; i < got.size() && i < want.size(); ++i) {
    if (got[i] != want[i]) {
      message << " (element " << i << ": " << got[i] << ", expected " << want[i] << ")";
      break;
    }
  }
  throw std::runtime_error(message.str());
}

/// The CUDA API if it has devices and a collectives library; otherwise says what is missing.
std::optional<plinth::API> cuda_with_library() {
  std::optional<plinth::API> found;
  try {
    found = plinth::API::from_api_id(plinth::APIID{"cuda"});
  } catch (const plinth::PluginError& error) {
    std::cout << "no CUDA API: " << error.what() << std::endl;
    return std::nullopt;
  }
  const auto support = plinth::collectives_support(*found);
  if (!support.library) {
    std::cout << "no collectives library: " << support.description << std::endl;
    return std::nullopt;
  }
  return found;
}

/// --count: the number of CUDA devices of the first platform, on a line of its own.
int count_devices() {
  const auto api = cuda_with_library();
  if (!api) return 77;
  const auto platforms = api->platforms();
  std::cout << (platforms.empty() ? 0 : platforms.front().devices().size()) << std::endl;
  return 0;
}

int run(std::size_t rank, std::size_t ranks, const fs::path& id_file) {
  if (ranks < 2 || rank >= ranks) {
    throw std::runtime_error("needs two ranks or more and a rank below their count");
  }
  const auto found = cuda_with_library();
  if (!found) return 77;
  const plinth::API& api = *found;
  const auto devices = api.platforms().at(0).devices();
  if (devices.size() < ranks) {
    std::cout << "needs " << ranks << " CUDA devices, found " << devices.size() << std::endl;
    return 77;
  }
  const auto context = plinth::Context::from_devices({devices[rank]});
  const plinth::Queue queue(context.devices()[0]);
  if (rank == 0) write_id(id_file, plinth::CommunicatorId::create(api).to_string());
  const auto id = plinth::CommunicatorId::from_string(read_id(id_file));
  const auto comm = plinth::Communicator::join(queue, id, ranks, rank);
  if (comm.size() != ranks || comm.ranks() != std::vector<std::size_t>{rank}) {
    throw std::runtime_error("the communicator reports the wrong ranks");
  }

  const std::size_t n = 1000003;  // odd, and more than one of NCCL's chunks
  const auto r = static_cast<float>(rank);
  // all_reduce, sum and max, in place and not, float32.
  std::vector<float> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<float>(i % 1000) + 1000 * r;
  const auto x = plinth::Array::from_host(queue, plinth::HostArray::from_values(values));
  const auto sum = plinth::Array::empty_like(queue.device(), x);
  comm.all_reduce(x, sum, plinth::ReduceOp::sum);
  std::vector<float> want(n);
  for (std::size_t i = 0; i < n; ++i) {
    want[i] = 0;
    for (std::size_t k = 0; k < ranks; ++k) want[i] += static_cast<float>(i % 1000) + 1000.0f * k;
  }
  expect(sum.get(queue).to_vector<float>(), want, "all_reduce sum float32");
  comm.all_reduce(x, plinth::ReduceOp::max);
  for (std::size_t i = 0; i < n; ++i)
    want[i] = static_cast<float>(i % 1000) + 1000.0f * (ranks - 1);
  expect(x.get(queue).to_vector<float>(), want, "all_reduce max float32 in place");

  // reduce (prod) to rank 1, int64.
  const auto ints =
      plinth::Array::from_host(queue, plinth::HostArray::from_values(std::vector<std::int64_t>(
                                          7, static_cast<std::int64_t>(rank + 2))));
  const auto product = plinth::Array::from_host(
      queue, plinth::HostArray::from_values(std::vector<std::int64_t>(7, -1)));
  comm.reduce(ints, product, plinth::ReduceOp::prod, 1);
  std::int64_t all = 1;
  for (std::size_t k = 0; k < ranks; ++k) all *= static_cast<std::int64_t>(k + 2);
  expect(product.get(queue).to_vector<std::int64_t>(),
         std::vector<std::int64_t>(7, rank == 1 ? all : -1), "reduce prod int64 to rank 1");

  // broadcast from the last rank, int8 (moved as bytes).
  const auto bytes =
      plinth::Array::from_host(queue, plinth::HostArray::from_values(std::vector<std::int8_t>(
                                          33, static_cast<std::int8_t>(rank + 5))));
  comm.broadcast(bytes, ranks - 1);
  expect(bytes.get(queue).to_vector<std::int8_t>(),
         std::vector<std::int8_t>(33, static_cast<std::int8_t>(ranks - 1 + 5)),
         "broadcast int8 from the last rank");

  // all_gather, int32; reduce_scatter (sum), float64.
  const auto mine =
      plinth::Array::from_host(queue, plinth::HostArray::from_values(std::vector<std::int32_t>{
                                          static_cast<std::int32_t>(rank), 10}));
  const auto gathered = plinth::Array::empty(queue.device(), {2 * ranks}, plinth::DType::int32());
  comm.all_gather(mine, gathered);
  std::vector<std::int32_t> gather_want;
  for (std::size_t k = 0; k < ranks; ++k) {
    gather_want.push_back(static_cast<std::int32_t>(k));
    gather_want.push_back(10);
  }
  expect(gathered.get(queue).to_vector<std::int32_t>(), gather_want, "all_gather int32");
  std::vector<double> parts(3 * ranks);
  std::iota(parts.begin(), parts.end(), 1.0);
  const auto scattered_src = plinth::Array::from_host(queue, plinth::HostArray::from_values(parts));
  const auto scattered = plinth::Array::empty(queue.device(), {3}, plinth::DType::float64());
  comm.reduce_scatter(scattered_src, scattered, plinth::ReduceOp::sum);
  std::vector<double> scatter_want;
  for (std::size_t i = 0; i < 3; ++i)
    scatter_want.push_back(static_cast<double>(ranks) * parts[3 * rank + i]);
  expect(scattered.get(queue).to_vector<double>(), scatter_want, "reduce_scatter sum float64");

  queue.synchronize();
  std::cout << "rank " << rank << ": OK (" << comm.engine() << ")" << std::endl;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  setenv("NCCL_NVLS_ENABLE", "0", 1);  // see the top of this file; not optional
  const bool count = argc == 2 && std::string(argv[1]) == "--count";
  if (argc != 4 && !count) {
    std::cerr << "usage: plinth-collective-rank <rank> <ranks> <id file>\n"
                 "       plinth-collective-rank --count"
              << std::endl;
    return 1;
  }
  try {
    if (count) return count_devices();
    return run(std::stoul(argv[1]), std::stoul(argv[2]), argv[3]);
  } catch (const std::exception& error) {
    std::cout << "rank " << argv[1] << ": " << error.what() << std::endl;
    return 1;
  }
}
