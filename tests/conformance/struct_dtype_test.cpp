// Struct DTypes in kernels: a struct with nested struct, array and explicitly placed fields,
// declared with ctype_struct, has the DType's size, alignment and offsets on the device; a
// kernel reads every field, changes it and writes it back; c_constant initialises it.

#include "fixture.hpp"

#include <plinth/dtype_c.hpp>

#include <fmt/format.h>

#include <complex>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace plinth::conformance {
namespace struct_dtype_test {
namespace {

// Nested structs, arrays of scalars and of structs, an explicit offset that needs ALIGN, and
// a nested struct with a raised itemsize (trailing padding).
DType single_precision_struct() {
  const auto inner = DType::make_struct(
      {{"a", DType::int16()}, {"b", DType::complex64()}, {"c", DType::uint8(), {3}}});
  const auto tail = DType::make_struct({{"v", DType::float32()}, {"u", DType::uint16()}},
                                       StructLayout{.itemsize = 16});
  return DType::make_struct(
      {
          {"id", DType::int8()},
          {"inner", inner},
          {"w", DType::float32(), {2, 3}},
          {"arr", inner, {2}},
          {"big", DType::uint64()},
          {"late", DType::int32(), {}, 128},
          {"tail", tail},
      },
      StructLayout{.alignment = 32});
}

DType double_precision_struct() {
  const auto inner = DType::make_struct({{"d", DType::float64()}, {"z", DType::complex128()}});
  return DType::make_struct({{"x", DType::float32()},
                             {"in", inner, {2}},
                             {"e", DType::int64()},
                             {"f", DType::float64(), {2}, 96}});
}

// One scalar part of the struct, with the change the kernel makes to it (the host makes the
// same change, exactly: ×2 is exact, so even a fused multiply-add rounds the same).
struct Part {
  FlatField field;
  std::string statement;  // C
};

std::vector<Part> parts(const DType& dtype) {
  std::vector<Part> result;
  for (auto& field : flatten_dtype(dtype)) {
    const auto path = "s." + c_path(field.path);
    const auto type = ctype(field.dtype).as_string();
    std::string statement;
    if (is_integer(field.dtype)) {
      statement = fmt::format("{0} = ({1})({0} + 1);", path, type);
    } else if (is_complex(field.dtype)) {
      statement = fmt::format("{0}.x = {0}.x * 2 + 1; {0}.y = {0}.y - 1;", path);
    } else {
      statement = fmt::format("{0} = {0} * 2 + 1;", path);
    }
    result.push_back(Part{std::move(field), std::move(statement)});
  }
  return result;
}

template <class T>
void change(std::byte* p, bool is_complex_part) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  if constexpr (std::is_integral_v<T>) {
    value = static_cast<T>(value + 1);
  } else {
    value = is_complex_part ? static_cast<T>(value - 1) : static_cast<T>(value * 2 + 1);
  }
  std::memcpy(p, &value, sizeof(T));
}

// The host's version of a Part's statement, on the element at `p`.
void apply(const FlatField& field, std::byte* element) {
  auto* p = element + field.offset;
  const auto& t = field.dtype;
  const auto size = t.itemsize();
  switch (t.kind()) {
    case DTypeKind::signed_integer:
      if (size == 1) change<std::int8_t>(p, false);
      if (size == 2) change<std::int16_t>(p, false);
      if (size == 4) change<std::int32_t>(p, false);
      if (size == 8) change<std::int64_t>(p, false);
      break;
    case DTypeKind::unsigned_integer:
      if (size == 1) change<std::uint8_t>(p, false);
      if (size == 2) change<std::uint16_t>(p, false);
      if (size == 4) change<std::uint32_t>(p, false);
      if (size == 8) change<std::uint64_t>(p, false);
      break;
    case DTypeKind::floating:
      if (size == 4) change<float>(p, false);
      if (size == 8) change<double>(p, false);
      break;
    case DTypeKind::complex:
      if (size == 8) {
        change<float>(p, false);
        change<float>(p + 4, true);
      } else {
        change<double>(p, false);
        change<double>(p + 8, true);
      }
      break;
    default: FAIL() << "unexpected field type " << t.name();
  }
}

// Random values for every field: small integers, floats with few significant bits.
void fill(const DType& dtype, std::byte* element, std::mt19937& rng) {
  std::uniform_int_distribution<int> small(-60, 60);
  for (const auto& field : flatten_dtype(dtype)) {
    auto* p = element + field.offset;
    const auto size = field.dtype.itemsize();
    switch (field.dtype.kind()) {
      case DTypeKind::signed_integer:
      case DTypeKind::unsigned_integer: {
        const auto bits = static_cast<std::uint64_t>(small(rng) + 60);
        std::memcpy(p, &bits, size);  // little-endian: the low bytes
        break;
      }
      case DTypeKind::floating:
      case DTypeKind::complex: {
        const auto part = is_complex(field.dtype) ? size / 2 : size;
        for (std::size_t off = 0; off < size; off += part) {
          const double value = small(rng) / 8.0;
          const float single = static_cast<float>(value);
          std::memcpy(p + off, part == 4 ? static_cast<const void*>(&single) : &value, part);
        }
        break;
      }
      default: break;
    }
  }
}

using StructTest = DeviceTest;

void round_trip(const Context& context, const Queue& queue, const DType& dtype) {
  const auto all = parts(dtype);
  std::string body, layout;
  for (std::size_t k = 0; k < all.size(); ++k) {
    body += "    " + all[k].statement + "\n";
    // NVRTC has no __builtin_offsetof: the distance from the element's start instead.
    layout += fmt::format(
        "        layout[{}] = (unsigned long)((GLOBAL_MEM char*)&out[0].{} - (GLOBAL_MEM "
        "char*)out);\n",
        k + 2, c_path(all[k].field.path));
  }
  std::vector<std::byte> initial(dtype.itemsize());
  std::mt19937 rng(7);
  fill(dtype, initial.data(), rng);
  const std::string source = fmt::format(R"(
KERNEL void round_trip(GLOBAL_MEM ${{S}} *out, GLOBAL_MEM const ${{S}} *in,
                       GLOBAL_MEM unsigned long *layout, GLOBAL_MEM ${{S}} *initialised)
{{
    const SIZE_T i = get_global_id(0);
    ${{S}} s = in[i];
{}    out[i] = s;
    if (i == 0)
    {{
        layout[0] = (unsigned long)sizeof(${{S}});
        layout[1] = (unsigned long)__alignof__(${{S}});
{}        const ${{S}} init = ${{init}};
        initialised[0] = init;
    }}
}}
)",
                                         body, layout);
  ProgramOptions options;
  options.render_globals = {{"S", ctype(dtype)}, {"init", c_constant(initial, dtype)}};
  const Program program(context, source, options);

