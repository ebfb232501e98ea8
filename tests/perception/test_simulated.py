"""SIMULATED perception's error model, checked statistically on synthetic semantic frames.

Frames are painted where an object's 3D box projects, so apparent size, distance and visible fraction are
consistent; each frame comes from a slightly different camera position (1 mm apart: distinct draws, the same
geometry). Rates are compared with the model's own probability through exact binomial intervals (two-sided
99.9%), so a test fails when sampling, geometry or the model are wrong, and passes by chance 1 time in 1000.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from scipy.stats import binom

from tango.perception.build import build_perception
from tango.perception.oracle.ground_truth import GroundTruth
from tango.perception.oracle.scene import OracleScene
from tango.perception.simulated.params import DetectionModel
from tango.sim.scene import parse_annotations
from tango.types.observation import Observation
from tests.support.presets import preset

SIZE = (120, 160)
HFOV = 90.0
FRAMES = 600


def _object(object_id: int, category: str, centre_z: float, half: float, x: float = 0.0) -> dict[str, Any]:
    """A cube of half-size `half` on the camera's axis line at depth -centre_z (camera at y = 0.5)."""
    return {
        "id": object_id, "category": category,
        "bbox": {"min": [x - half, 0.5 - half, centre_z - half], "max": [x + half, 0.5 + half, centre_z + half]},
    }  # fmt: skip


def _scene(*objects: dict[str, Any]) -> OracleScene:
    annotation = {
        "format": "tango-scene/1", "scene_id": "apt_sim",
        "rooms": [{"id": 0, "type": "living room", "min": [-50, -50], "max": [50, 50]}], "objects": list(objects),
    }  # fmt: skip
    return OracleScene.from_annotations(parse_annotations(annotation, "test"))


def _camera(offset_mm: int) -> np.ndarray:
    pose = np.eye(4)
    pose[:3, 3] = [offset_mm * 1e-3, 0.5, 0.0]
    return pose


def _frame(scene: OracleScene, offset_mm: int, shown: dict[int, float] | None = None) -> Observation:
    """A frame showing each annotated object where its box projects; `shown[id]` keeps that fraction of its
    columns (the rest hidden behind background), default the whole object."""
    height, width = SIZE
    semantic = np.zeros(SIZE, dtype=np.int32)
    focal = (width / 2) / np.tan(np.radians(HFOV / 2))
    depth = np.full(SIZE, 4.0, dtype=np.float32)
    for obj in sorted(scene.objects.values(), key=lambda o: o.bbox_min[2]):  # far first, near paints over
        low, high = np.array(obj.bbox_min), np.array(obj.bbox_max)
        near = -high[2]
        u0, u1 = focal * low[0] / near + (width - 1) / 2, focal * high[0] / near + (width - 1) / 2
        v0, v1 = (
            -focal * (high[1] - 0.5) / near + (height - 1) / 2,
            -focal * (low[1] - 0.5) / near + (height - 1) / 2,
        )
        c0, c1 = int(np.clip(round(u0), 0, width)), int(np.clip(round(u1), 0, width))
        r0, r1 = int(np.clip(round(v0), 0, height)), int(np.clip(round(v1), 0, height))
        c1 = c0 + round((c1 - c0) * (shown or {}).get(obj.id, 1.0))
        semantic[r0:r1, c0:c1] = obj.id
        depth[r0:r1, c0:c1] = near
    return Observation(
        rgb=np.zeros((*SIZE, 3), dtype=np.uint8), depth=depth, camera_pose=_camera(offset_mm), hfov_deg=HFOV,
        agent_position=_camera(offset_mm)[:3, 3] - [0, 0.5, 0], agent_yaw=0.0, semantic=semantic,
    )  # fmt: skip


def _perception(scene: OracleScene, **detector: Any) -> Any:
    config = preset("perception", "simulated")
    config["detector"]["options"].update({"instance_sigma": 0.0, **detector})
    return build_perception(config, GroundTruth(scene, config["detector"]["min_pixels"]))


