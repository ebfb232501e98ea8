"""The session's tiny synthetic dataset (shared with tests/agent, tests/tasks and tests/perception)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.agent.synthetic import tiny_dataset


@pytest.fixture(scope="session")
def dataset_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tiny_dataset(tmp_path_factory.getbasetemp())
