"""The scene graph built from what perception reported (tango.perception.detected_objects): detections merge
into objects with boxes from their masks' depth, rooms come from the room classifier's names of the views, and
the scene-graph answerer over it is no oracle (oracle_components) when its detector and room classifier are not."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pytest
from hydra import compose, initialize_config_dir

from tango.perception.build import build_perception, oracle_components
from tango.perception.config import perception_config
from tango.perception.detected_objects import MIN_ROOM_VIEWS, DetectedObjects, DetectionGraph, RoomCells
from tango.perception.detections import Detections
from tests.perception.conftest import make_observation
from tests.perception.test_scene_graph import ScriptedChat

CONFIG_DIR = str(__import__("pathlib").Path(__file__).resolve().parents[2] / "configs")


def visits(cells: RoomCells, name: str, xs: Iterable[float], z: float = 0.0, views: int = 3) -> None:
    for x in xs:
        for _ in range(views):
            cells.record(np.array([x, 0.0, z]), name)


def test_room_cells_keep_one_room_through_a_confused_view_and_split_apart_rooms() -> None:
    cells = RoomCells()
    visits(cells, "bedroom", np.arange(0.0, 3.0, 0.5))
    cells.record(np.array([1.2, 0.0, 0.0]), "office")  # one confused view inside the bedroom
    visits(cells, "bedroom", np.arange(8.0, 10.0, 0.5))  # a second bedroom, far from the first
    visits(cells, "kitchen", [20.0], views=MIN_ROOM_VIEWS - 1)  # too few views to be a room
    rooms = cells.instances()
    names = {name for name, _ in rooms.values()}
    keys = {key for name, key in rooms.values() if name == "bedroom"}
    assert names == {"bedroom"} and len(keys) == 2


def box_mask_view(rows: slice, cols: slice, depth_m: float = 2.0):
    semantic = np.zeros((48, 64), dtype=np.int32)
    semantic[rows, cols] = 1
    obs = make_observation(semantic, depth_m)
    mask = np.zeros((1, 48, 64), dtype=bool)
    mask[0, rows, cols] = True
    return obs, mask


def detections(label: str, mask: np.ndarray) -> Detections:
    return Detections(np.zeros((1, 4)), np.ones(1), [label], np.zeros((1, 3)), np.full(1, -1), mask)


def test_detections_merge_into_objects_with_sizes_from_depth_and_one_off_detections_are_left_out() -> None:
    memory = DetectedObjects()
    obs, mask = box_mask_view(slice(20, 40), slice(10, 30))
    for _ in range(MIN_ROOM_VIEWS):
        memory.record(obs, detections("chair", mask), "kitchen")
    memory.record(obs, detections("armchair", mask), "kitchen")  # the same box once named a look-alike
    part, part_mask = box_mask_view(slice(20, 40), slice(20, 40))  # half of it again, centre 0.63 m aside
    memory.record(part, detections("chair", part_mask), "kitchen")
    lone, lone_mask = box_mask_view(slice(0, 5), slice(50, 60), depth_m=4.0)
    memory.record(lone, detections("vase", lone_mask), "kitchen")
    graph = memory.graph()
    assert [o.category for o in graph.objects] == ["chair"]
    chair = graph.objects[0]
    # 30 px (columns 10-40) of a 64 px, 90-degree frame at 2 m: 2 * 2 * 30 / 64 = 1.9 m, less the trimmed tails
    assert 1.5 < chair.size[0] < 1.9 and chair.size[2] < 0.01 and chair.sightings == MIN_ROOM_VIEWS + 2
    assert chair.room == "kitchen" and graph.room_counts() == {"kitchen": 1}


class FixedDetector:
    def __init__(self, found: Detections) -> None:
        self.found = found
        self.asked: list[list[str]] = []

    def detect(self, obs, labels: list[str]) -> Detections:
        self.asked.append(labels)
        return self.found


class FixedRoom:
    def classify(self, obs) -> str:
        return "office"


def test_detection_graph_asks_the_detector_for_the_vocabulary_and_answers_from_what_it_reported() -> None:
    from tango.perception.scene_graph_answerer import SceneGraphAnswerer

    obs, mask = box_mask_view(slice(20, 40), slice(10, 30))
    detector = FixedDetector(detections("desk", mask))
    source = DetectionGraph(detector, FixedRoom(), ["Desk", "lamp", "desk"])
    chat = ScriptedChat("Answer: the office.")
    answerer = SceneGraphAnswerer(source.graph, chat, observer=source.observe)
    for _ in range(MIN_ROOM_VIEWS):
        answerer.observe(obs)
    assert detector.asked[0] == ["desk", "lamp"]
    assert answerer.answer(obs, "Where is the desk?") == "the office"
    assert "[office]\n- desk" in chat.requests[0][1]["content"]
    with pytest.raises(ValueError, match="vocabulary is empty"):
        DetectionGraph(detector, FixedRoom(), [])


def preset(name: str, *overrides: str):
    with initialize_config_dir(config_dir=CONFIG_DIR, version_base="1.3"):
        cfg = compose(config_name="eval", overrides=[f"perception={name}", *overrides])
    return perception_config(cfg.perception)


def test_the_scene_graph_answerer_is_an_oracle_over_annotations_and_not_over_simulated_detections() -> None:
    simulated = preset("simulated", "perception.answerer.kind=scene_graph")
    assert simulated.answerer.graph == "detections"
    assert "answerer" not in oracle_components(simulated) and "detector" in oracle_components(simulated)
    oracle = preset("oracle", "perception.answerer.kind=scene_graph")
    assert "answerer" in oracle_components(oracle)
    with pytest.raises(ValueError, match="perception.answerer.graph"):
        oracle_components(
            preset("oracle", "perception.answerer.kind=scene_graph", "perception.answerer.graph=x")
        )


def test_a_bundle_hands_every_frame_to_a_scene_graph_answerer_over_detections() -> None:
    config = preset("blind", "perception.answerer.kind=scene_graph", "perception.answerer.graph=detections")
    bundle = build_perception(config)
    assert oracle_components(config) == []
    assert bundle._observing == ["answerer"]


def test_a_room_split_by_confused_views_on_the_path_is_one_room_and_two_rooms_apart_stay_two() -> None:
    cells = RoomCells()
    visits(cells, "living room", np.arange(0.0, 2.0, 0.5))
    visits(cells, "dining room", [2.0, 2.5], views=4)  # two cells of confused views, walked through
    visits(cells, "living room", np.arange(3.0, 5.0, 0.5))
    visits(cells, "hallway", np.arange(5.0, 7.0, 0.5))  # a real second living room lies past a hallway
    visits(cells, "living room", np.arange(7.0, 9.0, 0.5))
    rooms = cells.instances()
    keys = sorted({key for name, key in rooms.values() if name == "living room"})
    assert len(keys) == 2
    assert rooms[RoomCells.cell(np.array([0.0, 0, 0]))] == rooms[RoomCells.cell(np.array([4.5, 0, 0]))]
    assert rooms[RoomCells.cell(np.array([8.0, 0, 0]))][1] != rooms[RoomCells.cell(np.array([0.0, 0, 0]))][1]
