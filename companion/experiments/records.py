"""Recorded results: the JSON files under ``book/results/`` that the chapters read.

What a chapter cannot afford to run in its five minutes (several seeds, ablations, long runs on
the full corpus, GPU runs) a script runs once and records here, with everything a reader needs to
trust the number: the git commit, the package/torch/Python versions, the hardware, the thread
count, the configuration and the wall/CPU time. The chapter then reads the file and shows it;
``tests/test_results.py`` keeps every file parseable.

A record is a JSON object::

    {"name": ..., "kind": ..., "created": ISO date, "provenance": {...}, "config": {...},
     "results": {...}}
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import os
import platform
import statistics
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from companion.errors import DataError

#: where the book's records live, relative to the repository root
RESULTS_DIR = Path(__file__).resolve().parents[2] / "book" / "results"
REQUIRED = ("name", "kind", "created", "provenance", "config", "results")


def _git_commit(root: Path) -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True,
                             text=True, timeout=10)
        commit = out.stdout.strip() if out.returncode == 0 else "unknown"
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                               capture_output=True, text=True, timeout=10).stdout.strip()
        return commit + ("+dirty" if dirty and commit != "unknown" else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def cpu_model() -> str:
    """The processor's model name (``/proc/cpuinfo`` on Linux, else ``platform``)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def provenance() -> dict[str, Any]:
    """Commit, versions and hardware of the running process."""
    import numpy
    import sacrebleu
    import torch

    import companion

    info: dict[str, Any] = {
        "commit": _git_commit(RESULTS_DIR.parents[1]),
        "companion": companion.__version__,
        "python": platform.python_version(),
        "torch": torch.__version__,
        "numpy": numpy.__version__,
        "sacrebleu": sacrebleu.__version__,
        "platform": platform.platform(),
        "cpu": cpu_model(),
        "cpu_count": os.cpu_count(),
        "torch_threads": torch.get_num_threads(),
        "gpu": None,
    }
    if torch.cuda.is_available():
        info["gpu"] = torch.cuda.get_device_name(0)
        info["gpu_count"] = torch.cuda.device_count()
        info["cuda"] = torch.version.cuda
    return info


def make_record(name: str, kind: str, config: Mapping[str, Any], results: Mapping[str, Any],
                **extra: Any) -> dict[str, Any]:
    """A record dict with provenance filled in."""
    return {"name": name, "kind": kind,
            "created": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "provenance": provenance(), "config": dict(config), "results": dict(results), **extra}


def _clean(obj: Any) -> Any:
    """JSON-safe copy: NaN/inf become None, tuples lists, floats rounded to 6 decimals."""
    if isinstance(obj, float):
        return None if not math.isfinite(obj) else round(obj, 6)
    if isinstance(obj, Mapping):
        return {str(k): _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    return obj


def write_record(record: Mapping[str, Any], path: str | Path | None = None) -> Path:
    """Write ``record`` as pretty JSON to ``path`` (default ``book/results/<name>.json``)."""
    missing = [k for k in REQUIRED if k not in record]
    if missing:
        raise DataError(f"write_record: the record lacks {', '.join(missing)}")
    path = Path(path) if path is not None else RESULTS_DIR / f"{record['name']}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(_clean(record), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(path)
    return path


def read_record(name_or_path: str | Path) -> dict[str, Any]:
    """Read a record by name (``book/results/<name>.json``) or path; one-line errors."""
    p = Path(name_or_path)
    path = p if p.suffix == ".json" else RESULTS_DIR / f"{name_or_path}.json"
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataError(f"{path}: no such results file (run the script that records it)") from None
    except json.JSONDecodeError as exc:
        raise DataError(f"{path}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
    missing = [k for k in REQUIRED if k not in record]
    if missing:
        raise DataError(f"{path}: not a results record (missing {', '.join(missing)})")
    return record


def spread(values: Sequence[float]) -> dict[str, float]:
    """Mean, sample standard deviation, min and max of per-seed values."""
    vals = [float(v) for v in values]
    if not vals:
        raise DataError("spread: no values")
    return {"mean": statistics.fmean(vals), "sd": statistics.stdev(vals) if len(vals) > 1 else 0.0,
            "min": min(vals), "max": max(vals), "n": len(vals)}


def records_named(pattern: str) -> list[dict[str, Any]]:
    """Every record under ``book/results/`` whose name matches the glob ``pattern``
    (``"long-*"``), sorted by name."""
    return [read_record(p) for p in sorted(RESULTS_DIR.glob(f"{pattern}.json"))]


def seed_summary(record: Mapping[str, Any], model: str, key: str) -> dict[str, float]:
    """``{"mean", "sd", "min", "max", "n"}`` of ``key`` for ``model`` in a seed-spread record."""
    try:
        return dict(record["results"]["summary"][model][key])
    except KeyError:
        raise DataError(f"{record.get('name')}: no summary of {key!r} for {model!r}") from None


def mean_bleu_by_length(record: Mapping[str, Any], model: str) -> list[tuple[tuple[int, int], int, float]]:
    """BLEU per length bucket of ``model`` in a seed-spread record, averaged over the seeds:
    ``[((lo, hi), n, mean BLEU), ...]`` (the rows :func:`companion.plots.decoding.plot_bleu_by_length`
    draws); a bucket empty for every seed gets NaN."""
    per_seed = record["results"]["per_seed"]
    runs = [per_seed[s][model]["bleu_by_length"] for s in per_seed if model in per_seed[s]]
    if not runs:
        raise DataError(f"{record.get('name')}: no BLEU by length for {model!r}")
    rows = []
    for k, (lo, hi, n, _) in enumerate(runs[0]):
        scores = [run[k][3] for run in runs if run[k][3] is not None]
        rows.append(((lo, hi), n, statistics.fmean(scores) if scores else math.nan))
    return rows


def python_command() -> str:
    """How this process was started (recorded so a reader can rerun it)."""
    return " ".join([Path(sys.executable).name, *sys.argv])


__all__ = ["RESULTS_DIR", "cpu_model", "make_record", "mean_bleu_by_length", "provenance",
           "python_command", "read_record", "records_named", "seed_summary", "spread", "write_record"]
