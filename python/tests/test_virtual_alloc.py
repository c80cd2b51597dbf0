"""The virtual allocation managers (grunnur's virtual_alloc)."""

import gc

import numpy as np
import pytest

import plinth


pytestmark = pytest.mark.usefixtures("pocl_two_devices")


def test_zero_offset_manager_shares_and_packs(context2):
    device = context2.devices[0]
    queue = plinth.Queue(device)
    manager = plinth.ZeroOffsetManager(device)
    assert manager.device == device
    a = manager.allocator()(device, 100)
    b = manager.allocator(a)(device, 100)  # must not share with a
    c = manager.allocator()(device, 50)  # may share with a or b
    assert isinstance(a, plinth.Buffer) and a.size == 100
    stats = manager.statistics()
    assert stats.virtual_num == 3 and stats.virtual_size_total == 250
    assert stats.virtual_sizes == {50: 1, 100: 2}
    assert stats.real_num == 2 and stats.real_size_total == 200
    assert stats.real_sizes == {100: 2}
    assert str(stats) == repr(stats)
    assert str(stats).startswith("VirtualAllocationStatistics(real: 2 allocs, total size 200b")
    assert stats == manager.statistics()
    # writing b never changes its dependency a
    a.set(queue, np.full(100, 1, np.uint8))
    b.set(queue, np.full(100, 2, np.uint8))
    assert (a.get(queue) == 1).all()
    del c
    gc.collect()
    assert manager.statistics().virtual_num == 2
    manager.pack(queue, keep=[a, b])
    assert (a.get(queue) == 1).all() and (b.get(queue) == 2).all()
    assert "ZeroOffsetManager" in repr(manager)


def test_trivial_manager_shares_nothing(context2):
    device = context2.devices[1]
    manager = plinth.TrivialManager(device)
    buffers = [manager.allocator()(device, 64) for _ in range(3)]
    stats = manager.statistics()
    assert stats.real_num == 3 and stats.real_size_total == 192
    manager.pack(plinth.Queue(device))
    assert manager.statistics() == stats
    assert "TrivialManager" in repr(manager)
    del buffers
    gc.collect()
    assert manager.statistics().real_num == 0


def test_dependencies_of_every_kind(context2):
    devices = context2.devices
    manager = plinth.ZeroOffsetManager(devices[0])
    queue = plinth.Queue(devices[0])
    buffer = manager.allocator()(devices[0], 16)
    multi = plinth.MultiArray.empty(devices[:1], 8, np.float32, allocator=manager.allocator())
    part = multi.part(queue)  # an Array on a virtual buffer
    nested = manager.allocator([buffer, (part, [multi])])(devices[0], 32)
    assert manager.statistics().real_num == 3  # shares with neither
    del nested
    with pytest.raises(TypeError, match="virtual dependency"):
        manager.allocator(3)


def test_errors(context2):
    devices = context2.devices
    manager = plinth.ZeroOffsetManager(devices[0])
    allocate = manager.allocator()
    with pytest.raises(plinth.LogicError):
        allocate(devices[1], 16)  # another device
    with pytest.raises(plinth.LogicError):
        allocate(devices[0], 0)
    plain = plinth.Buffer.allocate(devices[0], 16)
    with pytest.raises(plinth.LogicError):
        manager.allocator(plain)
    other = plinth.ZeroOffsetManager(devices[0])
    with pytest.raises(plinth.LogicError):
        manager.allocator(other.allocator()(devices[0], 8))
    with pytest.raises(plinth.LogicError):
        manager.pack(plinth.Queue(devices[1]))
    with pytest.raises(plinth.LogicError):
        manager.allocator(manager.allocator()(devices[0], 8).get_sub_region(0, 4))
    with pytest.raises(TypeError):
        plinth.VirtualManager(devices[0])  # abstract: the two managers only
