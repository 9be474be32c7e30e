"""The papers' optimisers and learning-rate schedules, as presets.

=========  ==============================================  =====================================
preset     optimiser                                        schedule
=========  ==============================================  =====================================
adam       Adam, lr 1e-3 (the small CPU runs)               constant (optional linear warmup)
sutskever  SGD without momentum, lr 0.7                     halved every half epoch after epoch 5
           (Sutskever et al. 2014)
bahdanau   Adadelta, rho 0.95, eps 1e-6, lr 1.0             constant
           (Bahdanau et al. 2015)
vaswani    Adam, betas (0.9, 0.98), eps 1e-9                lr * d_model^-0.5 * min(s^-0.5, s * w^-1.5)
           (Vaswani et al. 2017)                            (inverse square root, w warmup steps)
=========  ==============================================  =====================================

For ``vaswani``, ``lr`` is the factor in front of the paper's equation 3, *not* a learning rate:
the rate peaks at step ``w`` at ``lr * d_model^-0.5 * w^-0.5`` (:func:`vaswani_peak_lr`; the
paper's base model, factor 1, d_model 512, w 4000: 7.0e-4). A toolkit's "peak rate 5e-4" is
the factor :func:`vaswani_factor` gives (0.16 at d_model 256, w 400); written as ``lr: 5e-4`` it
would peak at 1.6e-6 and train nothing, so :func:`make_schedule` refuses a factor whose peak is
below :data:`MIN_PEAK_LR` with a one-line error that names the factor meant.

A schedule is a function of the optimiser step (1-based) only, so resuming needs nothing but the
step: :class:`StepSchedule` stores it and sets the learning rate of every parameter group.

:data:`PRESETS` is the one list of preset names (``train.preset`` is checked against it).
Initialisation is not part of a preset: it belongs to the model (``Seq2Seq`` draws every
parameter from U[-init_range, init_range], the paper's 0.08 by default), so building a Trainer
never touches the weights; :func:`init_uniform_` re-draws a model's parameters when asked.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Iterable

import torch
from torch import nn

from companion.errors import ConfigError
from companion.validation import check_choice


@dataclass(frozen=True)
class Preset:
    name: str
    lr: float
    warmup_steps: int


PRESETS: dict[str, Preset] = {
    "adam": Preset("adam", 1e-3, 0),
    "sutskever": Preset("sutskever", 0.7, 0),
    "bahdanau": Preset("bahdanau", 1.0, 0),
    "vaswani": Preset("vaswani", 1.0, 4000),
}


def make_optimizer(params: Iterable[nn.Parameter], preset: str, lr: float | None = None) -> torch.optim.Optimizer:
    """The optimiser of ``preset`` with the paper's hyper-parameters (``lr`` overrides its rate;
    for ``vaswani`` it is the factor in front of ``d_model^-0.5``, see :func:`vaswani_factor`)."""
    check_choice("train.preset", preset, tuple(PRESETS))
    lr = PRESETS[preset].lr if lr is None else lr
    params = list(params)
    if preset == "adam":
        return torch.optim.Adam(params, lr=lr)
    if preset == "sutskever":
        return torch.optim.SGD(params, lr=lr, momentum=0.0)
    if preset == "bahdanau":
        return torch.optim.Adadelta(params, lr=lr, rho=0.95, eps=1e-6)
    return torch.optim.Adam(params, lr=lr, betas=(0.9, 0.98), eps=1e-9)


def sutskever_factor(step: int, steps_per_epoch: int, start_epoch: float = 5.0, every_epochs: float = 0.5) -> float:
    """1 until ``start_epoch`` epochs are done, then halved every ``every_epochs`` epochs:
    the first halving happens when epoch ``start_epoch`` ends."""
    epochs_done = step / max(1, steps_per_epoch)
    if epochs_done < start_epoch:
        return 1.0
    return 0.5 ** (math.floor((epochs_done - start_epoch) / every_epochs) + 1)


def inverse_sqrt_factor(step: int, warmup_steps: int, d_model: int) -> float:
    """Vaswani et al.'s rate without the leading factor: ``d_model^-0.5 * min(s^-0.5, s w^-1.5)``."""
    s = max(1, step)
    w = max(1, warmup_steps)
    return d_model ** -0.5 * min(s ** -0.5, s * w ** -1.5)


#: the smallest peak rate :func:`make_schedule` accepts for ``vaswani`` (Adam from scratch below
#: it learns nothing in any run length one would wait for: it is a peak meant as the factor)
MIN_PEAK_LR = 1e-5


def vaswani_peak_lr(factor: float, warmup_steps: int, d_model: int) -> float:
    """The largest rate of the ``vaswani`` schedule, reached at step ``w``:
    ``factor * d_model^-0.5 * w^-0.5`` (``w`` at least 1)."""
    w = max(1, warmup_steps)
    return factor * inverse_sqrt_factor(w, w, d_model)


