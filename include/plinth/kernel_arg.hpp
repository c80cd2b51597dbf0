#pragma once

#include <plinth/buffer.hpp>

#include <cstddef>
#include <span>
#include <type_traits>

namespace plinth {

class Array;
class Image;
class Sampler;

/// One argument of a kernel call: a Buffer (the kernel receives a pointer to its first byte),
/// an Array (a pointer to its first element: see Array), an Image or a Sampler (for the
/// dialect's image and sampler parameters, <plinth/image.hpp>) or a scalar passed by value
/// (its size must equal the parameter's). Built implicitly from the arguments of
/// Kernel::operator() and PreparedKernel::operator(); it only refers to them, so it never
/// outlives the call.
class KernelArg {
 public:
  /// What the argument is (an Array is a buffer: its first element buffer).
  enum class Kind {
    buffer,   ///< a Buffer or an Array: buffer()
    scalar,   ///< bytes passed by value: data() and size()
    image,    ///< image()
    sampler,  ///< sampler()
  };

  /// A Buffer: the kernel receives a pointer to its first byte.
  KernelArg(const Buffer& buffer) : kind_(Kind::buffer), buffer_(&buffer) {}  // NOLINT
  /// An Array: its Array::first_element_buffer(). Defined in <plinth/array.hpp>.
  inline KernelArg(const Array& array);  // NOLINT
  ///@{
  /// An Image or a Sampler, for an image or sampler parameter.
  KernelArg(const Image& image) : kind_(Kind::image), image_(&image) {}            // NOLINT
  KernelArg(const Sampler& sampler) : kind_(Kind::sampler), sampler_(&sampler) {}  // NOLINT
  ///@}
  /// A scalar: any trivially copyable value that is not a pointer (pass device memory as a
  /// Buffer). Its bytes are copied into the kernel's parameter.
  template <class T>
    requires(!std::is_same_v<std::remove_cv_t<T>, Buffer> &&
             !std::is_same_v<std::remove_cv_t<T>, Array> &&
             !std::is_same_v<std::remove_cv_t<T>, Image> &&
             !std::is_same_v<std::remove_cv_t<T>, Sampler> && std::is_trivially_copyable_v<T> &&
             !std::is_pointer_v<T>)
  KernelArg(const T& value)  // NOLINT
      : kind_(Kind::scalar), data_(&value), size_(sizeof(T)) {}

  /// A scalar given as its bytes, for values whose type is known only at run time (a
  /// binding's, a serialised call's): passed as a scalar of bytes.size() bytes. Like the
  /// other forms it only refers to the bytes, which must outlive the call.
  static KernelArg from_bytes(std::span<const std::byte> bytes) {
    return KernelArg(bytes.data(), bytes.size());
  }

  /// Which of the forms this is.
  Kind kind() const { return kind_; }
  ///@{
  /// The Buffer (an Array's first element buffer), Image or Sampler; null for the other kinds.
  const Buffer* buffer() const { return buffer_; }
  const Image* image() const { return image_; }
  const Sampler* sampler() const { return sampler_; }
  ///@}
  /// True if the buffer is an Array's first element (for error messages).
  bool is_array() const { return is_array_; }
  ///@{
  /// A scalar's bytes and their number; null and 0 for the other kinds.
  const void* data() const { return data_; }
  std::size_t size() const { return size_; }
  ///@}

 private:
  KernelArg(const void* data, std::size_t size) : kind_(Kind::scalar), data_(data), size_(size) {}

  Kind kind_;
  const Buffer* buffer_ = nullptr;
  const Image* image_ = nullptr;
  const Sampler* sampler_ = nullptr;
  const void* data_ = nullptr;
  std::size_t size_ = 0;
  bool is_array_ = false;
};

}  // namespace plinth
