// HostArray on the host alone (include/plinth/host_array.hpp).

#include <plinth/errors.hpp>
#include <plinth/host_array.hpp>

#include <gtest/gtest.h>

#include <cstddef>

namespace plinth {
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

}  // namespace
}  // namespace plinth
