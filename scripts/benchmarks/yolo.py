"""YOLOv3-tiny against the oracle on renders of our apartments: per-category recall of the annotated objects that
are visible (ground truth from the semantic render), for the COCO classes our apartments contain. One JSON line.

Views are rendered at the ObjectNav goals' view points (looking at the goal object, so every goal category is
seen up close) plus every other annotated COCO-class object in those frames. An instance counts as found when
a YOLO box of its class overlaps its tight box with IoU >= --iou; `any_box` recall only asks for a box of the
class anywhere in the frame. `false_positives_per_frame` counts boxes of a class no visible instance matches.

usage: python scripts/bench.py yolo [--model-dir /tmp/yolo] [--data DIR] [--size 256] [--views-per-goal 3]
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tango.formats.objectnav import load_episodes
from tango.perception.config import DetectorConfig, PerceptionConfig
from tango.perception.context import BuildContext, SharedModels
from tango.perception.detections import normalise_label
from tango.perception.models import placement
from tango.perception.oracle.scene import OracleScene
from tango.perception.oracle.visible import visible_objects
from tango.perception.yolo import YoloDetector, yolo_detector
from tango.sim.render import Renderer
from tango.sim.scene import load_scene
from tango.types.observation import Observation
from tango.types.poses import camera_pose, quaternion_to_yaw

HFOV = 79.0
CAMERA_HEIGHT = 0.88


def box_iou(a: np.ndarray, b: np.ndarray) -> float:
    """IoU of two xyxy boxes."""
    w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = w * h
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return float(inter / union) if union > 0 else 0.0


def frames(data: Path, size: int, views_per_goal: int) -> list[tuple[Observation, OracleScene]]:
    """Renders at the first view points of every ObjectNav goal, with the scene's annotation."""
    out: list[tuple[Observation, OracleScene]] = []
    renderers: dict[str, tuple[Renderer, OracleScene]] = {}
    seen_goals: set[tuple[str, str]] = set()
    for episode in load_episodes(data / "objectnav" / "val" / "val.json.gz"):
        if episode.scene_id not in renderers:
            scene = load_scene(data / "scenes" / Path(episode.scene_id).name, require_annotations=True)
            assert scene.annotations is not None
            renderer = Renderer(scene.mesh, width=size, height=size, hfov_deg=HFOV)
            renderers[episode.scene_id] = (renderer, OracleScene.from_annotations(scene.annotations))
        renderer, oracle = renderers[episode.scene_id]
        for goal in episode.goals:
            if (episode.scene_id, str(goal.object_id)) in seen_goals:
                continue
            seen_goals.add((episode.scene_id, str(goal.object_id)))
            for view in goal.view_points[:views_per_goal]:
                position = np.asarray(view.agent_state.position, dtype=np.float64)
                yaw = quaternion_to_yaw(np.asarray(view.agent_state.rotation))
                pose = camera_pose(position, yaw, height=CAMERA_HEIGHT)
                frame = renderer.render(pose)
                obs = Observation(frame.rgb, frame.depth, pose, HFOV, position, yaw, frame.semantic)  # type: ignore[arg-type]
                out.append((obs, oracle))
    return out


def evaluate(
    detector: YoloDetector, views: list[tuple[Observation, OracleScene]], min_pixels: int, iou: float
) -> dict[str, Any]:
    """Per-category visible / found (IoU) / found anywhere counts and false positives."""
    visible: Counter[str] = Counter()
    found: Counter[str] = Counter()
    anywhere: Counter[str] = Counter()
    false_positives = 0
    for obs, oracle in views:
        categories = sorted({normalise_label(o.category) for o in oracle.objects.values()})
        queries = [c for c in categories if detector.class_of(c) is not None]
        detections = detector.detect(obs, queries)
        matched = np.zeros(len(detections), dtype=bool)
        for item in visible_objects(obs, oracle, min_pixels):
            category = normalise_label(item.object.category)
            if category not in queries:
                continue
            visible[category] += 1
            same = [i for i, label in enumerate(detections.labels) if label == category]
            anywhere[category] += bool(same)
            overlaps = [i for i in same if box_iou(detections.boxes[i], item.box) >= iou]
            found[category] += bool(overlaps)
            matched[overlaps] = True
        false_positives += int((~matched).sum())
    per_category = {
        c: {
            "visible": visible[c],
            "recall": round(found[c] / visible[c], 3),
            "any_box": round(anywhere[c] / visible[c], 3),
        }
        for c in sorted(visible)
    }
    total = sum(visible.values())
    return {
        "frames": len(views),
        "instances": total,
        "recall": round(sum(found.values()) / total, 3) if total else 0.0,
        "any_box_recall": round(sum(anywhere.values()) / total, 3) if total else 0.0,
        "false_positives_per_frame": round(false_positives / max(len(views), 1), 3),
        "per_category": per_category,
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench.py yolo")
    parser.add_argument("--model-dir", default="/tmp/yolo")
    parser.add_argument(
        "--data", default="", help="a tango dataset folder (default: the synthetic default dataset)"
    )
    parser.add_argument(
        "--size", type=int, default=256, help="square render size (the embedded sim's default)"
    )
    parser.add_argument("--views-per-goal", type=int, default=3)
    parser.add_argument("--threshold", type=float, default=0.25)
    parser.add_argument(
        "--min-pixels", type=int, default=400, help="an instance counts as visible from this many pixels"
    )
    parser.add_argument("--iou", type=float, default=0.5)
    args = parser.parse_args(argv)
    logging.disable(logging.WARNING)
    if args.data:
        data = Path(args.data)
    else:
        from tango.scenes.datasets.default import ensure_default_dataset

        data = ensure_default_dataset()
    config = DetectorConfig(kind="yolo", path=args.model_dir, threshold=args.threshold, nms_iou=0.45)
    detector = yolo_detector(config, BuildContext(PerceptionConfig(), SharedModels(placement("cpu"))))
    views = frames(data, args.size, args.views_per_goal)
    result = {
        "benchmark": "yolo",
        "model": str(Path(args.model_dir).resolve()),
        "render": f"{args.size}x{args.size}, hfov {HFOV}",
        "threshold": args.threshold,
        "iou": args.iou,
        "min_pixels": args.min_pixels,
        "load_average_1m": round(os.getloadavg()[0], 2),
        **evaluate(detector, views, args.min_pixels, args.iou),
    }
    print(json.dumps(result))
    return 0
