#pragma once

// Opening a vendor library at run time (NCCL, cuBLAS, CLBlast), so that a plugin loads, and
// lists its devices, on a machine without it: the file is opened on first use and its
// functions resolved into the backend's own table of pointers. Header only; no ABI.
//
//     std::string why;
//     auto opened = backend::VendorLibrary::open("libnccl.so.2", why);  // null handle: `why`
//     opened.resolve(table.ncclGetVersion, "ncclGetVersion");
//     if (!opened.missing().empty()) ... "has no " + opened.missing() ...
//     opened.keep();  // else closed when `opened` goes

#include <dlfcn.h>

#include <string>
#include <utility>

namespace plinth::backend {

/// A library file opened with dlopen(RTLD_NOW | RTLD_LOCAL), closed again when destroyed
/// unless keep() was called, and the names of the functions resolve() did not find.
class VendorLibrary {
 public:
  /// Opens `name`; where it cannot, the result holds no handle and `error` gets the loader's
  /// words ("libcublas.so.13: cannot open shared object file: No such file or directory").
  static VendorLibrary open(const char* name, std::string& error) {
    VendorLibrary library;
    library.handle_ = ::dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (library.handle_ == nullptr) {
      const char* text = ::dlerror();
      error = text != nullptr ? text : std::string(name) + " cannot be loaded";
    }
    return library;
  }

  /// A library that holds no handle (false), as open() returns where it cannot open the file.
  VendorLibrary() = default;
  /// Takes `other`'s handle (which then holds none) and its missing functions.
  VendorLibrary(VendorLibrary&& other) noexcept
      : handle_(std::exchange(other.handle_, nullptr)), missing_(std::move(other.missing_)) {}
  VendorLibrary& operator=(VendorLibrary&&) = delete;
  VendorLibrary(const VendorLibrary&) = delete;
  VendorLibrary& operator=(const VendorLibrary&) = delete;
  ~VendorLibrary() {
    if (handle_ != nullptr) ::dlclose(handle_);
  }

  /// Whether the file was opened.
  explicit operator bool() const noexcept { return handle_ != nullptr; }

  /// Resolves `symbol` into `function` (null where absent); a missing required one is added to
  /// missing().
  template <class Function>
  void resolve(Function& function, const char* symbol, bool optional = false) {
    function = reinterpret_cast<Function>(::dlsym(handle_, symbol));
    if (function == nullptr && !optional) {
      missing_ += (missing_.empty() ? "" : ", ") + std::string(symbol);
    }
  }

  /// The required functions not found so far, comma-separated; empty when all were.
  const std::string& missing() const noexcept { return missing_; }

  /// Leaves the library open for the rest of the process (its functions are in use).
  void keep() noexcept { handle_ = nullptr; }

 private:
  void* handle_ = nullptr;
  std::string missing_;
};

}  // namespace plinth::backend
