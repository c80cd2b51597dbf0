// The images of the kernel dialect in CUDA and HIP C++ (docs/kernel-dialect.md, "Images"): an
// image parameter is a plinth_image struct that the backend fills (backends/cuda/image.hpp has
// its host side): a texture object per sampler setting, a surface object, the extent and the
// format. Reads are the texture functions (tex2D<float4>...) on the sampler's texture object.
// CUDA's writes pack the pixel as the format stores it and write it through the surface
// object; HIP's store through the image hardware, which converts.

#include "dialect_tables.hpp"
#include "gpu_cxx_parts.hpp"

namespace plinth::backend::dialect {

namespace {

// The struct, the sampler, the parameter macros and the pixel conversions every image type
// shares. Channel types are numbered as plinth::ChannelType; a sampler's setting as
// address | filter << 2 | normalized << 3 (plinth::AddressMode, FilterMode).
constexpr std::string_view images_head = R"(struct plinth_image_data {
  unsigned long long tex[16];
  unsigned long long surf;
  int width, height, depth, layers;
  int channel_type, channels;
};
struct plinth_image1d { plinth_image_data d; };
struct plinth_image2d { plinth_image_data d; };
struct plinth_image3d { plinth_image_data d; };
struct plinth_image1d_array { plinth_image_data d; };
struct plinth_image2d_array { plinth_image_data d; };
struct plinth_sampler { unsigned int setting; };
#define READ_IMAGE1D plinth_image1d
#define READ_IMAGE2D plinth_image2d
#define READ_IMAGE3D plinth_image3d
#define READ_IMAGE1D_ARRAY plinth_image1d_array
#define READ_IMAGE2D_ARRAY plinth_image2d_array
#define WRITE_IMAGE1D plinth_image1d
#define WRITE_IMAGE2D plinth_image2d
#define WRITE_IMAGE3D plinth_image3d
#define WRITE_IMAGE1D_ARRAY plinth_image1d_array
#define WRITE_IMAGE2D_ARRAY plinth_image2d_array
#define SAMPLER plinth_sampler
#define PLINTH_IMAGE_PLAIN 0u

__device__ __forceinline__ int plinth_layer_f(float c, int layers) {
  int l = (int)rintf(c);
  return l < 0 ? 0 : l >= layers ? layers - 1 : l;
}
__device__ __forceinline__ int plinth_layer_i(int c, int layers) {
  return c < 0 ? 0 : c >= layers ? layers - 1 : c;
}
// OpenCL's missing components: 0, alpha 1.
__device__ __forceinline__ float4 plinth_fill_f(float4 v, int channels) {
  if (channels < 4) { v.z = 0.0f; v.w = 1.0f; if (channels < 2) v.y = 0.0f; }
  return v;
}
__device__ __forceinline__ int4 plinth_fill_i(int4 v, int channels) {
  if (channels < 4) { v.z = 0; v.w = 1; if (channels < 2) v.y = 0; }
  return v;
}
__device__ __forceinline__ uint4 plinth_fill_u(uint4 v, int channels) {
  if (channels < 4) { v.z = 0u; v.w = 1u; if (channels < 2) v.y = 0u; }
  return v;
}
)";

