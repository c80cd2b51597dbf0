#include "blas.hpp"

#include "buffer.hpp"
#include "error.hpp"
#include "launch_order.hpp"

#include <plinth/errors.hpp>

#include <complex>
#include <type_traits>

namespace plinth::opencl {

namespace {

clblast::Transpose transpose(backend::BlasOp op) {
  switch (op) {
    case backend::BlasOp::none: return clblast::Transpose::no;
    case backend::BlasOp::transpose: return clblast::Transpose::yes;
    case backend::BlasOp::conjugate_transpose: return clblast::Transpose::conjugate;
  }
  return clblast::Transpose::no;
}

/// alpha or beta in the element type.
template <class T>
T scalar(std::complex<double> value) {
  if constexpr (std::is_same_v<T, cl_float2>) {
    T result;
    result.s[0] = static_cast<float>(value.real());
    result.s[1] = static_cast<float>(value.imag());
    return result;
  } else if constexpr (std::is_same_v<T, cl_double2>) {
    T result;
    result.s[0] = value.real();
    result.s[1] = value.imag();
    return result;
  } else {
    return static_cast<T>(value.real());
  }
}

/// An operand's root cl_mem and its first element's offset in elements (CLBlast's offsets
/// count elements).
template <class Operand>
std::pair<cl_mem, std::size_t> memory(const Operand& operand, std::size_t itemsize) {
  const auto& buffer = static_cast<const Buffer&>(*operand.buffer);
  return {buffer.root(), (buffer.offset() + operand.offset) / itemsize};
}

template <class T>
clblast::Status typed_gemm(const clblast::Typed<T>& f, const backend::BlasGemm& call,
                           cl_command_queue* queue, cl_event* event) {
  const auto size = sizeof(T);
  const auto [a, a_offset] = memory(call.a, size);
  const auto [b, b_offset] = memory(call.b, size);
  const auto [c, c_offset] = memory(call.c, size);
  const auto layout = clblast::Layout::column_major;
  if (call.batch == 1) {
    return f.gemm(layout, transpose(call.op_a), transpose(call.op_b), call.m, call.n, call.k,
                  scalar<T>(call.alpha), a, a_offset, call.a.ld, b, b_offset, call.b.ld,
                  scalar<T>(call.beta), c, c_offset, call.c.ld, queue, event);
  }
  return f.gemm_strided_batched(layout, transpose(call.op_a), transpose(call.op_b), call.m, call.n,
                                call.k, scalar<T>(call.alpha), a, a_offset, call.a.ld,
                                call.a.batch_stride, b, b_offset, call.b.ld, call.b.batch_stride,
                                scalar<T>(call.beta), c, c_offset, call.c.ld, call.c.batch_stride,
                                call.batch, queue, event);
}

template <class T>
clblast::Status typed_gemv(const clblast::Typed<T>& f, const backend::BlasGemv& call,
                           cl_command_queue* queue, cl_event* event) {
  const auto size = sizeof(T);
  const auto [a, a_offset] = memory(call.a, size);
  const auto [x, x_offset] = memory(call.x, size);
  const auto [y, y_offset] = memory(call.y, size);
  return f.gemv(clblast::Layout::column_major, transpose(call.op_a), call.m, call.n,
                scalar<T>(call.alpha), a, a_offset, call.a.ld, x, x_offset, call.x.inc,
                scalar<T>(call.beta), y, y_offset, call.y.inc, queue, event);
}

/// Calls `call` with the table of `type`'s functions (S, D, C or Z) and returns its status.
template <class Call>
clblast::Status with_typed(const clblast::Functions& f, backend::BlasType type, Call&& call) {
  switch (type) {
    case backend::BlasType::float32: return call(f.s);
    case backend::BlasType::float64: return call(f.d);
    case backend::BlasType::complex64: return call(f.c);
    case backend::BlasType::complex128: return call(f.z);
  }
  return clblast::Status{-2039};  // CLBlastUnexpectedError
}

}  // namespace

std::unique_ptr<Blas> Blas::create(cl_command_queue queue, cl_device_id device) {
  const auto& library = clblast::library();
  if (!library.available) throw LogicError("no CLBlast: " + library.description);
  return std::unique_ptr<Blas>(new Blas(queue, launches_race(device)));
}

template <class Routine>
void Blas::run(const char* name, Routine&& routine) {
  if (!in_launch_order_) {
    cl_command_queue queue = queue_;
    clblast::check(routine(&queue, nullptr), name);
    return;
  }
  enqueue_in_launch_order(queue_, [&](cl_command_queue queue) {
    cl_event event = nullptr;
    clblast::check(routine(&queue, &event), name);
    return event;
  });
}

void Blas::gemm(const backend::BlasGemm& call) {
  const auto& f = clblast::library().functions;
  const char* name = call.batch == 1 ? "CLBlast<t>gemm" : "CLBlast<t>gemmStridedBatched";
  run(name, [&](cl_command_queue* queue, cl_event* event) {
    return with_typed(f, call.type,
                      [&](const auto& typed) { return typed_gemm(typed, call, queue, event); });
  });
}

void Blas::gemv(const backend::BlasGemv& call) {
  const auto& f = clblast::library().functions;
  run("CLBlast<t>gemv", [&](cl_command_queue* queue, cl_event* event) {
    return with_typed(f, call.type,
                      [&](const auto& typed) { return typed_gemv(typed, call, queue, event); });
  });
}

}  // namespace plinth::opencl
