"""One evaluation run: choose the episodes, skip finished ones, run the rest, write results and summary."""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console

from tango.config_utils import dataclass_from_dict
from tango.harness.config import ConfigError, EvalConfig
from tango.harness.dirlock import OutputDirLock
from tango.harness.episode import EpisodeSpec, TaskPlugin, load_plugin
from tango.harness.inflight import crash_record, take_markers
from tango.harness.parallelism import parse_workers, worker_count
from tango.harness.platform import platform_info
from tango.harness.pool import run_episodes
from tango.harness.progress import RunProgress
from tango.harness.registry import TASKS
from tango.harness.report import FailureAnalysis, write_report
from tango.harness.results import SUMMARY_FILE, ResultsWriter, json_safe
from tango.harness.sharding import select_episodes
from tango.harness.signals import Terminated, sigterm_as_interrupt
from tango.harness.summary import summarize, summary_table
from tango.harness.worker import EpisodeJob

Prepare = Callable[[dict[str, Any]], object]
"""Readies what a task reads (e.g. generates the default dataset) from the resolved run config."""
log = logging.getLogger(__name__)


class RunError(RuntimeError):
    """The run cannot start (e.g. results exist and resume is off); the message says what to do."""


@dataclass
class RunOutcome:
    """Where the results are and what the summary says."""

    run_dir: Path
    summary: dict[str, Any]


def _previous_wall_time(run_dir: Path) -> float:
    """Wall time already spent on this run dir by earlier (resumed) invocations, from its summary.json."""
    path = run_dir / SUMMARY_FILE
    if not path.is_file():
        return 0.0
    try:
        return float(json.loads(path.read_text()).get("wall_time_s", 0.0))
    except (ValueError, json.JSONDecodeError):
        return 0.0


def write_summary(run_dir: Path, summary: dict[str, Any]) -> None:
    """Write summary.json atomically (a kill mid-write leaves the previous one)."""
    tmp = run_dir / (SUMMARY_FILE + ".tmp")
    tmp.write_text(json.dumps(json_safe(summary), indent=2, sort_keys=True) + "\n")
    os.replace(tmp, run_dir / SUMMARY_FILE)


