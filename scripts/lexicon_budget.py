"""What a fixed CPU budget buys as the lexicon grows: the corpus chapter's figure.

Trains chapter 3's model (recipe ``seq2seq``: one 128-cell LSTM layer each way, 1800 Adam steps,
sentences of at most 10 English words -- about a minute and a half of one CPU thread) on corpora
that differ only in the number of lemmas per lexical list, everything else as in the book's regime
(100,000 pairs, 4 x 4 names, up to three clauses, the same vocabulary sizes), and records test
BLEU, exact matches and the corpus's vocabulary in ``book/results/lexicon-budget.json``.

    .venv/bin/python scripts/lexicon_budget.py                    # ~15 min on one thread
    .venv/bin/python scripts/lexicon_budget.py --quick --out /tmp/lex.json
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

from companion.data.kosynth import level_from_name  # noqa: E402
from companion.experiments import regime as R  # noqa: E402
from companion.experiments import scoring as S  # noqa: E402
from companion.experiments.records import make_record, python_command, write_record  # noqa: E402

LEMMAS = (3, 6, 12, 25, 50, None)


def corpus_stats(data: R.BookData) -> dict:
    train = data.splits["train"]
    return {"english_words": len({w.strip(".,?!").lower() for p in train for w in p.en.split()}),
            "korean_eojeols": len({w for p in train for w in p.ko.split()}),
            "lemmas_used": len({lemma for p in train for lemma in p.lemmas}),
            "src_vocab": len(data.src_vocab), "tgt_vocab": len(data.tgt_vocab)}


def run_level(lemmas: int | None, base: R.Regime, spec: R.Recipe, seed: int) -> dict:
    level = level_from_name("small").with_knobs(lemmas_per_class=lemmas)
    data = R.book_data(dataclasses.replace(base, level=level))
    trained = R.train(spec, data, seed=seed)
    ev = S.evaluate(trained.model, data, data.held_out("test", spec.max_words))
    row = {"lemmas_per_class": lemmas, "level": level.name, **corpus_stats(data),
           "test_bleu": ev.bleu.score, "test_exact": ev.exact,
           "valid_ppl": trained.history.valid[-1]["valid_ppl"], "train_cpu_s": trained.cpu_seconds,
           "signature": ev.bleu.signature}
    R.book_data.cache_clear()  # one corpus in memory at a time
    return row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=None, help="write here instead of book/results/")
    ap.add_argument("--quick", action="store_true", help="tiny corpora and 4 steps: plumbing only")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    torch.set_num_threads(1)
    base, spec, lemmas = R.REGIME, R.recipe("seq2seq"), LEMMAS
    if args.quick:
        base = dataclasses.replace(base, size=1500, valid_sentences=40, test_sentences=40, challenge_size=5)
        spec, lemmas = spec.with_train(max_steps=4, eval_every=2), (3, None)
    rows = []
    for n in lemmas:
        start = time.perf_counter()
        rows.append(run_level(n, base, spec, args.seed))
        r = rows[-1]
        print(f"lemmas/list {n or 'all'}: {r['english_words']} English words, test BLEU "
              f"{r['test_bleu']:.1f}, exact {100 * r['test_exact']:.1f}% "
              f"({r['train_cpu_s']:.0f} s CPU, {time.perf_counter() - start:.0f} s wall)", flush=True)
    config = {"regime": dataclasses.asdict(base), "recipe": dataclasses.asdict(spec), "seed": args.seed,
              "lemmas_per_class": list(lemmas), "decoding": dataclasses.asdict(R.DECODING),
              "command": python_command()}
    config["regime"]["level"] = "small, with lemmas_per_class varied"
    record = make_record("lexicon-budget", "lexicon-vs-budget", config, {"levels": rows})
    print("wrote", write_record(record, args.out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
