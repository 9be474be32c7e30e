"""Learning speed per update: a task any NMT toolkit learns quickly, and the loops to compare on it.

**The task**: the source is a sentence of uniformly random words ``w0 .. w{V-1}``
whose length is uniform in ``[min_len, max_len]``; the target is the same sentence reversed,
each ``wN`` written ``vN``. Nothing in it needs linguistic knowledge, so how fast a model gets
there measures the model and its training loop only. :class:`ReversalTask` generates it from a
seed; :func:`reversal_data` adds word-level vocabularies (SentencePiece ``word`` models: one id
per word, ``V + 4`` ids per side) and the package's bucketed token-budget loaders.

**The recipe** (:class:`Recipe`): a Pre-LN Transformer, Adam ``(0.9, 0.98)``, an
inverse-square-root schedule given by its *peak* rate and warmup, gradient-norm clipping, label
smoothing, batches under a token budget.

**Three ways to train it**, so that a difference can be pinned on one part:

- :func:`plain_loop`: the model in a minimal PyTorch loop written here from the recipe alone
  (``torch.optim.Adam``, ``LambdaLR``, ``F.cross_entropy``, ``clip_grad_norm_``) -- no package
  training code at all;
- :func:`trainer_loop`: the same model through :class:`~companion.training.Trainer`;
- either loop with :func:`reference_model`, an ``nn.Transformer``-based translator
  (:class:`~companion.experiments.tiny_transformer_run.NNTransformerTranslator`) of the same sizes, in place of
  the package's :class:`~companion.models.transformer.Transformer`.

Both loops evaluate the same way (:class:`Curve`): teacher-forced dev perplexity (no label
smoothing) and, optionally, greedy dev BLEU, at fixed update counts, with the CPU seconds spent
*training* (evaluation excluded) up to that update. ``scripts/convergence.py`` runs the
experiments and records them in ``book/results/convergence-transformer.json``;
``bench/convergence.py`` runs a reduced size.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from torch.utils.data import DataLoader, Sampler

from companion.data.batching import PairDataset, collate, encode_pairs, example_lengths, make_loader, source_ids
from companion.data.vocab import SentencePieceVocab
from companion.decoding import decode_corpus
from companion.errors import ConfigError
from companion.evaluation import corpus_bleu
from companion.experiments.tiny_transformer_run import NNTransformerTranslator
from companion.models.transformer import RecomputingDecoder, Transformer
from companion.specials import PAD
from companion.training import Trainer, evaluate_loss
from companion.training.optim import vaswani_factor
from companion.validation import check_choice, check_int


# ------------------------------------------------------------------------------------- the task
@dataclass(frozen=True)
class ReversalTask:
    """Reverse a sentence of random words, renaming each ``wN`` to ``vN``.

    Attributes:
        words: distinct words per side (``w0 .. w{words-1}``, ``v0 ..``).
        min_len, max_len: sentence length, uniform in ``[min_len, max_len]`` words.
        train_size, dev_size, test_size: pairs per split (drawn in this order from one stream).
        seed: the generator's seed.

    >>> ReversalTask(words=10, train_size=1, dev_size=0, test_size=0, max_len=5).splits()["train"]
    [('w6 w0 w4 w8 w7', 'v7 v8 v4 v0 v6')]
    """

    words: int = 2000
    min_len: int = 5
    max_len: int = 40
    train_size: int = 50_000
    dev_size: int = 1000
    test_size: int = 1000
    seed: int = 0

    def __post_init__(self) -> None:
        where = "ReversalTask"
        check_int("words", self.words, 1, where)
        check_int("min_len", self.min_len, 1, where)
        check_int("max_len", self.max_len, self.min_len, where)
        check_int("train_size", self.train_size, 1, where)
        check_int("dev_size", self.dev_size, 0, where)
        check_int("test_size", self.test_size, 0, where)
        check_int("seed", self.seed, 0, where)

    def pair(self, rng: random.Random) -> tuple[str, str]:
        ids = [rng.randrange(self.words) for _ in range(rng.randint(self.min_len, self.max_len))]
        return " ".join(f"w{i}" for i in ids), " ".join(f"v{i}" for i in reversed(ids))

    def splits(self) -> dict[str, list[tuple[str, str]]]:
        """``{"train", "dev", "test"}`` -> ``(source, target)`` pairs."""
        rng = random.Random(self.seed)
        return {name: [self.pair(rng) for _ in range(n)]
                for name, n in (("train", self.train_size), ("dev", self.dev_size), ("test", self.test_size))}


@dataclass(eq=False)
class ReversalData:
    """A generated :class:`ReversalTask` with its word vocabularies."""

    task: ReversalTask
    splits: dict[str, list[tuple[str, str]]]
    src_vocab: SentencePieceVocab
    tgt_vocab: SentencePieceVocab

    def loader(self, split: str, max_tokens: int, *, shuffle: bool, seed: int = 0, limit: int | None = None,
               batching: str = "bucketed"):
        """The package's loader over the first ``limit`` pairs of ``split`` (all if None), its
        batches as ``batching`` says (:data:`~companion.data.batching.BATCHINGS`)."""
        check_choice("split", split, tuple(self.splits), "ReversalData.loader")
        examples = encode_pairs(self.splits[split][:limit], self.src_vocab, self.tgt_vocab)
        return make_loader(examples, max_tokens, shuffle=shuffle, seed=seed,
                           batching=batching)


@functools.lru_cache(maxsize=2)
def reversal_data(task: ReversalTask = ReversalTask()) -> ReversalData:
    """Generate ``task`` and train one SentencePiece ``word`` model per side on its training split
    (every word of the task is an id of its own: ``len(vocab) == words + 4`` when the training
    split holds every word)."""
    splits = task.splits()
    train = splits["train"]
    vocabs = [SentencePieceVocab.train([p[side] for p in train], task.words + 4, model_type="word",
                                       seed=task.seed, hard_vocab_limit=False) for side in (0, 1)]
    return ReversalData(task, splits, vocabs[0], vocabs[1])


# ------------------------------------------------------------------------------------ the recipe
@dataclass(frozen=True)
class Recipe:
    """The model and optimisation of the comparison (by default, those of the recorded one).

    ``peak_lr`` is the largest learning rate: reached at update ``warmup_steps`` after a linear
    warmup, then decayed as ``peak_lr * sqrt(warmup_steps / s)``. ``normalization`` divides the
    summed token loss by the number of real target ``"tokens"`` or of ``"sentences"``.

    ``schedule="joeynmt"`` applies the rate as JoeyNMT 2.3 does with the same settings (measured
    from its logs): the first update at the full ``peak_lr`` (the optimiser's initial rate, before
    the scheduler has stepped), every later update ``s`` at ``max(rate(s - 1), min_lr)`` -- one
    update behind, never below ``min_lr`` (JoeyNMT's 1e-4), so the first ~80 updates of the
    warmup run faster than the linear ramp. ``schedule="linear"`` is the ramp itself
    (:func:`inverse_sqrt_lr`); ``min_lr`` applies to both.
    """

    d_model: int = 256
    num_heads: int = 4
    num_layers: int = 3
    d_ff: int = 1024
    dropout: float = 0.1
    pre_ln: bool = True
    peak_lr: float = 5e-4
    warmup_steps: int = 400
    betas: tuple[float, float] = (0.9, 0.98)
    eps: float = 1e-9
    clip_norm: float = 1.0
    label_smoothing: float = 0.1
    max_tokens: int = 4096
    normalization: str = "tokens"
    schedule: str = "linear"
    min_lr: float = 0.0

    def __post_init__(self) -> None:
        check_choice("normalization", self.normalization, ("tokens", "sentences"), "Recipe")
        check_choice("schedule", self.schedule, ("linear", "joeynmt"), "Recipe")
        if not 0.0 <= self.min_lr <= self.peak_lr:
            raise ConfigError(f"Recipe: min_lr must lie in [0, peak_lr={self.peak_lr}], got {self.min_lr!r}")

    def lr(self, update: int) -> float:
        """The rate applied at optimiser update ``update`` (1-based), per ``schedule``."""
        if self.schedule == "joeynmt":
            if update <= 1:
                return self.peak_lr
            return max(inverse_sqrt_lr(update - 1, self.peak_lr, self.warmup_steps), self.min_lr)
        return max(inverse_sqrt_lr(update, self.peak_lr, self.warmup_steps), self.min_lr)

    def replace(self, **changes: Any) -> "Recipe":
        return dataclasses.replace(self, **changes)

    @property
    def sizes(self) -> dict[str, Any]:
        return {"d_model": self.d_model, "num_heads": self.num_heads, "num_encoder_layers": self.num_layers,
                "num_decoder_layers": self.num_layers, "d_ff": self.d_ff, "dropout": self.dropout,
                "pre_ln": self.pre_ln}


def inverse_sqrt_lr(step: int, peak: float, warmup: int) -> float:
    """The recipe's rate at optimiser step ``step`` (1-based): ``peak * min(s / w, sqrt(w / s))``."""
    s, w = max(1, step), max(1, warmup)
    return peak * min(s / w, math.sqrt(w / s))


# ------------------------------------------------------------------------------------ the models
def package_model(data: ReversalData, recipe: Recipe, seed: int = 0, **options: Any) -> Transformer:
    """The package :class:`Transformer` of the recipe's sizes (tied output), drawn from ``seed``."""
    torch.manual_seed(seed)
    return Transformer(len(data.src_vocab), len(data.tgt_vocab), **{**recipe.sizes, **options})


#: initialisations of the reference's embeddings (the output layer is the target embedding)
EMBED_INITS = ("normal", "xavier", "unit")


def reference_model(data: ReversalData, recipe: Recipe, seed: int = 0, embed_init: str = "normal") -> nn.Module:
    """An ``nn.Transformer``-based translator of the recipe's sizes, Pre-LN, tied output
    (:class:`~companion.experiments.tiny_transformer_run.NNTransformerTranslator`), drawn from ``seed``.

    ``nn.Transformer`` Xavier-initialises its own matrices (each fused ``in_proj`` as one
    ``(3 d, d)`` matrix) and applies its one dropout rate to residuals, attention weights and
    FFN activations. ``embed_init`` draws the two embeddings: ``"normal"`` ``N(0, d^-1/2)``
    (fairseq's), ``"xavier"`` Xavier-uniform (JoeyNMT's), ``"unit"`` ``nn.Embedding``'s
    ``N(0, 1)``; PAD rows zero."""
    check_choice("embed_init", embed_init, EMBED_INITS, "reference_model")
    if not recipe.pre_ln:
        raise ConfigError("reference_model: the comparison uses Pre-LN (nn.Transformer's Post-LN "
                          "adds a LayerNorm after each stack)")
    torch.manual_seed(seed)
    model = NNTransformerTranslator(len(data.src_vocab), len(data.tgt_vocab), d_model=recipe.d_model,
                                    num_heads=recipe.num_heads, num_encoder_layers=recipe.num_layers,
                                    num_decoder_layers=recipe.num_layers, d_ff=recipe.d_ff,
                                    dropout=recipe.dropout, pre_ln=True, max_len=data.task.max_len + 2)
    with torch.no_grad():
        for emb in (model.src_embed, model.tgt_embed):
            if embed_init == "normal":
                nn.init.normal_(emb.weight, 0.0, recipe.d_model ** -0.5)
            elif embed_init == "xavier":
                nn.init.xavier_uniform_(emb.weight)
            emb.weight[PAD].zero_()
    return model


# ------------------------------------------------------------------------------------ evaluation
@dataclass
class Curve:
    """One training run's learning curve: per evaluation, the update count, the CPU seconds spent
    training so far (evaluations excluded), dev perplexity, greedy dev BLEU (None where not
    computed), the learning rate of the last update, and the share of updates clipped since the
    previous evaluation."""

    name: str
    updates: list[int] = field(default_factory=list)
    cpu_s: list[float] = field(default_factory=list)
    dev_ppl: list[float] = field(default_factory=list)
    dev_bleu: list[float | None] = field(default_factory=list)
    lr: list[float] = field(default_factory=list)
    clip_rate: list[float] = field(default_factory=list)
    eval_cpu_s: float = 0.0
    notes: dict[str, Any] = field(default_factory=dict)

    def first(self, key: str, below: float | None = None, above: float | None = None) -> int | None:
        """Index of the first evaluation where ``key`` is below ``below`` (or above ``above``)."""
        for i, v in enumerate(getattr(self, key)):
            if v is not None and ((below is not None and v <= below) or (above is not None and v >= above)):
                return i
        return None

    def to_point(self, key: str, below: float | None = None, above: float | None = None) -> dict[str, Any]:
        """``{"updates", "cpu_s"}`` of the first evaluation that reaches the target (None, None if
        none does)."""
        i = self.first(key, below, above)
        return {"updates": None if i is None else self.updates[i], "cpu_s": None if i is None else self.cpu_s[i]}

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@torch.no_grad()
def greedy_bleu(model: nn.Module, data: ReversalData, split: str = "dev", limit: int | None = None) -> float:
    """Greedy-search BLEU of ``split``'s first ``limit`` sources (sacrebleu, 13a)."""
    pairs = data.splits[split][:limit]
    decoder = model
    if not hasattr(model, "step"):  # an nn.Transformer reference: decode without a cache
        decoder = RecomputingDecoder(model)
    was = model.training
    model.eval()
    try:
        out = decode_corpus(decoder, [source_ids(data.src_vocab, s) for s, _ in pairs], beam_size=1,
                            max_len_a=1.0, max_len_b=5)
    finally:
        model.train(was)
    return corpus_bleu([data.tgt_vocab.decode(h[0].tokens) for h in out], [t for _, t in pairs]).score


class Evaluator:
    """Evaluates a model at the updates of a :class:`Curve` without touching any random generator."""

    def __init__(self, data: ReversalData, dev_loader, *, bleu_below_ppl: float | None = None,
                 bleu_limit: int | None = None):
        self.data, self.dev_loader = data, dev_loader
        self.bleu_below_ppl, self.bleu_limit = bleu_below_ppl, bleu_limit

    def __call__(self, curve: Curve, model: nn.Module, updates: int, train_cpu_s: float, lr: float,
                 clip_rate: float) -> None:
        start = time.process_time()
        with torch.random.fork_rng(devices=[]):
            _, ppl, _ = evaluate_loss(model, self.dev_loader, precision="fp32")
            bleu = None
            if self.bleu_below_ppl is not None and ppl <= self.bleu_below_ppl:
                bleu = greedy_bleu(model, self.data, "dev", self.bleu_limit)
        curve.updates.append(updates)
        curve.cpu_s.append(train_cpu_s)
        curve.dev_ppl.append(ppl)
        curve.dev_bleu.append(bleu)
        curve.lr.append(lr)
        curve.clip_rate.append(clip_rate)
        curve.eval_cpu_s += time.process_time() - start


def _stop(curve: Curve, stop_ppl: float | None, stop_bleu: float | None) -> bool:
    ppl_ok = stop_ppl is None or curve.dev_ppl[-1] <= stop_ppl
    bleu_ok = stop_bleu is None or (curve.dev_bleu[-1] is not None and curve.dev_bleu[-1] >= stop_bleu)
    return (stop_ppl is not None or stop_bleu is not None) and ppl_ok and bleu_ok


# ------------------------------------------------------------------------------------ the loops
def plain_loop(name: str, model: nn.Module, loader, evaluate: Evaluator, recipe: Recipe, *, max_steps: int,
               eval_every: int, stop_ppl: float | None = None, stop_bleu: float | None = None) -> Curve:
    """Train ``model`` with the recipe in a minimal PyTorch loop (no package training code):
    ``loss = sum of label-smoothed token cross-entropies / (tokens or sentences)``, backward,
    ``clip_grad_norm_``, ``LambdaLR`` inverse-square-root step, ``Adam`` step. Evaluates every
    ``eval_every`` updates; stops at ``max_steps`` or once ``stop_ppl``/``stop_bleu`` are reached."""
    optimizer = torch.optim.Adam(model.parameters(), lr=recipe.peak_lr, betas=recipe.betas, eps=recipe.eps)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda k: recipe.lr(k + 1) / recipe.peak_lr)  # k = updates done
    curve = Curve(name)
    model.train()
    step, clipped, cpu, epoch = 0, 0, 0.0, 0
    while step < max_steps:
        loader.batch_sampler.set_epoch(epoch)
        with torch.random.fork_rng(devices=[]):  # as the Trainer: making an iterator draws no dropout mask
            batches = iter(loader)
        for batch in batches:
            start = time.process_time()
            logits = model(batch)
            loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), batch.tgt_out.reshape(-1),
                                   ignore_index=PAD, reduction="sum", label_smoothing=recipe.label_smoothing)
            denominator = batch.ntokens if recipe.normalization == "tokens" else batch.sentences
            (loss / denominator).backward()
            max_norm = recipe.clip_norm if recipe.clip_norm > 0 else math.inf
            norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
            clipped += int(norm > max_norm)
            lr = optimizer.param_groups[0]["lr"]
            optimizer.step()
            schedule.step()
            optimizer.zero_grad(set_to_none=True)
            step += 1
            cpu += time.process_time() - start
            if step % eval_every == 0 or step == max_steps:
                evaluate(curve, model, step, cpu, lr, clipped / eval_every)
                clipped = 0
                model.train()
                if _stop(curve, stop_ppl, stop_bleu):
                    return curve
            if step >= max_steps:
                break
        epoch += 1
    return curve


