#include <plinth/dtype.hpp>
#include <plinth/errors.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <unordered_set>
#include <vector>

namespace plinth {
namespace dtype_test {
namespace {

// Reference data written by tests/data/generate_promotion_table.py with numpy.
std::vector<std::vector<std::string>> read_table(const std::string& file) {
  const std::string path = std::string(PLINTH_TEST_DATA_DIR) + "/" + file;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line.front() == '#') continue;
    std::istringstream words(line);
    std::vector<std::string> row;
    for (std::string word; words >> word;) row.push_back(word);
    rows.push_back(row);
  }
  return rows;
}

std::vector<DType> all_scalars() {
  return {DType::boolean(),   DType::int8(),      DType::uint8(),   DType::int16(),
          DType::uint16(),    DType::int32(),     DType::uint32(),  DType::int64(),
          DType::uint64(),    DType::float16(),   DType::float32(), DType::float64(),
          DType::complex64(), DType::complex128()};
}

// Expects `statement` to throw LogicError whose message contains `text`.
#define EXPECT_LOGIC_ERROR(statement, text)                                       \
  do {                                                                            \
    try {                                                                         \
      statement;                                                                  \
      ADD_FAILURE() << #statement " did not throw";                               \
    } catch (const LogicError& e) {                                               \
      EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what(); \
    }                                                                             \
  } while (false)

TEST(DType, ScalarProperties) {
  struct Expected {
    DType dtype;
    const char* name;
    DTypeKind kind;
    std::size_t itemsize;
  };
  const std::vector<Expected> expected = {
      {DType::boolean(), "bool", DTypeKind::boolean, 1},
      {DType::int8(), "int8", DTypeKind::signed_integer, 1},
      {DType::uint8(), "uint8", DTypeKind::unsigned_integer, 1},
      {DType::int16(), "int16", DTypeKind::signed_integer, 2},
      {DType::uint16(), "uint16", DTypeKind::unsigned_integer, 2},
      {DType::int32(), "int32", DTypeKind::signed_integer, 4},
      {DType::uint32(), "uint32", DTypeKind::unsigned_integer, 4},
      {DType::int64(), "int64", DTypeKind::signed_integer, 8},
      {DType::uint64(), "uint64", DTypeKind::unsigned_integer, 8},
      {DType::float16(), "float16", DTypeKind::floating, 2},
      {DType::float32(), "float32", DTypeKind::floating, 4},
      {DType::float64(), "float64", DTypeKind::floating, 8},
      {DType::complex64(), "complex64", DTypeKind::complex, 8},
      {DType::complex128(), "complex128", DTypeKind::complex, 16},
  };
  for (const auto& e : expected) {
    EXPECT_EQ(e.dtype.name(), e.name);
    EXPECT_EQ(e.dtype.kind(), e.kind) << e.name;
    EXPECT_EQ(e.dtype.itemsize(), e.itemsize) << e.name;
    EXPECT_EQ(e.dtype.alignment(), e.itemsize) << e.name;
    EXPECT_FALSE(e.dtype.is_struct()) << e.name;
    EXPECT_TRUE(e.dtype.fields().empty()) << e.name;
    EXPECT_EQ(DType::from_name(e.name), e.dtype);
    std::ostringstream os;
    os << e.dtype;
    EXPECT_EQ(os.str(), e.name);
  }
  EXPECT_STREQ(to_string(DTypeKind::boolean), "bool");
  EXPECT_STREQ(to_string(DTypeKind::signed_integer), "int");
  EXPECT_STREQ(to_string(DTypeKind::unsigned_integer), "uint");
  EXPECT_STREQ(to_string(DTypeKind::floating), "float");
  EXPECT_STREQ(to_string(DTypeKind::complex), "complex");
  EXPECT_STREQ(to_string(DTypeKind::structure), "struct");
}

TEST(DType, FromNameRejectsUnknownNames) {
  EXPECT_LOGIC_ERROR(DType::from_name("float128"), "unknown dtype 'float128'");
  EXPECT_LOGIC_ERROR(DType::from_name("f4"), "valid names: bool, int8");
  EXPECT_LOGIC_ERROR(DType::from_name(""), "unknown dtype ''");
}

TEST(DType, DTypeOf) {
  EXPECT_EQ(dtype_of<bool>(), DType::boolean());
  EXPECT_EQ(dtype_of<signed char>(), DType::int8());
  EXPECT_EQ(dtype_of<unsigned char>(), DType::uint8());
  EXPECT_EQ(dtype_of<char>(), std::is_signed_v<char> ? DType::int8() : DType::uint8());
  EXPECT_EQ(dtype_of<char8_t>(), DType::uint8());
  EXPECT_EQ(dtype_of<char16_t>(), DType::uint16());
  EXPECT_EQ(dtype_of<char32_t>(), DType::uint32());
  EXPECT_EQ(dtype_of<short>(), DType::int16());
  EXPECT_EQ(dtype_of<unsigned short>(), DType::uint16());
  EXPECT_EQ(dtype_of<int>(), DType::int32());
  EXPECT_EQ(dtype_of<unsigned>(), DType::uint32());
  EXPECT_EQ(dtype_of<long>(), sizeof(long) == 8 ? DType::int64() : DType::int32());
  EXPECT_EQ(dtype_of<unsigned long>(), sizeof(long) == 8 ? DType::uint64() : DType::uint32());
  EXPECT_EQ(dtype_of<long long>(), DType::int64());
  EXPECT_EQ(dtype_of<unsigned long long>(), DType::uint64());
  EXPECT_EQ(dtype_of<std::int8_t>(), DType::int8());
  EXPECT_EQ(dtype_of<std::uint16_t>(), DType::uint16());
  EXPECT_EQ(dtype_of<std::int32_t>(), DType::int32());
  EXPECT_EQ(dtype_of<std::int64_t>(), DType::int64());
  EXPECT_EQ(dtype_of<std::uint64_t>(), DType::uint64());
  EXPECT_EQ(dtype_of<std::size_t>(), DType::uint64());
  EXPECT_EQ(dtype_of<std::ptrdiff_t>(), DType::int64());
  EXPECT_EQ(dtype_of<float>(), DType::float32());
  EXPECT_EQ(dtype_of<double>(), DType::float64());
  EXPECT_EQ(dtype_of<const double>(), DType::float64());
  EXPECT_EQ(dtype_of<std::complex<float>>(), DType::complex64());
  EXPECT_EQ(dtype_of<std::complex<double>>(), DType::complex128());
  // dtype_of<long double>() and dtype_of<void*>() fail to compile (static_assert).
}

TEST(DType, EqualityAndHash) {
  const auto scalars = all_scalars();
  for (std::size_t i = 0; i < scalars.size(); ++i) {
    for (std::size_t j = 0; j < scalars.size(); ++j) {
      EXPECT_EQ(scalars[i] == scalars[j], i == j) << scalars[i] << " " << scalars[j];
    }
  }
  std::unordered_set<DType> set(scalars.begin(), scalars.end());
  EXPECT_EQ(set.size(), scalars.size());

  const auto make = [] {
    return DType::make_struct({{"a", DType::int32()}, {"b", DType::float32(), {3}}});
  };
  const auto a = make();
  const auto b = make();  // built separately: equal by value
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.hash(), b.hash());
  EXPECT_EQ(std::hash<DType>{}(a), std::hash<DType>{}(b));
  set.insert(a);
  EXPECT_EQ(set.count(b), 1u);

