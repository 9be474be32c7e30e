"""One decoding setting everywhere: the book's scoring, every shipped preset's ``decode`` section,
and ``companion evaluate`` on a run the book's training path saved all decode alike, and the
length penalty is the one its validation record chose."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from companion.config import load_config
from companion.experiments import regime as R
from companion.experiments import scoring as S
from companion.experiments.records import RESULTS_DIR, read_record

ROOT = Path(__file__).resolve().parents[1]
#: every shipped preset, wherever the package keeps them
PRESETS = sorted({p.resolve() for p in (*ROOT.glob("configs/*/*.yaml"), *ROOT.glob("companion/presets/**/*.yaml"))})


@pytest.mark.parametrize("path", PRESETS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_preset_decodes_with_the_books_setting(path):
    assert PRESETS, "no preset found"
    decode = load_config(path).decode
    got = (decode.beam_size, decode.length_penalty, decode.max_len_a, decode.max_len_b)
    want = (R.DECODING.beam_size, R.DECODING.length_penalty, R.DECODING.max_len_a, R.DECODING.max_len_b)
    assert got == want, f"{path}: decode {got}, the book decodes with {want}"


def test_the_length_penalty_is_the_one_the_validation_record_chose():
    path = RESULTS_DIR / "decoding-alpha.json"
    if not path.exists():
        pytest.fail("book/results/decoding-alpha.json is missing: run scripts/decode_alpha.py")
    record = read_record(path)
    assert record["config"]["split"] == "valid" and not record["config"]["quick"]
    assert record["results"]["chosen_alpha"] == R.DECODING.length_penalty
    assert record["config"]["beam_size"] == R.DECODING.beam_size


def test_scoring_defaults_to_the_setting_and_greedy_drops_the_penalty():
    assert R.DECODING.search() == {"beam_size": R.DECODING.beam_size, "max_len_a": R.DECODING.max_len_a,
                                   "max_len_b": R.DECODING.max_len_b, "length_penalty": R.DECODING.length_penalty}
    assert "length_penalty" not in R.DECODING.search(1)


@pytest.mark.slow
def test_companion_evaluate_on_a_saved_book_run_reproduces_the_books_bleu(one_thread, tmp_path):
    from companion.cli import main

    data = R.book_data(R.QUICK_REGIME)
    spec = R.quick_recipe(R.recipe("rnnsearch"), 60)
    trained = R.train(spec, data, seed=0, out_dir=tmp_path / "run")
    test = data.held_out("test")
    book = S.evaluate(trained.model, data, test)
    assert book.bleu.score > 0, "the tiny model must translate something for the comparison to mean anything"
    corpus = tmp_path / "data"
    corpus.mkdir()
    (corpus / "test.ko").write_text("".join(p.ko + "\n" for p in test), encoding="utf-8")
    (corpus / "test.en").write_text("".join(p.en + "\n" for p in test), encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["evaluate", "--checkpoint", str(tmp_path / "run" / "checkpoint-last.pt"), "--data",
                     str(corpus), "--split", "test", "--hyps", str(tmp_path / "hyps.txt"), "--device", "cpu"])
    assert code == 0
    printed = float(re.search(r"BLEU = ([\d.]+)", out.getvalue()).group(1))
    assert printed == pytest.approx(book.bleu.score, abs=0.005)  # printed with two decimals
    assert (tmp_path / "hyps.txt").read_text(encoding="utf-8").splitlines() == book.hyps


def test_long_sentences_join_only_the_scored_test_pairs(monkeypatch):
    from companion.errors import DataError

    data = R.book_data(R.QUICK_REGIME)
    test = data.held_out("test")
    wrong = S.score(test[1:], [p.en for p in test[1:]])           # not the first test pairs
    with pytest.raises(DataError, match="not the first test pairs"):
        S.with_long_sentences(None, data, wrong)
    # a "model" that translates perfectly: evaluate scores the references themselves
    monkeypatch.setattr(S, "evaluate", lambda model, data, pairs: S.score(pairs, [p.en for p in pairs]))
    joined = S.with_long_sentences(None, data, S.score(test, [p.en for p in test]))
    rest = [p for p in data.pairs("test")[len(test):] if R.words(p.en) >= S.LONG_FROM]
    assert rest and len(joined.pairs) == len(test) + len(rest)
    assert joined.pairs[:len(test)] == test and joined.bleu.score == pytest.approx(100.0)
