"""The stand-in task that exercises the harness without a simulator (tango.harness.fake_task), registered."""

from __future__ import annotations

from tango.harness.fake_task import FakeTaskConfig
from tango.tasks.registry import register_task

register_task("fake", FakeTaskConfig)
