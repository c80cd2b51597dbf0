// The dialect's atomics in CUDA and HIP C++ (docs/kernel-dialect.md, "Atomics", "Fences and
// barriers"). One template per operation, instantiated only where a kernel calls it, and the
// typed names as macros onto them: the prelude is compiled with every kernel, and templates
// that nothing uses cost next to nothing. The second template argument is the scope: 1 for
// global memory (device scope), 0 for local memory (work-group scope). Orders are pasted into
// the implementation's name, so a wrong order or a variable names nothing and fails to compile.

#include "dialect_tables.hpp"
#include "gpu_cxx_parts.hpp"

#include <span>

namespace plinth::backend::dialect {

namespace {

// CUDA: the atomic*() functions (relaxed, device scope, also on shared memory); the ordered
// loads, stores and fences in the PTX memory model's own forms from sm_70 (ld.acquire.gpu,
// st.release.gpu, fence.acq_rel.gpu/.cta: PTX has no lighter fence for acquire or release
// alone), volatile accesses and membar before it.
constexpr std::string_view atomics_cuda_primitives =
    R"(#define PLINTH_ATOMIC_ADD(p, v, S) atomicAdd(p, v)
#define PLINTH_ATOMIC_AND(p, v, S) atomicAnd(p, v)
#define PLINTH_ATOMIC_OR(p, v, S) atomicOr(p, v)
#define PLINTH_ATOMIC_XOR(p, v, S) atomicXor(p, v)
#define PLINTH_ATOMIC_MIN(p, v, S) atomicMin(p, v)
#define PLINTH_ATOMIC_MAX(p, v, S) atomicMax(p, v)
#define PLINTH_ATOMIC_XCHG(p, v, S) atomicExch(p, v)
#define PLINTH_ATOMIC_CAS(p, e, d, S) atomicCAS(p, e, d)
#if __CUDA_ARCH__ >= 700
#define PLINTH_PTX_LD(sem)                                                                    \
  if constexpr (sizeof(T) == 4) {                                                             \
    if constexpr (S) asm volatile("ld." sem ".gpu.b32 %0, [%1];" : "=r"(r) : "l"(p) : "memory"); \
    else asm volatile("ld." sem ".cta.b32 %0, [%1];" : "=r"(r) : "l"(p) : "memory");          \
  } else {                                                                                    \
    if constexpr (S) asm volatile("ld." sem ".gpu.b64 %0, [%1];" : "=l"(r) : "l"(p) : "memory"); \
    else asm volatile("ld." sem ".cta.b64 %0, [%1];" : "=l"(r) : "l"(p) : "memory");          \
  }
#define PLINTH_PTX_ST(sem)                                                                    \
  if constexpr (sizeof(T) == 4) {                                                             \
    if constexpr (S) asm volatile("st." sem ".gpu.b32 [%0], %1;" :: "l"(p), "r"(b) : "memory"); \
    else asm volatile("st." sem ".cta.b32 [%0], %1;" :: "l"(p), "r"(b) : "memory");           \
  } else {                                                                                    \
    if constexpr (S) asm volatile("st." sem ".gpu.b64 [%0], %1;" :: "l"(p), "l"(b) : "memory"); \
    else asm volatile("st." sem ".cta.b64 [%0], %1;" :: "l"(p), "l"(b) : "memory");           \
  }
template <class T, int S> __device__ __forceinline__ T plinth_load_MEM_ORDER_RELAXED(const T *p) {
  typename plinth_num<T>::u r; PLINTH_PTX_LD("relaxed") return plinth_bit_cast<T>(r);
}
template <class T, int S> __device__ __forceinline__ T plinth_load_MEM_ORDER_ACQUIRE(const T *p) {
  typename plinth_num<T>::u r; PLINTH_PTX_LD("acquire") return plinth_bit_cast<T>(r);
}
template <class T, int S> __device__ __forceinline__ void plinth_store_MEM_ORDER_RELAXED(T *p, T v) {
  const typename plinth_num<T>::u b = plinth_bit_cast<typename plinth_num<T>::u>(v);
  PLINTH_PTX_ST("relaxed")
}
template <class T, int S> __device__ __forceinline__ void plinth_store_MEM_ORDER_RELEASE(T *p, T v) {
  const typename plinth_num<T>::u b = plinth_bit_cast<typename plinth_num<T>::u>(v);
  PLINTH_PTX_ST("release")
}
#define PLINTH_FENCE_DEVICE(order) asm volatile("fence.acq_rel.gpu;" ::: "memory")
#define PLINTH_FENCE_WORK_GROUP(order) asm volatile("fence.acq_rel.cta;" ::: "memory")
#else
template <class T, int S> __device__ __forceinline__ T plinth_load_MEM_ORDER_RELAXED(const T *p) {
  return *(const volatile T *)p;
}
template <class T, int S> __device__ __forceinline__ T plinth_load_MEM_ORDER_ACQUIRE(const T *p) {
  const T r = *(const volatile T *)p;
  if constexpr (S) __threadfence(); else __threadfence_block();
  return r;
}
template <class T, int S> __device__ __forceinline__ void plinth_store_MEM_ORDER_RELAXED(T *p, T v) {
  *(volatile T *)p = v;
}
template <class T, int S> __device__ __forceinline__ void plinth_store_MEM_ORDER_RELEASE(T *p, T v) {
  if constexpr (S) __threadfence(); else __threadfence_block();
  *(volatile T *)p = v;
}
#define PLINTH_FENCE_DEVICE(order) __threadfence()
#define PLINTH_FENCE_WORK_GROUP(order) __threadfence_block()
#endif
#define LOCAL_GLOBAL_BARRIER __syncthreads()
)";

// HIP: the __hip_atomic_* builtins, which take the order and the scope (agent for global
// memory, workgroup for local), and __builtin_amdgcn_fence.
constexpr std::string_view atomics_hip_primitives =
    R"(#define PLINTH_HIP_SCOPE(S) (S ? __HIP_MEMORY_SCOPE_AGENT : __HIP_MEMORY_SCOPE_WORKGROUP)
#define PLINTH_ATOMIC_ADD(p, v, S) __hip_atomic_fetch_add(p, v, __ATOMIC_RELAXED, PLINTH_HIP_SCOPE(S))
#define PLINTH_ATOMIC_AND(p, v, S) __hip_atomic_fetch_and(p, v, __ATOMIC_RELAXED, PLINTH_HIP_SCOPE(S))
#define PLINTH_ATOMIC_OR(p, v, S) __hip_atomic_fetch_or(p, v, __ATOMIC_RELAXED, PLINTH_HIP_SCOPE(S))
#define PLINTH_ATOMIC_XOR(p, v, S) __hip_atomic_fetch_xor(p, v, __ATOMIC_RELAXED, PLINTH_HIP_SCOPE(S))
#define PLINTH_ATOMIC_MIN(p, v, S) __hip_atomic_fetch_min(p, v, __ATOMIC_RELAXED, PLINTH_HIP_SCOPE(S))
#define PLINTH_ATOMIC_MAX(p, v, S) __hip_atomic_fetch_max(p, v, __ATOMIC_RELAXED, PLINTH_HIP_SCOPE(S))
#define PLINTH_ATOMIC_XCHG(p, v, S) __hip_atomic_exchange(p, v, __ATOMIC_RELAXED, PLINTH_HIP_SCOPE(S))
template <class U, int S> __device__ __forceinline__ U plinth_hip_cas(U *p, U e, U d) {
  __hip_atomic_compare_exchange_strong(p, &e, d, __ATOMIC_RELAXED, __ATOMIC_RELAXED, PLINTH_HIP_SCOPE(S));
  return e;
}
#define PLINTH_ATOMIC_CAS(p, e, d, S) plinth_hip_cas<typename plinth_num<T>::u, S>(p, e, d)
template <class T, int S> __device__ __forceinline__ T plinth_load_MEM_ORDER_RELAXED(const T *p) {
  return __hip_atomic_load(p, __ATOMIC_RELAXED, PLINTH_HIP_SCOPE(S));
}
template <class T, int S> __device__ __forceinline__ T plinth_load_MEM_ORDER_ACQUIRE(const T *p) {
  return __hip_atomic_load(p, __ATOMIC_ACQUIRE, PLINTH_HIP_SCOPE(S));
}
template <class T, int S> __device__ __forceinline__ void plinth_store_MEM_ORDER_RELAXED(T *p, T v) {
  __hip_atomic_store(p, v, __ATOMIC_RELAXED, PLINTH_HIP_SCOPE(S));
}
template <class T, int S> __device__ __forceinline__ void plinth_store_MEM_ORDER_RELEASE(T *p, T v) {
  __hip_atomic_store(p, v, __ATOMIC_RELEASE, PLINTH_HIP_SCOPE(S));
}
#define PLINTH_FENCE_DEVICE(order) __builtin_amdgcn_fence(order, "agent")
#define PLINTH_FENCE_WORK_GROUP(order) __builtin_amdgcn_fence(order, "workgroup")
// __syncthreads() fences only local memory by its flags (HIP 5.2); this one both.
__device__ __forceinline__ void plinth_local_global_barrier() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
#define LOCAL_GLOBAL_BARRIER plinth_local_global_barrier()
)";

