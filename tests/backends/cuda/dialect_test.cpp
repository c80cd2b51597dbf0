// The kernel dialect's atomics, fences, sub-groups, vector loads, float16 conversions and
// images in the CUDA prelude (docs/kernel-dialect.md), compiled with NVRTC for named targets
// through the plugin's ApiAdapter (no GPU, no driver): every function for every type and
// space, without warnings; orders that the dialect refuses; the PTX of the histogram's
// atomicAdd, of the ordered accesses and of the image reads and writes; and what the targets
// support.

#include "../../conformance/dialect_every_function.hpp"
#include "api.hpp"
#include "device.hpp"

#include <plinth/errors.hpp>

#include <gtest/gtest.h>

#include <cctype>

#include <memory>
#include <string>
#include <string_view>

namespace plinth::cuda {
namespace dialect_test {
namespace {

class CudaDialect : public ::testing::Test {
 protected:
  backend::TargetBinary compile(std::string_view target, const std::string& source,
                                bool fast_math = false) {
    prelude_ = api_->prelude(fast_math);
    backend::ProgramInput input;
    input.prelude = prelude_;
    input.source = source;
    backend::BuildOptions options;
    options.fast_math = fast_math;
    return api_->compile_for_target(target, input, options);
  }
  std::string ptx(std::string_view target, const std::string& source) {
    const auto binary = compile(target, source).binary;
    return {reinterpret_cast<const char*>(binary.data()), binary.size()};
  }
  // The CompileError's log where `source` fails to compile for sm_90, or "compiled".
  std::string failure(const std::string& source) {
    try {
      compile("sm_90", source);
    } catch (const CompileError& e) {
      return e.log();
    }
    return "compiled";
  }

