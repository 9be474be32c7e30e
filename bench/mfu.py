"""Benchmark: the book's models' training throughput as a fraction of this CPU's matmul speed.

1. The machine: float32 FLOP/s of a square ``--matmul-n`` matmul on one thread (best of
   several, CPU time): the denominator of MFU.
2. Each model family of the translation chapters (seq2seq, rnnsearch, rnnencdec, transformer)
   with its recipe from :data:`companion.experiments.regime.RECIPES` (model sizes, optimiser
   preset, learning rate, gradient clipping, label smoothing, sentence length cap, batch size in
   tokens). A family not yet in ``RECIPES`` is built with its constructor's defaults and trained
   with :class:`~companion.config.TrainConfig`'s defaults on the regime's full length range; the
   output says which (``<family>_source=recipe:NAME`` or ``=defaults``). Every family trains on
   the same kind of batches: length-bucketed batches of the book's corpus
   (:func:`~companion.experiments.regime.book_data`), the first ``--steps`` of an epoch.

   FLOPs are counted with :class:`torch.utils.flop_counter.FlopCounterMode` over the same
   batches, forward and backward (the optimiser's element-wise updates are not counted), in a
   pass of their own; then the same batches are trained for real (forward, loss, backward,
   clipping, optimiser step), timed with CPU time. Two CPU kernels the counter does not know
   are made visible to it: the counting pass turns oneDNN off, so ``nn.LSTM`` runs as plain
   matmuls instead of ``mkldnn_rnn_layer`` (same arithmetic), and the CPU flash-attention kernel
   of ``scaled_dot_product_attention`` is counted as the two products it computes (backward:
   twice that, as for the unfused path -- model FLOPs, without the kernel's recomputation).

Prints ``key=value`` lines: ``matmul_flops_per_s``, and per family ``book_train_tokens_per_s_F``
(target tokens per CPU second), ``book_train_flops_per_s_F`` and ``mfu_F`` (their ratio to the
matmul figure).

    .venv/bin/python bench/mfu.py                 # about a minute on one thread
    .venv/bin/python bench/mfu.py --quick         # seconds: tiny corpus, 2 steps
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import time
import warnings

import torch
from torch.utils import flop_counter
from torch.utils.flop_counter import FlopCounterMode

from companion.config import TrainConfig
from companion.experiments.regime import RECIPES, REGIME, book_data
from companion.models import build_model
from companion.repro import set_determinism
from companion.training.optim import make_optimizer
from companion.training.trainer import sequence_loss

#: the model families of the translation chapters, in chapter order
FAMILIES = ("seq2seq", "rnnsearch", "rnnencdec", "transformer")

_aten = torch.ops.aten


# FlopCounterMode passes shapes to custom formulas (it wraps them itself)
def _cpu_flash_flop(query_shape, key_shape, value_shape, *args, out_shape=None, **kwargs) -> int:
    return flop_counter.sdpa_flop_count(query_shape, key_shape, value_shape)


def _cpu_flash_backward_flop(grad_out_shape, query_shape, key_shape, value_shape, *args,
                             out_shape=None, **kwargs) -> int:
    # model FLOPs: the gradients of the two products, twice the forward; the kernel's
    # recomputation of the scores (which torch's own flash formula adds) is not counted
    return 2 * flop_counter.sdpa_flop_count(query_shape, key_shape, value_shape)


#: kernels :class:`FlopCounterMode` has no formula for on a CPU
CPU_FLOP_FORMULAS = {
    _aten._scaled_dot_product_flash_attention_for_cpu: _cpu_flash_flop,
    _aten._scaled_dot_product_flash_attention_for_cpu_backward: _cpu_flash_backward_flop,
}


def count_flops(fn) -> int:
    """FLOPs of the matmuls, convolutions and attention that ``fn()`` runs, oneDNN off (so
    ``nn.LSTM`` decomposes into counted matmuls) and CPU flash attention counted."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # oneDNN's TF32 notice when toggled
        with torch.backends.mkldnn.flags(enabled=False):
            with FlopCounterMode(display=False, custom_mapping=CPU_FLOP_FORMULAS) as counter:
                fn()
    return counter.get_total_flops()


def matmul_flops_per_s(n: int, repeat: int = 5) -> float:
    """float32 FLOP/s of an ``n x n`` matmul on this process's threads (best of ``repeat``
    CPU-timed rounds of three products)."""
    g = torch.Generator().manual_seed(0)
    a = torch.randn(n, n, generator=g)
    b = torch.randn(n, n, generator=g)
    a @ b  # warm-up
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        for _ in range(3):
            a @ b
        best = min(best, (time.process_time() - t0) / 3)
    return 2 * n**3 / best


