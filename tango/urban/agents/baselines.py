"""The random baseline: uniformly random first-person moves and turns until the step limit; a QA answer is a
uniformly random letter. It reads nothing, so it is the floor every other agent must clear."""

from __future__ import annotations

import numpy as np

from tango.urban.agents.program import AgentOutcome
from tango.urban.episode import EpisodeOver, UrbanEpisode


class RandomAgent:
    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def run(self, episode: UrbanEpisode) -> AgentOutcome:
        try:
            while not episode.done:
                if self.rng.random() < 0.6:
                    action = {
                        "action": "sprint" if self.rng.random() < 0.5 else "move",
                        "dir": "forward",
                        "seconds": round(float(self.rng.uniform(0.5, 2.0)), 2),
                    }
                else:
                    action = {
                        "action": "look",
                        "yaw": round(float(self.rng.uniform(-150, 150)), 1),
                        "pitch": 0.0,
                    }
                episode.act(action)
        except EpisodeOver:
            pass
        if episode.task.kind.family == "qa" and episode.answer is None:
            episode.answer = "ABCD"[int(self.rng.integers(4))]
        return AgentOutcome(program_source="random")
