"""plinth.HostRegistration on CUDA (skips without it; OpenCL's refusal is in test_buffers.py)."""

import numpy as np
import pytest

import plinth


def _cuda_context():
    try:
        api = plinth.API.from_api_id("cuda")
    except plinth.PluginError:
        pytest.skip("needs a CUDA device")
    return plinth.Context.from_criteria(api)


def test_host_registration_on_cuda():
    context = _cuda_context()
    queue = plinth.Queue(context.devices[0])
    host = np.arange(1 << 16, dtype=np.float32)
    registration = plinth.HostRegistration(context, host)
    assert registration and registration.nbytes == host.nbytes
    assert registration.array is host
    assert repr(registration) == "<plinth.HostRegistration of 262144 bytes>"
    array = plinth.to_device(queue, host)
    np.testing.assert_array_equal(array.get(), host)
    with pytest.raises(plinth.BackendError):
        plinth.HostRegistration(context, host)  # registered already
    registration.reset()
    assert not registration and registration.nbytes == 0
    registration.reset()  # a no-op
    memory = bytearray(1 << 16)
    with plinth.HostRegistration(context, memory) as held:
        assert held
        with pytest.raises(BufferError):
            memory.extend(b"x")  # exported while registered
    assert not held
    memory.extend(b"x")
