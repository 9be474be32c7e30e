"""Does a Korean-English pair read naturally? A rule-based check written apart from the generator.

The generated corpus (:mod:`companion.data.kosynth`) is grammatical by construction -- particles,
conjugation and negation are checked elsewhere -- but grammatical is not natural. This module
reads pairs the way a reviewer reads the corpus files: the Korean line, the English line and, where
given, the Pharaoh alignment line. It imports nothing from the generator; every rule works from
its own short word lists below, written from Korean and English usage, so a mistake in the
generator's tables is not silently shared by the check.

=====================  ========================================================================
rule                   a pair is flagged when ...
=====================  ========================================================================
antonym_adjectives     one noun phrase stacks two adjectives of one scale, ``큰 작은 남자``
                       "big small man", ``높고 낮은`` (size, height, length, temperature, ...)
stacked_adjectives     a 하다-adjective is stacked on another adjective without -고:
                       ``착한 조용한 사람`` (natural: ``착하고 조용한 사람``)
indefinite_topic       an indefinite subject takes the topic marker: ``한 여자는``,
                       ``어떤 소년은`` (natural: ``한 여자가``)
posture_progressive    a posture verb in -고 있- is glossed as a state: ``서고 있는`` "who is
                       standing" (the state is ``서 있는``; 서고 있다 is "is standing up")
curious_trait          궁금하다 is used as a person's trait (``궁금한 광대``); the trait is
                       ``호기심 많은`` "curious"
same_noun_object       a noun is its own object or recipient in one clause, ``학생이 학생에게``
                       (natural: ``학생이 다른 학생에게``)
implausible_adjective  an adjective that does not fit its noun: "tall school", "low store",
                       "long dog", "a heavy email", "crispy soup"
modifier_garden_path   an adjective predicate in -고 is followed by an adjective, so that the
                       clause boundary reads as one noun phrase: ``방이 크고 작은 소녀가`` ("the
                       room is big, and the small girl" read as "the big and small girl")
lasting_with_time      a lasting property is bound to a time: "the chair was low yesterday",
                       "is the sofa tall today?" (a passing state is fine: "the room is hot
                       today")
dangling_adverbial     (needs the alignment) a time, place or manner adverbial stands where a
                       reader attaches it to a relative clause's verb while it belongs to another
                       verb -- in Korean before the relative clause (``매일 가게에서 사과를 산
                       소녀를 만났다``), in English after it ("met the girl who bought the apple
                       every day")
=====================  ========================================================================

What the rules cannot see is listed in :data:`BLIND_SPOTS`. The alignment is used only to find
the Korean verb of each English relative clause (the eojeol its "who"/"that" is linked to), the
clause connectives, and which Korean word an English adverbial translates.

>>> report = check_pairs([("큰 작은 남자가 잔다.", "The big small man sleeps.")])
>>> report.counts["antonym_adjectives"], report.unnatural
(1, 1)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.errors import DataError

#: rule -> one-line description (the order in which reports list them)
RULES: dict[str, str] = {
    "antonym_adjectives": "two adjectives of one scale in one noun phrase (큰 작은 남자)",
    "stacked_adjectives": "a 하다-adjective stacked on another adjective without -고 "
                          "(착한 조용한 사람)",
    "indefinite_topic": "topic marker 은/는 on an indefinite subject (한 여자는)",
    "posture_progressive": "posture verb in -고 있- glossed as a state (서고 있는 'standing')",
    "curious_trait": "궁금하다 used as a trait (궁금한 광대)",
    "same_noun_object": "a noun as its own object or recipient (학생이 학생에게)",
    "implausible_adjective": "an adjective that does not fit its noun (tall school, long dog)",
    "modifier_garden_path": "an adjective predicate in -고 before an adjective reads as one noun "
                            "phrase (방이 크고 작은 소녀가)",
    "lasting_with_time": "a lasting property bound to a time (the chair was low yesterday)",
    "dangling_adverbial": "an adverbial where a reader attaches it to another verb than the "
                          "reference does",
}

BLIND_SPOTS = (
    "an adverbial directly before an intransitive relative clause after a subject marked 이/가 "
    "(소년이 가게에서 기침하는 여자를 만났다) is not flagged: the surface cannot tell whether "
    "the subject belongs to the relative clause",
    "implausible adjective-noun pairs are checked only for the adjectives and nouns in this "
    "module's lists",
    "without an alignment the dangling-adverbial rule is skipped, and clause boundaries fall "
    "back to the sentence",
)

# ---------------------------------------------------------------- Korean word lists

#: attributive (adnominal) adjective forms by scale; two of one scale in one noun phrase clash
_SCALES_ATTR = {
    "size": "큰 작은 조그만 커다란",
    "height": "높은 낮은",
    "length": "긴 짧은",
    "age": "새로운 낡은 오래된",  # not 새 "new": 새 is also "bird"
    "temperature": "뜨거운 차가운 더운 추운 따뜻한 시원한",
    "weight": "무거운 가벼운",
    "thickness": "두꺼운 얇은",
    "width": "넓은 좁은",
    "depth": "깊은 얕은",
    "price": "비싼 싼",
    "cleanliness": "깨끗한 더러운",
    "noise": "조용한 시끄러운",
    "speed": "빠른 느린",
    "difficulty": "어려운 쉬운 복잡한 간단한",
    "interest": "재미있는 재미없는",
    "taste": "맛있는 맛없는",
    "strength": "강한 약한",
    "diligence": "부지런한 게으른",
    "wealth": "가난한 부유한",
    "danger": "위험한 안전한",
    "comfort": "편한 불편한",
    "brightness": "밝은 어두운",
    "hardness": "부드러운 딱딱한",
    "distance": "가까운 먼",
    "sharpness": "날카로운 무딘",
    "build": "날씬한 뚱뚱한",
    "health": "건강한 아픈",
    "mood": "행복한 슬픈 기쁜 즐거운 외로운",
    "ordinariness": "평범한 특별한 이상한 신기한",
}
#: the same adjectives with the connective -고 (크고 빨간 공): they stay inside the noun phrase
_SCALES_GO = {
    "size": "크고 작고 조그맣고 커다랗고",
    "height": "높고 낮고",
    "length": "길고 짧고",
    "age": "새롭고 낡고 오래되고",
    "temperature": "뜨겁고 차갑고 덥고 춥고 따뜻하고 시원하고",
    "weight": "무겁고 가볍고",
    "thickness": "두껍고 얇고",
    "width": "넓고 좁고",
    "depth": "깊고 얕고",
    "price": "비싸고 싸고",
    "cleanliness": "깨끗하고 더럽고",
    "noise": "조용하고 시끄럽고",
    "speed": "빠르고 느리고",
    "difficulty": "어렵고 쉽고 복잡하고 간단하고",
    "interest": "재미있고 재미없고",
    "taste": "맛있고 맛없고",
    "strength": "강하고 약하고",
    "diligence": "부지런하고 게으르고",
    "wealth": "가난하고 부유하고",
    "danger": "위험하고 안전하고",
    "comfort": "편하고 불편하고",
    "brightness": "밝고 어둡고",
    "hardness": "부드럽고 딱딱하고",
    "distance": "가깝고 멀고",
    "sharpness": "날카롭고 무디고",
    "build": "날씬하고 뚱뚱하고",
    "health": "건강하고 아프고",
    "mood": "행복하고 슬프고 기쁘고 즐겁고 외롭고",
    "ordinariness": "평범하고 특별하고 이상하고 신기하고",
}
SCALE_OF: dict[str, str] = {w: scale for table in (_SCALES_ATTR, _SCALES_GO)
                            for scale, words in table.items() for w in words.split()}
#: attributive adjectives without a scale of their own (they still make a stack)
_OTHER_ATTR = ("빨간 파란 노란 하얀 까만 예쁜 귀여운 아름다운 멋진 친절한 착한 정직한 심심한 "
               "바쁜 피곤한 배고픈 목마른 졸린 중요한 유명한 똑똑한 용감한 무서운 맑은 달콤한 "
               "단 짠 매운 신 싱거운 신선한 훌륭한 궁금한 소중한 튼튼한 향기로운 고소한 바삭한 "
               "쫄깃한 상냥한 겸손한 엄격한 침착한 수줍은 화려한 둥근 많은").split()
_OTHER_GO = ("빨갛고 파랗고 노랗고 하얗고 까맣고 예쁘고 귀엽고 아름답고 멋지고 친절하고 착하고 "
             "정직하고 심심하고 바쁘고 피곤하고 배고프고 목마르고 졸리고 중요하고 유명하고 "
             "똑똑하고 용감하고 무섭고 맑고 달고 짜고 맵고 시고 싱겁고 신선하고 훌륭하고 소중하고 "
             "튼튼하고 향기롭고 고소하고 바삭하고 쫄깃하고 상냥하고 겸손하고 엄격하고 침착하고 "
             "수줍고 화려하고 둥글고 많고").split()
ATTRIBUTIVE = frozenset(_OTHER_ATTR) | {w for ws in _SCALES_ATTR.values() for w in ws.split()}
JOINED = frozenset(_OTHER_GO) | {w for ws in _SCALES_GO.values() for w in ws.split()}
#: nouns that open a two-word adjective (호기심 많은 "curious")
_ADJ_PREFIX = frozenset({"호기심"})
#: counters: 한 before one of them is the numeral "one", not the indefinite "a"
_COUNTERS = frozenset("명 개 마리 권 대 벌 그루 송이 곡 척 자루 살".split())
#: posture verbs whose state is -아/어 있다 (서 있다), with the English words of the state
_POSTURE_GO = frozenset({"서고", "앉고", "눕고"})
_STATE_GLOSS = frozenset({"standing", "sitting", "lying"})
#: time adverbials (one eojeol; 다음 주에 is matched on 주에 after 다음)
_KO_TIME = frozenset("어제 오늘 내일 지금 매일 아침에 저녁에 오후에 밤에 주말에 작년에 내년에 "
                     "지난주에 월요일에 화요일에 수요일에 목요일에 금요일에 토요일에 일요일에 "
                     "언제 왜".split())
_KO_HOUR = re.compile(r"^\d{1,2}시에$")
#: manner adverbs
_KO_MANNER = frozenset("빨리 천천히 조용히 다시 혼자 조심스럽게 행복하게 일찍 늦게 몰래 자주 "
                       "가끔 슬프게 기쁘게 부지런히 용감하게 친절하게 갑자기 크게 편하게 열심히 "
                       "바로 살짝 재빨리 힘차게 느긋하게".split())
#: subject and object/recipient particles (longest first), and the plural 들
_SUBJECT_PARTICLES = ("이", "가", "은", "는", "도")
_OBJECT_PARTICLES = ("에게", "을", "를", "만")

# ---------------------------------------------------------------- English word lists

_EN_ADJECTIVES = frozenset((
    "big small tall low long short high new old hot cold warm cool heavy light thick thin wide "
    "narrow deep shallow clear cheap expensive clean dirty quiet noisy fast slow difficult easy "
    "interesting boring delicious tasteless fresh sweet salty spicy sour bland red blue yellow "
    "white black pretty cute beautiful wonderful kind nice honest happy sad joyful lonely bored "
    "cheerful busy tired hungry thirsty sleepy sick healthy strong weak important famous smart "
    "brave lazy diligent poor rich scary dangerous safe comfortable uncomfortable slim fat "
    "bright dark round soft hard nearby distant strange special ordinary excellent curious tiny "
    "huge precious amazing complicated simple sturdy sharp dull fragrant savory crispy chewy "
    "friendly humble strict calm shy colorful spacious").split())
#: what English calls tall (a word ending in "tree" counts too)
_TALL_OK = frozenset((
    "tower towers lighthouse lighthouses apartment apartments hotel hotels castle castles palace "
    "palaces building buildings skyscraper skyscrapers bookcase bookcases wardrobe wardrobes "
    "dresser dressers bookshelf bookshelves ladder ladders sunflower sunflowers bamboo giraffe "
    "giraffes grass man men woman women person people boy boys girl girls player players "
    "department clock willow willows").split())
#: what English calls low
_LOW_OK = frozenset((
    "table tables chair chairs bed beds bench benches shelf shelves desk desks sofa sofas stool "
    "stools wall walls fence fences hill hills ceiling ceilings dining branch branches bridge "
    "bridges").split())
#: animals no one calls long (a snake, an eel, a crocodile may be)
_NOT_LONG = frozenset((
    "dog dogs cat cats bird birds horse horses cow cows pig pigs sheep mouse mice rabbit rabbits "
    "tiger tigers lion lions bear bears monkey monkeys fox foxes wolf wolves chicken chickens "
    "duck ducks goose geese goat goats deer frog frogs penguin penguins hippo hippos camel "
    "camels squirrel squirrels parrot parrots owl owls panda pandas zebra zebras puppy puppies "
    "hamster hamsters kitten kittens chick chicks ant ants bee bees spider spiders snail "
    "snails").split())
#: things without a body: no size, weight, colour, shape or wear
_ABSTRACT = frozenset("email emails poem poems homework forecast forecasts".split())
_PHYSICAL = frozenset((
    "big small heavy light thick thin red blue yellow white black round old clean dirty tiny "
    "huge sturdy soft hard cheap expensive pretty bright").split())
#: adjective -> nouns it cannot describe
_BAD_WITH = {
    "crispy": frozenset("soup soups stew stews water juice milk tea coffee ice cream porridge "
                        "yogurt honey jam pudding jelly".split()),
    "chewy": frozenset("soup soups stew stews water juice milk tea coffee porridge yogurt honey "
                       "jam".split()),
    "spicy": frozenset("cake cakes ice cream candy candies chocolate cookie cookies pudding "
                       "jelly honey jam donut donuts pie pies muffin muffins".split()),
    "hot": frozenset("envelope envelopes wallet wallets backpack backpacks bag bags basket "
                     "baskets suitcase suitcases pencil case".split()),
    "comfortable": frozenset("mirror mirrors curtain curtains door doors window windows frame "
                             "frames ladder ladders drawer drawers".split()),
}
#: properties that do not come and go: with a time adverbial they read oddly
_LASTING = frozenset((
    "big small tall low long short heavy light thick thin wide narrow deep shallow spacious red "
    "blue yellow white black round expensive cheap new old famous important smart brave lazy "
    "diligent poor rich kind nice honest friendly humble strict shy slim fat strong weak fast "
    "slow difficult easy interesting boring complicated simple sharp dull sturdy tiny huge "
    "precious amazing strange special ordinary excellent curious beautiful pretty cute "
    "wonderful scary dangerous safe comfortable uncomfortable nearby distant fragrant "
    "colorful").split())
_EN_TIME = re.compile(r"\b(yesterday|today|tomorrow|now|every day|in the (morning|evening|"
                      r"afternoon)|at night|on the weekend|(last|next) (year|week)|on (monday|"
                      r"tuesday|wednesday|thursday|friday|saturday|sunday)|at \d+ o'clock)\b")
_CONJUNCTIONS = frozenset({"because", "when", "if"})
_COORDINATORS = frozenset({"and", "but"})


# ---------------------------------------------------------------- reading a pair

def _batchim(syllable: str) -> bool:
    """True when a Hangul syllable ends in a consonant (its tail index is not 0)."""
    code = ord(syllable) - 0xAC00
    return 0 <= code <= 11171 and code % 28 != 0


def _strip(word: str, particles: Sequence[str]) -> str | None:
    """The noun under ``word`` when it ends in one of ``particles`` with the right allomorph
    (이/은/을 after a consonant, 가/는/를 after a vowel), the plural 들 removed; else None."""
    for p in particles:
        if word.endswith(p) and len(word) > len(p):
            stem = word[:-len(p)]
            last = stem[-1]
            if p in ("이", "은", "을") and not _batchim(last):
                continue
            if p in ("가", "는", "를") and _batchim(last):
                continue
            return stem[:-1] if stem.endswith("들") and len(stem) > 1 else stem
    return None


def _parse_align(align: Any) -> list[tuple[int, int]] | None:
    if align is None:
        return None
    if isinstance(align, str):
        out = []
        for item in align.split():
            a, sep, b = item.partition("-")
            if not sep or not a.isdigit() or not b.isdigit():
                raise DataError(f"bad alignment link {item!r} (expected i-j)")
            out.append((int(a), int(b)))
        return out
    return [(int(i), int(j)) for i, j in align]


@dataclass
class _Pair:
    """One pair, split into words, with what the alignment says (when given)."""

    ko: list[str]
    en: list[str]  # words without punctuation
    en_raw: list[str]  # words as written (commas kept)
    links: list[tuple[int, int]] | None
    ko_of: dict[int, list[int]] = field(default_factory=dict)  # English word -> Korean words
    en_of: dict[int, list[int]] = field(default_factory=dict)  # Korean word -> English words

    @classmethod
    def read(cls, ko: str, en: str, align: Any = None) -> _Pair:
        ko_words = [w.rstrip(".?!") for w in ko.split()]
        raw = en.split()
        p = cls(ko_words, [w.strip(".,?!").lower() for w in raw], raw, _parse_align(align))
        for i, j in p.links or ():
            if not (0 <= i < len(ko_words) and 0 <= j < len(raw)):
                raise DataError(f"alignment link {i}-{j} outside the pair "
                                f"({len(ko_words)} Korean, {len(raw)} English words)")
            p.ko_of.setdefault(j, []).append(i)
            p.en_of.setdefault(i, []).append(j)
        return p

    # ---- structure recovered from the alignment
    def boundaries(self) -> set[int]:
        """Korean words that end a clause: those linked to a clause conjunction (because, when,
        if; ", and" / ", but"), and the last word."""
        out = {len(self.ko) - 1}
        for j, w in enumerate(self.en):
            if j == 0:
                continue
            if w in _CONJUNCTIONS or (w in _COORDINATORS and self.en_raw[j - 1].endswith(",")):
                out.update(self.ko_of.get(j, ()))
        return out

    def relative_clauses(self) -> list[tuple[int, int, int]]:
        """``(english index of who/that, first, last Korean word of the relative verb)``: the
        pronoun is linked to the last word of the verb group (먹지 않는, 앉아 있는)."""
        out = []
        for j, w in enumerate(self.en):
            if j == 0 or w not in ("who", "that") or j not in self.ko_of:
                continue
            ks = self.ko_of[j]
            v = max(ks)
            if self.ko[v] in ("이", "저", "그"):  # "that girl": a demonstrative
                continue
            s = v
            if s > 0 and self.ko[s].startswith(("있", "않")):
                s -= 1
            if s > 0 and self.ko[s - 1] == "안":
                s -= 1
            out.append((j, s, v))
        return out


def _adjective_runs(words: list[str], stop: set[int]) -> list[list[int]]:
    """Maximal runs of adjective words (attributive, or joined with -고; 호기심 opens one);
    a word in ``stop`` (a clause connective) never joins a run."""
    runs, cur = [], []
    for i, w in enumerate(words):
        is_adj = i not in stop and (w in ATTRIBUTIVE or w in JOINED or w in _ADJ_PREFIX)
        if is_adj:
            cur.append(i)
        else:
            if cur:
                runs.append(cur)
            cur = []
    if cur:
        runs.append(cur)
    return runs


# ---------------------------------------------------------------- the rules

def _antonyms(p: _Pair, stop: set[int]) -> list[str]:
    out = []
    for run in _adjective_runs(p.ko, stop):
        seen: dict[str, str] = {}
        for i in run:
            scale = SCALE_OF.get(p.ko[i])
            if scale is None:
                continue
            if scale in seen:
                out.append(f"{seen[scale]} + {p.ko[i]} ({scale})")
            else:
                seen[scale] = p.ko[i]
    return out


def _stacked(p: _Pair, stop: set[int]) -> list[str]:
    out = []
    for i in range(len(p.ko) - 1):
        a, b = p.ko[i], p.ko[i + 1]
        if i in stop or len(a) < 2 or not a.endswith("한") or a not in ATTRIBUTIVE:
            continue
        if b in ATTRIBUTIVE or b in _ADJ_PREFIX:
            out.append(f"{a} {b}")
    return out


def _indefinite_topic(p: _Pair) -> list[str]:
    out = []
    ko = p.ko
    for i, w in enumerate(ko[:-1]):
        if w not in ("한", "어떤"):
            continue
        if w == "한" and p.links is not None:
            if not {p.en[j] for j in p.en_of.get(i, ())} & {"a", "an"}:
                continue  # 숙제를 (도서관에서) 한 학생: 한 is the verb 하다 ("who did")
        elif w == "한" and i > 0 and ko[i - 1].endswith(("을", "를")):
            continue
        if ko[i + 1] in _COUNTERS or ko[i + 1].rstrip("은는이가을를") in _COUNTERS:
            continue  # 한 명: the numeral
        j = i + 1
        while j < len(ko) and (ko[j] in ATTRIBUTIVE or ko[j] in JOINED or ko[j] in _ADJ_PREFIX):
            j += 1
        if j < len(ko) and j < len(ko) - 1 and _strip(ko[j], ("은", "는")) is not None:
            out.append(" ".join(ko[i:j + 1]))
    return out


def _posture(p: _Pair) -> list[str]:
    # the state: "standing", "sitting", "lying (down)"; the action: "standing up", "sitting down"
    nxt = p.en[1:] + [""]
    if not any(w in _STATE_GLOSS and (w, n) not in (("standing", "up"), ("sitting", "down"))
               for w, n in zip(p.en, nxt)):
        return []
    return [f"{a} {b}" for a, b in zip(p.ko, p.ko[1:]) if a in _POSTURE_GO and b.startswith("있")]


def _curious(p: _Pair) -> list[str]:
    return [w for w in p.ko if w.startswith("궁금")]


def _segments(p: _Pair, stop: set[int]) -> list[range]:
    out, start = [], 0
    for i in sorted(stop):
        out.append(range(start, i + 1))
        start = i + 1
    if start < len(p.ko):
        out.append(range(start, len(p.ko)))
    return out


_DIGIT_COUNT = re.compile(r"^\d+(" + "|".join(sorted(_COUNTERS, key=len, reverse=True)) + ")$")


def _noun_at(p: _Pair, i: int, particles: Sequence[str]) -> tuple[str, int] | None:
    """``(noun, index of its first word)`` of the phrase ending at word ``i`` in one of
    ``particles``: 학생이 -> 학생; a counted phrase names its noun before the numeral
    (학생 세 명이, 학생 3명이 -> 학생)."""
    stem = _strip(p.ko[i], particles)
    if stem is None:
        return None
    if stem in _COUNTERS:  # 학생 세 명이
        return (p.ko[i - 2], i - 2) if i >= 2 else None
    if _DIGIT_COUNT.match(stem):  # 학생 3명이
        return (p.ko[i - 1], i - 1) if i >= 1 else None
    return stem, i


_IRREGULAR_SINGULAR = {"children": "child", "men": "man", "women": "woman", "people": "person",
                       "mice": "mouse", "geese": "goose", "wolves": "wolf", "knives": "knife",
                       "thieves": "thief", "leaves": "leaf", "calves": "calf"}
_FUNCTION = frozenset("the a an this that these those to at in on by with into of who and "
                      "also only not do does did will is are was were be another other".split())


def _singular(word: str) -> str:
    if word in _IRREGULAR_SINGULAR:
        return _IRREGULAR_SINGULAR[word]
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "xes", "sses")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


def _english_nouns(p: _Pair, i: int) -> set[str]:
    """Content words the alignment links to Korean word ``i`` (singular, lower case)."""
    return {_singular(p.en[j]) for j in p.en_of.get(i, ()) if p.en[j] not in _FUNCTION
            and not p.en[j][:1].isdigit()}


_DETERMINERS = frozenset({"이", "저", "그", "어떤", "한", "다른"})


def _phrase_start(p: _Pair, i: int) -> int:
    """First word of the noun phrase whose noun is word ``i``: back over adjectives,
    determiners (이, 저, 어떤, 한, 다른) and a possessor (김민준의)."""
    while i > 0:
        w = p.ko[i - 1]
        if w in ATTRIBUTIVE or w in JOINED or w in _ADJ_PREFIX or w in _DETERMINERS or \
                (w.endswith("의") and len(w) > 1):
            i -= 1
        else:
            break
    return i


def _has_other(p: _Pair, noun_index: int) -> bool:
    """Whether the phrase of the noun at ``noun_index`` has 다른 "another, other"."""
    return "다른" in p.ko[_phrase_start(p, noun_index):noun_index]


def _same_noun(p: _Pair, stop: set[int]) -> list[str]:
    """A noun as its own object or recipient: in one clause (학생이 학생에게), or in a
    relative clause whose argument is its own head (학생이 만난 학생, 학생을 만난 학생).
    With an alignment both words must translate one English noun (so that verb forms such as
    않은 ... 않을 are not taken for nouns), and a relative clause's argument is told from the
    clause's own."""
    out = []
    rel_args: set[int] = set()
    advs = {i for a, b in _adverbials(p) for i in range(_phrase_start(p, a), b + 1)}
    rels = p.relative_clauses() if p.links is not None else []
    verbs = {i for _, s, v in rels for i in range(s, v + 1)}
    for _, s, v in rels:
        a = s - 1
        while a >= 0 and a in advs:
            a -= 1
        if a < 0:
            continue
        arg = _noun_at(p, a, _SUBJECT_PARTICLES + _OBJECT_PARTICLES)
        h = v + 1
        while h < len(p.ko) and (p.ko[h] in ATTRIBUTIVE or p.ko[h] in JOINED or
                                 p.ko[h] in _ADJ_PREFIX or p.ko[h] in _DETERMINERS):
            h += 1
        if arg is None or h >= len(p.ko):
            continue
        rel_args.add(a)
        head = p.ko[h].rstrip(".?")
        head_noun = _strip(head, _SUBJECT_PARTICLES + _OBJECT_PARTICLES + ("에", "의", "에서",
                                                                            "와", "과", "로",
                                                                            "으로")) or head
        if arg[0] == head_noun and not _has_other(p, arg[1]) and not _has_other(p, h):
            if _english_nouns(p, a) & _english_nouns(p, h):
                out.append(f"{p.ko[a]} {p.ko[v]} {p.ko[h]}")
    for seg in _segments(p, stop):
        subjects: dict[str, tuple[int, bool]] = {}
        for i in seg:
            if i in rel_args or i in verbs or p.ko[i] in ATTRIBUTIVE:
                continue
            obj = _noun_at(p, i, _OBJECT_PARTICLES)
            if obj is not None and obj[0] in subjects:
                first, other = subjects[obj[0]]
                if not other and not _has_other(p, obj[1]) and (
                        p.links is None or _english_nouns(p, first) & _english_nouns(p, i)):
                    out.append(f"{p.ko[first]} ... {p.ko[i]}")
            subj = _noun_at(p, i, _SUBJECT_PARTICLES)
            if subj is not None and subj[0] not in subjects:
                subjects[subj[0]] = (i, _has_other(p, subj[1]))
    return out


