"""Benchmark: learning per update and per CPU-second, the package Transformer against an
nn.Transformer reference, on issue 22's reversal task.

Both models are trained in the same process, one after the other, by the same minimal PyTorch
loop (:func:`companion.experiments.convergence.plain_loop`) on the same batches: the task of
:class:`~companion.experiments.convergence.ReversalTask` (reverse a sentence of 5-40 random
words out of 2,000, renamed), at a reduced size that shows the plateau and its escape in a few
CPU-minutes (2 + 2 layers, d_model 128, FFN 512, 4 heads, Pre-LN, tied output; 2,048-token
batches; Adam 0.9/0.98, the inverse-square-root rate peaking at 5e-4 after 400 updates,
clipping 1.0, label smoothing 0.1). The reference is
:class:`~companion.experiments.tiny_transformer_run.NNTransformerTranslator` with the package's
embedding initialisation, so the two differ only in their implementation of the layers. A third
run trains the package model on packed mixed-length batches (``data.batching: packed``, the
budget counting real tokens) instead of length buckets: the batching the package offers for what
issue 22 found (``convergence_*_packed``, against the package on buckets).

Each run stops at the first evaluation (every ``--eval-every`` updates, on the first 500 dev
sentences) where the dev perplexity is at most ``--target-ppl``, or at ``--max-steps``. Prints
``key=value`` lines: updates and training CPU-seconds to the target for each model and their
ratios (package / reference: below 1 means the package gets there sooner)::

    .venv/bin/python bench/convergence.py            # about 8-12 CPU-minutes
    .venv/bin/python bench/convergence.py --quick    # a tiny task: plumbing only
"""

from __future__ import annotations

import argparse

import torch

from companion.experiments import convergence as C

REDUCED = C.Recipe(d_model=128, num_layers=2, d_ff=512, max_tokens=2048)
QUICK_TASK = C.ReversalTask(words=40, min_len=2, max_len=8, train_size=300, dev_size=30, test_size=10)
QUICK = C.Recipe(d_model=16, num_heads=2, num_layers=1, d_ff=32, max_tokens=200, warmup_steps=4)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--target-ppl", type=float, default=1000.0, help="dev perplexity to reach")
    ap.add_argument("--max-steps", type=int, default=1600, help="updates at most per model")
    ap.add_argument("--eval-every", type=int, default=50)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--quick", action="store_true", help="tiny task and model, a few updates (plumbing)")
    args = ap.parse_args()
    torch.set_num_threads(1)
    task, recipe = (QUICK_TASK, QUICK) if args.quick else (C.ReversalTask(), REDUCED)
    if args.quick:
        args.target_ppl, args.max_steps, args.eval_every = 1e9, 4, 2
    data = C.reversal_data(task)
    result = {}
    runs = (("package", C.package_model, "bucketed"), ("reference", C.reference_model, "bucketed"),
            ("packed", C.package_model, "packed"))
    for name, build, batching in runs:
        model = build(data, recipe, seed=args.seed)
        curve = C.run(name, "plain", model, data, recipe, max_steps=args.max_steps, eval_every=args.eval_every,
                      seed=args.seed, dev_limit=500, stop_ppl=args.target_ppl, batching=batching)
        point = curve.to_point("dev_ppl", below=args.target_ppl)
        reached = point["updates"] is not None
        # not reached: the run's whole length, a lower bound (marked by convergence_reached_*=0)
        result[name] = (point["updates"] if reached else curve.updates[-1],
                        point["cpu_s"] if reached else curve.cpu_s[-1], reached, curve.dev_ppl[-1])
        print(f"convergence_reached_{name}={int(reached)}")
        print(f"convergence_final_dev_ppl_{name}={curve.dev_ppl[-1]:.1f}")
        print(f"convergence_updates_{name}={result[name][0]}")
        print(f"convergence_cpu_s_{name}={result[name][1]:.1f}")
        print(f"convergence_cpu_s_per_update_{name}={curve.cpu_s[-1] / curve.updates[-1]:.3f}")
    (u_p, s_p, _, _), (u_r, s_r, _, _), (u_k, s_k, _, _) = result["package"], result["reference"], result["packed"]
    print(f"convergence_target_dev_ppl={args.target_ppl:g}")
    print(f"convergence_updates_ratio={u_p / u_r:.2f}")
    print(f"convergence_cpu_ratio={s_p / s_r:.2f}")
    print(f"convergence_updates_ratio_packed={u_k / u_p:.2f}")
    print(f"convergence_cpu_ratio_packed={s_k / s_p:.2f}")


if __name__ == "__main__":
    main()
