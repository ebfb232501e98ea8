"""Point-goal controllers side by side: `python scripts/bench.py controllers [--episodes N] [--checkpoint PATH]`.

Replays the first N PointNav episodes of the default synthetic dataset; at every step both navigators (fmm
and pointnav, the latter with `--checkpoint`, default the shipped one) fuse the same observation and choose an
action toward the same goal, timed alternately so machine load hits both alike; the simulator then follows
the FMM controller. Prints one JSON line: CPU ms per decision of each controller (`next_action_to`), CPU ms per
map update (`Navigator.update`, which both run), the decisions timed and the 1-minute load average.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from dataclasses import replace

import numpy as np

from tango.agent.config import AgentConfig
from tango.agent.sim_session import SimSession
from tango.formats.pointnav import load_episodes
from tango.navigation.actions import STOP
from tango.navigation.navigator import Navigator
from tango.scenes.datasets.default import ensure_default_dataset
from tango.sim.config import EmbeddedSimConfig


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench.py controllers")
    parser.add_argument("--episodes", type=int, default=5)
    parser.add_argument("--checkpoint", default="checkpoints/pointnav_small.pth")
    args = parser.parse_args(argv)
    root = ensure_default_dataset()
    episodes = load_episodes(root / "pointnav" / "val" / "val.json.gz")[: args.episodes]
    base = AgentConfig()
    fmm = Navigator(base)
    learned = Navigator(
        replace(
            base,
            navigation=replace(base.navigation, controller="pointnav", pointnav_checkpoint=args.checkpoint),
        )
    )
    session = SimSession(EmbeddedSimConfig(sensors=["rgb", "depth"]))
    seconds = {"fmm": 0.0, "pointnav": 0.0, "map": 0.0}
    decisions = 0
    for episode in episodes:
        obs = session.start(
            root / "scenes" / episode.scene_id, episode.start_position, episode.start_rotation
        )
        fmm.reset()
        learned.reset()
        goal = np.asarray(episode.goal_position)
        for _ in range(500):
            began = time.process_time()
            fmm.update(obs)
            seconds["map"] += time.process_time() - began
            learned.update(obs)
            timed = {}
            for name, navigator in (("pointnav", learned), ("fmm", fmm))[:: 1 if decisions % 2 else -1]:
                began = time.process_time()
                timed[name] = navigator.next_action_to(goal, base.navigation.point_goal_tolerance)
                seconds[name] += time.process_time() - began
            decisions += 1
            if timed["fmm"] == STOP:
                break
            obs = session.step(timed["fmm"])
    session.close()
    result = {
        "benchmark": "controllers",
        "episodes": len(episodes),
        "decisions": decisions,
        "fmm_cpu_ms_per_step": round(1000 * seconds["fmm"] / decisions, 3),
        "pointnav_cpu_ms_per_step": round(1000 * seconds["pointnav"] / decisions, 3),
        "map_update_cpu_ms_per_step": round(1000 * seconds["map"] / decisions, 3),
        "checkpoint": args.checkpoint,
        "load_avg_1m": round(os.getloadavg()[0], 2),
    }
    print(json.dumps(result))
    return 0
