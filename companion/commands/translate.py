"""``companion translate --checkpoint CKPT [CKPT ...] [decode-time options]``: stdin -> stdout.

One source sentence per input line (UTF-8); one detokenized translation per output line. With
several checkpoints the models decode as one ensemble (they must share both vocabularies). With
``N > 1`` translations per sentence (``--nbest``, else the checkpoint's ``decode.nbest``) each
input gets ``N`` lines in the Moses n-best format::

    i ||| translation ||| log_prob= -3.218403 length= 6 truncated= 0 ||| -1.609201

(``i`` counts input lines from 0; the features are the hypothesis' log-probability, its length
in tokens (EOS included) and 1 if the length limit cut it before EOS; the last field is the score
it was ranked by, the log-probability divided by the length penalty). ``N`` may not exceed the
beam size.

Decode-time options override the checkpoint's ``decode`` section (``--beam``, ``--nbest``,
``--lenpen``, ``--max-len-a``, ``--max-len-b``) and bound the source (``--max-source-len``,
``--on-long``; see :mod:`companion.decoding.settings`). Input is decoded as it arrives, as by
``fairseq-interactive``: a batch is decoded once ``--buffer-size`` lines are read or the input
pauses, and its translations are written and flushed before more input is awaited. At the end,
one ``warning:`` line on stderr per kind says how many sources were skipped or truncated, how
many translations the output limit cut and how many are empty for a non-empty source. A source
skipped at the limit gets an empty line (no line with ``--nbest`` above 1).
"""

from __future__ import annotations

import argparse
import os
import select
import sys
from collections.abc import Iterator
from typing import IO

from companion.commands.options import add_decode_options, check_decode_options, decode_settings, load_translator
from companion.decoding.corpus import translate_sentences
from companion.decoding.settings import DecodeTally
from companion.errors import DataError
from companion.validation import check_int


def configure_parser(parser: argparse.ArgumentParser) -> None:
    add_decode_options(parser, nbest=True)
    parser.add_argument("--buffer-size", type=int, default=None, metavar="N",
                        help="decode once N lines are read or the input pauses (default: --batch-size)")


def _text(raw: bytes, number: int) -> str:
    """Line ``number`` (from 1) as text: strict UTF-8 (the first line may start with a BOM)."""
    try:
        line = raw.decode("utf-8-sig" if number == 1 else "utf-8")
    except UnicodeDecodeError as exc:
        utf16 = number == 1 and raw[:2] in (b"\xff\xfe", b"\xfe\xff")
        hint = " (it starts with a UTF-16 byte-order mark)" if utf16 else ""
        raise DataError(f"stdin line {number}: not valid UTF-8 (byte 0x{raw[exc.start]:02x} at byte "
                        f"{exc.start + 1}){hint}; translate reads UTF-8 text") from None
    return line.rstrip("\r\n")


def _checked(line: str, number: int) -> str:
    """A line of a text stream with no bytes beneath it, refused if it holds undecodable bytes
    (lone surrogates)."""
    try:
        line.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise DataError(f"stdin line {number}: not valid text (character {exc.start + 1} is an "
                        f"undecodable byte); translate reads UTF-8") from None
    return line.rstrip("\r\n")


def read_lines(stream: IO) -> list[str]:
    """The lines of ``stream`` without their line ends, decoded as strict UTF-8 from the bytes
    beneath it (a UTF-8 byte-order mark is dropped). A line that is not UTF-8 is a one-line
    :class:`DataError` naming it: reading the text layer instead would, under a UTF-8 locale
    (``surrogateescape``), hand undecodable bytes on to the tokenizer as lone surrogates."""
    return [line for batch in line_batches(stream, 1 << 30) for line in batch]


def _ready(fd: int) -> bool:
    """Whether reading ``fd`` would not block now."""
    try:
        return bool(select.select([fd], [], [], 0)[0])
    except (OSError, ValueError):
        return True


def line_batches(stream: IO, size: int) -> Iterator[list[str]]:
    """The lines of ``stream`` (as :func:`read_lines` decodes them) in batches of at most
    ``size``: a batch is handed on when it is full, or as soon as no more input is ready (so a
    line typed or piped in is decoded without waiting for the next ones or for the end)."""
    number = 0
    fd = None
    buffer = getattr(stream, "buffer", None)
    if buffer is not None and os.name == "posix":
        try:
            fd = buffer.fileno()
        except (OSError, ValueError, AttributeError):
            fd = None
    if fd is None:  # no file descriptor: read line by line (a text stream, or bytes beneath it)
        batch = []
        for raw in (buffer if buffer is not None else stream):
            number += 1
            batch.append(_text(raw, number) if buffer is not None else _checked(raw, number))
            if len(batch) == size:
                yield batch
                batch = []
        if batch:
            yield batch
        return
    pending, batch, eof = bytearray(), [], False
    while True:
        while len(batch) < size and (end := pending.find(b"\n")) >= 0:
            number += 1
            batch.append(_text(bytes(pending[: end + 1]), number))
            del pending[: end + 1]
        if eof and pending and len(batch) < size:  # a last line without its line end
            number += 1
            batch.append(_text(bytes(pending), number))
            pending.clear()
        if batch and (len(batch) >= size or eof or not _ready(fd)):
            yield batch
            batch = []
            continue
        if eof:
            return
        chunk = os.read(fd, 1 << 16)
        if chunk:
            pending += chunk
        else:
            eof = True


def moses_line(index: int, text: str, hyp) -> str:
    """One Moses n-best line: ``index ||| text ||| features ||| score`` (see the module docstring)."""
    return (f"{index} ||| {text} ||| log_prob= {hyp.log_prob:.6f} length= {len(hyp.tokens)} "
            f"truncated= {int(hyp.truncated)} ||| {hyp.score:.6f}\n")


def run(args: argparse.Namespace) -> int:
    device = check_decode_options(args)
    if args.buffer_size is not None:
        check_int("--buffer-size", args.buffer_size, 1)
    model, src_vocab, tgt_vocab, cfg, _ = load_translator(args.checkpoint, device)
    settings = decode_settings(args, cfg, model, tgt_vocab)
    tally = DecodeTally()
    out, index = sys.stdout, 0
    for lines in line_batches(sys.stdin, args.buffer_size or args.batch_size):
        first = index
        results = translate_sentences(model, src_vocab, tgt_vocab, lines, settings, batch_size=args.batch_size,
                                      tally=tally, label=lambda i, first=first: f"stdin line {first + i + 1}")
        for pairs in results:
            if settings.nbest == 1:
                out.write((pairs[0][0] if pairs else "") + "\n")
            else:
                out.writelines(moses_line(index, text, h) for text, h in pairs)
            index += 1
        out.flush()
    for note in tally.notes(settings):
        print(f"warning: {note}", file=sys.stderr)
    return 0
