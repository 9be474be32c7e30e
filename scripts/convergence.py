"""Why the Transformer learned slowly per update (issue 22): the side-by-side experiments, recorded
in ``book/results/convergence-transformer.json``.

The task is :class:`companion.experiments.convergence.ReversalTask` (reverse a sentence of random
words, renamed); the recipe :class:`~companion.experiments.convergence.Recipe` (Pre-LN 3 + 3
layers, d_model 256, Adam 0.9/0.98, inverse-square-root schedule peaking at 5e-4 after 400
updates, clipping 1.0, label smoothing 0.1, 4096-token batches). Each experiment changes one
thing against a baseline and records its learning curve -- dev perplexity, greedy dev BLEU, the
learning rate applied, the share of clipped updates, and the CPU seconds spent training (one
thread, evaluations excluded) -- at fixed update counts:

- ``full`` experiments run the recipe itself (about 1.7 CPU-seconds an update on the machine
  that recorded them: 750 updates are some 25 CPU-minutes each);
- ``reduced`` experiments isolate the training loop's suspects (loss normalisation, label
  smoothing, Adam's epsilon, clipping, batch composition, the learning-rate reading) on a smaller
  model (2 + 2 layers, d_model 128, FFN 512, 2048-token batches: about 0.2 CPU-seconds an update),
  on which every variant stays within the same plateau-escape race so differences show early.

Every run is appended to (or replaces its entry in) the record, so experiments can be run one
at a time::

    .venv/bin/python scripts/convergence.py --list
    .venv/bin/python scripts/convergence.py full-package-before full-package    # ~1 h on one thread
    .venv/bin/python scripts/convergence.py --size reduced                      # every reduced one
    .venv/bin/python scripts/convergence.py reduced-plain-package --quick --out /tmp/c.json

``--quick`` swaps in a tiny task and a few updates: it checks the plumbing, its numbers mean
nothing.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.experiments import convergence as C  # noqa: E402
from companion.experiments.records import (RESULTS_DIR, make_record, python_command, read_record,  # noqa: E402
                                           write_record)
from companion.training.optim import vaswani_peak_lr  # noqa: E402

NAME = "convergence-transformer"
#: the targets of issue 22
TARGET_PPL, TARGET_BLEU = 10.0, 40.0


@dataclass(frozen=True)
class Size:
    """A model/recipe size and how long and how often to evaluate at it."""

    recipe: C.Recipe
    max_steps: int
    eval_every: int
    dev_limit: int | None
    bleu_below_ppl: float | None


SIZES = {
    "full": Size(C.Recipe(), max_steps=800, eval_every=50, dev_limit=None, bleu_below_ppl=40.0),
    "reduced": Size(C.Recipe(d_model=128, num_layers=2, d_ff=512, max_tokens=2048), max_steps=1000,
                    eval_every=100, dev_limit=500, bleu_below_ppl=None),
}
QUICK_TASK = C.ReversalTask(words=40, min_len=2, max_len=8, train_size=300, dev_size=30, test_size=10)
QUICK_SIZE = Size(C.Recipe(d_model=16, num_heads=2, num_layers=1, d_ff=32, max_tokens=200, warmup_steps=4),
                  max_steps=8, eval_every=4, dev_limit=None, bleu_below_ppl=1e9)


@dataclass(frozen=True)
class Experiment:
    """One run: ``size``, the training ``loop`` (``plain`` PyTorch or the package ``trainer``), the
    ``model`` (``package`` Transformer or the nn.Transformer ``reference``) with constructor
    ``options``, and ``recipe`` changes against the size's recipe. ``misread`` trains with the
    rate a user gets who writes the peak rate as the ``vaswani`` factor."""

    size: str
    label: str
    what: str
    loop: str = "trainer"
    model: str = "package"
    options: dict[str, Any] = field(default_factory=dict)
    recipe: dict[str, Any] = field(default_factory=dict)
    batching: str = "bucketed"
    misread: bool = False
    seed: int = 0


EXPERIMENTS: dict[str, Experiment] = {
    # ------------------------------------------------------------------ full: the recipe
    "full-plain-package": Experiment(
        "full", "Transformer, length buckets", "the package Transformer in the minimal loop on the package's "
        "length-bucketed batches (4096 tokens, nearly all real)", loop="plain"),
    "full-plain-random": Experiment(
        "full", "Transformer, mixed-length batches", "the same, on batches of random composition under the "
        "same padded budget (JoeyNMT's batching: ~100 sentences of every length, ~2,350 real tokens)",
        loop="plain", batching="mixed"),
    "full-plain-joeynmt-lr": Experiment(
        "full", "Transformer, JoeyNMT's rate", "the package's length buckets with the rate applied as JoeyNMT "
        "applies it (first update at the peak, then one update behind, floor 1e-4)",
        loop="plain", recipe={"schedule": "joeynmt", "min_lr": 1e-4}),
    "full-plain-joeynmt-loop": Experiment(
        "full", "Transformer, mixed batches + JoeyNMT's rate", "mixed-length batches and the rate applied as "
        "JoeyNMT applies it (first update at the peak, then one update behind, floor 1e-4): JoeyNMT's "
        "training loop rebuilt around the package model", loop="plain", batching="mixed",
        recipe={"schedule": "joeynmt", "min_lr": 1e-4}),
    "full-trainer-mixed": Experiment(
        "full", "Transformer, Trainer, mixed-length batches", "the package Transformer through the package "
        "Trainer on mixed-length batches (data.batching: mixed): the fix as a user of the package runs it",
        batching="mixed"),
    "full-trainer-mixed-7168": Experiment(
        "full", "Transformer, Trainer, mixed batches of 7,168 cells", "mixed-length batches under a 7,168-cell "
        "budget (~4,100 real target tokens, as many as a length bucket of 4,096 carries): more sentences per "
        "update at 1.75x the cost of an update", batching="mixed", recipe={"max_tokens": 7168}),
    "full-trainer-packed": Experiment(
        "full", "Transformer, Trainer, packed mixed batches", "mixed-length batches packed several pairs to a "
        "row (data.batching: packed): a budget of 4,096 real tokens, as a length bucket carries, at about a "
        "bucket's cost per update", batching="packed"),
    "full-trainer-packed-seed1": Experiment(
        "full", "Transformer, Trainer, packed mixed batches, seed 1", "the same with seed 1 (model "
        "initialisation and batch order): how far the escape from the plateau moves with the seed",
        batching="packed", seed=1),
    # ------------------------------------------------------------------ reduced: the training loop
    "reduced-trainer-package": Experiment(
        "reduced", "Transformer, Trainer", "the package Transformer through the package Trainer (baseline)"),
    "reduced-plain-package": Experiment(
        "reduced", "Transformer, plain loop", "the same model in a minimal PyTorch loop", loop="plain"),
    "reduced-plain-reference": Experiment(
        "reduced", "nn.Transformer, plain loop", "an nn.Transformer-based model of the same sizes and "
        "embedding initialisation in the minimal loop", loop="plain", model="reference"),
    "reduced-misread-factor": Experiment(
        "reduced", "Transformer, lr 5e-4 read as the vaswani factor", "train.lr 5e-4 with preset vaswani, "
        "which is the factor of the paper's formula: the rate peaks at 2.2e-6 (now refused)", loop="plain",
        misread=True),
    "reduced-per-sentence": Experiment(
        "reduced", "Transformer, loss per sentence", "loss summed over tokens and divided by the sentences "
        "(JoeyNMT's default) instead of the tokens: every update clipped", recipe={"normalization": "sentences"}),
    "reduced-no-smoothing": Experiment(
        "reduced", "Transformer, no label smoothing", "label smoothing 0 instead of 0.1",
        recipe={"label_smoothing": 0.0}),
    "reduced-adam-eps-1e-8": Experiment(
        "reduced", "Transformer, Adam eps 1e-8", "Adam's epsilon 1e-8 (PyTorch's default) instead of "
        "the paper's 1e-9", loop="plain", recipe={"eps": 1e-8}),
    "reduced-no-clipping": Experiment(
        "reduced", "Transformer, no clipping", "no gradient-norm clipping", recipe={"clip_norm": 0.0}),
    "reduced-random-batches": Experiment(
        "reduced", "Transformer, random batches", "batches of random composition under the same token "
        "budget instead of length buckets", batching="mixed"),
    "reduced-peak-1e-3": Experiment(
        "reduced", "Transformer, peak rate 1e-3", "twice the peak rate: how far the recipe is "
        "limited by its step size", recipe={"peak_lr": 1e-3}),
}


# ---------------------------------------------------------------------------------------- running
def build_model(exp: Experiment, data: C.ReversalData, recipe: C.Recipe) -> torch.nn.Module:
    if exp.model == "package":
        return C.package_model(data, recipe, seed=exp.seed, **exp.options)
    return C.reference_model(data, recipe, seed=exp.seed, **exp.options)


def run_experiment(name: str, exp: Experiment, data: C.ReversalData, size: Size) -> dict[str, Any]:
    recipe = size.recipe.replace(**exp.recipe)
    trained_with = recipe
    if exp.misread:  # lr = the peak written where the vaswani factor belongs
        recipe = recipe.replace(peak_lr=vaswani_peak_lr(recipe.peak_lr, recipe.warmup_steps, recipe.d_model))
    model = build_model(exp, data, recipe)
    wall = time.perf_counter()
    curve = C.run(name, exp.loop, model, data, recipe, max_steps=size.max_steps, eval_every=size.eval_every,
                  seed=exp.seed, bleu_below_ppl=size.bleu_below_ppl, dev_limit=size.dev_limit,
                  batching=exp.batching)
    wall = time.perf_counter() - wall
    entry = {**dataclasses.asdict(exp), "recipe": dataclasses.asdict(trained_with),
             "peak_lr_applied": recipe.peak_lr, "parameters": sum(p.numel() for p in model.parameters()),
             "curve": curve.to_dict(), "to_ppl_10": curve.to_point("dev_ppl", below=TARGET_PPL),
             "to_bleu_40": curve.to_point("dev_bleu", above=TARGET_BLEU), "wall_s": wall,
             "eval_cpu_s": curve.eval_cpu_s}
    at = {u: (p, b) for u, p, b in zip(curve.updates, curve.dev_ppl, curve.dev_bleu)}
    shown = ", ".join(f"{u}: {p:.1f}" + (f"/{b:.1f}" if b is not None else "") for u, (p, b) in at.items())
    print(f"{name}: dev ppl[/BLEU] by update {shown}; {curve.cpu_s[-1]:.0f} CPU-s training, "
          f"{curve.eval_cpu_s:.0f} evaluating, {wall:.0f} s wall", file=sys.stderr, flush=True)
    return entry


def merge(path: Path, entries: dict[str, dict], task: C.ReversalTask, quick: bool,
          extra_results: dict[str, Any] | None = None) -> Path:
    """Add ``entries`` to the record at ``path`` (replacing runs of the same name) and
    ``extra_results`` to its results (other results already there are kept)."""
    experiments: dict[str, Any] = {}
    results: dict[str, Any] = {}
    if path.exists():
        results = dict(read_record(path)["results"])
        experiments = dict(results.get("experiments", {}))
    experiments.update(entries)
    # the threads the runs trained on (each keeps its provenance); a merge itself trains nothing
    ran_on = sorted({e["provenance"]["torch_threads"] for e in experiments.values() if "provenance" in e})
    threads = ran_on[0] if len(ran_on) == 1 else (ran_on or torch.get_num_threads())
    config = {"task": dataclasses.asdict(task), "quick": quick, "threads": threads,
              "sizes": {k: {**dataclasses.asdict(v), "recipe": dataclasses.asdict(v.recipe)}
                        for k, v in SIZES.items()},
              "targets": {"dev_ppl": TARGET_PPL, "dev_bleu": TARGET_BLEU}, "command": python_command()}
    summary = {n: {"size": e["size"], "label": e["label"], "to_ppl_10": e["to_ppl_10"],
                   "to_bleu_40": e["to_bleu_40"], "final_update": e["curve"]["updates"][-1],
                   "final_dev_ppl": e["curve"]["dev_ppl"][-1]} for n, e in experiments.items()}
    results.update(extra_results or {})
    results.update(experiments=experiments, summary=summary)
    record = make_record(NAME, "convergence", config, results)
    return write_record(record, path)


def merge_records(path: Path, sources: list[Path]) -> Path:
    """Gather the experiments (and other results) of records written elsewhere (runs made in
    parallel, each with its own ``--out``) into the record at ``path``; each experiment keeps the
    provenance of the record it was made in."""
    task = None
    for source in sources:
        record = read_record(source)
        if record.get("config", {}).get("quick"):
            raise SystemExit(f"error: {source} holds --quick runs; they do not go into a record")
        task = C.ReversalTask(**record["config"]["task"])
        results = dict(record["results"])
        entries = {n: {**e, "provenance": e.get("provenance", record["provenance"])}
                   for n, e in results.pop("experiments", {}).items()}
        results.pop("summary", None)
        path = merge(path, entries, task, False, results)
    return path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="*", help="experiments to run (default: all of --size)")
    ap.add_argument("--size", choices=sorted(SIZES), default=None, help="run every experiment of this size")
    ap.add_argument("--list", action="store_true", help="list the experiments and exit")
    ap.add_argument("--merge", nargs="+", type=Path, default=None, metavar="RECORD",
                    help="gather these records' runs into the record (--out or the book's) and exit")
    ap.add_argument("--quick", action="store_true", help="tiny task, a few updates: plumbing only")
    ap.add_argument("--out", type=Path, default=None, help=f"record path (default book/results/{NAME}.json)")
    args = ap.parse_args(argv)
    if args.list:
        for name, exp in EXPERIMENTS.items():
            print(f"{name:28s} {exp.size:8s} {exp.what}")
        return 0
    if args.merge:
        path = merge_records(args.out or RESULTS_DIR / f"{NAME}.json", args.merge)
        print(json.dumps({"record": str(path), "merged": [str(p) for p in args.merge]}))
        return 0
    names = args.names or [n for n, e in EXPERIMENTS.items() if args.size in (None, e.size)]
    unknown = [n for n in names if n not in EXPERIMENTS]
    if unknown:
        print(f"error: unknown experiment {unknown[0]!r} (see --list)", file=sys.stderr)
        return 2
    if args.quick and args.out is None:
        print("error: --quick needs --out (its numbers must not land in book/results)", file=sys.stderr)
        return 2
    torch.set_num_threads(1)
    task = QUICK_TASK if args.quick else C.ReversalTask()
    data = C.reversal_data(task)
    path = args.out or RESULTS_DIR / f"{NAME}.json"
    for name in names:
        exp = EXPERIMENTS[name]
        size = QUICK_SIZE if args.quick else SIZES[exp.size]
        entry = run_experiment(name, exp, data, size)
        merge(path, {name: entry}, task, args.quick)  # after every run: a stopped session keeps what it did
    print(json.dumps({"record": str(path), "experiments": names}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
