"""A tiny Korean->English Transformer's recorded run, reproduced through the package.

Chapter 5 follows a set of Korean study notes (the book's source document for the Transformer
chapter, kept outside the repository) that train a two-sentence translator built around
:class:`torch.nn.Transformer` (d_model 16, 2 heads, one encoder and one decoder layer, FFN 32, no
dropout, Pre-LN, target embedding tied to the output layer, source vocabulary 8, target
vocabulary 9) for one Adam step at lr 0.001 from seed 42, decode greedily, and record six facts.
Those facts, and the notes' words and ids, are what this module keeps:

============  =====================================  ================================================
side          words                                  ids (PAD=0, BOS=1, EOS=2, UNK=3 come first)
============  =====================================  ================================================
Korean        나는 차를 마신다 / 안녕                 나는=4, 차를=5, 마신다=6, 안녕=7
English       i drink tea / hello                    i=4, drink=5, tea=6, hello=7, you=8
============  =====================================  ================================================

The numbers depend on the order in which the random initial weights are drawn (source
embedding, target embedding, then ``nn.Transformer``'s layers, Xavier-reset), so this module
keeps that architecture as :class:`NNTransformerTranslator`, built with the package's batches
(:func:`companion.data.batching.collate`), positional encodings and loss, and
:func:`to_package_transformer` copies its weights into the package's own
:class:`~companion.models.transformer.Transformer` -- which then computes the same logits, the
same loss, and the same generated ids, the last through its key/value cache.
:func:`tiny_run_lines` computes the six facts; :data:`TINY_RUN_RECORDED` is what the notes
recorded.
"""

from __future__ import annotations

import math
import re
import warnings
from typing import Any

import torch
import torch.nn.functional as F
from torch import nn

from companion.data.batching import Batch, causal_mask, collate
from companion.decoding.search import greedy_search
from companion.errors import ConfigError
from companion.models.contract import check_source
from companion.models.transformer import RecomputingDecoder, SinusoidalPositions, Transformer
from companion.specials import BOS, EOS, PAD
from companion.training.trainer import Trainer
from companion.validation import check_choice

#: the document's vocabularies (facts: words -> ids)
SRC_IDS = {"나는": 4, "차를": 5, "마신다": 6, "안녕": 7}
TGT_IDS = {"i": 4, "drink": 5, "tea": 6, "hello": 7, "you": 8}
SRC_VOCAB_SIZE, TGT_VOCAB_SIZE = 8, 9
#: the two sentence pairs, as ``collate`` examples: (source ids + [EOS], target ids)
PAIRS = [([4, 5, 6, EOS], [4, 5, 6]),  # 나는 차를 마신다 -> i drink tea
         ([7, EOS], [7])]  # 안녕 -> hello
#: the document's model sizes and training step
SIZES = {"d_model": 16, "num_heads": 2, "num_encoder_layers": 1, "num_decoder_layers": 1, "d_ff": 32,
         "dropout": 0.0, "pre_ln": True}
SEED, LR, MAX_NEW_TOKENS = 42, 1e-3, 5


