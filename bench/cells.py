"""Fused recurrent modules vs a Python loop over the readable cells.

For each cell type, the same function is computed two ways on the same weights: the fused
``torch.nn.RNN``/``LSTM``/``GRU`` (one call for the whole sequence; cuDNN on a GPU) and a
per-timestep Python loop over :mod:`companion.models.rnn` / :mod:`companion.models.lstm`'s
readable cells. It times forward + backward of a summed output and prints the ratio
``loop time / fused time`` measured in the same run (goal: >= 5x on the training shapes), then
the same as ``key=value`` lines: ``train_tokens_per_s_{cell}_{fused,loop}`` (batch x timesteps
per second of forward + backward, wall time) and ``{cell}_loop_over_fused_time``.

    python bench/cells.py [--batch 32] [--steps 100] [--size 256] [--repeat 5] [--device cpu]
"""

from __future__ import annotations

import argparse
import time

import torch
from torch import nn

from companion.models.lstm import GRUCell, LSTMCell, load_fused_weights, run_cell
from companion.models.rnn import RNNLayer, load_fused_rnn


def _sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize()


def _time(fn, device: torch.device, repeat: int) -> float:
    fn()  # warm-up (allocations, cuDNN plans)
    _sync(device)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        _sync(device)
        best = min(best, time.perf_counter() - start)
    return best


def bench(cell: str, batch: int, steps: int, size: int, repeat: int, device: torch.device) -> tuple[float, float]:
    torch.manual_seed(0)
    fused = {"rnn": nn.RNN, "lstm": nn.LSTM, "gru": nn.GRU}[cell](size, size, batch_first=True).to(device)
    if cell == "rnn":
        readable = RNNLayer(size, size).to(device)
        load_fused_rnn(readable, fused)
        loop = lambda x: readable(x)[0]  # noqa: E731
    else:
        readable = (LSTMCell if cell == "lstm" else GRUCell)(size, size).to(device)
        load_fused_weights(readable, fused)
        loop = lambda x: run_cell(readable, x)[0]  # noqa: E731
    x = torch.randn(batch, steps, size, device=device, requires_grad=True)
    with torch.no_grad():  # both paths compute the same function
        assert torch.allclose(fused(x)[0], loop(x), atol=1e-4)

    def step_fused():
        fused(x)[0].sum().backward()

    def step_loop():
        loop(x).sum().backward()

    return _time(step_fused, device, repeat), _time(step_loop, device, repeat)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--size", type=int, default=256)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args(argv)
    if args.threads:
        torch.set_num_threads(args.threads)
    device = torch.device(args.device)
    print(f"device={device} threads={torch.get_num_threads()} B={args.batch} T={args.steps} "
          f"D=H={args.size} (forward+backward, best of {args.repeat})")
    print(f"{'cell':>5} | {'fused ms':>9} | {'loop ms':>9} | {'loop/fused':>10}")
    keys = []
    for cell in ("rnn", "lstm", "gru"):
        fused_s, loop_s = bench(cell, args.batch, args.steps, args.size, args.repeat, device)
        print(f"{cell:>5} | {fused_s * 1e3:9.2f} | {loop_s * 1e3:9.2f} | {loop_s / fused_s:9.1f}x")
        tokens = args.batch * args.steps  # timesteps of one forward + backward
        keys += [f"train_tokens_per_s_{cell}_fused={tokens / fused_s:.0f}",
                 f"train_tokens_per_s_{cell}_loop={tokens / loop_s:.0f}",
                 f"{cell}_loop_over_fused_time={loop_s / fused_s:.2f}"]
    print(f"cells_batch={args.batch}")
    print(f"cells_steps={args.steps}")
    print(f"cells_size={args.size}")
    print(f"cells_threads={torch.get_num_threads()}")
    print("\n".join(keys))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
