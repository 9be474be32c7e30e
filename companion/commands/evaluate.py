"""``companion evaluate --checkpoint CKPT [CKPT ...] --data DIR --split test [decode-time options]``

Prints sacrebleu BLEU and chrF of the detokenized translations (with their signatures) and the
teacher-forced perplexity ``exp(sum NLL / #target tokens)`` on the split. Several checkpoints are
evaluated as one ensemble, as ``translate`` decodes them: its translations, and the perplexity
of its averaged distribution (:class:`~companion.decoding.ensemble.Ensemble`). The decode-time
options are ``translate``'s (one translation per sentence); what the limits cut or skipped is
said on stderr, one ``warning:`` line per kind. Every path and number is checked before the
corpus is decoded.
"""

from __future__ import annotations

import argparse
import sys

from companion.commands.options import add_decode_options, check_decode_options, decode_settings, load_translator
from companion.decoding.corpus import translate_sentences
from companion.decoding.settings import DecodeTally
from companion.evaluation.metrics import corpus_bleu, corpus_chrf
from companion.training.rundir import make_split_loader
from companion.training.trainer import evaluate_loss
from companion.validation import check_input_dir, check_output_file


def configure_parser(parser: argparse.ArgumentParser) -> None:
    add_decode_options(parser)
    parser.add_argument("--data", required=True, help="directory with {split}.{src,tgt} files")
    parser.add_argument("--split", default="test", help="split name (default: test)")
    parser.add_argument("--hyps", default=None, help="also write the translations to this file")


def run(args: argparse.Namespace) -> int:
    device = check_decode_options(args)
    check_input_dir("--data", args.data, "data directory")
    if args.hyps:
        check_output_file("--hyps", args.hyps)
    model, src_vocab, tgt_vocab, cfg, ckpt = load_translator(args.checkpoint, device)
    settings = decode_settings(args, cfg, model, tgt_vocab, nbest=1)
    loader, pairs = make_split_loader(cfg, args.data, args.split, src_vocab, tgt_vocab, shuffle=False)
    tally = DecodeTally()
    results = translate_sentences(model, src_vocab, tgt_vocab, [s for s, _ in pairs], settings,
                                  batch_size=args.batch_size, tally=tally,
                                  label=lambda i: f"{args.data}: {args.split} pair {i + 1}")
    hyps = [r[0][0] if r else "" for r in results]
    refs = [t for _, t in pairs]
    if args.hyps:
        with open(args.hyps, "w", encoding="utf-8") as f:
            f.writelines(h + "\n" for h in hyps)
    nll, ppl, ntok = evaluate_loss(model, loader, device)
    members = len(args.checkpoint)
    what = f"an ensemble of {members} checkpoints, the first at step {ckpt['step']}" if members > 1 else \
        f"checkpoint step {ckpt['step']}"
    print(f"{args.split}: {len(pairs)} sentences, {what}, beam {settings.beam}")
    print(corpus_bleu(hyps, refs))
    print(corpus_chrf(hyps, refs))
    print(f"perplexity = {ppl:.3f}  (teacher-forced: exp of mean NLL {nll:.4f} nats over {ntok} target tokens)")
    for note in tally.notes(settings):
        print(f"warning: {note}", file=sys.stderr)
    return 0
