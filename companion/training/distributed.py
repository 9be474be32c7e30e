"""DistributedDataParallel helpers for ``torchrun``.

``torchrun --nproc_per_node=K -m companion train ...`` sets ``RANK``, ``WORLD_SIZE`` and
``LOCAL_RANK``; :func:`init_distributed` reads them and joins the process group (NCCL on GPUs,
gloo on CPUs). Without them everything runs as a single process of rank 0.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import torch
import torch.distributed as dist


@dataclass(frozen=True)
class DistInfo:
    rank: int = 0
    world_size: int = 1
    local_rank: int = 0
    device: torch.device = torch.device("cpu")

    @property
    def is_main(self) -> bool:
        """Only the main process (rank 0) writes checkpoints, metrics and logs."""
        return self.rank == 0

    @property
    def enabled(self) -> bool:
        return self.world_size > 1


#: how long a collective may wait: rank 0 validates (and decodes for BLEU) alone while the other
#: ranks wait at the next collective, longer than NCCL's 10-minute default allows on a big valid set
COLLECTIVE_TIMEOUT = timedelta(hours=2)


def default_device() -> torch.device:
    return torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")


def init_distributed(device: str | None = None) -> DistInfo:
    """Join the process group described by torchrun's environment; a no-op without one."""
    world = int(os.environ.get("WORLD_SIZE", "1"))
    if world <= 1:
        return DistInfo(device=torch.device(device) if device else default_device())
    rank = int(os.environ["RANK"])
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    use_cuda = torch.cuda.is_available() and device != "cpu"
    if use_cuda:
        torch.cuda.set_device(local_rank)
        dev = torch.device("cuda", local_rank)
    else:
        dev = torch.device("cpu")
    if not dist.is_initialized():
        dist.init_process_group(backend="nccl" if use_cuda else "gloo", timeout=COLLECTIVE_TIMEOUT)
    return DistInfo(rank=rank, world_size=world, local_rank=local_rank, device=dev)


def all_reduce_sum(value: float | int, device: torch.device) -> float:
    """Sum a number over all processes (the number itself when not distributed)."""
    return all_reduce_sums([value], device)[0]


def all_reduce_sums(values: list[float | int], device: torch.device) -> list[float | int]:
    """Sum each of several numbers over all processes, in one collective (the numbers
    themselves when not distributed)."""
    if not (dist.is_available() and dist.is_initialized()):
        return list(values)
    t = torch.tensor([float(v) for v in values], dtype=torch.float64, device=device)
    dist.all_reduce(t)
    return t.tolist()


def all_gather_object(obj: Any) -> list[Any]:
    """``[obj of rank 0, obj of rank 1, ...]`` on every process (``[obj]`` when not distributed).
    A collective: every rank must call it at the same point."""
    if not (dist.is_available() and dist.is_initialized()):
        return [obj]
    out: list[Any] = [None] * dist.get_world_size()
    dist.all_gather_object(out, obj)
    return out


def barrier() -> None:
    if dist.is_available() and dist.is_initialized():
        dist.barrier()


def cleanup() -> None:
    if dist.is_available() and dist.is_initialized():
        dist.destroy_process_group()
