"""Sharing memory with other libraries: DLPack both ways, __cuda_array_interface__,
Array.from_pointer. Locally (PoCL, OpenCL) every export must refuse cleanly; the CUDA tests
(torch, CuPy) run where a CUDA device and those packages exist."""

import gc

import numpy as np
import pytest

import plinth


# --- every backend -----------------------------------------------------------------------


def test_numpy_arrays_are_refused_without_copy(queue):
    with pytest.raises(plinth.LogicError, match="never copies"):
        plinth.from_dlpack(np.arange(4, dtype=np.float32), queue=queue)
    with pytest.raises(plinth.LogicError, match="host memory"):
        plinth.from_dlpack(np.arange(4, dtype=np.float32))


def test_objects_without_dlpack_are_a_type_error(queue):
    with pytest.raises(TypeError, match="__dlpack__"):
        plinth.from_dlpack([1, 2, 3], queue=queue)


def test_methods_exist_with_the_protocols_signature():
    assert callable(plinth.Array.__dlpack__)
    assert callable(plinth.Array.__dlpack_device__)
    assert callable(plinth.Array.from_pointer)
    assert "max_version" in plinth.Array.__dlpack__.__doc__


# --- OpenCL (PoCL locally) ---------------------------------------------------------------


@pytest.fixture
def opencl_queue(queue):
    if plinth.API.from_env().shortcut != "opencl":
        pytest.skip("an OpenCL device is needed")
    return queue


def test_opencl_buffers_refuse_dlpack_saying_why(opencl_queue):
    a = plinth.to_device(opencl_queue, np.arange(8, dtype=np.float32))
    with pytest.raises(BufferError, match="cl_mem, not a pointer"):
        a.__dlpack__()
    with pytest.raises(BufferError, match="cl_mem"):
        a.__dlpack__(max_version=(1, 0))
    with pytest.raises(BufferError, match="cl_mem"):
        a.__dlpack_device__()
    # numpy's own from_dlpack sees the same refusal.
    with pytest.raises(BufferError):
        np.from_dlpack(a)


def test_opencl_arrays_export_a_host_copy_when_asked(opencl_queue):
    data = np.arange(12, dtype=np.int32).reshape(3, 4)
    a = plinth.to_device(opencl_queue, data)
    assert type(a.__dlpack__(dl_device=(1, 0), copy=True)).__name__ == "PyCapsule"
    # numpy asks for the host: a copy, since copy is not False.
    np.testing.assert_array_equal(np.from_dlpack(a, device="cpu"), data)
    with pytest.raises(BufferError, match="copy=False"):
        a.__dlpack__(dl_device=(1, 0), copy=False)


def test_opencl_arrays_have_no_cuda_array_interface(opencl_queue):
    a = plinth.to_device(opencl_queue, np.arange(4, dtype=np.float32))
    assert not hasattr(a, "__cuda_array_interface__")


def test_from_pointer_wraps_a_cl_mem_and_keeps_its_owner(opencl_queue):
    # A foreign cl_mem: here one of plinth's own, kept alive by `owner` alone.
    data = np.arange(10, dtype=np.float32)
    source = plinth.to_device(opencl_queue, data)
    native = source.base_buffer.handle  # the cl_mem, as an int
    wrapped = plinth.Array.from_pointer(opencl_queue, native, (2, 5), np.float32, owner=source)
    del source
    gc.collect()
    np.testing.assert_array_equal(wrapped.get(), data.reshape(2, 5))


def test_from_pointer_rejects_bad_strides(opencl_queue):
    a = plinth.to_device(opencl_queue, np.arange(4, dtype=np.float32))
    with pytest.raises(plinth.LogicError, match="strides"):
        plinth.Array.from_pointer(opencl_queue, 1, (2, 2), np.float32, strides=(8,))
    with pytest.raises(plinth.LogicError, match="negative strides"):
        plinth.Array.from_pointer(opencl_queue, 1, (2,), np.float32, strides=(-4,))
    del a


def test_from_dlpack_refuses_a_device_of_another_backend(opencl_queue):
    class FakeCuda:
        def __dlpack__(self, **kwargs):
            raise AssertionError("must not be consumed")

        def __dlpack_device__(self):
            return (2, 0)

    with pytest.raises(plinth.LogicError, match="not on the queue's device"):
        plinth.from_dlpack(FakeCuda(), queue=opencl_queue)


