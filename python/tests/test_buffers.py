"""plinth.Buffer, managed memory, IPC handles, the memory pools and page-locked arrays."""

import gc

import numpy as np
import pytest

import plinth


pytestmark = pytest.mark.usefixtures("pocl_two_devices")


def test_allocate_get_set(queue):
    buffer = plinth.Buffer.allocate(queue.device, 32)
    assert buffer.size == len(buffer) == 32
    assert buffer.offset == 0
    assert buffer.device == queue.device
    assert isinstance(buffer.handle, int) and buffer.handle == buffer.ptr
    assert not buffer.is_managed
    assert repr(buffer).startswith("<plinth.Buffer 32 bytes at offset 0 on device 0")
    source = np.arange(8, dtype=np.float32)
    buffer.set(queue, source)
    back = buffer.get(queue)
    assert back.dtype == np.uint8 and back.shape == (32,)
    np.testing.assert_array_equal(back.view(np.float32), source)
    dest = np.zeros(8, np.float32)
    assert buffer.get(queue, dest) is dest
    np.testing.assert_array_equal(dest, source)
    buffer.set(queue, bytes(range(32)))
    target = bytearray(32)
    buffer.get(queue, target)
    assert target == bytes(range(32))


def test_transfer_errors(queue, context2):
    buffer = plinth.Buffer.allocate(queue.device, 16)
    with pytest.raises(plinth.LogicError, match="16"):
        buffer.set(queue, np.zeros(3, np.float32))
    with pytest.raises(plinth.LogicError, match="16"):
        buffer.get(queue, np.zeros(5, np.float32))
    with pytest.raises(plinth.LogicError):
        buffer.get(plinth.Queue(context2.devices[1]))
    readonly = np.zeros(4, np.float32)
    readonly.flags.writeable = False
    with pytest.raises(plinth.LogicError, match="writable C-contiguous.*read-only"):
        buffer.get(queue, readonly)
    with pytest.raises(plinth.LogicError, match="C-contiguous"):
        buffer.get(queue, np.zeros(8, np.float32)[::2])
    with pytest.raises(plinth.LogicError, match="source must be a C-contiguous"):
        buffer.set(queue, np.zeros(8, np.float32)[::2])
    with pytest.raises(plinth.LogicError, match="0|size"):
        plinth.Buffer.allocate(queue.device, 0)


def test_sub_regions(queue):
    buffer = plinth.Buffer.allocate(queue.device, 64)
    buffer.set(queue, np.arange(64, dtype=np.uint8))
    region = buffer.get_sub_region(16, 8)
    assert (region.offset, region.size) == (16, 8)
    assert region.overlaps(buffer) and buffer.overlaps(region)
    assert not region.overlaps(buffer.get_sub_region(24, 8))
    np.testing.assert_array_equal(region.get(queue), np.arange(16, 24))
    region.fill(queue, b"\xff")
    del buffer
    gc.collect()  # the region keeps the allocation
    np.testing.assert_array_equal(region.get(queue), np.full(8, 255))
    with pytest.raises(plinth.LogicError):
        region.get_sub_region(4, 8)
    with pytest.raises(plinth.LogicError):
        region.get_sub_region(0, 0)


def test_fill(queue):
    buffer = plinth.Buffer.allocate(queue.device, 24)
    buffer.fill(queue, np.float32(2.5))
    np.testing.assert_array_equal(buffer.get(queue).view(np.float32), np.full(6, 2.5))
    buffer.fill(queue, np.uint16(0x0102))
    np.testing.assert_array_equal(buffer.get(queue).view(np.uint16), np.full(12, 0x0102))
    buffer.fill(queue, b"abc")
    assert bytes(buffer.get(queue)) == b"abc" * 8
    with pytest.raises(TypeError, match="numpy scalar"):
        buffer.fill(queue, 1.0)
    with pytest.raises(plinth.LogicError, match="empty"):
        buffer.fill(queue, b"")
    buffer.fill(queue, np.float64(-1))  # np.float64 is a Python float too: still 8 bytes
    np.testing.assert_array_equal(buffer.get(queue).view(np.float64), np.full(3, -1))
    with pytest.raises(TypeError, match="numpy scalar"):
        buffer.fill(queue, 7)
    with pytest.raises(plinth.LogicError, match="whole number|multiple"):
        buffer.get_sub_region(0, 20).fill(queue, np.float64(1))
    with pytest.raises(plinth.LogicError):
        buffer.fill(queue, b"abcde")  # 24 is not a multiple of 5
    with pytest.raises(plinth.LogicError, match="128"):
        buffer.fill(queue, bytes(129))


