"""The training presets shipped with the package: ``cpu/<family>`` (what the book's chapters
train, minutes on one CPU thread) and ``gpu/<family>`` (the papers' sizes), one YAML file each
under this folder (package data, so an installed wheel has them; the repository's ``configs/``
is a link here).

``companion train --config cpu/transformer`` takes a preset by name, ``--config FILE`` a YAML
file; ``companion presets`` lists the presets with their first comment line::

    from companion import presets
    presets.names()                  # ['cpu/rnnencdec', ..., 'gpu/transformer']
    presets.path("gpu/rnnsearch")    # .../companion/presets/gpu/rnnsearch.yaml
"""

from __future__ import annotations

from pathlib import Path

from companion.errors import ConfigError

#: the folder that holds ``cpu/*.yaml`` and ``gpu/*.yaml``
PRESETS_DIR = Path(__file__).resolve().parent


def names() -> list[str]:
    """Every preset name, ``profile/family``, sorted."""
    return sorted(f"{p.parent.name}/{p.stem}" for p in PRESETS_DIR.glob("*/*.yaml"))


def path(name: str) -> Path:
    """The file of preset ``name`` (``cpu/transformer``; a trailing ``.yaml`` is accepted); a
    one-line :class:`ConfigError` for another name, suggesting the presets of a bare family name."""
    stem = name[: -len(".yaml")] if name.endswith(".yaml") else name
    if stem in names():
        return PRESETS_DIR / f"{stem}.yaml"
    close = [n for n in names() if n.split("/")[1] == stem]
    hint = f"did you mean {' or '.join(close)}?" if close else f"the presets are {', '.join(names())}"
    raise ConfigError(f"{name}: config file not found, nor a preset ({hint})")


def summary(name: str) -> str:
    """The first line of preset ``name``'s file, without its ``#``."""
    first = path(name).read_text(encoding="utf-8").splitlines()[0]
    return first.lstrip("#").strip()


def resolve(config: str | Path) -> Path:
    """What ``--config`` names: an existing file (or directory, refused later as such) first,
    else a preset."""
    candidate = Path(config)
    if candidate.exists():
        return candidate
    return path(str(config))


__all__ = ["PRESETS_DIR", "names", "path", "resolve", "summary"]
