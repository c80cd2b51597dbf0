"""StaticKernel: virtual launch shapes of any rank, arguments as Kernel's."""

import numpy as np
import pytest

import plinth

MULTIPLY = """
KERNEL void multiply(GLOBAL_MEM float *dest, GLOBAL_MEM const float *a,
                     GLOBAL_MEM const float *b, float scale)
{
    if (${static.skip}()) return;
    const VSIZE_T x = ${static.global_id}(0), y = ${static.global_id}(1);
    dest[${static.global_flat_id}()] = a[x] * b[y] * scale;
}
"""


def test_static_kernel_outer_product(context, queue):
    kernel = plinth.StaticKernel(context, MULTIPLY, "multiply", (15, 11))
    a = np.arange(15, dtype=np.float32)
    b = np.arange(11, dtype=np.float32) + 1
    dest = plinth.to_device(queue, np.zeros((11, 15), np.float32))
    kernel(queue, dest, plinth.to_device(queue, a), plinth.to_device(queue, b), np.float32(2))
    np.testing.assert_allclose(dest.get(), np.outer(b, a) * 2)
    device = context.devices[0]
    assert len(kernel.real_global_size(device)) >= 1
    assert kernel.devices == context.devices
    assert "multiply" in kernel.sources[0]
    assert isinstance(kernel.program, plinth.Program)


def test_static_kernel_one_int_size_and_render_globals(context, queue):
    source = """
KERNEL void fill(GLOBAL_MEM ${t} *out)
{
    if (${static.skip}()) return;
    out[${static.global_id}(0)] = ${value};
}
"""
    kernel = plinth.StaticKernel([context.devices[0]], source, "fill", 37,
                                 render_globals={"t": np.dtype(np.int32), "value": 5})
    out = plinth.to_device(queue, np.zeros(40, np.int32))
    kernel(queue, out)
    np.testing.assert_array_equal(out.get(), [5] * 37 + [0] * 3)


def test_static_kernel_errors(context, queue):
    with pytest.raises(plinth.LogicError, match="static"):
        plinth.StaticKernel(context, MULTIPLY, "multiply", 8, render_globals={"static": 1})
    kernel = plinth.StaticKernel(context, MULTIPLY, "multiply", (4, 4))
    dest = plinth.to_device(queue, np.zeros(16, np.float32))
    with pytest.raises(plinth.LogicError, match="Python int"):
        kernel(queue, dest, dest, dest, 2)
    with pytest.raises(plinth.LogicError, match="argument 3"):
        kernel(queue, dest, dest, dest, np.float64(2))
    with pytest.raises(plinth.CompileError):
        plinth.StaticKernel(context, "KERNEL void k() { nonsense }", "k", 4)