  // Any difference in names, dtypes, shapes, offsets, itemsize or alignment.
  EXPECT_NE(a, DType::make_struct({{"a", DType::int32()}, {"c", DType::float32(), {3}}}));
  EXPECT_NE(a, DType::make_struct({{"a", DType::uint32()}, {"b", DType::float32(), {3}}}));
  EXPECT_NE(a, DType::make_struct({{"a", DType::int32()}, {"b", DType::float32(), {4}}}));
  EXPECT_NE(a, DType::make_struct({{"a", DType::int32()}, {"b", DType::float32(), {3, 1}}}));
  EXPECT_NE(a, DType::make_struct({{"a", DType::int32()}, {"b", DType::float32(), {3}, 8}}));
  EXPECT_NE(a, DType::make_struct({{"a", DType::int32()}, {"b", DType::float32(), {3}}},
                                  {.itemsize = 20}));
  EXPECT_NE(a, DType::make_struct({{"a", DType::int32()}, {"b", DType::float32(), {3}}},
                                  {.alignment = 16}));
  EXPECT_NE(a, DType::make_struct({{"a", DType::int32()}}));
  EXPECT_NE(a, DType::int32());

  // Copies share the value; moving copies, so the source keeps it.
  DType c = a;
  EXPECT_EQ(c, a);
  DType d = std::move(c);
  EXPECT_EQ(d, a);
  EXPECT_EQ(c, a);  // NOLINT(bugprone-use-after-move): a moved-from DType keeps its value
  d = DType::float16();
  EXPECT_EQ(d, DType::float16());
}