// CUDA's writes store the pixel's bits through the surface object: the conversions OpenCL's
// write functions make, then the channels packed as the format stores them.
constexpr std::string_view cuda_pixels =
    R"(__device__ __forceinline__ unsigned int plinth_sat_round(float f, float lo, float hi) {
  f = f != f ? 0.0f : fminf(fmaxf(f, lo), hi);
  return (unsigned int)(int)rintf(f);
}
// The bits one channel of a float write stores (write_imagef): normalised types scaled,
// rounded to nearest even and saturated, float16 rounded, float32 as it is.
__device__ __forceinline__ unsigned int plinth_channel_f(float f, int type) {
  switch (type) {
    case 0: return plinth_sat_round(f * 255.0f, 0.0f, 255.0f);
    case 1: return plinth_sat_round(f * 65535.0f, 0.0f, 65535.0f);
    case 2: return plinth_sat_round(f * 127.0f, -128.0f, 127.0f);
    case 3: return plinth_sat_round(f * 32767.0f, -32768.0f, 32767.0f);
    case 10: return plinth_float_to_half_rte(f);
    default: return __float_as_uint(f);
  }
}
// The bits of an integer write (write_imagei, write_imageui), saturated to the channel's type.
__device__ __forceinline__ unsigned int plinth_channel_i(int v, int type) {
  switch (type) {
    case 4: return (unsigned int)(v < -128 ? -128 : v > 127 ? 127 : v);
    case 5: return (unsigned int)(v < -32768 ? -32768 : v > 32767 ? 32767 : v);
    default: return (unsigned int)v;
  }
}
__device__ __forceinline__ unsigned int plinth_channel_u(unsigned int v, int type) {
  switch (type) {
    case 7: return v > 255u ? 255u : v;
    case 8: return v > 65535u ? 65535u : v;
    default: return v;
  }
}
__device__ __forceinline__ int plinth_channel_size(int type) {
  return type == 0 || type == 2 || type == 4 || type == 7 ? 1
       : type == 6 || type == 9 || type == 11 ? 4 : 2;
}
// A pixel as the format stores it: `channels` values of `size` bytes each, packed (no
// array indexed at run time, which would put the pixel in local memory).
struct plinth_pixel {
  unsigned int w0, w1, w2, w3;
  int bytes;
};
__device__ __forceinline__ plinth_pixel plinth_pack(unsigned int c0, unsigned int c1,
                                                    unsigned int c2, unsigned int c3,
                                                    int channels, int size) {
  plinth_pixel p;
  p.bytes = channels * size;
  if (channels < 4) { c2 = 0u; c3 = 0u; if (channels < 2) c1 = 0u; }
  if (size == 1) {
    p.w0 = (c0 & 0xffu) | (c1 & 0xffu) << 8 | (c2 & 0xffu) << 16 | c3 << 24;
    p.w1 = p.w2 = p.w3 = 0u;
  } else if (size == 2) {
    p.w0 = (c0 & 0xffffu) | c1 << 16;
    p.w1 = (c2 & 0xffffu) | c3 << 16;
    p.w2 = p.w3 = 0u;
  } else {
    p.w0 = c0; p.w1 = c1; p.w2 = c2; p.w3 = c3;
  }
  return p;
}
)";

/// One image type: its struct, the coordinate types of sampled and integer reads, what the
/// texture fetch takes after the object for float ($F) and integer ($I) coordinates, the
/// surface write's name and what it takes after the x byte offset.
struct ImageKind {
  std::string_view type;
  std::string_view float_coord;
  std::string_view int_coord;
  std::string_view fetch;
  std::string_view float_args;
  std::string_view int_args;
  std::string_view x;
  std::string_view surface;
  std::string_view surface_args;
  std::string_view store;        ///< HIP: the ockl image store
  std::string_view store_coord;  ///< HIP: its coordinate argument
};

constexpr ImageKind kinds[] = {
    {"plinth_image1d", "float", "int", "tex1D", "c", "c + 0.5f", "c", "surf1Dwrite", "",
     "__ockl_image_store_1D", "c"},
    {"plinth_image2d", "float2", "int2", "tex2D", "c.x, c.y", "c.x + 0.5f, c.y + 0.5f", "c.x",
     "surf2Dwrite", ", c.y", "__ockl_image_store_2D", "c.data"},
    {"plinth_image3d", "float4", "int4", "tex3D", "c.x, c.y, c.z",
     "c.x + 0.5f, c.y + 0.5f, c.z + 0.5f", "c.x", "surf3Dwrite", ", c.y, c.z",
     "__ockl_image_store_3D", "c.data"},
    {"plinth_image1d_array", "float2", "int2", "tex1DLayered",
     "c.x, plinth_layer_f(c.y, img.d.layers)", "c.x + 0.5f, plinth_layer_i(c.y, img.d.layers)",
     "c.x", "surf1DLayeredwrite", ", c.y", "__ockl_image_store_1Da", "c.data"},
    {"plinth_image2d_array", "float4", "int4", "tex2DLayered",
     "c.x, c.y, plinth_layer_f(c.z, img.d.layers)",
     "c.x + 0.5f, c.y + 0.5f, plinth_layer_i(c.z, img.d.layers)", "c.x", "surf2DLayeredwrite",
     ", c.y, c.z", "__ockl_image_store_2Da", "c.data"},
};