class NNTransformerTranslator(nn.Module):
    """The document's architecture: two embeddings, ``nn.Transformer`` (batch-first), and the
    target embedding as the output layer. Modules are created in the document's order, so
    ``torch.manual_seed(42)`` gives its initial weights.

    It offers the pieces :class:`~companion.models.transformer.RecomputingDecoder` decodes with
    (``encoder_output``, ``decoder_output``, ``logits``): without a cache, like the document's
    loop. Sizes default to the document's; ``bench/transformer.py`` builds an equal-size twin of
    the package model with it.

    ``nn.Transformer``'s boolean masks mean the opposite of the package's: True = *blocked*.
    """

    def __init__(self, src_vocab_size: int = SRC_VOCAB_SIZE, tgt_vocab_size: int = TGT_VOCAB_SIZE,
                 d_model: int = 16, num_heads: int = 2, num_encoder_layers: int = 1, num_decoder_layers: int = 1,
                 d_ff: int = 32, dropout: float = 0.0, pre_ln: bool = True, max_len: int = 32) -> None:
        super().__init__()
        self.src_vocab_size, self.tgt_vocab_size, self.d_model = src_vocab_size, tgt_vocab_size, d_model
        self.src_embed = nn.Embedding(src_vocab_size, d_model, padding_idx=PAD)  # N(0, 1), PAD row 0
        self.tgt_embed = nn.Embedding(tgt_vocab_size, d_model, padding_idx=PAD)
        self.positions = SinusoidalPositions(d_model, max_len)  # a buffer: draws nothing
        with warnings.catch_warnings():  # "enable_nested_tensor is True, but ... norm_first was True"
            warnings.filterwarnings("ignore", message="enable_nested_tensor", category=UserWarning)
            self.core = nn.Transformer(d_model=d_model, nhead=num_heads, num_encoder_layers=num_encoder_layers,
                                       num_decoder_layers=num_decoder_layers, dim_feedforward=d_ff,
                                       dropout=dropout, batch_first=True, norm_first=pre_ln)
        self.dropout = nn.Dropout(dropout)
        # The document also creates an output Linear and then replaces its weight by the target
        # embedding; that draw comes after all others, so leaving it out changes no number.

    def embed(self, ids: torch.Tensor, table: nn.Embedding) -> torch.Tensor:
        """``E[ids] * sqrt(d_model) + PE``: ``(B, L)`` -> ``(B, L, D)``."""
        return self.dropout(table(ids) * math.sqrt(self.d_model) + self.positions(ids.shape[1]))

    def encoder_output(self, src: torch.Tensor) -> torch.Tensor:
        """``(B, S)`` -> memory ``(B, S, D)``."""
        return self.core.encoder(self.embed(src, self.src_embed), src_key_padding_mask=src == PAD)

    def decoder_output(self, tgt_in: torch.Tensor, memory: torch.Tensor, src: torch.Tensor):
        """``(hidden (B, T, D), [])`` for ``tgt_in`` ``(B, T)`` (no attention weights)."""
        blocked_future = ~causal_mask(tgt_in.shape[1], device=tgt_in.device)
        hidden = self.core.decoder(self.embed(tgt_in, self.tgt_embed), memory, tgt_mask=blocked_future,
                                   tgt_key_padding_mask=tgt_in == PAD, memory_key_padding_mask=src == PAD)
        return hidden, []

    def logits(self, hidden: torch.Tensor) -> torch.Tensor:
        """Tied output layer: ``hidden @ E_tgt^T``, ``(..., D)`` -> ``(..., V)``."""
        return F.linear(hidden, self.tgt_embed.weight)

    def forward(self, batch: Batch) -> torch.Tensor:
        """Logits ``(B, T, V)`` for ``batch.tgt_out``."""
        check_source(batch.src, batch.src_lengths, "NNTransformerTranslator.forward")
        hidden, _ = self.decoder_output(batch.tgt_in, self.encoder_output(batch.src), batch.src)
        return self.logits(hidden)


# ---------------------------------------------------------------------------- weight copying
_RENAMES = [
    (r"^core\.encoder\.layers\.", "encoder_layers."),
    (r"^core\.decoder\.layers\.", "decoder_layers."),
    (r"^core\.encoder\.norm\.", "encoder_norm."),
    (r"^core\.decoder\.norm\.", "decoder_norm."),
    (r"(^|\.)multihead_attn\.", r"\1cross_attn."),
    (r"\.in_proj_(weight|bias)$", r".in_proj.\1"),
    (r"(^|\.)(linear[12])\.", r"\1ffn.\2."),
]


def package_key(key: str) -> str:
    """The package :class:`Transformer`'s name of an :class:`NNTransformerTranslator` parameter
    (``core.decoder.layers.0.multihead_attn.in_proj_weight`` ->
    ``decoder_layers.0.cross_attn.in_proj.weight``); layer-level names (``self_attn.in_proj_bias``,
    ``linear1.weight``) are renamed the same way."""
    for pattern, repl in _RENAMES:
        key = re.sub(pattern, repl, key)
    return key


