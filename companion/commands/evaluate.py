"""``companion evaluate --checkpoint CKPT --data DIR --split test``

Prints sacrebleu BLEU and chrF of the detokenized translations (with their signatures) and the
teacher-forced perplexity ``exp(sum NLL / #target tokens)`` on the split. Every path and number
is checked before the corpus is decoded.
"""

from __future__ import annotations

import argparse

from companion.commands.options import add_decode_options, check_decode_options, load_translator
from companion.validation import check_input_dir, check_output_file


def configure_parser(parser: argparse.ArgumentParser) -> None:
    add_decode_options(parser)
    parser.add_argument("--data", required=True, help="directory with {split}.{src,tgt} files")
    parser.add_argument("--split", default="test", help="split name (default: test)")
    parser.add_argument("--hyps", default=None, help="also write the translations to this file")


def run(args: argparse.Namespace) -> int:
    from companion.decoding.corpus import translate_corpus
    from companion.evaluation.metrics import corpus_bleu, corpus_chrf
    from companion.training.rundir import make_split_loader, search_options
    from companion.training.trainer import evaluate_loss

    device = check_decode_options(args)
    check_input_dir("--data", args.data, "data directory")
    if args.hyps:
        check_output_file("--hyps", args.hyps)
    model, src_vocab, tgt_vocab, cfg, ckpt = load_translator(args.checkpoint, device)
    loader, pairs = make_split_loader(cfg, args.data, args.split, src_vocab, tgt_vocab, shuffle=False)
    beam = args.beam if args.beam is not None else cfg.decode.beam_size
    hyps = translate_corpus(model, src_vocab, tgt_vocab, [s for s, _ in pairs], beam_size=beam,
                            batch_size=args.batch_size, **search_options(cfg, beam))
    refs = [t for _, t in pairs]
    if args.hyps:
        with open(args.hyps, "w", encoding="utf-8") as f:
            f.writelines(h + "\n" for h in hyps)
    nll, ppl, ntok = evaluate_loss(model, loader, device)
    print(f"{args.split}: {len(pairs)} sentences, checkpoint step {ckpt['step']}, beam {beam}")
    print(corpus_bleu(hyps, refs))
    print(corpus_chrf(hyps, refs))
    print(f"perplexity = {ppl:.3f}  (teacher-forced: exp of mean NLL {nll:.4f} nats over {ntok} target tokens)")
    return 0
