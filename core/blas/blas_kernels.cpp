#include "blas/blas_kernels.hpp"

#include "algorithms/kit/array_arguments.hpp"
#include "algorithms/kit/launch_sizing.hpp"
#include "algorithms/kit/program_slot.hpp"
#include "blas/vendor_blas.hpp"
#include "runtime/impl.hpp"

#include <plinth/array_expression.hpp>
#include <plinth/array_shape.hpp>
#include <plinth/errors.hpp>
#include <plinth/program.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <tuple>
#include <vector>

namespace plinth::detail {

namespace {

/// Groups per compute unit at most (the group-stride loops cover the other tiles).
constexpr std::size_t blas_groups_per_compute_unit = 16;

RecipeId gemm_recipe_id() {
  static const RecipeId id = next_recipe_id();
  return id;
}

RecipeId gemv_recipe_id() {
  static const RecipeId id = next_recipe_id();
  return id;
}

/// A GEMM program and the tiling it was built with.
struct GemmSlot : ProgramSlot {
  GemmTiling tiling;
};

bool needs_double(BlasType type) {
  return type == BlasType::float64 || type == BlasType::complex128;
}

/// Throws LogicError unless `device` computes `type`.
void check_precision(const char* function, const BoundDevice& device, const DType& dtype,
                     BlasType type) {
  if (needs_double(type) && !device.params().supports_double) {
    throw LogicError(fmt::format("{}: {} needs double precision, which {} does not have", function,
                                 dtype.name(), device.device().full_name()));
  }
}

/// A matrix operand as the kernels read it: its buffer, its first element's offset and its
/// strides, in elements.
struct Operand {
  const Buffer* buffer = nullptr;
  std::int64_t base = 0;
  std::int64_t row_stride = 0;
  std::int64_t col_stride = 0;
  std::int64_t batch_stride = 0;
};

/// Turns C = A B (m x n) into the same product computed as C^T = B^T A^T (n x m): the
/// operands swapped and each one's strides exchanged, with their conjugations.
void transpose_product(Operand& a, Operand& b, Operand& c, std::size_t& m, std::size_t& n,
                       ProductTerms& terms) {
  std::swap(a, b);
  std::swap(a.row_stride, a.col_stride);
  std::swap(b.row_stride, b.col_stride);
  std::swap(c.row_stride, c.col_stride);
  std::swap(m, n);
  std::swap(terms.conjugate_a, terms.conjugate_b);
}

/// Whether the kernels may read `a` where it is: strides and offset of whole elements, the
/// first element aligned for its type.
bool readable_in_place(const Array& a) {
  const auto itemsize = a.dtype().itemsize();
  const auto offset = a.base_buffer().offset() + a.first_element_offset();
  return a.first_element_offset() % itemsize == 0 &&
         offset % std::min<std::size_t>(itemsize, 16) == 0 && strides_in_elements(a).has_value();
}

/// `a`, or a C-order copy of it made on `queue` where the kernels cannot read it in place.
Array readable(const Queue& queue, const Array& a) {
  return readable_in_place(a) ? a : copy(queue, a);
}

/// The kernels' scalar arguments (alpha and beta, real and imaginary parts) in the dtype's
/// real type. Fixed storage: KernelArgs refer to it.
struct RealScalars {
  std::array<float, 4> single{};
  std::array<double, 4> wide{};

