"""The task registry: each task registers its config schema (the `task` group's dataclass) under its name.

A schema's `plugin` field defaults to the task's `TaskPlugin` ("module:attribute"), so `task=<name>` needs no
plugin line in the YAML (one may still override it). `sections` are other top-level config sections the task
owns (GraphNav's `graphnav`). A task registers when its module is imported: the entry point registers the
built-in ones (tango.config_schema.register_builtin_tasks), and third-party packages add theirs through the
entry-point group `tango.tasks` (an entry point names a module whose import registers tasks), loaded on the
first lookup. The harness names no task itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from tango.plugins import load_entry_points

ENTRY_POINT_GROUP = "tango.tasks"


class TaskRegistryError(ValueError):
    """A task that cannot be registered or found (the message names it and lists the known ones)."""


@dataclass(frozen=True)
class TaskEntry:
    """A registered task: its name, the schema of its `task` section, and other sections it owns."""

    name: str
    schema: type
    sections: dict[str, type] = field(default_factory=dict)


@dataclass
class TaskRegistry:
    """Registered tasks by name; the entry points are loaded on the first lookup."""

    entries: dict[str, TaskEntry] = field(default_factory=dict)
    loaded_plugins: set[str] = field(default_factory=set)
    scanned: bool = False

    def register(self, name: str, schema: type, sections: dict[str, type] | None = None) -> TaskEntry:
        """Register `schema` (a dataclass with `name` and `plugin` fields) as the `task` section of `name`."""
        known = {f.name for f in fields(schema)}
        if not {"name", "plugin"} <= known:
            raise TaskRegistryError(
                f"task {name!r}: schema {schema.__name__} needs `name` and `plugin` fields"
            )
        entry = TaskEntry(name, schema, dict(sections or {}))
        existing = self.entries.get(name)
        if existing is not None and existing.schema is not schema:
            raise TaskRegistryError(
                f"task {name!r} is registered twice ({existing.schema.__module__} and {schema.__module__})"
            )
        self.entries[name] = entry
        return entry

    def scan(self) -> None:
        """Import every entry point of the group (once)."""
        if self.scanned:
            return
        self.scanned = True
        load_entry_points(ENTRY_POINT_GROUP, self.loaded_plugins, "task")

    def get(self, name: str) -> TaskEntry:
        """The entry of task `name`; TaskRegistryError listing the registered tasks if none."""
        self.scan()
        if name not in self.entries:
            raise TaskRegistryError(f"task {name!r} is not registered; known: {', '.join(self.names())}")
        return self.entries[name]

    def names(self) -> list[str]:
        """Every registered task name, sorted."""
        self.scan()
        return sorted(self.entries)


TASKS = TaskRegistry()
register_task = TASKS.register
