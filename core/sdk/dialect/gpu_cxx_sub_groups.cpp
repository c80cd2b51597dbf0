// The dialect's sub-groups in CUDA and HIP C++ (docs/kernel-dialect.md, "Sub-groups"): warps
// (32 work-items) and wavefronts (warpSize: 64 on gfx9, 32 by default from gfx10), formed from
// consecutive linear local ids; the last one of a group whose size is not a multiple is
// smaller. On CUDA every intrinsic takes the mask of the lanes of the sub-group that exist.
// Generic templates, instantiated only where a kernel calls them, and the typed names as
// macros onto them.

#include "dialect_tables.hpp"
#include "gpu_cxx_parts.hpp"

namespace plinth::backend::dialect {

namespace {

constexpr std::string_view sub_group_cuda_primitives = R"(#define PLINTH_SG_W 32u
#define PLINTH_SG_MASK const unsigned int plinth_m = 0xffffffffu >> (32u - get_sub_group_size());
#define PLINTH_SHFL(x, l) __shfl_sync(plinth_m, x, l)
#define PLINTH_SHFL_UP(x, d) __shfl_up_sync(plinth_m, x, d)
#define PLINTH_SHFL_DOWN(x, d) __shfl_down_sync(plinth_m, x, d)
#define PLINTH_SHFL_XOR(x, m) __shfl_xor_sync(plinth_m, x, m)
#define PLINTH_SHFL_XOR_FULL(x, m) __shfl_xor_sync(0xffffffffu, x, m)
)";

constexpr std::string_view cuda_votes =
    R"(__device__ __forceinline__ unsigned long sub_group_ballot(int predicate) {
  PLINTH_SG_MASK return __ballot_sync(plinth_m, predicate);
}
__device__ __forceinline__ int sub_group_any(int predicate) {
  PLINTH_SG_MASK return __any_sync(plinth_m, predicate);
}
__device__ __forceinline__ int sub_group_all(int predicate) {
  PLINTH_SG_MASK return __all_sync(plinth_m, predicate);
}
#define SUB_GROUP_BARRIER __syncwarp(0xffffffffu >> (32u - get_sub_group_size()))
)";

constexpr std::string_view sub_group_hip_primitives =
    R"(#define PLINTH_SG_W ((unsigned int)warpSize)
#define PLINTH_SG_MASK
#define PLINTH_SHFL(x, l) __shfl(x, (int)(l))
#define PLINTH_SHFL_UP(x, d) __shfl_up(x, d)
#define PLINTH_SHFL_DOWN(x, d) __shfl_down(x, d)
#define PLINTH_SHFL_XOR(x, m) __shfl_xor(x, (int)(m))
#define PLINTH_SHFL_XOR_FULL(x, m) __shfl_xor(x, (int)(m))
)";

constexpr std::string_view hip_votes =
    R"(__device__ __forceinline__ unsigned long sub_group_ballot(int predicate) {
  return __ballot(predicate);
}
__device__ __forceinline__ int sub_group_any(int predicate) { return __any(predicate); }
__device__ __forceinline__ int sub_group_all(int predicate) { return __all(predicate); }
__device__ __forceinline__ void plinth_sub_group_barrier() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
}
#define SUB_GROUP_BARRIER plinth_sub_group_barrier()
)";

