// The CUDA backend's BLAS adapter (backends/cuda/blas.hpp) against a fake driver and a fake
// libcublas.so.13 (fake_cublas.cpp, first on the test's library path): a handle per queue on
// its stream with a workspace of its own, each product marshalled into one cuBLAS call of its
// element type (operations, sizes, leading dimensions, addresses, alpha and beta, batch
// strides), TF32 only for a call that allows it, cuBLAS's errors and sizes beyond its int.

#include "blas.hpp"
#include "buffer.hpp"
#include "context.hpp"
#include "fake_driver.hpp"
#include "queue.hpp"

#include <plinth/errors.hpp>

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

namespace cuda_blas_test {
namespace {

using plinth::cuda::Buffer;
using plinth::cuda::ContextState;
using plinth::cuda::Queue;
using plinth::cuda::test::FakeDriver;
namespace backend = plinth::backend;

/// The fake library's record of calls, through the functions it exports.
std::string fake_log(bool reset = false) {
  void* handle = ::dlopen("libcublas.so.13", RTLD_NOW | RTLD_NOLOAD);
  if (handle == nullptr) return "(libcublas.so.13 is not loaded)";
  const auto log = reinterpret_cast<const char* (*)()>(::dlsym(handle, "fake_cublas_log"));
  const auto clear = reinterpret_cast<void (*)()>(::dlsym(handle, "fake_cublas_reset"));
  std::string text = log != nullptr ? log() : "(not the fake)";
  if (reset && clear != nullptr) clear();
  ::dlclose(handle);
  return text;
}

class CudaBlas : public ::testing::Test {
 protected:
  CudaBlas() {
    state_->add(0, FakeDriver::context(0));
    queue_ = std::make_unique<Queue>(state_, 0, reinterpret_cast<CUstream>(0x5000), false);
    const auto& library = plinth::cuda::cublas::library();
    if (!library.available) return;
    blas_ = queue_->create_blas();
    fake_log(true);
  }

