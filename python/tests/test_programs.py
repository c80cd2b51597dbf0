"""Program, Kernel and PreparedKernel: launches with every argument kind, errors, caches."""

import gc
import tracemalloc

import numpy as np
import pytest

import plinth

SOURCE = """
KERNEL void fill(GLOBAL_MEM int *out, int value)
{
    out[get_global_id(0)] = value;
}

KERNEL void axpy(GLOBAL_MEM float *y, float a, GLOBAL_MEM const float *x, long n)
{
    const SIZE_T i = get_global_id(0);
    if (i < n) y[i] = a * x[i] + y[i];
}

KERNEL void grid(GLOBAL_MEM int *out)
{
    const int x = get_global_id(0), y = get_global_id(1);
    out[y * get_global_size(0) + x] = y * 100 + x;
}

KERNEL void empty(GLOBAL_MEM int *out)
{
}
"""


@pytest.fixture(scope="module")
def program(context):
    return plinth.Program(context, SOURCE)


def test_kernel_call_with_arrays_and_numpy_scalars(program, queue):
    out = plinth.to_device(queue, np.zeros(64, np.int32))
    program.fill(queue, 64, None, out, np.int32(-7))
    np.testing.assert_array_equal(out.get(), np.full(64, -7, np.int32))

    x = np.arange(100, dtype=np.float32)
    y = np.ones(100, np.float32)
    y_dev = plinth.to_device(queue, y)
    program.axpy(queue, (128,), (32,), y_dev, np.float32(2.5), plinth.to_device(queue, x),
                 np.int64(100))
    np.testing.assert_allclose(y_dev.get(), 2.5 * x + y)


def test_two_dimensions_and_automatic_local_size(program, queue):
    out = plinth.to_device(queue, np.zeros((6, 16), np.int32))
    program.grid(queue, (16, 6), None, out)
    ys, xs = np.mgrid[0:6, 0:16]
    np.testing.assert_array_equal(out.get(), ys * 100 + xs)
    program.grid(queue, [16, 6], (4, 2), out)
    np.testing.assert_array_equal(out.get(), ys * 100 + xs)


def test_prepared_kernel(program, queue, context):
    out = plinth.to_device(queue, np.zeros(32, np.int32))
    prepared = program.fill.prepare(32, 8)
    assert isinstance(prepared, plinth.PreparedKernel)
    assert prepared.global_size(context.devices[0]) == [32]
    assert prepared.local_size(context.devices[0]) == [8]
    for value in range(5):
        prepared(queue, out, np.int32(value))
    np.testing.assert_array_equal(out.get(), np.full(32, 4, np.int32))
    automatic = program.fill.prepare((32,))
    assert 32 % automatic.local_size(context.devices[0])[0] == 0


def test_kernel_objects_are_cached_and_named(program):
    assert program.fill is program.kernel("fill")
    assert program.fill.name == "fill"
    assert isinstance(program.fill, plinth.Kernel)
    assert all(size >= 1 for size in program.fill.max_total_local_sizes)
    assert "fill" in repr(program.fill)


def test_python_numbers_are_refused(program, queue):
    out = plinth.to_device(queue, np.zeros(8, np.int32))
    with pytest.raises(plinth.LogicError, match=r"argument 1 is a Python int.*numpy\.int32"):
        program.fill(queue, 8, None, out, 5)
    with pytest.raises(plinth.LogicError, match="Python float"):
        program.fill.prepare(8)(queue, out, 5.0)


def test_scalar_sizes_are_checked(program, queue):
    out = plinth.to_device(queue, np.zeros(8, np.int32))
    with pytest.raises(plinth.LogicError, match=r"'fill'.*argument 1.*4 bytes.*8"):
        program.fill(queue, 8, None, out, np.int64(5))
    with pytest.raises(plinth.LogicError, match="argument 1"):
        program.fill(queue, 8, None, out, np.float64(5))


def test_argument_count_and_kinds(program, queue):
    out = plinth.to_device(queue, np.zeros(8, np.int32))
    with pytest.raises(plinth.LogicError, match="1 given"):
        program.fill(queue, 8, None, out)
    with pytest.raises(plinth.LogicError, match="argument 0"):
        program.fill(queue, 8, None, np.int32(1), np.int32(1))
    with pytest.raises(TypeError, match="kernel argument 1 is a str"):
        program.fill(queue, 8, None, out, "5")
    with pytest.raises(TypeError, match="plinth.Queue"):
        program.fill(out, 8, None, out, np.int32(5))


