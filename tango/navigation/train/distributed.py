"""torch.distributed for DD-PPO and imitation alike: started by torchrun (RANK / WORLD_SIZE / MASTER_ADDR in the
environment; gloo on CPU, nccl on GPUs), or a single process without a process group."""

from __future__ import annotations

import os
from dataclasses import dataclass

import torch
import torch.distributed as dist
from torch import nn


@dataclass(frozen=True)
class Workers:
    """This process's rank among `world_size` training processes."""

    rank: int = 0
    world_size: int = 1

    @property
    def is_main(self) -> bool:
        """The process that logs, evaluates and writes checkpoints."""
        return self.rank == 0

    @property
    def distributed(self) -> bool:
        return self.world_size > 1


def start_workers() -> Workers:
    """Join the process group torchrun describes (none for one process)."""
    world_size = int(os.environ.get("WORLD_SIZE", "1"))
    if world_size <= 1:
        return Workers()
    backend = "nccl" if torch.cuda.is_available() else "gloo"
    dist.init_process_group(backend=backend)
    return Workers(dist.get_rank(), dist.get_world_size())


def stop_workers(workers: Workers) -> None:
    if workers.distributed and dist.is_initialized():
        dist.destroy_process_group()


def broadcast_parameters(module: nn.Module, workers: Workers) -> None:
    """Every process starts from rank 0's weights."""
    if workers.distributed:
        for tensor in module.state_dict().values():
            dist.broadcast(tensor, src=0)


def average_gradients(module: nn.Module, workers: Workers) -> None:
    """Mean of every parameter's gradient over the processes (DD-PPO's synchronous update)."""
    if not workers.distributed:
        return
    for parameter in module.parameters():
        if parameter.grad is None:
            parameter.grad = torch.zeros_like(parameter)
        dist.all_reduce(parameter.grad, op=dist.ReduceOp.SUM)
        parameter.grad /= workers.world_size


def sum_over_workers(values: list[float], workers: Workers) -> list[float]:
    """Element-wise sums of per-process numbers (steps, episodes, CPU seconds)."""
    if not workers.distributed:
        return list(values)
    tensor = torch.tensor(values, dtype=torch.float64)
    dist.all_reduce(tensor, op=dist.ReduceOp.SUM)
    return [float(v) for v in tensor]


def barrier(workers: Workers) -> None:
    if workers.distributed:
        dist.barrier()
