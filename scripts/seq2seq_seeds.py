"""The spread over seeds of chapter 3's training results (book/03_seq2seq.ipynb).

The chapter trains each variant of the LSTM encoder-decoder once (seed 0) and compares its
numbers with recorded values through ``companion.repro.check``; the tolerances of those checks
come from this script, which repeats the chapter's experiment -- the same corpus, vocabularies,
models, training steps and decoding -- under several seeds and prints, for every number, its
value per seed, the mean, the standard deviation and the largest distance from seed 0.

    .venv/bin/python scripts/seq2seq_seeds.py --seeds 0 1 2            # ~15 min on one core
    .venv/bin/python scripts/seq2seq_seeds.py --seeds 0 1 2 --json spread.json

Keep ``SETTINGS`` and :func:`run_seed` in step with the chapter's cells.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import torch

from companion.data.batching import encode_pairs, make_loader
from companion.data.kosynth import write_corpus
from companion.data.parallel import load_split
from companion.data.vocab import train_vocabs
from companion.decoding.ensemble import Ensemble
from companion.evaluation.metrics import corpus_bleu
from companion.decoding.corpus import translate_corpus
from companion.models.seq2seq import Seq2Seq
from companion.repro import set_determinism
from companion.training.trainer import Trainer, evaluate_loss

#: what the chapter uses (keep in step with book/03_seq2seq.ipynb)
SETTINGS = dict(
    corpus_size=40000, corpus_seed=0, max_words=10, src_vocab_size=2000, tgt_vocab_size=800,
    max_len=60, max_tokens=1500, valid_sentences=500, test_sentences=500,
    embed_dim=64, hidden_size=128, num_layers=1, dropout=0.1,
    lr=0.008, max_steps=1200, eval_every=100, clip_norm=5.0, beam_size=5,
)


def short(pairs, max_words: int, n: int | None = None):
    """Pairs whose English side has at most ``max_words`` words (the first ``n`` of them)."""
    kept = [p for p in pairs if len(p[1].split()) <= max_words]
    return kept[:n] if n else kept


def prepare(work: Path, s: dict = SETTINGS):
    """Corpus, vocabularies and data (seed-independent: the corpus seed is fixed)."""
    write_corpus(work / "data", size=s["corpus_size"], seed=s["corpus_seed"])
    train = short(load_split(work / "data", "train", "ko", "en"), s["max_words"])
    valid = short(load_split(work / "data", "valid", "ko", "en"), s["max_words"], s["valid_sentences"])
    test = short(load_split(work / "data", "test", "ko", "en"), s["max_words"], s["test_sentences"])
    src_vocab, tgt_vocab = train_vocabs(train, s["src_vocab_size"], s["tgt_vocab_size"], seed=0,
                                        hard_vocab_limit=False)
    return train, valid, test, src_vocab, tgt_vocab


def run_seed(seed: int, data, s: dict = SETTINGS) -> dict:
    """Train both variants with ``seed``; return validation perplexities and test BLEU."""
    train, valid, test, src_vocab, tgt_vocab = data
    train_examples = encode_pairs(train, src_vocab, tgt_vocab, max_len=s["max_len"])
    valid_loader = make_loader(encode_pairs(valid, src_vocab, tgt_vocab), s["max_tokens"], shuffle=False)
    refs = [e for _, e in test]
    out, models = {}, {}
    for name, reverse in (("forward", False), ("reversed", True)):
        set_determinism(seed)
        model = Seq2Seq(len(src_vocab), len(tgt_vocab), embed_dim=s["embed_dim"],
                        hidden_size=s["hidden_size"], num_layers=s["num_layers"],
                        dropout=s["dropout"], reverse_source=reverse)
        loader = make_loader(train_examples, s["max_tokens"], shuffle=True, seed=seed)
        t0 = time.process_time()
        Trainer(model, loader, valid_loader, preset="adam", lr=s["lr"], max_steps=s["max_steps"],
                eval_every=s["eval_every"], clip_norm=s["clip_norm"], progress=False).fit()
        seconds = time.process_time() - t0
        models[name] = model.eval()
        ppl = evaluate_loss(model, valid_loader)[1]
        hyps = translate_corpus(model, src_vocab, tgt_vocab, [k for k, _ in test], beam_size=s["beam_size"])
        out[f"valid_ppl_{name}"] = ppl
        out[f"test_bleu_{name}"] = corpus_bleu(hyps, refs).score
        out[f"train_seconds_{name}"] = seconds
        print(f"seed {seed} {name}: valid ppl {ppl:.3f}, test BLEU {out[f'test_bleu_{name}']:.2f}, "
              f"{seconds:.0f} s CPU", file=sys.stderr, flush=True)
    ensemble = Ensemble([models["forward"], models["reversed"]])
    hyps = translate_corpus(ensemble, src_vocab, tgt_vocab, [k for k, _ in test], beam_size=s["beam_size"])
    out["test_bleu_ensemble"] = corpus_bleu(hyps, refs).score
    out["ensemble_gain_over_best"] = out["test_bleu_ensemble"] - max(out["test_bleu_forward"],
                                                                     out["test_bleu_reversed"])
    out["bleu_gain_reversed"] = out["test_bleu_reversed"] - out["test_bleu_forward"]
    out["ppl_gain_reversed"] = out["valid_ppl_forward"] - out["valid_ppl_reversed"]
    return out


#: ``--quick``: the same plumbing in seconds (for tests; the numbers mean nothing)
QUICK = dict(corpus_size=600, max_words=12, src_vocab_size=1000, tgt_vocab_size=200,
             valid_sentences=10, test_sentences=10, max_steps=4, eval_every=2)


def summarize(per_seed: dict[int, dict]) -> dict[str, dict]:
    seeds = sorted(per_seed)
    keys = [k for k in per_seed[seeds[0]] if not k.startswith("train_seconds")]
    summary = {}
    for key in keys:
        values = [per_seed[s][key] for s in seeds]
        ref = per_seed[seeds[0]][key]
        summary[key] = {
            "values": values,
            "mean": statistics.fmean(values),
            "std": statistics.stdev(values) if len(values) > 1 else 0.0,
            "max_dist_from_first": max(abs(v - ref) for v in values),
        }
    return summary


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    ap.add_argument("--json", default=None, help="also write the numbers to this file")
    ap.add_argument("--quick", action="store_true", help="tiny corpus and 4 steps: checks the plumbing only")
    args = ap.parse_args(argv)
    settings = {**SETTINGS, **(QUICK if args.quick else {})}
    with tempfile.TemporaryDirectory() as tmp:
        data = prepare(Path(tmp), settings)
        per_seed = {seed: run_seed(seed, data, settings) for seed in args.seeds}
    summary = summarize(per_seed)
    print(f"seeds: {args.seeds}")
    for key, row in summary.items():
        vals = ", ".join(f"{v:.3f}" for v in row["values"])
        print(f"{key:22s} [{vals}]  mean {row['mean']:.3f}  std {row['std']:.3f}  "
              f"max |x - seed{args.seeds[0]}| {row['max_dist_from_first']:.3f}")
    if args.json:
        Path(args.json).write_text(json.dumps({"settings": settings, "per_seed": per_seed,
                                               "summary": summary}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    torch.set_num_threads(1)
    raise SystemExit(main())
