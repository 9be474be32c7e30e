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
from companion.data.kosynth.tables import (ADJECTIVE_SCALES, ADJECTIVE_TABLE, ADVERB_FIT,
                                           ADVERB_TABLE, AGE_RANGES, ANIMAL_HABITATS, COUNTERS,
                                           GIVEN_NAMES, GROUPS, INFANT_VERBS, KIN_GENDER,
                                           NOUN_SETS, NOUN_TABLES, POSSESSED, STAGE_ADJECTIVES,
                                           SURNAMES, VEHICLE_GOALS, VERB_TABLE)


@dataclass(frozen=True)
class Noun:
    """A common noun. ``counter`` is the Korean classifier (개, 명, 마리, 권 ...; "" none);
    honorific nouns (선생님, 할머니, 스님) are counted with 분, people otherwise with 명."""

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
    #: a kinship noun (이모 "aunt", 누나 "older sister", 아들 "son"): English names it with a
    #: possessor ("his aunt", "Kim's son") where Korean leaves the possessor implicit
    kin: bool = False
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
    ``R`` a 에게 argument only (전화하다 "call", 이야기하다 "talk to").

    ``ko`` may be a noun + verb written apart (미소 짓다 "smile"): ``head`` is the verb that
    inflects (짓다), ``pre`` the noun before it (미소), its own eojeol. ``animals`` restricts
    the animal subjects (empty: any animal, when ``subj`` holds "animal"). ``loc`` is the
    particle of a place adjunct: 에서 for actions (공원에서 놀다), 에 for a position or state
    (공원에 앉다, 옷장에 숨다), "" for none (청소하다: the room cleaned is the place).
    ``goals`` are the places a motion verb goes to (empty: any), ``goal_particle`` the
    particle of its goal: 에 (학교에 가다), (으)로 for a destination one moves to (도시로
    이사하다). ``places`` are the places it happens at, where not any place
    will do (산에서 등산하다, 수영장에서 수영하다, 회사에 출근하다)."""

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
    animals: tuple[str, ...] = ()  # the animal subjects it takes (Korean), if restricted
    #: the person subjects it takes (Korean), if restricted: not 아기 "baby" decorating an
    #: attic, not 고객 "customer" working (tables: ``p,-young,-client``; a baby is the
    #: subject of tables.INFANT_VERBS only). Empty: any person. A name is any person.
    persons: tuple[str, ...] = ()
    loc: str = "에서"
    goals: tuple[Noun, ...] = ()
    #: the places a motion verb never goes to (돌아가다 "go back": not 바다 "the sea" -- said
    #: of people that reads as sea creatures going home)
    not_goals: tuple[Noun, ...] = ()
    goal_particle: str = "에"
    #: the wh-word asking for its goal: 어디로 by default (어디로 가요?), 어디에 for a verb
    #: whose goal only takes 에 (어디에 도착해요?, never 어디로 도착해요?)
    goal_wh: str = "어디로"
    places: tuple[Noun, ...] = ()  # the places of its place adjunct (empty: any)
    key: str = field(init=False, compare=False, repr=False)  # "verb:먹다/eat"
    head: str = field(init=False, compare=False, repr=False)
    pre: str = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", f"verb:{self.ko}/{self.en}")
        *pre, head = self.ko.split(" ")
        object.__setattr__(self, "head", head)
        object.__setattr__(self, "pre", " ".join(pre))


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
    #: used before a noun (기쁜 소년); False for a predicate only: 이모가 기쁘다 "the aunt is
    #: glad", where Korean says 기분 좋은 이모, not 기쁜 이모 (tables flag ``pred``)
    attributive: bool = True
    #: a lasting property (tall, low, new, expensive, famous, kind ...): true of its noun
    #: independently of any moment, so never tied to one -- no time adverbial, no "when"
    #: clause, no tense contrast ("the sofa was low when Kim called"); the complement of
    #: ``stage``
    lasting: bool = field(init=False, compare=False, repr=False)
    key: str = field(init=False, compare=False, repr=False)  # "adjective:크다"
    head: str = field(init=False, compare=False, repr=False)
    pre: str = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", "adjective:" + self.ko)
        object.__setattr__(self, "lasting", not self.stage)
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
        elif f == "k":
            kw["kin"] = True
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
    # (a compound written apart, 축구_선수, is two Korean words: 축구 선수)
    return Noun(ko.replace("_", " "), en.replace("_", " "), cls, counter, **kw)


def _nouns() -> dict[str, tuple[Noun, ...]]:
    out = {}
    for cls, text in NOUN_TABLES.items():
        out[cls] = tuple(_parse_noun(item, cls, COUNTERS[cls]) for item in text.split())
    return out


NOUNS: dict[str, tuple[Noun, ...]] = _nouns()
NOUN_BY_KO: dict[str, Noun] = {n.ko: n for ns in NOUNS.values() for n in ns}
#: pseudo-classes selected by flags, and the named sets of tables.NOUN_SETS
_PSEUDO = {
    "building": tuple(n for n in NOUNS["place"] if n.building),
    "room": tuple(n for n in NOUNS["place"] if n.room),
}


def _set_nouns(text: str) -> tuple[Noun, ...]:
    kos = [k.replace("_", " ") for k in text.split()]
    missing = [k for k in kos if k not in NOUN_BY_KO]
    if missing:
        raise ValueError(f"unknown nouns {missing} in a noun set")
    return tuple(NOUN_BY_KO[k] for k in kos)


_PSEUDO.update({name: _set_nouns(text) for name, text in NOUN_SETS.items()})


def resolve(spec: str, concrete: bool = False, home: bool = False) -> tuple[Noun, ...]:
    """Nouns named by a spec such as ``"food,thing"`` or ``"toy,=돌,동전"`` (after ``=``, or
    any item that is not a class, group or set: Korean nouns), in order, without duplicates.
    An item ``-X`` (a class, set or noun) removes its nouns from the result; ``concrete``
    leaves out the abstract nouns a class brings (이메일, 시: nobody carries or buys an
    email), keeping those named explicitly; ``home`` keeps 집 "home" (left out otherwise)."""
    out: list[Noun] = []
    drop: set[str] = set()
    explicit = False
    for item in spec.split(","):
        if item.startswith("-"):
            drop.update(n.ko for n in resolve(item[1:]))
            continue
        if item.startswith("="):
            explicit, item = True, item[1:]
        if explicit or (item not in NOUNS and item not in GROUPS and item not in _PSEUDO):
            item = item.replace("_", " ")  # 곰_인형: 곰 인형
            if item not in NOUN_BY_KO:
                raise ValueError(f"unknown noun {item!r} in {spec!r}")
            out.append(NOUN_BY_KO[item])
            continue
        if item in GROUPS:
            got = [n for c in GROUPS[item] for n in NOUNS[c]]
        elif item in _PSEUDO:
            got = list(_PSEUDO[item])
        else:
            got = list(NOUNS[item])
        out.extend(n for n in got if not (concrete and n.abstract))
    seen: set[str] = set(drop)
    uniq = []
    for n in out:
        if n.ko not in seen and (home or not n.home):
            seen.add(n.ko)
            uniq.append(n)
    return tuple(uniq)


#: the verbs a baby is the subject of (tables.INFANT_VERBS), and the babies
_INFANT_VERBS = frozenset(INFANT_VERBS.split())
_INFANTS = frozenset(n.ko for n in resolve("infant"))


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
            elif r.startswith("loc="):  # loc=-: no place adjunct (청소하다 "clean" a room)
                kw["loc"] = "" if r[4:] == "-" else r[4:]
            elif r.startswith("goal="):
                kw["goal_particle"] = r[5:]
                kw["goal_wh"] = "어디" + ("로" if r[5:] == "(으)로" else r[5:])
            elif r.startswith("to="):
                kw["goals"] = resolve(r[3:])
            elif r.startswith("not_to="):
                kw["not_goals"] = resolve(r[7:])
            elif r.startswith("at="):
                kw["places"] = resolve(r[3:], home=True)
            else:
                kw["objects"] = resolve(r, concrete=True)
        if subj.startswith("="):
            only = tuple(n.ko for n in resolve(subj))
            kw["subj_only"] = only
            subj_t = tuple(sorted({NOUN_BY_KO[k].cls for k in only}))
        else:  # "pa,beast,bird": people and the animals of the sets after the comma;
            # "p,-young": people but those of the set (a baby only does INFANT_VERBS);
            # "p,+child": only the people of the set
            kinds, *animals = subj.split(",")
            only_people = [x[1:] for x in animals if x.startswith("+")]
            animals = [x for x in animals if not x.startswith("+")]
            subj_t = tuple({"p": "person", "a": "animal"}[c] for c in kinds)
            if animals:
                kw["animals"] = tuple(n.ko for n in resolve(",".join(animals))
                                      if n.cls == "animal")
            if "person" in subj_t:
                drop = {n.ko for x in animals if x.startswith("-") for n in resolve(x[1:])
                        if n.cls == "person"}
                if ko not in _INFANT_VERBS:
                    drop.update(_INFANTS)
                if only_people:
                    keep = {n.ko for x in only_people for n in resolve(x)}
                    drop.update(n.ko for n in NOUNS["person"] if n.ko not in keep)
                if drop:
                    kw["persons"] = tuple(n.ko for n in NOUNS["person"] if n.ko not in drop)
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
        if "count" in rest:  # a size: of what is counted, not of a mass (작은 마늘 "small
            nouns = tuple(n for n in nouns if not n.mass)  # garlic", 큰 비누 "big soap")
        ko = ko.replace("_", " ")
        out.append(Adjective(ko, en.replace("_", " "), nouns, "person" in spec.split(","), irr,
                             SCALE_OF.get(ko, ""), ko in _STAGE, "pred" not in rest))
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
_AGES = {ko: tuple(int(x) for x in span.split("-"))
         for ko, span in (item.split(":") for item in AGE_RANGES.split())}


def age_range(ko: str) -> tuple[int, int]:
    """The ages (lo, hi) in years a person is said to be: a noun of tables.AGE_RANGES (아이
    3-12), another person noun 20-80, a name (or anything else) 1-99."""
    if ko in _AGES:
        return _AGES[ko]
    n = NOUN_BY_KO.get(ko)
    return (20, 80) if n is not None and n.cls == "person" else (1, 99)


HAN_AMBIGUOUS = frozenset("개 시 가지 배 말 자 방 표 절 섬 길 돌 게 강".split())

def kin_term(term: str, head: str, cls: str = "person", *, name: bool = False) -> str:
    """The kin term ``term`` as said of the possessor ``head`` (a Korean noun, or a full name
    when ``name``): 형 and 누나 of a male possessor, 오빠 and 언니 of a female one (김민준의 형,
    김서연의 오빠, 소녀의 언니). ``term`` is any of the four; other kin terms, and possessors
    whose gender is not known (학생, 지우), keep ``term``."""
    if term not in KIN_GENDER:
        return term
    from companion.data.kosynth.coherence import pronoun_for  # (coherence is data only)

    gender = {"he": "male", "she": "female"}.get(
        pronoun_for(head, cls, plural=False, name=name) or "")
    own, other = KIN_GENDER[term]
    return other if gender is not None and gender != own else term


#: spouses by the sex of the one whose spouse they are: a husband is a woman's, a wife a
#: man's (조민지의 아내 "Cho Minji's wife" jars a Korean reader: 민지 is a woman's name)
SPOUSE_OF = {"남편": "female", "아내": "male"}


def kin_gender(term: str) -> str | None:
    """The gender of the possessor a kin term presumes: "male" for 형, 누나 and 아내,
    "female" for 오빠, 언니 and 남편, None for any other noun."""
    return KIN_GENDER[term][0] if term in KIN_GENDER else SPOUSE_OF.get(term)


@lru_cache(maxsize=None)
def habitat(animal: str) -> frozenset[str]:
    """The places (Korean) where the animal ``animal`` (Korean) is found: a pet at home, a
    fish in water, an owl in a forest (the first kind of ``tables.ANIMAL_HABITATS`` it
    belongs to; a kind is one animal, a noun set, or the class ``animal``)."""
    for kind, places in ANIMAL_HABITATS.items():
        members = {kind} if kind in NOUN_BY_KO else {n.ko for n in resolve(kind)}
        if animal in members:
            return frozenset(places.split())
    return frozenset()


def places_for(places: tuple[Noun, ...], subject: Noun | None) -> tuple[Noun, ...]:
    """The places of a place adjunct, cut to where ``subject`` can be: for an animal, the
    places of its :func:`habitat` among ``places`` (none when none of them fits: a dozing
    eagle is not at home, and then has no place adjunct); anything else keeps ``places``."""
    if subject is None or subject.cls != "animal":
        return places
    home = habitat(subject.ko)
    return tuple(p for p in places if p.ko in home)


def vehicle_fits(vehicle: Noun, goal: Noun) -> bool:
    """Whether one goes to ``goal`` by ``vehicle``: a plane to an airport or an island (not
    to a library), a boat to an island or a port; a road vehicle to any place but a room, an
    island or a wild place (``tables.VEHICLE_GOALS``, ``"*"``)."""
    if vehicle.ko in VEHICLE_GOALS:
        return goal.ko in VEHICLE_GOALS[vehicle.ko].split()
    return not goal.room and goal.ko not in VEHICLE_GOALS["*"].split()


ANIMATE = ("person", "animal")


def can_subject(v: Verb, n: Noun) -> bool:
    """Whether noun ``n`` may be the subject of verb ``v``: one of its restricted subjects,
    else a noun of its subject classes (and of its animals, when they are restricted)."""
    if v.subj_only:
        return n.ko in v.subj_only
    if n.cls not in v.subj:
        return False
    return n.cls != "animal" or not v.animals or n.ko in v.animals


def subject_fits(v: Verb, n: Noun) -> bool:
    """:func:`can_subject`, and for a person noun one of the people the verb takes
    (``Verb.persons``): no 아기 "baby" decorating an attic, no 고객 "customer" working. The
    subject relatives of a lexicon (``Lexicon.subj_verbs``) follow it; a grammar that draws
    a verb's subject should draw a person noun among ``v.persons`` when there are any."""
    if not can_subject(v, n):
        return False
    return n.cls != "person" or not v.persons or n.ko in v.persons


