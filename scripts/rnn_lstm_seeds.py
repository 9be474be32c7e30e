"""The spread over seeds of the training results of chapters 1 and 2 (RNN, LSTM).

``book/01_rnn.ipynb`` and ``book/02_lstm.ipynb`` run every experiment once, with seed 0, and
compare each training result with a recorded number through ``companion.repro.check`` (a band
``recorded ± tol``) or assert a qualitative claim (``accuracy > 0.95``, "the GRU beats the
LSTM"). This script re-derives those bands and claims: for each seed it repeats the chapters'
computations -- the same ``companion`` calls with the same settings, where every seed the
chapters pass (``torch.manual_seed(0)``, ``seed=0``, ``Generator().manual_seed(0)``) becomes
the run's seed -- and prints, for every measured quantity, its value per seed, the mean, the
minimum, the maximum, the largest distance from the recorded number, and whether the recorded
band (or the asserted claim) holds for every seed. Seed 0 reproduces the chapters' own numbers.

    .venv/bin/python scripts/rnn_lstm_seeds.py --seeds 0 1 2 --out seeds.json
    .venv/bin/python scripts/rnn_lstm_seeds.py --quick --seeds 0     # plumbing check, < 1 min
    .venv/bin/python scripts/rnn_lstm_seeds.py --summarize seeds.json more-seeds.json \
        --record book/results/seeds-rnn-lstm.json

``--summarize`` trains nothing: it judges saved runs (several files may be merged, e.g. seeds
run on different machines) against the current table, so a changed tolerance or claim can be
re-checked without training again. ``--record PATH`` (with a run or with ``--summarize``) writes
the book's record (:mod:`companion.experiments.records`: provenance, the step counts, the
machine of every seed, ``results.per_seed``, the summary and this report), which the chapters
read to state the spread over seeds.

Cost, one thread per process: on an idle core a seed takes about 4 minutes (chapter 1 ~1.3 min,
most of it the 2000-step RNN-256 LM; chapter 2 ~2.7 min: the 16 recall classifiers, the gradient
probes, the clipping runs and the four 800-step LMs), plus ~25 s for the n-gram baselines; on the
book's shared 2-core machine it took 5-9 minutes. ``--chapter 1`` or ``--chapter 2`` runs one
chapter's experiments, so seeds can run as parallel processes (one per chapter and seed) and be
merged with ``--summarize``. ``--quick`` shrinks every step count (and fits the n-gram on a
prefix of the text) so the whole script runs in about a minute; its numbers are NOT comparable
with the recorded ones.

The n-gram baselines of chapter 1 do not depend on the seed: the script tunes each order's
smoothing on the same held-out training play and scores the validation probe with the winner,
through the same package calls as cells ``3f96bc5f`` and ``0ae5ec3f``. Keep ``QUANTITIES``,
``LM_VARIANTS`` and ``LM_PAIRS`` in step with the chapters (``tests/test_scripts_rnn_lstm.py``
compares every ``check(...)`` of the chapters with the table).
"""

from __future__ import annotations

import argparse
import json
import math
import operator
import statistics
import sys
import time
from pathlib import Path

import torch

from companion.data.text import shakespeare_corpus
from companion.experiments.gradients import gradient_norms_vs_length
from companion.experiments.records import cpu_model, make_record, spread, write_record
from companion.models.charlm import charlm_parameters, hidden_size_for_budget, sample
from companion.models.rnn import OneHotRNNLM, encode_chars, train_full_batch
from companion.experiments.ngram import NGramLM, best_settings, tune_smoothing
from companion.repro import set_determinism
from companion.experiments.tasks import (RecallTask, SequenceClassifier, accuracy_vs_length,
                                        known_word_share, recall_accuracy, recall_batch,
                                        shakespeare_batches, shakespeare_tuning_split, speaker_lines,
                                        train_char_lm, train_recall, words_of)

CH1, CH2 = "book/01_rnn.ipynb", "book/02_lstm.ipynb"

