"""The Trainer: loss definition, evaluation, accumulation, clipping, presets, NaN, resume."""

from __future__ import annotations

import io
import json
import math
import os
import signal

import pytest
import torch
import torch.nn.functional as F

from companion.training.checkpoint import load_checkpoint
from companion.data.batching import collate, lm_batches, make_loader
from companion.errors import CheckpointError, ConfigError, TrainingError
from companion.models.charlm import CharLM
from companion.models.seq2seq import Seq2Seq
from companion.training.optim import (StepSchedule, init_uniform_, inverse_sqrt_factor, linear_warmup_factor,
                                      make_optimizer, make_schedule, sutskever_factor)
from companion.specials import EOS, PAD
from companion.training.resume import Resets
from companion.training.stream import BatchStream
from companion.training.trainer import (History, Trainer, autocast_for, evaluate_loss, sequence_loss,
                                        validation_line)


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
def _one_thread(one_thread):
    """Every test here on one thread (see conftest.one_thread)."""


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
            progress=False).fit()
    Trainer(m2, [collate(a + b)], max_steps=1, preset="sutskever", progress=False).fit()
    for p1, p2 in zip(m1.parameters(), m2.parameters()):
        assert torch.allclose(p1, p2, atol=1e-6)


def papers_gradient(model, examples, normalization):
    """The gradient of the loss written out sentence by sentence, one sentence at a time (no
    batching, no padding): ``sum_n sum_t -log p(y_t^n | y_<t^n, x^n)`` over every target token
    and EOS, divided by the number of sentences (Sutskever et al. 2014: the gradient "divided by
    the size of the batch (namely, 128)"), by the number of target tokens, or by nothing."""
    model.zero_grad(set_to_none=True)
    total = torch.zeros(())
    for src, tgt in examples:
        log_p = torch.log_softmax(model(collate([(src, tgt)])), dim=-1)[0]
        for t, y in enumerate(tgt + [EOS]):
            total = total - log_p[t, y]
    count = {"sentences": len(examples), "tokens": sum(len(t) + 1 for _, t in examples), "batch": 1}
    (total / count[normalization]).backward()
    grads = [p.grad.detach().clone() for p in model.parameters()]
    model.zero_grad(set_to_none=True)
    return grads


def sgd_step_delta(model, micro_batches, **options):
    """``before - after`` of one Trainer step of plain SGD at lr 1 without clipping: the gradient
    the Trainer applied."""
    before = [p.detach().clone() for p in model.parameters()]
    Trainer(model, micro_batches, accum_steps=len(micro_batches), preset="sutskever", lr=1.0, clip_norm=0.0,
            max_steps=1, progress=False, **options).fit()
    return [b - p.detach() for b, p in zip(before, model.parameters())]


@pytest.mark.parametrize("normalization", ["tokens", "sentences", "batch"])
def test_gradient_is_the_papers_formula_under_accumulation(normalization):
    ex = reverse_task(9, seed=4)
    hand = papers_gradient(tiny_model(dropout=0.0), ex, normalization)
    # the same nine sentences as two micro-batches of unequal size and length
    delta = sgd_step_delta(tiny_model(dropout=0.0), [collate(ex[:3]), collate(ex[3:])],
                           loss_normalization=normalization)
    for (name, _), g, d in zip(tiny_model().named_parameters(), hand, delta):
        torch.testing.assert_close(d, g, rtol=1e-4, atol=1e-7, msg=name)
    if normalization != "tokens":  # and it is not the per-token mean scaled by a constant
        tokens = papers_gradient(tiny_model(dropout=0.0), ex, "tokens")
        assert not torch.allclose(hand[0], tokens[0], rtol=1e-3)