def test_bad_launch_shapes(program, queue):
    out = plinth.to_device(queue, np.zeros(64, np.int32))
    with pytest.raises(plinth.LogicError):
        program.fill(queue, 64, 7, out, np.int32(1))
    with pytest.raises(plinth.LogicError):
        program.fill.prepare((1, 1, 1, 1))
    with pytest.raises(plinth.LogicError, match="negative"):
        program.fill.prepare(-1)
    with pytest.raises(TypeError):
        program.fill.prepare("64")


def test_missing_kernel(program):
    with pytest.raises(plinth.LogicError, match="nope"):
        program.kernel("nope")
    with pytest.raises(AttributeError, match="nope"):
        program.nope  # noqa: B018
    assert not hasattr(program, "_repr_html_")
    with pytest.raises(AttributeError):
        program.__nope__  # noqa: B018


def test_program_properties_and_render_globals(context, queue):
    program = plinth.Program(
        context,
        "KERNEL void k(GLOBAL_MEM ${t} *out) { out[get_global_id(0)] = ${value}; }",
        render_globals={"t": np.dtype(np.int32), "value": 42},
        compiler_options=[],
    )
    assert "out[get_global_id(0)] = 42;" in program.source
    assert "int *out" in program.source
    assert program.devices == context.devices
    assert program.kept_directory == ""
    out = plinth.to_device(queue, np.zeros(4, np.int32))
    program.k(queue, 4, None, out)
    np.testing.assert_array_equal(out.get(), [42] * 4)


def test_program_on_a_list_of_devices(context):
    program = plinth.Program([context.devices[0]], SOURCE)
    assert program.devices == [context.devices[0]]
    with pytest.raises(plinth.LogicError, match="empty"):
        plinth.Program([], SOURCE)


def test_compile_error_carries_the_log(context):
    with pytest.raises(plinth.CompileError) as info:
        plinth.Program(context, "KERNEL void broken(GLOBAL_MEM int *x) { x[0] = undefined_name; }")
    assert "undefined_name" in info.value.source
    assert info.value.log


def test_program_from_a_template_def(context, queue):
    template = plinth.Template.from_string(
        '<%def name="body(v)">KERNEL void k(GLOBAL_MEM int *out) '
        "{ out[get_global_id(0)] = ${v}; }</%def>"
    )
    program = plinth.Program(context, template.get_def("body"), render_args=[9])
    out = plinth.to_device(queue, np.zeros(3, np.int32))
    program.k(queue, 3, None, out)
    np.testing.assert_array_equal(out.get(), [9, 9, 9])


def test_binaries_round_trip(program, context, queue):
    device = context.devices[0]
    try:
        binary = program.binary(device)
    except plinth.LogicError:
        pytest.skip("the backend hands out no binaries")
    assert isinstance(binary, bytes) and binary
    loaded = plinth.Program.from_binaries([device], [binary])
    out = plinth.to_device(queue, np.zeros(4, np.int32))
    loaded.fill(queue, 4, None, out, np.int32(3))
    np.testing.assert_array_equal(out.get(), [3] * 4)


def test_compile_targets_errors():
    with pytest.raises(plinth.PluginError):
        plinth.compile_targets("no_such_api")
    with pytest.raises(plinth.PluginError):
        plinth.compile_for_target("no_such_api", "sm_90", "KERNEL void k() {}")


def test_program_cache_info():
    info = plinth.program_cache_info()
    assert isinstance(info.state, str) and info.state
    assert info.size_limit > 0
    assert info.compiled + info.loaded >= 1  # this session built programs


def test_expression_argument(program, queue):
    x = plinth.to_device(queue, np.arange(8, dtype=np.float32))
    try:
        expression = x + x
    except TypeError:
        pytest.skip("expressions are not bound in this build")
    y = plinth.to_device(queue, np.ones(8, np.float32))
    program.axpy(queue, 8, None, y, np.float32(1), expression, np.int64(8))
    np.testing.assert_allclose(y.get(), 2 * np.arange(8) + 1)


