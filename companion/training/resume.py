"""Resuming a run: it continues exactly, or it is refused with one line naming every option that
differs from the checkpoint's, unless a reset the user asked for allows that change.

Every option of a run's configuration (:class:`companion.config.Config`) belongs to one group:

- **free** (:data:`FREE`): may differ on resume, because it changes neither what is trained nor
  in which order -- when to stop (``train.max_steps``, ``train.max_epochs``), when to evaluate,
  log and keep checkpoints, how to execute (threads, compile, precision, deterministic kernels,
  DataLoader workers), which valid pairs to score, and every ``decode`` option;
- **resettable** (:data:`RESETS`): each is owned by a reset (two for ``train.preset``, which names
  an optimiser *and* a schedule), and a change needs it:

  - ``--reset-optimizer`` allows ``train.preset``, ``clip_norm``, ``accum_steps``,
    ``label_smoothing``, ``loss_normalization``: a new optimiser, whose state (Adam's moments,
    Adadelta's accumulators) is not loaded;
  - ``--reset-schedule`` allows ``train.preset``, ``lr``, ``warmup_steps``, ``decay_start_epoch``,
    ``decay_every_epochs``: the learning-rate schedule starts again at its step 1 (a new warmup;
    the Sutskever halvings count epochs from there);
  - ``--reset-data`` allows ``data.max_tokens``, ``data.max_len``, ``train.seed``: the batch
    stream starts the next epoch in the new order, and the random generators are seeded from the
    seed and the step;

- **fixed**: everything else -- the model and the vocabulary settings: the checkpoint's weights
  and vocabularies were made with them, and no reset changes that; such a run starts a new
  ``--out``.

A reset may be asked for without any option changing (a fresh optimiser for the same preset, a
second warmup). What was reset and changed is recorded: the ``train`` command writes it to
``metrics.jsonl`` (``{"step": N, "resumed": ..., "resets": [...], "changed": {...}}``) and as
comment lines at the top of ``config.yaml``, and the checkpoint keeps the list (``resumes``).

The rules live here once: the ``train`` command checks the whole configuration before any
expensive work (:func:`check_resume_config`), and :meth:`companion.training.Trainer.load_state_dict`
checks the ``train`` section (so the Python API refuses the same changes).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import CheckpointError

#: the resets a resume may ask for (``--reset-optimizer`` ...)
RESET_NAMES = ("optimizer", "schedule", "data")

#: options that may differ on resume (and every ``decode.*`` option)
FREE = frozenset({
    "train.max_steps", "train.max_epochs", "train.eval_every", "train.log_every", "train.keep_last",
    "train.valid_bleu", "train.debug_nan_step", "train.compile", "train.threads", "train.precision",
    "train.deterministic", "data.num_workers", "data.valid_max_sentences",
})

#: option -> the resets that must all be asked for to change it on resume
RESETS: dict[str, tuple[str, ...]] = {
    "train.preset": ("optimizer", "schedule"),
    "train.clip_norm": ("optimizer",),
    "train.accum_steps": ("optimizer",),
    "train.label_smoothing": ("optimizer",),
    "train.loss_normalization": ("optimizer",),
    "train.lr": ("schedule",),
    "train.warmup_steps": ("schedule",),
    "train.decay_start_epoch": ("schedule",),
    "train.decay_every_epochs": ("schedule",),
    "data.max_tokens": ("data",),
    "data.batching": ("data",),
    "data.max_len": ("data",),
    "train.seed": ("data",),
}


@dataclass(frozen=True)
class Resets:
    """Which parts of a checkpoint a resume starts afresh instead of loading."""

    optimizer: bool = False
    schedule: bool = False
    data: bool = False

    def names(self) -> list[str]:
        return [f.name for f in dataclasses.fields(self) if getattr(self, f.name)]

    def flags(self) -> str:
        return " ".join(f"--reset-{name}" for name in self.names())


def _flat(config: dict, sections: tuple[str, ...]) -> dict[str, Any]:
    return {f"{section}.{key}": value for section in sections
            for key, value in (config.get(section) or {}).items()}


def config_changes(stored: dict, current: dict, sections: tuple[str, ...] = ("data", "model", "train", "decode")
                   ) -> list[tuple[str, Any, Any]]:
    """``[(key, stored value, current value)]`` for every option of ``sections`` that differs
    between two complete plain configs (defaults filled in, as :func:`complete_config` makes
    them). Models of different families differ by ``model.name`` alone."""
    out = []
    for section in sections:
        if section == "model":
            a, b = stored.get("model") or {}, current.get("model") or {}
            if a.get("name") != b.get("name"):
                out.append(("model.name", a.get("name"), b.get("name")))
                continue
        a, b = _flat(stored, (section,)), _flat(current, (section,))
        out += [(k, a.get(k), b.get(k)) for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
    return out


def complete_config(raw: dict) -> dict:
    """A stored (plain, possibly older) config with every default filled in: the form that
    :func:`config_changes` compares. Keys a newer package removed are dropped, keys it added take
    their defaults (a checkpoint written before ``train.loss_normalization`` existed was trained
    per token, the default), except ``data.batching``, whose default (``auto``) came after runs
    that were all bucketed. An unknown model is compared as written."""
    from companion.config import SECTIONS, drop_removed_keys
    from companion.errors import CompanionError
    from companion.models import with_defaults

    raw = drop_removed_keys(raw or {})
    out: dict[str, Any] = {}
    for name, cls in SECTIONS.items():
        known = {f.name for f in dataclasses.fields(cls)}
        out[name] = {**dataclasses.asdict(cls()), **{k: v for k, v in (raw.get(name) or {}).items()
                                                      if k in known}}
    if "batching" not in (raw.get("data") or {}):  # saved before data.batching existed: length buckets
        out["data"]["batching"] = "bucketed"
    model = dict(raw.get("model") or {})
    try:
        out["model"] = with_defaults(model) if "name" in model else model
    except CompanionError:
        out["model"] = model
    return out


def check_resume_config(stored: dict, current: dict, path: str | Path, resets: Resets = Resets(),
                        sections: tuple[str, ...] = ("data", "model", "train", "decode")
                        ) -> list[tuple[str, Any, Any]]:
    """Refuse to resume the checkpoint at ``path`` (whose run config is ``stored``) under the
    config ``current`` (both complete plain dicts) if an option changed that is neither free nor
    allowed by ``resets``: one :class:`CheckpointError` line naming every such option, its two
    values, and the flag that would allow it. Returns the allowed changes (to be recorded)."""
    refused, allowed = [], []
    for key, old, new in config_changes(stored, current, sections):
        if key in FREE or key.startswith("decode."):
            continue
        needs = RESETS.get(key)
        if needs is not None and all(getattr(resets, n) for n in needs):
            allowed.append((key, old, new))
            continue
        why = ("needs " + " and ".join(f"--reset-{n}" for n in needs)) if needs else "fixed for the run"
        refused.append(f"{key} {old!r} -> {new!r} ({why})")
    if refused:
        hint = ("resume with the checkpoint's values, pass the --reset flags named to change them "
                "deliberately, or start a new --out") if any("needs" in r for r in refused) else \
            "resume with the checkpoint's values or start a new --out"
        raise CheckpointError(f"{path}: the run was trained with other settings: {', '.join(refused)}; {hint}")
    return allowed


def describe(step: int, resets: Resets, changes: list[tuple[str, Any, Any]]) -> dict:
    """The record of one resume: ``{"step", "resumed": True, "resets", "changed"}``."""
    return {"step": step, "resumed": True, "resets": resets.names(),
            "changed": {key: [old, new] for key, old, new in changes}}


__all__ = ["FREE", "RESETS", "RESET_NAMES", "Resets", "check_resume_config", "complete_config",
           "config_changes", "describe"]
