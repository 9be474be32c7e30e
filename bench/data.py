"""The data path at the papers' scale: generation, first start and second start of training at
two corpus sizes, with peak memory and time per million pairs.

For each size (default 200,000 and 2,000,000 pairs of the full level, seed 0), each step in a
process of its own, its wall time, CPU time and peak resident memory (``wait4``) measured:

- ``generate-data --size N``: the streaming writer;
- first start: ``train --config cpu/transformer --max-steps 5`` on a new run directory -- the
  vocabularies from a sample of at most ``data.vocab_sample_sentences`` (200,000) sentences per
  side, the corpus encoded into ``RUN/data-bin``, five steps;
- second start: ``train --resume --max-steps 6`` -- the corpus files hashed and checked against
  the cache's manifest, the cache mapped, the checkpoint loaded, one step.

At the large size the first start is measured once more with the vocabulary sample set to the
small corpus's train split (``--set data.vocab_sample_sentences=0.9 * SMALL``): SentencePiece
then sees as many sentences as at the small size, so the comparison shows what grows with the
corpus itself (a sample of a million sentences per side, the ``gpu`` presets' setting, costs
SentencePiece ~2 GB once, at any corpus size past it).

Then, in this process, training tokens per CPU second of the same preset (the Trainer, the
same batches) from the in-memory loader (``encode_pairs`` + ``make_loader``: the path before the
cache) and from the memory-mapped one, over the smaller corpus's train split; best of three
alternating rounds each.

Prints ``key=value`` lines (``data_...``) and the targets: second-start peak RSS at the large
size within 1.2x of the small size's, second start at the large size under 10 s, generation RSS
flat, mapped training as fast as in-memory.

    python bench/data.py [--sizes 200000 2000000] [--steps 5] [--work DIR] [--keep]
    python bench/data.py --quick        # 2,000 and 20,000 pairs: the plumbing
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRESET = "cpu/transformer"
#: one thread everywhere, as bench/run_all.py runs every benchmark
ENV = {**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "PYTHONUNBUFFERED": "1"}


def measure(argv: list[str]) -> dict:
    """Run ``argv`` as a child; its wall and CPU seconds and peak RSS (MiB). A failure stops the
    benchmark with the child's output."""
    start = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out:
        proc = subprocess.Popen(argv, cwd=ROOT, env=ENV, stdout=out, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        out.seek(0)
        text = out.read()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"bench/data.py: {' '.join(argv)} failed:\n{text[-3000:]}")
    return {"wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime, "rss_mib": usage.ru_maxrss / 1024}


def companion(*args: str) -> list[str]:
    return [sys.executable, "-m", "companion", *args]


def train_command(data: Path, run: Path, *overrides: str) -> list[str]:
    return companion("train", "--config", PRESET, "--data", str(data), "--out", str(run), "--no-progress",
                     "--device", "cpu", "--set", "train.eval_every=0", "train.log_every=1000", *overrides)


def one_size(n: int, work: Path, steps: int, same_sample_as: int | None = None) -> dict:
    """Generation, first start and second start at ``n`` pairs (and a first start whose
    vocabulary sample is the train split of a corpus of ``same_sample_as`` pairs)."""
    data, run = work / f"data-{n}", work / f"run-{n}"
    train = train_command(data, run)
    out = {"gen": measure(companion("generate-data", "--size", str(n), "--seed", "0", "--out", str(data),
                                    "--challenge-size", "100")),
           "first": measure([*train, "--max-steps", str(steps)]),
           "second": measure([*train, "--max-steps", str(steps + 1), "--resume"])}
    if same_sample_as:
        sample = same_sample_as - 2 * max(1, round(same_sample_as * 0.05))
        out["first_same_sample"] = measure([*train_command(data, work / f"run-{n}-sample",
                                                           f"data.vocab_sample_sentences={sample}"),
                                            "--max-steps", str(steps)])
    out["cache_mib"] = sum(p.stat().st_size for p in (run / "data-bin").iterdir()) / 2**20
    out["corpus_mib"] = sum(p.stat().st_size for p in data.glob("*.*") if p.is_file()) / 2**20
    return out


def training_speed(data: Path, run: Path, steps: int, rounds: int = 3) -> dict:
    """Training tokens per CPU second from the in-memory and the mapped loader (same batches)."""
    import torch

    from companion.config import load_config
    from companion.data.batching import encode_pairs, make_loader
    from companion.data.parallel import load_split
    from companion.data.vocab import load_vocab
    from companion.models import build_model
    from companion.training.rundata import run_loaders
    from companion.training.trainer import Trainer

    torch.set_num_threads(1)
    cfg = load_config(PRESET)
    src, tgt = load_vocab(run / "vocab.src.model"), load_vocab(run / "vocab.tgt.model")
    mapped, _, _ = run_loaders(cfg, data, run, src, tgt)
    examples = encode_pairs(load_split(data, "train", "ko", "en"), src, tgt, cfg.data.max_len)
    memory = make_loader(examples, cfg.data.max_tokens, shuffle=True, seed=cfg.train.seed)
    tokens = 0
    for k, batch in enumerate(memory):
        if k == steps:
            break
        tokens += batch.ntokens
    best = {"memory": 0.0, "mapped": 0.0}
    for _ in range(rounds):
        for name, loader in (("memory", memory), ("mapped", mapped)):
            model = build_model(cfg.model, len(src), len(tgt))
            trainer = Trainer(model, loader, None, config=cfg.train, progress=False, max_steps=steps,
                              eval_every=0, log_every=10 * steps)
            t0 = time.process_time()
            trainer.fit()
            best[name] = max(best[name], tokens / (time.process_time() - t0))
    return best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs=2, default=[200_000, 2_000_000], metavar=("SMALL", "LARGE"))
    ap.add_argument("--steps", type=int, default=5, help="training steps of the first start (default 5)")
    ap.add_argument("--speed-steps", type=int, default=60, help="steps per round of the speed comparison")
    ap.add_argument("--work", type=Path, default=None, help="working directory (default: a temporary one)")
    ap.add_argument("--keep", action="store_true", help="keep the corpora and runs")
    ap.add_argument("--quick", action="store_true", help="2,000 and 20,000 pairs, 2 steps: the plumbing")
    args = ap.parse_args(argv)
    if args.quick:
        args.sizes, args.steps, args.speed_steps = [2_000, 20_000], 2, 5
    small, large = args.sizes
    work = args.work or Path(tempfile.mkdtemp(prefix="bench-data-"))
    work.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    try:
        rows = {}
        for n in (small, large):
            rows[n] = one_size(n, work, args.steps, same_sample_as=small if n == large else None)
            r = rows[n]
            print(f"{n:>10,} pairs: " + ", ".join(
                f"{what} {r[k]['wall_s']:.1f} s ({r[k]['cpu_s']:.1f} CPU-s, {r[k]['rss_mib']:.0f} MiB)"
                for k, what in (("gen", "generate"), ("first", "first start"), ("second", "second start")))
                + f"; corpus {r['corpus_mib']:.0f} MiB, cache {r['cache_mib']:.0f} MiB", flush=True)
        speed = training_speed(work / f"data-{small}", work / f"run-{small}", args.speed_steps)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    S, L = rows[small], rows[large]
    per_m = 1e6 / large
    values = {
        "data_small_pairs": small, "data_large_pairs": large,
        "data_gen_s_per_mpairs": L["gen"]["wall_s"] * per_m,
        "data_gen_cpu_s_per_mpairs": L["gen"]["cpu_s"] * per_m,
        "data_gen_rss_mib_small": S["gen"]["rss_mib"], "data_gen_rss_mib_large": L["gen"]["rss_mib"],
        "data_gen_rss_ratio": L["gen"]["rss_mib"] / S["gen"]["rss_mib"],
        "data_first_start_s_small": S["first"]["wall_s"], "data_first_start_s_large": L["first"]["wall_s"],
        "data_first_start_cpu_s_large": L["first"]["cpu_s"],
        "data_first_start_s_per_mpairs": L["first"]["wall_s"] * per_m,
        "data_first_start_rss_mib_small": S["first"]["rss_mib"],
        "data_first_start_rss_mib_large": L["first"]["rss_mib"],
        "data_first_start_rss_ratio": L["first"]["rss_mib"] / S["first"]["rss_mib"],
        "data_first_start_same_sample_rss_mib_large": L["first_same_sample"]["rss_mib"],
        "data_first_start_same_sample_s_large": L["first_same_sample"]["wall_s"],
        "data_first_start_same_sample_rss_ratio": L["first_same_sample"]["rss_mib"] / S["first"]["rss_mib"],
        "data_second_start_s_small": S["second"]["wall_s"], "data_second_start_s_large": L["second"]["wall_s"],
        "data_second_start_cpu_s_small": S["second"]["cpu_s"], "data_second_start_cpu_s_large": L["second"]["cpu_s"],
        "data_second_start_rss_mib_small": S["second"]["rss_mib"],
        "data_second_start_rss_mib_large": L["second"]["rss_mib"],
        "data_second_start_rss_ratio": L["second"]["rss_mib"] / S["second"]["rss_mib"],
        "data_cache_mib_per_mpairs": L["cache_mib"] * per_m, "data_corpus_mib_per_mpairs": L["corpus_mib"] * per_m,
        "data_train_tokens_per_s_memory": speed["memory"], "data_train_tokens_per_s_mapped": speed["mapped"],
        "data_mapped_over_memory_speed": speed["mapped"] / speed["memory"],
    }
    for key, value in values.items():
        print(f"{key}={value:.4g}" if isinstance(value, float) else f"{key}={value}")
    targets = [
        ("second start peak RSS, large / small <= 1.2", values["data_second_start_rss_ratio"] <= 1.2),
        ("first start peak RSS with the same vocabulary sample, large / small <= 1.2",
         values["data_first_start_same_sample_rss_ratio"] <= 1.2),
        (f"second start at {large:,} pairs < 10 s", values["data_second_start_s_large"] < 10),
        ("generation peak RSS, large / small <= 1.2 (flat)", values["data_gen_rss_ratio"] <= 1.2),
        ("mapped training speed within 5% of in-memory", values["data_mapped_over_memory_speed"] >= 0.95),
    ]
    for what, ok in targets:
        print(f"target: {what}: {'met' if ok else 'MISSED'}")
    print(f"the first start with the default vocabulary sample ({large:,} pairs): "
          f"{values['data_first_start_rss_mib_large']:.0f} MiB, {values['data_first_start_rss_ratio']:.2f}x the "
          f"small size's: SentencePiece on up to 1,000,000 sentences per side, bounded past that")
    print(f"bench/data.py: {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
