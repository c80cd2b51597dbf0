// Arrays: round trips of every scalar dtype, layouts (strides, first element offsets),
// views by every kind of slice written by a kernel and read back, non-contiguous
// transfers, device-to-device copies, allocators, empty arrays, and misuse.

#include "fixture.hpp"

#include <complex>
#include <cstring>
#include <numeric>
#include <optional>
#include <span>

namespace plinth::conformance {
namespace array_test {
namespace {

using ArrayTest = DeviceTest;

const char* const view_source = R"(
KERNEL void fill_view(GLOBAL_MEM int *view, int rows, int cols, int row_stride, int col_stride)
{
    const int j = get_global_id(0), i = get_global_id(1);
    if (i < rows && j < cols) view[i * row_stride + j * col_stride] = 1 + i * 100 + j;
}

KERNEL void fill(GLOBAL_MEM int *out, int n, int value)
{
    const int i = get_global_id(0);
    if (i < n) out[i] = value;
}
)";

bool same_bytes(const HostArray& a, const HostArray& b) {
  const auto ca = a.copy();
  const auto cb = b.copy();
  return ca.shape() == cb.shape() && ca.dtype() == cb.dtype() &&
         std::memcmp(ca.data(), cb.data(), ca.nbytes()) == 0;
}

std::vector<DType> scalar_dtypes() {
  return {DType::boolean(),   DType::int8(),      DType::uint8(),   DType::int16(),
          DType::uint16(),    DType::int32(),     DType::uint32(),  DType::int64(),
          DType::uint64(),    DType::float16(),   DType::float32(), DType::float64(),
          DType::complex64(), DType::complex128()};
}

bool is_opencl(const BoundDevice& device) { return device.context().api().shortcut() == "opencl"; }

TEST_P(ArrayTest, RoundTripsEveryScalarDtype) {
  for (const auto& dtype : scalar_dtypes()) {
    SCOPED_TRACE(dtype.name());
    const std::vector<std::size_t> shape{7, 5};
    const auto host = HostArray::from_bytes(pattern(35 * dtype.itemsize(), 5), shape, dtype);

    const auto array = Array::from_host(queue(), host);
    EXPECT_EQ(array.shape(), shape);
    EXPECT_EQ(array.dtype(), dtype);
    EXPECT_EQ(array.strides(),
              (std::vector<std::ptrdiff_t>{static_cast<std::ptrdiff_t>(5 * dtype.itemsize()),
                                           static_cast<std::ptrdiff_t>(dtype.itemsize())}));
    EXPECT_TRUE(same_bytes(array.get(queue()), host));

    // Asynchronous both ways.
    const auto second = Array::empty(device(), shape, dtype);
    second.set(queue(), host);
    const auto back = HostArray::empty(shape, dtype);
    second.get(queue(), back, true);
    queue().synchronize();
    EXPECT_TRUE(same_bytes(back, host));

    // Device to device, contiguous and through a non-contiguous view.
    const auto copy = Array::empty(device(), shape, dtype);
    copy.set(queue(), array, true);
    EXPECT_TRUE(same_bytes(copy.get(queue()), host));
    const std::vector<Index> odd{Slice(1, std::nullopt, 2), Slice(std::nullopt, std::nullopt, -1)};
    EXPECT_TRUE(same_bytes(array.view(odd).get(queue()), host.view(odd)));
  }
}

// Before: set() is asynchronous by default and the temporary HostArray was freed before the
// copy read it: the next get() returned zeros (ASan: heap-use-after-free). The queue now keeps
// the source alive until it is known to be idle.
TEST_P(ArrayTest, AsyncSetFromATemporaryHostArrayIsCorrect) {
  constexpr std::size_t count = 1 << 22;  // 16 MiB: long enough for the copy to lag behind
  std::vector<float> values(count);
  for (std::size_t i = 0; i < count; ++i) values[i] = static_cast<float>(i % 1000) + 0.5f;
  const auto array = Array::empty(device(), {count}, DType::float32());
  for (int round = 0; round < 3; ++round) {
    array.set(queue(), HostArray::from_values(values));  // asynchronous, source a temporary
    ASSERT_EQ(array.get(queue()).to_vector<float>(), values) << "round " << round;
  }
  // Many asynchronous sets without a synchronize in between stay bounded and correct.
  const auto small = Array::empty(device(), {4}, DType::int32());
  for (int i = 0; i < 600; ++i) small.set(queue(), HostArray::from_values(std::vector<int>(4, i)));
  queue().synchronize();
  EXPECT_EQ(small.get(queue()).to_vector<int>(), std::vector<int>(4, 599));
}

TEST_P(ArrayTest, TypedValuesRoundTrip) {
  std::vector<float> values(24);
  std::iota(values.begin(), values.end(), 0.5f);
  const auto array = Array::from_host(queue(), HostArray::from_values(values, {2, 3, 4}));
  EXPECT_EQ(array.shape(), (std::vector<std::size_t>{2, 3, 4}));
  EXPECT_EQ(array.get(queue()).to_vector<float>(), values);
  // Into caller's memory, wrapped without a copy.
  std::vector<float> dest(24);
  array.get(queue(), HostArray::wrap(std::span(dest), {2, 3, 4}));
  EXPECT_EQ(dest, values);
  // Synchronous from_host through a device.
  EXPECT_EQ(
      Array::from_host(device(), HostArray::from_values(values)).get(queue()).to_vector<float>(),
      values);
}

TEST_P(ArrayTest, EmptyLikeTakesShapeAndDtypeOnly) {
  // A strided view 12 bytes into a Fortran-order allocation: its copy is C-order and packed.
  const auto base =
      Array::empty(device(), {4, 5}, DType::int32(), std::vector<std::ptrdiff_t>{4, 16}, 12);
  const auto view = base.view({Slice(1, 3), Slice::all()});
  const auto like = Array::empty_like(device(), view);
  EXPECT_EQ(like.shape(), (std::vector<std::size_t>{2, 5}));
  EXPECT_EQ(like.dtype(), DType::int32());
  EXPECT_TRUE(like.is_contiguous());
  EXPECT_EQ(like.first_element_offset(), 0u);
  EXPECT_EQ(like.base_buffer().size(), 40u);
  EXPECT_EQ(like.device(), device());
  std::size_t asked = 0;
  const auto allocated =
      Array::empty_like(device(), view, [&](const BoundDevice& d, std::size_t size) {
        asked = size;
        return Buffer::allocate(d, size);
      });
  EXPECT_EQ(asked, 40u);
  EXPECT_EQ(allocated.shape(), like.shape());
}

TEST_P(ArrayTest, ExplicitStridesAndFirstElementOffset) {
  // Fortran order, 12 bytes into the allocation.
  const auto array =
      Array::empty(device(), {4, 5}, DType::int32(), std::vector<std::ptrdiff_t>{4, 16}, 12);
  EXPECT_EQ(array.first_element_offset(), 12u);
  EXPECT_FALSE(array.is_contiguous());
  EXPECT_GE(array.base_buffer().size(), 12u + 80u);
  std::vector<int> values(20);
  std::iota(values.begin(), values.end(), 100);
  const auto host = HostArray::from_values(values, {4, 5});
  array.set(queue(), host, true);
  EXPECT_EQ(array.get(queue()).to_vector<int>(), values);
  // The bytes in memory are in Fortran order after the offset.
  std::vector<int> raw(array.base_buffer().size() / sizeof(int));
  array.base_buffer().get(queue(), std::as_writable_bytes(std::span(raw)));
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 5; ++j) EXPECT_EQ(raw[3 + i + j * 4], 100 + i * 5 + j);
  }
  // Negative strides: the default offset puts the lowest element at byte 0.
  const auto reversed =
      Array::empty(device(), {6}, DType::int32(), std::vector<std::ptrdiff_t>{-4});
  EXPECT_EQ(reversed.first_element_offset(), 20u);
  reversed.set(queue(), HostArray::from_values(std::vector<int>{0, 1, 2, 3, 4, 5}), true);
  std::vector<int> memory(6);
  reversed.base_buffer().get_sub_region(0, 24).get(queue(),
                                                   std::as_writable_bytes(std::span(memory)));
  EXPECT_EQ(memory, (std::vector<int>{5, 4, 3, 2, 1, 0}));
  // Bad layouts.
  EXPECT_THROW(Array::empty(device(), {6}, DType::int32(), std::vector<std::ptrdiff_t>{-4}, 8),
               LogicError);
  EXPECT_THROW(Array::empty(device(), {6}, DType::int32(), std::vector<std::ptrdiff_t>{4, 4}),
               LogicError);
}