  FakeDriver driver_;
  std::shared_ptr<ContextState> state_ =
      std::make_shared<ContextState>(ContextState::Ownership::primary);
  Buffer buffer_{state_, 0, 0x10000, 1 << 20, false};
  std::unique_ptr<Queue> queue_;  // made once the state has its device
  std::unique_ptr<backend::BlasAdapter> blas_;
};

TEST_F(CudaBlas, TheFakeLibraryIsTheOneOpened) {
  const auto& library = plinth::cuda::cublas::library();
  ASSERT_TRUE(library.available) << library.description;
  EXPECT_EQ(library.description, "cuBLAS 13.0.7 (libcublas.so.13)");
}

TEST_F(CudaBlas, AHandlePerQueueOnItsStreamWithItsWorkspace) {
  ASSERT_TRUE(blas_);
  FakeDriver::calls().clear();
  auto second = queue_->create_blas();
  EXPECT_EQ(fake_log(true),
            "cublasCreate_v2\ncublasSetStream_v2 0x5000\n"
            "cublasSetWorkspace_v2 0x80000 bytes=33554432\ncublasSetMathMode default\n");
  const auto& calls = FakeDriver::calls();
  EXPECT_NE(std::find(calls.begin(), calls.end(), "cuMemAlloc size=33554432 current=dev0"),
            calls.end());
  FakeDriver::calls().clear();
  second.reset();
  EXPECT_EQ(fake_log(true), "cublasDestroy_v2 0xb1a5\n");
  EXPECT_NE(std::find(FakeDriver::calls().begin(), FakeDriver::calls().end(), "cuMemFree 0x80000"),
            FakeDriver::calls().end());
  EXPECT_EQ(FakeDriver::current(), nullptr);  // the thread's context is restored
  EXPECT_EQ(plinth::cuda::Blas::workspace_for(8),
            std::size_t{4} << 20);  // the fake device is a 9.0
}

TEST_F(CudaBlas, EachProductIsOneCallOfItsElementType) {
  ASSERT_TRUE(blas_);
  backend::BlasGemm call;
  call.type = backend::BlasType::complex64;
  call.op_a = backend::BlasOp::conjugate_transpose;
  call.m = 3;
  call.n = 4;
  call.k = 5;
  call.alpha = {2.0, -1.0};
  call.a = {&buffer_, 16, 7, 0};
  call.b = {&buffer_, 256, 5, 0};
  call.c = {&buffer_, 512, 3, 0};
  blas_->gemm(call);
  call.type = backend::BlasType::float64;
  call.op_a = backend::BlasOp::transpose;
  call.op_b = backend::BlasOp::conjugate_transpose;
  call.alpha = 0.5;
  call.beta = 1.0;
  call.batch = 6;
  call.a.batch_stride = 0;
  call.b.batch_stride = 20;
  call.c.batch_stride = 12;
  blas_->gemm(call);
  EXPECT_EQ(fake_log(true),
            "cublasCgemm_v2 CN m=3 n=4 k=5 alpha=(2.000000,-1.000000) A=0x10010 lda=7 B=0x10100 "
            "ldb=5 beta=(0.000000,0.000000) C=0x10200 ldc=3\n"
            "cublasDgemmStridedBatched TC m=3 n=4 k=5 alpha=0.500000 A=0x10010 lda=7 B=0x10100 "
            "ldb=5 beta=1.000000 C=0x10200 ldc=3 strides=0,20,12 batch=6\n");

  backend::BlasGemv gemv;
  gemv.type = backend::BlasType::complex128;
  gemv.op_a = backend::BlasOp::transpose;
  gemv.m = 9;
  gemv.n = 2;
  gemv.alpha = {0.0, 1.0};
  gemv.a = {&buffer_, 32, 9, 0};
  gemv.x = {&buffer_, 1024, 3};
  gemv.y = {&buffer_, 2048, 1};
  blas_->gemv(gemv);
  EXPECT_EQ(fake_log(true),
            "cublasZgemv_v2 T m=9 n=2 alpha=(0.000000,1.000000) A=0x10020 lda=9 x=0x10400 "
            "incx=3 beta=(0.000000,0.000000) y=0x10800 incy=1\n");
}

TEST_F(CudaBlas, TensorFloat32OnlyForTheCallThatAllowsIt) {
  ASSERT_TRUE(blas_);
  backend::BlasGemm call;
  call.a = {&buffer_, 0, 1, 0};
  call.b = {&buffer_, 0, 1, 0};
  call.c = {&buffer_, 64, 1, 0};
  call.tensor_float32 = true;
  blas_->gemm(call);
  blas_->gemm(call);
  call.tensor_float32 = false;
  blas_->gemm(call);
  call.type = backend::BlasType::float64;  // TF32 is for float32 alone
  call.tensor_float32 = true;
  blas_->gemm(call);
  const auto log = fake_log(true);
  const auto lines = [&](const std::string& what) {
    std::size_t count = 0;
    for (auto at = log.find(what); at != std::string::npos; at = log.find(what, at + 1)) ++count;
    return count;
  };
  EXPECT_EQ(lines("cublasSetMathMode tf32_tensor_op"), 1u) << log;
  EXPECT_EQ(lines("cublasSetMathMode default"), 1u) << log;
  EXPECT_EQ(log.find("cublasSetMathMode tf32_tensor_op\ncublasSgemm_v2"), 0u) << log;
}

TEST_F(CudaBlas, ErrorsNameCublasAndSizesBeyondItsIntAreRefused) {
  ASSERT_TRUE(blas_);
  backend::BlasGemm call;
  call.m = 13;  // the fake refuses it
  call.a = {&buffer_, 0, 13, 0};
  call.b = {&buffer_, 0, 1, 0};
  call.c = {&buffer_, 64, 13, 0};
  try {
    blas_->gemm(call);
    ADD_FAILURE() << "no error";
  } catch (const plinth::BackendError& e) {
    const std::string text = e.what();
    EXPECT_NE(text.find("cuBLAS"), std::string::npos) << text;
    EXPECT_NE(text.find("CUBLAS_STATUS_INVALID_VALUE"), std::string::npos) << text;
  }
  call.m = std::size_t{1} << 31;
  try {
    blas_->gemm(call);
    ADD_FAILURE() << "no error";
  } catch (const plinth::LogicError& e) {
    EXPECT_NE(std::string(e.what()).find("up to 2^31 - 1"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cuda_blas_test
