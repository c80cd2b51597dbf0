"""plinth.Context, plinth.BoundDevice and plinth.MemoryInfo."""

import gc

import numpy as np
import pytest

import plinth


pytestmark = pytest.mark.usefixtures("pocl_two_devices")


def test_from_criteria(api, context2):
    devices = api.platforms[0].devices
    assert context2.unbound_devices == devices
    assert context2.api == api
    assert context2.platform == api.platforms[0]
    assert [d.index for d in context2.devices] == [0, 1]
    all_devices = plinth.Context.from_criteria(api, devices_num=None)
    assert all_devices.unbound_devices == devices
    one = plinth.Context.from_criteria(api, False, 1, device_include_masks=["pthread"])
    assert one.unbound_devices == devices[:1]
    with pytest.raises(plinth.LogicError, match="nomatch"):
        plinth.Context.from_criteria(api, device_include_masks=["nomatch"])
    with pytest.raises(plinth.LogicError):
        plinth.Context.from_criteria(api, devices_num=3)


def test_from_devices(api):
    devices = api.platforms[0].devices
    context = plinth.Context.from_devices(devices[::-1])
    assert context.unbound_devices == devices[::-1]
    assert context.devices[0].device == devices[1]
    with pytest.raises(plinth.LogicError):
        plinth.Context.from_devices([])
    with pytest.raises(plinth.LogicError):
        plinth.Context.from_devices([devices[0], devices[0]])


def test_from_backend_devices_and_context(api, context2):
    handles = [d.handle for d in api.platforms[0].devices]
    context = plinth.Context.from_backend_devices(api, handles[1:])
    assert context.unbound_devices == api.platforms[0].devices[1:]
    with pytest.raises(plinth.LogicError):
        plinth.Context.from_backend_devices(api, [12345])
    # Wrapping context2's native context, not owning it: both see the same native context.
    wrapped = plinth.Context.from_backend_context(context2.handle, context2.unbound_devices)
    assert wrapped.handle == context2.handle
    assert wrapped != context2  # another plinth object around the same native context
    queue = plinth.Queue(wrapped.devices[1])
    host = np.arange(10, dtype=np.int16)
    np.testing.assert_array_equal(plinth.to_device(queue, host).get(), host)


def test_identity_and_handles(context2):
    assert context2 == context2.devices[0].context
    assert hash(context2) == hash(context2.devices[1].context)
    other = plinth.Context.from_devices(context2.unbound_devices)
    assert other != context2
    assert len({context2, other, context2.devices[0].context}) == 2
    assert context2 != None and context2.devices[0] != context2  # noqa: E711
    assert isinstance(context2.handle, int) and context2.handle != 0
    assert context2.native_handle(0) == context2.handle
    assert context2.native_handle(1) == context2.handle  # one cl_context for both
    with pytest.raises(plinth.LogicError):
        context2.native_handle(2)
    text = repr(context2)
    assert text.startswith("<plinth.Context ") and "opencl:0.1" in text


def test_activate(context2):
    context2.activate()
    context2.deactivate()
    with context2 as active:
        assert active == context2


def test_bound_device(context2):
    device = context2.devices[1]
    assert device.context == context2
    assert device.index == 1
    assert device.device == context2.unbound_devices[1]
    assert device.name == device.device.name
    assert device.params.global_mem_size == device.device.params.global_mem_size
    assert device.features.atomics == device.device.features.atomics
    assert device == context2.devices[1]
    assert device != context2.devices[0]
    assert hash(device) == hash(context2.devices[1])
    other = plinth.Context.from_devices(context2.unbound_devices)
    assert other.devices[1] != device  # same device, other context
    assert repr(device).startswith("<plinth.BoundDevice 1 (opencl:0.1")


def test_memory_info(context2):
    info = context2.devices[0].memory_info()
    assert info.total == context2.devices[0].params.global_mem_size
    assert info.free is None or 0 <= info.free <= info.total
    free, total = info
    assert (free, total) == (info.free, info.total)
    assert repr(info).startswith("plinth.MemoryInfo(total=")
    with pytest.raises(AttributeError):
        info.total = 1


def test_objects_keep_their_context_alive(api):
    context = plinth.Context.from_criteria(api)
    queue = plinth.Queue(context.devices[0])
    buffer = plinth.Buffer.allocate(context.devices[0], 64)
    array = plinth.to_device(queue, np.arange(16, dtype=np.float32))
    device = context.devices[0]
    del context
    gc.collect()
    buffer.set(queue, np.full(16, 7, np.int32))
    assert (buffer.get(queue).view(np.int32) == 7).all()
    del queue
    gc.collect()
    np.testing.assert_array_equal(array.get(), np.arange(16, dtype=np.float32))
    assert device.context.devices[0] == device
