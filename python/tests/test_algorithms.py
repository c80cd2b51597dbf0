"""Reductions, scans, sorting, compaction, histograms and shape operations: numpy's."""

import numpy as np
import pytest

import plinth


def sample(dtype, shape=(4, 6), seed=0):
    rng = np.random.default_rng(seed)
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(np.bool_)
    if np.issubdtype(dtype, np.integer):
        return rng.integers(0, 50, shape).astype(dtype)
    if np.issubdtype(dtype, np.complexfloating):
        return (rng.uniform(-2, 2, shape) + 1j * rng.uniform(-2, 2, shape)).astype(dtype)
    return rng.uniform(-2, 2, shape).astype(dtype)


def layouts(queue, host):
    """C, F (a transposed view) and, where indexing is bound, a reversed view."""
    result = [("C", plinth.to_device(queue, host))]
    result.append(("F", plinth.transpose(plinth.to_device(queue, np.ascontiguousarray(host.T)))))
    if hasattr(plinth.Array, "__getitem__"):
        try:
            result.append(("reversed", plinth.to_device(queue, host[::-1].copy())[::-1]))
        except Exception:  # noqa: BLE001
            pass
    return result


def close(actual, expected, exact=False):
    actual = actual.get()
    expected = np.asarray(expected)
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    if exact or expected.dtype.kind not in "fc":
        np.testing.assert_array_equal(actual, expected)
    else:
        precision = np.finfo(expected.dtype).precision
        np.testing.assert_allclose(actual, expected, rtol=10.0 ** (1 - precision),
                                   atol=10.0 ** (1 - precision))


DTYPES = [np.bool_, np.int8, np.int32, np.uint64, np.float32, np.float64, np.complex64]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_sum_prod_any_all(queue, dtype):
    host = sample(dtype)
    for name, x in layouts(queue, host):
        for axis in (None, 0, -1, (0, 1)):
            close(plinth.sum(x, axis=axis), np.sum(host, axis=axis))
            close(x.sum(axis=axis, keepdims=True), host.sum(axis=axis, keepdims=True))
            close(plinth.any(x, axis=axis), np.any(host, axis=axis))
            close(x.all(axis=axis), host.all(axis=axis))
        close(plinth.prod(x, axis=1), np.prod(host, axis=1))
    if dtype not in (np.bool_, np.complex64):
        close(plinth.min(plinth.to_device(queue, host), axis=0), host.min(axis=0))
        close(plinth.to_device(queue, host).max(), host.max())


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64], ids=lambda d: np.dtype(d).name)
def test_mean_var_std_arg(queue, dtype):
    host = sample(dtype)
    for name, x in layouts(queue, host):
        close(plinth.mean(x), np.mean(host))
        close(x.mean(axis=1), host.mean(axis=1))
        close(plinth.var(x, axis=0, ddof=1), np.var(host, axis=0, ddof=1))
        close(x.std(), host.std())
        close(plinth.argmin(x), np.argmin(host))
        close(x.argmax(axis=1), host.argmax(axis=1))
        close(plinth.argmax(x, axis=0, keepdims=True), np.argmax(host, axis=0, keepdims=True))


def test_reductions_options(queue):
    host = sample(np.int8)
    x = plinth.to_device(queue, host)
    close(plinth.sum(x, dtype=np.int8), host.sum(dtype=np.int8))
    out = plinth.to_device(queue, np.zeros(6, np.int64))
    assert plinth.sum(x, axis=0, out=out) is out
    close(out, host.sum(axis=0))
    f = sample(np.float64)
    f[1, 2] = np.nan
    y = plinth.to_device(queue, f)
    close(plinth.nansum(y), np.nansum(f))
    close(plinth.nanmax(y, axis=1), np.nanmax(f, axis=1))
    close(plinth.nanmin(y), np.nanmin(f))
    assert np.isnan(plinth.max(y).get())
    a, b = sample(np.float32, (7,)), sample(np.float32, (7,), seed=1)
    close(plinth.dot(plinth.to_device(queue, a), plinth.to_device(queue, b)), np.dot(a, b))
    with pytest.raises(plinth.LogicError, match="out of bounds"):
        plinth.sum(x, axis=2)
    with pytest.raises(plinth.LogicError, match="duplicate"):
        x.sum(axis=(0, 0))
    with pytest.raises(plinth.LogicError):
        plinth.min(plinth.to_device(queue, np.ones(3, np.complex64)))


def test_reductions_of_expressions(queue):
    host = sample(np.float32)
    x = plinth.to_device(queue, host)
    close(plinth.sum(x * 2 + 1), np.sum(host * 2 + 1))
    close((x * 2 + 1).sum(axis=0), (host * 2 + 1).sum(axis=0))
    close((x > 0).any(axis=1), (host > 0).any(axis=1))
    result = plinth.sum(x, queue=queue)
    assert result.queue == queue


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.uint64, np.float32, np.float64, np.complex64],
                         ids=lambda d: np.dtype(d).name)
