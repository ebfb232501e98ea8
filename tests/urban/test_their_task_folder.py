"""A folder in UrbanGround's own schema driven as one app at `sim.url`: one worker whatever eval.num_workers
says, every file routed to the evaluator their registry picks, the unknown type listed as skipped, variants
entered by their source with their conditions applied, a schedule's deadlines read from its words. And the
stand-in accepts what their AgentClient sends."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

import numpy as np

from tango.urban.city.mapstyle import ROUTE_COLOUR
from tango.urban.client import UrbanClient
from tango.urban.server.launcher import ServerProcess

SCHEDULE = "At 10 a.m. you have a meeting at the first place. At 12 noon lunch at the second. At 2:30 p.m. the third."


def _their_folder(city: Path, folder: Path) -> Path:
    """city.json, plain tasks, shipped variants with sourceTaskId and string types, a natural-language
    schedule without tango's deadline fields, and a type no evaluator of theirs takes."""
    (folder / "task").mkdir(parents=True)
    shutil.copy(city / "city.json", folder / "city.json")
    for task_id in ("LQ-000001", "SN-000001"):
        shutil.copy(city / "task" / f"{task_id}.json", folder / "task" / f"{task_id}.json")
    lq = json.loads((city / "task" / "LQ-000001.json").read_text())
    sn = json.loads((city / "task" / "SN-000001.json").read_text())
    sf = json.loads((city / "task" / "SF-000001.json").read_text())
    files = {
        "TSQ-LQ-000001": {**lq, "id": "TSQ-LQ-000001", "type": "7", "sourceTaskId": "LQ-000001"},
        "RQ-LQ-000001": {**lq, "id": "RQ-LQ-000001", "sourceTaskId": "LQ-000001"},
        "NTN-SN-000001": {**sn, "id": "NTN-SN-000001", "sourceTaskId": "SN-000001"},
        "SF-900001": {
            **sf,
            "id": "SF-900001",
            "description": SCHEDULE,
            "schedule": [{"target": stop["target"]} for stop in sf["schedule"]],
        },
        "MN-000001": {"id": "MN-000001", "type": 1, "description": "a kind their registry lacks"},
    }
    for task_id, payload in files.items():
        (folder / "task" / f"{task_id}.json").write_text(json.dumps({"task": payload}))
    return folder


def test_their_folder_runs_on_one_app_with_their_evaluators(city: Path, tmp_path: Path) -> None:
    folder = _their_folder(city, tmp_path / "build")
    app = ServerProcess(folder, log_path=tmp_path / "app.log")
    out = tmp_path / "run"
    try:
        command = [
            sys.executable,
            "-m",
            "tango.eval",
            "task=urban",
            "sim=urbanground",
            f"sim.url={app.ensure()}",
            f"urban.city_dir={folder}",
            "urban.agent=random",
            "urban.max_steps.SF=4",
            "urban.max_steps.SN=4",
            "eval.num_workers=2",
            f"eval.output_dir={out}",
            "eval.progress=false",
        ]
        run = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    finally:
        app.stop()
    assert run.returncode == 0, run.stderr[-2000:]
    logs = run.stdout + run.stderr + "".join(p.read_text() for p in out.rglob("*.log"))
    assert "1 worker(s) instead of 2: sim.url is one app" in logs
    summary = json.loads((out / "summary.json").read_text())
    assert summary["num_workers"] == 1
    assert [s["id"] for s in summary["skipped_tasks"]] == ["MN-000001"]
    records = {r["episode_id"]: r for r in map(json.loads, (out / "episodes.jsonl").read_text().splitlines())}
    evaluators = {task_id: r["extra"]["urban_evaluator"] for task_id, r in records.items()}
    assert evaluators == {
        "LQ-000001": "LandmarkQAEvaluator",
        "SN-000001": "ShortNavEvaluator",
        "TSQ-LQ-000001": "ConditionExplorationQAEvaluator",
        "RQ-LQ-000001": "RainExplorationQAEvaluator",
        "NTN-SN-000001": "ConditionShortNavEvaluator",
        "SF-900001": "ScheduleWindowNavEvaluator",
    }
    assert all(r["status"] == "ok" for r in records.values()), [r.get("error") for r in records.values()]
    assert records["SF-900001"]["extra"]["deadlines"] == ["10:00", "12:00", "14:30"]
    rain = records["RQ-LQ-000001"]["extra"]["urbanground"]
    assert rain["rain_weather_active"] and "rain_exposure_time_ratio" in rain
    assert records["NTN-SN-000001"]["extra"]["route"][0] == records["SN-000001"]["extra"]["route"][0]


