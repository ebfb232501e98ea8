"""Errors shared across layers (imported downward by perception, navigation and the program interpreter)."""

from __future__ import annotations


class ComponentError(RuntimeError):
    """A model or service the agent relies on failed (a model that does not load, a checkpoint that is missing):
    not the program's mistake, so the interpreter lets it end the episode, which is recorded as an error with
    this reason and counted in the summary's errors, never as a clean failure."""
