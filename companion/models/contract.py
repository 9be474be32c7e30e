"""The contract every model of the package meets, written down once.

Training needs one thing from a model: ``logits = model(batch)``. Decoding needs a model that can
be run one token at a time. Two kinds of model exist:

- a :class:`Translator` (the Sutskever encoder-decoder, RNNsearch, the Transformer) reads a
  source sentence with :meth:`~Translator.encode` and then writes the target one token per
  :meth:`~Translator.step`;
- a :class:`LanguageModel` (the char-level RNN/LSTM/GRU models) has no source: decoding starts
  from :meth:`~LanguageModel.initial_state`.

The decoder *state* is opaque to the search code (a tensor, a tuple of tensors, a dataclass);
the only operation the search applies to it is :meth:`reorder_state`, which selects and repeats
rows -- that is how beam search follows its hypotheses and how finished sentences leave a batch.

A translator with attention also offers :meth:`AttentionTranslator.step_attention`: the weights
over source positions used by the step that produced a state, so decoded output can be plotted
without a second pass (``greedy_search(..., return_attention=True)``). A caller that wants them
asks the step for them (``step(prev, state, need_attention=True)``): a model whose attention
weights cost extra work (the Transformer's fused attention keeps none) computes them only then.

*States per sentence and per row.* In beam search the ``k`` hypotheses of one sentence share
everything that depends on the source alone (RNNsearch's annotations, the Transformer's
cross-attention keys and values). A state may keep those tensors once per sentence and only the
rest once per row: a dataclass with a ``group`` field (rows per sentence; row ``r`` belongs to
sentence ``r // group``) and a ``per_sentence`` class attribute naming the shared fields.
:func:`reorder_by_sentence` then reorders it -- rows are gathered, shared tensors are only
dropped or permuted when whole sentences leave -- and :func:`reorder_every_row` is the plain
reference that gives every row its own copy (what the benchmarks compare against).

``tests/test_contract.py`` checks every model in :data:`companion.models.MODELS` against this
contract (step-by-step decoding equals the teacher-forced forward, padding and batch invariance,
``reorder_state`` equals recomputation, greedy equals beam 1, batched beam equals one-by-one,
checkpoint round trip), so registering a model is what subjects it to those tests. Each model
class carries ``example_args``: a small configuration for tests and examples.
"""

from __future__ import annotations

import dataclasses
import os
from typing import Any, ClassVar, Protocol, runtime_checkable

import torch
from torch import nn

from companion.errors import DataError
from companion.specials import EOS

#: A decoder state: whatever a model's ``step`` carries; only ``reorder_state`` looks inside.
State = Any


@runtime_checkable
class SequenceModel(Protocol):
    """What :class:`companion.training.Trainer` needs."""

    #: small constructor arguments (vocabulary sizes excluded) for tests and examples
    example_args: ClassVar[dict[str, Any]]

    def forward(self, batch: Any) -> torch.Tensor:
        """Teacher-forced logits ``(B, T, V)`` scoring ``batch.tgt_out`` ``(B, T)`` given
        ``batch.tgt_in`` ``(B, T)`` (and, for a translator, ``batch.src`` ``(B, S)`` with
        ``batch.src_lengths`` ``(B,)``). Position ``t`` may depend only on ``tgt_in[:, :t+1]``
        and on the real (non-PAD) source tokens."""
        ...


@runtime_checkable
class Translator(SequenceModel, Protocol):
    """An encoder-decoder decoded by :mod:`companion.decoding`."""

    src_vocab_size: int
    tgt_vocab_size: int

    def encode(self, src: torch.Tensor, src_lengths: torch.Tensor) -> State:
        """Read ``src`` ``(B, S)`` (right-padded ids, each row ending in EOS) with real lengths
        ``src_lengths`` ``(B,)``; return the decoder's initial state for the ``B`` sentences."""
        ...

    def step(self, prev_tokens: torch.Tensor, state: State) -> tuple[torch.Tensor, State]:
        """Feed the previous tokens ``(N,)`` (BOS first); return ``log_probs`` ``(N, V)`` over
        the next token (float32 or wider) and the new state."""
        ...

    def reorder_state(self, state: State, index: torch.Tensor) -> State:
        """The state of rows ``index`` ``(N',)`` (rows may repeat or be dropped)."""
        ...


@runtime_checkable
class AttentionTranslator(Translator, Protocol):
    """A translator whose decoder attends over the source positions."""

    def step(self, prev_tokens: torch.Tensor, state: State, need_attention: bool = False
             ) -> tuple[torch.Tensor, State]:
        """As :meth:`Translator.step`; with ``need_attention=True`` the new state also keeps
        the step's attention weights for :meth:`step_attention`."""
        ...

    def step_attention(self, state: State) -> torch.Tensor:
        """``(N, S)`` attention weights over the source positions used by the step that produced
        ``state`` (taken with ``need_attention=True``): each row sums to 1 and is exactly 0 at
        PAD positions."""
        ...


