// The dialect's vector loads and stores (docs/kernel-dialect.md, "Vector loads and stores"):
// vload2/vload4/vstore2/vstore4 of every type of the page, on global and local memory, at
// vector-aligned pointers and at pointers one element past them (which need only the
// element's alignment), against a plain copy on the host. One kernel per type moves a buffer
// through all four functions in both memories.

#include "dialect_support.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace plinth::conformance {
namespace dialect_vectors_test {
namespace {

using namespace dialect;

// Work item i of vectors_<T>(in, out, shift, n4) with p = in + shift, q = out + shift:
//   out2: q[0 .. 4 n4): vstore2(vload2(2i, p), 2i, q) and the same for 2i + 1 (global);
//   out4: q[4 n4 ..):   vstore4(vload4(i, p) with its lanes rotated, i, q + 4 n4) (global);
//   outl: q[8 n4 ..):   the same two through local memory at the same shift.
struct VectorType {
  const char* name;  // the dialect's scalar type
  const char* vec;   // its vector prefix: char -> char2, char4
  std::size_t size;
  bool is_float;
  bool needs_double;
};

const std::vector<VectorType> vector_types{
    {"char", "char", 1, false, false},   {"unsigned char", "uchar", 1, false, false},
    {"short", "short", 2, false, false}, {"unsigned short", "ushort", 2, false, false},
    {"int", "int", 4, false, false},     {"unsigned int", "uint", 4, false, false},
    {"long", "long", 8, false, false},   {"unsigned long", "ulong", 8, false, false},
    {"float", "float", 4, true, false},  {"double", "double", 8, true, true},
};

std::string vectors_kernel(const VectorType& t) {
  std::string text = R"(
KERNEL void vectors_$V(GLOBAL_MEM const $T *in, GLOBAL_MEM $T *out, unsigned int shift,
                       unsigned int n4)
{
    LOCAL_MEM $T scratch[4 * 64 + 4];
    const unsigned int i = get_global_id(0), l = get_local_id(0), g = get_group_id(0);
    const GLOBAL_MEM $T *p = in + shift;
    GLOBAL_MEM $T *q = out + shift;
    const $V2 a = vload2(2 * i, p);
    const $V2 b = vload2(2 * i + 1, p);
    vstore2(a, 2 * i, q);
    vstore2(b, 2 * i + 1, q);
    const $V4 c = vload4(i, p);
    $V4 rotated;
    rotated.x = c.y;
    rotated.y = c.z;
    rotated.z = c.w;
    rotated.w = c.x;
    vstore4(rotated, i, q + 4 * n4);
    // Local memory: the group's elements at the same shift, through vstore4 and vload2, then
    // vstore2 and vload4 (a pointer to local memory is LOCAL_MEM_ARG: LOCAL_MEM declares
    // variables, and is __shared__ on CUDA).
    LOCAL_MEM_ARG $T *s = scratch + shift;
    vstore4(c, l, s);
    LOCAL_BARRIER;
    const $V2 d = vload2(2 * l + 1, s);
    const $V2 e = vload2(2 * l, s);
    LOCAL_BARRIER;
    vstore2(d, 2 * l, s);
    vstore2(e, 2 * l + 1, s);
    LOCAL_BARRIER;
    vstore4(vload4(l, s), i, q + 8 * n4);
}
)";
  std::string out;
  for (std::size_t k = 0; k < text.size(); ++k) {
    if (text[k] == '$' && text[k + 1] == 'T') {
      out += t.name;
      ++k;
    } else if (text[k] == '$' && text[k + 1] == 'V') {
      out += t.vec;
      ++k;
    } else {
      out += text[k];
    }
  }
  return out;
}

std::string vectors_source(const BoundDevice& device) {
  std::string source;
  for (const auto& t : vector_types)
    if (!t.needs_double || device.params().supports_double) source += vectors_kernel(t);
  return source;
}

class DialectVectorsTest : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    PLINTH_SKIP_WITHOUT_DIALECT();
    program_.emplace(context(), vectors_source(device()));
  }
  const Program& program() const { return *program_; }

 private:
  std::optional<Program> program_;
};

