"""The scripts behind book/results/ run end to end (in their --quick plumbing mode) and write
records in the format the chapters read."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from companion.experiments.records import read_record

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow


def _run(*args: str) -> subprocess.CompletedProcess:
    out = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    return out


def test_book_seeds_records_per_seed_numbers_summaries_and_paired_differences(tmp_path):
    path = tmp_path / "seeds.json"
    _run("scripts/book_seeds.py", "seq2seq", "seq2seq_reversed", "--seeds", "0", "1", "--ensemble",
         "--quick", "--out", str(path))
    rec = read_record(path)
    assert rec["kind"] == "seed-spread" and rec["config"]["seeds"] == [0, 1]
    row = rec["results"]["per_seed"]["1"]["seq2seq_reversed"]
    for key in ("valid_ppl", "test_bleu", "test_chrf", "test_exact", "bleu_by_length", "challenges",
                "train_cpu_s", "parameters"):
        assert key in row
    summary = rec["results"]["summary"]
    assert summary["seq2seq"]["test_bleu"]["n"] == 2
    values = [rec["results"]["per_seed"][s]["seq2seq"]["test_bleu"] for s in ("0", "1")]
    assert summary["seq2seq"]["test_bleu"]["mean"] == pytest.approx(sum(values) / 2, abs=1e-6)
    assert "seq2seq_reversed - seq2seq" in summary and "ensemble" in rec["results"]["per_seed"]["0"]


def test_book_seeds_refuses_an_unknown_recipe():
    out = subprocess.run([sys.executable, "scripts/book_seeds.py", "nope", "--quick", "--out", "/dev/null"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode != 0 and "unknown recipe 'nope'" in out.stderr


def test_lexicon_budget_records_every_level(tmp_path):
    path = tmp_path / "lex.json"
    _run("scripts/lexicon_budget.py", "--quick", "--out", str(path))
    levels = read_record(path)["results"]["levels"]
    assert [r["lemmas_per_class"] for r in levels] == [3, None]
    assert levels[0]["english_words"] < levels[1]["english_words"]


def test_long_runs_record_training_curve_scores_and_challenges(tmp_path):
    _run("scripts/long_runs.py", "seq2seq", "rnnsearch", "--quick", "--out-dir", str(tmp_path))
    rec = read_record(tmp_path / "long-rnnsearch.json")
    res = rec["results"]
    assert res["curve"] and res["stopped_by"] in ("budget", "patience")
    assert {"test_bleu", "signature", "bleu_by_length", "challenges", "alignment"} <= set(res)
    assert "alignment" not in read_record(tmp_path / "long-seq2seq.json")["results"]  # no attention


def test_long_runs_max_steps_repeats_a_run_step_for_step(tmp_path):
    _run("scripts/long_runs.py", "seq2seq", "--quick", "--max-steps", "2", "--out-dir", str(tmp_path))
    res = read_record(tmp_path / "long-seq2seq.json")["results"]
    assert res["steps"] == 2 and res["stopped_by"] == "steps"
