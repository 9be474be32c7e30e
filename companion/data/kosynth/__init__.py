"""kosynth: a seeded grammar that writes Korean sentences and their English translations
together, with the gold word alignment of every pair.

>>> pairs = generate_pairs(2, seed=0)
>>> len(pairs)
2
>>> len(generate_pairs(2, seed=0, level="small"))
2

Difficulty levels (``tiny``, ``small``, ``medium``, ``full``; see :mod:`.level`) cut the
lexicon, the name pool, the clauses per sentence and the sentence length.

Command line: ``python -m companion generate-data --size N --seed S --out DIR [--level L]``.
"""

from __future__ import annotations

import argparse
import time

from companion.data.kosynth.corpus import (CHALLENGES, SPLITS, Pair, datasheet,
                                           format_alignment, generate_pairs, parse_alignment,
                                           read_alignments, split_pairs, split_sizes,
                                           write_corpus)
from companion.data.kosynth.level import LEVELS, Level, level_from_name, parse_knobs
from companion.data.kosynth.lexicon import lemma_count

__all__ = ["CHALLENGES", "LEVELS", "SPLITS", "Level", "Pair", "configure_parser", "datasheet",
           "format_alignment", "generate_pairs", "lemma_count", "level_from_name",
           "parse_alignment", "read_alignments", "run", "split_pairs", "split_sizes",
           "write_corpus"]


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
    # level and knobs are read as text and checked in run(): a bad value is one error line
    parser.add_argument("--level", default="full",
                        help=f"difficulty level: {', '.join(LEVELS)} (default full)")
    parser.add_argument("--lemmas-per-class", default=None, metavar="N|all",
                        help="override: first N lemmas of every lexical list")
    parser.add_argument("--names", default=None, metavar="SxG|all",
                        help="override: surnames x given names in the name pool (e.g. 4x4)")
    parser.add_argument("--max-clauses", default=None, metavar="N",
                        help="override: clauses per sentence, 1..4 (relatives not counted)")
    parser.add_argument("--max-words", default=None, metavar="N",
                        help="override: longest English sentence in words, 10..80")


def level_from_args(args: argparse.Namespace) -> Level:
    """The named level with the command line's knob overrides applied."""
    knobs = parse_knobs(lemmas_per_class=args.lemmas_per_class, names=args.names,
                        max_clauses=args.max_clauses, max_words=args.max_words)
    return level_from_name(args.level).with_knobs(**knobs)


def run(args: argparse.Namespace) -> int:
    """Write the corpus and print a one-line summary."""
    t0 = time.perf_counter()
    level = level_from_args(args)
    sheet = write_corpus(args.out, args.size, args.seed, force=args.force,
                         challenge_size=args.challenge_size, level=level)
    counts = " ".join(f"{k}={v['pairs']}" for k, v in sheet["splits"].items())
    print(f"wrote {args.out} (level {level.name}): {counts}, challenge sets "
          f"{sum(sheet['challenge'].values())} pairs, in {time.perf_counter() - t0:.1f}s")
    return 0
