"""Every structured config, registered once with hydra's ConfigStore under `schema/` (as habitat-lab does).

configs/ holds presets only: each preset's defaults list starts with its schema (`/schema/<group>@_here_`),
so hydra rejects a key the schema lacks and fills every key the preset leaves out from the dataclass defaults.
Groups: `schema/eval`, `schema/sim`, `schema/perception`, `schema/generator`, `schema/agent`, `schema/train`
(PointNav training, configs/train_pointnav.yaml), and one
`schema/task/<name>` per registered task (tango.harness.registry) plus `schema/<section>` for the other top-level
sections a task owns (GraphNav's `graphnav`). The built-in tasks (the modules of tango/tasks, each registering
itself) are registered here, by the entry point; the harness's registry names no task package.
"""

from __future__ import annotations

from hydra.core.config_store import ConfigStore

from tango.agent.config import AgentConfig
from tango.harness.config import EvalConfig
from tango.harness.registry import TASKS
from tango.navigation.train.config import PointNavTrainConfig
from tango.perception.config import PerceptionConfig
from tango.plugins import import_package_modules
from tango.programs.generators.config import GeneratorConfig
from tango.sim.config import EmbeddedSimConfig

SCHEMA_GROUP = "schema"
BUILTIN_TASKS = "tango.tasks"
"""The package whose modules register the built-in tasks when imported."""
GROUP_SCHEMAS: dict[str, type] = {
    "eval": EvalConfig,
    "sim": EmbeddedSimConfig,
    "perception": PerceptionConfig,
    "generator": GeneratorConfig,
    "agent": AgentConfig,
    "train": PointNavTrainConfig,
}


def register_builtin_tasks() -> None:
    """Register the built-in tasks: import every module directly in tango/tasks (each registers its task;
    importing again is a no-op). Third-party tasks come through the registry's entry-point group."""
    import_package_modules(BUILTIN_TASKS)


def register_configs() -> None:
    """Store every schema in hydra's ConfigStore (idempotent: storing again replaces the same nodes)."""
    register_builtin_tasks()
    store = ConfigStore.instance()
    for name, schema in GROUP_SCHEMAS.items():
        store.store(group=SCHEMA_GROUP, name=name, node=schema)
    for task in TASKS.names():
        entry = TASKS.get(task)
        store.store(group=f"{SCHEMA_GROUP}/task", name=task, node=entry.schema)
        for section, schema in entry.sections.items():
            store.store(group=SCHEMA_GROUP, name=section, node=schema)


def schema_of(group: str, name: str = "") -> type:
    """The schema of a config group (`task` needs the task name)."""
    register_builtin_tasks()
    if group == "task":
        return TASKS.get(name).schema
    if group in GROUP_SCHEMAS:
        return GROUP_SCHEMAS[group]
    for task in TASKS.names():
        sections = TASKS.get(task).sections
        if group in sections:
            return sections[group]
    raise KeyError(f"no schema is registered for config group {group!r}")