#: the nouns a person may possess (김민준의 가방, 소년의 강아지, 손님의 방): not 손님의
#: 체육관 "a guest's gym", 소녀의 호랑이, 김민준의 지하철 (tables.POSSESSED)
POSSESSABLE = frozenset(n.ko for n in resolve(POSSESSED, home=True))


def can_possess(n: Noun) -> bool:
    """Whether a person (a name or a person noun) may be the possessor of noun ``n``: a
    kinship noun, or one of :data:`POSSESSABLE` (a bag, a pet, one's room or shop; not a gym,
    a tiger, a subway)."""
    return n.kin or n.ko in POSSESSABLE


def _adverb_fit() -> dict[str, tuple[bool, frozenset[str]]]:
    """Adverb -> (only, verbs): fits only the listed verbs (only) or all but them. A verb is
    its Korean form (쓰다: every sense) or ``ko/en`` (쓰다/wear: that sense only)."""
    out = {}
    for ko, text in ADVERB_FIT.items():
        sign, words = text[0], text[1:].split()
        out[ko] = (sign == "+", frozenset(w.replace("_", " ") for w in words))
    return out


ADVERB_FITS = _adverb_fit()


def adverb_fits(adverb: Adverb, v: Verb) -> bool:
    """Whether a manner adverb reads naturally with verb ``v`` (크게 "loudly" with 웃다, not
    with 미소 짓다; 열심히 "hard" with 일하다, not with 신다 "wear"); see tables.ADVERB_FIT."""
    fit = ADVERB_FITS.get(adverb.ko)
    if fit is None:
        return True
    only, verbs = fit
    return (v.ko in verbs or f"{v.ko}/{v.en}" in verbs) == only


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
        english: dict[str, set[str]] = {}
        for v in verbs:
            english.setdefault(v.ko, set()).add(v.en)
        #: verbs whose English does not depend on the object (safe for 무엇을 questions)
        self.wh_obj_ok = frozenset(ko for ko, ens in english.items() if len(ens) == 1)
        self._adverbs_for: dict[tuple[str, str], tuple[Adverb, ...]] = {}

    def adverbs_for(self, v: Verb) -> tuple[Adverb, ...]:
        """The manner adverbs of this lexicon that fit verb ``v`` (see :func:`adverb_fits`)."""
        key = (v.ko, v.en)  # (one key per sense: 쓰다 "write" takes 재빨리, 쓰다 "wear" not)
        got = self._adverbs_for.get(key)
        if got is None:
            got = self._adverbs_for[key] = tuple(a for a in self.adverbs if adverb_fits(a, v))
        return got

    def _index_nouns(self) -> None:
        """Adjectives by noun; verbs that take a noun as subject / object (relatives)."""
        self.person_adj = tuple(a for a in self.adjectives if a.person)
        self.all_nouns = tuple(n for ns in self.nouns.values() for n in ns)
        adj_kos = [(a, frozenset(n.ko for n in a.nouns)) for a in self.adjectives
                   if a.attributive]
        # (a person adjective describes the person nouns of its spec: not 가난한 사장, 게으른 아기)
        self.adj_by_noun = {n.ko: tuple(a for a, kos in adj_kos if n.ko in kos)
                            for n in self.all_nouns}
        self.subj_verbs = {n.ko: tuple(v for v in self.transitive + self.intransitive
                                       if subject_fits(v, n))
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
    """The verb with its objects, instruments, subjects, goals and places cut to the kept
    nouns; None when it keeps no object (frames T, D, R), no subject, or none of the goals or
    places it is restricted to."""
    objects = tuple(x for x in v.objects if x.ko in kept)
    instr = tuple(x for x in v.instr if x.ko in kept)
    goals = tuple(x for x in v.goals if x.ko in kept)
    places = tuple(x for x in v.places if x.ko in kept)
    only = tuple(k for k in v.subj_only if k in kept)
    animals = tuple(k for k in v.animals if k in kept)
    persons = tuple(k for k in v.persons if k in kept)
    subj = v.subj
    if v.animals and not animals:  # none of its animals kept: people only
        subj = tuple(c for c in subj if c != "animal")
    if v.persons and not persons:  # none of its people kept: animals only
        subj = tuple(c for c in subj if c != "person")
    if (v.frame in ("T", "D", "R") and not objects) or (v.subj_only and not only) or not subj \
            or (v.goals and not goals) or (v.places and not places):
        return None
    if len(objects) == len(v.objects) and len(instr) == len(v.instr) \
            and len(only) == len(v.subj_only) and len(animals) == len(v.animals) \
            and len(persons) == len(v.persons) and len(goals) == len(v.goals) \
            and len(places) == len(v.places):
        return v
    if only:
        subj = tuple(sorted({NOUN_BY_KO[k].cls for k in only}))
    return replace(v, objects=objects, instr=instr, subj_only=only, subj=subj, animals=animals,
                   persons=persons, goals=goals, places=places)


_UNIQUE_KO = frozenset(k for k in {v.ko for v in VERBS}
                       if len({v.en for v in VERBS if v.ko == k}) == 1)
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
    for ko in LINK_STATES:
        if not any(x.ko == ko for x in chosen):
            a = next(x for x in usable if x.ko == ko)
            added.append(f"{a.key}: a passing state that causes an action (because, when, if)")
            chosen = [x for x in usable if x in chosen or x is a]
    return tuple(chosen), added


#: passing states every level keeps, so that a causal, conditional or temporal clause always
#: has a link to draw (배고파서 먹다 "eats because hungry", 피곤해서 하품하다; see coherence)
LINK_STATES = ("배고프다", "피곤하다")


def _reachable(verbs, adjectives) -> set[str]:
    """Nouns the grammar can draw: people, animals and places always; other nouns only as a
    kept verb's object, instrument or restricted subject, or a kept adjective's subject."""
    out = {x.ko for cls in (*ANIMATE, "place") for x in NOUNS[cls]}
    for v in verbs:
        out.update(x.ko for x in v.objects + v.instr + v.goals)
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
