"""Checkpoint averaging: the mean of checkpoints, its refusals, the ``average`` command, and an
averaged checkpoint of a real ``companion train`` run that ``translate`` loads."""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

import pytest
import torch
import yaml

from companion.cli import COMMANDS, main
from companion.commands import average as average_command
from companion.errors import CheckpointError, ConfigError
from companion.models.transformer import Transformer
from companion.training.averaging import average_checkpoints, last_checkpoints, save_average
from companion.training.checkpoint import save_checkpoint, vocab_entry

MODEL = {"name": "transformer", "d_model": 8, "num_heads": 2, "num_encoder_layers": 1,
         "num_decoder_layers": 1, "d_ff": 12}


def _ckpt(path: Path, seed: int, step: int, model: dict | None = None, tgt_vocab: bytes = b"tgt",
          extra: dict | None = None) -> Path:
    """A checkpoint with the layout ``companion train`` writes (tiny Transformer weights)."""
    model = model or MODEL
    torch.manual_seed(seed)
    net = Transformer(9, 9, **{k: v for k, v in model.items() if k != "name"})
    state = {**net.state_dict(), "counter": torch.tensor([step]), **(extra or {})}
    save_checkpoint({"model": state, "optimizer": {}, "scheduler": {}, "step": step, "epoch": 0, "rng": {},
                 "config": {"model": dict(model)}, "vocab": {"src": vocab_entry(b"src"),
                                                            "tgt": vocab_entry(tgt_vocab)}}, path)
    return path


def _state(path: Path) -> dict:
    return torch.load(path, weights_only=True)["model"]


def test_the_average_of_identical_checkpoints_is_that_checkpoint(tmp_path):
    a = _ckpt(tmp_path / "a.pt", seed=0, step=1)
    b = _ckpt(tmp_path / "b.pt", seed=0, step=1)
    c = _ckpt(tmp_path / "c.pt", seed=0, step=1)
    avg = average_checkpoints([a, b, c])
    for name, value in _state(a).items():
        assert torch.equal(avg["model"][name], value), name
        assert avg["model"][name].dtype == value.dtype


def test_the_average_of_two_is_the_elementwise_mean_and_keeps_the_last_rest(tmp_path):
    a = _ckpt(tmp_path / "a.pt", seed=0, step=10)
    b = _ckpt(tmp_path / "b.pt", seed=1, step=20)
    avg = average_checkpoints([a, b])
    sa, sb = _state(a), _state(b)
    w = "decoder_layers.0.cross_attn.in_proj.weight"
    assert not torch.equal(sa[w], sb[w])
    for name in sa:
        if sa[name].is_floating_point():
            torch.testing.assert_close(avg["model"][name], (sa[name] + sb[name]) / 2, rtol=0, atol=1e-7)
            assert torch.equal(avg["model"][name], ((sa[name].double() + sb[name].double()) / 2).float())
    assert avg["model"]["counter"].tolist() == [20]  # a non-float tensor: the last checkpoint's
    assert avg["step"] == 20
    assert avg["averaged_from"] == [str(a), str(b)]


def test_checkpoints_that_do_not_belong_together_are_refused(tmp_path):
    a = _ckpt(tmp_path / "a.pt", seed=0, step=1)
    wider = _ckpt(tmp_path / "wide.pt", seed=0, step=2, model={**MODEL, "d_ff": 16})
    with pytest.raises(CheckpointError, match=r"^.*wide\.pt: model\.d_ff is 16 but 12 in .*a\.pt; only "
                                              r"checkpoints of one model can be averaged$"):
        average_checkpoints([a, wider])
    family = dict(torch.load(a, weights_only=True), config={"model": {"name": "seq2seq", "hidden_size": 8}})
    save_checkpoint(family, tmp_path / "family.pt")  # another family: named by model.name, not its first other key
    with pytest.raises(CheckpointError, match=r"family\.pt: model\.name is 'seq2seq' but 'transformer' in .*a\.pt"):
        average_checkpoints([a, tmp_path / "family.pt"])
    vocab = _ckpt(tmp_path / "vocab.pt", seed=0, step=2, tgt_vocab=b"other")
    with pytest.raises(CheckpointError, match=r"vocab\.pt: the tgt vocabulary differs from .*a\.pt's"):
        average_checkpoints([a, vocab])
    extra = _ckpt(tmp_path / "extra.pt", seed=0, step=2, extra={"bonus": torch.zeros(2)})
    with pytest.raises(CheckpointError, match=r"extra\.pt: parameter 'bonus' is not in .*a\.pt$"):
        average_checkpoints([a, extra])
    with pytest.raises(CheckpointError, match=r"a\.pt: parameter 'bonus' is missing \(present in .*extra\.pt\)$"):
        average_checkpoints([extra, a])
    shaped = _ckpt(tmp_path / "shaped.pt", seed=0, step=2, extra={"counter": torch.tensor([1, 2])})
    with pytest.raises(CheckpointError, match=r"shaped\.pt: parameter 'counter' has shape \(2,\) but \(1,\)"):
        average_checkpoints([a, shaped])
    with pytest.raises(CheckpointError, match=r"none\.pt: checkpoint not found$"):
        average_checkpoints([a, tmp_path / "none.pt"])
    with pytest.raises(ConfigError, match=r"^average: no checkpoints to average$"):
        average_checkpoints([])
    (tmp_path / "link.pt").hardlink_to(a)
    with pytest.raises(CheckpointError, match=r"link\.pt: the same file as .*a\.pt; each checkpoint may be "
                                              r"averaged once$"):
        average_checkpoints([a, tmp_path / "link.pt"])
    with pytest.raises(CheckpointError, match=r"is one of the checkpoints being averaged; choose another --out"):
        save_average([a, wider], a)


