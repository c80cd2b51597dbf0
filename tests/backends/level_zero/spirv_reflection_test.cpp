// Reading kernels and their parameters from SPIR-V (spirv_reflection.cpp): from modules that
// compile_to_spirv made of OpenCL C, from hand-made ones, in either byte order, and refusing
// malformed modules with a LogicError (never a crash: this runs under ASan and UBSan).

#include "spirv_reflection.hpp"
#include "compiler_available.hpp"
#include "prelude.hpp"
#include "spirv_compiler.hpp"

#include <plinth/errors.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <string>
#include <vector>

namespace plinth::level_zero {
namespace spirv_reflection_test {
namespace {

using backend::ParamKind;

std::vector<std::byte> compile(const std::string& source) {
  return compile_to_spirv(level_zero::prelude(false) + '\n' + source, {}).binary;
}

void expect_param(const backend::ParamInfo& param, ParamKind kind, std::size_t size,
                  const std::string& name, const std::string& type_name) {
  EXPECT_EQ(param.kind, kind) << name;
  EXPECT_EQ(param.size, size) << name;
  EXPECT_EQ(param.name, name);
  EXPECT_EQ(param.type_name, type_name) << name;
}

// C layout (members aligned to their size, a vector of 3 taking 4): 0 count, 8 offset, 16 c,
// 32 v (float3: 16 bytes, aligned to 16), 48 in all. The typedef fails to compile unless clang
// agrees.
constexpr const char* struct_source = R"(
typedef struct { int count; double offset; char c; float3 v; } settings;
typedef char settings_is_48_bytes[sizeof(settings) == 48 ? 1 : -1];
typedef struct { char a; short b; } small;  // 4 bytes
typedef struct { small s[3]; char tail; } nested;  // 14 bytes: aligned to 2
typedef char nested_is_14_bytes[sizeof(nested) == 14 ? 1 : -1];
)";

TEST(LevelZeroSpirvReflection, ReadsEveryKindOfParameterWithSizesAndNames) {
  PLINTH_NEED_COMPILER();
  const auto module = compile(std::string(struct_source) + R"(
KERNEL void every(GLOBAL_MEM float *out, CONSTANT_MEM const int *in, LOCAL_MEM float2 *tile,
                  char c, uchar uc, short s, int i, uint u, long l, ulong ul, float f, double d,
                  float2 v2, float3 v3, int4 v4, double8 v8, char16 v16, settings st, small sm,
                  nested ne, ulong n, LOCAL_MEM_DYNAMIC float *scratch)
{
    out[0] = in[0] + tile[0].x + c + uc + s + i + u + l + ul + f + d + v2.x + v3.z + v4.w +
             v8.s7 + v16.sf + st.count + st.offset + st.c + st.v.y + sm.b + ne.s[2].a + n +
             scratch[0];
}
)");
  const auto kernels = reflect_kernels(module);
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0].name, "every");
  const auto& p = kernels[0].parameters;
  ASSERT_EQ(p.size(), 22u);
  expect_param(p[0], ParamKind::global_ptr, 8, "out", "float*");
  expect_param(p[1], ParamKind::constant_ptr, 8, "in", "int*");
  expect_param(p[2], ParamKind::local_ptr, 0, "tile", "float2*");
  expect_param(p[3], ParamKind::scalar, 1, "c", "char");
  expect_param(p[4], ParamKind::scalar, 1, "uc", "uchar");
  expect_param(p[5], ParamKind::scalar, 2, "s", "short");
  expect_param(p[6], ParamKind::scalar, 4, "i", "int");
  expect_param(p[7], ParamKind::scalar, 4, "u", "uint");
  expect_param(p[8], ParamKind::scalar, 8, "l", "long");
  expect_param(p[9], ParamKind::scalar, 8, "ul", "ulong");
  expect_param(p[10], ParamKind::scalar, 4, "f", "float");
  expect_param(p[11], ParamKind::scalar, 8, "d", "double");
  expect_param(p[12], ParamKind::scalar, 8, "v2", "float2");
  expect_param(p[13], ParamKind::scalar, 16, "v3", "float3");
  expect_param(p[14], ParamKind::scalar, 16, "v4", "int4");
  expect_param(p[15], ParamKind::scalar, 64, "v8", "double8");
  expect_param(p[16], ParamKind::scalar, 16, "v16", "char16");
  expect_param(p[17], ParamKind::scalar, 48, "st", "settings");
  expect_param(p[18], ParamKind::scalar, 4, "sm", "small");
  expect_param(p[19], ParamKind::scalar, 14, "ne", "nested");
  expect_param(p[20], ParamKind::scalar, 8, "n", "ulong");
  expect_param(p[21], ParamKind::local_ptr, 0, "scratch", "float*");
}