// The structs of struct_layout_table.txt, built as the generator builds them with numpy.
std::map<std::string, DType> layout_cases() {
  const auto point = DType::make_struct({{"x", DType::float32()}, {"y", DType::float32()}});
  return {
      {"scalars", DType::make_struct({{"a", DType::int8()},
                                      {"b", DType::int32()},
                                      {"c", DType::int16()},
                                      {"d", DType::float64()},
                                      {"e", DType::uint8()}})},
      {"small", DType::make_struct(
                    {{"a", DType::boolean()}, {"b", DType::float16()}, {"c", DType::uint64()}})},
      {"arrays", DType::make_struct({{"a", DType::int8()},
                                     {"b", DType::float32(), {3}},
                                     {"c", DType::uint16(), {2, 3}},
                                     {"d", DType::int8()}})},
      {"nested", DType::make_struct(
                     {{"a", DType::int8()},
                      {"b", DType::make_struct({{"x", DType::int8()}, {"y", DType::float64()}})},
                      {"c", DType::int16()}})},
      {"struct_array",
       DType::make_struct({{"a", DType::uint8()}, {"p", point, {4}}, {"n", DType::int64()}})},
      {"deep", DType::make_struct(
                   {{"f", DType::float16()},
                    {"o", DType::make_struct({{"i", DType::make_struct({{"b", DType::boolean()},
                                                                        {"u", DType::uint32()}})},
                                              {"j", DType::int16()}})}})},
      {"explicit_offsets",
       DType::make_struct({{"a", DType::int8(), {}, 0}, {"b", DType::int32(), {}, 8}})},
      {"explicit_itemsize",
       DType::make_struct({{"a", DType::int32()}, {"b", DType::int8()}}, {.itemsize = 12})},
      {"explicit_both", DType::make_struct({{"a", DType::int16(), {}, 2},
                                            {"b", DType::float32(), {}, 4},
                                            {"c", DType::uint8(), {5}, 16}},
                                           {.itemsize = 32})},
  };
}

// `path=offset` for each field, nested fields after their struct (the table's format).
void describe_fields(const DType& dtype, const std::string& prefix, std::string& out) {
  for (const auto& field : dtype.fields()) {
    out += " " + prefix + field.name + "=" + std::to_string(field.offset);
    describe_fields(field.dtype, prefix + field.name + ".", out);
  }
}

TEST(DTypeStruct, LayoutMatchesNumpyAlignedStructs) {
  auto cases = layout_cases();
  const auto rows = read_table("struct_layout_table.txt");
  ASSERT_EQ(rows.size(), cases.size());
  for (const auto& row : rows) {
    std::string expected;
    for (const auto& word : row) expected += (expected.empty() ? "" : " ") + word;
    const auto it = cases.find(row.at(0));
    ASSERT_NE(it, cases.end()) << "no case " << row.at(0);
    const auto& dtype = it->second;
    std::string actual = it->first + " " + std::to_string(dtype.itemsize()) + " " +
                         std::to_string(dtype.alignment());
    describe_fields(dtype, "", actual);
    EXPECT_EQ(actual, expected) << dtype;
    EXPECT_EQ(dtype.kind(), DTypeKind::structure);
    EXPECT_TRUE(dtype.is_struct());
  }
}