def trainer_loop(name: str, model: nn.Module, loader, evaluate: Evaluator, *, max_steps: int, eval_every: int,
                 stop_ppl: float | None = None, stop_bleu: float | None = None, **options: Any) -> Curve:
    """Train ``model`` with :class:`~companion.training.Trainer` (``options`` are its options:
    preset, lr, warmup_steps, clip_norm, label_smoothing, ...), ``eval_every`` updates at a time,
    evaluating in between; stops like :func:`plain_loop`."""
    trainer = Trainer(model, loader, None, progress=False, max_steps=eval_every, eval_every=0,
                      log_every=eval_every, **options)
    curve = Curve(name)
    cpu = 0.0
    while trainer.step < max_steps:
        trainer.cfg.max_steps = min(max_steps, trainer.step + eval_every)
        before = trainer.step
        start = time.process_time()
        history = trainer.fit()
        cpu += time.process_time() - start
        done = trainer.step - before
        evaluate(curve, model, trainer.step, cpu, history.lr[-1], history.clipped / max(1, done))
        trainer.history.clipped = 0
        if _stop(curve, stop_ppl, stop_bleu):
            break
    return curve


def peak_lr_options(recipe: Recipe) -> dict[str, Any]:
    """The Trainer options that train with ``recipe``: the ``vaswani`` preset (Adam 0.9/0.98/1e-9)
    with the factor that peaks at the recipe's rate (:func:`~companion.training.optim.vaswani_factor`),
    warmup, clipping, label smoothing and loss normalisation. The Trainer's schedule is the linear
    warmup of :func:`inverse_sqrt_lr`: a recipe with another ``schedule`` or a ``min_lr`` is refused."""
    if recipe.schedule != "linear" or recipe.min_lr:
        raise ConfigError(f"peak_lr_options: the Trainer has no {recipe.schedule!r} schedule with "
                          f"min_lr={recipe.min_lr}; train this recipe with the plain loop")
    return {"preset": "vaswani", "lr": vaswani_factor(recipe.peak_lr, recipe.warmup_steps, recipe.d_model),
            "warmup_steps": recipe.warmup_steps, "clip_norm": recipe.clip_norm,
            "label_smoothing": recipe.label_smoothing, "loss_normalization": recipe.normalization}


