"""The Trainer: loss definition, evaluation, accumulation, clipping, presets, NaN, resume."""

from __future__ import annotations

import json
import math
import os
import signal

import pytest
import torch
import torch.nn.functional as F

from companion.training.checkpoint import load_checkpoint
from companion.data.batching import collate, lm_batches, make_loader
from companion.errors import ConfigError, TrainingError
from companion.models.charlm import CharLM
from companion.models.seq2seq import Seq2Seq
from companion.training.optim import (StepSchedule, inverse_sqrt_factor, linear_warmup_factor, make_optimizer, make_schedule, sutskever_factor)
from companion.specials import EOS, PAD
from companion.training.stream import BatchStream
from companion.training.trainer import History, Trainer, evaluate_loss, sequence_loss


def reverse_task(n: int, seed: int = 0, vocab: int = 20) -> list[tuple[list[int], list[int]]]:
    """``n`` examples: a random id sequence (+EOS) whose target is the sequence reversed."""
    g = torch.Generator().manual_seed(seed)
    out = []
    for _ in range(n):
        k = int(torch.randint(2, 8, (1,), generator=g))
        s = torch.randint(4, vocab, (k,), generator=g).tolist()
        out.append((s + [EOS], s[::-1]))
    return out


def tiny_model(seed: int = 0, dropout: float = 0.1) -> Seq2Seq:
    torch.manual_seed(seed)
    return Seq2Seq(20, 20, embed_dim=16, hidden_size=24, num_layers=1, dropout=dropout)


@pytest.fixture(autouse=True)
def one_thread():
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(old)


def test_sequence_loss_ignores_pad_and_counts_eos():
    batch = collate([([5, 6, EOS], [4, 5, 6]), ([7, EOS], [7])])
    assert batch.ntokens == 6  # 3 + EOS, 1 + EOS
    logits = torch.randn(2, 4, 9)
    total = sequence_loss(logits, batch.tgt_out)
    logp = F.log_softmax(logits, -1)
    manual = -sum(logp[b, t, batch.tgt_out[b, t]] for b in range(2) for t in range(4)
                  if batch.tgt_out[b, t] != PAD)
    assert torch.allclose(total, manual)
    # changing a logit at a PAD position changes nothing
    logits2 = logits.clone()
    logits2[1, 3] += 100.0
    assert torch.equal(sequence_loss(logits2, batch.tgt_out), total)


def test_evaluate_loss_is_token_weighted_not_mean_of_batch_means():
    ex = reverse_task(12)
    short = [e for e in ex if len(e[1]) <= 3][:3]
    long = [e for e in ex if len(e[1]) >= 5][:3]
    loader = [collate(short), collate(long)]
    model = tiny_model()
    mean, ppl, n = evaluate_loss(model, loader)
    model.eval()
    sums = [sequence_loss(model(b), b.tgt_out).item() for b in loader]
    counts = [b.ntokens for b in loader]
    assert n == sum(counts)
    assert mean == pytest.approx(sum(sums) / sum(counts), rel=1e-6)
    assert ppl == pytest.approx(math.exp(mean), rel=1e-9)
    assert mean != pytest.approx(sum(s / c for s, c in zip(sums, counts)) / 2, rel=1e-4)
    assert model.training is False  # evaluate_loss restores the mode it found


def test_fit_learns_and_writes_nothing_without_out_dir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ex = reverse_task(64)
    batches = [collate(ex[i:i + 8]) for i in range(0, 64, 8)]
    model = tiny_model()
    history = Trainer(model, batches, batches, max_steps=120, eval_every=40, lr=1e-2,
                      progress=False).fit()
    assert isinstance(history, History)
    assert history.steps == list(range(1, 121))
    assert len(history.train_loss) == len(history.lr) == 120
    assert [v["step"] for v in history.valid] == [40, 80, 120]
    assert history.valid[-1]["valid_nll"] < history.valid[0]["valid_nll"]
    assert history.train_loss[-1] < history.train_loss[0] - 0.5
    assert history.tokens == sum(b.ntokens for b in batches) * 15
    assert list(tmp_path.iterdir()) == []


