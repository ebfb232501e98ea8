"""`python -m tango.inspect`: what happened in a run (episode table, one episode in full, failure causes)."""

from tango.inspect.cli import main

__all__ = ["main"]
