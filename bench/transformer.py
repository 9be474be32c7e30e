"""Benchmark: the Transformer's key/value cache, and its training speed against nn.Transformer.

1. Decoding. A book-size :class:`~companion.models.transformer.Transformer` (2 + 2 layers,
   d_model 128, 4 heads, FFN 512, 1,000-word vocabularies) translates ``--sentences`` random
   source sentences (10-40 tokens) in one batch, greedily and with beam 5, to outputs of exactly
   ``--out-len`` tokens: once with the cache (:meth:`Transformer.step`) and once with
   :class:`~companion.models.transformer.RecomputingDecoder`, which reruns the whole decoder over
   the prefix at every step. The model is untrained; the EOS row of its tied output layer is set
   to zero so that EOS never wins before the length limit. It prints both CPU times, their ratio
   ``kv_cache_speedup_{greedy,beam5}`` (goal >= 3) and checks that both give the same outputs.
   Beam 5 also runs as the search ran before issue 21
   (:class:`~companion.models.contract.EveryRowReorder` with ``keep_attention``): every row's
   copy of the cross-attention keys and values index-selected at every step, and the last
   layer's attention weights computed at every step. ``beam5_before_sentences_per_s`` and
   ``beam5_after_sentences_per_s`` are the best of ``--repeat`` alternating runs each, and
   ``beam5_speedup_over_before`` their ratio (goal >= 1.25); the outputs must be identical.
2. Training. The package Transformer and an equal-size model built on ``nn.Transformer``
   (:class:`~companion.experiments.tiny_transformer_run.NNTransformerTranslator`: same widths and parameter
   count, Pre-LN, tied output) train ``--train-steps`` Adam steps each on the same bucketed
   batches (``max_tokens`` 1500, so little padding) through :class:`~companion.training.Trainer`,
   taking turns in rounds. ``nn.Transformer`` has one dropout rate for the residuals, the
   attention weights and the FFN activations; ``train_tokens_per_s_ratio`` compares the package
   model with the same three dropouts (0.1), ``train_tokens_per_s_ratio_fused`` the package model
   with the paper's residual dropout only, which lets the fused attention kernel run (on CPU it
   has no dropout). Both are package / nn.Transformer tokens per CPU-second; goal >= 1.0.

Times are CPU times (``time.process_time``) on ``--threads`` threads (default 1), so other
processes on the machine inflate them less than wall time; ratios come from the same run.

    .venv/bin/python bench/transformer.py        # about 1-2 minutes on one thread
"""

from __future__ import annotations

import argparse
import random
import time

import torch

from companion.data.batching import make_loader
from companion.decoding.search import beam_search, greedy_search
from companion.experiments.tiny_transformer_run import NNTransformerTranslator
from companion.models.contract import EveryRowReorder
from companion.models.transformer import RecomputingDecoder, Transformer
from companion.repro import set_determinism
from companion.specials import EOS, PAD
from companion.training.trainer import Trainer

SIZES = dict(d_model=128, num_heads=4, num_encoder_layers=2, num_decoder_layers=2, d_ff=512)


def pad(rows):
    src = torch.full((len(rows), max(map(len, rows))), PAD, dtype=torch.long)
    for i, r in enumerate(rows):
        src[i, : len(r)] = torch.tensor(r)
    return src, torch.tensor([len(r) for r in rows])


def cpu_time(fn):
    t0 = time.process_time()
    out = fn()
    return out, time.process_time() - t0


def bench_decoding(args, rng: random.Random) -> bool:
    torch.manual_seed(args.seed)
    model = Transformer(args.vocab_size, args.vocab_size, dropout=0.0, **SIZES).eval()
    with torch.no_grad():
        model.tgt_embed.weight[EOS].zero_()  # EOS scores 0: never the best before the limit
    slow = RecomputingDecoder(model)
    sources = [[rng.randrange(4, args.vocab_size) for _ in range(rng.randint(10, 40))] + [EOS]
               for _ in range(args.sentences)]
    src, lengths = pad(sources)
    limit = dict(max_len_a=0.0, max_len_b=args.out_len)
    ok = True
    searches = {
        "greedy": lambda m: [h.tokens for h in greedy_search(m, src, lengths, **limit)],
        "beam5": lambda m: [hs[0].tokens for hs in beam_search(m, src, lengths, beam_size=5, **limit)],
    }
    for name, search in searches.items():
        cached, t_cached = cpu_time(lambda: search(model))
        recomputed, t_recomputed = cpu_time(lambda: search(slow))
        same = sum(a == b for a, b in zip(cached, recomputed))
        ok &= same == len(sources)
        print(f"{name}_output_tokens={sum(map(len, cached)) / len(cached):.1f}")
        print(f"{name}_cached_s={t_cached:.2f}")
        print(f"{name}_recomputed_s={t_recomputed:.2f}")
        print(f"{name}_identical_outputs={same}/{len(sources)}")
        print(f"{name}_cached_sentences_per_s={len(sources) / t_cached:.2f}")
        print(f"{name}_recomputed_sentences_per_s={len(sources) / t_recomputed:.2f}")
        print(f"kv_cache_speedup_{name}={t_recomputed / t_cached:.1f}")

    # beam 5 before and after sharing the source's keys and values per sentence
    runs = {"before": EveryRowReorder(model, keep_attention=True), "after": model}
    best = {k: float("inf") for k in runs}
    outputs = {}
    for _ in range(args.repeat):  # alternating, so both see the same load from other processes
        for key, m in runs.items():
            outputs[key], dt = cpu_time(lambda: searches["beam5"](m))
            best[key] = min(best[key], dt)
    same = sum(a == b for a, b in zip(outputs["before"], outputs["after"]))
    ok &= same == len(sources)
    print(f"beam5_before_after_identical_outputs={same}/{len(sources)}")
    for key in runs:
        print(f"beam5_{key}_sentences_per_s={len(sources) / best[key]:.2f}")
    print(f"beam5_speedup_over_before={best['before'] / best['after']:.2f}")
    return ok


