"""Options shared by the commands that decode with a checkpoint (``translate``, ``evaluate``),
checked before the model is loaded or anything is decoded."""

from __future__ import annotations

import argparse

import torch

from companion.validation import check_device, check_int


def add_decode_options(parser: argparse.ArgumentParser, ensemble: bool = False) -> None:
    """``--checkpoint`` (several with ``ensemble``), ``--beam``, ``--batch-size`` and ``--device``."""
    if ensemble:
        parser.add_argument("--checkpoint", required=True, nargs="+", metavar="CKPT",
                            help="a checkpoint-*.pt file; several decode as one ensemble (same vocabularies)")
    else:
        parser.add_argument("--checkpoint", required=True, help="a checkpoint-*.pt file")
    parser.add_argument("--beam", type=int, default=None, help="beam size (default: decode.beam_size)")
    parser.add_argument("--batch-size", type=int, default=64, help="sentences decoded together")
    parser.add_argument("--device", default="cpu", help="cpu, cuda or cuda:N")


def check_decode_options(args: argparse.Namespace) -> torch.device:
    """Refuse a bad ``--beam``/``--batch-size``/``--device`` (one line each); return the device.
    (``--checkpoint`` is checked by :func:`companion.training.checkpoint.load_checkpoint`.)"""
    if args.beam is not None:
        check_int("--beam", args.beam, 1)
    check_int("--batch-size", args.batch_size, 1)
    return check_device("--device", args.device)


def load_translator(paths: str | list[str], device: torch.device):
    """``(model, src_vocab, tgt_vocab, config, checkpoint)`` of one checkpoint, or of several as
    an :class:`~companion.decoding.ensemble.Ensemble` (config and checkpoint: the first one's).
    Refused in one line: a checkpoint of a language model, and ensemble members whose source or
    target vocabularies differ (compared by identity, not size)."""
    from companion.decoding.corpus import check_translator
    from companion.decoding.ensemble import Ensemble, check_same_vocabulary
    from companion.training.rundir import load_run

    paths = [paths] if isinstance(paths, str) else list(paths)
    runs = [load_run(path, device) for path in paths]
    for path, (model, _, _, cfg, _) in zip(paths, runs):
        check_translator(model, f"{path} (model.name {cfg.model.name})")
    if len(runs) == 1:
        return runs[0]
    check_same_vocabulary([r[1] for r in runs], "source", len(runs), names=paths)
    check_same_vocabulary([r[2] for r in runs], "target", len(runs), names=paths)
    ensemble = Ensemble([r[0] for r in runs], tgt_vocabs=[r[2] for r in runs])
    return ensemble, runs[0][1], runs[0][2], runs[0][3], runs[0][4]


__all__ = ["add_decode_options", "check_decode_options", "load_translator"]