/// A slice of one dimension and the positions it selects, worked out by hand (numpy).
struct Case {
  Index index;
  std::vector<int> positions;  // empty for no elements
  bool drops = false;          // an integer index
};

const std::optional<std::ptrdiff_t> none = std::nullopt;

std::vector<Case> row_cases() {  // a dimension of 10
  return {
      {Slice(2, 8), {2, 3, 4, 5, 6, 7}},
      {Slice::all(), {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}},
      {Slice(none, none, -1), {9, 8, 7, 6, 5, 4, 3, 2, 1, 0}},
      {Slice(1, none, 3), {1, 4, 7}},
      {Slice(-3, none), {7, 8, 9}},
      {Slice(none, -2), {0, 1, 2, 3, 4, 5, 6, 7}},
      {Slice(8, 2, -2), {8, 6, 4}},
      {Slice(-20, 3), {0, 1, 2}},     // clamped start
      {Slice(5, 100, 2), {5, 7, 9}},  // clamped stop
      {Slice(-1, -100, -1), {9, 8, 7, 6, 5, 4, 3, 2, 1, 0}},
      {Slice(none, none, -3), {9, 6, 3, 0}},
      {Slice(100, none, -4), {9, 5, 1}},
      {Slice(20, 30), {}},  // empty, past the end
      {Slice(3, 3), {}},    // empty
      {4, {4}, true},
      {-1, {9}, true},
  };
}

