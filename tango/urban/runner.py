"""UrbanGround as a harness task: list the task files of the chosen rung, and play each through the app's API
(the real app at `sim.url`, or a stand-in server this runner starts on a free 127.0.0.1 port) with the
configured agent. `UrbanTaskPlugin` is what `python -m tango.eval task=urban` loads (configs/task/urban.yaml).
"""

from __future__ import annotations

import fcntl
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

from tango.harness.episode import EpisodeContext, EpisodeResult, EpisodeSpec
from tango.harness.run import RunError
from tango.harness.scoring import BaseTask, pool_by_goal_type
from tango.urban.agents.ocr import TesseractMissing, tesseract_binary
from tango.urban.client import ClientConfig, UrbanClient, UrbanClientError
from tango.urban.config import UrbanConfig
from tango.urban.episode import UrbanEpisode
from tango.urban.instructions import schedule_deadlines_s
from tango.urban.judge import PlaceJudge
from tango.urban.kinds import id_prefix, kinds_of_rung
from tango.urban.routemap import RoutePainter
from tango.urban.schedule import clock_text
from tango.urban.scoring import (
    failure_metrics,
    failure_reason,
    reference_length_to_radius,
    score,
    summary_fields,
)
from tango.urban.server.launcher import LaunchError, ServerProcess
from tango.urban.server.standin import TASK_DIR, read_city
from tango.urban.taskfile import SkippedTask, TaskFileError, UrbanTask, load_task_dir, load_task_file
from tango.urban.taskgen.build import DATA_VERSION, generate_city, read_references
from tango.urban.variants import expand_all, variant_of

log = logging.getLogger(__name__)


def city_dir(config: UrbanConfig) -> Path:
    """The configured city folder, or the generated default under the cache (written on first use)."""
    if config.city_dir:
        return Path(config.city_dir)
    from tango.cache import cache_root

    gen = config.generate
    folder = cache_root() / DATA_VERSION / f"seed{gen.seed}-k{gen.per_kind}"
    if not (folder / "city.json").is_file():
        log.info(
            "no urban task set at %s: generating one (seed %d, %d per kind)", folder, gen.seed, gen.per_kind
        )
        generate_city(folder, gen.seed, gen.per_kind)
    return folder


def app_urls(sim: dict[str, Any]) -> list[str]:
    """The apps a run drives: `sim.urls` (one per worker), else `sim.url`; [] for the stand-in."""
    urls = [str(u) for u in (sim.get("urls") or []) if u]
    return urls or ([str(sim["url"])] if sim.get("url") else [])


def check_app_folder(config: UrbanConfig, urls: list[str]) -> None:
    """With an app, the tasks must be that app's own (its build folder), never the generated set."""
    if urls and not config.city_dir:
        raise RunError(
            f"urban: sim.url={urls[0]} drives an app whose tasks tango reads from its build folder: set "
            "urban.city_dir to the folder holding its task/ directory"
        )


def select_tasks(config: UrbanConfig) -> tuple[list[UrbanTask], list[SkippedTask]]:
    """The tasks of the rung (and kinds), interleaved by kind (first of every kind, then the second, ...),
    with the variants of `urban.variants=all`; and the files skipped because no evaluator takes their type."""
    folder = city_dir(config) / TASK_DIR
    wanted = set(kinds_of_rung(config.rung))
    if config.kinds:
        wanted &= set(config.kinds)
    tasks, skipped = load_task_dir(folder)
    if config.variants == "all":
        tasks = expand_all(tasks)
    by_kind: dict[str, list[UrbanTask]] = {}
    for task in tasks:
        if task.kind.prefix in wanted:
            by_kind.setdefault(task.kind.prefix, []).append(task)
    order = [prefix for prefix in kinds_of_rung("all") if prefix in by_kind]
    rounds = max((len(v) for v in by_kind.values()), default=0)
    return [by_kind[k][i] for i in range(rounds) for k in order if i < len(by_kind[k])], skipped


def claim_app(urls: list[str], run_dir: Path) -> tuple[str, IO[str]]:
    """One app of `urls` for this worker, held (an exclusive lock file in the run folder) while the worker
    lives, so two workers never drive one avatar."""
    for index, url in enumerate(urls):
        handle = open(run_dir / f".urban-app-{index}.lock", "w")  # noqa: SIM115 (held for the worker's life)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            continue
        return url, handle
    raise RunError(f"urban: every app of sim.urls ({len(urls)}) is taken by another worker")


class _RouteFrames:
    """The harness's frame sink, with the route so far drawn as the top-down panel of each frame."""

    def __init__(self, sink: Any, painter: RoutePainter, episode: UrbanEpisode) -> None:
        self.sink, self.painter, self.episode = sink, painter, episode

    @property
    def enabled(self) -> bool:
        return bool(self.sink.enabled)

    def add(self, rgb: Any, program_line: str = "") -> None:
        route = [(p.lat, p.lon) for p in self.episode.positions]
        self.sink.add(rgb, topdown=self.painter.draw(self.episode.task, route), program_line=program_line)