def test_logged_loss_is_the_token_mean_whatever_the_normalization():
    ex = reverse_task(8, seed=2)
    losses = {n: Trainer(tiny_model(dropout=0.0), [collate(ex)], max_steps=1, loss_normalization=n,
                         progress=False).fit().train_loss[0] for n in ("tokens", "sentences", "batch")}
    assert losses["tokens"] == losses["sentences"] == losses["batch"]
    with pytest.raises(ConfigError, match="train.loss_normalization: expected one of 'tokens', 'sentences', "
                                          "'batch', got 'mean'"):
        Trainer(tiny_model(), [collate(ex)], loss_normalization="mean")


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
    last = load_checkpoint(tmp_path / "checkpoint-last.pt")
    assert last["step"] == 20 and last["config"]["model"] == {"name": "x"}
    assert last["config"]["train"]["keep_last"] == 2 and last["resumes"] == []  # the Trainer's own options
    assert last["vocab"]["src"]["bytes"] == b"ab"
    best = load_checkpoint(tmp_path / "checkpoint-best.pt")
    evals = [json.loads(x) for x in (tmp_path / "metrics.jsonl").read_text().splitlines() if "valid_nll" in x]
    assert best["best"] == min(v["valid_nll"] for v in evals if v["step"] <= best["step"])
    assert not list(tmp_path.glob(".*tmp*"))


def test_checkpoint_size_does_not_grow_with_steps(tmp_path):
    ex = reverse_task(32)
    batches = [collate(ex[i:i + 8]) for i in range(0, 32, 8)]
    Trainer(tiny_model(), batches, batches[:1], max_steps=100, eval_every=4, log_every=1, keep_last=100,
            out_dir=tmp_path, progress=False).fit()
    early = load_checkpoint(tmp_path / "checkpoint-step4.pt")
    late = load_checkpoint(tmp_path / "checkpoint-step100.pt")
    assert "history" not in late and early.keys() == late.keys()
    sizes = {s: (tmp_path / f"checkpoint-step{s}.pt").stat().st_size for s in (4, 100)}
    assert abs(sizes[100] - sizes[4]) <= 16, sizes  # 100 steps of history would add kilobytes
    steps = [json.loads(x)["step"] for x in (tmp_path / "metrics.jsonl").read_text().splitlines()
             if "train_loss" in x]
    assert steps == list(range(1, 101))  # the per-step record lives in metrics.jsonl


def test_history_after_resume_is_what_was_trained_since(tmp_path):
    ex = reverse_task(32)
    batches = [collate(ex[i:i + 8]) for i in range(0, 32, 8)]
    first = Trainer(tiny_model(), batches, batches[:1], max_steps=6, eval_every=3, out_dir=tmp_path,
                    progress=False).fit()
    trainer = Trainer(tiny_model(), batches, batches[:1], max_steps=10, eval_every=3, out_dir=tmp_path,
                      progress=False)
    trainer.resume(tmp_path / "checkpoint-last.pt")
    history = trainer.fit()
    assert first.steps == [1, 2, 3, 4, 5, 6] and history.steps == [7, 8, 9, 10]
    assert [v["step"] for v in history.valid] == [9, 10]
    assert history.tokens == sum(b.ntokens for b in batches) and history.clipped <= 4
    evals = [json.loads(x)["step"] for x in (tmp_path / "metrics.jsonl").read_text().splitlines()
             if "valid_nll" in x]
    assert evals == [3, 6, 9, 10]  # the whole run


def _first_run(tmp_path, **options):
    ex = reverse_task(32)
    batches = [collate(ex[i:i + 8]) for i in range(0, 32, 8)]
    Trainer(tiny_model(), batches, max_steps=3, eval_every=0, out_dir=tmp_path, progress=False, **options).fit()
    return batches