def run(name: str, loop: str, model: nn.Module, data: ReversalData, recipe: Recipe, *, max_steps: int,
        eval_every: int, seed: int = 0, bleu_below_ppl: float | None = None, bleu_limit: int | None = None,
        dev_limit: int | None = None, stop_ppl: float | None = None, stop_bleu: float | None = None,
        trainer_options: dict[str, Any] | None = None, batching: str = "bucketed") -> Curve:
    """One experiment: ``model`` trained by ``loop`` (``"plain"`` or ``"trainer"``) on the task's
    batches (``batching``: length buckets, mixed lengths or packed; shuffled with ``seed``), evaluated
    on the first ``dev_limit`` dev pairs.
    ``trainer_options`` default to :func:`peak_lr_options`."""
    check_choice("loop", loop, ("plain", "trainer"), "run")
    loader = data.loader("train", recipe.max_tokens, shuffle=True, seed=seed, batching=batching)
    evaluate = Evaluator(data, data.loader("dev", recipe.max_tokens, shuffle=False, limit=dev_limit),
                         bleu_below_ppl=bleu_below_ppl, bleu_limit=bleu_limit)
    if loop == "plain":
        curve = plain_loop(name, model, loader, evaluate, recipe, max_steps=max_steps, eval_every=eval_every,
                           stop_ppl=stop_ppl, stop_bleu=stop_bleu)
    else:
        options = trainer_options if trainer_options is not None else peak_lr_options(recipe)
        curve = trainer_loop(name, model, loader, evaluate, max_steps=max_steps, eval_every=eval_every,
                             stop_ppl=stop_ppl, stop_bleu=stop_bleu, **options)
    curve.notes.update(loop=loop, model=type(model).__name__)
    return curve