  RealScalars(const ProductTerms& terms) {
    wide = {terms.alpha.real(), terms.alpha.imag(), terms.beta.real(), terms.beta.imag()};
    for (std::size_t i = 0; i < 4; ++i) single[i] = static_cast<float>(wide[i]);
  }
  void add_to(std::vector<KernelArg>& args, BlasType type) const {
    for (std::size_t i = 0; i < 4; ++i) {
      if (needs_double(type)) {
        args.emplace_back(wide[i]);
      } else {
        args.emplace_back(single[i]);
      }
    }
  }
};

/// Builds the GEMM program of `recipe` (its tiling chosen here) into `slot` if it has none:
/// the tiling is made smaller when the kernel allows fewer work items than it has.
void build_gemm(GemmSlot& slot, const BoundDevice& device, GemmRecipe recipe,
                std::size_t itemsize) {
  const std::lock_guard lock(slot.mutex);
  if (slot.built()) return;
  const auto& params = device.params();
  const auto local_bytes = std::min(params.local_mem_size, max_static_local_bytes);
  std::size_t max_items = params.max_total_local_size;
  for (int attempt = 0; attempt < 8; ++attempt) {
    recipe.tiling = gemm_tiling(itemsize, params.warp_size, max_items, local_bytes);
    const auto items = recipe.tiling.work_items();
    if (items == 0) break;
    Program program = build_for_store(device, gemm_source(recipe), ProgramOptions{});
    Kernel kernel = program.kernel(std::string(gemm_function));
    const auto limit = kernel.max_total_local_sizes().front();
    if (items <= limit) {
      slot.tiling = recipe.tiling;
      slot.local_size = items;
      slot.max_groups = group_limit(params, blas_groups_per_compute_unit);
      slot.program = std::move(program);
      slot.kernels.push_back(std::move(kernel));
      return;
    }
    max_items = std::min(limit, items - 1);
  }
  throw LogicError(
      fmt::format("gemm: no tiling of elements of {} bytes fits {} ({} bytes of "
                  "local memory, {} work items a group)",
                  itemsize, device.device().full_name(), local_bytes, params.max_total_local_size));
}

/// One GEMM launch: C = alpha A B + beta C over `batch` matrices.
void launch_gemm(const Queue& queue, BlasType type, std::size_t itemsize, Operand a, Operand b,
                 Operand c, std::size_t m, std::size_t n, std::size_t k, std::size_t batch,
                 ProductTerms terms) {
  if (m == 0 || n == 0 || batch == 0) return;
  // The kernel writes C along its rows (neighbouring work items in neighbouring columns):
  // for a C whose columns are the faster, compute C^T = B^T A^T instead.
  if (std::llabs(c.row_stride) < std::llabs(c.col_stride)) transpose_product(a, b, c, m, n, terms);
  GemmRecipe recipe;
  recipe.type = type;
  const auto& device = queue.device();
  const std::array<std::uint64_t, 1> words{static_cast<std::uint64_t>(type)};
  const auto slot = store_slot<GemmSlot>(gemm_recipe_id(), device, words);
  build_gemm(*slot, device, recipe, itemsize);
  const auto [kernel, tiling, local_size, max_groups] = [&] {
    const std::lock_guard lock(slot->mutex);
    return std::tuple(slot->kernels.front(), slot->tiling, slot->local_size, slot->max_groups);
  }();

  const std::array<std::int64_t, 12> offsets{c.base, c.row_stride, c.col_stride, c.batch_stride,
                                             a.base, a.row_stride, a.col_stride, a.batch_stride,
                                             b.base, b.row_stride, b.col_stride, b.batch_stride};
  const std::uint64_t tiles_m = (m + tiling.rows - 1) / tiling.rows;
  const std::uint64_t tiles_n = (n + tiling.cols - 1) / tiling.cols;
  const std::array<std::uint64_t, 6> sizes{m, n, k, tiles_m, tiles_n, tiles_m * tiles_n * batch};
  const RealScalars scalars(terms);
  std::vector<KernelArg> args;
  args.reserve(30);
  const std::array<const Buffer*, 3> buffers{c.buffer, a.buffer, b.buffer};
  for (std::size_t operand = 0; operand < 3; ++operand) {
    args.emplace_back(*buffers[operand]);
    for (std::size_t i = 0; i < 4; ++i) args.emplace_back(offsets[operand * 4 + i]);
  }
  for (const auto& size : sizes) args.emplace_back(size);
  scalars.add_to(args, type);
  // How the tiles are read: neighbouring work items along each operand's smaller stride.
  const std::array<int, 4> flags{std::llabs(a.row_stride) < std::llabs(a.col_stride),
                                 std::llabs(b.col_stride) <= std::llabs(b.row_stride),
                                 terms.conjugate_a, terms.conjugate_b};
  for (const auto& flag : flags) args.emplace_back(flag);
  const auto groups = groups_for(sizes[5] * local_size, local_size, max_groups);
  const std::size_t global[1] = {groups * local_size};
  const std::size_t local[1] = {local_size};
  kernel.launch(queue, global, local, args);
}

// ---- Through the BLAS library ---------------------------------------------------------------

/// Whether the library can read `a`'s matrices in place, in a product computed as it is or,
/// with `transposed`, as C^T = B^T A^T: whole-element strides and an aligned first element, a
/// BLAS layout of its last two dimensions, batch strides of 0 or more.
bool library_reads(const Array& a, bool transposed, bool conjugate) {
  if (!readable_in_place(a)) return false;
  const auto s = *strides_in_elements(a);
  const auto rank = a.ndim();
  for (std::size_t d = 0; d + 2 < rank; ++d) {
    if (s[d] < 0) return false;
  }
  const auto rows = a.shape()[rank - 2];
  const auto cols = a.shape()[rank - 1];
  return transposed ? blas_layout(cols, rows, s[rank - 1], s[rank - 2], conjugate).has_value()
                    : blas_layout(rows, cols, s[rank - 2], s[rank - 1], conjugate).has_value();
}

/// How the library writes `c`: column-major as it is (false), row-major as C^T (true), or not
/// at all (nothing): it needs an aligned first element, one stride 1, and batch items apart.
std::optional<bool> library_writes(const Array& c) {
  if (!readable_in_place(c)) return std::nullopt;
  const auto s = *strides_in_elements(c);
  const auto rank = c.ndim();
  for (std::size_t d = 0; d + 2 < rank; ++d) {
    if (s[d] <= 0 && c.shape()[d] > 1) return std::nullopt;
  }
  const auto m = c.shape()[rank - 2];
  const auto n = c.shape()[rank - 1];
  const auto direct = blas_layout(m, n, s[rank - 2], s[rank - 1], false);
  if (direct && direct->op == backend::BlasOp::none) return false;
  const auto transposed = blas_layout(n, m, s[rank - 1], s[rank - 2], false);
  if (transposed && transposed->op == backend::BlasOp::none) return true;
  return std::nullopt;
}

/// A new C-order array of `a` (conjugated with `conjugate`), which the library reads in
/// place whatever the product.
Array library_copy(const Queue& queue, const Array& a, bool conjugate) {
  return conjugate ? evaluate(queue, conj(ArrayExpression(a))) : copy(queue, a);
}

/// One library GEMM: C = alpha A B + beta C over `batch` matrices, computed as C^T = B^T A^T
/// with `transposed`. Every operand has a BLAS layout (stacked_gemm made sure).
void library_gemm(backend::BlasAdapter& library, const Queue& queue, const DType& dtype, Operand a,
                  Operand b, Operand c, std::size_t m, std::size_t n, std::size_t k,
                  std::size_t batch, ProductTerms terms, bool transposed) {
  if (transposed) transpose_product(a, b, c, m, n, terms);
  const auto la = blas_layout(m, k, a.row_stride, a.col_stride, terms.conjugate_a);
  const auto lb = blas_layout(k, n, b.row_stride, b.col_stride, terms.conjugate_b);
  const auto lc = blas_layout(m, n, c.row_stride, c.col_stride, false);
  if (!la || !lb || !lc || lc->op != backend::BlasOp::none) {
    throw LogicError("gemm: an operand has no BLAS layout (an internal error)");
  }
  const auto itemsize = dtype.itemsize();
  backend::BlasGemm call;
  call.type = sdk_blas_type(dtype);
  call.op_a = la->op;
  call.op_b = lb->op;
  call.m = m;
  call.n = n;
  call.k = k;
  call.batch = batch;
  call.alpha = terms.alpha;
  call.beta = terms.beta;
  call.a = blas_matrix(*a.buffer, a.base, itemsize, la->ld, a.batch_stride);
  call.b = blas_matrix(*b.buffer, b.base, itemsize, lb->ld, b.batch_stride);
  call.c = blas_matrix(*c.buffer, c.base, itemsize, lc->ld, c.batch_stride);
  call.tensor_float32 = terms.tensor_float32 && dtype == DType::float32();
  for (const auto* buffer : {a.buffer, b.buffer, c.buffer}) note_use(*buffer, queue);
  library.gemm(call);
}

/// Whether the library can address vector `v` in place: a positive whole-element stride and
/// an aligned first element.
bool library_vector(const Array& v) {
  return readable_in_place(v) && (v.shape()[0] <= 1 || (*strides_in_elements(v))[0] > 0);
}

/// y = alpha op(A) x + beta y through the library (strided_gemv's contract, A not empty):
/// operands it cannot address copied first, a y it cannot address replaced by a temporary.
void library_gemv(backend::BlasAdapter& library, const Queue& queue, const Array& a_in,
                  const Array& x_in, const Array& y, ProductTerms terms) {
  if (!library_vector(y)) {
    const Array temporary = output_temporary(queue, y, terms.beta);
    library_gemv(library, queue, a_in, x_in, temporary, terms);
    y.set(queue, temporary);
    return;
  }
  Array a = a_in;
  if (!library_reads(a, false, terms.conjugate_a)) {
    a = library_copy(queue, a, terms.conjugate_a);
    terms.conjugate_a = false;
  }
  const Array x = library_vector(x_in) ? x_in : copy(queue, x_in);
  const std::size_t m = a.shape()[0];
  const std::size_t k = a.shape()[1];
  const auto sa = *strides_in_elements(a);
  const auto layout = *blas_layout(m, k, sa[0], sa[1], terms.conjugate_a);
  const auto itemsize = y.dtype().itemsize();
  const auto vector = [&](const Array& v) {
    const auto stride = v.shape()[0] <= 1 ? 1 : (*strides_in_elements(v))[0];
    return backend::BlasVector{detail::Access::impl(v.base_buffer())->adapter.get(),
                               static_cast<std::size_t>(element_offset(v)) * itemsize,
                               static_cast<std::size_t>(stride)};
  };
  backend::BlasGemv call;
  call.type = sdk_blas_type(y.dtype());
  call.op_a = layout.op;
  // BLAS's A is the stored matrix: A itself (m x k) or, for a row-major A, A^T (k x m).
  call.m = layout.op == backend::BlasOp::none ? m : k;
  call.n = layout.op == backend::BlasOp::none ? k : m;
  call.alpha = terms.alpha;
  call.beta = terms.beta;
  call.a = blas_matrix(a.base_buffer(), element_offset(a), itemsize, layout.ld, 0);
  call.x = vector(x);
  call.y = vector(y);
  for (const Array* array : std::initializer_list<const Array*>{&a, &x, &y}) {
    note_use(array->base_buffer(), queue);
  }
  library.gemv(call);
}

/// One batch dimension of a stacked product: its extent and the three operands' strides.
struct BatchDim {
  std::size_t extent = 1;
  std::array<std::int64_t, 3> strides{};  // a, b, c
};

}  // namespace

std::optional<BlasType> blas_type(const DType& dtype) noexcept {
  if (dtype == DType::float32()) return BlasType::float32;
  if (dtype == DType::float64()) return BlasType::float64;
  if (dtype == DType::complex64()) return BlasType::complex64;
  if (dtype == DType::complex128()) return BlasType::complex128;
  return std::nullopt;
}

Array output_temporary(const Queue& queue, const Array& out, std::complex<double> beta) {
  return beta == 0.0 ? Array::empty(queue, out.shape(), out.dtype()) : copy(queue, out);
}

void stacked_gemm(const Queue& queue, const Array& a_in, const Array& b_in, const Array& c,
                  const ProductTerms& terms_in) {
  const auto type = *blas_type(c.dtype());
  check_precision("gemm", queue.device(), c.dtype(), type);
  const std::size_t rank = c.ndim();
  const bool empty = c.size() == 0 || a_in.shape()[rank - 1] == 0;
  backend::BlasAdapter* const library = empty ? nullptr : queue_blas(queue);
  ProductTerms terms = terms_in;
  Array a = a_in;
  Array b = b_in;
  bool transposed = false;
  if (library != nullptr) {
    const auto writes = library_writes(c);
    if (!writes) {
      const Array temporary = output_temporary(queue, c, terms.beta);
      stacked_gemm(queue, a, b, temporary, terms);
      c.set(queue, temporary);
      return;
    }
    transposed = *writes;
    if (!library_reads(a, transposed, terms.conjugate_a)) {
      a = library_copy(queue, a, terms.conjugate_a);
      terms.conjugate_a = false;
    }
    if (!library_reads(b, transposed, terms.conjugate_b)) {
      b = library_copy(queue, b, terms.conjugate_b);
      terms.conjugate_b = false;
    }
  } else {
    a = readable(queue, a_in);
    b = readable(queue, b_in);
    if (!readable_in_place(c)) {
      const Array temporary = output_temporary(queue, c, terms.beta);
      stacked_gemm(queue, a, b, temporary, terms);
      c.set(queue, temporary);
      return;
    }
  }
  const auto sa = *strides_in_elements(a);
  const auto sb = *strides_in_elements(b);
  const auto sc = *strides_in_elements(c);
  const std::size_t m = c.shape()[rank - 2];
  const std::size_t n = c.shape()[rank - 1];
  const std::size_t k = a.shape()[rank - 1];

  // Batch dimensions of extent 1 dropped, neighbours contiguous in all three merged; the
  // innermost is the kernel's, the others are looped over here.
  std::vector<BatchDim> batch;
  for (std::size_t d = 0; d + 2 < rank; ++d) {
    const auto extent = c.shape()[d];
    if (extent == 0) return;
    if (extent == 1) continue;
    const BatchDim dim{extent, {sa[d], sb[d], sc[d]}};
    if (!batch.empty()) {
      auto& outer = batch.back();
      const auto e = static_cast<std::int64_t>(extent);
      if (outer.strides[0] == dim.strides[0] * e && outer.strides[1] == dim.strides[1] * e &&
          outer.strides[2] == dim.strides[2] * e) {
        outer = {outer.extent * extent, dim.strides};
        continue;
      }
    }
    batch.push_back(dim);
  }
  const BatchDim inner = batch.empty() ? BatchDim{} : batch.back();
  if (!batch.empty()) batch.pop_back();
  std::size_t outer_count = 1;
  for (const auto& dim : batch) outer_count *= dim.extent;

  const auto itemsize = c.dtype().itemsize();
  for (std::size_t index = 0; index < outer_count; ++index) {
    std::array<std::int64_t, 3> base{element_offset(a), element_offset(b), element_offset(c)};
    std::size_t rest = index;
    for (auto dim = batch.rbegin(); dim != batch.rend(); ++dim) {
      const auto at = static_cast<std::int64_t>(rest % dim->extent);
      rest /= dim->extent;
      for (std::size_t o = 0; o < 3; ++o) base[o] += at * dim->strides[o];
    }
    const Operand oa{&a.base_buffer(), base[0], sa[rank - 2], sa[rank - 1], inner.strides[0]};
    const Operand ob{&b.base_buffer(), base[1], sb[rank - 2], sb[rank - 1], inner.strides[1]};
    const Operand oc{&c.base_buffer(), base[2], sc[rank - 2], sc[rank - 1], inner.strides[2]};
    if (library != nullptr) {
      library_gemm(*library, queue, c.dtype(), oa, ob, oc, m, n, k, inner.extent, terms,
                   transposed);
    } else {
      launch_gemm(queue, type, itemsize, oa, ob, oc, m, n, k, inner.extent, terms);
    }
  }
}

void strided_gemv(const Queue& queue, const Array& a_in, const Array& x_in, const Array& y,
                  const ProductTerms& terms) {
  const auto type = *blas_type(y.dtype());
  const auto& device = queue.device();
  check_precision("gemv", device, y.dtype(), type);
  if (a_in.size() > 0) {
    if (auto* library = queue_blas(queue)) {
      library_gemv(*library, queue, a_in, x_in, y, terms);
      return;
    }
  }
  const Array a = readable(queue, a_in);
  const Array x = readable(queue, x_in);
  if (!readable_in_place(y)) {
    const Array temporary = output_temporary(queue, y, terms.beta);
    strided_gemv(queue, a, x, temporary, terms);
    y.set(queue, temporary);
    return;
  }
  const std::size_t m = a.shape()[0];
  const std::size_t k = a.shape()[1];
  if (m == 0) return;
  const auto sa = *strides_in_elements(a);
  const auto sx = *strides_in_elements(x);
  const auto sy = *strides_in_elements(y);

  const auto& params = device.params();
  GemvRecipe recipe;
  recipe.type = type;
  recipe.lanes_fast = std::llabs(sa[1]) <= std::llabs(sa[0]);
  const bool gpu = params.warp_size > 1;
  recipe.rows = recipe.lanes_fast ? (gpu ? 8 : 4) : (gpu ? 64 : 16);
  recipe.lanes = recipe.lanes_fast ? (gpu ? 32 : 16) : 4;
  while (recipe.rows * recipe.lanes > params.max_total_local_size && recipe.rows > 1) {
    recipe.rows /= 2;
  }
  while (recipe.rows * recipe.lanes > params.max_total_local_size && recipe.lanes > 1) {
    recipe.lanes /= 2;
  }
  const std::array<std::uint64_t, 4> words{static_cast<std::uint64_t>(type), recipe.lanes_fast,
                                           recipe.rows, recipe.lanes};
  const auto slot = store_slot(gemv_recipe_id(), device, words);
  {
    const std::lock_guard lock(slot->mutex);
    if (!slot->built()) {
      Program program = build_for_store(device, gemv_source(recipe), ProgramOptions{});
      Kernel kernel = program.kernel(std::string(gemv_function));
      if (recipe.rows * recipe.lanes > kernel.max_total_local_sizes().front()) {
        throw LogicError(fmt::format("gemv: the kernel runs at most {} work items a group on {}",
                                     kernel.max_total_local_sizes().front(),
                                     device.device().full_name()));
      }
      slot->local_size = recipe.rows * recipe.lanes;
      slot->max_groups = group_limit(params, blas_groups_per_compute_unit);
      slot->program = std::move(program);
      slot->kernels.push_back(std::move(kernel));
    }
  }
  const auto [kernel, local_size, max_groups] = [&] {
    const std::lock_guard lock(slot->mutex);
    return std::tuple(slot->kernels.front(), slot->local_size, slot->max_groups);
  }();
  const std::array<std::int64_t, 7> offsets{
      element_offset(y), sy[0], element_offset(a), sa[0], sa[1], element_offset(x), sx[0]};
  const std::uint64_t blocks = (m + recipe.rows - 1) / recipe.rows;
  const std::array<std::uint64_t, 3> sizes{m, k, blocks};
  const RealScalars scalars(terms);
  std::vector<KernelArg> args;
  args.reserve(18);
  args.emplace_back(y.base_buffer());
  args.emplace_back(offsets[0]);
  args.emplace_back(offsets[1]);
  args.emplace_back(a.base_buffer());
  for (std::size_t i = 2; i < 5; ++i) args.emplace_back(offsets[i]);
  args.emplace_back(x.base_buffer());
  args.emplace_back(offsets[5]);
  args.emplace_back(offsets[6]);
  for (const auto& size : sizes) args.emplace_back(size);
  scalars.add_to(args, type);
  const int conjugate_a = terms.conjugate_a;
  args.emplace_back(conjugate_a);
  const auto groups = groups_for(blocks * local_size, local_size, max_groups);
  const std::size_t global[1] = {groups * local_size};
  const std::size_t local[1] = {local_size};
  kernel.launch(queue, global, local, args);
}

}  // namespace plinth::detail
