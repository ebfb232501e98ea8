"""Perception: detectors (OWLv2/OWL-ViT/DETR + CLIP filter), value scorers, VQA, image/description goals, rooms.

Components named oracle read the simulator's semantic frame and the scene annotation; see docs/architecture.md.
"""

from tango.perception.build import PerceptionBundle, build_perception
from tango.perception.config import PerceptionConfig, perception_config
from tango.perception.detections import Detections, count_instances, is_found, normalise_label
from tango.perception.oracle_scene import OracleScene, load_oracle_scene

__all__ = [
    "Detections",
    "OracleScene",
    "PerceptionBundle",
    "PerceptionConfig",
    "build_perception",
    "count_instances",
    "is_found",
    "load_oracle_scene",
    "normalise_label",
    "perception_config",
]
