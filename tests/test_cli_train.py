"""``companion train | translate | evaluate`` on a tiny hand-made corpus."""

from __future__ import annotations

import io
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch

from companion.cli import main
from companion.data.vocab import SentencePieceVocab, load_vocab
from companion.training.checkpoint import load_checkpoint

ROOT = Path(__file__).resolve().parents[1]
CONFIG = "cpu/seq2seq"  # a preset, by name
TINY = ["data.src_vocab_size=40", "data.tgt_vocab_size=40", "data.max_tokens=400",
        "model.embed_dim=16", "model.hidden_size=32", "model.num_layers=1", "train.eval_every=0",
        "train.log_every=5"]

KO = ["고양이", "개", "사과", "학생", "선생님", "책", "물", "집", "학교", "친구", "밥", "나무"]
EN = ["cat", "dog", "apple", "student", "teacher", "book", "water", "house", "school", "friend",
      "rice", "tree"]
VERBS = [("본다", "sees"), ("먹는다", "eats"), ("좋아한다", "likes"), ("만든다", "makes")]


def write_corpus(out: Path, sizes=(("train", 300), ("valid", 30), ("test", 30)), seed=0) -> Path:
    """A Moses-style Korean-English toy corpus: ``{split}.ko`` / ``{split}.en``."""
    rng = random.Random(seed)
    out.mkdir(parents=True, exist_ok=True)
    for split, n in sizes:
        ko, en = [], []
        for _ in range(n):
            a, b, v = rng.randrange(12), rng.randrange(12), rng.randrange(4)
            ko.append(f"{KO[a]}가 {KO[b]}를 {VERBS[v][0]}\n")
            en.append(f"the {EN[a]} {VERBS[v][1]} the {EN[b]}\n")
        (out / f"{split}.ko").write_text("".join(ko), encoding="utf-8")
        (out / f"{split}.en").write_text("".join(en), encoding="utf-8")
    return out


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    return write_corpus(tmp_path_factory.mktemp("corpus"))


pytestmark = pytest.mark.usefixtures("restore_torch_globals")


def train(data, out, *extra, max_steps=10, resume=False):
    argv = ["train", "--config", CONFIG, "--data", str(data), "--out", str(out),
            "--max-steps", str(max_steps), "--no-progress", "--set", *TINY, *extra]
    return main(argv + (["--resume"] if resume else []))


def params(path):
    return torch.load(path, weights_only=True)["model"]


def error_of(capsys, rc):
    assert rc == 2
    err = capsys.readouterr().err.strip().splitlines()
    return err[-1]


