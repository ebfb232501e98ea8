"""A GGUF chat model in-process through llama.cpp (the `cyllama` binding, optional extra `tango[llm]`).

Greedy by default (temperature 0; a sampler seeded from the request otherwise), generation ends at the
end-of-turn token or at the first stop sequence, and the fixed part of the prompt (system text and examples)
stays in the KV cache: it is evaluated (or loaded from its saved state) once per process, not once per program.

Reproducible by construction: a reply depends on the request only, not on what the process asked before or
whether the prefix came from disk. The prefix is always evaluated in the same batches from position 0, and
the rest of every request is evaluated anew after it (nothing of the previous question or reply is reused);
a sampled reply's seed comes from the configured seed and the request's tokens.
"""

from __future__ import annotations

import hashlib
import logging
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tango.llm.client import ChatResponse, LLMError

LOG = logging.getLogger(__name__)


@dataclass
class LocalModelConfig:
    """How the model runs: context size, threads (0: half the usable cores), sampling and where to stop.

    `state_dir`: where the KV state of a prompt prefix (the messages every request shares) is saved once
    evaluated and loaded by any later process that starts with the same prefix, model file, context and batch
    size (the state is the same numbers either way: see the module docstring)."""

    n_ctx: int = 4096
    n_batch: int = 512
    threads: int = 0
    max_tokens: int = 384
    temperature: float = 0.0
    seed: int = 0
    stop: tuple[str, ...] = ()
    gpu_layers: int = 0
    state_dir: str = ""


@dataclass
class CallStats:
    """What one call cost: prompt tokens, how many of them were not evaluated by this call (the shared prefix,
    held in the KV cache or loaded from its state file), how many were loaded, seconds, tokens out."""

    prompt_tokens: int = 0
    reused_tokens: int = 0
    loaded_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0


