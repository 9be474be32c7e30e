"""Recorded results: the JSON files under ``book/results/`` that the chapters read.

What a chapter cannot afford to run in its five minutes (several seeds, ablations, long runs on
the full corpus, GPU runs) a script runs once and records here, with everything a reader needs to
trust the number: the git commit (with ``+dirty`` and a hash of the difference when the code was
not committed; see :func:`git_state`), the package, torch, Python, sacrebleu and sentencepiece
versions, the hardware, the thread count, the configuration and the wall/CPU time. The chapter then reads the file and shows it;
``tests/test_results.py`` keeps every file parseable.

A record is a JSON object::

    {"name": ..., "kind": ..., "created": ISO date, "provenance": {...}, "config": {...},
     "results": {...}}
"""

from __future__ import annotations

import datetime as _dt
import hashlib
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


#: what a record's own script writes: never counted as a change of the code that made it
RECORDS_PATHSPEC = ":(exclude)book/results"


def _git(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=root, capture_output=True, timeout=30)


def git_state(root: Path) -> dict[str, Any]:
    """``{"commit", "dirty", "diff_sha256"}`` of the working tree at ``root``.

    ``commit`` is HEAD's hash, with ``+dirty`` appended when the tree differs from it anywhere
    outside ``book/results/`` (the records the scripts themselves write): a tracked file changed,
    or an untracked file that git does not ignore. Then ``diff_sha256`` pins the difference: the
    sha256 of ``git diff HEAD --binary -- . ':!book/results'``, followed, for every such untracked
    file in path order, by its path, a NUL byte and its bytes. A clean tree has ``diff_sha256``
    None; outside a git checkout everything is ``"unknown"``/None.
    """
    unknown = {"commit": "unknown", "dirty": None, "diff_sha256": None}
    try:
        head = _git(root, "rev-parse", "HEAD")
        if head.returncode != 0:
            return unknown
        commit = head.stdout.decode().strip()
        diff = _git(root, "diff", "HEAD", "--binary", "--", ".", RECORDS_PATHSPEC)
        others = _git(root, "ls-files", "--others", "--exclude-standard", "-z", "--", ".", RECORDS_PATHSPEC)
        if diff.returncode != 0 or others.returncode != 0:
            return unknown
    except (OSError, subprocess.SubprocessError):
        return unknown
    untracked = sorted(p for p in others.stdout.decode().split("\0") if p)
    if not diff.stdout and not untracked:
        return {"commit": commit, "dirty": False, "diff_sha256": None}
    digest = hashlib.sha256(diff.stdout)
    for name in untracked:
        digest.update(name.encode() + b"\0")
        try:
            digest.update((root / name).read_bytes())
        except OSError:  # vanished or unreadable: its name still counts
            pass
    return {"commit": commit + "+dirty", "dirty": True, "diff_sha256": digest.hexdigest()}


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
    """Commit (see :func:`git_state`), versions and hardware of the running process."""
    import numpy
    import sacrebleu
    import sentencepiece
    import torch

    import companion

    from companion.data.kosynth.corpus import (FINGERPRINT_LEVELS, generator_fingerprint,
                                               level_fingerprint)

    git = git_state(RESULTS_DIR.parents[1])
    info: dict[str, Any] = {
        "commit": git["commit"],
        "diff_sha256": git["diff_sha256"],
        "corpus_fingerprint": generator_fingerprint(),
        "corpus_fingerprints": {level: level_fingerprint(level) for level in FINGERPRINT_LEVELS},
        "companion": companion.__version__,
        "python": platform.python_version(),
        "torch": torch.__version__,
        "numpy": numpy.__version__,
        "sacrebleu": sacrebleu.__version__,
        "sentencepiece": sentencepiece.__version__,
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
    """JSON-safe copy: NaN/inf become None, tuples lists, floats rounded to 6 decimals -- or to
    7 significant digits where that keeps more (a gradient ratio of 1e-13 must not become 0)."""
    if isinstance(obj, float):
        if not math.isfinite(obj):
            return None
        return round(obj, 6) if obj == 0.0 or abs(obj) >= 0.1 else float(f"{obj:.7g}")
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


#: the per-level fingerprints of corpora recorded before records carried them: the generator
#: at commit d626e1d (combined fingerprint 1de0c13bb08629c6) measured level by level
LEGACY_LEVEL_FINGERPRINTS: dict[str, dict[str, str]] = {
    "1de0c13bb08629c6": {"small": "3e79c9b49dac5b44", "full": "b3ca661988bc19ad"},
}


def level_fingerprints(record: Mapping[str, Any]) -> dict[str, str]:
    """The per-level corpus fingerprints a record was made with: its ``corpus_fingerprints``, or
    for a record made before records carried them, :data:`LEGACY_LEVEL_FINGERPRINTS` of its
    combined fingerprint ({} when unknown)."""
    provenance = record.get("provenance", {})
    return dict(provenance.get("corpus_fingerprints")
                or LEGACY_LEVEL_FINGERPRINTS.get(provenance.get("corpus_fingerprint"), {}))


def corpus_levels(record: Mapping[str, Any]) -> tuple[str, ...] | None:
    """The named corpus levels ``record`` was computed on: ``("small",)`` for a run of the
    book's regime (``config.regime.level`` a level name), None where it may depend on every
    level (a review of both levels, a regime with changed knobs such as the lexicon curve's)."""
    from companion.data.kosynth.corpus import FINGERPRINT_LEVELS

    regime = record.get("config", {}).get("regime")
    level = regime.get("level") if isinstance(regime, Mapping) else None
    return (level,) if level in FINGERPRINT_LEVELS else None


def corpus_current(record: Mapping[str, Any]) -> bool:
    """Whether ``record`` was computed on the corpus the generator makes now: its provenance's
    ``corpus_fingerprint`` equals :func:`companion.data.kosynth.corpus.generator_fingerprint`,
    or, for a record of one level (:func:`corpus_levels`), that level's fingerprint is
    unchanged (``corpus_fingerprints``, or :data:`LEGACY_LEVEL_FINGERPRINTS` for a record made
    before records carried them). A record older than the fingerprint has none: not current."""
    from companion.data.kosynth.corpus import generator_fingerprint, level_fingerprint

    provenance = record.get("provenance", {})
    combined = provenance.get("corpus_fingerprint")
    if combined is None:
        return False
    if combined == generator_fingerprint():
        return True
    levels = corpus_levels(record)
    if levels is None:
        return False
    known = level_fingerprints(record)
    return all(known.get(level) == level_fingerprint(level) for level in levels)


def stale_note(*records: Mapping[str, Any]) -> str:
    """One line naming the records among ``records`` that an earlier corpus produced (they are
    remade once the corpus is final), or "" when every one is current."""
    old = [r["name"] for r in records if not corpus_current(r)]
    if not old:
        return ""
    names = ", ".join(old)
    return (f"Computed on an earlier edition of the corpus: {names}. The generator has changed "
            "since (its Korean was made more natural); these records are remade once, on the final "
            "corpus, and until then their numbers describe the earlier sentences.")


#: why a chapter's bands are not compared while its records are stale (see use_records)
STALE_REASON = "the record predates the current corpus"


def use_records(*names: str) -> dict[str, dict[str, Any]]:
    """The records a chapter reads that were computed on the generated corpus, by name; and
    whether its bands are compared (a record of another task, such as chapter 5's reversal
    task, has no corpus to be stale against and is read with :func:`read_record` alone).

    When every one was computed on the current corpus (:func:`corpus_current`), training
    results are compared with their bands as usual. Otherwise the stale ones are named in one
    printed paragraph (:func:`stale_note`) and :func:`companion.repro.use_bands` turns the
    comparisons off for the rest of the chapter: a band from another corpus tests nothing."""
    from companion.repro import use_bands

    records = {name: read_record(name) for name in names}
    note = stale_note(*records.values())
    use_bands(not note, STALE_REASON)
    if note:
        print(note)
    return records


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


def provenance_row(record: Mapping[str, Any]) -> dict[str, Any]:
    """One line of a provenance table: the record's name, date, commit (``+dirty`` when made from
    an uncommitted tree), torch version, training threads, runs and hardware.

    The threads are those the record's runs trained on: a record gathering separate runs (the
    convergence record) keeps each run's provenance, and those count, not the merging process's."""
    p, cfg, results = record["provenance"], record.get("config", {}), record["results"]
    per_run = sorted({e["provenance"]["torch_threads"]
                      for e in results.get("experiments", {}).values() if "provenance" in e})
    threads = ", ".join(map(str, per_run)) if per_run else cfg.get("threads") or p["torch_threads"]
    dirty = p.get("dirty") or "+dirty" in p["commit"]
    return {"record": record["name"], "made": record["created"][:10],
            "commit": p["commit"][:8] + ("+dirty" if dirty else ""), "torch": p["torch"], "threads": threads,
            "seeds": len(results["per_seed"]) if "per_seed" in results else 1, "hardware": p.get("gpu") or p["cpu"]}


#: the learning-rate search of every family, and the later search over a wider grid for the
#: families whose best rate lay at the first grid's edge (``make results`` makes both)
LR_SEARCH, LR_SEARCH_WIDE = "lr-search", "lr-search-wide"


def lr_search_families() -> dict[str, dict[str, Any]]:
    """Each family's learning-rate search: ``lr-search``'s, with a family that ``lr-search-wide``
    searched again over a wider grid taken from there instead. Every family's entry gains
    ``"record"`` (which search it comes from), ``"factors"`` (its grid) and ``"seed"``; the two
    searches must train the same seed."""
    base = read_record(LR_SEARCH)
    sources = [base]
    if (RESULTS_DIR / f"{LR_SEARCH_WIDE}.json").exists():
        sources.append(read_record(LR_SEARCH_WIDE))
        if sources[1]["config"]["seed"] != base["config"]["seed"]:
            raise DataError(f"{LR_SEARCH_WIDE} trained seed {sources[1]['config']['seed']}, {LR_SEARCH} seed "
                            f"{base['config']['seed']}: one search cannot extend the other")
    families: dict[str, dict[str, Any]] = {}
    for record in sources:
        for name, found in record["results"]["families"].items():
            families[name] = {**found, "record": record["name"], "seed": record["config"]["seed"],
                              "factors": [row["factor"] for row in found["rows"]]}
    return families


def seed_summary(record: Mapping[str, Any], model: str, key: str) -> dict[str, float]:
    """``{"mean", "sd", "min", "max", "n"}`` of ``key`` for ``model`` in a seed-spread record."""
    try:
        return dict(record["results"]["summary"][model][key])
    except KeyError:
        raise DataError(f"{record.get('name')}: no summary of {key!r} for {model!r}") from None


#: a chapter's single training run is checked against the recorded seeds' mean within this many
#: of their standard deviations: another CPU changes the last bits of every step, so the run there
#: is, in effect, one more draw from the seeds' distribution, not the same number
BAND_SDS = 4.0


def band(record: Mapping[str, Any], model: str, key: str, *, floor: float = 0.0) -> tuple[float, float]:
    """``(recorded, tol)`` for :func:`companion.repro.check`: the mean of ``key`` over the seeds of
    ``model`` in a seed-spread record and ``max(BAND_SDS * sd, floor)``.

    One rule for every training result the chapters check, so a band is never typed by hand;
    ``floor`` keeps a band from collapsing when the seeds happen to agree to the last digit."""
    s = seed_summary(record, model, key)
    if s.get("n", 2) < 2:
        raise DataError(f"{record.get('name')}: {key!r} of {model!r} has one seed; a band needs several")
    return float(s["mean"]), max(BAND_SDS * float(s["sd"]), float(floor))


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


__all__ = ["BAND_SDS", "RESULTS_DIR", "band", "cpu_model", "git_state", "make_record", "mean_bleu_by_length", "provenance",
           "python_command", "read_record", "records_named", "seed_summary", "spread", "write_record"]
