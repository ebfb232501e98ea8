"""tango: zero-shot embodied agents that run LLM-written programs over navigation and perception primitives."""

__version__ = "0.1.0"
