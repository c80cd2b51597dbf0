"""plinth.Communicator on PoCL's two devices (plinth's own engine), CommunicatorId and
plinth.MultiArray."""

import numpy as np
import pytest

import plinth


pytestmark = pytest.mark.usefixtures("pocl_two_devices")

N = 6


@pytest.fixture
def queues(context2):
    return plinth.MultiQueue.on_devices(context2.devices)


@pytest.fixture
def comm(queues):
    return plinth.Communicator(queues)


def per_rank(queues, dtype=np.float32):
    """Rank r's part holds r * 10 + [1 .. N] (an EqualSplay of a (ranks, N) array)."""
    host = (np.arange(2)[:, None] * 10 + np.arange(1, N + 1)).astype(dtype)
    return plinth.MultiArray.from_host(queues, host, plinth.EqualSplay()), host


def test_describes_itself(api, comm, queues):
    support = plinth.collectives_support(api)
    assert support.library is False and support.description
    assert "library=False" in repr(support)
    assert comm.size == len(comm) == 2
    assert comm.ranks == [0, 1]
    assert comm.queues.queues == queues.queues
    assert comm.engine == "plinth copies and kernels"
    assert repr(comm) == "<plinth.Communicator 2 of 2 ranks here, plinth copies and kernels>"


@pytest.mark.parametrize("op, reference", [
    (plinth.ReduceOp.sum, np.sum), (plinth.ReduceOp.prod, np.prod),
    (plinth.ReduceOp.min, np.min), (plinth.ReduceOp.max, np.max)])
def test_all_reduce(comm, queues, op, reference):
    src, host = per_rank(queues)
    dst = plinth.MultiArray.empty(queues.devices, (2, N), np.float32)
    comm.all_reduce(src, dst, op)
    queues.synchronize()
    expected = reference(host, axis=0)
    np.testing.assert_allclose(dst.get(queues), np.stack([expected, expected]))
    comm.all_reduce(src, op=op)  # in place
    queues.synchronize()
    np.testing.assert_allclose(src.get(queues), np.stack([expected, expected]))


def test_all_reduce_in_place_positional_and_avg(comm, queues):
    src, host = per_rank(queues, np.int32)
    comm.all_reduce(src, plinth.ReduceOp.avg)
    queues.synchronize()
    expected = host.sum(axis=0) // 2
    np.testing.assert_array_equal(src.get(queues), np.stack([expected, expected]))


def test_reduce(comm, queues):
    src, host = per_rank(queues)
    dst = plinth.MultiArray.from_host(queues, np.full((2, N), -1, np.float32))
    comm.reduce(src, dst, plinth.ReduceOp.max, root=1)
    queues.synchronize()
    back = dst.get(queues)
    np.testing.assert_array_equal(back[0], np.full(N, -1))  # not written
    np.testing.assert_array_equal(back[1], host.max(axis=0))


def test_broadcast(comm, queues):
    src, host = per_rank(queues)
    dst = plinth.MultiArray.empty(queues.devices, (2, N), np.float32)
    comm.broadcast(src, dst, root=1)
    queues.synchronize()
    np.testing.assert_array_equal(dst.get(queues), np.stack([host[1], host[1]]))
    comm.broadcast(src, 0)  # in place
    queues.synchronize()
    np.testing.assert_array_equal(src.get(queues), np.stack([host[0], host[0]]))


def test_all_gather_and_reduce_scatter(comm, queues):
    src, host = per_rank(queues)
    gathered = plinth.MultiArray.empty(queues.devices, (2, 2 * N), np.float32)
    comm.all_gather(src, gathered)
    queues.synchronize()
    np.testing.assert_array_equal(gathered.get(queues), np.stack([host.ravel()] * 2))
    scattered = plinth.MultiArray.empty(queues.devices, (2, N), np.float32)
    comm.reduce_scatter(gathered, scattered)  # sum of both ranks' (2 N): 2 * host
    queues.synchronize()
    np.testing.assert_array_equal(scattered.get(queues), 2 * host)


