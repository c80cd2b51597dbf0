"""plinth.Array's indexing and assignment, compared with numpy's."""

import gc

import numpy as np
import pytest

import plinth

DTYPES = [np.bool_, np.int8, np.int32, np.uint64, np.float16, np.float32, np.float64, np.complex64]

H = np.arange(120).reshape(4, 5, 6)  # only its shape is used for the keys below

BASIC_KEYS = [
    2, -1, (1, 2), (1, 2, 3), (-1, -2, -3), slice(1, 3), slice(None, None, -1),
    (slice(None), slice(4, 0, -2)), (slice(None, None, 2), slice(None), slice(-1, None, -3)),
    (Ellipsis, 1), (1, Ellipsis), (Ellipsis,), (0, Ellipsis, slice(None, None, -1)),
    None, (None, 1), (1, None), (slice(None), None, Ellipsis, None), (Ellipsis, None),
    (0, None, slice(1, 3), None, 2), np.int64(3), (np.uint8(1), slice(2, 3)), slice(10, 20),
    slice(-100, 100), (slice(3, 1), 0), (), slice(2**70),
]

ADVANCED_KEYS = [
    [1, 0, 3], ([0, 2], [1, 4]), (slice(None), [2, 0, 2]), (slice(None), [4, 0], [5, 1]),
    ([1, 2], slice(None), [0, 5]), (1, [0, 3]), ([[0, 1], [2, 3]],), [-1, -4],
    (Ellipsis, [0, 5]), np.array([True, False, True, False]), (0, np.arange(5) % 2 == 0),
    (slice(None), np.ones((5, 6), bool)), (None, [1, 0]), [], (slice(1, 3), [[0], [4]], 2),
]


def strides_of_extents(a):
    """The strides of the dimensions of extent > 1 (numpy's new axes have stride 0, plinth's
    expand_dims() other values: they address nothing)."""
    return tuple(s for n, s in zip(a.shape, a.strides) if n > 1)


def layouts(host, queue):
    """The same elements as a C array, an F array, a negative-step view and an offset view."""
    c = plinth.to_device(queue, host)
    f = plinth.empty(queue, host.shape, host.dtype, order="F")
    f.set(host)
    big = np.zeros((host.shape[0] + 2,) + host.shape[1:], host.dtype)
    big[1:-1] = host[::-1]
    reversed_base = plinth.to_device(queue, big)
    reversed_view = reversed_base[-2:0:-1]
    offset = plinth.empty(queue, host.shape, host.dtype, offset=3 * host.itemsize)
    offset.set(host)
    return {"C": c, "F": f, "reversed": reversed_view, "offset": offset}


@pytest.mark.parametrize("key", BASIC_KEYS, ids=repr)
def test_basic_views(queue, key):
    host = H.astype(np.float32)
    for name, a in layouts(host, queue).items():
        view = a[key]
        expected = host[key]
        assert view.shape == expected.shape, name
        np.testing.assert_array_equal(view.get(), expected, err_msg=name)
        if expected.size > 1:
            # A view: writing through it changes the base.
            view[...] = -7
            changed = host.copy()
            changed[key] = -7
            np.testing.assert_array_equal(a.get(), changed, err_msg=name)


@pytest.mark.parametrize("dtype", DTYPES)
def test_basic_views_of_dtypes(queue, dtype):
    host = (H % 5).astype(dtype)
    a = plinth.to_device(queue, host)
    for key in ((1, slice(None, None, -2)), (Ellipsis, 3), (slice(None), None, 1)):
        view = a[key]
        assert view.dtype == dtype
        assert strides_of_extents(view) == strides_of_extents(host[key])
        np.testing.assert_array_equal(view.get(), host[key])


def test_view_strides_match_numpy(queue):
    host = H.astype(np.int32)
    a = plinth.to_device(queue, host)
    for key in BASIC_KEYS:
        expected = host[key]
        if expected.size > 1:
            assert strides_of_extents(a[key]) == strides_of_extents(expected), key


