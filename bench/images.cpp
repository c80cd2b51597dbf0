// plinth-bench-images: images and samplers (<plinth/image.hpp>, issue 34) against the raw CUDA
// calls they wrap, on plinth's own context and stream:
// - resample/*: a bilinear resampling kernel, a 4096 x 4096 RGBA image (float32, then
//   unorm_int8) scaled by 1.25 and shifted by -0.125 (normalised coordinates: the output
//   covers the image and an eighth beyond each edge), linear filter, clamp to edge, into a
//   4096 x 4096 float4 buffer. plinth's side is a dialect kernel (READ_IMAGE2D, SAMPLER,
//   read_imagef) on an Image and a Sampler; the raw side the same kernel in CUDA C (tex2D on
//   a cudaTextureObject_t) compiled by NVRTC, on a CUDA array of its own (cuArray3DCreate)
//   and a texture object of the same settings (cuTexObjectCreate), launched with
//   cuLaunchKernel on the same grid. Their outputs are compared first. Target: device time
//   at most 1.05x raw.
// - image_from_array/*, image_to_array/*: Image::set(queue, Array) and Image::get(queue,
//   Array) of the 4096 x 4096 RGBA float32 image (256 MiB; copy_buffer_to_image and
//   copy_image_to_buffer) against cuMemcpy3DAsync between the same device memory and the raw
//   CUDA array. Bytes counted twice, as d2d in plinth-bench-cuda (read once, written once).
//   Target: at least 0.95 of raw's rate.
// Both sides are timed the same way, as in plinth-bench-dialect: plinth events (CUDA events)
// recorded on the queue around the work, whose device time is the benchmark's manual time
// (the raw work goes to the queue's CUstream). The raw CUDA array is made as a raw program
// that only samples it would (Flags 0); plinth's images are always CUDA_ARRAY3D_SURFACE_LDST
// arrays, for kernel writes. Without a CUDA device the raw side is left out and plinth's runs
// on the default device with 1024 x 1024 images (a smoke test, e.g. on PoCL); the driver
// library is opened at run time, so the program starts anywhere.

#include <cuda.h>
#include <nvrtc.h>

#include "common.hpp"
#include "raw_cuda.hpp"

#include <plinth/plinth.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace {

using namespace plinth_bench;

const char* const dialect_source = R"(
KERNEL void resample(READ_IMAGE2D src, SAMPLER s, GLOBAL_MEM float4 *out, int width,
                     float sx, float sy, float ox, float oy)
{
    const int x = (int)get_global_id(0);
    const int y = (int)get_global_id(1);
    out[y * width + x] = read_imagef(src, s, make_float2((x + 0.5f) * sx + ox, (y + 0.5f) * sy + oy));
}
)";

// The same kernel by hand, for NVRTC.
const char* const cuda_source = R"(
extern "C" __global__ void resample(cudaTextureObject_t src, float4 *out, int width,
                                    float sx, float sy, float ox, float oy)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    out[y * width + x] = tex2D<float4>(src, (x + 0.5f) * sx + ox, (y + 0.5f) * sy + oy);
}
)";

/// The driver API calls of the raw side beyond raw_cuda.hpp's: arrays, texture objects and
/// 3-D copies. cuda.h names some functions by macros (cuArray3DCreate is cuArray3DCreate_v2):
/// the symbols are the versioned names.
struct Driver : CudaDriver {
  decltype(&cuArray3DCreate) array_3d_create = nullptr;
  decltype(&cuArrayDestroy) array_destroy = nullptr;
  decltype(&cuTexObjectCreate) tex_object_create = nullptr;
  decltype(&cuTexObjectDestroy) tex_object_destroy = nullptr;
  decltype(&cuMemcpy3DAsync) memcpy_3d_async = nullptr;

  Driver() {
    load_symbol(library, array_3d_create, "cuArray3DCreate_v2");
    load_symbol(library, array_destroy, "cuArrayDestroy");
    load_symbol(library, tex_object_create, "cuTexObjectCreate");
    load_symbol(library, tex_object_destroy, "cuTexObjectDestroy");
    load_symbol(library, memcpy_3d_async, "cuMemcpy3DAsync_v2");
  }
};