def test_buffer_argument(program, queue, context):
    buffer_type = getattr(plinth, "Buffer", None)
    if buffer_type is None or not hasattr(buffer_type, "allocate"):
        pytest.skip("Buffer is not bound in this build")
    buffer = buffer_type.allocate(context.devices[0], 16 * 4)
    program.fill(queue, 16, None, buffer, np.int32(11))
    program.fill.prepare(8)(queue, buffer, np.int32(-2))
    back = np.asarray(buffer.get(queue)).view(np.int32)
    np.testing.assert_array_equal(back, [-2] * 8 + [11] * 8)


def test_no_leak_over_many_launches(program, queue):
    out = plinth.to_device(queue, np.zeros(16, np.int32))
    prepared = program.empty.prepare(16)
    value = np.int32(1)
    for _ in range(200):
        prepared(queue, out)
        program.fill(queue, 16, None, out, value)
    queue.synchronize()
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for _ in range(10_000):
        prepared(queue, out)
        program.fill(queue, 16, None, out, value)
    queue.synchronize()
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert after - before < 10_000


def test_many_arguments_and_struct_scalars(context, queue):
    # More arguments than are converted inline, and a scalar larger than inline storage.
    params = ", ".join(f"int v{i}" for i in range(18))
    total = " + ".join(f"v{i}" for i in range(18))
    program = plinth.Program(
        context,
        f"typedef struct {{ int a; int b; int c; int d; int e; }} five;\n"
        f"KERNEL void many(GLOBAL_MEM int *out, {params}) {{ out[0] = {total}; }}\n"
        f"KERNEL void big(GLOBAL_MEM int *out, five s) {{ out[0] = s.a + s.e; }}\n",
    )
    out = plinth.to_device(queue, np.zeros(1, np.int32))
    program.many(queue, 1, None, out, *[np.int32(i) for i in range(18)])
    assert out.get()[0] == sum(range(18))
    five = np.dtype([(name, np.int32) for name in "abcde"])
    value = np.zeros((), five)[()]
    value["a"], value["e"] = 30, 12
    program.big.prepare(1)(queue, out, value)
    assert out.get()[0] == 42


MULTI_SOURCE = """
KERNEL void fill(GLOBAL_MEM int *x, int base) {
    x[get_global_id(0)] = base + (int)get_global_id(0);
}
"""


def test_kernels_on_a_multi_queue(context2):
    program = plinth.Program(context2, MULTI_SOURCE)
    queues = plinth.MultiQueue.on_devices(context2.devices)
    d0, d1 = context2.devices
    bases = {d0: np.int32(0), d1: np.int32(100)}
    expected = np.r_[np.arange(5), 100 + np.arange(5)].astype(np.int32)

    # The same global size on each device; a MultiArray is its part, a dict its device's value.
    x = plinth.MultiArray.empty(context2.devices, 10, np.int32)
    program.fill(queues, 5, None, x, bases)
    np.testing.assert_array_equal(x.get(queues), expected)

    # Per-device global sizes, as a call and prepared.
    y = plinth.MultiArray.empty(context2.devices, 10, np.int32)
    program.fill(queues, {d0: 5, d1: 5}, None, y, bases)
    np.testing.assert_array_equal(y.get(queues), expected)
    z = plinth.MultiArray.empty(context2.devices, 10, np.int32)
    prepared = program.fill.prepare_per_device({d0: (5,), d1: 5})
    assert prepared.global_size(d1) == [5]
    prepared(queues, z, {d0: np.int32(0), d1: np.int32(100)})
    np.testing.assert_array_equal(z.get(queues), expected)

    # A dict without a device is refused, naming the argument, before anything runs.
    with pytest.raises(plinth.LogicError, match="argument 1: the dict has no value for device 1"):
        program.fill(queues, 5, None, x, {d0: np.int32(7)})
    with pytest.raises(plinth.LogicError, match="argument 1: the dict has no value"):
        prepared(queues, z, {d1: np.int32(7)})
    np.testing.assert_array_equal(x.get(queues), expected)
    with pytest.raises(TypeError, match="BoundDevice"):
        program.fill.prepare_per_device({0: 5})
    with pytest.raises(TypeError, match="Queue or MultiQueue"):
        program.fill(42, 5, None, x, bases)