def _interval(n: int, p: float) -> tuple[float, float]:
    low, high = binom.interval(0.999, n, p)
    return float(low), float(high)


def _rate_and_expectation(scene: OracleScene, label: str, **options: Any) -> tuple[int, float]:
    """How often `label` is detected over FRAMES frames, and the model's expected count."""
    bundle = _perception(scene, false_positives_per_frame=0.0, confusion=0.0, **options)
    hits, expected = 0, 0.0
    eyes = bundle.detector.eyes
    for offset in range(FRAMES):
        obs = _frame(scene, offset)
        hits += int(len(bundle.detector.detect(obs, [label])) > 0)
        view = eyes.view(obs)
        expected += float(view.probability.sum()) * _above_threshold(bundle)
    return hits, expected


def _above_threshold(bundle: Any) -> float:
    """P(a true detection's score reaches the detector's threshold)."""
    from scipy.stats import beta

    model: DetectionModel = bundle.detector.model
    return float(beta.sf(bundle.detector.threshold, *model.true_score_beta))


def test_detection_rate_falls_with_distance_as_the_model_says() -> None:
    rates = {}
    for distance in (2.0, 5.0, 9.0):
        hits, expected = _rate_and_expectation(_scene(_object(1, "chair", -distance, 0.6)), "chair")
        low, high = _interval(FRAMES, expected / FRAMES)
        assert low <= hits <= high, f"{distance} m: {hits} detections, model expects {expected:.0f}"
        rates[distance] = hits / FRAMES
    assert rates[2.0] > rates[5.0] > rates[9.0]
    assert rates[2.0] > 0.8 and rates[9.0] < 0.4


def test_detection_rate_falls_with_smaller_apparent_size_at_the_same_distance() -> None:
    small = _rate_and_expectation(_scene(_object(1, "chair", -4.0, 0.12)), "chair")[0]
    large = _rate_and_expectation(_scene(_object(1, "chair", -4.0, 0.5)), "chair")[0]
    assert large > small
    # two-proportion z statistic: the difference is far beyond sampling noise
    pooled = (large + small) / (2 * FRAMES)
    assert (large - small) / FRAMES / np.sqrt(2 * pooled * (1 - pooled) / FRAMES) > 5


def test_an_occluded_object_is_detected_less_often() -> None:
    scene = _scene(_object(1, "chair", -3.0, 0.4))
    bundle = _perception(scene, false_positives_per_frame=0.0, confusion=0.0)
    whole = [_frame(scene, k) for k in range(FRAMES)]
    hidden = [_frame(scene, k, shown={1: 0.3}) for k in range(FRAMES)]
    seen_whole = sum(len(bundle.detector.detect(f, ["chair"])) > 0 for f in whole)
    seen_hidden = sum(len(bundle.detector.detect(f, ["chair"])) > 0 for f in hidden)
    fraction = bundle.detector.eyes.view(hidden[0]).features.visible_fraction[0]
    assert fraction == pytest.approx(0.3 / bundle.detector.model.fill, abs=0.06)  # a cube seen face-on
    pooled = (seen_whole + seen_hidden) / (2 * FRAMES)
    assert (seen_whole - seen_hidden) / FRAMES / np.sqrt(2 * pooled * (1 - pooled) / FRAMES) > 4


