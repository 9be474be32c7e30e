"""``companion translate --checkpoint CKPT [--beam K] [--nbest N]``: stdin -> stdout.

One source sentence per input line; one detokenized translation per output line. With
``--nbest N > 1`` each input gets N lines in Moses n-best style: ``i ||| text ||| score``.
"""

from __future__ import annotations

import argparse
import sys

from companion.errors import DataError
from companion.specials import EOS


def configure_parser(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--checkpoint", required=True, help="a checkpoint-*.pt file")
    parser.add_argument("--beam", type=int, default=None, help="beam size (default: decode.beam_size)")
    parser.add_argument("--nbest", type=int, default=1, help="translations per sentence")
    parser.add_argument("--batch-size", type=int, default=64, help="sentences decoded together")
    parser.add_argument("--device", default="cpu", help="cpu or cuda")


def run(args: argparse.Namespace) -> int:
    from companion.decoding.corpus import decode_corpus
    from companion.training.rundir import load_run

    model, src_vocab, tgt_vocab, cfg, _ = load_run(args.checkpoint, args.device)
    beam = args.beam if args.beam is not None else cfg.decode.beam_size
    try:
        lines = [line.rstrip("\n") for line in sys.stdin]
    except UnicodeDecodeError:
        raise DataError("stdin: input is not valid UTF-8") from None
    sources = [list(src_vocab.encode(line)) + [EOS] for line in lines]
    hyps = decode_corpus(model, sources, beam_size=max(beam, args.nbest), nbest=args.nbest,
                         batch_size=args.batch_size, max_len_a=cfg.decode.max_len_a,
                         max_len_b=cfg.decode.max_len_b,
                         **({"length_penalty": cfg.decode.length_penalty} if max(beam, args.nbest) > 1 else {}))
    out = sys.stdout
    for i, hs in enumerate(hyps):
        if args.nbest == 1:
            out.write(tgt_vocab.decode(hs[0].tokens) + "\n")
        else:
            for h in hs:
                out.write(f"{i} ||| {tgt_vocab.decode(h.tokens)} ||| {h.score:.4f}\n")
    out.flush()
    return 0
