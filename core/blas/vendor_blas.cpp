#include "blas/vendor_blas.hpp"

#include "runtime/impl.hpp"

#include <plinth/blas.hpp>
#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <string_view>

namespace plinth {

namespace detail {

namespace {

/// What PLINTH_BLAS asks for.
enum class BlasEngine { automatic, library, plinth };

BlasEngine engine_from_environment() {
  const char* value = std::getenv("PLINTH_BLAS");
  if (value == nullptr || *value == '\0') return BlasEngine::automatic;
  const std::string_view text(value);
  if (text == "library") return BlasEngine::library;
  if (text == "plinth") return BlasEngine::plinth;
  throw LogicError(
      fmt::format("PLINTH_BLAS is '{}': it takes 'library' (the vendor's BLAS library) or 'plinth' "
                  "(plinth's generated kernels), or is unset (the library where there is one)",
                  text.substr(0, 64)));
}

}  // namespace

backend::BlasLibrary blas_library(const LoadedApi& api) noexcept {
  if (api.abi_minor < 7) {
    return {false, fmt::format("the {} plugin is of SDK 1.{}, which has no BLAS library (1.7 "
                               "added it)",
                               api.id.shortcut, api.abi_minor)};
  }
  try {
    return api.adapter->blas_library();
  } catch (const std::exception& e) {
    return {false, e.what()};
  } catch (...) {
    return {false, "the backend failed to say"};
  }
}

backend::BlasAdapter* queue_blas(const Queue& queue) {
  const auto engine = engine_from_environment();
  if (engine == BlasEngine::plinth) return nullptr;
  auto& impl = *detail::Access::impl(queue);
  if (impl.blas) return impl.blas.get();
  const auto& api = loaded(queue.device().context().api());
  const auto library = blas_library(api);
  if (!library.available) {
    if (engine == BlasEngine::library) {
      throw LogicError(
          fmt::format("PLINTH_BLAS=library, but the {} backend has no BLAS library: {}",
                      api.id.shortcut, library.description));
    }
    return nullptr;
  }
  impl.blas = api.adopt(impl.adapter->create_blas());
  return impl.blas.get();
}

std::optional<BlasLayout> blas_layout(std::size_t rows, std::size_t cols, std::int64_t row_stride,
                                      std::int64_t col_stride, bool conjugate) noexcept {
  const auto at_least = [](std::int64_t stride, std::size_t extent) {
    return stride > 0 && static_cast<std::uint64_t>(stride) >= std::max<std::size_t>(extent, 1);
  };
  // As stored: column-major, ld the column stride. BLAS has no "conjugate only".
  if (!conjugate && (rows == 1 || row_stride == 1) && (cols == 1 || at_least(col_stride, rows))) {
    return BlasLayout{backend::BlasOp::none,
                      cols == 1 ? std::max<std::size_t>(rows, 1) : std::size_t(col_stride)};
  }
  // The transpose of a column-major cols x rows matrix: row-major, ld the row stride.
  if ((cols == 1 || col_stride == 1) && (rows == 1 || at_least(row_stride, cols))) {
    return BlasLayout{conjugate ? backend::BlasOp::conjugate_transpose : backend::BlasOp::transpose,
                      rows == 1 ? std::max<std::size_t>(cols, 1) : std::size_t(row_stride)};
  }
  return std::nullopt;
}

backend::BlasType sdk_blas_type(const DType& dtype) {
  if (dtype == DType::float32()) return backend::BlasType::float32;
  if (dtype == DType::float64()) return backend::BlasType::float64;
  if (dtype == DType::complex64()) return backend::BlasType::complex64;
  if (dtype == DType::complex128()) return backend::BlasType::complex128;
  throw LogicError(fmt::format("no BLAS library multiplies {}", dtype.name()));
}

backend::BlasMatrix blas_matrix(const Buffer& buffer, std::int64_t elements, std::size_t itemsize,
                                std::size_t ld, std::int64_t batch_stride) {
  return {detail::Access::impl(buffer)->adapter.get(),
          static_cast<std::size_t>(elements) * itemsize, ld,
          static_cast<std::size_t>(batch_stride)};
}

}  // namespace detail

BlasSupport blas_support(const API& api) {
  const auto library = detail::blas_library(detail::loaded(api));
  return {library.available, library.description};
}

}  // namespace plinth
