"""Chapter 5's ablations: where the LayerNorm goes (Pre-LN vs Post-LN), with and without
learning-rate warmup, label smoothing, the paper's configuration at our size, and checkpoint
averaging against the last checkpoint.

The variants (recipes of ``companion.experiments.regime.RECIPES``, each named for what it is):
``transformer`` (the book's: Pre-LN, no dropout, no smoothing, 150 warmup steps),
``transformer_no_warmup`` (the warmup removed and nothing else: the warmed-up peak rate from the
first step, then the recipe's own decay), ``transformer_constant`` (the peak rate held constant:
no warmup and no decay),
``transformer_lr_spike`` (the schedule's formula with warmup 0: a first step at 12 times the peak,
then decay), ``transformer_postln``, ``transformer_postln_no_warmup`` and
``transformer_postln_constant`` (Post-LN with warmup, without it, and at a constant peak rate), ``transformer_smoothed`` (label smoothing 0.1) and ``transformer_paper`` (Post-LN, dropout
0.1, label smoothing 0.1: the paper's configuration at our size).

For every seed it trains the book's Transformer recipes on the book's regime (the same corpus,
vocabularies, batches and Trainer as ``companion.experiments.regime.train``, so a seed's
``transformer`` model is bitwise the one the chapter trains) and records per variant:

- the final validation perplexity, test BLEU and chrF (beam 5) and greedy BLEU on the regime's
  test sentences;
- stability: the training loss of every step, averaged over windows (the curve the chapter
  draws), the number of *loss spikes* (steps whose loss exceeds the median of the
  ``SPIKE_WINDOW`` steps before by more than ``SPIKE_NATS``; a healthy run of the book's recipe
  has none: batches of short and long sentences make single losses vary several-fold late in
  training, but never by a nat), the largest gradient norm, how many steps were clipped, and
  whether training stopped on a non-finite loss;
- for the book's recipe (``--average``, by default ``transformer``): a checkpoint every
  ``--every`` steps; the parameter-wise mean of the last 5 checkpoints, and of 5 checkpoints
  ``2 * every`` apart, against the last checkpoint alone (valid ppl, test BLEU).

The record goes to ``book/results/ablation-transformer.json`` (``--name``/``--out`` to change).

    .venv/bin/python scripts/transformer_ablations.py           # five seeds, ~130 CPU-minutes
    .venv/bin/python scripts/transformer_ablations.py --quick --seeds 0 --out /tmp/a.json
    # split over two processes, then merged into one record:
    .venv/bin/python scripts/transformer_ablations.py --seeds 0 1 2 --out /tmp/a012.json
    .venv/bin/python scripts/transformer_ablations.py --seeds 3 4 --out /tmp/a34.json
    .venv/bin/python scripts/transformer_ablations.py --merge /tmp/a012.json /tmp/a34.json

``--quick`` swaps in a tiny corpus and a few steps: it checks the plumbing, and its numbers mean
nothing.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.errors import ConfigError, TrainingError  # noqa: E402
from companion.experiments import regime as R  # noqa: E402
from companion.experiments import scoring as S  # noqa: E402
from companion.experiments.records import make_record, python_command, spread, write_record  # noqa: E402
from companion.plots.curves import read_metrics  # noqa: E402
from companion.training import evaluate_loss  # noqa: E402
from companion.training.averaging import average_checkpoints, last_checkpoints  # noqa: E402

#: the variants, as recipe names of ``companion.experiments.regime.RECIPES``
VARIANTS = ("transformer", "transformer_no_warmup", "transformer_constant", "transformer_lr_spike",
            "transformer_postln", "transformer_postln_no_warmup", "transformer_postln_constant",
            "transformer_smoothed", "transformer_paper")
QUICK_STEPS = 12
SPIKE_WINDOW, SPIKE_NATS = 50, 1.0
CURVE_WINDOW = 10  # steps per point of the recorded loss curve
AVERAGE_N = 5


def loss_spikes(losses: list[float], window: int = SPIKE_WINDOW, nats: float = SPIKE_NATS) -> list[int]:
    """The steps (1-based) whose loss exceeds the median of the ``window`` losses before them by
    more than ``nats`` (steps with fewer predecessors are not judged)."""
    return [t + 1 for t in range(window, len(losses))
            if losses[t] > statistics.median(losses[t - window : t]) + nats]


def windowed(values: list[float], window: int = CURVE_WINDOW) -> list[float]:
    """Means of consecutive ``window``-step blocks (the last block may be shorter)."""
    return [statistics.fmean(values[i : i + window]) for i in range(0, len(values), window)]


def train_run(spec: R.Recipe, data: R.BookData, seed: int, out_dir: Path, *, every: int | None,
              keep: int) -> tuple[torch.nn.Module, dict]:
    """Train ``spec`` exactly as :func:`companion.experiments.regime.train` does, but with a run
    directory: ``metrics.jsonl`` logs every step (``log_every=1``), and with ``every`` a
    checkpoint is written every ``every`` steps (``keep`` of them kept). Neither changes the
    trained weights: validation and saving touch no random generator.

    Returns the model (eval mode) and the run's facts (CPU seconds, failure if any)."""
    model, loader, valid = R.prepare(spec, data, seed)
    options = {"log_every": 1}
    if every:
        options.update(eval_every=every, keep_last=keep)
    trainer = R.make_trainer(spec, model, loader, valid, out_dir=out_dir, **options)
    start = time.process_time()
    failure = None
    try:
        trainer.fit()
    except TrainingError as exc:  # a diverged run is a result, not a crash
        failure = str(exc)
    return model.eval(), {"cpu_s": time.process_time() - start, "failure": failure, "steps": trainer.step,
                          "parameters": R.num_parameters(model)}


