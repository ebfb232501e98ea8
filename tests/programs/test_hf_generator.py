"""The hf generator wired to a tiny random-weight GPT-2 built from a config with an offline word-level
tokenizer, saved and loaded from a path like a user's checkpoint. Its output is garbage, so every attempt is
rejected by the parser and the episode falls back to the template program."""

from __future__ import annotations

import torch
import transformers
from tokenizers import Tokenizer, models, pre_tokenizers

from tango.programs.generators import GeneratorConfig, make_generator
from tango.programs.generators.hf_local import HFChatBackend

WORDS = [
    "explore_scene",
    "detect",
    "(",
    ")",
    "'bed'",
    "if",
    ":",
    "stop",
    "Question",
    "Program",
    "Find",
    "a",
    "bed.",
]
SPECIALS = ["<pad>", "<unk>", "<s>", "</s>"]
CHAT_TEMPLATE = "{% for m in messages %}{{ m['role'] }}: {{ m['content'] }}\n{% endfor %}assistant:"


def save_tiny_random_gpt2(path, chat_template: str | None = None):
    vocab = {token: index for index, token in enumerate([*SPECIALS, *WORDS])}
    backend = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    backend.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tokenizer = transformers.PreTrainedTokenizerFast(
        tokenizer_object=backend, unk_token="<unk>", pad_token="<pad>", bos_token="<s>", eos_token="</s>"
    )
    if chat_template:
        tokenizer.chat_template = chat_template
    tokenizer.save_pretrained(path)
    torch.manual_seed(0)
    config = transformers.GPT2Config(
        vocab_size=len(vocab), n_positions=256, n_embd=16, n_layer=1, n_head=2, bos_token_id=2, eos_token_id=3
    )
    transformers.GPT2LMHeadModel(config).save_pretrained(path)
    return path


def test_tiny_random_gpt2_garbage_is_repaired_then_falls_back_to_the_template(tmp_path):
    path = save_tiny_random_gpt2(tmp_path / "tiny-gpt2")
    config = GeneratorConfig(name="hf", model_path=str(path), max_attempts=2, max_tokens=12, device="cpu")
    record = make_generator(config).generate("objectnav", "Find a bed.")
    assert (record.generator, record.model) == ("hf", "tiny-gpt2")
    assert len(record.attempts) == 2 and all(a.error for a in record.attempts)
    assert record.completion_tokens > 0 and record.prompt_tokens > 0
    assert record.program_source == "template" and "detect('bed')" in record.program
    assert record.fallback_reason.startswith("hf gave no valid program in 2 attempt(s)")


def test_tiny_random_gpt2_uses_the_chat_template_when_the_tokenizer_has_one(tmp_path):
    path = save_tiny_random_gpt2(tmp_path / "tiny-chat", CHAT_TEMPLATE)
    backend = HFChatBackend(path, max_new_tokens=4, device="cpu")
    messages = [{"role": "system", "content": "rules"}, {"role": "user", "content": "Find a bed."}]
    assert backend.prompt_text(messages) == "system: rules\nuser: Find a bed.\nassistant:"
    response = backend.complete(messages)
    assert response.completion_tokens <= 4 and response.model == "tiny-chat"
