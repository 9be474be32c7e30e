"""One Trainer for every model: RNN language models, LSTM/GRU encoder-decoders, RNNsearch, the
Transformer. The only thing it needs from a model is ``logits = model(batch)``, shape
``(B, T, V)``, scoring ``batch.tgt_out`` (B, T).

**Loss and perplexity.** The training loss is the negative log-likelihood under teacher
forcing, ``sum over real target tokens of -log p(y_t | y_<t, x)`` (PAD is ignored, EOS counts;
optionally with label smoothing), summed over the whole batch of an optimiser step and divided by
what ``loss_normalization`` names:

- ``tokens`` (default): the number of real target tokens -- a per-token mean (fairseq's default,
  JoeyNMT's ``tokens``);
- ``sentences``: the number of sentences -- each sentence's summed NLL, averaged over the batch
  (fairseq's ``--sentence-avg``, JoeyNMT's ``batch``). This is what Sutskever et al. (2014)
  ("divided by the size of the batch (namely, 128)") and Bahdanau et al. (2015) (the mean
  log-likelihood of the sentences of a minibatch) minimised, so their learning rates and
  clipping thresholds are meant for it;
- ``batch``: nothing -- the batch's summed NLL (JoeyNMT's ``none``).

"The batch" is the global batch of one optimiser step: every accumulation micro-batch on every
DDP rank, so the gradient does not depend on how the batch is split. The logged ``train_loss``
is the per-token mean whatever the normalisation, so curves compare across presets. Perplexity
is ``exp`` of the mean NLL computed *without* label smoothing over a whole data set:
:func:`evaluate_loss` sums the NLL of every real token and divides once by their number (not a
mean of per-batch means).

Python use (no files are written when ``out_dir`` is None)::

    trainer = Trainer(model, train_loader, valid_loader, preset="adam", lr=1e-3,
                      max_steps=300, eval_every=100)
    history = trainer.fit()          # history.train_loss, history.valid[-1]["valid_ppl"]

The keyword options are the fields of :class:`companion.config.TrainConfig`, checked there (an
unknown or out-of-range option is a one-line :class:`~companion.errors.ConfigError`); ``validate_fn``
adds metrics to each evaluation (e.g. :func:`companion.evaluation.bleu_validator` for BLEU, which
``valid_bleu=True`` requires). No option is accepted and ignored:

- ``seed``, ``threads``, ``deterministic`` are applied with :func:`companion.repro.set_determinism`
  when the Trainer is built, if any of them is given (or a ``config`` is, as the ``train`` command
  does); otherwise the Trainer leaves the random generators and the thread count as it finds them
  (a chapter calls ``set_determinism`` itself before building its model). Under DDP, rank ``r > 0``
  then draws its dropout masks from ``seed + 1000 r``.
- ``precision``: ``fp32``; ``bf16`` (bf16 autocast on CPU or CUDA; the loss and the optimiser
  stay float32); ``fp16`` (float16 autocast with dynamic loss scaling, a
  :class:`torch.amp.GradScaler`: an update whose gradients overflowed is skipped and the scale
  lowered, as in Micikevicius et al. (2018)); ``auto`` is ``bf16`` on a CUDA device with native
  bf16 (Ampere and later), ``fp16`` on an older one (V100, T4: bf16 would be emulated, and slow)
  and ``fp32`` elsewhere (:func:`resolve_precision`). The choice is printed to ``log_stream``.
- Initialisation is the model's: building a Trainer never touches the weights.

With ``out_dir`` the Trainer appends to ``out_dir/metrics.jsonl`` every ``log_every`` steps
``{step, epoch, train_loss (mean over the window), lr, grad_norm, clip_rate, tokens_per_s}`` and
at every evaluation ``{step, valid_nll, valid_ppl, valid_tokens, ...}``, and writes checkpoints
(see :mod:`companion.training.checkpoint`) at every evaluation and at the end. Evaluation never touches
the random generators, so ``eval_every`` does not change the training run, and a run stopped
and resumed gives bitwise the parameters of an uninterrupted one (on the same hardware and
thread count; under DDP every rank's generators are saved and restored, so this holds for any
number of ranks, given the same number on resume). With ``log_stream`` (the ``train`` command
passes stderr) every evaluation also prints one line: step, epoch, mean training loss since the
previous evaluation, validation perplexity (and BLEU), ``best`` when it improved, elapsed time;
without a progress bar (``progress=False``, or stderr not a terminal) it also prints a plain line
every ``log_every`` steps (step, epoch, loss, learning rate, tokens/s), so that a redirected log
shows progress between evaluations.

With ``corpus`` (:func:`companion.training.resume.corpus_record`, as the ``train`` command
passes) checkpoints keep the fingerprints of the train and valid files; a resume on another train
split is refused unless ``resets.data``, and a resume on another validation set resets ``best``
(see :mod:`companion.training.resume`).

Distributed data parallel: each rank's loss is ``sum NLL * world_size / global count`` (the
count of ``loss_normalization`` -- tokens, sentences, or 1 -- all-reduced over ranks and
accumulation steps), so DDP's gradient averaging yields exactly the gradient of the global
batch's normalised loss. Only rank 0 runs the validation (loss, and the BLEU decode of
``validate_fn``); the other ranks wait for it at the checkpoint that follows.
"""

