// A stand-in libnccl.so.2 for tests/backends/cuda/nccl_fake_test.cpp: the functions the
// backend resolves, with the signatures of backends/cuda/nccl.hpp (checked against nccl.h by
// nccl_declarations_test), recording every call as a line of text instead of communicating.
// The test reads the record through fake_nccl_log() and may have ncclGroupEnd call a function
// of its own (fake_nccl_on_group_end: NCCL switching devices, say). FAKE_NCCL_VERSION overrides the
// version ncclGetVersion reports; a call with a count of 13 fails with ncclInvalidArgument.

#include "nccl.hpp"

#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <sstream>
#include <string>

using plinth::cuda::nccl::Comm;
using plinth::cuda::nccl::DataType;
using plinth::cuda::nccl::RedOp;
using plinth::cuda::nccl::Result;
using plinth::cuda::nccl::UniqueId;

namespace {

std::mutex log_mutex;
std::string log_text;  // one line per call
int next_comm = 0;
void (*on_group_end)() = nullptr;

void record(const std::string& line) {
  const std::lock_guard lock(log_mutex);
  log_text += line + "\n";
}

std::uintptr_t number(const void* pointer) { return reinterpret_cast<std::uintptr_t>(pointer); }

// "comm1" for the second communicator made.
std::string name(const Comm* comm) { return "comm" + std::to_string(number(comm) - 0x1000); }

Comm* make_comm() { return reinterpret_cast<Comm*>(std::uintptr_t{0x1000} + next_comm++); }

// send, recv, count, type, and the stream, as the log shows them.
std::string buffers(const void* send, const void* recv, std::size_t count, DataType type,
                    CUstream stream) {
  std::ostringstream out;
  out << std::hex << "send=0x" << number(send) << " recv=0x" << number(recv) << std::dec
      << " count=" << count << " type=" << static_cast<unsigned>(type) << " stream=0x" << std::hex
      << number(stream);
  return out.str();
}

Result outcome(std::size_t count) {
  return count == 13 ? Result::invalid_argument : Result::success;
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) const char* fake_nccl_log() { return log_text.c_str(); }
__attribute__((visibility("default"))) void fake_nccl_reset() {
  const std::lock_guard lock(log_mutex);
  log_text.clear();
  next_comm = 0;
  on_group_end = nullptr;
}
__attribute__((visibility("default"))) void fake_nccl_on_group_end(void (*function)()) {
  on_group_end = function;
}

__attribute__((visibility("default"))) Result ncclGetVersion(int* version) {
  const char* value = std::getenv("FAKE_NCCL_VERSION");
  *version = value != nullptr ? std::atoi(value) : 22809;
  return Result::success;
}
__attribute__((visibility("default"))) const char* ncclGetErrorString(Result result) {
  return result == Result::invalid_argument ? "fake invalid argument" : "fake error";
}
__attribute__((visibility("default"))) const char* ncclGetLastError(Comm*) {
  return "fake last error";
}
__attribute__((visibility("default"))) Result ncclGetUniqueId(UniqueId* id) {
  for (int i = 0; i < 128; ++i) id->internal[i] = static_cast<char>(i + 1);
  record("GetUniqueId");
  return Result::success;
}
__attribute__((visibility("default"))) Result ncclCommInitAll(Comm** comms, int count,
                                                              const int* devices) {
  std::string line = "CommInitAll";
  for (int i = 0; i < count; ++i) {
    comms[i] = make_comm();
    line += " " + std::to_string(devices[i]) + ":" + name(comms[i]);
  }
  record(line);
  return Result::success;
}
__attribute__((visibility("default"))) Result ncclCommInitRank(Comm** comm, int rank_count,
                                                               UniqueId id, int rank) {
  *comm = make_comm();
  record("CommInitRank ranks=" + std::to_string(rank_count) + " rank=" + std::to_string(rank) +
         " id0=" + std::to_string(id.internal[0]) + " id127=" + std::to_string(id.internal[127]) +
         " " + name(*comm));
  return Result::success;
}
__attribute__((visibility("default"))) Result ncclCommFinalize(Comm* comm) {
  record("CommFinalize " + name(comm));
  return Result::success;
}
__attribute__((visibility("default"))) Result ncclCommDestroy(Comm* comm) {
  record("CommDestroy " + name(comm));
  return Result::success;
}
__attribute__((visibility("default"))) Result ncclGroupStart() {
  record("GroupStart");
  return Result::success;
}
__attribute__((visibility("default"))) Result ncclGroupEnd() {
  record("GroupEnd");
  if (on_group_end != nullptr) on_group_end();
  return Result::success;
}
__attribute__((visibility("default"))) Result ncclAllReduce(const void* send, void* recv,
                                                            std::size_t count, DataType type,
                                                            RedOp op, Comm* comm, CUstream stream) {
  record("AllReduce " + name(comm) + " " + buffers(send, recv, count, type, stream) +
         " op=" + std::to_string(static_cast<unsigned>(op)));
  return outcome(count);
}
__attribute__((visibility("default"))) Result ncclReduce(const void* send, void* recv,
                                                         std::size_t count, DataType type, RedOp op,
                                                         int root, Comm* comm, CUstream stream) {
  record("Reduce " + name(comm) + " " + buffers(send, recv, count, type, stream) +
         " op=" + std::to_string(static_cast<unsigned>(op)) + " root=" + std::to_string(root));
  return outcome(count);
}
__attribute__((visibility("default"))) Result ncclBroadcast(const void* send, void* recv,
                                                            std::size_t count, DataType type,
                                                            int root, Comm* comm, CUstream stream) {
  record("Broadcast " + name(comm) + " " + buffers(send, recv, count, type, stream) +
         " root=" + std::to_string(root));
  return outcome(count);
}
__attribute__((visibility("default"))) Result ncclAllGather(const void* send, void* recv,
                                                            std::size_t count, DataType type,
                                                            Comm* comm, CUstream stream) {
  record("AllGather " + name(comm) + " " + buffers(send, recv, count, type, stream));
  return outcome(count);
}
__attribute__((visibility("default"))) Result ncclReduceScatter(const void* send, void* recv,
                                                                std::size_t count, DataType type,
                                                                RedOp op, Comm* comm,
                                                                CUstream stream) {
  record("ReduceScatter " + name(comm) + " " + buffers(send, recv, count, type, stream) +
         " op=" + std::to_string(static_cast<unsigned>(op)));
  return outcome(count);
}

}  // extern "C"
