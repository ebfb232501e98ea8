"""The stand-in server speaks UrbanGround's documented API: endpoints, JSON shapes, action semantics, view
modes, screenshots, tasks with their markers and closures, and conditions that change what the camera sees."""

from __future__ import annotations

import base64
import json
import urllib.request

import numpy as np
import pytest

from tango.urban.client import AuthError, ClientConfig, RequestRefused, UrbanClient, decode_image
from tango.urban.server.http import ServerConfigError, check_loopback
from tango.urban.server.launcher import ServerProcess

STATE_FIELDS = {
    "mode",
    "lat",
    "lon",
    "alt",
    "yaw",
    "pitch",
    "surface",
    "on_sidewalk",
    "time",
    "weather",
    "weather_label",
    "pedestrians_active",
    "pedestrian_count",
    "is_raining",
    "rain_intensity",
    "being_rained_on",
    "has_overhead_shelter",
    "rain_hits",
    "rain_exposure_seconds",
    "pedestrian_collisions",
    "building_collisions",
    "stats_tracked_seconds",
    "tiles_progress",
    "tiles_settled",
    "idle",
}


def test_health_and_state_have_every_documented_field(client: UrbanClient) -> None:
    health = client.health()
    assert health["ok"] is True and "/action" in health["endpoints"]
    assert STATE_FIELDS <= set(client.state())


def test_an_action_reply_has_ok_label_and_the_post_action_state(client: UrbanClient) -> None:
    client.enter_task("SN-000001")
    before = client.state()
    reply = client.act({"action": "look", "yaw": 30, "pitch": 0})
    assert reply["ok"] is True and reply["action"].startswith("look")
    assert reply["state"]["yaw"] == pytest.approx((before["yaw"] + 30) % 360, abs=1e-3)
    moved = client.act({"action": "sprint", "dir": "forward", "seconds": 2})["state"]
    assert moved["time"] != before["time"]  # the clock advanced by the action's time
    assert abs(moved["lat"] - before["lat"]) + abs(moved["lon"] - before["lon"]) > 0


def test_map_actions_need_map_mode_and_the_map_has_its_own_screenshot(client: UrbanClient) -> None:
    client.enter_task("SN-000001")
    with pytest.raises(RequestRefused, match="open_map first"):
        client.act({"action": "map_pan", "east": 10, "north": 0})
    view = client.screenshot()
    client.act({"action": "open_map"})
    assert client.state()["mode"] == "map"
    with pytest.raises(RequestRefused, match="close_map first"):
        client.act({"action": "move", "dir": "forward", "seconds": 1})
    selected = client.act({"action": "map_select", "x": 0.5, "y": 0.5})["action"]
    assert selected.startswith("map_select: 22.") and "Footway" in selected or "Forecourt" in selected
    plan = client.screenshot(fmt="png")
    assert plan.shape == view.shape and not np.array_equal(plan, view)
    client.act({"action": "close_map"})


def test_screenshots_decode_at_the_requested_size_and_images_ride_on_actions(client: UrbanClient) -> None:
    assert client.screenshot(320, 240).shape == (240, 320, 3)
    reply = client.act({"action": "jump"}, image=True)
    header, payload = reply["image"].split(",", 1)
    assert header == "data:image/jpeg;base64" and decode_image(base64.b64decode(payload)).shape == (
        480,
        640,
        3,
    )


def test_task_reports_labelled_end_points_and_closures_in_effect(client: UrbanClient, city) -> None:
    info = client.enter_task("CN-000001")["task"]
    assert info["type"] == 11 and info["restricted_zones"] == 1
    expected = json.loads((city / "task" / "CN-000001.json").read_text())["endPoint"]
    assert info["end_points"][0]["label"] == expected["label"]
    assert info["end_points"][0]["lat"] == pytest.approx(expected["lat"], abs=1e-7)
    implicit = client.enter_task("II-000001")["task"]
    assert implicit["end_points"] == []  # the place an implicit need implies is not pinned on the map
    client.exit_task()
    assert client.task() == {"active": False}


def test_a_dynamic_closure_appears_after_30_s_of_simulation_time(client: UrbanClient) -> None:
    assert client.enter_task("DCR-000001")["task"]["restricted_zones"] == 0
    for _ in range(15):
        client.act({"action": "look", "yaw": 10, "pitch": 0})  # 0.3 s each
    assert client.task()["restricted_zones"] == 0
    for _ in range(15):
        client.act({"action": "move", "dir": "backward", "seconds": 2})
    assert client.task()["restricted_zones"] == 1


def test_night_and_rain_change_what_the_camera_sees(client: UrbanClient) -> None:
    client.enter_task("SN-000001")
    client.act({"action": "set_time", "hour": 12, "minute": 0})
    client.act({"action": "set_weather", "weather": "sunny"})
    day = client.screenshot().astype(np.float32)
    client.act({"action": "set_time", "hour": 23, "minute": 30})
    night = client.screenshot().astype(np.float32)
    client.act({"action": "set_time", "hour": 12, "minute": 0})
    client.act({"action": "set_weather", "weather": "rainy"})
    rain = client.screenshot().astype(np.float32)
    assert night.mean() < 0.5 * day.mean()
    assert np.abs(rain - day).mean() > 10 and client.state()["is_raining"] is True
    client.act({"action": "set_weather", "weather": "sunny"})


def test_pedestrians_walk_and_show_up_in_state(client: UrbanClient) -> None:
    client.enter_task("SN-000001")
    state = client.act({"action": "enable_pedestrians"})["state"]
    assert state["pedestrians_active"] is True and state["pedestrian_count"] > 0
    assert client.act({"action": "disable_pedestrians"})["state"]["pedestrian_count"] == 0


def test_unknown_routes_bad_json_and_the_runner_only_terminate_are_refused(
    client: UrbanClient, server
) -> None:
    with pytest.raises(RequestRefused, match="terminate is the runner's signal"):
        client.act({"action": "terminate"})
    with pytest.raises(RequestRefused, match="unknown action 'fly'"):
        client.act({"action": "fly"})
    request = urllib.request.Request(f"{server.url}/action", data=b"{not json", method="POST")
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(request, timeout=10)
    assert caught.value.code == 400
    with pytest.raises(RequestRefused, match="HTTP 404"):
        client._json("GET", "/nowhere")


def test_the_server_binds_loopback_only() -> None:
    check_loopback("127.0.0.1")
    check_loopback("localhost")
    with pytest.raises(ServerConfigError, match="loopback only"):
        check_loopback("0.0.0.0")


def test_a_token_is_checked_when_set(city, tmp_path) -> None:
    process = ServerProcess(city, token="s3cret", log_path=tmp_path / "log")
    url = process.start()
    try:
        assert UrbanClient(ClientConfig(url, token="s3cret")).health()["ok"]
        for token in ("", "wrong"):
            with pytest.raises(AuthError, match=r"HTTP 401 .*check sim.token"):
                UrbanClient(ClientConfig(url, token=token, retries=0)).state()
    finally:
        process.stop()
