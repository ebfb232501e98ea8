"""Adding a detector is one module and one YAML, from outside the package: a test-local package registers a
detector through the `tango.perception` entry-point group (installed as a .dist-info on sys.path), a preset in a
config folder of its own (hydra.searchpath) selects it, and `tango.eval`'s run uses it with no change to tango."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tango.formats.objectnav import load_episodes
from tango.harness.run import run_evaluation
from tango.perception.build import build_perception
from tango.perception.registry import REGISTRY, ComponentError
from tests.agent.synthetic import data_path, eval_config, read_jsonl

DETECTOR_MODULE = '''
"""A third-party detector: one box in the middle of the frame for every query it is told to see."""
from tango.perception.detections import Detections
from tango.perception.registry import register

CALLS = []


class CentreDetector:
    def __init__(self, labels, size):
        self.labels, self.size = labels, size

    def detect(self, obs, labels):
        CALLS.append(list(labels))
        seen = [label for label in labels if label in self.labels]
        h, w = obs.height, obs.width
        box = [w * (1 - self.size) / 2, h * (1 - self.size) / 2, w * (1 + self.size) / 2, h * (1 + self.size) / 2]
        return Detections.from_boxes(obs, [box] * len(seen), [0.9] * len(seen), seen)


@register("detector", "centre")
def centre_detector(config, ctx):
    return CentreDetector(set(config.options["labels"]), float(config.options["size"]))
'''

PRESET = """defaults:
  - /schema/perception@_here_
  - _self_
name: centre
detector:
  kind: centre
  options: {{labels: [{label}], size: 0.3}}
memory:
  kind: none
"""


@pytest.fixture
def isolated_registry() -> Iterator[None]:
    """Built-ins registered first; entry points scanned again inside the test; everything undone after."""
    REGISTRY.scan()
    state = REGISTRY.snapshot()
    REGISTRY.scanned = False
    yield
    REGISTRY.restore(state)
    sys.modules.pop("tango_centre_detector", None)


def test_a_detector_from_an_installed_package_and_its_preset_runs_an_episode(
    dataset_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, isolated_registry: None
) -> None:
    site = tmp_path / "site"
    (site / "tango_centre_detector").mkdir(parents=True)
    (site / "tango_centre_detector" / "__init__.py").write_text(DETECTOR_MODULE)
    dist_info = site / "tango_centre_detector-0.1.dist-info"
    dist_info.mkdir()
    (dist_info / "METADATA").write_text("Metadata-Version: 2.1\nName: tango-centre-detector\nVersion: 0.1\n")
    (dist_info / "entry_points.txt").write_text("[tango.perception]\ncentre = tango_centre_detector\n")
    monkeypatch.syspath_prepend(str(site))
    presets = tmp_path / "configs" / "perception"
    presets.mkdir(parents=True)
    goal = load_episodes(data_path(dataset_root, "objectnav"))[0].object_category
    (presets / "centre.yaml").write_text(PRESET.format(label=goal))

    out = tmp_path / "run"
    config = eval_config(
        dataset_root, "objectnav", out, f"hydra.searchpath=[file://{tmp_path / 'configs'}]", "perception=centre",
        "agent.explore.frontier_policy=random", "eval.num_episodes=1", "task.max_steps=30",
    )  # fmt: skip
    run_evaluation(config)

    (record,) = read_jsonl(out / "episodes.jsonl")
    assert record["status"] == "ok" and record["failure_reason"] is None, record
    assert record["perception"]["name"] == "centre" and record["perception"]["detector"]["kind"] == "centre"
    assert record["perception"]["oracle_components"] == []
    plugin = sys.modules["tango_centre_detector"]
    assert [goal] in plugin.CALLS, "the plugin detector was never asked for the goal"
    assert record["metrics"]["called_stop"] == 1.0


def test_an_unknown_kind_lists_the_registered_ones_and_a_broken_plugin_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, isolated_registry: None
) -> None:
    with pytest.raises(
        ComponentError,
        match=r"detector.kind='sonar' is not registered; known: none, oracle, owlv2, owlvit, simulated, yolo",
    ):
        build_perception({"detector": {"kind": "sonar"}})
    dist_info = tmp_path / "broken_detector-0.1.dist-info"
    dist_info.mkdir()
    (dist_info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-detector\nVersion: 0.1\n")
    (dist_info / "entry_points.txt").write_text("[tango.perception]\nbroken = no_such_detector_module\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    REGISTRY.scanned = False
    with pytest.raises(
        ImportError, match=r"perception plugin 'broken' \(no_such_detector_module\) failed to load"
    ):
        REGISTRY.kinds("detector")