# ------------------------------------------------------------------------------ reading the record
#: how a table names a run's batches
BATCH_LABELS = {"bucketed": "length buckets", "mixed": "mixed lengths", "packed": "mixed lengths, packed"}


def batching_of(run: dict[str, Any]) -> str:
    """A recorded run's batching (records made before packing existed say ``bucketed: bool``)."""
    return run.get("batching") or ("bucketed" if run.get("bucketed", True) else "mixed")


def curve_at(run: dict[str, Any], update: int, key: str = "dev_ppl") -> float | None:
    """A recorded run's ``key`` (``dev_ppl``, ``dev_bleu``, ``cpu_s``...) at evaluation ``update``
    (None where it was not evaluated or not computed)."""
    curve = run["curve"]
    return dict(zip(curve["updates"], curve[key])).get(update)


def first_update_below(run: dict[str, Any], ppl: float) -> int | None:
    """The first evaluated update of a recorded run whose dev perplexity is at most ``ppl``."""
    return next((u for u, p in zip(run["curve"]["updates"], run["curve"]["dev_ppl"]) if p <= ppl), None)


def comparison_rows(runs: dict[str, dict[str, Any]], names: Sequence[str], shown: Sequence[int],
                    below: float = 100.0) -> list[dict[str, Any]]:
    """One table row per recorded run of ``names``: its label, batches (length buckets or mixed
    lengths), rate (the recipe's linear warmup or JoeyNMT's), training CPU-seconds per update, the
    dev perplexity at each update of ``shown``, the first update at perplexity ``below`` or less,
    and the greedy BLEU of its last evaluation ("—" where not reached or not computed)."""
    rows = []
    for name in names:
        run, curve = runs[name], runs[name]["curve"]
        joeynmt = run.get("loop") == "joeynmt" or run.get("recipe", {}).get("schedule") == "joeynmt"
        row = {"run": run["label"], "batches": BATCH_LABELS[batching_of(run)],
               "rate": "JoeyNMT's" if joeynmt else "linear warmup",
               "CPU-s per update": curve["cpu_s"][-1] / curve["updates"][-1]}
        row.update({f"ppl at {u}": curve_at(run, u) for u in shown})
        row[f"first ppl ≤ {below:g}"] = first_update_below(run, below) or "—"
        bleu = curve["dev_bleu"][-1]
        row[f"BLEU at {curve['updates'][-1]}"] = "—" if bleu is None else bleu
        rows.append(row)
    return rows


