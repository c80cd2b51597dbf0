"""plinth's creation functions, compared with numpy's."""

import numpy as np
import pytest

import plinth

DTYPES = [np.bool_, np.int8, np.int32, np.uint64, np.float16, np.float32, np.float64, np.complex64]


def check(a, expected):
    assert isinstance(a, plinth.Array)
    assert a.shape == expected.shape
    assert a.dtype == expected.dtype
    if expected.size:  # numpy gives arrays without elements strides of 0, plinth C order's
        assert a.strides == expected.strides
    np.testing.assert_array_equal(a.get(), expected)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", ["C", "F"])
def test_zeros_ones(queue, dtype, order):
    for shape in (5, (2, 3), (2, 0, 3), ()):
        check(plinth.zeros(queue, shape, dtype, order=order), np.zeros(shape, dtype, order=order))
        check(plinth.ones(queue, shape, dtype, order=order), np.ones(shape, dtype, order=order))


def test_defaults_are_numpys(queue):
    check(plinth.zeros(queue, 3), np.zeros(3))
    check(plinth.ones(queue, [2, 2]), np.ones([2, 2]))
    assert plinth.empty(queue, 4).dtype == np.float64


@pytest.mark.parametrize("dtype", DTYPES)
def test_empty(queue, dtype):
    for order in ("C", "F"):
        a = plinth.empty(queue, (3, 4), dtype, order=order)
        expected = np.empty((3, 4), dtype, order=order)
        assert (a.shape, a.dtype, a.strides) == (expected.shape, expected.dtype, expected.strides)
        assert a.queue == queue


def test_empty_strides_and_offset(queue):
    a = plinth.empty(queue, (3, 4), np.float32, strides=(-16, 4))
    assert a.strides == (-16, 4)
    assert a.first_element_offset == 32
    a.set(np.arange(12, dtype=np.float32).reshape(3, 4))
    np.testing.assert_array_equal(a.get(), np.arange(12).reshape(3, 4))
    b = plinth.empty(queue, 4, np.int32, offset=128)
    assert b.first_element_offset == 128
    c = plinth.empty(queue, (2, 3), np.int32, order="F", offset=64)
    assert c.strides == (4, 8) and c.first_element_offset == 64
    with pytest.raises(plinth.LogicError):
        plinth.empty(queue, (3, 4), np.float32, strides=(4,))


def test_bad_arguments(queue):
    with pytest.raises(plinth.LogicError, match=r"negative dimensions.*\(2, -1\)"):
        plinth.zeros(queue, (2, -1))
    with pytest.raises(TypeError):
        plinth.zeros(queue, (2, 1.5))
    with pytest.raises(TypeError):
        plinth.zeros(queue, "ab")
    assert plinth.zeros(queue, np.array([2, 3])).shape == (2, 3)
    assert plinth.zeros(queue, np.int8(4)).shape == (4,)
    with pytest.raises(plinth.LogicError, match="order"):
        plinth.zeros(queue, 3, order="X")
    with pytest.raises(plinth.LogicError, match="struct"):
        plinth.zeros(queue, 3, np.dtype([("a", np.int32)]))
    with pytest.raises(plinth.LogicError, match="byte order"):
        plinth.zeros(queue, 3, ">f4")
    with pytest.raises(TypeError):
        plinth.full(queue, 3, "text")


def test_allocator(queue):
    if not hasattr(plinth, "Buffer") or not hasattr(plinth.Buffer, "allocate"):
        pytest.skip("plinth.Buffer.allocate is bound by buffers.cpp")
    calls = []

    def allocator(device, size):
        calls.append(size)
        return plinth.Buffer.allocate(device, size)

    a = plinth.empty(queue, (4, 4), np.float32, allocator=allocator)
    assert calls == [64]
    a.set(np.ones((4, 4), np.float32))
    np.testing.assert_array_equal(a.get(), 1)


@pytest.mark.parametrize(
    "value, dtype",
    [(2.5, None), (3, None), (True, None), (1 + 2j, None), (-7, np.int8), (2.5, np.float32),
     (np.float32(1.5), None), (np.uint8(200), None), (5, np.uint64), (2**63 + 5, None),
     (0.5, np.complex64)],
)
def test_full(queue, value, dtype):
    check(plinth.full(queue, (2, 3), value, dtype), np.full((2, 3), value, dtype))
    check(plinth.full(queue, 4, value, dtype, order="F"), np.full(4, value, dtype, order="F"))