from __future__ import annotations

import json
import math
import random
import time
from contextlib import contextmanager, nullcontext
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, Callable, Iterable, TextIO

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from companion.config import PRECISIONS, REMOVED_KEYS, TrainConfig
from companion.errors import CheckpointError, ConfigError, TrainingError
from companion.models.weights import weights_mismatch
from companion.repro import set_determinism
from companion.specials import PAD
from companion.training import checkpoint as ckpt_io
from companion.training.checkpoint import link_atomic
from companion.training.distributed import DistInfo, all_gather_object, all_reduce_sum, all_reduce_sums
from companion.training.optim import make_optimizer, make_schedule
from companion.training.resume import Resets, check_resume_config, check_resume_corpus, complete_config, corpus_changes
from companion.training.signals import StopSignals
from companion.training.stream import BatchStream
from companion.validation import check_choice, check_device

#: the options that :func:`companion.repro.set_determinism` applies
DETERMINISM_OPTIONS = ("seed", "threads", "deterministic")


def sequence_loss(logits: torch.Tensor, targets: torch.Tensor, label_smoothing: float = 0.0) -> torch.Tensor:
    """Summed token cross-entropy of ``logits`` (B, T, V) against ``targets`` (B, T), PAD ignored.

    Returns a scalar: the *sum* over real tokens (divide by the token count for the mean)."""
    return F.cross_entropy(logits.reshape(-1, logits.size(-1)).float(), targets.reshape(-1),
                           ignore_index=PAD, reduction="sum", label_smoothing=label_smoothing)


def _sentences(batch: Any) -> int:
    """Sentence pairs in ``batch``: its rows, or the pairs packed into them."""
    return int(getattr(batch, "sentences", batch.size))


def native_bf16() -> bool:
    """Whether the current CUDA device computes in bf16 natively (compute capability 8.0 and
    later), not by emulation."""
    try:
        return bool(torch.cuda.is_bf16_supported(including_emulation=False))
    except TypeError:  # a torch without the argument did not count emulation
        return bool(torch.cuda.is_bf16_supported())


def resolve_precision(precision: str, device: torch.device) -> str:
    """``precision`` with ``auto`` resolved for ``device``: ``bf16`` on a CUDA device with native
    bf16, ``fp16`` on an older CUDA device (trained with loss scaling), ``fp32`` elsewhere."""
    check_choice("precision", precision, PRECISIONS)
    if precision != "auto":
        return precision
    if device.type != "cuda":
        return "fp32"
    return "bf16" if native_bf16() else "fp16"


_AUTOCAST = {"bf16": torch.bfloat16, "fp16": torch.float16}