def test_resume_uses_the_configs_learning_rate_only_with_a_schedule_reset(tmp_path):
    """The stored schedule used to win: a resume asked for lr 0.5 trained at the stored 1e-3."""
    batches = _first_run(tmp_path, lr=1e-3)
    trainer = Trainer(tiny_model(), batches, max_steps=5, lr=0.5, progress=False)
    with pytest.raises(CheckpointError) as err:
        trainer.resume(tmp_path / "checkpoint-last.pt")
    assert str(err.value) == (f"{tmp_path / 'checkpoint-last.pt'}: the run was trained with other settings: "
                              "train.lr 0.001 -> 0.5 (needs --reset-schedule); resume with the checkpoint's values, "
                              "pass the --reset flags named to change them deliberately, or start a new --out")
    changes = trainer.resume(tmp_path / "checkpoint-last.pt", Resets(schedule=True))
    assert changes == [("train.lr", 1e-3, 0.5)]
    assert trainer.fit().lr == [0.5, 0.5]
    same = Trainer(tiny_model(), batches, max_steps=5, lr=1e-3, eval_every=0, max_epochs=9.0, log_every=1,
                   progress=False)
    assert same.resume(tmp_path / "checkpoint-last.pt") == []  # when to stop and log are free
    assert same.fit().lr == [1e-3, 1e-3]


def test_resume_with_another_preset_needs_both_resets_and_then_trains(tmp_path):
    """Adam's state loaded into Adadelta used to raise KeyError: 'rho'."""
    batches = _first_run(tmp_path, preset="adam")
    for preset in ("bahdanau", "sutskever"):
        trainer = Trainer(tiny_model(), batches, preset=preset, max_steps=5, clip_norm=1.0, progress=False)
        with pytest.raises(CheckpointError, match=rf"train.clip_norm 5.0 -> 1.0 \(needs --reset-optimizer\), "
                                                  rf"train.preset 'adam' -> '{preset}' \(needs --reset-optimizer "
                                                  rf"and --reset-schedule\)"):
            trainer.resume(tmp_path / "checkpoint-last.pt")
        with pytest.raises(CheckpointError, match=rf"train.preset 'adam' -> '{preset}' \(needs --reset-optimizer "
                                                  rf"and --reset-schedule\); resume"):
            trainer.resume(tmp_path / "checkpoint-last.pt", Resets(optimizer=True))
        trainer.resume(tmp_path / "checkpoint-last.pt", Resets(optimizer=True, schedule=True))
        assert trainer.fit().steps == [4, 5]
        assert isinstance(trainer.optimizer, torch.optim.Adadelta if preset == "bahdanau" else torch.optim.SGD)


def test_free_options_may_change_on_resume_and_the_rest_is_named():
    from companion.config import Config
    from companion.training.resume import check_resume_config, complete_config

    stored = complete_config(Config().to_dict())
    free = complete_config(Config().to_dict())
    free["decode"].update(beam_size=2, length_penalty=0.6, max_len_b=50)
    free["train"].update(max_steps=9, eval_every=3, log_every=1, keep_last=7, threads=2, precision="bf16",
                         compile=True, valid_bleu=True)
    free["data"].update(num_workers=2, valid_max_sentences=10)
    assert check_resume_config(stored, free, "c.pt") == []
    changed = complete_config(Config().to_dict())
    changed["model"]["hidden_size"] = 7
    changed["data"]["tgt_vocab_size"] = 77
    changed["train"]["accum_steps"] = 2
    with pytest.raises(CheckpointError) as err:
        check_resume_config(stored, changed, "c.pt", Resets(schedule=True, data=True))
    assert str(err.value) == (
        "c.pt: the run was trained with other settings: data.tgt_vocab_size 1000 -> 77 (fixed for the run), "
        "model.hidden_size 256 -> 7 (fixed for the run), train.accum_steps 1 -> 2 (needs --reset-optimizer); "
        "resume with the checkpoint's values, pass the --reset flags named to change them deliberately, "
        "or start a new --out")


def test_resume_with_a_data_reset_starts_the_next_epoch_in_the_new_order(tmp_path):
    ex = reverse_task(40)
    loader = make_loader(ex, max_tokens=40, shuffle=True, seed=1)
    Trainer(tiny_model(), loader, max_steps=3, eval_every=0, seed=1, out_dir=tmp_path, progress=False).fit()
    other = make_loader(ex, max_tokens=60, shuffle=True, seed=2)
    trainer = Trainer(tiny_model(), other, max_steps=5, seed=2, progress=False)
    with pytest.raises(CheckpointError, match=r"train.seed 1 -> 2 \(needs --reset-data\)"):
        trainer.resume(tmp_path / "checkpoint-last.pt")
    trainer.resume(tmp_path / "checkpoint-last.pt", Resets(data=True))
    assert (trainer.stream.epoch, trainer.stream.position, trainer.step) == (1, 0, 3)


