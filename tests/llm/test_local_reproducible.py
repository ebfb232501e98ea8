"""generator=local gives the same reply to the same request whatever the process asked before and whether the
prompt prefix was evaluated here or loaded from disk (issue 27: one GOAT val run scored 0.588, another 0.525,
with different programs from the same model and config).

No model runs here: `FakeLlama` stands in for cyllama's context with numbers that depend on how each token
was batched (its batch's first position and size), as llama.cpp's CPU kernels round differently for a token
evaluated in another batch; its sampler picks tokens from those numbers (and the seed when it samples). So a
reply here changes exactly when the request's tokens were evaluated in another layout, which is what made
greedy replies of the real model depend on the episodes a worker had seen before.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from tango.llm.local import LocalChatModel, LocalModelConfig, request_seed

EOG = 0
REPLY_TOKENS = 6


def _digest(*parts: Any) -> int:
    return int.from_bytes(hashlib.sha256(repr(parts).encode()).digest()[:6], "little")


class FakeContext:
    """A KV cache of one number per position; each depends on its token, the number before it and its batch."""

    def __init__(self) -> None:
        self.kv: dict[int, int] = {}

    def memory_seq_rm(self, seq: int, start: int, end: int) -> None:
        self.kv = {p: v for p, v in self.kv.items() if p < start}

    def decode(self, batch: tuple[list[int], int]) -> None:
        tokens, start = batch
        for offset, token in enumerate(tokens):
            position = start + offset
            self.kv[position] = _digest(token, self.kv.get(position - 1), start, len(tokens))

    def save_state_file(self, path: str, tokens: list[int]) -> bool:
        Path(path).write_text(json.dumps({"tokens": tokens, "kv": sorted(self.kv.items())}))
        return True

    def load_state_file(self, path: str, capacity: int) -> list[int]:
        state = json.loads(Path(path).read_text())
        self.kv = {int(p): int(v) for p, v in state["kv"]}
        return list(state["tokens"])[:capacity]


class FakeSampler:
    """Greedy: a letter from the last KV number; sampled: from that number and the seed; ends after a few."""

    def __init__(self, params: Any) -> None:
        self.seed: int | None = None
        self.count = 0

    def add_grammar(self, vocab: Any, grammar: str, root: str) -> None: ...
    def add_greedy(self) -> None: ...
    def add_top_k(self, k: int) -> None: ...
    def add_temp(self, temperature: float) -> None: ...

    def add_dist(self, seed: int) -> None:
        self.seed = seed

    def sample(self, ctx: FakeContext, index: int) -> int:
        self.count += 1
        if self.count > REPLY_TOKENS:
            return EOG
        last = ctx.kv[max(ctx.kv)]
        return ord("a") + _digest(last, self.seed) % 26


class FakeLib:
    LlamaSampler = FakeSampler

    @staticmethod
    def LlamaChatMessage(role: str, content: str) -> SimpleNamespace:
        return SimpleNamespace(role=role, content=content)

    @staticmethod
    def LlamaSamplerChainParams() -> SimpleNamespace:
        return SimpleNamespace(no_perf=False)

    @staticmethod
    def llama_batch_get_one(tokens: list[int], start: int) -> tuple[list[int], int]:
        return list(tokens), start


class FakeModel:
    def chat_apply_template(self, template: str, chat: list[Any], add_assistant: bool) -> str:
        text = "".join(f"<{m.role}>{m.content}</>" for m in chat)
        return text + ("<assistant>" if add_assistant else "")


class FakeVocab:
    def tokenize(self, text: str, add_special: bool, parse_special: bool) -> list[int]:
        return [ord(c) for c in text]

    def is_eog(self, token: int) -> bool:
        return token == EOG

    def token_to_piece(self, token: int, special: bool) -> str:
        return chr(token)


def fake_model(tmp_path: Path, state_dir: str, n_batch: int = 64) -> LocalChatModel:
    """A LocalChatModel over the fakes above (its own code decides what is evaluated where)."""
    weights = tmp_path / "fake.gguf"
    weights.write_bytes(b"fake")
    model = object.__new__(LocalChatModel)
    model.path = weights
    model.config = LocalModelConfig(n_ctx=4096, n_batch=n_batch, state_dir=state_dir)
    model._lib = FakeLib()
    model.model = FakeModel()
    model.vocab = FakeVocab()
    model.ctx = FakeContext()
    model.template = ""
    model.name = "fake"
    model._prefix = []
    return model


SYSTEM = "Write a program. " * 12
EXAMPLES = [
    ("Question: Find the bed.\nProgram:", "b = detect('bed')\nstop()\n"),
    ("Question: Find the object shown in goal_image.\nProgram:", "x = match(goal_image)\nstop()\n"),
]


def messages(question: str) -> list[dict[str, str]]:
    chat = [{"role": "system", "content": SYSTEM}]
    for asked, program in EXAMPLES:
        chat += [{"role": "user", "content": asked}, {"role": "assistant", "content": program}]
    return [*chat, {"role": "user", "content": f"Question: {question}\nProgram:"}]


SHARED = 1 + 2 * len(EXAMPLES)


def ask(model: LocalChatModel, question: str, temperature: float | None = None) -> str:
    return model.complete(messages(question), shared_prefix=SHARED, temperature=temperature).text


def test_fake_llama_context_same_reply_whatever_came_before_and_wherever_the_prefix_came_from(
    tmp_path: Path,
) -> None:
    state = str(tmp_path / "state")
    alone = fake_model(tmp_path, state)
    reply = ask(alone, "Find the chair.")
    assert len(reply) == REPLY_TOKENS and alone.last.loaded_tokens == 0 and list(Path(state).glob("*.kv"))
    after_others = fake_model(tmp_path, "")  # another worker: other goals first, no saved state
    for question in ("Find the chest of drawers.", "Find the chairs.", "Find the chair, then the bed."):
        ask(after_others, question)
    assert ask(after_others, "Find the chair.") == reply
    assert after_others.last.reused_tokens > 0  # the prefix stayed in the KV cache between requests
    loading = fake_model(tmp_path, state)  # a new process reading the saved prompt state
    assert ask(loading, "Find the chair.") == reply and loading.last.loaded_tokens > 0
    assert ask(loading, "Find the bed.") != reply  # the fake's replies do follow the request


def test_fake_llama_context_a_sampled_repair_does_not_depend_on_the_calls_before_it(tmp_path: Path) -> None:
    first = fake_model(tmp_path, "")
    second = fake_model(tmp_path, "")
    for question in ("Find the sink.", "Find the tv."):
        ask(second, question)
    assert ask(first, "Find the chair.", 0.7) == ask(second, "Find the chair.", 0.7)
    tokens = [1, 2, 3]
    assert request_seed(0, tokens) == request_seed(0, list(tokens)) != request_seed(1, tokens)


class _Reply:
    """A chat backend that answers every request with one search program, counting calls."""

    accepts_grammar = True
    accepts_options = True

    def __init__(self, seed: int) -> None:
        self.config = LocalModelConfig(seed=seed)
        self.calls = 0

    def complete(self, chat: list[dict[str, Any]], **options: Any) -> Any:
        from tango.llm import ChatResponse

        self.calls += 1
        return ChatResponse("explore_scene()\nc = detect('chair')\nif is_found(c):\n    stop()\n", "x", 1, 1)


def test_a_program_cache_filled_under_other_settings_is_not_read(tmp_path: Path) -> None:
    from tango.programs.generators.cache import ProgramCache
    from tango.programs.generators.llm import LLMProgramGenerator

    def generator(backend: _Reply, grammar: bool) -> LLMProgramGenerator:
        return LLMProgramGenerator(
            "local", "m", backend, "llm", cache=ProgramCache(tmp_path), grammar=grammar
        )

    first = _Reply(seed=0)
    generator(first, grammar=True).generate("objectnav", "Find the chair.")
    same = _Reply(seed=0)
    assert generator(same, grammar=True).generate("objectnav", "Find the chair.").cached and same.calls == 0
    for other, grammar in ((_Reply(seed=0), False), (_Reply(seed=1), True)):
        assert not generator(other, grammar).generate("objectnav", "Find the chair.").cached
        assert other.calls == 1
