"""plinth.API, plinth.Platform, plinth.Device and the selection functions."""

import pytest

import plinth


pytestmark = pytest.mark.usefixtures("pocl_two_devices")


def test_api(api):
    assert api.shortcut == "opencl"
    assert api.name == "OpenCL"
    assert api.abi_minor >= 0
    assert api.id == plinth.APIID("opencl")
    assert api.id.shortcut == "opencl"
    assert plinth.APIID("opencl") in plinth.all_api_ids()
    assert repr(api) == "<plinth.API opencl>"
    assert repr(api.id) == "plinth.APIID('opencl')"


def test_api_constructors_agree(api):
    assert plinth.API.from_api_id(plinth.APIID("opencl")) == api
    assert plinth.API.from_api_id("opencl") == api  # a shortcut string converts
    assert api in plinth.API.all_available()
    assert plinth.API.all_by_shortcut("opencl") == [api]
    assert plinth.API.all_by_shortcut() == plinth.API.all_available()
    assert hash(plinth.API.from_env()) == hash(api)
    assert len({api, plinth.API.from_env()}) == 1
    assert api != None and api != "opencl"  # noqa: E711 (other types compare unequal)
    assert api.platforms[0] != api and api.platforms[0].devices[0] != None  # noqa: E711


def test_unknown_api_is_a_plugin_error():
    with pytest.raises(plinth.PluginError, match="no_such_api"):
        plinth.API.from_api_id("no_such_api")
    with pytest.raises(plinth.PluginError, match="no_such_api"):
        plinth.API.all_by_shortcut("no_such_api")


def test_platforms(api):
    platforms = plinth.Platform.all(api)
    assert platforms == api.platforms
    platform = platforms[0]
    assert platform == plinth.Platform.from_index(api, 0)
    assert hash(platform) == hash(plinth.Platform.from_index(api, 0))
    assert platform.api == api
    assert platform.index == 0
    assert "Portable Computing Language" in platform.name
    assert platform.vendor
    assert platform.version.startswith("OpenCL")
    assert isinstance(platform.handle, int) and platform.handle != 0
    assert plinth.Platform.from_backend_platform(api, platform.handle) == platform
    assert repr(platform).startswith("<plinth.Platform opencl:0 ")


def test_platform_filters(api):
    assert plinth.Platform.all(api, include_masks=["Portable"]) == api.platforms
    assert plinth.Platform.all(api, include_masks=["portable"]) == []  # case-sensitive
    assert plinth.Platform.all(api, exclude_masks=["Comput"]) == []
    with pytest.raises(plinth.LogicError, match=r"\(unclosed"):
        plinth.Platform.all(api, include_masks=["(unclosed"])


def test_platform_index_out_of_range(api):
    with pytest.raises(plinth.LogicError, match="out of range|index"):
        plinth.Platform.from_index(api, 100)
    with pytest.raises(plinth.LogicError):
        plinth.Platform.from_backend_platform(api, 12345)


def test_devices(api):
    platform = api.platforms[0]
    devices = platform.devices
    assert len(devices) == 2  # POCL_DEVICES="pthread pthread"
    assert devices == plinth.Device.all(platform)
    device = devices[1]
    assert device == plinth.Device.from_index(platform, 1)
    assert device != devices[0]
    assert len({devices[0], devices[1], plinth.Device.from_index(platform, 1)}) == 2
    assert device.platform == platform
    assert device.api == api
    assert device.index == 1
    assert device.name.startswith("pthread")
    assert device.full_name == f"opencl:0.1 {device.name}"
    assert repr(device) == f"<plinth.Device {device.full_name}>"
    assert isinstance(device.handle, int)
    assert plinth.Device.from_backend_device(api, device.handle) == device
    assert isinstance(device.compiler_identity, str)
    with pytest.raises(plinth.LogicError):
        plinth.Device.from_index(platform, 2)
    with pytest.raises(plinth.LogicError):
        plinth.Device.from_backend_device(api, 1)


def test_device_parameters(api):
    params = api.platforms[0].devices[0].params
    assert params.type == plinth.DeviceType.cpu
    assert params.compute_units >= 1
    assert params.local_mem_banks >= 1
    assert params.local_mem_size > 0
    assert isinstance(params.max_local_sizes, tuple) and len(params.max_local_sizes) == 3
    assert isinstance(params.max_num_groups, tuple) and len(params.max_num_groups) == 3
    assert params.max_total_local_size >= 1
    assert params.warp_size >= 1
    assert params.global_mem_size > 0
    assert params.address_alignment >= 1
    assert isinstance(params.supports_double, bool)
    assert params.compute_capability == ""
    assert params.driver_version
    assert "cpu" in repr(params)
    with pytest.raises(AttributeError):
        params.compute_units = 3  # read-only


