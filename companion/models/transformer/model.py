"""The encoder-decoder Transformer (Vaswani et al. 2017), with a key/value cache for decoding.

Teacher-forced (training)::

    memory = encoder(dropout(E_src[src] * sqrt(d_model) + PE))            (B, S, D)
    hidden = decoder(dropout(E_tgt[tgt_in] * sqrt(d_model) + PE), memory)  (B, T, D)
    logits = hidden @ E_tgt^T                                              (B, T, V)

The output layer is the target embedding matrix itself (``tie_output``, the paper's section
3.4); with ``share_all_embeddings`` the source embedding is that same matrix too (a joint
vocabulary, so both vocabulary sizes must be equal). The masks are those of
:mod:`companion.models.transformer.masks`.

Decoding one token at a time (the :class:`~companion.models.contract.AttentionTranslator`
contract) would, done naively, rerun the whole decoder over the prefix at every step. Instead:

- :meth:`Transformer.encode` runs the encoder and projects its output into the keys and values
  of every decoder layer's cross-attention, once per sentence;
- :meth:`Transformer.step` feeds only the newest token: each layer appends its new
  self-attention key and value to the cache (:class:`TransformerState`) and attends over it, so
  a step costs one position's work, not ``t`` positions';
- :meth:`Transformer.reorder_state` follows beam search's hypotheses: it index-selects the
  self-attention cache of every row, while the cross-attention keys and values stay one copy per
  sentence, shared by its hypotheses (:func:`~companion.models.contract.reorder_by_sentence`),
  so that only sentences that finish are ever dropped from them;
- the last layer's attention weights (:meth:`Transformer.step_attention`) are computed only
  for a step asked for them (``need_attention=True``); otherwise every layer runs the fused
  attention kernel.

The cached keys and values are exactly those the teacher-forced pass computes (a position's
keys depend only on earlier positions), so the step-by-step log-probabilities equal the
teacher-forced ones; ``tests/test_contract.py`` and ``tests/test_transformer.py`` check it,
and :class:`~companion.models.transformer.reference.RecomputingDecoder` is the no-cache
reference the benchmark ``bench/transformer.py`` compares against.
"""

from __future__ import annotations

import math
from collections.abc import Container
from dataclasses import dataclass
from typing import Any, ClassVar

import torch
import torch.nn.functional as F
from torch import nn

from companion.data.packing import segment_mask, segment_positions
from companion.errors import ConfigError, DataError
from companion.models.contract import check_source, checks_values, refuse_packed, reorder_by_sentence
from companion.models.transformer.layers import DecoderLayer, EncoderLayer, KeyValue, SinusoidalPositions
from companion.models.transformer.masks import cross_mask, decoder_self_mask, encoder_mask, key_padding
from companion.specials import PAD
from companion.validation import check_bool, check_dropout, check_int


@dataclass
class TransformerState:
    """The decoder state carried between :meth:`Transformer.step` calls: ``N`` rows (hypotheses)
    of ``N / group`` sentences; rows ``s*group .. s*group + group-1`` belong to sentence ``s``.

    Attributes:
        src_mask: ``(N / group, S)`` bool, True at real source tokens (one row per sentence).
        cross_kv: per decoder layer, the encoder output's keys and values, each
            ``(N / group, h, S, d_k)``: computed once by :meth:`Transformer.encode`, one copy
            per sentence shared by its rows.
        self_kv: per decoder layer, the self-attention keys and values of the ``t`` positions
            fed so far, each ``(N, h, t, d_k)``; every step appends one position.
        steps: ``t``, the number of tokens fed so far (the next token's position).
        attention: ``(N, S)`` the last step's cross-attention of the last decoder layer,
            averaged over heads (None before the first step, or when the step was not asked
            for it).
        group: rows per sentence (1 after :meth:`Transformer.encode`).
    """

    #: the fields held once per sentence (see :func:`~companion.models.contract.reorder_by_sentence`)
    per_sentence: ClassVar[tuple[str, ...]] = ("src_mask", "cross_kv")

    src_mask: torch.Tensor
    cross_kv: tuple[KeyValue, ...]
    self_kv: tuple[KeyValue, ...]
    steps: int = 0
    attention: torch.Tensor | None = None
    group: int = 1


