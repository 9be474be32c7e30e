"""The Transformer (Vaswani et al. 2017), written from the paper's equations.

Modules, in the paper's order:

- :mod:`~companion.models.transformer.attention` -- scaled dot-product and multi-head attention
- :mod:`~companion.models.transformer.masks` -- the encoder, decoder and cross-attention masks
- :mod:`~companion.models.transformer.layers` -- positional encodings, the feed-forward
  sub-layer, encoder and decoder layers (Post-LN or Pre-LN)
- :mod:`~companion.models.transformer.model` -- :class:`Transformer`: embeddings, both stacks,
  the tied output layer, and decoding with a key/value cache
- :mod:`~companion.models.transformer.reference` -- :class:`RecomputingDecoder`, decoding
  without the cache (the reference the cache is tested and timed against)

Registered as ``model: {name: transformer, ...}``.
"""

from companion.models.transformer.attention import MultiHeadAttention, scaled_dot_product_attention
from companion.models.transformer.layers import (DecoderLayer, EncoderLayer, FeedForward, SinusoidalPositions,
                                                 sinusoid_table)
from companion.models.transformer.masks import cross_mask, decoder_self_mask, encoder_mask, key_padding
from companion.models.transformer.model import Transformer, TransformerState
from companion.models.transformer.reference import RecomputingDecoder

__all__ = ["DecoderLayer", "EncoderLayer", "FeedForward", "MultiHeadAttention", "RecomputingDecoder",
           "SinusoidalPositions", "Transformer", "TransformerState", "cross_mask", "decoder_self_mask",
           "encoder_mask", "key_padding", "scaled_dot_product_attention", "sinusoid_table"]
