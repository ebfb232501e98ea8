"""One evaluation run: choose the episodes, skip finished ones, run the rest, write results and summary."""

from __future__ import annotations

import json
import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console

from tango.harness.config import EvalConfig
from tango.harness.episode import TaskPlugin, load_plugin
from tango.harness.pool import run_episodes
from tango.harness.progress import RunProgress
from tango.harness.report import write_report
from tango.harness.results import SUMMARY_FILE, ResultsWriter, json_safe
from tango.harness.sharding import select_episodes
from tango.harness.summary import summarize, summary_table
from tango.harness.worker import EpisodeJob

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
    task: str,
    wall: float,
    config: dict[str, Any],
    eval_cfg: EvalConfig,
    interrupted: bool,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Write summary.json over the selected episodes recorded so far; return it with those records."""
    records = [record for record in writer.records if str(record["episode_id"]) in selected_ids]
    summary = summarize(records, task, wall, configs=config, num_planned=len(selected_ids))
    summary.update(
        num_workers=eval_cfg.num_workers,
        shard={"index": eval_cfg.shard, "count": eval_cfg.num_shards},
        complete=not interrupted and len(records) == len(selected_ids),
    )
    write_summary(writer.run_dir, summary)
    return summary, records


def run_evaluation(
    config: dict[str, Any],
    plugin: TaskPlugin | None = None,
    console: Console | None = None,
    table_console: Console | None = None,
) -> RunOutcome:
    """Run the configured task as DESIGN.md specifies; `config` is the full resolved config (dict).

    The progress bar goes to `console` (stderr by default), the final summary table to `table_console` (stdout).
    `plugin` replaces the one named by `task.plugin` in this process only: pool workers always import
    `task.plugin`, so pass an object only for tests or with one worker.
    """
    eval_cfg = EvalConfig.from_dict(dict(config["eval"]))
    task_cfg = config["task"]
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
    previous_wall = _previous_wall_time(run_dir)
    start = time.perf_counter()
    with RunProgress(task, len(selected), len(selected) - len(todo), eval_cfg.progress, console) as progress:

        def on_record(record: dict[str, Any]) -> None:
            writer.append(record)
            progress.update(record)

        try:
            run_episodes(todo, job, plugin, eval_cfg.num_workers, on_record)
        except KeyboardInterrupt:
            log.warning(
                "interrupted: %d episodes recorded; rerun the same command to resume", len(writer.records)
            )
            _finish(
                writer,
                selected_ids,
                task,
                previous_wall + time.perf_counter() - start,
                config,
                eval_cfg,
                True,
            )
            raise
    wall = previous_wall + time.perf_counter() - start
    summary, records = _finish(writer, selected_ids, task, wall, config, eval_cfg, False)
    breakdown = write_report(run_dir, summary, records) if eval_cfg.report else None
    causes = None if breakdown is None else breakdown.get("causes")
    (table_console or Console()).print(summary_table(summary, causes))
    return RunOutcome(run_dir=run_dir, summary=summary)