# ---------------------------------------------------------------------------------------------
# Every number the chapters record or assert. One row per quantity:
#   (name, where it comes from, kind, spec)
#   kind "check": spec = (recorded, tol)   -- check(name, value, recorded=..., tol=...)
#   kind "claim": spec = (op, bound)       -- an assert `value <op> bound` in the cell
#   kind "info":  spec = None              -- measured and shown, nothing asserted
# Cells are named by notebook and cell id (nbformat "id").
# ---------------------------------------------------------------------------------------------
_ACC_CELL = f"{CH2} cell 95c2e000 (measured) / cd840eb6 (asserted)"
_LM_CELL = f"{CH2} cell 3836b930 (trained) / 864cd3f3 (checked)"
#: chapter 2's language models: label -> (cell, forget-gate bias)
LM_VARIANTS: dict[str, tuple[str, float]] = {
    "RNN": ("rnn", 0.0),
    "LSTM, forget bias 1": ("lstm", 1.0),
    "LSTM, forget bias 0": ("lstm", 0.0),
    "GRU": ("gru", 0.0),
}
#: ordered pairs (a, b) of chapter 2's language models: the chapter asserts bpc(a) > bpc(b),
#: i.e. that b is better, and this script measures bpc(a) - bpc(b) for every seed
LM_PAIRS: list[tuple[str, str]] = [
    ("RNN", "GRU"),
    ("LSTM, forget bias 0", "RNN"),
    ("LSTM, forget bias 1", "LSTM, forget bias 0"),
]
#: chapter 2's recorded bands for the state-carried validation bpc (cell 864cd3f3); the LSTM
#: with forget bias 0 enters only through the asserted paired differences
LM_CHECKS: dict[str, tuple[float, float]] = {
    "GRU": (2.464, 0.025),
    "RNN": (2.522, 0.03),
    "LSTM, forget bias 1": (2.714, 0.045),
}
LN4 = math.log(4)  # the loss of guessing one of four symbols
QUANTITIES: list[tuple[str, str, str, tuple | None]] = [
    # chapter 1 -- the one-hot RNN fitted to the word "cocoa", cells 19807b59 (trains) and
    # a81a132a (asserts prediction == "ocoa")
    ("ch1 cocoa: next characters predicted right (of 4)", f"{CH1} cells 19807b59 a81a132a", "claim",
     ("==", 4)),
    # chapter 1 -- RNN-256 character LM, 2000 steps: cell 1b4df551 trains, a80c1237 checks
    ("ch1 validation bpc, RNN-256 LM, state reset every 64 characters", f"{CH1} cell 1befa736",
     "info", None),
    ("ch1 validation bpc, RNN-256 LM, state carried through the text", f"{CH1} cell a80c1237",
     "check", (2.415, 0.025)),
    ("ch1 bpc gained by carrying the state", f"{CH1} cell a80c1237", "check", (0.0464, 0.002)),
    ("ch1 bpc drop over the last evaluation interval (state carried)", f"{CH1} cell 5d0b7c21",
     "claim", (">", 0.0)),
    # chapter 1 -- cell c2fbb237: the RNN (state carried) against the n-gram baselines
    *[(f"ch1 RNN-256 bpc (carried) - {n}-gram bpc", f"{CH1} cell c2fbb237" if n in (4, 5)
       else f"{CH1} cell 199bf23c", *({4: ("claim", ("<", 0.0)), 5: ("claim", (">", 0.0))}
                                      .get(n, ("info", None))))
      for n in range(2, 8)],
    # chapter 1 -- cell 3f91bed5: the two samples (temperatures 0.5 and 1.0) from the RNN-256 LM
    # shown, not asserted: seeds 1 and 3 drew no speaker line in either sample (5 seeds, 2026-12-01)
    ("ch1 samples with a speaker line (of 2)", f"{CH1} cell 3f91bed5", "info", None),
    ("ch1 share of sampled words seen in training, temperature 0.5 minus 1.0",
     f"{CH1} cell 3f91bed5", "claim", (">", 0.0)),
    # chapter 2 -- gradient norms at initialisation, cell 7fc5f468 measures, c2652d76 asserts
    ("ch2 RNN ||dL/dh1|| at T=50 / at T=2", f"{CH2} cell c2652d76", "claim", ("<", 1e-9)),
    ("ch2 LSTM ||dL/dc1|| at T=100 / at T=2", f"{CH2} cell c2652d76", "claim", (">", 0.1)),
    # chapter 2 -- recall accuracy vs number of distractors T (600 Adam steps each)
    ("ch2 accuracy RNN, T=5", _ACC_CELL, "claim", (">", 0.95)),
    ("ch2 accuracy RNN, T=10", _ACC_CELL, "info", None),
    ("ch2 accuracy RNN, T=20", _ACC_CELL, "info", None),
    ("ch2 accuracy RNN, T=40", _ACC_CELL, "info", None),
    ("ch2 accuracy LSTM, forget bias 0, T=5", _ACC_CELL, "claim", (">", 0.95)),
    ("ch2 accuracy LSTM, forget bias 0, T=10", _ACC_CELL, "info", None),
    ("ch2 accuracy LSTM, forget bias 0, T=20", _ACC_CELL, "claim", ("<", 0.4)),
    ("ch2 accuracy LSTM, forget bias 0, T=40", _ACC_CELL, "claim", ("<", 0.4)),
    ("ch2 accuracy LSTM, forget bias 3, T=5", _ACC_CELL, "claim", (">", 0.95)),
    ("ch2 accuracy LSTM, forget bias 3, T=10", _ACC_CELL, "claim", (">", 0.95)),
    ("ch2 accuracy LSTM, forget bias 3, T=20", _ACC_CELL, "claim", (">", 0.95)),
    ("ch2 accuracy LSTM, forget bias 3, T=40", _ACC_CELL, "info", None),
    ("ch2 accuracy GRU, update bias 3, T=5", _ACC_CELL, "claim", (">", 0.95)),
    ("ch2 accuracy GRU, update bias 3, T=10", _ACC_CELL, "claim", (">", 0.95)),
    ("ch2 accuracy GRU, update bias 3, T=20", _ACC_CELL, "claim", (">", 0.95)),
    ("ch2 accuracy GRU, update bias 3, T=40", _ACC_CELL, "claim", (">", 0.95)),
    # cell 5ec4becf: assert recall_accuracy(trained LSTM forget bias 3 at T=20) > 0.95
    ("ch2 trained LSTM (forget bias 3) recall at T=20", f"{CH2} cell 5ec4becf", "claim", (">", 0.95)),
    # cell 5ec4becf: the trained LSTM's target-logit gradient to c_1 (T=100 over T=2), divided by
    # the untrained LSTM's loss gradient ratio: below 1 means it fell further
    ("ch2 trained LSTM cell-gradient ratio (T=100 / T=2) over the untrained one's",
     f"{CH2} cell 5ec4becf", "claim", ("<", 1.0)),
    # chapter 2 -- exploding gradients and clipping, cell beeac953 trains, 777e2ca9 asserts
    ("ch2 no clipping: mean loss of the last 20 steps", f"{CH2} cell 777e2ca9", "claim", (">", LN4)),
    ("ch2 no clipping: accuracy", f"{CH2} cell 777e2ca9", "claim", ("<", 0.6)),
    ("ch2 no clipping: largest gradient norm", f"{CH2} cell 9cb353ad", "info", None),
    ("ch2 clip at norm 1: mean loss of the last 20 steps", f"{CH2} cell 777e2ca9", "claim", ("<", LN4)),
    ("ch2 clip at norm 1: accuracy", f"{CH2} cell 777e2ca9", "claim", (">", 0.7)),
    # chapter 2 -- char LMs with the same parameter budget, 800 steps: the state-carried
    # validation bpc is checked (LM_CHECKS), the chunked one shown
    *[(f"ch2 validation bpc, {label} (800 steps)", _LM_CELL,
       *(("check", LM_CHECKS[label]) if label in LM_CHECKS else ("info", None)))
      for label in LM_VARIANTS],
    *[(f"ch2 chunked validation bpc, {label} (800 steps)", f"{CH2} cell a478a3f8", "info", None)
      for label in LM_VARIANTS],
    *[(f"ch2 bpc {a} - bpc {b} (800 steps)", f"{CH2} cell 864cd3f3", "claim", (">", 0.0))
      for a, b in LM_PAIRS],
]