def _head_after(words: list[str], k: int) -> list[str]:
    """The noun words after position ``k`` (skipping further adjectives): up to two words, so
    that compounds ("pine tree", "ice cream") are seen whole."""
    j = k + 1
    while j < len(words) and words[j] in _EN_ADJECTIVES:
        j += 1
    return words[j:j + 2]


def _fits(adj: str, head: list[str]) -> bool:
    if not head:
        return True
    first = head[0]
    pair = " ".join(head)
    if adj == "tall":
        return (first in _TALL_OK or first.endswith(("tree", "trees"))
                or pair.endswith(("tree", "trees")) or (len(head) > 1 and head[1] in _TALL_OK))
    if adj == "low":
        return first in _LOW_OK or (len(head) > 1 and head[1] in _LOW_OK)
    if adj == "long":
        return first not in _NOT_LONG
    if adj in _PHYSICAL and (first in _ABSTRACT or pair in ("weather forecast",
                                                          "weather forecasts")):
        return False
    bad = _BAD_WITH.get(adj)
    if bad is not None and (first in bad or pair in bad):
        return False
    return True


_BE = frozenset({"is", "are", "was", "were", "be"})
_NP_OPENERS = frozenset("the a an this that these those another other and".split())
_EN_NUMBERS = frozenset(
    "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty "
    "ninety".split()) | {f"{t}-{u}" for t in "twenty thirty forty fifty sixty seventy eighty "
                         "ninety".split() for u in "one two three four five six seven eight "
                         "nine".split()}


