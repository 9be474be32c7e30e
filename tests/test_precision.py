"""Precision: what ``auto`` picks on each kind of device, and fp16 training with loss scaling
(run on the CPU, where torch offers float16 autocast and a GradScaler)."""

from __future__ import annotations

import io
import math

import pytest
import torch

from companion.config import TrainConfig
from companion.data.batching import make_loader
from companion.errors import ConfigError
from companion.models.transformer import Transformer
from companion.training import trainer as T
from companion.training.trainer import Trainer, autocast_for, precision_line, resolve_precision
from test_train import reverse_task, tiny_model


@pytest.fixture(autouse=True)
def _one_thread(one_thread):
    """Every test here on one thread (see conftest.one_thread)."""


def fake_cuda(monkeypatch, native: bool) -> list:
    """A CUDA device that emulates bf16 (V100, T4: ``native=False``) or has it (A100, H100)."""
    calls = []

    def is_bf16_supported(including_emulation: bool = True) -> bool:
        calls.append(including_emulation)
        return native or including_emulation  # torch counts emulated bf16 as supported by default

    monkeypatch.setattr(torch.cuda, "is_bf16_supported", is_bf16_supported)
    return calls


@pytest.mark.parametrize("native,expected", [(True, "bf16"), (False, "fp16")])
def test_auto_picks_bf16_only_where_the_gpu_has_it_natively(monkeypatch, native, expected):
    calls = fake_cuda(monkeypatch, native)
    cuda = torch.device("cuda:0")
    assert resolve_precision("auto", cuda) == expected and calls == [False]
    assert resolve_precision("auto", torch.device("cpu")) == "fp32"
    for explicit in ("fp32", "bf16", "fp16"):
        assert resolve_precision(explicit, cuda) == explicit
    assert precision_line("auto", expected, cuda) == {
        "bf16": "precision: bf16 (auto on cuda:0: native bf16; bf16 autocast, float32 weights and loss)",
        "fp16": "precision: fp16 (auto on cuda:0: no native bf16; float16 autocast with loss scaling, float32 "
                "weights and loss)"}[expected]


def test_fp16_is_a_precision_of_the_config():
    assert TrainConfig(precision="fp16").precision == "fp16"
    with pytest.raises(ConfigError, match="train.precision"):
        TrainConfig(precision="fp8")


def test_fp16_autocast_computes_in_float16_on_the_cpu():
    layer = torch.nn.Linear(4, 3)
    with autocast_for(torch.device("cpu"), "fp16"):
        assert layer(torch.randn(2, 4)).dtype == torch.float16
    with autocast_for(torch.device("cpu"), "auto"):
        assert layer(torch.randn(2, 4)).dtype == torch.float32


def tiny_transformer(seed: int = 0) -> Transformer:
    torch.manual_seed(seed)
    return Transformer(20, 20, d_model=16, num_heads=2, num_encoder_layers=1, num_decoder_layers=1, d_ff=32,
                       dropout=0.0, pre_ln=True)


def _trainer(precision: str, log=None, **options) -> Trainer:
    loader = make_loader(reverse_task(64), max_tokens=120, shuffle=True, seed=0)
    options = {"max_steps": 20, **options}
    return Trainer(tiny_transformer(), loader, make_loader(reverse_task(16, seed=1), max_tokens=200, shuffle=False),
                   preset="adam", lr=3e-3, eval_every=0, progress=False, precision=precision, log_stream=log,
                   **options)


def test_fp16_on_the_cpu_refuses_a_recurrent_model_in_one_line():
    loader = make_loader(reverse_task(8), max_tokens=120, shuffle=True, seed=0)
    with pytest.raises(ConfigError) as err:
        Trainer(tiny_model(), loader, max_steps=2, progress=False, precision="fp16")
    assert str(err.value) == ("Trainer: precision fp16 on the CPU: torch has no float16 CPU kernels for the recurrent "
                              "layers of Seq2Seq; use bf16 or fp32 (fp16 is meant for CUDA devices without native "
                              "bf16)")


def test_fp16_trains_with_a_grad_scaler_and_says_so():
    log = io.StringIO()
    trainer = _trainer("fp16", log)
    assert isinstance(trainer.scaler, torch.amp.GradScaler)
    history = trainer.fit()
    assert log.getvalue().splitlines()[0] == ("precision: fp16 (cpu: float16 autocast with loss scaling, float32 "
                                              "weights and loss)")
    assert all(math.isfinite(x) for x in history.train_loss)
    assert history.train_loss[-1] < history.train_loss[0]  # it learns
    assert all(p.dtype == torch.float32 for p in trainer.raw_model.parameters())
    state = trainer.state_dict()
    assert state["scaler"]["scale"] == trainer.scaler.get_scale()
    assert "scaler" not in _trainer("fp32").state_dict()


def test_an_overflowing_fp16_update_is_skipped_not_fatal():
    """With a loss scale far too large, the float16 gradients overflow: the update is skipped
    and the scale lowered (fp32 would stop at a non-finite gradient norm)."""
    trainer = _trainer("fp16", max_steps=1)
    trainer.scaler = torch.amp.GradScaler("cpu", init_scale=2.0 ** 100)
    before = {k: v.clone() for k, v in trainer.raw_model.state_dict().items()}
    history = trainer.fit()
    assert history.overflows == 1 and trainer.step == 1 and trainer.scaler.get_scale() == 2.0 ** 99
    for k, v in trainer.raw_model.state_dict().items():
        assert torch.equal(v, before[k]), k


def test_the_loss_scale_is_saved_and_resumed():
    trainer = _trainer("fp16", max_steps=3)
    trainer.scaler = torch.amp.GradScaler("cpu", init_scale=2.0 ** 100)
    trainer.fit()
    state = trainer.state_dict()
    resumed = _trainer("fp16", max_steps=6)
    resumed.load_state_dict(state)
    assert resumed.scaler.get_scale() == trainer.scaler.get_scale() == 2.0 ** 97


def test_a_torch_without_a_grad_scaler_for_the_device_is_one_line(monkeypatch):
    def refuse(device):
        raise RuntimeError("GradScaler is not supported on this device\nmore detail")

    monkeypatch.setattr(T.torch.amp, "GradScaler", refuse)
    with pytest.raises(ConfigError) as err:
        _trainer("fp16")
    assert str(err.value) == (f"precision: fp16 needs loss scaling, which this torch ({torch.__version__}) does not "
                              f"offer on cpu (GradScaler is not supported on this device); use bf16 or fp32")