def test_scans(queue, dtype):
    host = sample(dtype)
    for name, x in layouts(queue, host):
        close(plinth.cumsum(x), np.cumsum(host))
        close(x.cumsum(axis=0), np.cumsum(host, axis=0))
        close(plinth.cumprod(x, axis=-1), np.cumprod(host, axis=-1))
    with pytest.raises(plinth.LogicError):
        plinth.cumsum(plinth.to_device(queue, np.ones(3, bool)))


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.int32, np.uint64, np.float32, np.float64],
                         ids=lambda d: np.dtype(d).name)
def test_sorting(queue, dtype):
    host = sample(dtype)
    if dtype in (np.float32, np.float64):
        host[0, 1] = np.nan
    for name, x in layouts(queue, host):
        close(plinth.sort(x), np.sort(host), exact=True)
        close(plinth.sort(x, axis=0), np.sort(host, axis=0), exact=True)
        close(plinth.argsort(x), np.argsort(host, kind="stable"))
        close(x.argsort(axis=0), np.argsort(host, axis=0, kind="stable"))
    x = plinth.to_device(queue, host)
    values, index, inverse, counts = plinth.unique(x, return_index=True, return_inverse=True,
                                                   return_counts=True)
    ev, ei, einv, ec = np.unique(host, return_index=True, return_inverse=True, return_counts=True)
    close(values, ev, exact=True)
    close(index, ei)
    close(inverse, einv)
    close(counts, ec)
    close(plinth.unique(x), ev, exact=True)
    with pytest.raises(plinth.LogicError):
        plinth.sort(plinth.to_device(queue, np.ones(3, np.complex64)))


def test_searching(queue):
    a = np.sort(sample(np.float32, (20,)))
    v = sample(np.float32, (3, 4), seed=1)
    s, p = plinth.to_device(queue, a), plinth.to_device(queue, v)
    close(plinth.searchsorted(s, p), np.searchsorted(a, v))
    close(plinth.searchsorted(s, p, side="right"), np.searchsorted(a, v, side="right"))
    with pytest.raises(plinth.LogicError, match="side"):
        plinth.searchsorted(s, p, side="middle")
    host = sample(np.int32)
    x = plinth.to_device(queue, host)
    part = plinth.partition(x, 2).get()
    assert (part[:, :2] <= part[:, 2:3]).all() and (part[:, 3:] >= part[:, 2:3]).all()
    values, indices = plinth.topk(x, 3)
    np.testing.assert_array_equal(values.get(), -np.sort(-host, axis=-1)[:, :3])
    np.testing.assert_array_equal(np.take_along_axis(host, indices.get(), -1), values.get())
    keys, moved = plinth.sort_by_key(x, x * 10)
    np.testing.assert_array_equal(keys.get(), np.sort(host))
    np.testing.assert_array_equal(moved.get(), np.sort(host) * 10)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.float32, np.complex64],
                         ids=lambda d: np.dtype(d).name)
def test_compaction(queue, dtype):
    host = sample(dtype)
    if dtype != np.bool_:
        host[host.real < 0.3] = 0
    for name, x in layouts(queue, host):
        close(plinth.count_nonzero(x), np.count_nonzero(host))
        close(plinth.count_nonzero(x, axis=-1), np.count_nonzero(host, axis=-1))
        for got, want in zip(plinth.nonzero(x), np.nonzero(host)):
            close(got, want)
        close(plinth.flatnonzero(x), np.flatnonzero(host))
        mask = host != 0
        close(plinth.extract(plinth.to_device(queue, mask), x), np.extract(mask, host), exact=True)
        condition = np.array([True, False, True, True])
        close(plinth.compress(plinth.to_device(queue, condition), x, axis=0),
              np.compress(condition, host, axis=0), exact=True)
        close(x.compress(plinth.to_device(queue, condition)), host.compress(condition), exact=True)


def test_histograms(queue):
    host = sample(np.float64, (100,))
    x = plinth.to_device(queue, host)
    counts, edges = plinth.histogram(x, 8)
    ec, ee = np.histogram(host, 8)
    close(counts, ec)
    close(edges, ee)
    counts, edges = plinth.histogram(x, 5, range=(-1.0, 1.0))
    ec, ee = np.histogram(host, 5, range=(-1.0, 1.0))
    close(counts, ec)
    counts, _ = plinth.histogram(x, [-2.0, -0.5, 0.0, 2.0])
    close(counts, np.histogram(host, [-2.0, -0.5, 0.0, 2.0])[0])
    ints = sample(np.int32, (50,))
    close(plinth.bincount(plinth.to_device(queue, ints)), np.bincount(ints))
    close(plinth.bincount(plinth.to_device(queue, ints), minlength=80), np.bincount(ints, minlength=80))
    w = sample(np.float64, (50,), seed=3)
    close(plinth.bincount(plinth.to_device(queue, ints), plinth.to_device(queue, w)),
          np.bincount(ints, w))
    with pytest.raises(plinth.LogicError):
        plinth.bincount(plinth.to_device(queue, -ints - 1))


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint64, np.float16, np.complex64],
                         ids=lambda d: np.dtype(d).name)