def _predicate_subject(p: _Pair, k: int) -> list[str]:
    """The noun right before the verb "be" of a predicate adjective at ``k`` ("the wardrobe was
    low" -> wardrobe); empty when a relative clause or a question makes that uncertain."""
    en = p.en
    b = k - 1
    while b > 0 and en[b] in ("not", "also"):
        b -= 1
    if en[b] == "be":  # will (not) be
        b -= 1
        while b > 0 and en[b] in ("will", "not"):
            b -= 1
    if en[b] not in _BE and en[b] != "will":
        return []
    start = b
    while start > 0 and not (en[start - 1] in _CONJUNCTIONS or (
            en[start - 1] in _COORDINATORS and p.en_raw[start - 2].endswith(","))):
        start -= 1
    if start == b or any(w in ("who", "that", "what", "where", "when", "why", "how")
                         for w in en[start:b]):
        return []
    return [en[b - 1]]


def _implausible(p: _Pair) -> list[str]:
    out = []
    en = p.en
    for k, w in enumerate(en):
        if w not in _EN_ADJECTIVES:
            continue
        if k > 0 and en[k - 1] in _BE | {"not", "also"}:  # predicate: "the school is tall"
            head = _predicate_subject(p, k)
            if head and not _fits(w, head):
                out.append(f"{head[0]} ... {w}")
            continue
        prev = en[k - 1] if k > 0 else ""
        if k > 0 and _is_predicate(en, k):
            # a predicate in a question ("Is the sofa low?"), unless a relative clause stands
            # between ("Is the sofa that the boy bought low?")
            start = k
            while start > 0 and not (en[start - 1] in _CONJUNCTIONS or (
                    en[start - 1] in _COORDINATORS and p.en_raw[start - 2].endswith(","))):
                start -= 1
            if prev not in _BE and not any(x in ("who", "that") for x in en[start:k]) and \
                    not _fits(w, [prev]):
                out.append(f"{prev} ... {w}")
            continue
        head = _head_after(en, k)
        if head and not _fits(w, head):
            out.append(f"{w} {' '.join(head)}")
    return out


