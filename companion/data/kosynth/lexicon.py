"""The lexicon: lemmas with their Korean and English forms and the features the grammar uses.

The data live in :mod:`companion.data.kosynth.tables` as compact text: ``ko:en`` items,
English multi-word forms written with ``_`` (``아이스크림:ice_cream``), flags after ``/``
(see the tables module). Selection restrictions -- which nouns a verb takes as subject or
object, which nouns an adjective describes -- are resolved here into tuples of
:class:`Noun` so that the grammar only ever draws sensible combinations.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache

from companion.data.kosynth import korean as KO
from companion.data.kosynth.english import plural as en_plural
from companion.data.kosynth.tables import (ADJECTIVE_SCALES, ADJECTIVE_TABLE, ADVERB_TABLE,
                                           COUNTERS, GIVEN_NAMES, GROUPS, NOUN_TABLES,
                                           STAGE_ADJECTIVES, SURNAMES, VERB_TABLE)


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
    abstract: bool = False  # no body: an email, a poem (no size, colour or weight)
    key: str = field(init=False, compare=False, repr=False)  # "noun:사과" (lemma counts)

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", "noun:" + self.ko)

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
    #: English verb of the resultative state (서다 stand_up -> "stand"): the progressive of a
    #: posture verb is the state -아/어 있다 (서 있다 "is standing"), not -고 있다
    state_en: str = ""
    key: str = field(init=False, compare=False, repr=False)  # "verb:먹다/eat"

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", f"verb:{self.ko}/{self.en}")


@dataclass(frozen=True)
class Adjective:
    """An adjective (descriptive verb). ``ko`` may be a noun + adjective (호기심 많다
    "curious"): ``head`` is the adjective that inflects (많다), ``pre`` the noun before it,
    which takes 이/가 when the adjective is a predicate (소년은 호기심이 많다)."""

    ko: str
    en: str
    nouns: tuple[Noun, ...]  # the nouns it can describe, in table order
    person: bool = False  # describes people (names included)
    irr: str = ""
    scale: str = ""  # adjectives of one scale never describe one noun together
    stage: bool = False  # a passing state (hot, tired): may take a time adverbial
    key: str = field(init=False, compare=False, repr=False)  # "adjective:크다"
    head: str = field(init=False, compare=False, repr=False)
    pre: str = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", "adjective:" + self.ko)
        *pre, head = self.ko.split(" ")
        object.__setattr__(self, "head", head)
        object.__setattr__(self, "pre", " ".join(pre))
        if not self.scale:
            object.__setattr__(self, "scale", self.ko)


@dataclass(frozen=True)
class Adverb:
    ko: str
    en: str
    key: str = field(init=False, compare=False, repr=False)  # "adverb:빨리"

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", "adverb:" + self.ko)


@dataclass(frozen=True)
class Name:
    """A surname or a given name (``part``: "surname" / "given")."""

    ko: str
    en: str
    part: str = "given"
    key: str = field(init=False, compare=False, repr=False)  # "surname:김"

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", f"{self.part}:{self.ko}")


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
        elif f == "a":
            kw["abstract"] = True
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
            elif r.startswith("res="):
                kw["state_en"] = r[4:].replace("_", " ")
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


#: adjective (dictionary form) -> its scale (see tables.ADJECTIVE_SCALES)
SCALE_OF = {ko: scale for scale, kos in ADJECTIVE_SCALES.items() for ko in kos.split()}
_STAGE = frozenset(STAGE_ADJECTIVES.split())


def _adjectives() -> tuple[Adjective, ...]:
    out = []
    for line in ADJECTIVE_TABLE.strip().splitlines():
        line = line.split("#")[0].strip()
        if not line:
            continue
        ko, en, spec, *rest = line.split()
        irr = next((r[4:] for r in rest if r.startswith("irr=")), "")
        nouns = resolve(spec)
        if "phys" in rest:  # a body's property: not of an email or a poem
            nouns = tuple(n for n in nouns if not n.abstract)
        ko = ko.replace("_", " ")
        out.append(Adjective(ko, en.replace("_", " "), nouns, "person" in spec.split(","), irr,
                             SCALE_OF.get(ko, ""), ko in _STAGE))
    return tuple(out)


def _names(text: str, part: str) -> tuple[Name, ...]:
    return tuple(Name(*item.split(":"), part) for item in text.split())


VERBS: tuple[Verb, ...] = _verbs()
ADJECTIVES: tuple[Adjective, ...] = _adjectives()
ADVERBS: tuple[Adverb, ...] = tuple(
    Adverb(ko, en.replace("_", " ")) for ko, en in (i.split(":") for i in ADVERB_TABLE.split()))
SURNAME_LIST: tuple[Name, ...] = _names(SURNAMES, "surname")
GIVEN_NAME_LIST: tuple[Name, ...] = _names(GIVEN_NAMES, "given")


#: time adverbials: Korean words, English words, allowed tenses
TIMES = (
    (("어제",), ("yesterday",), "past"),
    (("오늘",), ("today",), "present past future progressive"),
    (("내일",), ("tomorrow",), "future"),
    (("지금",), ("now",), "present progressive"),
    (("매일",), ("every", "day"), "present past"),
    (("아침에",), ("in", "the", "morning"), "present past future"),
    (("저녁에",), ("in", "the", "evening"), "present past future"),
    (("오후에",), ("in", "the", "afternoon"), "present past future"),
    (("밤에",), ("at", "night"), "present past future"),
    (("주말에",), ("on", "the", "weekend"), "present past future"),
    (("작년에",), ("last", "year"), "past"),
    (("내년에",), ("next", "year"), "future"),
    (("지난주에",), ("last", "week"), "past"),
    (("다음", "주에"), ("next", "week"), "future"),
    (("월요일에",), ("on", "Monday"), "present past future"),
    (("화요일에",), ("on", "Tuesday"), "present past future"),
    (("수요일에",), ("on", "Wednesday"), "present past future"),
    (("목요일에",), ("on", "Thursday"), "present past future"),
    (("금요일에",), ("on", "Friday"), "present past future"),
    (("토요일에",), ("on", "Saturday"), "present past future"),
    (("일요일에",), ("on", "Sunday"), "present past future"),
)
TENSES = ("present", "past", "future", "progressive")

#: nouns that read as another word after the indefinite 한, mostly a counter or unit:
#: 한 개 "one item", 한 시 "one o'clock", 한 가지 "one kind", 한 배 "one boat / twice",
#: 한 말 "one mal (unit) / one word", 한 자 "one character", 한 방 "one shot", 한 표
#: "one vote", 한 절 "one verse", 한 섬 "one seom (unit)", 한 길 "one gil (unit)",
#: 한 돌 "first birthday", and 한 게 "what (one) did", 한 강 "the Han river". They take 어떤.
HAN_AMBIGUOUS = frozenset("개 시 가지 배 말 자 방 표 절 섬 길 돌 게 강".split())

ANIMATE = ("person", "animal")


def can_subject(v: Verb, n: Noun) -> bool:
    """Whether noun ``n`` may be the subject of verb ``v``."""
    return n.ko in v.subj_only if v.subj_only else n.cls in v.subj


class Lexicon:
    """The lemmas one level draws from, with the lookup tables the grammar uses.

    Built by :func:`select_lexicon`. Every tuple keeps table order, so the full lexicon gives
    the grammar exactly the sequences it drew from before levels existed.
    """

    def __init__(self, nouns: dict[str, tuple[Noun, ...]], verbs: tuple[Verb, ...],
                 adjectives: tuple[Adjective, ...], adverbs: tuple[Adverb, ...],
                 surnames: tuple[Name, ...], given_names: tuple[Name, ...], times: tuple,
                 added: tuple[str, ...] = ()) -> None:
        self.nouns, self.verbs, self.adjectives, self.adverbs = nouns, verbs, adjectives, adverbs
        self.surnames, self.given_names, self.times = surnames, given_names, times
        self.added = added  # lemmas beyond the first N, each with the reason
        self._adjective_forms: frozenset | None = None
        self.noun_by_ko = {n.ko: n for ns in nouns.values() for n in ns}
        self._index_verbs()
        self._index_nouns()

    def _index_verbs(self) -> None:
        """Verbs by frame, and the verbs whose Korean form is theirs alone."""
        verbs = self.verbs
        self.transitive = tuple(v for v in verbs if v.frame == "T")
        self.dynamic_transitive = tuple(v for v in self.transitive if not v.stative)
        self.intransitive = tuple(v for v in verbs if v.frame == "I")
        self.motion = tuple(v for v in verbs if v.frame == "M")
        self.ditransitive = tuple(v for v in verbs if v.frame == "D")
        self.recipient = tuple(v for v in verbs if v.frame == "R")
        count: dict[str, int] = {}
        for v in verbs:
            count[v.ko] = count.get(v.ko, 0) + 1
        #: verbs whose English does not depend on the object (safe for 무엇을 questions)
        self.wh_obj_ok = frozenset(v.ko for v in verbs if count[v.ko] == 1)

    def _index_nouns(self) -> None:
        """Adjectives by noun; verbs that take a noun as subject / object (relatives)."""
        self.person_adj = tuple(a for a in self.adjectives if a.person)
        self.all_nouns = tuple(n for ns in self.nouns.values() for n in ns)
        adj_kos = [(a, frozenset(n.ko for n in a.nouns)) for a in self.adjectives]
        self.adj_by_noun = {n.ko: tuple(a for a, kos in adj_kos if n.ko in kos or (
            a.person and n.cls == "person")) for n in self.all_nouns}
        self.subj_verbs = {n.ko: tuple(v for v in self.transitive + self.intransitive
                                       if can_subject(v, n))
                           for n in self.all_nouns if n.cls in ANIMATE}
        obj_kos = [(v, frozenset(n.ko for n in v.objects)) for v in self.transitive]
        self.obj_verbs = {n.ko: tuple(v for v, kos in obj_kos if n.ko in kos)
                          for n in self.all_nouns}
        self.places = tuple(self.nouns["place"])

    @property
    def adjective_forms(self) -> frozenset:
        """Korean words that open an attributive adjective: 큰, 크고, 호기심 (호기심 많은)."""
        if self._adjective_forms is None:
            forms = set()
            for a in self.adjectives:
                irr = a.irr or None
                forms.add(KO.adnominal(a.head, adj=True, irr=irr))
                forms.add(KO.connective(a.head, "and", adj=True, irr=irr))
                if a.pre:
                    forms.add(a.pre)
            self._adjective_forms = frozenset(forms)
        return self._adjective_forms

    def counts(self) -> dict[str, int]:
        """Lemmas by kind; ``lemmas`` counts verbs as Korean-English pairs (요리하다 "cook"
        transitive and intransitive is one lemma), as :func:`lemma_count` does."""
        out = {"nouns": len(self.noun_by_ko), "verbs": len({(v.ko, v.en) for v in self.verbs}),
               "adjectives": len(self.adjectives), "adverbs": len(self.adverbs),
               "surnames": len(self.surnames), "given_names": len(self.given_names)}
        out["lemmas"] = sum(out.values())
        out["time_expressions"] = len(self.times)
        return out


def _countable(n: Noun) -> bool:
    return bool(n.counter) and not n.mass and not n.plural_only


def _first_nouns(n: int) -> tuple[dict[str, tuple[Noun, ...]], list[str]]:
    """The first ``n`` nouns of every class, plus the first noun of any counter the cut
    lost (보트 for 척 at n = 6), so that every counter is still drawn."""
    kept = {n_.ko for ns in NOUNS.values() for n_ in ns[:n]}
    have = {x.counter for x in NOUN_BY_KO.values() if x.ko in kept and _countable(x)}
    added = []
    for ns in NOUNS.values():
        for x in ns:
            if _countable(x) and x.counter not in have:
                kept.add(x.ko)
                have.add(x.counter)
                added.append(f"{x.key}: the counter {x.counter}")
    return {cls: tuple(x for x in ns if x.ko in kept) for cls, ns in NOUNS.items()}, added


def _restrict_verb(v: Verb, kept: set[str]) -> Verb | None:
    """The verb with its objects, instruments and subjects cut to the kept nouns; None when
    it keeps no object (frames T, D, R) or no subject it is restricted to."""
    objects = tuple(x for x in v.objects if x.ko in kept)
    instr = tuple(x for x in v.instr if x.ko in kept)
    only = tuple(k for k in v.subj_only if k in kept)
    if (v.frame in ("T", "D", "R") and not objects) or (v.subj_only and not only):
        return None
    if len(objects) == len(v.objects) and len(instr) == len(v.instr) \
            and len(only) == len(v.subj_only):
        return v
    subj = tuple(sorted({NOUN_BY_KO[k].cls for k in only})) if only else v.subj
    return replace(v, objects=objects, instr=instr, subj_only=only, subj=subj)


_UNIQUE_KO = frozenset(k for k in {v.ko for v in VERBS} if sum(v.ko == k for v in VERBS) == 1)
#: (frame, test, why): a verb the cut must keep so that a construction stays possible
_VERB_NEEDS = (
    ("T", lambda v: not v.stative and "person" in v.subj and v.ko in _UNIQUE_KO,
     "a dynamic transitive verb with a person subject (who/what questions, progressive)"),
    ("T", lambda v: not v.stative and all(o.cls == "person" for o in v.objects),
     "a dynamic transitive verb that takes people (누구를 questions, object relatives on "
     "people)"),
    ("I", lambda v: "person" in v.subj, "an intransitive verb with a person subject"),
    ("M", lambda v: not v.en.endswith("back"), "a motion verb without 'back' (where to?)"),
)


def _first_verbs(n: int, kept: set[str]) -> tuple[dict[int, Verb], list[str]]:
    """The first ``n`` usable verbs of every frame (usable: keeps an object and a subject),
    plus the first usable verb of any construction in :data:`_VERB_NEEDS` the cut lost.
    Returns {index in VERBS: restricted verb}."""
    usable = {i: r for i, v in enumerate(VERBS) if (r := _restrict_verb(v, kept)) is not None}
    chosen: dict[int, Verb] = {}
    per_frame: dict[str, int] = {}
    for i, r in usable.items():
        if per_frame.get(r.frame, 0) < n:
            per_frame[r.frame] = per_frame.get(r.frame, 0) + 1
            chosen[i] = r
    added = []
    for frame, test, why in _VERB_NEEDS:
        if not any(r.frame == frame and test(r) for r in chosen.values()):
            i = next(i for i, r in usable.items() if r.frame == frame and test(r))
            chosen[i] = usable[i]
            added.append(f"{usable[i].key}: {why}")
    return chosen, added


def _first_adjectives(n: int, kept: set[str]) -> tuple[tuple[Adjective, ...], list[str]]:
    """The first ``n`` adjectives that still describe a kept noun, plus a person adjective
    if none is among them (who-questions about a state)."""
    usable = []
    for a in ADJECTIVES:
        nouns = tuple(x for x in a.nouns if x.ko in kept)
        if nouns:
            usable.append(a if len(nouns) == len(a.nouns) else replace(a, nouns=nouns))
    chosen = usable[:n]
    added = []
    if not any(a.person for a in chosen):
        a = next(a for a in usable if a.person)
        added.append(f"{a.key}: an adjective that describes people")
        chosen = [x for x in usable if x in chosen or x is a]
    return tuple(chosen), added


def _reachable(verbs, adjectives) -> set[str]:
    """Nouns the grammar can draw: people, animals and places always; other nouns only as a
    kept verb's object, instrument or restricted subject, or a kept adjective's subject."""
    out = {x.ko for cls in (*ANIMATE, "place") for x in NOUNS[cls]}
    for v in verbs:
        out.update(x.ko for x in v.objects + v.instr)
        out.update(v.subj_only)
    for a in adjectives:
        out.update(x.ko for x in a.nouns)
    return out


def _cover_classes(chosen: dict[int, Verb], adjectives: tuple[Adjective, ...],
                   kept: set[str]) -> list[str]:
    """Add (to ``chosen``) the first verb that takes a noun class no kept verb or adjective
    reaches -- at n = 6 nothing takes shoes, so 사다 "buy" comes in -- so every class is
    drawn."""
    added = []
    for cls, ns in NOUNS.items():
        reach = _reachable(chosen.values(), adjectives)
        if any(x.ko in kept and x.ko in reach for x in ns):
            continue
        for i, v in enumerate(VERBS):
            r = _restrict_verb(v, kept)
            if r is not None and any(x.cls == cls for x in r.objects):
                chosen[i] = r
                added.append(f"{r.key}: a verb that takes the class {cls}")
                break
    return added


def _first_times(n: int) -> tuple[tuple, list[str]]:
    """The first ``n`` time expressions, plus one for any tense they leave without."""
    chosen = list(TIMES[:n])
    added = []
    for tense in TENSES:
        if not any(tense in t[2].split() for t in chosen):
            t = next(t for t in TIMES if tense in t[2].split())
            chosen.append(t)
            added.append(f"time:{' '.join(t[0])}: a time expression for the {tense}")
    return tuple(t for t in TIMES if t in chosen), added


@lru_cache(maxsize=None)
def select_lexicon(lemmas_per_class: int | None = None, surnames: int | None = None,
                   given_names: int | None = None) -> Lexicon:
    """The lexicon of a level: the first ``lemmas_per_class`` entries of every list (nouns
    per class, verbs per frame, adjectives, adverbs, time expressions), the first
    ``surnames`` x ``given_names`` names; ``None`` keeps a whole list.

    Selection restrictions are cut to the kept nouns; a verb (adjective) left with no object
    or subject (noun) is skipped, and the next one in table order takes its place. A few
    lemmas are added back where the cut would lose a construction: the first noun of each
    counter (보트 for 척), a dynamic transitive verb with a person subject, a dynamic
    transitive verb that takes people (만나다 "meet": 누구를 questions), an intransitive
    verb with a person subject, a motion verb without "back", a person adjective, a verb for
    any noun class no kept verb or adjective takes (사다 "buy" for shoes), and a time
    expression for every tense. The additions are listed in ``Lexicon.added`` and in the
    datasheet. A kept noun that nothing can draw even then is left out, so the lexicon
    counts only lemmas that can occur.
    """
    names = SURNAME_LIST[:surnames], GIVEN_NAME_LIST[:given_names]
    n = lemmas_per_class
    if n is None:
        return Lexicon(NOUNS, VERBS, ADJECTIVES, ADVERBS, *names, TIMES)
    nouns, added = _first_nouns(n)
    kept = {x.ko for ns in nouns.values() for x in ns}
    chosen, more = _first_verbs(n, kept)
    adjectives, more_adj = _first_adjectives(n, kept)
    more_cls = _cover_classes(chosen, adjectives, kept)
    verbs = tuple(chosen[i] for i in sorted(chosen))
    reach = _reachable(verbs, adjectives)
    nouns = {cls: tuple(x for x in ns if x.ko in reach) for cls, ns in nouns.items()}
    times, more_times = _first_times(n)
    added += more + more_adj + more_cls + more_times
    return Lexicon(nouns, verbs, adjectives, ADVERBS[:n], *names, times, tuple(added))


def lemma_count() -> int:
    """Distinct lemmas: nouns, verbs (Korean-English pairs), adjectives, adverbs, name parts."""
    return select_lexicon().counts()["lemmas"]