@runtime_checkable
class LanguageModel(SequenceModel, Protocol):
    """A model of one sequence (no source), decoded from :meth:`initial_state`."""

    vocab_size: int

    def initial_state(self, batch_size: int, device: torch.device | str | None = None) -> State:
        """The state before the first token of ``batch_size`` sequences."""
        ...

    def step(self, prev_tokens: torch.Tensor, state: State) -> tuple[torch.Tensor, State]:
        """As :meth:`Translator.step`."""
        ...

    def reorder_state(self, state: State, index: torch.Tensor) -> State:
        """As :meth:`Translator.reorder_state`."""
        ...


#: environment variable that turns on value checks of tensors on accelerators (see :func:`checks_values`)
CHECK_VALUES_ENV = "COMPANION_CHECK_VALUES"


def checks_values(tensor: torch.Tensor) -> bool:
    """Whether to check the *values* of ``tensor`` (id ranges, lengths). Reading a value back to
    the host costs nothing on the CPU but synchronises an accelerator, in every forward and
    every decoding step; so on a GPU only the shapes are checked, unless the environment sets
    ``COMPANION_CHECK_VALUES=1`` (for debugging a bad input on the GPU)."""
    return tensor.device.type == "cpu" or os.environ.get(CHECK_VALUES_ENV) == "1"


#: what a model that reads one pair per row tells a caller who hands it a packed batch
PACKED_FIX = "use data.batching: bucketed (or mixed)"


def refuse_packed(batch: Any, where: str) -> None:
    """Raise a one-line :class:`~companion.errors.DataError` if ``batch`` is packed (it carries
    ``src_segments`` or ``tgt_segments``, :mod:`companion.data.packing`): for a model that reads
    one pair per row, the pairs of a packed row would read each other."""
    if getattr(batch, "src_segments", None) is not None or getattr(batch, "tgt_segments", None) is not None:
        raise DataError(f"{where}: reads one pair per row, and a packed batch (several pairs per row) would let "
                        f"the pairs of a row read each other -- {PACKED_FIX}")


def check_source(src: Any, src_lengths: Any, where: str, *, one_per_row: bool = True) -> None:
    """Raise a one-line :class:`~companion.errors.DataError` unless ``src`` is a non-empty
    ``(B, S)`` id tensor and ``src_lengths`` a ``(B,)`` tensor of lengths in ``[1, S]`` (the
    lengths' values are checked where :func:`checks_values` says so).

    With ``one_per_row`` (what :meth:`Translator.encode` reads) a row must hold one sentence:
    an EOS before the row's last real token means several sources share the row, as in a packed
    batch, and is refused (a value check, done where :func:`checks_values` says so)."""
    if not isinstance(src, torch.Tensor) or src.dim() != 2:
        shape = tuple(src.shape) if isinstance(src, torch.Tensor) else type(src).__name__
        raise DataError(f"{where}: src must be a (B, S) tensor of ids, got {shape}")
    if src.shape[0] == 0:
        raise DataError(f"{where}: src holds no sentences (B = 0)")
    if not isinstance(src_lengths, torch.Tensor) or src_lengths.shape != (src.shape[0],):
        shape = tuple(src_lengths.shape) if isinstance(src_lengths, torch.Tensor) else src_lengths
        raise DataError(f"{where}: src_lengths must have shape ({src.shape[0]},), got {shape}")
    if checks_values(src_lengths) and (int(src_lengths.min()) < 1 or int(src_lengths.max()) > src.shape[1]):
        raise DataError(
            f"{where}: src_lengths must lie in [1, {src.shape[1]}], got "
            f"min {int(src_lengths.min())} max {int(src_lengths.max())}"
        )
    if one_per_row and checks_values(src):
        inner = torch.arange(src.shape[1], device=src.device) < (src_lengths.to(src.device) - 1).unsqueeze(1)
        rows = ((src == EOS) & inner).any(dim=1).nonzero()
        if rows.numel():
            raise DataError(f"{where}: reads one sentence per row, but row {int(rows[0])} of src holds an EOS before "
                            f"its last token (several sentences in one row, as in a packed batch?) -- {PACKED_FIX}")


def is_translator(model: Any) -> bool:
    """True for a model with a source side (``encode``)."""
    return isinstance(model, Translator)


def reorder_tensors(state: State, index: torch.Tensor, dim: int = 0) -> State:
    """Index-select every tensor in a (nested) tuple/list/dict state along ``dim``; ``None``
    and non-tensor leaves are kept. A helper for models whose state is a plain container."""
    if state is None:
        return None
    if isinstance(state, torch.Tensor):
        return state.index_select(dim, index)
    if isinstance(state, tuple):
        return tuple(reorder_tensors(s, index, dim) for s in state)
    if isinstance(state, list):
        return [reorder_tensors(s, index, dim) for s in state]
    if isinstance(state, dict):
        return {k: reorder_tensors(v, index, dim) for k, v in state.items()}
    return state


