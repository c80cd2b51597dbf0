// Splays without a device (include/plinth/splay.hpp): EqualSplay's row counts, and the views
// EqualSplay and CloneSplay give each device, applied to an ArrayMetadata.
//
// split() takes a BoundMultiDevice but only counts its devices; the devices here are
// placeholders bound to a null context (BoundDevice's constructor for the implementation),
// never asked for anything, so no device or backend is involved.

#include <plinth/array_metadata.hpp>
#include <plinth/context.hpp>
#include <plinth/errors.hpp>
#include <plinth/splay.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace plinth {
namespace splay_test {
namespace {

using Counts = std::vector<std::size_t>;

/// `n` placeholder devices of one (null) context.
BoundMultiDevice placeholder_devices(std::size_t n) {
  const auto none = detail::Access::make<Context>(std::shared_ptr<detail::ContextImpl>());
  std::vector<BoundDevice> devices;
  for (std::size_t i = 0; i < n; ++i) devices.push_back(detail::Access::make<BoundDevice>(none, i));
  return detail::Access::make<BoundMultiDevice>(std::move(devices));
}

template <class F>
std::string error_of(F f) {
  try {
    f();
  } catch (const LogicError& e) {
    return e.what();
  }
  return {};
}

// --- EqualSplay::row_counts -----------------------------------------------------------------

TEST(EqualSplayRowCounts, MatchTheDocumentedExamples) {
  EXPECT_EQ(EqualSplay::row_counts(10, 3), (Counts{4, 3, 3}));
  EXPECT_EQ(EqualSplay::row_counts(10, 4), (Counts{3, 3, 2, 2}));
}

TEST(EqualSplayRowCounts, FirstDevicesTakeTheRemainder) {
  for (std::size_t rows = 1; rows <= 40; ++rows) {
    for (std::size_t parts = 1; parts <= rows; ++parts) {
      const auto counts = EqualSplay::row_counts(rows, parts);
      ASSERT_EQ(counts.size(), parts) << rows << " rows on " << parts;
      std::size_t sum = 0;
      for (std::size_t i = 0; i < parts; ++i) {
        // ceil(rows / parts) on the first rows % parts devices, floor on the others (all
        // the same when parts divides rows).
        const std::size_t expected = rows / parts + (i < rows % parts ? 1 : 0);
        EXPECT_EQ(counts[i], expected) << rows << " rows on " << parts << ", device " << i;
        EXPECT_GE(counts[i], 1u);
        sum += counts[i];
      }
      EXPECT_EQ(sum, rows) << rows << " rows on " << parts;
    }
  }
}

TEST(EqualSplayRowCounts, OneDeviceTakesEverythingAndOneRowEachIsAllowed) {
  EXPECT_EQ(EqualSplay::row_counts(7, 1), (Counts{7}));
  EXPECT_EQ(EqualSplay::row_counts(3, 3), (Counts{1, 1, 1}));
  EXPECT_EQ(EqualSplay::row_counts(1, 1), (Counts{1}));
}

TEST(EqualSplayRowCounts, RefuseNoDevicesAndMoreDevicesThanRows) {
  EXPECT_EQ(error_of([] { EqualSplay::row_counts(5, 0); }),
            "EqualSplay: no devices to split among");
  EXPECT_EQ(error_of([] { EqualSplay::row_counts(0, 0); }),
            "EqualSplay: no devices to split among");
  EXPECT_EQ(error_of([] { EqualSplay::row_counts(2, 3); }),
            "EqualSplay: cannot split 2 row(s) of the outermost dimension among 3 devices "
            "(more devices than rows)");
  EXPECT_EQ(error_of([] { EqualSplay::row_counts(0, 1); }),
            "EqualSplay: cannot split 0 row(s) of the outermost dimension among 1 devices "
            "(more devices than rows)");
}

// --- EqualSplay::split ----------------------------------------------------------------------

TEST(EqualSplayParts, AreConsecutiveRowRangesOfTheOutermostDimension) {
  const EqualSplay splay;
  const auto parts = splay.split({10, 5}, placeholder_devices(4));
  ASSERT_EQ(parts.size(), 4u);
  const std::ptrdiff_t bounds[] = {0, 3, 6, 8, 10};
  for (std::size_t i = 0; i < parts.size(); ++i) {
    ASSERT_EQ(parts[i].size(), 1u) << "device " << i;
    ASSERT_TRUE(parts[i][0].is_slice()) << "device " << i;
    EXPECT_EQ(parts[i][0].slice(), Slice(bounds[i], bounds[i + 1])) << "device " << i;
  }
}

TEST(EqualSplayParts, ViewEachDevicesRowsOfTheWholeArray) {
  const EqualSplay splay;
  const ArrayMetadata whole({7, 3, 2}, DType::int32());
  const auto parts = splay.split(whole.shape(), placeholder_devices(3));
  ASSERT_EQ(parts.size(), 3u);
  const std::size_t rows[] = {3, 2, 2};
  std::size_t first_row = 0;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const auto view = whole.view(parts[i]);
    EXPECT_EQ(view.shape(), (std::vector<std::size_t>{rows[i], 3, 2})) << "device " << i;
    EXPECT_EQ(view.strides(), whole.strides()) << "device " << i;
    EXPECT_EQ(view.first_element_offset(), first_row * 3 * 2 * 4) << "device " << i;
    first_row += rows[i];
  }
}

TEST(EqualSplayParts, OneDeviceGetsTheWholeArray) {
  const EqualSplay splay;
  const ArrayMetadata whole({5}, DType::float64());
  const auto parts = splay.split(whole.shape(), placeholder_devices(1));
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(whole.view(parts[0]), whole);
}

TEST(EqualSplayParts, RefuseArraysWithoutDimensionsOrWithFewerRowsThanDevices) {
  const EqualSplay splay;
  EXPECT_EQ(error_of([&] { splay.split({}, placeholder_devices(2)); }),
            "EqualSplay: cannot split an array without dimensions");
  EXPECT_EQ(error_of([&] {
              splay.split({2, 100}, placeholder_devices(3));
            }),
            "EqualSplay: cannot split 2 row(s) of the outermost dimension among 3 devices "
            "(more devices than rows)");
  EXPECT_EQ(error_of([&] { splay.split({0}, placeholder_devices(1)); }),
            "EqualSplay: cannot split 0 row(s) of the outermost dimension among 1 devices "
            "(more devices than rows)");
}

// --- CloneSplay ----------------------------------------------------------------------------

TEST(CloneSplayParts, GiveEveryDeviceTheWholeArray) {
  const CloneSplay splay;
  const ArrayMetadata whole({2, 3}, DType::int16());
  for (std::size_t n = 1; n <= 4; ++n) {
    const auto parts = splay.split(whole.shape(), placeholder_devices(n));
    ASSERT_EQ(parts.size(), n);
    for (const auto& part : parts) EXPECT_EQ(whole.view(part), whole) << n << " devices";
  }
}

TEST(CloneSplayParts, AcceptEveryShape) {
  const CloneSplay splay;
  const ArrayMetadata scalar({}, DType::int32());
  const ArrayMetadata empty({0, 4}, DType::int32());
  for (const auto& whole : {scalar, empty}) {
    const auto parts = splay.split(whole.shape(), placeholder_devices(3));
    ASSERT_EQ(parts.size(), 3u);
    for (const auto& part : parts) EXPECT_EQ(whole.view(part), whole);
  }
}

}  // namespace
}  // namespace splay_test
}  // namespace plinth
