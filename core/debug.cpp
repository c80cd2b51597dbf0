#include "detail/debug.hpp"

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

namespace plinth::detail {

namespace {

struct DebugTopics {
  bool loader = false, compile = false, cache = false;
};

DebugTopics read_topics() {
  DebugTopics topics;
  const char* env = std::getenv("PLINTH_DEBUG");
  if (env == nullptr) return topics;
  std::stringstream list(env);
  std::string item;
  while (std::getline(list, item, ',')) {
    const bool all = item == "all";
    topics.loader |= all || item == "loader";
    topics.compile |= all || item == "compile";
    topics.cache |= all || item == "cache";
  }
  return topics;
}

const char* topic_name(DebugTopic topic) {
  switch (topic) {
    case DebugTopic::loader: return "loader";
    case DebugTopic::compile: return "compile";
    case DebugTopic::cache: return "cache";
  }
  return "?";
}

}  // namespace

bool debug_enabled(DebugTopic topic) {
  static const DebugTopics topics = read_topics();
  switch (topic) {
    case DebugTopic::loader: return topics.loader;
    case DebugTopic::compile: return topics.compile;
    case DebugTopic::cache: return topics.cache;
  }
  return false;
}

void debug_write(DebugTopic topic, std::string_view message) {
  std::fprintf(stderr, "plinth[%s]: %.*s\n", topic_name(topic), static_cast<int>(message.size()),
               message.data());
}

}  // namespace plinth::detail
