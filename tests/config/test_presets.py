"""One config system: every preset in configs/ composes over its registered schema (hydra's ConfigStore),
loads with the one loader, and holds nothing the schema lacks; every registered task has its preset."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from hydra import compose, initialize_config_dir
from hydra.errors import ConfigCompositionException
from omegaconf import OmegaConf

from tango.config_schema import GROUP_SCHEMAS, schema_of
from tango.config_utils import dataclass_from_dict
from tango.eval import CONFIG_DIR
from tango.harness.registry import TASKS

GROUPS = ("task", "sim", "perception", "generator", "agent")
PRESETS = [
    (group, path.stem) for group in GROUPS for path in sorted((Path(CONFIG_DIR) / group).glob("*.yaml"))
]


def _compose(*overrides: str) -> Any:
    with initialize_config_dir(config_dir=CONFIG_DIR, version_base="1.3"):
        return compose(config_name="eval", overrides=list(overrides))


@pytest.mark.parametrize(("group", "name"), PRESETS, ids=[f"{g}={n}" for g, n in PRESETS])
def test_every_preset_composes_over_its_schema_and_loads(group: str, name: str) -> None:
    cfg = _compose(f"{group}={name}")
    schema = schema_of(group, name)
    assert OmegaConf.get_type(cfg[group]) is schema, f"configs/{group}/{name}.yaml does not extend its schema"
    values = OmegaConf.to_container(cfg[group], resolve=True)
    loaded = dataclass_from_dict(schema, values, group)
    assert OmegaConf.to_object(cfg[group]) == loaded
    assert "/schema/" in (Path(CONFIG_DIR) / group / f"{name}.yaml").read_text()


@pytest.mark.parametrize(("group", "name"), PRESETS)
def test_a_key_the_schema_lacks_is_refused_at_composition(group: str, name: str) -> None:
    with pytest.raises(ConfigCompositionException, match="nonexistent_key"):
        _compose(f"{group}={name}", f"{group}.nonexistent_key=1")


def test_every_registered_task_has_a_preset_and_every_task_preset_is_registered() -> None:
    presets = {name for group, name in PRESETS if group == "task"}
    assert presets == set(TASKS.names())
    for name in TASKS.names():
        cfg = _compose(f"task={name}")
        assert cfg.task.name == name and cfg.task.plugin, name
        for section, schema in TASKS.get(name).sections.items():
            assert OmegaConf.get_type(cfg[section]) is schema


def test_the_eval_section_is_the_eval_schema_with_its_defaults() -> None:
    cfg = _compose("task=fake")
    assert OmegaConf.get_type(cfg.eval) is GROUP_SCHEMAS["eval"]
    assert cfg.eval.num_workers == "auto" and str(cfg.eval.output_dir).startswith("runs/fake/")


def test_each_name_has_one_meaning_agent_is_the_agent_group() -> None:
    cfg = _compose("task=goat")
    assert {f.name for f in fields(GROUP_SCHEMAS["agent"])} == {"map", "navigation", "explore", "primitives"}
    assert "agent" not in cfg.task and "success_distance" not in cfg.agent.navigation
    assert cfg.task.success_distance == 0.25  # GOAT-Bench's GoatSuccess


@pytest.mark.parametrize(("task", "radius"), [("objectnav", 0.1), ("ovon", 0.25), ("goat", 0.25)])
def test_navigation_tasks_score_by_their_benchmark_rules_by_default(task: str, radius: float) -> None:
    cfg = _compose(f"task={task}")
    assert cfg.task.success_distance == radius and cfg.task.distance_to == "VIEW_POINTS"
    assert cfg.task.scoring_source and cfg.task.lenient_success_distance == 1.0
    schema = OmegaConf.to_object(cfg.task)
    assert schema.success_distance == type(schema)().success_distance  # the schema's default agrees


def test_perception_schema_defaults_read_no_ground_truth_and_the_oracle_preset_names_every_oracle() -> None:
    from tango.perception.build import oracle_components
    from tango.perception.config import PerceptionConfig

    assert oracle_components(PerceptionConfig()) == []
    oracle = OmegaConf.to_object(_compose("perception=oracle").perception)
    assert isinstance(oracle, PerceptionConfig)
    assert oracle_components(oracle) == [
        "answerer", "attributes", "description", "detector", "matcher", "memory", "room", "scorer",
    ]  # fmt: skip
    assert oracle.detector.label_similarity == 0.7 and oracle.matcher.kind == "oracle"


def test_one_loader_refuses_unknown_keys_by_name_in_every_section() -> None:
    from tango.perception.config import perception_config

    with pytest.raises(ValueError, match=r"unknown perception.detector setting\(s\) \['treshold'\]"):
        perception_config({"detector": {"treshold": 0.3}})
    with pytest.raises(ValueError, match=r"unknown agent.primitives setting\(s\) \['reach'\]"):
        dataclass_from_dict(GROUP_SCHEMAS["agent"], {"primitives": {"reach": 1.0}}, "agent")
    with pytest.raises(ValueError, match=r"unknown task setting\(s\) \['agent'\]"):
        dataclass_from_dict(schema_of("task", "goat"), {"agent": {}}, "task")