def test_device_copy(context2):
    queue = plinth.Queue(context2.devices[0])
    a = plinth.Buffer.allocate(context2.devices[0], 16)
    b = plinth.Buffer.allocate(context2.devices[1], 16)
    a.set(queue, np.arange(4, dtype=np.int32))
    queue1 = plinth.Queue(context2.devices[1])
    queue.synchronize()
    b.set(queue1, a)
    b2 = plinth.Buffer.allocate(context2.devices[1], 16)
    b2.copy_from(queue1, b)
    np.testing.assert_array_equal(b2.get(queue1).view(np.int32), np.arange(4))
    with pytest.raises(plinth.LogicError, match="queue is on device 0"):
        b.set(queue, a)
    with pytest.raises(plinth.LogicError):
        b.set(queue1, plinth.Buffer.allocate(context2.devices[0], 8))
    # overlapping regions copy as memmove
    a.get_sub_region(4, 12).set(queue, a.get_sub_region(0, 12))
    np.testing.assert_array_equal(a.get(queue).view(np.int32), [0, 0, 1, 2])


def test_from_backend_buffer_and_record_queue(queue):
    buffer = plinth.Buffer.allocate(queue.device, 16)
    buffer.set(queue, np.arange(16, dtype=np.uint8))
    wrapped = plinth.Buffer.from_backend_buffer(queue.device, buffer.handle, 16)
    assert wrapped.handle == buffer.handle
    np.testing.assert_array_equal(wrapped.get(queue), np.arange(16))
    wrapped.record_queue(queue)
    other = plinth.Context.from_criteria(plinth.API.from_env())
    with pytest.raises(plinth.LogicError):
        buffer.record_queue(plinth.Queue(other.devices[0]))


def test_allocate_pitched(queue):
    pitched = plinth.Buffer.allocate_pitched(queue.device, 10, 3, 2)
    buffer, row_pitch, slice_pitch = pitched
    assert row_pitch >= 10 and slice_pitch == row_pitch * 3
    assert buffer.size == row_pitch * 3 * 2
    assert "row_pitch" in repr(pitched)
    with pytest.raises(plinth.LogicError):
        plinth.Buffer.allocate_pitched(queue.device, 0, 3)


def test_managed_memory(queue):
    # PoCL's pthread devices have fine-grained SVM: OpenCL's managed memory.
    buffer = plinth.Buffer.allocate_managed(queue.device, 64)
    assert buffer.is_managed
    assert buffer.get_sub_region(8, 8).is_managed
    assert isinstance(buffer.host_pointer, int) and buffer.host_pointer != 0
    view = buffer.managed_view((4, 4), np.float32)
    assert view.shape == (4, 4) and view.dtype == np.float32
    view[:] = np.arange(16).reshape(4, 4)
    np.testing.assert_array_equal(buffer.get(queue).view(np.float32), np.arange(16))
    buffer.fill(queue, np.float32(3))
    queue.synchronize()
    np.testing.assert_array_equal(view, np.full((4, 4), 3))
    del buffer
    gc.collect()
    view[0, 0] = 1  # the view keeps the memory alive
    assert view.sum() == 1 + 3 * 15
    assert plinth.Buffer.allocate_managed(queue.device, 8).managed_view(8).dtype == np.uint8
    managed = plinth.Buffer.allocate_managed(queue.device, 64)
    assert isinstance(managed.prefetch(queue), bool)
    assert isinstance(managed.prefetch(queue, plinth.ManagedLocation.host), bool)
    assert managed.advise(queue, plinth.ManagedAdvice.set_read_mostly) is False  # OpenCL
    managed.attach(queue, plinth.ManagedAttach.global_)  # a no-op on OpenCL
    with pytest.raises(plinth.LogicError, match="single|attach"):
        managed.attach(queue, plinth.ManagedAttach.single)
    with pytest.raises(plinth.LogicError, match="single"):
        plinth.Buffer.allocate_managed(queue.device, 64, plinth.ManagedAttach.single)
    with pytest.raises(plinth.LogicError, match="too small|bytes"):
        managed.managed_view(100, np.float32)


def test_not_managed_refusals(queue):
    buffer = plinth.Buffer.allocate(queue.device, 64)
    with pytest.raises(plinth.LogicError, match="managed"):
        buffer.host_pointer
    with pytest.raises(plinth.LogicError, match="managed"):
        buffer.prefetch(queue)
    with pytest.raises(plinth.LogicError, match="managed"):
        buffer.advise(queue, plinth.ManagedAdvice.set_accessed_by)
    with pytest.raises(plinth.LogicError, match="managed"):
        buffer.attach(queue, plinth.ManagedAttach.global_)
    with pytest.raises(plinth.LogicError, match="managed"):
        buffer.managed_view(4)


