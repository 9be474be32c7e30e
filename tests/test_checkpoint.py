"""Checkpoints: weights_only loading, atomic writes under SIGKILL, one-line errors, checks."""

from __future__ import annotations

import os
import pickle
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import torch

from companion.training import checkpoint as C
from companion.errors import CheckpointError

ROOT = Path(__file__).resolve().parents[1]


def minimal(step: int = 1) -> dict:
    return {"model": {"w": torch.ones(2)}, "optimizer": {}, "scheduler": {"last_step": step},
            "step": step, "epoch": 0, "rng": C.rng_state(), "config": {"model": {"name": "m", "h": 2}},
            "vocab": {"src": C.vocab_entry(b"src-bytes"), "tgt": C.vocab_entry(b"tgt-bytes")}}


def _values(obj):
    if isinstance(obj, dict):
        for v in obj.values():
            yield from _values(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from _values(v)
    else:
        yield obj


def test_a_saved_checkpoint_holds_no_python_bytes(tmp_path):
    """torch before 2.6 refuses ``bytes`` under weights_only ("Unsupported class _codecs.encode"):
    the vocabularies go to disk as uint8 tensors and come back as the same bytes."""
    path = tmp_path / "c.pt"
    model_bytes = bytes(range(256)) * 3
    C.save_checkpoint(dict(minimal(3), vocab={"src": C.vocab_entry(model_bytes), "tgt": C.vocab_entry(b"t")}), path)
    raw = torch.load(path, weights_only=True)
    assert not [v for v in _values(raw) if isinstance(v, (bytes, bytearray))]
    assert raw["vocab"]["src"]["bytes"].dtype == torch.uint8
    back = C.load_checkpoint(path)
    assert back["vocab"]["src"] == C.vocab_entry(model_bytes) and back["vocab"]["tgt"]["bytes"] == b"t"
    old = tmp_path / "old.pt"  # written with bytes, as before: still read where torch accepts them
    C.atomic_save(minimal(3), old)
    try:
        torch.load(old, weights_only=True)
    except pickle.UnpicklingError:
        with pytest.raises(CheckpointError, match="not a readable checkpoint"):
            C.load_checkpoint(old)
    else:
        assert C.load_checkpoint(old)["vocab"]["src"]["bytes"] == b"src-bytes"


def test_round_trip_loads_with_weights_only(tmp_path):
    path = tmp_path / "c.pt"
    C.save_checkpoint(minimal(3), path)
    raw = torch.load(path, weights_only=True)
    assert raw["step"] == 3 and bytes(raw["vocab"]["src"]["bytes"].tolist()) == b"src-bytes"
    assert C.load_checkpoint(path)["config"]["model"]["h"] == 2
    assert [p.name for p in tmp_path.iterdir()] == ["c.pt"]


def test_rng_state_round_trip():
    state = C.rng_state()
    a = (random.random(), float(np.random.rand()), float(torch.rand(1)))
    path_state = pickle.loads(pickle.dumps(state))  # plain data
    C.set_rng_state(path_state)
    assert (random.random(), float(np.random.rand()), float(torch.rand(1))) == a


def test_missing_truncated_and_foreign_files(tmp_path):
    with pytest.raises(CheckpointError, match="nope.pt: checkpoint not found"):
        C.load_checkpoint(tmp_path / "nope.pt")
    good = tmp_path / "good.pt"
    C.atomic_save(minimal(), good)
    cut = tmp_path / "cut.pt"
    cut.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    with pytest.raises(CheckpointError, match=r"cut.pt: not a readable checkpoint \(truncated") as err:
        C.load_checkpoint(cut)
    assert "\n" not in str(err.value)
    text = tmp_path / "text.pt"
    text.write_text("hello")
    with pytest.raises(CheckpointError, match="text.pt: not a readable checkpoint"):
        C.load_checkpoint(text)
    evil = tmp_path / "evil.pt"
    evil.write_bytes(pickle.dumps(Path("x"), protocol=2))  # an arbitrary object: refused by weights_only
    with pytest.raises(CheckpointError, match="evil.pt: not a readable checkpoint"):
        C.load_checkpoint(evil)
    other = tmp_path / "other.pt"
    torch.save({"state_dict": {}}, other)
    with pytest.raises(CheckpointError, match="other.pt: not a companion checkpoint \\(missing model"):
        C.load_checkpoint(other)
    lst = tmp_path / "list.pt"
    torch.save([1, 2], lst)
    with pytest.raises(CheckpointError, match="top level is list"):
        C.load_checkpoint(lst)


def test_vocab_and_model_config_checks(tmp_path):
    ckpt = minimal()
    C.check_vocab(ckpt, {"src": C.vocab_entry(b"src-bytes")["sha256"]}, "c.pt")
    with pytest.raises(CheckpointError, match="c.pt: the tgt vocabulary does not match this run's"):
        C.check_vocab(ckpt, {"tgt": C.vocab_entry(b"other")["sha256"]}, "c.pt")
    C.check_model_config(ckpt, {"name": "m", "h": 2}, "c.pt")
    with pytest.raises(CheckpointError, match="c.pt: model.h is 2 in the checkpoint but 3 in the config"):
        C.check_model_config(ckpt, {"name": "m", "h": 3}, "c.pt")


def test_a_different_model_family_is_named_by_model_name():
    """Models of two families share few keys; the message used to name the first differing key in
    sorted order (``model.d_ff``) instead of the family."""
    from companion.models import with_defaults
    from companion.training.resume import complete_config, config_changes

    seq2seq = with_defaults({"name": "seq2seq", "hidden_size": 8})
    transformer = with_defaults({"name": "transformer", "d_model": 8, "num_heads": 2})
    ckpt = {"config": {"model": seq2seq}}
    with pytest.raises(CheckpointError, match="c.pt: model.name is 'seq2seq' in the checkpoint but 'transformer'"):
        C.check_model_config(ckpt, transformer, "c.pt")
    assert C.first_model_difference(seq2seq, dict(seq2seq, hidden_size=9)) == "hidden_size"
    assert C.first_model_difference(seq2seq, seq2seq) is None
    changes = config_changes(complete_config({"model": seq2seq}), complete_config({"model": transformer}))
    assert changes == [("model.name", "seq2seq", "transformer")]


def test_rotate_keeps_the_newest(tmp_path):
    for s in (5, 10, 15, 100):
        (tmp_path / f"checkpoint-step{s}.pt").write_bytes(b"x")
    (tmp_path / "checkpoint-last.pt").write_bytes(b"x")
    C.rotate(tmp_path, 2)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "checkpoint-last.pt", "checkpoint-step100.pt", "checkpoint-step15.pt"]


