#pragma once

// A map that keeps at most a given number of entries, dropping the least recently used: the
// one policy of the kit's caches (RecipeCache, KernelStore). Not thread-safe: its owner holds
// a lock around every call, and releases what it drops outside that lock (values may be
// programs, whose release calls the driver).

#include <cstddef>
#include <iterator>
#include <list>
#include <unordered_map>
#include <utility>

namespace plinth::detail {

/// Keys are looked up as any type that `Hash` and `Equal` take (both must be transparent: they
/// declare `is_transparent`), so that a lookup builds no Key: a view of one is enough.
template <class Key, class Value, class Hash, class Equal>
class LruCache {
 public:
  using Entry = std::pair<Key, Value>;
  /// Entries, most recently used first; also what insert() and clear() hand back to drop.
  using List = std::list<Entry>;

  explicit LruCache(std::size_t capacity) : capacity_(capacity) {}

  /// The value under `key`, made the most recently used; null if there is none. The pointer
  /// stays valid until the entry is dropped. Throws nothing.
  template <class K>
  Value* find(const K& key) noexcept {
    const auto found = index_.find(key);
    if (found == index_.end()) return nullptr;
    entries_.splice(entries_.begin(), entries_, found->second);
    return &found->second->second;
  }

  /// Adds `value` under `key` (which must not be there), most recently used, and moves the
  /// least recently used entry into `dropped` when that makes one too many. Returns the value
  /// as stored. Throws std::bad_alloc (then nothing changed).
  Value& insert(Key key, Value value, List& dropped) {
    entries_.emplace_front(std::move(key), std::move(value));
    try {
      index_.emplace(entries_.front().first, entries_.begin());
    } catch (...) {
      entries_.pop_front();
      throw;
    }
    if (entries_.size() > capacity_) {
      index_.erase(entries_.back().first);
      dropped.splice(dropped.end(), entries_, std::prev(entries_.end()));
    }
    return entries_.front().second;
  }

  /// Moves every entry into `dropped`. Throws nothing.
  void clear(List& dropped) noexcept {
    index_.clear();
    dropped.splice(dropped.end(), entries_);
  }

  /// Calls `visit(key, value)` for each entry, most recently used first.
  template <class Visit>
  void for_each(Visit visit) const {
    for (const auto& [key, value] : entries_) visit(key, value);
  }

  std::size_t size() const noexcept { return entries_.size(); }
  std::size_t capacity() const noexcept { return capacity_; }

 private:
  std::size_t capacity_;
  List entries_;
  // Keys are the entries' own (the list's nodes never move), looked up through the index.
  std::unordered_map<Key, typename List::iterator, Hash, Equal> index_;
};

}  // namespace plinth::detail