std::vector<Case> column_cases() {  // a dimension of 12
  return {
      {Slice::all(), {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}},
      {Slice(none, none, -2), {11, 9, 7, 5, 3, 1}},
      {Slice(3, 9), {3, 4, 5, 6, 7, 8}},
      {Slice(-4, none, 3), {8, 11}},
      {-12, {0}, true},
  };
}

class ArrayViewTest : public ArrayTest {
 protected:
  void SetUp() override {
    ArrayTest::SetUp();
    if (IsSkipped()) return;
    program_.emplace(context(), view_source);
  }
  const Program& program() const { return *program_; }

 private:
  std::optional<Program> program_;
};

TEST_P(ArrayViewTest, EveryKindOfSliceIsWrittenByAKernel) {
  const std::size_t rows = 10, cols = 12;
  const std::size_t align = device().params().address_alignment;
  auto fill = program().kernel("fill_view");
  for (const auto& r : row_cases()) {
    for (const auto& c : column_cases()) {
      SCOPED_TRACE("rows " + ::testing::PrintToString(r.positions) + ", columns " +
                   ::testing::PrintToString(c.positions));
      const std::vector<Index> indices{r.index, c.index};
      // Lay the base array out so that the view's first element is aligned for OpenCL.
      const auto relative = ArrayMetadata({rows, cols}, DType::int32()).view(indices);
      const std::size_t offset = (align - relative.first_element_offset() % align) % align;
      const auto base = Array::empty(device(), {rows, cols}, DType::int32(), std::nullopt, offset);
      base.set(queue(), HostArray::empty({rows, cols}, DType::int32()), true);
      const auto view = base.view(indices);

      std::vector<std::size_t> expected_shape;
      if (!r.drops) expected_shape.push_back(r.positions.size());
      if (!c.drops) expected_shape.push_back(c.positions.size());
      ASSERT_EQ(view.shape(), expected_shape);
      if (view.size() > 0) {
        ASSERT_EQ(view.first_element_offset() % align, 0u);
      }

      const int n_rows = static_cast<int>(r.positions.size());
      const int n_cols = static_cast<int>(c.positions.size());
      int row_stride = 0, col_stride = 0;
      std::size_t dim = 0;
      if (!r.drops) row_stride = static_cast<int>(view.strides()[dim++] / 4);
      if (!c.drops) col_stride = static_cast<int>(view.strides()[dim++] / 4);
      // An empty view is a valid argument too (the kernel must not touch it).
      fill(queue(),
           {std::max<std::size_t>(c.positions.size(), 1),
            std::max<std::size_t>(r.positions.size(), 1)},
           {}, view, n_rows, n_cols, row_stride, col_stride);

      // The whole array: the view's elements written, the others untouched.
      const auto all = base.get(queue());
      for (std::size_t i = 0; i < rows; ++i) {
        for (std::size_t j = 0; j < cols; ++j) {
          int expected = 0;
          for (int vi = 0; vi < n_rows; ++vi) {
            for (int vj = 0; vj < n_cols; ++vj) {
              if (r.positions[vi] == static_cast<int>(i) &&
                  c.positions[vj] == static_cast<int>(j)) {
                expected = 1 + vi * 100 + vj;
              }
            }
          }
          ASSERT_EQ(all.at<int>({i, j}), expected) << "at " << i << ", " << j;
        }
      }
      // The view read back on its own (a non-contiguous transfer in most cases).
      const auto values = view.get(queue()).to_vector<int>();
      ASSERT_EQ(values.size(), static_cast<std::size_t>(n_rows * n_cols));
      for (int vi = 0; vi < n_rows; ++vi) {
        for (int vj = 0; vj < n_cols; ++vj) ASSERT_EQ(values[vi * n_cols + vj], 1 + vi * 100 + vj);
      }
    }
  }
}