/// Pixels of a 2-D image of `n` x `n` RGBA pixels in `format` (float32 or unorm_int8),
/// packed: smooth gradients with some fine detail, so that filtering has something to do.
std::vector<std::byte> test_pixels(std::size_t n, const plinth::ImageFormat& format) {
  std::vector<std::byte> bytes(n * n * format.pixel_size());
  const bool floats = format.type == plinth::ChannelType::float32;
  for (std::size_t y = 0; y < n; ++y) {
    for (std::size_t x = 0; x < n; ++x) {
      const float fx = static_cast<float>(x) / static_cast<float>(n);
      const float fy = static_cast<float>(y) / static_cast<float>(n);
      const float values[4] = {fx, fy, 0.5f + 0.5f * std::sin(0.05f * static_cast<float>(x + y)),
                               ((x ^ y) & 1) != 0 ? 1.0f : 0.25f};
      const std::size_t pixel = (y * n + x) * format.pixel_size();
      if (floats) {
        std::memcpy(&bytes[pixel], values, sizeof(values));
        continue;
      }
      for (std::size_t c = 0; c < 4; ++c)
        bytes[pixel + c] = static_cast<std::byte>(std::lround(values[c] * 255.0f));
    }
  }
  return bytes;
}

/// One image format of the resampling benchmark: plinth's image, and (with a CUDA device) the
/// raw CUDA array holding the same pixels and its texture object.
struct Resampled {
  plinth::ImageFormat format;
  plinth::Image image;
  CUarray array = nullptr;
  CUtexObject texture = 0;
};

/// What the benchmarks share: plinth's objects and (with a CUDA device) the raw side's module,
/// arrays and texture objects on plinth's context.
struct Setup {
  plinth::Context context;
  plinth::BoundDevice device;
  plinth::Queue queue;
  plinth::Program program;
  std::size_t n;
  plinth::Sampler sampler;
  plinth::Buffer out;
  plinth::Array array;  // the copies' device side: (n, n, 4) float32
  std::vector<Resampled> images;
  std::unique_ptr<Driver> driver;  // null without CUDA
  CUmodule module = nullptr;
  CUfunction function = nullptr;

  static constexpr std::size_t local_x = 32, local_y = 8;
  // Output pixel (x, y) samples the image at ((x + 0.5) * scale + shift) in normalised
  // coordinates, both axes alike.
  static constexpr float scale = 1.25f, shift = -0.125f;