# --- CUDA: torch and CuPy ----------------------------------------------------------------


@pytest.fixture(scope="module")
def cuda_queue():
    try:
        api = next(a for a in plinth.API.all_available() if a.shortcut == "cuda")
    except StopIteration:
        pytest.skip("no CUDA device")
    context = plinth.Context.from_criteria(api)
    return plinth.Queue(context.devices[0])


def test_cuda_export_to_torch_shares_memory(cuda_queue):
    torch = pytest.importorskip("torch")
    data = np.arange(24, dtype=np.float32).reshape(4, 6)
    a = plinth.to_device(cuda_queue, data)
    assert a.__dlpack_device__()[0] == 2
    t = torch.from_dlpack(a)
    assert t.device.type == "cuda"
    assert t.data_ptr() == a.__cuda_array_interface__["data"][0]
    np.testing.assert_array_equal(t.cpu().numpy(), data)
    t.mul_(2)  # torch's write, seen by plinth
    torch.cuda.synchronize()
    np.testing.assert_array_equal(a.get(), data * 2)
    del a
    gc.collect()
    np.testing.assert_array_equal(t.cpu().numpy(), data * 2)  # the capsule keeps the memory


def test_cuda_import_from_torch_shares_memory_and_releases_it(cuda_queue):
    torch = pytest.importorskip("torch")
    t = torch.arange(12, dtype=torch.float32, device="cuda").reshape(3, 4)
    a = plinth.from_dlpack(t, queue=cuda_queue)
    assert a.shape == (3, 4) and a.dtype == np.float32
    assert a.__cuda_array_interface__["data"][0] == t.data_ptr()
    np.testing.assert_array_equal(a.get(), t.cpu().numpy())
    # plinth's write (a kernel on the queue), seen by torch.
    program = plinth.Program(cuda_queue.device.context,
                             "KERNEL void seven(GLOBAL_MEM float *x) { x[get_global_id(0)] = 7; }")
    program.seven(cuda_queue, (12,), None, a)
    cuda_queue.synchronize()
    assert float(t.sum()) == 7 * 12
    # Views with strides: a transposed, sliced tensor.
    v = t.t()[1:3]
    b = plinth.from_dlpack(v, queue=cuda_queue)
    np.testing.assert_array_equal(b.get(), v.cpu().numpy())
    # The producer's memory lives as long as plinth's array.
    weak_storage = t.untyped_storage()
    base_ptr = weak_storage.data_ptr()
    del t, v, weak_storage
    gc.collect()
    np.testing.assert_array_equal(a.get().shape, (3, 4))
    assert a.__cuda_array_interface__["data"][0] == base_ptr
    del a, b
    gc.collect()


def test_cuda_default_queue_is_on_the_tensors_device(cuda_queue):
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch has no CUDA device")
    t = torch.ones(5, device="cuda")
    a = plinth.from_dlpack(t)
    np.testing.assert_array_equal(a.get(), np.ones(5, dtype=np.float32))


def test_cuda_stream_semantics_with_torch(cuda_queue):
    torch = pytest.importorskip("torch")
    # A long plinth job on the array's queue, then the consumer's stream reads: __dlpack__ with
    # that stream must make it wait for the queue.
    n = 1 << 24
    a = plinth.to_device(cuda_queue, np.zeros(n, dtype=np.float32))
    stream = torch.cuda.Stream()
    # A slow kernel on a's queue writes ones; torch reads on another stream right after.
    program = plinth.Program(cuda_queue.device.context, """
        KERNEL void slow_ones(GLOBAL_MEM float *x, int n) {
            const SIZE_T i = get_global_id(0);
            float v = 0;
            for (int k = 0; k < 2000; ++k) v = v * 0.5f + 0.5f;  // converges to ~1
            if (i < (SIZE_T)n) x[i] = v >= 0.99f ? 1.0f : 0.0f;
        }""")
    program.slow_ones(cuda_queue, (n,), None, a, np.int32(n))
    with torch.cuda.stream(stream):
        t = torch.from_dlpack(a)  # torch passes its current stream: it waits for a.queue
        total = t.sum()
    stream.synchronize()
    assert float(total) == n
    # stream=-1: no ordering; an explicit stream handle works.
    assert a.__dlpack__(stream=-1) is not None
    assert a.__dlpack__(stream=stream.cuda_stream) is not None
    with pytest.raises(BufferError, match="ambiguous"):
        a.__dlpack__(stream=0)