def test_last_n_takes_the_newest_numbered_checkpoints(tmp_path):
    for step in (50, 100, 150, 200):
        _ckpt(tmp_path / f"checkpoint-step{step}.pt", seed=step, step=step)
    (tmp_path / "checkpoint-last.pt").hardlink_to(tmp_path / "checkpoint-step200.pt")
    assert [p.name for p in last_checkpoints(tmp_path, 3)] == [
        "checkpoint-step100.pt", "checkpoint-step150.pt", "checkpoint-step200.pt"]
    with pytest.raises(CheckpointError, match=r"holds 4 checkpoint-step\*\.pt files, fewer than the 5 asked "
                                              r"for .*--set train\.keep_last=5\)$"):
        last_checkpoints(tmp_path, 5)
    with pytest.raises(ConfigError, match=r"^average: the number of checkpoints must be an integer >= 1, got 0$"):
        last_checkpoints(tmp_path, 0)
    with pytest.raises(CheckpointError, match=r"nothere: not a run directory$"):
        last_checkpoints(tmp_path / "nothere", 2)


def test_the_average_command(tmp_path, capsys, monkeypatch):
    for step in (1, 2, 3):
        _ckpt(tmp_path / f"checkpoint-step{step}.pt", seed=step, step=step)
    out = tmp_path / "avg.pt"
    args = argparse.Namespace(inputs=None, last=["2", str(tmp_path)], out=str(out))
    assert average_command.run(args) == 0
    assert capsys.readouterr().out.strip() == f"averaged 2 checkpoints (last at step 3) -> {out}"
    expected = average_checkpoints([tmp_path / "checkpoint-step2.pt", tmp_path / "checkpoint-step3.pt"])
    for name, value in _state(out).items():
        assert torch.equal(value, expected["model"][name])
    # through the command line, registered the way companion/cli.py registers commands
    monkeypatch.setitem(COMMANDS, "average", ("companion.commands.average", "average checkpoints"))
    out2 = tmp_path / "avg2.pt"
    inputs = [str(tmp_path / f"checkpoint-step{s}.pt") for s in (2, 3)]
    assert main(["average", "--inputs", *inputs, "--out", str(out2)]) == 0
    assert all(torch.equal(_state(out2)[k], v) for k, v in _state(out).items())
    assert main(["average", "--last", "two", str(tmp_path), "--out", str(out2)]) == 2
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        "error: average: --last N RUNDIR needs an integer N, got 'two'")


# ------------------------------------------------------------------------- a real run, end to end
KO = ["고양이", "개", "사과", "학생", "책", "물"]
EN = ["cat", "dog", "apple", "student", "book", "water"]


def _corpus(out: Path) -> Path:
    out.mkdir()
    for split, n in (("train", 120), ("valid", 12), ("test", 6)):
        pairs = [(i * 7 + len(split)) % 36 for i in range(n)]
        (out / f"{split}.ko").write_text("".join(f"{KO[p // 6]}가 {KO[p % 6]}를 본다\n" for p in pairs), "utf-8")
        (out / f"{split}.en").write_text("".join(f"the {EN[p // 6]} sees the {EN[p % 6]}\n" for p in pairs), "utf-8")
    return out


@pytest.fixture
def restore_torch_globals():
    threads, det = torch.get_num_threads(), torch.are_deterministic_algorithms_enabled()
    yield
    torch.set_num_threads(threads)
    torch.use_deterministic_algorithms(det)


def test_an_averaged_transformer_run_translates(tmp_path, monkeypatch, capsys, restore_torch_globals):
    data = _corpus(tmp_path / "data")
    config = tmp_path / "transformer.yaml"
    config.write_text(yaml.safe_dump({
        "data": {"src_lang": "ko", "tgt_lang": "en", "src_vocab_size": 17, "tgt_vocab_size": 12,
                 "max_tokens": 300},
        "model": {**MODEL, "pre_ln": True},
        "train": {"preset": "vaswani", "lr": 1.0, "warmup_steps": 4, "max_steps": 6, "eval_every": 2,
                  "keep_last": 3, "label_smoothing": 0.1, "threads": 1, "seed": 0},
        "decode": {"beam_size": 2},
    }, allow_unicode=True), encoding="utf-8")
    run = tmp_path / "run"
    argv = ["train", "--config", str(config), "--data", str(data), "--out", str(run), "--no-progress",
            "--set", "data.vocab_model_type=word"]
    assert main(argv) == 0, capsys.readouterr().err
    steps = sorted(p.name for p in run.glob("checkpoint-step*.pt"))
    assert steps == ["checkpoint-step2.pt", "checkpoint-step4.pt", "checkpoint-step6.pt"]
    avg = tmp_path / "avg.pt"
    assert average_command.run(argparse.Namespace(inputs=None, last=["3", str(run)], out=str(avg))) == 0
    from companion.training.rundir import load_run

    model, _, _, _, ckpt = load_run(avg)
    assert ckpt["step"] == 6
    states = [_state(run / name) for name in steps]
    w = "encoder_layers.0.ffn.linear1.weight"
    torch.testing.assert_close(model.state_dict()[w], sum(s[w] for s in states) / 3, rtol=0, atol=1e-6)
    monkeypatch.setattr(sys, "stdin", io.StringIO("고양이가 개를 본다\n"))
    capsys.readouterr()
    assert main(["translate", "--checkpoint", str(avg)]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 1