TEST(LevelZeroSpirvReflection, ReadsImagesAndSamplers) {
  PLINTH_NEED_COMPILER();
  // The dialect's image parameters (OpenCL C's image types), each read or written once.
  const auto module = compile(R"(
KERNEL void images(READ_IMAGE1D a, READ_IMAGE2D b, WRITE_IMAGE3D c, READ_IMAGE1D_ARRAY d,
                   WRITE_IMAGE2D_ARRAY e, SAMPLER s, GLOBAL_MEM float4 *out, int n)
{
    out[0] = read_imagef(a, s, 0.5f) + read_imagef(b, s, make_float2(0.5f, 0.5f)) +
             read_imagef(d, make_int2(0, 1));
    write_imagef(c, make_int4(0, 0, 0, 0), out[1]);
    write_imagef(e, make_int4(0, 0, n, 0), out[2]);
}
)");
  const auto kernels = reflect_kernels(module);
  ASSERT_EQ(kernels.size(), 1u);
  const auto& p = kernels[0].parameters;
  ASSERT_EQ(p.size(), 8u);
  expect_param(p[0], ParamKind::image, sizeof(void*), "a", "image1d_t");
  expect_param(p[1], ParamKind::image, sizeof(void*), "b", "image2d_t");
  expect_param(p[2], ParamKind::image, sizeof(void*), "c", "image3d_t");
  expect_param(p[3], ParamKind::image, sizeof(void*), "d", "image1d_array_t");
  expect_param(p[4], ParamKind::image, sizeof(void*), "e", "image2d_array_t");
  expect_param(p[5], ParamKind::sampler, sizeof(void*), "s", "sampler_t");
  expect_param(p[6], ParamKind::global_ptr, 8, "out", "float4*");
  expect_param(p[7], ParamKind::scalar, 4, "n", "int");
}

TEST(LevelZeroSpirvReflection, ReadsEveryKernelOfAModule) {
  PLINTH_NEED_COMPILER();
  const auto module = compile(R"(
FUNCTION int helper(GLOBAL_MEM int *p) { return p[0]; }  // not a kernel
KERNEL void first(GLOBAL_MEM int *a) { a[0] = helper(a); }
KERNEL void second(int value, GLOBAL_MEM int *b, LOCAL_MEM_DYNAMIC int *scratch)
{
    scratch[0] = value;
    b[0] = scratch[0];
}
KERNEL void third() {}
)");
  const auto kernels = reflect_kernels(module);
  ASSERT_EQ(kernels.size(), 3u);
  EXPECT_EQ(kernels[0].name, "first");
  ASSERT_EQ(kernels[0].parameters.size(), 1u);
  expect_param(kernels[0].parameters[0], ParamKind::global_ptr, 8, "a", "int*");
  EXPECT_EQ(kernels[1].name, "second");
  ASSERT_EQ(kernels[1].parameters.size(), 3u);
  expect_param(kernels[1].parameters[0], ParamKind::scalar, 4, "value", "int");
  expect_param(kernels[1].parameters[1], ParamKind::global_ptr, 8, "b", "int*");
  expect_param(kernels[1].parameters[2], ParamKind::local_ptr, 0, "scratch", "int*");
  EXPECT_EQ(kernels[2].name, "third");
  EXPECT_TRUE(kernels[2].parameters.empty());
}

