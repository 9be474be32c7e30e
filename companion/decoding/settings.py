"""Decode-time settings: a checkpoint's ``decode`` section with the overrides a caller gives,
checked in one place for the command line (``--beam``, ``--nbest``, ``--lenpen``,
``--max-len-a``, ``--max-len-b``, ``--max-source-len``, ``--on-long``, fairseq's names) and for
:meth:`companion.translator.Translator.translate` (the same names as keywords).

Two limits bound the work of one sentence:

- the *source* limit, ``max_source_len`` tokens (EOS included): the model's
  ``max_source_positions`` when it has one, else :data:`DEFAULT_MAX_SOURCE_LEN` (fairseq's
  default for its Transformer). A longer source is refused (``on_long="error"``), skipped
  (``"skip"``: an empty output, counted) or cut to its first ``max_source_len - 1`` pieces and
  EOS (``"truncate"``, counted). Without it one pasted paragraph of 27,000 pieces decodes for
  ``1.5 * 27,000 + 10`` steps and holds a key/value cache that grows with every one;
- the *output* limit ``floor(max_len_a * |src| + max_len_b)`` of
  :func:`~companion.decoding.search.max_lengths`; a best hypothesis that reached it before EOS
  is counted (:class:`DecodeTally`), since a 1-best output line carries no sign of it.

A beam wider than the tokens the model can generate (its target vocabulary less PAD and BOS) is
refused: no search step can fill it, and such a width is a typo far more often than a wish
(``--beam 200000`` for ``--beam 20``); narrowing it silently would decode something the user
did not ask for.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.errors import ConfigError, DataError
from companion.specials import EOS, NEVER_GENERATED
from companion.validation import check_float, check_int

#: the source limit (tokens, EOS included) of a model that declares none (fairseq's default
#: ``max_source_positions`` for its Transformer)
DEFAULT_MAX_SOURCE_LEN = 1024

#: what to do with a source longer than the limit
ON_LONG = ("error", "skip", "truncate")

#: how each setting is named on the command line (the API uses the keyword names)
CLI_NAMES = {"beam": "--beam", "nbest": "--nbest", "lenpen": "--lenpen", "max_len_a": "--max-len-a",
             "max_len_b": "--max-len-b", "max_source_len": "--max-source-len", "on_long": "--on-long"}
API_NAMES = {name: name for name in CLI_NAMES}

#: where each setting comes from when no override is given
CONFIG_KEYS = {"beam": "decode.beam_size", "nbest": "decode.nbest", "lenpen": "decode.length_penalty",
               "max_len_a": "decode.max_len_a", "max_len_b": "decode.max_len_b"}


@dataclass(frozen=True)
class DecodeSettings:
    """What one decoding run uses.

    Attributes:
        beam: beam size ``k`` (1: greedy search).
        nbest: hypotheses returned per sentence (``<= beam``).
        lenpen: length-penalty exponent ``alpha`` (GNMT form; unused by greedy search).
        max_len_a, max_len_b: the output limit ``floor(a * |src| + b)`` tokens, EOS included.
        max_source_len: the source limit in tokens, EOS included.
        on_long: ``"error"``, ``"skip"`` or ``"truncate"``: what a longer source gets.
        names: how the settings are named in messages (:data:`CLI_NAMES` or :data:`API_NAMES`).
    """

    beam: int
    nbest: int
    lenpen: float
    max_len_a: float
    max_len_b: int
    max_source_len: int
    on_long: str = "error"
    names: dict = field(default_factory=lambda: dict(API_NAMES), compare=False, repr=False)

    def search_options(self) -> dict:
        """Keyword arguments of :func:`~companion.decoding.search.beam_search` besides the
        beam and n-best sizes (greedy search takes no length penalty)."""
        options = {"max_len_a": self.max_len_a, "max_len_b": self.max_len_b}
        if self.beam > 1:
            options["length_penalty"] = self.lenpen
        return options

    def fit_source(self, ids: list[int], label: str) -> list[int] | None:
        """``ids`` (a source ending with EOS) within the source limit: unchanged when it fits,
        else refused (a one-line :class:`DataError` naming ``label``), None (skip) or its first
        ``max_source_len - 1`` ids and EOS (truncate)."""
        if len(ids) <= self.max_source_len:
            return ids
        if self.on_long == "skip":
            return None
        if self.on_long == "truncate":
            return [*ids[: self.max_source_len - 1], EOS]
        n = self.names
        other = (f"{n['on_long']} skip or truncate" if n["on_long"].startswith("-")
                 else f"{n['on_long']}='skip' or 'truncate'")
        raise DataError(f"{label}: {len(ids)} source tokens (EOS included) exceed {n['max_source_len']} "
                        f"{self.max_source_len}; raise it, or pass {other}")


def generatable_tokens(vocab_size: int) -> int:
    """How many tokens a search can choose from at each step: the vocabulary less the ids no
    search generates (PAD and BOS)."""
    return vocab_size - len(NEVER_GENERATED)


def check_beam_fits(beam: int, vocab_size: int, name: str = "beam_size", where: str = "decode") -> None:
    """Refuse (one-line :class:`ConfigError`) a beam wider than :func:`generatable_tokens`."""
    most = generatable_tokens(vocab_size)
    if beam > most:
        raise ConfigError(f"{where + ': ' if where else ''}{name} {beam} exceeds the {most} tokens the model can "
                          f"generate (a target vocabulary of {vocab_size} less PAD and BOS), so no search can "
                          f"fill it; use a beam of {most} or less")


def model_max_source_len(model: Any) -> int:
    """The source limit a model declares (``max_source_positions``; for an ensemble, the least
    of its members'), else :data:`DEFAULT_MAX_SOURCE_LEN`."""
    members = getattr(model, "models", None)
    members = list(members) if isinstance(members, (list, tuple)) else [model]
    declared = [int(m.max_source_positions) for m in members
                if isinstance(getattr(m, "max_source_positions", None), int)]
    return min(declared) if declared else DEFAULT_MAX_SOURCE_LEN


def resolve_settings(decode: Any, model: Any, tgt_vocab_size: int, *, beam: int | None = None,
                     nbest: int | None = None, lenpen: float | None = None, max_len_a: float | None = None,
                     max_len_b: int | None = None, max_source_len: int | None = None,
                     on_long: str | None = None, names: dict = API_NAMES, where: str = "") -> DecodeSettings:
    """The settings of a run whose config section ``decode`` (a
    :class:`~companion.config.DecodeConfig`) is overridden by every argument that is not None;
    each override is checked (a one-line :class:`ConfigError` that uses ``names``), and so is the
    combination (n-best within the beam, the beam within the target vocabulary, an output limit
    of at least one token)."""
    prefix = f"{where}: " if where else ""
    given = {"beam": beam, "nbest": nbest, "lenpen": lenpen, "max_len_a": max_len_a, "max_len_b": max_len_b}
    if beam is not None:
        check_int(names["beam"], beam, 1, where=where)
    if nbest is not None:
        check_int(names["nbest"], nbest, 1, where=where)
        if beam is not None and nbest > beam:
            raise ConfigError(f"{prefix}{names['nbest']} {nbest} exceeds {names['beam']} {beam}")
    if lenpen is not None:
        check_float(names["lenpen"], lenpen, 0.0, where=where)
    if max_len_a is not None:
        check_float(names["max_len_a"], max_len_a, 0.0, where=where)
    if max_len_b is not None and (isinstance(max_len_b, bool) or not isinstance(max_len_b, int)):
        raise ConfigError(f"{prefix}{names['max_len_b']} must be an integer, got {max_len_b!r}")
    if max_source_len is not None:
        check_int(names["max_source_len"], max_source_len, 1, where=where)
    if on_long is not None and on_long not in ON_LONG:
        raise ConfigError(f"{prefix}{names['on_long']} must be one of {', '.join(ON_LONG)}, got {on_long!r}")
    settings = DecodeSettings(
        beam=decode.beam_size if beam is None else beam,
        nbest=decode.nbest if nbest is None else nbest,
        lenpen=float(decode.length_penalty if lenpen is None else lenpen),
        max_len_a=float(decode.max_len_a if max_len_a is None else max_len_a),
        max_len_b=int(decode.max_len_b if max_len_b is None else max_len_b),
        max_source_len=model_max_source_len(model) if max_source_len is None else max_source_len,
        on_long="error" if on_long is None else on_long, names=dict(names))

    def label(key: str) -> str:
        return names[key] if given[key] is not None else f"the checkpoint's {CONFIG_KEYS[key]}"

    if settings.nbest > settings.beam:
        pass_ = (f"pass {names['nbest']} {settings.beam} or less" if nbest is None
                 else f"pass {names['beam']} {settings.nbest} or more")
        raise ConfigError(f"{prefix}{label('nbest')} {settings.nbest} exceeds {label('beam')} {settings.beam}; {pass_}")
    if settings.max_len_a + settings.max_len_b < 1:  # the shortest source is one token (its EOS)
        raise ConfigError(f"{prefix}{label('max_len_a')} * |src| + {label('max_len_b')} must allow at least one "
                          f"output token, got {settings.max_len_a:g} * 1 + {settings.max_len_b}")
    check_beam_fits(settings.beam, tgt_vocab_size, label("beam"), where)
    return settings


@dataclass
class DecodeTally:
    """What a decoding run had to skip, shorten or cut, and the empty outputs it gave, counted
    over ``sentences`` inputs; :meth:`notes` says it in one line per kind (never one per
    sentence)."""

    sentences: int = 0
    skipped: int = 0
    shortened: int = 0
    cut: int = 0
    empty: int = 0

    def notes(self, settings: DecodeSettings) -> list[str]:
        """One line for each count that is not zero, naming the setting that governs it."""
        n, names = self.sentences, settings.names
        out = []
        if self.skipped:
            out.append(f"{self.skipped} of {n} sources skipped (longer than {names['max_source_len']} "
                       f"{settings.max_source_len} tokens, EOS included); each gave an empty output")
        if self.shortened:
            out.append(f"{self.shortened} of {n} sources truncated to {names['max_source_len']} "
                       f"{settings.max_source_len} tokens (EOS included)")
        if self.cut:
            out.append(f"{self.cut} of {n} translations cut at the output length limit before EOS "
                       f"({names['max_len_a']} {settings.max_len_a:g} * |src| + {names['max_len_b']} "
                       f"{settings.max_len_b})")
        if self.empty:
            out.append(f"{self.empty} of {n} translations are empty for a non-empty source (the search "
                       f"ranked EOS first)")
        return out


__all__ = ["API_NAMES", "CLI_NAMES", "DEFAULT_MAX_SOURCE_LEN", "DecodeSettings", "DecodeTally", "ON_LONG",
           "check_beam_fits", "generatable_tokens", "model_max_source_len", "resolve_settings"]