#: the chapters' step counts (full) and the shrunken ones of --quick
STEPS = {
    "full": dict(word=200, rnn256=2000, rnn256_eval=250, recall=600, clip=300, lm800=800,
                 lm800_eval=200, ngram_fit_chars=None, ngram_tune_chars=30_000,
                 ngram_probe_chars=50_000),
    "quick": dict(word=200, rnn256=6, rnn256_eval=3, recall=5, clip=20, lm800=4,
                  lm800_eval=4, ngram_fit_chars=200_000, ngram_tune_chars=3_000,
                  ngram_probe_chars=5_000),
}

OPS = {"<": operator.lt, ">": operator.gt, "==": operator.eq}


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# seed-independent parts
# ---------------------------------------------------------------------------------------------
def ngram_baselines(steps: dict) -> tuple[dict[int, float], dict[int, list]]:
    """Validation bpc of the 2..7-gram baselines, each order with the smoothing its tuning
    picked (book/01_rnn.ipynb cells 3f96bc5f and 0ae5ec3f). Returns the bpc per order and the
    picks ``[smoothing, options]`` per order."""
    fit_text, tune_text, _ = shakespeare_tuning_split(steps["ngram_tune_chars"])
    train_text, valid_text = shakespeare_corpus()
    if steps["ngram_fit_chars"]:
        fit_text = fit_text[:steps["ngram_fit_chars"]]
        train_text = train_text[:steps["ngram_fit_chars"]]
    picks = best_settings(tune_smoothing(NGramLM(order=7).fit(fit_text), tune_text, range(1, 8)))
    counts = NGramLM(order=7).fit(train_text)
    valid_probe = valid_text[:steps["ngram_probe_chars"]]
    bpc = {order: picks[order].model(counts).score(valid_probe[1:], context=valid_probe[:1]).bpc
           for order in range(2, 8)}
    return bpc, {order: [picks[order].smoothing, picks[order].options] for order in range(2, 8)}