// The atomics_operations on top of the primitives, the same for both languages. Integers go through
// the unsigned type of their size (add, sub, and, or, xor, xchg, cmpxchg: the same bits) or
// the signed one (min, max of signed types); floats add natively (a compare-and-swap loop on
// CUDA before sm_60 for double), and min, max, xchg and cmpxchg work on their bits.
constexpr std::string_view atomics_operations = R"(#define PLINTH_AU(T) typename plinth_num<T>::u
#define PLINTH_AS(T) typename plinth_num<T>::s
template <class T, int S> __device__ __forceinline__ T plinth_atomic_cmpxchg(T *p, T e, T d) {
  return plinth_bit_cast<T>(PLINTH_ATOMIC_CAS((PLINTH_AU(T) *)p, plinth_bit_cast<PLINTH_AU(T)>(e),
                                              plinth_bit_cast<PLINTH_AU(T)>(d), S));
}
template <class T, int S> __device__ __forceinline__ T plinth_atomic_add(T *p, T v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 600
  if constexpr (sizeof(T) == 8 && plinth_num<T>::is_float) {
    T old = plinth_load_MEM_ORDER_RELAXED<T, S>(p);
    for (;;) {
      const T prev = plinth_atomic_cmpxchg<T, S>(p, old, old + v);
      if (plinth_bit_cast<PLINTH_AU(T)>(prev) == plinth_bit_cast<PLINTH_AU(T)>(old)) return old;
      old = prev;
    }
  } else
#endif
  if constexpr (plinth_num<T>::is_float) return PLINTH_ATOMIC_ADD(p, v, S);
  else return (T)PLINTH_ATOMIC_ADD((PLINTH_AU(T) *)p, (PLINTH_AU(T))v, S);
}
template <class T, int S> __device__ __forceinline__ T plinth_atomic_sub(T *p, T v) {
  if constexpr (plinth_num<T>::is_float) return plinth_atomic_add<T, S>(p, -v);
  else return (T)PLINTH_ATOMIC_ADD((PLINTH_AU(T) *)p, (PLINTH_AU(T))0 - (PLINTH_AU(T))v, S);
}
template <class T, int S> __device__ __forceinline__ T plinth_atomic_and(T *p, T v) {
  return (T)PLINTH_ATOMIC_AND((PLINTH_AU(T) *)p, (PLINTH_AU(T))v, S);
}
template <class T, int S> __device__ __forceinline__ T plinth_atomic_or(T *p, T v) {
  return (T)PLINTH_ATOMIC_OR((PLINTH_AU(T) *)p, (PLINTH_AU(T))v, S);
}
template <class T, int S> __device__ __forceinline__ T plinth_atomic_xor(T *p, T v) {
  return (T)PLINTH_ATOMIC_XOR((PLINTH_AU(T) *)p, (PLINTH_AU(T))v, S);
}
template <class T, int S> __device__ __forceinline__ T plinth_atomic_xchg(T *p, T v) {
  return plinth_bit_cast<T>(PLINTH_ATOMIC_XCHG((PLINTH_AU(T) *)p, plinth_bit_cast<PLINTH_AU(T)>(v), S));
}
// min/max of floats: store `v` only while it compares below (above) what memory holds, so a
// NaN never replaces anything and a NaN in memory stays.
template <class T, int S, bool Max> __device__ __forceinline__ T plinth_atomic_float_bound(T *p, T v) {
  T old = plinth_load_MEM_ORDER_RELAXED<T, S>(p);
  while (Max ? v > old : v < old) {
    const T prev = plinth_atomic_cmpxchg<T, S>(p, old, v);
    if (plinth_bit_cast<PLINTH_AU(T)>(prev) == plinth_bit_cast<PLINTH_AU(T)>(old)) break;
    old = prev;
  }
  return old;
}
template <class T, int S> __device__ __forceinline__ T plinth_atomic_min(T *p, T v) {
  if constexpr (plinth_num<T>::is_float) return plinth_atomic_float_bound<T, S, false>(p, v);
  else if constexpr (plinth_num<T>::is_signed) return (T)PLINTH_ATOMIC_MIN((PLINTH_AS(T) *)p, (PLINTH_AS(T))v, S);
  else return (T)PLINTH_ATOMIC_MIN((PLINTH_AU(T) *)p, (PLINTH_AU(T))v, S);
}
template <class T, int S> __device__ __forceinline__ T plinth_atomic_max(T *p, T v) {
  if constexpr (plinth_num<T>::is_float) return plinth_atomic_float_bound<T, S, true>(p, v);
  else if constexpr (plinth_num<T>::is_signed) return (T)PLINTH_ATOMIC_MAX((PLINTH_AS(T) *)p, (PLINTH_AS(T))v, S);
  else return (T)PLINTH_ATOMIC_MAX((PLINTH_AU(T) *)p, (PLINTH_AU(T))v, S);
}
#define atomic_fence(order, scope) plinth_fence_##order##_##scope()
)";

