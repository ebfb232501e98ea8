"""Shared for the urban tests: one small generated city (one task of several kinds) and one stand-in server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tango.urban.client import ClientConfig, UrbanClient
from tango.urban.server.launcher import ServerProcess
from tango.urban.taskgen.build import generate_city

KINDS = ["LQ", "OQ", "SN", "CN", "DCR", "MP", "SF", "PS", "II"]


@pytest.fixture(scope="session")
def city(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate_city(tmp_path_factory.mktemp("urban") / "city", seed=0, per_kind=1, kinds=KINDS)


@pytest.fixture(scope="session")
def server(city: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(city, log_path=tmp_path_factory.mktemp("urban-log") / "server.log")
    process.start()
    yield process
    process.stop()


@pytest.fixture
def client(server: ServerProcess) -> UrbanClient:
    return UrbanClient(ClientConfig(server.ensure(), retries=1, backoff_s=0.2))