def budget_hidden_sizes() -> dict[str, int]:
    """Hidden sizes with the 128-unit LSTM's parameter budget (book/02_lstm.ipynb cell 3836b930)."""
    vocab_size = len(shakespeare_batches()[0])
    budget = charlm_parameters(vocab_size, 32, 128, 1, "lstm")
    return {cell: hidden_size_for_budget(budget, vocab_size, 32, 1, cell)
            for cell in ("rnn", "lstm", "gru")}


# ---------------------------------------------------------------------------------------------
# one seed: the chapters' cells, in order, with seed 0 replaced by `seed`
# ---------------------------------------------------------------------------------------------
def chapter1(seed: int, steps: dict, ngram_bpc: dict[int, float], out: dict, extra: dict) -> None:
    # cells 7a15026b and 19807b59: the one-hot RNN fitted to "cocoa"
    alphabet = "coa"
    ids = encode_chars("cocoa", alphabet)
    inputs, targets = ids[:-1][None], ids[1:][None]
    torch.manual_seed(seed)
    word_lm = OneHotRNNLM(vocab_size=len(alphabet), hidden_size=3, dtype=torch.float64)
    train_full_batch(word_lm, inputs, targets, steps=steps["word"], lr=0.05, log_every=50)
    probs = torch.softmax(word_lm(inputs)[0], dim=-1)
    prediction = "".join(alphabet[i] for i in probs.argmax(-1))
    out["ch1 cocoa: next characters predicted right (of 4)"] = float(
        sum(p == t for p, t in zip(prediction, "ocoa")))
    extra["cocoa prediction"] = prediction

    # cells 1b4df551 / a80c1237 / 199bf23c / c2fbb237: the RNN-256 character LM
    rnn_lm = train_char_lm("rnn", hidden_size=256, steps=steps["rnn256"],
                           eval_every=steps["rnn256_eval"], lr=2e-3, seed=seed)
    reset, carried = rnn_lm.final_bpc, rnn_lm.final_stream_bpc
    out["ch1 validation bpc, RNN-256 LM, state reset every 64 characters"] = reset
    out["ch1 validation bpc, RNN-256 LM, state carried through the text"] = carried
    out["ch1 bpc gained by carrying the state"] = reset - carried
    for order in range(2, 8):
        out[f"ch1 RNN-256 bpc (carried) - {order}-gram bpc"] = carried - ngram_bpc[order]
    out["ch1 bpc drop over the last evaluation interval (state carried)"] = (
        rnn_lm.stream_bpc[-2] - rnn_lm.stream_bpc[-1])
    # cell 3f91bed5: the samples of cell ab20bc07
    train_text = shakespeare_corpus()[0]
    samples = {t: sample(rnn_lm.model, rnn_lm.vocab, "KING:\n", 300, t,
                         generator=torch.Generator().manual_seed(seed)) for t in (0.5, 1.0)}
    vocabulary = set(words_of(train_text))
    out["ch1 samples with a speaker line (of 2)"] = float(
        sum(len(speaker_lines(text[len("KING:\n"):])) > 0 for text in samples.values()))
    out["ch1 share of sampled words seen in training, temperature 0.5 minus 1.0"] = (
        known_word_share(samples[0.5], vocabulary) - known_word_share(samples[1.0], vocabulary))
    extra["RNN-256 LM seconds"] = rnn_lm.seconds
    extra["RNN-256 LM valid bpc curve (step, reset, carried)"] = list(
        zip(rnn_lm.steps, rnn_lm.valid_bpc, rnn_lm.stream_bpc))


