"""Write a synthetic dataset: procedural scenes plus ObjectNav, OVON, GOAT, OpenEQA and PointNav files in their
published formats, into a temporary folder that is renamed into place only when complete.

Two splits from disjoint scene seeds: `val` (dev: tune here; scenes apt_000, apt_001, ...) and `test` (report
here; scenes apt_test_001, ..., see FIRST_TEST_INDEX). Layout under the output folder (episodes' scene_id is
"apt_000.glb", relative to scenes/, so habitat-lab's `dataset.scenes_dir` is `OUT/scenes`), for SPLIT in val,
test:

    dataset.json                                  stamp: format, seed, scenes and counts per split (written last)
    scenes/apt_000.glb, apt_000.annotations.json  the scenes (tango-scene/1 annotations)
    objectnav/SPLIT/SPLIT.json.gz, content/apt_000.json.gz
    ovon/SPLIT/SPLIT.json.gz, content/apt_000.json.gz
    goat/SPLIT/SPLIT.json.gz, content/apt_000.json.gz
    pointnav/SPLIT/SPLIT.json.gz, content/apt_000.json.gz      (habitat-lab PointNav-v1)
      (goat/SPLIT/description_facts.json: what each lang_desc states, for evaluation code)
    openeqa/SPLIT/open-eqa-v0.json (held-out wording), open-eqa-train.json (training wording),
      episode_starts.json, question_facts.json (ours: start poses; what each question asks)

When `objectnav.homes` is set, ObjectNav's episodes come from homes of its own instead (scenes/objnav_000...,
objnav_test_000...; view points of its goal categories only), so its homes can change while the other
benchmarks' files stay as they are.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import logging
import multiprocessing
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from tango.formats import goat as goat_format
from tango.formats import openeqa as openeqa_format
from tango.formats.records import split_file_json, write_json, write_json_gz
from tango.formats.synthetic import FORMAT, STAMP_FILE
from tango.scenes.apartment import ApartmentConfig, generate_apartment
from tango.scenes.datasets import goat, objectnav, openeqa, ovon, pointnav
from tango.scenes.datasets.context import SceneContext, build_scene_context
from tango.scenes.datasets.viewpoints import ViewPointConfig
from tango.sim.render import create_gl_context
from tango.threads import pin_threads, usable_cores

LOG = logging.getLogger(__name__)

SPLITS = ("val", "test")
TEST_STREAM = 1
"""Seeds of test scenes and episodes are SeedSequence([seed, TEST_STREAM, index, ...]), val ones
SeedSequence([seed, index, ...])."""
FIRST_TEST_INDEX = 1
"""Test scenes are numbered from 1 (apt_test_001, ...): numpy pads entropy shorter than four words with zeros, so
test index 0's key [seed, 1, 0] is val scene 1's [seed, 1], the same home in both splits (as it was until stop
32). From index 1 on, no scene key or scene stream key of one split equals one of the other."""

OBJECTNAV_HOMES_TAG = 1022
"""ObjectNav's own homes are SeedSequence([seed, OBJECTNAV_HOMES_TAG, 0 val | 1 test, index]): the tag, not the
length (numpy pads entropy with zeros), keeps them apart from the shared scenes' keys, which would need a scene
index of 1022 to meet it (tests/scenes/test_objectnav_homes.py checks keys and streams)."""

SceneWriter = Callable[[Path, str, int], None]
"""Writes `{dir}/{scene_id}.glb` and `{dir}/{scene_id}.annotations.json` for a seed."""


class DatasetGenerationError(RuntimeError):
    """The dataset cannot be written where asked; the message names the folder and the problem."""


@dataclass(frozen=True)
class DatasetConfig:
    """What to generate: scenes of the val and test splits, seed, the homes, and the per-benchmark settings."""

    num_scenes: int = 10
    seed: int = 0
    test_scenes: int = 0
    apartment: ApartmentConfig = field(default_factory=ApartmentConfig)
    view_points: ViewPointConfig = field(default_factory=ViewPointConfig)
    objectnav: objectnav.ObjectNavConfig = field(default_factory=objectnav.ObjectNavConfig)
    ovon: ovon.OVONConfig = field(default_factory=ovon.OVONConfig)
    goat: goat.GoatConfig = field(default_factory=goat.GoatConfig)
    openeqa: openeqa.OpenEQAConfig = field(default_factory=openeqa.OpenEQAConfig)
    pointnav: pointnav.PointNavConfig = field(default_factory=pointnav.PointNavConfig)


def apartment_scene_writer(
    scene_dir: Path, scene_id: str, seed: int, config: ApartmentConfig | None = None
) -> None:
    """The default scene source: a procedural apartment (tango.scenes.apartment)."""
    generate_apartment(seed, config).write(scene_dir, scene_id)


def split_key(seed: int, split: str, index: int) -> list[int]:
    """The entropy of scene `index` of `split`: [seed, index] for val, [seed, TEST_STREAM, index] for test."""
    return [seed, index] if split == "val" else [seed, TEST_STREAM, index]


def scene_seed(seed: int, index: int, split: str = "val") -> int:
    """The apartment seed of scene `index` of a split of a dataset with `seed` (independent streams per scene)."""
    return int(np.random.SeedSequence(split_key(seed, split, index)).generate_state(1)[0])


def objectnav_home_seed(seed: int, index: int, split: str) -> int:
    """The apartment seed of ObjectNav's own home `index` of a split (its key: OBJECTNAV_HOMES_TAG)."""
    return int(np.random.SeedSequence(objectnav_home_key(seed, split, index)).generate_state(1)[0])


