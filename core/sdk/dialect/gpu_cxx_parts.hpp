#pragma once

// The sections of the CUDA and HIP C++ prelude (gpu_cxx.cpp assembles them): each is the text
// of one part of docs/kernel-dialect.md, written from the tables of dialect_tables.hpp. They
// rely on what the prelude defines before them: the basics, then the scalar traits
// (plinth_num<T>, plinth_bit_cast), then the atomics, the sub-groups, the vectors and the float16
// conversions in this order. Internal to the SDK's sources.

#include <plinth/backend/dialect.hpp>

#include <string>

namespace plinth::backend::dialect {

/// plinth_num<T> for each scalar (bits, signedness, the unsigned type of the same size, the
/// largest and lowest value) and plinth_bit_cast. Throws only std::bad_alloc.
std::string gpu_cxx_scalar_traits();

/// The atomics: read-modify-writes, cmpxchg, ordered loads and stores, atomic_fence and
/// LOCAL_GLOBAL_BARRIER. Throws only std::bad_alloc.
std::string gpu_cxx_atomics(GpuCxx language);

/// The sub-group functions and SUB_GROUP_BARRIER. Throws only std::bad_alloc.
std::string gpu_cxx_sub_groups(GpuCxx language);

/// vload2, vload4, vstore2 and vstore4 for every element type. Throws only std::bad_alloc.
std::string gpu_cxx_vectors(GpuCxx language);

/// The float16 conversions plinth_half_to_float, plinth_float_to_half_rte and
/// plinth_double_to_half_rte (gpu_cxx_half.cpp). Throws only std::bad_alloc.
std::string gpu_cxx_half(GpuCxx language);

/// The images: the plinth_image structs, READ_IMAGE2D and friends, SAMPLER, read_imagef/i/ui,
/// write_imagef/i/ui and the size queries (gpu_cxx_images.cpp). Needs the scalar traits
/// (plinth_bit_cast) and the float16 conversions. Throws only std::bad_alloc.
std::string gpu_cxx_images(GpuCxx language);

}  // namespace plinth::backend::dialect