def test_shape_operations(queue, dtype):
    host = sample(dtype, (2, 3, 4))
    x = plinth.to_device(queue, host)
    close(plinth.reshape(x, (4, -1)), host.reshape(4, -1), exact=True)
    close(x.reshape(6, 4), host.reshape(6, 4), exact=True)
    close(x.reshape((6, 4), order="F"), host.reshape((6, 4), order="F"), exact=True)
    close(plinth.transpose(x), host.transpose(), exact=True)
    close(x.transpose(1, 0, 2), host.transpose(1, 0, 2), exact=True)
    close(x.transpose((2, 0, 1)), host.transpose((2, 0, 1)), exact=True)
    close(x.T, host.T, exact=True)
    assert x.T.strides == host.T.strides  # a view
    close(plinth.ravel(x.T), host.T.ravel(), exact=True)
    close(x.T.flatten(order="F"), host.T.flatten(order="F"), exact=True)
    close(plinth.squeeze(plinth.expand_dims(x, 0)), host, exact=True)
    close(plinth.expand_dims(x, (0, -1)), np.expand_dims(host, (0, -1)), exact=True)
    close(x.swapaxes(0, 2), host.swapaxes(0, 2), exact=True)
    close(plinth.moveaxis(x, 0, -1), np.moveaxis(host, 0, -1), exact=True)
    close(plinth.broadcast_to(plinth.to_device(queue, host[0, 0]), (5, 4)),
          np.broadcast_to(host[0, 0], (5, 4)), exact=True)
    y = plinth.to_device(queue, host[::-1].copy())
    close(plinth.concatenate([x, y], axis=1), np.concatenate([host, host[::-1]], axis=1), exact=True)
    close(plinth.stack([x, y], axis=-1), np.stack([host, host[::-1]], axis=-1), exact=True)
    close(plinth.hstack([x, y]), np.hstack([host, host[::-1]]), exact=True)
    close(plinth.vstack([x, y]), np.vstack([host, host[::-1]]), exact=True)
    close(plinth.dstack([x, y]), np.dstack([host, host[::-1]]), exact=True)
    for got, want in zip(plinth.split(x, 2, axis=2), np.split(host, 2, axis=2)):
        close(got, want, exact=True)
    for got, want in zip(plinth.split(x, [1, 2], axis=1), np.split(host, [1, 2], axis=1)):
        close(got, want, exact=True)
    for got, want in zip(plinth.array_split(x, 3, axis=2), np.array_split(host, 3, axis=2)):
        close(got, want, exact=True)
    for f, g in ((plinth.hsplit, np.hsplit), (plinth.vsplit, np.vsplit), (plinth.dsplit, np.dsplit)):
        for got, want in zip(f(x, 2 if f is not plinth.hsplit else 3), g(host, 2 if g is not np.hsplit else 3)):
            close(got, want, exact=True)
    f = plinth.asfortranarray(x)
    assert f.strides == np.asfortranarray(host).strides
    close(f, host, exact=True)
    close(plinth.ascontiguousarray(x.T), np.ascontiguousarray(host.T), exact=True)
    assert plinth.may_share_memory(x, x.T)
    assert not plinth.may_share_memory(x, y)


def test_shape_errors_and_queues(queue):
    x = plinth.to_device(queue, np.arange(6))
    with pytest.raises(plinth.LogicError):
        x.reshape(4, 2)
    with pytest.raises(plinth.LogicError):
        plinth.concatenate([])
    with pytest.raises(plinth.LogicError, match="order"):
        x.reshape(2, 3, order="K")
    with pytest.raises(plinth.LogicError):
        plinth.squeeze(x, 0)
    assert x.T.queue == queue
    assert plinth.concatenate([x * 2, x]).queue == queue  # expressions convert
    np.testing.assert_array_equal(plinth.concatenate([x * 2, x]).get(),
                                  np.concatenate([np.arange(6) * 2, np.arange(6)]))


def test_views_keep_their_base_alive(queue):
    host = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = plinth.to_device(queue, host)
    t = x.T
    parts = plinth.split(x, 2, axis=1)
    del x
    np.testing.assert_array_equal(t.get(), host.T)
    np.testing.assert_array_equal(parts[1].get(), host[:, 2:])


def test_no_leak_over_many_calls(queue):
    import gc
    import tracemalloc

    x = plinth.to_device(queue, np.arange(64, dtype=np.float32).reshape(8, 8))
    for _ in range(20):
        plinth.sum(x, axis=0)
        x.T.cumsum()
    queue.synchronize()
    pool = plinth.MemoryPool.of(queue.device.context) if hasattr(plinth, "MemoryPool") else None
    in_use = pool.stats().bytes_in_use if pool else None
    tracemalloc.start()
    first = tracemalloc.get_traced_memory()[0]
    for _ in range(10_000):
        plinth.sum(x, axis=0)
        x.T.reshape(4, 16).max()
    queue.synchronize()
    gc.collect()
    growth = tracemalloc.get_traced_memory()[0] - first
    tracemalloc.stop()
    assert growth < 100_000, growth
    if pool:
        assert pool.stats().bytes_in_use == in_use