def autocast_for(device: torch.device, precision: str = "auto"):
    """Autocast in the dtype that ``precision`` resolves to on ``device``
    (:func:`resolve_precision`); nothing (float32) for ``fp32``."""
    device = torch.device(device)
    dtype = _AUTOCAST.get(resolve_precision(precision, device))
    return torch.autocast(device.type, dtype=dtype) if dtype is not None else nullcontext()


@contextmanager
def _kernels_for(device: torch.device, precision: str):
    """Turn the error of a CPU whose oneDNN has no bf16 kernel for a layer (an LSTM on a CPU
    without AVX-512: "could not create a primitive descriptor ...") into one line that says what
    to do, instead of a traceback from inside torch."""
    try:
        yield
    except RuntimeError as exc:
        if device.type == "cpu" and resolve_precision(precision, device) == "bf16" \
                and "primitive descriptor" in str(exc):
            raise ConfigError(f"precision: bf16 autocast needs oneDNN bf16 kernels that this CPU "
                              f"({torch.backends.cpu.get_cpu_capability()}) lacks for this model "
                              f"({str(exc).strip().splitlines()[0][:80]}); use precision fp32") from None
        raise


def precision_line(precision: str, resolved: str, device: torch.device) -> str:
    """What :class:`Trainer` prints about its precision, e.g. ``precision: fp16 (auto on cuda:0:
    no native bf16; float16 autocast with loss scaling, float32 weights and loss)``."""
    why = {"fp32": "float32", "bf16": "bf16 autocast, float32 weights and loss",
           "fp16": "float16 autocast with loss scaling, float32 weights and loss"}[resolved]
    if precision == "auto" and device.type == "cuda":
        why = ("native bf16; " if resolved == "bf16" else "no native bf16; ") + why
    return f"precision: {resolved} ({'auto on ' if precision == 'auto' else ''}{device}: {why})"


def _grad_scaler(device: torch.device):
    """A :class:`torch.amp.GradScaler` for ``device``; a one-line :class:`ConfigError` where this
    torch has none for the device type."""
    try:
        return torch.amp.GradScaler(device.type)
    except (AttributeError, RuntimeError, TypeError, ValueError) as exc:
        raise ConfigError(f"precision: fp16 needs loss scaling, which this torch ({torch.__version__}) "
                          f"does not offer on {device.type} ({str(exc).strip().splitlines()[0]}); "
                          f"use bf16 or fp32") from None


@torch.no_grad()
def evaluate_loss(model: nn.Module, loader: Iterable, device: torch.device | str | None = None,
                  precision: str = "auto") -> tuple[float, float, int]:
    """Teacher-forced ``(mean_nll, perplexity, ntokens)`` over every real target token of
    ``loader``: ``mean_nll = sum NLL / ntokens`` (nats), ``perplexity = exp(mean_nll)``."""
    device = torch.device(device) if device is not None else next(model.parameters()).device
    was_training = model.training
    model.eval()
    total, ntok = 0.0, 0
    try:
        for batch in loader:
            batch = batch.to(device)
            with autocast_for(device, precision):
                logits = model(batch)
            total += sequence_loss(logits, batch.tgt_out).item()
            ntok += int(batch.ntokens)
    finally:
        model.train(was_training)
    if ntok == 0:
        raise TrainingError("evaluate_loss: the loader holds no target tokens")
    mean = total / ntok
    return mean, math.exp(min(mean, 700.0)), ntok


@dataclass
class History:
    """What :meth:`Trainer.fit` returns: one entry per optimiser step this Trainer ran, one dict
    per evaluation; ``clipped``, ``tokens`` and ``overflows`` (fp16 updates skipped because the
    scaled gradients overflowed) count over the same steps.

    After :meth:`Trainer.resume` it holds what was trained since the resume: checkpoints do not
    carry the history (it would grow with every step). The whole run's record is
    ``out_dir/metrics.jsonl``; :func:`companion.plots.curves.read_metrics` reads it back.
    """

    steps: list[int] = field(default_factory=list)
    train_loss: list[float] = field(default_factory=list)
    lr: list[float] = field(default_factory=list)
    valid: list[dict] = field(default_factory=list)
    clipped: int = 0
    tokens: int = 0
    overflows: int = 0
    interrupted: int | None = None

    def to_dict(self) -> dict:
        return asdict(self)