def _first_tensor(x: Any) -> torch.Tensor | None:
    if isinstance(x, torch.Tensor):
        return x
    if isinstance(x, (tuple, list)):
        for item in x:
            found = _first_tensor(item)
            if found is not None:
                return found
    return None


def sentence_rows(index: torch.Tensor, group: int, sentences: int) -> tuple[torch.Tensor | None, int]:
    """How a reorder by ``index`` ``(N',)`` acts on a state of ``sentences`` sentences with
    ``group`` consecutive rows each (row ``r`` belongs to sentence ``r // group``).

    Returns ``(keep, new_group)``: the new state's per-sentence tensors are the old ones at rows
    ``keep`` (``None``: unchanged, nothing to copy), and its row ``r`` belongs to its sentence
    ``r // new_group``. When ``index`` picks rows in equal consecutive blocks per sentence (what
    beam search does: ``k`` rows of each live sentence, in sentence order) only the sentences
    are selected; any other order gives every row its own sentence (``new_group = 1``).
    The index is read on the host (one synchronisation on a GPU, per reorder, not per layer).
    """
    sent = torch.div(index, group, rounding_mode="floor") if group > 1 else index
    host = sent.cpu()
    n = host.numel()
    if n:
        starts = torch.ones(n, dtype=torch.bool)
        starts[1:] = host[1:] != host[:-1]
        blocks = int(starts.sum())
        if n % blocks == 0:
            size = n // blocks
            firsts = host[::size]
            if torch.equal(host, firsts.repeat_interleave(size)):
                if blocks == sentences and torch.equal(firsts, torch.arange(sentences)):
                    return None, size
                return firsts.to(index.device), size
    return sent, 1


def _check_grouped(state: Any) -> None:
    if not (dataclasses.is_dataclass(state) and hasattr(state, "group") and hasattr(state, "per_sentence")):
        raise TypeError(f"{type(state).__name__} is not a dataclass with 'group' and 'per_sentence'")


def reorder_by_sentence(state: Any, index: torch.Tensor) -> Any:
    """The state of rows ``index`` ``(N',)`` of a state whose ``per_sentence`` fields hold one
    row per sentence (see the module docstring): row fields are index-selected, per-sentence
    fields only where sentences leave or change order (:func:`sentence_rows`)."""
    _check_grouped(state)
    first = _first_tensor(getattr(state, state.per_sentence[0]))
    keep, group = sentence_rows(index, state.group, first.shape[0])
    changes: dict[str, Any] = {"group": group}
    for f in dataclasses.fields(state):
        if f.name == "group":
            continue
        value = getattr(state, f.name)
        if f.name in state.per_sentence:
            if keep is not None:
                changes[f.name] = reorder_tensors(value, keep)
        else:
            changes[f.name] = reorder_tensors(value, index)
    return dataclasses.replace(state, **changes)


def reorder_every_row(state: Any, index: torch.Tensor) -> Any:
    """The reference for :func:`reorder_by_sentence`: the same rows, but every row gets its own
    copy of its sentence's tensors (``group = 1``), as a state without sharing is reordered --
    every cached source tensor index-selected at every step. Outputs equal; only time differs."""
    _check_grouped(state)
    sent = torch.div(index, state.group, rounding_mode="floor") if state.group > 1 else index
    changes: dict[str, Any] = {"group": 1}
    for f in dataclasses.fields(state):
        if f.name != "group":
            changes[f.name] = reorder_tensors(getattr(state, f.name), sent if f.name in state.per_sentence else index)
    return dataclasses.replace(state, **changes)


class EveryRowReorder(nn.Module):
    """``model`` decoded with :func:`reorder_every_row` instead of its own ``reorder_state`` and,
    with ``keep_attention``, every step keeping its attention weights: the search as it ran
    before states were shared per sentence (the benchmarks' reference and their equality test)."""

    def __init__(self, model: nn.Module, keep_attention: bool = False) -> None:
        super().__init__()
        self.model = model
        self.keep_attention = keep_attention
        self.src_vocab_size, self.tgt_vocab_size = model.src_vocab_size, model.tgt_vocab_size

    def forward(self, batch: Any) -> torch.Tensor:
        return self.model(batch)

    def encode(self, src: torch.Tensor, src_lengths: torch.Tensor) -> State:
        return self.model.encode(src, src_lengths)

    def step(self, prev_tokens: torch.Tensor, state: State, need_attention: bool = False
             ) -> tuple[torch.Tensor, State]:
        return self.model.step(prev_tokens, state, need_attention=need_attention or self.keep_attention)

    @staticmethod
    def reorder_state(state: State, index: torch.Tensor) -> State:
        return reorder_every_row(state, index)


__all__ = ["AttentionTranslator", "CHECK_VALUES_ENV", "EveryRowReorder", "LanguageModel", "PACKED_FIX", "SequenceModel",
           "State", "Translator", "check_source", "checks_values", "is_translator", "refuse_packed", "reorder_by_sentence",
           "reorder_every_row", "reorder_tensors", "sentence_rows"]