@pytest.mark.slow
def test_train_translate_evaluate(data, tmp_path, capsys, monkeypatch):
    run = tmp_path / "run"
    capsys.readouterr()
    assert train(data, run, "train.eval_every=10", "train.valid_bleu=true", max_steps=20) == 0
    # stderr is not a terminal here: no bar; the precision, one line per log_every, one per evaluation
    log = capsys.readouterr().err.splitlines()
    assert log[0] == "precision: fp32 (auto on cpu: float32)"
    assert [line.split(" | ")[0] for line in log if line.endswith(" tok/s")] == [f"step {n}/20" for n in (5, 10, 15, 20)]
    evals = [line for line in log if " | valid ppl " in line]
    assert [line.split(" | ")[0] for line in evals] == ["step 10/20", "step 20/20"]
    for line in evals:
        assert " | epoch " in line and " | train loss " in line and " | valid ppl " in line
        assert " | valid BLEU " in line and line.endswith(" s")
    assert "| best |" in evals[0] and log[-1].startswith("step 20, valid nll ") and len(log) == 8
    for name in ("vocab.src.model", "vocab.tgt.model", "config.yaml", "metrics.jsonl",
                 "checkpoint-last.pt", "checkpoint-best.pt", "checkpoint-step20.pt"):
        assert (run / name).exists(), name
    ckpt = load_checkpoint(run / "checkpoint-last.pt")
    assert ckpt["step"] == 20 and ckpt["config"]["model"]["hidden_size"] == 32
    assert ckpt["vocab"]["src"]["bytes"] == (run / "vocab.src.model").read_bytes()
    evals = [json.loads(x) for x in (run / "metrics.jsonl").read_text().splitlines() if "valid_nll" in x]
    assert [e["step"] for e in evals] == [10, 20] and "valid_bleu" in evals[0]
    capsys.readouterr()

    monkeypatch.setattr(sys, "stdin", io.StringIO("고양이가 개를 본다\n학생가 책를 먹는다\n"))
    assert main(["translate", "--checkpoint", str(run / "checkpoint-last.pt"), "--beam", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 2 and all("▁" not in line for line in out)
    monkeypatch.setattr(sys, "stdin", io.StringIO("고양이가 개를 본다\n"))
    assert main(["translate", "--checkpoint", str(run / "checkpoint-last.pt"), "--beam", "3",
                 "--nbest", "2"]) == 0
    nbest = capsys.readouterr().out.splitlines()
    assert len(nbest) == 2 and all(line.startswith("0 ||| ") for line in nbest)

    assert main(["evaluate", "--checkpoint", str(run / "checkpoint-best.pt"), "--data", str(data),
                 "--split", "test", "--beam", "1"]) == 0
    report = capsys.readouterr().out
    assert "BLEU = " in report and "tok:13a|smooth:exp|version:2.6.0" in report
    assert "chrF2 = " in report and "perplexity = " in report


@pytest.mark.slow
@pytest.mark.parametrize("batching", ["bucketed", "mixed"])
def test_exact_resume_through_the_cli(data, tmp_path, batching):
    extra = f"data.batching={batching}"
    assert train(data, tmp_path / "straight", extra, max_steps=30) == 0
    assert train(data, tmp_path / "split", extra, max_steps=15) == 0
    assert train(data, tmp_path / "split", extra, max_steps=30, resume=True) == 0
    a = params(tmp_path / "straight/checkpoint-last.pt")
    b = params(tmp_path / "split/checkpoint-last.pt")
    assert a.keys() == b.keys()
    for k in a:
        assert torch.equal(a[k], b[k]), k


@pytest.mark.slow
def test_refusals_and_mismatches(data, tmp_path, capsys):
    run = tmp_path / "run"
    assert train(data, run, max_steps=3) == 0
    capsys.readouterr()
    msg = error_of(capsys, train(data, run, max_steps=5))
    assert msg == f"error: {run} already holds a checkpoint; pass --resume to continue it or choose a new --out"
    msg = error_of(capsys, train(data, tmp_path / "fresh", max_steps=5, resume=True))
    assert "checkpoint-last.pt: nothing to resume" in msg
    msg = error_of(capsys, train(data, run, "model.hidden_size=48", max_steps=5, resume=True))
    assert msg.endswith("checkpoint-last.pt: the run was trained with other settings: model.hidden_size 32 -> 48 "
                        "(fixed for the run); resume with the checkpoint's values or start a new --out")
    msg = error_of(capsys, train(data, run, max_steps=3, resume=True))
    assert "raise --max-steps above it" in msg
    assert train(data, run, "model.init_range=0.08", max_steps=4, resume=True) == 0  # = default
    other = SentencePieceVocab.train(["다른 문장 입니다"] * 5 + ["another one"], 20, hard_vocab_limit=False)
    other.save(run / "vocab.src.model")
    msg = error_of(capsys, train(data, run, max_steps=5, resume=True))
    assert "checkpoint-last.pt: the src vocabulary does not match this run's" in msg


@pytest.mark.slow
def test_deliberate_changes_on_resume_are_applied_and_recorded(data, tmp_path, capsys):
    """A resume with ``--reset-schedule --reset-data`` trains at the new rate on the new batches
    and says so in metrics.jsonl, config.yaml and the checkpoint; a preset change with both
    optimiser and schedule resets trains (it used to raise KeyError: 'rho')."""
    run = tmp_path / "run"
    assert train(data, run, "train.log_every=1", max_steps=3) == 0
    assert train(data, run, "train.log_every=1", "train.lr=0.5", "data.max_tokens=300", "decode.beam_size=2",
                 "--reset-schedule", "--reset-data", max_steps=5, resume=True) == 0  # decode.* is free
    records = [json.loads(x) for x in (run / "metrics.jsonl").read_text().splitlines()]
    event = next(r for r in records if r.get("resumed"))
    assert event == {"step": 3, "resumed": True, "resets": ["schedule", "data"],
                     "changed": {"data.max_tokens": [400, 300], "train.lr": [0.008, 0.5]}}
    assert [r["lr"] for r in records if "lr" in r] == [0.008] * 3 + [0.5] * 2
    head = (run / "config.yaml").read_text().splitlines()[0]
    assert head == ("# resumed at step 3 with --reset-schedule --reset-data; data.max_tokens: 400 -> 300; "
                    "train.lr: 0.008 -> 0.5")
    ckpt = torch.load(run / "checkpoint-last.pt", weights_only=True)
    assert ckpt["resumes"] == [event] and ckpt["config"]["train"]["lr"] == 0.5
    capsys.readouterr()
    msg = error_of(capsys, train(data, run, "train.lr=0.5", "data.max_tokens=300", "train.preset=bahdanau",
                                 "--reset-optimizer", max_steps=6, resume=True))
    assert msg.endswith("train.preset 'adam' -> 'bahdanau' (needs --reset-optimizer and --reset-schedule); resume "
                        "with the checkpoint's values, pass the --reset flags named to change them deliberately, "
                        "or start a new --out")
    assert train(data, run, "train.lr=0.5", "data.max_tokens=300", "train.preset=bahdanau", "--reset-optimizer",
                 "--reset-schedule", max_steps=6, resume=True) == 0
    ckpt = torch.load(run / "checkpoint-last.pt", weights_only=True)
    assert ckpt["step"] == 6 and "square_avg" in next(iter(ckpt["optimizer"]["state"].values()))  # Adadelta's
    assert len(ckpt["resumes"]) == 2 and ckpt["resumes"][1]["changed"] == {"train.preset": ["adam", "bahdanau"]}


@pytest.mark.slow
def test_a_rerun_after_a_crash_does_not_reuse_stale_vocabularies(data, tmp_path, capsys):
    run = tmp_path / "run"
    rc = train(data, run, "data.src_vocab_size=36", "train.debug_nan_step=1", max_steps=5)
    assert "non-finite loss" in error_of(capsys, rc)  # crashed before its first checkpoint
    assert len(load_vocab(run / "vocab.src.model")) == 36 and not (run / "checkpoint-last.pt").exists()
    assert train(data, run, max_steps=2) == 0  # the same --out, now with data.src_vocab_size=40
    ckpt = load_checkpoint(run / "checkpoint-last.pt")
    assert ckpt["config"]["data"]["src_vocab_size"] == 40
    assert ckpt["model"]["src_embed.weight"].shape[0] == 40 == len(load_vocab(run / "vocab.src.model"))
    msg = error_of(capsys, train(data, run, "data.src_vocab_size=36", max_steps=4, resume=True))
    assert msg.endswith("checkpoint-last.pt: the run was trained with other settings: data.src_vocab_size 40 -> 36 "
                        "(fixed for the run); resume with the checkpoint's values or start a new --out")
    msg = error_of(capsys, train(data, run, "data.vocab_model_type=bpe", max_steps=4, resume=True))
    assert "data.vocab_model_type 'unigram' -> 'bpe' (fixed for the run)" in msg
    (run / "vocab.tgt.model").unlink()  # a resumed run restores a lost file from its checkpoint
    assert train(data, run, max_steps=3, resume=True) == 0
    assert (run / "vocab.tgt.model").read_bytes() == ckpt["vocab"]["tgt"]["bytes"]


def test_config_errors_on_the_command_line(data, tmp_path, capsys):
    out = str(tmp_path / "r")
    rc = main(["train", "--config", CONFIG, "--data", str(data), "--out", out, "--set", "train.lr=abc"])
    assert error_of(capsys, rc) == "error: --set train.lr=abc: expected float or null"
    bad = tmp_path / "bad.yaml"
    bad.write_text("train:\n  lrr: 0.1\n")
    rc = main(["train", "--config", str(bad), "--data", str(data), "--out", out])
    assert error_of(capsys, rc) == f"error: {bad}: unknown key 'train.lrr'"
    rc = main(["train", "--config", str(tmp_path / "none.yaml"), "--data", str(data), "--out", out])
    assert error_of(capsys, rc).endswith("none.yaml: config file not found, nor a preset (the presets are "
                                         "cpu/rnnencdec, cpu/rnnsearch, cpu/seq2seq, cpu/transformer, "
                                         "gpu/rnnencdec, gpu/rnnsearch, gpu/seq2seq, gpu/transformer)")
    rc = main(["train", "--config", CONFIG, "--data", str(tmp_path / "nodata"), "--out", out])
    assert error_of(capsys, rc) == f"error: --data {tmp_path / 'nodata'}: data directory not found"
    rc = main(["train", "--config", CONFIG, "--data", str(data), "--out", out, "--set", "data.batching=packed"])
    assert error_of(capsys, rc) == ("error: data.batching: packed needs a model that reads packed rows (the "
                                    "Transformer); model 'seq2seq' does not: use 'mixed' or 'bucketed'")
    assert not (tmp_path / "r" / "checkpoint-last.pt").exists()


def test_bad_checkpoints_are_one_line_errors(tmp_path, capsys):
    cut = tmp_path / "cut.pt"
    cut.write_bytes(b"PK\x03\x04 truncated")
    rc = main(["translate", "--checkpoint", str(cut)])
    assert "cut.pt: not a readable checkpoint (truncated or foreign file" in error_of(capsys, rc)
    rc = main(["evaluate", "--checkpoint", str(tmp_path / "none.pt"), "--data", str(tmp_path)])
    assert error_of(capsys, rc) == f"error: {tmp_path / 'none.pt'}: checkpoint not found"


@pytest.mark.slow
def test_nan_stops_training_and_keeps_the_last_good_checkpoint(data, tmp_path, capsys):
    run = tmp_path / "run"
    rc = train(data, run, "train.eval_every=5", "train.debug_nan_step=7", max_steps=20)
    msg = error_of(capsys, rc)
    assert msg.startswith("error: non-finite loss (nan) at step 7: training stopped")
    assert msg.endswith("checkpoint-last.pt")
    assert torch.load(run / "checkpoint-last.pt", weights_only=True)["step"] == 5


@pytest.mark.slow
def test_sigint_saves_a_checkpoint_that_resumes(data, tmp_path):
    run = tmp_path / "run"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
    cmd = [sys.executable, "-m", "companion", "train", "--config", CONFIG, "--data", str(data),
           "--out", str(run), "--max-steps", "100000", "--no-progress", "--set", *TINY,
           "train.log_every=1"]
    proc = subprocess.Popen(cmd, env=env, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not (run / "metrics.jsonl").exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "SIGINT: saved step" in err and "Traceback" not in err
    step = torch.load(run / "checkpoint-last.pt", weights_only=True)["step"]
    assert step >= 1
    cmd[cmd.index("100000")] = str(step + 2)
    done = subprocess.run(cmd + ["--resume"], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert torch.load(run / "checkpoint-last.pt", weights_only=True)["step"] == step + 2


@pytest.mark.slow
def test_generate_data_then_train_is_the_whole_path(tmp_path, capsys):
    data, run = tmp_path / "data", tmp_path / "run"
    assert main(["generate-data", "--size", "1000", "--seed", "0", "--out", str(data)]) == 0
    assert main(["train", "--config", CONFIG, "--data", str(data), "--out", str(run),
                 "--max-steps", "4", "--no-progress", "--set", "train.eval_every=2"]) == 0
    ckpt = torch.load(run / "checkpoint-last.pt", weights_only=True)
    evals = [json.loads(x) for x in (run / "metrics.jsonl").read_text().splitlines() if "valid_nll" in x]
    assert ckpt["step"] == 4 and [e["step"] for e in evals] == [2, 4]
    assert ckpt["config"]["data"]["src_vocab_size"] == 1000
    capsys.readouterr()
    assert main(["evaluate", "--checkpoint", str(run / "checkpoint-last.pt"), "--data", str(data),
                 "--beam", "1"]) == 0
    assert "BLEU = " in capsys.readouterr().out


def test_console_script_equals_python_m_companion():
    script = Path(sys.executable).with_name("companion")
    if not script.exists():
        pytest.skip("the package is not installed in this environment")
    a = subprocess.run([str(script), "--help"], capture_output=True, text=True)
    b = subprocess.run([sys.executable, "-m", "companion", "--help"], capture_output=True, text=True)
    assert a.returncode == b.returncode == 0 and a.stdout == b.stdout
    for command in ("generate-data", "train", "translate", "evaluate"):
        assert command in a.stdout


@pytest.mark.slow
def test_tampered_checkpoints_are_refused(data, tmp_path, capsys):
    from companion.training.checkpoint import atomic_save

    run = tmp_path / "run"
    assert train(data, run, max_steps=2) == 0
    ckpt = torch.load(run / "checkpoint-last.pt", weights_only=True)
    bad = dict(ckpt, vocab={**ckpt["vocab"], "tgt": {**ckpt["vocab"]["tgt"], "sha256": "0" * 64}})
    atomic_save(bad, tmp_path / "badvocab.pt")
    capsys.readouterr()
    rc = main(["translate", "--checkpoint", str(tmp_path / "badvocab.pt")])
    assert "badvocab.pt: the tgt vocabulary does not match its stored sha256" in error_of(capsys, rc)
    cfg = {**ckpt["config"], "model": {**ckpt["config"]["model"], "hidden_size": 64}}
    atomic_save(dict(ckpt, config=cfg), tmp_path / "badcfg.pt")
    rc = main(["evaluate", "--checkpoint", str(tmp_path / "badcfg.pt"), "--data", str(data)])
    assert "badcfg.pt: weights do not fit the stored model config" in error_of(capsys, rc)


@pytest.mark.slow
def test_a_packed_transformer_run_resumes_exactly(data, tmp_path):
    tiny = ["data.src_vocab_size=40", "data.tgt_vocab_size=40", "data.max_tokens=120", "data.batching=packed",
            "model.d_model=16", "model.num_heads=2", "model.num_encoder_layers=1", "model.num_decoder_layers=1",
            "model.d_ff=16", "train.eval_every=0", "train.warmup_steps=4"]

    def run(out, steps, resume=False):
        argv = ["train", "--config", "cpu/transformer", "--data", str(data), "--out", str(out), "--max-steps",
                str(steps), "--no-progress", "--set", *tiny]
        return main(argv + (["--resume"] if resume else []))

    assert run(tmp_path / "straight", 12) == 0
    assert run(tmp_path / "split", 6) == 0 and run(tmp_path / "split", 12, resume=True) == 0
    a, b = params(tmp_path / "straight/checkpoint-last.pt"), params(tmp_path / "split/checkpoint-last.pt")
    assert all(torch.equal(a[k], b[k]) for k in a)


@pytest.mark.slow
@pytest.mark.parametrize("command", ["train", "prepare"])
def test_a_model_its_constructor_refuses_fails_before_any_data_work(data, tmp_path, command):
    """The model is built on the meta device from the configured sizes first: one line, exit 2,
    and no vocabulary, data-bin/ or run directory left behind."""
    run = tmp_path / "run"
    proc = subprocess.run([sys.executable, "-m", "companion", command, "--config", "cpu/transformer", "--data",
                           str(data), "--out", str(run), "--set", "model.d_model=32", "model.num_heads=3"],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == ["error: Transformer: num_heads (3) must divide d_model (32)"]
    assert not run.exists() and list(tmp_path.iterdir()) == []
