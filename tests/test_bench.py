"""bench/run_all.py: one command runs every benchmark and writes every key, or fails naming the
benchmark that broke; and the FLOP counting behind MFU sees the kernels a CPU runs.

No test here looks at a speed: they check that the keys exist, are numbers and are consistent.
"""

from __future__ import annotations

import importlib.util
import json
import math
import re
import subprocess
import sys
from pathlib import Path

import pytest
import torch

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"

#: the keys issue 13 asks of `make bench` (a quick run, so no chapters)
NAMED_KEYS = [
    # training tokens/s beside its reference
    "train_tokens_per_s_rnn_loop", "train_tokens_per_s_lstm_loop", "train_tokens_per_s_gru_loop",
    "rnnsearch_train_tokens_per_s", "train_tokens_per_s_package", "train_tokens_per_s_package_fused",
    # decoding
    "greedy_cached_sentences_per_s", "beam5_cached_sentences_per_s", "beam_batched_sentences_per_s",
    "beam_batched_speedup", "kv_cache_speedup_greedy", "kv_cache_speedup_beam5",
    # issue 21: beam search before/after sharing the source's tensors per sentence
    "beam5_after_sentences_per_s", "attention_beam_after_sentences_per_s",
    # the corpus generator
    "kosynth_pairs_per_s",
    # the machine and MFU of every family
    "matmul_flops_per_s",
    *(f"{k}_{f}" for f in ("seq2seq", "rnnsearch", "rnnencdec", "transformer")
      for k in ("mfu", "book_train_tokens_per_s")),
    # peak memory of every process
    *(f"peak_rss_mib_{b}" for b in ("kosynth", "cells", "decode", "attention", "transformer", "mfu",
                                   "baseline")),
]


