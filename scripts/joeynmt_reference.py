"""Issue 22's reference point: JoeyNMT 2.3 trained on the convergence task with the same recipe,
measured the way the package's runs are, and added to ``book/results/convergence-transformer.json``
as the experiment ``full-joeynmt``.

JoeyNMT is not a dependency of the package: install it into a separate environment that also sees
this repository (``pip install joeynmt==2.3.0`` beside ``torch``, then ``PYTHONPATH=.``). The script
writes the task of :class:`companion.experiments.convergence.ReversalTask` as JoeyNMT's plain-text
files, a JoeyNMT configuration with the recipe of :class:`~companion.experiments.convergence.Recipe`
(Pre-LN 3 + 3 layers, d_model 256, 4 heads, FFN 1024, dropout 0.1, tied output, Xavier
initialisation, Adam 0.9/0.98, the inverse-square-root schedule peaking at 5e-4 after 400 updates,
clipping 1.0, label smoothing 0.1, 4096-token batches, loss per token), and trains on one thread.

Every 50 updates it records what the package's runs record: the CPU seconds spent training
(evaluations excluded), the dev perplexity computed as the package computes it -- exp of the mean
teacher-forced negative log-likelihood per target token, EOS included, no label smoothing -- and,
once that perplexity is at most 40, JoeyNMT's own greedy dev BLEU. (JoeyNMT prints a "ppl" of its
own: exp of its validation loss, the KL divergence to the *smoothed* targets, which is lower than
the perplexity -- about a third of it on the plateau; the record keeps both.)

    PYTHONPATH=. /path/to/joey-env/bin/python scripts/joeynmt_reference.py        # ~35 CPU-minutes
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from companion.experiments import convergence as C  # noqa: E402

NAME = "full-joeynmt"


def joey_config(recipe: C.Recipe, data_dir: Path, model_dir: Path, max_steps: int, eval_every: int) -> dict:
    side = {"level": "word", "lowercase": False, "voc_limit": 10_000, "voc_min_freq": 1}
    stack = {"type": "transformer", "num_layers": recipe.num_layers, "num_heads": recipe.num_heads,
             "embeddings": {"embedding_dim": recipe.d_model, "scale": True}, "hidden_size": recipe.d_model,
             "ff_size": recipe.d_ff, "dropout": recipe.dropout, "layer_norm": "pre" if recipe.pre_ln else "post",
             "activation": "relu"}
    return {
        "name": "convergence", "model_dir": str(model_dir), "use_cuda": False, "fp16": False, "random_seed": 42,
        "data": {"train": str(data_dir / "train"), "dev": str(data_dir / "dev"), "test": str(data_dir / "test"),
                 "dataset_type": "plain", "src": {"lang": "src", **side}, "trg": {"lang": "trg", **side}},
        "testing": {"n_best": 1, "beam_size": 1, "batch_size": 64, "batch_type": "sentence",
                    "max_output_length": -1, "eval_metrics": ["bleu"], "sacrebleu_cfg": {"tokenize": "13a"}},
        "training": {"random_seed": 42, "optimizer": "adam", "normalization": recipe.normalization,
                     "adam_betas": list(recipe.betas), "scheduling": "warmupinversesquareroot",
                     "learning_rate": recipe.peak_lr, "learning_rate_warmup": recipe.warmup_steps,
                     "clip_grad_norm": recipe.clip_norm, "weight_decay": 0.0,
                     "label_smoothing": recipe.label_smoothing, "loss": "crossentropy",
                     "batch_size": recipe.max_tokens, "batch_type": "token", "batch_multiplier": 1,
                     "early_stopping_metric": "ppl", "epochs": 100, "updates": max_steps,
                     "validation_freq": eval_every, "logging_freq": eval_every, "shuffle": True,
                     "print_valid_sents": [], "keep_best_ckpts": 1, "overwrite": True},
        "model": {"initializer": "xavier_uniform", "bias_initializer": "zeros", "init_gain": 1.0,
                  "embed_initializer": "xavier_uniform", "embed_init_gain": 1.0, "tied_embeddings": False,
                  "tied_softmax": True, "encoder": stack, "decoder": dict(stack)},
    }


def write_task(task: C.ReversalTask, data_dir: Path) -> None:
    data_dir.mkdir(parents=True, exist_ok=True)
    for split, pairs in task.splits().items():
        for i, lang in enumerate(("src", "trg")):
            (data_dir / f"{split}.{lang}").write_text("".join(p[i] + "\n" for p in pairs), encoding="utf-8")


@torch.no_grad()
def dev_perplexity(model, data) -> tuple[float, int]:
    """exp(mean NLL per real target token, EOS included), as the package's ``evaluate_loss``."""
    total, n = 0.0, 0
    for batch in data.make_iter(batch_size=4096, batch_type="token", shuffle=False, seed=data.seed,
                                pad_index=model.pad_index, eos_index=model.eos_index):
        out, _, _, _ = model._encode_decode(src=batch.src, trg_input=batch.trg_input, src_mask=batch.src_mask,
                                            src_length=batch.src_length, trg_mask=batch.trg_mask)
        lp = F.log_softmax(out.float(), dim=-1)
        total += F.nll_loss(lp.reshape(-1, lp.size(-1)), batch.trg.reshape(-1), ignore_index=model.pad_index,
                            reduction="sum").item()
        n += int((batch.trg != model.pad_index).sum())
    return math.exp(total / n), n


