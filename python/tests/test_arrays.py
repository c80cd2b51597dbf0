"""plinth.Array: attributes, transfers and conversions, compared with numpy."""

import gc

import numpy as np
import pytest

import plinth

DTYPES = [np.bool_, np.int8, np.int32, np.uint64, np.float16, np.float32, np.float64, np.complex64]


def sample(dtype, shape=(3, 4)):
    values = np.arange(int(np.prod(shape))).reshape(shape) % 7 - 2
    if np.dtype(dtype).kind == "c":
        return (values + 1j * values[::-1]).astype(dtype)
    if np.dtype(dtype).kind == "u":
        return np.abs(values).astype(dtype)
    return values.astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_attributes_match_numpy(queue, dtype):
    host = sample(dtype)
    for layout in (host, np.asfortranarray(host)):
        a = plinth.empty(queue, layout.shape, dtype, order="F" if layout.flags.f_contiguous else "C")
        a.set(layout)
        assert a.shape == layout.shape
        assert a.dtype == layout.dtype
        assert a.strides == layout.strides
        assert a.ndim == layout.ndim
        assert a.size == layout.size
        assert a.nbytes == layout.nbytes
        assert a.itemsize == layout.itemsize
        assert a.is_c_contiguous == layout.flags.c_contiguous
        assert a.is_f_contiguous == layout.flags.f_contiguous
        np.testing.assert_array_equal(a.get(), layout)
        assert a.get().flags.c_contiguous


def test_views_attributes(queue):
    host = np.arange(24, dtype=np.float32).reshape(4, 6)
    a = plinth.to_device(queue, host)
    for view, expected in ((a[1:, ::-2], host[1:, ::-2]), (a.T, host.T), (a[2], host[2])):
        assert view.shape == expected.shape
        assert view.strides == expected.strides
        assert view.is_c_contiguous == expected.flags.c_contiguous
        assert view.is_f_contiguous == expected.flags.f_contiguous
        np.testing.assert_array_equal(view.get(), expected)
    assert a[1:].first_element_offset == 6 * 4
    assert a[:, ::-1].first_element_offset == 5 * 4


def test_queue_device_context(queue, context):
    a = plinth.zeros(queue, 3)
    assert a.queue == queue
    assert a.device == queue.device
    assert a.context == context
    other = plinth.Queue(queue.device)
    b = a.with_queue(other)
    assert b.queue == other and a.queue == queue
    b[0] = 5
    assert a[0].item() == 5  # the same memory


def test_with_queue_of_another_device(api):
    try:
        context = plinth.Context.from_criteria(api, devices_num=2)
    except plinth.Error:
        pytest.skip("no two devices")
    a = plinth.zeros(plinth.Queue(context.devices[0]), 3)
    with pytest.raises(plinth.LogicError, match="device"):
        a.with_queue(plinth.Queue(context.devices[1]))
    with pytest.raises(plinth.LogicError, match="device"):
        a.get(queue=plinth.Queue(context.devices[1]))


def test_ptr_and_offsets(queue):
    a = plinth.zeros(queue, 64, np.float32)
    assert isinstance(a.ptr, int) and a.ptr != 0
    assert a.first_element_offset == 0
    if plinth.API.from_env().shortcut == "opencl":
        # The cl_mem of a sub-buffer from the first element, where OpenCL can make one.
        assert a[:8].ptr == a.ptr
        b = plinth.zeros(queue, 2048, np.float32)
        assert b[1024:].ptr not in (0, b.ptr)  # 4096 bytes: a multiple of any alignment
        assert a[1:].ptr == 0  # 4 bytes: none
    else:
        assert a[8:].ptr == a.ptr + 32  # the device pointer of the first element


def test_base_buffer_and_from_buffer(queue):
    if not hasattr(plinth, "Buffer"):
        pytest.skip("plinth.Buffer is bound by buffers.cpp")
    host = np.arange(12, dtype=np.int32)
    a = plinth.to_device(queue, host)
    buffer = a.base_buffer
    b = plinth.Array.from_buffer(buffer, (3, 2), np.int32, strides=(16, 4), offset=8, queue=queue)
    expected = np.lib.stride_tricks.as_strided(host[2:], (3, 2), (16, 4))
    np.testing.assert_array_equal(b.get(), expected)
    b[0, 0] = -1  # the same memory
    assert a[2].item() == -1
    with pytest.raises(plinth.LogicError):
        plinth.Array.from_buffer(buffer, (100,), np.int32, queue=queue)


