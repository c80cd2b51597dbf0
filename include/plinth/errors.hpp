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
  explicit Error(const std::string& what) : std::runtime_error(what) {}
  ~Error() override;
};

/// Plugin discovery or loading failed: no usable API, an unknown or unavailable shortcut.
/// The message lists every plugin candidate with its state.
class PLINTH_EXPORT PluginError : public Error {
 public:
  using Error::Error;
  ~PluginError() override;
};

/// A vendor API call failed. Carries the API, the call, and the vendor's numeric code and name.
class PLINTH_EXPORT BackendError : public Error {
 public:
  /// `api`: e.g. "OpenCL"; `call`: the vendor function; `code_name`: e.g. "CL_INVALID_VALUE".
  BackendError(std::string api, std::string call, std::int64_t code, std::string code_name,
               const std::string& detail = {});
  ~BackendError() override;

  const std::string& api() const noexcept { return api_; }
  const std::string& call() const noexcept { return call_; }
  std::int64_t code() const noexcept { return code_; }
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
  using BackendError::BackendError;
  ~OutOfMemoryError() override;
};

/// A program failed to compile. Carries the compiler's full log, the options and the source;
/// what() shows all three, the source with line numbers.
class PLINTH_EXPORT CompileError : public Error {
 public:
  CompileError(std::string log, std::vector<std::string> options, std::string source,
               const std::string& device = {});
  ~CompileError() override;

  const std::string& log() const noexcept { return log_; }
  const std::vector<std::string>& options() const noexcept { return options_; }
  const std::string& source() const noexcept { return source_; }

 private:
  std::string log_;
  std::vector<std::string> options_;
  std::string source_;
};

/// A template could not be rendered: names the template, the globals and the cause.
class PLINTH_EXPORT RenderError : public Error {
 public:
  using Error::Error;
  ~RenderError() override;
};

/// Misuse caught by plinth: wrong device, wrong argument count or size, shape mismatch,
/// an out-of-range view. The objects involved stay usable.
class PLINTH_EXPORT LogicError : public Error {
 public:
  using Error::Error;
  ~LogicError() override;
};

/// Virtual sizes (virtual_size.hpp) that cannot be mapped onto a device's grid: a local size
/// above the maximum, more virtual groups than the real grid holds, sizes of different ranks
/// or of zero. The message says which, as grunnur's does ("Requested local size is greater
/// than the maximum 1024", "Bounding global size [16384, 2048, 256] is too large").
class PLINTH_EXPORT VirtualSizeError : public LogicError {
 public:
  using LogicError::LogicError;
  ~VirtualSizeError() override;
};

/// Returns `source` with each line prefixed by its 1-based number (as CompileError shows it).
PLINTH_EXPORT std::string number_lines(const std::string& source);

}  // namespace plinth