def _garden_path(p: _Pair, stop: set[int]) -> list[str]:
    out = []
    for i in range(1, len(p.ko) - 1):
        w, nxt = p.ko[i], p.ko[i + 1]
        if w not in JOINED or not (nxt in ATTRIBUTIVE or nxt in JOINED or nxt in _ADJ_PREFIX):
            continue
        # a predicate: a clause connective (from the alignment), or right after a subject
        predicate = i in stop if p.links is not None else \
            _strip(p.ko[i - 1], _SUBJECT_PARTICLES) is not None
        if predicate:
            out.append(f"{p.ko[i - 1]} {w} {nxt}")
    return out


def _clauses_en(p: _Pair) -> list[range]:
    """English clauses: split before because / when / if and ", and" / ", but"."""
    cuts = [j for j, w in enumerate(p.en) if j > 0 and (
        w in _CONJUNCTIONS or (w in _COORDINATORS and p.en_raw[j - 1].endswith(",")))]
    edges = [0] + cuts + [len(p.en)]
    return [range(a, b) for a, b in zip(edges, edges[1:])]


def _is_predicate(words: list[str], k: int) -> bool:
    """Whether the adjective ``words[k]`` is a predicate: after be ("was low", "is not tall",
    "will be tall"), or after the subject of a yes/no question ("Is the sofa low?")."""
    prev = words[k - 1] if k > 0 else ""
    if prev in _BE or prev in ("not", "also"):
        return True
    if words[0] not in _BE | {"will"} or prev.endswith(("ing", "ed")):
        return False
    return not (prev in _NP_OPENERS or prev in _EN_ADJECTIVES or prev.endswith("'s") or
                prev[:1].isdigit() or prev in _EN_NUMBERS or prev in _BE)