  Setup(const plinth::Context& ctx, bool cuda, std::size_t n_)
      : context(ctx),
        device(ctx.devices()[0]),
        queue(device),
        program(context, dialect_source),
        n(n_),
        sampler(plinth::Sampler::create(
            context, {plinth::AddressMode::clamp_to_edge, plinth::FilterMode::linear, true})),
        out(plinth::Buffer::allocate(device, n * n * 4 * sizeof(float))),
        array(plinth::Array::empty(device, {n, n, 4}, plinth::DType::float32())) {
    if (cuda) {
      driver = std::make_unique<Driver>();
      driver->check(driver->ctx_set_current(
                        reinterpret_cast<CUcontext>(context.native_handle(device.index()))),
                    "cuCtxSetCurrent");
      module = load_raw_module(*driver, static_cast<CUdevice>(device.device().native_handle()),
                               cuda_source);
      driver->check(driver->module_get_function(&function, module, "resample"),
                    "cuModuleGetFunction");
    }
    for (const auto type : {plinth::ChannelType::float32, plinth::ChannelType::unorm_int8}) {
      const plinth::ImageFormat format{plinth::ChannelOrder::rgba, type};
      const auto pixels = test_pixels(n, format);
      Resampled r{format,
                  plinth::Image::allocate(device, plinth::ImageType::image2d, format, {n, n}),
                  nullptr, 0};
      r.image.set(queue, pixels, true);
      images.push_back(r);
      if (!driver) continue;
      auto& raw = images.back();
      CUDA_ARRAY3D_DESCRIPTOR descriptor{};
      descriptor.Width = n;
      descriptor.Height = n;
      descriptor.Format =
          type == plinth::ChannelType::float32 ? CU_AD_FORMAT_FLOAT : CU_AD_FORMAT_UNSIGNED_INT8;
      descriptor.NumChannels = 4;
      driver->check(driver->array_3d_create(&raw.array, &descriptor), "cuArray3DCreate");
      CUDA_MEMCPY3D copy{};
      copy.srcMemoryType = CU_MEMORYTYPE_HOST;
      copy.srcHost = pixels.data();
      copy.srcPitch = n * format.pixel_size();
      copy.srcHeight = n;
      copy.dstMemoryType = CU_MEMORYTYPE_ARRAY;
      copy.dstArray = raw.array;
      copy.WidthInBytes = n * format.pixel_size();
      copy.Height = n;
      copy.Depth = 1;
      driver->check(driver->memcpy_3d_async(&copy, stream()), "cuMemcpy3DAsync");
      queue.synchronize();  // `pixels` goes next
      CUDA_RESOURCE_DESC resource{};
      resource.resType = CU_RESOURCE_TYPE_ARRAY;
      resource.res.array.hArray = raw.array;
      CUDA_TEXTURE_DESC texture{};
      for (auto& mode : texture.addressMode) mode = CU_TR_ADDRESS_MODE_CLAMP;
      texture.filterMode = CU_TR_FILTER_MODE_LINEAR;
      texture.flags = CU_TRSF_NORMALIZED_COORDINATES;  // unorm_int8 read as floats in [0, 1]
      driver->check(driver->tex_object_create(&raw.texture, &resource, &texture, nullptr),
                    "cuTexObjectCreate");
    }
  }
  Setup(const Setup&) = delete;
  Setup& operator=(const Setup&) = delete;
  ~Setup() {
    if (!driver) return;
    queue.synchronize();
    for (const auto& r : images) {
      if (r.texture != 0) driver->tex_object_destroy(r.texture);
      if (r.array != nullptr) driver->array_destroy(r.array);
    }
    if (module) driver->module_unload(module);
  }

  CUstream stream() const { return reinterpret_cast<CUstream>(queue.native_handle()); }
  CUdeviceptr array_pointer() const {
    return static_cast<CUdeviceptr>(array.base_buffer().native_handle()) +
           array.first_element_offset();
  }
  /// The normalised coordinate step per output pixel.
  float step() const { return scale / static_cast<float>(n); }
  std::size_t out_bytes() const { return out.size(); }
  std::string size_text() const { return std::to_string(n); }
};

/// Device seconds of `work` between two events recorded on plinth's queue.
template <class Work>
double device_seconds(Setup& s, Work&& work) {
  const auto start = s.queue.record_event();
  work();
  const auto end = s.queue.record_event();
  return plinth::elapsed_ms(start, end) / 1e3;
}

void raw_resample(Setup& s, const Resampled& r) {
  CUtexObject texture = r.texture;
  CUdeviceptr out = static_cast<CUdeviceptr>(s.out.native_handle());
  int width = static_cast<int>(s.n);
  float sx = s.step(), sy = s.step(), ox = Setup::shift, oy = Setup::shift;
  void* params[] = {&texture, &out, &width, &sx, &sy, &ox, &oy};
  s.driver->check(s.driver->launch_kernel(s.function, static_cast<unsigned>(s.n / Setup::local_x),
                                          static_cast<unsigned>(s.n / Setup::local_y), 1,
                                          static_cast<unsigned>(Setup::local_x),
                                          static_cast<unsigned>(Setup::local_y), 1, 0, s.stream(),
                                          params, nullptr),
                  "cuLaunchKernel");
}

/// The output buffer's floats after `launch`, which writes it (cleared first).
template <class Launch>
std::vector<float> output_of(Setup& s, Launch&& launch) {
  s.out.set(s.queue, std::vector<std::byte>(s.out.size()), true);
  launch();
  std::vector<float> values(s.out.size() / sizeof(float));
  s.out.get(s.queue, std::as_writable_bytes(std::span(values)));
  return values;
}