def chapter2(seed: int, steps: dict, hidden: dict[str, int], out: dict, extra: dict) -> None:
    task = RecallTask(num_symbols=4, num_distractors=4)
    lengths = [2, 5, 10, 20, 50, 100]

    def probe(T):
        return recall_batch(task, 64, T, torch.Generator().manual_seed(seed))

    def fresh(cell, **kwargs):
        torch.manual_seed(seed)
        return SequenceClassifier(task.vocab_size, task.num_symbols, 8, 32, cell, **kwargs)

    # cells 7fc5f468 / c2652d76: gradient norms at initialisation
    at_init = {"RNN": gradient_norms_vs_length(fresh("rnn"), probe, lengths),
               "LSTM": gradient_norms_vs_length(fresh("lstm", forget_bias=3.0), probe, lengths)}
    rnn, lstm = at_init["RNN"]["h"], at_init["LSTM"]["c"]
    out["ch2 RNN ||dL/dh1|| at T=50 / at T=2"] = rnn[lengths.index(50)] / rnn[0]
    out["ch2 LSTM ||dL/dc1|| at T=100 / at T=2"] = lstm[lengths.index(100)] / lstm[0]

    # cells 95c2e000 / cd840eb6 / 5ec4becf: recall accuracy against the number of distractors
    cells = {"RNN": {"cell": "rnn"},
             "LSTM, forget bias 0": {"cell": "lstm"},
             "LSTM, forget bias 3": {"cell": "lstm", "forget_bias": 3.0},
             "GRU, update bias 3": {"cell": "gru", "forget_bias": 3.0}}
    distractors = [5, 10, 20, 40]
    accuracy, trained = accuracy_vs_length(cells, distractors, task=task, steps=steps["recall"],
                                           seed=seed)
    for label, row in accuracy.items():
        for T, value in row.items():
            out[f"ch2 accuracy {label}, T={T}"] = value
    out["ch2 trained LSTM (forget bias 3) recall at T=20"] = recall_accuracy(
        trained["LSTM, forget bias 3", 20], task, 20)
    after = gradient_norms_vs_length(trained["LSTM, forget bias 3", 20], probe, lengths, "logit")["c"]
    out["ch2 trained LSTM cell-gradient ratio (T=100 / T=2) over the untrained one's"] = (
        (after[-1] / after[0]) / (lstm[-1] / lstm[0]))

    # cells beeac953 / 777e2ca9: plain SGD on an RNN with doubled recurrent weights
    for label, clip in (("no clipping", None), ("clip at norm 1", 1.0)):
        model = fresh("rnn")
        with torch.no_grad():
            model.rnn.weight_hh_l0.mul_(2.0)
        run = train_recall(model, task, 10, steps=steps["clip"], lr=1.0, optimizer="sgd",
                           clip_norm=clip, seed=seed)
        out[f"ch2 {label}: mean loss of the last 20 steps"] = sum(run.losses[-20:]) / 20
        out[f"ch2 {label}: accuracy"] = recall_accuracy(model, task, 10)
        if clip is None:
            out["ch2 no clipping: largest gradient norm"] = max(run.grad_norms)

    # cells 3836b930 / 864cd3f3: RNN, LSTM (forget bias 1 and 0) and GRU LMs, same budget
    bpc = {}
    for label, (cell, forget_bias) in LM_VARIANTS.items():
        result = train_char_lm(cell, hidden[cell], steps=steps["lm800"],
                               eval_every=steps["lm800_eval"], lr=3e-3, seed=seed,
                               forget_bias=forget_bias)
        bpc[label] = result.final_stream_bpc
        out[f"ch2 validation bpc, {label} (800 steps)"] = result.final_stream_bpc
        out[f"ch2 chunked validation bpc, {label} (800 steps)"] = result.final_bpc
        extra[f"{label} LM (hidden {hidden[cell]}) seconds"] = result.seconds
    for a, b in LM_PAIRS:
        out[f"ch2 bpc {a} - bpc {b} (800 steps)"] = bpc[a] - bpc[b]