def _lasting_with_time(p: _Pair) -> list[str]:
    out = []
    for clause in _clauses_en(p):
        words = [p.en[j] for j in clause]
        m = _EN_TIME.search(" ".join(words))
        if m is None:
            continue
        for k, w in enumerate(words):
            if k > 0 and w in _LASTING and _is_predicate(words, k):
                out.append(f"{words[k - 1]} {w} ... {m.group(0)}")
    return out


def _adverbials(p: _Pair) -> list[tuple[int, int]]:
    """Korean adverbials as ``(first, last)`` word index: time words (다음 주에 is two words),
    hours (3시에), places in 에서, manner adverbs, 언제 and 왜."""
    out = []
    for i, w in enumerate(p.ko):
        if w == "주에" and i > 0 and p.ko[i - 1] == "다음":
            out.append((i - 1, i))
        elif w in _KO_TIME or w in _KO_MANNER or _KO_HOUR.match(w) or \
                (w.endswith("에서") and len(w) > 2):
            out.append((i, i))
    return out


def _dangling(p: _Pair, stop: set[int]) -> list[str]:
    if p.links is None:
        return []
    rels = p.relative_clauses()
    if not rels:
        return []
    out = []
    advs = _adverbials(p)
    adv_words = {i for a, b in advs for i in range(a, b + 1)}
    # Korean: an adverbial is read with the nearest verb after it; when that is a relative
    # clause's verb, the adverbial must stand right before it and after an argument of it
    # (소녀가 가게에서 산 사과), not before the relative clause's own words or at its left edge
    for a, b in advs:
        end = min((x for x in stop if x >= b), default=len(p.ko) - 1)
        nearest = min(((s, v) for _, s, v in rels if b < s <= end), default=None)
        if nearest is None:
            continue
        s, v = nearest
        start = _phrase_start(p, a)
        prev = start - 1
        left_edge = prev < 0 or prev in stop or prev in adv_words or (
            p.ko[prev] not in ATTRIBUTIVE and _strip(p.ko[prev], ("은", "는")) is not None)
        if s > b + 1 or left_edge:
            out.append(f"ko: {' '.join(p.ko[start:b + 1])} ... {p.ko[v]}")
    # English: an adverbial after a relative clause that is still open is read inside it
    by_first: dict[int, tuple[int, int]] = {}
    for a, b in advs:
        js = [j for i in range(a, b + 1) for j in p.en_of.get(i, ())]
        if js:
            by_first[min(js)] = (a, b)
    en_stop = {j for j, w in enumerate(p.en) if j > 0 and (
        w in _CONJUNCTIONS or (w in _COORDINATORS and p.en_raw[j - 1].endswith(",")))}
    for j, (a, b) in sorted(by_first.items()):
        before = [r for r in rels if r[0] < j and not any(r[0] < x < j for x in en_stop)]
        for r, s, v in sorted(before, reverse=True):
            closed = any(i > v for x in range(r + 1, j) for i in p.ko_of.get(x, ()))
            if closed:
                continue
            if b != s - 1:
                out.append(f"en: {p.en_raw[r]} ... {' '.join(p.en[j:j + 1])}")
            break
    return out