class UrbanRunner:
    def __init__(self, cfg: dict[str, Any]) -> None:
        try:
            self._setup(cfg)
        except (UrbanClientError, TaskFileError, LaunchError, ValueError, TesseractMissing) as error:
            raise RunError(f"urban: {error}") from None

    def _setup(self, cfg: dict[str, Any]) -> None:
        self.config = UrbanConfig.from_dict(cfg.get("urban"))
        if self.config.agent == "program" and self.config.perception.signs == "ocr":
            tesseract_binary()  # TesseractMissing: a setup mistake, stopped before any episode
        sim = cfg.get("sim") or {}
        self.task_cfg = cfg.get("task") or {}
        self.generator = dict(cfg.get("generator") or {"name": "template"})
        self.token = str(sim.get("token") or "")
        urls = app_urls(sim)
        check_app_folder(self.config, urls)
        run_dir = Path(str((cfg.get("eval") or {}).get("output_dir") or "."))
        self._app_lock: IO[str] | None = None
        self.url = ""
        if urls:
            self.url, self._app_lock = claim_app(urls, run_dir)
        self.server: ServerProcess | None = None
        self.folder = city_dir(self.config)
        self.references = read_references(self.folder)
        painter = RoutePainter()
        if not self.url:
            from tango.urban.city.layout import generate_district
            from tango.urban.city.raster import rasterize

            city = read_city(self.folder)
            district = generate_district(int(city["seed"]), tuple(city["origin"]))
            painter = RoutePainter(district, rasterize(district))
            self.server = ServerProcess(self.folder, self.token, log_path=run_dir / "urban_server.log")
        else:
            UrbanClient(self._client_config(self.url)).health()
        self.painter = painter
        self._llm: Any = None
        self._place_judge: PlaceJudge | None = None

    def _client_config(self, url: str) -> ClientConfig:
        return ClientConfig(url, self.token, self.config.timeout_s, retries=self.config.retries)

    def client(self) -> UrbanClient:
        url = self.url or (self.server.ensure() if self.server is not None else "")
        return UrbanClient(self._client_config(url))

    def describe(self) -> dict[str, Any]:
        agent = self.config.agent
        oracles = ["signs"] if agent == "program" and self.config.perception.signs == "oracle" else []
        return {
            "perception": {
                "name": f"urban-{agent}",
                "signs": self.config.perception.signs,
                "map": self.config.perception.map,
                "oracle_components": oracles,
            },
            "generator": {
                "name": self.generator.get("name", "template") if agent == "program" else agent,
                "model": self.generator.get("model", "")
                if agent == "program"
                else self.config.llm.get("model", ""),
            },
            "controller": {"name": f"urban-{agent}", "app": self.url or "stand-in"},
            "sensors": {
                "preset": "urban-screenshot",
                "width": self.config.width,
                "height": self.config.height,
            },
        }

    def _agent(self, seed: int) -> Any:
        from tango.urban.agents.baselines import RandomAgent
        from tango.urban.agents.mllm import MLLMAgent
        from tango.urban.agents.program import ProgramAgent

        if self.config.agent == "random":
            return RandomAgent(seed)
        if self.config.agent == "mllm":
            from tango.llm import ChatClient, LLMConfig

            if self._llm is None:
                self._llm = ChatClient(LLMConfig(**self.config.llm))
            return MLLMAgent(self._llm, self.config.mllm_show_state, self.config.mllm_history)
        return ProgramAgent(self.generator, self.config.perception.signs)

    def run(self, spec: EpisodeSpec, ctx: EpisodeContext) -> EpisodeResult:
        task = load_task_file(spec.payload["path"])
        if spec.payload.get("variant"):
            task = variant_of(task, str(spec.payload["variant"]))
        radius = float(self.task_cfg.get("success_distance") or 15.0)
        episode = UrbanEpisode(
            self.client(),
            task,
            self.config.steps_for(task.kind.prefix, task.kind.base),
            self.config.width,
            self.config.height,
            radius,
        )
        episode.frames = _RouteFrames(ctx.frames, self.painter, episode)
        episode.start()
        agent = self._agent(ctx.seed)
        outcome = agent.run(episode, ctx.trace_path) if self.config.agent == "program" else agent.run(episode)
        episode.finish()
        legs = self.references.get(task.id, {}).get("legs") or []
        reference = None
        if task.end is not None and task.kind.family == "nav" and legs:
            reference = reference_length_to_radius(legs[0], (task.end.lat, task.end.lon), radius)
        judge = self._judge() if task.kind.family == "place_search" and not task.place_candidates else None
        metrics, theirs = score(episode, self.config.on_time_grace_s, reference, judge)
        ctx.frames.add(
            episode.observe(),
            topdown=self.painter.draw(task, [(p.lat, p.lon) for p in episode.positions]),
            program_line=f"end: {episode.end_reason}",
        )
        return EpisodeResult(
            program=outcome.program,
            program_source=outcome.program_source,
            metrics=metrics,
            num_steps=episode.steps,
            failure_reason=failure_reason(episode, metrics),
            instruction=episode.instruction,
            generation=outcome.generation,
            subtasks=[_kind_row(task.kind.name, episode.instruction, episode.steps, metrics)],
            llm_calls=outcome.llm_calls,
            prompt_tokens=outcome.prompt_tokens,
            completion_tokens=outcome.completion_tokens,
            extra={
                **summary_fields(episode),
                **outcome.extra,
                "oracle_calls": episode.oracle_calls,
                "urban_evaluator": task.kind.evaluator,
                "urbanground": theirs,
                "tango_extras": sorted(set(metrics) - set(theirs)),
                **self._schedule_fields(task),
                **({"placesearch_judge": self.config.judge.get("model", "")} if judge is not None else {}),
            },
        )

    def _judge(self) -> PlaceJudge | None:
        """The place-search judge of `urban.judge` (None when no model is configured)."""
        if not self.config.judge.get("model"):
            return None
        if self._place_judge is None:
            self._place_judge = PlaceJudge(self.config.judge)
        return self._place_judge

    @staticmethod
    def _schedule_fields(task: UrbanTask) -> dict[str, Any]:
        """A schedule's per-stop deadlines as read ("HH:MM", None for an untimed stop)."""
        if task.kind.family != "schedule":
            return {}
        return {"deadlines": [None if d is None else clock_text(d) for d in schedule_deadlines_s(task)]}

    def close(self) -> None:
        if self.server is not None:
            self.server.stop()
        if self._app_lock is not None:
            self._app_lock.close()


