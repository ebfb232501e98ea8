"""The local LLM as program writer. Two modes, one JSON line each.

`generate`: the generator=local pipeline (prompt, llama.cpp, extraction, repair, pre-run check) on the
instructions of a task's first N episodes, without running them: seconds per program cold (first call of the
process), with the prompt prefix reused from the KV cache, and from the disk cache (a second pass); tokens;
valid-program rate first try and after repair; share with the right target first try and after the check.

`runs DIR...`: what eval runs (episodes.jsonl) say: SR/SPL (score for OpenEQA), program sources, fallback
rate, first-try validity, check and replan counts, and the success of episodes that needed a replan.

usage: python scripts/bench.py llm generate --task objectnav --episodes 5 [--model-path FILE]
       python scripts/bench.py llm runs runs/objectnav-local runs/objectnav-template
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tango.programs.generators.config import GeneratorConfig
from tango.programs.generators.factory import make_generator
from tango.programs.generators.llm import LLMProgramGenerator


def instructions(task: str, count: int) -> list[str]:
    """The instructions the agent gets in the task's first `count` episodes (GOAT: one per episode, the
    default `task.program=episode`)."""
    from tango.scenes.datasets.default import ensure_default_dataset
    from tango.tasks import goat, objectnav, openeqa
    from tango.tasks.flow import dataset_paths

    ensure_default_dataset()
    flows = {
        "objectnav": objectnav.ObjectGoalFlow(objectnav.ObjectNavTaskConfig()),
        "goat": goat.GoatFlow(goat.GoatTaskConfig()),
        "openeqa": openeqa.OpenEQAFlow(openeqa.OpenEQATaskConfig()),
    }
    flow = flows[task]
    episodes = flow.read(dataset_paths(flow.task, flow.data_file)[0]).episodes[:count]
    return [flow.spec(e).instruction for e in episodes]


def generate(args: argparse.Namespace) -> dict[str, Any]:
    cache = tempfile.mkdtemp(prefix="tango-bench-llm-")
    config = GeneratorConfig(
        name="local",
        model=args.model,
        model_path=args.model_path,
        check=True,
        max_tokens=args.max_tokens,
        cache_dir=cache,
        threads=args.threads,
        grammar=args.grammar,
        prompt_state_dir=args.prompt_state,
    )
    generator = make_generator(config)
    assert isinstance(generator, LLMProgramGenerator)
    texts = instructions(args.task, args.episodes)
    rows, seconds = [], []
    loaded = 0
    for text in texts:
        wall, cpu = time.perf_counter(), time.process_time()
        record = generator.generate(args.task, text)
        seconds.append((time.perf_counter() - wall, time.process_time() - cpu))
        if len(seconds) == 1:
            loaded = getattr(getattr(generator.backend, "last", None), "loaded_tokens", 0)
        first = record.attempts[0].error if record.attempts else "no call"
        rows.append(
            {
                "record": record,
                "first_valid": first is None or first.startswith("check:"),
                "first_right": first is None,
            }
        )
    cached = []
    for text in texts:
        wall = time.perf_counter()
        generator.generate(args.task, text)
        cached.append(time.perf_counter() - wall)
    records = [r["record"] for r in rows]
    n = len(records)
    return {
        "bench": "llm generate",
        "task": args.task,
        "instructions": n,
        "model": args.model,
        "grammar": args.grammar,
        "prompt_state_loaded_tokens": loaded,
        "seconds_cold": round(seconds[0][0], 2),
        "cpu_seconds_cold": round(seconds[0][1], 2),
        "seconds_prefix_reuse_mean": round(sum(s for s, _ in seconds[1:]) / max(1, n - 1), 2),
        "cpu_seconds_prefix_reuse_mean": round(sum(c for _, c in seconds[1:]) / max(1, n - 1), 2),
        "seconds_cached_mean": round(sum(cached) / n, 4),
        "calls": sum(len(r.attempts) for r in records),
        "prompt_tokens": sum(r.prompt_tokens for r in records),
        "completion_tokens": sum(r.completion_tokens for r in records),
        "valid_first_try": sum(r["first_valid"] for r in rows) / n,
        "valid_after_repair": sum(r.program_source == "llm" for r in records) / n,
        "fallback_rate": sum(r.program_source == "template" for r in records) / n,
        "right_target_first_try": sum(r["first_right"] for r in rows) / n,
        "right_target_after_check": sum(r.program_source == "llm" and r.check_passed for r in records) / n,
        "programs": [
            {
                "instruction": r.instruction,
                "program": r.program,
                "source": r.program_source,
                "attempt_errors": [a.error for a in r.attempts],
                "cpu_seconds": r.cpu_seconds,
                "completion_tokens": r.completion_tokens,
            }
            for r in records
        ],
        "max_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
        "load_avg_1m": os.getloadavg()[0],
    }


def summarize_run(path: Path) -> dict[str, Any]:
    lines = [json.loads(line) for line in (path / "episodes.jsonl").read_text().splitlines() if line.strip()]
    generations = []
    for episode in lines:
        generation = episode.get("generation") or {}
        generations.extend(generation.get("subtasks", [generation]))
    asked = [g for g in generations if g.get("attempts") and g.get("generator") != "template"]
    firsts = [g["attempts"][0].get("error") or "" for g in asked]
    metric = "normalised_match" if any("normalised_match" in e["metrics"] for e in lines) else "success"

    def share(count: int, total: int) -> float | None:
        return round(count / total, 3) if total else None

    return {
        "run": str(path),
        "episodes": len(lines),
        "programs": len(generations),
        metric: sum(e["metrics"].get(metric, 0.0) for e in lines) / max(1, len(lines)),
        "spl": sum(e["metrics"].get("spl", 0.0) for e in lines) / max(1, len(lines)),
        "sources": {s: sum(g.get("program_source") == s for g in generations) for s in ("llm", "template")},
        "fallback_rate": share(sum(g.get("program_source") == "template" for g in asked), len(asked)),
        "valid_first_try": share(
            sum(not f.startswith(("line", "model", "the program")) for f in firsts), len(asked)
        ),
        "right_target_first_try": share(sum(not f for f in firsts), len(asked)),
        "right_target_after_check": share(
            sum(g.get("program_source") == "llm" and g.get("check_passed", True) for g in asked), len(asked)
        ),
        "program_cpu_seconds": round(sum(g.get("cpu_seconds", 0.0) for g in generations), 1),
        "program_wall_seconds": round(sum(g.get("wall_seconds", 0.0) for g in generations), 1),
        "completion_tokens_per_program": share(
            sum(a.get("completion_tokens", 0) for g in asked for a in g["attempts"]), len(asked)
        ),
        "replans": sum(len(g.get("replans", [])) for g in generations),
        "programs_replanned": sum(bool(g.get("replans")) for g in generations),
        "llm_calls": sum(e.get("llm_calls", 0) for e in lines),
        "tokens": sum(e.get("prompt_tokens", 0) + e.get("completion_tokens", 0) for e in lines),
        "failures": [e.get("failure_reason") for e in lines if e.get("failure_reason")],
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench.py llm")
    modes = parser.add_subparsers(dest="mode", required=True)
    gen = modes.add_parser("generate")
    gen.add_argument("--task", default="objectnav")
    gen.add_argument("--episodes", type=int, default=5)
    gen.add_argument("--model", default="qwen2.5-coder-1.5b")
    gen.add_argument("--grammar", action=argparse.BooleanOptionalAction, default=True)
    gen.add_argument("--prompt-state", default="", help="prompt KV state folder (default: in the temp cache)")
    gen.add_argument("--model-path", default="")
    gen.add_argument("--threads", type=int, default=0)
    gen.add_argument(
        "--max-tokens", type=int, default=768, help="the cap; each reply has its own budget from the prompt"
    )
    runs = modes.add_parser("runs")
    runs.add_argument("dirs", nargs="+", type=Path)
    args = parser.parse_args(argv)
    if args.mode == "generate":
        print(json.dumps(generate(args)))
    else:
        print(
            json.dumps(
                {
                    "bench": "llm runs",
                    "runs": [summarize_run(d) for d in args.dirs],
                    "load_avg_1m": os.getloadavg()[0],
                }
            )
        )
    return 0
