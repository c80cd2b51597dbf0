#include "kernel.hpp"

#include "device.hpp"
#include "error.hpp"
#include "launch_order.hpp"

#include <plinth/backend/queue.hpp>
#include <plinth/errors.hpp>

#include <charconv>
#include <string>
#include <string_view>

namespace plinth::opencl {

namespace {

// The size of a by-value parameter from its OpenCL C type name; 0 if unknown (a struct or a
// typedef), which the core does not check.
std::size_t scalar_size(std::string_view type, std::size_t address_bytes) {
  std::string name;
  if (type.starts_with("unsigned ")) {
    name = "u";
    type.remove_prefix(9);
  }
  std::size_t lanes = 1;
  const auto digits = type.find_last_not_of("0123456789");
  if (digits != std::string_view::npos && digits + 1 < type.size()) {
    // A typedef may end in any digits (my_type99999999999999999999): those are not lanes.
    const auto count = type.substr(digits + 1);
    const auto [end, ec] = std::from_chars(count.data(), count.data() + count.size(), lanes);
    if (ec != std::errc() || end != count.data() + count.size() || lanes > 16) return 0;
    type = type.substr(0, digits + 1);
    if (lanes == 3) lanes = 4;  // 3-vectors are stored as 4-vectors
  }
  name += type;
  struct Entry {
    std::string_view name;
    std::size_t size;  // 0: the device's address size
  };
  static constexpr Entry table[] = {
      {"char", 1},   {"uchar", 1},  {"short", 2},     {"ushort", 2},   {"half", 2},
      {"int", 4},    {"uint", 4},   {"float", 4},     {"long", 8},     {"ulong", 8},
      {"double", 8}, {"size_t", 0}, {"ptrdiff_t", 0}, {"intptr_t", 0}, {"uintptr_t", 0}};
  for (const auto& entry : table)
    if (entry.name == name) return (entry.size == 0 ? address_bytes : entry.size) * lanes;
  return 0;
}

template <class Query>
bool arg_info(Query query, std::string& value) {
  std::size_t size = 0;
  if (query(0, nullptr, &size) != CL_SUCCESS) return false;
  value.assign(size, '\0');
  if (size > 0 && query(size, value.data(), nullptr) != CL_SUCCESS) {
    value.clear();
    return false;
  }
  while (!value.empty() && value.back() == '\0') value.pop_back();
  return true;
}

}  // namespace

std::unique_ptr<Kernel> Kernel::create(cl_kernel kernel, cl_device_id device, std::string name) {
  std::unique_ptr<Kernel> result(new Kernel(kernel, std::move(name)));
  result->introspect(device);
  result->in_launch_order_ = launches_race(device);
  return result;
}

Kernel::Kernel(cl_kernel kernel, std::string name) noexcept
    : kernel_(kernel), name_(std::move(name)) {}

Kernel::~Kernel() { PLINTH_CHECK_IN_DESTRUCTOR(clReleaseKernel(kernel_)); }

void Kernel::introspect(cl_device_id device) {
  PLINTH_CHECK(clGetKernelWorkGroupInfo(kernel_, device, CL_KERNEL_WORK_GROUP_SIZE,
                                        sizeof(max_total_local_size_), &max_total_local_size_,
                                        nullptr));
  const auto address_bytes = device_value<cl_uint>(device, CL_DEVICE_ADDRESS_BITS) / 8;
  cl_uint count = 0;
  PLINTH_CHECK(clGetKernelInfo(kernel_, CL_KERNEL_NUM_ARGS, sizeof(count), &count, nullptr));
  params_.resize(count);
  for (cl_uint i = 0; i < count; ++i) {
    auto query = [&](cl_kernel_arg_info param) {
      return [this, i, param](std::size_t size, void* value, std::size_t* size_ret) {
        return clGetKernelArgInfo(kernel_, i, param, size, value, size_ret);
      };
    };
    auto& info = params_[i];
    // Without -cl-kernel-arg-info (or from some drivers) nothing is known: kind unknown.
    cl_kernel_arg_address_qualifier address = 0;
    if (query(CL_KERNEL_ARG_ADDRESS_QUALIFIER)(sizeof(address), &address, nullptr) != CL_SUCCESS)
      continue;
    arg_info(query(CL_KERNEL_ARG_TYPE_NAME), info.type_name);
    arg_info(query(CL_KERNEL_ARG_NAME), info.name);
    // Images and samplers before the address spaces: OpenCL reports images as global.
    if (info.type_name.starts_with("image")) {
      info.kind = backend::ParamKind::image;
      info.size = sizeof(cl_mem);
      continue;
    }
    if (info.type_name == "sampler_t") {
      info.kind = backend::ParamKind::sampler;
      info.size = sizeof(cl_sampler);
      continue;
    }
    switch (address) {
      case CL_KERNEL_ARG_ADDRESS_GLOBAL:
        info.kind = backend::ParamKind::global_ptr;
        info.size = sizeof(cl_mem);
        break;
      case CL_KERNEL_ARG_ADDRESS_CONSTANT:
        info.kind = backend::ParamKind::constant_ptr;
        info.size = sizeof(cl_mem);
        break;
      case CL_KERNEL_ARG_ADDRESS_LOCAL:
        info.kind = backend::ParamKind::local_ptr;  // takes a size in bytes: nothing to check
        break;
      default:
        info.kind = backend::ParamKind::scalar;
        info.size = scalar_size(info.type_name, address_bytes);
    }
  }
}

std::span<const backend::ParamInfo> Kernel::parameters() const { return params_; }

std::size_t Kernel::max_total_local_size() const { return max_total_local_size_; }

void Kernel::launch(backend::QueueAdapter& queue, const backend::LaunchShape& shape,
                    std::span<const backend::ArgValue> args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const cl_int code =
        clSetKernelArg(kernel_, static_cast<cl_uint>(i), args[i].size, args[i].data);
    if (code != CL_SUCCESS) [[unlikely]]
      throw_arg_error(code, i);
  }
  if (shape.local_mem > 0) {
    // The trailing LOCAL_MEM_DYNAMIC parameter (dynamic_local_memory(): the core checked at
    // prepare time that there is one and passed the arguments before it).
    const auto index = args.size();
    const cl_int code =
        clSetKernelArg(kernel_, static_cast<cl_uint>(index), shape.local_mem, nullptr);
    if (code != CL_SUCCESS) [[unlikely]]
      throw_arg_error(code, index);
  }
  const auto cl_queue = reinterpret_cast<cl_command_queue>(queue.native_handle());
  if (in_launch_order_) [[unlikely]] {
    enqueue_in_launch_order(cl_queue, kernel_, shape);
    return;
  }
  PLINTH_CHECK(clEnqueueNDRangeKernel(cl_queue, kernel_, shape.dims, nullptr, shape.global.data(),
                                      shape.local.data(), 0, nullptr, nullptr));
}

void Kernel::throw_arg_error(cl_int code, std::size_t index) const {
  std::string detail = "kernel '" + name_ + "', argument " + std::to_string(index);
  if (index < params_.size() && !params_[index].name.empty())
    detail += " (" + params_[index].type_name + " " + params_[index].name + ")";
  throw_error(code, "clSetKernelArg", detail);
}

backend::NativeHandle Kernel::native_handle() const {
  return reinterpret_cast<backend::NativeHandle>(kernel_);
}

}  // namespace plinth::opencl