def test_ipc_refused_on_opencl(queue):
    support = plinth.ipc_support(queue.device)
    assert support.memory is False and support.events is False
    assert "OpenCL has no interprocess sharing" in support.reason
    assert "memory=False" in repr(support)
    buffer = plinth.Buffer.allocate(queue.device, 64)
    with pytest.raises(plinth.LogicError, match="OpenCL has no interprocess sharing"):
        buffer.ipc_handle()
    handle = plinth.IpcMemoryHandle.from_parts("opencl", b"\x00\x01", 64, 0)
    with pytest.raises(plinth.LogicError, match="interprocess"):
        plinth.Buffer.from_ipc_handle(queue.device, handle)


def test_ipc_memory_handle_round_trips():
    handle = plinth.IpcMemoryHandle.from_parts("cuda", b"\x01\xab\xff", 4096, 512)
    assert handle.api_shortcut == "cuda"
    assert handle.vendor_handle == b"\x01\xab\xff"
    assert (handle.size, handle.offset) == (4096, 512)
    text = str(handle)
    assert text == handle.to_string() and text.startswith("cuda:4096:512:")
    assert plinth.IpcMemoryHandle.from_string(text) == handle
    data = bytes(handle)
    assert data == handle.to_bytes() and data.startswith(b"plm1")
    assert plinth.IpcMemoryHandle.from_bytes(data) == handle
    assert hash(plinth.IpcMemoryHandle.from_bytes(data)) == hash(handle)
    assert eval(repr(handle), {"plinth": plinth}) == handle
    with pytest.raises(plinth.LogicError):
        plinth.IpcMemoryHandle.from_string("not a handle")
    with pytest.raises(plinth.LogicError):
        plinth.IpcMemoryHandle.from_bytes(data[:-len(b"\x01\xab\xff") - 3])
    with pytest.raises(plinth.LogicError):
        plinth.IpcMemoryHandle.from_parts("CUDA!", b"\x01", 1, 0)
    with pytest.raises(plinth.LogicError):
        plinth.IpcMemoryHandle.from_parts("cuda", b"\x01", 0, 0)


def test_ipc_event_handle_round_trips():
    handle = plinth.IpcEventHandle.from_parts("hip", bytes(range(64)))
    assert handle.api_shortcut == "hip" and handle.vendor_handle == bytes(range(64))
    assert plinth.IpcEventHandle.from_string(str(handle)) == handle
    assert plinth.IpcEventHandle.from_bytes(bytes(handle)) == handle
    assert bytes(handle).startswith(b"ple1")
    assert eval(repr(handle), {"plinth": plinth}) == handle
    with pytest.raises(plinth.LogicError):
        plinth.IpcEventHandle.from_bytes(bytes(plinth.IpcMemoryHandle.from_parts(
            "hip", b"\x01", 1, 0)))
    with pytest.raises(plinth.LogicError):
        plinth.IpcEventHandle.from_parts("hip", b"")


def test_memory_pool(api):
    context = plinth.Context.from_criteria(api, devices_num=2)
    pool = plinth.MemoryPool.of(context)
    assert pool.enabled
    assert pool.limit is None
    queue = plinth.Queue(context.devices[0])
    before = pool.stats()
    block = pool.allocate(queue, 1000)
    assert block.size == 1000
    assert pool.stats().bytes_in_use == before.bytes_in_use + 1024  # rounded to 512
    assert pool.stats(context.devices[0]).bytes_in_use == 1024
    assert pool.stats(context.devices[1]).bytes_in_use == 0
    device_block = pool.allocate(context.devices[1], 100)
    assert device_block.device == context.devices[1]
    del block, device_block
    gc.collect()
    stats = pool.stats()
    assert stats.bytes_in_use == 0 and stats.bytes_held > 0 and stats.misses >= 1
    assert stats.peak_bytes_in_use >= 1024
    again = pool.allocate(queue, 1000)
    assert pool.stats().hits == stats.hits + 1
    del again
    gc.collect()
    pool.free_all_blocks()
    assert pool.stats().bytes_held == 0
    assert pool.stats().segments_freed >= 1
    pool.limit = 4 << 20
    assert pool.limit == 4 << 20
    with pytest.raises(plinth.OutOfMemoryError, match="limit"):
        pool.allocate(queue, 8 << 20)
    pool.limit = None
    assert "bytes in use" in repr(pool) and "queue_waits" in repr(pool.stats())
    other = plinth.Context.from_criteria(api)
    with pytest.raises(plinth.LogicError):
        pool.stats(other.devices[0])
    with pytest.raises(plinth.LogicError):
        pool.allocate(queue, 0)