def test_rotate_leaves_files_it_did_not_write(tmp_path):
    names = ["checkpoint-stepX.pt", "checkpoint-step.pt", "checkpoint-step7.pt.bak", "checkpoint-step-1.pt"]
    for name in names + ["checkpoint-step1.pt", "checkpoint-step2.pt"]:
        (tmp_path / name).write_bytes(b"x")
    C.rotate(tmp_path, 1)  # used to crash on int("X")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(names + ["checkpoint-step2.pt"])


def test_link_atomic_makes_the_new_name_durable(tmp_path, monkeypatch):
    import stat

    synced = []
    real_fsync = os.fsync

    def fsync(fd):
        synced.append(stat.S_ISDIR(os.fstat(fd).st_mode))
        real_fsync(fd)

    src = tmp_path / "checkpoint-step3.pt"
    src.write_bytes(b"weights")
    (tmp_path / "checkpoint-last.pt").write_bytes(b"old")
    monkeypatch.setattr(os, "fsync", fsync)
    C.link_atomic(src, tmp_path / "checkpoint-last.pt")
    assert (tmp_path / "checkpoint-last.pt").read_bytes() == b"weights"
    assert os.path.samefile(src, tmp_path / "checkpoint-last.pt")
    assert synced == [True]  # the directory holding the new name
    assert sorted(p.name for p in tmp_path.iterdir()) == ["checkpoint-last.pt", "checkpoint-step3.pt"]


def test_a_directory_is_not_a_checkpoint(tmp_path):
    with pytest.raises(CheckpointError, match="is a directory, expected a checkpoint file"):
        C.load_checkpoint(tmp_path)


SAVER = """
import sys, torch
from companion.training.checkpoint import atomic_save
path = sys.argv[1]
state = {"w": torch.randn(12_000_000), "gen": 0}
atomic_save(state, path)
print("ready", flush=True)
gen = 0
while True:
    gen += 1
    state["gen"] = gen
    atomic_save(state, path)
"""


@pytest.mark.slow
def test_sigkill_during_save_leaves_the_previous_checkpoint(tmp_path):
    path = tmp_path / "ckpt.pt"
    script = tmp_path / "saver.py"
    script.write_text(SAVER)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
    for attempt in range(5):
        proc = subprocess.Popen([sys.executable, str(script), str(path)], stdout=subprocess.PIPE, env=env)
        assert proc.stdout.readline().strip() == b"ready"
        time.sleep(0.3 + 0.2 * attempt)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        leftovers = list(tmp_path.glob(".ckpt.pt.tmp-*"))
        state = torch.load(path, weights_only=True)  # the previous complete file
        assert state["w"].numel() == 12_000_000 and isinstance(state["gen"], int)
        if leftovers:  # killed in the middle of writing the next one
            assert leftovers[0].stat().st_size < path.stat().st_size + 1
            assert C.remove_stale_temporaries(tmp_path) == leftovers
            assert sorted(p.name for p in tmp_path.iterdir()) == ["ckpt.pt", "saver.py"]
            break
        path.unlink()
    else:
        pytest.fail("never caught the saver mid-write")


def test_the_package_never_unpickles_arbitrary_objects():
    for path in (ROOT / "companion").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "weights_only=False" not in text, path
        assert "pickle.load" not in text, path