def _kind_row(kind: str, instruction: str, steps: int, metrics: dict[str, float]) -> dict[str, Any]:
    """The episode as a row of its task kind, so that summaries and the report group results per kind."""
    row: dict[str, Any] = {
        "goal_type": kind,
        "goal": instruction,
        "success": metrics["success"],
        "num_steps": steps,
    }
    if "spl" in metrics:
        row["spl"] = metrics["spl"]
    return row


def _tasks_of(cfg: dict[str, Any]) -> tuple[list[UrbanTask], list[SkippedTask]]:
    try:
        config = UrbanConfig.from_dict(cfg.get("urban"))
        check_app_folder(config, app_urls(cfg.get("sim") or {}))
        return select_tasks(config)
    except (TaskFileError, ValueError) as error:
        raise RunError(f"urban: {error}") from None


class UrbanTaskPlugin(BaseTask):
    """The TaskPlugin of `task=urban`: settings come from the config's `urban` node."""

    def list_episodes(self, cfg: dict[str, Any]) -> list[EpisodeSpec]:
        tasks, _ = _tasks_of(cfg)
        return [
            EpisodeSpec(
                episode_id=task.id,
                scene_id=f"{task.kind.rung}/{task.kind.name}",
                instruction=task.description or task.kind.name,
                payload={
                    "path": task.path,
                    "kind": task.kind.name,
                    "variant": id_prefix(task.id) if task.generated_variant else "",
                },
                subtask_goal_types=(task.kind.name,),
            )
            for task in tasks
        ]

    def max_workers(self, cfg: dict[str, Any]) -> tuple[int, str] | None:
        """One app serves one worker (two would drive one avatar): with `sim.url` the run uses one worker,
        with `sim.urls` one per app; the stand-in starts one server per worker, so it sets no cap."""
        urls = app_urls(cfg.get("sim") or {})
        if not urls:
            return None
        if len(urls) == 1:
            return 1, "sim.url is one app and one app serves one worker; name one app per worker in sim.urls"
        return len(urls), f"sim.urls names {len(urls)} apps, one per worker"

    def summary_notes(self, cfg: dict[str, Any]) -> dict[str, Any]:
        """summary.json's `skipped_tasks`: files whose type no UrbanGround evaluator takes (id, reason)."""
        _, skipped = _tasks_of(cfg)
        return {"skipped_tasks": [{"id": s.id, "path": s.path, "reason": s.reason} for s in skipped]}

    def make_runner(self, cfg: dict[str, Any]) -> UrbanRunner:
        return UrbanRunner(cfg)

    def failure_metrics(self, spec: EpisodeSpec) -> dict[str, float]:
        return failure_metrics()

    def scoring_rules(self, task_cfg: Mapping[str, Any] | None) -> dict[str, Any]:
        """The arrival radius the task section sets (`success_distance`, metres)."""
        return {"success_distance": (task_cfg or {}).get("success_distance")}

    def aggregate(self, subtasks: list[dict[str, Any]]) -> dict[str, Any] | None:
        """Each episode is one subtask of its task kind: the figures pooled overall and per kind."""
        return pool_by_goal_type(subtasks)
