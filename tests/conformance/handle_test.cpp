// Public handles: copies share the object, and a moved-from handle is still usable (moving
// copies), so no call on one can dereference null.

#include "fixture.hpp"

#include <utility>

namespace plinth::conformance {
namespace handle_test {
namespace {

using HandleTest = DeviceTest;

/// Moves `handle` into a new object and by assignment, and returns the moved-from original.
template <class Handle>
Handle& move_twice(Handle& handle) {
  Handle moved(std::move(handle));
  Handle assigned = moved;
  assigned = std::move(handle);  // NOLINT(bugprone-use-after-move): the point of the test
  return handle;                 // NOLINT(bugprone-use-after-move)
}

// Before: a moved-from Buffer (and Queue, Program...) held a null pointer and any call on it
// was a SIGSEGV.
TEST_P(HandleTest, MovedFromHandlesStayUsable) {
  auto api = context().api();
  EXPECT_EQ(move_twice(api).shortcut(), context().api().shortcut());

  auto ctx = context();
  EXPECT_EQ(move_twice(ctx).devices().size(), context().devices().size());

  auto queue_copy = queue();
  move_twice(queue_copy).synchronize();
  EXPECT_TRUE(queue_copy == queue());

  auto event = queue().record_event();
  move_twice(event).wait();

  const auto data = pattern(256);
  auto buffer = Buffer::allocate(device(), data.size());
  buffer.set(queue(), data);
  move_twice(buffer);
  std::vector<std::byte> back(data.size());
  buffer.get(queue(), back);
  EXPECT_EQ(back, data);
  EXPECT_EQ(buffer.size(), data.size());

  const std::vector<float> values{1, 2, 3, 4};
  auto host = HostArray::from_values(values);
  move_twice(host);
  EXPECT_EQ(host.shape(), std::vector<std::size_t>{4});
  auto array = Array::from_host(queue(), host);
  move_twice(array);
  EXPECT_EQ(array.shape(), std::vector<std::size_t>{4});
  auto array_back = HostArray::empty({4}, DType::float32());
  array.get(queue(), array_back);
  EXPECT_EQ(array_back.values<float>()[3], 4.0f);

  Program program(context(), "KERNEL void nothing(GLOBAL_MEM int *out) { out[0] = 7; }");
  move_twice(program);
  auto kernel = program.kernel("nothing");
  move_twice(kernel);
  auto prepared = kernel.prepare({1}, {1});
  move_twice(prepared);
  auto out = Buffer::allocate(device(), sizeof(int));
  prepared(queue(), out);
  int seven = 0;
  out.get(queue(), std::as_writable_bytes(std::span(&seven, 1)));
  EXPECT_EQ(seven, 7);
}

PLINTH_INSTANTIATE_DEVICE_TEST(HandleTest);

}  // namespace
}  // namespace handle_test
}  // namespace plinth::conformance