def _finish(
    writer: ResultsWriter,
    selected_ids: set[str],
    plugin: TaskPlugin,
    wall: float,
    config: dict[str, Any],
    eval_cfg: EvalConfig,
    workers: int,
    interrupted: bool,
    notes: dict[str, Any] | None = None,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Write summary.json over the selected episodes recorded so far, scored by the task `plugin`, with its
    `notes` (what it left out, e.g. task files it skipped); return it with those records."""
    records = [record for record in writer.records if str(record["episode_id"]) in selected_ids]
    task = str(config["task"]["name"])
    summary = summarize(records, task, wall, configs=config, num_planned=len(selected_ids), scoring=plugin)
    summary.update(notes or {})
    summary.update(
        num_workers=workers,
        shard={"index": eval_cfg.shard, "count": eval_cfg.num_shards},
        complete=not interrupted and len(records) == len(selected_ids),
        platform=platform_info(config),
    )
    write_summary(writer.run_dir, summary)
    return summary, records


def run_evaluation(
    config: dict[str, Any],
    plugin: TaskPlugin | None = None,
    console: Console | None = None,
    table_console: Console | None = None,
    analyse: FailureAnalysis | None = None,
    prepare: Prepare | None = None,
) -> RunOutcome:
    """Run the configured task as DESIGN.md specifies; `config` is the full resolved config (dict).

    The progress bar goes to `console` (stderr by default), the final summary table to `table_console` (stdout).
    `plugin` replaces the one named by `task.plugin` in this process only: pool workers always import
    `task.plugin`, so pass an object only for tests or with one worker. The output folder is locked for the
    whole run (tango.harness.dirlock); SIGTERM ends it as SIGINT does (an interrupted run with complete: false).
    `analyse` writes the failure breakdown the report shows (the entry point passes tango.analysis's);
    `prepare` readies what the task reads once the configuration has passed its checks, before the episodes are
    listed (the entry point passes the default dataset's preparation), so a configuration mistake is refused
    before any slow work.
    """
    eval_cfg = EvalConfig.from_dict(dict(config["eval"]))
    with OutputDirLock(eval_cfg.output_dir, eval_cfg.wait_for_lock), sigterm_as_interrupt():
        return _run_locked(config, eval_cfg, plugin, console, table_console, analyse, prepare)


def check_task_section(task_cfg: dict[str, Any]) -> None:
    """Refuse a `task` key the task's registered schema lacks (hydra's `+task.key=...` adds any key)."""
    name = str(task_cfg.get("name"))
    if name in TASKS.names():
        dataclass_from_dict(TASKS.get(name).schema, task_cfg, "task", ConfigError)


def _record_crashed(
    writer: ResultsWriter, selected: list[EpisodeSpec], task: str, plugin: TaskPlugin, retry: bool
) -> None:
    """Episodes an earlier run's process died in (its in-flight markers): recorded as crashed, or rerun with
    eval.retry_errors. Only the run process's own markers count: a pool's workers die with their run."""
    crashed = {marker.episode_id for marker in take_markers(writer.run_dir) if marker.in_run_process}
    for spec in selected:
        if spec.episode_id not in crashed or spec.episode_id in writer.finished_ids:
            continue
        if retry:
            log.warning("%s: running again episode %s, in which an earlier run died", task, spec.episode_id)
            continue
        log.error(
            "%s: episode %s was running when an earlier run's process died (crash, out-of-memory kill or "
            "SIGKILL): recorded as crashed and skipped; eval.retry_errors=true runs it again",
            task,
            spec.episode_id,
        )
        reason = "the run process died while running this episode (found by the next run)"
        writer.append(crash_record(spec, task, plugin, reason))


def _plugin_worker_cap(plugin: TaskPlugin, config: dict[str, Any], workers: int) -> int:
    """A task plugin may cap the worker count (`max_workers(config)` -> (limit, reason) or None), e.g. one
    simulator app serves one worker; the cap is logged with its reason."""
    cap_of = getattr(plugin, "max_workers", None)
    cap = cap_of(config) if callable(cap_of) else None
    if cap is None or workers <= cap[0]:
        return workers
    log.warning("%s: %d worker(s) instead of %d: %s", config["task"]["name"], cap[0], workers, cap[1])
    return int(cap[0])


def _run_locked(
    config: dict[str, Any],
    eval_cfg: EvalConfig,
    plugin: TaskPlugin | None,
    console: Console | None,
    table_console: Console | None,
    analyse: FailureAnalysis | None,
    prepare: Prepare | None,
) -> RunOutcome:
    task_cfg = config["task"]
    check_task_section(task_cfg)
    task = str(task_cfg["name"])
    plugin_path = task_cfg.get("plugin")
    plugin = plugin or load_plugin(plugin_path, task)
    console = console or Console(stderr=True)
    run_dir = Path(eval_cfg.output_dir)
    writer = ResultsWriter(run_dir)
    if writer.records and not eval_cfg.resume:
        raise RunError(
            f"{writer.path} already holds {len(writer.records)} episodes; use eval.resume=true or a new dir"
        )
    if prepare is not None:
        prepare(config)
    episodes = plugin.list_episodes(config)
    selected = select_episodes(episodes, eval_cfg.num_episodes, eval_cfg.shard, eval_cfg.num_shards)
    selected_ids = {spec.episode_id for spec in selected}
    if len(selected_ids) != len(selected):
        raise RunError(f"task {task!r} lists some episode id more than once; episode ids must be unique")
    if eval_cfg.retry_errors:
        errored = {str(r["episode_id"]) for r in writer.records if r.get("status") == "error"} & selected_ids
        if errored:
            log.info("%s: running %d episodes that raised again (eval.retry_errors)", task, len(errored))
            writer.drop(errored)
    _record_crashed(writer, selected, task, plugin, eval_cfg.retry_errors)
    todo = [spec for spec in selected if spec.episode_id not in writer.finished_ids]
    log.info(
        "%s: %d episodes selected, %d already finished, %d to run",
        task,
        len(selected),
        len(selected) - len(todo),
        len(todo),
    )
    job = EpisodeJob(
        task=task,
        plugin_path=plugin_path,
        config=config,
        run_dir=str(run_dir),
        base_seed=eval_cfg.seed,
        video=eval_cfg.video,
        video_fps=eval_cfg.video_fps,
    )
    workers = _plugin_worker_cap(plugin, config, worker_count(parse_workers(eval_cfg.num_workers), len(todo)))
    log.info("%s: %d worker process(es) (eval.num_workers=%s)", task, workers, eval_cfg.num_workers)
    notes_of = getattr(plugin, "summary_notes", None)
    notes: dict[str, Any] = notes_of(config) if callable(notes_of) else {}
    previous_wall = _previous_wall_time(run_dir)
    start = time.perf_counter()
    with RunProgress(task, len(selected), len(selected) - len(todo), eval_cfg.progress, console) as progress:

        def on_record(record: dict[str, Any]) -> None:
            writer.append(record)
            progress.update(record)

        try:
            run_episodes(todo, job, plugin, workers, on_record)
        except KeyboardInterrupt as interrupt:
            wall = previous_wall + time.perf_counter() - start
            _finish(writer, selected_ids, plugin, wall, config, eval_cfg, workers, True, notes)
            log.warning(
                "%s: %d of %d episodes recorded, summary.json says complete: false; rerun the same command "
                "to resume",
                "stopped by SIGTERM" if isinstance(interrupt, Terminated) else "interrupted",
                len(selected_ids & writer.finished_ids),
                len(selected),
            )
            raise
    wall = previous_wall + time.perf_counter() - start
    summary, records = _finish(writer, selected_ids, plugin, wall, config, eval_cfg, workers, False, notes)
    breakdown = write_report(run_dir, summary, records, plugin, analyse) if eval_cfg.report else None
    causes = None if breakdown is None else breakdown.get("causes")
    (table_console or Console()).print(summary_table(summary, causes))
    return RunOutcome(run_dir=run_dir, summary=summary)