TEST(LevelZeroSpirvReflection, ReadsBothByteOrders) {
  PLINTH_NEED_COMPILER();
  auto module = compile(std::string(struct_source) +
                        "KERNEL void k(GLOBAL_MEM float *o, settings s) { o[0] = s.v.x; }\n");
  const auto little = reflect_kernels(module);
  for (std::size_t i = 0; i + 3 < module.size(); i += 4) {
    std::swap(module[i], module[i + 3]);
    std::swap(module[i + 1], module[i + 2]);
  }
  const auto big = reflect_kernels(module);
  ASSERT_EQ(big.size(), 1u);
  ASSERT_EQ(big[0].parameters.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(big[0].parameters[i].kind, little[0].parameters[i].kind);
    EXPECT_EQ(big[0].parameters[i].size, little[0].parameters[i].size);
    EXPECT_EQ(big[0].parameters[i].name, little[0].parameters[i].name);
  }
  EXPECT_EQ(big[0].parameters[1].size, 48u);
}

// Builds modules word by word.
class Assembler {
 public:
  explicit Assembler(std::uint32_t bound) : words_{0x07230203, 0x00010000, 0, bound, 0} {}
  Assembler& op(std::uint32_t opcode, std::initializer_list<std::uint32_t> operands,
                const std::string& text = {}, std::initializer_list<std::uint32_t> after = {}) {
    std::vector<std::uint32_t> body(operands);
    if (!text.empty() || opcode == 5 || opcode == 15) {
      std::vector<std::uint32_t> packed((text.size() + 4) / 4, 0);
      // Little-endian words, as SPIR-V packs strings (byte by byte: GCC's -O3 misreads a
      // memcpy of text.size() bytes here as possibly overflowing).
      for (std::size_t i = 0; i < text.size(); ++i) {
        packed[i / 4] |= std::uint32_t{static_cast<unsigned char>(text[i])} << (8 * (i % 4));
      }
      body.insert(body.end(), packed.begin(), packed.end());
    }
    body.insert(body.end(), after);
    words_.push_back(static_cast<std::uint32_t>((body.size() + 1) << 16 | opcode));
    words_.insert(words_.end(), body.begin(), body.end());
    return *this;
  }
  Assembler& raw(std::uint32_t word) {
    words_.push_back(word);
    return *this;
  }
  std::vector<std::byte> bytes() const {
    std::vector<std::byte> result(words_.size() * 4);
    std::memcpy(result.data(), words_.data(), result.size());
    return result;
  }

 private:
  std::vector<std::uint32_t> words_;
};

// A kernel "k" as llvm-spirv 15 makes it: entry point %10 is a wrapper, with unnamed
// parameters, that calls the body %20 with them; the body's parameters are named.
//   %1 int32, %2 void, %3 ptr CrossWorkgroup int, %4 fn(void; %3, %1), %5 struct{int,int},
//   %6 ptr Function %5 (ByVal on %12), %7 fn(void; %3, %1, %6)
Assembler wrapped_kernel() {
  Assembler a(40);
  a.op(17, {6})                         // OpCapability Kernel (not read)
      .op(14, {2, 2})                   // OpMemoryModel Physical64 OpenCL
      .op(15, {6, 10}, "k")             // OpEntryPoint Kernel %10 "k"
      .op(5, {21}, "out")               // OpName %21 "out"
      .op(5, {22}, "count")             // OpName %22 "count"
      .op(5, {23}, "pair")              // OpName %23 "pair"
      .op(71, {13, 38, 2})              // OpDecorate %13 FuncParamAttr ByVal
      .op(21, {1, 32, 0})               // %1 = OpTypeInt 32 0
      .op(19, {2})                      // %2 = OpTypeVoid
      .op(32, {3, 5, 1})                // %3 = OpTypePointer CrossWorkgroup %1
      .op(30, {5, 1, 1})                // %5 = OpTypeStruct %1 %1
      .op(32, {6, 7, 5})                // %6 = OpTypePointer Function %5
      .op(33, {7, 2, 3, 1, 6})          // %7 = OpTypeFunction %2 %3 %1 %6
      .op(54, {2, 20, 0, 7})            // %20 = OpFunction %2 None %7
      .op(55, {3, 21})                  // %21 = OpFunctionParameter %3
      .op(55, {1, 22})                  // %22 = OpFunctionParameter %1
      .op(55, {6, 23})                  // %23 = OpFunctionParameter %6
      .op(56, {})                       // OpFunctionEnd
      .op(54, {2, 10, 0, 7})            // %10 = OpFunction %2 None %7
      .op(55, {3, 11})                  // %11 = OpFunctionParameter %3
      .op(55, {1, 12})                  // %12 = OpFunctionParameter %1
      .op(55, {6, 13})                  // %13 = OpFunctionParameter %6
      .op(248, {30})                    // OpLabel %30
      .op(57, {2, 31, 20, 11, 12, 13})  // OpFunctionCall %2 %31 %20 %11 %12 %13
      .op(253, {})                      // OpReturn
      .op(56, {});                      // OpFunctionEnd
  return a;
}

