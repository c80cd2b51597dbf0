// plinth's own declarations of cuBLAS (backends/cuda/cublas.hpp) against cuBLAS's header: the
// backend never includes cublas_api.h, so this file is where a difference shows, at compile
// time. Also: the library table is filled where libcublas is found, and its description
// names the library or why neither soname opened.

#include "cublas.hpp"

#include <cublas_api.h>

#include <gtest/gtest.h>

#include <type_traits>

namespace cublas = plinth::cuda::cublas;

namespace cublas_declarations_test {
namespace {

// cuBLAS's types as plinth declares them: cuBLAS's function types map onto the table's.
template <class T>
struct Mapped {
  using type = T;
};
template <>
struct Mapped<cublasStatus_t> {
  using type = cublas::Status;
};
template <>
struct Mapped<cublasHandle_t> {
  using type = cublas::Context*;
};
template <>
struct Mapped<cublasHandle_t*> {
  using type = cublas::Context**;
};
template <>
struct Mapped<cublasOperation_t> {
  using type = cublas::Operation;
};
template <>
struct Mapped<cublasMath_t> {
  using type = cublas::Math;
};
template <>
struct Mapped<libraryPropertyType> {
  using type = cublas::Property;
};
template <>
struct Mapped<const cuComplex*> {
  using type = const cublas::Complex64*;
};
template <>
struct Mapped<cuComplex*> {
  using type = cublas::Complex64*;
};
template <>
struct Mapped<const cuDoubleComplex*> {
  using type = const cublas::Complex128*;
};
template <>
struct Mapped<cuDoubleComplex*> {
  using type = cublas::Complex128*;
};
template <class R, class... Args>
struct Mapped<R (*)(Args...)> {
  using type = typename Mapped<R>::type (*)(typename Mapped<Args>::type...);
};

template <class Declared, class Header>
constexpr bool same_function = std::is_same_v<Declared, typename Mapped<Header>::type>;

#define PLINTH_CHECK_DECLARED(member, function)                                           \
  static_assert(same_function<decltype(cublas::Functions{}.member), decltype(&function)>, \
                #function " differs from cublas_api.h")
PLINTH_CHECK_DECLARED(cublasGetProperty, cublasGetProperty);
PLINTH_CHECK_DECLARED(cublasGetStatusName, cublasGetStatusName);
PLINTH_CHECK_DECLARED(cublasGetStatusString, cublasGetStatusString);
PLINTH_CHECK_DECLARED(cublasCreate_v2, cublasCreate_v2);
PLINTH_CHECK_DECLARED(cublasDestroy_v2, cublasDestroy_v2);
PLINTH_CHECK_DECLARED(cublasSetStream_v2, cublasSetStream_v2);
PLINTH_CHECK_DECLARED(cublasSetWorkspace_v2, cublasSetWorkspace_v2);
PLINTH_CHECK_DECLARED(cublasSetMathMode, cublasSetMathMode);
#define PLINTH_CHECK_TYPED(letter, prefix)                                                \
  PLINTH_CHECK_DECLARED(letter.gemm, cublas##prefix##gemm_v2);                            \
  PLINTH_CHECK_DECLARED(letter.gemm_strided_batched, cublas##prefix##gemmStridedBatched); \
  PLINTH_CHECK_DECLARED(letter.gemv, cublas##prefix##gemv_v2)
PLINTH_CHECK_TYPED(s, S);
PLINTH_CHECK_TYPED(d, D);
PLINTH_CHECK_TYPED(c, C);
PLINTH_CHECK_TYPED(z, Z);
#undef PLINTH_CHECK_TYPED
#undef PLINTH_CHECK_DECLARED

static_assert(sizeof(cublas::Complex64) == sizeof(cuComplex) &&
              alignof(cublas::Complex64) == alignof(cuComplex));
static_assert(sizeof(cublas::Complex128) == sizeof(cuDoubleComplex) &&
              alignof(cublas::Complex128) == alignof(cuDoubleComplex));
static_assert(static_cast<int>(cublas::Status::success) == CUBLAS_STATUS_SUCCESS);
static_assert(static_cast<int>(cublas::Status::alloc_failed) == CUBLAS_STATUS_ALLOC_FAILED);
static_assert(static_cast<int>(cublas::Status::invalid_value) == CUBLAS_STATUS_INVALID_VALUE);
static_assert(static_cast<int>(cublas::Status::not_supported) == CUBLAS_STATUS_NOT_SUPPORTED);
static_assert(static_cast<int>(cublas::Operation::none) == CUBLAS_OP_N);
static_assert(static_cast<int>(cublas::Operation::transpose) == CUBLAS_OP_T);
static_assert(static_cast<int>(cublas::Operation::conjugate_transpose) == CUBLAS_OP_C);
static_assert(static_cast<int>(cublas::Math::default_math) == CUBLAS_DEFAULT_MATH);
static_assert(static_cast<int>(cublas::Math::tf32_tensor_op) == CUBLAS_TF32_TENSOR_OP_MATH);
static_assert(static_cast<int>(cublas::Property::major_version) == MAJOR_VERSION);
static_assert(static_cast<int>(cublas::Property::patch_level) == PATCH_LEVEL);

TEST(CublasLibrary, AMissingFileIsExplainedInTheLoadersWords) {
  const auto library = cublas::open_library("libplinth-no-such-cublas.so.13");
  EXPECT_FALSE(library.available);
  EXPECT_NE(library.description.find("libplinth-no-such-cublas.so.13"), std::string::npos)
      << library.description;
}

TEST(CublasLibrary, ALibraryWithoutTheFunctionsIsNotCublas) {
  // libc is a shared library that has none of cuBLAS's functions.
  const auto library = cublas::open_library("libc.so.6");
  EXPECT_FALSE(library.available);
  EXPECT_NE(library.description.find("has no cublasGetProperty"), std::string::npos)
      << library.description;
  EXPECT_NE(library.description.find("it is not cuBLAS 11+"), std::string::npos);
}

TEST(CublasLibrary, TheToolkitsLibraryIsFoundAndNamed) {
  // The toolkit's libcublas is on the test's library path (tests/backends/cuda/CMakeLists.txt).
  const auto& library = cublas::library();
  ASSERT_TRUE(library.available) << library.description;
  EXPECT_EQ(library.description.rfind("cuBLAS ", 0), 0u) << library.description;
  EXPECT_GE(library.major, 12);
  EXPECT_NE(library.functions.s.gemm, nullptr);
  EXPECT_NE(library.functions.z.gemv, nullptr);
}

}  // namespace
}  // namespace cublas_declarations_test