// plinth's one departure from numpy: complex fields align like float2/double2 (as grunnur's
// align() places them), where numpy aligns to one component.
TEST(DTypeStruct, ComplexFieldsAlignToTheirSize) {
  const auto a = DType::make_struct({{"n", DType::int32()}, {"z", DType::complex64()}});
  EXPECT_EQ(a.field("z").offset, 8u);
  EXPECT_EQ(a.itemsize(), 16u);
  EXPECT_EQ(a.alignment(), 8u);
  const auto b = DType::make_struct({{"n", DType::int8()}, {"z", DType::complex128(), {2}}});
  EXPECT_EQ(b.field("z").offset, 16u);
  EXPECT_EQ(b.itemsize(), 48u);
  EXPECT_EQ(b.alignment(), 16u);
  EXPECT_LOGIC_ERROR(DType::make_struct({{"n", DType::int32()}, {"z", DType::complex64(), {}, 4}}),
                     "field 'z' at offset 4 is not aligned to its alignment 8");
}

TEST(DTypeStruct, FieldsAndNames) {
  const auto point = DType::make_struct({{"x", DType::float32()}, {"y", DType::float32()}});
  EXPECT_EQ(point.name(), "struct{x: float32 @0, y: float32 @4}");
  const auto s = DType::make_struct(
      {{"a", DType::int32()}, {"b", DType::float32(), {3}}, {"p", point, {2, 2}}});
  EXPECT_EQ(s.name(),
            "struct{a: int32 @0, b: float32[3] @4, "
            "p: struct{x: float32 @0, y: float32 @4}[2][2] @16}");
  ASSERT_EQ(s.fields().size(), 3u);
  EXPECT_EQ(s.fields()[1].name, "b");
  EXPECT_EQ(s.fields()[1].dtype, DType::float32());
  EXPECT_EQ(s.fields()[1].shape, (std::vector<std::size_t>{3}));
  EXPECT_EQ(s.fields()[1].count(), 3u);
  EXPECT_EQ(s.fields()[1].itemsize(), 12u);
  EXPECT_EQ(s.field("p").dtype, point);
  EXPECT_EQ(s.field("p").count(), 4u);
  EXPECT_EQ(s.field("p").itemsize(), 32u);
  EXPECT_EQ(s.itemsize(), 48u);
  EXPECT_EQ(s.field("a").count(), 1u);
  EXPECT_LOGIC_ERROR(s.field("q"), "has no field 'q'");
  EXPECT_LOGIC_ERROR(DType::int32().field("a"), "int32 is not a struct");

  // Explicit itemsize and alignment show in the name where they differ from the computed ones.
  EXPECT_EQ(DType::make_struct({{"a", DType::int32()}}, {.itemsize = 8}).name(),
            "struct{a: int32 @0; itemsize 8}");
  const auto aligned = DType::make_struct({{"a", DType::int32()}}, {.alignment = 16});
  EXPECT_EQ(aligned.name(), "struct{a: int32 @0; alignment 16}");
  EXPECT_EQ(aligned.itemsize(), 16u);
  EXPECT_EQ(aligned.alignment(), 16u);
  EXPECT_EQ(DType::make_struct({{"a", DType::int32()}}, {.itemsize = 32, .alignment = 16}).name(),
            "struct{a: int32 @0; itemsize 32; alignment 16}");
  // Nested, an over-aligned struct moves the fields after it.
  const auto outer = DType::make_struct({{"c", DType::int8()}, {"in", aligned}});
  EXPECT_EQ(outer.field("in").offset, 16u);
  EXPECT_EQ(outer.itemsize(), 32u);
  EXPECT_EQ(outer.alignment(), 16u);
  // Explicit offsets may leave gaps; unset ones continue after the previous field.
  const auto gaps = DType::make_struct(
      {{"a", DType::int8()}, {"b", DType::int16(), {}, 6}, {"c", DType::int8()}});
  EXPECT_EQ(gaps.field("c").offset, 8u);
  EXPECT_EQ(gaps.itemsize(), 10u);
}

