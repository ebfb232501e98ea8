"""The simulated room classifier and description matcher flip the oracle's answers at their configured rates
(exact binomial intervals, two-sided 99.9%), and only ever to answers the scene could give."""

from __future__ import annotations

import numpy as np
from scipy.stats import binom

from tango.perception.detections import Detections
from tango.perception.models import placement
from tango.perception.oracle.description import OracleDescriptionScorer
from tango.perception.oracle.ground_truth import GroundTruth
from tango.perception.oracle.scene import OracleScene
from tango.perception.simulated.description import SimulatedDescriptionMatcher
from tango.perception.simulated.params import DescriptionNoise, RoomNoise
from tango.perception.simulated.rooms import SimulatedRoomClassifier
from tango.perception.text_similarity import TextEmbedder
from tango.sim.scene import parse_annotations
from tests.perception.conftest import make_observation

VIEWS = 2000


def _within(count: int, n: int, p: float) -> bool:
    low, high = binom.interval(0.999, n, p)
    return bool(low <= count <= high)


def test_rooms_are_confused_with_look_alikes_and_other_rooms_at_their_rates() -> None:
    rooms = [("living room", -10.0), ("dining room", -5.0), ("kitchen", 0.0), ("bedroom", 5.0)]
    annotation = {
        "format": "tango-scene/1", "scene_id": "apt_rooms", "objects": [],
        "rooms": [{"id": i, "type": t, "min": [x, -5.0], "max": [x + 5.0, 5.0]} for i, (t, x) in enumerate(rooms)],
    }  # fmt: skip
    scene = OracleScene.from_annotations(parse_annotations(annotation, "test"))
    noise = RoomNoise(confusion=0.15, other=0.05, look_alikes={"living room": ["dining room", "hallway"]})
    classifier = SimulatedRoomClassifier(scene, noise)
    named = []
    for k in range(VIEWS):
        obs = make_observation(np.zeros((4, 4)), position=(-9.0 + k * 1e-3, 0.0, 0.0))
        obs.camera_pose = obs.camera_pose.copy()
        obs.camera_pose[0, 3] = obs.agent_position[0]
        named.append(classifier.classify(obs))
    assert set(named) <= {t for t, _ in rooms}, "a room type the scene does not have"
    assert _within(named.count("living room"), VIEWS, 1 - 0.15 - 0.05)
    assert _within(named.count("dining room"), VIEWS, 0.15 + 0.05 / 3)  # the look-alike, or one of 3 others
    assert _within(named.count("bedroom"), VIEWS, 0.05 / 3)
    assert classifier.classify(make_observation(np.zeros((4, 4)), position=(30.0, 0.0, 0.0))) == ""


def test_descriptions_miss_fitting_and_accept_unfitting_instances_at_their_rates(
    scene: OracleScene, kitchen_view
) -> None:
    truth = GroundTruth(scene, 100)
    truth.observe(kitchen_view)  # chair 1 is red and wooden, chair 2 blue and metal
    scorer = OracleDescriptionScorer(scene, truth.observed, TextEmbedder("", placement("cpu")))
    seeds = 600
    red = blue = 0
    for seed in range(seeds):
        matcher = SimulatedDescriptionMatcher(
            scorer, truth, DescriptionNoise(seed=seed, miss=0.3, false_accept=0.2)
        )
        found = matcher.match(kitchen_view, "the red wooden chair", lambda label: Detections.empty())
        keys = {r.key for r in found}
        red += "the red wooden chair#1" in keys
        blue += "the red wooden chair#2" in keys
    assert _within(red, seeds, 0.7) and _within(blue, seeds, 0.2)