def test_full_errors(queue):
    with pytest.raises(plinth.LogicError):
        plinth.full(queue, 3, 300, np.int8)
    with pytest.raises(plinth.LogicError):
        plinth.full(queue, 3, 1j, np.float32)
    with pytest.raises(plinth.LogicError, match="fits no"):
        plinth.full(queue, 3, 2**70)


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.uint64, np.float32, np.float64, np.complex64])
def test_like(queue, dtype):
    host = np.asfortranarray(np.arange(6).reshape(2, 3)).astype(dtype)
    like = plinth.empty(queue, (2, 3), dtype, order="F")
    like.set(host)
    for order in (None, "K", "C", "F"):
        expected_order = "K" if order is None else order
        a = plinth.empty_like(like, order=order)
        assert a.strides == np.empty_like(host, order=expected_order).strides
        check(plinth.zeros_like(like, order=order), np.zeros_like(host, order=expected_order))
        check(plinth.ones_like(like, order=order), np.ones_like(host, order=expected_order))
        check(plinth.full_like(like, 3, order=order), np.full_like(host, 3, order=expected_order))
    check(plinth.zeros_like(like, dtype=np.float32), np.zeros_like(host, dtype=np.float32))
    check(plinth.full_like(like, 2, dtype=np.int8), np.full_like(host, 2, dtype=np.int8))
    other = plinth.Queue(queue.device)
    assert plinth.zeros_like(like, queue=other).queue == other
    assert plinth.zeros_like(like).queue == like.queue


def test_like_of_a_view(queue):
    base = plinth.to_device(queue, np.arange(20.0).reshape(4, 5))
    view = base[::-2, 1:]
    a = plinth.ones_like(view)
    assert a.shape == (2, 4) and a.is_c_contiguous


@pytest.mark.parametrize(
    "args, dtype",
    [((10,), None), ((2, 11, 3), None), ((0.0, 1.0, 0.1), None), ((10, 0, -3), None),
     ((-3.5, 4), np.float32), ((5,), np.uint64), ((1, 20, 2), np.int8), ((5, 2), None),
     ((0.1, 2.3, 0.3), np.float32)],
)
def test_arange(queue, args, dtype):
    check(plinth.arange(queue, *args, dtype=dtype), np.arange(*args, dtype=dtype))


def test_arange_errors(queue):
    with pytest.raises(plinth.LogicError):
        plinth.arange(queue, 0, 10, 0)
    with pytest.raises(plinth.LogicError):
        plinth.arange(queue, 0, 10, dtype=np.complex64)


@pytest.mark.parametrize(
    "args, kwargs",
    [((0, 1), {}), ((0, 1, 7), {}), ((-2.5, 10.0, 13), {"endpoint": False}),
     ((0, 1, 11), {"dtype": np.float32}), ((1, 100, 9), {"dtype": np.int32}), ((3, 3, 1), {}),
     ((0, 1, 0), {})],
)
def test_linspace(queue, args, kwargs):
    check(plinth.linspace(queue, *args, **kwargs), np.linspace(*args, **kwargs))


@pytest.mark.parametrize("dtype", [np.bool_, np.int32, np.float16, np.float64, np.complex64])
def test_eye(queue, dtype):
    for n, m, k in ((3, None, 0), (4, 6, 1), (5, 2, -1), (3, 3, 5)):
        check(plinth.eye(queue, n, m, k, dtype), np.eye(n, m, k, dtype))
    check(plinth.eye(queue, 3, 4, order="F", dtype=dtype), np.eye(3, 4, dtype=dtype, order="F"))


def test_to_device_and_asarray(queue):
    host = np.arange(6, dtype=np.int16).reshape(2, 3)
    check(plinth.to_device(queue, host[:, ::-1]), np.ascontiguousarray(host[:, ::-1]))
    check(plinth.to_device(queue, host, dtype=np.float32), host.astype(np.float32))
    check(plinth.asarray(queue, [[1, 2], [3, 4]]), np.asarray([[1, 2], [3, 4]]))
    a = plinth.to_device(queue, host)
    assert plinth.asarray(queue, a) is not None
    same = plinth.asarray(queue, a)
    same[0, 0] = 42  # no copy for the same dtype
    assert a[0, 0].item() == 42
    converted = plinth.asarray(queue, a, dtype=np.float64)
    assert converted.dtype == np.float64
    np.testing.assert_array_equal(converted.get(), a.get())


def test_multi_queue_zeros_and_full(api):
    try:
        context = plinth.Context.from_criteria(api, devices_num=2)
    except plinth.Error:
        pytest.skip("no two devices")
    queues = plinth.MultiQueue([plinth.Queue(device) for device in context.devices])
    z = plinth.zeros(queues, (6, 3), np.int32)
    assert isinstance(z, plinth.MultiArray)
    np.testing.assert_array_equal(z.get(queues), np.zeros((6, 3), np.int32))
    f = plinth.full(queues, 5, np.float32(2.5), splay=plinth.CloneSplay())
    np.testing.assert_array_equal(f.get(queues), np.full(5, 2.5, np.float32))
    g = plinth.full(queues, (4,), 7)
    back = g.get(queues)
    assert back.dtype == np.int64
    np.testing.assert_array_equal(back, np.full(4, 7))
    with pytest.raises(plinth.LogicError):
        plinth.full(queues, 4, 300, np.int8)
