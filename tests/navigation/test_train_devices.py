"""Training on GPUs without one at hand: which collective backend serves which tensors, which device each
torchrun rank takes, `--device`, and checkpoints that a GPU run writes loading on the CPU (a file whose storages
say cuda:0, made here by tagging CPU storages as torch does for CUDA ones)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import torch
import torch.serialization

from tango.devices import DeviceError, resolve_device
from tango.navigation.pointnav_checkpoint import build_policy, load_pointnav_policy
from tango.navigation.train.__main__ import device_flag_as_override
from tango.navigation.train.distributed import (
    Workers,
    backend_for,
    check_pairing,
    sum_over_workers,
    training_device,
)
from tango.navigation.train.record import Progress, load_resumable, on_cpu, save_resumable

CPU, GPU0, GPU1 = torch.device("cpu"), torch.device("cuda", 0), torch.device("cuda", 1)


def test_nccl_only_for_cuda_tensors_and_gloo_only_for_cpu_tensors() -> None:
    assert backend_for(CPU) == "gloo"
    assert backend_for(GPU0) == "nccl" and backend_for(GPU1) == "nccl"
    check_pairing(CPU, "gloo")
    check_pairing(GPU1, "nccl")
    with pytest.raises(RuntimeError, match="cuda tensor cannot go through the gloo"):
        check_pairing(GPU0, "gloo")
    with pytest.raises(RuntimeError, match="cpu tensor cannot go through the nccl"):
        check_pairing(CPU, "nccl")


def test_each_rank_takes_its_own_gpu_and_cpu_runs_stay_on_gloo() -> None:
    assert training_device("auto", 0, 0) == CPU  # no GPU: the CPU, hence gloo
    assert training_device("cpu", 1, 8) == CPU  # asked for the CPU on a GPU machine
    assert [training_device("auto", rank, 2) for rank in (0, 1)] == [GPU0, GPU1]
    assert [training_device("cuda", rank, 2) for rank in (0, 1)] == [GPU0, GPU1]
    assert training_device("cuda:1", 0, 2) == GPU1
    assert [backend_for(training_device("auto", rank, 2)) for rank in (0, 1)] == ["nccl", "nccl"]
    with pytest.raises(DeviceError, match="no CUDA GPU"):
        training_device("cuda", 0, 0)
    with pytest.raises(DeviceError, match="needs cuda:2, but this node has 2"):
        training_device("auto", 2, 2)
    with pytest.raises(DeviceError, match="train.device must be"):
        training_device("gpu", 0, 1)


def test_one_resolver_for_every_device_setting() -> None:
    assert resolve_device("auto", gpus=0) == "cpu" and resolve_device("auto", gpus=1) == "cuda"
    assert resolve_device("cuda:1", gpus=2) == "cuda:1" and resolve_device("cpu", gpus=4) == "cpu"
    with pytest.raises(DeviceError, match="perception.device=cuda, but torch sees no CUDA GPU"):
        resolve_device("cuda", "perception.device", gpus=0)
    with pytest.raises(DeviceError, match="pointnav_device must be auto, cpu, cuda or cuda:N"):
        resolve_device("gpu0", "pointnav_device", gpus=1)


def test_single_process_sums_without_a_process_group() -> None:
    assert sum_over_workers([1.0, 2.5], Workers()) == [1.0, 2.5]


def test_device_flag_becomes_the_train_device_override() -> None:
    assert device_flag_as_override(["--device", "cuda", "train.seed=1"]) == [
        "train.device=cuda",
        "train.seed=1",
    ]
    assert device_flag_as_override(["--device=cpu"]) == ["train.device=cpu"]
    assert device_flag_as_override(["train.device=auto"]) == ["train.device=auto"]


@pytest.fixture
def storages_tagged_cuda() -> Iterator[None]:
    """While active, torch.save records every CPU storage's location as cuda:0, as a GPU run's file does."""

    def tagger(storage: object) -> str | None:
        return "cuda:0" if getattr(storage, "device", CPU).type == "cpu" else None

    torch.serialization.register_package(1, tagger, lambda storage, location: None)
    try:
        yield
    finally:
        registry = torch.serialization._package_registry
        registry[:] = [entry for entry in registry if entry[1] is not tagger]


def test_a_checkpoint_written_on_a_gpu_resumes_on_the_cpu(tmp_path: Path, storages_tagged_cuda: None) -> None:
    torch.manual_seed(0)
    trained = build_policy("small")
    optimizer = torch.optim.Adam(trained.parameters(), lr=1e-3)
    sum(p.sum() for p in trained.parameters()).backward()
    optimizer.step()  # optimiser state (exp_avg, ...) to carry over
    path = tmp_path / "latest.pth"
    save_resumable(path, trained, optimizer, Progress(update=3, env_steps=96), {}, {})
    assert all(t.device == CPU for t in on_cpu(optimizer.state_dict())["state"][0].values())
    if not torch.cuda.is_available():  # the file really names a GPU: a plain load refuses it here
        with pytest.raises(RuntimeError, match="CUDA"):
            torch.load(path, weights_only=False)
    torch.manual_seed(1)
    resumed = build_policy("small")
    again = torch.optim.Adam(resumed.parameters(), lr=1e-3)
    progress = load_resumable(path, resumed, again)
    assert progress is not None and progress.update == 3 and progress.env_steps == 96
    for key, value in trained.state_dict().items():
        assert torch.equal(resumed.state_dict()[key], value)
    assert torch.equal(
        again.state_dict()["state"][0]["exp_avg"], optimizer.state_dict()["state"][0]["exp_avg"]
    )
    loaded = load_pointnav_policy(path)
    assert next(loaded.parameters()).device == CPU