  constexpr std::size_t n = 64;
  const auto itemsize = dtype.itemsize();
  std::vector<std::byte> host(n * itemsize);
  for (std::size_t i = 0; i < n; ++i) fill(dtype, host.data() + i * itemsize, rng);
  const auto& device = queue.device();
  auto in = Buffer::allocate(device, host.size());
  auto out = Buffer::allocate(device, host.size());
  auto layout_buffer = Buffer::allocate(device, (all.size() + 2) * sizeof(std::uint64_t));
  auto constant = Buffer::allocate(device, itemsize);
  in.set(queue, host);
  program.kernel("round_trip")(queue, {n}, {}, out, in, layout_buffer, constant);
  std::vector<std::byte> result(host.size()), constant_result(itemsize);
  std::vector<std::uint64_t> layout_result(all.size() + 2);
  out.get(queue, result);
  constant.get(queue, constant_result);
  layout_buffer.get(queue, std::as_writable_bytes(std::span(layout_result)));

  EXPECT_EQ(layout_result[0], itemsize) << "sizeof";
  EXPECT_EQ(layout_result[1], dtype.alignment()) << "alignment";
  for (std::size_t k = 0; k < all.size(); ++k)
    EXPECT_EQ(layout_result[k + 2], all[k].field.offset) << c_path(all[k].field.path);

  for (std::size_t i = 0; i < n; ++i) {
    auto* element = host.data() + i * itemsize;
    for (const auto& part : all) apply(part.field, element);
    for (const auto& part : all) {
      const auto offset = i * itemsize + part.field.offset;
      EXPECT_EQ(
          std::memcmp(result.data() + offset, host.data() + offset, part.field.dtype.itemsize()), 0)
          << "element " << i << ", " << c_path(part.field.path);
    }
  }
  for (const auto& part : all)
    EXPECT_EQ(std::memcmp(constant_result.data() + part.field.offset,
                          initial.data() + part.field.offset, part.field.dtype.itemsize()),
              0)
        << "c_constant, " << c_path(part.field.path);
}

TEST_P(StructTest, RoundTripsEveryField) {
  round_trip(context(), queue(), single_precision_struct());
}

TEST_P(StructTest, RoundTripsDoublePrecisionFields) {
  if (!device().params().supports_double)
    GTEST_SKIP() << device().name() << " has no double precision";
  round_trip(context(), queue(), double_precision_struct());
}

PLINTH_INSTANTIATE_DEVICE_TEST(StructTest);

}  // namespace
}  // namespace struct_dtype_test
}  // namespace plinth::conformance
