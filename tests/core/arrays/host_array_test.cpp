// HostArray on the host alone (include/plinth/host_array.hpp).

#include <plinth/errors.hpp>
#include <plinth/host_array.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace plinth {
namespace host_array_test {
namespace {

// Before: std::bad_alloc, a standard-library exception, left the public API.
TEST(HostArrayMemory, AnAllocationThatFailsIsAnOutOfMemoryError) {
#if defined(__SANITIZE_ADDRESS__)
  // ASan's operator new aborts on failure instead of throwing, whatever its options say.
  GTEST_SKIP() << "AddressSanitizer aborts instead of throwing std::bad_alloc";
#endif
  try {
    // 4 EiB: more than any address space, so it fails even where memory is overcommitted
    // (64 TiB was allocated on a GPU machine, then zero-filled until the OOM killer came).
    const auto huge = HostArray::empty({std::size_t{1} << 62}, DType::int8());
    FAIL() << "allocated " << huge.nbytes() << " bytes";
  } catch (const OutOfMemoryError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot allocate 4611686018427387904 bytes"),
              std::string::npos)
        << e.what();
  }
  // Still usable afterwards.
  EXPECT_EQ(HostArray::empty({4}, DType::int32()).values<int>().size(), 4u);
}

TEST(HostArrayAligned, TheFirstElementLiesAtAMultipleOfTheAlignment) {
  for (const std::size_t alignment :
       {std::size_t{8}, std::size_t{64}, std::size_t{4096}, std::size_t{1} << 16}) {
    const auto array = HostArray::aligned({3, 5}, DType::float64(), alignment);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(array.data()) % alignment, 0u) << alignment;
    EXPECT_EQ(array.shape(), (std::vector<std::size_t>{3, 5}));
    EXPECT_TRUE(array.is_contiguous());
    EXPECT_FALSE(array.is_page_locked());
    // Zero-filled and writable through every element (ASan checks the bounds and the free).
    for (const double v : array.values<double>()) EXPECT_EQ(v, 0.0);
    for (auto& v : array.values<double>()) v = 2.5;
    EXPECT_EQ(array.copy().to_vector<double>(), std::vector<double>(15, 2.5));
  }
  // A view keeps the block alive after its parent handle is gone.
  const auto row = HostArray::aligned({4, 4}, DType::int32(), 256).view({2});
  EXPECT_EQ(row.to_vector<std::int32_t>(), std::vector<std::int32_t>(4, 0));
  EXPECT_EQ(HostArray::aligned({0}, DType::int8(), 32).size(), 0u);
}

TEST(HostArrayAligned, BadAlignmentsAreRefused) {
  const auto message = [](std::size_t alignment, const DType& dtype) -> std::string {
    try {
      static_cast<void>(HostArray::aligned({4}, dtype, alignment));
    } catch (const LogicError& e) {
      return e.what();
    }
    return "(no LogicError)";
  };
  EXPECT_NE(message(0, DType::int8()).find("the alignment 0 is not a power of two"),
            std::string::npos);
  EXPECT_NE(message(24, DType::int8()).find("the alignment 24 is not a power of two"),
            std::string::npos);
  EXPECT_NE(message(4, DType::float64())
                .find("the alignment 4 is below float64's own "
                      "alignment, 8"),
            std::string::npos);
}

}  // namespace
}  // namespace host_array_test
}  // namespace plinth