TEST(LevelZeroSpirvReflection, TakesNamesFromTheFunctionTheWrapperCalls) {
  const auto kernels = reflect_kernels(wrapped_kernel().bytes());
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0].name, "k");
  const auto& p = kernels[0].parameters;
  ASSERT_EQ(p.size(), 3u);
  expect_param(p[0], ParamKind::global_ptr, 8, "out", "__global uint32*");
  expect_param(p[1], ParamKind::scalar, 4, "count", "uint32");
  expect_param(p[2], ParamKind::scalar, 8, "pair", "struct");
}

// A kernel "k" whose parameters are images of every Dim, Depth, Arrayed and MS that names
// a type, and a sampler, without the kernel_arg_type string: the names come from the types.
TEST(LevelZeroSpirvReflection, NamesImageTypesFromDimAndArrayed) {
  // Dim 0 1D, 1 2D, 2 3D, 5 Buffer, 3 Cube; Depth; Arrayed; MS.
  const std::vector<std::array<std::uint32_t, 4>> images{{0, 0, 0, 0}, {1, 0, 0, 0}, {2, 0, 0, 0},
                                                         {0, 0, 1, 0}, {1, 0, 1, 0}, {5, 0, 0, 0},
                                                         {1, 1, 0, 0}, {1, 1, 1, 1}, {3, 0, 0, 0}};
  Assembler a(60);
  a.op(14, {2, 2}).op(15, {6, 40}, "k").op(19, {1});  // %1 = OpTypeVoid
  std::vector<std::uint32_t> function_type{2, 1};     // %2 = OpTypeFunction %1 ...
  for (std::uint32_t i = 0; i < images.size(); ++i) {
    const auto& [dim, depth, arrayed, ms] = images[i];
    a.op(25, {10 + i, 1, dim, depth, arrayed, ms, 0, 0, 0});  // %(10+i) = OpTypeImage, ReadOnly
    function_type.push_back(10 + i);
  }
  a.op(26, {9});  // %9 = OpTypeSampler
  function_type.push_back(9);
  a.raw(static_cast<std::uint32_t>((function_type.size() + 1) << 16 | 33));
  for (const auto word : function_type) a.raw(word);
  a.op(54, {1, 40, 0, 2});  // %40 = OpFunction %1 None %2
  for (std::uint32_t i = 0; i + 2 < function_type.size(); ++i)
    a.op(55, {function_type[i + 2], 41 + i});  // OpFunctionParameter
  a.op(56, {});
  const auto kernels = reflect_kernels(a.bytes());
  ASSERT_EQ(kernels.size(), 1u);
  const auto& p = kernels[0].parameters;
  const char* const names[] = {"image1d_t",
                               "image2d_t",
                               "image3d_t",
                               "image1d_array_t",
                               "image2d_array_t",
                               "image1d_buffer_t",
                               "image2d_depth_t",
                               "image2d_array_msaa_depth_t",
                               "image"};
  ASSERT_EQ(p.size(), std::size(names) + 1);
  for (std::size_t i = 0; i < std::size(names); ++i) {
    EXPECT_EQ(p[i].kind, ParamKind::image) << i;
    EXPECT_EQ(p[i].size, sizeof(void*)) << i;
    EXPECT_EQ(p[i].type_name, names[i]) << i;
  }
  EXPECT_EQ(p.back().kind, ParamKind::sampler);
  EXPECT_EQ(p.back().size, sizeof(void*));
  EXPECT_EQ(p.back().type_name, "sampler_t");
}

