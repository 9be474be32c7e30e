"""kosynth: a seeded grammar that writes Korean sentences and their English translations
together, with the gold word alignment of every pair.

>>> pairs = generate_pairs(2, seed=0)
>>> len(pairs)
2

Command line: ``python -m companion generate-data --size N --seed S --out DIR``.
"""

from __future__ import annotations

import argparse
import time

from companion.data.kosynth.corpus import (CHALLENGES, SPLITS, Pair, datasheet,
                                           format_alignment, generate_pairs, parse_alignment,
                                           read_alignments, split_pairs, split_sizes,
                                           write_corpus)
from companion.data.kosynth.lexicon import lemma_count

__all__ = ["CHALLENGES", "SPLITS", "Pair", "configure_parser", "datasheet",
           "format_alignment", "generate_pairs", "lemma_count", "parse_alignment",
           "read_alignments", "run", "split_pairs", "split_sizes", "write_corpus"]


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Options of ``companion generate-data``."""
    parser.add_argument("--size", type=int, default=100_000,
                        help="number of distinct sentence pairs (default 100000)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--out", required=True, help="output directory (created)")
    parser.add_argument("--force", action="store_true",
                        help="write into a non-empty output directory")
    parser.add_argument("--challenge-size", type=int, default=None,
                        help="pairs per challenge set (default: size/100, 20..1000)")


def run(args: argparse.Namespace) -> int:
    """Write the corpus and print a one-line summary."""
    t0 = time.perf_counter()
    sheet = write_corpus(args.out, args.size, args.seed, force=args.force,
                         challenge_size=args.challenge_size)
    counts = " ".join(f"{k}={v['pairs']}" for k, v in sheet["splits"].items())
    print(f"wrote {args.out}: {counts}, challenge sets {sum(sheet['challenge'].values())} "
          f"pairs, in {time.perf_counter() - t0:.1f}s")
    return 0
