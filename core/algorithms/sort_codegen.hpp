#pragma once

// The pure parts of the radix sort behind sort(), argsort() and the rest of sorting.hpp, with
// no device: the order-preserving key transforms, the tile geometry for a device, and the
// kernels' source. Exported for the unit tests.

#include <plinth/export.hpp>

#include <cstddef>
#include <string>

namespace plinth::detail {

/// How a key's bits are read: as an unsigned integer of `bits` bits (8, 16, 32 or 64).
enum class RadixKeyKind { unsigned_integer, signed_integer, floating };

/// What a radix program sorts: keys of one kind and width, ascending or descending, with no
/// payload or with a payload of element indices (`payload_bits` 32 or 64).
struct RadixKeySpec {
  RadixKeyKind kind = RadixKeyKind::unsigned_integer;
  unsigned bits = 32;
  bool descending = false;
  unsigned payload_bits = 0;  // 0: keys only
};

/// A scatter tile: `local_size` work items (a power of two, at most 256, a multiple of the
/// largest sub-group size), each ranking `items` keys; `sub_groups` bounds the number of
/// sub-groups of a group (local_size / the smallest sub-group size).
struct RadixGeometry {
  std::size_t local_size = 256;
  std::size_t items = 16;
  std::size_t sub_groups = 8;
  std::size_t tile() const { return local_size * items; }
};

/// What a device allows.
struct RadixLimits {
  std::size_t max_local_size = 256;    // the device's and the kernels' limit
  std::size_t local_mem_size = 0;      // bytes per group; 0 when unknown
  std::size_t min_sub_group_size = 1;  // 1 where sub-groups are emulated
  std::size_t max_sub_group_size = 1;
};

/// Bytes of local memory the scatter kernel declares for `geometry` and `spec`.
PLINTH_EXPORT std::size_t radix_local_bytes(const RadixGeometry& geometry,
                                            const RadixKeySpec& spec);

/// A geometry within `limits` for `spec`: 256 work items where sub-groups are native (32
/// where they are emulated, whose ranking is serial over the group's sub-groups), and as many
/// items each (at most 16) as keep the scatter kernel's local memory within 44 KiB and the
/// device's less 4 KiB (half of it below 8 KiB). Throws nothing.
PLINTH_EXPORT RadixGeometry choose_radix_geometry(const RadixLimits& limits,
                                                  const RadixKeySpec& spec) noexcept;

/// The order-preserving transform of a key's bits as C source of the dialect: a FUNCTION
/// `_sort_order(_sort_KB x)` returning the unsigned bits whose unsigned order is the keys'
/// (numpy's) order: unsigned keys as they are, signed ones with the sign bit flipped, floats
/// with every bit flipped when the sign is set and the sign bit set otherwise (so -0.0 sorts
/// just before +0.0), every NaN mapped to all ones (last, all NaNs equal); descending keys
/// then inverted. Throws nothing but std::bad_alloc.
PLINTH_EXPORT std::string radix_order_function(const RadixKeySpec& spec);

/// `_sort_KB` (the keys' bits type), _sort_order (radix_order_function) and
/// `_sort_key(_sort_KB x)`: the order of numpy's comparisons, where -0.0 equals +0.0 (floats'
/// zeros made +0.0 first) and NaNs equal each other. For the helper programs (unique,
/// searchsorted). Throws nothing but std::bad_alloc.
PLINTH_EXPORT std::string sort_key_prelude(const RadixKeySpec& spec);

/// The keys' kind as the radix kernels take it, in bits 8 and up of their `shift` argument:
/// bit 0 signed, bit 1 floating, bit 2 descending. Throws nothing.
PLINTH_EXPORT unsigned radix_mode(const RadixKeySpec& spec) noexcept;

/// The program's source (no template placeholders): the kernels
///
///     _sort_hist(keys, long key_offset, ulong row, ulong tiles_per_row, ulong tiles,
///                uint shift, uint *hist)
///     _sort_scatter(keys_in, long offset, keys_out, ulong row, ulong tiles_per_row,
///                   ulong tiles, uint shift, const ulong *offsets)        (keys only)
///     _sort_scatter(keys_in, long offset, keys_out, const PI *payload_in, PI *payload_mid,
///                   long *payload_final, uint flags, ulong row, ...)      (with a payload)
///
/// One program serves every kind of key of `spec.bits` bits (and `spec.payload_bits`): `shift`
/// is the digit's shift | radix_mode(spec) << 8. Rows of `row` keys are sorted independently: the
/// tiles of a row (tiles_per_row of them) never cross it; hist[(r * 256 + digit) * tiles_per_row +
/// tile] is the count of the digit in the tile of row r, whose exclusive scan (`offsets`) is where
/// the tile's keys of that digit go. Flags bit 0 makes the payload (the index in the row: the first
/// pass), bit 1 writes it as int64 to payload_final (the last pass) instead of payload_mid. Throws
/// nothing but std::bad_alloc.
PLINTH_EXPORT std::string radix_source(const RadixKeySpec& spec, const RadixGeometry& geometry);

}  // namespace plinth::detail