def check_pair(ko: str, en: str, align: Any = None) -> list[tuple[str, str]]:
    """The findings of one pair as ``(rule, detail)``; ``align`` is a Pharaoh string
    ("0-0 1-2"), a sequence of ``(i, j)`` links, or None (then dangling_adverbial is skipped).

    >>> check_pair("한 여자는 잔다.", "A woman sleeps.")
    [('indefinite_topic', '한 여자는')]
    """
    p = _Pair.read(ko, en, align)
    stop = p.boundaries() if p.links is not None else set()
    stop.discard(len(p.ko) - 1)
    found: list[tuple[str, str]] = []
    for rule, details in (
        ("antonym_adjectives", _antonyms(p, stop)),
        ("stacked_adjectives", _stacked(p, stop)),
        ("indefinite_topic", _indefinite_topic(p)),
        ("posture_progressive", _posture(p)),
        ("curious_trait", _curious(p)),
        ("same_noun_object", _same_noun(p, stop)),
        ("implausible_adjective", _implausible(p)),
        ("modifier_garden_path", _garden_path(p, stop)),
        ("lasting_with_time", _lasting_with_time(p)),
        ("dangling_adverbial", _dangling(p, stop | {len(p.ko) - 1})),
    ):
        found.extend((rule, d) for d in details)
    return found