def run_seed(seed: int, steps: dict, ngram_bpc: dict[int, float],
             hidden: dict[str, int], chapters: tuple[int, ...] = (1, 2)) -> tuple[dict, dict]:
    """All measured quantities of ``chapters`` for one seed, and extra (timing, curves)
    information."""
    set_determinism(seed)
    out: dict[str, float] = {}
    extra: dict = {}
    start = time.perf_counter()
    if 1 in chapters:
        chapter1(seed, steps, ngram_bpc, out, extra)
        log(f"seed {seed}: chapter 1 done ({time.perf_counter() - start:.0f} s)")
    if 2 in chapters:
        chapter2(seed, steps, hidden, out, extra)
        log(f"seed {seed}: chapter 2 done ({time.perf_counter() - start:.0f} s in all)")
    extra["seconds"] = time.perf_counter() - start
    extra["machine"] = f"{cpu_model()}, torch {torch.__version__}"
    wanted = {name for name, *_ in QUANTITIES if int(name[2]) in chapters}
    missing = sorted(wanted - set(out))
    unknown = sorted(set(out) - wanted)
    if missing or unknown:
        raise RuntimeError(f"quantity table out of step: missing {missing}, not in the table {unknown}")
    return out, extra


# ---------------------------------------------------------------------------------------------
# summary and printing
# ---------------------------------------------------------------------------------------------
def summarize(per_seed: dict[int, dict]) -> dict[str, dict]:
    """Per quantity: values per seed, mean, min, max and whether its band or claim holds.

    Each quantity is summarised over the seeds that measured it (a ``--chapter`` run measures
    only its chapter's); a quantity no seed measured is left out."""
    summary = {}
    for name, where, kind, spec in QUANTITIES:
        seeds = sorted(s for s in per_seed if name in per_seed[s])
        if not seeds:
            continue
        values = [per_seed[s][name] for s in seeds]
        row = {"where": where, "kind": kind, "values": dict(zip(seeds, values)),
               "mean": statistics.fmean(values), "min": min(values), "max": max(values)}
        if kind == "check":
            recorded, tol = spec
            row["recorded"], row["tol"] = recorded, tol
            row["max_abs_dev"] = max(abs(v - recorded) for v in values)
            row["holds"] = all(math.isfinite(v) for v in values) and row["max_abs_dev"] <= tol
            row["failing_seeds"] = [s for s, v in zip(seeds, values) if not abs(v - recorded) <= tol]
        elif kind == "claim":
            op, bound = spec
            row["claim"] = f"value {op} {bound:g}"
            row["failing_seeds"] = [s for s, v in zip(seeds, values) if not OPS[op](v, bound)]
            row["holds"] = not row["failing_seeds"]
        summary[name] = row
    return summary


def number(x: float) -> str:
    return f"{x:.3e}" if x != 0 and (abs(x) < 1e-3 or abs(x) >= 1e4) else f"{x:.4f}"