def test_cuda_copy_flags(cuda_queue):
    torch = pytest.importorskip("torch")
    a = plinth.to_device(cuda_queue, np.arange(6, dtype=np.float32))
    pointer = a.__cuda_array_interface__["data"][0]
    t_copy = torch.utils.dlpack.from_dlpack(a.__dlpack__(copy=True))
    assert t_copy.data_ptr() != pointer
    np.testing.assert_array_equal(t_copy.cpu().numpy(), np.arange(6, dtype=np.float32))
    t_same = torch.utils.dlpack.from_dlpack(a.__dlpack__(copy=False))
    assert t_same.data_ptr() == pointer
    # A host copy through numpy's from_dlpack(device="cpu").
    np.testing.assert_array_equal(np.from_dlpack(a, device="cpu"), np.arange(6, dtype=np.float32))


def test_cupy_both_ways(cuda_queue):
    cupy = pytest.importorskip("cupy")
    data = np.arange(10, dtype=np.float64)
    a = plinth.to_device(cuda_queue, data)
    c = cupy.from_dlpack(a)
    assert c.data.ptr == a.__cuda_array_interface__["data"][0]
    c *= 3
    cupy.cuda.runtime.deviceSynchronize()
    np.testing.assert_array_equal(a.get(), data * 3)
    # __cuda_array_interface__: CuPy wraps it without DLPack.
    c2 = cupy.asarray(a)
    assert c2.data.ptr == c.data.ptr
    # CuPy to plinth.
    x = cupy.arange(8, dtype=cupy.int32)
    b = plinth.from_dlpack(x, queue=cuda_queue)
    assert b.__cuda_array_interface__["data"][0] == x.data.ptr
    np.testing.assert_array_equal(b.get(), np.arange(8, dtype=np.int32))


def test_cuda_array_interface_fields(cuda_queue):
    a = plinth.to_device(cuda_queue, np.zeros((2, 3), dtype=np.float32))
    interface = a.__cuda_array_interface__
    assert interface["version"] == 3
    assert interface["shape"] == (2, 3)
    assert interface["typestr"] == "<f4"
    assert interface["strides"] is None
    assert interface["stream"] != 0


def test_cuda_from_pointer_with_owner(cuda_queue):
    torch = pytest.importorskip("torch")
    t = torch.arange(6, dtype=torch.int64, device="cuda")
    a = plinth.Array.from_pointer(cuda_queue, t.data_ptr(), (2, 3), np.int64, owner=t)
    del t
    gc.collect()
    np.testing.assert_array_equal(a.get(), np.arange(6).reshape(2, 3))
    # Negative strides: the pointer is the first element's.
    t2 = torch.arange(4, dtype=torch.float32, device="cuda")
    r = plinth.Array.from_pointer(cuda_queue, t2.data_ptr() + 12, (4,), np.float32,
                                  strides=(-4,), owner=t2)
    np.testing.assert_array_equal(r.get(), np.array([3, 2, 1, 0], dtype=np.float32))


def test_dlpack_export_is_constant_time(cuda_queue):
    torch = pytest.importorskip("torch")
    import time

    small = plinth.to_device(cuda_queue, np.zeros(1 << 10, dtype=np.float32))
    big = plinth.to_device(cuda_queue, np.zeros(1 << 28, dtype=np.float32))  # 1 GiB

    def per_call(a):
        torch.from_dlpack(a)
        start = time.perf_counter()
        for _ in range(200):
            torch.from_dlpack(a)
        return (time.perf_counter() - start) / 200

    # O(1): a 1 GiB array costs what a 4 KiB one does (within noise), well under 1 ms.
    assert per_call(big) < max(3 * per_call(small), 50e-6)
    assert per_call(big) < 1e-3
