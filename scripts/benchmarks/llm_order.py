"""Does the local model's reply to an instruction depend on what its process asked before it?

Takes the one-goal instructions of a program cache (an eval run's `generator.cache_dir`) and asks the model
for each one's first reply again, exactly as the generator's first attempt does (with the settings of
configs/generator/local.yaml: grammar, reply budget), in two passes: `alone`, each instruction as the first
request after the prompt prefix (restored from the saved prompt state, as a new worker process would), and
`sequence`, all of them one after another in reverse order. Prints one JSON line: how many replies differ
between the passes and from the reply the cache holds (written in the eval run's order), and the instructions
whose replies differ.

usage: python scripts/bench.py llm_order CACHE_DIR [--task goat] [--model qwen2.5-coder-1.5b] [--limit N]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tango.programs.generators.config import GeneratorConfig
from tango.programs.generators.factory import make_generator
from tango.programs.generators.llm import LLMProgramGenerator


def cached_first_replies(folder: Path, task: str) -> dict[str, str]:
    """instruction -> the first reply of its cached generation (records of `task` with a model call)."""
    replies = {}
    for path in sorted(folder.glob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        if record.get("task") == task and record.get("attempts"):
            replies[record["instruction"]] = record["attempts"][0]["raw_text"]
    return replies


def local_settings() -> dict[str, Any]:
    """generator=local as an eval run configures it (configs/generator/local.yaml: grammar, reply limit)."""
    import yaml

    values = yaml.safe_load((ROOT / "configs" / "generator" / "local.yaml").read_text(encoding="utf-8"))
    values.pop("defaults", None)
    return dict(values)


def first_reply(generator: LLMProgramGenerator, task: str, instruction: str) -> str:
    """The reply the generator's first attempt gets for `instruction` (its own call, options and budget)."""
    prompt = generator.prompt(task, instruction)
    _, text = generator._complete(prompt, prompt.messages(instruction), 0)
    return text


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench.py llm_order")
    parser.add_argument("cache_dir", type=Path)
    parser.add_argument("--task", default="goat")
    parser.add_argument("--model", default="qwen2.5-coder-1.5b")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--limit", type=int, default=0)
    args = parser.parse_args(argv)
    cached = cached_first_replies(args.cache_dir, args.task)
    texts = sorted(cached)[: args.limit or None]
    config = GeneratorConfig.from_mapping(
        {**local_settings(), "model": args.model, "threads": args.threads, "cache_dir": "",
         "prompt_state_dir": str(args.cache_dir / "prompt-state")}
    )  # fmt: skip
    generator = make_generator(config)
    assert isinstance(generator, LLMProgramGenerator)
    backend: Any = generator.backend
    wall, cpu = time.perf_counter(), time.process_time()
    alone = {}
    for text in texts:
        backend.forget()
        alone[text] = first_reply(generator, args.task, text)
    backend.forget()
    sequence = {text: first_reply(generator, args.task, text) for text in reversed(texts)}
    differ = [t for t in texts if alone[t] != sequence[t]]
    from_cache = [t for t in texts if alone[t] != cached[t]]
    result = {
        "bench": "llm order",
        "cache_dir": str(args.cache_dir),
        "instructions": len(texts),
        "alone_vs_sequence_differ": len(differ),
        "alone_vs_cached_differ": len(from_cache),
        "differ": [{"instruction": t, "alone": alone[t], "sequence": sequence[t]} for t in differ],
        "differ_from_cache": [{"instruction": t, "alone": alone[t], "cached": cached[t]} for t in from_cache],
        "seconds": round(time.perf_counter() - wall, 1),
        "cpu_seconds": round(time.process_time() - cpu, 1),
        "load_avg_1m": os.getloadavg()[0],
    }
    print(json.dumps(result))
    return 0