constexpr std::string_view per_kind =
    R"(__device__ __forceinline__ float4 read_imagef(const $T& img, plinth_sampler s, $FC c) {
  return plinth_fill_f($FETCH<float4>($TEXCASTimg.d.tex[s.setting], $FARGS), img.d.channels);
}
__device__ __forceinline__ float4 read_imagef(const $T& img, plinth_sampler s, $IC c) {
  return plinth_fill_f($FETCH<float4>($TEXCASTimg.d.tex[s.setting], $IARGS), img.d.channels);
}
__device__ __forceinline__ float4 read_imagef(const $T& img, $IC c) {
  return plinth_fill_f($FETCH<float4>($TEXCASTimg.d.tex[PLINTH_IMAGE_PLAIN], $IARGS), img.d.channels);
}
__device__ __forceinline__ int4 read_imagei(const $T& img, plinth_sampler s, $FC c) {
  return plinth_fill_i($FETCH<int4>($TEXCASTimg.d.tex[s.setting], $FARGS), img.d.channels);
}
__device__ __forceinline__ int4 read_imagei(const $T& img, plinth_sampler s, $IC c) {
  return plinth_fill_i($FETCH<int4>($TEXCASTimg.d.tex[s.setting], $IARGS), img.d.channels);
}
__device__ __forceinline__ int4 read_imagei(const $T& img, $IC c) {
  return plinth_fill_i($FETCH<int4>($TEXCASTimg.d.tex[PLINTH_IMAGE_PLAIN], $IARGS), img.d.channels);
}
__device__ __forceinline__ uint4 read_imageui(const $T& img, plinth_sampler s, $FC c) {
  return plinth_fill_u($FETCH<uint4>($TEXCASTimg.d.tex[s.setting], $FARGS), img.d.channels);
}
__device__ __forceinline__ uint4 read_imageui(const $T& img, plinth_sampler s, $IC c) {
  return plinth_fill_u($FETCH<uint4>($TEXCASTimg.d.tex[s.setting], $IARGS), img.d.channels);
}
__device__ __forceinline__ uint4 read_imageui(const $T& img, $IC c) {
  return plinth_fill_u($FETCH<uint4>($TEXCASTimg.d.tex[PLINTH_IMAGE_PLAIN], $IARGS), img.d.channels);
}
__device__ __forceinline__ int get_image_width(const $T& img) { return img.d.width; }
)";

