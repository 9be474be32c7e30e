"""Attention: Bahdanau, Cho & Bengio (2015) -- RNNsearch -- and its baseline RNNencdec.

**Scoring.** At decoder step ``i`` a score ``e_ij`` says how well the previous decoder state
``s_{i-1}`` (the *query*) matches the annotation ``h_j`` of source position ``j``; a softmax over
the real source positions turns the scores into weights ``alpha_ij`` and the context is their
weighted sum of annotations, ``c_i = sum_j alpha_ij h_j``. Three score functions:

===========  ===============================  =========================================
name         score ``e_ij``                    paper
===========  ===============================  =========================================
additive     ``v_a^T tanh(W_a s + U_a h_j)``   Bahdanau et al. 2015 (:class:`BahdanauAttention`)
dot          ``s^T h_j``                       Luong et al. 2015 (:class:`LuongDotAttention`)
general      ``s^T W_a h_j``                   Luong et al. 2015 (:class:`LuongGeneralAttention`)
===========  ===============================  =========================================

Each splits its work in two: :meth:`~Attention.project_keys` does what depends on the source
alone (``U_a h_j``; ``W_a h_j``) once per sentence, at encode time, and :meth:`~Attention.score`
does the per-step rest. PAD positions get the score ``-inf`` before the softmax, so their weights
are exactly 0 and padding never changes a context (:func:`masked_softmax`).

**RNNsearch** (:class:`RNNSearch`). A bidirectional GRU reads the source; the annotation of
position ``j`` is ``h_j = [fwd_h_j ; bwd_h_j]``. The decoder starts from
``s_0 = tanh(W_s bwd_h_1)``, the backward encoder's state at the first source token, and each step
``i`` runs in the paper's order:

1. attend with the *previous* state: ``alpha_i = softmax_j a(s_{i-1}, h_j)``, ``c_i``;
2. read out: ``t_i = maxout_2(U_o s_{i-1} + V_o E y_{i-1} + C_o c_i)`` and
   ``p(y_i | y_<i, x) = softmax(W_o t_i)`` (the *deep output*, :class:`DeepOutput`);
3. update: ``s_i = GRU(s_{i-1}, [E y_{i-1} ; c_i])``.

*Which state feeds the read-out.* The paper is not consistent: the body writes
``p(y_i | ...) = g(y_{i-1}, s_i, c_i)`` (eq. 4) while the appendix's formula (A.2.2) is
``t~_i = U_o s_{i-1} + V_o E y_{i-1} + C_o c_i``. The default follows the appendix, the
definition written out in full (``readout_state="previous"``); ``readout_state="current"`` reads
``s_i`` instead, as eq. 4 reads and as later toolkits (dl4mt, Nematus) do. Either way the read-out
of all target positions runs as one batched matrix product after the recurrent loop.

**RNNencdec** (:class:`RNNEncDec`, Cho et al. 2014, Bahdanau's baseline). A GRU reads the source;
its last state ``h_S`` is squeezed into one context ``c = tanh(V h_S)``, fed to the decoder at
every step (input ``[E y_{i-1} ; c]``, initial state ``s_0 = tanh(V' c)``), and to the same deep
output. With the same ``hidden_size`` the two models compare as in the paper (1000 units in
every recurrent layer); :meth:`RNNSearch.num_parameters` tells how far apart their sizes are.

The recurrent units are torch's GRU (:class:`torch.nn.GRU`, and :class:`torch.nn.GRUCell`'s
parameters in the decoder): its reset gate scales ``U s_{i-1} + b`` where the paper's gated unit
computes ``U (r * s_{i-1})`` -- torch's (and cuDNN's) variant of the same cell. Parameters keep
torch's default initialisation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import torch
import torch.nn.functional as F
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from companion.errors import ConfigError, DataError
from companion.models.charlm import num_parameters as _count_parameters
from companion.models.contract import check_source, refuse_packed, reorder_by_sentence
from companion.specials import PAD
from companion.validation import check_choice, check_dropout, check_int

# ====================================================================================== scoring


def masked_softmax(scores: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """``softmax`` over the last dimension of ``scores`` ``(N, S)`` with ``-inf`` where ``mask``
    ``(N, S)`` (bool, True at real tokens) is False: those weights are exactly 0. Every row must
    hold at least one real token. Grouped scores ``(N, g, S)`` take the same ``(N, S)`` mask."""
    if scores.dim() > mask.dim():
        mask = mask.unsqueeze(-2)
    return torch.softmax(scores.masked_fill(~mask, float("-inf")), dim=-1)


def attention_context(weights: torch.Tensor, annotations: torch.Tensor) -> torch.Tensor:
    """``c_i = sum_j alpha_ij h_j``: weights ``(N, S)``, annotations ``(N, S, K)`` -> ``(N, K)``;
    grouped weights ``(N, g, S)`` (``g`` queries of one sentence) -> ``(N, g, K)``."""
    if weights.dim() == 3:
        return torch.bmm(weights, annotations)
    return torch.bmm(weights.unsqueeze(1), annotations).squeeze(1)


class Attention(nn.Module):
    """A score function ``a(s, h_j)`` split into a per-sentence and a per-step part.

    Subclasses define :meth:`project_keys` (source side, once per sentence) and :meth:`score`
    (per decoder step); :meth:`forward` runs a whole attention step.

    Args:
        query_dim: size ``Q`` of the decoder state ``s``.
        key_dim: size ``K`` of an annotation ``h_j``.
    """

    def __init__(self, query_dim: int, key_dim: int) -> None:
        super().__init__()
        self.query_dim = check_int("query_dim", query_dim, where=type(self).__name__)
        self.key_dim = check_int("key_dim", key_dim, where=type(self).__name__)

    def project_keys(self, annotations: torch.Tensor) -> torch.Tensor:
        """What the score needs from the source alone: annotations ``(B, S, K)`` -> keys
        ``(B, S, D)``; computed once per sentence and kept in the decoder state."""
        raise NotImplementedError

    def score(self, query: torch.Tensor, keys: torch.Tensor) -> torch.Tensor:
        """Scores ``e_ij``: query ``(N, Q)`` and keys ``(N, S, D)`` -> ``(N, S)``; or ``g``
        queries per sentence, ``(N, g, Q)`` with the sentence's one copy of the keys
        ``(N, S, D)`` -> ``(N, g, S)`` (beam search's hypotheses of a sentence)."""
        raise NotImplementedError

    def forward(self, query: torch.Tensor, annotations: torch.Tensor, mask: torch.Tensor,
                keys: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """One attention step.

        Args:
            query: ``(N, Q)`` the decoder state ``s_{i-1}``.
            annotations: ``(N, S, K)`` the annotations ``h_j`` (values).
            mask: ``(N, S)`` bool, True at real source tokens.
            keys: ``(N, S, D)`` from :meth:`project_keys` (computed here when None).

        Returns:
            ``(context, weights)``: ``(N, K)`` and ``(N, S)`` (rows sum to 1, 0 at PAD).
        """
        if keys is None:
            keys = self.project_keys(annotations)
        weights = masked_softmax(self.score(query, keys), mask)
        return attention_context(weights, annotations), weights


class BahdanauAttention(Attention):
    """Additive attention: ``e_ij = v_a^T tanh(W_a s_{i-1} + U_a h_j)`` (Bahdanau et al. 2015).

    ``U_a h_j`` (with a bias, the one bias inside the ``tanh``) is the key, computed once per
    sentence. ``v_a`` has no bias: it would add the same number to every score of a row, which
    the softmax ignores.

    Args:
        query_dim, key_dim: see :class:`Attention`.
        attention_dim: size ``A`` of the hidden layer of the alignment model (the paper: 1000).
    """

    def __init__(self, query_dim: int, key_dim: int, attention_dim: int) -> None:
        super().__init__(query_dim, key_dim)
        self.attention_dim = check_int("attention_dim", attention_dim, where="BahdanauAttention")
        self.W_a = nn.Linear(query_dim, attention_dim, bias=False)
        self.U_a = nn.Linear(key_dim, attention_dim)
        self.v_a = nn.Linear(attention_dim, 1, bias=False)

    def project_keys(self, annotations: torch.Tensor) -> torch.Tensor:
        """``U_a h_j``: ``(B, S, K)`` -> ``(B, S, A)``."""
        return self.U_a(annotations)

    def score(self, query: torch.Tensor, keys: torch.Tensor) -> torch.Tensor:
        """``v_a^T tanh(W_a s + U_a h_j)``: ``(N, Q)``, ``(N, S, A)`` -> ``(N, S)`` (grouped:
        ``(N, g, Q)``, ``(N, S, A)`` -> ``(N, g, S)``)."""
        # tanh(x) = 2 sigmoid(2x) - 1, so v^T tanh(x) = 2 v^T sigmoid(2x) - sum(v): the same
        # score through torch's CPU sigmoid, several times faster than its tanh on the
        # (N, S, A) energies, the largest tensor of a step (bench/attention.py measures both)
        if query.dim() == 3:  # (N, 1, S, A) + (N, g, 1, A): W_a s + U_a h_j
            pre = keys.unsqueeze(1) + self.W_a(query).unsqueeze(2)
        else:
            pre = keys + self.W_a(query).unsqueeze(1)  # (N, S, A): W_a s + U_a h_j
        gate = torch.sigmoid(pre.mul_(2.0))
        return self.v_a(gate).squeeze(-1).mul(2.0) - self.v_a.weight.sum()

    def readable_score(self, query: torch.Tensor, annotations: torch.Tensor) -> torch.Tensor:
        """The score as the paper writes it, ``e_ij = v_a^T tanh(W_a s_{i-1} + U_a h_j)``:
        query ``(N, Q)`` and annotations ``(N, S, K)`` -> scores ``(N, S)``.

        The readable form of :meth:`score`, which the model runs: that one receives ``U_a h_j``
        already computed (once per sentence, by :meth:`project_keys`) and evaluates the ``tanh``
        through a sigmoid, faster on a CPU. Both give the same scores (tested in float64).
        """
        W_a_s = self.W_a(query).unsqueeze(1)  # (N, 1, A): one vector per decoder state
        U_a_h = self.U_a(annotations)  # (N, S, A): one vector per source position
        energy = torch.tanh(W_a_s + U_a_h)  # (N, S, A): the alignment model's hidden layer
        return self.v_a(energy).squeeze(-1)  # (N, S): v_a^T tanh(...)


def _bilinear(query: torch.Tensor, keys: torch.Tensor) -> torch.Tensor:
    """``keys @ query``: ``(N, Q)`` -> ``(N, S)``, or ``(N, g, Q)`` -> ``(N, g, S)``."""
    if query.dim() == 3:
        return torch.bmm(keys, query.transpose(1, 2)).transpose(1, 2)
    return torch.bmm(keys, query.unsqueeze(2)).squeeze(2)


class LuongDotAttention(Attention):
    """Dot-product attention ``e_ij = s^T h_j`` (Luong et al. 2015); no parameters, so the
    decoder state and the annotations must have the same size."""

    def __init__(self, query_dim: int, key_dim: int) -> None:
        super().__init__(query_dim, key_dim)
        if query_dim != key_dim:
            raise ConfigError(f"LuongDotAttention: dot scores need query_dim == key_dim, got "
                              f"{query_dim} and {key_dim}")

    def project_keys(self, annotations: torch.Tensor) -> torch.Tensor:
        """The annotations themselves: ``(B, S, K)``."""
        return annotations

    def score(self, query: torch.Tensor, keys: torch.Tensor) -> torch.Tensor:
        """``s^T h_j``: ``(N, K)``, ``(N, S, K)`` -> ``(N, S)`` (grouped: ``(N, g, K)`` ->
        ``(N, g, S)``)."""
        return _bilinear(query, keys)


class LuongGeneralAttention(Attention):
    """Bilinear attention ``e_ij = s^T W_a h_j`` (Luong et al.'s "general"); the key
    ``W_a h_j`` ``(B, S, Q)`` is computed once per sentence, a step is one batched dot product."""

    def __init__(self, query_dim: int, key_dim: int) -> None:
        super().__init__(query_dim, key_dim)
        self.W_a = nn.Linear(key_dim, query_dim, bias=False)  # weight (Q, K) is W_a

    def project_keys(self, annotations: torch.Tensor) -> torch.Tensor:
        """``W_a h_j``: ``(B, S, K)`` -> ``(B, S, Q)``."""
        return self.W_a(annotations)

    def score(self, query: torch.Tensor, keys: torch.Tensor) -> torch.Tensor:
        """``s^T (W_a h_j)``: ``(N, Q)``, ``(N, S, Q)`` -> ``(N, S)`` (grouped: ``(N, g, Q)``
        -> ``(N, g, S)``)."""
        return _bilinear(query, keys)


#: ``attention=`` name -> score class
ATTENTIONS: dict[str, type[Attention]] = {
    "additive": BahdanauAttention,
    "dot": LuongDotAttention,
    "general": LuongGeneralAttention,
}


def make_attention(kind: str, query_dim: int, key_dim: int, attention_dim: int) -> Attention:
    """The score module named ``kind`` (``attention_dim`` is used by ``"additive"`` only)."""
    check_choice("attention", kind, tuple(ATTENTIONS), where="make_attention")
    if kind == "additive":
        return BahdanauAttention(query_dim, key_dim, attention_dim)
    return ATTENTIONS[kind](query_dim, key_dim)


# ====================================================================================== read-out


def maxout(x: torch.Tensor, pieces: int = 2) -> torch.Tensor:
    """Maxout over groups of ``pieces`` adjacent units (Goodfellow et al. 2013):
    ``(..., pieces * M)`` -> ``(..., M)``, ``t_j = max(t~_{pieces*j}, ..., t~_{pieces*j+pieces-1})``."""
    if x.shape[-1] % pieces:
        raise DataError(f"maxout: the last dimension ({x.shape[-1]}) is not a multiple of {pieces}")
    return x.unflatten(-1, (x.shape[-1] // pieces, pieces)).amax(-1)


class DeepOutput(nn.Module):
    """The deep output of Bahdanau et al. (appendix A.2.2):
    ``t~ = U_o s + V_o E y_{i-1} + C_o c``, ``t = maxout_2(t~)``, ``logits = W_o t``.

    ``U_o, V_o, C_o`` are the three blocks of one linear layer over ``[s ; E y ; c]`` (one
    matrix product instead of three; its bias is the read-out's only bias before ``W_o``). With
    ``maxout=False`` the read-out is linear: ``t = t~`` with ``M`` units (no pooling), the
    ablation that measures what the maxout non-linearity buys.

    Args:
        state_dim, embed_dim, context_dim: sizes of ``s``, ``E y`` and ``c``.
        maxout_dim: ``M``, the units of ``t`` (the paper: 500, from 1000 units of ``t~``).
        vocab_size: ``V``.
        maxout: pool pairs of units (True) or not.
        dropout: dropout on ``t`` before ``W_o``.
    """

    def __init__(self, state_dim: int, embed_dim: int, context_dim: int, maxout_dim: int,
                 vocab_size: int, maxout: bool = True, dropout: float = 0.0) -> None:
        super().__init__()
        self.maxout = bool(maxout)
        pre = 2 * maxout_dim if self.maxout else maxout_dim
        self.readin = nn.Linear(state_dim + embed_dim + context_dim, pre)  # [U_o | V_o | C_o]
        self.dropout = nn.Dropout(dropout)
        self.W_o = nn.Linear(maxout_dim, vocab_size)

    def forward(self, state: torch.Tensor, embedded: torch.Tensor, context: torch.Tensor) -> torch.Tensor:
        """``(..., H)``, ``(..., E)``, ``(..., K)`` -> logits ``(..., V)``."""
        t = self.readin(torch.cat([state, embedded, context], dim=-1))
        if self.maxout:
            t = maxout(t, 2)
        return self.W_o(self.dropout(t))


# ====================================================================================== helpers


def _gru_update(gi: torch.Tensor, h: torch.Tensor, w_hh: torch.Tensor, b_hh: torch.Tensor) -> torch.Tensor:
    """One GRU step from precomputed input projections, exactly :class:`torch.nn.GRUCell`'s
    equations: ``gi`` ``(N, 3H)`` = ``W_ih x + b_ih`` (gates r, z, n), ``h`` ``(N, H)``."""
    gh = F.linear(h, w_hh, b_hh)
    H = h.shape[-1]
    rz = torch.sigmoid(gi[:, : 2 * H] + gh[:, : 2 * H])
    r, z = rz[:, :H], rz[:, H:]
    n = torch.tanh(gi[:, 2 * H :] + r * gh[:, 2 * H :])
    return n + z * (h - n)  # (1 - z) * n + z * h


def _check_sizes(where: str, src_vocab_size: Any, tgt_vocab_size: Any, **sizes: Any) -> None:
    for key, value in (("src_vocab_size", src_vocab_size), ("tgt_vocab_size", tgt_vocab_size)):
        check_int(key, value, 5, where=where)  # the 4 specials and at least one real token
    for key, value in sizes.items():
        check_int(key, value, 1, where=where)


def _batch_source(batch: Any, where: str) -> tuple[torch.Tensor, torch.Tensor]:
    if getattr(batch, "src", None) is None:
        raise DataError(f"{where}: the batch has no source (src is None)")
    refuse_packed(batch, where)
    return batch.src, batch.src_lengths


def _packed(emb: torch.Tensor, lengths: torch.Tensor):
    return pack_padded_sequence(emb, lengths.detach().to("cpu", torch.int64), batch_first=True,
                                enforce_sorted=False)


READOUT_STATES = ("previous", "current")


# ====================================================================================== RNNsearch


@dataclass
class AttentionState:
    """The decoder state of :class:`RNNSearch` for ``N`` rows (sentences or hypotheses) of
    ``N / group`` sentences; rows ``s*group .. s*group + group-1`` belong to sentence ``s``.

    Attributes:
        hidden: ``(N, H)`` the decoder state ``s_{i}`` after the last step (``s_0`` at first).
        annotations: ``(N / group, S, K)`` the encoder annotations ``h_j`` (0 at PAD), one copy
            per sentence shared by its rows.
        keys: ``(N / group, S, D)`` the score's per-sentence part (``U_a h_j`` for additive
            attention).
        mask: ``(N / group, S)`` bool, True at real source tokens.
        weights: ``(N, S)`` the attention weights of the step that produced this state
            (None before the first step).
        group: rows per sentence (1 after :meth:`RNNSearch.encode`).
    """

    #: the fields held once per sentence (see :func:`~companion.models.contract.reorder_by_sentence`)
    per_sentence: ClassVar[tuple[str, ...]] = ("annotations", "keys", "mask")

    hidden: torch.Tensor
    annotations: torch.Tensor
    keys: torch.Tensor
    mask: torch.Tensor
    weights: torch.Tensor | None = None
    group: int = 1

    def index_select(self, index: torch.Tensor) -> "AttentionState":
        """Rows ``index`` ``(N',)``: the row tensors index-selected, the per-sentence ones only
        where whole sentences leave or change order."""
        return reorder_by_sentence(self, index)


class RNNSearch(nn.Module):
    """RNNsearch (Bahdanau, Cho & Bengio 2015): a bidirectional GRU encoder and a GRU decoder
    that attends over the annotations at every step (see the module docstring for the equations
    and the order of a step).

    Args:
        src_vocab_size, tgt_vocab_size: vocabulary sizes (ids 0..3 are PAD/BOS/EOS/UNK).
        embed_dim: word embedding size ``E`` (the paper: 620).
        hidden_size: ``H``, units of the decoder GRU and of each encoder direction (the paper:
            1000); annotations have ``2H`` units. With ``attention="dot"`` each encoder direction
            has ``H // 2`` units (``H`` must be even) so that ``s^T h_j`` is defined.
        attention: ``"additive"`` (the paper), ``"dot"`` or ``"general"`` (Luong et al. 2015).
        attention_dim: hidden units of the additive alignment model (the paper: 1000).
        maxout_dim: units ``M`` of the read-out after maxout (the paper: 500).
        dropout: dropout on the source and target embeddings and on the read-out ``t``
            (the paper uses none; small data needs some).
        maxout: True for the paper's maxout read-out, False for a linear one.
        readout_state: ``"previous"`` (``s_{i-1}``, appendix A.2.2) or ``"current"`` (``s_i``).
    """

    example_args: ClassVar[dict[str, Any]] = {"embed_dim": 8, "hidden_size": 12,
                                              "attention_dim": 10, "maxout_dim": 7}

    def __init__(
        self,
        src_vocab_size: int,
        tgt_vocab_size: int,
        embed_dim: int = 128,
        hidden_size: int = 128,
        attention: str = "additive",
        attention_dim: int = 128,
        maxout_dim: int = 64,
        dropout: float = 0.0,
        maxout: bool = True,
        readout_state: str = "previous",
    ) -> None:
        super().__init__()
        where = "RNNSearch"
        _check_sizes(where, src_vocab_size, tgt_vocab_size, embed_dim=embed_dim,
                     hidden_size=hidden_size, attention_dim=attention_dim, maxout_dim=maxout_dim)
        check_choice("attention", attention, tuple(ATTENTIONS), where=where)
        check_choice("readout_state", readout_state, READOUT_STATES, where=where)
        if not isinstance(maxout, bool):
            raise ConfigError(f"{where}: maxout must be true or false, got {maxout!r}")
        dropout = check_dropout("dropout", dropout, where=where)
        if attention == "dot" and hidden_size % 2:
            raise ConfigError(f"{where}: attention='dot' needs an even hidden_size (each encoder "
                              f"direction gets hidden_size // 2 units), got {hidden_size}")
        self.src_vocab_size, self.tgt_vocab_size = src_vocab_size, tgt_vocab_size
        self.embed_dim, self.hidden_size = embed_dim, hidden_size
        self.attention_kind, self.readout_state = attention, readout_state
        enc = hidden_size // 2 if attention == "dot" else hidden_size
        self.annotation_dim = 2 * enc

        self.src_embed = nn.Embedding(src_vocab_size, embed_dim, padding_idx=PAD)
        self.tgt_embed = nn.Embedding(tgt_vocab_size, embed_dim, padding_idx=PAD)
        self.encoder = nn.GRU(embed_dim, enc, batch_first=True, bidirectional=True)
        self.W_s = nn.Linear(enc, hidden_size)  # s_0 = tanh(W_s bwd_h_1)
        self.attention = make_attention(attention, hidden_size, self.annotation_dim, attention_dim)
        self.decoder = nn.GRUCell(embed_dim + self.annotation_dim, hidden_size)  # [E y ; c]
        self.output = DeepOutput(hidden_size, embed_dim, self.annotation_dim, maxout_dim,
                                 tgt_vocab_size, maxout=maxout, dropout=dropout)
        self.dropout = nn.Dropout(dropout)

    def num_parameters(self) -> int:
        """Number of trainable scalars."""
        return _count_parameters(self)

    # ------------------------------------------------------------------ encoder
    def annotate(self, src: torch.Tensor, src_lengths: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """The annotations ``h_j = [fwd_h_j ; bwd_h_j]`` ``(B, S, 2H)`` (0 at PAD) and the
        backward encoder's state at the first token ``bwd_h_1`` ``(B, H)``.

        Sequences are packed, so each direction reads exactly the row's real tokens."""
        emb = self.dropout(self.src_embed(src))  # (B, S, E)
        out, h_n = self.encoder(_packed(emb, src_lengths))
        annotations, _ = pad_packed_sequence(out, batch_first=True, total_length=src.shape[1])
        return annotations.contiguous(), h_n[1]  # h_n[1]: the backward direction after reading x_1

    def encode(self, src: torch.Tensor, src_lengths: torch.Tensor) -> AttentionState:
        """Read ``src`` ``(B, S)`` (right-padded, each row ending in EOS) of real lengths
        ``src_lengths`` ``(B,)``: the annotations, their keys (``U_a h_j``, once per sentence),
        the PAD mask and ``s_0 = tanh(W_s bwd_h_1)``."""
        check_source(src, src_lengths, "RNNSearch.encode")
        annotations, bwd_first = self.annotate(src, src_lengths)
        mask = torch.arange(src.shape[1], device=src.device) < src_lengths.to(src.device).unsqueeze(1)
        s0 = torch.tanh(self.W_s(bwd_first))
        return AttentionState(s0, annotations, self.attention.project_keys(annotations), mask)

    # ------------------------------------------------------------------ decoder
    def _decoder_weights(self) -> tuple[torch.Tensor, torch.Tensor]:
        """``W_ih`` split into its ``E y`` and ``c`` columns: ``(3H, E)``, ``(3H, K)``."""
        w = self.decoder.weight_ih
        return w[:, : self.embed_dim], w[:, self.embed_dim :]

    def _teacher_forced(self, batch: Any, keep_weights: bool) -> tuple[torch.Tensor, torch.Tensor | None]:
        """Logits ``(B, T, V)`` and, if asked, the weights ``(B, T, S)`` of every step.

        The arithmetic of :meth:`step`, arranged for speed: what does not depend on the
        recurrence runs outside the loop -- the keys once per sentence (in :meth:`encode`), the
        ``E y`` part of the GRU input of all steps in one product, and the read-out of all
        positions in one product after the loop."""
        src, src_lengths = _batch_source(batch, "RNNSearch.forward")
        state = self.encode(src, src_lengths)
        emb = self.dropout(self.tgt_embed(batch.tgt_in))  # (B, T, E)
        w_y, w_c = self._decoder_weights()
        gi_y = F.linear(emb, w_y, self.decoder.bias_ih).unbind(1)  # T x (B, 3H)
        w_hh, b_hh = self.decoder.weight_hh, self.decoder.bias_hh
        ann, keys, mask = state.annotations, state.keys, state.mask
        T = emb.shape[1]
        current = self.readout_state == "current"
        s = state.hidden
        states, contexts, weights = [], [], []
        for i in range(T):
            alpha = masked_softmax(self.attention.score(s, keys), mask)  # attends with s_{i-1}
            c = attention_context(alpha, ann)
            if not current:
                states.append(s)
            if current or i < T - 1:  # the last s_i is needed only by a "current" read-out
                s = _gru_update(gi_y[i] + F.linear(c, w_c), s, w_hh, b_hh)
            if current:
                states.append(s)
            contexts.append(c)
            weights.append(alpha)
        logits = self.output(torch.stack(states, 1), emb, torch.stack(contexts, 1))
        return logits, (torch.stack(weights, 1) if keep_weights else None)

    def forward(self, batch: Any) -> torch.Tensor:
        """Teacher-forced logits ``(B, T, V)`` for ``batch.tgt_out`` given ``batch.src``
        ``(B, S)``, ``batch.src_lengths`` ``(B,)`` and ``batch.tgt_in`` ``(B, T)``."""
        return self._teacher_forced(batch, keep_weights=False)[0]

    def attention_weights(self, batch: Any) -> torch.Tensor:
        """Teacher-forced attention weights ``(B, T, S)``: row ``t`` of sentence ``b`` is the
        distribution over source positions used to predict ``batch.tgt_out[b, t]`` (0 at PAD;
        rows of PAD target positions are meaningless). For heatmaps of reference translations;
        runs in the model's current mode (call ``model.eval()`` first) with autograd as set by
        the caller."""
        return self._teacher_forced(batch, keep_weights=True)[1]

    def step(self, prev_tokens: torch.Tensor, state: AttentionState, need_attention: bool = False
             ) -> tuple[torch.Tensor, AttentionState]:
        """One decoder step: ``prev_tokens`` ``(N,)`` (BOS first) -> ``log_probs`` ``(N, V)``
        over the next token and the new state (which records this step's weights, needed for
        the context anyway, so ``need_attention`` changes nothing)."""
        emb = self.dropout(self.tgt_embed(prev_tokens))  # (N, E)
        N, g = state.hidden.shape[0], state.group
        query = state.hidden.view(N // g, g, -1)  # the g rows of each sentence attend together
        alpha = masked_softmax(self.attention.score(query, state.keys), state.mask)  # (N / g, g, S)
        c = attention_context(alpha, state.annotations).view(N, -1)  # (N, K)
        alpha = alpha.view(N, -1)
        w_y, w_c = self._decoder_weights()
        gi = F.linear(emb, w_y, self.decoder.bias_ih) + F.linear(c, w_c)
        s = _gru_update(gi, state.hidden, self.decoder.weight_hh, self.decoder.bias_hh)
        read = s if self.readout_state == "current" else state.hidden
        logits = self.output(read, emb, c)
        if logits.dtype in (torch.float16, torch.bfloat16):  # search in at least float32
            logits = logits.float()
        new = AttentionState(s, state.annotations, state.keys, state.mask, alpha, g)
        return torch.log_softmax(logits, dim=-1), new

    @staticmethod
    def reorder_state(state: AttentionState, index: torch.Tensor) -> AttentionState:
        """Select/repeat rows: ``index`` ``(N',)`` -> a state of ``N'`` rows."""
        return state.index_select(index)

    @staticmethod
    def step_attention(state: AttentionState) -> torch.Tensor:
        """``(N, S)`` weights of the step that produced ``state`` (rows sum to 1, 0 at PAD)."""
        if state.weights is None:
            raise DataError("RNNSearch.step_attention: the state comes from encode; no step has "
                            "attended yet")
        return state.weights


# ====================================================================================== RNNencdec


class RNNEncDec(nn.Module):
    """RNNencdec (Cho et al. 2014; the baseline of Bahdanau et al. 2015): the whole source in
    one context vector ``c = tanh(V h_S)``, fed to every decoder step and to the deep output.

    The decoder's input at step ``i`` is ``[E y_{i-1} ; c]`` and ``s_0 = tanh(V' c)``; since
    ``c`` does not change, the teacher-forced decoder runs as one :class:`torch.nn.GRU` call.

    Args:
        src_vocab_size, tgt_vocab_size, embed_dim, hidden_size, maxout_dim, dropout, maxout,
        readout_state: as for :class:`RNNSearch` (``hidden_size`` units in the encoder, the
            context and the decoder).
    """

    example_args: ClassVar[dict[str, Any]] = {"embed_dim": 8, "hidden_size": 12, "maxout_dim": 7}

    def __init__(
        self,
        src_vocab_size: int,
        tgt_vocab_size: int,
        embed_dim: int = 128,
        hidden_size: int = 128,
        maxout_dim: int = 64,
        dropout: float = 0.0,
        maxout: bool = True,
        readout_state: str = "previous",
    ) -> None:
        super().__init__()
        where = "RNNEncDec"
        _check_sizes(where, src_vocab_size, tgt_vocab_size, embed_dim=embed_dim,
                     hidden_size=hidden_size, maxout_dim=maxout_dim)
        check_choice("readout_state", readout_state, READOUT_STATES, where=where)
        if not isinstance(maxout, bool):
            raise ConfigError(f"{where}: maxout must be true or false, got {maxout!r}")
        dropout = check_dropout("dropout", dropout, where=where)
        self.src_vocab_size, self.tgt_vocab_size = src_vocab_size, tgt_vocab_size
        self.embed_dim, self.hidden_size = embed_dim, hidden_size
        self.readout_state = readout_state

        self.src_embed = nn.Embedding(src_vocab_size, embed_dim, padding_idx=PAD)
        self.tgt_embed = nn.Embedding(tgt_vocab_size, embed_dim, padding_idx=PAD)
        self.encoder = nn.GRU(embed_dim, hidden_size, batch_first=True)
        self.V = nn.Linear(hidden_size, hidden_size)  # c = tanh(V h_S)
        self.V_init = nn.Linear(hidden_size, hidden_size)  # s_0 = tanh(V' c)
        self.decoder = nn.GRU(embed_dim + hidden_size, hidden_size, batch_first=True)
        self.output = DeepOutput(hidden_size, embed_dim, hidden_size, maxout_dim, tgt_vocab_size,
                                 maxout=maxout, dropout=dropout)
        self.dropout = nn.Dropout(dropout)

    def num_parameters(self) -> int:
        """Number of trainable scalars."""
        return _count_parameters(self)

    def encode(self, src: torch.Tensor, src_lengths: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Read ``src`` ``(B, S)``; return the state ``(s_0, c)``, each ``(B, H)``."""
        check_source(src, src_lengths, "RNNEncDec.encode")
        emb = self.dropout(self.src_embed(src))
        _, h_n = self.encoder(_packed(emb, src_lengths))  # (1, B, H): each row's last real step
        c = torch.tanh(self.V(h_n[0]))
        return torch.tanh(self.V_init(c)), c

    def forward(self, batch: Any) -> torch.Tensor:
        """Teacher-forced logits ``(B, T, V)``; see :meth:`RNNSearch.forward`."""
        src, src_lengths = _batch_source(batch, "RNNEncDec.forward")
        s0, c = self.encode(src, src_lengths)
        emb = self.dropout(self.tgt_embed(batch.tgt_in))  # (B, T, E)
        B, T = batch.tgt_in.shape
        ctx = c.unsqueeze(1).expand(B, T, self.hidden_size)
        out, _ = self.decoder(torch.cat([emb, ctx], dim=-1), s0.unsqueeze(0))  # s_1 .. s_T
        if self.readout_state == "previous":
            out = torch.cat([s0.unsqueeze(1), out[:, :-1]], dim=1)  # s_0 .. s_{T-1}
        return self.output(out, emb, ctx)

    def step(self, prev_tokens: torch.Tensor, state: tuple[torch.Tensor, torch.Tensor]
             ) -> tuple[torch.Tensor, tuple[torch.Tensor, torch.Tensor]]:
        """One decoder step: ``prev_tokens`` ``(N,)`` -> ``log_probs`` ``(N, V)``, new state."""
        s, c = state
        emb = self.dropout(self.tgt_embed(prev_tokens))  # (N, E)
        out, _ = self.decoder(torch.cat([emb, c], dim=-1).unsqueeze(1), s.unsqueeze(0))
        new = out.squeeze(1)
        logits = self.output(new if self.readout_state == "current" else s, emb, c)
        if logits.dtype in (torch.float16, torch.bfloat16):
            logits = logits.float()
        return torch.log_softmax(logits, dim=-1), (new, c)

    @staticmethod
    def reorder_state(state: tuple[torch.Tensor, torch.Tensor], index: torch.Tensor
                      ) -> tuple[torch.Tensor, torch.Tensor]:
        """Select/repeat rows: ``index`` ``(N',)`` -> ``(s, c)`` with ``N'`` rows."""
        s, c = state
        return s.index_select(0, index), c.index_select(0, index)


__all__ = ["ATTENTIONS", "Attention", "AttentionState", "BahdanauAttention", "DeepOutput",
           "LuongDotAttention", "LuongGeneralAttention", "RNNEncDec", "RNNSearch",
           "attention_context", "make_attention", "masked_softmax", "maxout"]
