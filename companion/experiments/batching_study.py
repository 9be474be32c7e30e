"""Reading the ``batching-transformer`` record (chapter 5): what each kind of batch holds, and
how the runs trained on it, as the chapter's table and figure show them."""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from typing import Any

from companion.data.batching import describe_batches, make_loader
from companion.errors import DataError
from companion.experiments.verdicts import per_seed


def batch_contents(record: Mapping[str, Any], names: Sequence[str], examples: Sequence,
                   limit: int = 300, seed: int = 0) -> dict[str, dict[str, float]]:
    """Per recipe of ``names``: :func:`~companion.data.batching.describe_batches` of the first
    ``limit`` training batches of ``examples`` under the budget and batching the record's
    configuration gives that recipe."""
    recipes = record["config"]["recipes"]
    rows = record["results"]["per_seed"].values()
    missing = [n for n in names if n not in recipes or any(n not in row for row in rows)]
    if missing:
        raise DataError(f"{record.get('name')} lacks {missing}: run the command in its config")
    return {n: describe_batches(make_loader(examples, recipes[n]["max_tokens"], shuffle=True, seed=seed,
                                            batching=recipes[n].get("batching", "bucketed")), limit=limit)
            for n in names}


def batching_rows(record: Mapping[str, Any], labels: Mapping[str, str],
                  contents: Mapping[str, Mapping[str, float]]) -> list[dict[str, Any]]:
    """One table row per recipe (``labels``: recipe -> its row's name): what its batches hold
    (``contents``, :func:`batch_contents`), its mean training CPU-seconds, and validation
    perplexity and test BLEU as mean ± sd over the record's seeds."""
    def mean_sd(name: str, key: str, digits: int) -> str:
        values = per_seed(record, name, key)
        return f"{statistics.fmean(values):.{digits}f} ± {statistics.stdev(values):.{digits}f}"

    return [{"batches": label, "pairs per batch": contents[n]["sentences"],
             "real target tokens": contents[n]["target_tokens"], "target cells": contents[n]["target_cells"],
             "CPU-s per run": statistics.fmean(per_seed(record, n, "train_cpu_s")),
             "valid ppl": mean_sd(n, "valid_ppl", 3), "test BLEU": mean_sd(n, "test_bleu", 1)}
            for n, label in labels.items()]


def mean_valid_curves(record: Mapping[str, Any], labels: Mapping[str, str]) -> dict[str, list[dict[str, float]]]:
    """Per recipe, its validation perplexity at every evaluated step averaged over the seeds,
    keyed by its label, in the form :func:`~companion.plots.decoding.plot_valid_curves` reads."""
    out = {}
    for name, label in labels.items():
        curves = [row[name]["valid_curve"] for row in record["results"]["per_seed"].values()]
        out[label] = [{"step": step, "valid_ppl": statistics.fmean(c[i][1] for c in curves)}
                      for i, (step, _) in enumerate(curves[0])]
    return out


__all__ = ["batch_contents", "batching_rows", "mean_valid_curves"]
