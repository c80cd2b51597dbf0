#pragma once

// One kernel that calls every function of the kernel dialect (docs/kernel-dialect.md) for
// every type and memory space, its names written out by hand from the document, not from the
// generators' tables: a prelude that lacks one, or defines one wrongly, fails to build it.
// Built by the conformance suite (dialect_build_test.cpp: compile and one launch), by the
// Level Zero backend's SPIR-V test (tests/backends/level_zero/dialect_spirv_test.cpp), and for
// sm_80/sm_90 and gfx90a/gfx1030 by the CUDA and HIP backends' dialect tests.
// Portable to every backend (no OpenCL-only vector syntax). `count` ends as the number of
// work-items; the other buffers hold 8 elements each.

namespace plinth::testing {

inline constexpr const char* every_dialect_function_source = R"(
// A local pointer a function takes (LOCAL_MEM_ARG) reaches the local atomics and loads.
FUNCTION int through_local_pointer(LOCAL_MEM_ARG int *p) {
  return atomic_add_local_int(p, 1) + atomic_load_local_int(p, MEM_ORDER_ACQUIRE);
}

KERNEL void every_function(GLOBAL_MEM int *count, GLOBAL_MEM int *g_int, GLOBAL_MEM unsigned int *g_uint,
                           GLOBAL_MEM long *g_long, GLOBAL_MEM unsigned long *g_ulong,
                           GLOBAL_MEM float *g_float, GLOBAL_MEM double *g_double,
                           GLOBAL_MEM char *g_char, GLOBAL_MEM unsigned char *g_uchar,
                           GLOBAL_MEM short *g_short, GLOBAL_MEM unsigned short *g_ushort) {
  LOCAL_MEM_DECL int l_int[8];
  LOCAL_MEM_DECL unsigned int l_uint[8];
  LOCAL_MEM_DECL long l_long[8];
  LOCAL_MEM_DECL unsigned long l_ulong[8];
  LOCAL_MEM_DECL float l_float[8];
  LOCAL_MEM_DECL double l_double[8];
  LOCAL_MEM_DECL char l_char[8];
  LOCAL_MEM_DECL unsigned char l_uchar[8];
  LOCAL_MEM_DECL short l_short[8];
  LOCAL_MEM_DECL unsigned short l_ushort[8];
  const unsigned int lid = (unsigned int)get_local_id(0);
  if (lid < 8) {
    l_int[lid] = (int)0;
    l_uint[lid] = (unsigned int)0;
    l_long[lid] = (long)0;
    l_ulong[lid] = (unsigned long)0;
    l_float[lid] = (float)0;
    l_double[lid] = (double)0;
    l_char[lid] = (char)0;
    l_uchar[lid] = (unsigned char)0;
    l_short[lid] = (short)0;
    l_ushort[lid] = (unsigned short)0;
  }
  LOCAL_BARRIER;
  atomic_add_global_int(count, 1);
  g_int[6] = through_local_pointer(l_int + 7);

  // Sub-group queries, barriers and votes.
  unsigned int lane = get_sub_group_local_id();
  unsigned int sg = get_sub_group_size() + get_max_sub_group_size() + get_num_sub_groups() +
                    get_sub_group_id() + lane;
  SUB_GROUP_BARRIER;
  unsigned long votes = sub_group_ballot(lane & 1u);
  int vote = sub_group_any(lane == 0u) + sub_group_all(lane < 64u);
  g_uint[7] = sg + (unsigned int)votes + (unsigned int)vote;

  {  // int
    int v = (int)1;
    v += atomic_add_global_int(g_int, (int)1);
    v += atomic_sub_global_int(g_int, (int)1);
    v += atomic_min_global_int(g_int, (int)1);
    v += atomic_max_global_int(g_int, (int)1);
    v += atomic_and_global_int(g_int, (int)1);
    v += atomic_or_global_int(g_int, (int)1);
    v += atomic_xor_global_int(g_int, (int)1);
    v += atomic_xchg_global_int(g_int, (int)1);
    v += atomic_cmpxchg_global_int(g_int + 1, (int)0, (int)2);
    v += atomic_load_global_int(g_int + 2, MEM_ORDER_RELAXED);
    v += atomic_load_global_int(g_int + 2, MEM_ORDER_ACQUIRE);
    atomic_store_global_int(g_int + 3, v, MEM_ORDER_RELAXED);
    atomic_store_global_int(g_int + 3, v, MEM_ORDER_RELEASE);
    v += atomic_add_local_int(l_int, (int)1);
    v += atomic_sub_local_int(l_int, (int)1);
    v += atomic_min_local_int(l_int, (int)1);
    v += atomic_max_local_int(l_int, (int)1);
    v += atomic_and_local_int(l_int, (int)1);
    v += atomic_or_local_int(l_int, (int)1);
    v += atomic_xor_local_int(l_int, (int)1);
    v += atomic_xchg_local_int(l_int, (int)1);
    v += atomic_cmpxchg_local_int(l_int + 1, (int)0, (int)2);
    v += atomic_load_local_int(l_int + 2, MEM_ORDER_RELAXED);
    v += atomic_load_local_int(l_int + 2, MEM_ORDER_ACQUIRE);
    atomic_store_local_int(l_int + 3, v, MEM_ORDER_RELAXED);
    atomic_store_local_int(l_int + 3, v, MEM_ORDER_RELEASE);
    v += sub_group_broadcast_int(v, 0u);
    v += sub_group_shuffle_int(v, lane + 1u);
    v += sub_group_shuffle_up_int(v, 1u);
    v += sub_group_shuffle_down_int(v, 1u);
    v += sub_group_shuffle_xor_int(v, 1u);
    v += sub_group_reduce_add_int(v);
    v += sub_group_scan_inclusive_add_int(v);
    v += sub_group_scan_exclusive_add_int(v);
    v += sub_group_reduce_min_int(v);
    v += sub_group_scan_inclusive_min_int(v);
    v += sub_group_scan_exclusive_min_int(v);
    v += sub_group_reduce_max_int(v);
    v += sub_group_scan_inclusive_max_int(v);
    v += sub_group_scan_exclusive_max_int(v);
    g_int[4 + lid % 2] = v;
  }
  {  // unsigned int
    unsigned int v = (unsigned int)1;
    v += atomic_add_global_uint(g_uint, (unsigned int)1);
    v += atomic_sub_global_uint(g_uint, (unsigned int)1);
    v += atomic_min_global_uint(g_uint, (unsigned int)1);
    v += atomic_max_global_uint(g_uint, (unsigned int)1);
    v += atomic_and_global_uint(g_uint, (unsigned int)1);
    v += atomic_or_global_uint(g_uint, (unsigned int)1);
    v += atomic_xor_global_uint(g_uint, (unsigned int)1);
    v += atomic_xchg_global_uint(g_uint, (unsigned int)1);
    v += atomic_cmpxchg_global_uint(g_uint + 1, (unsigned int)0, (unsigned int)2);
    v += atomic_load_global_uint(g_uint + 2, MEM_ORDER_RELAXED);
    v += atomic_load_global_uint(g_uint + 2, MEM_ORDER_ACQUIRE);
    atomic_store_global_uint(g_uint + 3, v, MEM_ORDER_RELAXED);
    atomic_store_global_uint(g_uint + 3, v, MEM_ORDER_RELEASE);
    v += atomic_add_local_uint(l_uint, (unsigned int)1);
    v += atomic_sub_local_uint(l_uint, (unsigned int)1);
    v += atomic_min_local_uint(l_uint, (unsigned int)1);
    v += atomic_max_local_uint(l_uint, (unsigned int)1);
    v += atomic_and_local_uint(l_uint, (unsigned int)1);
    v += atomic_or_local_uint(l_uint, (unsigned int)1);
    v += atomic_xor_local_uint(l_uint, (unsigned int)1);
    v += atomic_xchg_local_uint(l_uint, (unsigned int)1);
    v += atomic_cmpxchg_local_uint(l_uint + 1, (unsigned int)0, (unsigned int)2);
    v += atomic_load_local_uint(l_uint + 2, MEM_ORDER_RELAXED);
    v += atomic_load_local_uint(l_uint + 2, MEM_ORDER_ACQUIRE);
    atomic_store_local_uint(l_uint + 3, v, MEM_ORDER_RELAXED);
    atomic_store_local_uint(l_uint + 3, v, MEM_ORDER_RELEASE);
    v += sub_group_broadcast_uint(v, 0u);
    v += sub_group_shuffle_uint(v, lane + 1u);
    v += sub_group_shuffle_up_uint(v, 1u);
    v += sub_group_shuffle_down_uint(v, 1u);
    v += sub_group_shuffle_xor_uint(v, 1u);
    v += sub_group_reduce_add_uint(v);
    v += sub_group_scan_inclusive_add_uint(v);
    v += sub_group_scan_exclusive_add_uint(v);
    v += sub_group_reduce_min_uint(v);
    v += sub_group_scan_inclusive_min_uint(v);
    v += sub_group_scan_exclusive_min_uint(v);
    v += sub_group_reduce_max_uint(v);
    v += sub_group_scan_inclusive_max_uint(v);
    v += sub_group_scan_exclusive_max_uint(v);
    g_uint[4 + lid % 2] = v;
  }
  {  // long
    long v = (long)1;
    v += atomic_add_global_long(g_long, (long)1);
    v += atomic_sub_global_long(g_long, (long)1);
    v += atomic_min_global_long(g_long, (long)1);
    v += atomic_max_global_long(g_long, (long)1);
    v += atomic_and_global_long(g_long, (long)1);
    v += atomic_or_global_long(g_long, (long)1);
    v += atomic_xor_global_long(g_long, (long)1);
    v += atomic_xchg_global_long(g_long, (long)1);
    v += atomic_cmpxchg_global_long(g_long + 1, (long)0, (long)2);
    v += atomic_load_global_long(g_long + 2, MEM_ORDER_RELAXED);
    v += atomic_load_global_long(g_long + 2, MEM_ORDER_ACQUIRE);
    atomic_store_global_long(g_long + 3, v, MEM_ORDER_RELAXED);
    atomic_store_global_long(g_long + 3, v, MEM_ORDER_RELEASE);
    v += atomic_add_local_long(l_long, (long)1);
    v += atomic_sub_local_long(l_long, (long)1);
    v += atomic_min_local_long(l_long, (long)1);
    v += atomic_max_local_long(l_long, (long)1);
    v += atomic_and_local_long(l_long, (long)1);
    v += atomic_or_local_long(l_long, (long)1);
    v += atomic_xor_local_long(l_long, (long)1);
    v += atomic_xchg_local_long(l_long, (long)1);
    v += atomic_cmpxchg_local_long(l_long + 1, (long)0, (long)2);
    v += atomic_load_local_long(l_long + 2, MEM_ORDER_RELAXED);
    v += atomic_load_local_long(l_long + 2, MEM_ORDER_ACQUIRE);
    atomic_store_local_long(l_long + 3, v, MEM_ORDER_RELAXED);
    atomic_store_local_long(l_long + 3, v, MEM_ORDER_RELEASE);
    v += sub_group_broadcast_long(v, 0u);
    v += sub_group_shuffle_long(v, lane + 1u);
    v += sub_group_shuffle_up_long(v, 1u);
    v += sub_group_shuffle_down_long(v, 1u);
    v += sub_group_shuffle_xor_long(v, 1u);
    v += sub_group_reduce_add_long(v);
    v += sub_group_scan_inclusive_add_long(v);
    v += sub_group_scan_exclusive_add_long(v);
    v += sub_group_reduce_min_long(v);
    v += sub_group_scan_inclusive_min_long(v);
    v += sub_group_scan_exclusive_min_long(v);
    v += sub_group_reduce_max_long(v);
    v += sub_group_scan_inclusive_max_long(v);
    v += sub_group_scan_exclusive_max_long(v);
    g_long[4 + lid % 2] = v;
  }
  {  // unsigned long
    unsigned long v = (unsigned long)1;
    v += atomic_add_global_ulong(g_ulong, (unsigned long)1);
    v += atomic_sub_global_ulong(g_ulong, (unsigned long)1);
    v += atomic_min_global_ulong(g_ulong, (unsigned long)1);
    v += atomic_max_global_ulong(g_ulong, (unsigned long)1);
    v += atomic_and_global_ulong(g_ulong, (unsigned long)1);
    v += atomic_or_global_ulong(g_ulong, (unsigned long)1);
    v += atomic_xor_global_ulong(g_ulong, (unsigned long)1);
    v += atomic_xchg_global_ulong(g_ulong, (unsigned long)1);
    v += atomic_cmpxchg_global_ulong(g_ulong + 1, (unsigned long)0, (unsigned long)2);
    v += atomic_load_global_ulong(g_ulong + 2, MEM_ORDER_RELAXED);
    v += atomic_load_global_ulong(g_ulong + 2, MEM_ORDER_ACQUIRE);
    atomic_store_global_ulong(g_ulong + 3, v, MEM_ORDER_RELAXED);
    atomic_store_global_ulong(g_ulong + 3, v, MEM_ORDER_RELEASE);
    v += atomic_add_local_ulong(l_ulong, (unsigned long)1);
    v += atomic_sub_local_ulong(l_ulong, (unsigned long)1);
    v += atomic_min_local_ulong(l_ulong, (unsigned long)1);
    v += atomic_max_local_ulong(l_ulong, (unsigned long)1);
    v += atomic_and_local_ulong(l_ulong, (unsigned long)1);
    v += atomic_or_local_ulong(l_ulong, (unsigned long)1);
    v += atomic_xor_local_ulong(l_ulong, (unsigned long)1);
    v += atomic_xchg_local_ulong(l_ulong, (unsigned long)1);
    v += atomic_cmpxchg_local_ulong(l_ulong + 1, (unsigned long)0, (unsigned long)2);
    v += atomic_load_local_ulong(l_ulong + 2, MEM_ORDER_RELAXED);
    v += atomic_load_local_ulong(l_ulong + 2, MEM_ORDER_ACQUIRE);
    atomic_store_local_ulong(l_ulong + 3, v, MEM_ORDER_RELAXED);
    atomic_store_local_ulong(l_ulong + 3, v, MEM_ORDER_RELEASE);
    v += sub_group_broadcast_ulong(v, 0u);
    v += sub_group_shuffle_ulong(v, lane + 1u);
    v += sub_group_shuffle_up_ulong(v, 1u);
    v += sub_group_shuffle_down_ulong(v, 1u);
    v += sub_group_shuffle_xor_ulong(v, 1u);
    v += sub_group_reduce_add_ulong(v);
    v += sub_group_scan_inclusive_add_ulong(v);
    v += sub_group_scan_exclusive_add_ulong(v);
    v += sub_group_reduce_min_ulong(v);
    v += sub_group_scan_inclusive_min_ulong(v);
    v += sub_group_scan_exclusive_min_ulong(v);
    v += sub_group_reduce_max_ulong(v);
    v += sub_group_scan_inclusive_max_ulong(v);
    v += sub_group_scan_exclusive_max_ulong(v);
    g_ulong[4 + lid % 2] = v;
  }
  {  // float
    float v = (float)1;
    v += atomic_add_global_float(g_float, (float)1);
    v += atomic_sub_global_float(g_float, (float)1);
    v += atomic_min_global_float(g_float, (float)1);
    v += atomic_max_global_float(g_float, (float)1);
    v += atomic_xchg_global_float(g_float, (float)1);
    v += atomic_cmpxchg_global_float(g_float + 1, (float)0, (float)2);
    v += atomic_load_global_float(g_float + 2, MEM_ORDER_RELAXED);
    v += atomic_load_global_float(g_float + 2, MEM_ORDER_ACQUIRE);
    atomic_store_global_float(g_float + 3, v, MEM_ORDER_RELAXED);
    atomic_store_global_float(g_float + 3, v, MEM_ORDER_RELEASE);
    v += atomic_add_local_float(l_float, (float)1);
    v += atomic_sub_local_float(l_float, (float)1);
    v += atomic_min_local_float(l_float, (float)1);
    v += atomic_max_local_float(l_float, (float)1);
    v += atomic_xchg_local_float(l_float, (float)1);
    v += atomic_cmpxchg_local_float(l_float + 1, (float)0, (float)2);
    v += atomic_load_local_float(l_float + 2, MEM_ORDER_RELAXED);
    v += atomic_load_local_float(l_float + 2, MEM_ORDER_ACQUIRE);
    atomic_store_local_float(l_float + 3, v, MEM_ORDER_RELAXED);
    atomic_store_local_float(l_float + 3, v, MEM_ORDER_RELEASE);
    v += sub_group_broadcast_float(v, 0u);
    v += sub_group_shuffle_float(v, lane + 1u);
    v += sub_group_shuffle_up_float(v, 1u);
    v += sub_group_shuffle_down_float(v, 1u);
    v += sub_group_shuffle_xor_float(v, 1u);
    v += sub_group_reduce_add_float(v);
    v += sub_group_scan_inclusive_add_float(v);
    v += sub_group_scan_exclusive_add_float(v);
    v += sub_group_reduce_min_float(v);
    v += sub_group_scan_inclusive_min_float(v);
    v += sub_group_scan_exclusive_min_float(v);
    v += sub_group_reduce_max_float(v);
    v += sub_group_scan_inclusive_max_float(v);
    v += sub_group_scan_exclusive_max_float(v);
    g_float[4 + lid % 2] = v;
  }
  {  // double
    double v = (double)1;
    v += atomic_add_global_double(g_double, (double)1);
    v += atomic_sub_global_double(g_double, (double)1);
    v += atomic_min_global_double(g_double, (double)1);
    v += atomic_max_global_double(g_double, (double)1);
    v += atomic_xchg_global_double(g_double, (double)1);
    v += atomic_cmpxchg_global_double(g_double + 1, (double)0, (double)2);
    v += atomic_load_global_double(g_double + 2, MEM_ORDER_RELAXED);
    v += atomic_load_global_double(g_double + 2, MEM_ORDER_ACQUIRE);
    atomic_store_global_double(g_double + 3, v, MEM_ORDER_RELAXED);
    atomic_store_global_double(g_double + 3, v, MEM_ORDER_RELEASE);
    v += atomic_add_local_double(l_double, (double)1);
    v += atomic_sub_local_double(l_double, (double)1);
    v += atomic_min_local_double(l_double, (double)1);
    v += atomic_max_local_double(l_double, (double)1);
    v += atomic_xchg_local_double(l_double, (double)1);
    v += atomic_cmpxchg_local_double(l_double + 1, (double)0, (double)2);
    v += atomic_load_local_double(l_double + 2, MEM_ORDER_RELAXED);
    v += atomic_load_local_double(l_double + 2, MEM_ORDER_ACQUIRE);
    atomic_store_local_double(l_double + 3, v, MEM_ORDER_RELAXED);
    atomic_store_local_double(l_double + 3, v, MEM_ORDER_RELEASE);
    v += sub_group_broadcast_double(v, 0u);
    v += sub_group_shuffle_double(v, lane + 1u);
    v += sub_group_shuffle_up_double(v, 1u);
    v += sub_group_shuffle_down_double(v, 1u);
    v += sub_group_shuffle_xor_double(v, 1u);
    v += sub_group_reduce_add_double(v);
    v += sub_group_scan_inclusive_add_double(v);
    v += sub_group_scan_exclusive_add_double(v);
    v += sub_group_reduce_min_double(v);
    v += sub_group_scan_inclusive_min_double(v);
    v += sub_group_scan_exclusive_min_double(v);
    v += sub_group_reduce_max_double(v);
    v += sub_group_scan_inclusive_max_double(v);
    v += sub_group_scan_exclusive_max_double(v);
    g_double[4 + lid % 2] = v;
  }

  // Fences and barriers.
  atomic_fence(MEM_ORDER_RELAXED, MEM_SCOPE_WORK_GROUP);
  atomic_fence(MEM_ORDER_RELAXED, MEM_SCOPE_DEVICE);
  atomic_fence(MEM_ORDER_ACQUIRE, MEM_SCOPE_WORK_GROUP);
  atomic_fence(MEM_ORDER_ACQUIRE, MEM_SCOPE_DEVICE);
  atomic_fence(MEM_ORDER_RELEASE, MEM_SCOPE_WORK_GROUP);
  atomic_fence(MEM_ORDER_RELEASE, MEM_SCOPE_DEVICE);
  atomic_fence(MEM_ORDER_ACQ_REL, MEM_SCOPE_WORK_GROUP);
  atomic_fence(MEM_ORDER_ACQ_REL, MEM_SCOPE_DEVICE);
  LOCAL_GLOBAL_BARRIER;

  // Vector loads and stores, on global and local memory (only work-item 0 stores).
  if (lid == 0) {
    vstore2(vload2(1, g_char), 0, g_char);
    vstore4(vload4(0, g_char), 1, g_char);
    vstore2(vload2(1, l_char), 0, l_char);
    vstore4(vload4(0, l_char), 1, l_char);
    vstore2(vload2(1, g_uchar), 0, g_uchar);
    vstore4(vload4(0, g_uchar), 1, g_uchar);
    vstore2(vload2(1, l_uchar), 0, l_uchar);
    vstore4(vload4(0, l_uchar), 1, l_uchar);
    vstore2(vload2(1, g_short), 0, g_short);
    vstore4(vload4(0, g_short), 1, g_short);
    vstore2(vload2(1, l_short), 0, l_short);
    vstore4(vload4(0, l_short), 1, l_short);
    vstore2(vload2(1, g_ushort), 0, g_ushort);
    vstore4(vload4(0, g_ushort), 1, g_ushort);
    vstore2(vload2(1, l_ushort), 0, l_ushort);
    vstore4(vload4(0, l_ushort), 1, l_ushort);
    vstore2(vload2(1, g_int), 0, g_int);
    vstore4(vload4(0, g_int), 1, g_int);
    vstore2(vload2(1, l_int), 0, l_int);
    vstore4(vload4(0, l_int), 1, l_int);
    vstore2(vload2(1, g_uint), 0, g_uint);
    vstore4(vload4(0, g_uint), 1, g_uint);
    vstore2(vload2(1, l_uint), 0, l_uint);
    vstore4(vload4(0, l_uint), 1, l_uint);
    vstore2(vload2(1, g_long), 0, g_long);
    vstore4(vload4(0, g_long), 1, g_long);
    vstore2(vload2(1, l_long), 0, l_long);
    vstore4(vload4(0, l_long), 1, l_long);
    vstore2(vload2(1, g_ulong), 0, g_ulong);
    vstore4(vload4(0, g_ulong), 1, g_ulong);
    vstore2(vload2(1, l_ulong), 0, l_ulong);
    vstore4(vload4(0, l_ulong), 1, l_ulong);
    vstore2(vload2(1, g_float), 0, g_float);
    vstore4(vload4(0, g_float), 1, g_float);
    vstore2(vload2(1, l_float), 0, l_float);
    vstore4(vload4(0, l_float), 1, l_float);
    vstore2(vload2(1, g_double), 0, g_double);
    vstore4(vload4(0, g_double), 1, g_double);
    vstore2(vload2(1, l_double), 0, l_double);
    vstore4(vload4(0, l_double), 1, l_double);
    // float16 conversions.
    g_float[7] = plinth_half_to_float(g_ushort[7]);
    g_ushort[6] = plinth_float_to_half_rte(g_float[6]);
    g_ushort[5] = plinth_double_to_half_rte(g_double[5]);
  }
}
)";

}  // namespace plinth::testing