TEST_P(ArrayViewTest, ViewsOfViewsShareMemory) {
  const auto base =
      Array::from_host(queue(), HostArray::from_values(std::vector<int>(60, 0), {6, 10}));
  // Rows 4, 2 (reversed, every other), then columns 1, 4, 7.
  const auto inner = base.view({Slice(none, none, -2)}).view({Slice(1, 3), Slice(1, none, 3)});
  EXPECT_EQ(inner.shape(), (std::vector<std::size_t>{2, 3}));
  inner.set(queue(), HostArray::from_values(std::vector<int>{1, 2, 3, 4, 5, 6}, {2, 3}), true);
  const auto all = base.get(queue());
  EXPECT_EQ(all.at<int>({3, 1}), 1);
  EXPECT_EQ(all.at<int>({3, 4}), 2);
  EXPECT_EQ(all.at<int>({3, 7}), 3);
  EXPECT_EQ(all.at<int>({1, 1}), 4);
  EXPECT_EQ(all.at<int>({1, 7}), 6);
  EXPECT_EQ(std::accumulate(all.values<int>().begin(), all.values<int>().end(), 0), 21);
  // A row as a 1-D view, a 0-dimensional element view.
  EXPECT_EQ(base.view({3}).get(queue()).to_vector<int>(),
            (std::vector<int>{0, 1, 0, 0, 2, 0, 0, 3, 0, 0}));
  const auto element = base.view({1, 4});
  EXPECT_TRUE(element.shape().empty());
  EXPECT_EQ(element.get(queue()).to_vector<int>(), std::vector<int>{5});
}

TEST_P(ArrayViewTest, UnalignedFirstElementIsExplainedOnOpenCL) {
  const std::size_t align = device().params().address_alignment;
  const auto base = Array::from_host(queue(), HostArray::from_values(std::vector<int>(66, -1)));
  const auto view = base.view({Slice(1, 33)});  // first element at byte 4
  ASSERT_EQ(view.first_element_offset(), 4u);
  // Transfers work on every backend.
  std::vector<int> values(32);
  std::iota(values.begin(), values.end(), 0);
  view.set(queue(), HostArray::from_values(values), true);
  EXPECT_EQ(view.get(queue()).to_vector<int>(), values);
  const auto copy = Array::empty(device(), {32}, DType::int32());
  copy.set(queue(), view, true);
  EXPECT_EQ(copy.get(queue()).to_vector<int>(), values);
  base.view({Slice(33, 65)}).set(queue(), copy, true);  // unaligned destination
  EXPECT_EQ(base.view({Slice(33, 65)}).get(queue()).to_vector<int>(), values);
  EXPECT_EQ(base.view({65}).get(queue()).to_vector<int>(), std::vector<int>{-1});

  auto fill = program().kernel("fill");
  if (is_opencl(device()) && 4 % align != 0) {
    try {
      fill(queue(), {32}, {}, view, 32, 7);
      FAIL() << "OpenCL accepted a sub-buffer at byte 4 with alignment " << align;
    } catch (const LogicError& e) {
      EXPECT_NE(std::string(e.what()).find("align"), std::string::npos) << e.what();
    }
    // Still usable; the documented way round it: the base buffer and an offset.
    fill(queue(), {32}, {}, copy, 32, 9);
    EXPECT_EQ(copy.get(queue()).to_vector<int>(), std::vector<int>(32, 9));
  } else {
    fill(queue(), {32}, {}, view, 32, 7);
    const auto all = base.get(queue()).to_vector<int>();
    EXPECT_EQ(all[0], -1);
    for (int i = 1; i <= 32; ++i) EXPECT_EQ(all[i], 7) << i;
  }
}

