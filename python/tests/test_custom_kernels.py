"""ElementwiseKernel, ReductionKernel and ScanKernel with PyCUDA's signatures."""

import numpy as np
import pytest

import plinth


def test_elementwise_saxpy(queue):
    saxpy = plinth.ElementwiseKernel(
        "float *z, float a, const float *x, const float *y", "z[i] = a * x[i] + y[i]", "saxpy"
    )
    x = np.arange(1000, dtype=np.float32)
    y = np.linspace(0, 1, 1000, dtype=np.float32)
    z = plinth.to_device(queue, np.zeros(1000, np.float32))
    saxpy(z, 2.5, plinth.to_device(queue, x), plinth.to_device(queue, y))
    np.testing.assert_allclose(z.get(), np.float32(2.5) * x + y, rtol=1e-6)
    assert [a.kind for a in saxpy.arguments] == ["inout", "scalar", "input", "input"]
    assert saxpy.name == "saxpy"


def test_elementwise_scalars_of_every_kind_and_range(queue):
    k = plinth.ElementwiseKernel("long *out, long a, int b", "out[i] = a + b + i")
    out = plinth.to_device(queue, np.zeros(10, np.int64))
    k(out, 2**40, np.int32(3), range=slice(2, 5))
    expected = np.zeros(10, np.int64)
    expected[2:5] = 2**40 + 3 + np.arange(2, 5)
    np.testing.assert_array_equal(out.get(), expected)
    k(out, np.int64(1), np.int8(1), queue=queue, range=(0, 1))
    assert out.get()[0] == 2
    with pytest.raises(plinth.LogicError, match="'b'.*true"):
        k(out, 1, True)  # a bool is not an int32, as in C++


def test_elementwise_argument_list_form(queue):
    k = plinth.ElementwiseKernel(
        [plinth.ElementwiseArg.output("y", np.float32), plinth.ElementwiseArg.input("x", "int32")],
        "y[i] = 2 * x[i]",
        writes_every_element=True,
    )
    x = np.arange(5, dtype=np.int32)
    y = plinth.to_device(queue, np.zeros(5, np.float32))
    k(y, plinth.to_device(queue, x))
    np.testing.assert_array_equal(y.get(), 2 * x)


def test_elementwise_render_globals_and_preamble(queue):
    c64 = np.dtype(np.complex64)
    k = plinth.ElementwiseKernel(
        "plinth_complex64 *z, const plinth_complex64 *x, const plinth_complex64 *y",
        "z[i] = ${mul}(x[i], y[i])",
        render_globals={"mul": plinth.functions.mul([c64, c64])},
    )
    x = (np.arange(6) + 1j * np.arange(6)).astype(c64)
    y = (2 - 1j * np.arange(6)).astype(c64)
    z = plinth.to_device(queue, np.zeros(6, c64))
    k(z, plinth.to_device(queue, x), plinth.to_device(queue, y))
    np.testing.assert_allclose(z.get(), x * y, rtol=1e-6)


def test_elementwise_errors(queue):
    with pytest.raises(plinth.LogicError, match="quux"):
        plinth.ElementwiseKernel("quux *x", "x[i] = 0")
    with pytest.raises(plinth.LogicError, match="no array"):
        plinth.ElementwiseKernel("float a", "a = 0")
    k = plinth.ElementwiseKernel("float *x, float a", "x[i] = a")
    x = plinth.to_device(queue, np.zeros(4, np.float32))
    with pytest.raises(plinth.LogicError, match="'a'"):
        k(x, 0.1)  # 0.1 is not a float32 exactly
    with pytest.raises(plinth.LogicError, match="count|argument"):
        k(x)
    with pytest.raises(plinth.LogicError, match="queue"):
        k(np.float32(1), np.float32(1))
    with pytest.raises(TypeError, match="str"):
        k(x, "1")
    k(x, np.float32(0.1))  # exact as a float32
    np.testing.assert_array_equal(x.get(), np.full(4, np.float32(0.1)))


def test_parse_elementwise_args():
    args = plinth.parse_elementwise_args("float a, int *x, const double *y", "output")
    assert [(a.name, a.kind, a.dtype) for a in args] == [
        ("a", "scalar", np.float32),
        ("x", "output", np.int32),
        ("y", "input", np.float64),
    ]
    with pytest.raises(plinth.LogicError, match="pointer_kind"):
        plinth.parse_elementwise_args("int *x", "sideways")


