"""The GPU profile, measured: training throughput and MFU of the gpu-scale models with bf16
autocast, fused-vs-loop recurrent cells, decoding correctness on CUDA, and (time permitting) a
short Transformer training run scored with BLEU -- written to one JSON record.

    python bench/gpu.py --out book/results/gpu-$(date +%F).json [--budget-s 600]

Every section is guarded: a failure is recorded in the JSON (``"error"``) and the next section
runs; sections are skipped when the time budget is spent, and the JSON is rewritten after each
one, so a run cut short still leaves what it measured. MFU is the measured training FLOP/s
(counted with ``torch.utils.flop_counter`` on one real step, forward + backward) over the
measured bf16 matmul peak of the same GPU. ``--smoke`` runs every section at toy sizes (on the
CPU if no GPU is present) to check the plumbing.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from companion.data.batching import collate  # noqa: E402
from companion.models import build_model  # noqa: E402
from companion.training.trainer import sequence_loss  # noqa: E402

#: the gpu-profile model of each family (the papers' sizes, vocabularies of 16k pieces)
FAMILIES = {
    "seq2seq_4x1000": {"name": "seq2seq", "embed_dim": 1000, "hidden_size": 1000, "num_layers": 4,
                       "reverse_source": True},
    "rnnsearch_1000": {"name": "rnnsearch", "embed_dim": 620, "hidden_size": 1000},
    "transformer_base": {"name": "transformer", "d_model": 512, "num_heads": 8,
                         "num_encoder_layers": 6, "num_decoder_layers": 6, "d_ff": 2048,
                         "dropout": 0.1},
}
SMOKE = {
    "seq2seq_4x1000": {"name": "seq2seq", "embed_dim": 16, "hidden_size": 16, "num_layers": 2},
    "rnnsearch_1000": {"name": "rnnsearch", "embed_dim": 16, "hidden_size": 16},
    "transformer_base": {"name": "transformer", "d_model": 16, "num_heads": 2,
                         "num_encoder_layers": 1, "num_decoder_layers": 1, "d_ff": 32},
}


class Run:
    def __init__(self, out: Path, budget_s: float):
        self.out, self.t0, self.budget = out, time.perf_counter(), budget_s
        # the fields of a book record (companion.experiments.records.REQUIRED), so that the
        # results chapter reads it like every other record
        self.record: dict = {"name": out.stem, "kind": "gpu-profile",
                             "created": time.strftime("%Y-%m-%dT%H:%M:%S"), "provenance": {},
                             "config": {"argv": sys.argv[1:]}, "results": {"sections": {}}}
        self.sections: dict = self.record["results"]["sections"]

    def left(self) -> float:
        return self.budget - (time.perf_counter() - self.t0)

    def save(self) -> None:
        self.record["wall_s"] = round(time.perf_counter() - self.t0, 2)
        self.out.parent.mkdir(parents=True, exist_ok=True)
        self.out.write_text(json.dumps(self.record, indent=1, default=str) + "\n")

    def section(self, name: str, fn, need_s: float) -> None:
        if self.left() < need_s:
            self.sections[name] = {"skipped": f"time budget ({self.left():.0f} s left)"}
        else:
            start = time.perf_counter()
            try:
                self.sections[name] = fn()
            except Exception as exc:  # noqa: BLE001 - recorded, the next section still runs
                self.sections[name] = {"error": f"{type(exc).__name__}: {exc}",
                                                 "trace": traceback.format_exc()[-2000:]}
            self.sections[name]["seconds"] = round(time.perf_counter() - start, 2)
        print(f"[{time.perf_counter() - self.t0:6.1f}s] {name}: "
              f"{json.dumps(self.sections[name], default=str)[:400]}", flush=True)
        self.save()


def sync(device):
    if device.type == "cuda":
        torch.cuda.synchronize()


def environment(device) -> dict:
    from companion.experiments.records import provenance

    info = provenance()
    if device.type == "cuda":
        p = torch.cuda.get_device_properties(0)
        info.update(gpu_memory_gib=round(p.total_memory / 2**30, 1), sm_count=p.multi_processor_count)
    return info


def matmul_peak(device, n: int) -> dict:
    """Measured bf16 (GPU) / fp32 (CPU) matmul FLOP/s: the denominator of MFU."""
    dtype = torch.bfloat16 if device.type == "cuda" else torch.float32
    a = torch.randn(n, n, device=device, dtype=dtype)
    b = torch.randn(n, n, device=device, dtype=dtype)
    for _ in range(3):
        a @ b
    sync(device)
    reps = 10
    start = time.perf_counter()
    for _ in range(reps):
        a @ b
    sync(device)
    secs = (time.perf_counter() - start) / reps
    return {"n": n, "dtype": str(dtype), "tflops": 2 * n**3 / secs / 1e12}


def random_batch(B: int, S: int, T: int, V: int, seed: int = 0):
    g = torch.Generator().manual_seed(seed)
    pairs = []
    for i in range(B):
        s = (S - i % 5)
        t = (T - i % 7)
        pairs.append((torch.randint(4, V, (s,), generator=g).tolist() + [2],
                      torch.randint(4, V, (t,), generator=g).tolist()))
    return collate(pairs)


def train_throughput(family: str, args: dict, device, vocab: int, B: int, S: int, T: int,
                     steps: int, peak_tflops: float) -> dict:
    from mfu import count_flops

    torch.manual_seed(0)
    model = build_model(dict(args), vocab, vocab).to(device).train()
    params = sum(p.numel() for p in model.parameters())
    opt = torch.optim.Adam(model.parameters(), lr=1e-4)
    batch = random_batch(B, S, T, vocab).to(device)
    ntok = int((batch.tgt_out != 0).sum())
    amp = (torch.autocast("cuda", dtype=torch.bfloat16) if device.type == "cuda"
           else torch.autocast("cpu", enabled=False))

    def step():
        with amp:
            logits = model(batch)
        loss = sequence_loss(logits, batch.tgt_out) / ntok
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        return loss

    # fused recurrent kernels (cuDNN, oneDNN) hide their matmuls from the counter: count one step
    # with them switched off (bench/mfu.py's count_flops), then time the fast path
    losses = []
    with torch.backends.cudnn.flags(enabled=False):
        flops = count_flops(lambda: losses.append(float(step().detach())))
    loss0 = losses[0]
    for _ in range(2):
        step()
    sync(device)
    start = time.perf_counter()
    for _ in range(steps):
        loss = step()
    sync(device)
    secs = (time.perf_counter() - start) / steps
    achieved = flops / secs / 1e12
    return {"model": args, "parameters": params, "batch_sentences": B, "target_tokens_per_step": ntok,
            "source_tokens_per_step": int(batch.src_lengths.sum()), "step_s": secs,
            "train_tokens_per_s": ntok / secs, "flops_per_step": flops, "achieved_tflops": achieved,
            "mfu": achieved / peak_tflops if peak_tflops else None,
            "loss_first": loss0, "loss_last": float(loss.detach()), "precision": "bf16 autocast" if device.type == "cuda" else "fp32",
            "peak_memory_gib": torch.cuda.max_memory_allocated() / 2**30 if device.type == "cuda" else None}


def correctness(device, smoke: bool) -> dict:
    """On this device, in float32: step-by-step decoding equals the teacher-forced forward and
    the Transformer's KV cache equals recomputation (greedy and beam 5)."""
    from companion.decoding import beam_search, greedy_search

    out = {}
    V = 50
    batch = random_batch(8, 12, 9, V, seed=3).to(device)
    for family, args in (SMOKE if smoke else SMOKE).items():
        torch.manual_seed(0)
        try:
            model = build_model(dict(args), V, V).to(device).eval()
        except Exception as exc:  # noqa: BLE001 - a family not available in this checkout
            out[family] = {"error": f"{type(exc).__name__}: {exc}"}
            continue
        with torch.no_grad():
            forced = torch.log_softmax(model(batch).float(), -1)
            state = model.encode(batch.src, batch.src_lengths)
            steps = []
            for t in range(batch.tgt_in.shape[1]):
                lp, state = model.step(batch.tgt_in[:, t], state)
                steps.append(lp)
            stepped = torch.stack(steps, 1)
        real = batch.tgt_out != 0
        row = {"max_abs_diff_step_vs_forward": float((stepped - forced)[real].abs().max())}
        if args["name"] == "transformer":
            try:
                from companion.models.transformer import RecomputingDecoder

                ref = RecomputingDecoder(model)
                g1 = greedy_search(model, batch.src, batch.src_lengths, max_len=20)
                g2 = greedy_search(ref, batch.src, batch.src_lengths, max_len=20)
                b1 = beam_search(model, batch.src, batch.src_lengths, beam_size=5, max_len=20)
                b2 = beam_search(ref, batch.src, batch.src_lengths, beam_size=5, max_len=20)
                row["kv_cache_greedy_identical"] = [h.tokens for h in g1] == [h.tokens for h in g2]
                row["kv_cache_beam5_identical"] = ([[h.tokens for h in b] for b in b1]
                                                   == [[h.tokens for h in b] for b in b2])
            except Exception as exc:  # noqa: BLE001
                row["kv_cache_error"] = f"{type(exc).__name__}: {exc}"
        out[family] = row
    return out


