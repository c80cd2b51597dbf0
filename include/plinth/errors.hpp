#pragma once

#include <plinth/export.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace plinth {

/// Root of every exception plinth throws.
class PLINTH_EXPORT Error : public std::runtime_error {
 public:
  /// An error whose what() is `what`.
  explicit Error(const std::string& what) : std::runtime_error(what) {}
  ~Error() override;
};

/// Plugin discovery or loading failed: no usable API, an unknown or unavailable shortcut.
/// The message lists every plugin candidate with its state.
class PLINTH_EXPORT PluginError : public Error {
 public:
  /// An error whose what() is the message given.
  using Error::Error;
  ~PluginError() override;
};

/// A vendor API call failed. Carries the API, the call, and the vendor's numeric code and name.
class PLINTH_EXPORT BackendError : public Error {
 public:
  /// `api`: e.g. "OpenCL"; `call`: the vendor function; `code_name`: e.g. "CL_INVALID_VALUE".
  /// what() reads "OpenCL: clFoo failed: CL_INVALID_VALUE (-30)", then ": " and `detail` if
  /// given.
  BackendError(std::string api, std::string call, std::int64_t code, std::string code_name,
               const std::string& detail = {});
  ~BackendError() override;

  /// The API's display name, e.g. "OpenCL".
  const std::string& api() const noexcept { return api_; }
  /// The vendor function that failed, e.g. "clCreateBuffer".
  const std::string& call() const noexcept { return call_; }
  /// The vendor's numeric error code (cl_int, CUresult, hipError_t, ze_result_t).
  std::int64_t code() const noexcept { return code_; }
  /// The vendor's name for code(), e.g. "CL_INVALID_VALUE".
  const std::string& code_name() const noexcept { return code_name_; }

 private:
  std::string api_;
  std::string call_;
  std::int64_t code_;
  std::string code_name_;
};

/// The device (or the host, for staging) ran out of memory.
class PLINTH_EXPORT OutOfMemoryError : public BackendError {
 public:
  /// As BackendError's constructor.
  using BackendError::BackendError;
  ~OutOfMemoryError() override;
};

/// A program failed to compile. Carries the compiler's full log, the options and the source;
/// what() shows all three, the source with line numbers.
class PLINTH_EXPORT CompileError : public Error {
 public:
  /// `device`, if given, names the device the program was compiled for in what(); what()
  /// also names the kernel dialect operations the log says the device lacks.
  CompileError(std::string log, std::vector<std::string> options, std::string source,
               const std::string& device = {});
  ~CompileError() override;

  /// The compiler's build log, whole.
  const std::string& log() const noexcept { return log_; }
  /// The compiler options the program was built with.
  const std::vector<std::string>& options() const noexcept { return options_; }
  /// The source that failed to compile.
  const std::string& source() const noexcept { return source_; }

 private:
  std::string log_;
  std::vector<std::string> options_;
  std::string source_;
};

/// A template could not be rendered: names the template, the globals and the cause.
class PLINTH_EXPORT RenderError : public Error {
 public:
  /// An error whose what() is the message given.
  using Error::Error;
  ~RenderError() override;
};

/// Misuse caught by plinth: wrong device, wrong argument count or size, shape mismatch,
/// an out-of-range view. The objects involved stay usable.
class PLINTH_EXPORT LogicError : public Error {
 public:
  /// An error whose what() is the message given.
  using Error::Error;
  ~LogicError() override;
};

/// Virtual sizes (virtual_size.hpp) that cannot be mapped onto a device's grid: a local size
/// above the maximum, more virtual groups than the real grid holds, sizes of different ranks
/// or of zero. The message says which, as grunnur's does ("Requested local size is greater
/// than the maximum 1024", "Bounding global size [16384, 2048, 256] is too large").
class PLINTH_EXPORT VirtualSizeError : public LogicError {
 public:
  /// An error whose what() is the message given.
  using LogicError::LogicError;
  ~VirtualSizeError() override;
};

/// Returns `source` with each line prefixed by its 1-based number (as CompileError shows it).
PLINTH_EXPORT std::string number_lines(const std::string& source);

}  // namespace plinth
