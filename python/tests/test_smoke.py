"""The package imports and moves data both ways."""

import numpy as np
import pytest

import plinth


def test_round_trip(queue):
    host = np.arange(12, dtype=np.float32).reshape(3, 4)
    array = plinth.to_device(queue, host)
    assert array.shape == (3, 4)
    assert array.dtype == np.float32
    assert array.strides == (16, 4)
    np.testing.assert_array_equal(array.get(), host)


def test_strided_source(queue):
    host = np.arange(20, dtype=np.int64)[::-3]
    np.testing.assert_array_equal(plinth.to_device(queue, host).get(), host)


def test_struct_dtype(queue):
    dtype = np.dtype([("x", np.float32), ("n", np.int32, (2,))])
    host = np.zeros(3, dtype)
    host["x"] = [1, 2, 3]
    host["n"] = [[1, 2], [3, 4], [5, 6]]
    back = plinth.to_device(queue, host).get()
    assert back.dtype == dtype
    np.testing.assert_array_equal(back["n"], host["n"])


def test_errors_are_a_hierarchy():
    assert issubclass(plinth.LogicError, plinth.Error)
    assert issubclass(plinth.LogicError, ValueError)
    assert issubclass(plinth.OutOfMemoryError, MemoryError)
    with pytest.raises(plinth.LogicError, match="byte order"):
        plinth.dtype(">f4")


def test_a_dtype_plinth_cannot_hold_is_an_error_not_a_crash(queue):
    # As a plain, an optional and a listed argument: plinth's reason, and the process lives on
    # (a throw inside nanobind's own container casters would end it).
    with pytest.raises(plinth.LogicError, match="byte order"):
        plinth.zeros(queue, 3, ">f4")
    with pytest.raises(plinth.LogicError, match="byte order"):
        plinth.to_device(queue, np.zeros(3, np.float32), dtype=">f4")
    with pytest.raises(plinth.LogicError, match="byte order"):
        plinth.result_type([np.float32, ">f4"])
    assert plinth.result_type([np.int8, "uint8"]) == np.int16
