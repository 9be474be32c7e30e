"""The scripts behind book/results/ run end to end (in their --quick plumbing mode) and write
records in the format the chapters read."""

from __future__ import annotations

import json
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


def _module(name: str):
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_book_seeds_records_where_a_patient_run_stopped_and_every_validation_curve(tmp_path):
    path = tmp_path / "conv.json"
    _run("scripts/book_seeds.py", "rnnencdec", "rnnencdec_converged", "--seeds", "0", "--quick", "--out", str(path))
    rec = read_record(path)
    row = rec["results"]["per_seed"]["0"]
    stopped = row["rnnencdec_converged"]["stopped"]
    assert stopped["stopped_by"] in ("patience", "steps") and stopped["best_step"] <= stopped["steps"]
    assert "stopped" not in row["rnnencdec"]
    for name in ("rnnencdec", "rnnencdec_converged"):
        curve = row[name]["valid_curve"]
        assert curve and all(len(point) == 2 for point in curve)
    # the scored test pairs are the first 40; the length buckets from LONG_FROM words on hold
    # every test pair of their lengths, the shorter buckets only the scored ones
    from companion.experiments import regime as R
    test = R.book_data(R.QUICK_REGIME).pairs("test", R.recipe("rnnencdec").max_words)
    from companion.experiments.scoring import LONG_FROM as long_from
    for lo, hi, n, _ in row["rnnencdec"]["bleu_by_length"]:
        pool = test if lo >= long_from else test[:R.QUICK_REGIME.test_sentences]
        assert n == sum(lo <= R.words(p.en) < hi for p in pool), (lo, hi)
    assert row["rnnencdec"]["test_n_20_words_or_more"] == sum(R.words(p.en) >= 20 for p in test)
    assert any(lo >= long_from and n > 0 for lo, _, n, _ in row["rnnencdec"]["bleu_by_length"])
    from companion.experiments.regime import DECODING

    assert rec["config"]["decoding"]["length_penalty"] == DECODING.length_penalty


def test_decode_alpha_records_validation_bleu_per_family_and_alpha(tmp_path):
    path = tmp_path / "alpha.json"
    _run("scripts/decode_alpha.py", "--families", "seq2seq", "rnnsearch", "--alphas", "0", "1", "--quick",
         "--out", str(path))
    rec = read_record(path)
    assert rec["config"]["split"] == "valid" and rec["config"]["alphas"] == [0.0, 1.0]
    for family in ("seq2seq", "rnnsearch"):
        settings = [r["setting"] for r in rec["results"]["per_family"][family]["rows"]]
        assert settings == ["greedy", "beam 5, α=0", "beam 5, α=1"]
    assert rec["results"]["chosen_alpha"] in (0.0, 1.0)


def test_the_alpha_rule_takes_the_best_mean_and_the_smaller_alpha_on_a_tie():
    choose = _module("decode_alpha").choose
    assert choose({"a": {"0": 50.0, "1": 52.0}, "b": {"0": 80.0, "1": 79.0}}, [0.0, 1.0])[0] == 1.0
    assert choose({"a": {"0": 50.0, "0.6": 51.0}, "b": {"0": 80.0, "0.6": 79.0}}, [0.0, 0.6])[0] == 0.0


def test_lr_search_tries_the_same_grid_for_every_family(tmp_path):
    path = tmp_path / "lr.json"
    _run("scripts/lr_search.py", "--families", "seq2seq", "transformer", "--factors", "0.5", "1", "2", "--quick",
         "--out", str(path))
    families = read_record(path)["results"]["families"]
    for name in ("seq2seq", "transformer"):
        found = families[name]
        assert found["rates_tried"] == pytest.approx([found["recipe_lr"] * f for f in (0.5, 1, 2)])
        assert found["best_lr_by_valid_ppl"] in found["rates_tried"]
        assert all(r["valid_ppl"] > 0 and r["valid_curve"] for r in found["rows"])