def tokens_per_update(run: dict[str, Any], data: ReversalData | None = None, limit: int = 300) -> float:
    """Real target tokens (labels that count in the loss) per update of a recorded run: JoeyNMT's
    from the batches its record logged, a package run's from the first ``limit`` training batches
    of its own loader (its batching and token budget) over ``data``."""
    if run.get("batches"):
        return float(np.mean([b[1] for b in run["batches"]]))
    if data is None:
        raise ConfigError(f"tokens_per_update: {run.get('label')!r} logged no batches; pass the task's data")
    return _loader_tokens(data, run["recipe"]["max_tokens"], batching_of(run), limit)


@functools.lru_cache(maxsize=16)
def _loader_tokens(data: ReversalData, max_tokens: int, batching: str, limit: int) -> float:
    from companion.data.batching import describe_batches

    loader = data.loader("train", max_tokens, shuffle=True, batching=batching)
    return describe_batches(loader, limit=limit)["target_tokens"]


def ppl_at(run: dict[str, Any], axis: Sequence[float], mark: float) -> float | None:
    """A recorded run's dev perplexity where ``axis`` (one value per evaluation: real tokens or
    CPU-seconds seen so far) reaches ``mark``, interpolated log-linearly between the two
    evaluations around it; None outside the evaluated range."""
    ppl = run["curve"]["dev_ppl"]
    for (x0, p0), (x1, p1) in zip(zip(axis, ppl), zip(axis[1:], ppl[1:])):
        if x0 <= mark <= x1 and p0 and p1:
            t = 0.0 if x1 == x0 else (mark - x0) / (x1 - x0)
            return math.exp((1 - t) * math.log(p0) + t * math.log(p1))
    return None


