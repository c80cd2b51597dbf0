#include "buffer.hpp"

#include "error.hpp"

#include <plinth/errors.hpp>

namespace plinth::opencl {

Buffer::Buffer(cl_mem root, cl_mem arg, std::size_t offset, std::size_t size, std::size_t alignment,
               std::byte* host) noexcept
    : root_(root), arg_(arg), offset_(offset), size_(size), alignment_(alignment), host_(host) {}

std::unique_ptr<Buffer> Buffer::wrap(cl_mem memory, std::size_t size, std::size_t alignment,
                                     bool take_ownership) {
  cl_mem parent = nullptr;
  PLINTH_CHECK(
      clGetMemObjectInfo(memory, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof(parent), &parent, nullptr));
  std::size_t offset = 0;
  std::size_t available = 0;
  PLINTH_CHECK(clGetMemObjectInfo(memory, CL_MEM_OFFSET, sizeof(offset), &offset, nullptr));
  PLINTH_CHECK(clGetMemObjectInfo(memory, CL_MEM_SIZE, sizeof(available), &available, nullptr));
  if (size > available)
    throw LogicError("the cl_mem to wrap has " + std::to_string(available) + " bytes, not " +
                     std::to_string(size));
  // A sub-buffer is addressed through its parent, where further sub-buffers can be made.
  cl_mem root = parent != nullptr ? parent : memory;
  if (parent != nullptr) PLINTH_CHECK(clRetainMemObject(parent));
  if (!take_ownership) {
    const cl_int code = clRetainMemObject(memory);
    if (code != CL_SUCCESS && parent != nullptr)
      PLINTH_CHECK_IN_DESTRUCTOR(clReleaseMemObject(parent));
    plinth::backend::check(code, "clRetainMemObject");
  }
  return std::make_unique<Buffer>(root, memory, offset, size, alignment);
}

Buffer::~Buffer() {
  if (arg_ != nullptr && arg_ != root_) PLINTH_CHECK_IN_DESTRUCTOR(clReleaseMemObject(arg_));
  PLINTH_CHECK_IN_DESTRUCTOR(clReleaseMemObject(root_));
}

std::size_t Buffer::size() const { return size_; }

std::unique_ptr<backend::BufferAdapter> Buffer::sub_region(std::size_t origin, std::size_t size) {
  const std::size_t offset = offset_ + origin;
  cl_mem arg = nullptr;
  if (offset == 0) {
    arg = root_;
  } else if (offset % alignment_ == 0) {
    const cl_buffer_region region{offset, size};
    cl_int code = CL_SUCCESS;
    arg = clCreateSubBuffer(root_, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &code);
    check_alloc(code, "clCreateSubBuffer");
  }
  const cl_int code = clRetainMemObject(root_);
  if (code != CL_SUCCESS && arg != nullptr && arg != root_)
    PLINTH_CHECK_IN_DESTRUCTOR(clReleaseMemObject(arg));
  plinth::backend::check(code, "clRetainMemObject");
  return std::make_unique<Buffer>(root_, arg, offset, size, alignment_,
                                  host_ != nullptr ? host_ + origin : nullptr);
}

backend::ArgValue Buffer::kernel_arg() const {
  if (arg_ == nullptr) [[unlikely]]
    throw LogicError("this buffer region starts at byte " + std::to_string(offset_) +
                     " of its allocation, but OpenCL sub-buffers must start at a multiple of " +
                     std::to_string(alignment_) +
                     " bytes on this device, so it cannot be a kernel argument (transfers "
                     "work; pass an aligned region and an offset instead)");
  return {&arg_, sizeof(cl_mem)};
}

backend::NativeHandle Buffer::native_handle() const {
  return reinterpret_cast<backend::NativeHandle>(arg_);
}

}  // namespace plinth::opencl