@pytest.mark.parametrize("key", ADVANCED_KEYS, ids=repr)
def test_advanced_indexing_copies(queue, key):
    host = H.astype(np.float64)
    for name, a in layouts(host, queue).items():
        result = a[key]
        expected = host[key]
        assert result.shape == expected.shape, name
        np.testing.assert_array_equal(result.get(), expected, err_msg=name)
        if result.size:
            result[...] = -1  # a copy: the base does not change
            np.testing.assert_array_equal(a.get(), host, err_msg=name)


def test_index_arrays_from_plinth(queue):
    host = np.arange(20, dtype=np.int32) * 3
    a = plinth.to_device(queue, host)
    indices = plinth.to_device(queue, np.array([4, 0, 19, 4], np.uint8))
    np.testing.assert_array_equal(a[indices].get(), host[[4, 0, 19, 4]])
    mask = plinth.to_device(queue, host % 2 == 0)
    np.testing.assert_array_equal(a[mask].get(), host[host % 2 == 0])


@pytest.mark.parametrize("dtype", DTYPES)
def test_advanced_indexing_of_dtypes(queue, dtype):
    host = (H % 7).astype(dtype)
    a = plinth.to_device(queue, host)
    for key in (([3, 0], slice(None), [5, 1]), host.astype(bool) if dtype != np.bool_ else host):
        np.testing.assert_array_equal(a[key].get(), host[key])


def test_index_errors(queue):
    a = plinth.zeros(queue, (3, 4))
    with pytest.raises(plinth.LogicError, match="bounds|range"):
        a[3]
    with pytest.raises(plinth.LogicError, match="bounds|range"):
        a[0, -5]
    with pytest.raises(plinth.LogicError, match="too many indices"):
        a[0, 0, 0]
    with pytest.raises(plinth.LogicError, match="single ellipsis"):
        a[..., 0, ...]
    with pytest.raises(plinth.LogicError, match="step"):
        a[::0]
    with pytest.raises(plinth.LogicError, match="valid indices"):
        a[1.5]
    with pytest.raises(plinth.LogicError, match="valid indices"):
        a["x"]
    with pytest.raises(plinth.LogicError, match="3"):
        a[[0, 3]]
    with pytest.raises(plinth.LogicError, match="boolean index did not match"):
        a[np.ones(5, bool)]


def test_view_keeps_base_alive(queue):
    host = np.arange(50, dtype=np.float32).reshape(5, 10)
    a = plinth.to_device(queue, host)
    view = a[1:4, ::-3][None, ..., 1]
    del a
    gc.collect()
    plinth.zeros(queue, (5, 10), np.float32)
    np.testing.assert_array_equal(view.get(), host[1:4, ::-3][None, ..., 1])
    view[...] = 0
    np.testing.assert_array_equal(view.get(), 0)


@pytest.mark.parametrize("dtype", DTYPES)
def test_setitem_scalars(queue, dtype):
    host = np.zeros((4, 5), dtype)
    a = plinth.to_device(queue, host)
    values = [True, 1, 3] if np.dtype(dtype).kind in "bu" else [True, -2, 3]
    if np.dtype(dtype).kind in "fc":
        values += [2.5, -0.25]
    if np.dtype(dtype).kind == "c":
        values += [1 + 2j]
    keys = [(1, 2), (slice(None), 0), (slice(None, None, -2), slice(1, None, 2)), Ellipsis,
            (0, [1, 3])]
    for key, value in zip(keys * 2, values * 2):
        a[key] = value
        host[key] = value
        np.testing.assert_array_equal(a.get(), host, err_msg=repr((key, value)))


def test_setitem_numpy_scalars_convert_as_numpy(queue):
    host = np.zeros(5, np.int8)
    a = plinth.to_device(queue, host)
    for key, value in ((0, np.int64(-100)), (1, np.float32(-2.75)), (slice(2, 4), np.uint16(7)),
                       (4, np.bool_(True))):
        a[key] = value
        host[key] = value
    np.testing.assert_array_equal(a.get(), host)
    with pytest.raises(OverflowError):
        host[0] = np.int64(300)
    with pytest.raises(plinth.LogicError, match="300"):
        a[0] = np.int64(300)


