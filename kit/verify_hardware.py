#!/usr/bin/env python3
"""Verification kit: measure one node (or two) and write one JSON file for your estimate.

Runs with PyTorch alone. It measures, on the accelerators it finds (NVIDIA through CUDA, AMD
through ROCm; the CPU when there are none):

* dense matrix-multiply throughput in BF16, and in FP8 where the accelerator and PyTorch
  support it [TFLOP/s];
* memory bandwidth, one large copy on the device [GB/s];
* all-reduce bus bandwidth within the node, over every accelerator (NCCL or RCCL; gloo
  between two processes on a CPU) [GB/s]; across two nodes when started by ``torchrun`` on
  both (``--across-nodes``);
* storage write and read throughput of one file in a folder you choose [GB/s].

It writes one file, ``kit-results-<reference>.json``, and sends nothing anywhere: upload the
file on your estimate's page. Run ``python verify_hardware.py --help`` for the options.

How the figures are measured (so that they compare with published ones):

* throughput of ``C = A @ B`` for ``n x n`` matrices is ``2 n^3`` FLOP per product [1];
* memory bandwidth counts the bytes read and written by a copy, ``2 x size`` [2];
* all-reduce bus bandwidth is nccl-tests' ``busbw = size / time x 2 (n - 1) / n`` for ``n``
  ranks, comparable with the link's own speed [3];
* the storage figures time a written file with ``fsync`` and its read-back after asking the
  kernel to drop the file from its cache (``posix_fadvise`` ``DONTNEED``) [4].

References
----------
[1] Golub and Van Loan, Matrix Computations, 4th ed. (2013), sec. 1.1: 2 n^3 flops.
[2] J. McCalpin, STREAM benchmark, "Copy" counts 2 words moved per element (1995).
[3] NVIDIA nccl-tests, doc/PERFORMANCE.md, "Bus bandwidth" (retrieved 2026-12).
[4] Linux man-pages, posix_fadvise(2): POSIX_FADV_DONTNEED.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import socket
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

KIT_NAME = "training-sizer-verification-kit"
KIT_VERSION = 1
# A reference is the one on your estimate's page, such as TQ-2026-00042.
REFERENCE = re.compile(r"^[A-Za-z0-9-]{1,20}$")
# Sizes by profile: "full" for an accelerator, "tiny" for a CPU (and CI): seconds, not minutes.
SIZES = {
    "full": {
        "matmul_n": 8192,
        "matmul_repeats": 50,
        "copy_bytes": 2 * 1024**3,
        "copy_repeats": 20,
        "all_reduce_bytes": 1024**3,
        "all_reduce_repeats": 20,
        "storage_bytes": 4 * 1024**3,
    },
    "tiny": {
        "matmul_n": 256,
        "matmul_repeats": 5,
        "copy_bytes": 16 * 1024**2,
        "copy_repeats": 5,
        "all_reduce_bytes": 4 * 1024**2,
        "all_reduce_repeats": 5,
        "storage_bytes": 16 * 1024**2,
    },
}
WARM_UP = 2  # repeats run before timing: the first calls choose kernels and allocate
_BYTES_PER_GB = 1e9
_FLOPS_PER_TFLOP = 1e12
_CHUNK = 16 * 1024**2  # [B] storage is written and read in pieces this size


def device_kind() -> str:
    """ "cuda" (NVIDIA), "rocm" (AMD, through PyTorch's HIP build) or "cpu"."""
    if torch.cuda.is_available():
        return "rocm" if getattr(torch.version, "hip", None) else "cuda"
    return "cpu"


def _device() -> torch.device:
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


def _synchronise() -> None:
    if torch.cuda.is_available():
        torch.cuda.synchronize()


def _timed(work: Any, repeats: int) -> float:
    """Seconds per call of ``work`` [s], after ``WARM_UP`` calls."""
    for _ in range(WARM_UP):
        work()
    _synchronise()
    start = time.perf_counter()
    for _ in range(repeats):
        work()
    _synchronise()
    return (time.perf_counter() - start) / repeats


def hardware_found() -> dict[str, Any]:
    """What the kit ran on: the accelerator's name as its driver reports it, and how many."""
    kind = device_kind()
    found: dict[str, Any] = {
        "device": kind,
        "processor": platform.processor() or platform.machine(),
        "cpu_count": os.cpu_count(),
        "torch": torch.__version__,
        "python": platform.python_version(),
        "system": platform.system(),
    }
    if kind == "cpu":
        found.update(accelerator_name="CPU only", accelerators_per_node=0)
        return found
    found.update(
        accelerator_name=torch.cuda.get_device_name(0),
        accelerators_per_node=torch.cuda.device_count(),
        memory_gb=round(torch.cuda.get_device_properties(0).total_memory / _BYTES_PER_GB, 1),
        driver_stack=f"ROCm {torch.version.hip}"
        if kind == "rocm"
        else f"CUDA {torch.version.cuda}",
    )
    return found


def matmul_tflops(dtype: torch.dtype, n: int, repeats: int) -> float:
    """Dense ``n x n`` matrix-multiply throughput [TFLOP/s]: ``2 n^3`` FLOP each [1]."""
    device = _device()
    a = torch.randn(n, n, device=device).to(dtype)
    b = torch.randn(n, n, device=device).to(dtype)
    seconds = _timed(lambda: torch.matmul(a, b), repeats)
    return 2 * n**3 / seconds / _FLOPS_PER_TFLOP


def fp8_matmul_tflops(n: int, repeats: int) -> tuple[float | None, str]:
    """FP8 (E4M3) matrix-multiply throughput [TFLOP/s] through ``torch._scaled_mm``, or None
    and why not (a CPU, an accelerator without FP8, or a PyTorch without it)."""
    if not torch.cuda.is_available():
        return None, "FP8 was not measured: no accelerator was found."
    fp8 = getattr(torch, "float8_e4m3fn", None)
    scaled_mm = getattr(torch, "_scaled_mm", None)
    if fp8 is None or scaled_mm is None:
        return None, "FP8 was not measured: this PyTorch has no FP8 matrix multiply."
    device = _device()
    a = torch.randn(n, n, device=device).to(fp8)
    # _scaled_mm wants its second operand column-major
    b = torch.randn(n, n, device=device).to(fp8).t().contiguous().t()
    one = torch.ones((), device=device)
    try:
        seconds = _timed(
            lambda: scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.bfloat16), repeats
        )
    except RuntimeError as error:  # an accelerator without FP8 units
        return None, f"FP8 was not measured: {str(error).splitlines()[0][:200]}"
    return 2 * n**3 / seconds / _FLOPS_PER_TFLOP, ""


