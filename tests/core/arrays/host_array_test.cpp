// HostArray on the host alone (include/plinth/host_array.hpp).

#include <plinth/errors.hpp>
#include <plinth/host_array.hpp>

#include <gtest/gtest.h>

#include <cstddef>

namespace plinth {
namespace {

// Before: std::bad_alloc, a standard-library exception, left the public API. (Under ASan this
// needs allocator_may_return_null=1, which .ci/run sets: plinth handles the failure itself.)
TEST(HostArrayMemory, AnAllocationThatFailsIsAnOutOfMemoryError) {
  try {
    const auto huge = HostArray::empty({std::size_t{1} << 46}, DType::int8());  // 64 TiB
    FAIL() << "allocated " << huge.nbytes() << " bytes";
  } catch (const OutOfMemoryError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot allocate 70368744177664 bytes"), std::string::npos)
        << e.what();
  }
  // Still usable afterwards.
  EXPECT_EQ(HostArray::empty({4}, DType::int32()).values<int>().size(), 4u);
}

}  // namespace
}  // namespace plinth