def objectnav_home_key(seed: int, split: str, index: int) -> list[int]:
    """The entropy of ObjectNav's own home `index` of `split` (its episodes draw from [*key, 1])."""
    return [seed, OBJECTNAV_HOMES_TAG, SPLITS.index(split), index]


def objectnav_home_ids(config: DatasetConfig) -> dict[str, list[str]]:
    """ObjectNav's own homes per split (none without `objectnav.homes`): objnav_000... and objnav_test_000..."""
    if config.objectnav.homes is None:
        return {"val": [], "test": []}
    return {
        "val": [f"objnav_{i:03d}" for i in range(config.objectnav.val_homes)],
        "test": [f"objnav_test_{i:03d}" for i in range(config.objectnav.test_homes)],
    }


def split_indices(config: DatasetConfig) -> dict[str, list[int]]:
    """The key indices of each split's scenes: 0... for val, FIRST_TEST_INDEX... for test."""
    return {
        "val": list(range(config.num_scenes)),
        "test": list(range(FIRST_TEST_INDEX, FIRST_TEST_INDEX + config.test_scenes)),
    }


def split_scene_ids(config: DatasetConfig) -> dict[str, list[str]]:
    """Scene ids per split, named by key index: apt_000... (val) and apt_test_001... (test)."""
    indices = split_indices(config)
    return {
        "val": [f"apt_{i:03d}" for i in indices["val"]],
        "test": [f"apt_test_{i:03d}" for i in indices["test"]],
    }


def generate_dataset(
    out_dir: str | Path,
    config: DatasetConfig = DatasetConfig(),
    scene_writer: SceneWriter | None = None,
    overwrite: bool = False,
    workers: int | None = None,
) -> dict[str, Any]:
    """Generate the dataset into `out_dir` atomically and return its stamp (also written to dataset.json);
    scenes come from `scene_writer`, by default the apartment generator with `config.apartment`. `workers`
    processes (default: one per usable core) build the scenes and their view points; the benchmark files are
    written in scene order by this process, so the content does not depend on the count."""
    scene_writer = scene_writer or functools.partial(apartment_scene_writer, config=config.apartment)
    out = Path(out_dir)
    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not overwrite)):
        raise DatasetGenerationError(
            f"{out}: already exists and is not an empty folder (pass --overwrite to replace it)"
        )
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=f".{out.name}.partial-", dir=out.parent))
    try:
        stamp = _write_dataset(partial, config, scene_writer, usable_cores() if workers is None else workers)
        _move_into_place(partial, out)
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    return stamp


def generator_version() -> str:
    """A hash of the code that decides the dataset's content (scenes, datasets, the record writers of
    tango.formats, navigability, scene loading and its data classes), stored in the stamp so that a cached
    dataset from older code is not mistaken for a current one."""
    package = Path(__file__).resolve().parents[2]
    sources = (
        sorted((package / "scenes").rglob("*.py"))
        + sorted((package / "formats").rglob("*.py"))
        + [
            package / "sim" / "navgrid.py",
            package / "sim" / "scene.py",
            package / "types" / "scene.py",
        ]
    )
    digest = hashlib.sha256()
    for source in sources:
        digest.update(source.relative_to(package).as_posix().encode())
        digest.update(source.read_bytes())
    return digest.hexdigest()[:16]