def memory_bandwidth_gb_per_s(size_bytes: int, repeats: int) -> float:
    """Device memory bandwidth of one copy [GB/s]: ``2 x size`` bytes moved each [2]."""
    device = _device()
    source = torch.empty(size_bytes, dtype=torch.uint8, device=device).fill_(1)
    target = torch.empty_like(source)
    seconds = _timed(lambda: target.copy_(source), repeats)
    return 2 * size_bytes / seconds / _BYTES_PER_GB


def storage_gb_per_s(folder: Path, size_bytes: int) -> tuple[float, float]:
    """Write then read one file of ``size_bytes`` in ``folder`` [GB/s], the file removed after.

    The write counts until ``fsync`` returns; the read starts after the file's pages are
    dropped from the kernel's cache where the system allows it [4]."""
    block = os.urandom(min(_CHUNK, size_bytes))
    handle, name = tempfile.mkstemp(prefix="kit-storage-", dir=folder)
    path = Path(name)
    try:
        start = time.perf_counter()
        written = 0
        with os.fdopen(handle, "wb") as out:
            while written < size_bytes:
                written += out.write(block[: size_bytes - written])
            out.flush()
            os.fsync(out.fileno())
        write_s = time.perf_counter() - start
        with path.open("rb") as read_back:
            if hasattr(os, "posix_fadvise"):
                os.posix_fadvise(read_back.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)
            start = time.perf_counter()
            while read_back.read(_CHUNK):
                pass
            read_s = time.perf_counter() - start
    finally:
        path.unlink(missing_ok=True)
    return size_bytes / write_s / _BYTES_PER_GB, size_bytes / read_s / _BYTES_PER_GB


