"""Run every benchmark and write one results file: ``bench/results.json`` and ``bench/results.md``.

Each benchmark runs as its own process with one CPU thread (``OMP_NUM_THREADS=1``, and each
script's ``--threads 1`` where it has one), ``--jobs`` of them at a time (default 2: the
reference machine's cores); the chapter notebooks are executed too (``bench/chapters.py``, one
process per chapter), unless ``BENCH_CHAPTERS=0`` or ``--no-chapters``. Every script prints
``key=value`` lines; this driver reads them, measures each process's wall time, CPU time and
peak resident memory (``wait4``'s ``ru_maxrss``: the process and the children it waited for,
so a chapter's kernel is included), and writes:

- ``results.json``: every key with its value, unit, the reference it is measured against (and
  that reference's value and the ratio, where the reference is itself measured), the script it
  comes from; each process's command, times, memory and every ``key=value`` it printed; and the
  provenance (commit, versions, CPU) of :func:`companion.experiments.records.provenance`;
- ``results.md``: the same keys as a markdown table.

A benchmark that exits non-zero (or runs past ``--timeout``), or does not print a key this
driver expects of it, fails the whole run: the driver names it, shows the end of its output,
stops the others and writes no results. Ratios are what carry over between machines: every
reference is measured in the same run (most in the same process), and on a shared machine
absolute speeds drop with the load.

    .venv/bin/python bench/run_all.py                     # everything (about 10-15 min on 2 cores)
    BENCH_CHAPTERS=0 .venv/bin/python bench/run_all.py    # without the chapters
    .venv/bin/python bench/run_all.py --quick --out-dir /tmp/b   # tiny sizes, no chapters: plumbing
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import math
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"
BOOK = ROOT / "book"

#: one thread per benchmark process
THREAD_ENV = {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}

#: the book's budget per chapter, CPU seconds on one thread
CHAPTER_BUDGET_S = 300.0
#: the model families whose training FLOPs bench/mfu.py measures
FAMILIES = ("seq2seq", "rnnsearch", "rnnencdec", "transformer")

#: the scripts in bench/ that this driver runs
SCRIPTS = ("kosynth.py", "cells.py", "decode.py", "attention.py", "transformer.py", "mfu.py",
           "chapters.py", "data.py", "convergence.py", "engines.py")
#: scripts in bench/ that this driver does not run, and why
EXCLUDED = {
    "run_all.py": "this driver",
    "gpu.py": "the GPU profile: run on a GPU machine, it records under book/results/ "
              "(python bench/gpu.py --out book/results/gpu-DATE.json)",
}


@dataclass
class Job:
    """One benchmark process: ``name`` is how results and errors refer to it."""

    name: str
    argv: list[str]
    label: str  # the short name in key names (peak_rss_mib_<label>)
    expected_s: float  # for ordering only: the longest start first


@dataclass(frozen=True)
class Key:
    """A result the driver requires of a job: ``key`` as the job prints it, its unit, what it is,
    and what it is measured against -- another key of the same job (``ref_key``, whose value
    and the ratio are recorded too) or a description (``ref_text``). A key that is itself a
    ratio names its numerator (``of``): the driver records it and checks ``key = of / ref_key``."""

    key: str
    job: str
    unit: str
    what: str
    ref_key: str | None = None
    ref_text: str | None = None
    of: str | None = None


@dataclass
class Outcome:
    job: Job
    returncode: int
    wall_s: float
    cpu_s: float
    peak_rss_mib: float
    stdout: str
    stderr: str
    timed_out: bool = False
    values: dict[str, float | str] = field(default_factory=dict)


class BenchError(RuntimeError):
    """A benchmark failed or did not report what it must; the message names it."""


# ----------------------------------------------------------------------------- the plan
def py(script: str, *args: str) -> list[str]:
    return [sys.executable, str(BENCH / script), *args]


def chapters() -> list[Path]:
    """The chapter notebooks."""
    return sorted(BOOK.glob("*.ipynb"))


def previous_seconds() -> dict[str, float]:
    """Wall seconds of each process in the last bench/results.json (to start the longest
    first); empty if there is none or it cannot be read."""
    try:
        record = json.loads((BENCH / "results.json").read_text(encoding="utf-8"))
        return {name: float(b["wall_s"]) for name, b in record["benchmarks"].items()}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def plan(quick: bool, with_chapters: bool, notebooks: list[Path] | None = None) -> list[Job]:
    """Every process of a run, the longest expected first (so two workers finish together):
    the benchmarks and, with ``with_chapters``, one process per notebook (default: every
    ``book/*.ipynb``)."""
    q = quick
    jobs = [
        Job("bench/kosynth.py", py("kosynth.py", *(["--size", "2000"] if q else [])), "kosynth", 30),
        Job("bench/data.py", py("data.py", *(["--quick"] if q else [])), "data", 1200),
        Job("bench/cells.py", py("cells.py", "--threads", "1", "--device", "cpu",
                                 *(["--batch", "4", "--steps", "10", "--size", "32", "--repeat", "1"] if q else [])),
            "cells", 20),
        Job("bench/decode.py", py("decode.py", "--threads", "1",
                                  *(["--sentences", "10", "--train-steps", "2", "--vocab-size", "200",
                                     "--batch-size", "5"] if q else [])), "decode", 200),
        Job("bench/attention.py", py("attention.py", *(["--steps", "2", "--sentences", "8", "--hidden", "16",
                                                        "--repeat", "1"] if q else [])), "attention", 120),
        Job("bench/transformer.py", py("transformer.py", "--threads", "1",
                                       *(["--sentences", "4", "--out-len", "8", "--train-steps", "2",
                                          "--round-steps", "1", "--train-sentences", "50",
                                          "--vocab-size", "100", "--repeat", "1"] if q else [])), "transformer", 120),
        Job("bench/mfu.py", py("mfu.py", "--threads", "1", *(["--quick"] if q else [])), "mfu", 90),
        Job("bench/convergence.py", py("convergence.py", *(["--quick"] if q else [])), "convergence", 660),
        Job("bench/engines.py", py("engines.py", *(["--quick"] if q else [])), "engines", 400),
        Job("baseline", [sys.executable, "-c", "import torch, companion.models, companion.training, "
                                               "companion.decoding"], "baseline", 1),
    ]
    if with_chapters:
        for nb in notebooks if notebooks is not None else chapters():
            nb = nb.resolve()
            stem = re.sub(r"[^a-z0-9_]", "_", nb.stem.lower())
            shown = f"book/{nb.name}" if nb.parent == BOOK else str(nb)
            jobs.append(Job(shown, py("chapters.py", str(nb)), f"chapter_{stem}", CHAPTER_BUDGET_S))
    if len({j.label for j in jobs}) != len(jobs):
        raise BenchError("two notebooks give the same key name: " + ", ".join(j.name for j in jobs))
    before = previous_seconds()
    return sorted(jobs, key=lambda j: -before.get(j.name, j.expected_s))


def required_keys(jobs: list[Job]) -> list[Key]:
    """The keys each job must print, in the order of the results table."""
    names = {j.name for j in jobs}
    keys = [
        # training throughput beside its reference
        *(Key(f"train_tokens_per_s_{c}_loop", "bench/cells.py", "tokens/s",
              f"readable {c.upper()} cell, Python loop over time steps: forward + backward of one layer "
              f"(batch x steps per second, wall time)", ref_key=f"train_tokens_per_s_{c}_fused")
          for c in ("rnn", "lstm", "gru")),
        Key("rnnsearch_train_tokens_per_s", "bench/attention.py", "tokens/CPU-s",
            "RNNsearch training steps (forward, backward, Adam) on kosynth batches",
            ref_key="seq2seq_train_tokens_per_s"),
        Key("train_tokens_per_s_package", "bench/transformer.py", "tokens/CPU-s",
            "package Transformer (dropout on residuals, attention and FFN, like nn.Transformer), "
            "Trainer steps", ref_key="train_tokens_per_s_nn_transformer"),
        Key("convergence_updates_package", "bench/convergence.py", "updates",
            "package Transformer, updates to the target dev perplexity on the reversal task (reduced size, "
            "plain loop; bench/convergence.py)", ref_key="convergence_updates_reference"),
        Key("convergence_cpu_s_package", "bench/convergence.py", "CPU s",
            "package Transformer, training CPU-seconds to the target dev perplexity (same run)",
            ref_key="convergence_cpu_s_reference"),
        Key("convergence_updates_packed", "bench/convergence.py", "updates",
            "package Transformer on packed mixed-length batches, updates to the target dev perplexity "
            "(same run)", ref_key="convergence_updates_package"),
        Key("convergence_cpu_s_packed", "bench/convergence.py", "CPU s",
            "package Transformer on packed mixed-length batches, training CPU-seconds to the target "
            "(same run)", ref_key="convergence_cpu_s_package"),
        Key("train_tokens_per_s_package_fused", "bench/transformer.py", "tokens/CPU-s",
            "package Transformer, residual dropout only (fused attention kernel)",
            ref_key="train_tokens_per_s_nn_transformer"),
        # decoding
        Key("greedy_cached_sentences_per_s", "bench/transformer.py", "sentences/CPU-s",
            "Transformer greedy decoding with the KV cache (one batch)",
            ref_key="greedy_recomputed_sentences_per_s"),
        Key("kv_cache_speedup_greedy", "bench/transformer.py", "x",
            "greedy: recomputing time / KV-cache time, identical outputs",
            ref_text="the decoder rerun over the whole prefix each step"),
        Key("beam5_cached_sentences_per_s", "bench/transformer.py", "sentences/CPU-s",
            "Transformer beam search (k = 5) with the KV cache (one batch)",
            ref_key="beam5_recomputed_sentences_per_s"),
        Key("kv_cache_speedup_beam5", "bench/transformer.py", "x",
            "beam 5: recomputing time / KV-cache time, identical outputs",
            ref_text="the decoder rerun over the whole prefix each step"),
        Key("beam5_after_sentences_per_s", "bench/transformer.py", "sentences/CPU-s",
            "Transformer beam 5, cross-attention keys/values once per sentence, attention weights only "
            "on request (best of alternating runs; goal >= 1.25x)", ref_key="beam5_before_sentences_per_s"),
        Key("beam_batched_sentences_per_s", "bench/decode.py", "sentences/s",
            "Seq2Seq beam search (k = 5), batches of sentences and beams (wall time)",
            ref_key="beam_one_by_one_sentences_per_s"),
        Key("beam_batched_speedup", "bench/decode.py", "x",
            "one-by-one time / batched time, same outputs", ref_text="one sentence at a time"),
        Key("attention_beam_batched_sentences_per_s", "bench/attention.py", "sentences/CPU-s",
            "RNNsearch beam search (k = 5), length-sorted batches of 64 (decode_corpus)",
            ref_key="attention_beam_one_by_one_sentences_per_s"),
        Key("attention_beam_after_sentences_per_s", "bench/attention.py", "sentences/CPU-s",
            "RNNsearch beam 5 (decode_corpus), annotations and keys once per sentence (best of "
            "alternating runs)", ref_key="attention_beam_before_sentences_per_s"),
        # decoding engines on one run's Transformer (bench/engines.py): the number to beat is CTranslate2's
        *(Key(f"{e}_{s}_b{b}_t1_sentences_per_s", "bench/engines.py", "sentences/s",
              f"{what}, {s} search, batches of {b}, 1 thread (wall time)",
              ref_key=f"ct2_float32_{s}_b{b}_t1_sentences_per_s")
          for s in ("greedy", "beam5") for b in (1, 64)
          for e, what in (("package", "the package's decoder (PyTorch)"),
                          ("onnxruntime", "the ONNX export with onnxruntime, the package's search"),
                          ("ct2_int8", "CTranslate2, int8 weights"))),
        Key("package_greedy_b64_t1_bleu", "bench/engines.py", "BLEU", "the package's greedy output (batch 64)",
            ref_text="the run's test references"),
        Key("ct2_int8_greedy_b64_t1_bleu", "bench/engines.py", "BLEU", "CTranslate2 int8, greedy (batch 64)",
            ref_key="package_greedy_b64_t1_bleu"),
        Key("onnxruntime_greedy_equal_to_package", "bench/engines.py", "sentences",
            "onnxruntime greedy outputs equal to the package's", ref_text="the sentences decoded"),
        Key("ct2_float32_greedy_equal_to_package", "bench/engines.py", "sentences",
            "CTranslate2 float32 greedy outputs equal to the package's", ref_text="the sentences decoded"),
        Key("package_greedy_model_share", "bench/engines.py", "fraction",
            "share of the package's greedy time (batch 64) inside the model's encode/step; the rest is the "
            "search loop", ref_text="-"),
        # the corpus generator
        Key("kosynth_pairs_per_s", "bench/kosynth.py", "pairs/s",
            "write_corpus: generation, dedup, splits, challenge sets, files (wall time)",
            ref_key="kosynth_plain_write_pairs_per_s"),
        Key("kosynth_pairs_per_cpu_s", "bench/kosynth.py", "pairs/CPU-s",
            "write_corpus per CPU second", ref_text="goal: 100,000 pairs in <= 30 s = 3,333 pairs/s"),
        # the data path at two corpus sizes (bench/data.py: data_small_pairs, data_large_pairs)
        Key("data_gen_rss_mib_large", "bench/data.py", "MiB",
            "generate-data at the large size, peak RSS (streaming writer)", ref_key="data_gen_rss_mib_small"),
        Key("data_gen_s_per_mpairs", "bench/data.py", "s per 1M pairs",
            "generate-data at the large size, wall time per million pairs", ref_text="-"),
        Key("data_first_start_rss_mib_large", "bench/data.py", "MiB",
            "first start of train at the large size (vocabularies from a sample, encoding into "
            "RUN/data-bin, 5 steps), peak RSS", ref_key="data_first_start_rss_mib_small"),
        Key("data_first_start_same_sample_rss_mib_large", "bench/data.py", "MiB",
            "first start at the large size with the small size's vocabulary sample (what grows "
            "with the corpus itself), peak RSS", ref_key="data_first_start_rss_mib_small"),
        Key("data_first_start_s_per_mpairs", "bench/data.py", "s per 1M pairs",
            "first start of train at the large size, wall time per million pairs", ref_text="-"),
        Key("data_second_start_rss_mib_large", "bench/data.py", "MiB",
            "second start (train --resume: corpus hashed, cache mapped, 1 step) at the large size, "
            "peak RSS", ref_key="data_second_start_rss_mib_small"),
        Key("data_second_start_s_large", "bench/data.py", "s",
            "second start at the large size, wall time", ref_text="target: < 10 s at 2,000,000 pairs"),
        Key("data_train_tokens_per_s_mapped", "bench/data.py", "tokens/CPU-s",
            "cpu/transformer Trainer steps from the memory-mapped corpus (same batches)",
            ref_key="data_train_tokens_per_s_memory"),
        # the machine and MFU
        Key("matmul_flops_per_s", "bench/mfu.py", "FLOP/s",
            "float32 square matmul on one thread (best of 5, CPU time): the denominator of MFU",
            ref_text="-"),
    ]
    for f in FAMILIES:
        keys += [
            Key(f"book_train_tokens_per_s_{f}", "bench/mfu.py", "tokens/CPU-s",
                f"{f}: real training steps (forward, loss, backward, clipping, optimiser) on the "
                f"book's batches", ref_text=f"{f}_source"),
            Key(f"mfu_{f}", "bench/mfu.py", "fraction",
                f"{f}: counted training FLOP/s (FlopCounterMode, forward + backward) / matmul FLOP/s",
                ref_key="matmul_flops_per_s", of=f"book_train_flops_per_s_{f}"),
        ]
    for j in jobs:
        if j.label.startswith("chapter_"):
            keys.append(Key(f"{j.label}_cpu_s", j.name, "CPU s",
                            f"executing {j.name} (kernel CPU time, one thread)",
                            ref_text=f"the book's budget: {CHAPTER_BUDGET_S:.0f} s per chapter"))
    for j in jobs:
        if j.label != "baseline":
            keys.append(Key(f"peak_rss_mib_{j.label}", j.name, "MiB",
                            f"peak resident memory of {j.name} (ru_maxrss, children included)",
                            ref_key="peak_rss_mib_baseline"))
    keys.append(Key("peak_rss_mib_baseline", "baseline", "MiB",
                    "a Python process that imports torch and the companion package", ref_text="-"))
    missing = sorted({k.job for k in keys} - names)
    if missing:
        raise BenchError(f"keys refer to jobs not in the plan: {', '.join(missing)}")
    return keys


def check_every_script_planned() -> None:
    """A new bench/*.py must be run here or excluded with a reason: none is skipped silently."""
    unknown = sorted(p.name for p in BENCH.glob("*.py") if p.name not in set(SCRIPTS) | set(EXCLUDED))
    if unknown:
        raise BenchError(f"bench/{unknown[0]} is neither run by bench/run_all.py nor listed in its "
                         f"EXCLUDED (with the reason)")


# ----------------------------------------------------------------------------- running
LINE = re.compile(r"^([a-z][a-z0-9_]*)=(\S+)")


def parse_values(text: str) -> dict[str, float | str]:
    """The ``key=value`` lines of a benchmark's output (the first token of a line starting with
    one); numbers become floats."""
    out: dict[str, float | str] = {}
    for line in text.splitlines():
        m = LINE.match(line.strip())
        if m:
            try:
                out[m.group(1)] = float(m.group(2))
            except ValueError:
                out[m.group(1)] = m.group(2)
    return out


class Runner:
    """Runs jobs as process groups of their own, so a failure can stop the others."""

    def __init__(self, timeout_s: float, log: Callable[[str], None]):
        self.timeout_s = timeout_s
        self.log = log
        self.stopping = threading.Event()
        self.t0 = time.perf_counter()

    def run(self, job: Job) -> Outcome:
        if self.stopping.is_set():
            raise BenchError(f"{job.name}: not started (another benchmark failed)")
        env = {**os.environ, **THREAD_ENV, "PYTHONUNBUFFERED": "1"}
        with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
            start = time.perf_counter()
            proc = subprocess.Popen(job.argv, cwd=ROOT, env=env, stdout=out, stderr=err,
                                    stdin=subprocess.DEVNULL, start_new_session=True)
            timed_out = killed = False
            while True:  # wait4 gives this child's own rusage (its peak RSS)
                pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
                if pid:
                    break
                if not killed and time.perf_counter() - start > self.timeout_s:
                    timed_out = killed = True
                    self._kill(proc.pid)
                elif not killed and self.stopping.is_set():  # another benchmark failed
                    killed = True
                    self._kill(proc.pid)
                time.sleep(0.1)
            proc.returncode = os.waitstatus_to_exitcode(status)
            wall = time.perf_counter() - start
            out.seek(0)
            err.seek(0)
            outcome = Outcome(job, proc.returncode, wall, usage.ru_utime + usage.ru_stime,
                              usage.ru_maxrss / 1024, out.read(), err.read(), timed_out)
        outcome.values = parse_values(outcome.stdout)
        self.log(f"[{time.perf_counter() - self.t0:6.0f} s] {job.name}: exit {outcome.returncode}, "
                 f"{wall:.0f} s wall, {outcome.cpu_s:.0f} s CPU, {outcome.peak_rss_mib:.0f} MiB")
        return outcome

    @staticmethod
    def _kill(pgid: int) -> None:
        try:
            os.killpg(pgid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    def stop_all(self) -> None:
        """Kill the running jobs (each polls the flag, so one starting just now is killed too)."""
        self.stopping.set()


def failure_message(o: Outcome) -> str:
    why = "killed: it ran past --timeout" if o.timed_out else f"exit status {o.returncode}"
    tail = "\n".join((o.stdout.strip().splitlines() + o.stderr.strip().splitlines())[-40:])
    return f"benchmark failed: {o.job.name} ({why}): {' '.join(o.job.argv)}\n{tail}"


def run_jobs(jobs: list[Job], workers: int, timeout_s: float, log) -> dict[str, Outcome]:
    runner = Runner(timeout_s, log)
    outcomes: dict[str, Outcome] = {}
    with ThreadPoolExecutor(max_workers=workers) as pool:
        pending = {pool.submit(runner.run, j): j for j in jobs}
        try:
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    job = pending.pop(fut)
                    outcome = fut.result()
                    outcomes[job.name] = outcome
                    if outcome.returncode != 0:
                        raise BenchError(failure_message(outcome))
        except BaseException:  # a failure, or Ctrl-C (the jobs run in sessions of their own)
            runner.stop_all()
            for other in pending:
                other.cancel()
            raise
    return outcomes


# ----------------------------------------------------------------------------- results
def number(value: float | str, key: str, job: str) -> float:
    if isinstance(value, str) or not math.isfinite(value):
        raise BenchError(f"{job}: {key}={value} is not a finite number")
    return float(value)


def collect(keys: list[Key], outcomes: dict[str, Outcome]) -> dict[str, dict]:
    """The results entries, every required key checked present and numeric."""
    for o in outcomes.values():
        o.values[f"peak_rss_mib_{o.job.label}"] = round(o.peak_rss_mib, 1)
    results: dict[str, dict] = {}
    for k in keys:
        values = outcomes[k.job].values
        if k.key not in values:
            raise BenchError(f"{k.job} did not print {k.key}= (its output has: "
                             f"{', '.join(sorted(values)) or 'no key=value line'})")
        entry = {"value": number(values[k.key], k.key, k.job), "unit": k.unit, "what": k.what,
                 "source": k.job}
        if k.ref_key:
            ref_job = "baseline" if k.ref_key == "peak_rss_mib_baseline" else k.job
            ref_values = outcomes[ref_job].values
            if k.ref_key not in ref_values:
                raise BenchError(f"{ref_job} did not print {k.ref_key}= (the reference of {k.key})")
            ref = number(ref_values[k.ref_key], k.ref_key, ref_job)
            entry.update(reference=k.ref_key, reference_value=ref)
            if k.of:  # the value is already the ratio: record its numerator, check the division
                if k.of not in values:
                    raise BenchError(f"{k.job} did not print {k.of}= (the numerator of {k.key})")
                num = number(values[k.of], k.of, k.job)
                if not math.isclose(num / ref, entry["value"], rel_tol=0.01, abs_tol=1e-4):
                    raise BenchError(f"{k.job}: {k.key}={entry['value']} but {k.of} / {k.ref_key} "
                                     f"= {num / ref:.4g}")
                entry.update(numerator=k.of, numerator_value=num)
            else:
                entry["ratio"] = entry["value"] / ref if ref else None
        elif k.ref_text and k.ref_text.endswith("_source"):  # mfu.py: recipe or defaults
            source = values.get(k.ref_text)
            if not isinstance(source, str):
                raise BenchError(f"{k.job} did not print {k.ref_text}=")
            entry["reference"] = (f"RECIPES['{source.split(':', 1)[1]}']" if source.startswith("recipe:")
                                  else "constructor defaults: no recipe in RECIPES yet")
        else:
            entry["reference"] = k.ref_text
        if k.key.startswith("chapter_") and k.key.endswith("_cpu_s"):
            entry.update(reference_value=CHAPTER_BUDGET_S, ratio=entry["value"] / CHAPTER_BUDGET_S)
        results[k.key] = entry
    return results


def fmt(v: float | None) -> str:
    if v is None:
        return "-"
    a = abs(v)
    if a >= 1e6:
        return f"{v:.3g}"
    if a >= 100:
        return f"{v:,.0f}"
    if a >= 1:
        return f"{v:.3g}" if a < 10 else f"{v:.1f}"
    return f"{v:.3g}"


def markdown(record: dict) -> str:
    p = record["provenance"]
    command = re.sub(r" --note .*?(?= --[a-z]|$)", "", record["command"])  # notes come below
    lines = [
        "# Benchmarks",
        "",
        f"`{command}` ({record['mode']}), {record['created']}: {record['wall_s'] / 60:.1f} min "
        f"wall, {record['jobs']} processes at a time, one thread each; commit `{p['commit']}`, "
        f"{p['cpu']} ({p['cpu_count']} cores), torch {p['torch']}, Python {p['python']}.",
        "Ratios compare figures measured in the same run; absolute speeds drop with the machine's load.",
        "",
        "| key | value | unit | measured against | ratio | source |",
        "|---|---|---|---|---|---|",
    ]
    for key, e in record["results"].items():
        ref = e["reference"]
        if "reference_value" in e and e["reference"] and not e["reference"].startswith("the book"):
            ref = f"`{ref}` = {fmt(e['reference_value'])}"
        if "numerator" in e:
            ref = f"`{e['numerator']}` = {fmt(e['numerator_value'])} over {ref}"
        ratio = fmt(e.get("ratio")) if e.get("ratio") is not None else "-"
        lines.append(f"| `{key}` | {fmt(e['value'])} | {e['unit']} | {ref} | {ratio} | `{e['source']}` |")
    lines += ["", "Not run here: " + "; ".join(f"`bench/{k}` ({v})" for k, v in EXCLUDED.items()
                                                  if k != "run_all.py") + "."]
    if record["notes"]:
        lines += ["", "Notes:", ""] + [f"- {n}" for n in record["notes"]]
    return "\n".join(lines) + "\n"


def write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true",
                    help="tiny sizes and no chapters: checks the plumbing in about a minute")
    ap.add_argument("--chapters", dest="chapters", action="store_true", default=None,
                    help="execute the chapter notebooks (default, unless BENCH_CHAPTERS=0 or --quick)")
    ap.add_argument("--no-chapters", dest="chapters", action="store_false")
    ap.add_argument("--notebooks", nargs="+", type=Path, default=None, metavar="IPYNB",
                    help="the notebooks to execute (default: book/*.ipynb)")
    ap.add_argument("--note", action="append", default=[],
                    help="a line to record in the results' notes (why a run differs from the default)")
    ap.add_argument("--jobs", type=int, default=2, help="processes at a time")
    ap.add_argument("--timeout", type=float, default=None,
                    help="seconds one process may run (default 1800, 300 with --quick)")
    ap.add_argument("--out-dir", type=Path, default=None,
                    help="where results.json/.md go (default: bench/; with --quick: TMPDIR/bench-quick)")
    args = ap.parse_args(argv)
    out_dir = args.out_dir or (Path(tempfile.gettempdir()) / "bench-quick" if args.quick else BENCH)
    with_chapters = args.chapters
    if with_chapters is None:
        with_chapters = not args.quick and os.environ.get("BENCH_CHAPTERS", "1") != "0"
    timeout = args.timeout or (300.0 if args.quick else 1800.0)
    os.environ.update(THREAD_ENV)  # this process too: its provenance() reports one thread

    def log(msg: str) -> None:
        print(msg, flush=True)

    start = time.perf_counter()
    try:
        jobs = plan(args.quick, with_chapters, args.notebooks)
        check_every_script_planned()
        keys = required_keys(jobs)
        log(f"bench: {len(jobs)} processes, {args.jobs} at a time "
            f"({'quick' if args.quick else 'full'}, chapters {'on' if with_chapters else 'off'})")
        outcomes = run_jobs(jobs, args.jobs, timeout, log)
        results = collect(keys, outcomes)
    except BenchError as exc:
        print(f"error: {exc}", file=sys.stderr, flush=True)
        return 1

    from companion.experiments.records import provenance

    notes = list(args.note)
    defaults = [f for f in FAMILIES if outcomes["bench/mfu.py"].values.get(f"{f}_source") == "defaults"]
    if defaults:
        notes.append(f"{', '.join(defaults)}: no recipe in `RECIPES` when this ran; MFU and tokens/s "
                     f"are of the constructor's default sizes with TrainConfig's defaults, on the "
                     f"book's batches over the whole length range.")
    if not with_chapters:
        notes.append("Chapters not executed (BENCH_CHAPTERS=0, --no-chapters or --quick).")
    record = {
        "kind": "bench",
        "created": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "command": " ".join(["bench/run_all.py", *(sys.argv[1:] if argv is None else argv)]),
        "mode": "quick" if args.quick else "full",
        "chapters": with_chapters,
        "jobs": args.jobs,
        "threads_per_job": 1,
        "wall_s": round(time.perf_counter() - start, 1),
        "provenance": provenance(),
        "results": results,
        "benchmarks": {name: {"command": [Path(a).name if a == sys.executable else a for a in o.job.argv],
                              "returncode": o.returncode, "wall_s": round(o.wall_s, 2),
                              "cpu_s": round(o.cpu_s, 2), "peak_rss_mib": round(o.peak_rss_mib, 1),
                              "values": o.values}
                       for name, o in sorted(outcomes.items())},
        "excluded": {f"bench/{k}": v for k, v in EXCLUDED.items()},
        "notes": notes,
    }
    out_json, out_md = out_dir / "results.json", out_dir / "results.md"
    write_atomic(out_json, json.dumps(record, indent=1, ensure_ascii=False) + "\n")
    table = markdown(record)
    write_atomic(out_md, table)
    print(table)
    log(f"wrote {out_json} and {out_md} ({record['wall_s'] / 60:.1f} min)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
