"""Options shared by the commands that decode with a checkpoint (``translate``, ``evaluate``),
checked before the model is loaded or anything is decoded: the checkpoints, the batch size, the
device, and the decode-time settings (fairseq's names) that override the checkpoint's ``decode``
section (:func:`companion.decoding.settings.resolve_settings`)."""

from __future__ import annotations

import argparse

import torch

from companion.decoding.corpus import check_translator
from companion.decoding.ensemble import Ensemble, check_same_vocabulary
from companion.decoding.settings import (CLI_NAMES, DEFAULT_MAX_SOURCE_LEN, ON_LONG, DecodeSettings,
                                         resolve_settings)
from companion.training.distributed import default_device
from companion.training.rundir import load_run
from companion.validation import check_device, check_float, check_int


def add_decode_options(parser: argparse.ArgumentParser, nbest: bool = False) -> None:
    """``--checkpoint`` (one, or several decoded as an ensemble), ``--beam`` (and ``--nbest``
    with ``nbest``), ``--lenpen``, ``--max-len-a``, ``--max-len-b``, ``--max-source-len``,
    ``--on-long``, ``--batch-size`` and ``--device``."""
    parser.add_argument("--checkpoint", required=True, nargs="+", metavar="CKPT",
                        help="a checkpoint-*.pt file; several decode as one ensemble (same vocabularies)")
    group = parser.add_argument_group("decode-time options (default: the checkpoint's decode section)")
    group.add_argument("--beam", type=int, default=None,
                       help="beam size; 1 is greedy search (default: decode.beam_size)")
    if nbest:
        group.add_argument("--nbest", type=int, default=None,
                           help="translations per sentence, in the Moses n-best format when above 1 "
                                "(<= beam; default: decode.nbest)")
    group.add_argument("--lenpen", type=float, default=None,
                       help="length penalty alpha, ((5+|Y|)/6)^alpha (default: decode.length_penalty)")
    group.add_argument("--max-len-a", type=float, default=None,
                       help="output limit a*|src|+b tokens: a (default: decode.max_len_a)")
    group.add_argument("--max-len-b", type=int, default=None,
                       help="output limit a*|src|+b tokens: b (default: decode.max_len_b)")
    group.add_argument("--max-source-len", type=int, default=None, metavar="N",
                       help=f"longest source in tokens, EOS included (default: the model's max_source_positions, "
                            f"else {DEFAULT_MAX_SOURCE_LEN})")
    group.add_argument("--on-long", choices=ON_LONG, default="error",
                       help="a longer source: error (stop, default), skip (an empty output) or truncate")
    parser.add_argument("--batch-size", type=int, default=64, help="sentences decoded together")
    parser.add_argument("--device", default=None, help="cpu, cuda or cuda:N (default: cuda if available, like train)")


def check_decode_options(args: argparse.Namespace) -> torch.device:
    """Refuse a bad number or device among the options (one line each); return the device.
    (``--checkpoint`` is checked by :func:`companion.training.checkpoint.load_checkpoint`, the
    decode-time settings again against the checkpoint by :func:`decode_settings`.)"""
    for name in ("beam", "nbest", "max_source_len"):
        value = getattr(args, name, None)
        if value is not None:
            check_int(CLI_NAMES[name], value, 1)
    for name in ("lenpen", "max_len_a"):
        if getattr(args, name) is not None:
            check_float(CLI_NAMES[name], getattr(args, name), 0.0)
    check_int("--batch-size", args.batch_size, 1)
    return default_device() if args.device is None else check_device("--device", args.device)


def decode_settings(args: argparse.Namespace, cfg, model, tgt_vocab, nbest: int | None = None) -> DecodeSettings:
    """The checkpoint's ``decode`` section overridden by the command line (``nbest``: the
    command's own choice when it has no ``--nbest``)."""
    return resolve_settings(cfg.decode, model, len(tgt_vocab), beam=args.beam,
                            nbest=getattr(args, "nbest", nbest), lenpen=args.lenpen, max_len_a=args.max_len_a,
                            max_len_b=args.max_len_b, max_source_len=args.max_source_len, on_long=args.on_long,
                            names=CLI_NAMES)


def load_translator(paths: str | list[str], device: torch.device):
    """``(model, src_vocab, tgt_vocab, config, checkpoint)`` of one checkpoint, or of several as
    an :class:`~companion.decoding.ensemble.Ensemble` (config and checkpoint: the first one's).
    Refused in one line: a checkpoint of a language model, and ensemble members whose source or
    target vocabularies differ (compared by identity, not size)."""
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


__all__ = ["add_decode_options", "check_decode_options", "decode_settings", "load_translator"]
