#pragma once

// ProgramOptions::keep: the private directory a build leaves its files in, written by the
// core for every backend (SDK 1.1's KeptFiles).

#include <plinth/backend/types.hpp>

#include <filesystem>
#include <string>
#include <string_view>

namespace plinth::detail {

class KeptDirectory final : public backend::KeptFiles {
 public:
  /// Creates a new private directory (mode 0700) under the system's temporary directory.
  /// Throws Error if it cannot.
  KeptDirectory();

  /// Writes `data` to `name` in the directory. Throws LogicError for a name that is not a
  /// plain file name, Error when the file cannot be written.
  void write(std::string_view name, std::span<const std::byte> data) override;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace plinth::detail
