"""The ``companion`` command line: ``companion <command> [options]``.

Each command lives in the module that owns its concept; that module defines
``configure_parser(parser)`` and ``run(args) -> int``; the table below names them, so adding
a command touches one line here.

Errors a user can cause print one line, ``error: <message>``, and exit with status 2: a
:class:`companion.errors.CompanionError` raised by a command (each command checks its paths,
numbers and device before its expensive work), a malformed command line (argparse's own errors,
reformatted), and an operating-system error on a file (for example a full disk). Ctrl-C exits
with status 130.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from companion import __version__
from companion.errors import CompanionError


class CommandLineParser(argparse.ArgumentParser):
    """argparse with the package's error format: one line on stderr, exit status 2."""

    def error(self, message: str):  # noqa: D102 - argparse's hook
        self.exit(2, f"error: {self.prog}: {message} (see {self.prog} --help)\n")


#: command name -> (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "generate-data": ("companion.data.kosynth", "write the generated Korean-English corpus"),
    "presets": ("companion.commands.presets", "list the training presets (--config cpu/seq2seq ...)"),
    "prepare": ("companion.commands.prepare", "encode a corpus once into RUN/data-bin (and its vocabularies)"),
    "train": ("companion.commands.train", "train a preset or a YAML config on a corpus directory"),
    "translate": ("companion.commands.translate", "translate stdin to stdout with a checkpoint"),
    "evaluate": ("companion.commands.evaluate", "BLEU, chrF and perplexity of a checkpoint on a split"),
    "average": ("companion.commands.average", "average the weights of checkpoints (Vaswani et al.)"),
    "export": ("companion.commands.export", "write a run as ONNX graphs or a CTranslate2 model"),
}


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser; only the command named in ``argv`` has its module imported and its options
    added, so one command never pays for (or breaks because of) another's imports."""
    parser = CommandLineParser(
        prog="companion",
        description="Train, decode and evaluate the models of the seq2seq monograph.",
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    wanted = next((a for a in (argv or []) if not a.startswith("-")), None)
    for name, (module, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.set_defaults(_module=module)
        if argv is None or name == wanted:
            importlib.import_module(module).configure_parser(p)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        return int(importlib.import_module(args._module).run(args) or 0)
    except CompanionError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # a file that vanished, a full disk: the file and the reason, no traceback
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"error: {where}{exc.strerror or exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
