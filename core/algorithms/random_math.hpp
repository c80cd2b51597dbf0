#pragma once

// The device code behind RandomGenerator (include/plinth/random.hpp) that turns Philox words
// into real numbers: exact uniform conversions and a Box–Muller transform whose log, square
// root, sine and cosine are plinth's own, built from IEEE-rounded +, - and * alone (no
// library call, no division, no fused multiply-add, no denormal), so every backend and device
// computes the same bits. The operation sequence is the specification: the conformance test
// (tests/conformance/random_test.cpp) recomputes it on the host and compares bits.

#include <plinth/dtype.hpp>
#include <plinth/module.hpp>

namespace plinth::detail {

/// A Module for the real dtype `real` (float32 or float64) defining, with T its C type:
///
///     T       ${prefix}uniform(unsigned int w0[, unsigned int w1])   // in [0, 1)
///     T       ${prefix}uniform_open0(unsigned int w0[, w1])          // in (0, 1]
///     T       ${prefix}log(T x)           // x in (0, 1], a normal number
///     T       ${prefix}sqrt(T x)          // x >= 0 and below 2^60
///     complex ${prefix}normal_pair(unsigned int w0, w1[, w2, w3])  // two standard normals
///     T       ${prefix}scale_shift(T x, T scale, T shift)  // shift + scale * x, not fused
///
/// float32 takes one word per uniform (its top 24 bits), float64 two (53 bits: the top 27 of
/// w0 and the top 26 of w1). normal_pair uses the first uniform (open at 0) for the radius
/// and the second for the angle. Throws LogicError for another dtype.
Module random_math(const DType& real);

}  // namespace plinth::detail