def train_joeynmt(cfg: dict, bleu_below_ppl: float) -> tuple[C.Curve, dict[str, Any]]:
    import joeynmt
    import joeynmt.training as T

    curve = C.Curve(NAME)
    extra: dict[str, Any] = {"joeynmt": joeynmt.__version__, "joeynmt_ppl": [], "batches": []}
    state = {"t0": 0.0, "eval": 0.0, "clipped": 0, "steps": 0}
    original = {"init": T.TrainManager.__init__, "step": T.TrainManager._train_step,
                "tv": T.TrainManager.train_and_validate, "val": T.TrainManager._validate}

    def init(self, *a, **k):
        original["init"](self, *a, **k)
        clip = self.clip_grad_fun

        def counting_clip(parameters):
            params = [p for p in self.model.parameters() if p.grad is not None]
            norm = torch.nn.utils.clip_grad_norm_(params, math.inf) if clip is None else clip(parameters=params)
            state["clipped"] += int(float(norm) > cfg["training"]["clip_grad_norm"])
            state["steps"] += 1
        self.clip_grad_fun = counting_clip

    def train_step(self, batch):
        if len(extra["batches"]) < 2000:
            extra["batches"].append([int(batch.nseqs), int(batch.ntokens), int(batch.trg.numel())])
        return original["step"](self, batch)

    def train_and_validate(self, train_data, valid_data):
        state["t0"] = time.process_time()
        return original["tv"](self, train_data, valid_data)

    def validate(self, valid_data):
        start = time.process_time()
        was = self.model.training
        self.model.eval()
        ppl, _ = dev_perplexity(self.model, valid_data)
        self.model.train(was)
        bleu, joey_ppl = None, None
        if ppl <= bleu_below_ppl:
            original["val"](self, valid_data)
            last = (Path(self.model_dir) / "validations.txt").read_text().strip().splitlines()[-1]
            fields = dict(f.split(": ") for f in last.split("\t") if ": " in f)
            bleu, joey_ppl = float(fields["bleu"]), float(fields["ppl"])
        curve.updates.append(int(self.stats.steps))
        curve.cpu_s.append(start - state["t0"] - state["eval"])
        curve.dev_ppl.append(ppl)
        curve.dev_bleu.append(bleu)
        curve.lr.append(float(self.optimizer.param_groups[0]["lr"]))
        curve.clip_rate.append(state["clipped"] / max(1, state["steps"]))
        extra["joeynmt_ppl"].append(joey_ppl)
        state["clipped"] = state["steps"] = 0
        state["eval"] += time.process_time() - start
        curve.eval_cpu_s = state["eval"]
        print(f"{NAME}: update {curve.updates[-1]}, dev ppl {ppl:.1f}" + (f", BLEU {bleu:.1f}" if bleu else ""),
              file=sys.stderr, flush=True)

    T.TrainManager.__init__, T.TrainManager._train_step = init, train_step
    T.TrainManager.train_and_validate, T.TrainManager._validate = train_and_validate, validate
    try:
        T.train(rank=0, world_size=1, cfg=copy.deepcopy(cfg), skip_test=True)  # JoeyNMT edits its cfg
    finally:
        T.TrainManager.__init__, T.TrainManager._train_step = original["init"], original["step"]
        T.TrainManager.train_and_validate, T.TrainManager._validate = original["tv"], original["val"]
    return curve, extra


