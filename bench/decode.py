"""Benchmark: batched beam search against one sentence at a time.

Beam search of width 5 over ``--sentences`` source sentences, first with every sentence and
beam of a batch decoded together (:func:`companion.decoding.beam_search` on batches of
``--batch-size`` sentences), then one sentence at a time with the same model and options. It
prints both times, their ratio as ``beam_batched_speedup`` (the goal is >= 10), and checks
that both give the same outputs.

The model is a small :class:`~companion.models.seq2seq.Seq2Seq` trained for ``--train-steps``
Adam steps on the generated Korean-English corpus (so that its outputs end with EOS at
realistic lengths); only with ``--train-steps 0`` does an untrained model decode random token
sequences instead. A failure anywhere (the corpus, the vocabularies, training) stops the
benchmark with its error: it never measures something other than what it says.

    .venv/bin/python bench/decode.py                    # about 4 minutes on one core
    .venv/bin/python bench/decode.py --sentences 200    # quicker
"""

from __future__ import annotations

import argparse
import random
import time

import torch

from companion.data.batching import encode_pairs, make_loader, source_ids
from companion.data.kosynth import generate_pairs
from companion.data.vocab import train_vocabs
from companion.decoding.search import beam_search
from companion.models.seq2seq import Seq2Seq
from companion.repro import set_determinism
from companion.specials import EOS, PAD
from companion.training.trainer import Trainer


def corpus_sources(n: int, train_steps: int, seed: int, vocab_size: int):
    """(model, list of source id lists): a model trained on kosynth, or, with ``train_steps=0``,
    an untrained one and random sources."""
    if train_steps == 0:
        rng = random.Random(seed)
        model = Seq2Seq(vocab_size, vocab_size, embed_dim=64, hidden_size=128, num_layers=1)
        sources = [[rng.randrange(4, vocab_size) for _ in range(rng.randint(4, 40))] + [EOS] for _ in range(n)]
        return model, sources
    pairs = [(p.ko, p.en) for p in generate_pairs(4000 + n, seed)]
    train, test = pairs[:4000], pairs[4000:]
    # Korean has 800-odd distinct syllables: its vocabulary needs more room than English's
    src_vocab, tgt_vocab = train_vocabs(train, max(vocab_size, 2000), vocab_size, seed=seed,
                                        hard_vocab_limit=False)
    examples = encode_pairs(train, src_vocab, tgt_vocab, max_len=80)
    loader = make_loader(examples, max_tokens=2000, shuffle=True, seed=seed)
    model = Seq2Seq(len(src_vocab), len(tgt_vocab), embed_dim=64, hidden_size=128, num_layers=1)
    Trainer(model, loader, None, preset="adam", lr=3e-3, max_steps=train_steps,
            eval_every=0, progress=False, seed=seed).fit()
    return model, [source_ids(src_vocab, ko) for ko, _ in test]


def pad(rows):
    src = torch.full((len(rows), max(map(len, rows))), PAD, dtype=torch.long)
    for i, r in enumerate(rows):
        src[i, : len(r)] = torch.tensor(r)
    return src, torch.tensor([len(r) for r in rows])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sentences", type=int, default=1000)
    ap.add_argument("--beam-size", type=int, default=5)
    ap.add_argument("--batch-size", type=int, default=250, help="sentences per batch (batched run)")
    ap.add_argument("--train-steps", type=int, default=300)
    ap.add_argument("--vocab-size", type=int, default=800)
    ap.add_argument("--dtype", choices=["float32", "float64"], default="float32",
                    help="float64 makes exact equality of outputs more robust to rounding")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    set_determinism(args.seed, threads=args.threads)

    t0 = time.perf_counter()
    model, sources = corpus_sources(args.sentences, args.train_steps, args.seed, args.vocab_size)
    model = model.to(getattr(torch, args.dtype)).eval()
    print(f"# model ready in {time.perf_counter() - t0:.1f} s; {len(sources)} sentences, "
          f"mean source length {sum(map(len, sources)) / len(sources):.1f} tokens")
    opts = dict(beam_size=args.beam_size, length_penalty=0.0)

    # batched: length-sorted batches, every sentence and beam of a batch at once
    order = sorted(range(len(sources)), key=lambda i: len(sources[i]))
    batched = [None] * len(sources)
    t0 = time.perf_counter()
    for start in range(0, len(order), args.batch_size):
        ids = order[start : start + args.batch_size]
        src, lengths = pad([sources[i] for i in ids])
        for i, hyps in zip(ids, beam_search(model, src, lengths, **opts)):
            batched[i] = hyps[0]
    t_batched = time.perf_counter() - t0

    # one sentence at a time, same model and options
    single = []
    t0 = time.perf_counter()
    for s in sources:
        src, lengths = pad([s])
        single.append(beam_search(model, src, lengths, **opts)[0][0])
    t_single = time.perf_counter() - t0

    same = sum(a.tokens == b.tokens for a, b in zip(batched, single))
    ties = sum(a.tokens != b.tokens and abs(a.score - b.score) < 1e-9 for a, b in zip(batched, single))
    mean_len = sum(len(h.tokens) for h in batched) / len(batched)
    print(f"beam_one_by_one_s={t_single:.2f}")
    print(f"beam_batched_s={t_batched:.2f}")
    print(f"mean_output_tokens={mean_len:.1f}")
    print(f"identical_outputs={same}/{len(sources)}" + (f" (other {ties} are exact score ties)" if ties else ""))
    print(f"beam_batched_sentences_per_s={len(sources) / t_batched:.1f}")
    print(f"beam_one_by_one_sentences_per_s={len(sources) / t_single:.1f}")
    print(f"beam_batched_speedup={t_single / t_batched:.1f}")
    return 0 if same + ties == len(sources) else 1


if __name__ == "__main__":
    raise SystemExit(main())
