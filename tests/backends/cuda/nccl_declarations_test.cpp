// plinth's own declarations of NCCL (backends/cuda/nccl.hpp) against NCCL's header: the
// backend never includes nccl.h, so this file is where a difference shows, at compile time.
// The values are also checked at run time, through the mappings from the SDK's types.

#include "communicator.hpp"
#include "nccl.hpp"

#include <cuda.h>
#include <nccl.h>

#include <plinth/errors.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <type_traits>

namespace nccl = plinth::cuda::nccl;

namespace nccl_declarations_test {
namespace {

// NCCL's types as plinth declares them: NCCL's function types map onto the table's.
template <class T>
struct Mapped {
  using type = T;
};
template <>
struct Mapped<ncclResult_t> {
  using type = nccl::Result;
};
template <>
struct Mapped<ncclDataType_t> {
  using type = nccl::DataType;
};
template <>
struct Mapped<ncclRedOp_t> {
  using type = nccl::RedOp;
};
template <>
struct Mapped<ncclUniqueId> {
  using type = nccl::UniqueId;
};
template <>
struct Mapped<ncclUniqueId*> {
  using type = nccl::UniqueId*;
};
template <>
struct Mapped<ncclComm_t> {
  using type = nccl::Comm*;
};
template <>
struct Mapped<ncclComm_t*> {
  using type = nccl::Comm**;
};
template <class R, class... Args>
struct Mapped<R (*)(Args...)> {
  using type = typename Mapped<R>::type (*)(typename Mapped<Args>::type...);
};
template <class T>
using MappedT = typename Mapped<T>::type;

// The table's member for `function` has NCCL's signature, after mapping.
#define PLINTH_EXPECT_SIGNATURE(function)                                                   \
  static_assert(                                                                            \
      std::is_same_v<MappedT<decltype(&::function)>, decltype(nccl::Functions{}.function)>, \
      #function "'s declaration differs from nccl.h's")

PLINTH_EXPECT_SIGNATURE(ncclGetVersion);
PLINTH_EXPECT_SIGNATURE(ncclGetErrorString);
PLINTH_EXPECT_SIGNATURE(ncclGetLastError);
PLINTH_EXPECT_SIGNATURE(ncclGetUniqueId);
PLINTH_EXPECT_SIGNATURE(ncclCommInitAll);
PLINTH_EXPECT_SIGNATURE(ncclCommInitRank);
PLINTH_EXPECT_SIGNATURE(ncclCommFinalize);
PLINTH_EXPECT_SIGNATURE(ncclCommDestroy);
PLINTH_EXPECT_SIGNATURE(ncclGroupStart);
PLINTH_EXPECT_SIGNATURE(ncclGroupEnd);
PLINTH_EXPECT_SIGNATURE(ncclAllReduce);
PLINTH_EXPECT_SIGNATURE(ncclReduce);
PLINTH_EXPECT_SIGNATURE(ncclBroadcast);
PLINTH_EXPECT_SIGNATURE(ncclAllGather);
PLINTH_EXPECT_SIGNATURE(ncclReduceScatter);
#undef PLINTH_EXPECT_SIGNATURE

// cudaStream_t, in nccl.h's signatures, is the driver's CUstream.
static_assert(std::is_same_v<cudaStream_t, CUstream>);

// The layout of what is passed by value or through a pointer.
static_assert(sizeof(nccl::UniqueId) == sizeof(ncclUniqueId));
static_assert(sizeof(nccl::UniqueId) == NCCL_UNIQUE_ID_BYTES);
static_assert(alignof(nccl::UniqueId) == alignof(ncclUniqueId));
static_assert(
    std::is_same_v<std::underlying_type_t<nccl::Result>, std::underlying_type_t<ncclResult_t>>);
static_assert(
    std::is_same_v<std::underlying_type_t<nccl::DataType>, std::underlying_type_t<ncclDataType_t>>);
static_assert(
    std::is_same_v<std::underlying_type_t<nccl::RedOp>, std::underlying_type_t<ncclRedOp_t>>);

// The values.
#define PLINTH_EXPECT_VALUE(ours, theirs)                                       \
  static_assert(static_cast<long long>(ours) == static_cast<long long>(theirs), \
                #ours " is not " #theirs)
PLINTH_EXPECT_VALUE(nccl::Result::success, ncclSuccess);
PLINTH_EXPECT_VALUE(nccl::Result::unhandled_cuda_error, ncclUnhandledCudaError);
PLINTH_EXPECT_VALUE(nccl::Result::system_error, ncclSystemError);
PLINTH_EXPECT_VALUE(nccl::Result::internal_error, ncclInternalError);
PLINTH_EXPECT_VALUE(nccl::Result::invalid_argument, ncclInvalidArgument);
PLINTH_EXPECT_VALUE(nccl::Result::invalid_usage, ncclInvalidUsage);
PLINTH_EXPECT_VALUE(nccl::Result::remote_error, ncclRemoteError);
PLINTH_EXPECT_VALUE(nccl::Result::in_progress, ncclInProgress);
PLINTH_EXPECT_VALUE(nccl::DataType::int8, ncclInt8);
PLINTH_EXPECT_VALUE(nccl::DataType::uint8, ncclUint8);
PLINTH_EXPECT_VALUE(nccl::DataType::int32, ncclInt32);
PLINTH_EXPECT_VALUE(nccl::DataType::uint32, ncclUint32);
PLINTH_EXPECT_VALUE(nccl::DataType::int64, ncclInt64);
PLINTH_EXPECT_VALUE(nccl::DataType::uint64, ncclUint64);
PLINTH_EXPECT_VALUE(nccl::DataType::float16, ncclFloat16);
PLINTH_EXPECT_VALUE(nccl::DataType::float32, ncclFloat32);
PLINTH_EXPECT_VALUE(nccl::DataType::float64, ncclFloat64);
PLINTH_EXPECT_VALUE(nccl::RedOp::sum, ncclSum);
PLINTH_EXPECT_VALUE(nccl::RedOp::prod, ncclProd);
PLINTH_EXPECT_VALUE(nccl::RedOp::max, ncclMax);
PLINTH_EXPECT_VALUE(nccl::RedOp::min, ncclMin);
PLINTH_EXPECT_VALUE(nccl::RedOp::avg, ncclAvg);
PLINTH_EXPECT_VALUE(nccl::minimum_version, NCCL_VERSION(2, 10, 0));
#undef PLINTH_EXPECT_VALUE

using plinth::backend::CollectiveOp;
using plinth::backend::CollectiveType;

int value(auto e) { return static_cast<int>(e); }

// The SDK's types map to NCCL's by meaning, not by position (NCCL has max before min).
TEST(NcclDeclarations, CollectiveTypesMapToNcclsTypes) {
  using plinth::cuda::nccl_type;
  EXPECT_EQ(value(nccl_type(CollectiveType::int8)), value(ncclInt8));
  EXPECT_EQ(value(nccl_type(CollectiveType::uint8)), value(ncclUint8));
  EXPECT_EQ(value(nccl_type(CollectiveType::int32)), value(ncclInt32));
  EXPECT_EQ(value(nccl_type(CollectiveType::uint32)), value(ncclUint32));
  EXPECT_EQ(value(nccl_type(CollectiveType::int64)), value(ncclInt64));
  EXPECT_EQ(value(nccl_type(CollectiveType::uint64)), value(ncclUint64));
  EXPECT_EQ(value(nccl_type(CollectiveType::float16)), value(ncclFloat16));
  EXPECT_EQ(value(nccl_type(CollectiveType::float32)), value(ncclFloat32));
  EXPECT_EQ(value(nccl_type(CollectiveType::float64)), value(ncclFloat64));
}

TEST(NcclDeclarations, CollectiveOpsMapToNcclsOps) {
  using plinth::cuda::nccl_op;
  EXPECT_EQ(value(nccl_op(CollectiveOp::sum)), value(ncclSum));
  EXPECT_EQ(value(nccl_op(CollectiveOp::prod)), value(ncclProd));
  EXPECT_EQ(value(nccl_op(CollectiveOp::min)), value(ncclMin));
  EXPECT_EQ(value(nccl_op(CollectiveOp::max)), value(ncclMax));
  EXPECT_EQ(value(nccl_op(CollectiveOp::avg)), value(ncclAvg));
}

TEST(NcclDeclarations, UnknownSdkValuesAreLogicErrors) {
  EXPECT_THROW(plinth::cuda::nccl_type(static_cast<CollectiveType>(99)), plinth::LogicError);
  EXPECT_THROW(plinth::cuda::nccl_op(static_cast<CollectiveOp>(99)), plinth::LogicError);
}

}  // namespace
}  // namespace nccl_declarations_test
