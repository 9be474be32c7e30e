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

The corpus is checked too: a checkpoint keeps the size, line count and hash of every file of the
train and valid splits (``corpus``, :func:`corpus_record`). A resume on another train split is
refused unless ``--reset-data`` (the saved position inside an epoch means nothing in another
corpus's batch order; with the reset the run continues from a new epoch of the new corpus, and
the change is recorded as above). A resume on another validation set (other valid files, or
another ``data.valid_max_sentences``) is allowed, but the best validation loss so far was
measured on the old one: it is reset, and the reset is said on stderr and in ``metrics.jsonl``
(``{"step": N, "best_reset": "..."}``).

The rules live here once: the ``train`` command checks the whole configuration before any
expensive work (:func:`check_resume_config`), and :meth:`companion.training.Trainer.load_state_dict`
checks the ``train`` section (so the Python API refuses the same changes).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.config import SECTIONS, drop_removed_keys
from companion.errors import CheckpointError, CompanionError
from companion.models import with_defaults
from companion.training.runfiles import resolve_batching

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
    that were all bucketed. ``data.batching: auto`` is compared as what it resolves to for the
    model (:func:`~companion.training.runfiles.resolve_batching`): the batches a run trains on,
    not the word that chose them. An unknown model is compared as written."""
    raw = drop_removed_keys(raw or {})
    out: dict[str, Any] = {}
    for name, cls in SECTIONS.items():
        known = {f.name for f in dataclasses.fields(cls)}
        out[name] = {**dataclasses.asdict(cls()), **{k: v for k, v in (raw.get(name) or {}).items()
                                                      if k in known}}
    if "batching" not in (raw.get("data") or {}):  # saved before data.batching existed: length buckets
        out["data"]["batching"] = "bucketed"
    if out["data"]["batching"] == "auto" and "name" in (raw.get("model") or {}):
        try:
            out["data"]["batching"] = resolve_batching("auto", raw["model"]["name"])
        except CompanionError:
            pass  # an unknown model: compared as written
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


def corpus_record(files: dict, valid_max_sentences: int | None) -> dict:
    """The checkpoint's ``corpus`` entry: the size, line count and BLAKE2b hash of every file of
    the train and valid splits (``files``: :func:`~companion.data.binarized.scan_splits`, keyed
    by file name, e.g. ``train.ko``) and how many valid pairs are scored (the first
    ``valid_max_sentences``, or all)."""
    lines = [fp["lines"] for name, fp in files.items() if name.startswith("valid.")]
    scored = min(lines, default=0)
    if valid_max_sentences is not None:
        scored = min(scored, valid_max_sentences)
    return {"files": {name: {k: fp[k] for k in ("bytes", "lines", "blake2b")} for name, fp in sorted(files.items())},
            "valid_max_sentences": valid_max_sentences, "valid_pairs": scored}


def _file_change(name: str, old: dict | None, new: dict | None) -> str | None:
    if old is None or new is None:
        return f"{name} {'added' if old is None else 'missing'}"
    if (old.get("bytes"), old.get("blake2b")) == (new.get("bytes"), new.get("blake2b")):
        return None
    if old.get("bytes") != new.get("bytes"):
        return f"{name} {old.get('bytes'):,} -> {new.get('bytes'):,} bytes"
    return f"{name} other content of the same size"


def corpus_changes(stored: dict | None, current: dict) -> tuple[list[str], list[str]]:
    """``(train, valid)``: what differs between two :func:`corpus_record` entries, as short
    phrases (``train.ko 1,200 -> 1,350 bytes``), for the train split and for the validation set
    (its files, and the number of pairs scored, which ``data.valid_max_sentences`` limits). A
    checkpoint saved without the entry (an older run) has nothing to compare: ``([], [])``."""
    if not isinstance(stored, dict) or not isinstance(stored.get("files"), dict):
        return [], []
    old, new = stored["files"], current["files"]
    train, valid = [], []
    for name in sorted(set(old) | set(new)):
        change = _file_change(name, old.get(name), new.get(name))
        if change:
            (train if name.startswith("train.") else valid).append(change)
    a, b = stored.get("valid_pairs"), current.get("valid_pairs")
    if a != b:
        valid.append(f"valid pairs scored {a} -> {b} (data.valid_max_sentences "
                     f"{stored.get('valid_max_sentences')!r} -> {current.get('valid_max_sentences')!r})")
    return train, valid


def check_resume_corpus(stored: dict | None, current: dict, path: str | Path, resets: Resets = Resets()
                        ) -> list[tuple[str, Any, Any]]:
    """Refuse to resume the checkpoint at ``path`` on a train split other than the one it was
    trained on (``stored``, its ``corpus`` entry; ``current``, the data given now) unless
    ``resets.data``: one :class:`CheckpointError` line naming every changed file. The saved
    position inside an epoch means nothing in another corpus's batch order; with
    ``--reset-data`` the run continues from a new epoch of the new corpus. A changed validation
    set is allowed (the caller resets the best validation loss: see :func:`corpus_changes`).
    Returns the allowed changes, ``[("corpus train.ko", old, new)]``, to be recorded."""
    train, _ = corpus_changes(stored, current)
    if not train:
        return []
    if not resets.data:
        raise CheckpointError(f"{path}: the run was trained on other data ({', '.join(train)}); resume on the "
                              f"run's corpus, pass --reset-data to continue on this one from a new epoch, "
                              f"or start a new --out")
    out = []
    for name in sorted(n for n in set(stored["files"]) | set(current["files"]) if n.startswith("train.")):
        a, b = stored["files"].get(name), current["files"].get(name)
        if _file_change(name, a, b):
            short = (lambda fp: None if fp is None else f"{fp['bytes']} bytes, blake2b {fp['blake2b'][:12]}")
            out.append((f"corpus {name}", short(a), short(b)))
    return out


def describe(step: int, resets: Resets, changes: list[tuple[str, Any, Any]]) -> dict:
    """The record of one resume: ``{"step", "resumed": True, "resets", "changed"}``."""
    return {"step": step, "resumed": True, "resets": resets.names(),
            "changed": {key: [old, new] for key, old, new in changes}}


__all__ = ["FREE", "RESETS", "RESET_NAMES", "Resets", "check_resume_config", "check_resume_corpus",
           "complete_config", "config_changes", "corpus_changes", "corpus_record", "describe"]