def test_setitem_scalar_errors(queue):
    a = plinth.zeros(queue, 3, np.uint8)
    with pytest.raises(plinth.LogicError):
        a[0] = -1
    with pytest.raises(plinth.LogicError):
        a[0] = 256
    with pytest.raises(plinth.LogicError):
        plinth.zeros(queue, 3)[0] = 1j


@pytest.mark.parametrize("dtype", [np.int32, np.float16, np.float64, np.complex64])
def test_setitem_numpy_arrays(queue, dtype):
    host = np.zeros((4, 5, 6), dtype)
    for name, a in layouts(host, queue).items():
        expected = host.copy()
        cases = [
            ((1,), np.arange(30).reshape(5, 6)),                    # same shape, converted
            ((slice(None), 2), np.arange(6, dtype=np.float64) / 2),  # broadcast over rows
            ((Ellipsis, slice(None, None, -1)), [[1], [2], [3], [4], [5]]),  # list, broadcast
            ((0, None, 1), np.full((1, 6), 9, np.int8)),
            ((slice(None), [0, 4], [5, 0]), np.array([[1, 2], [3, 4], [5, 6], [7, 8]])),
            ((H[..., 0] % 3 == 0,), np.arange(6)),
        ]
        for key, value in cases:
            a[key] = value
            expected[key] = value
            np.testing.assert_array_equal(a.get(), expected, err_msg=f"{name} {key}")


def test_setitem_does_not_keep_numpy_alive(queue):
    a = plinth.zeros(queue, (100,), np.float32)
    value = np.arange(100, dtype=np.float32)
    a[:] = value
    value[:] = -1  # the copy is done when __setitem__ returns
    queue.synchronize()
    np.testing.assert_array_equal(a.get(), np.arange(100))


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint64, np.float32, np.complex64])
def test_setitem_plinth_arrays(queue, dtype):
    host = (np.arange(30).reshape(5, 6) % 4).astype(dtype)
    a = plinth.to_device(queue, host)
    src_host = (np.arange(12).reshape(2, 6) % 3).astype(dtype)
    src = plinth.to_device(queue, src_host)
    a[1:3] = src
    host[1:3] = src_host
    a[::-2, 0] = src[0, :3]  # a view as the value
    host[::-2, 0] = src_host[0, :3]
    a[:, 1] = src[1, 5]  # 0-d, broadcast
    host[:, 1] = src_host[1, 5]
    a[4] = plinth.to_device(queue, np.arange(6, dtype=np.float64))  # converted as numpy's
    host[4] = np.arange(6, dtype=np.float64).astype(dtype)
    a[[0, 2], 2:4] = src[:, :2]
    host[[0, 2], 2:4] = src_host[:, :2]
    np.testing.assert_array_equal(a.get(), host)


def test_setitem_overlapping_views(queue):
    host = np.arange(10, dtype=np.int32)
    a = plinth.to_device(queue, host)
    a[1:] = a[:-1]  # memmove semantics, as numpy's
    host[1:] = host[:-1].copy()
    np.testing.assert_array_equal(a.get(), host)
    a[:] = a[::-1]
    host[:] = host[::-1].copy()
    np.testing.assert_array_equal(a.get(), host)


def test_setitem_struct_dtype(queue):
    dtype = np.dtype([("x", np.float32), ("n", np.int32)])
    host = np.zeros(4, dtype)
    a = plinth.to_device(queue, host)
    row = np.array((1.5, 7), dtype)
    a[1] = row
    host[1] = row
    a[2:] = np.array([(2, 3), (4, 5)], dtype)
    host[2:] = np.array([(2, 3), (4, 5)], dtype)
    np.testing.assert_array_equal(a.get(), host)


def test_setitem_shape_mismatch(queue):
    a = plinth.zeros(queue, (3, 4))
    with pytest.raises(plinth.LogicError, match="shape|broadcast"):
        a[0] = plinth.zeros(queue, 3)
    with pytest.raises((plinth.LogicError, ValueError)):
        a[0] = np.zeros(3)
    with pytest.raises(plinth.LogicError, match="broadcast"):
        a[[0, 1]] = np.zeros(3)