def load(name: str):
    """A bench/ script as a module (under a name of its own: no bench/ on sys.path)."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def run_all():
    return load("run_all")


@pytest.fixture
def driver(run_all, monkeypatch):
    """run_all for an in-process main(): the thread variables it sets are restored afterwards."""
    for name in run_all.THREAD_ENV:
        monkeypatch.setenv(name, "1")
    return run_all


@pytest.mark.slow
def test_quick_run_writes_every_key_as_a_number_and_a_table_row(run_all, tmp_path):
    """One quick run of the driver (a single test, so xdist never runs it twice)."""
    out = tmp_path / "bench"
    proc = subprocess.run([sys.executable, str(BENCH / "run_all.py"), "--quick", "--out-dir", str(out)],
                          capture_output=True, text=True, cwd=ROOT, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    check_json(out, run_all)
    check_markdown(out)


def check_json(out, run_all):
    record = json.loads((out / "results.json").read_text(encoding="utf-8"))
    results = record["results"]
    expected = [k.key for k in run_all.required_keys(run_all.plan(quick=True, with_chapters=False))]
    assert set(NAMED_KEYS) <= set(expected)
    assert list(results) == expected  # every key, in the table's order, and nothing else
    for key, entry in results.items():
        assert isinstance(entry["value"], float) and math.isfinite(entry["value"]), key
        assert entry["unit"] and entry["source"] and entry["what"], key
        assert entry["reference"], f"{key}: no reference"
        if "ratio" in entry and entry["ratio"] is not None:
            assert entry["ratio"] == pytest.approx(entry["value"] / entry["reference_value"]), key
    for family in ("seq2seq", "rnnsearch", "rnnencdec", "transformer"):
        mfu = results[f"mfu_{family}"]
        assert 0 < mfu["value"] < 1.5, mfu  # a fraction of the measured matmul speed
        assert mfu["numerator_value"] / mfu["reference_value"] == pytest.approx(mfu["value"], rel=0.01)
    assert record["mode"] == "quick" and record["chapters"] is False
    assert {"commit", "torch", "cpu", "python"} <= set(record["provenance"])
    assert record["provenance"]["torch_threads"] == 1
    # every process's own key=value lines are kept, and its memory and times
    for name, bench in record["benchmarks"].items():
        assert bench["returncode"] == 0 and bench["peak_rss_mib"] > 0, name
    assert record["benchmarks"]["bench/decode.py"]["values"]["beam_batched_speedup"] == \
        results["beam_batched_speedup"]["value"]


def check_markdown(out):
    record = json.loads((out / "results.json").read_text(encoding="utf-8"))
    table = (out / "results.md").read_text(encoding="utf-8")
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    keys = [re.match(r"\| `([^`]+)`", row).group(1) for row in rows]
    assert keys == list(record["results"])
    assert "| key | value | unit | measured against | ratio | source |" in table
    for row in rows:
        assert row.count("|") == 7, row  # six cells: no stray pipe in a description


def test_a_failing_benchmark_fails_the_driver_with_its_name(driver, monkeypatch, tmp_path, capsys):
    run_all = driver
    boom = tmp_path / "boom.py"
    boom.write_text("print('started=1')\nraise RuntimeError('deliberate failure in boom')\n")
    job = run_all.Job("bench/boom.py", [sys.executable, str(boom)], "boom", expected_s=1e9)
    monkeypatch.setattr(run_all, "plan", lambda quick, with_chapters, notebooks=None: [job])
    monkeypatch.setattr(run_all, "required_keys", lambda jobs: [])
    status = run_all.main(["--quick", "--out-dir", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert status == 1
    assert "benchmark failed: bench/boom.py (exit status 1)" in err
    assert "RuntimeError: deliberate failure in boom" in err
    assert not (tmp_path / "out").exists()  # no results from a failed run


@pytest.mark.slow
def test_a_failure_stops_the_benchmarks_still_running(driver, monkeypatch, tmp_path, capsys):
    """The real quick jobs run beside one that fails at once: the driver stops them and fails."""
    run_all = driver
    boom = tmp_path / "boom.py"
    boom.write_text("import sys\nsys.exit(3)\n")
    real = run_all.plan

    def plan(quick, with_chapters, notebooks=None):
        return [run_all.Job("bench/boom.py", [sys.executable, str(boom)], "boom", expected_s=1e9),
                *real(quick, with_chapters)]

    monkeypatch.setattr(run_all, "plan", plan)
    monkeypatch.setattr(run_all, "required_keys", lambda jobs: [])
    status = run_all.main(["--quick", "--jobs", "2", "--out-dir", str(tmp_path / "out")])
    captured = capsys.readouterr()
    assert status == 1 and "benchmark failed: bench/boom.py (exit status 3)" in captured.err
    # the one running beside it was killed, the next ones never ran to the end
    assert not [line for line in captured.out.splitlines() if ": exit 0," in line], captured.out
    assert not (tmp_path / "out").exists()


def test_a_missing_or_non_numeric_key_fails_naming_the_benchmark(run_all):
    job = run_all.Job("bench/x.py", ["x"], "x", 1)
    outcome = run_all.Outcome(job, 0, 1.0, 1.0, 10.0, "", "", values={"a": 1.0, "b": "n/a"})
    with pytest.raises(run_all.BenchError, match=r"bench/x.py did not print c= .*a, b"):
        run_all.collect([run_all.Key("c", "bench/x.py", "s", "c")], {"bench/x.py": outcome})
    with pytest.raises(run_all.BenchError, match=r"bench/x.py: b=n/a is not a finite number"):
        run_all.collect([run_all.Key("b", "bench/x.py", "s", "b")], {"bench/x.py": outcome})
    bad_ratio = run_all.Key("a", "bench/x.py", "fraction", "a", ref_key="d", of="e")
    outcome.values.update(d=4.0, e=2.0)  # e / d = 0.5, but a = 1
    with pytest.raises(run_all.BenchError, match=r"a=1.0 but e / d = 0.5"):
        run_all.collect([bad_ratio], {"bench/x.py": outcome})


def test_key_value_lines_are_parsed(run_all):
    text = ("device=cpu threads=1 B=32\n  rnn |  1.0 | 2.0\nbeam_batched_speedup=18.8\n"
            "identical_outputs=1000/1000 (other 0 are exact score ties)\nmfu_x=nan\nNot=1\n")
    values = run_all.parse_values(text)
    assert values["beam_batched_speedup"] == 18.8
    assert values["device"] == "cpu" and values["identical_outputs"] == "1000/1000"
    assert math.isnan(values["mfu_x"]) and "Not" not in values and "threads" not in values


def test_every_bench_script_is_run_or_excluded_with_a_reason(run_all, monkeypatch, tmp_path):
    run_all.check_every_script_planned()  # the repository as it is
    for name in (*run_all.SCRIPTS, "run_all.py", "new_bench.py"):
        (tmp_path / name).write_text("")
    monkeypatch.setattr(run_all, "BENCH", tmp_path)
    with pytest.raises(run_all.BenchError, match="bench/new_bench.py is neither run"):
        run_all.check_every_script_planned()


def test_chapter_keys_follow_the_notebooks(run_all):
    jobs = run_all.plan(quick=False, with_chapters=True)
    notebooks = sorted((ROOT / "book").glob("*.ipynb"))
    chapter_jobs = [j for j in jobs if j.name.startswith("book/")]
    assert sorted(j.name for j in chapter_jobs) == sorted(f"book/{p.name}" for p in notebooks)
    keys = {k.key: k for k in run_all.required_keys(jobs)}
    for nb in notebooks:
        stem = re.sub(r"[^a-z0-9_]", "_", nb.stem.lower())
        assert keys[f"chapter_{stem}_cpu_s"].ref_text.startswith("the book's budget: 300 s")
        assert f"peak_rss_mib_chapter_{stem}" in keys
    before = run_all.previous_seconds()  # the longest first, by the last run where there is one
    expected = [before.get(j.name, j.expected_s) for j in jobs]
    assert expected == sorted(expected, reverse=True)


@pytest.mark.slow
def test_chapter_runner_times_a_notebook_and_fails_on_an_error(tmp_path):
    import nbformat

    good, bad = tmp_path / "tiny.ipynb", tmp_path / "broken.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = sum(range(10**6))")]), good)
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1 / 0")]), bad)
    script = [sys.executable, str(BENCH / "chapters.py")]
    proc = subprocess.run([*script, str(good)], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    values = dict(line.split("=", 1) for line in proc.stdout.splitlines() if line.startswith("chapter_"))
    assert set(values) == {"chapter_tiny_cpu_s", "chapter_tiny_wall_s", "chapter_tiny_kernel_peak_rss_mib",
                           "chapter_tiny_of_budget"}
    assert float(values["chapter_tiny_cpu_s"]) > 0 and float(values["chapter_tiny_kernel_peak_rss_mib"]) > 10
    assert nbformat.read(good, as_version=4).cells[0].outputs == []  # executed into a copy
    proc = subprocess.run([*script, str(bad)], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode != 0 and "ZeroDivisionError" in proc.stderr


def test_flops_counted_include_cpu_lstm_and_flash_attention():
    """FlopCounterMode alone sees no FLOPs in a CPU nn.LSTM (oneDNN's kernel) nor in CPU flash
    attention; bench/mfu.py's count_flops counts both, as the unfused arithmetic would."""
    from torch.utils.flop_counter import FlopCounterMode

    from companion.data.batching import collate
    from companion.models.transformer import Transformer
    from companion.training.trainer import sequence_loss

    mfu = load("mfu")
    torch.manual_seed(0)
    lstm, x = torch.nn.LSTM(8, 16, batch_first=True), torch.randn(3, 5, 8)
    with FlopCounterMode(display=False) as plain:
        lstm(x)
    assert plain.get_total_flops() == 0
    assert mfu.count_flops(lambda: lstm(x)) == 2 * 4 * 16 * (8 + 16) * 3 * 5  # gates of 15 steps

    batch = collate([([5, 6, 7, 2], [8, 9, 10]), ([5, 6, 2], [8, 9])])
    counts = []
    for attention_dropout in (0.0, 0.1):  # fused kernel / explicit matmuls (dropout on weights)
        torch.manual_seed(0)
        model = Transformer(20, 20, d_model=16, num_heads=2, num_encoder_layers=1, num_decoder_layers=1,
                            d_ff=32, attention_dropout=attention_dropout).train()
        counts.append(mfu.count_flops(lambda: sequence_loss(model(batch), batch.tgt_out).backward()))
    assert counts[0] == counts[1] > 0
