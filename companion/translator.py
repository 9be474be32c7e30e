"""A trained run as a Python object: load it, translate sentences, score a test set.

::

    import companion

    t = companion.load("runs/transformer")          # a run directory or a checkpoint file
    t.translate(["고양이가 물을 마신다"])              # ['the cat drinks water']
    t.translate("고양이가 물을 마신다", beam=1)        # one string in, one string out (greedy)
    t.translate(sources, beam=8, lenpen=0.6, max_len_a=1.2, max_len_b=5, max_source_len=200,
                on_long="skip")                      # decode-time overrides, as on the command line
    s = t.score(sources, references)                # {'bleu': MetricScore, 'chrf': MetricScore}
    print(s["bleu"])                                 # BLEU = 61.40  (nrefs:1|case:mixed|...)

A run directory stands for its ``checkpoint-best.pt`` (else ``checkpoint-last.pt``). The model,
its vocabularies and its decoding settings (``decode.beam_size``, ``nbest``, ``length_penalty``,
``max_len_a``, ``max_len_b``) come from the checkpoint, as with ``companion translate``: the
same run translates alike from Python and from the command line, and the keyword arguments
override them under ``translate``'s option names (:mod:`companion.decoding.settings`). The
device defaults as for ``train``: CUDA if available, else the CPU. What the limits skipped or
cut, and translations left empty for a non-empty source, are reported by one
:class:`DecodeWarning` per kind and call. BLEU and chrF are sacrebleu's
(:mod:`companion.evaluation.metrics`), on detokenized text, with their signatures.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from companion.config import Config
from companion.decoding.corpus import check_sentences, translate_sentences
from companion.decoding.settings import DecodeTally, resolve_settings
from companion.errors import CheckpointError, ConfigError, DataError
from companion.evaluation.metrics import corpus_bleu, corpus_chrf
from companion.training.distributed import default_device
from companion.training.rundir import load_run
from companion.validation import check_device, check_int


class DecodeWarning(UserWarning):
    """What decoding had to skip, truncate or cut, or an empty translation of a non-empty
    source (one warning per kind and call, with the count)."""


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
    def load(cls, path: str | Path, device: str | torch.device | None = None) -> "Translator":
        """Load a run directory or a checkpoint file (see :func:`checkpoint_of`) onto ``device``
        (default: CUDA if available, else the CPU, as ``companion train`` and ``translate``)."""
        device = default_device() if device is None else check_device("device", device, where="companion.load")
        ckpt_path = checkpoint_of(path)
        model, src_vocab, tgt_vocab, cfg, ckpt = load_run(ckpt_path, device)
        if not callable(getattr(model, "encode", None)):
            raise ConfigError(f"{ckpt_path}: a {cfg.model.name} checkpoint is a language model; it does not translate")
        return cls(model, src_vocab, tgt_vocab, cfg, ckpt_path, int(ckpt["step"]))

    def translate(self, sentences: str | Sequence[str], beam: int | None = None, *, nbest: int | None = None,
                  lenpen: float | None = None, max_len_a: float | None = None, max_len_b: int | None = None,
                  max_source_len: int | None = None, on_long: str = "error",
                  batch_size: int = 64) -> str | list[str] | list[list[str]]:
        """Detokenized translations of ``sentences`` (a list in, a list out; one string in, one
        string out).

        Every setting left None is the checkpoint's (``decode.beam_size``, ``decode.nbest``,
        ``decode.length_penalty``, ``decode.max_len_a``, ``decode.max_len_b``); ``beam=1`` is
        greedy search. With ``nbest`` above 1 each sentence gives a list of its ``nbest`` best
        translations. A source longer than ``max_source_len`` tokens (EOS included; default: the
        model's limit, see :mod:`companion.decoding.settings`) raises a
        :class:`~companion.errors.DataError` (``on_long="error"``), translates to ``""``
        (``"skip"``) or is cut to the limit (``"truncate"``). Skipped and truncated sources,
        translations cut at the output limit and empty translations of non-empty sources are
        counted, one :class:`DecodeWarning` per kind.
        """
        one = isinstance(sentences, str)
        batch = [sentences] if one else check_sentences(sentences, "translate")
        check_int("batch_size", batch_size, 1, where="translate")
        settings = resolve_settings(self.config.decode, self.model, len(self.tgt_vocab), beam=beam, nbest=nbest,
                                    lenpen=lenpen, max_len_a=max_len_a, max_len_b=max_len_b,
                                    max_source_len=max_source_len, on_long=on_long, where="translate")
        tally = DecodeTally()
        results = translate_sentences(
            self.model, self.src_vocab, self.tgt_vocab, batch, settings, batch_size=batch_size, tally=tally,
            label=lambda i: "translate: the sentence" if one else f"translate: sentences[{i}]")
        for note in tally.notes(settings):
            warnings.warn(f"translate: {note}", DecodeWarning, stacklevel=2)
        if settings.nbest == 1:
            out = [r[0][0] if r else "" for r in results]
        else:
            out = [[text for text, _ in r] for r in results]
        return out[0] if one else out

    def score(self, sources: Sequence[str], references: Sequence[str], beam: int | None = None, *,
              batch_size: int = 64, **settings: Any) -> dict:
        """Translate ``sources`` and score them against ``references`` (one each):
        ``{"bleu": MetricScore, "chrf": MetricScore}`` (sacrebleu, 13a tokenization for BLEU).
        ``settings``: :meth:`translate`'s keyword arguments but ``nbest`` (one translation each)."""
        if isinstance(sources, str) or isinstance(references, str):
            raise DataError("score: sources and references must be lists of strings, not one string")
        if len(sources) != len(references):
            raise DataError(f"score: {len(sources)} sources but {len(references)} references")
        hyps = self.translate(list(sources), beam, batch_size=batch_size, **{**settings, "nbest": 1})
        return {"bleu": corpus_bleu(hyps, list(references)), "chrf": corpus_chrf(hyps, list(references))}


__all__ = ["DecodeWarning", "Translator", "checkpoint_of"]
