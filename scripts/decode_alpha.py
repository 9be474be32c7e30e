"""The book's length penalty, chosen on the validation split: train one model of every family the
translation chapters compare (recipes ``seq2seq_reversed``, ``rnnencdec``, ``rnnsearch``,
``transformer``) once, decode the regime's validation sentences with beam 5 under several
length penalties alpha (and greedily, for reference), and record validation BLEU per family and
alpha in ``book/results/decoding-alpha.json``.

The rule: the alpha with the highest BLEU averaged over the families (ties go to the smaller
alpha); :data:`companion.experiments.regime.DECODING` holds it, and a test checks that it is the
one this record chose. No test sentence is decoded here.

    .venv/bin/python scripts/decode_alpha.py                     # ~10 CPU-minutes on one thread
    .venv/bin/python scripts/decode_alpha.py --quick --out /tmp/alpha.json

``--quick`` swaps in a tiny corpus and a few steps: it checks the plumbing, and its numbers mean
nothing.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.errors import ConfigError  # noqa: E402
from companion.experiments import regime as R  # noqa: E402
from companion.experiments import scoring as S  # noqa: E402
from companion.experiments.records import make_record, python_command, write_record  # noqa: E402

FAMILIES = ("seq2seq_reversed", "rnnencdec", "rnnsearch", "transformer")
ALPHAS = (0.0, 0.6, 1.0)


def choose(bleu: dict[str, dict[str, float]], alphas: list[float]) -> tuple[float, dict[str, float]]:
    """The alpha with the highest validation BLEU averaged over the families (the smaller one on a
    tie), and that mean for every alpha. ``bleu`` maps family -> alpha (as text) -> BLEU."""
    means = {f"{a:g}": statistics.fmean(rows[f"{a:g}"] for rows in bleu.values()) for a in alphas}
    best = max(sorted(alphas), key=lambda a: (round(means[f"{a:g}"], 6), -a))
    return best, means


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--families", nargs="+", default=list(FAMILIES), help="recipe names")
    ap.add_argument("--alphas", type=float, nargs="+", default=list(ALPHAS))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--name", default="decoding-alpha", help="record name (book/results/NAME.json)")
    ap.add_argument("--out", default=None, help="write the record here instead")
    ap.add_argument("--quick", action="store_true", help="tiny corpus, 4 steps: plumbing only")
    args = ap.parse_args(argv)
    torch.set_num_threads(1)
    try:
        for name in args.families:
            R.recipe(name)  # unknown names fail before any training
    except ConfigError as exc:
        ap.error(str(exc))
    if any(a < 0 for a in args.alphas):
        ap.error("--alphas must be >= 0")
    data = R.book_data(R.QUICK_REGIME if args.quick else R.REGIME)
    settings = [(1, 0.0)] + [(R.DECODING.beam_size, a) for a in args.alphas]
    per_family, bleu = {}, {}
    for name in args.families:
        spec = R.quick_recipe(R.recipe(name), 4) if args.quick else R.recipe(name)
        start = time.perf_counter()
        trained = R.train(spec, data, seed=args.seed)
        rows = S.compare_search(trained.model, data, data.held_out("valid", spec.max_words), settings)
        per_family[name] = {"rows": rows, "train_cpu_s": trained.cpu_seconds,
                            "valid_sentences": len(data.held_out("valid", spec.max_words))}
        bleu[name] = {f"{a:g}": row["BLEU"] for (_, a), row in zip(settings[1:], rows[1:])}
        print(f"{name}: " + ", ".join(f"{r['setting']} {r['BLEU']:.2f}" for r in rows)
              + f" ({time.perf_counter() - start:.0f} s wall)", file=sys.stderr, flush=True)
    alpha, means = choose(bleu, args.alphas)
    config = {"regime": dataclasses.asdict(data.regime), "families": args.families, "alphas": args.alphas,
              "beam_size": R.DECODING.beam_size, "seed": args.seed, "split": "valid", "quick": args.quick,
              "threads": torch.get_num_threads(), "rule": "highest mean validation BLEU over the families; "
              "ties to the smaller alpha", "command": python_command()}
    results = {"per_family": per_family, "valid_bleu": bleu, "mean_valid_bleu": means, "chosen_alpha": alpha}
    path = write_record(make_record(args.name, "decoding-choice", config, results), args.out)
    print("mean validation BLEU by alpha: " + ", ".join(f"{a} {m:.2f}" for a, m in means.items()))
    print(f"chosen alpha {alpha:g}; wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
