"""Errors are results: a server killed mid-episode makes that episode an error with its reason, the run goes on
on a restarted server, and a resume with eval.retry_errors completes it; an unreachable app, a wrong token and
a malformed task file stop a run with one clear line."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tango.harness.run import RunError, run_evaluation
from tango.urban.episode import UrbanEpisode
from tango.urban.server.launcher import ServerProcess


def config(out: Path, city: Path, **urban: Any) -> dict[str, Any]:
    return {
        "eval": {
            "output_dir": str(out),
            "num_episodes": -1,
            "num_workers": 1,
            "progress": False,
            "report": True,
        },
        "task": {"name": "urban", "plugin": "tango.urban.runner:UrbanTaskPlugin", "success_distance": 15.0},
        "urban": {"city_dir": str(city), "kinds": ["SN"], **urban},
        "sim": {"url": "", "token": ""},
        "generator": {"name": "template"},
    }


def test_a_server_killed_mid_episode_is_that_episodes_error_and_resume_completes_it(
    city: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    small = tmp_path / "city"
    shutil.copytree(city, small)
    for path in (small / "task").glob("*.json"):  # two short navigations: SN and its rain variant
        if not path.name.startswith(("SN-", "RN-")):
            path.unlink()
    started: list[ServerProcess] = []
    original_start, original_act = ServerProcess.start, UrbanEpisode.act

    def start(self: ServerProcess) -> str:
        started.append(self)
        return original_start(self)

    def act(self: UrbanEpisode, action: Any) -> Any:
        if self.task.id == "SN-000001" and self.steps == 2 and len(started) == 1:
            assert started[-1].process is not None
            started[-1].process.kill()
            started[-1].process.wait()
        return original_act(self, action)

    monkeypatch.setattr(ServerProcess, "start", start)
    monkeypatch.setattr(UrbanEpisode, "act", act)
    out = tmp_path / "run"
    cfg = config(out, small, kinds=["SN", "RN"])
    summary = run_evaluation(cfg).summary
    records = {r["episode_id"]: r for r in map(json.loads, (out / "episodes.jsonl").read_text().splitlines())}
    killed = records["SN-000001"]
    assert killed["status"] == "error" and killed["metrics"] == {"success": 0.0}
    assert (
        "ServerUnreachable" in killed["failure_reason"] and "connection refused" in killed["failure_reason"]
    )
    assert records["RN-SN-000001"]["status"] == "ok" and len(started) == 2  # the run went on, on a new server
    assert summary["num_errors"] == 1 and summary["num_episodes"] == 2
    cfg["eval"]["retry_errors"] = True
    summary = run_evaluation(cfg).summary
    lines = (out / "episodes.jsonl").read_text().splitlines()
    assert len(lines) == 2 and summary["num_errors"] == 0
    assert {json.loads(line)["episode_id"]: json.loads(line)["status"] for line in lines}["SN-000001"] == "ok"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_an_unreachable_app_stops_the_run_with_one_line(city: Path, tmp_path: Path) -> None:
    cfg = config(tmp_path / "run", city)
    cfg["sim"] = {"url": f"http://127.0.0.1:{_free_port()}", "token": ""}
    cfg["urban"]["retries"] = 0
    with pytest.raises(
        RunError, match=r"^urban: GET http://127.0.0.1:\d+/health: connection refused"
    ) as caught:
        run_evaluation(cfg)
    assert "\n" not in str(caught.value) and "check sim.url" in str(caught.value)


def test_a_wrong_token_stops_the_run_with_one_line(city: Path, tmp_path: Path) -> None:
    process = ServerProcess(city, token="right", log_path=tmp_path / "log")
    cfg = config(tmp_path / "run", city)
    cfg["sim"] = {"url": process.start(), "token": "wrong"}
    try:
        with pytest.raises(RunError, match=r"HTTP 401 missing or wrong bearer token \(check sim.token\)"):
            run_evaluation(cfg)
    finally:
        process.stop()


def test_a_malformed_task_file_stops_the_run_naming_file_and_field(city: Path, tmp_path: Path) -> None:
    broken = tmp_path / "city"
    shutil.copytree(city, broken)
    path = broken / "task" / "SN-000001.json"
    payload = json.loads(path.read_text())
    payload["endPoint"] = {"lat": "north"}
    path.write_text(json.dumps(payload))
    with pytest.raises(RunError, match=r"SN-000001.json: field 'endPoint': GeoPoint without 'lon'"):
        run_evaluation(config(tmp_path / "run", broken))


def test_the_cli_prints_the_one_line_and_exits_2(city: Path, tmp_path: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "tango.eval",
            "task=urban",
            f"urban.city_dir={city}",
            "urban.retries=0",
            f"sim.url=http://127.0.0.1:{_free_port()}",
            f"eval.output_dir={tmp_path / 'run'}",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 2
    assert "connection refused" in output and "Traceback" not in output


def test_a_stand_in_server_exits_when_the_process_that_started_it_ends_without_stopping_it(
    city: Path,
) -> None:
    """Pool workers end without closing their runner (and os._exit skips cleanup): the server must not outlive
    them, holding ~400 MB and a port."""
    script = (
        "import os, sys\n"
        "from tango.urban.server.launcher import ServerProcess\n"
        "server = ServerProcess(sys.argv[1])\n"
        "server.start()\n"
        "print(server.process.pid, flush=True)\n"
        "os._exit(0)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(city)], capture_output=True, text=True, timeout=240, check=True
    )
    server_pid = int(done.stdout.split()[-1])
    deadline = time.monotonic() + 10.0
    while time.monotonic() < deadline and _running(server_pid):
        time.sleep(0.2)
    assert not _running(server_pid), f"the stand-in server {server_pid} outlived the process that started it"


def _running(pid: int) -> bool:
    """Whether `pid` is a live process (a zombie awaiting its reaper counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"
