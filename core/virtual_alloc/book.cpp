#include "virtual_alloc/book.hpp"

#include "virtual_alloc/packing.hpp"

#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace plinth::detail {

std::optional<RealId> VirtualBook::place(std::size_t size,
                                         std::span<const VirtualId> dependencies) const {
  for (const VirtualId dependency : dependencies) {
    if (!virtuals_.contains(dependency)) {
      throw LogicError(fmt::format(
          "virtual allocation: dependency virtual buffer #{} no longer exists (an allocator's "
          "dependencies must outlive its allocations)",
          dependency));
    }
  }
  if (!share_) return std::nullopt;
  std::vector<RealCandidate> candidates;
  std::vector<RealId> ids;
  candidates.reserve(reals_.size());
  ids.reserve(reals_.size());
  for (const auto& entry : reals_) {
    // (clang 15 cannot capture a structured binding in a lambda.)
    const auto& members = entry.second.members;
    const bool blocked = std::any_of(dependencies.begin(), dependencies.end(),
                                     [&](VirtualId d) { return members.contains(d); });
    candidates.push_back(RealCandidate{entry.second.size, blocked});
    ids.push_back(entry.first);
  }
  const auto chosen = first_fit(candidates, size);
  if (!chosen) return std::nullopt;
  return ids[*chosen];
}

std::pair<VirtualId, RealId> VirtualBook::add(std::size_t size,
                                              std::span<const VirtualId> dependencies,
                                              std::optional<RealId> real) {
  (void)place(size, dependencies);  // checks the dependencies
  if (real && !reals_.contains(*real)) {
    throw LogicError(fmt::format("virtual allocation: no real allocation #{}", *real));
  }
  const VirtualId id = next_virtual_;
  const RealId real_id = real ? *real : next_real_;
  try {
    auto& node = virtuals_[id];
    node.size = size;
    node.real = real_id;
    node.conflicts.insert(dependencies.begin(), dependencies.end());
    if (real) {
      reals_.at(real_id).members.insert(id);
    } else {
      reals_.emplace(real_id, Real{size, {id}});
    }
    for (const VirtualId dependency : dependencies) virtuals_.at(dependency).conflicts.insert(id);
  } catch (...) {
    remove(id);  // undoes whatever was done
    throw;
  }
  ++next_virtual_;
  if (!real) ++next_real_;
  return {id, real_id};
}

std::optional<RealId> VirtualBook::remove(VirtualId id) noexcept {
  const auto found = virtuals_.find(id);
  if (found == virtuals_.end()) return std::nullopt;
  for (const VirtualId other : found->second.conflicts) {
    if (const auto it = virtuals_.find(other); it != virtuals_.end())
      it->second.conflicts.erase(id);
  }
  const RealId real = found->second.real;
  virtuals_.erase(found);
  const auto r = reals_.find(real);
  if (r == reals_.end()) return std::nullopt;
  r->second.members.erase(id);
  if (!r->second.members.empty()) return std::nullopt;
  reals_.erase(r);
  return real;
}

std::vector<VirtualBook::PlannedReal> VirtualBook::plan(std::span<const VirtualId> keep) const {
  std::vector<PlannedReal> planned;
  if (!share_) {
    for (const auto& [id, real] : reals_) {
      planned.push_back(PlannedReal{real.size, {real.members.begin(), real.members.end()}});
    }
    return planned;
  }
  std::vector<VirtualId> ids;
  std::vector<std::size_t> sizes;
  std::map<VirtualId, std::size_t> index;
  for (const auto& [id, v] : virtuals_) {
    index.emplace(id, ids.size());
    ids.push_back(id);
    sizes.push_back(v.size);
  }
  std::vector<std::vector<std::size_t>> conflicts(ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    for (const VirtualId other : virtuals_.at(ids[i]).conflicts) {
      if (const auto it = index.find(other); it != index.end()) conflicts[i].push_back(it->second);
    }
  }
  std::vector<std::size_t> kept;
  for (const VirtualId id : keep) {
    if (const auto it = index.find(id); it != index.end()) kept.push_back(it->second);
  }
  for (const std::size_t a : kept) {
    for (const std::size_t b : kept) {
      if (a != b) conflicts[a].push_back(b);
    }
  }
  const Packing packing = pack_zero_offset(sizes, conflicts);
  planned.resize(packing.real_sizes.size());
  for (std::size_t r = 0; r < planned.size(); ++r) planned[r].size = packing.real_sizes[r];
  for (std::size_t i = 0; i < ids.size(); ++i)
    planned[packing.real_of[i]].members.push_back(ids[i]);
  return planned;
}

bool VirtualBook::improves(const std::vector<PlannedReal>& plan,
                           std::span<const VirtualId> keep) const {
  std::set<RealId> kept_reals;
  for (const VirtualId id : keep) {
    const auto it = virtuals_.find(id);
    if (it != virtuals_.end() && !kept_reals.insert(it->second.real).second) return true;
  }
  std::size_t now = 0;
  for (const auto& [id, real] : reals_) now += real.size;
  std::size_t planned = 0;
  for (const auto& real : plan) planned += real.size;
  return planned < now || (planned == now && plan.size() < reals_.size());
}

std::vector<std::optional<RealId>> VirtualBook::reusable(
    const std::vector<PlannedReal>& plan) const {
  std::vector<std::optional<RealId>> reuse(plan.size());
  std::set<RealId> taken;
  for (std::size_t p = 0; p < plan.size(); ++p) {
    if (plan[p].members.empty()) continue;
    const RealId candidate = virtuals_.at(plan[p].members.front()).real;
    const auto& real = reals_.at(candidate);
    const bool all_there =
        std::all_of(plan[p].members.begin(), plan[p].members.end(),
                    [&](VirtualId id) { return virtuals_.at(id).real == candidate; });
    if (real.size == plan[p].size && all_there && taken.insert(candidate).second) {
      reuse[p] = candidate;
    }
  }
  return reuse;
}

std::vector<RealId> VirtualBook::install(const std::vector<PlannedReal>& plan,
                                         const std::vector<std::optional<RealId>>& reuse) {
  std::map<RealId, Real> reals;
  std::vector<RealId> ids;
  RealId next = next_real_;
  for (std::size_t p = 0; p < plan.size(); ++p) {
    const RealId id = p < reuse.size() && reuse[p] ? *reuse[p] : next++;
    ids.push_back(id);
    reals.emplace(id, Real{plan[p].size, {plan[p].members.begin(), plan[p].members.end()}});
  }
  // Nothing below throws.
  for (std::size_t p = 0; p < plan.size(); ++p) {
    for (const VirtualId member : plan[p].members) virtuals_.at(member).real = ids[p];
  }
  reals_.swap(reals);
  next_real_ = next;
  return ids;
}

VirtualAllocationStatistics VirtualBook::statistics() const {
  VirtualAllocationStatistics s;
  for (const auto& [id, real] : reals_) {
    s.real_size_total += real.size;
    ++s.real_num;
    ++s.real_sizes[real.size];
  }
  for (const auto& [id, v] : virtuals_) {
    s.virtual_size_total += v.size;
    ++s.virtual_num;
    ++s.virtual_sizes[v.size];
  }
  return s;
}

}  // namespace plinth::detail