def test_unknown_option_is_a_config_error():
    with pytest.raises(ConfigError, match="unknown option 'lrr'"):
        Trainer(tiny_model(), [], lrr=0.1)
    with pytest.raises(ConfigError, match="option 'init_uniform' was removed: initialisation belongs to the model"):
        Trainer(tiny_model(), [], init_uniform=0.08)


@pytest.mark.parametrize("options, message", [
    (dict(accum_steps=0), "Trainer: train.accum_steps must be an integer >= 1, got 0"),
    (dict(log_every=0), "Trainer: train.log_every must be an integer >= 1, got 0"),
    (dict(preset="sgd"), "Trainer: train.preset must be one of 'adam', 'sutskever', 'bahdanau', 'vaswani', got 'sgd'"),
    (dict(precision="fp8"), "Trainer: train.precision: expected one of 'auto', 'fp32', 'bf16', 'fp16', got 'fp8'"),
    (dict(max_steps="10"), "Trainer: train.max_steps: expected int, got '10'"),
    (dict(seed=-1), "Trainer: train.seed must be an integer >= 0, got -1"),
    (dict(threads=0), "Trainer: train.threads must be an integer >= 1, got 0"),
    (dict(eval_every=-1), "Trainer: train.eval_every must be an integer >= 0, got -1"),
    (dict(valid_bleu=True), "Trainer: valid_bleu=True needs a validate_fn that computes it"),
    (dict(device="gpu"), "Trainer: device gpu: not a device (expected cpu, cuda or cuda:N)"),
])
def test_bad_options_are_one_line_config_errors(options, message):
    batches = [collate(reverse_task(4))]
    with pytest.raises(ConfigError) as err:
        Trainer(tiny_model(), batches, progress=False, **options).fit()
    assert str(err.value).startswith(message) and "\n" not in str(err.value)


def test_seed_threads_and_deterministic_are_applied_when_given():
    batches = [collate(reverse_task(16))]

    def run(**options):
        model = tiny_model(dropout=0.5)
        torch.manual_seed(99)  # whatever the caller left in the generator
        Trainer(model, batches, max_steps=3, progress=False, **options).fit()
        return torch.cat([p.detach().flatten() for p in model.parameters()])

    assert torch.equal(run(seed=3), run(seed=3))
    assert not torch.equal(run(seed=3), run(seed=4))  # the seed draws the dropout masks
    model = tiny_model()
    torch.manual_seed(5)
    Trainer(model, batches, seed=7, progress=False)
    assert torch.equal(torch.rand(3), torch.rand(3, generator=torch.Generator().manual_seed(7)))
    torch.manual_seed(5)
    expected = torch.rand(3)
    torch.manual_seed(5)
    Trainer(model, batches, progress=False)  # none given: the generators are left alone
    assert torch.equal(torch.rand(3), expected)
    Trainer(tiny_model(), batches, threads=1, deterministic=False, progress=False)
    assert torch.get_num_threads() == 1 and not torch.are_deterministic_algorithms_enabled()
    Trainer(tiny_model(), batches, deterministic=True, progress=False)
    assert torch.are_deterministic_algorithms_enabled()


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

    cpu = torch.device("cpu")
    assert isinstance(autocast_for(cpu), nullcontext) and isinstance(autocast_for(cpu, "fp32"), nullcontext)
    ctx = autocast_for(cpu, "bf16")
    assert isinstance(ctx, torch.autocast) and ctx.fast_dtype == torch.bfloat16 and ctx.device == "cpu"
    ctx = autocast_for(cpu, "fp16")
    assert isinstance(ctx, torch.autocast) and ctx.fast_dtype == torch.float16
    with pytest.raises(ConfigError, match="precision must be one of 'auto', 'fp32', 'bf16', 'fp16', got 'fp8'"):
        autocast_for(cpu, "fp8")