def test_confusions_stay_within_look_alike_groups_at_the_configured_rate() -> None:
    # couch, a table and a toilet in view; the scene also has an armchair (out of view) and no sofa chair
    scene = _scene(
        _object(1, "couch", -3.0, 0.5, x=-1.2), _object(2, "table", -3.0, 0.4, x=0.2),
        _object(3, "toilet", -3.0, 0.3, x=1.3), _object(4, "armchair", 20.0, 0.4),
    )  # fmt: skip
    bundle = _perception(scene, false_positives_per_frame=0.0, confusion=0.3, base_logit=8.0)
    armchairs, couches, frames = 0, 0, [_frame(scene, k) for k in range(FRAMES)]
    for obs in frames:
        found = bundle.detector.detect(obs, ["armchair", "couch", "sofa chair", "desk"])
        assert set(found.labels) <= {"armchair", "couch"}, found.labels  # no sofa chair/desk in the scene
        semantic, masks = obs.semantic, found.masks
        assert semantic is not None and masks is not None
        for mask in masks:
            assert set(np.unique(semantic[mask])) == {1}, "only the couch may be taken for an armchair"
        armchairs += found.labels.count("armchair")
        couches += found.labels.count("couch")
    detected = armchairs + couches
    # the couch's look-alikes in this scene: armchair and bed -> only armchair exists, so every swap is one
    low, high = _interval(detected, 0.3)
    assert low <= armchairs <= high, f"{armchairs} of {detected} couch detections labelled armchair"


def test_false_positives_per_frame_follow_their_binomial() -> None:
    scene = _scene(_object(1, "chair", 30.0, 0.1))  # behind the camera: every frame is background
    rate, slots = 0.2, 2
    bundle = _perception(scene, false_positives_per_frame=rate)
    bundle.detector.threshold = 0.0
    counts = [len(bundle.detector.detect(_frame(scene, k), ["chair"])) for k in range(FRAMES)]
    low, high = _interval(FRAMES * slots, rate / slots)
    assert low <= sum(counts) <= high and max(counts) <= slots
    bundle.detector.threshold = 0.5
    from scipy.stats import beta

    kept = sum(len(bundle.detector.detect(_frame(scene, k), ["chair"])) for k in range(FRAMES))
    low, high = _interval(FRAMES * slots, rate / slots * float(beta.sf(0.5, 2.0, 5.0)))
    assert low <= kept <= high


def test_a_higher_score_threshold_trades_recall_for_precision() -> None:
    scene = _scene(_object(1, "chair", -4.0, 0.3))
    bundle = _perception(scene, false_positives_per_frame=0.6)
    frames = [_frame(scene, k) for k in range(FRAMES)]
    table = {}
    for threshold in (0.0, 0.5):
        bundle.detector.threshold = threshold
        true = false = 0
        for obs in frames:
            found = bundle.detector.detect(obs, ["chair"])
            semantic, masks = obs.semantic, found.masks
            assert semantic is not None and masks is not None
            on_chair = [bool(np.any(semantic[m] == 1)) for m in masks]
            true, false = true + sum(on_chair), false + len(on_chair) - sum(on_chair)
        table[threshold] = (true / FRAMES, true / max(true + false, 1))
    (recall_low, precision_low), (recall_high, precision_high) = table[0.0], table[0.5]
    assert recall_high < recall_low and precision_high > precision_low + 0.1


def test_same_seed_and_pose_give_the_same_perception_whatever_else_is_asked() -> None:
    scene = _scene(_object(1, "chair", -4.0, 0.3, x=-0.5), _object(2, "table", -4.0, 0.3, x=0.6))
    first, second = (
        _perception(scene, false_positives_per_frame=0.5),
        _perception(scene, false_positives_per_frame=0.5),
    )
    other_seed = _perception(scene, false_positives_per_frame=0.5, seed=1)
    differs = 0
    for offset in range(200):
        obs = _frame(scene, offset)
        alone = first.detector.detect(obs, ["chair"])
        again = second.detector.detect(_frame(scene, offset), ["chair"])
        assert alone.to_dict() == again.to_dict()
        both = first.detector.detect(obs, ["table", "chair"])
        chairs = both.select([i for i, name in enumerate(both.labels) if name == "chair"])
        assert chairs.to_dict() == alone.to_dict(), "asking for a table changed what is seen of the chair"
        assert np.array_equal(
            first.scorer.score(obs, ["chair"]), second.scorer.score(_frame(scene, offset), ["chair"])
        )
        differs += other_seed.detector.detect(obs, ["chair"]).to_dict() != alone.to_dict()
    assert differs > 20