def cells(device, smoke: bool) -> dict:
    from cells import bench

    size, steps, batch = (16, 10, 4) if smoke else (1024, 100, 64)
    out = {"batch": batch, "steps": steps, "size": size}
    for cell in ("rnn", "lstm", "gru"):
        fused_s, loop_s = bench(cell, batch, steps, size, 3, device)
        out[cell] = {"fused_ms": fused_s * 1e3, "loop_ms": loop_s * 1e3, "loop_over_fused": loop_s / fused_s}
    return out


def transformer_bleu(device, seconds: float, smoke: bool) -> dict:
    """Train a Transformer on the book's corpus for ``seconds`` of wall time (bf16), then score
    greedy translations of the test pairs with sacrebleu."""
    from companion.decoding import translate_corpus
    from companion.evaluation import corpus_bleu
    from companion.experiments.regime import REGIME, book_data

    regime = REGIME if not smoke else REGIME.__class__(size=600, test_sentences=20, valid_sentences=20)
    t0 = time.perf_counter()
    data = book_data(regime)
    prep = time.perf_counter() - t0
    torch.manual_seed(0)
    args = ({"name": "transformer", "d_model": 512, "num_heads": 8, "num_encoder_layers": 3,
             "num_decoder_layers": 3, "d_ff": 2048, "dropout": 0.1} if not smoke else SMOKE["transformer_base"])
    model = build_model(dict(args), len(data.src_vocab), len(data.tgt_vocab)).to(device).train()
    opt = torch.optim.Adam(model.parameters(), lr=5e-4, betas=(0.9, 0.98), eps=1e-9)
    from companion.data.batching import encode_pairs, make_loader

    ex = encode_pairs([(p.ko, p.en) for p in data.splits["train"]], data.src_vocab, data.tgt_vocab)
    loader = make_loader(ex, 12000 if not smoke else 500, shuffle=True, seed=0)
    amp = (torch.autocast("cuda", dtype=torch.bfloat16) if device.type == "cuda"
           else torch.autocast("cpu", enabled=False))
    step, tokens, start, warm = 0, 0, time.perf_counter(), 400
    done = False
    epoch = 0
    while not done:
        loader.batch_sampler.set_epoch(epoch)
        for batch in loader:
            batch = batch.to(device, non_blocking=True)
            step += 1
            for g in opt.param_groups:
                g["lr"] = 5e-4 * min(1.0, step / warm)
            with amp:
                logits = model(batch)
            n = int(batch.ntokens)
            loss = sequence_loss(logits, batch.tgt_out, 0.1) / n
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            opt.zero_grad(set_to_none=True)
            tokens += n
            if time.perf_counter() - start > seconds:
                done = True
                break
        epoch += 1
    sync(device)
    train_s = time.perf_counter() - start
    test = data.held_out("test")
    model.eval()
    t1 = time.perf_counter()
    hyps = translate_corpus(model, data.src_vocab, data.tgt_vocab, [p.ko for p in test], beam_size=1,
                            batch_size=256)
    bleu = corpus_bleu(hyps, [p.en for p in test])
    return {"model": args, "corpus": data.summary(), "prepare_s": prep, "steps": step, "epochs": epoch,
            "train_s": train_s, "train_tokens_per_s": tokens / train_s, "final_loss": float(loss.detach()),
            "test_sentences": len(test), "test_bleu_greedy": bleu.score, "signature": bleu.signature,
            "decode_s": time.perf_counter() - t1,
            "samples": [[p.ko, p.en, h] for p, h in list(zip(test, hyps))[:5]]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--budget-s", type=float, default=600)
    ap.add_argument("--smoke", action="store_true")
    ap.add_argument("--bleu-train-s", type=float, default=60)
    a = ap.parse_args(argv)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    run = Run(Path(a.out), a.budget_s)
    run.record["device"] = str(device)
    run.section("environment", lambda: environment(device), 0)
    run.record["provenance"] = run.sections["environment"]
    run.section("matmul_peak", lambda: matmul_peak(device, 256 if a.smoke else 8192), 5)
    peak = run.sections["matmul_peak"].get("tflops", 0.0)
    run.section("correctness_fp32", lambda: correctness(device, a.smoke), 10)
    fams = SMOKE if a.smoke else FAMILIES
    shape = dict(vocab=200, B=8, S=12, T=12, steps=2) if a.smoke else dict(vocab=16000, B=128, S=30, T=30, steps=10)
    for fam, args in fams.items():
        run.section(f"train_{fam}", lambda fam=fam, args=args: train_throughput(
            fam, args, device, shape["vocab"], shape["B"], shape["S"], shape["T"], shape["steps"], peak), 15)
    run.section("cells_fused_vs_loop", lambda: cells(device, a.smoke), 15)
    run.section("transformer_bleu", lambda: transformer_bleu(
        device, min(a.bleu_train_s, max(5.0, run.left() - 40)), a.smoke), 50 if not a.smoke else 1)
    run.save()
    print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
