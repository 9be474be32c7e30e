"""Seed spreads of the translation chapters: train book recipes under several seeds and record
every chapter number per seed, with mean and standard deviation, in ``book/results/<name>.json``.

The chapters train each model once (seed 0) and compare their numbers with recorded values
within tolerances; those tolerances, and every "A beats B" claim a chapter asserts, come from
the spreads this script records. It uses exactly the chapters' code path
(:mod:`companion.experiments.regime`: the same corpus, vocabularies, recipes and decoding).

    .venv/bin/python scripts/book_seeds.py seq2seq seq2seq_reversed --ensemble \
        --name seeds-seq2seq                             # ~20 CPU-minutes, five seeds
    .venv/bin/python scripts/book_seeds.py seq2seq --seeds 0 --quick --out /tmp/x.json

Five seeds by default: with fewer, no paired claim can reach the book's level (the smallest
one-sided p of a sign-flip test over n seeds is 1/2^n; see ``companion.experiments.verdicts``).
Every model is decoded with the book's setting (``regime.DECODING``) and greedily. A recipe with
``patience`` (``rnnencdec_converged``) trains until its validation perplexity stops improving;
its record says where and why it stopped, and every model's validation curve is recorded, so
equal-compute and converged comparisons can both be read from one record.

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

from companion.decoding import Ensemble  # noqa: E402
from companion.errors import ConfigError  # noqa: E402
from companion.experiments import regime as R  # noqa: E402
from companion.experiments import scoring as S  # noqa: E402
from companion.experiments.records import make_record, python_command, spread, write_record  # noqa: E402
from companion.evaluation.alignment import evaluate_alignment  # noqa: E402
from companion.evaluation.challenge import challenge_accuracy  # noqa: E402
from companion.training import evaluate_loss  # noqa: E402

def challenges(model, data: R.BookData, max_words: int | None) -> dict:
    """Accuracy and exact-match rate on every challenge set (sentences up to ``max_words``)."""
    out = {}
    for name in data.challenges:
        pairs = data.challenge(name, max_words)
        if pairs:
            ev = S.evaluate(model, data, pairs)
            out[name] = challenge_accuracy(name, ev.hyps, ev.refs)
    return out


def alignment(model, data: R.BookData, pairs) -> dict | None:
    """AER of the model's attention (teacher-forced, argmax links) and of the two baselines, on
    the first 300 test pairs; None for a model without attention."""
    if not callable(getattr(model, "step_attention", None)):
        return None
    scores = evaluate_alignment(model, pairs[:300], data.src_vocab, data.tgt_vocab)
    return {k: {"aer": v.aer, "precision": v.precision, "recall": v.recall} for k, v in scores.items()}


def measure(trained: R.Trained, data: R.BookData, test_words: int | None) -> dict:
    """The numbers a chapter reports for one trained model. Every score is on the scored test
    pairs except the length classes (``bleu_by_length``, ``test_bleu_20_words_or_more``), whose
    long sentences come from the whole test split (:func:`~companion.experiments.scoring.with_long_sentences`)."""
    test = data.held_out("test", test_words)
    valid = data.loader(data.held_out("valid", trained.recipe.max_words), shuffle=False)
    beam = S.evaluate(trained.model, data, test)
    greedy = S.evaluate(trained.model, data, test, beam_size=1)
    short = beam.subset(lambda p: R.words(p.en) <= 10)
    lengths = S.with_long_sentences(trained.model, data, beam, test_words)
    n_long = sum(R.words(p.en) >= 20 for p in lengths.pairs)
    long = lengths.subset(lambda p: R.words(p.en) >= 20) if n_long else None
    aer = alignment(trained.model, data, test)
    return {
        "valid_ppl": evaluate_loss(trained.model, valid)[1],
        "test_bleu": beam.bleu.score,
        "test_chrf": beam.chrf.score,
        "test_exact": beam.exact,
        "test_bleu_greedy": greedy.bleu.score,
        "test_bleu_10_words_or_less": short.bleu.score,
        "test_exact_10_words_or_less": short.exact,
        "test_bleu_20_words_or_more": long.bleu.score if long else None,
        "test_n_20_words_or_more": n_long,
        "aer": aer["attention"]["aer"] if aer else None,
        "alignment": aer,
        "challenges": challenges(trained.model, data, test_words),
        "bleu_by_length": [[lo, hi, n, b] for (lo, hi), n, b in lengths.by_length],
        "train_cpu_s": trained.cpu_seconds,
        "parameters": trained.parameters,
        "steps": trained.history.steps[-1] if trained.history.steps else 0,
        "valid_curve": [[v["step"], v["valid_ppl"]] for v in trained.history.valid],
        **({"stopped": trained.stopped} if trained.stopped else {}),
    }


def run(recipes: list[str], seeds: list[int], *, ensemble: bool, quick: bool) -> dict:
    data = R.book_data(R.QUICK_REGIME if quick else R.REGIME)
    specs = {name: R.quick_recipe(R.recipe(name), 4) if quick else R.recipe(name) for name in recipes}
    per_seed: dict[str, dict] = {}
    for seed in seeds:
        row, models = {}, []
        for name, spec in specs.items():
            start = time.perf_counter()
            trained = R.train(spec, data, seed=seed)
            row[name] = measure(trained, data, spec.max_words)
            models.append(trained.model)
            print(f"seed {seed} {name}: test BLEU {row[name]['test_bleu']:.2f}, valid ppl "
                  f"{row[name]['valid_ppl']:.3f}, {trained.cpu_seconds:.0f} s CPU "
                  f"({time.perf_counter() - start:.0f} s wall)", file=sys.stderr, flush=True)
        if ensemble and len(models) > 1:
            words = min((s.max_words or data.regime.max_words) for s in specs.values())
            ev = S.evaluate(Ensemble(models), data, data.held_out("test", words))
            row["ensemble"] = {"test_bleu": ev.bleu.score, "test_exact": ev.exact,
                               "members": list(specs)}
        per_seed[str(seed)] = row
    summary = {}
    for name in per_seed[str(seeds[0])]:
        metrics = per_seed[str(seeds[0])][name]
        summary[name] = {k: spread([per_seed[str(s)][name][k] for s in seeds])
                         for k, v in metrics.items() if isinstance(v, (int, float))}
        for k, v in metrics.get("challenges", {}).items():
            summary[name][f"challenge_{k}"] = spread([per_seed[str(s)][name]["challenges"][k]["accuracy"]
                                                      for s in seeds])
    a = recipes[0]
    for b in recipes[1:]:  # differences against the first recipe, seed by seed
        summary[f"{b} - {a}"] = {k: spread([per_seed[str(s)][b][k] - per_seed[str(s)][a][k] for s in seeds])
                                 for k in ("test_bleu", "valid_ppl", "test_bleu_10_words_or_less")}
    config = {"regime": dataclasses.asdict(data.regime),
              "recipes": {n: dataclasses.asdict(s) for n, s in specs.items()},
              "seeds": seeds, "ensemble": ensemble, "quick": quick, "threads": torch.get_num_threads(),
              "decoding": dataclasses.asdict(R.DECODING), "command": python_command()}
    return {"config": config, "results": {"per_seed": per_seed, "summary": summary}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("recipes", nargs="+", help=f"recipe names ({', '.join(sorted(R.RECIPES))})")
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    ap.add_argument("--name", default=None, help="record name (book/results/NAME.json)")
    ap.add_argument("--out", default=None, help="write the record here instead")
    ap.add_argument("--ensemble", action="store_true", help="also score the ensemble of the recipes")
    ap.add_argument("--quick", action="store_true", help="tiny corpus, 4 steps: plumbing only")
    args = ap.parse_args(argv)
    torch.set_num_threads(1)
    try:
        for name in args.recipes:
            R.recipe(name)  # unknown names fail before any training
    except ConfigError as exc:
        ap.error(str(exc))
    name = args.name or "seeds-" + "-".join(args.recipes)
    out = run(args.recipes, args.seeds, ensemble=args.ensemble, quick=args.quick)
    record = make_record(name, "seed-spread", out["config"], out["results"])
    path = write_record(record, args.out)
    for model, metrics in out["results"]["summary"].items():
        cells = ", ".join(f"{k} {v['mean']:.3f} ± {v['sd']:.3f}" for k, v in metrics.items()
                          if k in ("test_bleu", "valid_ppl", "test_exact", "test_bleu_10_words_or_less"))
        print(f"{model}: {cells}")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