@dataclass
class NaturalnessReport:
    """Per-rule counts of flagged pairs (a pair counts once per rule), pairs with any finding,
    and up to ``max_examples`` examples per rule as ``(ko, en, detail)``."""

    pairs: int
    unnatural: int
    counts: dict[str, int]
    examples: dict[str, list[tuple[str, str, str]]]
    aligned: bool

    @property
    def rate(self) -> float:
        """Share of pairs with at least one finding."""
        return self.unnatural / self.pairs if self.pairs else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {"pairs": self.pairs, "unnatural": self.unnatural, "rate": self.rate,
                "aligned": self.aligned, "counts": dict(self.counts),
                "rates": {k: (v / self.pairs if self.pairs else 0.0)
                          for k, v in self.counts.items()},
                "examples": {k: [list(e) for e in v] for k, v in self.examples.items()}}


def _fields(pair: Any) -> tuple[str, str, Any]:
    if isinstance(pair, (tuple, list)):
        if len(pair) == 2:
            return pair[0], pair[1], None
        if len(pair) == 3:
            return pair[0], pair[1], pair[2]
        raise DataError(f"a pair is (ko, en) or (ko, en, align), got {len(pair)} fields")
    try:
        return pair.ko, pair.en, getattr(pair, "align", None)
    except AttributeError:
        raise DataError(f"cannot read a pair from {type(pair).__name__} (needs .ko and .en, "
                        f"or a (ko, en[, align]) tuple)") from None


def check_pairs(pairs: Iterable[Any], max_examples: int = 5) -> NaturalnessReport:
    """Check every pair (objects with ``.ko``, ``.en`` and optionally ``.align``, or tuples
    ``(ko, en[, align])``) and count, per rule, the pairs it flags."""
    counts = {rule: 0 for rule in RULES}
    examples: dict[str, list[tuple[str, str, str]]] = {rule: [] for rule in RULES}
    n = unnatural = 0
    aligned = True
    for pair in pairs:
        ko, en, align = _fields(pair)
        aligned = aligned and align is not None
        n += 1
        found = check_pair(ko, en, align)
        if not found:
            continue
        unnatural += 1
        for rule in dict.fromkeys(r for r, _ in found):
            counts[rule] += 1
            if len(examples[rule]) < max_examples:
                detail = "; ".join(d for r, d in found if r == rule)
                examples[rule].append((ko, en, detail))
    return NaturalnessReport(n, unnatural, counts, examples, aligned and n > 0)


__all__ = ["ATTRIBUTIVE", "BLIND_SPOTS", "JOINED", "NaturalnessReport", "RULES", "SCALE_OF",
           "check_pair", "check_pairs"]