// CUDA: the pixel packed (cuda_pixels) and written with surf*write.
constexpr std::string_view cuda_writes =
    R"(__device__ __forceinline__ void plinth_store(const $T& img, $IC c, const plinth_pixel& p) {
  const int x = $X * p.bytes;
  switch (p.bytes) {
    case 1: $SURF((unsigned char)p.w0, img.d.surf, x$SARGS$BOUNDARY); break;
    case 2: $SURF((unsigned short)p.w0, img.d.surf, x$SARGS$BOUNDARY); break;
    case 4: $SURF(p.w0, img.d.surf, x$SARGS$BOUNDARY); break;
    case 8: $SURF(make_uint2(p.w0, p.w1), img.d.surf, x$SARGS$BOUNDARY); break;
    default: $SURF(make_uint4(p.w0, p.w1, p.w2, p.w3), img.d.surf, x$SARGS$BOUNDARY);
  }
}
__device__ __forceinline__ void write_imagef(const $T& img, $IC c, float4 v) {
  const int t = img.d.channel_type;
  plinth_store(img, c, plinth_pack(plinth_channel_f(v.x, t), plinth_channel_f(v.y, t),
                                   plinth_channel_f(v.z, t), plinth_channel_f(v.w, t),
                                   img.d.channels, plinth_channel_size(t)));
}
__device__ __forceinline__ void write_imagei(const $T& img, $IC c, int4 v) {
  const int t = img.d.channel_type;
  plinth_store(img, c, plinth_pack(plinth_channel_i(v.x, t), plinth_channel_i(v.y, t),
                                   plinth_channel_i(v.z, t), plinth_channel_i(v.w, t),
                                   img.d.channels, plinth_channel_size(t)));
}
__device__ __forceinline__ void write_imageui(const $T& img, $IC c, uint4 v) {
  const int t = img.d.channel_type;
  plinth_store(img, c, plinth_pack(plinth_channel_u(v.x, t), plinth_channel_u(v.y, t),
                                   plinth_channel_u(v.z, t), plinth_channel_u(v.w, t),
                                   img.d.channels, plinth_channel_size(t)));
}
)";

// HIP: the image hardware converts on store, as AMD's OpenCL does: write_imagef stores the
// floats (normalised formats rounded and saturated by the hardware), write_imagei/ui the
// integers' bits, through the ockl image functions on the surface object's descriptor (HIP
// 5.2's surf*write convert every component to float, which integer formats cannot take).
constexpr std::string_view hip_writes =
    R"(__device__ __forceinline__ void write_imagef(const $T& img, $IC c, float4 v) {
  $STORE((unsigned int __attribute__((address_space(4)))*)img.d.surf, $SCOORD, v.data);
}
__device__ __forceinline__ void write_imagei(const $T& img, $IC c, int4 v) {
  $STORE((unsigned int __attribute__((address_space(4)))*)img.d.surf, $SCOORD,
         plinth_bit_cast<float4::Native_vec_>(v.data));
}
__device__ __forceinline__ void write_imageui(const $T& img, $IC c, uint4 v) {
  $STORE((unsigned int __attribute__((address_space(4)))*)img.d.surf, $SCOORD,
         plinth_bit_cast<float4::Native_vec_>(v.data));
}
)";

constexpr std::string_view sizes =
    R"(__device__ __forceinline__ int get_image_height(const plinth_image2d& img) { return img.d.height; }
__device__ __forceinline__ int get_image_height(const plinth_image3d& img) { return img.d.height; }
__device__ __forceinline__ int get_image_height(const plinth_image2d_array& img) { return img.d.height; }
__device__ __forceinline__ int get_image_depth(const plinth_image3d& img) { return img.d.depth; }
__device__ __forceinline__ SIZE_T get_image_array_size(const plinth_image1d_array& img) { return img.d.layers; }
__device__ __forceinline__ SIZE_T get_image_array_size(const plinth_image2d_array& img) { return img.d.layers; }
)";

}  // namespace

std::string gpu_cxx_images(GpuCxx language) {
  const bool cuda = language == GpuCxx::cuda;
  std::string text(images_head);
  if (cuda) text += cuda_pixels;
  for (const auto& kind : kinds) {
    const std::initializer_list<std::pair<std::string_view, std::string_view>> names{
        {"TEXCAST", cuda ? "" : "(hipTextureObject_t)"},
        {"T", kind.type},
        {"FC", kind.float_coord},
        {"IC", kind.int_coord},
        {"FETCH", kind.fetch},
        {"FARGS", kind.float_args},
        {"IARGS", kind.int_args},
        {"X", kind.x},
        {"SURF", kind.surface},
        {"SARGS", kind.surface_args},
        {"STORE", kind.store},
        {"SCOORD", kind.store_coord},
        {"BOUNDARY", ", cudaBoundaryModeZero"}};
    text += expand(per_kind, names);
    text += expand(cuda ? cuda_writes : hip_writes, names);
  }
  text += sizes;
  return text;
}

}  // namespace plinth::backend::dialect