def _cpu_bf16_lstm() -> bool:
    """Whether this CPU's oneDNN runs an LSTM under bf16 autocast (not on an AVX2-only CPU)."""
    try:
        with torch.autocast("cpu", dtype=torch.bfloat16):
            torch.nn.LSTM(4, 4)(torch.zeros(2, 1, 4))
        return True
    except RuntimeError:
        return False


def test_bf16_autocast_trains_on_cpu_close_to_fp32():
    """bf16 autocast on CPU trains close to fp32; where the CPU has no bf16 LSTM kernel, the
    Trainer says so in one line (never a oneDNN traceback)."""
    ex = reverse_task(32, seed=5)
    batches = [collate(ex[i:i + 16]) for i in range(0, 32, 16)]
    seen, results = [], {}
    if not _cpu_bf16_lstm():
        with pytest.raises(ConfigError, match="bf16 autocast needs oneDNN bf16 kernels .* use precision fp32"):
            Trainer(tiny_model(dropout=0.0), batches, max_steps=2, lr=1e-2, precision="bf16", progress=False).fit()
        return
    for precision in ("fp32", "bf16"):
        model = tiny_model(dropout=0.0)
        hook = model.generator.register_forward_hook(lambda m, i, out: seen.append((precision, out.dtype)))
        history = Trainer(model, batches, max_steps=2, lr=1e-2, precision=precision, progress=False).fit()
        hook.remove()
        results[precision] = (history.train_loss, model)
    assert {d for p, d in seen if p == "fp32"} == {torch.float32}
    assert {d for p, d in seen if p == "bf16"} == {torch.bfloat16}  # the matmuls ran in bf16
    fp32, bf16 = results["fp32"][0], results["bf16"][0]
    assert all(math.isfinite(x) for x in bf16)
    assert bf16[0] == pytest.approx(fp32[0], rel=2e-2)  # same weights, bf16 rounding only
    assert bf16 != fp32  # and the rounding is there
    for p in results["bf16"][1].parameters():
        assert p.dtype == torch.float32  # autocast leaves the weights (and the optimiser) in fp32


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
    with pytest.raises(ConfigError, match="train.preset must be one of 'adam', 'sutskever', 'bahdanau', 'vaswani', got 'sgd'"):
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


def test_building_a_trainer_never_touches_the_weights(tmp_path):
    model = tiny_model()
    before = {k: v.clone() for k, v in model.state_dict().items()}
    assert torch.count_nonzero(model.src_embed.weight[PAD]) == 0
    for preset in ("sutskever", "adam", "bahdanau", "vaswani"):
        Trainer(model, [collate(reverse_task(4))], preset=preset, seed=3, progress=False)
        for k, v in model.state_dict().items():
            assert torch.equal(v, before[k]), (preset, k)  # PAD rows stay zero, loaded weights stay


def test_init_uniform_is_an_explicit_call():
    model = tiny_model()
    init_uniform_(model, 0.01)
    values = torch.cat([p.detach().flatten() for p in model.parameters()])
    assert float(values.abs().max()) <= 0.01 and float(values.std()) > 0.004  # U(-a, a): std a/sqrt(3)


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


