"""Small files in the published dataset shapes, shared by the loader tests (habitat-lab ObjectNav goals, HM3D
scene paths as GOAT-Bench and HM3D write them)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

HM3D_SCENE = "hm3d/val/00800-TEEsavR23oF/TEEsavR23oF.basis.glb"
GOAT_SCENE = "hm3d/val//00800-TEEsavR23oF/TEEsavR23oF.basis.glb"  # as GOAT-Bench publishes it (double slash)
SCENE_CONFIG = "./data/scene_datasets/hm3d/hm3d_annotated_basis.scene_dataset_config.json"
VIEW = {"agent_state": {"position": [1.0, 0.0, 2.0], "rotation": [0.0, 0.382683, 0.0, 0.92388]}, "iou": 0.31}


def write_gz(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        json.dump(data, fh)


def read_gz(path: Path) -> Any:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        return json.load(fh)


def hm3d_goal(object_id: int, category: str, room: str = "bedroom") -> dict[str, Any]:
    """habitat-lab ObjectGoal fields as HM3D ObjectNav files carry them."""
    return {
        "position": [1.5, 0.4, 2.5],
        "radius": None,
        "object_id": object_id,
        "object_name": f"{category}_{object_id}",
        "object_name_id": None,
        "object_category": category,
        "room_id": None,
        "room_name": room,
        "view_points": [VIEW, {**VIEW, "iou": 0.12}],
    }