// Shuffles return the work-item's own x where the source is outside the sub-group; reductions
// of a whole sub-group are an xor butterfly (every lane gets the result in log2(size) steps, as
// fast as a hand-written __shfl_down_sync tree), those of a smaller last one a tree that skips
// the lanes that do not exist, then a broadcast of lane 0. Scans are Hillis-Steele over
// shuffles up, which never read a lane that does not exist.
constexpr std::string_view sub_group_operations =
    R"(__device__ __forceinline__ unsigned int plinth_group_items() {
  return blockDim.x * blockDim.y * blockDim.z;
}
__device__ __forceinline__ unsigned int plinth_linear_local_id() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
__device__ __forceinline__ unsigned int get_max_sub_group_size() {
  return plinth_group_items() < PLINTH_SG_W ? plinth_group_items() : PLINTH_SG_W;
}
__device__ __forceinline__ unsigned int get_num_sub_groups() {
  return (plinth_group_items() + PLINTH_SG_W - 1) / PLINTH_SG_W;
}
__device__ __forceinline__ unsigned int get_sub_group_id() {
  return plinth_linear_local_id() / PLINTH_SG_W;
}
__device__ __forceinline__ unsigned int get_sub_group_local_id() {
  return plinth_linear_local_id() % PLINTH_SG_W;
}
__device__ __forceinline__ unsigned int get_sub_group_size() {
  const unsigned int rest = plinth_group_items() - get_sub_group_id() * PLINTH_SG_W;
  return rest < PLINTH_SG_W ? rest : PLINTH_SG_W;
}
template <class T> __device__ __forceinline__ T plinth_sg_shuffle(T x, unsigned int lane) {
  PLINTH_SG_MASK const T r = PLINTH_SHFL(x, lane);
  return lane < get_sub_group_size() ? r : x;
}
template <class T> __device__ __forceinline__ T plinth_sg_shuffle_up(T x, unsigned int delta) {
  PLINTH_SG_MASK const T r = PLINTH_SHFL_UP(x, delta);
  return get_sub_group_local_id() >= delta ? r : x;
}
template <class T> __device__ __forceinline__ T plinth_sg_shuffle_down(T x, unsigned int delta) {
  PLINTH_SG_MASK const T r = PLINTH_SHFL_DOWN(x, delta);
  return delta < get_sub_group_size() - get_sub_group_local_id() ? r : x;
}
template <class T> __device__ __forceinline__ T plinth_sg_shuffle_xor(T x, unsigned int mask) {
  PLINTH_SG_MASK const T r = PLINTH_SHFL_XOR(x, mask);
  return (get_sub_group_local_id() ^ mask) < get_sub_group_size() ? r : x;
}
enum { plinth_op_add, plinth_op_min, plinth_op_max };
template <int Op, class T> __device__ __forceinline__ T plinth_op(T a, T b) {
  if constexpr (Op == plinth_op_add) return a + b;
  else if constexpr (plinth_num<T>::is_float) return Op == plinth_op_min ? fmin(a, b) : fmax(a, b);
  else if constexpr (Op == plinth_op_min) return b < a ? b : a;
  else return a < b ? b : a;
}
template <int Op, class T> __device__ __forceinline__ T plinth_identity() {
  return Op == plinth_op_add ? T(0) : Op == plinth_op_min ? plinth_num<T>::highest() : plinth_num<T>::lowest();
}
template <int Op, class T> __device__ __forceinline__ T plinth_sg_reduce(T x) {
  const unsigned int size = get_sub_group_size();
  if (size == PLINTH_SG_W) {
    for (unsigned int o = PLINTH_SG_W / 2; o > 0; o /= 2) x = plinth_op<Op>(x, PLINTH_SHFL_XOR_FULL(x, o));
    return x;
  }
  PLINTH_SG_MASK const unsigned int lane = get_sub_group_local_id();
  for (unsigned int o = PLINTH_SG_W / 2; o > 0; o /= 2) {
    const T y = PLINTH_SHFL_DOWN(x, o);
    if (o < size - lane) x = plinth_op<Op>(x, y);
  }
  return PLINTH_SHFL(x, 0);
}
template <int Op, class T> __device__ __forceinline__ T plinth_sg_scan_inclusive(T x) {
  PLINTH_SG_MASK const unsigned int lane = get_sub_group_local_id();
  for (unsigned int o = 1; o < PLINTH_SG_W; o *= 2) {
    const T y = PLINTH_SHFL_UP(x, o);
    if (lane >= o) x = plinth_op<Op>(y, x);
  }
  return x;
}
template <int Op, class T> __device__ __forceinline__ T plinth_sg_scan_exclusive(T x) {
  x = plinth_sg_scan_inclusive<Op>(x);
  PLINTH_SG_MASK const T y = PLINTH_SHFL_UP(x, 1u);
  return get_sub_group_local_id() == 0 ? plinth_identity<Op, T>() : y;
}
)";

}  // namespace

std::string gpu_cxx_sub_groups(GpuCxx language) {
  std::string text(language == GpuCxx::cuda ? sub_group_cuda_primitives : sub_group_hip_primitives);
  text += sub_group_operations;
  text += language == GpuCxx::cuda ? cuda_votes : hip_votes;
  for (const auto& scalar : scalars) {
    for (const std::string_view kind :
         {"broadcast", "shuffle", "shuffle_up", "shuffle_down", "shuffle_xor"})
      text += expand("#define sub_group_$K_$SUF(x, l) plinth_sg_$I<$CT>(x, l)\n",
                     {{"K", kind},
                      {"SUF", scalar.suffix},
                      {"CT", scalar.ctype},
                      {"I", kind == "broadcast" ? "shuffle" : kind}});
    for (const std::string_view op : group_ops)
      for (const std::string_view kind : {"reduce", "scan_inclusive", "scan_exclusive"})
        text += expand("#define sub_group_$K_$OP_$SUF(x) plinth_sg_$K<plinth_op_$OP, $CT>(x)\n",
                       {{"K", kind}, {"OP", op}, {"SUF", scalar.suffix}, {"CT", scalar.ctype}});
  }
  return text;
}

}  // namespace plinth::backend::dialect