def _move_into_place(partial: Path, out: Path) -> None:
    """Rename the finished folder to `out`, replacing an existing one only after the new one is complete."""
    if not out.exists():
        partial.rename(out)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
    old.rmdir()
    out.rename(old)
    partial.rename(out)
    shutil.rmtree(old, ignore_errors=True)


def _write_dataset(
    root: Path, config: DatasetConfig, scene_writer: SceneWriter, workers: int
) -> dict[str, Any]:
    began = time.perf_counter()
    scenes_dir = root / "scenes"
    scenes_dir.mkdir(parents=True)
    counts: dict[str, dict[str, int]] = {}
    scene_ids, home_ids = split_scene_ids(config), objectnav_home_ids(config)
    indices = split_indices(config)
    home_writer = functools.partial(apartment_scene_writer, config=config.objectnav.homes)
    jobs = [
        _SceneJob(
            scenes_dir, scene_id, scene_seed(config.seed, index, split), config.view_points, scene_writer
        )
        for split in SPLITS
        for index, scene_id in zip(indices[split], scene_ids[split])
    ] + [
        _SceneJob(
            scenes_dir,
            home_id,
            objectnav_home_seed(config.seed, index, split),
            config.view_points,
            home_writer,
            objectnav.GOAL_CATEGORIES,
        )
        for split in SPLITS
        for index, home_id in enumerate(home_ids[split])
    ]
    contexts = _scene_contexts(jobs, workers)
    for split in SPLITS:
        if scene_ids[split]:
            scenes = itertools.islice(contexts, len(scene_ids[split]))
            counts[split] = _write_split(root, split, zip(indices[split], scenes), config)
    for split in SPLITS:
        if home_ids[split]:
            homes = itertools.islice(contexts, len(home_ids[split]))
            split_counts = counts.setdefault(split, {"objectnav": 0})
            split_counts["objectnav"] = _write_objectnav_homes(root, split, homes, config)
    stamp = {
        "format": FORMAT,
        "generator_version": generator_version(),
        "seed": config.seed,
        "num_scenes": config.num_scenes,
        "scenes": scene_ids,
        "objectnav_homes": home_ids,
        "counts": counts,
        "config": asdict(config),
        "generation_seconds": round(time.perf_counter() - began, 2),
    }
    write_json(root / STAMP_FILE, stamp)
    return stamp


@dataclass(frozen=True)
class _SceneJob:
    """One scene to write and prepare: where, its id and seed, the view-point settings, what writes it and the
    categories whose view points are found (None: all)."""

    scenes_dir: Path
    scene_id: str
    seed: int
    view_points: ViewPointConfig
    writer: SceneWriter
    categories: frozenset[str] | None = None


def _scene_contexts(jobs: list[_SceneJob], workers: int) -> Iterator[SceneContext]:
    """The jobs' scene contexts in job order. Writing a scene and finding its view points (most of the time, all
    rendering) runs in `workers` processes of their own, each with its own GL context, while the caller writes
    the benchmark files of the scenes already done; one worker (or one scene) runs in this process."""
    if workers <= 1 or len(jobs) <= 1:
        gl = create_gl_context()
        try:
            for job in jobs:
                yield _prepare_scene(job, gl)
        finally:
            gl.release()
        return
    spawn = multiprocessing.get_context(
        "spawn"
    )  # a fresh process: no GL or EGL state inherited from this one
    with ProcessPoolExecutor(min(workers, len(jobs)), mp_context=spawn, initializer=pin_threads) as pool:
        yield from pool.map(_prepare_scene, jobs)


def _prepare_scene(job: _SceneJob, gl: Any = None) -> SceneContext:
    """Write one scene and build its context (navigability, view points); `gl` None: a context of its own."""
    job.writer(job.scenes_dir, job.scene_id, job.seed)
    glb = job.scenes_dir / f"{job.scene_id}.glb"
    return build_scene_context(glb, f"{job.scene_id}.glb", job.view_points, gl, job.categories)


