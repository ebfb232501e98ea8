"""Stand-in server latency: `python scripts/bench.py urban [--actions N] [--city DIR]`.

Starts `python -m tango.urban.server` on a free port (over the default city folder unless --city), enters a
ShortNav task and times N rounds of one action (alternately a 0.5 s sprint and a 20-degree look) followed by
a 640x480 JPEG screenshot, then N actions with the image in the reply (`?image=1`), then N/4 one-second actions
with frames sampled every 0.25 s in the reply (`?interval=0.25`). Reports wall rates and the
server process's CPU time per round (utime + stime from /proc), which is what a loaded machine cannot hide.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path


def _cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main(argv: list[str]) -> int:
    from tango.urban.client import ClientConfig, UrbanClient
    from tango.urban.config import UrbanConfig
    from tango.urban.runner import city_dir
    from tango.urban.server.launcher import ServerProcess

    parser = argparse.ArgumentParser(prog="scripts/bench.py urban")
    parser.add_argument("--actions", type=int, default=200)
    parser.add_argument("--city", default="")
    args = parser.parse_args(argv)
    folder = Path(args.city) if args.city else city_dir(UrbanConfig())
    server = ServerProcess(folder, log_path=Path("/tmp/urban_bench_server.log"))
    client = UrbanClient(ClientConfig(server.start()))
    assert server.process is not None
    pid = server.process.pid
    try:
        task = min(p.stem for p in (folder / "task").glob("SN-*.json"))
        client.enter_task(task)
        actions = [
            {"action": "sprint", "dir": "forward", "seconds": 0.5},
            {"action": "look", "yaw": 20, "pitch": 0},
        ]
        for k in range(10):
            client.act(actions[k % 2])
            client.screenshot(640, 480)
        act_s = shot_s = 0.0
        cpu0, wall0 = _cpu_s(pid), time.perf_counter()
        for k in range(args.actions):
            t0 = time.perf_counter()
            client.act(actions[k % 2])
            t1 = time.perf_counter()
            client.screenshot(640, 480)
            act_s += t1 - t0
            shot_s += time.perf_counter() - t1
        wall, cpu = time.perf_counter() - wall0, _cpu_s(pid) - cpu0
        cpu1, wall1 = _cpu_s(pid), time.perf_counter()
        for k in range(args.actions):
            client.act(actions[k % 2], image=True)
        wall_img, cpu_img = time.perf_counter() - wall1, _cpu_s(pid) - cpu1
        sprint = {"action": "sprint", "dir": "forward", "seconds": 1.0}
        frames, wall2 = 0, time.perf_counter()
        for k in range(args.actions // 4):
            reply = client._json(
                "POST", "/action?interval=0.25&max_frames=8", sprint if k % 2 == 0 else actions[1]
            )
            frames += len(reply.get("images") or [])
        wall_frames = time.perf_counter() - wall2
    finally:
        server.stop()
    n = args.actions
    print(
        json.dumps(
            {
                "benchmark": "urban_server",
                "rounds": n,
                "actions_per_s_with_screenshot": round(n / wall, 2),
                "ms_per_action": round(1000 * act_s / n, 2),
                "ms_per_screenshot": round(1000 * shot_s / n, 2),
                "server_cpu_ms_per_round": round(1000 * cpu / n, 2),
                "cpu_bound_rounds_per_s": round(n / cpu, 2) if cpu else None,
                "actions_per_s_image_in_reply": round(n / wall_img, 2),
                "server_cpu_ms_per_action_with_image": round(1000 * cpu_img / n, 2),
                "actions_per_s_with_frames_every_0.25s": round((n // 4) / wall_frames, 2),
                "frames_per_s_in_replies": round(frames / wall_frames, 2),
                "loadavg": Path("/proc/loadavg").read_text().split()[:3],
            }
        )
    )
    return 0