class _Vocabulary:
    """What JoeyNMT's ``build_model`` reads of a vocabulary, with the package's special ids."""

    pad_index, bos_index, eos_index, unk_index, sep_index = 0, 1, 2, 3, None
    specials, lang_tags = ["<unk>", "<pad>", "<s>", "</s>"], []

    def __init__(self, size: int) -> None:
        self.size = size

    def lookup(self, token: str) -> int:
        return {"<pad>": 0, "<s>": 1, "</s>": 2, "<unk>": 3}[token]

    def __len__(self) -> int:
        return self.size


def copy_joeynmt_weights(package, joey) -> None:
    """Copy a JoeyNMT Transformer's parameters into the package :class:`Transformer` of the same
    sizes (its q, k, v matrices stacked into the package's fused ``in_proj``)."""
    def attention(ours, theirs):
        ours.in_proj.weight.copy_(torch.cat([theirs.q_layer.weight, theirs.k_layer.weight, theirs.v_layer.weight]))
        ours.in_proj.bias.copy_(torch.cat([theirs.q_layer.bias, theirs.k_layer.bias, theirs.v_layer.bias]))
        ours.out_proj.weight.copy_(theirs.output_layer.weight)
        ours.out_proj.bias.copy_(theirs.output_layer.bias)

    def norm(ours, theirs):
        ours.weight.copy_(theirs.weight)
        ours.bias.copy_(theirs.bias)

    def ffn(ours, theirs):
        for mine, index in ((ours.linear1, 0), (ours.linear2, 3)):
            mine.weight.copy_(theirs.pwff_layer[index].weight)
            mine.bias.copy_(theirs.pwff_layer[index].bias)

    with torch.no_grad():
        package.src_embed.weight.copy_(joey.src_embed.lut.weight)
        package.tgt_embed.weight.copy_(joey.trg_embed.lut.weight)
        for ours, theirs in zip(package.encoder_layers, joey.encoder.layers):
            attention(ours.self_attn, theirs.src_src_att)
            norm(ours.norm1, theirs.layer_norm)
            norm(ours.norm2, theirs.feed_forward.layer_norm)
            ffn(ours.ffn, theirs.feed_forward)
        for ours, theirs in zip(package.decoder_layers, joey.decoder.layers):
            attention(ours.self_attn, theirs.trg_trg_att)
            attention(ours.cross_attn, theirs.src_trg_att)
            norm(ours.norm1, theirs.x_layer_norm)
            norm(ours.norm2, theirs.dec_layer_norm)
            norm(ours.norm3, theirs.feed_forward.layer_norm)
            ffn(ours.ffn, theirs.feed_forward)
        norm(package.encoder_norm, joey.encoder.layer_norm)
        norm(package.decoder_norm, joey.decoder.layer_norm)


