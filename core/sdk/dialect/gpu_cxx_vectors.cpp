// vload2, vload4, vstore2 and vstore4 in CUDA and HIP C++ (docs/kernel-dialect.md, "Vector
// loads and stores"): templates on the element type, one vector access where the address is
// aligned to the vector type (checked at run time), element by element otherwise.

#include "dialect_tables.hpp"
#include "gpu_cxx_parts.hpp"

namespace plinth::backend::dialect {

namespace {

// CUDA 13 deprecates long4, ulong4 and double4 (warning 1444) for the spellings that say
// their alignment; the 16-byte ones are the same types as before. The dialect's names stay
// usable without the warning.
constexpr std::string_view cuda_vector_names = R"(#if __CUDACC_VER_MAJOR__ >= 13
#define long4 long4_16a
#define ulong4 ulong4_16a
#define double4 double4_16a
#define make_long4 make_long4_16a
#define make_ulong4 make_ulong4_16a
#define make_double4 make_double4_16a
#endif
)";

constexpr std::string_view functions =
    R"(template <class T> __device__ __forceinline__ typename plinth_vec<T>::v2 vload2(SIZE_T offset, const T *p) {
  typedef typename plinth_vec<T>::v2 V;
  const T *q = p + 2 * offset;
  if ((SIZE_T)q % alignof(V) == 0) return *(const V *)q;
  V v; v.x = q[0]; v.y = q[1]; return v;
}
template <class T> __device__ __forceinline__ typename plinth_vec<T>::v4 vload4(SIZE_T offset, const T *p) {
  typedef typename plinth_vec<T>::v4 V;
  const T *q = p + 4 * offset;
  if ((SIZE_T)q % alignof(V) == 0) return *(const V *)q;
  V v; v.x = q[0]; v.y = q[1]; v.z = q[2]; v.w = q[3]; return v;
}
template <class T> __device__ __forceinline__ void vstore2(typename plinth_vec<T>::v2 v, SIZE_T offset, T *p) {
  typedef typename plinth_vec<T>::v2 V;
  T *q = p + 2 * offset;
  if ((SIZE_T)q % alignof(V) == 0) { *(V *)q = v; return; }
  q[0] = v.x; q[1] = v.y;
}
template <class T> __device__ __forceinline__ void vstore4(typename plinth_vec<T>::v4 v, SIZE_T offset, T *p) {
  typedef typename plinth_vec<T>::v4 V;
  T *q = p + 4 * offset;
  if ((SIZE_T)q % alignof(V) == 0) { *(V *)q = v; return; }
  q[0] = v.x; q[1] = v.y; q[2] = v.z; q[3] = v.w;
}
)";

}  // namespace

std::string gpu_cxx_vectors(GpuCxx language) {
  std::string text(language == GpuCxx::cuda ? cuda_vector_names : "");
  text += "template <class T> struct plinth_vec;\n";
  for (const auto& [ctype, prefix] : vector_elements)
    text += expand("template <> struct plinth_vec<$T> { typedef $V2 v2; typedef $V4 v4; };\n",
                   {{"T", ctype}, {"V", prefix}});
  text += functions;
  return text;
}

}  // namespace plinth::backend::dialect