/// Checks that plinth's and the raw kernel's outputs agree (the same hardware filtering of
/// the same pixels at the same coordinates: to 1e-6), and that plinth's is no copy of the
/// cleared buffer.
void compare_results(Setup& s, const Resampled& r, const plinth::PreparedKernel& prepared) {
  const auto mine = output_of(s, [&] {
    prepared(s.queue, r.image, s.sampler, s.out, static_cast<int>(s.n), s.step(), s.step(),
             Setup::shift, Setup::shift);
  });
  const auto theirs = output_of(s, [&] { raw_resample(s, r); });
  const std::string what = "resample " + plinth::to_string(r.format);
  float largest = 0;
  for (std::size_t k = 0; k < mine.size(); ++k) {
    // The message only for a difference: 64M values.
    if (!(std::fabs(mine[k] - theirs[k]) <= 1e-6f)) {
      require(false, what.c_str(),
              "plinth's value " + std::to_string(mine[k]) + " at " + std::to_string(k) +
                  " differs from the raw kernel's " + std::to_string(theirs[k]));
    }
    largest = std::max(largest, std::fabs(mine[k]));
  }
  require(largest > 0, what.c_str(), "plinth's output is all zeros");
}

void register_resample(Setup& s) {
  // Read the image once (about: a scale of 1.25 reads most pixels once), write the output.
  for (const auto& r : s.images) {
    const std::size_t moved = s.n * s.n * r.format.pixel_size() + s.out_bytes();
    const std::string op_name =
        "resample/" + s.size_text() + "_rgba_" + plinth::to_string(r.format.type) + "_linear_clamp";
    auto prepared =
        s.program.kernel("resample").prepare({s.n, s.n}, {Setup::local_x, Setup::local_y});
    auto plinth_side = [&s, &r, prepared, moved](benchmark::State& state) {
      const int width = static_cast<int>(s.n);
      const float step = s.step();
      time_on_device(state, moved, [&] {
        return device_seconds(s, [&] {
          prepared(s.queue, r.image, s.sampler, s.out, width, step, step, Setup::shift,
                   Setup::shift);
        });
      });
    };
    const Operation op{op_name, Measure::latency, 1.05, {"GB/s"}};
    std::pair<benchmark::internal::Benchmark*, benchmark::internal::Benchmark*> pair;
    if (s.driver) {
      compare_results(s, r, prepared);
      pair = register_pair(op, plinth_side, [&s, &r, moved](benchmark::State& state) {
        time_on_device(state, moved,
                       [&] { return device_seconds(s, [&] { raw_resample(s, r); }); });
      });
    } else {
      detail::declare(op);
      auto* only =
          benchmark::RegisterBenchmark((op_name + "/plinth").c_str(), detail::guarded(plinth_side));
      pair = {only, only};
    }
    configure(pair, [](auto* b) {
      b->MinTime(long_min_time)->UseManualTime()->Unit(benchmark::kMillisecond);
    });
  }
}

/// The raw copy between the copies' device memory and the float32 image's raw CUDA array.
void raw_copy(Setup& s, bool to_image) {
  const Resampled& r = s.images.front();
  const std::size_t row = s.n * r.format.pixel_size();
  CUDA_MEMCPY3D copy{};
  if (to_image) {
    copy.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    copy.srcDevice = s.array_pointer();
    copy.srcPitch = row;
    copy.srcHeight = s.n;
    copy.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    copy.dstArray = r.array;
  } else {
    copy.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    copy.srcArray = r.array;
    copy.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    copy.dstDevice = s.array_pointer();
    copy.dstPitch = row;
    copy.dstHeight = s.n;
  }
  copy.WidthInBytes = row;
  copy.Height = s.n;
  copy.Depth = 1;
  s.driver->check(s.driver->memcpy_3d_async(&copy, s.stream()), "cuMemcpy3DAsync");
}