  std::unique_ptr<backend::ApiAdapter> api_ = create_api();
  std::string prelude_;
};

TEST_F(CudaDialect, ThePreludeNamesTheApiAndFastMathFirst) {
  const std::string prelude = api_->prelude(false);
  EXPECT_EQ(prelude.rfind("#define PLINTH_CUDA_API\n", 0), 0u);
  EXPECT_EQ(prelude.find("PLINTH_HIP_API"), std::string::npos);
  EXPECT_EQ(prelude.find("PLINTH_FAST_MATH"), std::string::npos);
  const std::string fast = api_->prelude(true);
  EXPECT_EQ(fast.rfind("#define PLINTH_FAST_MATH\n", 0), 0u);
  EXPECT_EQ(fast.substr(fast.find('\n') + 1), prelude);
  for (const char* macro : {"#define LOCAL_GLOBAL_BARRIER ", "#define SUB_GROUP_BARRIER ",
                            "#define atomic_fence(", "#define long4 long4_16a"})
    EXPECT_NE(prelude.find(macro), std::string::npos) << macro;
}

TEST_F(CudaDialect, CompilesEveryFunctionForEveryTypeAndSpaceWithoutWarnings) {
  const std::string source = plinth::testing::every_dialect_function_source;
  for (const char* target : {"sm_80", "sm_90"}) {
    for (const bool fast_math : {false, true}) {
      const auto compiled = compile(target, source, fast_math);
      EXPECT_FALSE(compiled.binary.empty()) << target;
      // NVRTC's log holds only diagnostics: CUDA 13's deprecated long4/ulong4/double4
      // (warning 1444) among them, were the prelude to use them.
      EXPECT_EQ(compiled.log.find("warning"), std::string::npos) << target << compiled.log;
      EXPECT_EQ(compiled.log.find("deprecated"), std::string::npos) << target << compiled.log;
    }
  }
}

TEST_F(CudaDialect, AnOrderTheOperationDoesNotTakeFailsToCompile) {
  EXPECT_NE(failure("KERNEL void k(GLOBAL_MEM int *p)\n"
                    "{ p[1] = atomic_load_global_int(p, MEM_ORDER_RELEASE); }\n")
                .find("plinth_load_MEM_ORDER_RELEASE"),
            std::string::npos);
  EXPECT_NE(failure("KERNEL void k(GLOBAL_MEM float *p)\n"
                    "{ atomic_store_local_float(p, 1.0f, MEM_ORDER_ACQUIRE); }\n")
                .find("plinth_store_MEM_ORDER_ACQUIRE"),
            std::string::npos);
  // A variable is not an order: the name pasted from it names nothing.
  EXPECT_NE(failure("KERNEL void k(GLOBAL_MEM int *p, int order)\n"
                    "{ atomic_fence(order, MEM_SCOPE_DEVICE); }\n")
                .find("plinth_fence_order_MEM_SCOPE_DEVICE"),
            std::string::npos);
  EXPECT_NE(failure("KERNEL void k(GLOBAL_MEM int *p)\n"
                    "{ atomic_fence(MEM_ORDER_ACQUIRE, MEM_SCOPE_SYSTEM); }\n")
                .find("is undefined"),
            std::string::npos);
}

TEST_F(CudaDialect, AHistogramsAtomicAddIsOneInstructionForIntAndFloat) {
  const std::string code = ptx("compute_90",
                               "KERNEL void histogram(GLOBAL_MEM const int *in, GLOBAL_MEM int "
                               "*bins, GLOBAL_MEM float *weights, int n)\n"
                               "{\n"
                               "    const SIZE_T i = get_global_id(0);\n"
                               "    if (i < n) {\n"
                               "        atomic_add_global_int(bins + (in[i] & 15), 1);\n"
                               "        atomic_add_global_float(weights + (in[i] & 15), 0.5f);\n"
                               "    }\n"
                               "}\n");
  const auto has = [&](const char* text) { return code.find(text) != std::string::npos; };
  EXPECT_TRUE(has("atom.global.add.u32") || has("red.global.add.u32")) << code;
  EXPECT_TRUE(has("atom.global.add.f32") || has("red.global.add.f32")) << code;
  EXPECT_FALSE(has(".cas.")) << code;
}

TEST_F(CudaDialect, OrderedAccessesAndFencesAreThePtxMemoryModelsForms) {
  const std::string code =
      ptx("compute_80",
          "KERNEL void ordered(GLOBAL_MEM int *flag, GLOBAL_MEM double *data)\n"
          "{\n"
          "    LOCAL_MEM long local_flag[1];\n"
          "    if (atomic_load_global_int(flag, MEM_ORDER_ACQUIRE))\n"
          "        atomic_store_global_double(data, 1.0, MEM_ORDER_RELEASE);\n"
          "    atomic_store_local_long(local_flag, 3, MEM_ORDER_RELEASE);\n"
          "    data[1] = (double)atomic_load_local_long(local_flag, MEM_ORDER_ACQUIRE);\n"
          "    data[2] = (double)atomic_load_global_int(flag + 1, MEM_ORDER_RELAXED);\n"
          "    atomic_fence(MEM_ORDER_RELEASE, MEM_SCOPE_DEVICE);\n"
          "    data[3] = 2.0;\n"
          "    atomic_fence(MEM_ORDER_ACQUIRE, MEM_SCOPE_WORK_GROUP);\n"
          "}\n");
  for (const char* form :
       {"ld.acquire.gpu.b32", "st.release.gpu.b64", "st.release.cta.b64", "ld.acquire.cta.b64",
        "ld.relaxed.gpu.b32", "fence.acq_rel.gpu", "fence.acq_rel.cta"})
    EXPECT_NE(code.find(form), std::string::npos) << form << "\n" << code;
}

TEST_F(CudaDialect, AWholeWarpsReductionIsAnXorButterfly) {
  const std::string code = ptx("compute_90",
                               "KERNEL void sum(GLOBAL_MEM float *x)\n"
                               "{ x[get_global_id(0)] = "
                               "sub_group_reduce_add_float(x[get_global_id(0)]); }\n");
  std::size_t butterflies = 0;
  for (std::size_t at = code.find("shfl.sync.bfly"); at != std::string::npos;
       at = code.find("shfl.sync.bfly", at + 1))
    ++butterflies;
  EXPECT_EQ(butterflies, 5u) << code;  // log2(32) steps, unrolled
}

TEST_F(CudaDialect, Float16ConversionsAreOneCvtInstructionEach) {
  const std::string code =
      ptx("compute_80",
          "KERNEL void convert(GLOBAL_MEM unsigned short *h, GLOBAL_MEM float *f, "
          "GLOBAL_MEM double *d)\n"
          "{\n"
          "    const SIZE_T i = get_global_id(0);\n"
          "    f[i] = plinth_half_to_float(h[i]);\n"
          "    h[i + 1] = plinth_float_to_half_rte(f[i + 1]);\n"
          "    h[i + 2] = plinth_double_to_half_rte(d[i]);\n"
          "}\n");
  for (const char* form : {"cvt.f32.f16", "cvt.rn.f16.f32", "cvt.rn.f16.f64"})
    EXPECT_NE(code.find(form), std::string::npos) << form << "\n" << code;
}

// A kernel per image type that calls every read (float, int and uint; sampled at float and
// integer coordinates, and unsampled), every write and every size query of that type.
std::string every_image_function_source() {
  struct Kind {
    std::string_view name, float_coord, int_coord, float_value, int_value, sizes;
  };
  const Kind kinds[] = {
      {"IMAGE1D", "float", "int", "0.5f", "1", ""},
      {"IMAGE2D", "float2", "int2", "make_float2(0.5f, 1.5f)", "make_int2(1, 2)",
       "out[6] = (float)get_image_height(src);"},
      {"IMAGE3D", "float4", "int4", "make_float4(0.5f, 1.5f, 2.5f, 0.0f)", "make_int4(1, 2, 3, 0)",
       "out[6] = (float)get_image_height(src); out[7] = (float)get_image_depth(src);"},
      {"IMAGE1D_ARRAY", "float2", "int2", "make_float2(0.5f, 1.0f)", "make_int2(1, 2)",
       "out[8] = (float)get_image_array_size(src);"},
      {"IMAGE2D_ARRAY", "float4", "int4", "make_float4(0.5f, 1.5f, 2.0f, 0.0f)",
       "make_int4(1, 2, 3, 0)",
       "out[6] = (float)get_image_height(src); out[8] = (float)get_image_array_size(src);"},
  };
  std::string source;
  for (const auto& kind : kinds) {
    std::string lower(kind.name);
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const std::string name(kind.name);
    source += "KERNEL void k_" + lower + "(READ_" + name + " src, SAMPLER s, WRITE_" + name +
              " dst, GLOBAL_MEM float *out)\n{\n";
    source += "  const " + std::string(kind.float_coord) +
              " fc = " + std::string(kind.float_value) + ";\n";
    source +=
        "  const " + std::string(kind.int_coord) + " ic = " + std::string(kind.int_value) + ";\n";
    source +=
        "  const float4 f1 = read_imagef(src, s, fc), f2 = read_imagef(src, s, ic), "
        "f3 = read_imagef(src, ic);\n"
        "  const int4 i1 = read_imagei(src, s, fc), i2 = read_imagei(src, s, ic), "
        "i3 = read_imagei(src, ic);\n"
        "  const uint4 u1 = read_imageui(src, s, fc), u2 = read_imageui(src, s, ic), "
        "u3 = read_imageui(src, ic);\n"
        "  out[0] = f1.x + f2.y + f3.z + f3.w;\n"
        "  out[1] = (float)(i1.x + i2.y + i3.z);\n"
        "  out[2] = (float)(u1.x + u2.y + u3.z);\n"
        "  write_imagef(dst, ic, f1);\n"
        "  write_imagei(dst, ic, i1);\n"
        "  write_imageui(dst, ic, u1);\n"
        "  out[5] = (float)get_image_width(src);\n  " +
        std::string(kind.sizes) + "\n}\n";
  }
  return source;
}

TEST_F(CudaDialect, CompilesEveryImageFunctionForEveryImageTypeWithoutWarnings) {
  const std::string source = every_image_function_source();
  const auto compiled = compile("sm_90", source);
  EXPECT_FALSE(compiled.binary.empty());
  EXPECT_EQ(compiled.log.find("warning"), std::string::npos) << compiled.log;
  const std::string code = ptx("compute_90", source);
  // The parameters are the backend's ImageData (160 bytes, 8-aligned) and a 4-byte setting.
  for (const char* kernel :
       {"k_image1d", "k_image2d", "k_image3d", "k_image1d_array", "k_image2d_array"}) {
    const std::string name(kernel);
    const auto entry = code.find(".entry " + name + "(");
    ASSERT_NE(entry, std::string::npos) << name;
    const std::string params = code.substr(entry, code.find(')', entry) - entry);
    EXPECT_NE(params.find(".param .align 8 .b8 " + name + "_param_0[160]"), std::string::npos)
        << params;
    EXPECT_NE(params.find(".param .align 4 .b8 " + name + "_param_1[4]"), std::string::npos)
        << params;
    EXPECT_NE(params.find(".param .align 8 .b8 " + name + "_param_2[160]"), std::string::npos)
        << params;
  }
  // Texture fetches from arrays (not linear memory) of each shape and result type, and
  // surface stores of each pixel size.
  for (const char* shape : {"1d", "2d", "3d", "a1d", "a2d"}) {
    for (const char* result : {"f32", "s32", "u32"}) {
      const std::string fetch = std::string("tex.") + shape + ".v4." + result + ".f32";
      EXPECT_NE(code.find(fetch), std::string::npos) << fetch;
    }
    for (const char* store :
         {".b8.zero", ".b16.zero", ".b32.zero", ".v2.b32.zero", ".v4.b32.zero"}) {
      const std::string write = std::string("sust.b.") + shape + store;
      EXPECT_NE(code.find(write), std::string::npos) << write;
    }
  }
}

TEST_F(CudaDialect, TheTargetsSupportEverythingWithWarpsOf32) {
  for (const char* target : {"sm_80", "compute_90"}) {
    DeviceFeatures features;
    api_->target_features(target, features);
    EXPECT_TRUE(features.atomics);
    EXPECT_TRUE(features.int64_atomics);
    EXPECT_TRUE(features.double_atomics);
    EXPECT_TRUE(features.native_float_atomic_add);
    EXPECT_TRUE(features.native_double_atomic_add);
    EXPECT_TRUE(features.device_scope_acquire_release);
    EXPECT_TRUE(features.native_sub_groups);
    EXPECT_EQ(features.sub_group_sizes, std::vector<std::size_t>{32});
    EXPECT_TRUE(features.sub_group_independent_forward_progress);
  }
  // Before Volta: no independent thread scheduling, and double add is a CAS loop before Pascal.
  EXPECT_FALSE(nominal_features(61).sub_group_independent_forward_progress);
  EXPECT_TRUE(nominal_features(61).native_double_atomic_add);
  EXPECT_FALSE(nominal_features(52).native_double_atomic_add);
}

}  // namespace
}  // namespace dialect_test
}  // namespace plinth::cuda