def equivalence(cfg: dict, recipe: C.Recipe) -> dict[str, Any]:
    """Is JoeyNMT's Transformer the package's? Copy a freshly built JoeyNMT model's parameters
    into the package model and compare the logits of the first dev batch (evaluation mode)."""
    from joeynmt.model import build_model

    from companion.models.transformer import Transformer

    data = C.reversal_data(C.ReversalTask())
    size = len(data.tgt_vocab)
    torch.manual_seed(0)
    joey = build_model(copy.deepcopy(cfg["model"]), _Vocabulary(len(data.src_vocab)), _Vocabulary(size))
    package = Transformer(len(data.src_vocab), size, **recipe.sizes, attention_dropout=recipe.dropout,
                          activation_dropout=recipe.dropout)
    copy_joeynmt_weights(package, joey)
    joey.eval()
    package.eval()
    batch = next(iter(data.loader("dev", recipe.max_tokens, shuffle=False)))
    with torch.no_grad():
        src_mask, trg_mask = (batch.src != 0).unsqueeze(1), (batch.tgt_in != 0).unsqueeze(1)
        theirs, _, _, _ = joey._encode_decode(src=batch.src, trg_input=batch.tgt_in, src_mask=src_mask,
                                              src_length=src_mask.sum(-1).squeeze(1), trg_mask=trg_mask)
        ours = package(batch)
    real = batch.tgt_out != 0
    return {"max_abs_logit_difference": float((theirs - ours)[real].abs().max()),
            "logit_sd": float(theirs[real].std()), "positions": int(real.sum()),
            "parameters_joeynmt": sum(p.numel() for p in joey.parameters()),
            "parameters_package": sum(p.numel() for p in package.parameters()),
            "note": "JoeyNMT's LayerNorm eps is 1e-6, the package's 1e-5"}


def main(argv: list[str] | None = None) -> int:
    import convergence as S  # scripts/convergence.py: sizes, targets and the record

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=None, help=f"record path (default book/results/{S.NAME}.json)")
    ap.add_argument("--max-steps", type=int, default=S.SIZES["full"].max_steps)
    ap.add_argument("--equivalence", action="store_true",
                    help="only compare JoeyNMT's model with the package's on copied weights (seconds)")
    args = ap.parse_args(argv)
    try:
        import joeynmt  # noqa: F401
    except ImportError:
        print("error: JoeyNMT is not installed in this environment (pip install joeynmt==2.3.0)", file=sys.stderr)
        return 2
    torch.set_num_threads(1)
    size, task = S.SIZES["full"], C.ReversalTask()
    if args.equivalence:
        cfg = joey_config(size.recipe, Path("data"), Path("model"), args.max_steps, size.eval_every)
        check = equivalence(cfg, size.recipe)
        path = S.merge(args.out or S.RESULTS_DIR / f"{S.NAME}.json", {}, task, quick=False,
                       extra_results={"equivalence": check})
        print(json.dumps({"record": str(path), "equivalence": check}))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        write_task(task, Path(tmp) / "data")
        cfg = joey_config(size.recipe, Path(tmp) / "data", Path(tmp) / "model", args.max_steps, size.eval_every)
        (Path(tmp) / "model").mkdir()
        wall = time.perf_counter()
        curve, extra = train_joeynmt(cfg, size.bleu_below_ppl)
        wall = time.perf_counter() - wall
    entry = {"size": "full", "label": "JoeyNMT 2.3", "what": "JoeyNMT 2.3 itself, the same task and recipe",
             "loop": "joeynmt", "model": "joeynmt", "options": {}, "recipe": {}, "bucketed": False,
             "misread": False, "seed": 42, "joeynmt_config": cfg, **extra, "curve": curve.to_dict(),
             "to_ppl_10": curve.to_point("dev_ppl", below=S.TARGET_PPL),
             "to_bleu_40": curve.to_point("dev_bleu", above=S.TARGET_BLEU), "wall_s": wall,
             "eval_cpu_s": curve.eval_cpu_s}
    path = S.merge(args.out or S.RESULTS_DIR / f"{S.NAME}.json", {NAME: entry}, task, quick=False)
    print(json.dumps({"record": str(path), "experiments": [NAME]}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
