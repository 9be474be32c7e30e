"""The names a run directory's files go by, and the run settings that are derived rather than
written: the one place that :mod:`companion.training.rundata` (its data) and
:mod:`companion.training.rundir` (its vocabularies, config and checkpoints) both read.

A run directory ``RUN/`` holds::

    vocab.src.model, vocab.tgt.model   VOCAB_FILES: SentencePiece models
    vocab.json                         VOCAB_RECORD: what they were built from
    data-bin/                          CACHE_DIR: the corpus, binarised
    config.yaml, metrics.jsonl         the resolved configuration; one JSON object per log line
    checkpoint-last.pt, checkpoint-best.pt, checkpoint-step{N}.pt
"""

from __future__ import annotations

from companion.models import get_model_class

__all__ = ["CACHE_DIR", "SPLITS", "VOCAB_FILES", "VOCAB_KEYS", "VOCAB_RECORD", "reads_packed",
           "resolve_batching"]

#: the vocabulary files of a run, by side
VOCAB_FILES = {"src": "vocab.src.model", "tgt": "vocab.tgt.model"}
#: the ``data`` keys that determine the vocabularies (and so the model's embedding sizes)
VOCAB_KEYS = ("src_lang", "tgt_lang", "src_vocab_size", "tgt_vocab_size", "vocab_model_type",
              "character_coverage", "vocab_sample_sentences")
#: the record of the settings and train files the vocabularies were built from
VOCAB_RECORD = "vocab.json"
#: the memory-mapped corpus (:mod:`companion.data.binarized`)
CACHE_DIR = "data-bin"
#: the splits a run trains and validates on
SPLITS = ("train", "valid")


def reads_packed(model_name: str) -> bool:
    """Whether the registered model ``model_name`` reads packed rows (its class has
    ``accepts_packed``, :mod:`companion.data.packing`)."""
    return bool(getattr(get_model_class(model_name), "accepts_packed", False))


def resolve_batching(batching: str, model_name: str) -> str:
    """``data.batching`` with ``auto`` resolved for the model ``model_name``: ``packed`` for a
    model that reads packed rows, else ``bucketed``; any other value as it is."""
    if batching != "auto":
        return batching
    return "packed" if reads_packed(model_name) else "bucketed"
