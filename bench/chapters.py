"""Benchmark: how long each chapter notebook takes to execute, against the book's budget.

Each notebook is executed with nbclient (as Jupyter Book and nbval do: a ``python3`` kernel of
this interpreter, running in the notebook's own folder) into a copy in a temporary folder, so
the stored outputs under ``book/`` are never touched. A failing cell fails the benchmark with
its error. Measured on the kernel process, just before it shuts down (Linux ``/proc``): its CPU
seconds (user + system, including children it waited for) -- what the book's budget of
300 s per chapter on one CPU thread refers to -- and its peak resident memory (``VmHWM``);
and the wall time of the whole execution, kernel start-up included.

Prints ``key=value`` lines per notebook ``STEM`` (the file name without ``.ipynb``):
``chapter_STEM_cpu_s``, ``chapter_STEM_wall_s``, ``chapter_STEM_kernel_peak_rss_mib``,
``chapter_STEM_of_budget`` (CPU seconds / 300).

    .venv/bin/python bench/chapters.py book/03_seq2seq.ipynb [more.ipynb ...]

Run it with ``OMP_NUM_THREADS=1`` (as ``bench/run_all.py`` does) for one thread from the first
cell on; the chapters also call ``set_determinism``, which sets one thread.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

#: the book's budget per chapter, CPU seconds on one thread (DESIGN.md, "Two profiles")
BUDGET_S = 300.0


def key_stem(path: Path) -> str:
    """``book/03_seq2seq.ipynb`` -> ``03_seq2seq`` (anything but [a-z0-9_] becomes ``_``)."""
    return re.sub(r"[^a-z0-9_]", "_", path.stem.lower())


def kernel_usage(pid: int) -> tuple[float, float]:
    """(CPU seconds, peak RSS in MiB) of process ``pid`` from ``/proc``."""
    stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    # after the command name: state is field 3, utime/stime/cutime/cstime are fields 14-17
    ticks = sum(int(stat[i]) for i in (11, 12, 13, 14))
    status = Path(f"/proc/{pid}/status").read_text()
    match = re.search(r"^VmHWM:\s+(\d+) kB", status, re.M)
    if not match:
        raise RuntimeError(f"/proc/{pid}/status has no VmHWM line")
    return ticks / os.sysconf("SC_CLK_TCK"), int(match.group(1)) / 1024


def execute(path: Path, workdir: Path, timeout: int) -> dict[str, float]:
    """Execute ``path`` into ``workdir/<name>``; return its CPU seconds, wall seconds, peak RSS."""
    import nbformat
    from nbclient import NotebookClient

    copy = workdir / path.name
    shutil.copyfile(path, copy)
    nb = nbformat.read(copy, as_version=4)
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=False,
                            resources={"metadata": {"path": str(path.resolve().parent)}})
    start = time.perf_counter()
    with client.setup_kernel():
        process = getattr(client.km.provisioner, "process", None)
        if process is None:
            raise RuntimeError(f"{path}: cannot see the kernel process (provisioner "
                               f"{type(client.km.provisioner).__name__})")
        for index, cell in enumerate(nb.cells):
            client.execute_cell(cell, index)
        cpu_s, rss_mib = kernel_usage(process.pid)
    wall_s = time.perf_counter() - start
    nbformat.write(nb, copy)
    return {"cpu_s": cpu_s, "wall_s": wall_s, "kernel_peak_rss_mib": rss_mib}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("notebooks", nargs="+", type=Path)
    ap.add_argument("--timeout", type=int, default=1800, help="seconds per cell")
    ap.add_argument("--keep", type=Path, default=None,
                    help="folder to keep the executed copies in (default: a temporary one, removed)")
    args = ap.parse_args(argv)
    for nb in args.notebooks:
        if not nb.is_file():
            ap.error(f"{nb}: no such notebook")
    with tempfile.TemporaryDirectory(prefix="bench-chapters-") as tmp:
        workdir = args.keep or Path(tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        for nb in args.notebooks:
            row = execute(nb, workdir, args.timeout)
            stem = key_stem(nb)
            print(f"chapter_{stem}_cpu_s={row['cpu_s']:.1f}")
            print(f"chapter_{stem}_wall_s={row['wall_s']:.1f}")
            print(f"chapter_{stem}_kernel_peak_rss_mib={row['kernel_peak_rss_mib']:.0f}")
            print(f"chapter_{stem}_of_budget={row['cpu_s'] / BUDGET_S:.2f}")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