// Runs vectors_<t> at `shift` over bytes and compares each element with the host's answer.
void check_vectors(const Queue& queue, const Program& program, const VectorType& t, unsigned shift,
                   std::size_t local) {
  SCOPED_TRACE(std::string(t.name) + (shift ? ", one element past alignment" : ", aligned"));
  const std::size_t groups = 3;
  const std::size_t n4 = groups * local;  // vector4s per part
  const std::size_t elements = 12 * n4 + 4;
  // Element k: distinct bytes (for floats: small integers, exact and never NaN).
  std::vector<std::byte> in(elements * t.size);
  for (std::size_t k = 0; k < elements; ++k) {
    if (t.is_float) {
      const double value = static_cast<double>(k % 1000) - 300.5;
      if (t.size == 4) {
        const auto f = static_cast<float>(value);
        std::memcpy(in.data() + k * 4, &f, 4);
      } else {
        std::memcpy(in.data() + k * 8, &value, 8);
      }
    } else {
      for (std::size_t b = 0; b < t.size; ++b)
        in[k * t.size + b] = static_cast<std::byte>((k * 7 + b * 61 + 1) % 251);
    }
  }
  const auto in_buffer = upload(queue, in);
  auto out_buffer = upload(queue, std::vector<std::byte>(in.size()));
  program.kernel(std::string("vectors_") + t.vec)(queue, {n4}, {local}, in_buffer, out_buffer,
                                                  shift, static_cast<unsigned>(n4));
  const auto out = download<std::byte>(queue, out_buffer);
  auto element = [&](const std::vector<std::byte>& v, std::size_t k) {
    return std::vector<std::byte>(v.begin() + static_cast<std::ptrdiff_t>(k * t.size),
                                  v.begin() + static_cast<std::ptrdiff_t>((k + 1) * t.size));
  };
  for (std::size_t k = 0; k < 4 * n4; ++k) {
    // vload2/vstore2 copy; vload4 + rotation + vstore4; local memory copies.
    const std::size_t at = shift + k;
    ASSERT_EQ(element(out, at), element(in, at)) << "vload2/vstore2, element " << k;
    const std::size_t rotated_from = shift + (k / 4) * 4 + (k % 4 + 1) % 4;
    ASSERT_EQ(element(out, shift + 4 * n4 + k), element(in, rotated_from))
        << "vload4/vstore4, element " << k;
    // Within a group's 4 * local elements: pairs swapped by the local round trip.
    const std::size_t pair = k / 2, swapped = (pair ^ 1) * 2 + k % 2;
    ASSERT_EQ(element(out, shift + 8 * n4 + k), element(in, shift + swapped))
        << "local memory, element " << k;
  }
  // Nothing outside the stores was written.
  for (std::size_t k = 0; k < shift; ++k)
    ASSERT_EQ(element(out, k), std::vector<std::byte>(t.size)) << "element " << k << " written";
}

TEST_P(DialectVectorsTest, LoadAndStoreEveryTypeAtAlignedAndUnalignedOffsets) {
  const std::size_t local = std::min<std::size_t>(64, device().params().max_total_local_size);
  for (const auto& t : vector_types) {
    if (t.needs_double && !device().params().supports_double) continue;
    for (const unsigned shift : {0u, 1u}) {
      check_vectors(queue(), program(), t, shift, local);
      if (HasFatalFailure()) return;
    }
  }
  if (!device().params().supports_double)
    GTEST_SKIP() << "every type but double checked: " << device().name() << " has no doubles";
}

PLINTH_INSTANTIATE_DEVICE_TEST(DialectVectorsTest);

}  // namespace
}  // namespace dialect_vectors_test
}  // namespace plinth::conformance
