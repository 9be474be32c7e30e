"""``companion prepare``: vocabularies from a seeded sample, the corpus encoded once, both reused
by ``companion train`` and rebuilt when the settings or the data change."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
import yaml

from companion.cli import main
from companion.data import binarized as B
from companion.data.parallel import load_split
from companion.data.vocab import SentencePieceVocab, load_vocab, sample_sentences, train_vocabs, \
    train_vocabs_from_files
from companion.errors import DataError
from companion.training.checkpoint import load_checkpoint

from test_cli_train import CONFIG, TINY, write_corpus


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    return write_corpus(tmp_path_factory.mktemp("prep") / "data")


def prepare(data, out, *extra):
    return main(["prepare", "--config", CONFIG, "--data", str(data), "--out", str(out), "--set", *TINY, *extra])


def train(data, out, *extra, max_steps=4, resume=False):
    argv = ["train", "--config", CONFIG, "--data", str(data), "--out", str(out), "--max-steps", str(max_steps),
            "--no-progress", "--set", *TINY, *extra]
    return main(argv + (["--resume"] if resume else []))


def _spy(monkeypatch) -> Counter:
    """Count vocabulary trainings and cache builds."""
    calls: Counter = Counter()
    real_train, real_build = SentencePieceVocab.train.__func__, B.build_cache

    def train_(cls, *a, **k):
        calls["vocab"] += 1
        return real_train(cls, *a, **k)

    def build(*a, **k):
        calls["cache"] += 1
        return real_build(*a, **k)

    monkeypatch.setattr(SentencePieceVocab, "train", classmethod(train_))
    monkeypatch.setattr(B, "build_cache", build)
    return calls


def test_sample_keeps_every_sentence_in_order_up_to_its_size():
    lines = [f"s{i}" for i in range(50)]
    assert sample_sentences(iter(lines), 50) == lines == sample_sentences(lines, 1000, seed=3)
    picked = sample_sentences(lines, 10, seed=1)
    assert len(picked) == 10 and picked == sorted(picked, key=lambda s: int(s[1:]))  # file order
    assert picked == sample_sentences(iter(lines), 10, seed=1) != sample_sentences(lines, 10, seed=2)
    with pytest.raises(DataError, match="sample size must be a positive integer, got 0"):
        sample_sentences(lines, 0)


def test_sample_is_uniform_over_the_file():
    counts = Counter()
    for seed in range(300):
        counts.update(int(s) // 100 for s in sample_sentences((str(i) for i in range(1000)), 20, seed))
    assert sum(counts.values()) == 6000
    assert all(480 <= counts[d] <= 720 for d in range(10)), counts  # 600 expected per tenth


def test_vocabularies_from_files_equal_the_in_memory_ones_when_the_sample_holds_everything(data, tmp_path):
    pairs = load_split(data, "train", "ko", "en")
    whole = train_vocabs(pairs, 40, 40, seed=0)
    files = train_vocabs_from_files(data / "train.ko", data / "train.en", 40, 40, sample=len(pairs), seed=0)
    assert [v.to_bytes() for v in files] == [v.to_bytes() for v in whole]
    sampled = train_vocabs_from_files(data / "train.ko", data / "train.en", 40, 40, sample=60, seed=0,
                                      hard_vocab_limit=False)
    assert sampled[1].to_bytes() != whole[1].to_bytes()
    again = train_vocabs_from_files(data / "train.ko", data / "train.en", 40, 40, sample=60, seed=0,
                                    hard_vocab_limit=False)
    assert [v.to_bytes() for v in again] == [v.to_bytes() for v in sampled]


@pytest.mark.slow
def test_prepare_then_train_reuses_vocabularies_and_cache(data, tmp_path, monkeypatch, capsys):
    run = tmp_path / "run"
    calls = _spy(monkeypatch)
    assert prepare(data, run) == 0
    err = capsys.readouterr().err
    assert "prepared" in err and "train 300 pairs" in err and "from 300 of 300 sentences" in err
    assert calls == {"vocab": 2, "cache": 1}
    before = {p.name: p.stat().st_mtime_ns for p in [run / "vocab.src.model", run / "vocab.tgt.model",
                                                       run / "data-bin" / "manifest.json"]}
    assert train(data, run) == 0
    assert calls == {"vocab": 2, "cache": 1}  # train started from what prepare left
    assert before == {p.name: p.stat().st_mtime_ns for p in [run / "vocab.src.model", run / "vocab.tgt.model",
                                                               run / "data-bin" / "manifest.json"]}
    assert train(data, run, max_steps=6, resume=True) == 0  # a resume maps the same cache
    assert calls == {"vocab": 2, "cache": 1}
    ckpt = load_checkpoint(run / "checkpoint-last.pt")
    assert ckpt["vocab"]["src"]["bytes"] == (run / "vocab.src.model").read_bytes()
    # with a checkpoint in RUN, prepare keeps its vocabularies (a lost file is written back)
    (run / "vocab.tgt.model").unlink()
    assert prepare(data, run) == 0
    assert (run / "vocab.tgt.model").read_bytes() == ckpt["vocab"]["tgt"]["bytes"]
    assert calls == {"vocab": 2, "cache": 1}
    # the in-memory path would have trained the same vocabularies
    whole = train_vocabs(load_split(data, "train", "ko", "en"), 40, 40, seed=0)
    assert load_vocab(run / "vocab.src.model").to_bytes() == whole[0].to_bytes()


@pytest.mark.slow
def test_other_settings_or_data_rebuild_what_they_change(data, tmp_path, monkeypatch, capsys):
    run = tmp_path / "run"
    calls = _spy(monkeypatch)
    assert prepare(data, run) == 0
    assert prepare(data, run, "data.src_vocab_size=36") == 0  # other vocabularies: retrain, re-encode
    assert calls == {"vocab": 4, "cache": 2} and len(load_vocab(run / "vocab.src.model")) == 36
    assert prepare(data, run, "data.src_vocab_size=36", "data.vocab_sample_sentences=100") == 0
    record = json.loads((run / "vocab.json").read_text(encoding="utf-8"))
    assert (record["sampled"], record["sentences"], record["settings"]["vocab_sample_sentences"]) == (100, 300, 100)
    assert calls == {"vocab": 6, "cache": 3}
    copy = write_corpus(tmp_path / "other", seed=4)  # other data: both again
    assert prepare(copy, run, "data.src_vocab_size=36", "data.vocab_sample_sentences=100") == 0
    assert calls == {"vocab": 8, "cache": 4}
    capsys.readouterr()
    assert train(copy, run, "data.src_vocab_size=36", "data.vocab_sample_sentences=100") == 0
    assert calls == {"vocab": 8, "cache": 4}
    cfg = yaml.safe_load((run / "config.yaml").read_text(encoding="utf-8"))
    assert cfg["data"]["vocab_sample_sentences"] == 100  # recorded in the run's config


def test_prepare_reports_bad_input_in_one_line_before_any_work(data, tmp_path, capsys, monkeypatch):
    bad = tmp_path / "bad"
    bad.mkdir()
    for name in ("train.ko", "train.en", "valid.ko"):
        (bad / name).write_bytes((data / name).read_bytes())
    lines = (data / "valid.en").read_text(encoding="utf-8").splitlines()
    lines[4] = "   "
    (bad / "valid.en").write_text("\n".join(lines) + "\n", encoding="utf-8")
    calls = _spy(monkeypatch)
    capsys.readouterr()
    assert prepare(bad, tmp_path / "run") == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and err[0].endswith("valid.en:5: empty target side")
    assert calls == {} and not (tmp_path / "run" / "data-bin").exists()
    assert prepare(data, tmp_path / "r2", "--threads", "0") == 2
    assert capsys.readouterr().err.strip() == "error: --threads must be an integer >= 1, got 0"


def test_a_config_without_the_sample_key_gets_the_default(tmp_path):
    from companion.config import load_config

    cfg = load_config(CONFIG)
    assert cfg.data.vocab_sample_sentences == 200_000
    with pytest.raises(Exception, match="data.vocab_sample_sentences"):
        load_config(CONFIG, ["data.vocab_sample_sentences=0"])