def stability(out_dir: Path) -> dict:
    """Per-step loss and gradient-norm facts of a run, from its ``metrics.jsonl``."""
    train, valid = read_metrics(out_dir)
    losses = [r["train_loss"] for r in train]
    norms = [r["grad_norm"] for r in train]
    return {"loss_spikes": len(loss_spikes(losses)), "spike_steps": loss_spikes(losses),
            "max_grad_norm": max(norms) if norms else None,
            "clipped_steps": sum(r["clip_rate"] > 0 for r in train),
            "early_loss": statistics.fmean(losses[: len(losses) // 4]) if losses else None,
            "final_train_loss": statistics.fmean(losses[-50:]) if losses else None,
            "curve": {"window": CURVE_WINDOW, "loss": windowed(losses), "grad_norm": windowed(norms)},
            "valid_curve": [[r["step"], r["valid_ppl"]] for r in valid]}


def scores(model: torch.nn.Module, data: R.BookData, spec: R.Recipe) -> dict:
    """Validation perplexity, test BLEU/chrF (the book's decoding) and greedy BLEU."""
    test = data.held_out("test", spec.max_words)
    valid = data.loader(data.held_out("valid", spec.max_words), shuffle=False)
    beam = S.evaluate(model, data, test)
    greedy = S.evaluate(model, data, test, beam_size=1)
    return {"valid_ppl": evaluate_loss(model, valid)[1], "test_bleu": beam.bleu.score,
            "test_chrf": beam.chrf.score, "test_exact": beam.exact, "test_bleu_greedy": greedy.bleu.score}


def averaged(model: torch.nn.Module, out_dir: Path, data: R.BookData, spec: R.Recipe) -> dict:
    """Scores of the last checkpoint and of two 5-checkpoint averages of one run."""
    paths = last_checkpoints(out_dir, 2 * AVERAGE_N - 1)
    steps = [int(p.stem.split("step")[1]) for p in paths]
    out = {}
    for label, chosen in (("last", paths[-1:]), ("last5", paths[-AVERAGE_N:]), ("last5_spaced", paths[::2])):
        model.load_state_dict(average_checkpoints(chosen)["model"])
        out[label] = {**scores(model, data, spec), "steps": [steps[paths.index(p)] for p in chosen]}
    return out


def run(variants: list[str], seeds: list[int], *, average: str | None, every: int, quick: bool,
        work: Path) -> dict:
    data = R.book_data(R.QUICK_REGIME if quick else R.REGIME)
    specs = {name: R.quick_recipe(R.recipe(name), QUICK_STEPS) if quick else R.recipe(name) for name in variants}
    per_seed: dict[str, dict] = {}
    for seed in seeds:
        row: dict = {}
        for name, spec in specs.items():
            out_dir = work / f"{name}-seed{seed}"
            keep = 2 * AVERAGE_N - 1
            model, facts = train_run(spec, data, seed, out_dir, every=every if name == average else None, keep=keep)
            row[name] = {**facts, **stability(out_dir)}
            if facts["failure"] is None:
                row[name].update(scores(model, data, spec))
                if name == average:
                    row["averaging"] = averaged(model, out_dir, data, spec)
            print(f"seed {seed} {name}: " + (f"test BLEU {row[name]['test_bleu']:.2f}, valid ppl "
                  f"{row[name]['valid_ppl']:.3f}" if facts["failure"] is None else facts["failure"])
                  + f", {row[name]['loss_spikes']} spikes, {facts['cpu_s']:.0f} s CPU", file=sys.stderr, flush=True)
        per_seed[str(seed)] = row
    return {"config": config(data.regime, specs, seeds, average, every, quick),
            "results": {"per_seed": per_seed, "summary": summarize(per_seed, seeds, list(specs), average)}}


METRICS = ("valid_ppl", "test_bleu", "test_chrf", "test_bleu_greedy", "loss_spikes", "max_grad_norm",
           "clipped_steps", "early_loss", "final_train_loss", "cpu_s")


def summarize(per_seed: dict, seeds: list[int], variants: list[str], average: str | None) -> dict:
    """Mean/sd/min/max per variant and metric over the seeds that finished, paired differences
    against the first variant, and the averaging gains."""
    summary: dict = {}
    for name in variants:
        rows = [per_seed[str(s)][name] for s in seeds]
        done = [r for r in rows if r["failure"] is None]
        summary[name] = {k: spread([r[k] for r in done]) for k in METRICS if done and done[0].get(k) is not None}
        summary[name]["failed_runs"] = len(rows) - len(done)
    first = variants[0]
    for name in variants[1:]:
        pairs = [(per_seed[str(s)][first], per_seed[str(s)][name]) for s in seeds]
        pairs = [(a, b) for a, b in pairs if a["failure"] is None and b["failure"] is None]
        if pairs:
            summary[f"{name} - {first}"] = {k: spread([b[k] - a[k] for a, b in pairs])
                                            for k in ("valid_ppl", "test_bleu", "early_loss")}
    if average and all("averaging" in per_seed[str(s)] for s in seeds):
        av = [per_seed[str(s)]["averaging"] for s in seeds]
        summary["averaging"] = {label: {k: spread([a[label][k] for a in av]) for k in ("valid_ppl", "test_bleu")}
                                for label in av[0]}
        for label in ("last5", "last5_spaced"):
            summary["averaging"][f"{label} - last"] = {
                k: spread([a[label][k] - a["last"][k] for a in av]) for k in ("valid_ppl", "test_bleu")}
    return summary


def config(regime: R.Regime, specs: dict, seeds: list[int], average: str | None, every: int, quick: bool) -> dict:
    return {"regime": dataclasses.asdict(regime), "recipes": {n: dataclasses.asdict(s) for n, s in specs.items()},
            "seeds": seeds, "quick": quick, "threads": torch.get_num_threads(),
            "decoding": dataclasses.asdict(R.DECODING),
            "spikes": {"window": SPIKE_WINDOW, "nats": SPIKE_NATS},
            "averaging": {"recipe": average, "every": every, "n": AVERAGE_N,
                          "last5": f"the last {AVERAGE_N} checkpoints, {every} steps apart",
                          "last5_spaced": f"{AVERAGE_N} checkpoints {2 * every} steps apart, ending at the last"},
            "command": python_command()}


def merge(sources: list[Path]) -> dict:
    """One record from records of the same variants made under different seeds (runs split over
    processes): the seeds' rows side by side and the summary recomputed over all of them. The
    sources must come from one commit and one configuration apart from their seeds; the record
    keeps the first source's provenance and lists every source's."""
    from companion.experiments.records import read_record

    records = [read_record(p) for p in sources]
    first = records[0]
    same = {k: v for k, v in first["config"].items() if k not in ("seeds", "command")}
    for path, rec in zip(sources, records):
        if rec.get("kind") != "ablation":
            raise ConfigError(f"{path}: not an ablation record")
        if {k: v for k, v in rec["config"].items() if k not in ("seeds", "command")} != same:
            raise ConfigError(f"{path}: its configuration differs from {sources[0]}'s apart from the seeds")
        if rec["provenance"].get("commit") != first["provenance"].get("commit"):
            raise ConfigError(f"{path}: made from commit {rec['provenance'].get('commit')}, "
                              f"{sources[0]} from {first['provenance'].get('commit')}")
    per_seed: dict = {}
    for path, rec in zip(sources, records):
        twice = set(per_seed) & set(rec["results"]["per_seed"])
        if twice:
            raise ConfigError(f"{path}: seeds {sorted(twice)} appear in two records")
        per_seed.update(rec["results"]["per_seed"])
    seeds = sorted(int(s) for s in per_seed)
    per_seed = {str(s): per_seed[str(s)] for s in seeds}
    variants = list(first["config"]["recipes"])
    config = {**first["config"], "seeds": seeds,
              "command": [rec["config"]["command"] for rec in records]}
    results = {"per_seed": per_seed,
               "summary": summarize(per_seed, seeds, variants, first["config"]["averaging"]["recipe"])}
    return {**first, "config": config, "results": results,
            "merged_from": [{"path": str(p), "seeds": rec["config"]["seeds"], "provenance": rec["provenance"]}
                            for p, rec in zip(sources, records)]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--merge", nargs="+", type=Path, default=None, metavar="RECORD",
                    help="merge records made under different seeds into one (--out or the book's record)")
    ap.add_argument("--variants", nargs="+", default=list(VARIANTS), help="recipe names (the first is the reference)")
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    ap.add_argument("--average", default="transformer", help="the recipe whose checkpoints are averaged ('' for none)")
    ap.add_argument("--every", type=int, default=25, help="steps between the averaged checkpoints")
    ap.add_argument("--name", default="ablation-transformer", help="record name (book/results/NAME.json)")
    ap.add_argument("--out", default=None, help="write the record here instead")
    ap.add_argument("--quick", action="store_true", help="tiny corpus, a few steps: plumbing only")
    args = ap.parse_args(argv)
    if args.merge:
        try:
            record = merge(args.merge)
        except ConfigError as exc:
            ap.error(str(exc))
        record["name"] = args.name
        print(f"merged seeds {record['config']['seeds']}; wrote {write_record(record, args.out)}")
        return 0
    torch.set_num_threads(1)
    try:
        for name in args.variants:
            R.recipe(name)  # unknown names fail before any training
    except ConfigError as exc:
        ap.error(str(exc))
    average = args.average or None
    if average is not None and average not in args.variants:
        ap.error(f"--average {average!r} is not one of the variants")
    every = 1 if args.quick else args.every
    with tempfile.TemporaryDirectory(prefix="ablation-") as work:
        out = run(args.variants, args.seeds, average=average, every=every, quick=args.quick, work=Path(work))
    path = write_record(make_record(args.name, "ablation", out["config"], out["results"]), args.out)
    summary = out["results"]["summary"]
    for name in args.variants:
        cells = ", ".join(f"{k} {v['mean']:.3f} ± {v['sd']:.3f}" for k, v in summary[name].items()
                          if k in ("valid_ppl", "test_bleu", "loss_spikes", "early_loss"))
        print(f"{name}: {cells} ({summary[name]['failed_runs']} failed)")
    if "averaging" in summary:
        print("averaging:", json.dumps({k: round(v["test_bleu"]["mean"], 3) for k, v in summary["averaging"].items()}))
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
