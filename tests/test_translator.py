"""``companion.load``: a trained run as a Python object that translates and scores, agreeing with
the ``translate`` and ``evaluate`` commands."""

from __future__ import annotations

import io
import re
import sys

import pytest
import torch

import companion
from companion.cli import main
from companion.errors import CheckpointError, ConfigError, DataError
from companion.evaluation.metrics import MetricScore
from companion.translator import DecodeWarning, Translator
from test_cli_train import TINY, write_corpus


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    threads, det = torch.get_num_threads(), torch.are_deterministic_algorithms_enabled()
    base = tmp_path_factory.mktemp("translator")
    data = write_corpus(base / "data")
    out = base / "run"
    assert main(["train", "--config", "cpu/seq2seq", "--data", str(data), "--out", str(out), "--max-steps", "30",
                 "--no-progress", "--set", *TINY, "train.eval_every=15"]) == 0
    torch.set_num_threads(threads)
    torch.use_deterministic_algorithms(det)
    return {"data": data, "run": out}


def _lines(path):
    return path.read_text(encoding="utf-8").splitlines()


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::companion.translator.DecodeWarning")
def test_load_translates_like_the_translate_command(run, capsys, monkeypatch):
    t = companion.load(run["run"])
    assert isinstance(t, Translator) and t.checkpoint == run["run"] / "checkpoint-best.pt"
    assert companion.load(run["run"] / "checkpoint-last.pt").step == 30
    sources = _lines(run["data"] / "test.ko")[:6]
    for beam in (1, 3):
        ours = t.translate(sources, beam=beam)
        monkeypatch.setattr(sys, "stdin", io.StringIO("".join(s + "\n" for s in sources)))
        capsys.readouterr()
        assert main(["translate", "--checkpoint", str(t.checkpoint), "--beam", str(beam)]) == 0
        assert ours == capsys.readouterr().out.splitlines()
    assert t.translate(sources[0], beam=3) == t.translate(sources[:1], beam=3)[0]  # a string in, a string out
    assert t.translate(sources[:2], beam=None) == t.translate(sources[:2], beam=t.config.decode.beam_size)


@pytest.mark.slow
def test_score_is_the_evaluate_commands_bleu_and_chrf(run, capsys):
    t = companion.load(run["run"])
    sources, references = _lines(run["data"] / "test.ko"), _lines(run["data"] / "test.en")
    scores = t.score(sources, references, beam=2)
    assert set(scores) == {"bleu", "chrf"} and all(isinstance(s, MetricScore) for s in scores.values())
    capsys.readouterr()
    assert main(["evaluate", "--checkpoint", str(t.checkpoint), "--data", str(run["data"]), "--beam", "2"]) == 0
    report = capsys.readouterr().out
    assert str(scores["bleu"]) in report.splitlines() and str(scores["chrf"]) in report.splitlines()
    assert re.search(r"BLEU = \d+\.\d\d", str(scores["bleu"]))


@pytest.mark.slow
def test_load_and_score_errors_are_one_line(run, tmp_path):
    with pytest.raises(CheckpointError, match="a directory without checkpoint-best.pt or checkpoint-last.pt"):
        companion.load(tmp_path)
    with pytest.raises(CheckpointError, match="nope.pt: checkpoint not found"):
        companion.load(tmp_path / "nope.pt")
    with pytest.raises(ConfigError, match="device gpu: not a device"):
        companion.load(run["run"], device="gpu")
    t = companion.load(run["run"])
    with pytest.raises(DataError, match="score: 2 sources but 1 references"):
        t.score(["a", "b"], ["a"])
    with pytest.raises(DataError, match="not one string"):
        t.score("a", "a")
    with pytest.raises(ConfigError, match="beam must be an integer >= 1, got 0"):
        t.translate(["a"], beam=0)


@pytest.mark.slow
@pytest.mark.parametrize("sentences, message", [
    ([None], "translate: sentences[0] is None (NoneType), not a string"),
    (["고양이", 3], "translate: sentences[1] is 3 (int), not a string"),
    (["고양이", b"\xea\xb0\x9c"], "translate: sentences[1] is b'\\xea\\xb0\\x9c' (bytes), not a string"),
    (5, "translate: sentences must be a list of strings, got int"),
])
def test_sentences_that_are_not_strings_are_one_line(run, sentences, message):
    """``translate([None])`` used to end in SentencePiece's ``TypeError``."""
    with pytest.raises(DataError, match=f"^{re.escape(message)}$"):
        companion.load(run["run"]).translate(sentences)


@pytest.mark.slow
def test_decode_time_overrides_and_what_the_limits_did_are_said(run):
    t = companion.load(run["run"])
    source = " ".join(["고양이가 개를 본다"] * 3)
    with pytest.raises(DataError, match=r"^translate: the sentence: \d+ source tokens \(EOS included\) exceed "
                                        r"max_source_len 4; raise it, or pass on_long='skip' or 'truncate'$"):
        t.translate(source, max_source_len=4)
    with pytest.warns(DecodeWarning, match=r"^translate: 1 of 2 sources skipped \(longer than max_source_len 4"):
        assert t.translate([source, "개"], max_source_len=4, on_long="skip")[0] == ""
    with pytest.warns(DecodeWarning, match=r"^translate: 1 of 1 translations cut at the output length limit "
                                           r"before EOS \(max_len_a 0 \* \|src\| \+ max_len_b 2\)"):
        out = t.translate([source], beam=1, max_len_a=0.0, max_len_b=2)
    assert len(t.tgt_vocab.encode(out[0])) <= 2
    with pytest.raises(ConfigError, match=r"^translate: beam 500 exceeds the \d+ tokens the model can generate"):
        t.translate(["개"], beam=500)
    with pytest.raises(ConfigError, match=r"^translate: lenpen must be a number in \[0.0, inf\], got -1"):
        t.translate(["개"], lenpen=-1)
    nbest = t.translate(["개", "고양이"], beam=3, nbest=2)
    assert [len(n) for n in nbest] == [2, 2] and all(isinstance(x, str) for n in nbest for x in n)


def test_importing_companion_does_not_import_torch():
    import subprocess

    done = subprocess.run([sys.executable, "-c", "import sys, companion; print('torch' in sys.modules)"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "False", done.stderr
