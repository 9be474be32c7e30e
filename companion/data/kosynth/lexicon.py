"""The lexicon: lemmas with their Korean and English forms and the features the grammar uses.

The data live in :mod:`companion.data.kosynth.tables` as compact text: ``ko:en`` items,
English multi-word forms written with ``_`` (``아이스크림:ice_cream``), flags after ``/``
(see the tables module). Selection restrictions -- which nouns a verb takes as subject or
object, which nouns an adjective describes -- are resolved here into tuples of
:class:`Noun` so that the grammar only ever draws sensible combinations.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.data.kosynth.english import plural as en_plural
from companion.data.kosynth.tables import (ADJECTIVE_TABLE, ADVERB_TABLE, COUNTERS,
                                           GIVEN_NAMES, GROUPS, NOUN_TABLES, SURNAMES,
                                           VERB_TABLE)


@dataclass(frozen=True)
class Noun:
    """A common noun. ``counter`` is the Korean classifier (개, 명, 마리, 권 ...; "" none)."""

    ko: str
    en: str
    cls: str
    counter: str
    mass: bool = False
    bare: bool = False
    en_plural: str = ""
    prep: str = "in"
    home: bool = False
    building: bool = False
    room: bool = False
    plural_only: bool = False

    @property
    def plural(self) -> str:
        return self.en_plural or en_plural(self.en)


@dataclass(frozen=True)
class Verb:
    """A verb with its frame: ``I`` intransitive, ``T`` transitive (을/를 object),
    ``D`` ditransitive (에게 recipient + 을/를 theme), ``M`` motion to a place (에),
    ``R`` a 에게 argument only (전화하다 "call", 이야기하다 "talk to")."""

    ko: str
    en: str
    frame: str
    subj: tuple[str, ...]  # "person" / "animal" classes
    subj_only: tuple[str, ...] = ()  # explicit subject nouns (Korean), if restricted
    objects: tuple[Noun, ...] = ()
    irr: str = ""
    prep: str = ""  # English preposition before the goal/recipient ("to", "at", "into")
    instr: tuple[Noun, ...] = ()  # instruments taking (으)로
    stative: bool = False  # like, hate, see: no progressive, no manner adverb


@dataclass(frozen=True)
class Adjective:
    ko: str
    en: str
    nouns: tuple[Noun, ...]  # the nouns it can describe, in table order
    person: bool = False  # describes people (names included)
    irr: str = ""


@dataclass(frozen=True)
class Adverb:
    ko: str
    en: str


@dataclass(frozen=True)
class Name:
    ko: str
    en: str


def _parse_noun(item: str, cls: str, counter: str) -> Noun:
    main, *flags = item.split("/")
    ko, en = main.split(":")
    kw: dict = {}
    for f in flags:
        if f == "m":
            kw["mass"] = True
        elif f == "0":
            kw["bare"] = True
        elif f == "h":
            kw["home"] = True
        elif f == "b":
            kw["building"] = True
        elif f == "r":
            kw["room"] = True
        elif f == "P":
            kw["plural_only"] = True
            kw["en_plural"] = en.replace("_", " ")
        elif f.startswith("p="):
            kw["en_plural"] = f[2:].replace("_", " ")
        elif f.startswith("@"):
            kw["prep"] = f[1:]
        elif f.startswith("c="):
            counter = "" if f[2:] == "-" else f[2:]
        else:
            raise ValueError(f"unknown noun flag {f!r} in {item!r}")
    return Noun(ko, en.replace("_", " "), cls, counter, **kw)


def _nouns() -> dict[str, tuple[Noun, ...]]:
    out = {}
    for cls, text in NOUN_TABLES.items():
        out[cls] = tuple(_parse_noun(item, cls, COUNTERS[cls]) for item in text.split())
    return out


NOUNS: dict[str, tuple[Noun, ...]] = _nouns()
NOUN_BY_KO: dict[str, Noun] = {n.ko: n for ns in NOUNS.values() for n in ns}
#: pseudo-classes selected by flags
_PSEUDO = {
    "building": tuple(n for n in NOUNS["place"] if n.building),
    "room": tuple(n for n in NOUNS["place"] if n.room),
}


def resolve(spec: str) -> tuple[Noun, ...]:
    """Nouns named by a spec such as ``"food,thing"`` or ``"toy,=돌,동전"`` (after ``=``, or
    any item that is not a class: Korean nouns), in order, without duplicates."""
    out: list[Noun] = []
    explicit = False
    for item in spec.split(","):
        if item.startswith("="):
            explicit, item = True, item[1:]
        if explicit or (item not in NOUNS and item not in GROUPS and item not in _PSEUDO):
            if item not in NOUN_BY_KO:
                raise ValueError(f"unknown noun {item!r} in {spec!r}")
            out.append(NOUN_BY_KO[item])
        elif item in GROUPS:
            out.extend(n for c in GROUPS[item] for n in NOUNS[c])
        elif item in _PSEUDO:
            out.extend(_PSEUDO[item])
        elif item in NOUNS:
            out.extend(NOUNS[item])
        else:
            raise ValueError(f"unknown class {item!r} in {spec!r}")
    seen: set[str] = set()
    uniq = []
    for n in out:
        if n.ko not in seen and not n.home:
            seen.add(n.ko)
            uniq.append(n)
    return tuple(uniq)


def _verbs() -> tuple[Verb, ...]:
    verbs = []
    for line in VERB_TABLE.strip().splitlines():
        line = line.split("#")[0].strip()
        if not line:
            continue
        ko, en, frame, subj, *rest = line.split()
        kw: dict = {}
        for r in rest:
            if r.startswith("irr="):
                kw["irr"] = r[4:]
            elif r.startswith("prep="):
                kw["prep"] = r[5:]
            elif r == "stat":
                kw["stative"] = True
            elif r.startswith("with="):
                kw["instr"] = resolve(r[5:])
            else:
                kw["objects"] = resolve(r)
        if subj.startswith("="):
            only = tuple(n.ko for n in resolve(subj))
            kw["subj_only"] = only
            subj_t = tuple(sorted({NOUN_BY_KO[k].cls for k in only}))
        else:
            subj_t = tuple({"p": "person", "a": "animal"}[c] for c in subj)
        verbs.append(Verb(ko.replace("_", " "), en.replace("_", " "), frame, subj_t, **kw))
    return tuple(verbs)


def _adjectives() -> tuple[Adjective, ...]:
    out = []
    for line in ADJECTIVE_TABLE.strip().splitlines():
        line = line.split("#")[0].strip()
        if not line:
            continue
        ko, en, spec, *rest = line.split()
        irr = rest[0][4:] if rest else ""
        out.append(Adjective(ko, en.replace("_", " "), resolve(spec),
                             "person" in spec.split(","), irr))
    return tuple(out)


def _names(text: str) -> tuple[Name, ...]:
    return tuple(Name(*item.split(":")) for item in text.split())


VERBS: tuple[Verb, ...] = _verbs()
ADJECTIVES: tuple[Adjective, ...] = _adjectives()
ADVERBS: tuple[Adverb, ...] = tuple(
    Adverb(ko, en.replace("_", " ")) for ko, en in (i.split(":") for i in ADVERB_TABLE.split()))
SURNAME_LIST: tuple[Name, ...] = _names(SURNAMES)
GIVEN_NAME_LIST: tuple[Name, ...] = _names(GIVEN_NAMES)


def lemma_count() -> int:
    """Distinct lemmas: nouns, verbs (Korean-English pairs), adjectives, adverbs, name parts."""
    verbs = {(v.ko, v.en) for v in VERBS}
    return (len(NOUN_BY_KO) + len(verbs) + len(ADJECTIVES) + len(ADVERBS)
            + len(SURNAME_LIST) + len(GIVEN_NAME_LIST))
