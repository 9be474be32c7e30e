"""torchrun DDP on CPU (gloo): 2 processes equal one process with the same global batch."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from test_cli_train import CONFIG, TINY, write_corpus

ROOT = Path(__file__).resolve().parents[1]


def run(cmd, env):
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def single_and_ddp(tmp_path, args, env):
    """Train ``args`` in one process into ``single/`` and on two gloo ranks into ``ddp/``;
    returns both last checkpoints (after checking that both stopped at step 6) and both
    metrics logs."""
    run([sys.executable, "-m", "companion", *args, "--out", str(tmp_path / "single")], env)
    run([sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node=2",
         "-m", "companion", *args, "--out", str(tmp_path / "ddp")], env)
    single = torch.load(tmp_path / "single/checkpoint-last.pt", weights_only=True)
    ddp = torch.load(tmp_path / "ddp/checkpoint-last.pt", weights_only=True)
    assert ddp["step"] == single["step"] == 6
    logs = [[json.loads(x) for x in (tmp_path / name / "metrics.jsonl").read_text().splitlines()]
            for name in ("single", "ddp")]
    return single, ddp, *logs


@pytest.mark.slow
def test_two_gloo_ranks_equal_one_process(tmp_path):
    data = write_corpus(tmp_path / "data")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
    args = ["train", "--config", CONFIG, "--data", str(data), "--max-steps", "6", "--no-progress",
            "--device", "cpu", "--set", *TINY, "model.dropout=0.0", "train.eval_every=3",
                # a step small enough that summation-order differences stay in the last bits
                "train.lr=0.002",
            # a budget under which the bucket sampler cuts the same global batches for 1 and 2
            # replicas (with 2 it never leaves a one-example batch; here none arises)
            "data.max_tokens=420"]
    single, ddp, single_m, ddp_m = single_and_ddp(tmp_path, args, env)
    for k, v in single["model"].items():
        assert torch.allclose(ddp["model"][k], v, rtol=0, atol=1e-6), k
    # the runs did train (parameters moved far more than the tolerance)
    first = torch.load(tmp_path / "single/checkpoint-step3.pt", weights_only=True)["model"]
    moved = max(float((first[k] - v).abs().max()) for k, v in single["model"].items())
    assert moved > 1e-3
    # same metrics, value by value: the logged loss is the global token mean, the gradient norm
    # the global batch's, and rank 0 validates on the whole valid set (timings excepted)
    assert [sorted(r) for r in ddp_m] == [sorted(r) for r in single_m]
    assert sum("valid_nll" in r for r in single_m) == 2 and sum("train_loss" in r for r in single_m) >= 2
    for s, d in zip(single_m, ddp_m):
        assert (d["step"], d.get("epoch"), d.get("lr"), d.get("valid_tokens")) == \
            (s["step"], s.get("epoch"), s.get("lr"), s.get("valid_tokens"))
        for key in ("train_loss", "grad_norm", "clip_rate", "valid_nll", "valid_ppl"):
            if key in s:
                assert d[key] == pytest.approx(s[key], rel=1e-5, abs=1e-7), (s["step"], key)
    # only rank 0 wrote: one set of files (one version of the data cache, whatever its name)
    def names(run):
        return sorted(re.sub(r"^data-bin\.v-.*", "data-bin.v-*", p.name) for p in run.iterdir())

    assert names(tmp_path / "ddp") == names(tmp_path / "single")
    assert names(tmp_path / "ddp").count("data-bin.v-*") == 1
    # both ranks resume from rank 0's checkpoint
    resume = [a if a != "6" else "8" for a in args]
    run([sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node=2",
         "-m", "companion", *resume, "--out", str(tmp_path / "ddp"), "--resume"], env)
    assert torch.load(tmp_path / "ddp/checkpoint-last.pt", weights_only=True)["step"] == 8


def torchrun(args, out, env, *extra):
    return run([sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node=2",
                "-m", "companion", *args, "--out", str(out), *extra], env)


@pytest.mark.slow
def test_two_gloo_ranks_equal_one_process_with_packed_batches(tmp_path):
    """Packed batches (several pairs per row, kept apart by segment ids) under DDP: two gloo ranks
    train the same Transformer as one process with the same global batches."""
    data = write_corpus(tmp_path / "data")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
    args = ["train", "--config", "cpu/transformer", "--data", str(data), "--max-steps", "6", "--no-progress",
            "--device", "cpu", "--set", "data.src_vocab_size=40", "data.tgt_vocab_size=40",
            "data.max_tokens=400", "data.batching=packed", "model.d_model=16", "model.num_heads=2",
            "model.num_encoder_layers=1", "model.num_decoder_layers=1", "model.d_ff=32",
            "model.dropout=0.0", "train.eval_every=3", "train.log_every=5", "train.warmup_steps=3"]
    single, ddp, single_m, ddp_m = single_and_ddp(tmp_path, args, env)
    assert single["config"]["data"]["batching"] == ddp["config"]["data"]["batching"] == "packed"
    d = 16  # model.d_model
    for k, v in single["model"].items():
        other = ddp["model"][k]
        if k.endswith("in_proj.bias"):
            # the key bias adds q.b to every score of a query alike, so the softmax cancels it and
            # its gradient is zero up to rounding; Adam normalises that rounding noise into steps of
            # the full rate with signs the summation order decides. It cannot change any output
            # (the losses below agree), so only the query and value biases are compared.
            v, other = torch.cat([v[:d], v[2 * d:]]), torch.cat([other[:d], other[2 * d:]])
        assert torch.allclose(other, v, rtol=0, atol=1e-5), k
    first = torch.load(tmp_path / "single/checkpoint-step3.pt", weights_only=True)["model"]
    assert max(float((first[k] - v).abs().max()) for k, v in single["model"].items()) > 1e-3
    for s, d in zip(single_m, ddp_m):
        for key in ("train_loss", "valid_nll"):
            if key in s:
                assert d[key] == pytest.approx(s[key], rel=1e-4), (s["step"], key)


@pytest.mark.slow
def test_ddp_resume_is_bitwise_on_every_rank(tmp_path):
    """4 steps, then a resume to 8, equal 8 straight steps bitwise: every rank's dropout stream is
    saved and restored (with dropout, rank 1's masks differ from rank 0's, and a rank 1 that
    restarted its stream would change the averaged gradients)."""
    data = write_corpus(tmp_path / "data")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
    args = ["train", "--config", CONFIG, "--data", str(data), "--no-progress", "--device", "cpu",
            "--set", *TINY, "model.dropout=0.3", "train.eval_every=4"]
    torchrun([*args, "--max-steps", "8"], tmp_path / "straight", env)
    torchrun([*args, "--max-steps", "4"], tmp_path / "split", env)
    torchrun([*args, "--max-steps", "8"], tmp_path / "split", env, "--resume")
    straight = torch.load(tmp_path / "straight/checkpoint-last.pt", weights_only=True)
    split = torch.load(tmp_path / "split/checkpoint-last.pt", weights_only=True)
    assert straight["step"] == split["step"] == 8
    for k, v in straight["model"].items():
        assert torch.equal(split["model"][k], v), k
    halfway = torch.load(tmp_path / "split/checkpoint-step4.pt", weights_only=True)
    assert len(halfway["rng_by_rank"]) == 2  # one generator state per rank
    assert not torch.equal(halfway["rng_by_rank"][0]["torch"], halfway["rng_by_rank"][1]["torch"])
    assert torch.equal(halfway["rng_by_rank"][0]["torch"], halfway["rng"]["torch"])
    for rank in (0, 1):  # both ranks ended in the same generator state as the straight run's
        assert torch.equal(split["rng_by_rank"][rank]["torch"], straight["rng_by_rank"][rank]["torch"]), rank


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _normalization_rank(rank: int, world: int, port: int, out: str) -> None:
    """One gloo rank: for each normalisation, one SGD step (lr 1, no clipping) over this rank's
    two micro-batches; rank 0 saves ``before - after`` (the applied gradient)."""
    from test_train import collate, reverse_task, sgd_step_delta, tiny_model

    from companion.training.distributed import cleanup, init_distributed

    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), RANK=str(rank), WORLD_SIZE=str(world),
                      LOCAL_RANK=str(rank))
    torch.set_num_threads(1)
    info = init_distributed("cpu")
    ex = reverse_task(9, seed=4)
    shards = [[ex[0:2], ex[2:5]], [ex[5:6], ex[6:9]]]  # unequal sentences and tokens per micro-batch
    deltas = {}
    for normalization in ("tokens", "sentences", "batch"):
        deltas[normalization] = sgd_step_delta(tiny_model(dropout=0.0), [collate(b) for b in shards[rank]],
                                               loss_normalization=normalization, dist=info)
    if rank == 0:
        torch.save(deltas, out)
    validated = []  # which ranks validate (and would decode for BLEU): rank 0 alone
    from companion.training.trainer import Trainer

    Trainer(tiny_model(dropout=0.0), [collate(b) for b in shards[rank]], [collate(ex[:3])], max_steps=2,
            eval_every=1, valid_bleu=True, validate_fn=lambda model: validated.append(rank) or {"valid_bleu": 0.0},
            dist=info, progress=False).fit()
    torch.save(validated, f"{out}.validated{rank}")
    cleanup()


@pytest.mark.slow
def test_ddp_gradient_is_the_papers_formula_for_every_normalization(tmp_path):
    """Two gloo ranks with two accumulation micro-batches each apply the gradient of the global
    batch's loss -- per token, per sentence, or summed -- as written out by hand; only rank 0
    validates (the BLEU decode of ``validate_fn`` included), the other waits."""
    import torch.multiprocessing as mp
    from test_train import papers_gradient, reverse_task, tiny_model

    out = tmp_path / "deltas.pt"
    mp.spawn(_normalization_rank, args=(2, _free_port(), str(out)), nprocs=2, join=True)
    deltas = torch.load(out, weights_only=True)
    assert torch.load(f"{out}.validated0") == [0, 0] and torch.load(f"{out}.validated1") == []
    ex = reverse_task(9, seed=4)
    for normalization, delta in deltas.items():
        hand = papers_gradient(tiny_model(dropout=0.0), ex, normalization)
        for g, d in zip(hand, delta):
            torch.testing.assert_close(d, g, rtol=1e-4, atol=1e-7, msg=normalization)


def test_single_process_defaults(monkeypatch):
    from companion.training.distributed import all_reduce_sum, init_distributed

    monkeypatch.delenv("WORLD_SIZE", raising=False)
    info = init_distributed("cpu")
    assert (info.rank, info.world_size, info.is_main, info.enabled) == (0, 1, True, False)
    assert info.device == torch.device("cpu")
    assert all_reduce_sum(7, info.device) == 7
