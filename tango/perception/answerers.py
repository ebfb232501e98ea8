"""A vision-language-model answerer `answer(obs, question) -> str` through the OpenAI-compatible chat client.

BLIP-2 lives in `tango.perception.blip2`, the ORACLE answerer in `tango.perception.oracle.answerer`.
"""

from __future__ import annotations

from tango.llm import ChatClient, image_content, text_content
from tango.perception.config import AnswererConfig
from tango.perception.context import BuildContext
from tango.perception.registry import register
from tango.types.goals import GoalImage
from tango.types.observation import Observation

VLM_PROMPT = "Answer the question about this image in a few words.\nQuestion: {question}"


class VlmAnswerer:
    """Sends the current frame and the question to a vision-language model over the chat-completions API."""

    def __init__(self, client: ChatClient, prompt: str = VLM_PROMPT) -> None:
        self.client = client
        self.prompt = prompt

    def answer(self, obs: Observation, question: str, image: GoalImage | None = None) -> str:
        """The model's reply about `image` (else the current frame), stripped."""
        pixels = obs.rgb if image is None else image.pixels
        content = [text_content(self.prompt.format(question=question)), image_content(pixels)]
        return self.client.complete([{"role": "user", "content": content}]).text.strip()


@register("answerer", "vlm")
def vlm_answerer(config: AnswererConfig, ctx: BuildContext) -> VlmAnswerer:
    return VlmAnswerer(ChatClient(config.llm))