def _check_ids(ids: torch.Tensor, size: int, name: str, where: str) -> None:
    if ids.numel() and checks_values(ids) and (int(ids.min()) < 0 or int(ids.max()) >= size):
        raise DataError(f"{where}: {name} holds ids outside the vocabulary [0, {size}) "
                        f"(min {int(ids.min())}, max {int(ids.max())})")


class Transformer(nn.Module):
    """Encoder-decoder Transformer.

    Args:
        src_vocab_size, tgt_vocab_size: vocabulary sizes (ids 0..3 are PAD/BOS/EOS/UNK).
        d_model: model width (the paper's base model: 512).
        num_heads: attention heads ``h``; must divide ``d_model`` (the paper: 8).
        num_encoder_layers, num_decoder_layers: ``N`` (the paper: 6 each).
        d_ff: inner width of the feed-forward sub-layers (the paper: 2048).
        dropout: residual dropout ``P_drop`` on every sub-layer output and on the embedding sums
            (the paper: 0.1).
        attention_dropout: dropout on the attention weights.
        activation_dropout: dropout on the feed-forward ReLU activations.
        pre_ln: Pre-LN (LayerNorm before each sub-layer, one more after each stack) instead of
            the paper's Post-LN.
        tie_output: the output layer is the target embedding matrix (the paper's sharing).
        share_all_embeddings: source embedding = target embedding = output layer (a joint
            vocabulary: needs ``src_vocab_size == tgt_vocab_size``).

    Initialisation: embeddings ``N(0, d_model^-1/2)`` (so that ``sqrt(d_model)``-scaled rows have
    unit-variance entries, like the positional encodings), PAD rows zero; every other matrix
    Xavier-uniform, every bias zero, LayerNorm gains one.
    """

    #: reads packed batches (:mod:`companion.data.packing`); the Trainer refuses them for other models
    accepts_packed: ClassVar[bool] = True
    example_args: ClassVar[dict[str, Any]] = {
        "d_model": 16, "num_heads": 2, "num_encoder_layers": 2, "num_decoder_layers": 2, "d_ff": 24,
        "dropout": 0.0,
    }

    def __init__(
        self,
        src_vocab_size: int,
        tgt_vocab_size: int,
        d_model: int = 128,
        num_heads: int = 4,
        num_encoder_layers: int = 2,
        num_decoder_layers: int = 2,
        d_ff: int = 512,
        dropout: float = 0.1,
        attention_dropout: float = 0.0,
        activation_dropout: float = 0.0,
        pre_ln: bool = False,
        tie_output: bool = True,
        share_all_embeddings: bool = False,
    ) -> None:
        super().__init__()
        where = "Transformer"
        for key, size in (("src_vocab_size", src_vocab_size), ("tgt_vocab_size", tgt_vocab_size)):
            check_int(key, size, 5, where)  # the 4 specials and at least one word
        for key, value in (("d_model", d_model), ("num_heads", num_heads), ("d_ff", d_ff),
                           ("num_encoder_layers", num_encoder_layers), ("num_decoder_layers", num_decoder_layers)):
            check_int(key, value, 1, where)
        if d_model % num_heads:
            raise ConfigError(f"{where}: num_heads ({num_heads}) must divide d_model ({d_model})")
        for key, value in (("dropout", dropout), ("attention_dropout", attention_dropout),
                           ("activation_dropout", activation_dropout)):
            check_dropout(key, value, where)
        self.pre_ln = check_bool("pre_ln", pre_ln, where)
        self.tie_output = check_bool("tie_output", tie_output, where)
        self.share_all_embeddings = check_bool("share_all_embeddings", share_all_embeddings, where)
        if share_all_embeddings and src_vocab_size != tgt_vocab_size:
            raise ConfigError(f"{where}: share_all_embeddings needs one joint vocabulary, but "
                              f"src_vocab_size={src_vocab_size} != tgt_vocab_size={tgt_vocab_size}")
        if share_all_embeddings and not tie_output:
            raise ConfigError(f"{where}: share_all_embeddings ties the output layer too; "
                              f"it cannot be combined with tie_output=false")
        self.src_vocab_size, self.tgt_vocab_size = src_vocab_size, tgt_vocab_size
        self.d_model, self.num_heads = d_model, num_heads

        self.tgt_embed = nn.Embedding(tgt_vocab_size, d_model, padding_idx=PAD)
        self.src_embed = self.tgt_embed if share_all_embeddings else nn.Embedding(
            src_vocab_size, d_model, padding_idx=PAD)
        self.positions = SinusoidalPositions(d_model)
        self.dropout = nn.Dropout(float(dropout))
        sizes = (d_model, num_heads, d_ff, float(dropout), float(attention_dropout), float(activation_dropout),
                 self.pre_ln)
        self.encoder_layers = nn.ModuleList(EncoderLayer(*sizes) for _ in range(num_encoder_layers))
        self.decoder_layers = nn.ModuleList(DecoderLayer(*sizes) for _ in range(num_decoder_layers))
        self.encoder_norm = nn.LayerNorm(d_model) if self.pre_ln else nn.Identity()
        self.decoder_norm = nn.LayerNorm(d_model) if self.pre_ln else nn.Identity()
        self.output = None if tie_output else nn.Linear(d_model, tgt_vocab_size, bias=False)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """The initialisation described in the class docstring."""
        std = self.d_model ** -0.5
        for layer in [*self.encoder_layers, *self.decoder_layers]:
            for module in layer.modules():
                if isinstance(module, nn.Linear):
                    nn.init.xavier_uniform_(module.weight)
                    nn.init.zeros_(module.bias)
                elif isinstance(module, nn.LayerNorm):
                    module.reset_parameters()
        for norm in (self.encoder_norm, self.decoder_norm):
            if isinstance(norm, nn.LayerNorm):
                norm.reset_parameters()
        embeddings = [self.tgt_embed] + ([] if self.share_all_embeddings else [self.src_embed])
        for emb in embeddings:
            nn.init.normal_(emb.weight, 0.0, std)
            with torch.no_grad():
                emb.weight[PAD].zero_()
        if self.output is not None:
            nn.init.normal_(self.output.weight, 0.0, std)

    # ------------------------------------------------------------------ pieces
    def embed(self, ids: torch.Tensor, table: nn.Embedding, offset: int = 0,
              segments: torch.Tensor | None = None) -> torch.Tensor:
        """``dropout(E[ids] * sqrt(d_model) + PE)``: ids ``(B, L)`` at positions
        ``offset .. offset+L-1`` -> ``(B, L, D)``; in packed rows (``segments`` ``(B, L)``) the
        positions restart at every segment (:func:`~companion.data.packing.segment_positions`)."""
        if segments is None:
            return self.dropout(table(ids) * math.sqrt(self.d_model) + self.positions(ids.shape[1], offset))
        positions = segment_positions(segments)
        pe = self.positions(int(positions.max()) + 1)[positions]  # (B, L, D)
        return self.dropout(table(ids) * math.sqrt(self.d_model) + pe)

    def logits(self, hidden: torch.Tensor) -> torch.Tensor:
        """Output layer: ``hidden`` ``(..., D)`` -> ``(..., V)`` scores over the target vocabulary
        (``hidden @ E_tgt^T`` when tied)."""
        if self.output is None:
            return F.linear(hidden, self.tgt_embed.weight)
        return self.output(hidden)

    def encoder_output(self, src: torch.Tensor, segments: torch.Tensor | None = None) -> torch.Tensor:
        """The encoder stack: source ids ``(B, S)`` -> memory ``(B, S, D)``; with ``segments``
        (packed rows) a token attends only within its own source sentence."""
        x = self.embed(src, self.src_embed, segments=segments)
        mask = (encoder_mask(src) if segments is None else segment_mask(segments, segments)).unsqueeze(1)
        for layer in self.encoder_layers:
            x = layer(x, mask)
        return self.encoder_norm(x)

    def _decoder_stack(
        self, x: torch.Tensor, self_mask: torch.Tensor | None, cross_kv: tuple[KeyValue, ...],
        c_mask: torch.Tensor, past: tuple[KeyValue, ...] | None = None, need_weights: Container[int] = (),
    ) -> tuple[torch.Tensor, tuple[KeyValue, ...], list[torch.Tensor | None]]:
        """All decoder layers on embedded inputs ``x`` ``(B, T, D)``; masks and ``past`` as in
        :meth:`DecoderLayer.forward`. Returns ``(hidden (B, T, D), every layer's keys and values,
        every layer's cross-attention weights (B, h, T, S) for the layers in need_weights)``."""
        kvs, weights = [], []
        for i, layer in enumerate(self.decoder_layers):
            x, kv, w = layer(x, self_mask, cross_kv[i], c_mask, None if past is None else past[i],
                             need_weights=i in need_weights)
            kvs.append(kv)
            weights.append(w)
        return self.decoder_norm(x), tuple(kvs), weights

    def decoder_output(self, tgt_in: torch.Tensor, memory: torch.Tensor, src: torch.Tensor,
                       need_weights: Container[int] = (), src_segments: torch.Tensor | None = None,
                       tgt_segments: torch.Tensor | None = None) -> tuple[torch.Tensor, list[torch.Tensor | None]]:
        """The decoder stack, teacher-forced over the whole ``tgt_in`` ``(B, T)`` given the
        encoder output ``memory`` ``(B, S, D)`` of ``src`` ``(B, S)``; with segments (packed
        rows, both given) a target token attends to its own prefix and its own source only.

        Returns ``(hidden (B, T, D), per layer the cross-attention weights (B, h, T, S) if the
        layer's index is in need_weights, else None)``."""
        cross_kv = tuple(layer.cross_attn.project_kv(memory) for layer in self.decoder_layers)
        x = self.embed(tgt_in, self.tgt_embed, segments=tgt_segments)
        if tgt_segments is None:
            self_mask = decoder_self_mask(tgt_in).unsqueeze(1)  # (B, 1, T, T)
            c_mask = cross_mask(src, tgt_in.shape[1]).unsqueeze(1)  # (B, 1, T, S)
        else:
            causal = torch.ones(tgt_in.shape[1], tgt_in.shape[1], dtype=torch.bool, device=tgt_in.device).tril_()
            self_mask = (segment_mask(tgt_segments, tgt_segments) & causal).unsqueeze(1)
            c_mask = segment_mask(tgt_segments, src_segments).unsqueeze(1)
        hidden, _, weights = self._decoder_stack(x, self_mask, cross_kv, c_mask, need_weights=need_weights)
        return hidden, weights

    def _check_batch(self, batch: Any, where: str, *, packed_ok: bool = False) -> None:
        if batch.src is None:
            raise DataError(f"{where}: the batch has no source (src is None)")
        if not packed_ok:
            refuse_packed(batch, where)
        packed = getattr(batch, "src_segments", None) is not None or getattr(batch, "tgt_segments", None) is not None
        check_source(batch.src, batch.src_lengths, where, one_per_row=not packed)
        _check_ids(batch.src, self.src_vocab_size, "src", where)
        _check_ids(batch.tgt_in, self.tgt_vocab_size, "tgt_in", where)

    # ------------------------------------------------------------------ teacher forcing
    def forward(self, batch: Any) -> torch.Tensor:
        """``batch.src`` ``(B, S)`` and ``batch.tgt_in`` ``(B, T)`` -> logits ``(B, T, V)``
        scoring ``batch.tgt_out``. A packed batch (``batch.src_segments`` and
        ``batch.tgt_segments``, :mod:`companion.data.packing`) gives every pair of a row the
        logits it would get in a row of its own."""
        self._check_batch(batch, "Transformer.forward", packed_ok=True)
        src_seg, tgt_seg = getattr(batch, "src_segments", None), getattr(batch, "tgt_segments", None)
        if (src_seg is None) != (tgt_seg is None):
            raise DataError("Transformer.forward: a packed batch needs both src_segments and tgt_segments")
        memory = self.encoder_output(batch.src, src_seg)
        hidden, _ = self.decoder_output(batch.tgt_in, memory, batch.src, src_segments=src_seg, tgt_segments=tgt_seg)
        return self.logits(hidden)

    @torch.no_grad()
    def cross_attention(self, batch: Any) -> torch.Tensor:
        """Teacher-forced decoder-encoder attention of every layer and head:
        ``(B, layers, heads, T, S)``; row ``[b, l, h, t]`` is the distribution over source
        positions with which layer ``l``'s head ``h`` read the source while predicting
        ``tgt_out[b, t]`` (0 at source PAD). Computed without gradients, in the current mode
        (call ``model.eval()`` first for weights without dropout)."""
        self._check_batch(batch, "Transformer.cross_attention")
        memory = self.encoder_output(batch.src)
        _, weights = self.decoder_output(batch.tgt_in, memory, batch.src,
                                         need_weights=range(len(self.decoder_layers)))
        return torch.stack(weights, dim=1)

    # ------------------------------------------------------------------ incremental decoding
    def encode(self, src: torch.Tensor, src_lengths: torch.Tensor) -> TransformerState:
        """Run the encoder on ``src`` ``(B, S)`` (lengths ``(B,)``) and compute the cross-attention
        keys and values of every decoder layer: the state before the first :meth:`step`. Source
        padding is read from the PAD ids, as in :func:`~companion.models.transformer.masks.encoder_mask`."""
        check_source(src, src_lengths, "Transformer.encode")
        _check_ids(src, self.src_vocab_size, "src", "Transformer.encode")
        memory = self.encoder_output(src)
        cross_kv = tuple(layer.cross_attn.project_kv(memory) for layer in self.decoder_layers)
        empty = memory.new_zeros(src.shape[0], self.num_heads, 0, self.d_model // self.num_heads)
        return TransformerState(key_padding(src), cross_kv, tuple((empty, empty) for _ in self.decoder_layers))

    def step(self, prev_tokens: torch.Tensor, state: TransformerState, need_attention: bool = False
             ) -> tuple[torch.Tensor, TransformerState]:
        """Feed ``prev_tokens`` ``(N,)`` at position ``state.steps``; return ``log_probs``
        ``(N, V)`` of the next token and the state with every layer's cache one position longer.
        With ``need_attention`` the new state keeps the last layer's cross-attention weights
        (:meth:`step_attention`); without, every layer uses the fused kernel."""
        x = self.embed(prev_tokens.unsqueeze(1), self.tgt_embed, offset=state.steps)  # (N, 1, D)
        last = len(self.decoder_layers) - 1
        c_mask = state.src_mask[:, None, None, :]  # cross_mask(src, 1).unsqueeze(1), (N / group, 1, 1, S)
        hidden, self_kv, weights = self._decoder_stack(x, None, state.cross_kv, c_mask, past=state.self_kv,
                                                       need_weights=(last,) if need_attention else ())
        logits = self.logits(hidden[:, 0])
        if logits.dtype in (torch.float16, torch.bfloat16):  # search in at least float32
            logits = logits.float()
        attention = weights[last][:, :, 0].mean(dim=1) if need_attention else None  # (N, h, 1, S) -> (N, S)
        new = TransformerState(state.src_mask, state.cross_kv, self_kv, state.steps + 1, attention, state.group)
        return torch.log_softmax(logits, dim=-1), new

    @staticmethod
    def step_attention(state: TransformerState) -> torch.Tensor:
        """``(N, S)``: the last decoder layer's cross-attention at the step that produced
        ``state``, averaged over heads (rows sum to 1, 0 at source PAD); the step must have
        been taken with ``need_attention=True``."""
        if state.attention is None:
            if state.steps == 0:
                raise DataError("Transformer.step_attention: no step has been taken from this state yet")
            raise DataError("Transformer.step_attention: the step that made this state kept no attention "
                            "weights; take it with step(..., need_attention=True)")
        return state.attention

    @staticmethod
    def reorder_state(state: TransformerState, index: torch.Tensor) -> TransformerState:
        """The state of rows ``index`` ``(N',)``: every row's self-attention cache (and attention
        weights) index-selected; the per-sentence cross-attention keys and values only where
        whole sentences leave or change order (:func:`~companion.models.contract.reorder_by_sentence`)."""
        return reorder_by_sentence(state, index)


__all__ = ["Transformer", "TransformerState"]
