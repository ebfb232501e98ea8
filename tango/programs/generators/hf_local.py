"""The `hf` generator: a local causal language model through transformers, loaded from a path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tango.devices import resolve_device
from tango.llm import ChatResponse
from tango.programs.generators.cache import ProgramCache
from tango.programs.generators.config import GeneratorConfig, GeneratorError
from tango.programs.generators.llm import LLMProgramGenerator, configured_generator


class HFChatBackend:
    """Greedy generation with the tokenizer's chat template when it has one, else the messages as plain text."""

    def __init__(self, model_path: str | Path, max_new_tokens: int = 512, device: str = "auto") -> None:
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        path = Path(model_path)
        if not path.is_dir():
            raise GeneratorError(f"generator.model_path {path} is not a model directory")
        self.torch = torch
        self.device = resolve_device(device, "generator.device")
        self.tokenizer = AutoTokenizer.from_pretrained(path)
        model = AutoModelForCausalLM.from_pretrained(path)
        self.model = model.to(self.device).eval()  # type: ignore[arg-type]
        self.max_new_tokens = max_new_tokens
        self.name = path.name

    def prompt_text(self, messages: list[dict[str, Any]]) -> str:
        if getattr(self.tokenizer, "chat_template", None):
            text = self.tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
            return str(text)
        return "\n\n".join(str(m["content"]) for m in messages)

    def complete(self, messages: list[dict[str, Any]]) -> ChatResponse:
        inputs = self.tokenizer(self.prompt_text(messages), return_tensors="pt")
        ids = inputs["input_ids"]
        limit = getattr(self.model.config, "max_position_embeddings", None) or getattr(
            self.model.config, "n_positions", None
        )
        if limit is not None and ids.shape[1] + self.max_new_tokens > limit:
            ids = ids[:, -(limit - self.max_new_tokens) :]
        ids = ids.to(self.device)
        pad = (
            self.tokenizer.pad_token_id
            if self.tokenizer.pad_token_id is not None
            else self.tokenizer.eos_token_id
        )
        with self.torch.no_grad():
            output = self.model.generate(
                input_ids=ids,
                attention_mask=self.torch.ones_like(ids),
                max_new_tokens=self.max_new_tokens,
                do_sample=False,
                pad_token_id=pad,
            )
        new_tokens = output[0, ids.shape[1] :]
        text = self.tokenizer.decode(new_tokens, skip_special_tokens=True)
        return ChatResponse(str(text), self.name, int(ids.shape[1]), int(new_tokens.shape[0]))


def hf_generator(config: GeneratorConfig, cache: ProgramCache | None) -> LLMProgramGenerator:
    if not config.model_path:
        raise GeneratorError("generator.model_path must name a local model directory for generator=hf")
    backend = HFChatBackend(config.model_path, config.max_tokens, config.device)
    return configured_generator(config, backend.name, backend, cache, source="hf")
