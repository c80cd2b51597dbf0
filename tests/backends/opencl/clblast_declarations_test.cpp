// plinth's own declarations of CLBlast (backends/opencl/clblast.hpp) against CLBlast's header
// (libclblast-dev): the backend never includes clblast_c.h, so this file is where a difference
// shows, at compile time; also the names of CLBlast's status codes.

#include "clblast.hpp"

#include <clblast_c.h>

#include <gtest/gtest.h>

#include <type_traits>

namespace clblast = plinth::opencl::clblast;

namespace clblast_declarations_test {
namespace {

// CLBlast's types as plinth declares them.
template <class T>
struct Mapped {
  using type = T;
};
template <>
struct Mapped<CLBlastStatusCode> {
  using type = clblast::Status;
};
template <>
struct Mapped<CLBlastLayout> {
  using type = clblast::Layout;
};
template <>
struct Mapped<CLBlastTranspose> {
  using type = clblast::Transpose;
};
template <class R, class... Args>
struct Mapped<R (*)(Args...)> {
  using type = typename Mapped<R>::type (*)(typename Mapped<std::remove_const_t<Args>>::type...);
};

#define PLINTH_CHECK_DECLARED(member, function)                                                 \
  static_assert(                                                                                \
      std::is_same_v<decltype(clblast::Functions{}.member), Mapped<decltype(&function)>::type>, \
      #function " differs from clblast_c.h")
#define PLINTH_CHECK_TYPED(letter, prefix)                                                 \
  PLINTH_CHECK_DECLARED(letter.gemm, CLBlast##prefix##gemm);                               \
  PLINTH_CHECK_DECLARED(letter.gemm_strided_batched, CLBlast##prefix##gemmStridedBatched); \
  PLINTH_CHECK_DECLARED(letter.gemv, CLBlast##prefix##gemv)
PLINTH_CHECK_TYPED(s, S);
PLINTH_CHECK_TYPED(d, D);
PLINTH_CHECK_TYPED(c, C);
PLINTH_CHECK_TYPED(z, Z);
#undef PLINTH_CHECK_TYPED
#undef PLINTH_CHECK_DECLARED

static_assert(static_cast<int>(clblast::Layout::row_major) == CLBlastLayoutRowMajor);
static_assert(static_cast<int>(clblast::Layout::column_major) == CLBlastLayoutColMajor);
static_assert(static_cast<int>(clblast::Transpose::no) == CLBlastTransposeNo);
static_assert(static_cast<int>(clblast::Transpose::yes) == CLBlastTransposeYes);
static_assert(static_cast<int>(clblast::Transpose::conjugate) == CLBlastTransposeConjugate);

TEST(ClblastDeclarations, StatusNamesAreTheHeadersOrOpenCLs) {
  EXPECT_STREQ(clblast::status_name(CLBlastInvalidLeadDimA), "CLBlastInvalidLeadDimA");
  EXPECT_STREQ(clblast::status_name(CLBlastInsufficientMemoryTemp),
               "CLBlastInsufficientMemoryTemp");
  EXPECT_STREQ(clblast::status_name(CLBlastUnexpectedError), "CLBlastUnexpectedError");
  EXPECT_STREQ(clblast::status_name(CLBlastInvalidValue), "CL_INVALID_VALUE");
}

}  // namespace
}  // namespace clblast_declarations_test
