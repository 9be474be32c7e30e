"""Benchmark: the package's decoder beside onnxruntime and CTranslate2 on one Transformer.

One run's Transformer decodes the same test sentences with four engines --

- ``package``: :mod:`companion.decoding` (PyTorch, the KV cache, the package's search);
- ``onnxruntime``: the ONNX export (:mod:`companion.export.onnx`) driven by the same search
  (:class:`companion.export.OnnxTranslator`): only the arithmetic of a step moves;
- ``ct2_float32`` / ``ct2_int8``: the CTranslate2 conversion (:mod:`companion.export.ctranslate2`),
  ``ctranslate2.Translator`` with float32 and int8 weights --

-- and, where Chromium and the panel's npm libraries are available, the same ONNX export in the
book's in-browser panel (onnxruntime-web in headless Chromium, offline: greedy, one sentence at a
time, with the time until the page has loaded the model and the first translation) --
by greedy search and beam search (k = 5), in batches of 1 and of 64 sentences, on 1 and 2
threads, in one process: sentences per second (wall time) and BLEU of each (BLEU from the
batches of 64 over all ``--sentences``; a batch of 1 gives the same outputs, and its speed is
timed on the first ``--batch1-sentences``). Every engine gets
the run's decoding options; CTranslate2's beam normalises scores by ``|Y|^alpha`` where the
package uses GNMT's ``((5 + |Y|) / 6)^alpha`` (the same alpha), so its beam BLEU is its own.

It also prints how many outputs of each engine equal the package's (greedy and beam, batch 64)
and, to say *why* the package is slower where it is, the share of the package's greedy time
spent inside the model's ``encode``/``step`` (the rest is the search's Python loop and its
tensor bookkeeping), and CTranslate2's speed over the package's (``*_ratio_to_ct2``, the number
to beat).

Without ``--run`` it makes its own: the ``small`` kosynth corpus of 20,000 pairs and
``cpu/transformer`` trained for ``--train-steps`` steps (the book's recipe, shortened).

    .venv/bin/python bench/engines.py                         # a few minutes on 2 cores
    .venv/bin/python bench/engines.py --run runs/transformer --data data/small
    .venv/bin/python bench/engines.py --quick                 # tiny: the plumbing
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[1]
ENGINES = ("package", "onnxruntime", "ct2_float32", "ct2_int8")
SEARCHES = (("greedy", 1), ("beam5", 5))


def companion(*args: str) -> None:
    """Run ``companion ARGS`` (a failure stops the benchmark with its error line)."""
    proc = subprocess.run([sys.executable, "-m", "companion", *args], cwd=ROOT, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"companion {' '.join(args)} failed: {proc.stderr.strip()}")


def make_run(work: Path, quick: bool, train_steps: int) -> tuple[Path, Path]:
    """A corpus and a trained cpu/transformer run in ``work``."""
    data, run = work / "data", work / "run"
    size = "1500" if quick else "20000"
    companion("generate-data", "--level", "small", "--size", size, "--seed", "0", "--out", str(data))
    sizes = ["data.src_vocab_size=400", "data.tgt_vocab_size=250"] if quick else \
        ["data.src_vocab_size=800", "data.tgt_vocab_size=500"]  # what 18,000 training pairs allow
    companion("train", "--config", "cpu/transformer", "--data", str(data), "--out", str(run), "--max-steps",
              str(train_steps), "--no-progress", "--set", *sizes, "train.eval_every=0")
    return data, run


class Timed:
    """A model whose ``encode``/``step`` time is added up (the package's share of the search)."""

    def __init__(self, model):
        self.model, self.seconds = model, 0.0
        self.src_vocab_size, self.tgt_vocab_size = model.src_vocab_size, model.tgt_vocab_size

    def parameters(self):
        return self.model.parameters()

    def encode(self, *a, **k):
        t = time.perf_counter()
        out = self.model.encode(*a, **k)
        self.seconds += time.perf_counter() - t
        return out

    def step(self, *a, **k):
        t = time.perf_counter()
        out = self.model.step(*a, **k)
        self.seconds += time.perf_counter() - t
        return out

    def reorder_state(self, state, index):
        return self.model.reorder_state(state, index)


PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>bench</title></head>
<body><div class="companion-panel" data-model="bench"></div>
<script src="_static/companion-panel/panel.js"></script></body></html>
"""


def browser_row(work: Path, sentences: list[str], cfg) -> None:
    """The same ONNX export in the book's panel, in headless Chromium with the network off
    (onnxruntime-web, one thread): seconds until the model is loaded, the first translation and
    the mean of the others, greedy, one sentence at a time as a reader types them. Skipped, with
    a line saying why, without Chromium or without the panel's npm libraries."""
    import importlib.util
    import shutil

    from companion.export.panel import write_panel_from_export

    executable = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")
                       if shutil.which(n)), None)
    if executable is None:
        print("# browser: skipped (no Chromium on PATH)")
        return
    spec = importlib.util.spec_from_file_location("build_panel", ROOT / "scripts" / "build_panel.py")
    build_panel = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build_panel)
    try:
        panel_dir = build_panel.build(work / "site" / "_static", models=work / "no-models")
    except build_panel.PanelBuildError as e:
        print(f"# browser: skipped ({e})")
        return
    write_panel_from_export(work / "onnx", panel_dir, "bench")
    (work / "site" / "index.html").write_text(PAGE, encoding="utf-8")
    sys.path.insert(0, str(ROOT))
    from tests.book.cdp import time_panel

    timing = time_panel(executable, (work / "site" / "index.html").as_uri(), "bench", sentences, "greedy")
    print(f"browser_greedy_load_s={timing['load_s']:.2f}")
    print(f"browser_greedy_first_ms={timing['first_ms']:.1f}")
    print(f"browser_greedy_b1_sentences_per_s={1000.0 / max(timing['per_sentence_ms'], 1e-9):.1f}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--run", type=Path, default=None, help="a trained Transformer run (default: train one)")
    ap.add_argument("--data", type=Path, default=None, help="its corpus directory (test.ko / test.en)")
    ap.add_argument("--sentences", type=int, default=1000, help="test sentences decoded (BLEU, batches of 64)")
    ap.add_argument("--batch1-sentences", type=int, default=250,
                    help="the first this many of them time the batch-1 searches (their outputs are the same)")
    ap.add_argument("--train-steps", type=int, default=300, help="steps of the run made without --run")
    ap.add_argument("--quick", action="store_true", help="tiny corpus, 5 steps, 8 sentences")
    args = ap.parse_args(argv)
    if (args.run is None) != (args.data is None):
        raise SystemExit("bench/engines.py: give both --run and --data, or neither")

    from companion.data.batching import source_ids
    from companion.decoding.corpus import decode_corpus
    from companion.evaluation.metrics import corpus_bleu
    from companion.export import CT2Translator, OnnxTranslator, export_ctranslate2, export_onnx
    from companion.training.rundir import load_run, search_options
    from companion.translator import checkpoint_of

    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bench-engines-") as tmp:
        work = Path(tmp)
        if args.run is None:
            data, run = make_run(work, args.quick, 5 if args.quick else args.train_steps)
        else:
            data, run = args.data, args.run
        n = 8 if args.quick else args.sentences
        n1 = min(n, 4 if args.quick else args.batch1_sentences)
        ckpt = checkpoint_of(run)
        model, src_vocab, tgt_vocab, cfg, _ = load_run(ckpt, "cpu")
        srcs = (data / "test.ko").read_text(encoding="utf-8").splitlines()[:n]
        refs = (data / "test.en").read_text(encoding="utf-8").splitlines()[:n]
        sources = [source_ids(src_vocab, s) for s in srcs]
        export_onnx(model, (src_vocab, tgt_vocab), work / "onnx", decoding=cfg.decode, checkpoint=ckpt)
        export_ctranslate2(model, (src_vocab, tgt_vocab), work / "ct2", decoding=cfg.decode, checkpoint=ckpt)
        export_ctranslate2(model, (src_vocab, tgt_vocab), work / "ct2-int8", quantization="int8",
                           decoding=cfg.decode, checkpoint=ckpt)
        sizes = {name: sum(p.stat().st_size for p in (work / name).iterdir()) for name in ("onnx", "ct2", "ct2-int8")}
        print(f"# {n} sentences of {data}, run {ckpt} ({sum(p.numel() for p in model.parameters()):,} parameters); "
              f"made and exported in {time.perf_counter() - t0:.0f} s")
        print(f"export_mb_onnx={sizes['onnx'] / 1e6:.2f}")
        print(f"export_mb_ct2_float32={sizes['ct2'] / 1e6:.2f}")
        print(f"export_mb_ct2_int8={sizes['ct2-int8'] / 1e6:.2f}")

        timed = Timed(model)
        engines = {}
        for threads in (1, 2):
            engines[("package", threads)] = lambda s, beam, bs: [
                h[0].tokens for h in decode_corpus(timed, s, beam_size=beam, batch_size=bs,
                                                   **search_options(cfg, beam))]
            ort = OnnxTranslator(work / "onnx", threads=threads)
            engines[("onnxruntime", threads)] = lambda s, beam, bs, t=ort: t.decode_ids(s, beam, batch_size=bs)
            for name, path in (("ct2_float32", "ct2"), ("ct2_int8", "ct2-int8")):
                ct = CT2Translator(work / path, threads=threads)
                engines[(name, threads)] = lambda s, beam, bs, t=ct: t.decode_ids(s, beam, batch_size=bs)

        speed, outputs = {}, {}
        for threads in (1, 2):
            for search, beam in SEARCHES:
                for batch in (1, 64):
                    for engine in ENGINES:
                        torch.set_num_threads(threads)
                        timed.seconds = 0.0
                        start = time.perf_counter()
                        part = sources if batch > 1 else sources[:n1]
                        ids = engines[(engine, threads)](part, beam, batch)
                        wall = time.perf_counter() - start
                        key = f"{engine}_{search}_b{batch}_t{threads}"
                        speed[key] = len(part) / wall
                        print(f"{key}_sentences_per_s={speed[key]:.1f}")
                        if batch > 1:
                            bleu = corpus_bleu([tgt_vocab.decode(t) for t in ids], refs).score
                            print(f"{key}_bleu={bleu:.2f}")
                        if batch == 64 and threads == 1:
                            outputs[(engine, search)] = ids
                            if engine == "package" and search == "greedy":
                                print(f"package_greedy_model_share={timed.seconds / wall:.3f}")
        for search, _ in SEARCHES:
            ref = outputs[("package", search)]
            for engine in ENGINES[1:]:
                same = sum(a == b for a, b in zip(ref, outputs[(engine, search)]))
                print(f"{engine}_{search}_equal_to_package={same}")
        for threads in (1, 2):
            for search, _ in SEARCHES:
                for batch in (1, 64):
                    ct2 = speed[f"ct2_float32_{search}_b{batch}_t{threads}"]
                    for engine in ("package", "onnxruntime"):
                        key = f"{engine}_{search}_b{batch}_t{threads}"
                        print(f"{key}_ratio_to_ct2={speed[key] / ct2:.3f}")

        if not args.quick:  # the panel's plumbing is tested by tests/book/test_panel.py
            browser_row(work, srcs[:n1], cfg)

        print()
        print(f"| engine | {' | '.join(f'{s} b{b} t{t}' for t in (1, 2) for s, _ in SEARCHES for b in (1, 64))} |")
        print("|---|" + "---|" * 8)
        for engine in ENGINES:
            cells = [f"{speed[f'{engine}_{s}_b{b}_t{t}']:.0f}" for t in (1, 2) for s, _ in SEARCHES for b in (1, 64)]
            print(f"| {engine} | {' | '.join(cells)} |")
        print(f"# total {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