def test_collective_errors(comm, queues, context2):
    src, _ = per_rank(queues)
    small = plinth.MultiArray.empty(queues.devices, (2, N - 1), np.float32)
    with pytest.raises(plinth.LogicError):
        comm.all_reduce(src, small)
    other_dtype = plinth.MultiArray.empty(queues.devices, (2, N), np.int32)
    with pytest.raises(plinth.LogicError, match="dtype|int32"):
        comm.all_reduce(src, other_dtype)
    with pytest.raises(plinth.LogicError):
        comm.broadcast(src, 2)  # no rank 2
    booleans = plinth.MultiArray.empty(queues.devices, (2, N), np.bool_)
    with pytest.raises(plinth.LogicError, match="bool"):
        comm.all_reduce(booleans, plinth.ReduceOp.sum)
    array = plinth.to_device(queues.queues[0], np.zeros(N, np.float32))
    with pytest.raises(plinth.LogicError):
        comm.all_reduce(array)  # two ranks here: the Array form does not apply
    with pytest.raises(TypeError):
        comm.all_reduce(np.zeros(N, np.float32))
    with pytest.raises(plinth.LogicError):
        plinth.Communicator(plinth.MultiQueue([queues.queues[0]])).all_reduce(
            plinth.to_device(queues.queues[1], np.zeros(N, np.float32)))


def test_array_forms_with_one_rank(context2):
    queue = plinth.Queue(context2.devices[1])
    comm = plinth.Communicator(plinth.MultiQueue([queue]))
    assert comm.size == 1 and comm.ranks == [0]
    host = np.arange(N, dtype=np.float32)
    src = plinth.to_device(queue, host)
    dst = plinth.to_device(queue, np.zeros(N, np.float32))
    comm.all_reduce(src, dst, plinth.ReduceOp.sum)
    comm.reduce(src, dst, plinth.ReduceOp.max, 0)
    comm.broadcast(src, dst, 0)
    comm.broadcast(src, 0)
    comm.all_reduce(src)
    comm.all_gather(src, dst)
    comm.reduce_scatter(src, dst)
    queue.synchronize()
    np.testing.assert_array_equal(dst.get(), host)
    np.testing.assert_array_equal(src.get(), host)


def test_communicator_id():
    id_ = plinth.CommunicatorId.from_bytes("cuda", bytes(range(128)))
    assert id_.api_shortcut == "cuda"
    assert id_.bytes == bytes(id_) == bytes(range(128))
    text = str(id_)
    assert text == id_.to_string() and text.startswith("cuda:000102")
    assert plinth.CommunicatorId.from_string(text) == id_
    assert hash(plinth.CommunicatorId.from_string(text)) == hash(id_)
    assert eval(repr(id_), {"plinth": plinth}) == id_
    with pytest.raises(plinth.LogicError):
        plinth.CommunicatorId.from_string("cuda:xyz")
    with pytest.raises(plinth.LogicError):
        plinth.CommunicatorId.from_bytes("cuda", b"")
    with pytest.raises(plinth.LogicError):
        plinth.CommunicatorId.from_bytes("cuda", bytes(4097))


def test_no_library_on_opencl(api, queues):
    with pytest.raises(plinth.LogicError, match="needs a collectives library"):
        plinth.CommunicatorId.create(api)
    id_ = plinth.CommunicatorId.from_bytes("opencl", b"\x01")
    with pytest.raises(plinth.LogicError):
        plinth.Communicator.join(queues.queues[0], id_, 2, 0)


def test_multi_array(queues, context2):
    host = np.arange(12, dtype=np.int16).reshape(4, 3)
    array = plinth.MultiArray.from_host(queues, host)
    assert array.shape == (4, 3) and array.dtype == np.int16
    assert array.devices == context2.devices
    assert array.shapes == [(2, 3), (2, 3)]
    np.testing.assert_array_equal(array.get(queues), host)
    part = array.part(queues.queues[1])
    assert part.queue == queues.queues[1] and part.device == context2.devices[1]
    np.testing.assert_array_equal(part.get(), host[2:])
    cloned = array.resplay(queues, plinth.CloneSplay())
    assert cloned.shapes == [(4, 3), (4, 3)]
    np.testing.assert_array_equal(cloned.part(queues.queues[0]).get(), host)
    array.set(queues, host * 2)
    np.testing.assert_array_equal(array.get(queues), host * 2)
    copy = plinth.MultiArray.empty(context2.devices, (4, 3), np.int16)
    copy.set(queues, array)
    np.testing.assert_array_equal(copy.get(queues), host * 2)
    assert repr(array) == "<plinth.MultiArray shape=(4, 3) dtype=int16 on 2 devices>"
    with pytest.raises(plinth.LogicError):
        array.set(queues, np.zeros((3, 3), np.int16))
    with pytest.raises(plinth.LogicError):
        plinth.MultiArray.empty(context2.devices, (1, 3), np.int16)  # 2 devices, 1 row
    with pytest.raises(plinth.LogicError):
        array.get(plinth.MultiQueue([queues.queues[0]]))
    allocations = []

    def allocator(device, size):
        allocations.append(size)
        return plinth.Buffer.allocate(device, size)

    plinth.MultiArray.empty(context2.devices, (4, 3), np.int16, allocator=allocator)
    assert allocations == [12, 12]
