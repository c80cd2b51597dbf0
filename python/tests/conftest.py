"""Fixtures shared by plinth's Python tests: the default API, a context and a queue on it."""

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