def print_report(summary: dict, seeds: list[int], quick: bool) -> str:
    """Print the report (every quantity per seed, and whether its band or claim holds) and
    return its text."""
    lines: list[str] = []
    print = lines.append  # noqa: A001 -- collect, then write once
    if quick:
        print("QUICK RUN: step counts shrunk to check the plumbing; these numbers are NOT "
              "comparable with the recorded ones.")
    print(f"seeds: {seeds}")
    for name, row in summary.items():
        print(f"\n{name}   [{row['where']}]")
        print("  " + "  ".join(f"seed {s}: {number(v)}" for s, v in row["values"].items()))
        print(f"  mean {number(row['mean'])}  min {number(row['min'])}  max {number(row['max'])}")
        if row["kind"] == "check":
            verdict = "covers all seeds" if row["holds"] else f"FAILS for seeds {row['failing_seeds']}"
            print(f"  recorded {row['recorded']} ± {row['tol']}: max |value - recorded| "
                  f"{row['max_abs_dev']:.4f} -> tolerance {verdict}")
        elif row["kind"] == "claim":
            verdict = ("holds for all seeds" if row["holds"]
                       else f"FAILS for seeds {row['failing_seeds']}")
            print(f"  claim {row['claim']}: {verdict}")
        else:
            print("  (shown in the chapter, nothing asserted)")
    judged = [name for name, row in summary.items() if row["kind"] != "info"]
    bad = [name for name in judged if not summary[name]["holds"]]
    print(f"\n{len(judged) - len(bad)} of {len(judged)} recorded bands/claims hold for every seed"
          + (f"; outside: {bad}" if bad else "") + ("  (QUICK RUN)" if quick else ""))
    text = "\n".join(lines)
    sys.stdout.write(text + "\n")
    return text


def load_per_seed(paths: list[str]) -> tuple[dict[int, dict], bool]:
    """Per-seed values from one or more JSON files this script wrote (``--out``). Files may
    hold different chapters of the same seed (``--chapter``); a quantity measured twice for the
    same seed is an error. Returns ``(per_seed, quick)``."""
    per_seed, quick, _ = load_runs(paths)
    return per_seed, quick


def load_runs(paths: list[str]) -> tuple[dict[int, dict], bool, dict]:
    """:func:`load_per_seed` plus what a record needs from the files: ``{"extra": {seed: ...},
    "steps", "ngram_settings", "ngram_bpc", "budget_hidden_sizes"}`` (the settings from the
    first file that has them)."""
    per_seed: dict[int, dict] = {}
    quick = False
    info: dict = {"extra": {}}
    for path in paths:
        data = json.loads(Path(path).read_text())
        quick = quick or bool(data.get("quick"))
        for seed, values in data["per_seed"].items():
            row = per_seed.setdefault(int(seed), {})
            twice = sorted(set(row) & set(values))
            if twice:
                raise SystemExit(f"error: seed {seed} has {twice[0]!r} in more than one of {paths}")
            row.update(values)
        for seed, extra in (data.get("extra") or {}).items():
            info["extra"].setdefault(int(seed), {}).update(extra)
        for key in ("steps", "ngram_settings", "ngram_bpc", "budget_hidden_sizes"):
            if data.get(key) and key not in info:
                info[key] = data[key]
    return per_seed, quick, info


