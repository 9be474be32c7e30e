"""The same learning-rate search for every family the translation chapters compare: each family's
recipe trained once (seed 0) at its rate times every factor of a grid, everything else unchanged,
scored on the validation sentences (perplexity, and BLEU with the book's decoding), and recorded
in ``book/results/lr-search.json`` with the rates tried per family.

For the Transformer the "rate" is the factor in front of the inverse-square-root schedule
(``train.lr`` of the ``vaswani`` preset), so the grid scales its whole schedule, peak included.
The families' recipes were tuned by different amounts before this search existed; the record
shows, for each, whether its recipe's rate is the best of the same grid (a rate at the edge of
the grid says the grid should be wider).

    .venv/bin/python scripts/lr_search.py                      # ~35 CPU-minutes on one thread
    .venv/bin/python scripts/lr_search.py --quick --out /tmp/lr.json

``--quick`` swaps in a tiny corpus and a few steps: it checks the plumbing, and its numbers mean
nothing.
"""

from __future__ import annotations

import argparse
import dataclasses
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
FACTORS = (0.25, 0.5, 1.0, 2.0, 4.0)


def best(rows: list[dict], key: str) -> dict:
    """The row with the lowest validation perplexity (``key="valid_ppl"``) or the highest BLEU
    (``key="valid_bleu"``); a run that did not finish never wins."""
    done = [r for r in rows if r.get(key) is not None]
    if not done:
        raise ConfigError("lr_search: no run of this family finished")
    return min(done, key=lambda r: r[key]) if key == "valid_ppl" else max(done, key=lambda r: r[key])


def search(name: str, spec: R.Recipe, data: R.BookData, factors: list[float], seed: int) -> dict:
    """Train ``spec`` at ``lr * factor`` for every factor; one row per rate."""
    rows = []
    for factor in factors:
        lr = spec.train["lr"] * factor
        start = time.perf_counter()
        trained = R.train(spec.with_train(lr=lr), data, seed=seed)
        valid_pairs = data.held_out("valid", spec.max_words)
        ev = S.evaluate(trained.model, data, valid_pairs)
        row = {"factor": factor, "lr": lr, "valid_ppl": trained.history.valid[-1]["valid_ppl"],
               "valid_bleu": ev.bleu.score, "train_cpu_s": trained.cpu_seconds,
               "valid_curve": [[v["step"], v["valid_ppl"]] for v in trained.history.valid]}
        rows.append(row)
        print(f"{name} lr {lr:.4g} (x{factor:g}): valid ppl {row['valid_ppl']:.3f}, valid BLEU "
              f"{row['valid_bleu']:.2f} ({time.perf_counter() - start:.0f} s wall)", file=sys.stderr, flush=True)
    by_ppl, by_bleu = best(rows, "valid_ppl"), best(rows, "valid_bleu")
    return {"recipe_lr": spec.train["lr"], "preset": spec.train["preset"], "rows": rows,
            "rates_tried": [r["lr"] for r in rows], "best_lr_by_valid_ppl": by_ppl["lr"],
            "best_lr_by_valid_bleu": by_bleu["lr"],
            "recipe_rate_is_best": by_ppl["factor"] == 1.0,
            "best_at_grid_edge": by_ppl["factor"] in (min(factors), max(factors))}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--families", nargs="+", default=list(FAMILIES), help="recipe names")
    ap.add_argument("--factors", type=float, nargs="+", default=list(FACTORS),
                    help="multiples of each recipe's rate to try")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--name", default="lr-search", help="record name (book/results/NAME.json)")
    ap.add_argument("--out", default=None, help="write the record here instead")
    ap.add_argument("--quick", action="store_true", help="tiny corpus, 4 steps: plumbing only")
    args = ap.parse_args(argv)
    torch.set_num_threads(1)
    try:
        specs = {name: R.recipe(name) for name in args.families}  # unknown names fail before training
    except ConfigError as exc:
        ap.error(str(exc))
    if any(f <= 0 for f in args.factors):
        ap.error("--factors must be positive")
    if 1.0 not in args.factors:
        ap.error("--factors must include 1 (the recipe's own rate)")
    data = R.book_data(R.QUICK_REGIME if args.quick else R.REGIME)
    if args.quick:
        specs = {name: R.quick_recipe(spec, 4) for name, spec in specs.items()}
    families = {name: search(name, spec, data, args.factors, args.seed) for name, spec in specs.items()}
    config = {"regime": dataclasses.asdict(data.regime), "recipes": {n: dataclasses.asdict(s) for n, s in specs.items()},
              "factors": args.factors, "seed": args.seed, "split": "valid", "quick": args.quick,
              "threads": torch.get_num_threads(), "decoding": dataclasses.asdict(R.DECODING),
              "command": python_command()}
    path = write_record(make_record(args.name, "lr-search", config, {"families": families}), args.out)
    for name, found in families.items():
        print(f"{name}: recipe lr {found['recipe_lr']:g}, best by valid ppl {found['best_lr_by_valid_ppl']:g}, "
              f"by valid BLEU {found['best_lr_by_valid_bleu']:g}")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