TEST_P(ArrayTest, NonContiguousHostArrays) {
  std::vector<int> values(24);
  std::iota(values.begin(), values.end(), 0);
  const auto wide = HostArray::from_values(values, {4, 6});
  const auto every_other = wide.view({Slice::all(), Slice(0, none, 2)});  // 4 x 3, strided
  EXPECT_FALSE(every_other.is_contiguous());
  // Host view to a contiguous array and back into a host view.
  const auto array = Array::from_host(queue(), every_other);
  EXPECT_EQ(array.get(queue()).to_vector<int>(), every_other.to_vector<int>());
  const auto dest = HostArray::empty({4, 6}, DType::int32());
  array.get(queue(), dest.view({Slice::all(), Slice(1, none, 2)}));
  const auto back = dest.to_vector<int>();
  for (std::size_t i = 0; i < 4; ++i) {
    for (std::size_t j = 0; j < 6; ++j) {
      EXPECT_EQ(back[i * 6 + j], j % 2 == 1 ? values[i * 6 + j - 1] : 0);
    }
  }
  // Host view to a device view (staging on both sides); the gaps keep their values.
  const auto target =
      Array::from_host(queue(), HostArray::from_values(std::vector<int>(24, -1), {4, 6}));
  target.view({Slice(none, none, -1), Slice(1, none, 2)}).set(queue(), every_other, true);
  const auto result = target.get(queue()).to_vector<int>();
  for (std::size_t i = 0; i < 4; ++i) {
    for (std::size_t j = 0; j < 6; ++j) {
      EXPECT_EQ(result[i * 6 + j], j % 2 == 1 ? values[(3 - i) * 6 + j - 1] : -1) << i << ", " << j;
    }
  }
}

TEST_P(ArrayTest, DenseButReorderedViewsAreWrittenWhole) {
  std::vector<int> values(12);
  std::iota(values.begin(), values.end(), 0);
  const auto array = Array::empty(device(), {3, 4}, DType::int32());
  // Reversed in both dimensions: dense, not contiguous.
  const auto reversed = array.view({Slice(none, none, -1), Slice(none, none, -1)});
  EXPECT_TRUE(reversed.metadata().is_dense());
  EXPECT_FALSE(reversed.is_contiguous());
  reversed.set(queue(), HostArray::from_values(values, {3, 4}), true);
  std::vector<int> expected(values.rbegin(), values.rend());
  EXPECT_EQ(array.get(queue()).to_vector<int>(), expected);
}

TEST_P(ArrayTest, OverlappingCopiesWithinOneArray) {
  std::vector<int> values(10);
  std::iota(values.begin(), values.end(), 0);
  const auto array = Array::from_host(queue(), HostArray::from_values(values));
  array.view({Slice(0, 8)}).set(queue(), array.view({Slice(2, 10)}), true);
  EXPECT_EQ(array.get(queue()).to_vector<int>(), (std::vector<int>{2, 3, 4, 5, 6, 7, 8, 9, 8, 9}));
  array.set(queue(), array.view({Slice(none, none, -1)}), true);
  EXPECT_EQ(array.get(queue()).to_vector<int>(), (std::vector<int>{9, 8, 9, 8, 7, 6, 5, 4, 3, 2}));
}

