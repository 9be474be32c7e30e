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
without a second pass (``greedy_search(..., return_attention=True)``).

``tests/test_contract.py`` checks every model in :data:`companion.models.MODELS` against this
contract (step-by-step decoding equals the teacher-forced forward, padding and batch invariance,
``reorder_state`` equals recomputation, greedy equals beam 1, batched beam equals one-by-one,
checkpoint round trip), so registering a model is what subjects it to those tests. Each model
class carries ``example_args``: a small configuration for tests and examples.
"""

from __future__ import annotations

from typing import Any, ClassVar, Protocol, runtime_checkable

import torch

from companion.errors import DataError

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

    def step_attention(self, state: State) -> torch.Tensor:
        """``(N, S)`` attention weights over the source positions used by the step that produced
        ``state``: each row sums to 1 and is exactly 0 at PAD positions."""
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


def check_source(src: Any, src_lengths: Any, where: str) -> None:
    """Raise a one-line :class:`~companion.errors.DataError` unless ``src`` is a non-empty
    ``(B, S)`` id tensor and ``src_lengths`` a ``(B,)`` tensor of lengths in ``[1, S]``."""
    if not isinstance(src, torch.Tensor) or src.dim() != 2:
        shape = tuple(src.shape) if isinstance(src, torch.Tensor) else type(src).__name__
        raise DataError(f"{where}: src must be a (B, S) tensor of ids, got {shape}")
    if src.shape[0] == 0:
        raise DataError(f"{where}: src holds no sentences (B = 0)")
    if not isinstance(src_lengths, torch.Tensor) or src_lengths.shape != (src.shape[0],):
        shape = tuple(src_lengths.shape) if isinstance(src_lengths, torch.Tensor) else src_lengths
        raise DataError(f"{where}: src_lengths must have shape ({src.shape[0]},), got {shape}")
    if int(src_lengths.min()) < 1 or int(src_lengths.max()) > src.shape[1]:
        raise DataError(
            f"{where}: src_lengths must lie in [1, {src.shape[1]}], got "
            f"min {int(src_lengths.min())} max {int(src_lengths.max())}"
        )


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


__all__ = ["AttentionTranslator", "LanguageModel", "SequenceModel", "State", "Translator",
           "check_source", "is_translator", "reorder_tensors"]