def default_threads() -> int:
    """Half the usable cores (at least one): llama.cpp's threads wait for each other at every layer, and on a
    busy machine a second thread that is not scheduled costs more than it computes (measured in BENCHMARKS.md:
    on 2 shared cores, 2 threads spent ~1 s of CPU per generated token, 1 thread 0.08 s)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, cores // 2)


def request_seed(seed: int, tokens: Sequence[int]) -> int:
    """The sampling seed of one request: the configured seed and the request's own tokens (a repair's include
    the replies before it), so a sampled reply does not depend on how many calls this process made before."""
    digest = hashlib.sha256(f"{seed}|{','.join(map(str, tokens))}".encode()).digest()
    return int.from_bytes(digest[:4], "little") & 0x7FFFFFFF


def common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    """How many leading tokens two sequences share."""
    count = 0
    for x, y in zip(a, b):
        if x != y:
            break
        count += 1
    return count


class LocalChatModel:
    """`complete(messages)` over a GGUF file; one instance per process (it holds the model and its KV cache)."""

    def __init__(self, path: str | Path, config: LocalModelConfig | None = None) -> None:
        try:
            from cyllama.llama import llama_cpp
        except ImportError as error:
            raise LLMError(
                "generator=local needs the llama.cpp binding: pip install 'tango[llm]' "
                "(or bash scripts/setup.sh --llm)"
            ) from error
        self.path = Path(path)
        if not self.path.is_file():
            raise LLMError(f"model file {self.path} does not exist; run: python -m tango.llm fetch")
        self.config = config or LocalModelConfig()
        self._lib = llama_cpp
        llama_cpp.disable_logging()
        llama_cpp.ggml_backend_load_all()
        params = llama_cpp.LlamaModelParams()
        params.n_gpu_layers = self.config.gpu_layers
        self.model = llama_cpp.LlamaModel(str(self.path), params)
        self.vocab = self.model.get_vocab()
        threads = self.config.threads or default_threads()
        context = llama_cpp.LlamaContextParams()
        context.n_ctx = self.config.n_ctx
        context.n_batch = self.config.n_batch
        context.n_threads = threads
        context.n_threads_batch = threads
        self.ctx = llama_cpp.LlamaContext(self.model, context)
        self.template = self.model.get_default_chat_template()
        self.name = self.path.stem
        self._prefix: list[int] = []
        self.last = CallStats()

    def prompt_text(self, messages: list[dict[str, Any]]) -> str:
        """The messages through the model's own chat template (llama.cpp's built-in template engine)."""
        chat = [self._lib.LlamaChatMessage(role=str(m["role"]), content=str(m["content"])) for m in messages]
        return str(self.model.chat_apply_template(self.template, chat, True))

    accepts_grammar = True
    accepts_options = True

    def complete(
        self,
        messages: list[dict[str, Any]],
        grammar: str = "",
        temperature: float | None = None,
        shared_prefix: int | None = None,
        max_tokens: int | None = None,
    ) -> ChatResponse:
        """Generate one reply; the text stops before the first stop sequence. With `grammar` (GBNF, root rule
        `root`) only text the grammar allows is sampled; `temperature` overrides the configured one (a repair
        samples instead of repeating the greedy reply). `shared_prefix`: how many leading messages every
        request shares (their KV state is saved and loaded, see LocalModelConfig.state_dir; None: all but the
        last message; 0: none). `max_tokens` lowers the configured reply limit for this call (the caller's
        budget for the reply it expects)."""
        wall, cpu = time.perf_counter(), time.process_time()
        tokens = list(self.vocab.tokenize(self.prompt_text(messages), add_special=True, parse_special=True))
        room = self.config.n_ctx - len(tokens)
        if room < 16:
            raise LLMError(f"prompt of {len(tokens)} tokens does not fit the context of {self.config.n_ctx}")
        prefix = self._prefix_tokens(messages, tokens, shared_prefix)
        held = bool(prefix) and prefix == self._prefix
        loaded = 0 if held else self._restore_prefix(prefix)
        reused = len(prefix) if held else loaded
        self._evaluate_tail(tokens)
        temperature = self.config.temperature if temperature is None else temperature
        sampler = self._sampler(grammar, temperature, request_seed(self.config.seed, tokens))
        limit = min(self.config.max_tokens, max_tokens or self.config.max_tokens, room)
        text, produced = self._generate(sampler, len(tokens), limit)
        self.last = CallStats(
            len(tokens), reused, loaded, produced, time.perf_counter() - wall, time.process_time() - cpu
        )
        return ChatResponse(text, self.name, len(tokens), produced, self.last.cpu_seconds, self.last.seconds)

    def forget(self) -> None:
        """Empty the KV cache: the next request restores its prefix as the first request of a new process."""
        self.ctx.memory_seq_rm(0, 0, -1)
        self._prefix = []

    def _state_file(self, prefix: list[int]) -> Path:
        """The state file of this prefix: keyed by the model file (name and size), context and batch size (the
        batch layout the prefix was evaluated in) and its tokens."""
        key = hashlib.sha256(
            f"{self.path.name}|{self.path.stat().st_size}|{self.config.n_ctx}|{self.config.n_batch}|".encode()
            + ",".join(map(str, prefix)).encode()
        ).hexdigest()[:24]
        return Path(self.config.state_dir) / f"{self.path.stem}-{key}.kv"

    def _prefix_tokens(
        self, messages: list[dict[str, Any]], tokens: list[int], shared_prefix: int | None
    ) -> list[int]:
        """The tokens of the request's shared messages (the system text and examples) less the last one (it
        may merge with what follows), when they begin `tokens`; else [] (nothing is shared)."""
        shared = messages[:-1] if shared_prefix is None else messages[:shared_prefix]
        if not shared:
            return []
        chat = [self._lib.LlamaChatMessage(role=str(m["role"]), content=str(m["content"])) for m in shared]
        text = str(self.model.chat_apply_template(self.template, chat, False))
        prefix = list(self.vocab.tokenize(text, add_special=True, parse_special=True))
        if len(prefix) < 2 or common_prefix(prefix, tokens) < len(prefix) - 1:
            return []
        return prefix[: len(prefix) - 1]

    def _restore_prefix(self, prefix: list[int]) -> int:
        """Put exactly `prefix` in the emptied KV cache, evaluated in batches from position 0 (its canonical
        layout): from the saved state file when there is one, else evaluated here (and saved with
        `state_dir`). Returns how many tokens came from the file."""
        self.ctx.memory_seq_rm(0, 0, -1)
        self._prefix = []
        if not prefix:
            return 0
        path = self._state_file(prefix) if self.config.state_dir else None
        if path is not None and path.is_file():
            loaded = list(self.ctx.load_state_file(str(path), len(prefix) + 1))
            if loaded == prefix:
                self._prefix = loaded
                return len(loaded)
            LOG.warning("prompt state %s holds other tokens; evaluating the prompt again", path)
            self.ctx.memory_seq_rm(0, 0, -1)
        self._decode(prefix, 0)
        self._prefix = list(prefix)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            partial = path.with_suffix(f".tmp{os.getpid()}")
            if self.ctx.save_state_file(str(partial), prefix):
                os.replace(partial, path)
        return 0

    def _evaluate_tail(self, tokens: list[int]) -> None:
        """Drop everything after the held prefix (the last request's question and reply) and evaluate the rest
        of `tokens` in batches from the prefix's end: every request sees the same numbers whatever came
        before it in this process (llama.cpp's kernels round differently for a token evaluated in another
        batch, and greedy decoding follows the rounding where two tokens nearly tie)."""
        self.ctx.memory_seq_rm(0, len(self._prefix), -1)
        self._decode(tokens[len(self._prefix) :], len(self._prefix))

    def _decode(self, tokens: list[int], start: int) -> None:
        """Evaluate `tokens` at positions from `start`, in batches of n_batch."""
        for offset in range(0, len(tokens), self.config.n_batch):
            batch = tokens[offset : offset + self.config.n_batch]
            self.ctx.decode(self._lib.llama_batch_get_one(batch, start + offset))

    def _sampler(self, grammar: str, temperature: float, seed: int) -> Any:
        """Grammar first (it masks what the language does not allow), then greedy or seeded sampling."""
        params = self._lib.LlamaSamplerChainParams()
        params.no_perf = True
        sampler = self._lib.LlamaSampler(params)
        if grammar:
            sampler.add_grammar(self.vocab, grammar, "root")
        if temperature <= 0.0:
            sampler.add_greedy()
        else:
            sampler.add_top_k(40)
            sampler.add_temp(temperature)
            sampler.add_dist(seed)
        return sampler

    def _generate(self, sampler: Any, position: int, limit: int) -> tuple[str, int]:
        text, produced = "", 0
        stops = self.config.stop
        for _ in range(limit):
            token = sampler.sample(self.ctx, -1)
            if self.vocab.is_eog(token):
                break
            produced += 1
            text += self.vocab.token_to_piece(token, special=False)
            cut = min((i for i in (text.find(s) for s in stops) if i >= 0), default=-1)
            if cut >= 0:
                return text[:cut], produced
            self.ctx.decode(self._lib.llama_batch_get_one([token], position))
            position += 1
        return text, produced
