"""``companion average --inputs A.pt B.pt ... --out AVG.pt`` or ``--last N RUNDIR --out AVG.pt``

Writes the parameter-wise mean of checkpoints of one run (Vaswani et al. averaged the last 5)
as a checkpoint that ``companion translate`` and ``companion evaluate`` load like any other.
``--last N RUNDIR`` takes the run's N newest ``checkpoint-step*.pt`` files; a run keeps only
``train.keep_last`` of them (default 2). See :mod:`companion.training.averaging`.
"""

from __future__ import annotations

import argparse


def configure_parser(parser: argparse.ArgumentParser) -> None:
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--inputs", nargs="+", metavar="CKPT", help="checkpoint files to average")
    which.add_argument("--last", nargs=2, metavar=("N", "RUNDIR"),
                       help="average the N newest checkpoint-step*.pt files of RUNDIR")
    parser.add_argument("--out", required=True, help="the averaged checkpoint to write")


def run(args: argparse.Namespace) -> int:
    from companion.errors import ConfigError
    from companion.training.averaging import last_checkpoints, save_average
    from companion.validation import check_output_file

    check_output_file("--out", args.out)  # before reading any checkpoint

    if args.last is not None:
        count, run_dir = args.last
        try:
            n = int(count)
        except ValueError:
            raise ConfigError(f"average: --last N RUNDIR needs an integer N, got {count!r}") from None
        paths = last_checkpoints(run_dir, n)
    else:
        paths = list(args.inputs)
    ckpt = save_average(paths, args.out)
    print(f"averaged {len(paths)} checkpoints (last at step {ckpt['step']}) -> {args.out}")
    return 0