def bench_training(args, rng: random.Random) -> None:
    examples = []
    for _ in range(args.train_sentences):
        n = rng.randint(5, 40)
        src = [rng.randrange(4, args.vocab_size) for _ in range(n)] + [EOS]
        tgt = [rng.randrange(4, args.vocab_size) for _ in range(max(1, n + rng.randint(-4, 4)))]
        examples.append((src, tgt))
    torch.manual_seed(args.seed)
    models = {  # equal sizes; dropout 0.1 on the residuals (and embeddings) of all three
        "nn_transformer": NNTransformerTranslator(args.vocab_size, args.vocab_size, dropout=0.1, pre_ln=True,
                                                  max_len=64, **SIZES),
        # nn.Transformer's one dropout also acts on the attention weights and the FFN activations
        "package": Transformer(args.vocab_size, args.vocab_size, dropout=0.1, attention_dropout=0.1,
                               activation_dropout=0.1, pre_ln=True, **SIZES),
        # the paper's placement (residual dropout only): the fused attention kernel runs
        "package_fused": Transformer(args.vocab_size, args.vocab_size, dropout=0.1, pre_ln=True, **SIZES),
    }
    n_params = {k: sum(p.numel() for p in m.parameters()) for k, m in models.items()}
    assert len(set(n_params.values())) == 1, n_params
    print(f"train_parameters={n_params['package']}")
    # one loader each, same seed: the same batches in the same order for every model
    trainers = {k: Trainer(m, make_loader(examples, max_tokens=1500, shuffle=True, seed=args.seed), None,
                           preset="adam", lr=1e-3, max_steps=args.round_steps, eval_every=0, progress=False)
                for k, m in models.items()}
    tokens = {k: 0 for k in models}
    seconds = {k: 0.0 for k in models}
    rounds = max(1, args.train_steps // args.round_steps)
    keys = list(trainers)
    for r in range(rounds):
        for key in keys[r % len(keys):] + keys[: r % len(keys)]:  # rotate who goes first
            trainer = trainers[key]
            trainer.cfg.max_steps = (r + 1) * args.round_steps
            before = trainer.history.tokens
            _, dt = cpu_time(trainer.fit)
            tokens[key] += trainer.history.tokens - before
            seconds[key] += dt
    speed = {k: tokens[k] / seconds[k] for k in models}
    print(f"train_steps_each={rounds * args.round_steps}")
    for key in models:
        print(f"train_tokens_per_s_{key}={speed[key]:.0f}")
    print(f"train_tokens_per_s_ratio={speed['package'] / speed['nn_transformer']:.2f}")
    print(f"train_tokens_per_s_ratio_fused={speed['package_fused'] / speed['nn_transformer']:.2f}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sentences", type=int, default=32, help="sentences decoded in one batch")
    ap.add_argument("--out-len", type=int, default=64, help="tokens per output, EOS included")
    ap.add_argument("--vocab-size", type=int, default=1000)
    ap.add_argument("--train-steps", type=int, default=40, help="training steps per model")
    ap.add_argument("--round-steps", type=int, default=10, help="steps per model before switching")
    ap.add_argument("--train-sentences", type=int, default=2000)
    ap.add_argument("--skip", choices=["decoding", "training"], default=None)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=5, help="alternating beam-5 runs before/after (best of)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    set_determinism(args.seed, threads=args.threads)
    rng = random.Random(args.seed)
    ok = True
    if args.skip != "decoding":
        ok = bench_decoding(args, rng)
    if args.skip != "training":
        bench_training(args, rng)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