def family_spec(family: str):
    """(model config, TrainConfig, max_words, max_tokens, source) for ``family``: its recipe if
    :data:`RECIPES` has one (by family name, else the first recipe building that model), else
    the constructor's and TrainConfig's defaults on the whole length range."""
    name = family if family in RECIPES else next(
        (k for k in sorted(RECIPES) if RECIPES[k].model.get("name") == family), None)
    if name is None:
        return {"name": family}, TrainConfig(), None, None, "defaults"
    rec = RECIPES[name]
    return dict(rec.model), TrainConfig(**rec.train), rec.max_words, rec.max_tokens, f"recipe:{name}"


def bench_family(family: str, data, steps: int) -> dict:
    model_cfg, train, max_words, max_tokens, source = family_spec(family)
    loader = data.loader(data.pairs("train", max_words), shuffle=True, seed=0, max_tokens=max_tokens)
    batches = list(itertools.islice(iter(loader), steps + 1))
    if len(batches) < 2:
        raise SystemExit(f"mfu: {family}: the corpus gives fewer than 2 batches; use a larger --corpus-size")
    torch.manual_seed(0)
    model = build_model(dict(model_cfg), len(data.src_vocab), len(data.tgt_vocab)).train()
    optimizer = make_optimizer(model.parameters(), train.preset, train.lr)

    def forward_backward(batch) -> torch.Tensor:
        loss = sequence_loss(model(batch), batch.tgt_out, train.label_smoothing) / batch.ntokens
        loss.backward()
        return loss

    def step(batch) -> None:
        optimizer.zero_grad(set_to_none=True)
        forward_backward(batch)
        if train.clip_norm:
            torch.nn.utils.clip_grad_norm_(model.parameters(), train.clip_norm)
        optimizer.step()

    step(batches[0])  # warm-up: allocations, first-call costs
    timed = batches[1:]
    flops = 0
    for batch in timed:  # counted apart: the counter's bookkeeping must not be timed
        optimizer.zero_grad(set_to_none=True)
        flops += count_flops(lambda: forward_backward(batch))
    optimizer.zero_grad(set_to_none=True)
    seconds = 0.0
    for batch in timed:
        t0 = time.process_time()
        step(batch)
        seconds += time.process_time() - t0
    tokens = sum(int(b.ntokens) for b in timed)
    return {"source": source, "parameters": sum(p.numel() for p in model.parameters()),
            "steps": len(timed), "target_tokens": tokens,
            "mean_batch_rows": sum(b.src.shape[0] for b in timed) / len(timed),
            "flops_per_step": flops / len(timed),
            "train_tokens_per_s": tokens / seconds, "train_flops_per_s": flops / seconds}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=20, help="timed training steps per family")
    ap.add_argument("--matmul-n", type=int, default=2048, help="side of the square matmul")
    ap.add_argument("--corpus-size", type=int, default=None,
                    help="pairs of the book's corpus to batch (default: the regime's)")
    ap.add_argument("--families", nargs="+", default=list(FAMILIES), choices=FAMILIES)
    ap.add_argument("--quick", action="store_true", help="tiny sizes: checks the plumbing")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args(argv)
    if args.quick:
        args.steps, args.matmul_n = min(args.steps, 2), min(args.matmul_n, 256)
        args.corpus_size = args.corpus_size or 1500
    set_determinism(0, threads=args.threads)

    peak = matmul_flops_per_s(args.matmul_n)
    print(f"threads={torch.get_num_threads()}")
    print(f"matmul_n={args.matmul_n}")
    print(f"matmul_flops_per_s={peak:.4g}")
    regime = REGIME if args.corpus_size is None else dataclasses.replace(
        REGIME, size=args.corpus_size, valid_sentences=min(REGIME.valid_sentences, args.corpus_size // 20),
        test_sentences=min(REGIME.test_sentences, args.corpus_size // 20),
        challenge_size=min(REGIME.challenge_size, 20 if args.quick else REGIME.challenge_size))
    data = book_data(regime)
    print(f"corpus_pairs={regime.size}")
    print(f"src_vocab={len(data.src_vocab)}")
    print(f"tgt_vocab={len(data.tgt_vocab)}")
    for family in args.families:
        row = bench_family(family, data, args.steps)
        print(f"{family}_source={row['source']}")
        print(f"{family}_parameters={row['parameters']}")
        print(f"{family}_timed_steps={row['steps']}")
        print(f"{family}_mean_batch_rows={row['mean_batch_rows']:.1f}")
        print(f"{family}_flops_per_step={row['flops_per_step']:.4g}")
        print(f"book_train_tokens_per_s_{family}={row['train_tokens_per_s']:.0f}")
        print(f"book_train_flops_per_s_{family}={row['train_flops_per_s']:.4g}")
        print(f"mfu_{family}={row['train_flops_per_s'] / peak:.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