def test_setitem_expressions(queue):
    if not hasattr(plinth, "Expression"):
        pytest.skip("plinth.Expression is bound by expressions.cpp")
    host = np.arange(12, dtype=np.float32).reshape(3, 4)
    a = plinth.to_device(queue, host)
    b = plinth.to_device(queue, np.ones(4, np.float32))
    expression = b * 2 + 1
    a[1] = expression
    host[1] = 3
    a[::2, 1:3] = a[::2, 1:3] * 2  # overlapping the target
    host[::2, 1:3] *= 2
    a[[0, 2], 0] = b[:2] + 5
    host[[0, 2], 0] = 6
    np.testing.assert_array_equal(a.get(), host)


def test_no_leak_over_many_assignments(queue):
    import tracemalloc

    a = plinth.zeros(queue, (8, 8), np.float32)
    value = np.ones(8, np.float32)
    for _ in range(20):
        a[1] = value
        a[2, ::2] = 3.0
        a[[1, 2]]
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    for _ in range(1000):
        a[1] = value
        a[2, ::2] = 3.0
        a[[1, 2]]
    queue.synchronize()
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    assert grown < 64 * 1024


def test_pool_memory_returns_after_many_operations(queue):
    if not hasattr(plinth, "MemoryPool"):
        pytest.skip("plinth.MemoryPool is bound by buffers.cpp")
    pool = plinth.MemoryPool.of(queue.device.context)
    queue.synchronize()
    in_use = pool.stats().bytes_in_use
    value = np.arange(4, dtype=np.float32)
    for _ in range(2000):
        a = plinth.zeros(queue, (4, 4), np.float32)
        a[1] = value
        b = a[[0, 1]]
        a[a[:, 0].get() > 0] = 1.0
        c = b[:, ::-1]
        del a, b
    del c
    queue.synchronize()
    gc.collect()
    assert pool.stats().bytes_in_use == in_use


@pytest.mark.parametrize("dtype", [np.int8, np.float16, np.complex64])
def test_take(queue, dtype):
    host = (np.arange(24).reshape(4, 6) % 11).astype(dtype)
    a = plinth.to_device(queue, host)
    for indices, axis, mode in (([5, 0, 23, 5], None, "raise"), ([[1, -1], [0, 2]], 0, "raise"),
                                ([7, -8], 1, "wrap"), ([9, -3], 1, "clip")):
        expected = np.take(host, indices, axis=axis, mode=mode)
        result = plinth.take(a, indices, axis=axis, mode=mode)
        assert result.shape == expected.shape
        np.testing.assert_array_equal(result.get(), expected)
        np.testing.assert_array_equal(a.take(indices, axis, mode).get(), expected)
    view = a[::-1, 1::2]
    np.testing.assert_array_equal(view.take([0, 5]).get(), host[::-1, 1::2].take([0, 5]))
    with pytest.raises(plinth.LogicError, match="24"):
        plinth.take(a, [24])
    with pytest.raises(plinth.LogicError, match="mode"):
        plinth.take(a, [0], mode="nope")


def test_put(queue):
    host = np.zeros((3, 4), np.int32)
    a = plinth.to_device(queue, host)
    plinth.put(a, [0, 5, -1], [7, 8, 9])
    np.put(host, [0, 5, -1], [7, 8, 9])
    a.put(plinth.to_device(queue, np.array([1, 2, 3], np.int64)), 4)  # a scalar value
    np.put(host, [1, 2, 3], 4)
    a.put([13, 14], np.array([1.5, 2.5]), mode="wrap")  # converted as numpy's
    np.put(host, [13, 14], np.array([1.5, 2.5]), mode="wrap")
    np.testing.assert_array_equal(a.get(), host)
    view = a[:, ::-1]
    view.put([0, 1], [-1, -2])
    host_view = host[:, ::-1]
    np.put(host_view, [0, 1], [-1, -2])
    np.testing.assert_array_equal(a.get(), host)
    with pytest.raises(plinth.LogicError, match="12"):
        a.put([12], [0])
