"""One OpenAI-compatible chat client shared by program generators, VLM answerers, GraphNav VLM agents and judges."""

from tango.llm.client import ChatClient, ChatResponse, LLMConfig, LLMError, image_content, text_content

__all__ = ["ChatClient", "ChatResponse", "LLMConfig", "LLMError", "image_content", "text_content"]
