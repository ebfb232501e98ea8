"""The YOLO detector (OpenCV DNN over Darknet files): the code path with a tiny random-weight Darknet model
written here, its errors, and, when the YOLOv3-tiny files are present, real detections on a rendered view."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from tango.perception.build import build_perception
from tango.perception.models import ModelLoadError
from tango.perception.yolo import YoloDetector
from tango.types.observation import Observation
from tests.perception import tiny_models

REAL_YOLO = Path(os.environ.get("TANGO_YOLO_DIR", "/tmp/yolo"))
TINY_CLASSES = ["chair", "sofa", "diningtable", "tvmonitor"]


def _frame(height: int = 48, width: int = 64) -> Observation:
    rng = np.random.default_rng(1)
    return Observation(
        rng.integers(0, 255, (height, width, 3), dtype=np.uint8), np.full((height, width), 2.0, np.float32),
        np.eye(4), 79.0, np.zeros(3), 0.0,
    )  # fmt: skip


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - w * h
    return w * h / union


@pytest.fixture(scope="module")
def tiny_darknet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tiny_models.save_tiny_darknet(tmp_path_factory.mktemp("darknet"), TINY_CLASSES)


def test_tiny_random_weight_darknet_detects_only_queried_classes_with_nms(tiny_darknet: Path) -> None:
    bundle = build_perception({"detector": {"kind": "yolo", "path": str(tiny_darknet), "threshold": 0.05}})
    detector = bundle.detector
    assert isinstance(detector, YoloDetector) and detector.input_size == 32
    frame = _frame()
    detections = detector.detect(frame, ["chair", "couch", "bathtub"])
    assert len(detections) > 0, "a random net at threshold 0.05 always fires: the path was not exercised"
    assert set(detections.labels) <= {"chair", "couch"}, "labels are the queries (couch is COCO's sofa)"
    assert (detections.scores >= 0.05).all() and (np.diff(detections.scores) <= 0).all()
    assert (detections.boxes[:, [0, 2]] <= 64).all() and (detections.boxes[:, [1, 3]] <= 48).all()
    assert (detections.boxes >= 0).all() and (detections.instance_ids == -1).all()
    for label in set(detections.labels):
        boxes = detections.boxes[[i for i, name in enumerate(detections.labels) if name == label]]
        assert all(_iou(a, b) <= 0.5 + 1e-6 for i, a in enumerate(boxes) for b in boxes[i + 1 :])
    assert len(detector.detect(frame, ["bathtub"])) == 0 and len(detector.detect(frame, [])) == 0
    assert bundle.describe()["oracle_components"] == []


def test_aliases_and_input_size_come_from_the_options(tiny_darknet: Path) -> None:
    options = {"input_size": 64, "aliases": {"settee": "sofa"}}
    detector = build_perception(
        {"detector": {"kind": "yolo", "path": str(tiny_darknet), "options": options}}
    ).detector
    assert isinstance(detector, YoloDetector) and detector.input_size == 64
    assert detector.class_of("settee") == detector.class_of("couch") == TINY_CLASSES.index("sofa")
    assert detector.class_of("Dining Table") == TINY_CLASSES.index("diningtable")
    assert detector.class_of("tv") == TINY_CLASSES.index("tvmonitor") and detector.class_of("lamp") is None


def test_yolo_folder_and_option_errors_say_what_is_wrong(tmp_path: Path, tiny_darknet: Path) -> None:
    with pytest.raises(ModelLoadError, match=r"exactly one \*\.weights file, found 0"):
        (tmp_path / "a.cfg").write_text("[net]\nwidth=32\n")
        (tmp_path / "a.names").write_text("chair\n")
        _ = build_perception({"detector": {"kind": "yolo", "path": str(tmp_path)}}).detector
    with pytest.raises(ValueError, match=r"unknown \['size'\]"):
        _ = build_perception(
            {"detector": {"kind": "yolo", "path": str(tiny_darknet), "options": {"size": 1}}}
        ).detector


@pytest.mark.skipif(
    not (REAL_YOLO / "yolov3-tiny.weights").is_file(),
    reason=f"YOLOv3-tiny files not in {REAL_YOLO} (README: 'YOLOv3-tiny' says how to fetch them; TANGO_YOLO_DIR)",
)
def test_real_yolov3_tiny_finds_a_tv_in_a_rendered_apartment() -> None:
    from tango.scenes.datasets.default import ensure_default_dataset
    from tango.sim.render import Renderer
    from tango.sim.scene import load_scene
    from tango.types.poses import camera_pose

    detector = build_perception({"detector": {"kind": "yolo", "path": str(REAL_YOLO)}}).detector
    assert isinstance(detector, YoloDetector) and len(detector.classes) == 80
    scene = load_scene(ensure_default_dataset() / "scenes" / "apt_000.glb", require_annotations=True)
    assert scene.annotations is not None
    renderer = Renderer(scene.mesh, width=416, height=416, hfov_deg=79.0)
    found = 0
    for obj in [o for o in scene.annotations.objects if o.category == "tv"][:3]:
        centre = (np.asarray(obj.bbox_min) + np.asarray(obj.bbox_max)) / 2
        for yaw in np.linspace(0, 2 * np.pi, 8, endpoint=False):
            eye = centre + 1.5 * np.array([np.sin(yaw), 0.0, np.cos(yaw)])
            frame = renderer.render(camera_pose(np.array([eye[0], 0.0, eye[2]]), yaw, height=0.88))
            obs = Observation(frame.rgb, frame.depth, np.eye(4), 79.0, np.zeros(3), 0.0)
            found += len(detector.detect(obs, ["tv"])) > 0
    assert found > 0, "YOLOv3-tiny saw no tv from 24 views around the scene's tvs"