def test_simulated_scores_rank_the_target_above_unrelated_prompts_with_noise() -> None:
    scene = _scene(_object(1, "chair", -2.5, 0.4))
    bundle = _perception(scene)
    scores = np.array([bundle.scorer.score(_frame(scene, k), ["chair", "bathtub"]) for k in range(200)])
    assert scores[:, 0].mean() > scores[:, 1].mean() + 0.3
    assert scores[:, 0].std() > 0.03, "no noise on the value scores"


def test_blind_perceives_nothing_and_reads_no_ground_truth() -> None:
    scene = _scene(_object(1, "chair", -2.5, 0.4))
    blind = build_perception(preset("perception", "blind"))
    assert blind.oracle_components == []
    obs = _frame(scene, 0)
    assert len(blind.detector.detect(obs, ["chair"])) == 0
    assert blind.scorer.score(obs, ["chair", "bed"]).tolist() == [0.0, 0.0]
    assert blind.room.classify(obs) == "" and blind.answerer.answer(obs, "Is there a chair?") == ""


def test_the_simulated_preset_names_every_component_that_reads_ground_truth() -> None:
    scene = _scene(_object(1, "chair", -2.5, 0.4))
    config = preset("perception", "simulated")
    bundle = build_perception(config, GroundTruth(scene, 100))
    assert bundle.oracle_components == [
        "answerer",
        "attributes",
        "description",
        "detector",
        "matcher",
        "room",
        "scorer",
    ]
    with pytest.raises(ValueError, match="need the episode's ground truth"):
        build_perception(config)


def _rooms_scene() -> OracleScene:
    """A bathroom around the camera showing a sink; the toilet (in the bathroom) and the bed (in a bedroom) are
    far to the sides, outside the field of view."""
    annotation = {
        "format": "tango-scene/1", "scene_id": "apt_rooms",
        "rooms": [
            {"id": 0, "type": "bathroom", "min": [-10, -6], "max": [30, 2]},
            {"id": 1, "type": "bedroom", "min": [-30, -6], "max": [-10, 2]},
        ],
        "objects": [
            {**_object(1, "sink", -2.5, 0.4), "room_id": 0, "room": "bathroom"},
            {**_object(2, "toilet", -2.5, 0.3, x=20.0), "room_id": 0, "room": "bathroom"},
            {**_object(3, "bed", -2.5, 0.8, x=-20.0), "room_id": 1, "room": "bedroom"},
        ],
    }  # fmt: skip
    return OracleScene.from_annotations(parse_annotations(annotation, "test"))


def test_a_room_that_usually_holds_the_target_raises_its_score_without_it_in_view() -> None:
    scene = _rooms_scene()
    frames = [_frame(scene, k) for k in range(200)]
    config = preset("perception", "simulated")
    with_rooms = build_perception(config, GroundTruth(scene, config["detector"]["min_pixels"]))
    scores = np.array([with_rooms.scorer.score(obs, ["toilet", "bed"]) for obs in frames])
    options = config["scorer"]["options"]
    expected = options["room_context"] * (
        1.0 - options["room_confusion"]
    )  # one room in view, named right or not
    assert abs(scores[:, 0].mean() - expected) < 0.06, (
        "a bathroom view should score room_context for a toilet"
    )
    assert scores[:, 1].mean() < scores[:, 0].mean() - 0.3, "a bathroom view scored high for a bed"
    config["scorer"]["options"]["room_context"] = 0.0
    without = build_perception(config, GroundTruth(scene, config["detector"]["min_pixels"]))
    flat = np.array([without.scorer.score(obs, ["toilet"])[0] for obs in frames])
    assert flat.mean() < 0.2, (
        "a sink alone should say little about a toilet once unrelated similarities are cut"
    )