void register_copies(Setup& s) {
  const Resampled& r = s.images.front();  // float32
  const std::size_t moved = 2 * r.image.nbytes();
  for (const bool to_image : {true, false}) {
    const std::string op_name = std::string(to_image ? "image_from_array/" : "image_to_array/") +
                                s.size_text() + "_rgba_float32";
    auto plinth_side = [&s, &r, moved, to_image](benchmark::State& state) {
      time_on_device(state, moved, [&] {
        return device_seconds(s, [&] {
          if (to_image) {
            r.image.set(s.queue, s.array);
          } else {
            r.image.get(s.queue, s.array);
          }
        });
      });
    };
    const Operation op{op_name, Measure::throughput, 0.95, {}};
    std::pair<benchmark::internal::Benchmark*, benchmark::internal::Benchmark*> pair;
    if (s.driver) {
      pair = register_pair(op, plinth_side, [&s, moved, to_image](benchmark::State& state) {
        time_on_device(state, moved,
                       [&] { return device_seconds(s, [&] { raw_copy(s, to_image); }); });
      });
    } else {
      detail::declare(op);
      auto* only =
          benchmark::RegisterBenchmark((op_name + "/plinth").c_str(), detail::guarded(plinth_side));
      pair = {only, only};
    }
    configure(pair, [](auto* b) {
      b->MinTime(long_min_time)->UseManualTime()->Unit(benchmark::kMillisecond);
    });
  }
}

/// Checks the copies once: the image through the array and back through the raw side's array
/// (plinth's copies against cuMemcpy3DAsync's bytes).
void check_copies(Setup& s) {
  const Resampled& r = s.images.front();
  std::vector<std::byte> expected(r.image.nbytes());
  r.image.get(s.queue, expected);
  r.image.get(s.queue, s.array);  // plinth: image to array
  if (s.driver) {
    raw_copy(s, true);  // raw: array to the raw image
    s.array.base_buffer().set(s.queue, std::vector<std::byte>(s.array.base_buffer().size()), true);
    raw_copy(s, false);  // raw: back
  }
  r.image.set(s.queue, s.array);  // plinth: array to image
  std::vector<std::byte> back(r.image.nbytes());
  r.image.get(s.queue, back);
  require(back == expected, "image copies", "the image differs after a round trip");
}

}  // namespace

int main(int argc, char** argv) {
  auto args = with_default_options(argc, argv);
  int count = static_cast<int>(args.size()) - 1;
  benchmark::Initialize(&count, args.data());
  if (benchmark::ReportUnrecognizedArguments(count, args.data())) return 1;
  const TemporaryProgramCache program_cache;  // before the first Program; outlives `setup`
  std::unique_ptr<Setup> setup;
  try {
    std::optional<plinth::Context> context;
    bool cuda = false;
    try {
      context = plinth::Context::from_criteria(plinth::API::from_api_id(plinth::APIID{"cuda"}));
      cuda = true;
    } catch (const plinth::Error& error) {
      std::cout << "plinth-bench-images: no CUDA device (" << error.what()
                << "); the raw CUDA side is left out and plinth's runs on the default device "
                   "with 1024 x 1024 images"
                << std::endl;
      context = plinth::Context::from_criteria(plinth::API::from_env());
    }
    const auto& device = context->devices()[0];
    const auto support = plinth::image_support(device);
    if (!support.available) {
      std::cout << "plinth-bench-images: " << device.name() << " has no images (" << support.reason
                << "): nothing to measure" << std::endl;
      return 0;
    }
    setup = std::make_unique<Setup>(*context, cuda, cuda ? 4096 : 1024);
    std::cout << "plinth-bench-images on " << device.device().full_name() << std::endl;
    benchmark::AddCustomContext("plinth_device", device.device().full_name());
    check_copies(*setup);
    register_resample(*setup);
    register_copies(*setup);
  } catch (const std::exception& error) {
    std::cerr << "plinth-bench-images: " << error.what() << std::endl;
    return 1;
  }
  const int status = run_benchmarks();
  benchmark::ClearRegisteredBenchmarks();  // their lambdas hold plinth objects
  setup.reset();
  return status;
}
