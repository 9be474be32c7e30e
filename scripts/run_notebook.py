"""Execute chapter notebooks in place, storing their outputs (what nbval then checks), and report
the time each took.

    .venv/bin/python scripts/run_notebook.py book/03_seq2seq.ipynb [--allow-errors]

The kernel runs in the notebook's folder, as under Jupyter Book and nbval. The time reported is
the kernel process's CPU time (user + system, read from /proc), which is what the book's budget
of five minutes per chapter on one CPU thread refers to, and the wall time.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path


def _cpu_seconds(pid: int) -> float | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def run(path: Path, allow_errors: bool, timeout: int) -> int:
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=allow_errors,
                            resources={"metadata": {"path": str(path.parent)}})
    start = time.perf_counter()
    cpu = None
    with client.setup_kernel():
        pid = getattr(client.km.provisioner, "pid", None) if client.km.provisioner else None
        for index, cell in enumerate(nb.cells):
            client.execute_cell(cell, index)
        cpu = _cpu_seconds(pid) if pid else None
    nbformat.write(nb, path)
    errors = sum(1 for c in nb.cells if c.get("cell_type") == "code"
                 for o in c.get("outputs", []) if o.get("output_type") == "error")
    cpu_text = f"{cpu:.0f} s CPU, " if cpu is not None else ""
    print(f"{path}: {cpu_text}{time.perf_counter() - start:.0f} s wall, {errors} error output(s)")
    return 1 if errors else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("notebooks", nargs="+", type=Path)
    ap.add_argument("--allow-errors", action="store_true", help="keep going after a failing cell")
    ap.add_argument("--timeout", type=int, default=1800, help="seconds per cell")
    args = ap.parse_args(argv)
    status = 0
    for nb in args.notebooks:
        status |= run(nb, args.allow_errors, args.timeout)
    return status


if __name__ == "__main__":
    sys.exit(main())