def _bus_gb_per_s(size_bytes: int, repeats: int) -> float:
    """This process group's all-reduce bus bandwidth [GB/s], nccl-tests' formula [3]."""
    ranks = dist.get_world_size()
    device = _device()
    if device.type == "cuda":
        device = torch.device("cuda", int(os.environ.get("LOCAL_RANK", dist.get_rank())))
        torch.cuda.set_device(device)
    values = torch.ones(size_bytes // 4, dtype=torch.float32, device=device)

    def work() -> None:
        dist.all_reduce(values)

    seconds = _timed(work, repeats)
    seconds_tensor = torch.tensor([seconds], device=device)
    # the slowest rank sets the collective's time
    dist.all_reduce(seconds_tensor, op=dist.ReduceOp.MAX)
    return size_bytes / float(seconds_tensor.item()) * 2 * (ranks - 1) / ranks / _BYTES_PER_GB


def _backend() -> str:
    return "nccl" if torch.cuda.is_available() else "gloo"  # ROCm's PyTorch calls RCCL "nccl"


def _within_node_rank(rank: int, ranks: int, address: str, sizes: dict[str, int], out: Any) -> None:
    dist.init_process_group(_backend(), init_method=address, rank=rank, world_size=ranks)
    try:
        bus = _bus_gb_per_s(sizes["all_reduce_bytes"], sizes["all_reduce_repeats"])
        if rank == 0:
            out.put(bus)
    finally:
        dist.destroy_process_group()


def all_reduce_within_node(sizes: dict[str, int]) -> tuple[float | None, int, str]:
    """Bus bandwidth of an all-reduce over this node's accelerators (two CPU processes without
    one) [GB/s], the ranks, and a note when it could not run."""
    ranks = torch.cuda.device_count() if torch.cuda.is_available() else 2
    if ranks < 2:
        return None, ranks, "The all-reduce needs two accelerators; this node has one."
    with socket.socket() as probe:  # a free port on this machine for the ranks to meet
        probe.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{probe.getsockname()[1]}"
    context = mp.get_context("spawn")
    out = context.SimpleQueue()
    mp.start_processes(
        _within_node_rank,
        args=(ranks, address, sizes, out),
        nprocs=ranks,
        join=True,
        start_method="spawn",
    )
    return float(out.get()), ranks, ""


def all_reduce_across_nodes(sizes: dict[str, int]) -> tuple[float, int, int]:
    """Under ``torchrun`` on two nodes: the bus bandwidth of an all-reduce over every rank
    [GB/s], the ranks and the nodes."""
    dist.init_process_group(_backend())
    try:
        bus = _bus_gb_per_s(sizes["all_reduce_bytes"], sizes["all_reduce_repeats"])
        ranks = dist.get_world_size()
        per_node = int(os.environ.get("LOCAL_WORLD_SIZE", ranks))
        return bus, ranks, max(1, ranks // per_node)
    finally:
        dist.destroy_process_group()


def _now() -> str:
    # timezone.utc, not datetime.UTC (3.11+): the kit runs on the Pythons of GPU servers, 3.9 on
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")  # noqa: UP017


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def measure(reference: str, profile: str, storage: Path, across_nodes: bool) -> dict[str, Any]:
    """Every measurement, as the JSON file holds it."""
    sizes = SIZES[profile]
    notes: list[str] = []
    bf16 = matmul_tflops(torch.bfloat16, sizes["matmul_n"], sizes["matmul_repeats"])
    fp8, why = fp8_matmul_tflops(sizes["matmul_n"], sizes["matmul_repeats"])
    notes += [why] if why else []
    memory = memory_bandwidth_gb_per_s(sizes["copy_bytes"], sizes["copy_repeats"])
    write, read = storage_gb_per_s(storage, sizes["storage_bytes"])
    across: float | None = None
    if across_nodes:
        across, ranks, nodes = all_reduce_across_nodes(sizes)
        within = None
    else:
        within, ranks, why = all_reduce_within_node(sizes)
        nodes = 1
        notes += [why] if why else []
    return {
        "kit": KIT_NAME,
        "kit_version": KIT_VERSION,
        "reference": reference,
        "measured_at": _now(),
        "profile": profile,
        "hardware": {**hardware_found(), "nodes": nodes, "all_reduce_ranks": ranks},
        "results": {
            "matmul_bf16_tflops": _rounded(bf16),
            "matmul_fp8_tflops": _rounded(fp8),
            "memory_bandwidth_gb_per_s": _rounded(memory),
            "all_reduce_bus_gb_per_s_within_node": _rounded(within),
            "all_reduce_bus_gb_per_s_across_nodes": _rounded(across),
            "storage_write_gb_per_s": _rounded(write),
            "storage_read_gb_per_s": _rounded(read),
        },
        "sizes": sizes,
        "notes": notes,
    }


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reference", required=True, help="your estimate's reference")
    parser.add_argument("--output", type=Path, help="the JSON file (kit-results-<ref>.json)")
    parser.add_argument(
        "--profile",
        choices=sorted(SIZES),
        help="'full' on accelerators (the default there), 'tiny' on a CPU (the default there)",
    )
    parser.add_argument(
        "--storage",
        type=Path,
        default=Path.cwd(),
        help="a folder on the storage to measure (default: this folder)",
    )
    parser.add_argument(
        "--across-nodes",
        action="store_true",
        help="measure the all-reduce across nodes (start with torchrun on both nodes)",
    )
    arguments = parser.parse_args(argv)
    if not REFERENCE.match(arguments.reference):
        parser.error("the reference is letters, digits and dashes, such as TQ-2026-00042")
    return arguments


def main(argv: list[str] | None = None) -> int:
    arguments = _arguments(argv)
    profile = arguments.profile or ("full" if torch.cuda.is_available() else "tiny")
    results = measure(arguments.reference, profile, arguments.storage, arguments.across_nodes)
    if arguments.across_nodes and int(os.environ.get("RANK", "0")) != 0:
        return 0  # rank 0 writes the one file
    output = arguments.output or Path(f"kit-results-{arguments.reference}.json")
    output.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(f"Wrote {output}. Upload it on your estimate's page; the kit sent nothing.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