TEST(LevelZeroSpirvReflection, ImagesAreNoValuesInsideStructsOrArrays) {
  // %1 void, %2 OpTypeImage 2D, %3 struct { %2 }, %4 = 4, %5 array of 4 %2: neither sized.
  Assembler a(30);
  a.op(14, {2, 2})
      .op(15, {6, 20}, "k")
      .op(19, {1})
      .op(25, {2, 1, 1, 0, 0, 0, 0, 0, 0})
      .op(30, {3, 2})
      .op(21, {6, 32, 0})
      .op(43, {6, 4, 4})  // %4 = OpConstant %6 4
      .op(28, {5, 2, 4})
      .op(33, {7, 1, 3, 5})
      .op(54, {1, 20, 0, 7})
      .op(55, {3, 21})
      .op(55, {5, 22})
      .op(56, {});
  const auto kernels = reflect_kernels(a.bytes());
  ASSERT_EQ(kernels.size(), 1u);
  ASSERT_EQ(kernels[0].parameters.size(), 2u);
  EXPECT_EQ(kernels[0].parameters[0].kind, ParamKind::unknown);
  EXPECT_EQ(kernels[0].parameters[0].size, 0u);
  EXPECT_EQ(kernels[0].parameters[1].kind, ParamKind::unknown);
  EXPECT_EQ(kernels[0].parameters[1].size, 0u);
}

TEST(LevelZeroSpirvReflection, AModuleWithoutKernelsHasNone) {
  EXPECT_TRUE(reflect_kernels(Assembler(10).op(14, {2, 2}).bytes()).empty());
  // A GLCompute entry point is not a kernel.
  EXPECT_TRUE(reflect_kernels(Assembler(10)
                                  .op(19, {2})
                                  .op(33, {3, 2})
                                  .op(15, {5, 4}, "shader")
                                  .op(54, {2, 4, 0, 3})
                                  .op(56, {})
                                  .bytes())
                  .empty());
}

void expect_malformed(const std::vector<std::byte>& module, const std::string& words) {
  try {
    const auto kernels = reflect_kernels(module);
    ADD_FAILURE() << "accepted, " << kernels.size() << " kernels; expected: " << words;
  } catch (const LogicError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("SPIR-V module: ", 0), 0u) << what;
    EXPECT_NE(what.find(words), std::string::npos) << what;
  }
}