def test_lr_search_refuses_a_grid_without_the_recipes_rate():
    out = subprocess.run([sys.executable, "scripts/lr_search.py", "--factors", "0.5", "2", "--quick", "--out",
                          "/dev/null"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and "--factors must include 1" in out.stderr


def test_make_results_runs_every_short_run_with_five_seeds():
    """Every run of at most about two CPU-minutes gets five seeds (the fewest for which a paired
    claim can reach p <= 0.05), and every record the claim table reads is made."""
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    target = text[text.index("\nresults:"):].split("\n\n", 1)[0]
    lines = [line.strip() for line in target.splitlines() if "scripts/" in line]
    for line in lines:
        if "book_seeds.py" in line or "transformer_ablations.py" in line:
            assert "--seeds" not in line or "--seeds 0 1 2 3 4" in line, line
    made = " ".join(lines)
    for script in ("decode_alpha.py", "lr_search.py", "lexicon_budget.py", "transformer_ablations.py"):
        assert script in made, script
    for name in ("seeds-seq2seq", "seeds-attention", "ablation-attention-scoring", "seeds-transformer"):
        assert f"--name {name}" in made, name
    # the runs no chapter of this edition reads have their own target
    extra = text[text.index("\nlong-runs:"):].split("\n\n", 1)[0]
    assert "scripts/long_runs.py" in extra and "rnnencdec_converged" in extra
    for script in ("book_seeds", "transformer_ablations"):
        source = (ROOT / "scripts" / f"{script}.py").read_text(encoding="utf-8")
        assert 'default=[0, 1, 2, 3, 4]' in source, script


def test_native_review_records_verdicts_and_refuses_another_generator(tmp_path):
    """scripts/native_review.py: the sample a reviewer reads, the verdicts counted per level
    (odd and wrong Korean, wrong translations), and clear refusals: a verdict missing, or a
    sample the generator no longer draws (a review of an earlier generator)."""
    sample, verdicts, out = tmp_path / "s.md", tmp_path / "v.md", tmp_path / "review.json"
    _run("scripts/native_review.py", "sample", "--seed", "5", "--out", str(sample))
    text = sample.read_text(encoding="utf-8")
    assert text.startswith("# Sample 5") and "\n110. [" in text and "\n1. KO: " in text
    lines = [f"{n} | ko: natural | en: natural | tr: accurate |" for n in range(1, 111)]
    lines[2] = "3 | ko: odd | en: odd | tr: accurate | 빵을 혼자 주문하다"
    lines[40] = "41 | ko: wrong | en: natural | tr: wrong | 풀 is grass here"
    verdicts.write_text("\n".join(["# verdicts", *lines, "", "summary ..."]), encoding="utf-8")
    _run("scripts/native_review.py", "record", f"{sample}:{verdicts}", "--out", str(out))
    rec = read_record(out)
    pooled = rec["results"]["pooled"]
    assert pooled["train/small"]["ko_odd"] == 1 and pooled["train/small"]["items"] == 30
    assert pooled["train/full"]["ko_wrong"] == 1 and pooled["train/full"]["tr_wrong"] == 1
    assert pooled["train"]["ko_odd_or_wrong"] == 2 and pooled["train"]["items"] == 80
    assert abs(pooled["train"]["ko_odd_or_wrong_share"] - 2 / 80) < 1e-9
    item = rec["results"]["reviews"][0]["items"][2]
    assert item["reason"] == "빵을 혼자 주문하다" and item["level"] == "small"
    # a second round carries the first round's small-level counts and the brief
    brief, again = tmp_path / "brief.md", tmp_path / "again.json"
    brief.write_text("Judge every item as a native reader.\n", encoding="utf-8")
    _run("scripts/native_review.py", "record", f"{sample}:{verdicts}", "--out", str(again),
         "--earlier", str(out), "--brief", str(brief))
    second = read_record(again)
    assert second["config"]["brief"] == "Judge every item as a native reader."
    (first,) = second["results"]["earlier_rounds"]
    assert first["train/small"] == pooled["train/small"] and first["seeds"] == [5]
    # refused: an earlier round that read another small level
    other = dict(rec, provenance={**rec["provenance"], "corpus_fingerprint": "0" * 16,
                                  "corpus_fingerprints": {"small": "0" * 16}})
    (tmp_path / "other.json").write_text(json.dumps(other), encoding="utf-8")
    bad = subprocess.run([sys.executable, "scripts/native_review.py", "record", f"{sample}:{verdicts}",
                          "--out", str(again), "--earlier", str(tmp_path / "other.json")],
                         cwd=ROOT, capture_output=True, text=True)
    assert bad.returncode != 0 and "read another small level" in bad.stderr
    # refused: a missing verdict, and a sentence the generator does not draw for that seed
    verdicts.write_text("\n".join(lines[:-1]), encoding="utf-8")
    bad = subprocess.run([sys.executable, "scripts/native_review.py", "record", f"{sample}:{verdicts}",
                          "--out", str(out)], cwd=ROOT, capture_output=True, text=True)
    assert bad.returncode != 0 and "verdicts for 109 of 110 items (missing [110])" in bad.stderr
    sample.write_text(text.replace("\n1. KO: ", "\n1. KO: 가짜 ", 1), encoding="utf-8")
    bad = subprocess.run([sys.executable, "scripts/native_review.py", "record", f"{sample}:{verdicts}",
                          "--out", str(out)], cwd=ROOT, capture_output=True, text=True)
    assert bad.returncode != 0 and "no longer draws these sentences" in bad.stderr
