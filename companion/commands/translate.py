"""``companion translate --checkpoint CKPT [--beam K] [--nbest N]``: stdin -> stdout.

One source sentence per input line; one detokenized translation per output line. With
``--nbest N > 1`` each input gets N lines in Moses n-best style: ``i ||| text ||| score``;
``N`` may not exceed the beam size.
"""

from __future__ import annotations

import argparse
import sys

from companion.commands.options import add_decode_options, check_decode_options
from companion.errors import ConfigError, DataError
from companion.validation import check_int


def configure_parser(parser: argparse.ArgumentParser) -> None:
    add_decode_options(parser)
    parser.add_argument("--nbest", type=int, default=1, help="translations per sentence (<= beam)")


def run(args: argparse.Namespace) -> int:
    from companion.data.batching import source_ids
    from companion.decoding.corpus import decode_corpus
    from companion.training.rundir import load_run, search_options

    device = check_decode_options(args)
    check_int("--nbest", args.nbest, 1)
    if args.beam is not None and args.nbest > args.beam:
        raise ConfigError(f"--nbest {args.nbest} exceeds --beam {args.beam}")
    model, src_vocab, tgt_vocab, cfg, _ = load_run(args.checkpoint, device)
    beam = args.beam if args.beam is not None else cfg.decode.beam_size
    if args.nbest > beam:
        raise ConfigError(f"--nbest {args.nbest} exceeds the checkpoint's decode.beam_size {beam}; "
                          f"pass --beam {args.nbest} or more")
    try:
        lines = [line.rstrip("\n") for line in sys.stdin]
    except UnicodeDecodeError:
        raise DataError("stdin: input is not valid UTF-8") from None
    sources = [source_ids(src_vocab, line) for line in lines]
    hyps = decode_corpus(model, sources, beam_size=beam, nbest=args.nbest, batch_size=args.batch_size,
                         **search_options(cfg, beam))
    out = sys.stdout
    for i, hs in enumerate(hyps):
        if args.nbest == 1:
            out.write(tgt_vocab.decode(hs[0].tokens) + "\n")
        else:
            for h in hs:
                out.write(f"{i} ||| {tgt_vocab.decode(h.tokens)} ||| {h.score:.4f}\n")
    out.flush()
    return 0