def vaswani_factor(peak_lr: float, warmup_steps: int, d_model: int) -> float:
    """The ``vaswani`` factor (``train.lr``) whose schedule peaks at ``peak_lr``, the rate that
    fairseq's ``inverse_sqrt`` and JoeyNMT's warmup schedules take: ``peak_lr * sqrt(d_model * w)``."""
    return peak_lr / vaswani_peak_lr(1.0, warmup_steps, d_model)


def check_vaswani_factor(factor: float, warmup_steps: int, d_model: int) -> None:
    """Refuse a ``vaswani`` factor whose peak rate is below :data:`MIN_PEAK_LR` (a peak rate
    written where the factor belongs), naming the factor that peaks at that rate."""
    peak = vaswani_peak_lr(factor, warmup_steps, d_model)
    if peak < MIN_PEAK_LR:
        w = max(1, warmup_steps)
        raise ConfigError(
            f"train.lr: with preset vaswani, lr is the factor f of lr(s) = f * d_model^-0.5 * min(s^-0.5, "
            f"s * warmup^-1.5), not the rate: lr {factor:g} peaks at {peak:.2g} (d_model {d_model}, warmup {w}), "
            f"too small to train; for a peak rate of {factor:g} write lr: {vaswani_factor(factor, w, d_model):.4g}")


def linear_warmup_factor(step: int, warmup_steps: int) -> float:
    return 1.0 if warmup_steps <= 0 else min(1.0, max(1, step) / warmup_steps)


class StepSchedule:
    """Sets ``lr = base_lr * factor(step)`` before each optimiser step; state is the step count.

    Call :meth:`step` once per optimiser step, *before* ``optimizer.step()``.
    """

    def __init__(self, optimizer: torch.optim.Optimizer, factor: Callable[[int], float]):
        self.optimizer = optimizer
        self.factor = factor
        self.base_lrs = [g.get("initial_lr", g["lr"]) for g in optimizer.param_groups]
        for g, lr in zip(optimizer.param_groups, self.base_lrs):
            g["initial_lr"] = lr
        self.last_step = 0

    def step(self) -> float:
        self.last_step += 1
        f = self.factor(self.last_step)
        for g, lr in zip(self.optimizer.param_groups, self.base_lrs):
            g["lr"] = lr * f
        return self.base_lrs[0] * f

    def get_last_lr(self) -> list[float]:
        return [g["lr"] for g in self.optimizer.param_groups]

    def state_dict(self) -> dict:
        return {"last_step": self.last_step, "base_lrs": list(self.base_lrs)}

    def load_state_dict(self, state: dict) -> None:
        """Continue at the stored step. The base rates stay this schedule's own (the
        configuration's ``lr``): the stored ``base_lrs`` are a record, not a setting, so a
        resume never trains at a rate other than the one its config names (the Trainer refuses
        a changed ``lr`` unless the schedule is reset)."""
        self.last_step = int(state["last_step"])


def make_schedule(
    optimizer: torch.optim.Optimizer,
    preset: str,
    *,
    steps_per_epoch: int | None = None,
    warmup_steps: int | None = None,
    d_model: int = 512,
    decay_start_epoch: float = 5.0,
    decay_every_epochs: float = 0.5,
) -> StepSchedule:
    """The schedule of ``preset`` (see the module table); for ``vaswani``, a factor whose peak rate
    is below :data:`MIN_PEAK_LR` is a :class:`~companion.errors.ConfigError`."""
    check_choice("train.preset", preset, tuple(PRESETS))
    warm = PRESETS[preset].warmup_steps if warmup_steps is None else warmup_steps
    if preset == "sutskever":
        if not steps_per_epoch:
            raise ConfigError("train.preset: sutskever needs the number of batches per epoch")
        n = steps_per_epoch
        return StepSchedule(optimizer, lambda s: sutskever_factor(s, n, decay_start_epoch, decay_every_epochs))
    if preset == "vaswani":
        check_vaswani_factor(optimizer.param_groups[0].get("initial_lr", optimizer.param_groups[0]["lr"]),
                             warm, d_model)
        return StepSchedule(optimizer, lambda s: inverse_sqrt_factor(s, warm, d_model))
    return StepSchedule(optimizer, lambda s: linear_warmup_factor(s, warm))


@torch.no_grad()
def init_uniform_(model: nn.Module, scale: float) -> None:
    """Sutskever et al.'s initialisation: every parameter uniform in ``[-scale, scale]``.

    An explicit call, never made by the Trainer. It re-draws *every* parameter, PAD embedding
    rows included (``Seq2Seq(init_range=...)`` draws the same distribution and keeps them zero).
    """
    for p in model.parameters():
        p.uniform_(-scale, scale)