def test_trainer_is_model_agnostic_char_lm():
    ids = torch.tensor([4 + (i * 7) % 11 for i in range(400)])
    batches = lm_batches(ids, batch_size=4, seq_len=16, shuffle=False)
    torch.manual_seed(0)
    model = CharLM(vocab_size=16, embed_dim=8, hidden_size=16)
    before = evaluate_loss(model, batches)[0]
    Trainer(model, batches, max_steps=60, lr=1e-2, progress=False).fit()
    assert evaluate_loss(model, batches)[0] < before - 0.5


def test_accumulation_equals_one_big_batch():
    ex = reverse_task(16, seed=3)
    a, b = ex[:8], ex[8:]
    m1, m2 = tiny_model(dropout=0.0), tiny_model(dropout=0.0)
    Trainer(m1, [collate(a), collate(b)], accum_steps=2, max_steps=1, preset="sutskever",
            init_uniform=0.0, progress=False).fit()
    Trainer(m2, [collate(a + b)], max_steps=1, preset="sutskever", init_uniform=0.0,
            progress=False).fit()
    for p1, p2 in zip(m1.parameters(), m2.parameters()):
        assert torch.allclose(p1, p2, atol=1e-6)


def test_clipping_is_counted_and_logged(tmp_path):
    ex = reverse_task(32)
    batches = [collate(ex[i:i + 8]) for i in range(0, 32, 8)]
    trainer = Trainer(tiny_model(), batches, clip_norm=1e-3, max_steps=6, log_every=3,
                      eval_every=0, out_dir=tmp_path, progress=False)
    history = trainer.fit()
    assert history.clipped == 6
    lines = [json.loads(x) for x in (tmp_path / "metrics.jsonl").read_text().splitlines()]
    assert [r["step"] for r in lines] == [3, 6]
    assert lines[0]["clip_rate"] == 1.0 and lines[0]["tokens_per_s"] > 0
    assert {"train_loss", "lr", "grad_norm", "epoch"} <= set(lines[0])
    history = Trainer(tiny_model(), batches, clip_norm=1e6, max_steps=3, progress=False).fit()
    assert history.clipped == 0


def test_checkpoints_last_best_and_rotation(tmp_path):
    ex = reverse_task(32)
    batches = [collate(ex[i:i + 8]) for i in range(0, 32, 8)]
    Trainer(tiny_model(), batches, batches, max_steps=20, eval_every=5, keep_last=2, lr=1e-2,
            out_dir=tmp_path, progress=False, run_config={"model": {"name": "x"}},
            vocab={"src": {"bytes": b"ab", "sha256": "00"}}).fit()
    names = sorted(p.name for p in tmp_path.glob("checkpoint-*.pt"))
    assert names == ["checkpoint-best.pt", "checkpoint-last.pt", "checkpoint-step15.pt",
                     "checkpoint-step20.pt"]
    last = torch.load(tmp_path / "checkpoint-last.pt", weights_only=True)
    assert last["step"] == 20 and last["config"] == {"model": {"name": "x"}}
    assert last["vocab"]["src"]["bytes"] == b"ab"
    best = load_checkpoint(tmp_path / "checkpoint-best.pt")
    assert best["best"] == min(v["valid_nll"] for v in best["history"]["valid"])
    assert not list(tmp_path.glob(".*tmp*"))


def test_unknown_option_is_a_config_error():
    with pytest.raises(ConfigError, match="unknown option 'lrr'"):
        Trainer(tiny_model(), [], lrr=0.1)


def test_nan_stops_with_step_and_keeps_last_good_checkpoint(tmp_path):
    ex = reverse_task(32)
    batches = [collate(ex[i:i + 8]) for i in range(0, 32, 8)]
    model = tiny_model()
    calls = {"n": 0}

    def poison(module, inputs, output):
        calls["n"] += 1
        return output * float("nan") if calls["n"] == 7 else output

    model.generator.register_forward_hook(poison)
    trainer = Trainer(model, batches, max_steps=20, eval_every=5, out_dir=tmp_path, progress=False)
    with pytest.raises(TrainingError, match=r"non-finite loss \(nan\) at step 7.*checkpoint-last.pt"):
        trainer.fit()
    assert load_checkpoint(tmp_path / "checkpoint-last.pt")["step"] == 5
    assert all(torch.isfinite(p).all() for p in model.parameters())