@pytest.mark.slow
def test_compile_option_trains_a_compiled_model(monkeypatch):
    """``compile=True`` goes through ``torch.compile`` with its default backend, inductor, which
    generates and compiles C++ kernels with the machine's compiler (gcc here): about a minute cold,
    ten seconds from inductor's cache. The compiled model trains the same parameters as the
    uncompiled one."""
    import torch._inductor.compile_fx as inductor

    compiled = []
    real_compile_fx = inductor.compile_fx

    def counting_compile_fx(*args, **kwargs):  # what the inductor backend calls for each graph
        compiled.append(1)
        return real_compile_fx(*args, **kwargs)

    monkeypatch.setattr(inductor, "compile_fx", counting_compile_fx)
    torch._dynamo.reset()
    batches = [collate(reverse_task(8, seed=s)) for s in range(2)]
    plain, model = tiny_model(dropout=0.0), tiny_model(dropout=0.0)
    Trainer(plain, batches, max_steps=3, lr=1e-2, progress=False).fit()
    trainer = Trainer(model, batches, compile=True, max_steps=3, lr=1e-2, progress=False)
    assert isinstance(trainer.model, torch._dynamo.eval_frame.OptimizedModule) and trainer.raw_model is model
    history = trainer.fit()
    assert history.steps == [1, 2, 3]
    assert len(compiled) >= 1  # inductor compiled (or took from its cache) the graphs that ran
    for (name, a), b in zip(plain.named_parameters(), model.parameters()):
        assert torch.allclose(a, b, atol=1e-5), name
    assert not torch.equal(plain.generator.weight, tiny_model(dropout=0.0).generator.weight)  # it trained
    torch._dynamo.reset()


def test_validation_lines_go_to_the_log_stream(capsys):
    ex = reverse_task(32)
    batches = [collate(ex[i:i + 8]) for i in range(0, 32, 8)]
    stream = io.StringIO()
    Trainer(tiny_model(), batches, batches[:2], max_steps=8, eval_every=4, lr=1e-2, log_stream=stream,
            progress=False).fit()
    lines = [x for x in stream.getvalue().splitlines() if " | valid ppl " in x]  # (and precision, progress)
    assert len(lines) == 2
    assert lines[0].startswith("step 4/8 | epoch 1.00 | train loss ") and "| valid ppl " in lines[0]
    assert lines[1].startswith("step 8/8 | epoch 2.00 | train loss ")
    assert all(line.endswith(" s") for line in lines)
    assert "| best |" in lines[0]  # the first evaluation is always the best so far
    capsys.readouterr()
    Trainer(tiny_model(), batches, batches[:2], max_steps=4, eval_every=2, progress=False).fit()
    assert capsys.readouterr() == ("", "")  # without a log_stream (a chapter's call) nothing is printed


def test_validation_line_format():
    rec = {"step": 500, "valid_ppl": 24.514, "valid_nll": 3.2, "valid_bleu": 12.3}
    line = validation_line(rec, epoch=1.25, train_loss=3.21398, best=True, seconds=61.4, max_steps=2000)
    assert line == "step 500/2000 | epoch 1.25 | train loss 3.2140 | valid ppl 24.51 | valid BLEU 12.30 | best | 61 s"
    line = validation_line({"step": 3, "valid_ppl": 9.0}, epoch=0.5, train_loss=None, best=False, seconds=0.2)
    assert line == "step 3 | epoch 0.50 | valid ppl 9.00 | 0 s"


def test_resume_with_weights_of_another_family_is_one_line_naming_both(tmp_path):
    """A Trainer handed a checkpoint of another model family used to show torch's raw
    'Error(s) in loading state_dict' with every key; now one line names the two families."""
    from companion.models import build_model

    batches = _first_run(tmp_path, lr=1e-3)
    other = build_model({"name": "transformer", "d_model": 16, "num_heads": 2, "num_encoder_layers": 1,
                         "num_decoder_layers": 1, "d_ff": 32}, 20, 20)
    state = load_checkpoint(tmp_path / "checkpoint-last.pt")
    state["model"] = other.state_dict()
    trainer = Trainer(tiny_model(), batches, max_steps=5, lr=1e-3, progress=False)
    with pytest.raises(CheckpointError) as err:
        trainer.load_state_dict(state, source="run/checkpoint-last.pt")
    message = str(err.value)
    assert "\n" not in message and message.startswith("run/checkpoint-last.pt: its weights do not fit")
    assert "the weights are a transformer model's, the config builds a seq2seq" in message
