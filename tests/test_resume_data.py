"""Resuming tracks the data: a checkpoint keeps the fingerprints of the corpus it was trained on
(another train split is refused unless --reset-data; another validation set resets ``best``),
and ``data.batching: auto`` is compared and stored as what it resolves to."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from companion.cli import main
from companion.training.checkpoint import load_checkpoint, save_checkpoint
from test_cli_train import CONFIG, ROOT, TINY, write_corpus

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("restore_torch_globals")]




@pytest.fixture(scope="module")
def corpora(tmp_path_factory):
    root = tmp_path_factory.mktemp("corpora")
    return write_corpus(root / "one"), write_corpus(root / "other", seed=7)


def train(data, out, *extra, max_steps=10, resume=False, config=CONFIG):
    argv = ["train", "--config", str(config), "--data", str(data), "--out", str(out), "--max-steps", str(max_steps),
            "--no-progress", "--set", *TINY, *extra]
    return main(argv + (["--resume"] if resume else []))


def snapshot(folder: Path) -> dict:
    """Every entry under ``folder``: a link's target, a file's size, mtime and hash."""
    out = {}
    for p in sorted(folder.rglob("*")):
        key = str(p.relative_to(folder))
        if p.is_symlink():
            out[key] = ("link", os.readlink(p))
        elif p.is_file():
            st = p.stat()
            out[key] = (st.st_size, st.st_mtime_ns, hashlib.sha256(p.read_bytes()).hexdigest())
        else:
            out[key] = "dir"
    return out


def size_change(name: str, a: Path, b: Path) -> str:
    """How the refusal names a file that changed size."""
    x, y = (a / name).stat().st_size, (b / name).stat().st_size
    assert x != y
    return f"{name} {x:,} -> {y:,} bytes"


def records(run: Path) -> list[dict]:
    return [json.loads(x) for x in (run / "metrics.jsonl").read_text().splitlines()]


def test_a_resume_on_another_corpus_is_refused_and_changes_nothing(corpora, tmp_path):
    """The issue's scenario: ``cp -r run run2``, then resume run2 with ``--data OTHER``."""
    one, other = corpora
    run, run2 = tmp_path / "run", tmp_path / "run2"
    assert train(one, run, max_steps=4) == 0  # stops mid-epoch (11 batches an epoch)
    subprocess.run(["cp", "-r", str(run), str(run2)], check=True)
    before = snapshot(run2)
    proc = subprocess.run([sys.executable, "-m", "companion", "train", "--config", CONFIG, "--data", str(other),
                           "--out", str(run2), "--max-steps", "8", "--resume", "--set", *TINY],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.splitlines() == [
        f"error: {run2}/checkpoint-last.pt: the run was trained on other data ({size_change('train.en', one, other)}, "
        f"{size_change('train.ko', one, other)}); resume on the run's corpus, pass --reset-data to continue on this "
        f"one from a new epoch, or start a new --out"]
    assert snapshot(run2) == before  # no vocabulary, no data-bin, no checkpoint touched
    proc = subprocess.run([sys.executable, "-m", "companion", "prepare", "--config", CONFIG, "--data", str(other),
                           "--out", str(run2), "--set", *TINY], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1  # prepare refuses it the same way
    assert proc.stderr.startswith(f"error: {run2}/checkpoint-last.pt: the run was trained on other data (")
    assert snapshot(run2) == before


def test_reset_data_continues_on_the_new_corpus_from_a_new_epoch_and_resets_best(corpora, tmp_path, capsys):
    one, other = corpora
    run = tmp_path / "run"
    assert train(one, run, max_steps=4) == 0
    ckpt = load_checkpoint(run / "checkpoint-last.pt")
    assert ckpt["epoch"] == 0 and ckpt["batch_in_epoch"] == 4 and math_finite(ckpt["best"])
    assert set(ckpt["corpus"]["files"]) == {"train.ko", "train.en", "valid.ko", "valid.en"}
    capsys.readouterr()
    assert train(other, run, "--reset-data", max_steps=6, resume=True) == 0
    err = capsys.readouterr().err
    why = f"{size_change('valid.en', one, other)}, {size_change('valid.ko', one, other)}"
    assert (f"the validation set changed ({why}): the best validation loss so far ({ckpt['best']:.4f}, on the old "
            f"set) is reset") in err.splitlines()
    event = next(r for r in records(run) if r.get("resumed"))
    assert event["resets"] == ["data"] and sorted(event["changed"]) == ["corpus train.en", "corpus train.ko"]
    reset = next(r for r in records(run) if "best_reset" in r)
    assert reset == {"step": 4, "best_reset": why, "previous_best": ckpt["best"]}
    new = load_checkpoint(run / "checkpoint-last.pt")
    assert new["epoch"] == 1 and new["batch_in_epoch"] == 2  # the new corpus from the start of an epoch
    assert new["corpus"]["files"]["train.ko"]["bytes"] == (other / "train.ko").stat().st_size
    assert new["best"] == records(run)[-1]["valid_nll"]  # measured on the new validation set only
    assert (run / "config.yaml").read_text().splitlines()[0].startswith(
        "# resumed at step 4 with --reset-data; corpus train.en: ")


def math_finite(x: float) -> bool:
    return x == x and abs(x) != float("inf")


@pytest.mark.parametrize("change", ["valid_max_sentences", "valid file"])
def test_another_validation_set_resets_best_and_says_so(corpora, tmp_path, capsys, change):
    one, _ = corpora
    data, run = tmp_path / "data", tmp_path / "run"
    shutil.copytree(one, data)
    assert train(data, run, max_steps=4) == 0
    best = load_checkpoint(run / "checkpoint-last.pt")["best"]
    extra = []
    if change == "valid_max_sentences":
        extra, why = ["data.valid_max_sentences=10"], "valid pairs scored 30 -> 10 (data.valid_max_sentences 500 -> 10)"
    else:
        lines = (data / "valid.en").read_text(encoding="utf-8").splitlines()
        lines[-1] += " today"
        (data / "valid.en").write_text("\n".join(lines) + "\n", encoding="utf-8")
        why = size_change("valid.en", one, data)
    capsys.readouterr()
    assert train(data, run, *extra, max_steps=6, resume=True) == 0  # the train split is the same: no reset needed
    err = capsys.readouterr().err.splitlines()
    assert f"the validation set changed ({why}): the best validation loss so far ({best:.4f}, on the old set) " \
           f"is reset" in err
    assert {"step": 4, "best_reset": why, "previous_best": best} in records(run)
    evals = [r for r in records(run) if "valid_nll" in r]
    assert evals[-1]["step"] == 6 and load_checkpoint(run / "checkpoint-best.pt")["step"] == 6
    assert load_checkpoint(run / "checkpoint-last.pt")["best"] == evals[-1]["valid_nll"]


def test_a_limit_that_scores_the_same_pairs_keeps_best(corpora, tmp_path, capsys):
    one, _ = corpora
    run = tmp_path / "run"
    assert train(one, run, max_steps=4) == 0  # the preset scores the first 500 valid pairs: all 30
    best = load_checkpoint(run / "checkpoint-last.pt")["best"]
    capsys.readouterr()
    assert train(one, run, "data.valid_max_sentences=1000", max_steps=6, resume=True) == 0
    assert "validation set changed" not in capsys.readouterr().err
    assert not [r for r in records(run) if "best_reset" in r]
    assert load_checkpoint(run / "checkpoint-last.pt")["best"] == min(best, records(run)[-1]["valid_nll"])


def test_a_run_saved_without_batching_resumes_under_a_config_that_does_not_name_it(corpora, tmp_path):
    """An older seq2seq run (no ``data.batching`` in its checkpoint: it was bucketed) resumed with
    a YAML that leaves ``data.batching`` to its default, ``auto`` -- bucketed for an RNN: exact,
    through the CLI in a subprocess; the resolved value is what the run stores from then on."""
    one, _ = corpora
    preset = (ROOT / "companion/presets/cpu/seq2seq.yaml").read_text(encoding="utf-8")
    config = tmp_path / "seq2seq.yaml"
    config.write_text("".join(line for line in preset.splitlines(keepends=True) if "batching:" not in line),
                      encoding="utf-8")
    assert train(one, tmp_path / "straight", max_steps=8, config=config) == 0
    run = tmp_path / "old"
    assert train(one, run, max_steps=4, config=config) == 0
    for path in run.glob("checkpoint-*.pt"):  # as the package wrote it before data.batching existed
        ckpt = load_checkpoint(path)
        assert ckpt["config"]["data"].pop("batching") == "bucketed"  # stored resolved
        save_checkpoint(ckpt, path.resolve())
    proc = subprocess.run([sys.executable, "-m", "companion", "train", "--config", str(config), "--data", str(one),
                           "--out", str(run), "--max-steps", "8", "--resume", "--set", *TINY],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    a = torch.load(tmp_path / "straight/checkpoint-last.pt", weights_only=True)
    b = torch.load(run / "checkpoint-last.pt", weights_only=True)
    assert b["config"]["data"]["batching"] == "bucketed" and "  batching: bucketed" in (run / "config.yaml").read_text()
    for k in a["model"]:
        assert torch.equal(a["model"][k], b["model"][k]), k
    # the resolved value is compared: a stored batching that auto no longer gives is refused
    ckpt = load_checkpoint(run / "checkpoint-last.pt")
    ckpt["config"]["data"]["batching"] = "mixed"
    save_checkpoint(ckpt, (run / "checkpoint-last.pt").resolve())
    proc = subprocess.run([sys.executable, "-m", "companion", "train", "--config", str(config), "--data", str(one),
                           "--out", str(run), "--max-steps", "9", "--resume", "--set", *TINY],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1
    assert "data.batching 'mixed' -> 'bucketed' (needs --reset-data)" in proc.stderr