TEST_P(ArrayTest, AllocatorProvidesTheMemory) {
  std::vector<std::size_t> requests;
  const auto pool = Buffer::allocate(device(), 4096);
  const Allocator from_pool = [&](const BoundDevice&, std::size_t size) {
    requests.push_back(size);
    return pool.get_sub_region(1024, size);
  };
  const auto array =
      Array::empty(device(), {10, 3}, DType::float32(), std::nullopt, std::nullopt, from_pool);
  ASSERT_EQ(requests, std::vector<std::size_t>{120});
  EXPECT_EQ(array.base_buffer().offset(), 1024u);
  std::vector<float> values(30, 2.5f);
  array.set(queue(), HostArray::from_values(values, {10, 3}), true);
  std::vector<float> raw(30);
  pool.get_sub_region(1024, 120).get(queue(), std::as_writable_bytes(std::span(raw)));
  EXPECT_EQ(raw, values);
  // With an offset the allocator is asked for it too.
  const auto offset = Array::empty(device(), {4}, DType::int64(), std::nullopt, 16, from_pool);
  EXPECT_EQ(requests.back(), 48u);
  EXPECT_EQ(offset.first_element_offset(), 16u);
  // A bad allocator is caught.
  const Allocator too_small = [&](const BoundDevice& d, std::size_t) {
    return Buffer::allocate(d, 4);
  };
  EXPECT_THROW(Array::empty(device(), {8}, DType::int32(), std::nullopt, std::nullopt, too_small),
               LogicError);
  auto other_context = Context::from_devices({GetParam()});
  const Allocator elsewhere = [&](const BoundDevice&, std::size_t size) {
    return Buffer::allocate(other_context.devices()[0], size);
  };
  EXPECT_THROW(Array::empty(device(), {8}, DType::int32(), std::nullopt, std::nullopt, elsewhere),
               LogicError);
}

TEST_P(ArrayViewTest, EmptyAndZeroDimensionalArrays) {
  const auto empty = Array::empty(device(), {0, 5}, DType::float32());
  EXPECT_EQ(empty.size(), 0u);
  EXPECT_GE(empty.base_buffer().size(), 4u);
  EXPECT_EQ(empty.get(queue()).shape(), (std::vector<std::size_t>{0, 5}));
  empty.set(queue(), HostArray::empty({0, 5}, DType::float32()), true);
  empty.set(queue(), Array::empty(device(), {0, 5}, DType::float32()), true);
  const auto none_left = Array::empty(device(), {4}, DType::int32()).view({Slice(4, none)});
  EXPECT_EQ(none_left.size(), 0u);
  program().kernel("fill")(queue(), {1}, {}, none_left, 0, 1);  // a valid argument
  queue().synchronize();

  const auto scalar = Array::from_host(queue(), HostArray::from_values(std::vector<int>{42}, {}));
  EXPECT_TRUE(scalar.shape().empty());
  EXPECT_EQ(scalar.size(), 1u);
  EXPECT_EQ(scalar.get(queue()).to_vector<int>(), std::vector<int>{42});
}

