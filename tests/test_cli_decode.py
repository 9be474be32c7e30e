"""``companion translate`` / ``evaluate``: n-best output, ensembles, decode-time options, input
decoded as it arrives, and the inputs that used to end in a traceback or run away (undecodable
stdin, a beam no search can fill, a 27,000-piece line, a language model's checkpoint, weights
of another family), each through a real process: exit status 2 and one ``error:`` line."""

from __future__ import annotations

import io
import select
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import torch

import companion
from companion.cli import main
from companion.data.batching import source_ids
from companion.data.vocab import vocab_from_bytes
from companion.decoding.search import length_penalty
from companion.translator import DecodeWarning
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


def test_a_beam_no_search_can_fill_is_refused_in_one_line(runs):
    """``--beam 200000`` on a 40-piece vocabulary used to search for seconds, take GBs and print
    an empty line with exit status 0."""
    line = one_error_line(run_cli(["translate", "--checkpoint", runs["a"], "--beam", "200000", "--nbest", "1"],
                                  "고양이가 개를 본다\n".encode()))
    assert line == ("error: --beam 200000 exceeds the 38 tokens the model can generate (a target vocabulary of 40 "
                    "less PAD and BOS), so no search can fill it; use a beam of 38 or less")
    line = one_error_line(run_cli(["evaluate", "--checkpoint", runs["a"], "--data", runs["data"], "--beam", "39"]))
    assert line.startswith("error: --beam 39 exceeds the 38 tokens the model can generate")


def long_line(checkpoint: str, pieces: int = 27_000) -> tuple[str, int]:
    """A line of at least ``pieces`` source pieces for ``checkpoint``'s vocabulary, and its count."""
    vocab = vocab_from_bytes(torch.load(checkpoint, weights_only=True)["vocab"]["src"]["bytes"])
    unit = "고양이가 개를 본다"
    line = " ".join([unit] * (pieces // len(vocab.encode(unit)) + 1))
    count = len(vocab.encode(line))
    assert count >= pieces
    return line, count


def test_a_27000_piece_line_ends_at_once_with_one_line(runs):
    """Decoded as it was, the line grew to gigabytes over minutes without output; the source
    limit (1024 tokens by default for a model that declares none) refuses or skips it."""
    line, count = long_line(runs["a"])
    done = run_cli(["translate", "--checkpoint", runs["a"], "--beam", "1", "--nbest", "1"], (line + "\n").encode())
    assert one_error_line(done) == (f"error: stdin line 1: {count + 1} source tokens (EOS included) exceed "
                                    f"--max-source-len 1024; raise it, or pass --on-long skip or truncate")
    short = "고양이가 개를 본다"
    done = run_cli(["translate", "--checkpoint", runs["a"], "--beam", "1", "--nbest", "1", "--on-long", "skip"],
                   f"{short}\n{line}\n{short}\n".encode())
    assert done.returncode == 0, done.stderr
    out = done.stdout.split("\n")
    assert len(out) == 4 and out[1] == "" and out[0] == out[2] and out[3] == ""
    warnings = [w for w in done.stderr.splitlines() if "skipped" in w]
    assert warnings == ["warning: 1 of 3 sources skipped (longer than --max-source-len 1024 tokens, EOS included); "
                        "each gave an empty output"]
    assert all(w.startswith("warning: ") for w in done.stderr.splitlines())


def test_decode_time_options_override_the_checkpoint(runs, capsys, monkeypatch):
    """--lenpen, --max-len-a/b, --max-source-len/--on-long truncate: each changes what is
    decoded the way the search functions say, and what the limits cut is counted once."""
    text = "고양이가 개를 본다\n학생가 책를 먹는다\n물가 나무를 좋아한다\n"

    def translate(*options):
        monkeypatch.setattr(sys, "stdin", io.StringIO(text))
        capsys.readouterr()
        assert main(["translate", "--checkpoint", runs["a"], "--nbest", "1", *options]) == 0
        out, err = capsys.readouterr()
        return out.splitlines(), err.splitlines()

    out, err = translate("--beam", "1", "--max-len-a", "0", "--max-len-b", "1")
    cut = sum(1 for line in out if line)  # one token allowed: a word cut before EOS, or EOS alone
    empty = len(out) - cut
    expected = []
    if cut:
        expected.append(f"warning: {cut} of 3 translations cut at the output length limit before EOS "
                        f"(--max-len-a 0 * |src| + --max-len-b 1)")
    if empty:
        expected.append(f"warning: {empty} of 3 translations are empty for a non-empty source (the search ranked "
                        f"EOS first)")
    assert err == expected
    out, err = translate("--beam", "1", "--max-source-len", "3", "--on-long", "truncate")
    assert "warning: 3 of 3 sources truncated to --max-source-len 3 tokens (EOS included)" in err
    truncated, _ = translate("--beam", "1", "--max-source-len", "3", "--on-long", "truncate", "--max-len-a", "2",
                             "--max-len-b", "4")
    t = companion.load(runs["a"], device="cpu")
    firsts = [t.src_vocab.decode(source_ids(t.src_vocab, s)[:2]) for s in text.splitlines()]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DecodeWarning)  # what the limit cut: said, and not the point here
        assert truncated == t.translate(firsts, beam=1, nbest=1, max_len_a=2.0, max_len_b=4)
    # the length penalty ranks n-best lists: alpha 0 ranks by log-probability
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    assert main(["translate", "--checkpoint", runs["a"], "--beam", "3", "--nbest", "3", "--lenpen", "0"]) == 0
    rows = [line.split(" ||| ") for line in capsys.readouterr().out.splitlines()]
    assert len(rows) == 9
    for row in rows:
        assert float(row[3]) == pytest.approx(float(row[2].split()[1]), abs=2e-6)  # score = log_prob


def test_the_api_and_the_command_decode_a_run_alike_by_default(runs, capsys, monkeypatch):
    """``Translator.translate`` used beam 5 and one translation whatever the run said; the
    command used the checkpoint's ``decode`` section (here beam 3, two translations each)."""
    sources = ["고양이가 개를 본다", "학생가 책를 먹는다", "개가 사과를 만든다"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(s + "\n" for s in sources)))
    capsys.readouterr()
    assert main(["translate", "--checkpoint", runs["a"], "--device", "cpu"]) == 0
    rows = [line.split(" ||| ") for line in capsys.readouterr().out.splitlines()]
    cli = [[r[1] for r in rows if r[0] == str(i)] for i in range(len(sources))]
    t = companion.load(runs["a"], device="cpu")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DecodeWarning)
        assert t.translate(sources) == cli and all(len(c) == 2 for c in cli)
        assert t.translate(sources, nbest=1) == [c[0] for c in cli]
        assert t.translate(sources[0], nbest=1, lenpen=0.0, beam=3) == t.translate(sources[:1], nbest=1, lenpen=0.0)[0]