def test_memory_pool_does_not_grow_over_many_blocks(queue):
    pool = plinth.MemoryPool.of(queue.device.context)
    for _ in range(3):
        pool.allocate(queue, 4096)
    held = pool.stats().bytes_held
    for _ in range(200):
        pool.allocate(queue, 4096)
    assert pool.stats().bytes_held == held


def test_page_locked(api):
    context = plinth.Context.from_criteria(api)
    queue = plinth.Queue(context.devices[0])
    pool = plinth.PageLockedMemoryPool.of(context)
    assert pool.enabled and pool.limit is None
    host = plinth.page_locked(context, (3, 4), np.float32)
    assert host.shape == (3, 4) and host.dtype == np.float32
    assert (host == 0).all()
    assert pool.stats().bytes_in_use >= host.nbytes
    host[:] = np.arange(12).reshape(3, 4)
    array = plinth.to_device(queue, host)
    np.testing.assert_array_equal(array.get(), host)
    aligned = plinth.page_locked(context, 5, "int16", alignment=4096)
    assert aligned.shape == (5,) and aligned.ctypes.data % 4096 == 0
    assert plinth.page_locked(context, ()).shape == ()
    del context, queue, array
    gc.collect()
    host[0, 0] = 42  # the array keeps its memory (and the context) alive
    assert host.sum() == 42 + np.arange(1, 12).sum()
    del host, aligned
    gc.collect()
    assert pool.stats().bytes_in_use == 0
    assert pool.stats().bytes_held > 0
    pool.free_all_blocks()
    assert pool.stats().bytes_held == 0
    assert "PageLockedMemoryPool" in repr(pool)


def test_page_locked_limits_and_errors(api):
    context = plinth.Context.from_criteria(api)
    pool = plinth.PageLockedMemoryPool.of(context)
    pool.limit = 1 << 16
    assert pool.limit == 1 << 16
    with pytest.raises(plinth.OutOfMemoryError, match="limit"):
        plinth.page_locked(context, 1 << 20, "u1")
    pool.limit = None
    assert plinth.page_locked(context, 1 << 20, "u1").nbytes == 1 << 20
    with pytest.raises(plinth.LogicError, match="alignment|power of two"):
        plinth.page_locked(context, 4, "f4", alignment=3)
    with pytest.raises(plinth.LogicError, match="too many elements"):
        plinth.page_locked(context, (1 << 62, 1 << 62), "f4")


def test_transfers_release_what_they_borrow(queue):
    buffer = plinth.Buffer.allocate(queue.device, 16)
    target = bytearray(16)
    buffer.set(queue, bytes(range(16)))
    buffer.get(queue, target)
    target.extend(b"x")  # a bytearray with a live export cannot be resized
    with pytest.raises(plinth.LogicError):
        buffer.get(queue, target)  # 17 bytes: refused, and the export is released too
    target.extend(b"y")
    source = bytearray(16)
    buffer.set(queue, source)
    source.extend(b"z")


def test_no_leaks_over_many_transfers(queue):
    import tracemalloc

    buffer = plinth.Buffer.allocate(queue.device, 4096)
    host = np.zeros(4096, np.uint8)
    for _ in range(50):
        buffer.set(queue, host)
        buffer.get(queue, host)
        buffer.fill(queue, np.uint32(5))
    tracemalloc.start()
    first, _ = tracemalloc.get_traced_memory()
    for _ in range(2000):
        buffer.set(queue, host)
        buffer.get(queue, host)
        buffer.fill(queue, np.uint32(5))
    gc.collect()
    second, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert second - first < 64 * 1024


def test_page_locked_pool_reuses_blocks(api):
    context = plinth.Context.from_criteria(api)
    pool = plinth.PageLockedMemoryPool.of(context)
    plinth.page_locked(context, 1000, np.float32)
    held = pool.stats().bytes_held
    for _ in range(100):
        plinth.page_locked(context, 1000, np.float32)
    assert pool.stats().bytes_held == held
    assert pool.stats().hits >= 100


def test_host_registration_refused_on_opencl(context2):
    memory = bytearray(4096)
    with pytest.raises(plinth.LogicError, match="OpenCL cannot page-lock existing host memory"):
        plinth.HostRegistration(context2, memory)
    memory.extend(b"x")  # the refused registration released its export
    with pytest.raises(plinth.LogicError, match="writable"):
        plinth.HostRegistration(context2, b"read-only bytes")