def test_get_into_out(queue):
    host = np.arange(12, dtype=np.float64).reshape(3, 4)
    a = plinth.to_device(queue, host)
    out = np.zeros((3, 4), order="F")
    assert a.get(out=out) is out
    np.testing.assert_array_equal(out, host)
    out = np.zeros(12)[::-1].reshape(3, 4)
    a.get(out=out)
    np.testing.assert_array_equal(out, host)
    with pytest.raises(plinth.LogicError, match="shape"):
        a.get(out=np.zeros((4, 3)))
    with pytest.raises(plinth.LogicError, match="dtype"):
        a.get(out=np.zeros((3, 4), np.float32))
    with pytest.raises(TypeError, match="ndarray"):
        a.get(out=[0] * 12)


def test_get_async(queue):
    host = np.arange(100, dtype=np.int32)
    a = plinth.to_device(queue, host)
    result = a.get(async_=True)
    queue.synchronize()
    np.testing.assert_array_equal(result, host)
    out = np.empty_like(host)
    a.get(out=out, async_=True)
    queue.synchronize()
    np.testing.assert_array_equal(out, host)


def test_set(queue):
    a = plinth.empty(queue, (2, 3), np.float32)
    a.set([[1, 2, 3], [4, 5, 6]])
    np.testing.assert_array_equal(a.get(), [[1, 2, 3], [4, 5, 6]])
    a.set(np.arange(6, dtype=np.int64).reshape(2, 3)[:, ::-1])  # converted as numpy's
    np.testing.assert_array_equal(a.get(), [[2, 1, 0], [5, 4, 3]])
    b = plinth.zeros(queue, (2, 3), np.float32)
    b.set(a)
    np.testing.assert_array_equal(b.get(), a.get())
    with pytest.raises(plinth.LogicError, match="shape"):
        a.set(np.zeros(5))
    with pytest.raises(plinth.LogicError):
        a.set(plinth.zeros(queue, (2, 3), np.int32))


def test_set_into_view(queue):
    host = np.zeros((4, 5), np.int32)
    a = plinth.to_device(queue, host)
    a[::2, ::-1].set(np.arange(10).reshape(2, 5))
    host[::2, ::-1] = np.arange(10).reshape(2, 5)
    np.testing.assert_array_equal(a.get(), host)


@pytest.mark.parametrize("dtype", DTYPES)
def test_scalar_conversions(queue, dtype):
    host = sample(dtype, (1,))
    a = plinth.to_device(queue, host)
    assert a.item() == host.item()
    assert type(a.item()) is type(host.item())
    assert complex(a) == complex(host[0])
    if np.dtype(dtype).kind != "c":
        assert float(a) == float(host[0])
        assert int(a) == int(host[0])
    assert bool(a) == bool(host[0])
    zero_d = a[0]
    assert zero_d.shape == ()
    assert zero_d.item() == host[0].item()


def test_scalar_conversion_errors(queue):
    a = plinth.zeros(queue, (2, 2))
    for convert in (float, int, complex, lambda x: x.item()):
        with pytest.raises(plinth.LogicError, match="one element"):
            convert(a)
    with pytest.raises(plinth.LogicError, match="ambiguous"):
        bool(a)
    with pytest.raises(plinth.LogicError, match="empty"):
        bool(plinth.zeros(queue, 0))
    with pytest.raises(TypeError, match="unsized"):
        len(plinth.zeros(queue, ()))
    with pytest.raises(TypeError, match="0-d"):
        iter(plinth.zeros(queue, ()))


def test_len_and_iteration(queue):
    host = np.arange(12).reshape(3, 4)
    a = plinth.to_device(queue, host)
    assert len(a) == 3
    rows = list(a)
    assert len(rows) == 3
    for row, expected in zip(rows, host):
        assert row.shape == (4,)
        np.testing.assert_array_equal(row.get(), expected)
    rows[1][0] = 100  # rows are views
    assert a[1, 0].item() == 100


def test_repr_and_str(queue):
    for host in (np.arange(5, dtype=np.float32), np.arange(60.0).reshape(3, 20),
                 np.array([True, False]), np.array(3.5)):
        a = plinth.to_device(queue, host)
        assert repr(a) == repr(host).replace("array(", "plinth.Array(").replace(
            "\n      ", "\n" + " " * len("plinth.Array("))
        assert str(a) == str(host)


