"""The published start-to-goal distances the synthetic episodes' starts follow (synthetic-v3).

HM3D ObjectNav val_mini as the Habitat challenge publishes it: every episode's `info.geodesic_distance`
(metres, in file order) of the two content files below, read from facebookresearch/habitat-challenge at commit 40cb2a6f5969400fe0d2981eb9caeff54d4ea7dc.
It is the only HM3D ObjectNav val_mini file in that repository (v2, 30 episodes over 2 scenes).
"""

from __future__ import annotations

SOURCE_REPOSITORY = "facebookresearch/habitat-challenge"
SOURCE_COMMIT = "40cb2a6f5969400fe0d2981eb9caeff54d4ea7dc"
SOURCE_FILES = (
    "habitat-challenge-data/data/datasets/objectnav/hm3d/v2/val_mini/content/TEEsavR23oF.json.gz",
    "habitat-challenge-data/data/datasets/objectnav/hm3d/v2/val_mini/content/wcojb4TFT35.json.gz",
)
SOURCE_FIELD = "episodes[].info.geodesic_distance"

HM3D_OBJECTNAV_VAL_MINI_GEODESIC: tuple[float, ...] = (
    5.40846,
    3.62216,
    8.14992,
    7.67453,
    3.70929,
    5.99914,
    7.18338,
    4.2882,
    1.05396,
    3.25045,
    10.1391,
    8.11918,
    4.01816,
    5.7951,
    5.62858,
    8.0138,
    1.52248,
    1.64699,
    3.28515,
    1.41335,
    2.47386,
    3.98754,
    7.36016,
    4.7164,
    5.87773,
    5.69562,
    2.72354,
    2.27149,
    3.50401,
    3.42904,
)
