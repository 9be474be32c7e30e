"""``companion translate --checkpoint CKPT [CKPT ...] [--beam K] [--nbest N]``: stdin -> stdout.

One source sentence per input line (UTF-8); one detokenized translation per output line. With
several checkpoints the models decode as one ensemble (they must share both vocabularies). With
``N > 1`` translations per sentence (``--nbest``, else the checkpoint's ``decode.nbest``) each
input gets ``N`` lines in the Moses n-best format::

    i ||| translation ||| log_prob= -3.218403 length= 6 truncated= 0 ||| -1.609201

(``i`` counts input lines from 0; the features are the hypothesis' log-probability, its length
in tokens (EOS included) and 1 if the length limit cut it before EOS; the last field is the score
it was ranked by, the log-probability divided by the length penalty). ``N`` may not exceed the
beam size.
"""

from __future__ import annotations

import argparse
import sys
from typing import IO

from companion.commands.options import add_decode_options, check_decode_options, load_translator
from companion.errors import ConfigError, DataError
from companion.validation import check_int


def configure_parser(parser: argparse.ArgumentParser) -> None:
    add_decode_options(parser, ensemble=True)
    parser.add_argument("--nbest", type=int, default=None,
                        help="translations per sentence (<= beam; default: decode.nbest)")


def read_lines(stream: IO) -> list[str]:
    """The lines of ``stream`` without their line ends, decoded as strict UTF-8 from the bytes
    beneath it (a UTF-8 byte-order mark is dropped). A line that is not UTF-8 is a one-line
    :class:`DataError` naming it: reading the text layer instead would, under a UTF-8 locale
    (``surrogateescape``), hand undecodable bytes on to the tokenizer as lone surrogates."""
    buffer = getattr(stream, "buffer", None)
    lines = []
    if buffer is None:  # a text stream with no bytes beneath it (an io.StringIO)
        for number, line in enumerate(stream, start=1):
            try:
                line.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise DataError(f"stdin line {number}: not valid text (character {exc.start + 1} is an "
                                f"undecodable byte); translate reads UTF-8") from None
            lines.append(line.rstrip("\r\n"))
        return lines
    for number, raw in enumerate(buffer, start=1):
        try:
            line = raw.decode("utf-8-sig" if number == 1 else "utf-8")
        except UnicodeDecodeError as exc:
            hint = " (it starts with a UTF-16 byte-order mark)" if number == 1 and raw[:2] in (b"\xff\xfe", b"\xfe\xff") else ""
            raise DataError(f"stdin line {number}: not valid UTF-8 (byte 0x{raw[exc.start]:02x} at byte "
                            f"{exc.start + 1}){hint}; translate reads UTF-8 text") from None
        lines.append(line.rstrip("\r\n"))
    return lines


def moses_line(index: int, text: str, hyp) -> str:
    """One Moses n-best line: ``index ||| text ||| features ||| score`` (see the module docstring)."""
    return (f"{index} ||| {text} ||| log_prob= {hyp.log_prob:.6f} length= {len(hyp.tokens)} "
            f"truncated= {int(hyp.truncated)} ||| {hyp.score:.6f}\n")


def run(args: argparse.Namespace) -> int:
    from companion.data.batching import source_ids
    from companion.decoding.corpus import decode_corpus
    from companion.training.rundir import search_options

    device = check_decode_options(args)
    if args.nbest is not None:
        check_int("--nbest", args.nbest, 1)
        if args.beam is not None and args.nbest > args.beam:
            raise ConfigError(f"--nbest {args.nbest} exceeds --beam {args.beam}")
    model, src_vocab, tgt_vocab, cfg, _ = load_translator(args.checkpoint, device)
    beam = args.beam if args.beam is not None else cfg.decode.beam_size
    nbest = args.nbest if args.nbest is not None else cfg.decode.nbest
    if nbest > beam:
        if args.nbest is None:
            raise ConfigError(f"the checkpoint's decode.nbest {nbest} exceeds --beam {beam}; "
                              f"pass --nbest {beam} or less")
        raise ConfigError(f"--nbest {nbest} exceeds the checkpoint's decode.beam_size {beam}; "
                          f"pass --beam {nbest} or more")
    lines = read_lines(sys.stdin)
    sources = [source_ids(src_vocab, line) for line in lines]
    hyps = decode_corpus(model, sources, beam_size=beam, nbest=nbest, batch_size=args.batch_size,
                         **search_options(cfg, beam))
    out = sys.stdout
    for i, hs in enumerate(hyps):
        if nbest == 1:
            out.write(tgt_vocab.decode(hs[0].tokens) + "\n")
        else:
            for h in hs:
                out.write(moses_line(i, tgt_vocab.decode(h.tokens), h))
    out.flush()
    return 0