def to_package_transformer(model: NNTransformerTranslator) -> Transformer:
    """A package :class:`Transformer` holding ``model``'s weights (same sizes, tied output). It
    draws its own initial weights from the global generator first, then overwrites them all.

    Only Pre-LN models convert: ``nn.Transformer`` puts a LayerNorm after each stack whatever
    ``norm_first`` is, while the paper's Post-LN (the package's) has none there."""
    first = model.core.encoder.layers[0]
    if not first.norm_first:
        raise ConfigError("to_package_transformer: only Pre-LN (norm_first=True) models convert; "
                          "nn.Transformer's Post-LN adds a final LayerNorm the paper's model lacks")
    out = Transformer(
        model.src_vocab_size, model.tgt_vocab_size, d_model=model.d_model, num_heads=first.self_attn.num_heads,
        num_encoder_layers=len(model.core.encoder.layers), num_decoder_layers=len(model.core.decoder.layers),
        d_ff=first.linear1.out_features, dropout=float(first.dropout.p), pre_ln=True)
    state = {package_key(k): v for k, v in model.state_dict().items()}
    out.load_state_dict(state)  # strict: every parameter of both models is matched
    return out.to(next(model.parameters()))


# ---------------------------------------------------------------------------- the recorded run
def tiny_run_batch() -> Batch:
    """The document's two pairs batched by the package: ``src`` ``[[4, 5, 6, 2], [7, 2, 0, 0]]``,
    ``tgt_in`` ``[[1, 4, 5, 6], [1, 7, 2, 0]]``, ``tgt_out`` ``[[4, 5, 6, 2], [7, 2, 0, 0]]``."""
    return collate(PAIRS)


def tiny_run_models(seed: int = SEED) -> tuple[NNTransformerTranslator, Transformer]:
    """The document's model as initialised from ``seed`` (the document's: 42), and the package
    Transformer holding the same weights. The global torch generator is left as it was."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        reference = NNTransformerTranslator(**{k: v for k, v in SIZES.items() if k != "dropout"})
        package = to_package_transformer(reference)  # its own initial draw is overwritten
    return reference, package


def tiny_run_lines(implementation: str = "package", seed: int = SEED) -> list[str]:
    """The document's recorded results, computed with ``implementation`` from the initial
    weights of ``seed`` (the document's 42 gives :data:`TINY_RUN_RECORDED`):

    - ``"package"``: the package :class:`Transformer` holding the document's initial weights,
      trained one step by :class:`~companion.training.Trainer`, decoded by
      :func:`~companion.decoding.greedy_search` through its key/value cache;
    - ``"nn.Transformer"``: the document's architecture itself (:class:`NNTransformerTranslator`),
      same Trainer, decoded without a cache (:class:`RecomputingDecoder`).

    The loss is the Trainer's first training loss (the mean NLL over the 6 real labels before the
    update); generation is greedy, PAD and BOS banned, of the first sentence, stopping at EOS or
    after 5 tokens, as the document's loop does: a fifth generated id is the model's choice, never
    an EOS put in its place (the search marks such an output ``truncated``).
    """
    check_choice("implementation", implementation, ("package", "nn.Transformer"), "tiny_run_lines")
    reference, package = tiny_run_models(seed)
    model = package if implementation == "package" else reference
    batch = tiny_run_batch()
    logits = model(batch)
    trainer = Trainer(model, [batch], None, preset="adam", lr=LR, max_steps=1, eval_every=0, clip_norm=0.0,
                      progress=False)
    history = trainer.fit()
    decoder: Any = model if implementation == "package" else RecomputingDecoder(model)
    hyp = greedy_search(decoder, batch.src[:1], batch.src_lengths[:1], max_len=MAX_NEW_TOKENS)[0]
    return [
        f"decoder_input={batch.tgt_in.tolist()}",
        f"labels={batch.tgt_out.tolist()}",
        f"logits_shape={tuple(logits.shape)}",
        f"scored_tokens={batch.ntokens}",
        f"loss_before_step={history.train_loss[0]:.4f}",
        f"generated_ids={[BOS, *hyp.tokens]}",
    ]


#: the six facts the notes recorded (Python 3.12.9, PyTorch 2.13.0, CPU), one per line
TINY_RUN_RECORDED = """\
decoder_input=[[1, 4, 5, 6], [1, 7, 2, 0]]
labels=[[4, 5, 6, 2], [7, 2, 0, 0]]
logits_shape=(2, 4, 9)
scored_tokens=6
loss_before_step=17.7308
generated_ids=[1, 2]""".splitlines()


__all__ = ["NNTransformerTranslator", "PAIRS", "TINY_RUN_RECORDED", "SIZES", "SRC_IDS", "TGT_IDS", "package_key",
           "tiny_run_batch", "tiny_run_lines", "tiny_run_models", "to_package_transformer"]