TEST(DTypeStruct, RejectsInvalidLayouts) {
  const auto i32 = DType::int32();
  EXPECT_LOGIC_ERROR(DType::make_struct({}), "at least one field");
  EXPECT_LOGIC_ERROR(DType::make_struct({{"", i32}}), "field name '' is not a C identifier");
  EXPECT_LOGIC_ERROR(DType::make_struct({{"1a", i32}}), "'1a' is not a C identifier");
  EXPECT_LOGIC_ERROR(DType::make_struct({{"a b", i32}}), "'a b' is not a C identifier");
  EXPECT_LOGIC_ERROR(DType::make_struct({{"a", i32}, {"a", i32}}), "field 'a' appears twice");
  EXPECT_LOGIC_ERROR(DType::make_struct({{"a", i32, {2, 0}}}),
                     "field 'a' has an array extent of 0");
  EXPECT_LOGIC_ERROR(DType::make_struct({{"a", DType::int8()}, {"b", i32, {}, 2}}),
                     "field 'b' at offset 2 is not aligned to its alignment 4");
  EXPECT_LOGIC_ERROR(DType::make_struct({{"a", i32, {2}}, {"b", i32, {}, 4}}),
                     "field 'b' at offset 4 overlaps the previous field 'a', which ends at 8");
  EXPECT_LOGIC_ERROR(DType::make_struct({{"a", i32, {}, 4}, {"b", i32, {}, 0}}),
                     "overlaps the previous field 'a'");
  EXPECT_LOGIC_ERROR(DType::make_struct({{"a", i32}}, {.alignment = 2}),
                     "alignment 2 must be a power of two and at least 4");
  EXPECT_LOGIC_ERROR(DType::make_struct({{"a", i32}}, {.alignment = 12}),
                     "alignment 12 must be a power of two");
  EXPECT_LOGIC_ERROR(DType::make_struct({{"a", i32}}, {.alignment = 0}),
                     "alignment 0 must be a power of two");
  EXPECT_LOGIC_ERROR(DType::make_struct({{"a", i32}, {"b", DType::int8()}}, {.itemsize = 4}),
                     "itemsize 4 must be at least 5");
  EXPECT_LOGIC_ERROR(DType::make_struct({{"a", i32}, {"b", DType::int8()}}, {.itemsize = 6}),
                     "a multiple of the alignment 4");
  EXPECT_LOGIC_ERROR(DType::make_struct({{"a", i32, {std::size_t{1} << 62, 8}}}),
                     "field 'a' is too large");
}

TEST(DTypePromotion, MatchesNumpyForEveryPairAndOrderSensitiveTriples) {
  const auto rows = read_table("promotion_table.txt");
  std::size_t pairs = 0;
  std::size_t triples = 0;
  for (const auto& row : rows) {
    std::vector<DType> inputs;
    for (std::size_t i = 0; i + 1 < row.size(); ++i) inputs.push_back(DType::from_name(row[i]));
    const auto expected = DType::from_name(row.back());
    std::sort(inputs.begin(), inputs.end(),
              [](const DType& a, const DType& b) { return a.name() < b.name(); });
    do {  // numpy's result does not depend on the order: check every permutation
      EXPECT_EQ(result_type(inputs), expected) << row[0] << " " << row[1];
    } while (
        std::next_permutation(inputs.begin(), inputs.end(),
                              [](const DType& a, const DType& b) { return a.name() < b.name(); }));
    (inputs.size() == 2 ? pairs : triples) += 1;
  }
  EXPECT_EQ(pairs, 14u * 14u);
  EXPECT_GT(triples, 0u);
}

TEST(DTypePromotion, Examples) {
  EXPECT_EQ(result_type(DType::int64(), DType::uint64()), DType::float64());
  EXPECT_EQ(result_type(DType::int32(), DType::float32()), DType::float64());
  EXPECT_EQ(result_type(DType::uint8(), DType::int8()), DType::int16());
  EXPECT_EQ(result_type(DType::float16(), DType::int16()), DType::float32());
  EXPECT_EQ(result_type(DType::boolean(), DType::int8()), DType::int8());
  EXPECT_EQ(result_type(DType::float32(), DType::complex64()), DType::complex64());
  EXPECT_EQ(result_type(DType::float64(), DType::complex64()), DType::complex128());
  EXPECT_EQ(result_type(DType::uint16()), DType::uint16());
  EXPECT_EQ(result_type(DType::int8(), DType::uint8(), DType::float16()), DType::float16());
  EXPECT_EQ(result_type(DType::uint8(), DType::uint16(), DType::int32(), DType::boolean()),
            DType::int32());
}

