"""The book's regime: one corpus, one pair of vocabularies and one recipe per model family,
shared by the translation chapters (3: the LSTM encoder-decoder, 4: attention, 5: the
Transformer), so that their numbers compare models on the same data.

Why this corpus: the chapters must train each model in about two minutes on one CPU thread.
With the full kosynth lexicon (thousands of English word types) no model learns much in that
budget -- most test words are seen a handful of times -- so the book trains on the ``small``
level (six lemmas per lexical list, a 4 x 4 name pool, up to three clauses and 30 English
words), which keeps the grammar, the morphology and the reordering and cuts the vocabulary to a
few hundred words. The corpus chapter shows what the full lexicon costs; the long runs
(``scripts/long_runs.py``) train on it.

>>> REGIME.level, REGIME.max_words
('small', 30)

Everything here is deterministic: the corpus and the vocabularies depend only on the
:class:`Regime`, a training run only on its recipe and seed (one CPU thread).
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from torch import nn

from companion.data.batching import BATCHINGS, encode_pairs, make_loader
from companion.data.kosynth import generate_pairs
from companion.data.kosynth.corpus import Pair, challenge_sets, split_pairs
from companion.data.vocab import SentencePieceVocab, train_vocabs
from companion.errors import ConfigError
from companion.evaluation.challenge import checkable
from companion.models import build_model
from companion.repro import set_determinism
from companion.training import History, Trainer
from companion.training.checkpoint import vocab_entry
from companion.training.optim import StepSchedule, inverse_sqrt_factor


@dataclass(frozen=True)
class Regime:
    """The corpus and vocabularies of the translation chapters.

    Attributes:
        level: kosynth difficulty level (:data:`companion.data.kosynth.LEVELS`), or a level
            name with knob overrides as :func:`companion.data.kosynth.generate_pairs` accepts.
        size: distinct sentence pairs generated (split 90/5/5, leak-free).
        corpus_seed: the generator's seed.
        src_vocab_size, tgt_vocab_size: SentencePiece pieces per side (an upper bound: the
            vocabularies stop growing when the corpus has no more pieces to offer).
        max_tokens: the token budget of one training batch (padded rows x the longer of a
            row's source and target, in pieces).
        valid_sentences, test_sentences: how many held-out pairs the chapters score.
        max_words: the corpus's longest English sentence (the level's cap).
        challenge_size: pairs per challenge set (numbers, negation, tense, wh, relative, long),
            drawn apart from the corpus and sharing no sentence with its training split.
    """

    level: Any = "small"
    size: int = 100_000
    corpus_seed: int = 0
    src_vocab_size: int = 1000
    tgt_vocab_size: int = 800
    max_tokens: int = 1500
    valid_sentences: int = 500
    test_sentences: int = 1000
    max_words: int = 30
    challenge_size: int = 200

    def with_level(self, level: Any) -> "Regime":
        """The same regime on another corpus level (the corpus chapter's lexicon figure)."""
        return dataclasses.replace(self, level=level)


#: the regime every translation chapter uses
REGIME = Regime()


@dataclass(frozen=True)
class Decoding:
    """How every translation of the book is decoded: beam width, length penalty ``alpha``
    (GNMT form ``((5 + |Y|) / 6) ** alpha``; 0 ranks by raw log-probability) and the longest
    output ``floor(max_len_a * |source| + max_len_b)`` pieces."""

    beam_size: int
    length_penalty: float
    max_len_a: float = 1.5
    max_len_b: int = 10

    def search(self, beam_size: int | None = None) -> dict[str, Any]:
        """Keyword arguments of :func:`companion.decoding.translate_corpus` for a search of
        width ``beam_size`` (default: this setting's; greedy search takes no length penalty)."""
        k = self.beam_size if beam_size is None else beam_size
        options: dict[str, Any] = {"beam_size": k, "max_len_a": self.max_len_a, "max_len_b": self.max_len_b}
        if k > 1:
            options["length_penalty"] = self.length_penalty
        return options


#: the one decoding setting of the book, the shipped presets (their ``decode`` sections), the long
#: runs and ``companion evaluate`` on a run the book saved. alpha was chosen on the validation
#: split by ``scripts/decode_alpha.py`` (record ``decoding-alpha``), never on test sentences:
#: beam 5 with alpha 0, 0.6 and 1 on one model of each family, the highest mean BLEU wins.
DECODING = Decoding(beam_size=5, length_penalty=1.0)


def words(text: str) -> int:
    """Length of a sentence in whitespace words (English words, Korean eojeols)."""
    return len(text.split())


@dataclass
class BookData:
    """The generated corpus of a :class:`Regime` and its vocabularies.

    ``splits`` maps ``train``/``valid``/``test`` to :class:`~companion.data.kosynth.Pair`
    lists (Korean, English, gold alignment, phenomenon tags); ``challenges`` maps each
    phenomenon (:data:`companion.data.kosynth.CHALLENGES`) to its challenge set.
    """

    regime: Regime
    splits: dict[str, list[Pair]]
    src_vocab: SentencePieceVocab
    tgt_vocab: SentencePieceVocab
    challenges: dict[str, list[Pair]]

    def challenge(self, name: str, max_words: int | None = None) -> list[Pair]:
        """The challenge set ``name``, restricted to English sides of at most ``max_words``."""
        if name not in self.challenges:
            raise ConfigError(f"unknown challenge set {name!r} (choose from {', '.join(self.challenges)})")
        return [p for p in self.challenges[name] if max_words is None or words(p.en) <= max_words]

    def pairs(self, split: str, max_words: int | None = None, limit: int | None = None) -> list[Pair]:
        """The pairs of ``split`` whose English side has at most ``max_words`` words (all if
        None), the first ``limit`` of them (all if None)."""
        if split not in self.splits:
            raise ConfigError(f"unknown split {split!r} (choose from {', '.join(self.splits)})")
        kept = [p for p in self.splits[split] if max_words is None or words(p.en) <= max_words]
        return kept[:limit] if limit else kept

    def held_out(self, split: str, max_words: int | None = None) -> list[Pair]:
        """The scored part of ``valid`` or ``test`` (the regime's sentence counts)."""
        n = self.regime.valid_sentences if split == "valid" else self.regime.test_sentences
        return self.pairs(split, max_words, n)

    def loader(self, pairs: Sequence[Pair], *, shuffle: bool, seed: int = 0,
               max_tokens: int | None = None, batching: str = "bucketed"):
        """A token-budget batch loader over ``pairs`` (source ids + EOS, shifted targets),
        length buckets or mixed-length batches (``batching``, see :data:`~companion.data.batching.BATCHINGS`)."""
        examples = encode_pairs([(p.ko, p.en) for p in pairs], self.src_vocab, self.tgt_vocab)
        return make_loader(examples, max_tokens or self.regime.max_tokens, shuffle=shuffle,
                           seed=seed, batching=batching)

    def summary(self) -> dict[str, Any]:
        """Counts a chapter prints: pairs per split, vocabulary sizes, length shares."""
        test = self.splits["test"]
        return {
            "level": getattr(self.regime.level, "name", self.regime.level),
            "pairs": {k: len(v) for k, v in self.splits.items()},
            "src_vocab": len(self.src_vocab),
            "tgt_vocab": len(self.tgt_vocab),
            "test_share_10_or_less": sum(words(p.en) <= 10 for p in test) / len(test),
            "test_share_20_or_more": sum(words(p.en) >= 20 for p in test) / len(test),
        }


#: the corpus of the long runs (``scripts/long_runs.py``): the full lexicon, sentences of up to
#: 80 English words, 200,000 pairs -- what the chapters cannot afford in minutes
LONG_REGIME = Regime(level="full", size=200_000, src_vocab_size=8000, tgt_vocab_size=6000,
                     max_tokens=2000, valid_sentences=1000, test_sentences=2000, max_words=80,
                     challenge_size=200)


@functools.lru_cache(maxsize=4)
def book_data(regime: Regime = REGIME) -> BookData:
    """Generate the regime's corpus in memory and train its vocabularies on the train split
    (cached per regime within a process)."""
    pairs = generate_pairs(regime.size, regime.corpus_seed, level=regime.level)
    splits = split_pairs(pairs, regime.corpus_seed)
    train = [(p.ko, p.en) for p in splits["train"]]
    src, tgt = train_vocabs(train, regime.src_vocab_size, regime.tgt_vocab_size,
                            seed=regime.corpus_seed, hard_vocab_limit=False)
    challenges = challenge_sets(regime.corpus_seed, regime.challenge_size, {ko for ko, _ in train},
                                {en for _, en in train}, level=regime.level)
    # an item whose reference holds nothing its check looks at would pass an empty output
    challenges = {name: [p for p in items if checkable(name, p.en)] for name, items in challenges.items()}
    return BookData(regime, splits, src, tgt, challenges)


# ---------------------------------------------------------------------------------- recipes
@dataclass(frozen=True)
class Recipe:
    """How the book trains one model: its registry name and constructor arguments, the
    Trainer's options, the longest English sentence it trains on (None: the corpus's) and its
    batch size in tokens (None: the regime's), and how its training batches are composed
    (``batching``: length buckets or mixed lengths, :data:`~companion.data.batching.BATCHINGS`).

    ``steps`` is chosen so that training takes about two minutes of one CPU thread.

    Controls the presets cannot express: ``schedule="constant_peak"`` trains at a constant
    rate from the first step, equal to the peak the preset's schedule reaches after its
    ``warmup_steps`` (for ``vaswani``: ``lr * d_model^-0.5 * warmup^-0.5``) -- no warmup, no
    spike, and no decay; ``schedule="peak_then_decay"`` starts at that peak too, holds it until
    the step where the preset's warmup would end, and from there follows the preset's schedule
    (its decay) exactly -- the warmup removed and nothing else; ``patience`` stops training after that many validations (every ``eval_every`` steps)
    without a better validation perplexity, ``max_steps`` bounding it, and keeps the best
    weights."""

    model: dict[str, Any]
    train: dict[str, Any]
    max_words: int | None = None
    max_tokens: int | None = None
    schedule: str = "preset"
    patience: int | None = None
    batching: str = "bucketed"

    def with_model(self, **args: Any) -> "Recipe":
        return dataclasses.replace(self, model={**self.model, **args})

    def with_train(self, **options: Any) -> "Recipe":
        return dataclasses.replace(self, train={**self.train, **options})

    def __post_init__(self) -> None:
        if self.schedule not in SCHEDULES:
            raise ConfigError(f"Recipe: schedule must be one of {', '.join(SCHEDULES)}, got {self.schedule!r}")
        if self.batching not in BATCHINGS:
            raise ConfigError(f"Recipe: batching must be one of {', '.join(BATCHINGS)}, got {self.batching!r}")
        if self.patience is not None and (self.patience < 1 or not self.train.get("eval_every")):
            raise ConfigError("Recipe: patience needs a positive count and train['eval_every'] > 0")


#: ``Recipe.schedule``: the preset's own schedule; a constant rate at its warmed-up peak; or that
#: peak from the first step and then the preset's own decay (only the warmup removed)
SCHEDULES = ("preset", "constant_peak", "peak_then_decay")


#: the recipe of every model the translation chapters train (see each chapter for the choice)
RECIPES: dict[str, Recipe] = {
    # Chapter 3: Sutskever et al.'s encoder-decoder, shrunk to the budget (one layer of 128
    # cells instead of four of 1000). It trains on sentences of at most 10 English words: on
    # the whole length range the same model needs several times the budget (the chapter says
    # why), and chapters 4 and 5 take up the long sentences.
    "seq2seq": Recipe(
        model={"name": "seq2seq", "embed_dim": 64, "hidden_size": 128, "num_layers": 1,
               "dropout": 0.1, "reverse_source": False},
        train={"preset": "adam", "lr": 0.008, "max_steps": 1800, "eval_every": 200,
               "clip_norm": 5.0},
        max_words=10,
    ),
}
RECIPES["seq2seq_reversed"] = RECIPES["seq2seq"].with_model(reverse_source=True)
# Chapter 4: Bahdanau et al.'s RNNsearch and its fixed-vector baseline RNNencdec, both on the
# whole length range (up to 30 English words) with the same steps, batches and optimiser.
# RNNencdec's hidden size is raised from 128 to 172 so that both have about 0.57M parameters
# (the paper kept the sizes equal instead). The ``_dot``/``_general`` variants change only the
# score function (the chapter's AER table).
RECIPES["rnnsearch"] = Recipe(
    model={"name": "rnnsearch", "embed_dim": 64, "hidden_size": 128, "attention": "additive",
           "attention_dim": 128, "maxout_dim": 64, "dropout": 0.1},
    train={"preset": "adam", "lr": 0.004, "max_steps": 700, "eval_every": 100, "clip_norm": 5.0},
)
RECIPES["rnnsearch_dot"] = RECIPES["rnnsearch"].with_model(attention="dot")
RECIPES["rnnsearch_general"] = RECIPES["rnnsearch"].with_model(attention="general")
RECIPES["rnnencdec"] = Recipe(
    model={"name": "rnnencdec", "embed_dim": 64, "hidden_size": 172, "maxout_dim": 64,
           "dropout": 0.1},
    train=RECIPES["rnnsearch"].train,
)
# The same RNNencdec trained until its validation perplexity stops improving (5 validations, 500
# steps, without a better one), at most 10,000 steps: how much of the gap to RNNsearch is the
# budget's and how much the fixed vector's. Its first 700 steps are bitwise those of "rnnencdec".
# Where each seed stopped, and what it reached, is in the record seeds-attention (chapter 4).
RECIPES["rnnencdec_converged"] = dataclasses.replace(RECIPES["rnnencdec"].with_train(max_steps=10_000), patience=5)

# Chapter 5: the Transformer (Vaswani et al.), on the whole length range: Pre-LN, 2 + 2 layers
# of width 128 with a narrow FFN (256), no dropout (the run sees the corpus about once), batches
# of 1000 tokens (more steps beat bigger batches at this budget) and the paper's
# inverse-square-root schedule with 150 warmup steps and a factor of 0.6 (peak rate 4.3e-3);
# label smoothing and dropout are left out (their effect at this budget is measured by the
# ablation below, not assumed).
RECIPES["transformer"] = Recipe(
    model={"name": "transformer", "d_model": 128, "num_heads": 4, "num_encoder_layers": 2,
           "num_decoder_layers": 2, "d_ff": 256, "dropout": 0.0, "pre_ln": True},
    train={"preset": "vaswani", "lr": 0.6, "warmup_steps": 150, "max_steps": 1200,
           "eval_every": 100, "clip_norm": 1.0},
    max_tokens=1000,
)
# The ablation's variants (scripts/transformer_ablations.py), each named for what it is:
# - "_no_warmup": the warmup removed and nothing else -- the recipe's peak rate from the first
#   step until the warmup would have ended, then the recipe's own inverse-square-root decay (the
#   clean "without warmup" control);
# - "_constant": a constant rate from the first step, equal to the peak the recipe's schedule
#   reaches after its warmup: no warmup *and* no decay (two changes, kept as a second control);
# - "_lr_spike": the schedule's formula with warmup 0, which starts at factor * d_model^-0.5
#   (12 times the peak above) and decays as step^-0.5 -- a learning-rate spike, not just the
#   absence of warmup;
# - "_postln": LayerNorm after each residual addition, as in the paper;
# - "_smoothed": label smoothing 0.1 (the paper's), nothing else changed;
# - "transformer_paper": the paper's configuration at our size -- Post-LN, dropout 0.1, label
#   smoothing 0.1 -- with the book's schedule, steps and batches.
RECIPES["transformer_constant"] = dataclasses.replace(RECIPES["transformer"], schedule="constant_peak")
RECIPES["transformer_no_warmup"] = dataclasses.replace(RECIPES["transformer"], schedule="peak_then_decay")
RECIPES["transformer_lr_spike"] = RECIPES["transformer"].with_train(warmup_steps=0)
RECIPES["transformer_postln"] = RECIPES["transformer"].with_model(pre_ln=False)
RECIPES["transformer_postln_constant"] = dataclasses.replace(RECIPES["transformer_postln"], schedule="constant_peak")
RECIPES["transformer_postln_no_warmup"] = dataclasses.replace(RECIPES["transformer_postln"], schedule="peak_then_decay")
RECIPES["transformer_smoothed"] = RECIPES["transformer"].with_train(label_smoothing=0.1)
RECIPES["transformer_paper"] = RECIPES["transformer"].with_model(pre_ln=False, dropout=0.1).with_train(
    label_smoothing=0.1)
# Record variations-transformer: rows of the paper's Table 3 at our size, one change each.
# (A) the number of heads at a constant amount of computation (d_k = d_model / h): one head of
# width 128, and eight heads of width 16 -- the per-head width of the paper's 32-head row;
# (D) residual dropout 0.1, nothing else changed. "_equal_cpu" is the book's Transformer
# stopped when it has spent RNNsearch's CPU time: the records seeds-transformer and
# seeds-attention (this machine's class, one thread) measured 114 and 76 CPU-seconds for 1,200
# and 700 steps, so 1,200 x 76 / 114 = 800 steps; the schedule does not depend on max_steps, so
# these are the first 800 steps of the book's run. Declared here before the runs; the chapter
# prints the CPU times the record measured.
RECIPES["transformer_heads1"] = RECIPES["transformer"].with_model(num_heads=1)
RECIPES["transformer_heads8"] = RECIPES["transformer"].with_model(num_heads=8)
RECIPES["transformer_dropout"] = RECIPES["transformer"].with_model(dropout=0.1)
RECIPES["transformer_equal_cpu"] = RECIPES["transformer"].with_train(max_steps=800)
# Record batching-transformer: the chapter's Transformer on mixed-length batches
# instead of length buckets. On the reversal task mixed batches let it learn several times faster
# per update (record convergence-transformer); these measure whether they do on the book's corpus.
# "_mixed" keeps the 1000-cell budget, so its batches carry about half the real tokens (measured:
# 446 target tokens per batch against 951 in length buckets; 48% of the cells are real);
# "_mixed_2150" raises the budget until they carry nearly as many (about 900), at twice the cells;
# "_packed" packs mixed batches several pairs to a row (companion.data.packing): as many real
# tokens as a bucket (950 of 1060 cells), at about a bucket's cost.
RECIPES["transformer_mixed"] = dataclasses.replace(RECIPES["transformer"], batching="mixed")
RECIPES["transformer_mixed_2150"] = dataclasses.replace(RECIPES["transformer_mixed"], max_tokens=2150)
RECIPES["transformer_packed"] = dataclasses.replace(RECIPES["transformer"], batching="packed")


#: a corpus for the scripts' plumbing checks (``--quick``): seconds to build, numbers not comparable
QUICK_REGIME = Regime(size=1500, valid_sentences=40, test_sentences=40)


def quick_recipe(spec: Recipe, steps: int) -> Recipe:
    """``spec`` cut to ``steps`` optimiser steps, validating halfway, its warmup (if any) cut to a
    quarter of them: the scripts' ``--quick`` plumbing checks, never a result."""
    warmup = {"warmup_steps": max(1, steps // 4)} if spec.train.get("warmup_steps") else {}
    return spec.with_train(max_steps=steps, eval_every=max(1, steps // 2), **warmup)


def recipe(name: str) -> Recipe:
    """The recipe registered as ``name``; a one-line error names the known ones."""
    if name not in RECIPES:
        raise ConfigError(f"unknown recipe {name!r} (known: {', '.join(sorted(RECIPES))})")
    return RECIPES[name]


@dataclass
class Trained:
    """A model trained by :func:`train`, with its curves and cost."""

    model: nn.Module
    history: History
    cpu_seconds: float
    parameters: int
    recipe: Recipe
    seed: int
    stopped: dict[str, Any] | None = None  # a recipe with patience: why and where it stopped


def num_parameters(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters() if p.requires_grad)


def prepare(spec: Recipe, data: BookData, seed: int) -> tuple[nn.Module, Any, Any]:
    """What :func:`train` trains: the recipe's model, built after seeding with ``seed``, and the
    training and validation loaders (the regime's pairs up to the recipe's length)."""
    train_pairs = data.pairs("train", spec.max_words)
    valid_pairs = data.held_out("valid", spec.max_words)
    loader = data.loader(train_pairs, shuffle=True, seed=seed, max_tokens=spec.max_tokens, batching=spec.batching)
    valid = data.loader(valid_pairs, shuffle=False)
    set_determinism(seed)
    model = build_model(dict(spec.model), len(data.src_vocab), len(data.tgt_vocab))
    return model, loader, valid


def make_trainer(spec: Recipe, model: nn.Module, loader: Any, valid: Any, **options: Any) -> Trainer:
    """The :class:`~companion.training.Trainer` of ``spec`` (its ``train`` options, ``options``
    added: ``out_dir``, ``log_every``, ...), with the recipe's ``schedule`` applied."""
    trainer = Trainer(model, loader, valid, **{"progress": False, **spec.train, **options})
    if spec.schedule != "preset":
        trainer.schedule = StepSchedule(trainer.optimizer, control_factor(spec, getattr(model, "d_model", 512)))
    return trainer


def control_factor(spec: Recipe, d_model: int):
    """The rate factor per step (``step -> factor``, 1-based) of a control schedule of
    :data:`SCHEDULES`: ``constant_peak`` gives the preset's warmed-up peak at every step;
    ``peak_then_decay`` gives that peak up to the end of the preset's warmup and the preset's own
    factor after it. For presets other than ``vaswani`` the peak is the base rate (factor 1) and
    both controls are constant."""
    if spec.schedule not in SCHEDULES[1:]:
        raise ConfigError(f"control_factor: {spec.schedule!r} is not a control schedule ({', '.join(SCHEDULES[1:])})")
    warmup = max(1, int(spec.train.get("warmup_steps") or 0))
    if spec.train.get("preset") != "vaswani":
        return lambda step: 1.0
    peak = inverse_sqrt_factor(warmup, warmup, d_model)
    if spec.schedule == "constant_peak":
        return lambda step: peak
    return lambda step: inverse_sqrt_factor(max(step, warmup), warmup, d_model)


def _merged(histories: Sequence[History]) -> History:
    """One :class:`History` for consecutive ``fit`` calls that each returned their own (lists
    joined, counts added)."""
    if len(histories) == 1:
        return histories[0]
    out = History()
    for h in histories:
        for f in dataclasses.fields(History):
            value = getattr(h, f.name)
            if isinstance(value, list):
                getattr(out, f.name).extend(value)
            elif isinstance(value, (int, float)) and not isinstance(value, bool) and f.name != "interrupted":
                setattr(out, f.name, getattr(out, f.name) + value)
            else:
                setattr(out, f.name, value)
    return out


def fit_until_plateau(trainer: Trainer, *, every: int, patience: int, max_steps: int | None = None,
                      cpu_budget: float | None = None, report=None) -> tuple[History, dict[str, Any]]:
    """Train in chunks of ``every`` steps, validating after each, until ``patience`` validations
    in a row bring no better validation perplexity (by 1e-4), ``max_steps`` are done or
    ``cpu_budget`` CPU seconds (of this process) are spent; then load the best-validation weights
    into the trainer's model. Validation touches no random generator, so the steps trained are
    bitwise those of one ``fit`` of the same length.

    Returns the merged :class:`History` and ``{"curve": [{"step", "valid_ppl", "cpu_s", "wall_s",
    "train_loss"}, ...], "stopped_by": "patience" | "steps" | "budget", "steps", "best_step",
    "best_valid_ppl"}``; ``report(point)`` is called after each validation."""
    if max_steps is None and cpu_budget is None:
        raise ConfigError("fit_until_plateau: give max_steps or cpu_budget (or both)")
    model = trainer.raw_model
    start, wall = time.process_time(), time.perf_counter()
    best, best_state, best_step, since = float("inf"), None, 0, 0
    histories, curve = [], []
    while True:
        target = trainer.step + every
        trainer.cfg.max_steps = min(target, max_steps) if max_steps else target
        before = len(histories[-1].train_loss) if histories else 0
        history = trainer.fit()
        if histories and history is histories[-1]:  # a Trainer that keeps one history for all fits
            losses = history.train_loss[before:]
        else:
            histories.append(history)
            losses = history.train_loss
        if not history.valid:
            raise ConfigError("fit_until_plateau: the trainer has no validation loader")
        point = {"step": trainer.step, "valid_ppl": history.valid[-1]["valid_ppl"],
                 "cpu_s": time.process_time() - start, "wall_s": time.perf_counter() - wall,
                 "train_loss": sum(losses) / max(1, len(losses))}
        curve.append(point)
        if report is not None:
            report(point)
        if point["valid_ppl"] < best - 1e-4:
            best, best_step, since = point["valid_ppl"], trainer.step, 0
            best_state = copy.deepcopy(model.state_dict())
        else:
            since += 1
        stop = ("patience" if since >= patience else "steps" if max_steps and trainer.step >= max_steps
                else "budget" if cpu_budget is not None and point["cpu_s"] >= cpu_budget else None)
        if stop or history.interrupted is not None:
            break
    model.load_state_dict(best_state)
    return _merged(histories), {"curve": curve, "stopped_by": stop or "interrupted", "steps": trainer.step,
                                "best_step": best_step, "best_valid_ppl": best}


def schedule_label(spec: Mapping[str, Any]) -> str:
    """What a recorded recipe's learning-rate schedule is, in words (``spec``: a recipe as a
    record stores it, with ``schedule`` and ``train``): every control named by what it removes.

    >>> schedule_label({"schedule": "peak_then_decay", "train": {"warmup_steps": 150}})
    'no warmup: the peak from step 1, then the decay'
    """
    schedule, warmup = spec.get("schedule", "preset"), spec["train"].get("warmup_steps")
    if schedule == "constant_peak":
        return "no warmup, no decay: the peak rate throughout"
    if schedule == "peak_then_decay":
        return "no warmup: the peak from step 1, then the decay"
    if schedule != "preset":
        raise ConfigError(f"schedule_label: unknown schedule {schedule!r} (choose from {', '.join(SCHEDULES)})")
    if spec["train"].get("preset") != "vaswani":
        return f"{spec['train'].get('preset', 'preset')} schedule"
    return f"warmup {warmup} steps, then the decay" if warmup else "w = 0 in the formula: a spike at step 1"


def describe_variant(spec: Mapping[str, Any]) -> str:
    """A Transformer variant of a record in one line: its LayerNorm placement, schedule,
    heads, dropout and label smoothing (``Pre-LN, 4 heads of width 32, warmup 150 steps, then
    the decay, dropout 0, smoothing 0``)."""
    model, train = spec["model"], spec["train"]
    heads = model.get("num_heads", 1)
    return (f"{'Pre' if model.get('pre_ln') else 'Post'}-LN, {heads} head{'s' if heads > 1 else ''} of width "
            f"{model['d_model'] // heads}, {schedule_label(spec)}, "
            f"dropout {model.get('dropout', 0.0):g}, smoothing {train.get('label_smoothing', 0.0):g}")


def run_config(spec: Recipe, regime: Regime = REGIME, seed: int = 0) -> dict[str, Any]:
    """The ``companion`` configuration (``data``/``model``/``train``/``decode`` sections) of a run
    of ``spec``: what a run saved by :func:`train` stores, so that ``companion evaluate`` and
    ``companion translate`` decode it with :data:`DECODING`."""
    if spec.schedule != "preset" or spec.patience is not None:
        raise ConfigError("run_config: only recipes that train with a preset's schedule for a fixed number "
                          "of steps have a companion configuration")
    return {"data": {"src_lang": "ko", "tgt_lang": "en", "src_vocab_size": regime.src_vocab_size,
                     "tgt_vocab_size": regime.tgt_vocab_size,
                     "max_tokens": spec.max_tokens or regime.max_tokens,
                     "batching": spec.batching,
                     "valid_max_sentences": regime.valid_sentences},
            "model": dict(spec.model),
            "train": {**spec.train, "seed": seed, "threads": 1},
            "decode": {**dataclasses.asdict(DECODING), "nbest": 1}}


def train(spec: Recipe | str, data: BookData | None = None, *, seed: int = 0,
          progress: bool = False, out_dir: Any = None) -> Trained:
    """Train one model of the book: build it from the recipe (seeded), train it with the
    package's :class:`~companion.training.Trainer` on the regime's training pairs up to the
    recipe's length, validating on the held-out validation pairs of the same length.

    With ``out_dir`` the run is saved as ``companion train`` saves one (checkpoints holding the
    :func:`run_config` and both vocabularies, ``metrics.jsonl``), which changes no weight: the
    ``companion evaluate``/``translate`` commands then read it."""
    spec = recipe(spec) if isinstance(spec, str) else spec
    data = data or book_data()
    model, loader, valid = prepare(spec, data, seed)
    saving = {}
    if out_dir is not None:
        src, tgt = data.src_vocab.to_bytes(), data.tgt_vocab.to_bytes()
        saving = {"out_dir": out_dir, "run_config": run_config(spec, data.regime, seed),
                  "vocab": {"src": vocab_entry(src), "tgt": vocab_entry(tgt)}}
    trainer = make_trainer(spec, model, loader, valid, progress=progress, **saving)
    start = time.process_time()
    stopped = None
    if spec.patience is not None:
        history, stopped = fit_until_plateau(trainer, every=spec.train["eval_every"], patience=spec.patience,
                                             max_steps=spec.train["max_steps"])
        stopped.pop("curve")  # the history holds it
    else:
        history = trainer.fit()
    seconds = time.process_time() - start
    return Trained(model.eval(), history, seconds, num_parameters(model), spec, seed, stopped)


__all__ = ["BookData", "DECODING", "Decoding", "RECIPES", "REGIME", "Recipe", "Regime", "SCHEDULES", "Trained",
           "book_data", "fit_until_plateau", "make_trainer", "num_parameters", "prepare", "QUICK_REGIME",
           "quick_recipe", "recipe", "run_config", "train", "words"]
