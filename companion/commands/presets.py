"""``companion presets``: the shipped training presets, one line each (name, then what it trains).

A name is what ``companion train --config NAME`` takes; ``companion presets --path NAME`` prints
the preset's file, to copy and edit (a file path works as ``--config`` too).
"""

from __future__ import annotations

import argparse


def configure_parser(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--path", metavar="NAME", default=None, help="print the file of preset NAME")


def run(args: argparse.Namespace) -> int:
    from companion import presets

    if args.path is not None:
        print(presets.path(args.path))
        return 0
    names = presets.names()
    width = max(len(n) for n in names)
    for name in names:
        print(f"{name:<{width}}  {presets.summary(name)}")
    return 0