def equal_footing_rows(runs: dict[str, dict[str, Any]], names: Sequence[str], tokens: dict[str, float],
                       token_marks: Sequence[float], cpu_marks: Sequence[float]) -> list[dict[str, Any]]:
    """One row per recorded run of ``names``: real target tokens per update (``tokens``, see
    :func:`tokens_per_update`), and its dev perplexity after each of ``token_marks`` real target
    tokens (millions) and each of ``cpu_marks`` training CPU-minutes -- the comparison per unit of
    data and per unit of compute that a comparison per update leaves out."""
    rows = []
    for name in names:
        run = runs[name]
        seen = [u * tokens[name] / 1e6 for u in run["curve"]["updates"]]
        minutes = [c / 60 for c in run["curve"]["cpu_s"]]
        row = {"run": run["label"], "real tokens per update": tokens[name]}
        row.update({f"ppl at {m:g}M tokens": ppl_at(run, seen, m) for m in token_marks})
        row.update({f"ppl at {m:g} CPU-min": ppl_at(run, minutes, m) for m in cpu_marks})
        rows.append(row)
    return rows


__all__ = ["BATCH_LABELS", "Curve", "EMBED_INITS", "Evaluator", "Recipe", "ReversalData", "ReversalTask",
           "batching_of", "comparison_rows", "curve_at", "equal_footing_rows", "first_update_below", "greedy_bleu",
           "inverse_sqrt_lr", "package_model", "peak_lr_options", "plain_loop", "ppl_at", "reference_model",
           "reversal_data", "run", "tokens_per_update", "trainer_loop"]