TEST(DTypePromotion, RejectsStructsAndNothing) {
  const auto s = DType::make_struct({{"a", DType::int32()}});
  EXPECT_LOGIC_ERROR(result_type(s, DType::int32()), "struct dtype struct{a: int32 @0}");
  EXPECT_LOGIC_ERROR(result_type(DType::int32(), s), "takes no part in type promotion");
  EXPECT_LOGIC_ERROR(result_type(s), "takes no part in type promotion");
  EXPECT_LOGIC_ERROR(result_type(std::vector<DType>{}), "needs at least one dtype");
}

// grunnur's _promote_type: what min_scalar_type makes of numpy's answer.
DType promoted(const DType& dtype) {
  if (dtype.itemsize() >= 4 || dtype.kind() == DTypeKind::boolean) return dtype;
  if (dtype.kind() == DTypeKind::signed_integer) return DType::int32();
  if (dtype.kind() == DTypeKind::unsigned_integer) return DType::uint32();
  return DType::float32();
}

// numpy_min_scalar_type is numpy's np.min_scalar_type; min_scalar_type (grunnur's) is the
// same promoted to 32 bits, for every row of numpy's table.
TEST(DTypeMinScalarType, MatchesNumpy) {
  const auto rows = read_table("min_scalar_type_table.txt");
  ASSERT_FALSE(rows.empty());
  for (const auto& row : rows) {
    const auto& source = row.at(0);
    const auto expected = DType::from_name(row.back());
    const auto gpu = promoted(expected);
    const auto real = [&](std::size_t i) { return std::strtod(row.at(i).c_str(), nullptr); };
    std::string context = source + " " + row.at(1);
    const auto check = [&](auto value) {
      EXPECT_EQ(numpy_min_scalar_type(value), expected) << context;
      EXPECT_EQ(min_scalar_type(value), gpu) << context;
    };
    if (source == "bool") {
      check(row[1] == "1");
    } else if (source == "int64") {
      check(std::int64_t{std::strtoll(row[1].c_str(), nullptr, 10)});
    } else if (source == "uint64") {
      check(std::uint64_t{std::strtoull(row[1].c_str(), nullptr, 10)});
    } else if (source == "float64") {
      check(real(1));
    } else if (source == "float32") {
      check(static_cast<float>(real(1)));
    } else if (source == "complex128") {
      check(std::complex<double>(real(1), real(2)));
    } else if (source == "complex64") {
      check(std::complex<float>(static_cast<float>(real(1)), static_cast<float>(real(2))));
    } else {
      ADD_FAILURE() << "unknown source type " << source;
    }
  }
}

TEST(DTypeMinScalarType, NumpyFormTakesAnyCppArithmeticType) {
  EXPECT_EQ(numpy_min_scalar_type(true), DType::boolean());
  EXPECT_EQ(numpy_min_scalar_type(0), DType::uint8());
  EXPECT_EQ(numpy_min_scalar_type(300), DType::uint16());
  EXPECT_EQ(numpy_min_scalar_type(-300), DType::int16());
  EXPECT_EQ(numpy_min_scalar_type(static_cast<signed char>(-1)), DType::int8());
  EXPECT_EQ(numpy_min_scalar_type(static_cast<unsigned short>(65535)), DType::uint16());
  EXPECT_EQ(numpy_min_scalar_type(70000L), DType::uint32());
  EXPECT_EQ(numpy_min_scalar_type(-5000000000LL), DType::int64());
  EXPECT_EQ(numpy_min_scalar_type(~0ULL), DType::uint64());
  EXPECT_EQ(numpy_min_scalar_type(0.5f), DType::float16());
  EXPECT_EQ(numpy_min_scalar_type(1e30), DType::float32());
  EXPECT_EQ(numpy_min_scalar_type(std::complex<double>(1e300, 0)), DType::complex128());
}

