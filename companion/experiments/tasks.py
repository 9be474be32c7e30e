"""A long-range memory task: recall the first symbol after ``T`` distractors.

Each sequence is ``[s, d_1, ..., d_T, QUERY]``: ``s`` is one of ``num_symbols`` symbols to
remember, the ``d_t`` are drawn from ``num_distractors`` other symbols, and at the query the
model must name ``s``. Only the first position carries the answer, so the gradient that teaches
the network to store it has to travel back ``T + 1`` steps -- the setting in which a vanilla RNN's
gradient vanishes (Bengio et al. 1994) and an LSTM's cell state carries it.

- :func:`recall_batch` draws a batch with a ``torch.Generator`` (same seed, same data);
- :class:`SequenceClassifier` is ``embedding -> fused RNN/LSTM/GRU -> linear`` on the last step;
- :func:`train_recall` trains one with Adam (optionally with global-norm gradient clipping) and
  :func:`recall_accuracy` measures it on fresh sequences.

The module also holds the character-level language-model runs of chapters 1 and 2:
:func:`train_char_lm` trains a :class:`~companion.models.charlm.CharLM` on Shakespeare and
measures it two ways, in chunks read from the zero state and with :func:`stream_nll`, which
carries the recurrent state through the whole validation text (the conditions under which an
n-gram model scores it); :func:`shakespeare_tuning_split` is the held-out play on which the
n-gram baselines' smoothing is chosen. Two small measures read a sampled text:
:func:`known_word_share` (how many of its words occur in a vocabulary) and :func:`speaker_lines`
(the lines laid out as a play's speaker headings).
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Collection
from dataclasses import dataclass, field

import torch
from torch import nn
from torch.nn import functional as F

from companion.data.batching import lm_batches
from companion.data.text import DEFAULT_VALID_PLAYS, shakespeare_corpus, shakespeare_plays, shakespeare_vocab
from companion.errors import ConfigError
from companion.models.charlm import CharLM, num_parameters
from companion.specials import PAD
from companion.training.trainer import Trainer


@dataclass(frozen=True)
class RecallTask:
    """The task's alphabet: ids ``0..K-1`` are the symbols to recall, ``K..K+D-1`` the
    distractors and ``K+D`` the query marker."""

    num_symbols: int = 4
    num_distractors: int = 4

    def __post_init__(self):
        for name in ("num_symbols", "num_distractors"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise ConfigError(f"{name} must be a positive int, got {value!r}")

    @property
    def query(self) -> int:
        return self.num_symbols + self.num_distractors

    @property
    def vocab_size(self) -> int:
        return self.num_symbols + self.num_distractors + 1

    @property
    def chance(self) -> float:
        """Accuracy of guessing: ``1 / num_symbols``."""
        return 1.0 / self.num_symbols


def recall_batch(task: RecallTask, batch_size: int, T: int,
                 generator: torch.Generator | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """``(inputs (B, T + 2), targets (B,))``: ``[s, d_1..d_T, QUERY]`` and ``s``."""
    if not isinstance(batch_size, int) or batch_size < 1:
        raise ConfigError(f"batch_size must be a positive int, got {batch_size!r}")
    if not isinstance(T, int) or T < 0:
        raise ConfigError(f"T (number of distractors) must be a non-negative int, got {T!r}")
    targets = torch.randint(task.num_symbols, (batch_size,), generator=generator)
    distractors = torch.randint(task.num_distractors, (batch_size, T), generator=generator)
    distractors += task.num_symbols
    query = torch.full((batch_size, 1), task.query, dtype=torch.long)
    return torch.cat([targets[:, None], distractors, query], dim=1), targets


class SequenceClassifier(nn.Module):
    """``embedding (V, E) -> fused RNN | LSTM | GRU (H) -> linear (C, H)`` on the last step.

    ``forward(ids (B, T)) -> logits (B, C)``. ``forget_bias`` is added at initialisation to the
    bias of the gate that keeps the old state: the LSTM's forget gate ``f``, the GRU's update
    gate ``z`` (torch's GRU keeps ``z * h_{t-1}``); the vanilla RNN has no such gate.
    """

    def __init__(self, vocab_size: int, num_classes: int, embed_dim: int, hidden_size: int,
                 cell: str = "lstm", forget_bias: float = 0.0):
        super().__init__()
        if cell not in ("rnn", "lstm", "gru"):
            raise ConfigError(f"cell must be one of ['gru', 'lstm', 'rnn'], got {cell!r}")
        self.cell_type = cell
        self.embedding = nn.Embedding(vocab_size, embed_dim)
        self.rnn = {"rnn": nn.RNN, "lstm": nn.LSTM, "gru": nn.GRU}[cell](
            embed_dim, hidden_size, batch_first=True)
        self.output = nn.Linear(hidden_size, num_classes)
        if cell != "rnn" and forget_bias:
            # gate order: LSTM (i, f, g, o), GRU (r, z, n): the second block either way
            with torch.no_grad():
                self.rnn.bias_ih_l0[hidden_size:2 * hidden_size] += forget_bias

    def forward(self, ids: torch.Tensor, state=None) -> torch.Tensor:
        h, _ = self.rnn(self.embedding(ids), state)
        return self.output(h[:, -1])


@dataclass
class RecallRun:
    """What :func:`train_recall` measured: the loss and the global gradient norm (before
    clipping) at every step."""

    losses: list[float] = field(default_factory=list)
    grad_norms: list[float] = field(default_factory=list)

    @property
    def diverged(self) -> bool:
        """True if some loss or gradient norm was not finite."""
        return any(not math.isfinite(x) for x in self.losses + self.grad_norms)


def train_recall(model: nn.Module, task: RecallTask, T: int, *, steps: int, batch_size: int = 32,
                 lr: float = 1e-2, optimizer: str = "adam", clip_norm: float | None = None,
                 seed: int = 0, stop_on_nan: bool = True) -> RecallRun:
    """Train ``model`` on fresh batches of the recall task with ``T`` distractors.

    ``optimizer`` is ``"adam"`` or ``"sgd"``; ``clip_norm`` rescales the gradient so its global
    L2 norm is at most that value (Pascanu et al. 2013); ``None`` turns clipping off. Batches
    come from a generator seeded with ``seed``. With ``stop_on_nan`` training stops at the first
    non-finite loss (the run is then :attr:`RecallRun.diverged`).
    """
    if optimizer not in ("adam", "sgd"):
        raise ConfigError(f"optimizer must be 'adam' or 'sgd', got {optimizer!r}")
    if clip_norm is not None and not clip_norm > 0:
        raise ConfigError(f"clip_norm must be positive or None, got {clip_norm!r}")
    make = torch.optim.Adam if optimizer == "adam" else torch.optim.SGD
    opt = make(model.parameters(), lr=lr)
    generator = torch.Generator().manual_seed(seed)
    run = RecallRun()
    model.train()
    for _ in range(steps):
        inputs, targets = recall_batch(task, batch_size, T, generator)
        loss = F.cross_entropy(model(inputs), targets)
        opt.zero_grad()
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(
            model.parameters(), clip_norm if clip_norm is not None else float("inf"))
        run.losses.append(loss.item())
        run.grad_norms.append(float(norm))
        if stop_on_nan and run.diverged:
            break
        opt.step()
    return run


@torch.no_grad()
def recall_accuracy(model: nn.Module, task: RecallTask, T: int, n: int = 1000,
                    seed: int = 12345) -> float:
    """Fraction of ``n`` fresh sequences (generator seed ``seed``) whose symbol is recalled."""
    was_training = model.training
    model.eval()
    inputs, targets = recall_batch(task, n, T, torch.Generator().manual_seed(seed))
    accuracy = (model(inputs).argmax(-1) == targets).float().mean().item()
    model.train(was_training)
    return accuracy


def accuracy_vs_length(cells: dict[str, dict], lengths: list[int], *, task: RecallTask, steps: int,
                       seed: int = 0, embed_dim: int = 8, hidden_size: int = 32,
                       batch_size: int = 32, lr: float = 1e-2) -> tuple[dict[str, dict[int, float]], dict]:
    """Train one fresh classifier per cell type and length and measure its recall accuracy.

    ``cells`` maps a label to :class:`SequenceClassifier` keyword arguments (``cell`` and
    optionally ``forget_bias``), e.g. ``{"LSTM": {"cell": "lstm", "forget_bias": 3.0}}``.
    Model ``(label, T)`` is initialised from ``torch.manual_seed(seed)`` and trained on the batches
    of ``seed``. Returns ``({label: {T: accuracy}}, {(label, T): trained model})``.
    """
    accuracy: dict[str, dict[int, float]] = {}
    models = {}
    for label, kwargs in cells.items():
        accuracy[label] = {}
        for T in lengths:
            torch.manual_seed(seed)
            model = SequenceClassifier(task.vocab_size, task.num_symbols, embed_dim, hidden_size, **kwargs)
            train_recall(model, task, T, steps=steps, batch_size=batch_size, lr=lr, seed=seed)
            accuracy[label][T] = recall_accuracy(model, task, T)
            models[label, T] = model
    return accuracy, models


@torch.no_grad()
def stream_nll(model: nn.Module, batches) -> tuple[float, int]:
    """Teacher-forced mean NLL (nats per character) over contiguous streams, *carrying the
    recurrent state* from each batch to the next (truncated-BPTT style evaluation).

    ``batches`` come from :func:`companion.data.batching.lm_batches` with ``shuffle=False``: row
    ``b`` of batch ``k + 1`` continues row ``b`` of batch ``k``. ``model`` has
    ``forward_ids(ids (B, T), state) -> (logits (B, T, V), state)`` (e.g.
    :class:`companion.models.charlm.CharLM`). Only the first character of each row starts from
    the zero state, so the result equals one forward pass over each whole row. PAD targets are
    not counted. Returns ``(mean_nll, ntokens)``.
    """
    was_training = model.training
    model.eval()
    total, ntokens, state, rows = 0.0, 0, None, None
    try:
        for batch in batches:
            ids, targets = batch.tgt_in, batch.tgt_out
            if rows is not None and ids.shape[0] != rows:
                raise ConfigError(f"stream_nll: every batch must have the same number of rows "
                                  f"(streams), got {ids.shape[0]} after {rows}")
            rows = ids.shape[0]
            logits, state = model.forward_ids(ids, state)
            if logits.dtype in (torch.float16, torch.bfloat16):  # sum the loss in float32 at least
                logits = logits.float()
            total += F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1),
                                     ignore_index=PAD, reduction="sum").item()
            ntokens += int((targets != PAD).sum())
    finally:
        model.train(was_training)
    if ntokens == 0:
        raise ConfigError("stream_nll: the batches hold no target characters")
    return total / ntokens, ntokens


def stream_validator(batches):
    """A ``validate_fn`` for :class:`companion.training.Trainer`: adds ``stream_nll`` and
    ``stream_tokens`` (:func:`stream_nll` over ``batches``) to each evaluation record."""
    def validate(model: nn.Module) -> dict:
        nll, ntokens = stream_nll(model, batches)
        return {"stream_nll": nll, "stream_tokens": ntokens}
    return validate


@dataclass
class CharLMResult:
    """A character LM trained by :func:`train_char_lm` and what was measured on it.

    Two validation measurements on the same held-out characters, at every evaluation step:

    - ``valid_bpc``: 64 streams cut into 64-character chunks, each chunk read from the zero
      state (the recurrent state is reset every 64 characters);
    - ``stream_bpc``: the text read as one stream with the state carried from chunk to chunk,
      so every character is predicted from everything before it -- the conditions of an n-gram
      model scored on the same text (:meth:`companion.experiments.ngram.NGramLM.score`).
    """

    model: nn.Module
    vocab: object
    steps: list[int]  # evaluation steps
    valid_bpc: list[float]  # validation bits per character, state reset every chunk
    stream_bpc: list[float]  # validation bits per character, state carried (one stream)
    parameters: int
    seconds: float  # wall time of training (evaluations included)

    @property
    def final_bpc(self) -> float:
        """Last ``valid_bpc`` (state reset every ``seq_len`` characters)."""
        return self.valid_bpc[-1]

    @property
    def final_stream_bpc(self) -> float:
        """Last ``stream_bpc`` (state carried through the whole validation text)."""
        return self.stream_bpc[-1]


def shakespeare_batches(batch_size: int = 32, seq_len: int = 64, valid_chars: int = 50_000,
                        seed: int = 0):
    """``(vocab, train_batches, valid_batches)`` over :func:`companion.data.text.shakespeare_corpus`:
    shuffled training chunks (order fixed by ``seed``) and the first ``valid_chars`` characters
    of the held-out plays as contiguous streams (64 rows)."""
    train, valid = shakespeare_corpus()
    vocab = shakespeare_vocab()
    train_batches = lm_batches(torch.tensor(vocab.encode(train)), batch_size, seq_len,
                               shuffle=True, seed=seed)
    valid_batches = lm_batches(torch.tensor(vocab.encode(valid[:valid_chars])), 64, seq_len,
                               shuffle=False)
    return vocab, train_batches, valid_batches


def shakespeare_tuning_split(tune_chars: int = 30_000) -> tuple[str, str, str]:
    """``(fit_text, tune_text, tune_play)`` for choosing the n-gram baselines' smoothing without
    looking at the validation plays: the last training play in title order is held out of the
    counts (``fit_text`` is the other training plays) and its first ``tune_chars`` characters
    are the tuning text -- an unseen play, like the validation text."""
    plays = shakespeare_plays()
    tune_play = [title for title in plays if title not in DEFAULT_VALID_PLAYS][-1]
    fit_text = shakespeare_corpus(tuple(DEFAULT_VALID_PLAYS) + (tune_play,))[0]
    return fit_text, plays[tune_play][:tune_chars], tune_play


def shakespeare_stream(seq_len: int = 64, valid_chars: int = 50_000):
    """The first ``valid_chars`` characters of the held-out plays as ONE contiguous stream, in
    batches of ``(1, seq_len)``: the characters 2..``valid_chars``, each predicted from all the
    characters before it when read with :func:`stream_nll` -- exactly the characters and the
    context that :meth:`~companion.experiments.ngram.NGramLM.score` uses for
    ``score(valid[1:valid_chars], context=valid[:1])``."""
    valid = shakespeare_corpus()[1][:valid_chars]
    return lm_batches(torch.tensor(shakespeare_vocab().encode(valid)), 1, seq_len, shuffle=False)


def train_char_lm(cell: str, hidden_size: int, *, steps: int, embed_dim: int = 32,
                  num_layers: int = 1, lr: float = 2e-3, batch_size: int = 32, seq_len: int = 64,
                  eval_every: int = 250, valid_chars: int = 50_000, clip_norm: float = 5.0,
                  seed: int = 0, forget_bias: float = 0.0) -> CharLMResult:
    """Train a :class:`companion.models.charlm.CharLM` on Shakespeare with the package's
    :class:`companion.training.Trainer` (Adam, global-norm clipping) and record, every
    ``eval_every`` steps, the validation bits per character (teacher-forced mean NLL / ln 2)
    twice: in 64-character chunks from the zero state, and as one stream with the state carried
    (:func:`stream_nll` via the Trainer's ``validate_fn``); see :class:`CharLMResult`."""
    vocab, train_batches, valid_batches = shakespeare_batches(batch_size, seq_len, valid_chars, seed)
    stream = shakespeare_stream(seq_len, valid_chars)
    torch.manual_seed(seed)
    model = CharLM(len(vocab), embed_dim, hidden_size, num_layers, cell, forget_bias=forget_bias)
    trainer = Trainer(model, train_batches, valid_batches, preset="adam", lr=lr, max_steps=steps,
                      eval_every=eval_every, clip_norm=clip_norm, progress=False, seed=seed,
                      validate_fn=stream_validator(stream))
    start = time.perf_counter()
    history = trainer.fit()
    seconds = time.perf_counter() - start
    return CharLMResult(model, vocab, [r["step"] for r in history.valid],
                        [r["valid_nll"] / math.log(2) for r in history.valid],
                        [r["stream_nll"] / math.log(2) for r in history.valid],
                        num_parameters(model), seconds)


_WORD = re.compile(r"[a-z]+(?:'[a-z]+)*")
_SPEAKER = re.compile(r"^[A-Z][A-Z' .-]*[A-Z]:$", re.M)


def words_of(text: str) -> list[str]:
    """The words of ``text``, lower-cased: runs of letters, with inner apostrophes kept
    (``"I'll"`` -> ``"i'll"``)."""
    return _WORD.findall(text.lower())


def known_word_share(text: str, vocabulary: Collection[str]) -> float:
    """The fraction of the words of ``text`` (:func:`words_of`) that are in ``vocabulary`` (e.g.
    ``set(words_of(train_text))``): how much of a sample is real words rather than invented
    ones. A text without words is an error."""
    words = words_of(text)
    if not words:
        raise ConfigError("known_word_share: the text has no words")
    return sum(word in vocabulary for word in words) / len(words)


def speaker_lines(text: str) -> list[str]:
    """The lines of ``text`` laid out as a speaker heading of the plays: a name in capital
    letters (spaces, apostrophes, dots and hyphens allowed inside), a colon, nothing else."""
    return _SPEAKER.findall(text)
