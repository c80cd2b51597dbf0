"""Fixtures shared by plinth's Python tests: the default API, a context and a queue on it, and
for the tests written for CI's two PoCL devices, the guard that skips them elsewhere and a
context of both devices."""

import pytest

import plinth


@pytest.fixture(scope="session")
def api():
    return plinth.API.from_env()


@pytest.fixture(scope="session")
def context(api):
    return plinth.Context.from_criteria(api)


@pytest.fixture
def queue(context):
    return plinth.Queue(context.devices[0])


@pytest.fixture(scope="session")
def pocl_two_devices(api):
    """Skips tests written for CI's PoCL with two devices (POCL_DEVICES="pthread pthread")
    elsewhere (e.g. where PLINTH_API chooses CUDA). A module opts in with
    `pytestmark = pytest.mark.usefixtures("pocl_two_devices")`."""
    if api.shortcut != "opencl" or len(api.platforms[0].devices) != 2:
        pytest.skip("written for PoCL with two devices")


@pytest.fixture(scope="session")
def context2(api, pocl_two_devices):
    """A context of PoCL's two devices."""
    return plinth.Context.from_criteria(api, devices_num=2)
