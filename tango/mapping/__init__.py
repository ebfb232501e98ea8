"""Top-down maps built from depth frames: geometry, obstacles and frontiers, value map, feature memory."""

from tango.mapping.config import MapConfig
from tango.mapping.feature_memory import FeatureMemory, RecallResult
from tango.mapping.geometry import MapGrid, depth_to_world_points, effective_depth
from tango.mapping.obstacle_map import ObstacleMap
from tango.mapping.value_map import ValueMap

__all__ = [
    "FeatureMemory",
    "MapConfig",
    "MapGrid",
    "ObstacleMap",
    "RecallResult",
    "ValueMap",
    "depth_to_world_points",
    "effective_depth",
]