def test_numpy_conversion(queue):
    host = np.arange(6, dtype=np.int32).reshape(2, 3)
    a = plinth.to_device(queue, host)
    np.testing.assert_array_equal(np.asarray(a), host)
    converted = np.asarray(a, dtype=np.float64)
    assert converted.dtype == np.float64
    np.testing.assert_array_equal(converted, host)
    np.testing.assert_array_equal(np.array(a, copy=True), host)
    with pytest.raises(ValueError, match="copy"):
        np.asarray(a, copy=False)
    with pytest.raises(plinth.LogicError, match="device memory"):
        a.__array__(copy=False)


def test_numpy_defers_to_plinth(queue):
    a = plinth.zeros(queue, 3)
    assert a.__array_ufunc__ is None
    # numpy returns NotImplemented to Python, which then asks plinth (TypeError here when no
    # operator is bound, never a numpy object array).
    try:
        result = np.float32(2) + a
    except TypeError:
        return
    assert not isinstance(result, np.ndarray)


@pytest.mark.parametrize("dtype", [np.int8, np.float16, np.complex64])
def test_copy(queue, dtype):
    host = sample(dtype, (4, 5))
    a = plinth.to_device(queue, host)
    c = a[::-1, 1::2].copy()
    assert c.is_c_contiguous
    np.testing.assert_array_equal(c.get(), host[::-1, 1::2])
    c[0, 0] = 1
    np.testing.assert_array_equal(a.get(), host)  # a copy, not a view


def test_copy_module(queue):
    import copy

    a = plinth.to_device(queue, np.arange(6, dtype=np.int16)[::-2])
    for c in (copy.copy(a), copy.deepcopy(a)):
        assert c.queue == a.queue
        np.testing.assert_array_equal(c.get(), a.get())
        c[0] = 99
        assert a[0].item() == 5


def test_transpose_view(queue):
    host = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    a = plinth.to_device(queue, host)
    t = a.T
    assert t.shape == host.T.shape and t.strides == host.T.strides
    np.testing.assert_array_equal(t.get(), host.T)
    t[0, 0, 1] = -1
    assert a[1, 0, 0].item() == -1


def test_minimum_subregion(queue):
    host = np.arange(40, dtype=np.float32)
    a = plinth.to_device(queue, host)
    view = a[32:0:-4]
    sub = view.minimum_subregion()
    assert sub.shape == view.shape and sub.strides == view.strides
    np.testing.assert_array_equal(sub.get(), host[32:0:-4])
    assert sub.first_element_offset == 7 * 16


def test_record_queue(queue):
    a = plinth.zeros(queue, 4)
    a.record_queue()
    a.record_queue(plinth.Queue(queue.device))


def test_view_keeps_base_alive(queue):
    host = np.arange(1000, dtype=np.float64)
    a = plinth.to_device(queue, host)
    view = a[10:20][::-1]
    del a
    gc.collect()
    plinth.zeros(queue, 1000)  # would reuse the memory if it had been freed
    queue.synchronize()
    np.testing.assert_array_equal(view.get(), host[19:9:-1])


def test_no_leak_over_many_gets(queue):
    import tracemalloc

    a = plinth.to_device(queue, np.arange(16, dtype=np.float32))
    for _ in range(50):
        a.get()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    for _ in range(2000):
        a.get()
        a[3:7]
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    assert grown < 64 * 1024


def test_index_conversion(queue):
    import operator

    n = plinth.full(queue, (), 3, np.int32)
    assert operator.index(n) == 3
    assert list(range(10))[n] == 3
    for not_an_index in (plinth.full(queue, (), 3.0), plinth.full(queue, 1, 3)):
        with pytest.raises(TypeError, match="integer scalar arrays"):
            operator.index(not_an_index)


def test_array_keeps_its_context_alive(api):
    context = plinth.Context.from_criteria(api)
    queue = plinth.Queue(context.devices[0])
    a = plinth.to_device(queue, np.arange(5, dtype=np.int32))
    view = a[::-1]
    del context, queue, a
    gc.collect()
    np.testing.assert_array_equal(view.get(), [4, 3, 2, 1, 0])
    view[0] = 9
    assert view.queue.device.context == view.context
    np.testing.assert_array_equal(view.copy().get(), [9, 3, 2, 1, 0])