def test_non_finite_gradient_stops_training():
    batches = [collate(reverse_task(8))]
    model = tiny_model()
    calls = {"n": 0}

    def poison(grad):
        calls["n"] += 1
        return grad * float("inf") if calls["n"] == 2 else grad

    model.generator.weight.register_hook(poison)
    before = [p.detach().clone() for p in model.parameters()]
    trainer = Trainer(model, batches, max_steps=5, progress=False)
    with pytest.raises(TrainingError, match=r"non-finite gradient norm \((inf|nan)\) at step 2"):
        trainer.fit()
    assert trainer.step == 1  # the bad step was not applied
    assert all(torch.isfinite(p).all() for p in model.parameters())
    assert any(not torch.equal(a, b) for a, b in zip(before, model.parameters()))


def test_debug_nan_option_names_the_step():
    batches = [collate(reverse_task(8))]
    with pytest.raises(TrainingError, match="at step 3"):
        Trainer(tiny_model(), batches, max_steps=5, debug_nan_step=3, progress=False).fit()


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_signal_saves_and_stops(tmp_path, signum):
    batches = [collate(reverse_task(8))]
    model = tiny_model()
    calls = {"n": 0}

    def interrupt(module, inputs, output):
        calls["n"] += 1
        if calls["n"] == 4:
            os.kill(os.getpid(), signum)

    model.generator.register_forward_hook(interrupt)
    before = signal.getsignal(signum)
    history = Trainer(model, batches, max_steps=50, out_dir=tmp_path, progress=False).fit()
    assert history.interrupted == signum
    assert load_checkpoint(tmp_path / "checkpoint-last.pt")["step"] == 4
    assert signal.getsignal(signum) is before  # handlers restored


def test_max_epochs_stops_training():
    ex = reverse_task(32)
    batches = [collate(ex[i:i + 8]) for i in range(0, 32, 8)]
    history = Trainer(tiny_model(), batches, max_steps=100, max_epochs=1.5, progress=False).fit()
    assert history.steps[-1] == 6


def test_precision_contexts():
    from contextlib import nullcontext

    from companion.training.trainer import autocast_for

    assert isinstance(autocast_for(torch.device("cpu")), nullcontext)
    assert isinstance(autocast_for(torch.device("cpu"), "bf16"), nullcontext)
    with pytest.warns(UserWarning) if not torch.cuda.is_available() else nullcontext():
        ctx = autocast_for(torch.device("cuda"))
    assert isinstance(ctx, torch.autocast) and ctx.fast_dtype == torch.bfloat16
    assert isinstance(autocast_for(torch.device("cuda"), "fp32"), nullcontext)


def _fit(model, loader, out_dir=None, resume=None, max_steps=30):
    valid = make_loader(reverse_task(10, seed=9), max_tokens=40, shuffle=False)
    trainer = Trainer(model, loader, valid, max_steps=max_steps, eval_every=10, lr=3e-3,
                      out_dir=out_dir, progress=False)
    if resume is not None:
        trainer.resume(resume)
    trainer.fit()
    return model


def test_exact_resume_mid_epoch_with_dropout(tmp_path):
    ex = reverse_task(40)
    loader = make_loader(ex, max_tokens=40, shuffle=True, seed=1)
    assert 30 % len(loader) != 0 and len(loader) < 15  # several epochs, resume mid-epoch
    straight = _fit(tiny_model(dropout=0.3), loader)
    _fit(tiny_model(dropout=0.3), loader, out_dir=tmp_path, max_steps=17)
    torch.manual_seed(1234)  # the resumed run must not depend on the generator it finds
    resumed = _fit(tiny_model(dropout=0.3), loader, resume=tmp_path / "checkpoint-last.pt")
    for (name, p1), p2 in zip(straight.named_parameters(), resumed.parameters()):
        assert torch.equal(p1, p2), name


def test_batch_stream_positions_and_epochs():
    stream = BatchStream(["a", "b", "c"])
    assert [stream.next() for _ in range(4)] == ["a", "b", "c", "a"]
    assert (stream.epoch, stream.position) == (1, 1)
    again = BatchStream(["a", "b", "c"], epoch=1, position=1)
    assert again.next() == "b"
    with pytest.raises(TrainingError, match="empty"):
        BatchStream([]).next()


