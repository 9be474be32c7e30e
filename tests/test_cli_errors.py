"""Every command, every kind of bad invocation: exit status 2, one line ``error: ...`` on stderr.

The commands are the real ones (``companion.cli.main``) run on a real corpus and checkpoint made
once for the session, so each invocation gets as far as its error: a wrong device, a path that
is missing, of the wrong kind or not writable, a bad number, a malformed command line.
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from companion import cli
from tests.test_cli_train import write_corpus

ROOT = Path(__file__).resolve().parents[1]
CONFIG = "cpu/seq2seq"  # a preset, by name
#: small enough for the hand-made toy corpus of test_cli_train (stable while the generator changes)
TINY = ["data.src_vocab_size=40", "data.tgt_vocab_size=40", "model.embed_dim=8", "model.hidden_size=8",
        "model.num_layers=1", "train.eval_every=0"]


def call(argv: list[str], capsys) -> tuple[int, str, str]:
    """``(exit status, stdout, stderr)`` of ``companion ARGV`` run in this process."""
    capsys.readouterr()
    try:
        rc = cli.main(argv)
    except SystemExit as exc:  # argparse exits by itself
        rc = exc.code
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture(scope="session")
def paths(tmp_path_factory):
    """A toy corpus, a run trained for 2 steps, a text file and a directory."""
    threads, det = torch.get_num_threads(), torch.are_deterministic_algorithms_enabled()
    base = tmp_path_factory.mktemp("cli-errors")
    data, run = base / "data", base / "run"
    write_corpus(data)
    assert cli.main(["train", "--config", CONFIG, "--data", str(data), "--out", str(run), "--max-steps", "2",
                     "--no-progress", "--set", *TINY]) == 0
    torch.set_num_threads(threads)
    torch.use_deterministic_algorithms(det)
    (base / "notes.txt").write_text("hello\n")
    (base / "adir").mkdir()
    for name, valid in (("novalid", None), ("emptyvalid", "")):  # the train split, and no or an empty valid one
        (base / name).mkdir()
        for lang in ("ko", "en"):
            (base / name / f"train.{lang}").write_bytes((data / f"train.{lang}").read_bytes())
            if valid is not None:
                (base / name / f"valid.{lang}").write_text(valid, encoding="utf-8")
    return {"data": str(data), "run": str(run), "ckpt": str(run / "checkpoint-last.pt"),
            "text": str(base / "notes.txt"), "dir": str(base / "adir"), "missing": str(base / "missing"),
            "cfg": CONFIG, "novalid": str(base / "novalid"), "emptyvalid": str(base / "emptyvalid")}


NO_CUDA = not torch.cuda.is_available()

#: (argv with {placeholders}, what the error line must contain)
BAD = [
    # generate-data
    ("generate-data --size 0 --out {missing}", "--size must be at least 3"),
    ("generate-data --size ten --out {missing}", "argument --size: invalid int value: 'ten'"),
    ("generate-data --size 10", "the following arguments are required: --out"),
    ("generate-data --size 10 --out /proc/nope", "cannot write to output directory /proc/nope"),
    ("generate-data --size 10 --out {text}", "exists and is not a directory"),
    ("generate-data --size 10 --out {data}", "is not empty (use --force to overwrite)"),
    ("generate-data --size 10 --out {missing} --level huge", "unknown level 'huge'"),
    ("generate-data --size 10 --out {missing} --max-words 5", "max_words must be 10..80, got 5"),
    # train
    ("train --config {cfg} --data {data} --out {missing} --device gpu", "--device gpu: not a device"),
    ("train --config {cfg} --data {data} --out {missing} --device tpu:0", "--device tpu:0: not a device"),
    ("train --config {cfg} --data {data} --out /proc/nope", "--out /proc/nope: cannot write into the directory"),
    ("train --config {cfg} --data {data} --out {text}", "exists and is not a directory"),
    ("train --config {dir} --data {data} --out {missing}", "is a directory, expected a YAML config file"),
    ("train --config {text} --data {data} --out {missing}", "the top level must be a mapping of sections"),
    ("train --config {missing}.yaml --data {data} --out {missing}", "missing.yaml: config file not found"),
    ("train --config {cfg} --data {text} --out {missing}", "is a file, expected a data directory"),
    ("train --config {cfg} --data {missing} --out {missing}", "missing: data directory not found"),
    ("train --config {cfg} --data {data} --out {missing} --max-steps 0",
     "train.max_steps must be an integer >= 1, got 0"),
    ("train --config {cfg} --data {data} --out {missing} --max-steps abc", "argument --max-steps: invalid int"),
    ("train --config {cfg} --data {data} --out {missing} --set train.accum_steps=0",
     "train.accum_steps must be an integer >= 1, got 0"),
    ("train --config {cfg} --data {data} --out {missing} --set train.log_every=-1",
     "train.log_every must be an integer >= 1, got -1"),
    ("train --config {cfg} --data {data} --out {missing} --set train.precision=fp8",
     "--set train.precision=fp8: expected one of 'auto', 'fp32', 'bf16', 'fp16'"),
    ("train --config {cfg} --data {data} --out {missing} --set train.preset=sgd",
     "train.preset must be one of 'adam', 'sutskever', 'bahdanau', 'vaswani', got 'sgd'"),
    ("train --config {cfg} --data {data} --out {missing} --set train.lr", "--set train.lr: expected key=value"),
    ("train --config {cfg} --data {data} --out {missing} --resume", "nothing to resume"),
    ("train --config {cfg} --data {data} --out {run}", "already holds a checkpoint"),
    ("train --config {cfg} --data {data} --out {run} --resume --set " + " ".join(TINY) + " data.src_vocab_size=400",
     "the run was trained with other settings: data.src_vocab_size 40 -> 400 (fixed for the run); resume "
     "with the checkpoint's values or start a new --out"),
    ("train --config {cfg} --data {data} --out {run} --resume --set " + " ".join(TINY)
     + " train.lr=0.5 data.max_tokens=300 train.seed=3",
     "other settings: data.max_tokens 1500 -> 300 (needs --reset-data), train.lr 0.008 -> 0.5 (needs "
     "--reset-schedule), train.seed 0 -> 3 (needs --reset-data); resume with the checkpoint's values, pass the "
     "--reset flags"),
    ("train --config {cfg} --data {data} --out {run} --resume --reset-data --set " + " ".join(TINY)
     + " train.preset=bahdanau",
     "other settings: train.preset 'adam' -> 'bahdanau' (needs --reset-optimizer and --reset-schedule); resume"),
    ("train --config {cfg} --data {data} --out {run} --resume --set model.hidden_size=16",
     "model.embed_dim 8 -> 64 (fixed for the run), model.hidden_size 8 -> 16 (fixed for the run)"),
    ("train --config {cfg} --data {data} --out {missing} --reset-optimizer",
     "--reset-optimizer needs --resume (a new run has nothing to reset)"),
    ("train --config {cfg} --data {data} --out {missing} --set decode.max_len_b=-100",
     "decode.max_len_a * |src| + decode.max_len_b must allow at least one token for a one-token source, "
     "got 1.5 * 1 + -100"),
    ("train --config {cfg} --data {novalid} --out {missing}", "valid.ko: file not found"),
    ("train --config {cfg} --data {emptyvalid} --out {missing}", "valid.ko: the valid split is empty (no ko-en pairs)"),
    ("train --config transformer --data {data} --out {missing}",
     "transformer: config file not found, nor a preset (did you mean cpu/transformer or gpu/transformer?)"),
    # prepare
    ("prepare --config {cfg} --data {missing} --out {missing}", "missing: data directory not found"),
    ("prepare --config {cfg} --data {data} --out /proc/nope", "--out /proc/nope: cannot write into the directory"),
    ("prepare --config {cfg} --data {data} --out {missing} --threads 0", "--threads must be an integer >= 1, got 0"),
    ("prepare --config {cfg} --data {novalid} --out {missing}", "valid.ko: file not found"),
    ("prepare --config {cfg} --data {data} --out {run}", "the run was trained with other settings"),
    # presets
    ("presets --path gpu/lstm", "gpu/lstm: config file not found, nor a preset (the presets are cpu/rnnencdec"),
    ("presets --bogus", "unrecognized arguments: --bogus"),
    # translate
    ("translate --checkpoint {text}", "not a readable checkpoint (truncated or foreign file"),
    ("translate --checkpoint {dir}", "is a directory, expected a checkpoint file"),
    ("translate --checkpoint {missing}.pt", "missing.pt: checkpoint not found"),
    ("translate --checkpoint {ckpt} --device gpu", "--device gpu: not a device"),
    ("translate --checkpoint {ckpt} --beam 0", "--beam must be an integer >= 1, got 0"),
    ("translate --checkpoint {ckpt} --beam -2", "--beam must be an integer >= 1, got -2"),
    ("translate --checkpoint {ckpt} --nbest 0", "--nbest must be an integer >= 1, got 0"),
    ("translate --checkpoint {ckpt} --nbest -1", "--nbest must be an integer >= 1, got -1"),
    ("translate --checkpoint {ckpt} --batch-size 0", "--batch-size must be an integer >= 1, got 0"),
    ("translate --checkpoint {ckpt} --batch-size -3", "--batch-size must be an integer >= 1, got -3"),
    ("translate --checkpoint {ckpt} --beam 2 --nbest 3", "--nbest 3 exceeds --beam 2"),
    ("translate --checkpoint {ckpt} --nbest 6", "--nbest 6 exceeds the checkpoint's decode.beam_size 5"),
    ("translate --checkpoint {ckpt} --beam two", "argument --beam: invalid int value: 'two'"),
    ("translate --checkpoint {ckpt} --beam 200000",
     "--beam 200000 exceeds the 38 tokens the model can generate (a target vocabulary of 40 less PAD and BOS)"),
    ("translate --checkpoint {ckpt} --lenpen -1", "--lenpen must be a number in [0.0, inf], got -1.0"),
    ("translate --checkpoint {ckpt} --lenpen nan", "--lenpen must be a number in [0.0, inf], got nan"),
    ("translate --checkpoint {ckpt} --max-len-a -0.5", "--max-len-a must be a number in [0.0, inf], got -0.5"),
    ("translate --checkpoint {ckpt} --max-len-a 0 --max-len-b 0",
     "--max-len-a * |src| + --max-len-b must allow at least one output token, got 0 * 1 + 0"),
    ("translate --checkpoint {ckpt} --max-len-b 1.5", "argument --max-len-b: invalid int value: '1.5'"),
    ("translate --checkpoint {ckpt} --max-source-len 0", "--max-source-len must be an integer >= 1, got 0"),
    ("translate --checkpoint {ckpt} --max-source-len 3",
     "source tokens (EOS included) exceed --max-source-len 3; raise it, or pass --on-long skip or truncate"),
    ("translate --checkpoint {ckpt} --on-long cut", "argument --on-long: invalid choice: 'cut'"),
    ("translate --checkpoint {ckpt} --buffer-size 0", "--buffer-size must be an integer >= 1, got 0"),
    ("translate", "the following arguments are required: --checkpoint"),
    # evaluate
    ("evaluate --checkpoint {ckpt} --data {data} --hyps /nonexistent/h.txt",
     "--hyps /nonexistent/h.txt: the directory /nonexistent does not exist"),
    ("evaluate --checkpoint {ckpt} --data {data} --hyps /proc/h.txt", "--hyps /proc/h.txt: cannot write the file"),
    ("evaluate --checkpoint {ckpt} --data {data} --hyps {dir}", "is a directory, expected a file name"),
    ("evaluate --checkpoint {ckpt} --data {text}", "is a file, expected a data directory"),
    ("evaluate --checkpoint {ckpt} --data {missing}", "missing: data directory not found"),
    ("evaluate --checkpoint {ckpt} --data {data} --split nope", "nope.ko: file not found"),
    ("evaluate --checkpoint {ckpt} --data {data} --beam 0", "--beam must be an integer >= 1, got 0"),
    ("evaluate --checkpoint {ckpt} --data {data} --batch-size -1", "--batch-size must be an integer >= 1, got -1"),
    ("evaluate --checkpoint {ckpt} --data {data} --device gpu", "--device gpu: not a device"),
    ("evaluate --checkpoint {text} --data {data}", "not a readable checkpoint"),
    ("evaluate --checkpoint {dir} --data {data}", "is a directory, expected a checkpoint file"),
    ("evaluate --checkpoint {ckpt}", "the following arguments are required: --data"),
    ("evaluate --checkpoint {ckpt} --data {data} --beam 500", "--beam 500 exceeds the 38 tokens the model can"),
    ("evaluate --checkpoint {ckpt} --data {data} --lenpen -2", "--lenpen must be a number in [0.0, inf], got -2.0"),
    ("evaluate --checkpoint {ckpt} --data {data} --max-source-len 2",
     "source tokens (EOS included) exceed --max-source-len 2; raise it"),
    ("evaluate --checkpoint {ckpt} {text} --data {data}", "not a readable checkpoint"),
    # average
    ("average --inputs {missing}.pt --out {missing}.avg.pt", "missing.pt: checkpoint not found"),
    ("average --inputs {text} --out {missing}.avg.pt", "not a readable checkpoint"),
    ("average --inputs {ckpt} {ckpt} --out {missing}.avg.pt", "each checkpoint may be averaged once"),
    ("average --inputs {ckpt} --out {ckpt}", "is one of the checkpoints being averaged; choose another --out"),
    ("average --inputs {ckpt} --out /proc/avg.pt", "--out /proc/avg.pt: cannot write the file"),
    ("average --last two {run} --out {missing}.avg.pt", "needs an integer N, got 'two'"),
    ("average --last 0 {run} --out {missing}.avg.pt", "must be an integer >= 1"),
    ("average --last 2 {missing} --out {missing}.avg.pt", "missing"),
    ("average --inputs {ckpt}", "the following arguments are required: --out"),
    # export
    ("export {run} --format onnx --out {missing}", "a Seq2Seq does not export (supported: Transformer, RNNSearch)"),
    ("export {run} --format ctranslate2 --out {missing}", "CTranslate2 export takes the Transformer"),
    ("export {missing} --format onnx --out {missing}.onnx", "missing: checkpoint not found"),
    ("export {run} --format onnx --out {dir}", "adir already exists"),
    ("export {run} --format onnx --out {missing} --quantization int8", "applies to --format ctranslate2 only"),
    ("export {run} --format ctranslate2 --out {missing} --quantization int4", "--quantization must be one of"),
    ("export {run} --format tflite --out {missing}", "argument --format: invalid choice: 'tflite'"),
    # no command at all, or an unknown one
    ("transalte --checkpoint {ckpt}", "argument COMMAND: invalid choice: 'transalte'"),
]
if NO_CUDA:
    BAD += [(f"{cmd} --device {dev}", "CUDA is not available")
            for cmd in ("train --config {cfg} --data {data} --out {missing}", "translate --checkpoint {ckpt}",
                        "evaluate --checkpoint {ckpt} --data {data}") for dev in ("cuda", "cuda:1")]


@pytest.mark.parametrize("template, message", BAD, ids=[t for t, _ in BAD])
def test_bad_invocation_is_one_error_line_and_status_2(paths, template, message, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("고양이가 우유를 마셔요.\n"))
    argv = [part.format(**paths) for part in template.split()]
    before = sorted(Path(paths["run"]).iterdir())
    rc, out, err = call(argv, capsys)
    assert rc == 2, err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in err and out == ""
    assert message in lines[0]
    assert sorted(Path(paths["run"]).iterdir()) == before  # a refused command leaves the run alone
    assert not Path(paths["missing"]).is_dir() or not any(Path(paths["missing"]).iterdir())


def test_every_command_has_bad_invocations():
    tried = {t.split()[0] for t, _ in BAD}
    assert set(cli.COMMANDS) <= tried, f"add rows to BAD for: {sorted(set(cli.COMMANDS) - tried)}"


def test_evaluate_checks_its_output_before_decoding(paths, capsys, monkeypatch):
    import companion.decoding.corpus as corpus

    decoded = []
    monkeypatch.setattr(corpus, "decode_corpus", lambda *a, **k: decoded.append(a) or [])
    rc, _, err = call(["evaluate", "--checkpoint", paths["ckpt"], "--data", paths["data"],
                       "--hyps", "/nonexistent/h.txt"], capsys)
    assert rc == 2 and "/nonexistent does not exist" in err
    assert decoded == []  # refused before the corpus was decoded


@pytest.mark.slow
@pytest.mark.parametrize("args, message", [
    ("--out {run} --resume --set " + " ".join(TINY) + " train.lr=0.5 train.seed=3",
     "train.lr 0.008 -> 0.5 (needs --reset-schedule), train.seed 0 -> 3 (needs --reset-data)"),
    ("--out {missing} --set decode.max_len_b=-100", "decode.max_len_b must allow at least one token"),
    ("--out {missing} --data {novalid}", "valid.ko: file not found"),
])
def test_late_failures_are_one_line_from_a_real_process_before_any_work(paths, args, message):
    """Each used to surface late: a resume that silently changed the run, a decode limit that failed
    at the first validation, a missing valid split after the vocabularies were trained."""
    argv = ["train", "--config", paths["cfg"], "--data", paths["data"], "--no-progress", *args.format(**paths).split()]
    done = subprocess.run([sys.executable, "-m", "companion", *argv], capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "OMP_NUM_THREADS": "1"})
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], done.stderr
    assert not Path(paths["missing"]).is_dir() or not any(Path(paths["missing"]).iterdir())  # nothing written


@pytest.mark.parametrize("case, message", [
    ("directory", "{d}/train.en: is a directory, expected a file (the en side of the train split, one sentence "
                  "per line)"),
    ("empty", "{d}/train.ko: no sentence to train a vocabulary on (the file is empty or blank)"),
])
def test_a_directory_or_empty_files_in_place_of_the_train_split_are_named(paths, tmp_path, case, message):
    """A directory ``train.en`` was reported as a missing file beside a listing that named it;
    empty train files reached SentencePiece, whose message named no file."""
    d = tmp_path / "corpus"
    d.mkdir()
    for split in ("train", "valid", "test"):
        for lang in ("ko", "en"):
            (d / f"{split}.{lang}").write_bytes((Path(paths["data"]) / f"{split}.{lang}").read_bytes())
    if case == "directory":
        (d / "train.en").unlink()
        (d / "train.en").mkdir()
    else:
        (d / "train.ko").write_text("")
        (d / "train.en").write_text("")
    done = subprocess.run([sys.executable, "-m", "companion", "train", "--config", paths["cfg"], "--data", str(d),
                           "--out", str(tmp_path / "run"), "--no-progress", "--set", *TINY], capture_output=True,
                          text=True, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "OMP_NUM_THREADS": "1"})
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"error: {message.format(d=d)}\n"


def test_a_real_process_prints_no_traceback(paths):
    done = subprocess.run([sys.executable, "-m", "companion", "translate", "--checkpoint", paths["ckpt"],
                           "--device", "gpu"], capture_output=True, text=True, input="", timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "OMP_NUM_THREADS": "1"})
    assert done.returncode == 2
    assert done.stderr == "error: --device gpu: not a device (expected cpu, cuda or cuda:N)\n"
