"""Runs episodes in this process (1 worker) or in a pool of spawned processes, each with its own runner.

Each worker builds its runner once (environment and models) and then takes episodes one by one; results come
back to the parent, which alone writes the results file. Per-episode seeds make the results independent of
which worker ran an episode. A worker that dies (e.g. a segfault in a native library) breaks the pool: the
unfinished episodes are rerun in a fresh pool, and the episode the dead worker was running (its in-flight
mark; workers the pool stops clear theirs) is recorded as `WorkerCrashed` once it has killed a worker twice.
With one worker the run process marks its own episodes; one that kills it is recorded by the next run
(tango.harness.inflight). An interrupt (SIGINT, SIGTERM) stops the pool's workers and abandons their episodes.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from tango.harness.episode import EpisodeSpec, TaskPlugin
from tango.harness.inflight import crash_record, mark, marker_path, run_process_marker_name, take_markers
from tango.harness.worker import EpisodeJob, EpisodeWorker
from tango.lifetime import exit_with_parent
from tango.startup_freeze import freeze_startup, frozen_startup
from tango.threads import pin_threads

log = logging.getLogger(__name__)

MAX_CRASHES_PER_EPISODE = 2

_worker: EpisodeWorker | None = None
_init_error: Exception | None = None
"""Why this worker could not build its runner (e.g. a RunError for an unreachable server): every task raises it
again, so the run stops with that error, as it would in one process, instead of a broken pool."""


def _init_worker(job: EpisodeJob, parent: int) -> None:
    """Pool initializer: build this process's runner once (a process global is what a pool worker has); the
    worker ends with `parent`, the run process."""
    global _worker, _init_error
    signal.signal(signal.SIGTERM, _on_terminate)
    exit_with_parent(parent)
    pin_threads()
    try:
        _worker = EpisodeWorker(job)
    except Exception as error:  # noqa: BLE001  (raised again by each task: see _init_error)
        _init_error = error
    freeze_startup()  # (kept until the worker ends with its pool)


def _on_terminate(signum: int, frame: object) -> None:
    """A worker stopped by the pool (another one died, or the run was interrupted) clears its in-flight mark:
    it did not crash."""
    if _worker is not None:
        marker_path(_worker.job.run_dir, str(os.getpid())).unlink(missing_ok=True)
    os._exit(128 + signum)


def _run_in_worker(spec: EpisodeSpec) -> dict[str, Any]:
    """Pool task: mark the episode in flight (for crash attribution), run it, clear the mark."""
    if _init_error is not None:
        raise _init_error
    assert _worker is not None, "pool worker used before its initializer ran"
    marker = mark(_worker.job.run_dir, str(os.getpid()), spec.episode_id)
    record = _worker.execute(spec)
    marker.unlink(missing_ok=True)
    return record


def _crashed_episode_ids(run_dir: Path) -> set[str]:
    """Episode ids left marked in flight by workers that died; the marks are removed."""
    return {marker.episode_id for marker in take_markers(run_dir)}


def run_episodes(
    specs: Sequence[EpisodeSpec],
    job: EpisodeJob,
    plugin: TaskPlugin,
    num_workers: int,
    on_record: Callable[[dict[str, Any]], None],
) -> None:
    """Run every spec once and hand each record to `on_record` (in the calling process) as it finishes."""
    if not specs:
        return
    pin_threads()  # the workers are the parallelism: threads inside a process would only compete (and spin)
    if num_workers == 1:
        worker = EpisodeWorker(job, plugin)
        try:
            with frozen_startup():
                for spec in specs:
                    marker = mark(job.run_dir, run_process_marker_name(), spec.episode_id)
                    try:
                        record = worker.execute(spec)
                    finally:  # an interrupt abandons the episode: it did not crash (a crash never gets here)
                        marker.unlink(missing_ok=True)
                    on_record(record)
        finally:
            worker.close()
        return
    _run_in_pool(list(specs), job, plugin, num_workers, on_record)


def _run_in_pool(
    specs: list[EpisodeSpec],
    job: EpisodeJob,
    plugin: TaskPlugin,
    num_workers: int,
    on_record: Callable[[dict[str, Any]], None],
) -> None:
    crashes: Counter[str] = Counter()
    pending = specs
    _crashed_episode_ids(Path(job.run_dir))
    while pending:
        futures = _run_pool_once(pending, job, num_workers, on_record)
        if futures is None:
            return
        # The pool broke; it is shut down, so only the dead worker's in-flight mark is left.
        done = set()
        for future, spec in futures.items():
            if future.done() and not future.cancelled() and future.exception() is None:
                on_record(future.result())
                done.add(spec.episode_id)
        crashed = _crashed_episode_ids(Path(job.run_dir))
        if not crashed:
            raise BrokenProcessPool("a worker process died outside any episode (see the log above)")
        log.error("a worker process died while running %s; restarting the pool", sorted(crashed))
        crashes.update(crashed)
        remaining = []
        for spec in futures.values():
            if spec.episode_id in done:
                continue
            if crashes[spec.episode_id] >= MAX_CRASHES_PER_EPISODE:
                reason = f"the worker process died while running this episode {MAX_CRASHES_PER_EPISODE} times"
                on_record(crash_record(spec, job.task, plugin, reason))
            else:
                remaining.append(spec)
        pending = remaining


def _run_pool_once(
    pending: list[EpisodeSpec], job: EpisodeJob, num_workers: int, on_record: Callable[[dict[str, Any]], None]
) -> dict[Future[dict[str, Any]], EpisodeSpec] | None:
    """Run the episodes in one pool; None when all finished, else the futures left when a worker died.

    Records already handed to `on_record` are removed from the returned futures.
    """
    pool = ProcessPoolExecutor(
        max_workers=min(num_workers, len(pending)),
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_init_worker,
        initargs=(job, os.getpid()),
    )
    futures: dict[Future[dict[str, Any]], EpisodeSpec] = {}
    try:
        futures = {pool.submit(_run_in_worker, spec): spec for spec in pending}
        for future in as_completed(futures):
            record = future.result()
            del futures[future]
            on_record(record)
        return None
    except BrokenProcessPool:
        return futures
    except (
        KeyboardInterrupt
    ):  # SIGINT or SIGTERM: abandon the running episodes (their workers clear their marks)
        for process in multiprocessing.active_children():
            process.terminate()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
