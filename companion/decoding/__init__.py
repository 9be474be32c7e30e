"""Decoding as search over ``p(y | x)``: greedy, batched beam search (length penalty, n-best),
exhaustive search (the exact argmax, for tests), ensembles, and whole-corpus translation.

Every function works on any model that meets :class:`companion.models.contract.Translator`.
"""

from companion.decoding.corpus import decode_corpus, translate_corpus
from companion.decoding.ensemble import Ensemble
from companion.decoding.search import (Hypothesis, beam_search, exhaustive_search, greedy_search,
                                       length_penalty, max_lengths, score_sequences)

__all__ = ["Ensemble", "Hypothesis", "beam_search", "decode_corpus", "exhaustive_search",
           "greedy_search", "length_penalty", "max_lengths", "score_sequences", "translate_corpus"]