TEST_P(ArrayViewTest, MisuseIsALogicError) {
  const auto array = Array::empty(device(), {10, 12}, DType::int32());
  const auto expect_error = [](auto&& call, const std::string& needle) {
    try {
      call();
      ADD_FAILURE() << "accepted; expected an error mentioning '" << needle << "'";
    } catch (const LogicError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  // Views out of bounds.
  expect_error([&] { array.view({10}); }, "out of bounds");
  expect_error([&] { array.view({-11}); }, "out of bounds");
  expect_error([&] { array.view({Slice::all(), 12}); }, "dimension 1 of extent 12");
  expect_error([&] { array.view({1, 2, 3}); }, "3 indices for a 2-dimensional");
  expect_error([&] { array.view({Slice(0, 5, 0)}); }, "step 0");
  expect_error([&] { array.view({2}).view({Slice::all(), 0}); }, "2 indices for a 1-dimensional");
  // Shape and dtype mismatches.
  expect_error(
      [&] {
        array.set(queue(), HostArray::empty({10, 11}, DType::int32()));
      },
      "shape mismatch");
  expect_error(
      [&] {
        array.set(queue(), HostArray::empty({10, 12}, DType::float32()));
      },
      "dtype mismatch");
  expect_error(
      [&] {
        array.get(queue(), HostArray::empty({12, 10}, DType::int32()));
      },
      "shape mismatch");
  expect_error([&] { array.set(queue(), array.view({Slice(0, 5)})); }, "shape mismatch");
  // A queue or a kernel of another context.
  auto other_context = Context::from_devices({GetParam()});
  Queue foreign_queue(other_context.devices()[0]);
  expect_error([&] { array.get(foreign_queue); }, "belong to different contexts");
  const auto foreign = Array::empty(other_context.devices()[0], {12}, DType::int32());
  expect_error([&] { array.view({0}).set(queue(), foreign); }, "another context");
  expect_error([&] { program().kernel("fill")(queue(), {12}, {}, foreign, 12, 1); },
               "the Array and the queue belong to different contexts");
  expect_error([&] { program().kernel("fill")(queue(), {12}, {}, array, array, 1); },
               "argument 1");  // "got an Array" where the backend knows the parameter's kind
  // Still usable.
  array.view({0}).set(queue(), HostArray::from_values(std::vector<int>(12, 3)), true);
  EXPECT_EQ(array.view({0}).get(queue()).to_vector<int>(), std::vector<int>(12, 3));
}

// grunnur's Array.minimum_subregion: the view over a buffer holding only its elements.
TEST_P(ArrayViewTest, MinimumSubregionHoldsOnlyTheView) {
  const std::size_t rows = 10, cols = 12;
  const std::size_t align = device().params().address_alignment;
  const std::vector<Index> indices{Slice(2, 7), Slice(3, 9)};
  // Lay the base out so that the view's first (and lowest) element is aligned for OpenCL.
  const auto relative = ArrayMetadata({rows, cols}, DType::int32()).view(indices);
  const std::size_t offset = (align - relative.first_element_offset() % align) % align;
  const auto base = Array::empty(device(), {rows, cols}, DType::int32(), std::nullopt, offset);
  std::vector<int> zeros(rows * cols, 0);
  base.set(queue(), HostArray::from_values(zeros, {rows, cols}), true);
  const auto view = base.view(indices);

  const auto sub = view.minimum_subregion();
  EXPECT_EQ(sub.shape(), view.shape());
  EXPECT_EQ(sub.strides(), view.strides());
  EXPECT_EQ(sub.dtype(), view.dtype());
  EXPECT_EQ(sub.first_element_offset(), 0u);
  EXPECT_EQ(sub.base_buffer().size(), view.metadata().span());
  EXPECT_EQ(sub.base_buffer().offset(), view.metadata().min_offset());
  EXPECT_EQ(sub.metadata().buffer_size(), view.metadata().span());
  EXPECT_EQ(sub.device(), device());

  // Written by a kernel through the region: the base array sees it.
  auto fill = program().kernel("fill_view");
  const int n_rows = 5, n_cols = 6;
  fill(queue(), {n_cols, n_rows}, {}, sub, n_rows, n_cols, static_cast<int>(cols), 1);
  const auto all = base.get(queue());
  for (std::size_t i = 0; i < rows; ++i) {
    for (std::size_t j = 0; j < cols; ++j) {
      const bool inside = i >= 2 && i < 7 && j >= 3 && j < 9;
      const int expected = inside ? 1 + static_cast<int>(i - 2) * 100 + static_cast<int>(j - 3) : 0;
      ASSERT_EQ(all.at<int>({i, j}), expected) << "at " << i << ", " << j;
    }
  }
  EXPECT_EQ(sub.get(queue()).to_vector<int>(), view.get(queue()).to_vector<int>());

  // Negative strides: the first element is the region's last; transfers see the same order.
  const auto reversed = base.view({4, Slice(none, none, -1)});
  const auto reversed_sub = reversed.minimum_subregion();
  EXPECT_EQ(reversed_sub.base_buffer().size(), cols * 4);
  EXPECT_EQ(reversed_sub.first_element_offset(), (cols - 1) * 4);
  EXPECT_EQ(reversed_sub.get(queue()).to_vector<int>(), reversed.get(queue()).to_vector<int>());
  std::vector<int> values(cols);
  std::iota(values.begin(), values.end(), 50);
  reversed_sub.set(queue(), HostArray::from_values(values), true);
  EXPECT_EQ(reversed.get(queue()).to_vector<int>(), values);
  EXPECT_EQ(base.view({4, 0}).get(queue()).to_vector<int>(), std::vector<int>{values.back()});

  // No elements: a region of one element, still a handle to the same device.
  const auto empty = base.view({Slice(3, 3)}).minimum_subregion();
  EXPECT_EQ(empty.size(), 0u);
  EXPECT_EQ(empty.base_buffer().size(), 4u);
  EXPECT_EQ(empty.get(queue()).size(), 0u);
}

// c_constant writes a complex value as grunnur's COMPLEX_CTR(float2)(re, im), which every
// prelude defines, so that it is an expression (before: `{re, im}`, an initialiser only).
TEST_P(ArrayViewTest, ComplexConstantsAreExpressions) {
  ProgramOptions options;
  options.render_globals = {{"a", c_constant(std::complex<float>(1.5f, -2.0f))},
                            {"b", c_constant(3, DType::complex64())}};
  const Program program(context(), R"(
FUNCTION plinth_complex64 swapped(plinth_complex64 z)
{
    return COMPLEX_CTR(plinth_complex64)(z.y, z.x);
}

KERNEL void complex_constants(GLOBAL_MEM plinth_complex64 *out)
{
    out[0] = ${a};
    const plinth_complex64 b = ${b};
    out[1] = b;
    out[2] = swapped(${a});
}
)",
                        options);
  const auto out = Array::empty(device(), {3}, DType::complex64());
  program.kernel("complex_constants")(queue(), {1}, {}, out);
  EXPECT_EQ(out.get(queue()).to_vector<std::complex<float>>(),
            (std::vector<std::complex<float>>{{1.5f, -2.0f}, {3.0f, 0.0f}, {-2.0f, 1.5f}}));
}

// grunnur's test_struct_offsets_field_alignments: offsets 0, 4, 16 with itemsize 32 imply
// ALIGN(4) and ALIGN(16), which ctype_struct infers (before: it asked for
// StructLayout::alignment = 16); the kernel's struct has the DType's layout.
TEST_P(ArrayViewTest, StructWithImpliedAlignmentMatchesItsDType) {
  const auto dtype = DType::make_struct(
      {{"x", DType::int8()}, {"y", DType::int16(), {}, 4}, {"z", DType::int32(), {}, 16}},
      StructLayout{.itemsize = 32});
  ProgramOptions options;
  options.render_globals = {{"S", ctype(dtype)}};
  const Program program(context(), R"(
KERNEL void fill_structs(GLOBAL_MEM ${S} *out, GLOBAL_MEM int *size)
{
    const int i = get_global_id(0);
    ${S} s;
    s.x = (signed char)i;
    s.y = (short)(100 + i);
    s.z = 1000 + i;
    out[i] = s;
    if (i == 0) size[0] = (int)sizeof(${S});
}
)",
                        options);
  constexpr std::size_t n = 8;
  const auto out = Array::empty(device(), {n}, dtype);
  const auto size = Array::empty(device(), {1}, DType::int32());
  program.kernel("fill_structs")(queue(), {n}, {}, out, size);
  EXPECT_EQ(size.get(queue()).to_vector<int>(), std::vector<int>{32});
  const auto host = out.get(queue());
  const auto bytes = std::span<const std::byte>(host.data(), n * 32);
  EXPECT_EQ(extract_field<std::int8_t>(bytes, dtype, {"x"}),
            (std::vector<std::int8_t>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(extract_field<std::int16_t>(bytes, dtype, {"y"}),
            (std::vector<std::int16_t>{100, 101, 102, 103, 104, 105, 106, 107}));
  EXPECT_EQ(extract_field<std::int32_t>(bytes, dtype, {"z"}),
            (std::vector<std::int32_t>{1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007}));
}

PLINTH_INSTANTIATE_DEVICE_TEST(ArrayTest);
PLINTH_INSTANTIATE_DEVICE_TEST(ArrayViewTest);

}  // namespace
}  // namespace array_test
}  // namespace plinth::conformance