def seed_record(per_seed: dict[int, dict], info: dict, quick: bool, report: str) -> dict:
    """The book's record of the seed spread (``book/results/seeds-rnn-lstm.json``): the values of
    every seed, the summary (spread, and the band or claim with the seeds it fails for) and the
    printed report; ``config.machines`` names the machine of every seed."""
    if quick:
        raise SystemExit("error: --record refuses a --quick run (its numbers are not the chapters')")
    summary = {}
    for name, row in summarize(per_seed).items():
        summary[name] = {**spread(list(row["values"].values())),
                         **{k: row[k] for k in ("kind", "where", "recorded", "tol", "claim", "holds",
                                                "failing_seeds") if k in row}}
    machines = {str(s): info["extra"].get(s, {}).get("machine", "unknown") for s in sorted(per_seed)}
    config = {"steps": info.get("steps"), "ngram_settings": info.get("ngram_settings"),
              "budget_hidden_sizes": info.get("budget_hidden_sizes"), "seeds": sorted(per_seed),
              "machines": machines,
              "command": "python scripts/rnn_lstm_seeds.py --chapter {1,2} --seeds ... --out FILE; "
                         "--summarize FILE... --record book/results/seeds-rnn-lstm.json"}
    results = {"per_seed": {str(s): per_seed[s] for s in sorted(per_seed)}, "summary": summary,
               "ngram_bpc": info.get("ngram_bpc"), "report": report}
    return make_record("seeds-rnn-lstm", "seed-spread", config, results)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    ap.add_argument("--quick", action="store_true",
                    help="shrink every step count (plumbing check; numbers not comparable)")
    ap.add_argument("--out", default=None, help="write the numbers as JSON to this file "
                    "(rewritten after every seed, so a stopped run keeps its finished seeds)")
    ap.add_argument("--chapter", type=int, nargs="+", choices=(1, 2), default=[1, 2],
                    help="run only these chapters' experiments (default: both)")
    ap.add_argument("--summarize", nargs="+", metavar="JSON", default=None,
                    help="train nothing: print the report for the seeds saved in these --out "
                    "files, judged against the current QUANTITIES table")
    ap.add_argument("--record", default=None, metavar="PATH",
                    help="also write the book's record of the seeds to PATH "
                    "(e.g. book/results/seeds-rnn-lstm.json)")
    args = ap.parse_args(argv)
    if args.summarize:
        per_seed, quick, info = load_runs(args.summarize)
        known = {name for name, *_ in QUANTITIES}
        complete = {s: v for s, v in per_seed.items() if known <= set(v)}
        partial = sorted(set(per_seed) - set(complete))
        if partial:
            print(f"seeds {partial} lack some quantities; each quantity is summarised over the "
                  "seeds that have it")
        report = print_report(summarize(per_seed), sorted(per_seed), quick)
        if args.record:
            write_record(seed_record(per_seed, info, quick, report), args.record)
        return 0
    if any(s < 0 for s in args.seeds) or len(set(args.seeds)) != len(args.seeds):
        ap.error(f"--seeds must be distinct non-negative ints, got {args.seeds}")
    steps = STEPS["quick" if args.quick else "full"]
    if args.quick:
        log("QUICK RUN: numbers are not comparable with the recorded ones")
    set_determinism(args.seeds[0])
    start = time.perf_counter()
    ngram_bpc, ngram_picks = ngram_baselines(steps) if 1 in args.chapter else ({}, {})
    hidden = budget_hidden_sizes()
    log(f"n-gram baselines and budgets ({time.perf_counter() - start:.0f} s): "
        + ", ".join(f"{n}-gram {b:.4f}" for n, b in ngram_bpc.items()) + f"; hidden sizes {hidden}")
    per_seed, extras = {}, {}

    def write(complete: bool) -> None:
        if not args.out:
            return
        payload = {"quick": args.quick, "complete": complete, "seeds": sorted(per_seed),
                   "chapters": sorted(args.chapter), "steps": steps, "ngram_settings": ngram_picks,
                   "ngram_bpc": ngram_bpc, "budget_hidden_sizes": hidden,
                   "versions": {"torch": torch.__version__, "python": sys.version.split()[0]},
                   "per_seed": per_seed, "extra": extras,
                   "summary": summarize(per_seed) if per_seed else {}}
        Path(args.out).write_text(json.dumps(payload, indent=2) + "\n")

    for seed in args.seeds:
        per_seed[seed], extras[seed] = run_seed(seed, steps, ngram_bpc, hidden, tuple(args.chapter))
        write(complete=False)
    write(complete=True)
    report = print_report(summarize(per_seed), args.seeds, args.quick)
    if args.record:
        info = {"extra": extras, "steps": steps, "ngram_settings": ngram_picks, "ngram_bpc": ngram_bpc,
                "budget_hidden_sizes": hidden}
        write_record(seed_record(per_seed, info, args.quick, report), args.record)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
