"""plinth.Queue, plinth.MultiQueue, plinth.Event and plinth.elapsed_ms."""

import numpy as np
import pytest

import plinth


pytestmark = pytest.mark.usefixtures("pocl_two_devices")


def test_queue(context2):
    device = context2.devices[1]
    queue = plinth.Queue(device)
    assert queue.device == device
    assert queue.context == context2
    assert queue == queue
    assert queue != plinth.Queue(device)
    assert len({queue, queue, plinth.Queue(device)}) == 2
    assert isinstance(queue.handle, int) and queue.handle != 0
    assert "on device 1 (opencl:0.1" in repr(queue)
    queue.synchronize()


def test_from_backend_queue(context2, queue):
    wrapped = plinth.Queue.from_backend_queue(queue.device, queue.handle)
    assert wrapped.handle == queue.handle
    assert wrapped.device == queue.device
    host = np.arange(5, dtype=np.uint8)
    np.testing.assert_array_equal(plinth.to_device(wrapped, host).get(), host)


def test_events_order_queues(context2):
    first = plinth.Queue(context2.devices[0])
    second = plinth.Queue(context2.devices[1])
    buffer = plinth.Buffer.allocate(context2.devices[0], 1 << 20)
    buffer.fill(first, np.uint32(0xDEADBEEF))
    event = first.record_event()
    assert event.device == context2.devices[0]
    assert not event.interprocess
    assert isinstance(event.handle, int)
    assert "on device 0" in repr(event)
    second.wait_for(event)
    copy = plinth.Buffer.allocate(context2.devices[1], 1 << 20)
    copy.set(second, buffer)
    second.synchronize()
    assert (copy.get(second).view(np.uint32) == 0xDEADBEEF).all()
    event.wait()
    event.synchronize()


def test_wait_for_event_of_another_context(context2, queue):
    event = queue.record_event()  # the conftest context, not context2
    with pytest.raises(plinth.LogicError, match="context"):
        plinth.Queue(context2.devices[0]).wait_for(event)


def test_elapsed_ms(context2):
    queue = plinth.Queue(context2.devices[0])
    start = queue.record_event()
    plinth.Buffer.allocate(context2.devices[0], 1 << 22).fill(queue, b"\x01")
    end = queue.record_event()
    assert plinth.elapsed_ms(start, end) >= 0
    other = plinth.Queue(context2.devices[1]).record_event()
    with pytest.raises(plinth.LogicError, match="device"):
        plinth.elapsed_ms(start, other)


def test_interprocess_events_refused_on_opencl(context2):
    device = context2.devices[0]
    with pytest.raises(plinth.LogicError, match="OpenCL has no interprocess"):
        plinth.Event.create_interprocess(device)
    queue = plinth.Queue(device)
    local = queue.record_event()
    with pytest.raises(plinth.LogicError, match="interprocess"):
        local.ipc_handle()
    with pytest.raises(plinth.LogicError, match="interprocess"):
        queue.record(local)
    handle = plinth.IpcEventHandle.from_parts("opencl", b"\x01\x02")
    with pytest.raises(plinth.LogicError):
        plinth.Event.from_ipc_handle(device, handle)


def test_multi_queue(context2):
    devices = context2.devices
    multi = plinth.MultiQueue.on_devices(devices)
    assert multi.devices == devices
    assert len(multi) == 2
    assert [q.device for q in multi] == devices
    assert multi[devices[1]] == multi.queues[1]
    multi.synchronize()
    assert "MultiQueue on devices [0 (opencl:0.0" in repr(multi)
    queues = [plinth.Queue(devices[1]), plinth.Queue(devices[0])]
    assert plinth.MultiQueue(queues).queues == queues
    one = plinth.MultiQueue(queues[:1])
    with pytest.raises(plinth.LogicError):
        one[devices[0]]
    with pytest.raises(plinth.LogicError, match="two queues"):
        plinth.MultiQueue([queues[0], plinth.Queue(devices[1])])
    with pytest.raises(plinth.LogicError, match="at least one"):
        plinth.MultiQueue([])
    with pytest.raises(plinth.LogicError, match="one context"):
        plinth.MultiQueue([queues[0], plinth.Queue(plinth.Context.from_devices(
            context2.unbound_devices).devices[0])])
    with pytest.raises(plinth.LogicError):
        plinth.MultiQueue.on_devices([])


def _holds_gil_throughout(context, wait):
    """Runs wait(queue, event) in a thread while the queue has much work, with thread
    switching only where the GIL is released (a long switch interval). Returns whether the
    main thread was kept out until the wait ended: True if `wait` held the GIL."""
    import sys
    import threading

    queue = plinth.Queue(context.devices[0])
    buffer = plinth.Buffer.allocate(context.devices[0], 1 << 26)
    for _ in range(16):
        buffer.fill(queue, b"\x07")
    event = queue.record_event()
    started = threading.Event()
    state = {"done": False}

    def worker():
        started.set()
        wait(queue, event)
        state["done"] = True

    interval = sys.getswitchinterval()
    sys.setswitchinterval(100.0)
    try:
        thread = threading.Thread(target=worker)
        thread.start()
        started.wait()
        # Here only if the worker gave up the GIL: in the wait, or at its end.
        held = state["done"]
    finally:
        sys.setswitchinterval(interval)
    thread.join()
    queue.synchronize()
    return held


@pytest.mark.parametrize("wait", [
    lambda queue, event: queue.synchronize(),
    lambda queue, event: event.wait(),
    lambda queue, event: plinth.MultiQueue([queue]).synchronize(),
    lambda queue, event: plinth.elapsed_ms(event, event),
    lambda queue, event: plinth.Buffer.allocate(queue.device, 16).get(queue),
    lambda queue, event: plinth.to_device(queue, np.zeros(4)).get(),
], ids=["Queue.synchronize", "Event.wait", "MultiQueue.synchronize", "elapsed_ms",
        "Buffer.get", "Array.get"])
def test_waits_release_the_gil(context2, wait):
    assert not _holds_gil_throughout(context2, wait)


def test_the_gil_check_can_fail(context2):
    # A wait that holds the GIL (time.sleep would release it): the check above must see it.
    def spin(queue, event):
        import time
        end = time.perf_counter() + 0.05
        while time.perf_counter() < end:
            pass

    assert _holds_gil_throughout(context2, spin)
