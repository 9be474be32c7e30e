"""``companion translate`` / ``evaluate``: n-best output, ensembles, and the inputs that used to
end in a traceback (undecodable stdin, a beam too big for memory, a language model's
checkpoint), each through a real process: exit status 2 and one ``error:`` line."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from companion.cli import main
from companion.decoding.search import length_penalty
from tests.test_cli_train import CONFIG, TINY, write_corpus

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Two translators trained 2 steps on the same Korean and different English text (target
    vocabularies of the same size that are not the same), and a character language model."""
    threads, det = torch.get_num_threads(), torch.are_deterministic_algorithms_enabled()
    base = tmp_path_factory.mktemp("cli-decode")
    data = write_corpus(base / "data")
    other = Path(shutil.copytree(data, base / "other"))
    (other / "train.en").write_text((other / "train.en").read_text().replace("the ", "a "))
    common = ["--max-steps", "2", "--no-progress", "--set", *TINY]
    assert main(["train", "--config", CONFIG, "--data", str(data), "--out", str(base / "a"), *common,
                 "decode.beam_size=3", "decode.nbest=2"]) == 0
    assert main(["train", "--config", CONFIG, "--data", str(other), "--out", str(base / "b"), *common]) == 0
    lm_config = base / "lm.yaml"
    lm_config.write_text("data: {src_vocab_size: 40, tgt_vocab_size: 40}\n"
                         "model: {name: charlm, embed_dim: 8, hidden_size: 8}\n"
                         "train: {max_steps: 2, eval_every: 0, threads: 1}\n")
    assert main(["train", "--config", str(lm_config), "--data", str(data), "--out", str(base / "lm"),
                 "--no-progress"]) == 0
    torch.set_num_threads(threads)
    torch.use_deterministic_algorithms(det)
    return {"a": str(base / "a/checkpoint-last.pt"), "b": str(base / "b/checkpoint-last.pt"),
            "lm": str(base / "lm/checkpoint-last.pt"), "data": str(data), "base": base}


def run_cli(args: list[str], stdin: bytes = b"", env: dict | None = None) -> subprocess.CompletedProcess:
    """``python -m companion ARGS`` in a fresh process, bytes in, text out."""
    environment = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "OMP_NUM_THREADS": "1",
                   "LC_ALL": "C.UTF-8", **(env or {})}
    done = subprocess.run([sys.executable, "-m", "companion", *args], input=stdin, capture_output=True,
                          timeout=300, env=environment)
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode(), done.stderr.decode())


def one_error_line(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 2, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    assert done.stdout == ""
    return lines[0]


@pytest.mark.parametrize("env", [{}, {"PYTHONUTF8": "1"}], ids=["C.UTF-8", "utf8-mode"])
def test_undecodable_stdin_is_one_line_naming_the_line(runs, env):
    """Under UTF-8 mode stdin decodes with surrogateescape: the bad bytes would reach the
    tokenizer as lone surrogates (``RuntimeError: Unable to cast Python instance``)."""
    line = one_error_line(run_cli(["translate", "--checkpoint", runs["a"]], b"\xff\xfebad\n", env))
    assert line == ("error: stdin line 1: not valid UTF-8 (byte 0xff at byte 1) (it starts with a "
                    "UTF-16 byte-order mark); translate reads UTF-8 text")
    line = one_error_line(run_cli(["translate", "--checkpoint", runs["a"]], "고양이\n".encode() + b"ok\xe9\n", env))
    assert line == "error: stdin line 2: not valid UTF-8 (byte 0xe9 at byte 3); translate reads UTF-8 text"


def test_a_beam_too_big_for_memory_is_refused_in_one_line(runs):
    # 1,000 sentences at once x 200,000 hypotheses: hundreds of GiB, more than any test machine
    lines = ("고양이가 개를 본다\n" * 1000).encode()
    line = one_error_line(run_cli(["translate", "--checkpoint", runs["a"], "--beam", "200000", "--nbest", "1",
                                   "--batch-size", "1000"], lines))
    assert line.startswith("error: decode: a beam of 200000 over 1000 sentence(s) needs about ")
    assert line.endswith("memory is available; use a smaller beam or batch size")


@pytest.mark.parametrize("command", ["translate", "evaluate"])
def test_a_language_model_checkpoint_is_one_line(runs, command):
    args = [command, "--checkpoint", runs["lm"]] + (["--data", runs["data"]] if command == "evaluate" else [])
    line = one_error_line(run_cli(args, "고양이\n".encode()))
    assert line == (f"error: {runs['lm']} (model.name charlm): CharLM is a language model, not a translator "
                    f"(it has no source to encode)")


def test_an_ensemble_refuses_members_with_different_target_vocabularies(runs):
    a, b = (torch.load(runs[k], weights_only=True)["vocab"]["tgt"] for k in ("a", "b"))
    assert a["sha256"] != b["sha256"]
    line = one_error_line(run_cli(["translate", "--checkpoint", runs["a"], runs["b"]], "고양이\n".encode()))
    assert line.startswith(f"error: Ensemble: {runs['b']}'s target vocabulary (40 entries, sha256 {b['sha256'][:12]}) "
                           f"is not {runs['a']}'s (40 entries, sha256 {a['sha256'][:12]}); ")


def test_translate_reads_decode_nbest_and_writes_moses_nbest_lines(runs, capsys, monkeypatch):
    """The checkpoint's decode.nbest (2) applies without --nbest; each line is
    ``i ||| text ||| features ||| score`` with the score the ranked log-probability."""
    text = "고양이가 개를 본다\n학생가 책를 먹는다\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    capsys.readouterr()
    assert main(["translate", "--checkpoint", runs["a"]]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 4
    for k, line in enumerate(out):
        fields = line.split(" ||| ")
        assert len(fields) == 4 and fields[0] == str(k // 2)
        names, values = fields[2].split()[0::2], fields[2].split()[1::2]
        assert names == ["log_prob=", "length=", "truncated="]
        log_prob, length, cut = float(values[0]), int(values[1]), int(values[2])
        assert cut in (0, 1) and length >= 1
        assert float(fields[3]) == pytest.approx(log_prob / length_penalty(length, 1.0), abs=2e-6)
    assert float(out[0].split(" ||| ")[3]) >= float(out[1].split(" ||| ")[3])
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    assert main(["translate", "--checkpoint", runs["a"], "--nbest", "1"]) == 0
    single = capsys.readouterr().out.splitlines()
    assert len(single) == 2 and " ||| " not in single[0]
    # an ensemble of a model with itself translates like the model
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    assert main(["translate", "--checkpoint", runs["a"], runs["a"], "--nbest", "1"]) == 0
    assert capsys.readouterr().out.splitlines() == single
    # and a config whose nbest exceeds the beam asked for is one line
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    assert main(["translate", "--checkpoint", runs["a"], "--beam", "1"]) == 2
    assert capsys.readouterr().err.strip() == ("error: the checkpoint's decode.nbest 2 exceeds --beam 1; "
                                               "pass --nbest 1 or less")