def test_device_features(api):
    features = api.platforms[0].devices[0].features
    assert features.atomics is True
    for name in ("int64_atomics", "double_atomics", "native_float_atomic_add",
                 "native_double_atomic_add", "device_scope_acquire_release",
                 "native_sub_groups", "sub_group_independent_forward_progress"):
        assert isinstance(getattr(features, name), bool)
    assert isinstance(features.sub_group_sizes, tuple) and len(features.sub_group_sizes) >= 1
    assert "atomics=True" in repr(features)
    with pytest.raises(AttributeError):
        features.atomics = False


def test_device_filters(api):
    platform = api.platforms[0]
    assert plinth.Device.all(platform, include_masks=["pthread"]) == platform.devices
    assert plinth.Device.all(platform, include_masks=["PTHREAD"]) == []
    assert plinth.Device.all(platform, exclude_masks=["thread"]) == []
    assert plinth.Device.all(platform, unique_only=True) == platform.devices[:1]
    assert plinth.Device.all(platform, exclude_pure_parallel=True) == platform.devices
    with pytest.raises(plinth.LogicError, match=r"\[bad"):
        plinth.Device.all(platform, include_masks=["[bad"])


def test_platforms_and_devices_by_mask(api):
    [(platform, devices)] = plinth.platforms_and_devices_by_mask(api, 2)
    assert platform == api.platforms[0]
    assert devices == platform.devices
    assert plinth.platforms_and_devices_by_mask(api, 3) == []
    assert plinth.platforms_and_devices_by_mask(api, None)[0][1] == platform.devices
    assert plinth.platforms_and_devices_by_mask(
        api, 1, platform_exclude_masks=["Portable"]) == []
    assert plinth.platforms_and_devices_by_mask(
        api, 1, unique_devices_only=True)[0][1] == platform.devices[:1]
    with pytest.raises(plinth.LogicError, match=r"\(x"):
        # invalid even though no platform is left to match it against
        plinth.platforms_and_devices_by_mask(
            api, platform_exclude_masks=["Portable"], device_include_masks=["(x"])


def test_select_devices(api):
    devices = api.platforms[0].devices
    assert plinth.select_devices(api) == devices[:1]
    assert plinth.select_devices(api, quantity=2) == devices
    assert plinth.select_devices(api, quantity=None) == devices
    with pytest.raises(plinth.LogicError, match="nomatch"):
        plinth.select_devices(api, device_include_masks=["nomatch"])
    with pytest.raises(TypeError):
        plinth.select_devices(api, False, 1, ["pthread"])  # filters are keywords only


def test_devices_from_spec(api, monkeypatch):
    devices = api.platforms[0].devices
    assert plinth.devices_from_spec(api, "opencl:1") == devices[1:]
    assert plinth.devices_from_spec(api, "opencl:0,1") == devices
    assert plinth.devices_from_spec(api, "cuda:0") is None
    with pytest.raises(plinth.LogicError):
        plinth.devices_from_spec(api, "opencl:7")
    with pytest.raises(plinth.LogicError):
        plinth.devices_from_spec(api, "opencl:")
    monkeypatch.delenv("PLINTH_DEVICE", raising=False)
    assert plinth.devices_from_env(api) is None
    monkeypatch.setenv("PLINTH_DEVICE", "opencl:1")
    assert plinth.devices_from_env(api) == devices[1:]
    # PLINTH_DEVICE decides Context.from_criteria when no filter is given, as in C++
    assert plinth.Context.from_criteria(api).unbound_devices == devices[1:]
    assert plinth.Context.from_criteria(
        api, device_include_masks=["pthread"]).unbound_devices == devices[:1]


def test_interactive_selection_reads_stdin():
    import os
    import re
    import subprocess
    import sys

    script = ("import plinth; api = plinth.API.from_env(); "
              "print('chose', plinth.select_devices(api, interactive=True)[0].index); "
              "print('chose', "
              "plinth.Context.from_criteria(api, interactive=True).unbound_devices[0].index)")
    result = subprocess.run([sys.executable, "-u", "-c", script], input="1\n5\n\n", text=True,
                            capture_output=True, env=os.environ, timeout=60, check=True)
    assert "there is no device 5" in result.stdout
    assert re.findall(r"chose (\d)", result.stdout) == ["1", "0"]
    with pytest.raises(subprocess.CalledProcessError) as failure:
        subprocess.run([sys.executable, "-u", "-c", script], input="", text=True,
                       capture_output=True, env=os.environ, timeout=60, check=True)
    assert "LogicError" in failure.value.stderr
