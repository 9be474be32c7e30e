"""A trained run as a Python object: load it, translate sentences, score a test set.

::

    import companion

    t = companion.load("runs/transformer")          # a run directory or a checkpoint file
    t.translate(["고양이가 물을 마신다"])              # ['the cat drinks water']
    t.translate("고양이가 물을 마신다", beam=1)        # one string in, one string out (greedy)
    s = t.score(sources, references)                # {'bleu': MetricScore, 'chrf': MetricScore}
    print(s["bleu"])                                 # BLEU = 61.40  (nrefs:1|case:mixed|...)

A run directory stands for its ``checkpoint-best.pt`` (else ``checkpoint-last.pt``). The model,
its vocabularies and its decoding options (``decode.max_len_a``, ``max_len_b``,
``length_penalty``) come from the checkpoint, as with ``companion translate``; BLEU and chrF are
sacrebleu's (:mod:`companion.evaluation.metrics`), on detokenized text, with their signatures.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from companion.config import Config
from companion.errors import CheckpointError, ConfigError
from companion.validation import check_int


def checkpoint_of(path: str | Path) -> Path:
    """The checkpoint that ``path`` names: a file itself, or a run directory's
    ``checkpoint-best.pt`` (else ``checkpoint-last.pt``)."""
    path = Path(path)
    if not path.is_dir():
        return path
    for name in ("checkpoint-best.pt", "checkpoint-last.pt"):
        if (path / name).exists():
            return path / name
    raise CheckpointError(f"{path}: a directory without checkpoint-best.pt or checkpoint-last.pt "
                          f"(expected a run directory of `companion train` or a checkpoint file)")


@dataclass
class Translator:
    """A loaded translation model with its vocabularies and decoding options."""

    model: torch.nn.Module
    src_vocab: Any
    tgt_vocab: Any
    config: Config
    checkpoint: Path
    step: int

    @classmethod
    def load(cls, path: str | Path, device: str | torch.device = "cpu") -> "Translator":
        """Load a run directory or a checkpoint file (see :func:`checkpoint_of`) onto ``device``."""
        from companion.training.rundir import load_run
        from companion.validation import check_device

        device = check_device("device", device, where="companion.load")
        ckpt_path = checkpoint_of(path)
        model, src_vocab, tgt_vocab, cfg, ckpt = load_run(ckpt_path, device)
        if not callable(getattr(model, "encode", None)):
            raise ConfigError(f"{ckpt_path}: a {cfg.model.name} checkpoint is a language model; it does not translate")
        return cls(model, src_vocab, tgt_vocab, cfg, ckpt_path, int(ckpt["step"]))

    def translate(self, sentences: str | Sequence[str], beam: int | None = 5, *,
                  batch_size: int = 64) -> str | list[str]:
        """Detokenized translations of ``sentences`` (a list in, a list out; one string in, one
        string out), by beam search of width ``beam`` (1: greedy; None: the run's
        ``decode.beam_size``)."""
        from companion.decoding.corpus import translate_corpus
        from companion.training.rundir import search_options

        one = isinstance(sentences, str)
        batch = [sentences] if one else list(sentences)
        beam = self.config.decode.beam_size if beam is None else beam
        check_int("beam", beam, 1, where="translate")
        out = translate_corpus(self.model, self.src_vocab, self.tgt_vocab, batch, beam_size=beam,
                               batch_size=batch_size, **search_options(self.config, beam))
        return out[0] if one else out

    def score(self, sources: Sequence[str], references: Sequence[str], beam: int | None = 5, *,
              batch_size: int = 64) -> dict:
        """Translate ``sources`` and score them against ``references`` (one each):
        ``{"bleu": MetricScore, "chrf": MetricScore}`` (sacrebleu, 13a tokenization for BLEU)."""
        from companion.errors import DataError
        from companion.evaluation.metrics import corpus_bleu, corpus_chrf

        if isinstance(sources, str) or isinstance(references, str):
            raise DataError("score: sources and references must be lists of strings, not one string")
        if len(sources) != len(references):
            raise DataError(f"score: {len(sources)} sources but {len(references)} references")
        hyps = self.translate(list(sources), beam, batch_size=batch_size)
        return {"bleu": corpus_bleu(hyps, list(references)), "chrf": corpus_chrf(hyps, list(references))}


__all__ = ["Translator", "checkpoint_of"]