class Trainer:
    """Train ``model`` on ``train_loader``; see the module docstring for the loss definition."""

    def __init__(self, model: nn.Module, train_loader: Iterable, valid_loader: Iterable | None = None, *,
                 config: TrainConfig | None = None, out_dir: str | Path | None = None, progress: bool = True,
                 device: str | torch.device | None = None, dist: DistInfo | None = None,
                 run_config: dict | None = None, vocab: dict | None = None,
                 validate_fn: Callable[[nn.Module], dict] | None = None, d_model: int | None = None,
                 log_stream: TextIO | None = None, corpus: dict | None = None, **options: Any):
        names = {f.name for f in fields(TrainConfig)}
        for key in options:
            if key not in names:
                removed = REMOVED_KEYS.get(f"train.{key}")
                raise ConfigError(f"Trainer: option '{key}' was removed: {removed}" if removed else
                                  f"Trainer: unknown option '{key}' (options: {', '.join(sorted(names))})")
        try:
            self.cfg = TrainConfig(**{**asdict(config or TrainConfig()), **options})
        except ConfigError as exc:
            raise ConfigError(f"Trainer: {exc}") from None
        cfg = self.cfg
        if cfg.valid_bleu and validate_fn is None:
            raise ConfigError("Trainer: valid_bleu=True needs a validate_fn that computes it, e.g. "
                              "companion.evaluation.metrics.bleu_validator(src_vocab, tgt_vocab, valid_pairs)")
        self.dist = dist or DistInfo()
        if device is not None:
            self.device = check_device("device", device, where="Trainer")
        else:
            self.device = self.dist.device if dist else next(model.parameters()).device
        if config is not None or any(k in options for k in DETERMINISM_OPTIONS):
            set_determinism(cfg.seed, cfg.threads, cfg.deterministic)
            if self.dist.rank:  # the other ranks draw their own dropout masks
                torch.manual_seed(self._rank_seed(0))
        self.raw_model = model.to(self.device)
        self.train_loader, self.valid_loader = train_loader, valid_loader
        self._saving = out_dir is not None  # every rank takes part in gathering what is saved
        self.out_dir = Path(out_dir) if out_dir is not None and self.dist.is_main else None
        self.progress, self.validate_fn = progress and self.dist.is_main, validate_fn
        self.log_stream = log_stream if self.dist.is_main else None
        self.run_config, self.vocab, self.corpus = run_config or {}, vocab or {}, corpus
        self.precision = resolve_precision(cfg.precision, self.device)
        if self.precision == "fp16" and self.device.type == "cpu" and \
                any(isinstance(m, nn.RNNBase) for m in model.modules()):
            raise ConfigError(f"Trainer: precision fp16 on the CPU: torch has no float16 CPU kernels for the "
                              f"recurrent layers of {type(model).__name__}; use bf16 or fp32 (fp16 is meant for "
                              f"CUDA devices without native bf16)")
        self.scaler = _grad_scaler(self.device) if self.precision == "fp16" else None
        self.model = self.raw_model
        if self.dist.enabled:
            self.model = nn.parallel.DistributedDataParallel(self.raw_model, device_ids=None)
        if cfg.compile:
            self.model = torch.compile(self.model)
        self.optimizer = make_optimizer(self.raw_model.parameters(), cfg.preset, cfg.lr)
        n = len(train_loader) if hasattr(train_loader, "__len__") else None
        self.schedule = make_schedule(
            self.optimizer, cfg.preset, steps_per_epoch=(n // cfg.accum_steps) if n else None,
            warmup_steps=cfg.warmup_steps, d_model=d_model or getattr(model, "d_model", 512),
            decay_start_epoch=cfg.decay_start_epoch, decay_every_epochs=cfg.decay_every_epochs)
        self.step, self.best = 0, math.inf
        self.resumes: list[dict] = []
        self.stream = BatchStream(train_loader)
        self.history = History()
        self._window = [0.0, 0]  # training loss sum and steps since the last evaluation
        self._started = time.perf_counter()

    def _rank_seed(self, step: int) -> int:
        """The torch seed of a rank > 0 that starts a fresh stream at ``step``."""
        return self.cfg.seed + 1000 * self.dist.rank + step

    # ------------------------------------------------------------ state
    def state_dict(self) -> dict:
        """The checkpoint dict (tensors and plain containers only; its size does not grow with
        the step count). ``config`` is the run config with this Trainer's options as its
        ``train`` section; ``resumes`` lists the resumes that reset or changed something."""
        return {"model": self.raw_model.state_dict(), "optimizer": self.optimizer.state_dict(),
                "scheduler": self.schedule.state_dict(), "step": self.step, "epoch": self.stream.epoch,
                "batch_in_epoch": self.stream.position, "rng": ckpt_io.rng_state(),
                "config": {**self.run_config, "train": asdict(self.cfg)}, "vocab": self.vocab,
                "best": self.best, "resumes": list(self.resumes),
                **({"corpus": self.corpus} if self.corpus else {}),
                **({"scaler": self.scaler.state_dict()} if self.scaler is not None else {})}

    def load_state_dict(self, state: dict, resets: Resets = Resets(), source: str = "checkpoint") -> list:
        """Continue exactly where ``state`` (a loaded checkpoint) stopped; returns the changed
        ``train`` options that ``resets`` allowed, as ``[(key, old, new)]``.

        Refused with one :class:`~companion.errors.CheckpointError` line (naming ``source``):
        options of this Trainer that differ from the checkpoint's, unless free or allowed by
        ``resets`` (see :mod:`companion.training.resume`). With ``resets.optimizer`` the
        optimiser state is not loaded, with ``resets.schedule`` the schedule starts again at its
        step 1, with ``resets.data`` the batch stream starts the next epoch (in the loader's
        order) and the random generators are seeded from ``seed`` and the step. The learning
        rate is always the configuration's. The :class:`History` starts empty: :meth:`fit` then
        returns what is trained from here on.

        With this Trainer's ``corpus`` and the checkpoint's: another train split is refused
        unless ``resets.data`` (and returned as a change); another validation set resets
        ``best``, said on ``log_stream`` and in ``metrics.jsonl``."""
        stored_train = (state.get("config") or {}).get("train")
        changes = []
        if isinstance(stored_train, dict):
            changes = check_resume_config(complete_config({"train": stored_train}),
                                          complete_config({"train": asdict(self.cfg)}), source, resets,
                                          sections=("train",))
        valid_changed = []
        if self.corpus and state.get("corpus"):
            changes += check_resume_corpus(state["corpus"], self.corpus, source, resets)
            valid_changed = corpus_changes(state["corpus"], self.corpus)[1]
        problem = weights_mismatch(self.raw_model, state["model"]) if isinstance(state.get("model"), dict) else None
        if problem:
            raise CheckpointError(f"{source}: its weights do not fit this Trainer's model: {problem}")
        self.raw_model.load_state_dict(state["model"])
        if not resets.optimizer:
            self.optimizer.load_state_dict(state["optimizer"])
        if not resets.schedule:
            self.schedule.load_state_dict(state["scheduler"])
        self.step, self.best = int(state["step"]), float(state.get("best", math.inf))
        if self.scaler is not None and isinstance(state.get("scaler"), dict):
            self.scaler.load_state_dict(state["scaler"])
        self.resumes = list(state.get("resumes") or [])
        if valid_changed and math.isfinite(self.best):
            why = ", ".join(valid_changed)
            self._log({"step": self.step, "best_reset": why, "previous_best": self.best})
            if self.log_stream is not None:
                print(f"the validation set changed ({why}): the best validation loss so far ({self.best:.4f}, "
                      f"on the old set) is reset", file=self.log_stream, flush=True)
            self.best = math.inf
        epoch, position = int(state["epoch"]), int(state.get("batch_in_epoch", 0))
        if resets.data and position:
            epoch, position = epoch + 1, 0
        self.stream = BatchStream(self.train_loader, epoch, position)
        self.history = History()
        self._window = [0.0, 0]
        by_rank = state.get("rng_by_rank") or []
        if resets.data:
            seed = self._rank_seed(self.step)
            random.seed(seed)
            np.random.seed(seed % 2**32)
            torch.manual_seed(seed)
        elif self.dist.enabled and len(by_rank) == self.dist.world_size:
            ckpt_io.set_rng_state(by_rank[self.dist.rank])  # each rank continues its own stream
        else:
            ckpt_io.set_rng_state(state["rng"])
            if self.dist.rank:  # saved by another number of ranks: not bitwise, but distinct streams
                torch.manual_seed(self._rank_seed(self.step))
        return changes

    def resume(self, path: str | Path, resets: Resets = Resets()) -> list:
        """Load ``path`` (e.g. ``RUN/checkpoint-last.pt``) and continue from it on :meth:`fit`
        (see :meth:`load_state_dict`)."""
        return self.load_state_dict(ckpt_io.load_checkpoint(path), resets, source=str(path))

    def record(self, rec: dict) -> None:
        """Append ``rec`` to ``out_dir/metrics.jsonl`` (on rank 0 with an ``out_dir``; else nothing)."""
        self._log(rec)

    def save(self, best: bool = False) -> Path | None:
        """Write ``checkpoint-step{N}.pt`` and point ``checkpoint-last.pt`` (and ``-best``) at it.
        Under DDP every rank must call it (the ranks' generator states are gathered to rank 0)."""
        by_rank = all_gather_object(ckpt_io.rng_state()) if self._saving and self.dist.enabled else None
        if self.out_dir is None:
            return None
        state = self.state_dict()
        if by_rank is not None:
            state["rng_by_rank"] = by_rank
        path = self.out_dir / f"checkpoint-step{self.step}.pt"
        ckpt_io.save_checkpoint(state, path)
        for name in ["checkpoint-last.pt"] + (["checkpoint-best.pt"] if best else []):
            link_atomic(path, self.out_dir / name)
        ckpt_io.rotate(self.out_dir, self.cfg.keep_last)
        return path

    # ------------------------------------------------------------ training
    def fit(self) -> History:
        """Train until ``max_steps`` (or ``max_epochs``); SIGINT/SIGTERM save and stop."""
        from tqdm import tqdm  # plain text bar: tqdm.auto warns in notebooks without ipywidgets

        cfg = self.cfg
        self.model.train()
        signals = StopSignals()
        if self.out_dir is not None and self.out_dir.exists():
            ckpt_io.remove_stale_temporaries(self.out_dir)
        bar = tqdm(total=cfg.max_steps, initial=self.step, disable=not self.progress, dynamic_ncols=True)
        self._bar, self._started = bar, time.perf_counter()
        if self.log_stream is not None:
            print(precision_line(cfg.precision, self.precision, self.device), file=self.log_stream, flush=True)
        t0, tok0, clip0, last_log = time.perf_counter(), self.history.tokens, self.history.clipped, self.step
        try:
            while self.step < cfg.max_steps and not self._epochs_done():
                if signals.requested(self.dist, self.device):
                    self.history.interrupted = signals.signum
                    self.save()
                    break
                loss, norm = self._train_step()
                bar.update(1)
                if self.step % cfg.log_every == 0 or self.step == cfg.max_steps:
                    dt = max(time.perf_counter() - t0, 1e-9)
                    window = self.history.train_loss[-(self.step - last_log):]
                    rec = {"step": self.step, "epoch": round(self._epoch_float(), 4),
                           "train_loss": sum(window) / len(window),
                           "lr": self.history.lr[-1], "grad_norm": norm,
                           "clip_rate": (self.history.clipped - clip0) / (self.step - last_log),
                           "tokens_per_s": (self.history.tokens - tok0) / dt}
                    self._log(rec)
                    bar.set_postfix(loss=f"{loss:.3f}", tok_s=f"{rec['tokens_per_s']:.0f}", lr=f"{rec['lr']:.2e}")
                    if self.log_stream is not None and not self.progress:  # e.g. stderr redirected to a file
                        print(progress_line(rec, cfg.max_steps), file=self.log_stream, flush=True)
                    t0, tok0, clip0, last_log = time.perf_counter(), self.history.tokens, self.history.clipped, self.step
                if cfg.eval_every and self.step % cfg.eval_every == 0 and self.step < cfg.max_steps:
                    self._evaluate_and_save()
            else:
                self._evaluate_and_save()
        finally:
            bar.close()
            signals.restore()
        return self.history

    def _epochs_done(self) -> bool:
        return self.cfg.max_epochs is not None and self._epoch_float() >= self.cfg.max_epochs

    def _epoch_float(self) -> float:
        n = len(self.train_loader) if hasattr(self.train_loader, "__len__") else 0
        return self.stream.epoch + (self.stream.position / n if n else 0.0)

    def _train_step(self) -> tuple[float, float]:
        cfg, step = self.cfg, self.step + 1
        batches = [self.stream.next() for _ in range(cfg.accum_steps)]
        if getattr(batches[0], "packed", False) and not getattr(self.raw_model, "accepts_packed", False):
            raise ConfigError(f"{type(self.raw_model).__name__} cannot train on packed batches (several pairs per "
                              f"row, data.batching: packed): only the Transformer reads their segments; "
                              f"use batching 'mixed' or 'bucketed'")
        ntok, nsent = all_reduce_sums([sum(int(b.ntokens) for b in batches), sum(_sentences(b) for b in batches)],
                                      self.device)
        count = {"tokens": ntok, "sentences": nsent, "batch": 1}[cfg.loss_normalization]
        scale = self.dist.world_size / max(count, 1)
        total = torch.zeros((), device=self.device)
        for i, batch in enumerate(batches):
            batch = batch.to(self.device)
            sync = self.dist.enabled and i < len(batches) - 1
            with (self.model.no_sync() if sync else nullcontext()):
                with autocast_for(self.device, cfg.precision), _kernels_for(self.device, cfg.precision):
                    logits = self.model(batch)
                loss = sequence_loss(logits, batch.tgt_out, cfg.label_smoothing)
                if cfg.debug_nan_step == step:
                    loss = loss * float("nan")
                scaled = loss * scale
                (self.scaler.scale(scaled) if self.scaler is not None else scaled).backward()
            total += loss.detach()
        loss_value = all_reduce_sum(total.item(), self.device) / max(ntok, 1)
        if not math.isfinite(loss_value):
            self._fail(f"non-finite loss ({loss_value}) at step {step}")
        params = [p for p in self.raw_model.parameters() if p.grad is not None]
        max_norm = cfg.clip_norm if cfg.clip_norm > 0 else math.inf
        if self.scaler is not None:
            self.scaler.unscale_(self.optimizer)  # the norm and the clipping see the true gradients
        norm = float(torch.nn.utils.clip_grad_norm_(params, max_norm))
        if not math.isfinite(norm) and self.scaler is None:
            self._fail(f"non-finite gradient norm ({norm}) at step {step}")
        lr = self.schedule.step()
        if self.scaler is not None:
            # an overflow (non-finite norm) skips this update and lowers the scale; the step counts
            self.scaler.step(self.optimizer)
            self.scaler.update()
            self.history.overflows += int(not math.isfinite(norm))
        else:
            self.optimizer.step()
        self.optimizer.zero_grad(set_to_none=True)
        self.step = step
        h = self.history
        h.steps.append(step), h.train_loss.append(loss_value), h.lr.append(lr)
        h.clipped += int(math.isfinite(norm) and norm > max_norm)
        h.tokens += int(ntok)
        self._window[0] += loss_value
        self._window[1] += 1
        return loss_value, norm

    def _fail(self, what: str) -> None:
        self.optimizer.zero_grad(set_to_none=True)
        kept = self.out_dir / "checkpoint-last.pt" if self.out_dir else None
        where = f"; the last good checkpoint is {kept}" if kept and kept.exists() else ""
        raise TrainingError(f"{what}: training stopped{where}")

    def _evaluate_and_save(self) -> None:
        """Validate (without touching any random generator, so evaluating never changes the
        training run), then save ``checkpoint-last`` (and ``-best``)."""
        rec: dict[str, Any] = {"step": self.step}
        rng = ckpt_io.rng_state()
        try:
            self._validate(rec)
        finally:
            ckpt_io.set_rng_state(rng)
        is_best = "valid_nll" in rec and rec["valid_nll"] < self.best
        if is_best:
            self.best = rec["valid_nll"]
        self.save(best=is_best)
        if self.log_stream is not None and "valid_nll" in rec:
            train_loss = self._window[0] / self._window[1] if self._window[1] else None
            line = validation_line(rec, epoch=self._epoch_float(), train_loss=train_loss, best=is_best,
                                   seconds=time.perf_counter() - self._started, max_steps=self.cfg.max_steps)
            if self.progress:
                self._bar.write(line, file=self.log_stream)
            else:
                print(line, file=self.log_stream, flush=True)
        self._window = [0.0, 0]

    def _validate(self, rec: dict) -> None:
        if self.valid_loader is not None and self.dist.is_main:  # the other ranks wait at save()
            nll, ppl, ntok = evaluate_loss(self.raw_model, self.valid_loader, self.device, self.cfg.precision)
            rec.update(valid_nll=nll, valid_ppl=ppl, valid_tokens=ntok)
            if self.validate_fn is not None:
                rec.update(self.validate_fn(self.raw_model))
            self.history.valid.append(rec)
            self._log(rec)

    def _log(self, rec: dict) -> None:
        if self.out_dir is not None:
            self.out_dir.mkdir(parents=True, exist_ok=True)
            with open(self.out_dir / "metrics.jsonl", "a", encoding="utf-8") as f:
                f.write(json.dumps(rec) + "\n")


def progress_line(rec: dict, max_steps: int | None = None) -> str:
    """One ``log_every`` record as a plain log line, e.g. ``step 50/2000 | epoch 0.12 | loss
    3.2140 | lr 1.00e-03 | 5,210 tok/s``."""
    return " | ".join([f"step {rec['step']}" + (f"/{max_steps}" if max_steps else ""), f"epoch {rec['epoch']:.2f}",
                       f"loss {rec['train_loss']:.4f}", f"lr {rec['lr']:.2e}", f"{rec['tokens_per_s']:,.0f} tok/s"])


def validation_line(rec: dict, *, epoch: float, train_loss: float | None, best: bool, seconds: float,
                    max_steps: int | None = None) -> str:
    """One evaluation as a log line, e.g. ``step 500/2000 | epoch 1.25 | train loss 3.2140 |
    valid ppl 24.51 | valid BLEU 12.30 | best | 61 s``."""
    parts = [f"step {rec['step']}" + (f"/{max_steps}" if max_steps else ""), f"epoch {epoch:.2f}"]
    if train_loss is not None:
        parts.append(f"train loss {train_loss:.4f}")
    parts.append(f"valid ppl {rec['valid_ppl']:.2f}")
    if "valid_bleu" in rec:
        parts.append(f"valid BLEU {rec['valid_bleu']:.2f}")
    if best:
        parts.append("best")
    parts.append(f"{seconds:.0f} s")
    return " | ".join(parts)