def _write_objectnav_homes(
    root: Path, split: str, contexts: Iterable[SceneContext], config: DatasetConfig
) -> int:
    """Write ObjectNav's files of its own homes of one split (the split file too); returns its episode count."""
    write_json_gz(root / "objectnav" / split / f"{split}.json.gz", objectnav.split_header())
    count = 0
    for index, ctx in enumerate(contexts):
        rng = np.random.default_rng([*objectnav_home_key(config.seed, split, index), 1])
        data = objectnav.scene_content(ctx, rng, config.objectnav, count)
        write_json_gz(root / "objectnav" / split / f"content/{ctx.scene_id}.json.gz", data)
        count += len(data["episodes"])
    return count


@dataclass
class _TextRecords:
    """What the scenes add to the split-wide files: OpenEQA questions and GOAT description facts."""

    questions: openeqa.SceneQuestions
    descriptions: dict[str, dict[str, Any]]


def _write_split(
    root: Path, split: str, contexts: Iterable[tuple[int, SceneContext]], config: DatasetConfig
) -> dict[str, int]:
    """Write every benchmark's files of one split from its scenes' (key index, context); returns its episode
    counts."""
    counts = {"objectnav": 0, "ovon": 0, "goat": 0, "goat_subtasks": 0, "openeqa": 0, "pointnav": 0}
    text = _TextRecords(openeqa.SceneQuestions({"heldout": [], "train": []}, {}, {}), {})
    for index, ctx in contexts:
        _write_scene(root, split, ctx, config, index, counts, text)
    for name, header in (
        ("objectnav", objectnav.split_header()),
        ("ovon", split_file_json()),
        ("goat", split_file_json()),
        ("pointnav", split_file_json()),
    ):
        write_json_gz(root / name / split / f"{split}.json.gz", header)
    write_json(root / "goat" / split / goat_format.FACTS_FILE, text.descriptions)
    questions = text.questions
    eqa = root / "openeqa" / split
    write_json(eqa / openeqa_format.QUESTIONS_FILE, questions.records["heldout"])
    write_json(eqa / openeqa.TRAIN_QUESTIONS_FILE, questions.records["train"])
    write_json(eqa / openeqa_format.STARTS_FILE, questions.starts)
    write_json(eqa / openeqa_format.FACTS_FILE, questions.facts)
    counts["openeqa"] = len(questions.records["heldout"])
    return counts


def _write_scene(
    root: Path,
    split: str,
    ctx: SceneContext,
    config: DatasetConfig,
    index: int,
    counts: dict[str, int],
    text: _TextRecords,
) -> None:
    """Write the content files of one scene and collect its OpenEQA questions and description facts."""
    key = split_key(config.seed, split, index)

    def rng(stream: int) -> np.random.Generator:
        return np.random.default_rng([*key, stream])

    content = f"content/{ctx.scene_id}.json.gz"
    if config.objectnav.homes is None:
        data = objectnav.scene_content(ctx, rng(1), config.objectnav, counts["objectnav"])
        write_json_gz(root / "objectnav" / split / content, data)
        counts["objectnav"] += len(data["episodes"])
    data = ovon.scene_content(ctx, rng(2), config.ovon, counts["ovon"])
    write_json_gz(root / "ovon" / split / content, data)
    counts["ovon"] += len(data["episodes"])
    data, facts = goat.scene_content(
        ctx, (rng(3), rng(5)), config.goat, counts["goat"], config.view_points.frame_pixels
    )
    write_json_gz(root / "goat" / split / content, data)
    text.descriptions.update(facts)
    counts["goat"] += len(data["episodes"])
    counts["goat_subtasks"] += sum(len(e["tasks"]) for e in data["episodes"])
    data = pointnav.scene_content(ctx, rng(8), config.pointnav, counts["pointnav"])
    write_json_gz(root / "pointnav" / split / content, data)
    counts["pointnav"] += len(data["episodes"])
    scene = openeqa.scene_questions_json(
        ctx, (rng(4), rng(6), rng(7)), config.openeqa, index * config.openeqa.histories_per_scene
    )
    for pool, records in scene.records.items():
        text.questions.records[pool].extend(records)
    text.questions.starts.update(scene.starts)
    text.questions.facts.update(scene.facts)
