// The names of managed_memory.hpp's choices (Buffer's managed-memory members are in
// buffer.cpp).

#include <plinth/managed_memory.hpp>

namespace plinth {

const char* to_string(ManagedAttach attach) noexcept {
  switch (attach) {
    case ManagedAttach::global: return "global";
    case ManagedAttach::host: return "host";
    case ManagedAttach::single: return "single";
  }
  return "unknown";
}

const char* to_string(ManagedLocation location) noexcept {
  switch (location) {
    case ManagedLocation::device: return "device";
    case ManagedLocation::host: return "host";
  }
  return "unknown";
}

const char* to_string(ManagedAdvice advice) noexcept {
  switch (advice) {
    case ManagedAdvice::set_read_mostly: return "set_read_mostly";
    case ManagedAdvice::unset_read_mostly: return "unset_read_mostly";
    case ManagedAdvice::set_preferred_location: return "set_preferred_location";
    case ManagedAdvice::unset_preferred_location: return "unset_preferred_location";
    case ManagedAdvice::set_accessed_by: return "set_accessed_by";
    case ManagedAdvice::unset_accessed_by: return "unset_accessed_by";
  }
  return "unknown";
}

}  // namespace plinth
