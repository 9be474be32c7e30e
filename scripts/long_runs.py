"""Long runs: every model family of the book trained on the FULL-lexicon corpus, for as long as
validation keeps improving or until a CPU budget is spent, each recorded as
``book/results/long-<family>.json`` (what ``make results`` runs; the results chapter reads them).

The chapters train for a minute or two on the ``small`` level; this is what the same code does
with real compute on the benchmark the generator was built to be: the whole lexicon (1557 lemmas,
hundreds of names), sentences of up to 80 English words, 200,000 pairs.

    .venv/bin/python scripts/long_runs.py                       # all families, 30 CPU-min each (make results: 1000 CPU-s)
    .venv/bin/python scripts/long_runs.py transformer --cpu-budget 600
    .venv/bin/python scripts/long_runs.py seq2seq --quick --out-dir /tmp/long   # plumbing only

Budget: CPU time of this process (``time.process_time``, all its threads), so a run does the same
work whether or not the machine is busy; with 2 threads, 30 CPU-minutes take about 15 minutes of
wall time on an idle 2-core machine. Training proceeds in chunks of ``--chunk`` steps with a
validation after each; it stops after ``--patience`` chunks without a better validation
perplexity, or when the budget is spent, and the best-validation weights are evaluated with the
book's decoding setting (``regime.DECODING``).

A CPU budget ends a run at a machine-dependent step. To repeat a recorded run step for step on
another machine, pass its ``steps`` as ``--max-steps`` (with a budget that does not bind):

    .venv/bin/python scripts/long_runs.py rnnsearch --max-steps 2600 --cpu-budget 1e9 --chunk 200 --threads 1
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.evaluation.alignment import evaluate_alignment  # noqa: E402
from companion.evaluation.challenge import challenge_accuracy  # noqa: E402
from companion.experiments import regime as R  # noqa: E402
from companion.experiments import scoring as S  # noqa: E402
from companion.experiments.records import make_record, python_command, write_record  # noqa: E402
from companion.models import build_model  # noqa: E402
from companion.repro import set_determinism  # noqa: E402
from companion.training import Trainer  # noqa: E402

LONG_REGIME = R.LONG_REGIME  # the full-lexicon corpus of the long runs

#: one model per family, a few times the chapters' size: sized so that the budget covers a few
#: epochs of the full corpus on a CPU (about 10-20 MFLOP per token, forward and backward)
LONG_MODELS = {
    "seq2seq": ({"name": "seq2seq", "embed_dim": 128, "hidden_size": 256, "num_layers": 1,
                 "dropout": 0.1, "reverse_source": False}, {"preset": "adam", "lr": 0.003}),
    "seq2seq_reversed": ({"name": "seq2seq", "embed_dim": 128, "hidden_size": 256, "num_layers": 1,
                          "dropout": 0.1, "reverse_source": True}, {"preset": "adam", "lr": 0.003}),
    "rnnencdec": ({"name": "rnnencdec", "embed_dim": 128, "hidden_size": 256, "maxout_dim": 128,
                   "dropout": 0.1}, {"preset": "adam", "lr": 0.003}),
    "rnnsearch": ({"name": "rnnsearch", "embed_dim": 128, "hidden_size": 192, "attention_dim": 192,
                   "maxout_dim": 96, "dropout": 0.1}, {"preset": "adam", "lr": 0.003}),
    "transformer": ({"name": "transformer", "d_model": 192, "num_heads": 4, "num_encoder_layers": 3,
                     "num_decoder_layers": 3, "d_ff": 512, "dropout": 0.1, "pre_ln": True},
                    {"preset": "vaswani", "lr": 0.8, "warmup_steps": 500, "label_smoothing": 0.1}),
}
BUCKETS = (3, 11, 21, 31, 41, 81)


def train_with_budget(model, data, spec: dict, seed: int, cpu_budget: float, chunk: int,
                      patience: int, threads: int, max_steps: int | None = None) -> dict:
    """Chunks of ``chunk`` steps, a validation after each, early stopping
    (:func:`companion.experiments.regime.fit_until_plateau`); returns the curve and leaves the
    best-validation weights in ``model``."""
    loader = data.loader(data.pairs("train"), shuffle=True, seed=seed)
    valid = data.loader(data.held_out("valid"), shuffle=False)
    trainer = Trainer(model, loader, valid, progress=False, max_steps=chunk, eval_every=0,
                      log_every=max(1, chunk // 4), clip_norm=1.0 if spec["preset"] == "vaswani" else 5.0,
                      seed=seed, threads=threads, **spec)
    report = lambda p: print(f"  step {p['step']}: valid ppl {p['valid_ppl']:.3f} ({p['cpu_s']:.0f} CPU-s)",  # noqa: E731
                             flush=True)
    history, facts = R.fit_until_plateau(trainer, every=chunk, patience=patience, max_steps=max_steps,
                                         cpu_budget=cpu_budget, report=report)
    last = facts["curve"][-1]
    return {"curve": facts["curve"], "stopped_by": facts["stopped_by"], "steps": facts["steps"],
            "train_tokens": history.tokens, "train_cpu_s": last["cpu_s"], "train_wall_s": last["wall_s"],
            "best_valid_ppl": facts["best_valid_ppl"], "best_step": facts["best_step"]}


def evaluate_run(model, data, quick: bool) -> dict:
    model.eval()
    test = data.held_out("test")
    ev = S.evaluate(model, data, test)
    out = {"test_bleu": ev.bleu.score, "test_chrf": ev.chrf.score, "test_exact": ev.exact,
           "signature": ev.bleu.signature,
           "bleu_by_length": [[lo, hi, n, b] for (lo, hi), n, b in S.score(ev.pairs, ev.hyps, BUCKETS).by_length],
           "samples": [[p.ko, p.en, h] for p, h in list(zip(ev.pairs, ev.hyps))[:8]]}
    if callable(getattr(model, "step_attention", None)):
        scores = evaluate_alignment(model, test[: 50 if quick else 500], data.src_vocab, data.tgt_vocab)
        out["alignment"] = {k: {"aer": v.aer, "precision": v.precision, "recall": v.recall}
                            for k, v in scores.items()}
    out["challenges"] = {}
    for name in data.challenges:
        pairs = data.challenge(name)
        if pairs:
            cev = S.evaluate(model, data, pairs)
            out["challenges"][name] = challenge_accuracy(name, cev.hyps, cev.refs)
    return out


def run_family(family: str, data, args) -> Path:
    model_args, train_args = LONG_MODELS[family]
    set_determinism(args.seed, threads=args.threads)
    model = build_model(dict(model_args), len(data.src_vocab), len(data.tgt_vocab))
    params = sum(p.numel() for p in model.parameters())
    print(f"{family}: {params:,} parameters", flush=True)
    training = train_with_budget(model, data, train_args, args.seed, args.cpu_budget, args.chunk,
                                 args.patience, args.threads, args.max_steps)
    results = {"parameters": params, **training,
               "train_tokens_per_s": training["train_tokens"] / training["train_wall_s"],
               **evaluate_run(model, data, args.quick)}
    config = {"regime": dataclasses.asdict(data.regime), "model": model_args, "train": train_args,
              "seed": args.seed, "threads": args.threads, "cpu_budget_s": args.cpu_budget, "max_steps": args.max_steps,
              "chunk_steps": args.chunk, "patience": args.patience,
              "decoding": dataclasses.asdict(R.DECODING), "command": python_command()}
    record = make_record(f"long-{family}", "long-run", config, results)
    path = write_record(record, Path(args.out_dir) / f"long-{family}.json" if args.out_dir else None)
    print(f"{family}: test BLEU {results['test_bleu']:.2f} after {training['steps']} steps "
          f"({training['stopped_by']}); wrote {path}", flush=True)
    return path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("families", nargs="*", default=list(LONG_MODELS), help=f"of {', '.join(LONG_MODELS)}")
    ap.add_argument("--cpu-budget", type=float, default=1800, help="CPU seconds of training per family")
    ap.add_argument("--max-steps", type=int, default=None,
                    help="stop after this many steps (with a generous --cpu-budget: repeats a recorded run "
                         "step for step on another machine)")
    ap.add_argument("--chunk", type=int, default=500, help="steps between validations")
    ap.add_argument("--patience", type=int, default=3, help="chunks without improvement before stopping")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out-dir", default=None, help="write records here instead of book/results/")
    ap.add_argument("--quick", action="store_true", help="a tiny corpus and a few steps: plumbing only")
    args = ap.parse_args(argv)
    unknown = [f for f in args.families if f not in LONG_MODELS]
    if unknown:
        ap.error(f"unknown family {unknown[0]!r} (choose from {', '.join(LONG_MODELS)})")
    regime = LONG_REGIME
    if args.quick:
        regime = dataclasses.replace(regime, size=1500, src_vocab_size=1200, tgt_vocab_size=500,
                                     valid_sentences=30, test_sentences=30, challenge_size=5)
        args.cpu_budget, args.chunk, args.patience = 1, 2, 1
        for family in LONG_MODELS:  # tiny models
            LONG_MODELS[family][0].update({k: 16 for k in ("embed_dim", "hidden_size", "d_ff") if k in LONG_MODELS[family][0]})
            if "d_model" in LONG_MODELS[family][0]:
                LONG_MODELS[family][0].update(d_model=16, num_heads=2, num_encoder_layers=1, num_decoder_layers=1)
    data = R.book_data(regime)
    print(f"corpus: {data.summary()}", flush=True)
    for family in args.families:
        run_family(family, data, args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