def test_translate_decodes_lines_as_they_arrive(runs):
    """As fairseq-interactive: the first translation is written before stdin is closed."""
    environment = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "OMP_NUM_THREADS": "1", "LC_ALL": "C.UTF-8"}
    proc = subprocess.Popen([sys.executable, "-m", "companion", "translate", "--checkpoint", runs["a"], "--nbest",
                             "1"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=environment)
    try:
        proc.stdin.write("고양이가 개를 본다\n".encode())
        proc.stdin.flush()
        ready, _, _ = select.select([proc.stdout], [], [], 240)  # a guard against hanging, not a timing
        assert ready, "no translation before stdin was closed"
        first = proc.stdout.readline()
        assert first.endswith(b"\n") and proc.poll() is None  # still running: stdin is open
        proc.stdin.write("학생가 책를 먹는다\n".encode())
        proc.stdin.close()
        rest = proc.stdout.read()
        assert proc.wait(240) == 0, proc.stderr.read()
    finally:
        proc.kill()
    together = run_cli(["translate", "--checkpoint", runs["a"], "--nbest", "1"],
                       "고양이가 개를 본다\n학생가 책를 먹는다\n".encode())
    assert (first + rest).decode() == together.stdout


def test_evaluate_takes_several_checkpoints_as_an_ensemble(runs, capsys):
    """A model ensembled with itself scores as itself; two members are both loaded and checked."""
    def evaluate(*checkpoints):
        capsys.readouterr()
        assert main(["evaluate", "--checkpoint", *checkpoints, "--data", runs["data"], "--beam", "2",
                     "--device", "cpu"]) == 0
        return capsys.readouterr().out.splitlines()

    single, double = evaluate(runs["a"]), evaluate(runs["a"], runs["a"])
    assert single[0].endswith("checkpoint step 2, beam 2")
    assert double[0].endswith("an ensemble of 2 checkpoints, the first at step 2, beam 2")
    assert single[1:3] == double[1:3]  # BLEU and chrF
    ppl = [float(lines[3].split()[2]) for lines in (single, double)]
    assert ppl[0] == pytest.approx(ppl[1], rel=1e-5)
    line = one_error_line(run_cli(["evaluate", "--checkpoint", runs["a"], runs["b"], "--data", runs["data"]]))
    assert line.startswith(f"error: Ensemble: {runs['b']}'s target vocabulary")


def test_weights_of_another_family_name_both_families_and_the_first_key(runs):
    from companion.models import build_model

    ckpt = torch.load(runs["a"], weights_only=True)
    ckpt["model"] = build_model({"name": "transformer", "d_model": 16, "num_heads": 2, "d_ff": 32,
                                 "num_encoder_layers": 1, "num_decoder_layers": 1}, 40, 40).state_dict()
    mixed = runs["base"] / "mixed.pt"
    torch.save(ckpt, mixed)
    line = one_error_line(run_cli(["translate", "--checkpoint", str(mixed)], "고양이\n".encode()))
    assert line.startswith(f"error: {mixed}: weights do not fit the stored model config (model.name seq2seq): "
                           f"the weights are a transformer model's, the config builds a seq2seq; ")
    assert "parameter(s) missing, the first 'encoder." in line and "unexpected, the first '" in line


def test_the_device_defaults_as_for_train(monkeypatch):
    """cuda when available (as ``train``), for ``translate``, ``evaluate`` and ``companion.load``."""
    import argparse

    from companion.commands import options
    from companion.training import distributed

    parser = argparse.ArgumentParser()
    options.add_decode_options(parser)
    args = parser.parse_args(["--checkpoint", "x.pt"])
    assert args.device is None
    assert options.check_decode_options(args) == distributed.default_device()
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    assert options.check_decode_options(args) == torch.device("cuda")


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
