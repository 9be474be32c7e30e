"""Decoding as search over ``p(y | x)``: greedy, batched beam search (length penalty, n-best),
exhaustive search (the exact argmax, for tests), ensembles, whole-corpus translation, and the
decode-time settings that override a checkpoint's and bound each sentence's work.

Every function works on any model that meets :class:`companion.models.contract.Translator`.
"""

from companion.decoding.corpus import decode_corpus, translate_corpus, translate_sentences
from companion.decoding.ensemble import Ensemble
from companion.decoding.search import (Hypothesis, beam_search, exhaustive_search, greedy_search,
                                       length_penalty, max_lengths, score_sequences)
from companion.decoding.settings import DecodeSettings, DecodeTally, resolve_settings

__all__ = ["DecodeSettings", "DecodeTally", "Ensemble", "Hypothesis", "beam_search", "decode_corpus",
           "exhaustive_search", "greedy_search", "length_penalty", "max_lengths", "resolve_settings",
           "score_sequences", "translate_corpus", "translate_sentences"]
