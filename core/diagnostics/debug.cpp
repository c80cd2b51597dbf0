#include "diagnostics/debug.hpp"

#include <plinth/printable.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace plinth::detail {

namespace {

struct DebugTopics {
  bool loader = false, compile = false, cache = false, transfer = false;
};

DebugTopics read_topics() {
  DebugTopics topics;
  const char* env = std::getenv("PLINTH_DEBUG");
  if (env == nullptr) return topics;
  std::string_view list(env);
  std::string unknown;
  while (!list.empty()) {
    const auto comma = list.find(',');
    std::string_view item = list.substr(0, comma);
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
    while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
    if (item.empty()) continue;
    const bool all = item == "all";
    if (!all && item != "loader" && item != "compile" && item != "cache" && item != "transfer") {
      unknown += (unknown.empty() ? "'" : ", '") + std::string(item) + "'";
      continue;
    }
    topics.loader |= all || item == "loader";
    topics.compile |= all || item == "compile";
    topics.cache |= all || item == "cache";
    topics.transfer |= all || item == "transfer";
  }
  if (!unknown.empty()) {
    warn("PLINTH_DEBUG: unknown topic(s) " + unknown +
         " ignored; the topics are loader, compile, cache, transfer and all (comma-separated)");
  }
  return topics;
}

const char* topic_name(DebugTopic topic) {
  switch (topic) {
    case DebugTopic::loader: return "loader";
    case DebugTopic::compile: return "compile";
    case DebugTopic::cache: return "cache";
    case DebugTopic::transfer: return "transfer";
  }
  return "?";
}

}  // namespace

bool debug_enabled(DebugTopic topic) {
  static const DebugTopics topics = read_topics();  // once per process: one warning at most
  switch (topic) {
    case DebugTopic::loader: return topics.loader;
    case DebugTopic::compile: return topics.compile;
    case DebugTopic::cache: return topics.cache;
    case DebugTopic::transfer: return topics.transfer;
  }
  return false;
}

void debug_write(DebugTopic topic, std::string_view message) {
  const std::string line = printable(message);
  std::fprintf(stderr, "plinth[%s]: %s\n", topic_name(topic), line.c_str());
}

void warn(std::string_view message) {
  const std::string line = printable(message);
  std::fprintf(stderr, "plinth: warning: %s\n", line.c_str());
}

}  // namespace plinth::detail
