"""ObjectNav's own homes: its episodes move to homes of their own while every other benchmark's files stay
byte for byte what they were, and the homes' seeds never meet the shared scenes' seeds."""

from __future__ import annotations

import dataclasses
import gzip
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tango.formats import objectnav
from tango.formats.synthetic import read_stamp
from tango.scenes.apartment import ApartmentConfig, generate_apartment
from tango.scenes.datasets.context import build_scene_context
from tango.scenes.datasets.default import DEFAULT_CONFIG, PRESETS, ROOM_CHAIN_HOMES
from tango.scenes.datasets.generate import (
    SPLITS,
    DatasetConfig,
    generate_dataset,
    objectnav_home_key,
    objectnav_home_seed,
    split_indices,
    split_key,
)
from tango.scenes.datasets.objectnav import GOAL_CATEGORIES, ObjectNavConfig
from tango.scenes.datasets.viewpoints import ViewPointConfig

SHARED = DatasetConfig(
    num_scenes=1,
    seed=7,
    objectnav=ObjectNavConfig(start_distances="hm3d_objectnav_val_mini", geodesic_to_euclid_min_ratio=1.05),
)
"""One shared val scene, no test scenes; ObjectNav drawn to HM3D's distances as the default dataset's."""
WITH_HOMES = dataclasses.replace(
    SHARED,
    objectnav=dataclasses.replace(
        SHARED.objectnav, homes=ApartmentConfig(min_rooms=5, max_rooms=6), val_homes=1, test_homes=1
    ),
)


def _files(root: Path) -> dict[str, bytes]:
    """Every file under root by relative path, .gz decompressed, the stamp left out (it holds the timing)."""
    return {
        p.relative_to(root).as_posix(): gzip.decompress(p.read_bytes())
        if p.suffix == ".gz"
        else p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name != "dataset.json"
    }


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    out = tmp_path_factory.mktemp("homes")
    generate_dataset(out / "shared", SHARED, workers=1)
    generate_dataset(out / "homes", WITH_HOMES, workers=1)
    return out / "shared", out / "homes"


def test_homes_leave_every_other_benchmark_byte_identical(pair: tuple[Path, Path]) -> None:
    shared, homes = (_files(root) for root in pair)
    others = {name for name in shared if not name.startswith("objectnav/")}
    assert others and any(name.startswith("goat/") for name in others)
    assert {name: homes.get(name) for name in others} == {name: shared[name] for name in others}
    added = set(homes) - set(shared)
    assert {name for name in added if name.startswith("scenes/")} == {
        f"scenes/{home}.{ext}"
        for home in ("objnav_000", "objnav_test_000")
        for ext in ("glb", "annotations.json")
    }


def test_objectnav_episodes_come_from_its_own_homes_only(pair: tuple[Path, Path]) -> None:
    _, root = pair
    stamp = read_stamp(root)
    assert stamp is not None and stamp["objectnav_homes"] == {
        "val": ["objnav_000"],
        "test": ["objnav_test_000"],
    }
    for split, home in (("val", "objnav_000.glb"), ("test", "objnav_test_000.glb")):
        episodes = objectnav.load_episodes(root / "objectnav" / split)
        assert len(episodes) == stamp["counts"][split]["objectnav"] > 0
        assert {e.scene_id for e in episodes} == {home}
    assert not (root / "objectnav" / "val" / "content" / "apt_000.json.gz").exists()


def test_homes_find_view_points_of_the_goal_categories_only(pair: tuple[Path, Path]) -> None:
    _, root = pair
    ctx = build_scene_context(
        root / "scenes" / "objnav_000.glb", "objnav_000.glb", ViewPointConfig(), categories=GOAL_CATEGORIES
    )
    categories = {o.category for o in ctx.annotations.objects}
    assert categories - GOAL_CATEGORIES  # the home holds other objects too ...
    assert ctx.views and {o.category for o in ctx.goal_objects()} <= GOAL_CATEGORIES  # ... seen by none


def _state(entropy: list[int]) -> tuple[int, ...]:
    return tuple(int(word) for word in np.random.SeedSequence(entropy).generate_state(4))


def _states(key: list[int]) -> list[tuple[int, ...]]:
    """The states of a key and of the streams the writers append to it (1-9)."""
    return [_state(key)] + [_state([*key, stream]) for stream in range(1, 10)]


@pytest.mark.parametrize("seed", [0, 1, 7])
def test_no_home_or_home_stream_is_a_shared_scene_or_stream(seed: int) -> None:
    """Keys compared as numpy sees them (SeedSequence pads entropy with zeros): no ObjectNav home or stream of
    one draws the state of a shared scene, a shared scene's stream, or another home or home stream."""
    indices = split_indices(DatasetConfig(num_scenes=16, test_scenes=16, seed=seed))
    shared = {
        state for split in SPLITS for i in indices[split] for state in _states(split_key(seed, split, i))
    }
    homes: dict[tuple[int, ...], str] = {}
    for split in SPLITS:
        for index in range(16):
            for stream, state in enumerate(_states(objectnav_home_key(seed, split, index))):
                name = f"{split} home {index} stream {stream}"
                assert state not in shared, f"{name} is a shared scene's state"
                assert state not in homes, f"{name} repeats {homes[state]}"
                homes[state] = name


def test_the_objectnav_homes_preset_draws_hm3d_sized_homes_for_objectnav_alone() -> None:
    preset = PRESETS["objectnav-homes"]
    assert dataclasses.replace(preset, objectnav=DEFAULT_CONFIG.objectnav) == DEFAULT_CONFIG
    assert preset.objectnav.homes == ROOM_CHAIN_HOMES
    for seed in range(6):
        home = generate_apartment(objectnav_home_seed(0, seed, "val"), ROOM_CHAIN_HOMES)
        area = sum(r.rect.area for r in home.plan.rooms)
        assert 8 <= len(home.plan.rooms) <= 12 and 100.0 <= area <= 300.0, (seed, len(home.plan.rooms), area)


def test_the_trial_script_writes_objectnav_val_homes_of_the_configuration_given(tmp_path: Path) -> None:
    """scripts/objectnav_homes_trial.py: ObjectNav val episodes in homes of the JSON's configuration, nothing
    else; a bad JSON is one line and exit status 2."""
    script = Path(__file__).resolve().parents[2] / "scripts" / "objectnav_homes_trial.py"
    apartment = '{"min_rooms": 5, "max_rooms": 5, "clutter": {"min_clutter": 1, "max_clutter": 1}}'
    run = subprocess.run(
        [sys.executable, str(script), str(tmp_path / "d"), "--homes", "1", "--apartment", apartment],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    stamp = read_stamp(tmp_path / "d")
    assert stamp is not None and stamp["scenes"] == {"val": [], "test": []}
    assert stamp["objectnav_homes"] == {"val": ["objnav_000"], "test": []}
    assert stamp["config"]["objectnav"]["homes"]["min_rooms"] == 5
    assert stamp["config"]["objectnav"]["homes"]["corridor_width"] == ROOM_CHAIN_HOMES.corridor_width
    episodes = objectnav.load_episodes(tmp_path / "d" / "objectnav" / "val" / "val.json.gz")
    assert len(episodes) == DEFAULT_CONFIG.objectnav.episodes_per_scene
    assert sorted(p.name for p in (tmp_path / "d").iterdir()) == ["dataset.json", "objectnav", "scenes"]
    bad = subprocess.run(
        [sys.executable, str(script), str(tmp_path / "e"), "--apartment", '{"rooms": 5}'],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "e").exists()