TEST(LevelZeroSpirvReflection, RefusesMalformedModules) {
  expect_malformed({}, "fewer than a header's 20");
  expect_malformed(std::vector<std::byte>(3), "not a whole number of 32-bit words");
  expect_malformed(std::vector<std::byte>(16), "fewer than a header's 20");
  auto bad_magic = Assembler(10).bytes();
  bad_magic[0] = std::byte{0x04};
  expect_malformed(bad_magic, "bad magic number 0x07230204");
  expect_malformed(Assembler(0).bytes(), "id bound is 0");
  auto bad_version = Assembler(10).bytes();
  bad_version[6] = std::byte{0x02};  // 0x00020000: SPIR-V 2.0
  expect_malformed(bad_version, "version word 0x00020000 is no SPIR-V version 1.0 to 1.6");
  bad_version[6] = std::byte{0x01};
  bad_version[5] = std::byte{0x07};  // 1.7
  expect_malformed(bad_version, "version word 0x00010700");
  auto schema = Assembler(10).bytes();
  schema[16] = std::byte{0x01};
  expect_malformed(schema, "reserved schema word is not 0");
  expect_malformed(Assembler(10).raw(0).bytes(), "word count of 0");
  expect_malformed(Assembler(10).raw(0x00020000 | 0).raw(0).raw(0).bytes(), "word count of 0");
  expect_malformed(Assembler(10).raw(0x00050005).raw(1).bytes(), "past the end of the module");
  expect_malformed(Assembler(10).op(5, {10}, "x").bytes(), "id 10 in the instruction at word 5");
  expect_malformed(Assembler(10).op(5, {0}, "x").bytes(), "id 0 ");
  expect_malformed(Assembler(10).op(21, {1, 32}).bytes(), "OpTypeInt at word 5 has 3 words");
  expect_malformed(Assembler(10).op(25, {1, 2, 1, 0, 0, 0, 0}).bytes(),
                   "OpTypeImage at word 5 has 8 words, fewer than its 9");
  expect_malformed(Assembler(10).op(26, {}).bytes(), "OpTypeSampler at word 5 has 1 words");
  expect_malformed(Assembler(10).op(5, {1}).raw(0x00030005).raw(1).raw(0x41414141).bytes(),
                   "no terminating NUL");
  expect_malformed(Assembler(10).op(23, {2, 1, 4}).bytes(), "uses %1, which is not a type");
  expect_malformed(Assembler(10).op(21, {1, 32, 0}).op(21, {1, 32, 0}).bytes(),
                   "type %1 is defined twice");
  expect_malformed(Assembler(10).op(21, {1, 32, 0}).op(28, {2, 1, 3}).bytes(),
                   "%3, which is not a constant");
  expect_malformed(Assembler(10).op(15, {6, 4}, "k").bytes(), "which is no function");
  expect_malformed(Assembler(10).op(19, {2}).op(33, {3, 2}).op(54, {2, 4, 0, 3}).bytes(),
                   "function %4 has no OpFunctionEnd");
  expect_malformed(Assembler(10).op(56, {}).bytes(), "OpFunctionEnd at word 5 is outside");
  expect_malformed(Assembler(10).op(55, {1, 2}).bytes(), "outside any function");
  expect_malformed(
      Assembler(10).op(19, {2}).op(33, {3, 2}).op(54, {2, 4, 0, 3}).op(54, {2, 5, 0, 3}).bytes(),
      "is inside function %4");
  expect_malformed(Assembler(10)
                       .op(15, {6, 4}, "k")
                       .op(19, {2})
                       .op(33, {3, 2})
                       .op(54, {2, 4, 0, 3})
                       .op(55, {9, 5})
                       .op(56, {})
                       .bytes(),
                   "parameter 0 of kernel 'k' has type %9, which is not a type");
}

TEST(LevelZeroSpirvReflection, EveryTruncationIsRefusedOrReadNeverACrash) {
  const auto whole = wrapped_kernel().bytes();
  for (std::size_t size = 0; size < whole.size(); ++size) {
    const std::vector<std::byte> part(whole.begin(), whole.begin() + static_cast<long>(size));
    // Cut after the header (20 bytes), OpCapability (28) or OpMemoryModel (40), it is a
    // well-formed module without kernels; anywhere else, something is missing or cut short.
    if (size == 20 || size == 28 || size == 40)
      EXPECT_TRUE(reflect_kernels(part).empty()) << size;
    else
      EXPECT_THROW(reflect_kernels(part), LogicError) << size << " of " << whole.size() << " bytes";
  }
  // Every single word replaced by 0 or by all ones: refused or read, never anything else.
  for (std::size_t at = 0; at < whole.size(); at += 4) {
    for (const auto fill : {std::byte{0}, std::byte{0xff}}) {
      auto changed = whole;
      std::fill(changed.begin() + static_cast<long>(at),
                changed.begin() + static_cast<long>(at + 4), fill);
      try {
        reflect_kernels(changed);
      } catch (const LogicError&) {
      }
    }
  }
}

}  // namespace
}  // namespace spirv_reflection_test
}  // namespace plinth::level_zero
