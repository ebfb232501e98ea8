"""Shared fixtures: a small annotated scene with a hand-made semantic frame, and tiny random-weight models."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tango.perception.oracle.scene import OracleScene
from tango.sim.scene import parse_annotations
from tango.types.observation import Observation
from tests.agent.synthetic import tiny_dataset
from tests.perception import tiny_models

ANNOTATION = {
    "format": "tango-scene/1",
    "scene_id": "apt_test",
    "rooms": [
        {"id": 0, "type": "kitchen", "min": [-5.0, -5.0], "max": [0.0, 5.0]},
        {"id": 1, "type": "bedroom", "min": [0.0, -5.0], "max": [5.0, 5.0]},
    ],
    "objects": [
        {"id": 1, "category": "chair", "room_id": 0, "room": "kitchen",
         "attributes": {"color": "red", "material": "wood", "size": "small"},
         "bbox": {"min": [-1.2, 0.0, -2.2], "max": [-0.8, 0.9, -1.8]}},
        {"id": 2, "category": "chair", "room_id": 0, "room": "kitchen",
         "attributes": {"color": "blue", "material": "metal", "size": "large"},
         "bbox": {"min": [0.8, 0.0, -2.2], "max": [1.2, 0.9, -1.8]}},
        {"id": 3, "category": "table", "room_id": 0, "room": "kitchen", "attributes": {"color": "brown"},
         "bbox": {"min": [-0.3, 0.0, -3.3], "max": [0.3, 0.8, -2.7]}},
        {"id": 4, "category": "bed", "room_id": 1, "room": "bedroom", "attributes": {"color": "green"},
         "bbox": {"min": [3.0, 0.0, 3.0], "max": [4.0, 0.5, 4.0]}},
    ],
}  # fmt: skip


@pytest.fixture
def scene() -> OracleScene:
    """Two chairs and a table in the kitchen, a bed in the (never seen) bedroom."""
    return OracleScene.from_annotations(parse_annotations(ANNOTATION, "test-annotation"))


def make_observation(
    semantic: np.ndarray, depth_m: float = 2.0, position: tuple[float, ...] = (0, 0, 0)
) -> Observation:
    """A 90-degree camera at the origin looking along -z, constant depth, the given semantic frame."""
    height, width = semantic.shape
    rng = np.random.default_rng(0)
    return Observation(
        rgb=rng.integers(0, 255, (height, width, 3), dtype=np.uint8),
        depth=np.full((height, width), depth_m, dtype=np.float32),
        camera_pose=np.eye(4),
        hfov_deg=90.0,
        agent_position=np.asarray(position, dtype=np.float64),
        agent_yaw=0.0,
        semantic=semantic.astype(np.int32),
    )


@pytest.fixture
def kitchen_view() -> Observation:
    """Chair 1 (left, 20x10 px), chair 2 (right, 20x10 px), table 3 (3 px only: not visible); 48x64 frame."""
    semantic = np.zeros((48, 64), dtype=np.int32)
    semantic[30:40, 5:25] = 1
    semantic[30:40, 40:60] = 2
    semantic[0, 0:3] = 3
    return make_observation(semantic)


@pytest.fixture(scope="session")
def tiny_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A session folder for tiny model checkpoints."""
    return tmp_path_factory.mktemp("tiny_models")


@pytest.fixture(scope="session")
def tiny_owlv2(tiny_dir: Path) -> Path:
    return tiny_models.save_tiny_owl(tiny_dir / "owlv2", "owlv2")


@pytest.fixture(scope="session")
def tiny_owlvit(tiny_dir: Path) -> Path:
    return tiny_models.save_tiny_owl(tiny_dir / "owlvit", "owlvit")


@pytest.fixture(scope="session")
def tiny_detr(tiny_dir: Path) -> Path:
    return tiny_models.save_tiny_detr(tiny_dir / "detr")


@pytest.fixture(scope="session")
def tiny_clip(tiny_dir: Path) -> str:
    return tiny_models.save_tiny_open_clip(tiny_dir / "open_clip")


@pytest.fixture(scope="session")
def tiny_blip2_itm(tiny_dir: Path) -> Path:
    return tiny_models.save_tiny_blip2(tiny_dir / "blip2_itm", "itm")


@pytest.fixture(scope="session")
def tiny_blip2_vqa(tiny_dir: Path) -> Path:
    return tiny_models.save_tiny_blip2(tiny_dir / "blip2_vqa", "vqa")


@pytest.fixture(scope="session")
def dataset_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The session's tiny synthetic dataset (shared with tests/agent and tests/tasks)."""
    return tiny_dataset(tmp_path_factory.getbasetemp())


@pytest.fixture(scope="session")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Paths of tiny random-weight checkpoints for every real component."""
    folder = tmp_path_factory.mktemp("tiny_stack")
    return {
        "owlv2": str(tiny_models.save_tiny_owl(folder / "owlv2", "owlv2")),
        "owlvit": str(tiny_models.save_tiny_owl(folder / "owlvit", "owlvit")),
        "detr": str(tiny_models.save_tiny_detr(folder / "detr")),
        "clip": tiny_models.save_tiny_open_clip(folder / "clip"),
        "itm": str(tiny_models.save_tiny_blip2(folder / "itm", "itm")),
        "vqa": str(tiny_models.save_tiny_blip2(folder / "vqa", "vqa")),
        "yolo": str(tiny_models.save_tiny_darknet(folder / "yolo", ["chair", "sofa", "bed", "diningtable"])),
    }
