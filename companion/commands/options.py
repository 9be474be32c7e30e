"""Options shared by the commands that decode with a checkpoint (``translate``, ``evaluate``),
checked before the model is loaded or anything is decoded."""

from __future__ import annotations

import argparse

import torch

from companion.validation import check_device, check_int


def add_decode_options(parser: argparse.ArgumentParser) -> None:
    """``--checkpoint``, ``--beam``, ``--batch-size`` and ``--device``."""
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


__all__ = ["add_decode_options", "check_decode_options"]
