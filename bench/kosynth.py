"""Speed of the Korean-English corpus generator.

Times ``write_corpus`` (generation, dedup, splits, challenge sets, files) and, in the same run,
two references on the same machine (wall time; CPU time of the generator is printed too,
since a busy machine stretches wall time): drawing the same number of ``random.random()`` values as
the generator makes choices for (about 100 per pair), and merely writing the same number of
pre-made lines to the same kinds of files. It prints pairs/s and the ratios, so the figure is
comparable across machines, then the same as ``key=value`` lines (``kosynth_pairs_per_s``,
``kosynth_pairs_per_cpu_s``, ``kosynth_plain_write_pairs_per_s``, ...). Goal: 100,000 pairs in
<= 30 s on one core (any level).

``--table N`` prints instead, for every level, what N pairs (seed 0) look like: distinct
English words (lower-cased, punctuation stripped), distinct Korean eojeols, distinct lemmas
used, English length (mean/median/max), the share of test pairs with >= 20 English words.

    python bench/kosynth.py [--size 100000] [--seed 0] [--level full]
    python bench/kosynth.py --table 20000
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from companion.data.kosynth import LEVELS, generate_pairs, split_pairs, write_corpus


def reference_random(n_calls: int) -> float:
    rng = random.Random(0)
    t = time.perf_counter()
    x = 0.0
    for _ in range(n_calls):
        x += rng.random()
    return time.perf_counter() - t


def reference_write(lines: list[str], size: int, folder: Path) -> float:
    t = time.perf_counter()
    for name in ("train", "valid", "test"):
        for ext in ("ko", "en", "align"):
            with open(folder / f"{name}.{ext}", "w", encoding="utf-8", newline="\n") as f:
                for i in range(size // 3):
                    f.write(lines[i % len(lines)])
                    f.write("\n")
    return time.perf_counter() - t


def level_row(name: str, n: int, seed: int) -> str:
    """One row of the level table: vocabulary, lemmas and length of ``n`` pairs."""
    t0 = time.perf_counter()
    pairs = generate_pairs(n, seed, name)
    seconds = time.perf_counter() - t0
    en = {w.strip(".,?").lower() for p in pairs for w in p.en.split()}
    ko = {w.strip(".?") for p in pairs for w in p.ko.split()}
    lemmas = set().union(*(p.lemmas for p in pairs))
    lengths = [len(p.en.split()) for p in pairs]
    test = split_pairs(pairs, seed)["test"]
    long_share = sum(len(p.en.split()) >= 20 for p in test) / len(test)
    return (f"| {name:6} | {len(en):6} | {len(ko):6} | {len(lemmas):5} | "
            f"{statistics.mean(lengths):4.1f} / {statistics.median(lengths):4.1f} / "
            f"{max(lengths):2} | {long_share:6.1%} | {seconds:5.1f} s |")


def table(n: int, seed: int) -> None:
    """Print the level table for ``n`` pairs per level."""
    print(f"| level  | EN words | KO eojeols | lemmas | EN length mean / median / max "
          f"| test >= 20 words | {n} pairs in |")
    for name in LEVELS:
        print(level_row(name, n, seed))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--level", default="full", choices=list(LEVELS))
    parser.add_argument("--table", type=int, default=0, metavar="N",
                        help="print the level table for N pairs per level instead")
    args = parser.parse_args()
    if args.table:
        table(args.table, args.seed)
        return
    sample = generate_pairs(200, args.seed, args.level)
    lines = [p.en for p in sample] + [p.ko for p in sample]
    with tempfile.TemporaryDirectory() as tmp:
        t0, c0 = time.perf_counter(), time.process_time()
        sheet = write_corpus(Path(tmp) / "corpus", args.size, args.seed, level=args.level)
        t_gen, c_gen = time.perf_counter() - t0, time.process_time() - c0
        t_write = reference_write(lines, args.size, Path(tmp))
    t_rand = reference_random(100 * args.size)
    test = sheet["splits"]["test"]
    print(f"write_corpus: {args.size} pairs in {t_gen:.2f} s wall, {c_gen:.2f} s CPU = "
          f"{args.size / t_gen:,.0f} pairs/s wall, {args.size / c_gen:,.0f} pairs per CPU second "
          f"(goal: 100,000 in <= 30 s on one core, i.e. >= 3,333 pairs/s)")
    print(f"reference: writing {args.size} pre-made lines x 3 files: {t_write:.2f} s "
          f"-> generation costs {t_gen / t_write:.1f}x a plain write")
    print(f"reference: {100 * args.size:,} random.random() calls: {t_rand:.2f} s "
          f"-> generation costs {t_gen / t_rand:.2f}x that")
    print(f"level {sheet['level']['name']}: lexicon lemmas {sheet['lexicon_lemmas']} "
          f"({sheet['lemmas_used']} used), test pairs {test['pairs']}, "
          f">= 20 English words {test['en_words_20_plus'] / test['pairs']:.1%}, "
          f">= 30 {test['en_words_30_plus'] / test['pairs']:.1%}, "
          f"longest {test['en_words_max']} words")
    print(f"kosynth_level={sheet['level']['name']}")
    print(f"kosynth_pairs={args.size}")
    print(f"kosynth_wall_s={t_gen:.2f}")
    print(f"kosynth_cpu_s={c_gen:.2f}")
    print(f"kosynth_pairs_per_s={args.size / t_gen:.0f}")
    print(f"kosynth_pairs_per_cpu_s={args.size / c_gen:.0f}")
    print(f"kosynth_plain_write_pairs_per_s={args.size / t_write:.0f}")
    print(f"kosynth_over_plain_write_time={t_gen / t_write:.1f}")
    print(f"kosynth_over_random_calls_time={t_gen / t_rand:.2f}")


if __name__ == "__main__":
    main()
