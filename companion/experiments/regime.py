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

import dataclasses
import functools
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from torch import nn

from companion.data.batching import encode_pairs, make_loader
from companion.data.kosynth import generate_pairs
from companion.data.kosynth.corpus import Pair, challenge_sets, split_pairs
from companion.data.vocab import SentencePieceVocab, train_vocabs
from companion.errors import ConfigError
from companion.models import build_model
from companion.repro import set_determinism
from companion.training import History, Trainer


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
               max_tokens: int | None = None):
        """A token-budget batch loader over ``pairs`` (source ids + EOS, shifted targets)."""
        examples = encode_pairs([(p.ko, p.en) for p in pairs], self.src_vocab, self.tgt_vocab)
        return make_loader(examples, max_tokens or self.regime.max_tokens, shuffle=shuffle,
                           seed=seed)

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
    return BookData(regime, splits, src, tgt, challenges)


# ---------------------------------------------------------------------------------- recipes
@dataclass(frozen=True)
class Recipe:
    """How the book trains one model: its registry name and constructor arguments, the
    Trainer's options, the longest English sentence it trains on (None: the corpus's) and its
    batch size in tokens (None: the regime's).

    ``steps`` is chosen so that training takes about two minutes of one CPU thread."""

    model: dict[str, Any]
    train: dict[str, Any]
    max_words: int | None = None
    max_tokens: int | None = None

    def with_model(self, **args: Any) -> "Recipe":
        return dataclasses.replace(self, model={**self.model, **args})

    def with_train(self, **options: Any) -> "Recipe":
        return dataclasses.replace(self, train={**self.train, **options})


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

# Chapter 5: the Transformer (Vaswani et al.), on the whole length range: Pre-LN, 2 + 2 layers
# of width 128 with a narrow FFN (256), no dropout (the run sees the corpus about once), batches
# of 1000 tokens (more steps beat bigger batches at this budget) and the paper's
# inverse-square-root schedule with 150 warmup steps and a factor of 0.6 (peak rate 4.3e-3);
# label smoothing 0.1 did not raise BLEU here. The variants flip one choice each (the chapter's
# ablation, scripts/transformer_ablations.py); "nowarmup" keeps the schedule's formula, whose
# rate then starts at 12 times the peak.
RECIPES["transformer"] = Recipe(
    model={"name": "transformer", "d_model": 128, "num_heads": 4, "num_encoder_layers": 2,
           "num_decoder_layers": 2, "d_ff": 256, "dropout": 0.0, "pre_ln": True},
    train={"preset": "vaswani", "lr": 0.6, "warmup_steps": 150, "max_steps": 1200,
           "eval_every": 100, "clip_norm": 1.0},
    max_tokens=1000,
)
RECIPES["transformer_nowarmup"] = RECIPES["transformer"].with_train(warmup_steps=0)
RECIPES["transformer_postln"] = RECIPES["transformer"].with_model(pre_ln=False)
RECIPES["transformer_postln_nowarmup"] = RECIPES["transformer_postln"].with_train(warmup_steps=0)


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


def num_parameters(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters() if p.requires_grad)


def prepare(spec: Recipe, data: BookData, seed: int) -> tuple[nn.Module, Any, Any]:
    """What :func:`train` trains: the recipe's model, built after seeding with ``seed``, and the
    training and validation loaders (the regime's pairs up to the recipe's length)."""
    train_pairs = data.pairs("train", spec.max_words)
    valid_pairs = data.held_out("valid", spec.max_words)
    loader = data.loader(train_pairs, shuffle=True, seed=seed, max_tokens=spec.max_tokens)
    valid = data.loader(valid_pairs, shuffle=False)
    set_determinism(seed)
    model = build_model(dict(spec.model), len(data.src_vocab), len(data.tgt_vocab))
    return model, loader, valid


def train(spec: Recipe | str, data: BookData | None = None, *, seed: int = 0,
          progress: bool = False) -> Trained:
    """Train one model of the book: build it from the recipe (seeded), train it with the
    package's :class:`~companion.training.Trainer` on the regime's training pairs up to the
    recipe's length, validating on the held-out validation pairs of the same length."""
    spec = recipe(spec) if isinstance(spec, str) else spec
    data = data or book_data()
    model, loader, valid = prepare(spec, data, seed)
    start = time.process_time()
    history = Trainer(model, loader, valid, progress=progress, **spec.train).fit()
    seconds = time.process_time() - start
    return Trained(model.eval(), history, seconds, num_parameters(model), spec, seed)


__all__ = ["BookData", "RECIPES", "REGIME", "Recipe", "Regime", "Trained", "book_data",
           "num_parameters", "prepare", "QUICK_REGIME", "quick_recipe", "recipe", "train", "words"]