def test_reduction_sum_and_dot(queue):
    total = plinth.ReductionKernel(np.int64, "0", "a + b", arguments="const int *in")
    x = np.arange(10_000, dtype=np.int32)
    result = total(plinth.to_device(queue, x))
    assert result.shape == ()
    assert result.dtype == np.int64
    assert result.queue == queue
    assert result.get() == x.sum()

    dot = plinth.ReductionKernel(
        np.float32, "0.0f", "a + b", "x[i] * y[i]", "const float *x, const float *y", name="dot"
    )
    a = np.linspace(0, 1, 513, dtype=np.float32)
    b = np.linspace(1, 2, 513, dtype=np.float32)
    value = dot(plinth.to_device(queue, a), plinth.to_device(queue, b), queue=queue).get()
    np.testing.assert_allclose(value, np.dot(a, b), rtol=1e-5)
    assert dot.name == "dot"
    assert dot.dtype_out == np.float32


def test_reduction_along_axes_and_into_out(queue):
    total = plinth.ReductionKernel(np.int64, "0", "a + b", "x[i]", "int *x")
    x = np.arange(4 * 5 * 6, dtype=np.int32).reshape(4, 5, 6)
    sums = total(plinth.to_device(queue, x), axes=[0, 2])
    np.testing.assert_array_equal(sums.get(), x.sum(axis=(0, 2)))
    out = plinth.to_device(queue, np.zeros(5, np.int64))
    returned = total(plinth.to_device(queue, x), axes=(0, 2), out=out)
    np.testing.assert_array_equal(out.get(), x.sum(axis=(0, 2)))
    np.testing.assert_array_equal(returned.get(), out.get())


def test_reduction_with_a_scalar(queue):
    count = plinth.ReductionKernel(np.int32, "0", "a + b", "x[i] > t ? 1 : 0", "float *x, float t")
    x = np.arange(100, dtype=np.float32)
    assert count(plinth.to_device(queue, x), 49.5).get() == 50


def test_reduction_errors(queue):
    with pytest.raises(plinth.LogicError):
        plinth.ReductionKernel(np.float32, "0", "", "x[i]", "float *x")
    k = plinth.ReductionKernel(np.float32, "0", "a + b", "x[i]", "float *x")
    with pytest.raises(plinth.LogicError, match="'x'"):
        k(plinth.to_device(queue, np.zeros(4, np.int32)))


def test_scan_inclusive_exclusive_in_place_and_axis(queue):
    x = np.arange(1, 1001, dtype=np.int32)
    inclusive = plinth.ScanKernel(np.int32, "a + b", "0")
    out = plinth.to_device(queue, np.zeros_like(x))
    inclusive(plinth.to_device(queue, x), out)
    np.testing.assert_array_equal(out.get(), np.cumsum(x, dtype=np.int32))

    exclusive = plinth.ScanKernel(np.int32, "max(a, b)", "-2147483647 - 1", exclusive=True,
                                  name="running_max")
    assert exclusive.exclusive and exclusive.name == "running_max"
    values = np.array([3, 1, 4, 1, 5, 9, 2, 6], np.int32)
    in_place = plinth.to_device(queue, values)
    exclusive(in_place)
    expected = np.concatenate([[np.iinfo(np.int32).min], np.maximum.accumulate(values)[:-1]])
    np.testing.assert_array_equal(in_place.get(), expected)

    matrix = np.arange(12, dtype=np.int32).reshape(3, 4)
    out = plinth.to_device(queue, np.zeros_like(matrix))
    inclusive(plinth.to_device(queue, matrix), out, axis=0)
    np.testing.assert_array_equal(out.get(), np.cumsum(matrix, axis=0))


def test_scan_errors(queue):
    with pytest.raises(plinth.LogicError):
        plinth.ScanKernel(np.int32, "", "0")
    k = plinth.ScanKernel(np.int32, "a + b", "0")
    with pytest.raises(plinth.LogicError, match="output"):
        k(plinth.to_device(queue, np.zeros(4, np.int32)),
          plinth.to_device(queue, np.zeros(5, np.int32)))


def test_generated_programs_show_their_source(queue):
    x = plinth.to_device(queue, np.zeros(4, np.float32))
    elementwise = plinth.ElementwiseKernel("float *x", "x[i] = 1", "ones")
    assert "ones" in elementwise.program(x).source
    reduction = plinth.ReductionKernel(np.float32, "0", "a + b", "x[i]", "float *x", name="total")
    assert "_red_kernel_total" in reduction.program(x).source
    scan = plinth.ScanKernel(np.float32, "a + b", "0", name="running")
    assert "_scan_kernel_running" in scan.program(queue).source
    assert scan.cached_programs == 1