def test_presets_have_the_papers_hyper_parameters():
    params = [torch.nn.Parameter(torch.zeros(2))]
    sgd = make_optimizer(params, "sutskever")
    assert isinstance(sgd, torch.optim.SGD)
    assert sgd.defaults["lr"] == 0.7 and sgd.defaults["momentum"] == 0.0
    ada = make_optimizer(params, "bahdanau")
    assert isinstance(ada, torch.optim.Adadelta)
    assert (ada.defaults["rho"], ada.defaults["eps"]) == (0.95, 1e-6)
    adam = make_optimizer(params, "vaswani")
    assert adam.defaults["betas"] == (0.9, 0.98) and adam.defaults["eps"] == 1e-9
    assert make_optimizer(params, "adam", lr=0.01).defaults["lr"] == 0.01
    with pytest.raises(ConfigError, match="unknown preset 'sgd'"):
        make_optimizer(params, "sgd")


def test_sutskever_schedule_halves_every_half_epoch_after_five():
    n = 100
    assert [sutskever_factor(s, n) for s in (1, 499)] == [1.0, 1.0]
    assert sutskever_factor(500, n) == 0.5
    assert sutskever_factor(549, n) == 0.5
    assert sutskever_factor(550, n) == 0.25
    assert sutskever_factor(750, n) == 0.5 ** 6
    opt = make_optimizer([torch.nn.Parameter(torch.zeros(1))], "sutskever")
    sched = make_schedule(opt, "sutskever", steps_per_epoch=n)
    lrs = [sched.step() for _ in range(550)]
    assert lrs[0] == 0.7 and lrs[499] == 0.35 and lrs[549] == pytest.approx(0.175)
    with pytest.raises(ConfigError, match="batches per epoch"):
        make_schedule(opt, "sutskever")


def test_vaswani_schedule_peaks_at_warmup():
    f = [inverse_sqrt_factor(s, 4000, 512) for s in (1, 2000, 4000, 8000)]
    assert f[0] < f[1] < f[2] > f[3]
    assert f[2] == pytest.approx(512 ** -0.5 * 4000 ** -0.5)
    opt = make_optimizer([torch.nn.Parameter(torch.zeros(1))], "vaswani")
    sched = make_schedule(opt, "vaswani", warmup_steps=10, d_model=64)
    sched.step()
    state = sched.state_dict()
    again = StepSchedule(opt, lambda s: 1.0)
    again.load_state_dict(state)
    assert again.last_step == 1 and again.base_lrs == [1.0]
    assert [linear_warmup_factor(s, 4) for s in (1, 2, 4, 9)] == [0.25, 0.5, 1.0, 1.0]
    assert linear_warmup_factor(1, 0) == 1.0


def test_sutskever_preset_initialises_uniformly():
    model = tiny_model()
    Trainer(model, [collate(reverse_task(4))], preset="sutskever", init_uniform=0.01,
            max_steps=0, progress=False)
    assert max(float(p.detach().abs().max()) for p in model.parameters()) <= 0.01


def test_curves_from_history_and_metrics(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    from companion.errors import DataError
    from companion.plots.curves import plot_curves, read_metrics

    ex = reverse_task(32)
    batches = [collate(ex[i:i + 8]) for i in range(0, 32, 8)]
    history = Trainer(tiny_model(), batches, batches, max_steps=6, eval_every=3, log_every=2,
                      out_dir=tmp_path, progress=False).fit()
    train, valid = read_metrics(tmp_path)
    assert [r["step"] for r in train] == [2, 4, 6] and [r["step"] for r in valid] == [3, 6]
    ax = plot_curves(tmp_path, perplexity=True, label="tiny")
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["tiny: train", "tiny: valid"]
    assert ax.get_yscale() == "log"
    ax = plot_curves(history)
    assert len(ax.lines[0].get_xdata()) == 6
    assert ax.lines[1].get_ydata()[-1] == pytest.approx(history.valid[-1]["valid_nll"])
    with pytest.raises(DataError, match="metrics file not found"):
        read_metrics(tmp_path / "nowhere")
    (tmp_path / "bad.jsonl").write_text("{\n")
    with pytest.raises(DataError, match="bad.jsonl:1: not a JSON object"):
        read_metrics(tmp_path / "bad.jsonl")


def test_compile_option_wraps_the_model(monkeypatch):
    seen = []

    def fake_compile(module):
        seen.append(module)
        return module

    monkeypatch.setattr(torch, "compile", fake_compile)
    model = tiny_model()
    trainer = Trainer(model, [collate(reverse_task(4))], compile=True, max_steps=1, progress=False)
    assert seen == [model] and trainer.raw_model is model
    trainer.fit()