constexpr std::array<std::string_view, 4> fence_orders{"RELAXED", "ACQUIRE", "RELEASE", "ACQ_REL"};
constexpr std::array<std::string_view, 2> fence_scopes{"WORK_GROUP", "DEVICE"};

}  // namespace

std::string gpu_cxx_atomics(GpuCxx language) {
  std::string text(language == GpuCxx::cuda ? atomics_cuda_primitives : atomics_hip_primitives);
  text += atomics_operations;
  for (const auto order : fence_orders) {
    for (const auto scope : fence_scopes) {
      // The order for HIP's fence (CUDA's have one form for all three).
      const std::string body = order == "RELAXED" ? std::string()
                                                  : "PLINTH_FENCE_" + std::string(scope) +
                                                        "(__ATOMIC_" + std::string(order) + ")";
      text += expand(
          "__device__ __forceinline__ void plinth_fence_MEM_ORDER_$O_MEM_SCOPE_$S() { $B; }\n",
          {{"O", order}, {"S", scope}, {"B", body}});
    }
  }
  for (const auto& scalar : scalars) {
    for (const auto& space_and_qualifier : spaces) {
      // (Not a structured binding: clang 15 cannot capture one in the lambda below.) The
      // qualifier is unused: the pointers of CUDA and HIP are generic.
      const std::string_view space = space_and_qualifier.first;
      const std::string_view scope = space == "global" ? "1" : "0";
      const auto name = [&](std::string_view format) {
        text +=
            expand(format,
                   {{"SPACE", space}, {"SUF", scalar.suffix}, {"CT", scalar.ctype}, {"SC", scope}});
      };
      for (const auto op : scalar.is_float ? std::span<const std::string_view>(float_atomic_ops)
                                           : std::span<const std::string_view>(integer_atomic_ops))
        text += expand("#define atomic_$OP_$SPACE_$SUF(p, v) plinth_atomic_$OP<$CT, $SC>(p, v)\n",
                       {{"OP", op},
                        {"SPACE", space},
                        {"SUF", scalar.suffix},
                        {"CT", scalar.ctype},
                        {"SC", scope}});
      name(
          "#define atomic_cmpxchg_$SPACE_$SUF(p, e, d) plinth_atomic_cmpxchg<$CT, $SC>(p, e, d)\n");
      name("#define atomic_load_$SPACE_$SUF(p, order) plinth_load_##order<$CT, $SC>(p)\n");
      name("#define atomic_store_$SPACE_$SUF(p, v, order) plinth_store_##order<$CT, $SC>(p, v)\n");
    }
  }
  return text;
}

}  // namespace plinth::backend::dialect