def _post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as reply:
        return dict(json.loads(reply.read()))


def test_the_stand_in_takes_every_action_their_client_sends(client: UrbanClient) -> None:
    url = client.config.url
    entered = _post(f"{url}/task/enter", {"id": "SN-000001"})["task"]
    assert entered["active"] and client.state()["time"] == "10:00:00"
    client.act({"action": "set_time", "hour": 15, "minute": 0})
    client.enter_task("SN-000001")
    assert client.state()["time"] == "10:00:00"  # the clock restarts with every task
    rain = client.act({"action": "set_weather", "weather": "rain"})  # not a weather of theirs: sunny
    assert rain["state"]["weather"] == "sunny" and "sunny" in rain["action"]
    jump = client.act({"action": "sprint", "dir": "forward", "seconds": 1.0, "jump_at": 0.3})
    assert "jump at 0.3s" in jump["action"]
    client.act({"action": "open_map"})
    assert "yaw 30" in client.act({"action": "map_orbit", "yaw": 30, "pitch": 10})["action"]
    before = client.state()["time"]
    client.act({"action": "map_select", "x": 0.7, "y": 0.3})
    route = client.act({"action": "navigate"})
    assert route["action"].startswith("navigate: route drawn") and client.state()["time"] > before
    drawn = np.all(client.screenshot(fmt="png") == ROUTE_COLOUR, axis=-1).sum()
    client.act({"action": "clear_route"})
    assert drawn > 50 and np.all(client.screenshot(fmt="png") == ROUTE_COLOUR, axis=-1).sum() == 0
    here = client.state()
    teleport = client.act({"action": "teleport", "lat": here["lat"], "lon": here["lon"], "height": 9})
    assert "height 9 m" in teleport["action"]
    preflight = urllib.request.Request(f"{url}/action", method="OPTIONS")
    with urllib.request.urlopen(preflight, timeout=30) as reply:
        assert reply.status == 204 and reply.headers["Access-Control-Allow-Origin"] == "*"
        assert "POST" in reply.headers["Access-Control-Allow-Methods"]
    shots = [client._request("GET", f"/screenshot?format=png&include_ui={flag}") for flag in (1, 0)]
    assert shots[0] != shots[1]  # the panel is drawn over the frame
    client.exit_task()


def test_a_task_sets_its_conditions_when_entered(client: UrbanClient, city: Path) -> None:
    client.enter_task("SF-000001")
    schedule = client.state()["time"]
    client.enter_task("SN-000001")
    assert client.state()["time"] == "10:00:00" and schedule != "10:00:00"
    client.exit_task()
    assert client.state()["weather"] == "sunny" and not client.state()["pedestrians_active"]


def test_a_start_view_is_textured_enough_for_their_readiness_check(client: UrbanClient) -> None:
    """Their check: Canny(50, 150) edge density of the start view >= 0.010."""
    import cv2

    client.enter_task("LQ-000001")
    gray = cv2.cvtColor(client.screenshot(), cv2.COLOR_RGB2GRAY)
    assert cv2.Canny(gray, 50, 150).mean() / 255.0 >= 0.010
    client.exit_task()
