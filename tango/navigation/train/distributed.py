"""torch.distributed for DD-PPO and imitation alike: started by torchrun (RANK / WORLD_SIZE / LOCAL_RANK /
MASTER_ADDR in the environment), or a single process without a process group.

Each process trains on one device (`train.device`: auto|cpu|cuda|cuda:N): with CUDA, rank r of a node uses
cuda:LOCAL_RANK. The collective backend follows the device of the tensors it carries, never the mere presence
of a GPU: nccl for CUDA tensors, gloo for CPU tensors (nccl cannot reduce CPU tensors, gloo's CUDA support is
partial and slow). The simulators render through EGL; on a GPU each process asks glcontext for the EGL device
of its rank (GLCONTEXT_DEVICE_INDEX, unless the user set it).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import torch
import torch.distributed as dist
from torch import nn

from tango.devices import DeviceError, check_device_name, cuda_device_count

EGL_DEVICE_ENV = "GLCONTEXT_DEVICE_INDEX"
"""glcontext's EGL backend reads the EGL device index from this variable (default 0)."""


@dataclass(frozen=True)
class Workers:
    """This process's rank among `world_size` training processes, its device and the collective backend."""

    rank: int = 0
    world_size: int = 1
    device: torch.device = field(default_factory=lambda: torch.device("cpu"))
    backend: str = ""

    @property
    def is_main(self) -> bool:
        """The process that logs, evaluates and writes checkpoints."""
        return self.rank == 0

    @property
    def distributed(self) -> bool:
        return self.world_size > 1


def backend_for(device: torch.device) -> str:
    """The collective backend for tensors on `device`: nccl for CUDA, gloo for everything else."""
    return "nccl" if device.type == "cuda" else "gloo"


def check_pairing(device: torch.device, backend: str) -> None:
    """Refuse a collective whose tensors are on a device its backend does not serve (CUDA through gloo, CPU
    through nccl): a bug, not a setting."""
    if backend and backend != backend_for(device):
        raise RuntimeError(f"a {device.type} tensor cannot go through the {backend} backend")


def training_device(requested: str, local_rank: int, gpus: int) -> torch.device:
    """The device of the process with `local_rank` on a node with `gpus` CUDA GPUs: `auto` and `cuda` put each
    rank on its own GPU (cuda:LOCAL_RANK), `cuda:N` is taken as given, `cpu` (or auto without GPUs) the CPU."""
    check_device_name(requested, "train.device")
    if requested == "cpu" or (requested == "auto" and gpus == 0):
        return torch.device("cpu")
    if gpus == 0:
        raise DeviceError(f"train.device={requested}, but torch sees no CUDA GPU here: use auto or cpu")
    index = local_rank if requested in ("auto", "cuda") else int(requested.partition(":")[2])
    if index >= gpus:
        raise DeviceError(
            f"train.device={requested} on local rank {local_rank} needs cuda:{index}, but this node has {gpus} "
            "GPU(s): start at most that many processes per node (torchrun --nproc_per_node)"
        )
    return torch.device("cuda", index)


def start_workers(requested: str = "auto") -> Workers:
    """Choose this process's device, point EGL at the same GPU and join the process group torchrun describes
    (none for one process)."""
    world_size = int(os.environ.get("WORLD_SIZE", "1"))
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    device = training_device(requested, local_rank, cuda_device_count())
    if device.type == "cuda":
        torch.cuda.set_device(device)
        os.environ.setdefault(EGL_DEVICE_ENV, str(device.index))
    if world_size <= 1:
        return Workers(device=device)
    backend = backend_for(device)
    if device.type == "cuda":
        dist.init_process_group(backend=backend, device_id=device)  # binds NCCL's communicator to this GPU
    else:
        dist.init_process_group(backend=backend)
    return Workers(dist.get_rank(), dist.get_world_size(), device, backend)


def stop_workers(workers: Workers) -> None:
    if workers.distributed and dist.is_initialized():
        dist.destroy_process_group()


def broadcast_parameters(module: nn.Module, workers: Workers) -> None:
    """Every process starts from rank 0's weights."""
    if workers.distributed:
        for tensor in module.state_dict().values():
            check_pairing(tensor.device, workers.backend)
            dist.broadcast(tensor, src=0)


def average_gradients(module: nn.Module, workers: Workers) -> None:
    """Mean of every parameter's gradient over the processes (DD-PPO's synchronous update)."""
    if not workers.distributed:
        return
    for parameter in module.parameters():
        if parameter.grad is None:
            parameter.grad = torch.zeros_like(parameter)
        check_pairing(parameter.grad.device, workers.backend)
        dist.all_reduce(parameter.grad, op=dist.ReduceOp.SUM)
        parameter.grad /= workers.world_size


def sum_over_workers(values: list[float], workers: Workers) -> list[float]:
    """Element-wise sums of per-process numbers (steps, episodes, CPU seconds), reduced on the backend's
    device."""
    if not workers.distributed:
        return list(values)
    tensor = torch.tensor(values, dtype=torch.float64, device=workers.device)
    check_pairing(tensor.device, workers.backend)
    dist.all_reduce(tensor, op=dist.ReduceOp.SUM)
    return [float(v) for v in tensor.cpu()]


def barrier(workers: Workers) -> None:
    if workers.distributed:
        if workers.device.type == "cuda":
            dist.barrier(device_ids=[workers.device.index])
        else:
            dist.barrier()