// Before: min_scalar_type was numpy's, so 1 gave uint8, -1 int8 and 1.0 float16, types a
// kernel rarely wants (float16 has no C type at all); grunnur's gives the 32-bit ones.
TEST(DTypeMinScalarType, GivesGrunnursGpuTypes) {
  EXPECT_EQ(min_scalar_type(1), DType::uint32());
  EXPECT_EQ(min_scalar_type(-1), DType::int32());
  EXPECT_EQ(min_scalar_type(1.0), DType::float32());
  EXPECT_EQ(min_scalar_type(0.5f), DType::float32());
  EXPECT_EQ(min_scalar_type(static_cast<signed char>(-1)), DType::int32());
  EXPECT_EQ(min_scalar_type(70000L), DType::uint32());
  EXPECT_EQ(min_scalar_type(5000000000LL), DType::uint64());
  EXPECT_EQ(min_scalar_type(-5000000000LL), DType::int64());
  EXPECT_EQ(min_scalar_type(1e39), DType::float64());
  EXPECT_EQ(min_scalar_type(true), DType::boolean());
  EXPECT_EQ(min_scalar_type(std::complex<double>(1, 2)), DType::complex64());
  EXPECT_EQ(min_scalar_type(std::complex<double>(1e300, 0)), DType::complex128());
}

// grunnur's force_signed: a signed type even for a value >= 0, one that holds it.
TEST(DTypeMinScalarType, ForceSignedAsGrunnur) {
  EXPECT_EQ(min_scalar_type(1, true), DType::int32());
  EXPECT_EQ(min_scalar_type(1u, true), DType::int32());
  EXPECT_EQ(min_scalar_type(-1, true), DType::int32());
  EXPECT_EQ(min_scalar_type(2147483647u, true), DType::int32());
  EXPECT_EQ(min_scalar_type(2147483648u, true), DType::int64());
  EXPECT_EQ(min_scalar_type(std::uint64_t{9223372036854775807u}, true), DType::int64());
  EXPECT_EQ(min_scalar_type(true, true), DType::int32());
  EXPECT_EQ(min_scalar_type(1.0, true), DType::float32());
  EXPECT_LOGIC_ERROR(min_scalar_type(std::uint64_t{9223372036854775808u}, true),
                     "no signed integer dtype holds 9223372036854775808");
}

TEST(DTypePredicates, ClassifyEveryScalar) {
  for (const auto& dtype : all_scalars()) {
    const auto kind = dtype.kind();
    EXPECT_EQ(is_complex(dtype), kind == DTypeKind::complex) << dtype;
    EXPECT_EQ(is_real(dtype), kind == DTypeKind::floating) << dtype;
    EXPECT_EQ(is_integer(dtype),
              kind == DTypeKind::signed_integer || kind == DTypeKind::unsigned_integer)
        << dtype;
    EXPECT_EQ(is_double(dtype), dtype == DType::float64() || dtype == DType::complex128()) << dtype;
  }
  const auto s = DType::make_struct({{"a", DType::float64()}});
  EXPECT_FALSE(is_complex(s) || is_real(s) || is_integer(s) || is_double(s));
}

TEST(DTypePredicates, ComplexForAndRealFor) {
  EXPECT_EQ(complex_for(DType::float32()), DType::complex64());
  EXPECT_EQ(complex_for(DType::float64()), DType::complex128());
  EXPECT_EQ(real_for(DType::complex64()), DType::float32());
  EXPECT_EQ(real_for(DType::complex128()), DType::float64());
  EXPECT_LOGIC_ERROR(complex_for(DType::float16()), "float16 has no complex counterpart");
  EXPECT_LOGIC_ERROR(complex_for(DType::int32()), "int32 has no complex counterpart");
  EXPECT_LOGIC_ERROR(complex_for(DType::complex64()), "complex64 has no complex counterpart");
  EXPECT_LOGIC_ERROR(real_for(DType::float32()), "float32 is not complex64 or complex128");
  EXPECT_LOGIC_ERROR(real_for(DType::make_struct({{"a", DType::complex64()}})),
                     "is not complex64 or complex128");
}

}  // namespace
}  // namespace dtype_test
}  // namespace plinth
