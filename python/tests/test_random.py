"""plinth.RandomGenerator: reproducible streams, numpy-like methods, ranges and errors."""

import numpy as np
import pytest

import plinth


def test_seed_offset_and_reproducibility(queue):
    g = plinth.RandomGenerator(42)
    assert g.seed == 42 and g.offset == 0
    a = g.uniform(size=(3, 100), queue=queue).get()
    assert g.offset == 1
    b = g.uniform(size=(3, 100), queue=queue).get()
    assert not np.array_equal(a, b)
    g.offset = 0
    np.testing.assert_array_equal(g.uniform(size=(3, 100), queue=queue).get(), a)
    np.testing.assert_array_equal(
        plinth.RandomGenerator(42, offset=1).uniform(size=(3, 100), queue=queue).get(), b)
    assert not np.array_equal(plinth.RandomGenerator(43).uniform(size=(3, 100), queue=queue).get(), a)
    assert repr(g) == "RandomGenerator(seed=42, offset=1)"


def test_element_i_gets_number_i_in_any_view(queue):
    """The stream depends on the flat C-order index only, not on the layout of `out`."""
    g = plinth.RandomGenerator(7)
    c = g.random((4, 5), queue=queue).get()
    out = plinth.transpose(plinth.to_device(queue, np.zeros((5, 4))))  # an F-order view
    g.offset = 0
    assert g.random(out=out) is out
    np.testing.assert_array_equal(out.get(), c)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_uniform(queue, dtype):
    g = plinth.RandomGenerator(1)
    x = g.uniform(-2.0, 3.0, 20000, dtype, queue=queue)
    assert x.dtype == dtype and x.shape == (20000,) and x.queue == queue
    h = x.get()
    assert h.min() >= -2.0 and h.max() < 3.0
    assert abs(h.mean() - 0.5) < 0.05
    assert abs(h.std() - 5 / np.sqrt(12)) < 0.05


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
def test_normal(queue, dtype):
    g = plinth.RandomGenerator(2)
    loc = 1 + 2j if np.issubdtype(dtype, np.complexfloating) else 1.0
    h = g.normal(loc, 2.0, (200, 100), dtype, queue=queue).get()
    assert h.dtype == dtype
    assert abs(h.mean() - loc) < 0.05
    assert abs(np.sqrt(np.mean(np.abs(h - loc) ** 2)) - 2.0) < 0.05
    assert np.all(np.isfinite(h))


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.uint64, np.int64])
def test_integers_and_bits(queue, dtype):
    g = plinth.RandomGenerator(3)
    h = g.integers(3, 17, 5000, dtype, queue=queue).get()
    assert h.dtype == dtype and h.min() == 3 and h.max() == 16
    h = g.integers(5, size=1000, dtype=dtype, queue=queue).get()
    assert h.min() == 0 and h.max() == 4
    h = g.integers(3, 6, size=1000, dtype=dtype, endpoint=True, queue=queue).get()
    assert h.min() == 3 and h.max() == 6
    info = np.iinfo(dtype)
    h = g.integers(int(info.min), int(info.max), size=4000, dtype=dtype, endpoint=True, queue=queue).get()
    quarter = (int(info.max) - int(info.min)) // 4
    assert int(h.min()) < int(info.min) + quarter and int(h.max()) > int(info.max) - quarter
    bits = g.bits(4000, dtype, queue=queue).get()
    assert bits.dtype == dtype
    assert len(np.unique(bits)) > min(100, info.max - info.min)


def test_errors(queue):
    g = plinth.RandomGenerator(4)
    with pytest.raises(plinth.LogicError, match="queue"):
        g.uniform(size=3)
    with pytest.raises(plinth.LogicError, match="int32"):
        g.uniform(size=3, dtype=np.int32, queue=queue)
    with pytest.raises(plinth.LogicError):
        g.uniform(1.0, 1.0, size=3, queue=queue)
    with pytest.raises(plinth.LogicError):
        g.normal(0.0, -1.0, size=3, queue=queue)
    with pytest.raises(plinth.LogicError):
        g.integers(5, 5, size=3, queue=queue)
    with pytest.raises(plinth.LogicError):
        g.integers(0, 300, size=3, dtype=np.uint8, queue=queue)
    with pytest.raises(plinth.LogicError, match="float32"):
        g.integers(0, 3, size=3, dtype=np.float32, queue=queue)
    with pytest.raises(plinth.LogicError, match="range"):
        g.integers(0, 2**70, size=3, queue=queue)
    with pytest.raises(plinth.LogicError, match="not both"):
        g.random(3, out=plinth.to_device(queue, np.zeros(3)))
    assert g.offset == 0  # nothing ran
