// philox4x32_10() (include/plinth/random.hpp): the Philox-4x32-10 bijection as a Module, in
// 32-bit integer arithmetic and 64-bit products only, so it is exact on every backend.

#include <plinth/random.hpp>

#include <string>

namespace plinth {

namespace {

// Random123's philox4x32 round and key schedule: the multipliers M0, M1 and the Weyl
// constants W0 (golden ratio), W1 (sqrt(3) - 1).
constexpr const char* philox_source =
    R"(#if defined(PLINTH_OPENCL_API) || defined(PLINTH_LEVEL_ZERO_API)
typedef ulong ${prefix}u64;
#else
typedef unsigned long long ${prefix}u64;
#endif

typedef struct {
    unsigned int x0, x1, x2, x3;
} ${prefix}words;

// Philox-4x32-10: ten rounds of the counter under the key.
FUNCTION ${prefix}words ${prefix}(${prefix}words ctr, unsigned int key0, unsigned int key1)
{
    for (int round = 0; round < 10; ++round) {
        if (round > 0) {
            key0 += 0x9E3779B9u;
            key1 += 0xBB67AE85u;
        }
        const ${prefix}u64 p0 = (${prefix}u64)0xD2511F53u * ctr.x0;
        const ${prefix}u64 p1 = (${prefix}u64)0xCD9E8D57u * ctr.x2;
        ${prefix}words next;
        next.x0 = (unsigned int)(p1 >> 32) ^ ctr.x1 ^ key0;
        next.x1 = (unsigned int)p1;
        next.x2 = (unsigned int)(p0 >> 32) ^ ctr.x3 ^ key1;
        next.x3 = (unsigned int)p0;
        ctr = next;
    }
    return ctr;
}

// The words of element i of a RandomGenerator call: counter (lo(i), hi(i), offset), key seed.
FUNCTION ${prefix}words ${prefix}stream(VSIZE_T i, unsigned int offset_lo, unsigned int offset_hi,
                                         unsigned int seed_lo, unsigned int seed_hi)
{
    ${prefix}words ctr;
    ctr.x0 = (unsigned int)i;
    ctr.x1 = (unsigned int)((${prefix}u64)i >> 32);
    ctr.x2 = offset_lo;
    ctr.x3 = offset_hi;
    return ${prefix}(ctr, seed_lo, seed_hi);
}
)";

}  // namespace

Module philox4x32_10() { return Module::from_string(philox_source, "philox"); }

}  // namespace plinth
