// Collectives on the devices of one context (include/plinth/collectives.hpp), any number of
// them: every collective, op and dtype against host references, in place, with every root,
// ordered on the ranks' queues, over some of the devices and in other orders; every refusal;
// join() and ids without a library.

#include "fixture.hpp"

#include <plinth/collectives.hpp>
#include <plinth/elementwise.hpp>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <vector>

namespace plinth::conformance {
namespace collectives_test {
namespace {

using Collectives = MultiDeviceTest;

constexpr ReduceOp all_ops[] = {ReduceOp::sum, ReduceOp::prod, ReduceOp::min, ReduceOp::max,
                                ReduceOp::avg};

const char* op_name(ReduceOp op) {
  switch (op) {
    case ReduceOp::sum: return "sum";
    case ReduceOp::prod: return "prod";
    case ReduceOp::min: return "min";
    case ReduceOp::max: return "max";
    case ReduceOp::avg: return "avg";
  }
  return "?";
}

template <class T>
struct IsComplex : std::false_type {};
template <class T>
struct IsComplex<std::complex<T>> : std::true_type {};

// Rank `rank`'s element `i`: small values (so sums and products of a few ranks fit in int8),
// different on every rank, negative ones for signed types.
template <class T>
T value(std::size_t rank, std::size_t i) {
  const int v = static_cast<int>((i * 3 + rank * 5 + 1) % 7);
  if constexpr (IsComplex<T>::value) {
    using R = typename T::value_type;
    return T(static_cast<R>(v - 3), static_cast<R>(static_cast<int>((i + rank * 2) % 5) - 2));
  } else if constexpr (std::is_signed_v<T>) {
    return static_cast<T>(v - 3);
  } else {
    return static_cast<T>(v + 1);
  }
}

template <class T>
std::vector<T> values(std::size_t rank, std::size_t n) {
  std::vector<T> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = value<T>(rank, i);
  return out;
}

// The host reference: the ranks combined in `order`, in the element type, as the device does.
template <class T>
T combine(const T& a, const T& b, ReduceOp op) {
  if constexpr (IsComplex<T>::value) {
    return a + b;  // complex takes sum and avg only
  } else {
    switch (op) {
      case ReduceOp::sum:
      case ReduceOp::avg: return static_cast<T>(a + b);
      case ReduceOp::prod: return static_cast<T>(a * b);
      case ReduceOp::min: return b < a ? b : a;
      case ReduceOp::max: return a < b ? b : a;
    }
    return a;
  }
}

template <class T>
std::vector<T> reference(std::size_t ranks, std::size_t n, ReduceOp op) {
  std::vector<T> out = values<T>(0, n);
  for (std::size_t r = 1; r < ranks; ++r) {
    const auto next = values<T>(r, n);
    for (std::size_t i = 0; i < n; ++i) out[i] = combine(out[i], next[i], op);
  }
  if (op == ReduceOp::avg) {
    for (auto& x : out) {
      if constexpr (IsComplex<T>::value) {
        using R = typename T::value_type;
        x = T(x.real() / static_cast<R>(ranks), x.imag() / static_cast<R>(ranks));
      } else {
        x = static_cast<T>(x / static_cast<std::int32_t>(ranks));
      }
    }
  }
  return out;
}

bool is_power_of_two(std::size_t n) { return n != 0 && (n & (n - 1)) == 0; }

// Whether a and b differ by at most a few units in the last place of an average of `ranks`
// values (each part of a complex number on its own).
template <class T>
bool close(const T& a, const T& b, std::size_t ranks) {
  if constexpr (IsComplex<T>::value) {
    return close(a.real(), b.real(), ranks) && close(a.imag(), b.imag(), ranks);
  } else {
    const T scale = std::max(T(1), std::abs(b));
    return std::abs(a - b) <=
           T(4) * static_cast<T>(ranks) * std::numeric_limits<T>::epsilon() * scale;
  }
}

// Whether `got` is `want`, the host's reduction with `op` over `ranks` ranks: exactly, except
// a floating-point avg over a number of ranks that is not a power of two, which NCCL computes
// as the sum of each rank's value times 1/ranks (its PreMulSum; plinth's own engine divides the
// sum, as the host does): within rounding there. On 2, 4 and 8 ranks every result is exact.
template <class T>
::testing::AssertionResult reduced(const std::vector<T>& got, const std::vector<T>& want,
                                   ReduceOp op, std::size_t ranks) {
  if (got.size() != want.size()) {
    return ::testing::AssertionFailure() << got.size() << " elements, expected " << want.size();
  }
  constexpr bool floating = IsComplex<T>::value || std::is_floating_point_v<T>;
  const bool rounded = op == ReduceOp::avg && !is_power_of_two(ranks);
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (got[i] == want[i]) continue;
    if constexpr (floating) {
      if (rounded && close(got[i], want[i], ranks)) continue;
    }
    return ::testing::AssertionFailure()
           << "element " << i << " of " << got.size() << " is " << ::testing::PrintToString(got[i])
           << ", expected " << ::testing::PrintToString(want[i]);
  }
  return ::testing::AssertionSuccess();
}

std::shared_ptr<const BaseSplay> clone() { return std::make_shared<CloneSplay>(); }

// A CloneSplay MultiArray whose part on rank r's device holds values<T>(r, n).
template <class T>
MultiArray per_rank(const MultiQueue& queues, std::size_t n) {
  const auto devices = queues.devices();
  const auto array = MultiArray::empty(devices, {n}, dtype_of<T>(), {}, clone());
  for (std::size_t r = 0; r < devices.size(); ++r) {
    array[devices[r]].set(queues.queues()[r], HostArray::from_values(values<T>(r, n)), true);
  }
  return array;
}

template <class T>
std::vector<T> part(const MultiQueue& queues, const MultiArray& array, std::size_t r) {
  const auto& queue = queues.queues()[r];
  return array[queue.device()].get(queue).template to_vector<T>();
}

bool doubles(const Context& context) {
  for (const auto& device : context.devices()) {
    if (!device.params().supports_double) return false;
  }
  return true;
}

// Calls f.template operator()<T>() for every real dtype a reduction takes here.
template <class F>
void for_each_real(const Context& context, F&& f) {
  f.template operator()<std::int8_t>();
  f.template operator()<std::uint8_t>();
  f.template operator()<std::int32_t>();
  f.template operator()<std::uint32_t>();
  f.template operator()<std::int64_t>();
  f.template operator()<std::uint64_t>();
  f.template operator()<float>();
  if (doubles(context)) f.template operator()<double>();
}

TEST_P(Collectives, DescribesItself) {
  const auto queues = MultiQueue::on_devices(context().devices());
  const Communicator comm(queues);
  const std::size_t n = queues.queues().size();
  EXPECT_EQ(comm.size(), n);
  ASSERT_EQ(comm.ranks().size(), n);
  for (std::size_t r = 0; r < n; ++r) EXPECT_EQ(comm.ranks()[r], r);
  EXPECT_TRUE(comm.queues().queues() == queues.queues());
  const auto support = collectives_support(context().api());
  EXPECT_FALSE(support.description.empty());
  // The backend's library where it has one (NCCL on CUDA), plinth's own engine otherwise.
  EXPECT_EQ(comm.engine(), support.library ? support.description : "plinth copies and kernels");
}

template <class T>
void check_all_reduce(const Communicator& comm, ReduceOp op, std::size_t n, bool in_place) {
  SCOPED_TRACE(::testing::Message() << dtype_of<T>().name() << " " << op_name(op) << " n=" << n
                                    << (in_place ? " in place" : ""));
  const auto& queues = comm.queues();
  const auto src = per_rank<T>(queues, n);
  const auto dst =
      in_place ? src : MultiArray::empty(queues.devices(), {n}, dtype_of<T>(), {}, clone());
  comm.all_reduce(src, dst, op);
  queues.synchronize();
  const auto expected = reference<T>(comm.size(), n, op);
  for (std::size_t r = 0; r < comm.size(); ++r) {
    EXPECT_TRUE(reduced(part<T>(queues, dst, r), expected, op, comm.size())) << "rank " << r;
    if (!in_place) {
      EXPECT_EQ(part<T>(queues, src, r), values<T>(r, n)) << "src of rank " << r;
    }
  }
}

TEST_P(Collectives, AllReduceEveryOpAndDtype) {
  const Communicator comm(MultiQueue::on_devices(context().devices()));
  for_each_real(context(), [&]<class T>() {
    for (const auto op : all_ops) check_all_reduce<T>(comm, op, 7, false);
  });
  for (const auto op : {ReduceOp::sum, ReduceOp::avg}) {
    check_all_reduce<std::complex<float>>(comm, op, 7, false);
    if (doubles(context())) check_all_reduce<std::complex<double>>(comm, op, 7, true);
  }
}

TEST_P(Collectives, AllReduceInPlaceAndOddSizes) {
  const Communicator comm(MultiQueue::on_devices(context().devices()));
  for (const std::size_t n : {std::size_t{1}, std::size_t{7}, std::size_t{1000}}) {
    check_all_reduce<std::int32_t>(comm, ReduceOp::sum, n, true);
    check_all_reduce<float>(comm, ReduceOp::max, n, true);
  }
  check_all_reduce<std::complex<float>>(comm, ReduceOp::avg, 7, true);
  check_all_reduce<float>(comm, ReduceOp::sum, 1000003, false);
  // The in-place overload.
  const auto& queues = comm.queues();
  const auto array = per_rank<std::uint8_t>(queues, 5);
  comm.all_reduce(array, ReduceOp::min);
  queues.synchronize();
  for (std::size_t r = 0; r < comm.size(); ++r) {
    EXPECT_EQ(part<std::uint8_t>(queues, array, r),
              (reference<std::uint8_t>(comm.size(), 5, ReduceOp::min)));
  }
}

template <class T>
void check_reduce(const Communicator& comm, ReduceOp op, std::size_t n, std::size_t root,
                  bool in_place) {
  SCOPED_TRACE(::testing::Message() << dtype_of<T>().name() << " " << op_name(op) << " root "
                                    << root << (in_place ? " in place" : ""));
  const auto& queues = comm.queues();
  const auto src = per_rank<T>(queues, n);
  const auto dst = in_place ? src : per_rank<T>(queues, n);
  if (!in_place) {
    // Mark the other ranks' dst: reduce must leave them alone.
    for (std::size_t r = 0; r < comm.size(); ++r) {
      const auto& queue = queues.queues()[r];
      dst[queue.device()].set(queue, HostArray::from_values(std::vector<T>(n, T(1))), true);
    }
  }
  comm.reduce(src, dst, op, root);
  queues.synchronize();
  const auto expected = reference<T>(comm.size(), n, op);
  for (std::size_t r = 0; r < comm.size(); ++r) {
    const auto got = part<T>(queues, dst, r);
    if (r == root) {
      EXPECT_TRUE(reduced(got, expected, op, comm.size())) << "root " << r;
    } else {
      EXPECT_EQ(got, in_place ? values<T>(r, n) : std::vector<T>(n, T(1))) << "rank " << r;
    }
  }
}

TEST_P(Collectives, ReduceToEveryRoot) {
  const Communicator comm(MultiQueue::on_devices(context().devices()));
  for_each_real(context(), [&]<class T>() {
    for (const auto op : all_ops) check_reduce<T>(comm, op, 7, 1, false);
  });
  for (std::size_t root = 0; root < comm.size(); ++root) {
    check_reduce<std::int32_t>(comm, ReduceOp::sum, 1, root, true);
    check_reduce<float>(comm, ReduceOp::min, 1, root, false);
  }
  check_reduce<std::complex<float>>(comm, ReduceOp::sum, 7, 1, false);
  check_reduce<std::complex<float>>(comm, ReduceOp::avg, 7, 0, true);
}

TEST_P(Collectives, BroadcastMovesAnyDtype) {
  const Communicator comm(MultiQueue::on_devices(context().devices()));
  const auto& queues = comm.queues();
  const auto check = [&]<class T>(std::size_t n, std::size_t root, bool in_place) {
    SCOPED_TRACE(::testing::Message() << dtype_of<T>().name() << " n=" << n << " root " << root
                                      << (in_place ? " in place" : ""));
    const auto src = per_rank<T>(queues, n);
    const auto dst =
        in_place ? src : MultiArray::empty(queues.devices(), {n}, dtype_of<T>(), {}, clone());
    comm.broadcast(src, dst, root);
    queues.synchronize();
    for (std::size_t r = 0; r < comm.size(); ++r) {
      EXPECT_EQ(part<T>(queues, dst, r), values<T>(root, n)) << "rank " << r;
    }
  };
  for (std::size_t root = 0; root < comm.size(); ++root) {
    check.template operator()<std::int8_t>(7, root, false);
    check.template operator()<std::uint64_t>(1, root, true);
    check.template operator()<std::complex<float>>(7, root, false);
    check.template operator()<std::int16_t>(1000, root, true);  // no reduction: any dtype
  }
  // The in-place overload, root 1.
  const auto array = per_rank<float>(queues, 3);
  comm.broadcast(array, 1);
  queues.synchronize();
  for (std::size_t r = 0; r < comm.size(); ++r) {
    EXPECT_EQ(part<float>(queues, array, r), values<float>(1, 3));
  }
}

template <class T>
void check_all_gather(const Communicator& comm, std::size_t n) {
  SCOPED_TRACE(::testing::Message() << dtype_of<T>().name() << " n=" << n);
  const auto& queues = comm.queues();
  const std::size_t ranks = comm.size();
  // EqualSplay: rank r's part is n elements of the whole; all_gather gives every rank the
  // whole (a CloneSplay array).
  const auto src = MultiArray::empty(queues.devices(), {ranks * n}, dtype_of<T>());
  std::vector<T> whole;
  for (std::size_t r = 0; r < ranks; ++r) {
    const auto mine = values<T>(r, n);
    src[queues.queues()[r].device()].set(queues.queues()[r], HostArray::from_values(mine), true);
    whole.insert(whole.end(), mine.begin(), mine.end());
  }
  const auto dst = MultiArray::empty(queues.devices(), {ranks * n}, dtype_of<T>(), {}, clone());
  comm.all_gather(src, dst);
  queues.synchronize();
  for (std::size_t r = 0; r < ranks; ++r) EXPECT_EQ(part<T>(queues, dst, r), whole) << "rank " << r;
}

TEST_P(Collectives, AllGatherInRankOrder) {
  const Communicator comm(MultiQueue::on_devices(context().devices()));
  check_all_gather<std::int8_t>(comm, 7);
  check_all_gather<std::uint32_t>(comm, 1);
  check_all_gather<float>(comm, 1000);
  check_all_gather<std::complex<double>>(comm, 7);
  check_all_gather<std::int16_t>(comm, 5);
}

template <class T>
void check_reduce_scatter(const Communicator& comm, ReduceOp op, std::size_t n) {
  SCOPED_TRACE(::testing::Message() << dtype_of<T>().name() << " " << op_name(op) << " n=" << n);
  const auto& queues = comm.queues();
  const std::size_t ranks = comm.size();
  // Every rank's whole (CloneSplay) reduced; rank r gets part r (EqualSplay): the EqualSplay
  // array then holds the whole reduction.
  const auto src = per_rank<T>(queues, ranks * n);
  const auto dst = MultiArray::empty(queues.devices(), {ranks * n}, dtype_of<T>());
  comm.reduce_scatter(src, dst, op);
  queues.synchronize();
  EXPECT_TRUE(reduced(dst.get(queues).template to_vector<T>(), reference<T>(ranks, ranks * n, op),
                      op, ranks));
  for (std::size_t r = 0; r < ranks; ++r) {
    EXPECT_EQ(part<T>(queues, src, r), values<T>(r, ranks * n)) << "src of rank " << r;
  }
}

TEST_P(Collectives, ReduceScatterEveryOpAndDtype) {
  const Communicator comm(MultiQueue::on_devices(context().devices()));
  for_each_real(context(), [&]<class T>() {
    for (const auto op : all_ops) check_reduce_scatter<T>(comm, op, 7);
  });
  check_reduce_scatter<std::complex<float>>(comm, ReduceOp::sum, 3);
  check_reduce_scatter<std::complex<float>>(comm, ReduceOp::avg, 1);
  check_reduce_scatter<std::int32_t>(comm, ReduceOp::sum, 1);
}

// Later work on a rank's queue sees the collective's results without a synchronize between.
TEST_P(Collectives, ResultsAreOrderedOnTheQueues) {
  const Communicator comm(MultiQueue::on_devices(context().devices()));
  const auto& queues = comm.queues();
  const std::size_t n = 100000;
  const ElementwiseKernel twice(
      {ElementwiseArg::output("z", DType::int32()), ElementwiseArg::input("x", DType::int32())},
      "z[i] = 2 * x[i];");
  const auto src = per_rank<std::int32_t>(queues, n);
  const auto doubled = MultiArray::empty(queues.devices(), {n}, DType::int32(), {}, clone());
  const auto copied = MultiArray::empty(queues.devices(), {n}, DType::int32(), {}, clone());
  comm.all_reduce(src, ReduceOp::sum);
  for (std::size_t r = 0; r < comm.size(); ++r) {
    const auto& queue = queues.queues()[r];
    twice(queue, doubled[queue.device()], src[queue.device()]);
    copied[queue.device()].set(queue, src[queue.device()]);
  }
  // A second collective reads what the first wrote.
  comm.broadcast(src, doubled, comm.size() - 1);
  queues.synchronize();
  auto expected = reference<std::int32_t>(comm.size(), n, ReduceOp::sum);
  for (std::size_t r = 0; r < comm.size(); ++r) {
    EXPECT_EQ(part<std::int32_t>(queues, copied, r), expected) << "rank " << r;
    EXPECT_EQ(part<std::int32_t>(queues, doubled, r), expected) << "rank " << r;
  }
  // A kernel right after a collective on every rank's queue.
  const auto again = per_rank<std::int32_t>(queues, n);
  comm.all_reduce(again, ReduceOp::max);
  for (std::size_t r = 0; r < comm.size(); ++r) {
    const auto& queue = queues.queues()[r];
    twice(queue, doubled[queue.device()], again[queue.device()]);
  }
  queues.synchronize();
  expected = reference<std::int32_t>(comm.size(), n, ReduceOp::max);
  for (auto& x : expected) x *= 2;
  for (std::size_t r = 0; r < comm.size(); ++r) {
    EXPECT_EQ(part<std::int32_t>(queues, doubled, r), expected) << "rank " << r;
  }
}

// Communicators over some of the devices and in other orders than the context's: the ranks
// follow the MultiQueue's order, and an odd number of ranks (three of four GPUs, seven of
// eight) reduces as well as a power of two.
TEST_P(Collectives, SubsetsAndOrdersOfTheDevices) {
  const auto devices = context().devices();
  const std::size_t n = devices.size();
  std::vector<std::vector<std::size_t>> choices;
  std::vector<std::size_t> reversed(n);
  for (std::size_t d = 0; d < n; ++d) reversed[d] = n - 1 - d;
  choices.push_back(reversed);  // every device, the last one rank 0
  if (n >= 3) {
    std::vector<std::size_t> all_but_first(n - 1);
    for (std::size_t d = 1; d < n; ++d) all_but_first[d - 1] = d;
    choices.push_back(all_but_first);  // without device 0
  }
  if (n >= 4) choices.push_back({n - 1, 0, n / 2});  // three, in no order
  for (const auto& choice : choices) {
    std::string order;
    for (const auto d : choice) order += (order.empty() ? "" : ", ") + std::to_string(d);
    SCOPED_TRACE("devices " + order);
    const auto queues = MultiQueue::on_devices(devices[std::span<const std::size_t>(choice)]);
    const Communicator comm(queues);
    ASSERT_EQ(comm.size(), choice.size());
    for (std::size_t r = 0; r < choice.size(); ++r) {
      EXPECT_EQ(comm.queues().queues()[r].device(), devices[choice[r]]) << "rank " << r;
    }
    check_all_reduce<std::int32_t>(comm, ReduceOp::sum, 1000, false);
    check_all_reduce<float>(comm, ReduceOp::avg, 7, true);
    check_all_reduce<std::int8_t>(comm, ReduceOp::prod, 7, false);
    check_reduce<float>(comm, ReduceOp::max, 7, comm.size() - 1, false);
    if (doubles(context())) check_reduce<double>(comm, ReduceOp::avg, 5, 0, true);
    check_all_gather<std::uint8_t>(comm, 3);
    check_reduce_scatter<float>(comm, ReduceOp::sum, 5);
    check_reduce_scatter<std::int64_t>(comm, ReduceOp::min, 1);
    // broadcast from the last rank.
    const auto src = per_rank<std::int16_t>(queues, 9);
    comm.broadcast(src, comm.size() - 1);
    queues.synchronize();
    for (std::size_t r = 0; r < comm.size(); ++r) {
      EXPECT_EQ(part<std::int16_t>(queues, src, r), values<std::int16_t>(comm.size() - 1, 9))
          << "rank " << r;
    }
  }
}

// One rank: on every device, so that a single GPU runs its library's path too.
using CollectivesOnOneDevice = DeviceTest;

TEST_P(CollectivesOnOneDevice, OneRankArrayForms) {
  const Queue& queue = this->queue();
  const Communicator comm(MultiQueue({queue}));
  const auto support = collectives_support(context().api());
  EXPECT_EQ(comm.engine(), support.library ? support.description : "plinth copies and kernels");
  EXPECT_EQ(comm.size(), 1u);
  const auto src = Array::from_host(queue, HostArray::from_values(values<float>(1, 9)));
  const auto dst = Array::empty(device(), {9}, DType::float32());
  comm.all_reduce(src, dst, ReduceOp::sum);
  EXPECT_EQ(dst.get(queue).to_vector<float>(), values<float>(1, 9));
  const auto gathered = Array::empty(device(), {9}, DType::float32());
  comm.all_gather(src, gathered);
  EXPECT_EQ(gathered.get(queue).to_vector<float>(), values<float>(1, 9));
  const auto scattered = Array::empty(device(), {9}, DType::float32());
  comm.reduce_scatter(src, scattered, ReduceOp::avg);
  EXPECT_EQ(scattered.get(queue).to_vector<float>(), values<float>(1, 9));
  const auto ints = Array::from_host(queue, HostArray::from_values(values<std::int64_t>(0, 4)));
  comm.broadcast(ints, 0);
  comm.reduce(ints, ints, ReduceOp::prod, 0);
  comm.all_reduce(ints, ReduceOp::max);
  EXPECT_EQ(ints.get(queue).to_vector<std::int64_t>(), values<std::int64_t>(0, 4));
  // Empty arrays: checked, then nothing to do.
  const auto none = Array::empty(device(), {0}, DType::int32());
  comm.all_reduce(none, ReduceOp::sum);
  comm.all_gather(none, Array::empty(device(), {0}, DType::int32()));
  EXPECT_NE(
      logic_error_message([&] { comm.all_reduce(none, src, ReduceOp::sum); }).find("dtype float32"),
      std::string::npos);
}

TEST_P(CollectivesOnOneDevice, OneRankMultiArrayOfAMillionElements) {
  const MultiQueue queues({queue()});
  const Communicator comm(queues);
  const std::size_t n = 1000003;
  const auto src = per_rank<float>(queues, n);
  const auto dst = MultiArray::empty(queues.devices(), {n}, DType::float32(), {}, clone());
  comm.all_reduce(src, dst, ReduceOp::sum);
  comm.all_reduce(src, ReduceOp::avg);  // in place
  queues.synchronize();
  EXPECT_EQ(part<float>(queues, dst, 0), values<float>(0, n));
  EXPECT_EQ(part<float>(queues, src, 0), values<float>(0, n));
}

// The IEEE binary16 bits of a small positive integer (1 to 2048: exact in float16).
std::uint16_t half_bits(unsigned k) {
  unsigned exponent = 0;
  while ((2u << exponent) <= k) ++exponent;
  const unsigned mantissa = (k - (1u << exponent)) << (10 - exponent);
  return static_cast<std::uint16_t>(((exponent + 15) << 10) | mantissa);
}

TEST_P(Collectives, Float16ThroughTheLibrary) {
  if (!collectives_support(context().api()).library) {
    GTEST_SKIP() << "float16 reduces only through a collectives library (refusal checked in "
                    "RefusesBadArguments)";
  }
  const auto queues = MultiQueue::on_devices(context().devices());
  const Communicator comm(queues);
  const std::size_t n = 1001;
  const auto halves = MultiArray::empty(queues.devices(), {n}, DType::float16(), {}, clone());
  for (std::size_t r = 0; r < comm.size(); ++r) {
    std::vector<std::uint16_t> bits(n);
    for (std::size_t i = 0; i < n; ++i) bits[i] = half_bits(static_cast<unsigned>(i % 7 + r + 1));
    const auto& queue = queues.queues()[r];
    halves[queue.device()].set(
        queue, HostArray::from_bytes(std::as_bytes(std::span(bits)), {n}, DType::float16()));
  }
  comm.all_reduce(halves, ReduceOp::sum);
  queues.synchronize();
  std::vector<std::uint16_t> expected(n);
  for (std::size_t i = 0; i < n; ++i) {
    unsigned sum = 0;
    for (std::size_t r = 0; r < comm.size(); ++r) sum += static_cast<unsigned>(i % 7 + r + 1);
    expected[i] = half_bits(sum);
  }
  for (std::size_t r = 0; r < comm.size(); ++r) {
    const auto& queue = queues.queues()[r];
    const auto got = halves[queue.device()].get(queue);
    std::vector<std::uint16_t> got_bits(n);
    std::memcpy(got_bits.data(), got.data(), got.nbytes());
    EXPECT_EQ(got_bits, expected) << "rank " << r;
  }
}

void expect_refusal(const std::function<void()>& call, std::initializer_list<const char*> words) {
  const auto message = logic_error_message(call);
  for (const char* word : words) {
    EXPECT_NE(message.find(word), std::string::npos) << "\"" << word << "\" in: " << message;
  }
}

TEST_P(Collectives, RefusesBadArguments) {
  const auto devices = context().devices();
  const auto queues = MultiQueue::on_devices(devices);
  const Communicator comm(queues);
  const std::size_t ranks = comm.size();
  const auto f32 = DType::float32();
  const auto a = MultiArray::empty(devices, {6}, f32, {}, clone());
  const auto b = MultiArray::empty(devices, {6}, f32, {}, clone());
  // Devices: a MultiArray on fewer devices than the communicator's.
  const auto fewer = MultiArray::empty(devices[{0}], {6}, f32, {}, clone());
  expect_refusal([&] { comm.all_reduce(fewer, b, ReduceOp::sum); },
                 {"all_reduce", "src", "devices"});
  expect_refusal([&] { comm.broadcast(a, fewer, 0); }, {"broadcast", "dst", "devices"});
  // ... and a communicator on fewer devices than the MultiArray.
  const Communicator first(MultiQueue({queues.queues()[0]}));
  expect_refusal([&] { first.all_reduce(a, ReduceOp::sum); }, {"all_reduce", "src", "devices"});
  // Array forms on a communicator of several local ranks.
  expect_refusal([&] { comm.all_reduce(a[devices[0]], ReduceOp::sum); },
                 {"all_reduce", "Array form", "one rank"});
  // The Array on another device than the rank's queue.
  expect_refusal([&] { first.all_reduce(a[devices[1]], ReduceOp::sum); },
                 {"all_reduce", "src", "device"});
  // Sizes.
  const auto seven = MultiArray::empty(devices, {7}, f32, {}, clone());
  expect_refusal([&] { comm.all_reduce(a, seven, ReduceOp::sum); },
                 {"all_reduce", "dst", "7 elements", "6"});
  expect_refusal([&] { comm.reduce(a, seven, ReduceOp::sum, 0); }, {"reduce", "dst"});
  expect_refusal([&] { comm.broadcast(seven, a, 0); }, {"broadcast", "dst"});
  expect_refusal([&] { comm.all_gather(a, b); }, {"all_gather", "dst", "size()"});
  expect_refusal([&] { comm.reduce_scatter(a, b, ReduceOp::sum); },
                 {"reduce_scatter", "src", "size()"});
  // Parts of different sizes (EqualSplay of one element more than ranks: 2, 1, 1...).
  const auto uneven = MultiArray::empty(devices, {ranks + 1}, f32);
  expect_refusal([&] { comm.all_reduce(uneven, ReduceOp::sum); },
                 {"all_reduce", "src of rank 1", "elements"});
  // Dtypes.
  const auto ints = MultiArray::empty(devices, {6}, DType::int32(), {}, clone());
  expect_refusal([&] { comm.all_reduce(a, ints, ReduceOp::sum); },
                 {"all_reduce", "dst", "dtype int32", "float32"});
  const auto shorts = MultiArray::empty(devices, {6}, DType::int16(), {}, clone());
  expect_refusal([&] { comm.all_reduce(shorts, ReduceOp::sum); },
                 {"all_reduce", "cannot reduce dtype int16"});
  const auto short_parts = MultiArray::empty(devices, {ranks * 3}, DType::int16());
  const auto short_wholes = MultiArray::empty(devices, {ranks * 3}, DType::int16(), {}, clone());
  expect_refusal([&] { comm.reduce_scatter(short_wholes, short_parts, ReduceOp::max); },
                 {"reduce_scatter", "int16"});
  // float16 reduces only through a library (plinth's own engine has no half arithmetic).
  if (!collectives_support(context().api()).library) {
    const auto halves = MultiArray::empty(devices, {6}, DType::float16(), {}, clone());
    expect_refusal([&] { comm.all_reduce(halves, ReduceOp::sum); },
                   {"all_reduce", "float16", "collectives library"});
  }
  const auto complexes = MultiArray::empty(devices, {6}, DType::complex64(), {}, clone());
  for (const auto op : {ReduceOp::prod, ReduceOp::min, ReduceOp::max}) {
    expect_refusal([&] { comm.all_reduce(complexes, op); },
                   {"all_reduce", "complex64", "sum and avg", op_name(op)});
  }
  // Root.
  expect_refusal([&] { comm.reduce(a, b, ReduceOp::sum, ranks); },
                 {"reduce", "root", "not a rank"});
  expect_refusal([&] { comm.broadcast(a, ranks + 5); }, {"broadcast", "root", "not a rank"});
  // Overlap, and layouts, with Array forms on one rank.
  const auto& queue = queues.queues()[0];
  const auto whole = Array::empty(devices[0], {12}, f32);
  const auto front = whole.view({Slice(0, 6)});
  const auto shifted = whole.view({Slice(1, 7)});
  expect_refusal([&] { first.all_gather(front, front); }, {"all_gather", "overlap"});
  expect_refusal([&] { first.reduce_scatter(whole, whole, ReduceOp::sum); },
                 {"reduce_scatter", "overlap"});
  expect_refusal([&] { first.all_reduce(front, shifted, ReduceOp::sum); },
                 {"all_reduce", "overlap partly"});
  const auto strided = whole.view({Slice(0, 12, 2)});
  expect_refusal([&] { first.all_reduce(strided, ReduceOp::sum); },
                 {"all_reduce", "not C-contiguous"});
  // Nothing was run: the arrays and the communicators still work.
  whole.set(queue, HostArray::from_values(values<float>(0, 12)), true);
  first.all_reduce(front, whole.view({Slice(6, 12)}), ReduceOp::sum);
  const auto got = whole.get(queue).to_vector<float>();
  EXPECT_EQ(std::vector<float>(got.begin() + 6, got.end()), values<float>(0, 6));
}

TEST_P(Collectives, JoinAndIdsNeedALibrary) {
  if (collectives_support(context().api()).library) {
    GTEST_SKIP() << "this API has a collectives library (join runs in the two-process test)";
  }
  const auto devices = context().devices();
  const Queue queue(devices[0]);
  const auto shortcut = context().api().shortcut();
  const auto id = CommunicatorId::from_string(shortcut + ":00ff");
  expect_refusal([&] { Communicator::join(queue, id, 2, 0); },
                 {"join", "needs a collectives library"});
  expect_refusal([&] { Communicator::join(queue, id, 2, 2); }, {"join", "rank 2"});
  expect_refusal([&] { Communicator::join(queue, id, 0, 0); }, {"join", "rank_count"});
  const auto other = CommunicatorId::from_string(shortcut == "cuda" ? "hip:00" : "cuda:00");
  expect_refusal([&] { Communicator::join(queue, other, 2, 0); }, {"join", "of API"});
  expect_refusal([&] { CommunicatorId::create(context().api()); },
                 {"CommunicatorId::create", "needs a collectives library", shortcut.c_str()});
  // Said once: the backend's default reason only repeated it ("... has no collectives library:
  // the backend has no collectives library").
  for (const auto& message :
       {logic_error_message([&] { Communicator::join(queue, id, 2, 0); }),
        logic_error_message([&] { CommunicatorId::create(context().api()); })}) {
    const auto first = message.find("collectives library");
    ASSERT_NE(first, std::string::npos) << message;
    EXPECT_EQ(message.find("collectives library", first + 1), std::string::npos) << message;
  }
}

PLINTH_INSTANTIATE_MULTI_DEVICE_TEST(Collectives);
PLINTH_INSTANTIATE_DEVICE_TEST(CollectivesOnOneDevice);

}  // namespace
}  // namespace collectives_test
}  // namespace plinth::conformance
