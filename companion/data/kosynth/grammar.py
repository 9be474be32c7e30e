"""Sentence generation: one tree, rendered as Korean and as English, with the gold alignment.

A clause is a :class:`Clause` (predicate + arguments + adjuncts). Rendering walks it twice:
Korean in SOV order with postpositions and head-final modifiers, English in SVO order with
prepositions and head-initial modifiers. Korean words are :class:`K` objects (eojeols);
every English word is emitted together with the K it translates, so the alignment falls out
of the rendering: ``사과를`` <-> ``the apple``, ``먹지 않았다`` <-> ``did not eat``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from companion.data.kosynth import coherence as CO
from companion.data.kosynth import english as E
from companion.data.kosynth import korean as KO
from companion.data.kosynth.hangul import attach
from companion.data.kosynth.level import Level, resolve_level
from companion.data.kosynth.lexicon import (ANIMATE, HAN_AMBIGUOUS, Adjective, Lexicon, Noun,
                                            Verb, age_range, can_possess, kin_gender,
                                            places_for, select_lexicon, subject_fits,
                                            vehicle_fits)
from companion.data.kosynth.lexicon import TIMES  # noqa: F401  (moved; importable from here)


#: what the grammar guarantees beyond grammaticality, listed in every corpus's datasheet (the
#: independent check of the generated text is :mod:`companion.evaluation.naturalness`)
NATURALNESS_RULES = (
    "posture verbs (서다, 앉다, 눕다, 숨다) take the resultative -아/어 있다 in the progressive: "
    "서 있다 'is standing'; -고 있다 only for actions in progress",
    "indefinite subjects (한/어떤 N, counted N) take 이/가, never the topic 은/는; a topic is a "
    "name or a definite 'the N'",
    "no two adjectives of one scale describe one noun (no 큰 작은 'big small'; the dimensions "
    "are one scale), and an adjective predicate's subject has no adjective of its scale",
    "at most one attributive adjective on a noun (a pile of them reads as a list: no 빠르고 "
    "아픈 낙타); two adjective predicates are joined with -고",
    "honoured subjects (선생님, 할머니, 어머니, any noun counted with 분) take -(으)시- in every "
    "verb form: 사세요, 기다리셨습니다, 가고 계세요, 드셨다, 주무신다, 배고프셔서, 사신",
    "counted nouns take native numerals up to 99 (학생 일곱 명, 선생님 여섯 분, never 6분), "
    "digits only for larger crowds (학생 150명); ages are native (스무 살)",
    "-고 joins only clauses about one participant (소년은 빵을 먹고 피곤해서 잤다) or one "
    "event done by two (소년이 빵을 먹고 소녀도 빵을 먹었다: 도 only there); unrelated "
    "events are never joined",
    "adjectives describe only nouns they fit: 'tall' only trees, towers and tall furniture, "
    "'long' no dog, no size, colour or weight for an email or a poem",
    "the trait 'curious' is 호기심 많다 (호기심 많은 소년, 소년은 호기심이 많다), not 궁금하다",
    "a noun repeated as its own object or recipient, or as the subject of its own relative "
    "clause, takes 다른 'another, other'; a name is never its own object",
    "Korean time and place adverbials (and 언제, 왜) follow the last argument that holds a "
    "relative clause, so no relative clause's verb stands between them and their verb; a "
    "relative clause's place stands between its argument and its verb, and only there",
    "English time and place are fronted when an argument after the verb holds a relative "
    "clause; then no manner adverb, and no time or place in a question",
    "a lasting property takes no time adverbial (not 'the chair was low yesterday'); 'now' "
    "not with a simple present verb",
    "a clause ending in an adjective with -고 is not followed by one opening with an adjective "
    "(방이 크고 작은 소녀가 would read 'the big and small girl'), and no clause in -고 is "
    "followed by a relative clause (빵을 먹고 우는 아이 would read 'the child who eats bread "
    "and cries')",
    "Korean has no article: nouns are bare; 한 'a' only introduces the subject of a "
    "statement's first clause (한 소년이 ...), 어떤 never stands for 'a'; English a/the follows "
    "the rule of companion.data.kosynth.articles (bare nouns 'the', mass objects generic: "
    "'drinks tea', kinship nouns with a possessor: 'Kim Minjun's aunt')",
    "-아서 'because', -면 'if' and -(으)ㄹ 때 'when' join only events a reader accepts as "
    "linked (a feeling or need and the action it causes, an action and its consequence, a "
    "place's temperature and what a person does; see companion.data.kosynth.coherence); "
    "lasting properties are never such a clause or its main clause",
    "a subordinate clause never stands directly before a relative clause: a shared subject "
    "opens the sentence (장지호는 청소를 해서 피곤했다, not 청소해서 장지호는), and an object with "
    "a relative clause moves before the subordinate clause (소년은 소녀가 만든 빵을 배가 고파서 "
    "먹었다)",
    "-지만 'but' only for a contrast: one predicate, two participants, one negated ('The boy "
    "laughs, but the girl does not')",
    "an adjective before -고 in a future sentence keeps the present (방이 크고 ... 잘 것이다 "
    "'the room is big and ... will sleep'); a relative clause in a past sentence follows the "
    "English sequence of tenses ('who would meet', 'who was cooking')",
    "numbers one to ten are words in English ('four students' for 학생 네 명), larger ones "
    "digits ('26 students' for 학생 스물여섯 명), whatever the Korean numeral",
    "the English of a cause takes its own time: an action before a present or past effect is "
    "past ('is tired because he cleaned'); a future effect has a state as its cause and no "
    "time adverbial",
)


def _pick(rng: random.Random, seq):
    """``rng.choice(seq)`` with one ``random()`` call (faster; same determinism)."""
    return seq[int(rng.random() * len(seq))]


def role_map(ks: list, group) -> dict:
    """Role -> K for a tagged Korean group; a suppletive negative (모른다, 없다) is tagged
    ``V+NEG`` and answers for both roles."""
    out = {}
    for k, (_, role) in zip(ks, group):
        if "+" in role:
            for part in role.split("+"):
                out[part] = k
        else:
            out[role] = k
    return out


class K:
    """One Korean eojeol; its text grows as particles and endings attach. ``index`` is its
    position in the finished sentence (set by :func:`finish`; -1 before)."""

    __slots__ = ("text", "index")

    def __init__(self, text: str) -> None:
        self.text = text
        self.index = -1

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"K({self.text!r})"


#: an English word and the Korean eojeol(s) it is aligned to
EnTok = list  # [word: str, k: K | tuple[K, ...] | None]


@dataclass
class NP:
    """A noun phrase rendered in both languages; ``ko[-1]`` takes the case particle."""

    ko: list
    en: list
    plural: bool = False
    human: bool = False
    name: bool = False
    cls: str = ""
    tags: set = field(default_factory=set)
    prep: str = "in"
    lemmas: set = field(default_factory=set)  # lexicon keys of the lemmas it uses
    rel: bool = False  # holds a relative clause (adverbials must not precede it)
    indefinite: bool = False  # "a boy", "three boys": never the topic (은/는)
    head: str = ""  # the head noun (or the full name; "a|b" when coordinated): 다른 when it
    #                 repeats as an object
    generic: bool = False  # a bare mass noun ("the tea"): no article as an object ("drinks tea")
    hon: bool = False  # an honoured person (선생님, 할머니, any noun counted with 분): -시-
    #: (English plural, words of the singular) of a bare count noun ("apples"; see
    #: :func:`bare_plural`), None where the noun phrase has a determiner of its own
    count_en: tuple | None = None
    #: the activity its relative clause says it is doing (날고 있는 꿀벌, 빵을 먹는 소년: 날다,
    #: 먹다), None without one
    rel_verb: object = None
    #: its relative clause opens with a subject of its own (가이드가 놀린 소년): after another
    #: bare subject the two read as one clause (신지안이 가이드가 놀린 ...)
    rel_subj: bool = False
    counter: str = ""  # the noun's counter (마리, 명, 개), "" without one


@dataclass
class Clause:
    subj: NP | None
    pred: Verb | Adjective
    tense: str = "present"
    neg: str | None = None  # None, "short", "long"
    obj: NP | None = None
    rec: NP | None = None
    goal: NP | None = None
    instr: NP | None = None
    place: NP | None = None
    time: tuple | None = None  # (ko words, en words, tense constraint)
    manner: object | None = None
    wh: str | None = None  # subj, obj, rec, goal, place, time, why
    topic: bool = False
    place_first: bool = False  # 공원에서 소년이 ... (place before the subject)
    also: bool = False  # subject takes 도: "also" / "either" (negated)
    only: bool = False  # object takes 만: "only"
    #: a subject shared with the clause before (소년은 배가 고파서 빵을 먹었다): the Korean
    #: names it once, in the first clause (``ko_subj`` False in the second), the English
    #: takes it up with ``en_pron`` ("... because he was hungry")
    ko_subj: bool = True
    en_pron: str | None = None
    v_k: object = None  # the verb's K once rendered ("ask ... a question" aligns to it)
    ellipsis: bool = False  # English keeps only the auxiliary: "..., but the girl does not"
    no_one: bool = False  # 어떤 N도 + negation: "no N" with a positive English verb
    #: opens the sentence: an object whose relative clause has its own subject may go before
    #: a bare subject (see :meth:`Generator.ko_args`); never after a clause (배고파서 소녀가
    #: 만든 빵을 would read 배고파서 inside the relative clause)
    opens: bool = False
    #: the English tense when it differs from the Korean one: a one-off event in the Korean
    #: present is the English progressive (고양이가 울어요 "The cat is crying")
    en_tense: str | None = None
    #: the English drops the subject, shared with the clause before "and" ("went to the
    #: library and read a book")
    en_no_subj: bool = False
    #: a passing state that follows a condition is a change in English: 달리면 피곤하다 "gets
    #: tired if she runs", not "is tired if she runs"
    en_become: bool = False
    manner_pre: bool = False  # the English adverb stands before the verb ("often sings")

    @property
    def adj(self) -> bool:
        return isinstance(self.pred, Adjective)


NATIVE_UNITS = ("", "한", "두", "세", "네", "다섯", "여섯", "일곱", "여덟", "아홉")
NATIVE_TENS = ("", "열", "스물", "서른", "마흔", "쉰", "예순", "일흔", "여든", "아흔")


def native_numeral(n: int) -> str:
    """Native Korean numeral in its form before a counter: 1 한, 2 두, 20 스무, 21 스물한."""
    if not 1 <= n <= 99:
        raise ValueError(f"native numerals run 1..99, not {n}")
    tens, ones = divmod(n, 10)
    if n == 20:
        return "스무"
    return NATIVE_TENS[tens] + NATIVE_UNITS[ones]


_ANIMATE = ANIMATE
#: verbs whose object is used up: a relative clause on it ("the tea that the student drank")
#: leaves nothing for the main clause to do with it
_CONSUMED = frozenset("먹다 마시다 맛보다".split())
#: verbs that take a thing into one's hands: its relative clause cannot say that someone has
#: already bought, ordered, stolen or thrown it away (소년이 산 커피를 주문하다, 주민이 버린
#: 엽서를 훔치다)
_ACQUIRE = frozenset("사다 주문하다 훔치다 고르다 받다 빌리다 줍다".split())
_ACQUIRED = _ACQUIRE | frozenset("버리다 잃어버리다 팔다 먹다 마시다".split())
#: verbs whose object comes into being: it has no past for a relative clause to tell ("bakes
#: the croissant that the girl tasted")
_CREATED = frozenset("끓이다 굽다 요리하다 만들다 짓다 그리다 쓰다".split())

#: verbs whose relative clause picks a thing out (소녀가 산 빵, 아버지가 고친 자전거,
#: 삼촌이 만든 의자): what someone got, made, chose, lost or fixed; a passing contact
#: (소년들이 맛본 커피, 여우들이 문 거위, 주민이 만진 컵), a taste (초등학생이 싫어하는 물)
#: or a sale of someone else's thing (치과의사가 판 풀잎) singles nothing out
_IDENTIFY_THING = frozenset("""사다 고르다 가져오다 잃어버리다 빌리다 받다 주문하다 만들다
요리하다 굽다 끓이다 짓다 고치다 수리하다 심다 배달하다 볶다 튀기다 포장하다 조립하다 선물하다
보내다 추천하다 방문하다 꾸미다""".split())
#: places are picked out by what people do there, not by who bought or chose them
_NOT_OF_PLACES = frozenset("사다 고르다 가져오다 빌리다 받다 주문하다 배달하다 포장하다".split())
#: ... and a person by a deed that changed them (소녀가 만난 의사, 의사가 치료한 환자),
#: not by who watched, drew, chased, woke or photographed them
_IDENTIFY_PERSON = frozenset("만나다 초대하다 돕다 가르치다 칭찬하다 치료하다 구하다".split())

#: rooms and places where one stays a while: the places whose heat or cold makes the people
#: in them drink, shiver or cough
_STAY_PLACES = frozenset("""부엌 교실 사무실 거실 방 침실 다락방 지하실 호텔 방 도서관 도서실 카페
식당 체육관 헬스장 오두막 헛간 동굴 사막 해변""".split()) | {"호텔 방"}

#: rooms of a house or a train one goes toward with (으)로, not 에 (침실로 간다)
_TOWARD_ROOMS = frozenset("침실 거실 부엌 욕실 복도 다락방 베란다 식당칸 놀이방 지하실".split())

#: people there is one of where they are (a country's president, a school's principal): not
#: counted, not introduced with 한 (대통령 한 명이 "a president"); nor is 사람 "person"
#: (사람 한 명이 is stilted: 한 사람이, 누군가가)
_ONE_OF_A_KIND = frozenset("대통령 교장 시장님".split())
#: verbs done in the water: the place of 수영하다 / 헤엄치다 is "in the river", never "by"
_IN_WATER = frozenset("수영하다 헤엄치다".split())

#: people a Korean speaker honours with -(으)시- on every verb they are the subject of (any
#: noun counted with 분 is honoured too; kin of a generation above the speaker as well)
HONOURED = frozenset("""선생님 신부님 스님 시장님 손님 어머니 아버지 할머니 할아버지 이모 고모
삼촌 외삼촌 부모님 사장님 교수님 목사님 의사선생님""".split())


def _kin_fits(term: str, name: str) -> bool:
    """Whether the kin term ``term`` can be said of the person ``name`` (a full name): any term
    but 형 / 누나 / 오빠 / 언니 and the spouses, and those only of a name whose sex Korean
    readers agree on (형, 누나 and 아내 of a man, 오빠, 언니 and 남편 of a woman; none of 주원,
    a name both carry)."""
    sex = kin_gender(term)
    return sex is None or {"he": "male", "she": "female"}.get(
        CO.pronoun_for(name, "person", plural=False, name=True) or "") == sex


def honoured(noun: Noun) -> bool:
    """Whether a subject of ``noun`` takes the honorific -(으)시-."""
    return noun.counter == "분" or noun.ko in HONOURED or noun.ko.endswith("님")


def lexicon_of(level: Level) -> Lexicon:
    """The lexicon a level draws from (cached: one per distinct cut)."""
    return select_lexicon(level.lemmas_per_class, level.surnames, level.given_names)


class Generator:
    """Draws sentences from one ``random.Random`` and the lexicon of one :class:`Level`
    (default ``full``); ``complexity`` scales modifiers/clauses."""

    def __init__(self, rng: random.Random, level: str | Level | None = None) -> None:
        self.rng = rng
        self.level = resolve_level(level)
        self.lex = lexicon_of(self.level)
        self.count_bias = 0.0  # raised to draw more counted NPs (the numbers challenge set)
        self.ctx_tense = "present"  # the tense of the clause being drawn (relative clauses)
        #: the verb of the clause being drawn: no relative clause of its arguments repeats it
        #: (not 박하은이 요리한 달걀을 요리하다, 신문을 산 학생이 신문을 사다)
        self.main_verb = ""
        self.neg_relatives = False  # negated relative clauses (the negation challenge set)
        #: future relative clauses (the relative and tense challenge sets): 요리할 소녀 picks a
        #: person out by what she has not done yet, which a sentence on its own seldom does
        self.future_relatives = False
        self.want_long = False  # the long challenge set: two linked pairs about one participant

    # ------------------------------------------------------------------ noun phrases
    def name_np(self) -> NP:
        r = self.rng
        s, g = _pick(r, self.lex.surnames), _pick(r, self.lex.given_names)
        k = K(s.ko + g.ko)
        return NP([k], [[s.en, k], [g.en, k]], human=True, name=True, cls="person",
                  tags={"name"}, lemmas={s.key, g.key}, head=k.text)

    def adjective_tokens(self, adjs: list, hon: bool = False) -> tuple[list, list]:
        """Korean tokens and English words of stacked adjectives: every adjective but the
        last takes -고 (착하고 조용한 "nice quiet"); 호기심 많은 "curious" is two eojeols
        aligned to one English word. Of an honoured noun a person's adjective takes -시-
        (배고프신 선생님, 친절하신 할머니)."""
        ko: list = []
        en: list = []
        last = len(adjs) - 1
        for i, a in enumerate(adjs):
            irr = a.irr or None
            if hon and a.person and not a.pre:
                a_head, irr = KO.honorific(a.head, irr), None
                form = KO.connective(a_head, "and", adj=True) if i < last else \
                    KO.adnominal(a_head, adj=True)
                ka = K(form)
                ko.append(ka)
                en.append([a.en, ka])
                continue
            form = KO.connective(a.head, "and", adj=True, irr=irr) if i < last else \
                KO.adnominal(a.head, adj=True, irr=irr)
            ka = K(form)
            if a.pre:
                kp = K(a.pre)
                ko += [kp, ka]
                en.append([a.en, (kp, ka)])
            else:
                ko.append(ka)
                en.append([a.en, ka])
        return ko, en

    def noun_np(self, classes: tuple[str, ...], depth: int = 0, c: float = 0.3,
                allow_count: bool = True, allow_rel: bool = True,
                noun: Noun | None = None, allow_home: bool = False,
                other_than: str | None = None, avoid_scale: str | None = None,
                allow_dem: bool = True) -> NP:
        """A common-noun phrase of one of ``classes``: [poss] [rel] [adj] N [num counter].

        At most one adjective (a pile of them reads as a list), none of
        ``avoid_scale`` (the scale of the clause's predicate: no "the tall desk was low"). When
        the noun is ``other_than`` (the clause's subject), it takes 다른: 학생이 다른 학생에게
        "the student ... another student"."""
        r = self.rng
        lex = self.lex
        if noun is None:
            cls = _pick(r, classes)
            noun = _pick(r, lex.nouns[cls])
            while noun.home and not allow_home:
                noun = _pick(r, lex.nouns[cls])
        cls = noun.cls
        human = cls == "person"
        tags: set = set()
        head = K(noun.ko)
        pre_ko: list = []
        det: list = []
        plural = False
        num_en: list = []
        post_ko: list = []
        lemmas = {noun.key}
        if noun.home:
            return NP([head], [["home", head]], cls=cls, tags=tags, lemmas=lemmas, head=noun.ko)
        if noun.bare:  # math, soccer, noodles: no article, no modifiers
            return NP([head], [[noun.en, head]], plural=noun.plural_only, cls=cls, tags=tags,
                      lemmas=lemmas, head=noun.ko)
        other = noun.ko == other_than
        adjs = []
        cands = lex.adj_by_noun[noun.ko]
        want_rel = allow_rel and depth < 2 and r.random() < c * 0.4 and any(
            self.rel_verbs(noun)) and not noun.kin and \
            noun.ko != other_than  # (not 소년이 [논] 다른 소년을: the clause only tells them apart)
        # one modifier: a relative clause already picks the noun out (피아니스트들이 기다린
        # 조용한 여자 tells two things no event needs); a place's look rarely matters to what
        # happens in it (밝은 주차장에 도착하다, 안전한 마을에서 웃다), so a quarter as often
        # a person's or an animal's epithet (행복하신 손님, 부지런한 요리사, 더러운 호랑이) mostly
        # has nothing to do with the event: rarer still; a thing's colour or size at half the
        # old rate (깨끗한 지도, 신기한 망원경을 끄다 describe what the event does not need)
        p_adj = 0.0 if want_rel else c * (0.2 if cls == "place" else
                                          0.15 if cls in _ANIMATE else 0.4)
        if cands and r.random() < p_adj:  # one attributive adjective at most: a pile of
            a1 = _pick(r, cands)  # them (빠르고 아픈 낙타) reads as a list, not a description
            # (a passing feeling as an epithet mostly tells nothing of the event: 배고픈 남자가
            # 가방을 팔았다; kept a third of the time)
            if a1.scale != avoid_scale and not (a1.ko in _FEELINGS and r.random() < 0.67) \
                    and self.main_verb not in _CLASHES.get(a1.ko, ()):  # (not 조용한 선생님이
                adjs.append(a1)  # 소리친다: an epithet the deed contradicts)
        counter = noun.counter
        x = r.random()
        if allow_count and counter and not noun.mass and not noun.plural_only and \
                noun.ko not in _ONE_OF_A_KIND and noun.ko != "사람" and \
                not noun.kin and x < 0.18 + c * 0.1 + self.count_bias:
            mode = "count"
        elif noun.mass:
            mode = "the"
        elif x < 0.30:
            mode = "plural" if cls in _ANIMATE and r.random() < 0.7 else "the"
        elif x < 0.38 and not want_rel and allow_dem:
            mode = "dem"
        else:  # a bare noun: Korean has no article (see :mod:`.articles` for a / the)
            mode = "the"
        kin = noun.kin and not other  # 이모 "aunt": English names whose (Kim Minjun's aunt)
        if kin and mode in ("plural", "dem"):
            mode, plural = "the", False
        if noun.plural_only:
            plural = True
        num_en: list = []
        counter_k = None
        if mode == "count":
            # native numerals up to 99 (학생 일곱 명, 선생님 여섯 분: never 6분, which reads
            # "six minutes"); digits only for larger crowds (학생 150명); the English writes
            # one to ten in words, larger numbers in digits, whatever the Korean system
            y = r.random()
            if not human:  # things and animals come in the numbers one person handles:
                n = _pick(r, (1, 2, 2, 3, 3, 4, 5, 6))  # 오렌지 세 개, not 달걀 스무 개를 먹다
            else:
                n = _pick(r, (1, 2, 2, 3, 3, 4, 5, 6, 7, 8, 9, 10, 12, 20)) if y < 0.55 \
                    else r.randint(2, 99) if y < 0.93 or counter != "명" \
                    else r.randint(100, 999)
            plural = n > 1
            tags.add("number")
            if n > 99:
                counter_k = K(f"{n}{counter}")
                post_ko = [counter_k]
                num_en = [[E.number_text(n), counter_k]]  # 150명 "150"
                tags.add("digits")
            else:
                kn, counter_k = K(native_numeral(n)), K(counter)
                post_ko = [kn, counter_k]
                num_en = [[E.number_text(n), kn]]  # 네 명 "four", 스물여섯 개 "26"
        elif mode == "plural":
            plural = True
            head.text += "들"
            tags.add("plural")
            det = [["the", head]]
        elif mode == "dem":  # (이 before a person reads first as the surname: 이 기자)
            dem = "저" if human else _pick(r, ("이", "저"))
            kd = K(dem)
            pre_ko.append(kd)
            if cls in _ANIMATE and r.random() < 0.3:
                plural = True
                head.text += "들"
                tags.add("plural")
            word = {("이", False): "this", ("이", True): "these", ("저", False): "that",
                    ("저", True): "those"}[dem, plural]
            det = [[word, kd]]
        else:
            det = [["the", head]]
        if other:  # 다른: "another boy", "other boys", "three other boys", "that other boy"
            ko_other = K("다른")
            pre_ko.append(ko_other)
            word = "other" if plural or mode in ("count", "dem") else "another"
            if mode == "count":
                num_en.append([word, ko_other])
            elif mode == "dem":
                det.append([word, ko_other])
            else:
                det = [[word, ko_other]]
        rel = self.relative(noun, depth + 1, c, plural, avoid=other_than) if want_rel else None
        if rel is not None and rel.rel_verb is not None and adjs and \
                rel.rel_verb.ko in _CLASHES.get(adjs[0].ko, ()):
            adjs = []  # (not 울고 있는 조용한 고양이)
        poss = None
        if kin and mode == "the" and rel is None:  # 김민준의 이모 "Kim Minjun's aunt"
            poss = self.name_np()
        elif mode == "the" and rel is None and depth < 2 and cls != "person" and not other \
                and can_possess(noun) and r.random() < c * 0.25:  # (no 손님의 체육관)
            poss = self.name_np() if r.random() < 0.5 else self.noun_np(
                ("person",), depth=2, c=0.0, allow_count=False, allow_rel=False)
            if poss.plural or len(poss.ko) > 1:
                poss = self.name_np()
        for _ in range(24):  # not 김민준이 김민준의 양파를 (Korean says 자기): another owner;
            # a kin term fits its possessor's sex (김민준의 누나, 김서연의 언니: never 김서연의 누나)
            if poss is None or poss.head != other_than and not (
                    kin and poss.name and not _kin_fits(noun.ko, poss.head)):
                break
            poss = self.name_np()
        if poss is not None:
            poss.ko[-1].text += "의"
            poss.en[-1][0] += "'s"
            det = []
            tags.add("possessive")
        # Korean: [poss] [rel] [dem/ind] [adj...] head [num counter]
        ko = (poss.ko if poss else []) + (rel.ko if rel else []) + pre_ko
        adj_pairs: list = []
        if adjs:
            adj_ko, adj_pairs = self.adjective_tokens(adjs, hon=honoured(noun))
            ko.extend(adj_ko)
            tags.add("adjective")
            lemmas.update(a.key for a in adjs)
        ko.append(head)
        ko.extend(post_ko)
        # English: det [num] [adj...] noun [rel]
        word = noun.plural if plural else noun.en
        en = list(poss.en if poss else []) + det + num_en + adj_pairs
        noun_al = (head, counter_k) if counter_k is not None and counter_k is not post_ko[0] \
            else head
        en.extend([w, noun_al] for w in word.split())
        if mode == "count" and num_en and num_en[0][0] == "one":  # 소 한 마리 "a cow"
            at = next(i for i, x in enumerate(en) if x is num_en[0])
            en[at][0] = E.indefinite_article(en[at + 1][0]) if at + 1 < len(en) else "one"
        if rel:
            en.extend(rel.en)
            tags |= rel.tags
            lemmas |= rel.lemmas
        if poss:
            tags |= poss.tags
            lemmas |= poss.lemmas
        np = NP(ko, en, plural=plural, human=human, cls=cls, tags=tags, lemmas=lemmas,
                rel=rel is not None, indefinite=mode == "count", head=noun.ko,
                generic=noun.mass and mode == "the" and poss is None and rel is None
                and not other, hon=honoured(noun))
        if mode == "the" and (not plural or noun.plural_only) and poss is None and rel is None \
                and not other and not noun.mass and cls not in ("person", "place"):
            np.count_en = (noun.plural, len(noun.en.split()))
        np.prep = noun.prep
        np.counter = counter or ""
        if rel is not None:
            np.rel_verb = rel.rel_verb
            np.rel_subj = rel.rel_subj and poss is None
        return np

    def subject_np(self, classes: tuple[str, ...], depth: int, c: float,
                   other_than: str | None = None, avoid_scale: str | None = None,
                   allow_count: bool = True) -> NP:
        """A person or animal NP; a quarter of the people are named (김민준). A name never
        repeats ``other_than`` (no 이지우가 이지우에게); a noun takes 다른 (see noun_np)."""
        if "person" in classes and self.rng.random() < 0.25:
            for _ in range(8):
                np = self.name_np()
                if np.head != other_than:
                    return np
        return self.noun_np(classes, depth, c, other_than=other_than, avoid_scale=avoid_scale,
                            allow_count=allow_count)

    # ------------------------------------------------------------------ relative clauses
    def rel_verbs(self, head: Noun) -> tuple[list, list]:
        """The verbs a relative clause on ``head`` may have, as (subject gap, object gap): any
        of the lexicon's but the verb of the clause being drawn (not 아이가 산 라디오를 사다,
        신문을 산 학생이 신문을 사다), and for the object gap only verbs that pick the head
        out (see ``_IDENTIFY_THING``); both empty when none is left (then no relative)."""
        banned = {self.main_verb} | (_ACQUIRED if self.main_verb in _ACQUIRE else set())
        fit = _IDENTIFY_PERSON if head.cls == "person" else (
            _IDENTIFY_THING - _NOT_OF_PLACES if head.cls == "place" else _IDENTIFY_THING)
        # (the subject gap too: 빵을 만든 소녀, not 구슬을 흔드는 도둑들, 카메라를 닦은 건축가)
        return ([v for v in self.lex.subj_verbs.get(head.ko, ()) if v.ko not in banned
                 and (v.frame != "T" or v.ko in _IDENTIFY_THING | _IDENTIFY_PERSON)],
                [v for v in self.lex.obj_verbs[head.ko] if v.ko not in banned
                 and v.ko in fit])

    def relative(self, head: Noun, depth: int, c: float, plural_head: bool = False,
                 avoid: str | None = None) -> NP:
        """A relative clause modifying ``head``: returns an NP holding only the clause
        (Korean before the head, English after it)."""
        r = self.rng
        cls = head.cls
        subj_verbs, obj_verbs = self.rel_verbs(head)
        tense = _pick(r, ("present", "present", "past", "past", "future", "progressive")
                      if self.future_relatives else ("present", "present", "past", "past",
                                                     "progressive"))
        # (a negated relative clause rarely picks anyone out -- 아이가 만나지 않은 선생님: the
        # negation challenge set has them, the training text not)
        neg = self.neg_relatives and r.random() < 0.15
        if subj_verbs and (not obj_verbs or r.random() < 0.5):
            v = _pick(r, subj_verbs)
            if v.frame == "I" and not v.stative and not neg:  # an activity describes its
                tense = "progressive"  # doer while it goes on: 울고 있는 소녀, not 운 소녀
            if v.stative:  # 아는 소년, not 안 소년 nor 알 소년
                tense = "present"
            clause = Clause(None, v, tense)
            if v.frame == "T":  # not 학생을 만난 학생: 다른 학생을 만난 학생
                outer, self.main_verb = self.main_verb, v.ko  # (nor 소년이 산 소파를 사는)
                clause.obj = self.noun_np((), depth, c * 0.7, allow_rel=False,
                                          allow_count=False, noun=_pick(r, v.objects),
                                          other_than=head.ko)  # (one relative clause deep)
                self.main_verb = outer  # (no count in a relative clause: 공 여덟 개를 던진
                #                         도둑 does not pick out a thief)
            gap = "subj"
        elif obj_verbs:
            # not 소년이 먹은 호박을 먹는다 "ate the pumpkin that the boy ate"
            v = _pick(r, [x for x in obj_verbs if x.ko not in _CONSUMED] or obj_verbs)
            if v.stative:  # a lasting attitude: 소녀가 좋아하는 가수, 기억하는 어부 (not
                tense = "present"  # 좋아한, 기억한, nor 좋아할 "the singer she will like")
            if not v.stative:  # what was done to it is over: 소녀가 만든 빵 "the bread that
                tense = "past"  # the girl made", not 사는 nor 잃어버릴 (a future deed picks
                #                  nothing out: "the dictionaries the magician will lose")
            # (nor a counted crowd: 선원 여든네 명이 나른 메달 "the medal that 84 sailors carried")
            # (a person, mostly: 고슴도치가 보는 책 picks nothing out; not the clause's own
            # subject either: 선생님은 [선생님이 주문하신] 빵을)
            subj = self.verb_subject(v, 2, c * 0.5, other_than=head.ko, allow_count=False,
                                     animal_p=0.0)  # (not 햄스터가 좋아하는 무용가들)
            for _ in range(4):  # not 다른 여자가 만나는 여자: another participant; not 저
                #              남자가 산 칼 "the knife which that man bought"
                if subj.head != head.ko and subj.head != avoid and \
                        subj.en[0][0] not in ("that", "those"):
                    break
                subj = self.verb_subject(v, 2, c * 0.5, other_than=head.ko, allow_count=False,
                                         animal_p=0.0)
            clause = Clause(subj, v, tense)
            gap = "obj"
        else:
            raise LookupError(cls)
        # a place only between an argument and the verb (소녀가 가게에서 산 사과, 사과를
        # 가게에서 산 소녀): at the clause's left edge (가게에서 기침하는 여자) a reader may
        # give it to the verb outside, and after an object with its own relative clause the
        # English would give it to the inner verb
        if r.random() < c * 0.3 and not v.stative and v.loc and (gap == "obj" or (clause.obj is not None
                                                      and not clause.obj.rel)):
            clause.place = self.place_np(c * 0.5, v, subj=clause.subj)
        if neg:
            clause.neg = "long"
            if tense == "progressive":  # 먹지 않는 = "who does not eat"
                tense = clause.tense = "present"
        generic_object(clause.obj)
        en_tense = tense
        if self.ctx_tense == "past":  # sequence of tenses: "met the girl who would cook"
            en_tense = {"future": "would", "progressive": "past_progressive"}.get(tense, tense)
            if tense == "present":  # 요리하는 소녀를 만났다 "met the girl who was cooking"
                en_tense = "past" if (v.stative and v.ko != "찾다") or neg or v.state_en \
                    else "past_progressive"  # (찾는 소년 "the boy the cat was looking for")
        ko, _ = self.ko_args(clause, in_relative=True)
        hon = clause.subj.hon if gap == "obj" else honoured(head)  # 선생님이 사신 사과
        group = ([(v.pre, "PRE")] if v.pre else []) + list(KO.adnominal_group(
            v.head, _ko_tense(v, tense), negation=neg, irr=v.irr or None,
            hon=hon))  # 미소 짓는
        vks = [K(w) for w, _ in group]
        ko.extend(vks)
        roles = role_map(vks, group)
        pron = "who" if cls == "person" else "that"
        if gap == "obj" and pron == "that" and clause.subj.en[0][0] in ("that", "those"):
            pron = "which"  # "the apple which that girl bought", not "that that girl"
        last = vks[-1]
        en = [[pron, last]]
        if gap == "obj":
            en.extend(clause.subj.en)
            plural = clause.subj.plural
        else:
            plural = plural_head
        clause.v_k = roles.get("V", last)
        en.extend(self.en_verb(clause, roles, last, plural=plural, tense=en_tense))
        en.extend(self.en_args(clause))
        tags = {"relative"} | _tense_tags(tense) | ({"negation"} if neg else set())
        lemmas = {v.key}
        for np in (clause.subj, clause.obj, clause.place):
            if np is not None:
                tags |= np.tags
                lemmas |= np.lemmas
        # (rel_subj: the clause opens with a bare argument a subject before it would be read
        # into -- its subject, or its object: 여자가 운동화를 산 아이를 reads "the woman bought")
        return NP(ko, en, tags=tags, lemmas=lemmas,
                  rel_subj=gap == "obj" or clause.obj is not None,
                  rel_verb=v if gap == "subj" and not v.stative and tense in ("present",
                                                                             "progressive")
                  else None)

    def place_np(self, c: float, pred=None, rel_ok: bool = False,
                 subj: NP | None = None) -> NP | None:
        """A place adjunct; one of the places the verb ``pred`` allows when it restricts them
        (등산하다 on a mountain, 수영하다 in water, 출근하다 at a workplace); ``rel_ok``: it may
        hold a relative clause (아이들이 노는 공원에서 달려서). An animal subject ``subj`` is
        only where such an animal is (:func:`lexicon.places_for`: no owl in a classroom), and
        has no place adjunct (None) when the verb allows none of those."""
        places = getattr(pred, "places", ())
        animals = [self.lex.noun_by_ko[h] for h in subj.head.split("|")  # 고양이와 오리
                   if h in self.lex.noun_by_ko and self.lex.noun_by_ko[h].cls == "animal"] \
            if subj is not None else []
        if animals:
            places = tuple(p for p in places or self.lex.places if p.ko in self.lex.noun_by_ko)
            for animal in animals:
                places = places_for(places, animal)
            if not places:
                return None
        elif not places:  # (a person's deed with no places of its own: an everyday place)
            places = tuple(p for p in self.lex.places if p.ko in _ANY_PLACE)
        return self.noun_np(("place",), depth=1 if rel_ok else 2, c=c, allow_count=False,
                            allow_rel=rel_ok,
                            allow_home=True, noun=_pick(self.rng, places) if places else None)

    # ------------------------------------------------------------------ clause rendering
    def ko_args(self, cl: Clause, in_relative: bool = False) -> tuple[list, None]:
        # returns (tokens, None): the second slot is kept for symmetry with ko_predicate
        """Korean tokens of a clause's arguments and adjuncts, before the predicate.

        Canonical order: [time] [place first] subject [언제/왜] [place] recipient goal object
        instrument [manner]. A reader gives an adverbial to the nearest verb after it, so when
        an argument holds a relative clause the adverbials (time, place, 언제/왜) follow the
        last such argument: 소년이 [소녀가 산] 사과를 어제 먹었다, not 소년이 어제 [소녀가 산]
        사과를. In a relative clause the place stands right before its verb."""
        place_first = cl.place_first and cl.place is not None and cl.wh != "place"
        place: list = []
        if cl.place is not None:
            last = cl.place.ko[-1]
            loc = getattr(cl.pred, "loc", "에서")  # 공원에서 놀다, 공원에 앉다
            last.text = "어디" + loc if cl.wh == "place" else last.text + loc
            place = cl.place.ko
        subj: list = []
        part = ""
        if cl.subj is not None and cl.ko_subj:
            part = "은/는" if cl.topic and not in_relative and not cl.subj.indefinite \
                else "이/가"
            if cl.wh == "subj":
                cl.subj.ko[-1].text = "누가"
            elif cl.also or cl.no_one:
                part = "도"  # 소년도 "also"; 어떤 소년도 안 "no boy"
                cl.subj.ko[-1].text += "도"
            else:
                cl.subj.ko[-1].text = attach(cl.subj.ko[-1].text, part)
            subj = cl.subj.ko
        # arguments: a fixed postposition (에게/에 do not alternate), or the wh-word in situ
        args = [(cl.subj, subj)]
        gp = getattr(cl.pred, "goal_particle", "에")  # 학교에 가다, 도시로 이사하다
        if gp == "에" and cl.goal is not None and cl.goal.head in _TOWARD_ROOMS and \
                cl.pred.ko != "도착하다":  # 침실로 간다, 복도로 나갔다 (a room is gone toward)
            gp = "(으)로"
        rec_particle = "께" if cl.rec is not None and cl.rec.hon else "에게"  # 선생님께
        for phrase, role, particle, wh_word in ((cl.rec, "rec", rec_particle, "누구에게"),
                                                (cl.goal, "goal", gp,
                                                 getattr(cl.pred, "goal_wh", "어디로"))):
            if phrase is not None:
                last = phrase.ko[-1]
                last.text = wh_word if cl.wh == role else attach(last.text, particle)
                args.append((phrase, phrase.ko))
        if cl.obj is not None:
            if cl.wh == "obj":
                cl.obj.ko[-1].text = "누구를" if cl.obj.human else "무엇을"
            elif cl.only:
                cl.obj.ko[-1].text += "만"
            else:
                cl.obj.ko[-1].text = attach(cl.obj.ko[-1].text, "을/를")
            args.append((cl.obj, cl.obj.ko))
        wh_k = [cl.wh_k] if cl.wh in ("time", "why") else []
        time = cl.time[0] if cl.time is not None else []
        cut = 0  # adverbials go after the first ``cut`` arguments
        for i, (np, _) in enumerate(args):
            if np is not None and np.rel:
                cut = i + 1
        ko: list = []
        if in_relative:  # [subject] [object] place V
            for _, toks in args:
                ko.extend(toks)
            ko.extend(place)
        elif cut >= 2 and cl.opens and (part == "이/가" or cl.wh == "subj") and \
                not cl.subj.rel and args[1][0] is not None and args[1][0].rel_subj:
            # two bare subjects in a row read as one clause (신지안이 가이드가 놀린 소년을): the
            # argument with the relative clause goes first (가이드가 놀린 소년을 신지안이 ...)
            ko.extend(args[1][1])
            ko.extend(subj)
            for _, toks in args[2:cut]:
                ko.extend(toks)
            ko += time + wh_k + place
            for _, toks in args[cut:]:
                ko.extend(toks)
        elif cut:
            for _, toks in args[:cut]:
                ko.extend(toks)
            ko += time + wh_k + place
            for _, toks in args[cut:]:
                ko.extend(toks)
        elif len(subj) > 1 and time and not place_first:
            # (not 아침에 배고픈 돼지는: the time would modify the adjective)
            ko.extend(subj)
            ko.extend(time)
            ko.extend(wh_k)
            ko.extend(place)
            for _, toks in args[1:]:
                ko.extend(toks)
        else:
            ko.extend(time)
            if place_first:
                ko.extend(place)
            ko.extend(subj)
            ko.extend(wh_k)
            if not place_first:
                ko.extend(place)
            for _, toks in args[1:]:
                ko.extend(toks)
        if cl.instr is not None:
            cl.instr.ko[-1].text = attach(cl.instr.ko[-1].text, "(으)로")
            ko.extend(cl.instr.ko)
        if cl.manner is not None:
            ko.append(cl.manner_k)
        return ko, None

    def en_verb(self, cl: Clause, roles: dict, last: K, *, plural: bool,
                question: bool = False, tense: str | None = None) -> list:
        """English verb group of a statement (questions invert in :meth:`render_clause`),
        each word aligned to the Korean token of its role (V, NEG, AUX)."""
        if cl.ellipsis:  # "..., but the girl does not": the auxiliary stands for the verb
            before, after = E.verb_phrase(_en_lemma(cl), tense or cl.tense,
                                          plural_subject=plural, negated=cl.neg is not None,
                                          question=True, adjective=cl.adj)
            vk = self._role_k("V", roles, last)
            vks = vk if isinstance(vk, tuple) else (vk,)
            out = []
            for w, role in before + after:
                if role == "AUX":
                    k = self._role_k(role, roles, last)
                    out.append([w, tuple(dict.fromkeys((k,) + vks))])
                elif role != "V":
                    out.append([w, self._role_k(role, roles, last)])
            return out
        if cl.no_one:  # 어떤 소년도 안 먹었다 "No boy ate": "no" carries the negation
            cl.subj.en[0][1] = (cl.subj.en[0][1], self._role_k("NEG", roles, last))
        become = cl.adj and cl.en_become
        before, after = E.verb_phrase("get" if become else _en_lemma(cl),
                                      tense or cl.en_tense or cl.tense,
                                      plural_subject=plural,
                                      negated=cl.neg is not None and not cl.no_one,
                                      question=question, adjective=cl.adj and not become)
        if become:  # "gets tired": the adjective after the verb, both the Korean predicate's
            after = after + tuple((w, "V") for w in _en_lemma(cl).split())
        out = [[w, self._role_k(role, roles, last)] for w, role in before + after]
        if cl.manner is not None and cl.manner.en in _PREVERBAL_EN and not question and \
                cl.neg is None and (cl.subj is None or not cl.subj.rel or cl.en_pron):
            # (not after a relative clause: "the rabbit that saw it often ate" reads inside)  # frequency and sudden change before the verb: "will
            at = [role for _, role in before + after].index("V")  # sometimes yawn"
            out[at:at] = [[w, cl.manner_k] for w in cl.manner.en.split()]
            cl.manner_pre = True
        if cl.also and cl.neg is None:  # "also eats", "will also eat", "is also hot"
            at = 1 if out[0][0] in ("will", "is", "are", "was", "were") else 0
            out.insert(at, ["also", cl.subj.ko[-1]])
        return out

    @staticmethod
    def _role_k(role: str, roles: dict, last: K) -> K:
        if role == "V":  # 호기심이 많다: "curious" is both words
            return (roles["PRE"], roles["V"]) if "PRE" in roles else roles["V"]
        if role == "NEG":
            return roles.get("NEG", last)
        return roles.get("AUX", last)

    def en_args(self, cl: Clause, fronted: bool = False) -> list:
        """English words after the verb: object, recipient, goal, instrument, manner,
        place, time (the wh-questioned one left out; place and time left out when
        ``fronted``, see :meth:`fronted_adverbials`)."""
        en: list = []
        v = cl.pred
        obj: list = []
        if cl.obj is not None and cl.wh != "obj":
            if cl.only:
                obj.append(["only", cl.obj.ko[-1]])
            obj.extend(cl.obj.en)
        # an object with a relative clause goes after a short recipient where English allows
        # two objects ("sells the teacher two plates that Kim bought", not "sells two plates
        # that Kim bought to the teacher")
        heavy = cl.obj is not None and cl.obj.rel and cl.rec is not None and \
            not cl.rec.rel and v.en in DOUBLE_OBJECT and cl.wh not in ("rec", "obj")
        if not heavy:
            en.extend(obj)
        if cl.rec is not None:
            k = cl.rec.ko[-1]
            if v.prep and not heavy:  # "to the girl"; stranded in questions: "Who ... give
                en.append([v.prep, k])  # it to?"; none before two objects
            if cl.wh != "rec":
                en.extend(cl.rec.en)
            if v.en == "ask" and v.frame == "R" and cl.v_k is not None:  # 질문하다
                en.extend([["a", cl.v_k], ["question", cl.v_k]])
        if heavy:
            en.extend(obj)
        goal: list = []
        if cl.goal is not None and cl.wh != "goal":
            home = cl.goal.cls == "place" and cl.goal.en[-1][0] == "home" and len(cl.goal.en) == 1
            if not home:
                goal.append([v.prep, cl.goal.ko[-1]])
            goal.extend(cl.goal.en)
        instr: list = []
        if cl.instr is not None:
            k = cl.instr.ko[-1]
            if cl.instr.cls == "vehicle":  # "by bus": no article
                instr.append(["by", k])
                instr.extend([w, k] for w, _ in cl.instr.en)
            else:
                instr.append(["with", k])
                instr.extend(cl.instr.en)
        # after a goal with a relative clause "by airplane" would be read inside it
        en.extend(instr + goal if cl.goal is not None and cl.goal.rel else goal + instr)
        if cl.manner is not None and not cl.manner_pre:
            en.extend([w, cl.manner_k] for w in cl.manner.en.split())
        if cl.place is not None and cl.wh != "place" and not fronted:
            en.extend(self._place_en(cl.place, cl.pred.ko))
        if cl.time is not None and not fronted:
            en.extend(cl.time[1])
        if cl.also and cl.neg is not None:  # 소년도 안 먹는다: "... does not eat ... either"
            en.append(["either", cl.subj.ko[-1]])
        return en

    def fronted_adverbials(self, cl: Clause) -> list:
        """Time and place before the subject ("Yesterday at the store the boy met the girl who
        ..."), used when an argument after the English verb holds a relative clause: after it
        they would be read as part of the relative clause."""
        out = list(cl.time[1]) if cl.time is not None else []
        if cl.place is not None and cl.wh != "place":
            out.extend(self._place_en(cl.place, cl.pred.ko))
        return out

    @staticmethod
    def _place_en(np: NP, verb: str = "") -> list:
        k = np.ko[-1]
        prep = "in" if verb in _IN_WATER and np.prep == "by" else np.prep  # 강에서 수영하다
        #  is to swim in the river; "by the river" is beside it
        if len(np.en) == 1 and np.en[0][0] == "home":
            return [["at", k], ["home", k]]
        if len(np.en) == 2 and np.en[0][0] == "the" and np.en[1][0] in _INSTITUTIONS:
            return [[prep, k], np.en[1]]  # 학교에서 "at school", 캠퍼스에서 "on campus"
        return [[prep, k]] + np.en

    # ------------------------------------------------------------------ clause choice
    def verb_subject(self, v: Verb, depth: int, c: float, other_than: str | None = None,
                     allow_count: bool = True, animal_p: float = 0.25) -> NP:
        """A subject the verb accepts: a person (often a name), an animal, or one of the
        nouns it is restricted to (날다 -> birds); 다른 when it is ``other_than``."""
        r = self.rng
        if v.subj_only:
            return self.noun_np((), depth, c, noun=self.lex.noun_by_ko[_pick(r, v.subj_only)],
                                other_than=other_than, allow_count=allow_count)
        person = "person" in v.subj and (len(v.subj) == 1 or r.random() >= animal_p)
        if not person and v.animals:  # the animals it takes (개가 짖다, not 달팽이가)
            return self.noun_np((), depth, c, noun=self.lex.noun_by_ko[_pick(r, v.animals)],
                                other_than=other_than, allow_count=allow_count)
        if person and v.persons and r.random() >= 0.25:  # the people who do it: workers
            # work, no baby decorates an attic (a quarter are names, as in subject_np)
            return self.noun_np((), depth, c, noun=self.lex.noun_by_ko[_pick(r, v.persons)],
                                other_than=other_than, allow_count=allow_count)
        return self.subject_np(("person",) if person else ("animal",), depth, c,
                               other_than=other_than, allow_count=allow_count)

    def make_clause(self, c: float, *, tense: str, wh: str | None = None,
                    topic: bool = False, question: bool = False) -> Clause:
        """Draw a clause: a verb with its arguments, or an adjective predicate, plus
        optional place, time and manner adjuncts. ``wh`` reserves a questioned slot.

        A noun that repeats the subject as object or recipient takes 다른 ("another"); an
        adjective predicate's subject has no adjective of the predicate's scale. No manner
        adverb when an argument after the English verb holds a relative clause (it would be
        read inside it), and in a ``question`` no time or place either (a statement fronts
        them instead, see :meth:`SentenceBuilder.render_clause`)."""
        r = self.rng
        lex = self.lex
        self.ctx_tense = tense
        kind = r.random()
        if wh in ("obj",):
            kind = 0.3
        elif wh == "rec":
            kind = 0.95 if r.random() < 0.6 else 0.8
        elif wh == "goal":
            kind = 0.7
        elif wh == "place" and (kind < 0.15 or 0.68 <= kind < 0.80):
            kind = 0.3  # not "Where does he come to the store?"
        if kind < 0.15 and tense != "progressive" and wh != "time":  # (not 펜은 언제 길었어요?)
            if wh == "subj":
                adj = _pick(r, lex.person_adj)
                subj = self.name_np()
            else:
                adj = _pick(r, lex.adjectives)
                if adj.person and r.random() < 0.5:
                    subj = self.subject_np(("person",), 0, c, avoid_scale=adj.scale)
                    if not _takes(adj, subj, self.lex.noun_by_ko.get(subj.head)):  # 평범한 대통령
                        subj = self.noun_np((), 0, c, noun=_pick(r, adj.nouns),
                                            avoid_scale=adj.scale)
                else:
                    subj = self.noun_np((), 0, c, noun=_pick(r, adj.nouns),
                                        avoid_scale=adj.scale)
            # (a property has no future of its own: 북이 클 것이다 is a guess, "must be
            # big", not "will be big")
            if subj.hon and adj.ko in _NO_HONORIFIC:  # (선생님은 배고프셨다: Korean says
                subj = self.name_np()  # 시장하셨다; a name takes the plain adjective)
            # (a passing state neither: 부장님이 조용할 것이다 reads "must be quiet"; the
            # effect of a condition keeps its future, see linked())
            cl = Clause(subj, adj, "present" if tense == "future" else tense)
        elif kind < 0.55:
            pool = lex.dynamic_transitive if tense == "progressive" else lex.transitive
            v = _pick(r, pool)
            while (wh == "obj" and v.ko not in lex.wh_obj_ok) or (
                    wh == "subj" and "person" not in v.subj) or (
                    wh == "place" and (not v.loc or v.stative)):  # not "Where does he like X?"
                v = _pick(r, pool)
            self.main_verb = v.ko
            # (an attitude is not foretold: 모를 것이다, 좋아할 것이다 read "probably")
            cl = Clause(self.verb_subject(v, 0, c), v,
                        "present" if v.stative and tense == "future" else tense)
            same = None if wh == "subj" else cl.subj.head
            cl.obj = self.noun_np((), 0, c, noun=_pick(r, v.objects), other_than=same)
            if cl.subj.indefinite and cl.subj.plural and not (
                    cl.obj.plural or cl.obj.indefinite or cl.obj.generic) and wh != "subj":
                # (a counted crowd does one thing to one thing only in a story that says why:
                # 학생 스물한 명이 그 열쇠를 보여주다, 승무원 세 명이 당근을 깐다)
                for _ in range(6):  # (an object drawn as 다른 X keeps its X in the subject)
                    subj = self.verb_subject(v, 0, c, allow_count=False)
                    if subj.head == same if cl.obj.head == same else \
                            subj.head not in cl.obj.head.split("|"):
                        cl.subj = subj
                        break
            if v.instr and r.random() < 0.15 + c * 0.2:
                cl.instr = self.noun_np((), 1, c * 0.5, allow_count=False, allow_rel=False,
                                        noun=_pick(r, v.instr))
        elif kind < 0.68:
            v = _pick(r, lex.intransitive)
            while (wh == "subj" and "person" not in v.subj) or (
                    wh == "place" and (not v.loc or v.stative)) or (  # (not "Where does he
                    tense == "progressive" and v.ko in _PUNCTUAL):  # worry?", 도착하고 있다)
                v = _pick(r, lex.intransitive)
            self.main_verb = v.ko
            cl = Clause(self.verb_subject(v, 0, c), v, tense)
        elif kind < 0.80:
            v = _pick(r, lex.motion)
            while wh == "goal" and (v.en.endswith("back") or v.en.startswith("come") or
                                    v.ko in ("들어가다", "들어오다")) \
                    or tense == "progressive" and v.ko in _PUNCTUAL:  # ("Where did he come?")
                v = _pick(r, lex.motion)  # not "Where does he go back?", "Where is he coming?"
            self.main_verb = v.ko
            cl = Clause(self.verb_subject(v, 0, c), v, tense)
            for _ in range(8):  # (할머니가 돌아가신다 is "Grandmother passes away")
                if not (cl.subj.hon and v.ko == "돌아가다"):
                    break
                cl.subj = self.verb_subject(v, 0, c)
            else:
                cl.subj = self.name_np()
            goal = _pick(r, [p for p in v.goals or lex.places  # 들어가다: a building or a
                             if p not in v.not_goals])  # room; 돌아가다: not to the sea
            if wh == "goal":
                goal = _pick(r, lex.places[:3])
            cl.goal = self.noun_np(("place",), 1, c * 0.7, allow_count=False, noun=goal)
            if v.instr and r.random() < 0.25 and wh != "goal":  # (not 어디로 자전거로)
                fit = [x for x in v.instr if vehicle_fits(x, goal)]  # no plane to a library
                veh = _pick(r, fit or v.instr)
                if fit:
                    k = K(veh.ko)
                    cl.instr = NP([k], [[veh.en, k]], cls="vehicle", lemmas={veh.key})
        elif kind < 0.9:
            v = _pick(r, lex.ditransitive)
            self.main_verb = v.ko
            # (no counted crowd giving, lending or showing: 경비원 735명이 칫솔을 빌려준다)
            cl = Clause(self.verb_subject(v, 0, c, allow_count=False), v, tense)
            same = None if wh == "subj" else cl.subj.head
            cl.rec = self.subject_np(("person",), 1, c * 0.7, other_than=same,
                                        allow_count=False)  # (not 남자 580명에게 인형을)
            for _ in range(8):  # (not 작가에게 ... 작가를 소개했다: two of one noun)
                cl.obj = self.noun_np((), 1, c, noun=_pick(r, v.objects), other_than=same,
                                      allow_rel=not cl.rec.rel)  # (one relative clause a clause)
                if cl.obj.head != cl.rec.head:
                    break
        else:
            v = _pick(r, lex.recipient)
            self.main_verb = v.ko
            cl = Clause(self.verb_subject(v, 0, c), v, tense)
            same = None if wh == "subj" else cl.subj.head
            rec = _pick(r, v.objects)
            if rec.cls == "person" or wh == "rec":
                cl.rec = self.subject_np(("person",), 1, c * 0.7, other_than=same,
                                        allow_count=False)  # (not 남자 580명에게 인형을)
            else:
                cl.rec = self.noun_np((), 1, c * 0.7, noun=rec, other_than=same)
        generic_object(cl.obj)  # "drinks tea", not "drinks the tea"
        # adjuncts (none beside a stranded preposition: "Who ... get angry at?")
        post_rel = (cl.obj is not None and cl.obj.rel and wh != "obj") or \
            (cl.rec is not None and cl.rec.rel and wh != "rec") or \
            (cl.goal is not None and cl.goal.rel and wh != "goal")
        quiet = question and post_rel
        if wh == "rec":
            pass
        elif not cl.adj and cl.goal is None and wh != "place" and not cl.pred.stative and \
                cl.pred.loc and r.random() < 0.15 + c * 0.4 and not quiet:
            cl.place = self.place_np(c, cl.pred, subj=cl.subj)
        elif wh == "place":
            cl.place = self.place_np(0.0, cl.pred)  # (어디에서: any place will do)
        if cl.place is not None and wh is None and not topic and r.random() < 0.3:
            cl.place_first = True  # (not 일요일에 역에 성악가들은: a topic comes first)
        # a time adverbial, not with a lasting property ("the chair was low yesterday"), and
        # "now" not with a simple present verb ("eats the apple now")
        if wh not in ("time", "rec") and r.random() < 0.15 + c * 0.4 and not quiet and \
                not cl.adj and not cl.pred.stative:
            # (a state has no clock: not 저녁에 요요는 더럽지 않았다, 아침에 아파요, 저녁에
            # 제빵사를 몰라요, 매일 목마르지 않다 "is not thirsty every day")
            # (nor "today": "greets the boy today" reads as a schedule)
            # (nor "every day" with a definite object: "drinks the tea that ... every day")
            opts = [t for t in lex.times if tense in t[2] and
                    not (tense == "present" and t[0][0] in ("지금", "오늘") and not cl.adj)
                    and not (tense == "present" and _a_day(t))
                    and not (tense == "progressive" and t[0][0] == "오늘")  # (지금 울고 있다)
                    and not ((post_rel or cl.obj is not None and cl.obj.ko[0].text in ("이", "저"))
                             and t[0][0] == "매일")]  # (not 매일 저 딸기를 먹는다)
            if r.random() < 0.2 and tense != "progressive" and not cl.adj:  # (not "the
                hour = r.randint(1, 12)  # curry is spicy at four o'clock")
                kt = K(f"{hour}시에")
                cl.time = ([kt], [["at", kt], [E.number_text(hour), kt], ["o'clock", kt]], "")
                cl.subj.tags |= {"digits", "number"}
            elif opts:
                t = _pick(r, opts)
                ks = [K(w) for w in t[0]]
                if len(ks) > 1:  # 다음 주에: next <-> 다음, week <-> 주에
                    cl.time = (ks, [[t[1][0], ks[0]], [t[1][1], ks[1]]], t[2])
                else:
                    cl.time = (ks, [[w, ks[0]] for w in t[1]], t[2])
        if post_rel and cl.time is not None and cl.place is not None and wh != "place":
            cl.place = None  # one fronted adverbial at most: "Yesterday the boy met the girl
            #                  who ...", not "Yesterday at the store the boy met ..."
        state = tense == "progressive" and not cl.adj and cl.pred.state_en  # 누워 있다
        if not cl.adj and not cl.pred.stative and r.random() < c * 0.15 and not post_rel \
                and not state:
            fit = lex.adverbs_for(cl.pred)  # 크게 웃다, not 크게 미소 짓다
            if tense in ("progressive", "future") or cl.time is not None:  # not "is laughing
                #  sometimes today", 가끔 웃을 것이다 (a habit foretold)
                fit = [a for a in fit if a.ko not in _HABITUAL_ADVERBS]
            if tense in ("progressive", "future"):  # (빨리 전화하고 있다, 갑자기 하품할 것이다)
                fit = [a for a in fit if a.ko not in _MOMENT_ADVERBS | {"빨리", "재빨리"}]
            elif tense == "present":  # a habit has no moment (갑자기 달린다 "suddenly runs")
                fit = [a for a in fit if a.ko not in _MOMENT_ADVERBS]
            fit = _preverbal_fits(fit, cl.subj, question)
            fit = [a for a in fit if a.ko not in _CONTEXT_ADVERBS]
            if fit:
                cl.manner = _pick(r, fit)
                cl.manner_k = K(cl.manner.ko)
        cl.wh = wh
        cl.topic = topic
        if wh is not None and wh != "subj":
            definite_numeral(cl.subj)  # "Where do the 72 girls go?": a known group
        if wh in ("time", "why"):
            cl.wh_k = K("언제" if wh == "time" else "왜")
        return cl


_NOUN_KOS: dict[int, tuple[Adjective, frozenset[str]]] = {}


def _noun_kos(adj: Adjective) -> frozenset[str]:
    """The Korean nouns adjective ``adj`` describes, as a set (cached by identity, the entry
    holding ``adj`` so that its id is never reused: comparing Noun records field by field was
    most of the generator's time)."""
    hit = _NOUN_KOS.get(id(adj))
    if hit is None:
        hit = _NOUN_KOS[id(adj)] = (adj, frozenset(n.ko for n in adj.nouns))
    return hit[1]


def _takes(p, np: NP, noun: Noun | None) -> bool:
    """Whether predicate ``p`` accepts ``np`` (of lexicon noun ``noun``, None for a name) as
    its subject."""
    if isinstance(p, Adjective):
        return noun.ko in _noun_kos(p) if noun is not None else p.person and np.cls == "person"
    if noun is None:  # a name
        return "person" in p.subj and not p.subj_only
    return subject_fits(p, noun)


def _links(lex: Lexicon) -> list:
    """The cause-effect links of :mod:`.coherence` that a lexicon can draw (kept on it)."""
    got = getattr(lex, "coherence_links", None)
    if got is None:
        got = lex.coherence_links = CO.links_in(lex.adjectives, lex.verbs)
    return got


def _even_cause(rng: random.Random, links: list):
    """A link whose cause is drawn evenly over the distinct causes of ``links`` (then an
    effect of it), so that a cause with many effects or places does not repeat."""
    causes = sorted({id(x[1]): x[1].ko for x in links}.items(), key=lambda kv: kv[1])
    key = _pick(rng, causes)[0]
    return _pick(rng, [x for x in links if id(x[1]) == key])


def _tense_tags(tense: str) -> set:
    return {tense}


def _busy(np: NP | None) -> bool:
    """Whether ``np`` holds an activity participle (자고 있는 소 "the cow that is sleeping"):
    another action of its own would contradict it or tell two stories at once."""
    return np is not None and np.rel_verb is not None


def _follows(last: Clause, nxt: Clause) -> bool:
    """Whether ``nxt`` may follow ``last`` after -고 with the same subject, as a native tells
    a story: two actions only in sequence (빵을 먹고 공원에서 놀았다, a habit's 빵을 먹고
    잔다), never at once in the progressive (요리하고 있고 야구를 하고 있다 "is cooking and
    is playing baseball"); after an action no state that a cause explains (오렌지를 먹었고
    달려서 배고팠다 tells the cause after its effect)."""
    if last.adj or isinstance(last.pred, Adjective):
        return True  # a state, then an action: 피곤하고 잔다
    if nxt.adj or isinstance(nxt.pred, Adjective):
        return False
    return "progressive" not in (last.tense, nxt.tense)


#: places that hold almost any deed: sharing one of them makes no scene
_ANYWHERE = frozenset("집 공원 학교 방 마당".split())


def _same_scene(last: Clause, nxt: Clause) -> bool:
    """Whether the deed of ``nxt`` happens where the deed of ``last`` does (부엌에서 감자를
    씻고 썰었다, 공원에서 공을 던지고 뛰었다): their places share a particular one, and the
    place ``last`` names is one of them. A state before a deed needs no scene."""
    if last.adj or isinstance(last.pred, Adjective):
        return True
    a = {n.ko for n in getattr(last.pred, "places", ())}
    b = {n.ko for n in getattr(nxt.pred, "places", ())}
    if not (a & b) - _ANYWHERE:
        return False
    return last.place is None or last.place.head in b


#: of the two-clause sentences, the share told as a motion and a deed (see
#: :meth:`SentenceBuilder.sequence`); the rest are causes, conditions and times
_SEQUENCE_SHARE = 0.35
#: the share of nested sentences that tell a story (two scenes: see SentenceBuilder.story),
#: the longest sentences a coherent corpus holds
_STORY_SHARE = 0.4
#: deeds of eating and drinking, and of getting food: one of them per story
_FOOD_DEEDS = frozenset("먹다 마시다 주문하다 요리하다 끓이다 사다".split())
#: motions that take one somewhere to do something there (가서, 와서, 들어가서)
_SCENE_MOTIONS = frozenset("가다 오다 들어가다 걸어가다".split())  # (not 달려가서 기도했다)
#: the smallest scene model: a place and what people go there to do, with the classes of the
#: deed's object that belong there (서점에 가서 소설을 샀다, never 사과를); a Korean reader's
#: list, not the lexicon's wider "where it may happen"
SCENES: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "도서관": (("읽다", ("book",)), ("공부하다", ("subject",)), ("빌리다", ("book",))),
    "도서실": (("읽다", ("book",)), ("공부하다", ("subject",))),
    "교실": (("공부하다", ("subject",)),),
    "학교": (("공부하다", ("subject",)),),
    "식당": (("먹다", ("dish",)), ("주문하다", ("dish",))),
    "카페": (("마시다", ("drink",)), ("주문하다", ("drink",)), ("공부하다", ("subject",))),
    "빵집": (("사다", ("bread",)),),
    "시장": (("사다", ("fruit", "vegetable")),),
    "슈퍼마켓": (("사다", ("fruit", "vegetable", "drink")),),
    "편의점": (("사다", ("drink",)),),
    "가게": (("사다", ("fruit", "vegetable", "drink")),),
    "서점": (("사다", ("book",)),),
    "꽃집": (("사다", ("plant",)),),
    "백화점": (("사다", ("clothes", "footwear", "accessory")), ("쇼핑하다", ())),
    "수영장": (("수영하다", ()),),
    "바다": (("수영하다", ()),),
    "호수": (("낚시하다", ()),),
    "강": (("낚시하다", ()),),
    "산": (("등산하다", ()),),
    "공원": (("산책하다", ()), ("놀다", ())),
    "놀이터": (("놀다", ()),),
    "체육관": (("운동하다", ()),),
    "헬스장": (("운동하다", ()),),
    "운동장": (("달리다", ()), ("놀다", ())),
    "노래방": (("노래하다", ()),),
    "부엌": (("요리하다", ("dish",)), ("끓이다", ("dish", "drink"))),
    "침실": (("자다", ()), ("쉬다", ())),
    "집": (("자다", ()), ("쉬다", ()), ("먹다", ("dish",)), ("요리하다", ("dish",))),
    "거실": (("쉬다", ()),),
    "캠프장": (("캠핑하다", ()),),
    "회사": (("일하다", ()),),
    "사무실": (("일하다", ()),),
    "농장": (("일하다", ()),),
    "교회": (("기도하다", ()),),
    "절": (("기도하다", ()),),
    "박물관": (("구경하다", ()),),
    "미술관": (("구경하다", ()),),
    "동물원": (("구경하다", ()),),
    "빨래방": (("빨다", ("clothes",)),),
}
_SCENES: dict[int, dict[str, list]] = {}
#: a person's state -> the scene deeds it sends them to (배고파서 식당에 가서 먹었다)
_SCENE_CAUSES = {"배고프다": ("먹다", "주문하다", "요리하다", "사다"), "목마르다": ("마시다", "사다"),
                 "피곤하다": ("쉬다", "자다"), "졸리다": ("자다",),
                 "심심하다": ("산책하다", "놀다", "구경하다", "쇼핑하다", "노래하다"),
                 "외롭다": ("산책하다",)}  # (외로워서 절에 들어가다 is to become a monk)

#: nouns of the "bread" scene class (a bakery sells these, not every dish)
_BREAD = frozenset("빵 케이크 쿠키 머핀 크루아상 도넛 베이글 식빵 마카롱 샌드위치 와플 "
                   "바게트 카스텔라 파이 타르트 스콘 프레첼 호떡 붕어빵".split())  # (떡: a 떡집's)


def _scene_objects(v: Verb, classes: tuple[str, ...]) -> list:
    """The objects of ``v`` of the scene's ``classes`` ("bread": the bakery's goods)."""
    out = []
    for n in v.objects:
        if "bread" in classes and n.ko in _BREAD or n.cls in classes:
            out.append(n)
    return out


def _scenes(lex: Lexicon) -> dict[str, list]:
    """Place (Korean) -> ``(verb, objects)`` of :data:`SCENES` this level's lexicon holds:
    intransitive deeds with ``()``, transitive ones with the objects that belong there."""
    key = id(lex)
    if key not in _SCENES:
        verbs: dict[str, list] = {}
        for v in lex.transitive + lex.intransitive:
            verbs.setdefault(v.ko, []).append(v)
        out: dict[str, list] = {}
        for place, deeds in SCENES.items():
            for ko, classes in deeds:
                for v in verbs.get(ko, ()):
                    if v.frame == "T":
                        objs = _scene_objects(v, classes)
                        if objs:
                            out.setdefault(place, []).append((v, objs))
                    elif not classes:
                        out.setdefault(place, []).append((v, []))
        _SCENES[key] = out
    return _SCENES[key]


def _holds_relative(cl: Clause) -> bool:
    """Whether an argument of the clause holds a relative clause (adverbials then follow it)."""
    return any(np is not None and np.rel for np in (cl.subj, cl.rec, cl.goal, cl.obj))


def _ends_with_relative(node) -> bool:
    """Whether the English of a tree ends in a relative clause (an argument after the verb
    holds one; time and place are then fronted)."""
    cl = _last_clause(node)
    return any(np is not None and np.rel for np in (cl.obj, cl.rec, cl.goal))


def _first_subject(node) -> str | None:
    """The head of the subject of a tree's first clause (a name: the full name)."""
    while not isinstance(node, Clause):
        node = node.sub if isinstance(node, Sub) else node.left
    return node.subj.head if node.subj is not None else None


def _last_clause(node) -> Clause:
    """The clause that ends a tree (its Korean predicate closes it)."""
    while not isinstance(node, Clause):
        node = node.main if isinstance(node, Sub) else node.right
    return node


def _closes_with_adjective(node) -> bool:
    """Whether the Korean of a tree ends in an adjective predicate that takes -고 (크고)."""
    while not isinstance(node, Clause):
        node = node.main if isinstance(node, Sub) else node.right
    return node.adj and node.neg is None and node.tense != "past"


def _ko_tense(pred, tense: str) -> str:
    """The Korean tense of a predicate: a posture verb's progressive is the resultative state
    (서 있다 "is standing"); -고 있다 is kept for actions in progress."""
    if tense == "progressive" and getattr(pred, "state_en", ""):
        return "resultative"
    return tense


def _en_lemma(cl: Clause) -> str:
    """The English verb of a clause: the state verb in the progressive of a posture verb
    (앉아 있다 "is sitting"; 앉다 is otherwise "sit down")."""
    p = cl.pred
    if cl.tense == "progressive" and getattr(p, "state_en", ""):
        return p.state_en
    if p.en in _GO_DOING and (cl.en_tense or cl.tense) in ("progressive", "past_progressive"):
        return _GO_DOING[p.en]  # 낚시하고 있다 "is fishing", not "is going fishing"
    if p.ko == "찾다" and (cl.tense in ("present", "progressive") or cl.neg is not None):
        return "look for"  # 찾는 티셔츠 "the T-shirt he is looking for"; 찾았다 "found"
    return p.en


# ---------------------------------------------------------------------- sentence trees
@dataclass
class Sub:
    """Subordination: ``sub`` is an adverbial clause (because/when/if) of ``main``."""

    kind: str
    sub: object
    main: object
    #: the main clause's object (with a relative clause) stands between the shared subject
    #: and the subordinate clause in Korean: 소년은 [소녀가 만든] 빵을 배가 고파서 먹었다
    obj_first: bool = False


@dataclass
class Coord:
    """Coordination with -고 (and) or -지만 (but)."""

    kind: str
    left: object
    right: object


_CONJ_EN = {"because": "because", "when": "when", "if": "if", "and": "and", "but": "but",
            "then": "and"}
_WH_EN = {"subj": "who", "rec": "who", "goal": "where", "place": "where", "time": "when",
          "why": "why"}


def negation_informative(cl: Clause) -> bool:
    """Whether negating a statement's clause says something: a state (나무가 높지 않다, 답을
    모른다) or a habit (고기를 안 먹는다 "does not eat meat"); a one-off event that did not happen (탐정이
    문을 당기지 않았다) is pointless, and so is one that a relative clause on its subject
    affirms (날고 있는 꿀벌은 안 날았다) or a manner adverb makes the point of (조용히 주문하지
    않는다). (Questions and contrasts -- 소년은 웃지만 소녀는 안 웃는다 -- negate on their
    own.)"""
    if cl.manner is not None:
        return False
    if cl.adj or cl.pred.stative:  # 모른다, 안 좋아했다
        return True
    if cl.time is not None or any(np is not None and np.rel
                                  for np in (cl.subj, cl.obj, cl.rec, cl.goal)):
        return False
    return cl.tense == "present"


def _neg_kind(cl: Clause) -> str | None:
    """Short negation (안 먹는다) only where natural: not before compounds (공부하다,
    산책시키다, 춤추다), not with the progressive; those take V-지 않다."""
    if cl.neg == "short" and (cl.tense == "progressive"
                              or not KO.short_negation_ok(cl.pred.ko)):
        return "long"
    return cl.neg


def ko_predicate(cl: Clause, form: tuple) -> tuple[list, dict]:
    """The clause's predicate as K tokens + role map; ``form`` is ("final", level, question)
    or ("conn", kind)."""
    p = cl.pred
    irr = p.irr or None
    neg = _neg_kind(cl)
    pre = [(attach(p.pre, "이/가") if cl.adj else p.pre, "PRE")] if p.pre else []  # 호기심이
    verb = p.head  # 많다; 미소 짓다 (noun + verb: two eojeols)
    if cl.rec is not None and cl.rec.hon and verb.endswith("주다"):  # 선생님께 보여드린다,
        verb = verb[:-2] + "드리다"  # 할머니께 꽃을 드렸다: the humble verb to an honoured
    ko_tense = _ko_tense(p, cl.tense)  # recipient
    hon = cl.subj is not None and cl.subj.hon  # 선생님이 가세요, 할머니가 주무신다
    if form[0] == "final":
        group = pre + list(KO.verb_group(verb, form[1], ko_tense, question=form[2],
                                         negation=neg, adj=cl.adj, irr=irr, hon=hon))
        ks = [K(w) for w, _ in group]
        return ks, role_map(ks, group)
    kind = form[1]
    tense = "past" if cl.tense == "past" else "present"
    v_role = "V"
    if neg is not None and KO.negative_of(verb):  # 모르고, 몰라서, 맛없지만
        verb, v_role, neg, irr = KO.negative_of(verb), "V+NEG", None, None
    aux = "계시다" if hon else "있다"  # 가고 계셔서, 앉아 계시면
    if hon and ko_tense not in ("resultative", "progressive"):  # 가셔서, 드시면, 바쁘시지만
        verb, irr = KO.honorific(verb, irr), None
    if ko_tense == "resultative" and neg is not None:  # 앉아 있지 않지만
        head = [(KO.infinitive(verb, irr), "V"), (KO.stem(aux) + "지", "AUX")]
        tail = KO.connective("않다", kind, "present", adj=True)
        tail_role = "NEG"
    elif ko_tense == "resultative":  # 앉아 있어서
        head = [(KO.infinitive(verb, irr), v_role)]
        tail = KO.connective(aux, kind, "present")
        tail_role = "AUX"
    elif cl.tense == "progressive" and neg is not None:  # 먹지 않고 있지만
        head = [(KO.stem(verb) + "지", "V"), ("않고", "NEG")]
        tail = KO.connective(aux, kind, "present")
        tail_role = "AUX"
    elif cl.tense == "progressive":
        head = [(KO.stem(KO.SUPPLETIVE_HONORIFIC.get(verb, verb) if hon else verb) + "고",
                 v_role)]
        tail = KO.connective(aux, kind, "present")
        tail_role = "AUX"
    elif neg == "long":
        head = [(KO.stem(verb) + "지", "V")]
        tail = KO.connective("않다", kind, tense, adj=cl.adj)
        tail_role = "NEG"
    else:
        head = [("안", "NEG")] if neg == "short" else []
        tail = KO.connective(verb, kind, tense, adj=cl.adj, irr=irr)
        tail_role = v_role
    words = tail.split(" ")
    group = pre + head + [(words[0], tail_role)] + [(w, "CONJ") for w in words[1:]]
    ks = [K(w) for w, _ in group]
    roles = role_map(ks, group)
    roles.setdefault("CONJ", ks[-1])
    return ks, roles


class SentenceBuilder(Generator):
    """Adds clause rendering in context, coordination/subordination and whole sentences."""

    def wh_np(self, human: bool, cls: str = "") -> NP:
        return NP([K("?")], [], human=human, cls=cls)

    def render_clause(self, cl: Clause, form: tuple) -> tuple[list, list, K]:
        object_articles(cl)
        ko, _ = self.ko_args(cl)
        pks, roles = ko_predicate(cl, form)
        ko.extend(pks)
        cl.v_k = roles.get("V", pks[-1])
        last = pks[-1] if form[0] == "final" else roles.get("V", pks[-1])
        if form[0] == "conn" and "CONJ" in roles and roles["CONJ"] is not pks[0]:
            last = [k for k in pks if k is not roles["CONJ"]][-1]
        question = form[0] == "final" and form[2]
        en: list = []
        plural = cl.subj.plural if cl.subj is not None else False
        fronted = False
        if cl.wh is None and not question:
            fronted = (cl.obj is not None and cl.obj.rel) or (cl.rec is not None and cl.rec.rel) \
                or (cl.goal is not None and cl.goal.rel)
            now = fronted and cl.time is not None and [w for w, _ in cl.time[1]] == ["now"]
            if fronted:  # "Yesterday the boy met the girl who ...", not "... who ... yesterday"
                en.extend(self.fronted_adverbials(cl)[1 if now else 0:])
            if not cl.en_no_subj:
                en.extend([[cl.en_pron, cl.subj.ko[-1]]] if cl.en_pron else cl.subj.en)
            verb = self.en_verb(cl, roles, last, plural=plural)
            if cl.en_no_subj and len(verb) > 1 and verb[0][0] == "will":  # "will go ... and
                k = verb.pop(0)[1]  # read": the ending 읽을 거예요 stays linked to "read"
                ks = (k if isinstance(k, tuple) else (k,)) + (
                    verb[0][1] if isinstance(verb[0][1], tuple) else (verb[0][1],))
                verb[0] = [verb[0][0], tuple(dict.fromkeys(ks))]
            if now:  # "Nine men are now sending ...", not "Now nine men are ..." (a discourse
                #      "now"): after the auxiliary, and after its "not"
                at = 1 if verb[0][0] in ("is", "are", "was", "were", "will") else 0
                at += at and len(verb) > 2 and verb[1][0] == "not"
                verb.insert(at, cl.time[1][0])
            en.extend(verb)
        elif cl.wh == "subj":
            en.append(["who", cl.subj.ko[-1]])
            en.extend(self.en_verb(cl, roles, last, plural=False))
        else:
            before, after = E.verb_phrase(_en_lemma(cl), cl.en_tense or cl.tense,
                                          plural_subject=plural, negated=cl.neg is not None,
                                          question=True, adjective=cl.adj)
            if cl.wh is not None:
                wk = {"obj": cl.obj, "rec": cl.rec, "goal": cl.goal, "place": cl.place}
                if cl.wh in wk:
                    k = wk[cl.wh].ko[-1]
                    word = "who" if cl.wh == "rec" or (cl.wh == "obj" and cl.obj.human) \
                        else ("what" if cl.wh == "obj" else "where")
                else:
                    k, word = cl.wh_k, _WH_EN[cl.wh]
                en.append([word, k])
            en.extend([w, self._role_k(r, roles, last)] for w, r in before)
            en.extend(cl.subj.en)
            en.extend([w, self._role_k(r, roles, last)] for w, r in after)
        en.extend(self.en_args(cl, fronted))
        return ko, en, roles.get("CONJ")

    def render(self, node, form: tuple) -> tuple[list, list, K | None]:
        if isinstance(node, Clause):
            return self.render_clause(node, form)
        if isinstance(node, Sub):
            s_ko, s_en, s_conj = self.render(node.sub, ("conn", node.kind))
            m_ko, m_en, m_conj = self.render(node.main, form)
            if node.obj_first:
                n, m = len(node.sub.subj.ko), len(node.main.obj.ko)
                assert s_ko[:n] == node.sub.subj.ko and m_ko[:m] == node.main.obj.ko
                s_ko, m_ko = s_ko[:n] + m_ko[:m] + s_ko[n:], m_ko[m:]
            main_time = getattr(node.main, "time", None)  # (a Coord: no time of its own)
            mt = main_time[0] if main_time is not None else []
            if mt and not node.main.ko_subj and node.sub.time is None and \
                    isinstance(node.sub, Clause) and not _holds_relative(node.sub) and \
                    node.sub.subj is not None and len(node.sub.subj.ko) == 1 and \
                    not (node.sub.place is not None and node.sub.place.rel) and \
                    len(m_ko) > len(mt) and all(a is b for a, b in zip(m_ko, mt)):
                # the shared subject's time opens the sentence (어제 소녀가 배고파서 빵을
                # 먹었다), not after the cause (배고파서 어제 ...), where it reads as an aside
                s_ko, m_ko = mt + s_ko, m_ko[len(mt):]
            if _ends_with_relative(node.main):  # "because ..." after a relative clause would
                #  be read inside it: "Because it was hungry, the pig ate the bread that ..."
                s_en[-1] = [s_en[-1][0] + ",", s_en[-1][1]]
                return s_ko + m_ko, [[_CONJ_EN[node.kind], s_conj]] + s_en + m_en, m_conj
            return s_ko + m_ko, m_en + [[_CONJ_EN[node.kind], s_conj]] + s_en, m_conj
        l_ko, l_en, l_conj = self.render(node.left, ("conn", node.kind))
        r_ko, r_en, r_conj = self.render(node.right, form)
        if node.kind != "then":  # ("went to the library and read", one subject, no comma)
            l_en[-1] = [l_en[-1][0] + ",", l_en[-1][1]]
        return l_ko + r_ko, l_en + [[_CONJ_EN[node.kind], l_conj]] + r_en, r_conj

    # ------------------------------------------------------------------ trees
    def linked(self, kind: str, c: float, tense: str, topic_ok: bool = True,
               late_ok: bool = True, shared: NP | None = None, shared_cause=None):
        """A causal (-아서), conditional (-면) or temporal (-ㄹ 때) pair of clauses that a
        reader accepts as linked (see :mod:`.coherence`): 소년은 배가 고파서 빵을 먹었다
        "The boy ate bread because he was hungry", 방이 추워서 소녀가 떨었다 "The girl
        shivered because the room was cold". None when the level's lexicon has no link of
        ``kind`` for ``tense`` (the caller then joins unrelated clauses with -고). Not
        ``late_ok`` (after -고): the shared subject opens the pair, since a subordinate clause
        without one (빵을 먹고 달려서 ...) would take the subject of the clause before.

        The shared subject opens the sentence (장지호는 청소를 해서 피곤했다, not 청소해서
        장지호는). An action that causes takes the English past before a present or past main
        clause ("is tired because he cleaned"); a future main clause takes only a state as
        its cause ("will eat because he is hungry"), and a need is met at once: no time
        adverbial after "because" in the future, none after "when". ``shared``: the subject
        of the clause before (after -고), named there and taken up here (both clauses drop it
        in Korean and take a pronoun in English): 소년은 배가 고파서 빵을 먹었고 피곤해서
        잤다."""
        r = self.rng
        cands = [x for x in _links(self.lex) if kind in x[3]
                 and not (tense == "progressive" and isinstance(x[2], Adjective))
                 and not (kind == "because" and tense == "future" and isinstance(x[1], Verb))
                 and (shared is None or x[0] == "same")]
        if not cands:
            return None
        self.ctx_tense = tense
        st = tense if tense in ("present", "past") else "present"
        if shared is not None:
            pron = CO.pronoun_for(shared.head, shared.cls, plural=shared.plural,
                                  name=shared.name)
            fits = [x for x in cands if self._fits(x[1], x[2], shared)
                    and all(x[1] is not p for p in shared_cause or ())]
            if pron is None or not fits:
                return None
            mode, cause, effect, _ = _even_cause(r, fits)
        else:
            mode, cause, effect, _ = _even_cause(r, cands)
        self.main_verb = effect.ko
        if mode == "same" and shared is not None:
            subj = shared
        elif mode == "same":
            subj, pron = None, None
            for _ in range(8):
                subj = self._linked_subject(cause, effect, c)
                if subj is not None:
                    pron = CO.pronoun_for(subj.head, subj.cls, plural=subj.plural,
                                          name=subj.name)
                    if pron is not None:
                        break
            if pron is None:
                return None
        if mode == "same":
            # an action before a present or past effect is over: "because he cleaned"
            sub = Clause(subj, cause, "past" if kind == "because" and isinstance(cause, Verb)
                         and tense != "future" else st)
            # (a topic: 최서연이 피곤할 때 잘 것이다 reads "when Choi Seoyeon is tired,
            # someone will sleep"; 최서연은 is the sleeper)
            sub.topic = topic_ok and not subj.indefinite
            sub.en_pron = pron
            main = Clause(subj, effect, tense)
            main.en_become = kind in ("if", "when") and isinstance(effect, Adjective) and \
                tense in ("present", "future")
            # the subject opens the sentence (소년은 배가 고파서 빵을 먹었다); a subordinate
            # clause before it (배가 고파서 소년은) reads scrambled
            late = False
            if isinstance(cause, Verb) and cause.loc and r.random() < 0.2 + c * 0.4:  # 공원에서 달려서
                sub.place = self.place_np(c * 0.5, cause, rel_ok=shared is None and c > 0.6,
                                          subj=subj)
            if late:
                sub.ko_subj = False
                main.topic = sub.topic
            else:
                main.ko_subj = False
            if shared is not None:  # named in the clause before -고: "and he slept because ..."
                sub.ko_subj = False
                sub.topic = main.topic = False
                main.en_pron = pron
        else:
            # (where one stays a while and the effect is what people do there: not 서점이 더울
            # 때 소주를 마신다, 우체국이 더워서, 교회가 추울 때 기침한다)
            places = [n for n in cause.nouns if not n.home and n.ko in _STAY_PLACES]
            if not places:
                return None
            where = self.noun_np((), 0, c, noun=_pick(r, places), allow_count=False,
                                 allow_rel=False, avoid_scale=cause.scale)
            sub = Clause(where, cause, st)
            def person():  # the people who are in a place (no leopard in a bathroom), with
                #        no adjective right after the cause (우체국이 더워서 피곤한 조종사들은
                #        reads "the pilots tired because the post office was hot")
                if "person" in effect.subj and not effect.subj_only:
                    return self.subject_np(("person",), 1, 0.0)
                return self.verb_subject(effect, 1, 0.0)
            main = Clause(self._plain(person), effect, tense)
            main.topic = topic_ok and not main.subj.indefinite and r.random() < 0.5
        late = main.ko_subj  # the main clause names its own subject (no relative clause)
        if isinstance(effect, Verb):
            if effect.frame == "T":
                # a shared subject named first: an object with a relative clause moves before
                # the subordinate clause (소년은 [소녀가 만든] 빵을 배가 고파서 먹었다), where
                # no subordinate clause stands right before the relative clause
                objects = [n for n in effect.objects if n.cls in _WANTS.get(cause.ko, (n.cls,))]
                if cause.ko in _RELIEF:  # a hot room -> something cold to drink, not hot tea
                    fit = {n.ko for a in self.lex.adjectives if a.ko in _RELIEF[cause.ko]
                           for n in a.nouns}
                    objects = [n for n in objects if n.cls not in ("drink", "dish")
                               or n.ko in fit]
                if not objects:
                    return None
                for _ in range(4):  # (not 배고파서 [조용한 여자들이 산] 오이를: "quiet because
                    #                  hungry"; the relative clause's subject opens bare)
                    # (a habit or a condition takes a kind of thing, not one picked out:
                    # not 배고프면 김민준이 산 토마토를 먹는다, 매일 저 딸기를 먹는다)
                    main.obj = self.noun_np((), 0 if c > 0.8 else 1,
                                            c if kind == "because" else 0.0,
                                            noun=_pick(r, objects),
                                            allow_rel=(late or shared is None)
                                            and effect.ko not in _CREATED
                                            and kind == "because",
                                            other_than=main.subj.head)
                    if kind != "because" and main.obj.ko[0].text in ("이", "저"):
                        continue
                    first = main.obj.ko[0].text  # (배고프신 선생님이: -신 is honorific)
                    if not (main.obj.rel_subj and not late and (
                            first in self.lex.adjective_forms or first.endswith("신")
                            or main.subj.indefinite)):  # (말 한 마리가 is no topic)
                        break
                else:
                    main.obj = self.noun_np((), 1, c, noun=_pick(r, objects), allow_rel=False,
                                            other_than=main.subj.head)
                generic_object(main.obj)
            elif effect.frame == "R":
                draw = lambda: self.subject_np(("person",), 1, c,  # noqa: E731
                                               other_than=main.subj.head)
                main.rec = draw() if late else self._plain(draw)
            if mode == "same" and effect.loc and r.random() < 0.15 + c * 0.5 and \
                    sub.place is None:
                # (in a "place" link the place is the cause's subject)
                main.place = self.place_np(c * 0.5, effect, subj=main.subj)
            fit = () if effect.stative or main.rec is not None and main.rec.rel or \
                main.obj is not None and main.obj.rel or \
                tense == "progressive" and effect.state_en else self.lex.adverbs_for(effect)
            # (no manner for a state: not 빨리 누워 있다 "is lying down quickly")
            if tense == "progressive":  # (no "is laughing sometimes", "is suddenly coming")
                fit = [a for a in fit if a.ko not in _HABITUAL_ADVERBS | _MOMENT_ADVERBS]
            if tense == "past":  # (not 넘어져서 가끔 울었다: one fall, one cry)
                fit = [a for a in fit if a.ko not in _HABITUAL_ADVERBS]
            fit = [a for a in fit if a.ko not in _FEELING_ADVERBS | _CONTEXT_ADVERBS]
            if kind in ("when", "if") or tense == "future":  # (a habit or a condition: not
                #  더울 때 갑자기 마신다, 추우면 자주 떤다, 즐거울 때 가끔 웃을 것이다)
                fit = [a for a in fit if a.ko not in _MOMENT_ADVERBS | _HABITUAL_ADVERBS]
            # (not 행복해서 행복하게; nor 다시 / 바로 with nothing before them)
            fit = _preverbal_fits(fit, main.subj)
            # (a cause already says how: 배고파서 천천히 먹었다, 추우면 자주 떤다 clash; a
            # manner only a tenth as often beside it)
            if fit and r.random() < 0.02 + c * 0.08:  # 빨리 먹었다 "ate ... quickly"
                main.manner = _pick(r, fit)
                main.manner_k = K(main.manner.ko)
        # a habit or a condition in the present has no moment: no "today" with "when she is
        # tired" or "if she is tired"
        if r.random() < 0.15 + c * 0.5 and not isinstance(main.pred, Adjective) and \
                not main.pred.stative and kind == "because" and tense != "future":
            # (a deed's time, not a state's: not 수영해서 지난주에 졸렸다)
            opts = [t for t in self.lex.times if tense in t[2].split() and t[0][0] != "지금"
                    and not (tense == "progressive" and t[0][0] == "오늘")
                    and not (tense == "present" and _a_day(t))
                    and not (t[0][0] == "매일" and sub.tense == "past")  # (not 달려서 매일 배고프다)
                    and not (tense == "present" and t[0][0] == "오늘" and not main.adj)]
            if opts:
                t = _pick(r, opts)
                ks = [K(w) for w in t[0]]
                main.time = (ks, [[w, ks[min(i, len(ks) - 1)]] for i, w in enumerate(t[1])],
                             t[2]) if len(ks) > 1 else (ks, [[w, ks[0]] for w in t[1]], t[2])
        _no_double_subject(main, topic_ok)
        _no_double_subject(sub, topic_ok and mode == "same")  # (욕실이 더워서, never 욕실은:
        #                                        a topic does not stand inside the cause)
        node = Sub(kind, sub, main)
        if main.obj is not None and main.obj.rel:
            # the English fronts the subordinate clause ("Because he was hungry, the boy ate
            # the bread that ..."): no time or place fronted beside it
            main.time = main.place = None
            # a relative clause that opens with its own subject keeps its place after the
            # subordinate clause (소년은 배가 고파서 [소녀가 만든] 빵을 먹었다: the new subject
            # 소녀가 closes the cause off); one that opens with anything else moves before it
            # (소년은 [공원에서 산] 빵을 배가 고파서 먹었다), never 빵을 배가 고파서 먹었다 for
            # a plain object, which reads as an aside between object and verb
            node.obj_first = not main.ko_subj and not main.obj.rel_subj
            if main.obj.rel_subj and sub.ko_subj and not sub.subj.indefinite and \
                    mode == "same":
                sub.topic = True  # 신하은은 배고프면 광대가 판 와플을 먹는다, not 신하은이 ...
                #                   광대가 ...: two bare subjects in a row
        return node

    def _plain(self, draw) -> NP:
        """An NP from ``draw`` without a relative clause (a subordinate clause right before a
        relative clause would be read inside it); a name after three tries."""
        for _ in range(3):
            np = draw()
            if not np.rel:
                return np
        return self.name_np()

    def _fits(self, cause, effect, np: NP) -> bool:
        """Whether both predicates accept ``np`` as their subject."""
        if "|" in np.head:
            return False
        noun = None if np.name else self.lex.noun_by_ko.get(np.head)
        if np.hon and (cause.ko in _NO_HONORIFIC or effect.ko in _NO_HONORIFIC):
            return False  # (선생님이 배고프셔서: Korean says 시장하셔서)
        return _takes(cause, np, noun) and _takes(effect, np, noun)

    def _linked_subject(self, cause, effect, c: float) -> NP | None:
        """One participant both predicates accept (a person or an animal), or None."""

        person_ok = all(p.person if isinstance(p, Adjective) else
                        "person" in p.subj and not p.subj_only for p in (cause, effect))
        cls = "person" if person_ok and self.rng.random() < 0.8 else "animal"
        scale = next((p.scale for p in (cause, effect) if isinstance(p, Adjective)), None)
        # first in the sentence: a relative clause is safe; no 배고픈 소년이 배고파서
        np = self.subject_np((cls,), 0, c, avoid_scale=scale)
        if _busy(np):  # not 자고 있는 소가 달리면: the participle is an activity of its own
            return None
        return np if self._fits(cause, effect, np) else None

    def sub_tense(self, kind: str, main_tense: str) -> str:
        if kind == "because":
            if main_tense == "present" and self.rng.random() < 0.2:
                return "progressive"
            return main_tense if main_tense in ("present", "past") else "present"
        if kind == "when":
            return "past" if main_tense == "past" else "present"
        return "present"  # if

    def clause(self, c: float, tense: str, *, topic: bool, time: bool = True,
               neg_p: float = 0.2) -> Clause:
        rng = self.rng
        cl = self.make_clause(c, tense=tense, topic=topic)
        for _ in range(12):  # not 날고 있는 꿀벌이 꽃을 먹었다: one activity per participant
            if not (_busy(cl.subj) and not cl.adj and isinstance(cl.pred, Verb)
                    and not cl.pred.stative):
                break
            cl = self.make_clause(c, tense=tense, topic=topic)
        if not time:
            cl.time = None
        # (only where it says something, so more often there: see negation_informative)
        if negation_informative(cl) and rng.random() < neg_p * 1.5:
            cl.neg = "short" if rng.random() < 0.5 and not cl.adj else "long"
            if cl.manner is not None and cl.manner.ko in _NOT_NEGATED_ADVERBS:
                cl.manner = None  # (not 다시 산책하지 않는다 "does not take a walk again")
        if cl.obj is not None and not cl.obj.rel and rng.random() < 0.06 and \
                not habitual(cl) and not (  # (학생이 사는 치즈와 국수: whose clause?)
                cl.subj is not None and cl.subj.plural):  # 사과와 배를 -> the apple and the pear
            other = self.noun_np((), 1, c * 0.4, allow_rel=False, allow_count=False,
                                 noun=_pick(rng, cl.pred.objects), other_than=cl.subj.head)
            generic_object(other)
            if other.en[-1][0] != cl.obj.en[-1][0] and other.head != cl.obj.head:
                cl.obj = coordinate_nps(cl.obj, other)
        if cl.subj is not None and cl.subj.cls in _ANIMATE and rng.random() < 0.05:
            # (no counted crowd beside it doing something to something: 대통령과 코치
            # 767명이 텔레비전을 판다)
            other = self.subject_np((cl.subj.cls,), 1, c * 0.4,
                                    allow_count=cl.obj is None and cl.rec is None)
            noun = self.lex.noun_by_ko.get(other.head)  # (None: a name)
            if noun is not None and not cl.adj and not subject_fits(cl.pred, noun):
                other = cl.subj  # not "the dog and the snail bark", "the baby and the boy build"
            taken = {h for np in (cl.obj, cl.rec) if np is not None for h in np.head.split("|")}
            if other.en[-1][0] != cl.subj.en[-1][0] and other.head != cl.subj.head and \
                    other.head not in taken and not other.rel and \
                    other.hon == cl.subj.hon:  # (not 선생님과 학생이 ... 계신다: one level)  # (여자들과 [소녀가 만난]
                #                                             소년들: whose clause?)
                cl.subj = coordinate_nps(cl.subj, other)
                if cl.manner is not None and not _preverbal_fits([cl.manner], cl.subj):
                    cl.manner = None  # (not "Han and the 61 librarians who ... suddenly come")
        # (도 "also" only after -고, where the clause before names the same event: see
        # :meth:`also_clause`)
        if rng.random() < 0.04 and cl.obj is not None and cl.neg is None:
            cl.only = True
        return cl

    def tree(self, c: float, tense: str, depth: int, topic_ok: bool = True, final: bool = True,
             budget: int = 4, first: bool = True):
        """A clause, a Sub (adverbial clause + main clause), or at depth 2 a Coord of two
        such subtrees (nesting depth 2), with at most ``budget`` clauses (4 never binds)."""
        r = self.rng
        x = r.random()
        if depth <= 0 or x < 1.0 - c or budget < 2:
            return _no_double_subject(
                self.clause(c, tense, topic=topic_ok and r.random() < 0.5, time=final), topic_ok)
        if first and final and tense != "progressive" and (
                self.want_long and x < 0.6 or r.random() < _STORY_SHARE):
            node = self.story(c, tense, budget)  # (two scenes of one participant)
            if node is not None:
                return node
        if depth == 1 or (x < 1.0 - c * 0.6 and not self.want_long) or (
                self.want_long and x < 0.5):
            # (half the long sentences are one linked pair whose arguments carry relative
            # clauses: two pairs joined by -고 read as two stories; the full level's 30 words
            # need the other half)
            if first and final and r.random() < _SEQUENCE_SHARE:  # a place and a deed there
                node = self.sequence(c, tense, topic_ok)
                if node is not None:
                    return node
            kind = _pick(r, ("because", "when", "if") if tense in ("present", "future")
                            else _PAST_LINKS)
            if kind == "if" and tense == "present" and r.random() < 0.5 and final and first:
                tense = "future"  # (only for a whole sentence: -고 takes the final tense)
            if kind == "when" and tense == "progressive":
                kind = "because"
            node = self.linked(kind, c, tense, topic_ok, late_ok=first)
            if node is not None:
                return node
            # no link in this lexicon: one clause (two unrelated ones tell no story)
            return _no_double_subject(
                self.clause(c, tense, topic=topic_ok and r.random() < 0.5, time=final), topic_ok)
        if tense in ("present", "past") and r.random() < 0.25 and not self.want_long:
            for _ in range(3):
                node = self.contrast(c * 0.9, tense)
                if node is not None:
                    return node
        left = self.tree(c * 0.9, tense, 1, topic_ok, final=False, budget=budget - 1)
        right = self.continuation(left, c * 0.9, tense, budget - clause_count(left))
        if right is None:  # nothing shares a participant or the event: the left part alone
            return left
        if any(cl.time is not None for cl in _clauses(left)):  # not "today ... today"
            for cl in _clauses(right):
                cl.time = None
        last = _last_clause(left)
        if last.adj and last.tense == "future":  # 방이 크고 ... 잘 것이다 "the room is big"
            last.tense = "present"
        return Coord("and", left, right)

    def continuation(self, left, c: float, tense: str, budget: int):
        """What may follow ``left`` after -고: the same participant again (its subject, named
        once: 소년은 배가 고파서 빵을 먹었고 피곤해서 잤다 "..., and he slept because he was
        tired"; 소녀가 물을 마시고 공원에서 놀았다), or another participant doing the same
        (소년이 빵을 먹고 소녀도 빵을 먹었다 "..., and the girl also ate bread"); None when
        neither can be drawn. Two unrelated events are never joined."""
        r = self.rng
        last = _last_clause(left)
        subj = last.subj
        if subj is None or last.wh is not None or "|" in subj.head or subj.indefinite:
            return None
        pron = CO.pronoun_for(subj.head, subj.cls, plural=subj.plural, name=subj.name)
        x = r.random()
        if last.adj and x >= 0.25:  # (a property, then a linked pair or another deed: 조용했고
            return None  # 달려서 피곤했다 tells nothing the first clause prepared)
        if isinstance(left, Sub) and not self.want_long and x >= 0.25:
            return None  # (two linked pairs joined by -고 tell two stories: 아플 때 눕고 외로울
            #              때 운다; a plain clause would fall under the first's condition)
        if self.want_long:
            x = 0.25 + 0.4 * x  # (the long challenge set: another linked pair)
        if x < 0.25:
            # (도 "also" a third of the time: 달걀을 요리하고 여자도 달걀을 요리한다 mostly
            # reads as padding; after a property or a linked pair nothing else follows)
            if x < 0.08:
                return self.also_clause(last, c, tense)
            if last.adj or isinstance(left, Sub):
                return None
            x = 0.65  # (another deed of the same participant)
        if pron is None:
            return None
        if x < 0.65 and budget >= 2:
            kind = _pick(r, ("because", "when", "if") if tense in ("present", "future")
                         else _PAST_LINKS)
            if kind == "when" and tense == "progressive":
                kind = "because"
            # not hungry twice (배고파서 ... 배고파서), nor the effect just told as the next
            # cause (수영하면 배고프고 배고파서 ...: a chain Korean tells in one link)
            before = (left.sub.pred, left.main.pred) if isinstance(left, Sub) else ()
            node = self.linked(kind, c, tense, shared=subj, shared_cause=before)
            if node is not None and not (_closes_with_adjective(left) and
                                         self._opens_with_adjective_np(node.sub)) \
                    and _follows(last, node.main):
                return node
        if isinstance(left, Sub):  # (피곤하면 집에서 자고 웃지 않는다: a reader gives the
            return None  # condition both verbs, the English only the first)
        for _ in range(6):  # the same subject, another action: 물을 마시고 공원에서 놀았다
            cl = self.clause(c * 0.7, tense, topic=False)
            pred = cl.pred
            if cl.adj or isinstance(pred, Adjective) or cl.also or pred.stative or \
                    not self._fits(pred, pred, subj):  # (not 길에서 달리고 강을 안다)
                continue
            if _holds_relative(cl):  # (-고 before a relative clause reads as inside it)
                continue
            if pred.ko == last.pred.ko or (_closes_with_adjective(left) and
                                           self._opens_with_adjective_np(cl)):
                continue  # (not 배고프고 큰 사전을: "the hungry and big dictionary")
            if not _follows(last, cl):
                return None
            if not _same_scene(last, cl):  # (not 길에서 달리고 강을 안다, 커피를 마시고
                continue  #                  목도리를 빨았다: two scenes in one breath)
            cl.subj, cl.ko_subj, cl.en_pron, cl.topic = subj, False, pron, False
            cl.place = None  # (the scene's place is said once, before -고)
            return cl
        return None

    def _opens_with_adjective_np(self, cl: Clause) -> bool:
        """Whether a clause that does not name its subject opens (in Korean) with a noun
        phrase that begins with an attributive adjective."""
        for np in (cl.place, cl.rec, cl.goal, cl.obj, cl.instr):  # (a time may be dropped)
            if np is not None:
                return bool(np.ko) and np.ko[0].text in self.lex.adjective_forms
        return False

    def also_clause(self, last: Clause, c: float, tense: str) -> Clause | None:
        """Another participant doing what ``last`` says, with 도 "also" (or, negated, "either"):
        소년이 빵을 먹고 소녀도 빵을 먹었다. None when ``last`` has a recipient or a goal,
        or no other subject fits."""
        if last.adj or last.rec is not None or last.goal is not None or last.ellipsis or \
                last.no_one or not isinstance(last.pred, Verb) or last.pred.frame not in "IT":
            return None
        p = last.pred
        noun = None
        if last.obj is not None:
            noun = self.lex.noun_by_ko.get(last.obj.head)
            if noun is None or noun not in p.objects:
                return None
        subj = self._plain(lambda: self.verb_subject(p, 1, c * 0.5,
                                                     other_than=last.subj.head))
        if subj.head == last.subj.head or "|" in subj.head or subj.indefinite or \
                subj.head in last.subj.head.split("|") or subj.hon != last.subj.hon or \
                subj.cls != last.subj.cls:  # (not 소년은 피곤할 때 자고 소도 잔다)
            return None  # (one honorific level for both: 아버지도 ... 하시고 / 소년도 ... 하고)
        cl = Clause(subj, p, tense, neg=last.neg, also=True)
        if noun is not None:
            cl.obj = self.noun_np((), 1, 0.0, noun=noun, allow_rel=False,  # the same thing
                                  allow_count=False, other_than=subj.head)
            generic_object(cl.obj)
        return cl

    def coordination(self, kind: str, left, draw_right, tense: str) -> Coord:
        """``left`` -고 ``right``. After -고 the right clause must not open with a modifier:
        방이 크고 작은 소녀가 reads "the big and small girl", 빵을 먹고 우는 아이가 "the child
        who eats bread and cries" (a few redraws). An adjective before -고 takes the tense a
        Korean reader gives it: 방이 크고 ... 잘 것이다 "the room is big", not "will be big"."""
        right = draw_right()
        for _ in range(4):
            if not ((_closes_with_adjective(left) and self.opens_with_adjective(right))
                    or self.opens_with_relative(right) or _first_subject(right) ==
                    _first_subject(left) is not None):  # not "Park Haeun ..., and Park Haeun"
                break
            right = draw_right()
        last = _last_clause(left)
        if last.adj and last.tense == "future":
            last.tense = "present"
        return Coord(kind, left, right)

    def contrast(self, c: float, tense: str) -> Coord | None:
        """-지만 "but" only where there is a contrast: one predicate, two participants, one
        of them negated, the second verb phrase elided in English: 소년은 웃지만 소녀는 안
        웃는다 "The boy laughs, but the girl does not"; 방은 크지만 부엌은 크지 않다 "The room
        is big, but the kitchen is not". None when the drawn clause has arguments."""
        r = self.rng
        left = self.clause(c, tense, topic=True, time=False, neg_p=0.0)
        p = left.pred
        if left.obj is not None or left.rec is not None or left.goal is not None or \
                left.subj is None or "|" in left.subj.head or left.subj.indefinite:
            return None
        left.also = left.only = False
        left.topic = True
        if left.adj:
            # (a person too is one of the adjective's nouns: not 평범한 대통령, 가난한 사장)
            nouns = [n for n in p.nouns if n.ko != left.subj.head and not n.home
                     and n.cls == left.subj.cls]
            if not nouns:
                return None
            draw = lambda: self.noun_np((), 1, c * 0.5, noun=_pick(r, nouns),  # noqa: E731
                                        allow_count=False, avoid_scale=p.scale)
        else:
            draw = lambda: self.verb_subject(p, 1, c * 0.5,  # noqa: E731
                                             other_than=left.subj.head)
        subj = self._plain(draw)
        if subj.indefinite or subj.head == left.subj.head or subj.cls != left.subj.cls or \
                subj.hon and p.ko in _NO_HONORIFIC:  # (선생님들은 배고프셨다: 시장하셨다)
            return None  # (a bat against someone's cousin contrasts nothing)
        right = Clause(subj, p, tense, topic=True)
        right.ellipsis = True
        neg = "short" if r.random() < 0.5 and not left.adj else "long"
        if r.random() < 0.5:
            left.neg = neg
        else:
            right.neg = neg
        return Coord("but", left, right)

    def sequence(self, c: float, tense: str, topic_ok: bool = True, *,
                 subj: NP | None = None, cause: bool | None = None,
                 not_at: str | None = None, going: bool = False):
        """A motion and what one does where it leads (the smallest scene: a place and the
        deeds it holds), joined by -아서: 민준이는 도서관에 가서 책을 읽었다 "Minjun went
        to the library and read a book"; 할머니는 시장에 가셔서 사과를 사실 것이다. The deed is
        one the scene table gives the place (:data:`SCENES`); the English says the subject
        once. Often the state that sends one there comes first (배고파서 식당에 가서 ...).
        ``subj``: the participant of the clause before -고 (named there: a pronoun here);
        ``cause``: force (True) or forbid (False) the state; ``not_at``: a place already
        visited; ``going``: a motion away (가다, not 오다: a story keeps one point of view).
        None when no deed fits."""
        r = self.rng
        lex = self.lex
        if tense == "progressive":
            tense = "past"
        scenes = _scenes(lex)
        motion = [v for v in lex.motion if v.ko in _SCENE_MOTIONS and not (going and "오" in v.ko)]
        if not motion or not scenes:
            return None
        v = _pick(r, motion)
        places = [p for p in (v.goals or lex.places) if p.ko in scenes and p.ko != not_at
                  and not (v.ko == "걸어가다" and (p.room or p.home))]  # (not 침실로 걸어가서)
        if not places:
            return None
        where = _pick(r, places)
        shared = subj
        if subj is None:
            subj = self._plain(lambda: self.verb_subject(v, 0, c * 0.5))
        deeds = [(a, objs) for a, objs in scenes[where.ko] if self._fits(a, a, subj)]
        if not deeds or subj.indefinite or "|" in subj.head:
            return None
        a, objs = _pick(r, deeds)
        left = Clause(subj, v, tense)
        left.goal = self.noun_np(("place",), 1, 0.0, allow_count=False, allow_rel=False,
                                 noun=where, allow_dem=False)  # (not 이 카페에 가서)
        left.topic = topic_ok and r.random() < 0.6 and shared is None
        self.main_verb, self.ctx_tense = a.ko, tense  # (the object's relative clause: 산)
        right = Clause(subj, a, tense)
        right.ko_subj, right.en_no_subj = False, True
        if a.frame == "T":
            right.obj = self.noun_np((), 1, c * 0.3, noun=_pick(r, objs),  # (few adjectives:
                                     allow_rel=c > 0.5 and a.ko not in _CREATED,  # 차가운
                                     other_than=subj.head,  # 달걀을 요리하다; counts only
                                     allow_count=a.ko == "사다")  # of what one buys)
            if right.obj.rel and not right.obj.rel_subj:  # (가서 [농부가 기른] 사과를: a
                right.obj = self.noun_np((), 1, c * 0.3, noun=_pick(r, objs),  # subject of
                                         allow_rel=False, other_than=subj.head,  # its own)
                                         allow_count=a.ko == "사다")
            generic_object(right.obj)
        node = Coord("then", left, right)
        causes = [x for x in self.lex.adjectives if a.ko in _SCENE_CAUSES.get(x.ko, ())
                  and _takes(x, subj, self.lex.noun_by_ko.get(subj.head))
                  and not (subj.hon and x.ko in _NO_HONORIFIC)
                  and (right.obj is None or right.obj.cls in (_WANTS_BOUGHT if a.ko == "사다"
                                                               else _WANTS).get(
                      x.ko, (right.obj.cls,)) or right.obj.head in _BREAD and x.ko == "배고프다")]
        # (hungry -> a dish, thirsty -> a drink: not 배고파서 카페에 가서 커피를 주문한다)
        pron = CO.pronoun_for(subj.head, subj.cls, plural=subj.plural, name=subj.name)
        if shared is not None:  # "..., and she went to the bedroom and slept"
            if pron is None:
                return None
            left.ko_subj, left.en_pron = False, pron
        want = r.random() < 0.4 + 0.4 * c if cause is None else cause
        if cause and not causes:
            return None
        if causes and pron is not None and want:
            # why one went: 소년은 배가 고파서 식당에 가서 비빔밥을 먹었다 "Because he was
            # hungry, the boy went to the restaurant and ate bibimbap"
            sub = Clause(subj, _pick(r, causes), tense if tense in ("present", "past")
                         else "present")
            sub.topic, sub.en_pron = shared is None, pron
            sub.ko_subj = shared is None
            left.ko_subj, left.topic = False, False
            return Sub("because", sub, node)
        return node

    def story(self, c: float, tense: str, budget: int = 4):
        """Two scenes of one participant joined by -고, each with the state that sends them
        there: 민지는 배가 고파서 식당에 가서 비빔밥을 먹고 피곤해서 침실로 가서 잤다. With a
        ``budget`` of three events (see :func:`clause_count`) only one scene has its cause:
        민지는 배가 고파서 가게에 가서 빵을 사고 집에 가서 잤다. Both motions go away from the
        speaker (가다, 들어가다), and the participant is not one Korean honours (four -셔서 in
        a row read as stilted). None when either scene cannot be drawn."""
        if budget < 3 or tense not in ("past", "future"):
            return None  # (the present tells a habit: "goes to the store and buys ...")
        r = self.rng
        # (one cause: the need comes second, and the scene it sends one to meets it -- 공원에
        # 가서 놀고 배고파서 집에 가서 밥을 먹었다; hungry first, then off to sleep, reads odd)
        causes = (True, True) if budget >= 4 else (False, True)
        for _ in range(12):
            first = self.sequence(c, tense, cause=causes[0], going=True)
            co = first.main if isinstance(first, Sub) else first
            if isinstance(co, Coord) and isinstance(first, Sub) == causes[0] and \
                    not co.left.subj.hon and not co.left.subj.plural:
                break  # (one person's day: not 팀장들이 침실로 들어가서)
        else:
            return None
        for _ in range(12):
            second = self.sequence(c, tense, subj=co.left.subj, cause=causes[1],
                                   not_at=co.left.goal.head, going=True)
            if second is None or isinstance(second, Sub) != causes[1]:
                continue
            deeds = [(x.main if isinstance(x, Sub) else x).right.pred.ko for x in (first, second)]
            if deeds[0] == deeds[1] or set(deeds) <= _FOOD_DEEDS:
                continue  # (not 가게에서 오렌지를 사고 집에 가서 빵을 먹었다: hungry twice)
            if not (causes[0] and causes[1]) or second.sub.pred.ko != first.sub.pred.ko:
                return Coord("and", first, second)
        return None

    def opens_with_relative(self, node) -> bool:
        """Whether the Korean of a tree begins with a relative clause."""
        while not isinstance(node, Clause):
            node = node.sub if isinstance(node, Sub) else node.left
        cl = node
        first = cl.place if cl.place_first and cl.place is not None and \
            not _holds_relative(cl) else cl.subj if cl.ko_subj else None
        if cl.time is not None and not _holds_relative(cl):
            return False
        return first is not None and first.rel and "possessive" not in first.tags

    def opens_with_adjective(self, node) -> bool:
        """Whether the Korean of a tree begins with an attributive adjective."""
        while not isinstance(node, Clause):
            node = node.sub if isinstance(node, Sub) else node.left
        cl = node
        if cl.time is not None and not _holds_relative(cl):
            return False
        first = cl.place if cl.place_first and cl.place is not None and \
            not _holds_relative(cl) else cl.subj
        if first is None or len(first.ko) < 2:
            return False
        return first.ko[0].text in self.lex.adjective_forms


def _no_double_subject(cl: Clause, topic_ok: bool) -> Clause:
    """``cl`` with a topic subject where a bare one would stand right before the subject of an
    argument's relative clause: 주은서는 이수호가 판 탄산수를 마셔요, not 주은서가 이수호가 판
    ... (two N이/가 in a row read as one clause). Only where a topic may stand (``topic_ok``)
    and the subject can be one (not counted, not 누가, not 도)."""
    subj = cl.subj
    if not topic_ok or subj is None or subj.indefinite or cl.wh == "subj" or cl.also or \
            cl.no_one:
        return cl
    if _double_subject_risk(cl):
        cl.topic = True
    if cl.adj and not getattr(cl.pred, "stage", False) or cl.neg is not None:
        cl.topic = True  # a lasting property, or a denial, is said of a topic: 주유나의 아내는
        #                  똑똑해요, 선생님은 김치를 안 드세요
    return cl


def _double_subject_risk(cl: Clause) -> bool:
    """Whether the clause's bare subject (N이/가) would stand right before an argument whose
    relative clause opens with a bare argument of its own (see :func:`_no_double_subject`)."""
    if cl.subj is None or not cl.ko_subj or cl.topic and not cl.subj.indefinite:
        return False  # (a counted subject keeps 이/가 even where the clause may take a topic)
    place = cl.place if not cl.place_first else None
    first = next((np for np in (cl.rec, cl.goal, cl.obj) if np is not None), None)
    return any(np is not None and np.rel_subj for np in (place, first))


def definite_numeral(np: NP | None) -> None:
    """A counted noun phrase made definite in English: 소녀 일흔두 명 "the 72 girls". A
    wh-question asks about a group it presumes known, so its numeral subject takes "the"
    (aligned with the numeral); a phrase with a determiner already is left alone."""
    if np is None or not np.indefinite or not np.en:
        return
    for i, (w, k) in enumerate(np.en):
        if w in ("the", "these", "those", "this", "that") or w.endswith("'s"):
            return
        if w == "one" and i + 1 < len(np.en):  # 드러머 한 명이 "a drummer", not "the one"
            np.en[i][0] = E.indefinite_article(np.en[i + 1][0])
            return
        if w.isdigit() or w in E.NUMBER_WORDS:
            np.en.insert(i, ["the", k])
            return


def generic_object(np: NP | None) -> None:
    """A bare mass noun as an object is generic in English: 차를 마신다 "drinks tea", not
    "drinks the tea" (a demonstrative, possessor or relative clause keeps its determiner)."""
    if np is not None and np.generic and np.en and np.en[0][0] == "the":
        del np.en[0]
        np.generic = False


#: English adverbs that stand before the verb, after an auxiliary ("often sings", "will
#: sometimes yawn", "suddenly danced"), not after its arguments
_PREVERBAL_EN = frozenset("often sometimes suddenly".split())

#: places English names without an article as where one studies or works ("at school")
_INSTITUTIONS = frozenset("school campus church college".split())


def _preverbal_fits(fit, subj: NP | None, question: bool = False) -> list:
    """The adverbs of ``fit`` that English can place: "often", "sometimes" and "suddenly"
    stand before the verb ("suddenly stood up"), which neither a question ("Did the coach
    stand up suddenly?") nor a subject with a relative clause ("the kings who the dog will
    find suddenly sleep" is read inside the clause) allows; there they are not drawn."""
    if question or (subj is not None and subj.rel):
        return [a for a in fit if a.en not in _PREVERBAL_EN]
    return list(fit)


#: manner adverbs that make a clause habitual ("often eats apples")
_HABITUAL_ADVERBS = frozenset("자주 가끔".split())
#: adjectives whose honorific is another word (배고프다 -> 시장하다, 목마르다 -> 목이 마르다):
#: not said of an honoured subject
_NO_HONORIFIC = frozenset("배고프다 목마르다".split())
#: adverbs that name a feeling: a linked pair's cause already names one (즐거워서 기쁘게 노래했다)
_FEELING_ADVERBS = frozenset("기쁘게 행복하게 즐겁게 슬프게 신나게".split())
#: adverbs that point back to an earlier event (다시 "again", 바로 "right away"): one sentence
#: out of context has none, so they are not drawn (다시 하품했다: "yawned again" after what?)
_CONTEXT_ADVERBS = frozenset("다시 바로".split())
#: links of a past pair: -았을 때 with a passing state before a one-off reaction (피곤했을 때
#: 앉았다, 기뻤을 때 노래했다) reads as a translation of "when"; Korean tells it with -아서
_PAST_LINKS = ("because",)
#: "go V-ing" activities as the activity itself, for the progressive (is fishing, is shopping)
_GO_DOING = {"go fishing": "fish", "go shopping": "shop", "go hiking": "hike",
             "go camping": "camp"}
#: what relieves a temperature: the drinks and dishes these adjectives describe
_RELIEF = {"덥다": ("차갑다", "시원하다"), "춥다": ("뜨겁다", "따뜻하다")}
#: deeds an epithet contradicts (a quiet teacher shouting, a sad boy dancing, a sick girl running)
_CLASHES = {
    "조용하다": frozenset("소리치다 떠들다 울다 짖다 노래하다 화내다 응원하다 싸우다 웃다".split()),
    "시끄럽다": frozenset("자다 졸다 쉬다 숨다".split()),
    "슬프다": frozenset("웃다 춤추다 노래하다 미소 짓다 미소짓다".split()),
    "외롭다": frozenset("웃다 춤추다".split()),
    "행복하다": frozenset("울다 화내다".split()), "즐겁다": frozenset("울다 화내다".split()),
    "기쁘다": frozenset("울다 화내다".split()),
    "아프다": frozenset("달리다 춤추다 운동하다 등산하다 수영하다 뛰다".split()),
    "피곤하다": frozenset("달리다 춤추다 운동하다 뛰다".split()),
    "졸리다": frozenset("달리다 춤추다 운동하다 뛰다".split()),
    "느리다": frozenset("달리다 뛰다".split()), "게으르다": frozenset("일하다 청소하다".split()),
    "수줍다": frozenset("소리치다 떠들다".split()), "침착하다": frozenset("소리치다 화내다".split()),
}
#: passing feelings and bodily states (배고픈, 피곤한, 슬픈 ...)
_FEELINGS = frozenset("배고프다 목마르다 피곤하다 졸리다 아프다 슬프다 외롭다 심심하다 행복하다 "
                      "즐겁다 기쁘다".split())
#: places where almost anything may happen: a verb that names no places of its own takes one
#: of these (not 약국에서 완두콩을 팔다, 도서관에서 보트를 빌려주다)
_ANY_PLACE = frozenset("집 공원 학교 방 거실 마당 교실 사무실 카페 거리 마을 동네".split())
#: what a need asks for: hungry -> food, thirsty -> a drink (배고파서 차를 주문했다 is no story)
_WANTS = {"배고프다": ("fruit", "vegetable", "dish"), "목마르다": ("drink",)}
#: what a need sends one to buy (bread counts as food too: see _BREAD); not raw vegetables
_WANTS_BOUGHT = {"배고프다": ("fruit", "dish"), "목마르다": ("drink",)}
#: verbs of an instant: no progressive (도착하고 있다, 깨뜨리고 있다)
_PUNCTUAL = frozenset("도착하다 깨뜨리다 넘어지다 떨어뜨리다 잃어버리다 발견하다".split())
#: adverbs a negation does not take (다시 산책하지 않는다, 갑자기 넘어지지 않았다)
_NOT_NEGATED_ADVERBS = frozenset("다시 바로 갑자기".split())
#: adverbs of a moment: not with the progressive (바로 달리고 있다 "is running right away",
#: 갑자기 오고 있다 "is suddenly coming")
_MOMENT_ADVERBS = frozenset("바로 갑자기".split())


def habitual(cl: Clause) -> bool:
    """Whether a clause states a habit: a verb in the simple present, or any tense with 매일
    "every day", 자주 "often", 가끔 "sometimes"."""
    if cl.adj:
        return False
    if cl.tense == "present":
        return True
    if cl.time is not None and cl.time[0] and cl.time[0][0].text.startswith("매일"):
        return True
    return cl.manner is not None and cl.manner.ko in _HABITUAL_ADVERBS


def bare_plural(np: NP | None) -> None:
    """A bare count noun as a generic object becomes a bare English plural: 소년은 딸기를
    먹는다 "The boy eats strawberries", not "the strawberry"."""
    if np is None or not np.count_en or not np.en or np.en[0][0] != "the":
        return
    plural, n = np.count_en
    k = np.en[-1][1]
    del np.en[0]
    np.en[-n:] = [[w, k] for w in plural.split()]
    np.count_en = None
    np.plural = True


def indefinite_object(np: NP | None) -> None:
    """A bare count noun first mentioned as the object of an event: "a" / "an" (한 침팬지가
    파파야를 먹고 있다 "A chimpanzee is eating a papaya")."""
    if np is None or not np.count_en or len(np.en) < 2 or np.en[0][0] != "the":
        return
    if np.plural:  # 청바지를 샀다 "bought jeans", never "a jeans"
        del np.en[0]
        np.count_en = None
        return
    np.en[0] = [E.indefinite_article(np.en[1][0]), np.en[0][1]]
    np.count_en = None


def object_articles(cl: Clause) -> None:
    """The English determiner of a clause's bare object (see :mod:`.articles`): a bare plural
    in a habit or after a plural subject ("sell brownies"), "a" as the object of an event,
    first mentioned ("ate a tomato"); one with a possessor or relative clause keeps "the"."""
    if cl.obj is None or cl.wh == "obj":
        return
    if cl.obj.cls == "instrument" and cl.pred.ko in ("연주하다", "연습하다", "배우다"):
        return  # one plays, practises, learns "the violin", whatever the habit
    if habitual(cl) or (cl.subj is not None and cl.subj.plural and "|" not in cl.subj.head):
        bare_plural(cl.obj)
    elif cl.neg is None and cl.obj.head in _HANDFUL:  # (딸기를 샀다 "bought strawberries")
        bare_plural(cl.obj)
    elif cl.neg is None:  # (not "did not eat an apple")
        indefinite_object(cl.obj)


#: small things one buys or eats by the handful: an event's bare object is an English plural
#: (딸기를 샀다 "bought strawberries", not "a strawberry")
_HANDFUL = frozenset("딸기 블루베리 라즈베리 체리 방울토마토 땅콩 호두 건포도 콩 대추 마카롱 쿠키 "
                     "사탕 리치 만두".split())


def coordinate_nps(a: NP, b: NP) -> NP:
    """NP coordination with 와/과: 소년과 소녀 -> "the boy and the girl" (plural)."""
    a.ko[-1].text = attach(a.ko[-1].text, "와/과")
    return NP(a.ko + b.ko, a.en + [["and", a.ko[-1]]] + b.en, plural=True,
              human=a.human and b.human, cls=a.cls, tags=a.tags | b.tags | {"np_coordination"},
              lemmas=a.lemmas | b.lemmas, rel=a.rel or b.rel, rel_subj=a.rel_subj,
              indefinite=a.indefinite or b.indefinite, head=f"{a.head}|{b.head}",
              hon=a.hon or b.hon)


def node_tags(node) -> set:
    """Phenomenon tags of a tree: tenses, negation, subordination, coordination, NP tags."""
    tags: set = set()
    if isinstance(node, Clause):
        tags.add(node.tense)
        if node.neg:
            tags.add("negation")
        if node.adj:
            tags.add("adjective_predicate")
        if node.rec is not None:
            tags.add("ditransitive")
        if node.goal is not None:
            tags.add("motion")
        if node.time is not None:
            tags.add("time")
        if node.place is not None:
            tags.add("place")
        if node.also:
            tags.add("also")
        if node.only:
            tags.add("only")
        for np in (node.subj, node.obj, node.rec, node.goal, node.place, node.instr):
            if np is not None:
                tags |= np.tags
        return tags
    if isinstance(node, Sub):
        tags |= {"subordination", node.kind}
        return tags | node_tags(node.sub) | node_tags(node.main)
    return tags | {"coordination", node.kind} | node_tags(node.left) | node_tags(node.right)


def node_lemmas(node) -> set:
    """Lexicon keys of every lemma a tree uses: predicates, adverbs and its noun phrases."""
    if isinstance(node, Clause):
        out = {node.pred.key}
        if node.manner is not None:
            out.add(node.manner.key)
        for np in (node.subj, node.obj, node.rec, node.goal, node.place, node.instr):
            if np is not None:
                out |= np.lemmas
        return out
    if isinstance(node, Sub):
        return node_lemmas(node.sub) | node_lemmas(node.main)
    return node_lemmas(node.left) | node_lemmas(node.right)


def clause_count(node) -> int:
    """Finite clauses joined by subordination and coordination (relatives not counted); a
    scene -- a motion and the deed it leads to, 도서관에 가서 책을 읽었다 -- is one event
    and counts once."""
    if isinstance(node, Clause):
        return 1
    if isinstance(node, Sub):
        return clause_count(node.sub) + clause_count(node.main)
    if node.kind == "then":
        return 1
    return clause_count(node.left) + clause_count(node.right)


def depth_of(node) -> int:
    if isinstance(node, Clause):
        return 0
    if isinstance(node, Sub):
        return 1 + max(depth_of(node.sub), depth_of(node.main))
    return 1 + max(depth_of(node.left), depth_of(node.right))


_WH_KINDS = ("subj", "obj", "obj", "rec", "goal", "place", "time", "why")
_TENSE_WEIGHTS = ("present",) * 4 + ("past",) * 3 + ("future",) * 2 + ("progressive",) * 2


def sample_complexity(rng: random.Random) -> float:
    """How rich a sentence is (0..1): most are short, a long tail is long."""
    u = rng.random()
    if u < 0.55:
        return 0.05 + 0.35 * rng.random()
    if u < 0.78:
        return 0.4 + 0.3 * rng.random()
    return 0.7 + 0.3 * rng.random()


class Sentence:
    """A finished pair: Korean eojeols, English words, alignment and tags."""

    __slots__ = ("ko", "en", "align", "tags", "refs", "lemmas")

    def __init__(self, ko: list, en: list, align: tuple, tags: frozenset,
                 refs: tuple = (), lemmas: frozenset = frozenset()) -> None:
        self.ko, self.en, self.align, self.tags, self.refs = ko, en, align, tags, refs
        self.lemmas = lemmas


#: English verbs that also take the double-object frame ("gives the girl the book")
DOUBLE_OBJECT = frozenset("give send show lend sell teach pass toss read hand".split())


def double_object_refs(tree, en: list, question: bool) -> tuple[str, ...]:
    """Extra reference for a one-clause ditransitive statement: "V the girl the book" next to
    the canonical "V the book to the girl"."""
    if not isinstance(tree, Clause) or question or tree.rec is None or tree.wh is not None \
            or tree.pred.en not in DOUBLE_OBJECT or not tree.obj.en or not tree.rec.en:
        return ()
    ids = [id(t) for t in en]
    try:
        a = ids.index(id(tree.obj.en[0]))
        r = ids.index(id(tree.rec.en[0]))
    except ValueError:
        return ()
    if r != a + len(tree.obj.en) + 1:  # obj, "to", rec must be adjacent
        return ()
    end = r + len(tree.rec.en)
    words = [t[0] for t in en[:a] + en[r:end] + en[a:r - 1] + en[end:]]
    words = [w for word in words for w in word.split(" ")]
    words[0] = words[0][0].upper() + words[0][1:]
    return (" ".join(words) + ".",)


def finish(ko: list, en: list, question: bool) -> tuple[list[str], list[str], tuple]:
    """Punctuate, capitalise and turn K identities into Pharaoh index pairs. A K written in
    two words (a spaced compound noun: 축구 선수, 곰 인형) is two Korean words with the same
    links."""
    mark = "?" if question else "."
    words: list[str] = []
    links = set()
    for k in ko:
        k.index = -1
    spans: dict[int, range] = {}
    at = 0
    for k in ko:
        k.index = at
        n = k.text.count(" ") + 1
        spans[id(k)] = range(at, at + n)
        at += n
    for word, al in en:
        for w in word.split(" "):  # "social studies" -> two words, same links
            j = len(words)
            words.append(w)
            for k in ((al,) if type(al) is K else al or ()):
                if k.index < 0:
                    raise KeyError(k.text)
                links.update((i, j) for i in spans[id(k)])
    ko[-1].text += mark
    words[-1] += mark
    words[0] = words[0][0].upper() + words[0][1:]
    return [w for k in ko for w in k.text.split(" ")], words, tuple(sorted(links))


def make_sentence(b: SentenceBuilder, require: str | None = None) -> Sentence:
    """One sentence pair from builder ``b``; ``require`` biases toward a phenomenon. A draw
    that tells no sensible story (see :func:`story_ok`) is drawn again, up to 20 times."""
    for attempt in range(20):
        s = _draw_sentence(b, require, check=attempt < 19)
        if s is not None:
            return s
    raise AssertionError("unreachable: the last draw is not checked")  # pragma: no cover


def story_ok(tree, question: bool) -> bool:
    """Whether the clauses of ``tree`` tell what a Korean writer would: a counted subject
    (소녀 세 명이, 여자 한 명이) only in one clause about one event -- not a habit (기타리스트
    여덟 명이 노래해요), a property (망토 다섯 벌이 두껍니?) or a clause joined to another (학생
    스무 명이 피곤할 때 ...), where Korean names the group first -- and 혼자 "alone" never
    of more than one (남자 세 명이 혼자 주문했다)."""
    clauses = _clauses(tree)
    for cl in clauses:
        subj = cl.subj
        if subj is None:
            continue
        if subj.indefinite and "number" in subj.tags and cl.ko_subj and (
                len(clauses) > 1 or cl.adj or cl.tense == "present"):
            return False
        if cl.manner is not None and cl.manner.ko == "혼자" and subj.plural:
            return False
        for np in (cl.obj, cl.rec):  # (not 가이드 스무 명에게 화내지 않아요, 펭귄 네 마리를
            #                          싫어했다, 그림 일곱 장을 가끔 설명할 거예요)
            if np is not None and np.indefinite and "number" in np.tags and (
                    cl.neg is not None or getattr(cl.pred, "stative", False) or
                    habitual_marked(cl)):
                return False
        if cl.neg is not None and subj.rel_verb is not None and \
                subj.rel_verb.ko == getattr(cl.pred, "ko", None):
            return False  # (울고 있는 소년이 ... 안 울어요: the clause denies its own subject)
        args = [np for np in (cl.rec, cl.goal, cl.obj) if np is not None]
        moved = cl.opens and not subj.rel and args and args[0].rel_subj and \
            args[0].rel  # (ko_args moves that argument first: 가이드가 놀린 소년을 신지안이)
        if moved and len(args) > 1 and args[1].rel_subj and (
                subj.indefinite or not cl.topic or cl.wh == "subj"):
            return False  # (then the next argument follows the subject)
        if cl.wh != "subj" and not cl.also and not cl.no_one and not moved and \
                _double_subject_risk(cl):
            return False
    return True


#: modifier endings: an attributive adjective or a relative clause's verb (조용한, 만난, 먹는)
_MODIFIER_END = ("ㄴ", "은", "는", "운", "한", "던", "할", "을")


_NUMERAL_WORDS = frozenset(native_numeral(n) for n in range(1, 100))


def _repeats(words: list[str]) -> bool:
    """Whether a sentence says a modifier, a place or a demonstrative twice (조용한 남자가 만난
    조용한 소녀; 집에서 만난 소녀는 집에서 ...; 저 배우가 저 아이를): a writer varies them or
    leaves one out. A repeated noun or verb of an also-clause (주스를 ... 이하은도 주스를) is
    the point of that clause and passes."""
    seen: set[str] = set()
    roots = {w[:-1] for w in words if len(w) >= 3 and w.endswith("한")}
    if any(len(w) >= 3 and w.rstrip(".?").endswith("히") and w.rstrip(".?")[:-1] in roots
           for w in words):
        return True  # 조용한 소녀는 조용히 잔다: one root twice
    for w in words:
        w = w.rstrip(".?")
        if w in ("이", "저", "그") or w.endswith(("에서", "에")) or (
                len(w) >= 2 and w.endswith(_MODIFIER_END) and w not in _NUMERAL_WORDS):
            if w in seen:
                return True
            seen.add(w)
    return False


def _draw_sentence(b: SentenceBuilder, require: str | None, check: bool) -> Sentence | None:
    """One draw of :func:`make_sentence`; None when ``check`` and the story fails."""
    r = b.rng
    level = _pick(r, KO.LEVELS)
    c = sample_complexity(r)
    tense = _pick(r, _TENSE_WEIGHTS)
    b.count_bias = 0.3 if require == "number" else 0.0
    b.want_long = require == "long"
    b.neg_relatives = require == "negation"
    b.future_relatives = require in ("relative", "tense")
    if require == "long":
        c = 0.9 + 0.1 * r.random()
    elif require == "relative":
        c = max(c, 0.5)
    elif require == "tense":
        tense = _pick(r, ("past", "future", "progressive"))
    if (require is None and r.random() < 0.03) or (require == "number" and r.random() < 0.1):
        return age_sentence(b, level, tense)
    question = require == "wh" or (require is None and r.random() < 0.15 and c < 0.7)
    if question:
        wh = _pick(r, _WH_KINDS) if (require == "wh" or r.random() < 0.5) else None
        if wh == "time" and tense == "progressive":
            tense = "past"  # (언제 걷고 있니? asks the time of what is going on now)
        cl = b.make_clause(min(c, 0.5), tense=tense, wh=wh, topic=r.random() < 0.5
                           and wh != "subj", question=True)
        if wh == "subj":
            cl.subj = b.wh_np(True, "person")
            cl.topic = False
        elif wh == "obj":
            cl.obj = b.wh_np(cl.obj.human, cl.obj.cls)
        elif wh == "rec":
            cl.rec = b.wh_np(True, "person")
        elif wh in ("goal", "place"):
            setattr(cl, wh, b.wh_np(False, "place"))
        tree = _no_double_subject(cl, True)
    else:
        depth = 2 if c > 0.55 else 1
        tree = b.tree(c, tense, depth, budget=b.level.max_clauses)
        introduce_referent(b, tree)
        negate_with_any(b, tree)
        if require == "negation" and isinstance(tree, Clause) and tree.neg is None:
            tree.neg = "long" if tree.adj or r.random() < 0.5 else "short"
    _clauses(tree)[0].opens = True
    if check and not story_ok(tree, question):
        return None
    if isinstance(tree, Sub) and tree.kind == "because" and isinstance(tree.main, Clause):
        going_on(tree.main)
    if isinstance(tree, Clause):
        one_off(tree, question)
        if check and tree.subj is not None and tree.subj.indefinite and \
                tree.tense == "present" and tree.en_tense is None and not tree.adj and \
                not habitual_marked(tree):
            return None  # (a new subject's event the English present cannot tell: "A dog
            #              finds this hunter", "A firefighter stands")
    last = _last_clause(tree)
    if level == "polite" and not question and last.subj is not None and last.subj.hon and \
            last.tense in ("present", "progressive") and not last.adj:
        level = "formal"  # 앉으세요, 가고 계세요 read as an order: 앉으십니다, 가고 계십니다
    ko, en, _ = b.render(tree, ("final", level, question))
    refs = double_object_refs(tree, en, question)
    ko_words, en_words, align = finish(ko, en, question)
    tags = node_tags(tree) | {level}
    if check and _repeats(ko_words):
        return None
    if question:
        tags.add("question")
        if isinstance(tree, Clause) and tree.wh:
            tags.add("wh")
    if depth_of(tree) >= 2:
        tags.add("nested")
    if len(en_words) >= b.level.long_words:
        tags.add("long")
    return Sentence(ko_words, en_words, align, frozenset(tags), refs,
                    frozenset(node_lemmas(tree)))


def introduce_referent(b: SentenceBuilder, tree) -> None:
    """Now and then the subject of a statement's first clause -- a narrative opening -- is
    introduced as "a": with the counter phrase where the noun has a counter (돼지 한 마리가
    "A pig ...", 농구 선수 한 명이 "A basketball player ..."), else with 한 before it (한
    소년이 ...); a bare noun stays "the" (see :mod:`.articles`). Not on names, plurals,
    possessed, generic or contrasted subjects, nor with 한 before a noun that it would turn
    into a counter (한 개), nor in a sentence that only describes (한 학교가 조용하다 "A
    school is quiet")."""
    if isinstance(tree, Coord) and tree.kind == "but":
        return
    first = tree
    while isinstance(first, Coord):
        first = first.left
    if isinstance(first, Sub) and isinstance(first.main, Coord):
        return  # (a cause before a scene is said of a topic)
    if isinstance(first, Sub) and first.main.obj is not None and \
            first.main.obj.rel_subj and not first.main.ko_subj:
        return  # (a subject with 한 is no topic: 남자 한 명이 배고프면 [아이가 산] 포도를)
    node = tree
    while not isinstance(node, Clause):
        node = node.sub if isinstance(node, Sub) else node.left
    np = node.subj
    if np is None or not node.ko_subj or node.also or (node is tree and node.adj) or \
            np.name or np.plural or np.rel or np.cls not in ("person", "animal") or \
            np.head in _ONE_OF_A_KIND or \
            np.indefinite or np.generic or "possessive" in np.tags or "|" in np.head or \
            (np.head in HAN_AMBIGUOUS and not np.counter) or len(np.en) < 2 or np.en[0][0] != "the":
        return
    if b.rng.random() >= 0.15:
        return
    kd = K("한")
    if np.counter:  # 돼지 한 마리가, 농구 선수 한 명이: the counter phrase a native uses
        head, kc = np.ko[-1], K(np.counter)
        np.ko.extend([kd, kc])
        for pair in np.en:  # the noun aligns to the counter too ("pig" <- 돼지, 마리가)
            if pair[1] is head:
                pair[1] = (head, kc)
    else:
        np.ko.insert(0, kd)
    np.en[0] = [E.indefinite_article(np.en[1][0]), kd]
    np.indefinite = True
    np.tags.add("indefinite")


def negate_with_any(b: SentenceBuilder, tree) -> None:
    """Now and then a negated statement's subject becomes 어떤 N도 "no N": 어떤 학생도 사과를 안
    먹었다 "No student ate the apple" (어떤 N도 needs the negation: 어떤 학생도 먹었다 is not
    Korean). Not on names, plurals, counted, possessed, generic or modified-by-relative
    subjects, nor with 알다 / 있다, whose negation is a word of its own (모르다, 없다); only in
    a sentence of one clause, since 어떤 N도 would also rule a clause joined to it (어떤 학생도
    사과를 안 먹고 빵을 먹었다 is not Korean)."""
    if not isinstance(tree, Clause):
        return
    for cl in _clauses(tree):
        np = cl.subj
        if cl.neg is None or cl.ellipsis or cl.also or cl.wh is not None or not cl.ko_subj \
                or cl.en_pron or np is None or np.name or np.plural or np.rel or \
                np.indefinite or np.generic or "possessive" in np.tags or "|" in np.head or \
                len(np.en) < 2 or np.en[0][0] != "the" or \
                KO.negative_of(cl.pred.head if cl.adj else cl.pred.ko):
            continue
        if b.rng.random() >= 0.2:
            continue
        kd = K("어떤")
        np.ko.insert(0, kd)
        np.en[0] = ["no", kd]
        np.indefinite = True
        np.tags.add("any")
        cl.no_one = True
        cl.topic = False


def one_off(cl: Clause, question: bool = False) -> None:
    """A sentence of one clause whose activity verb (no object) is in the Korean present
    tells what is going on, not a habit, unless an adverb says so: 고양이가 울어요 "The cat
    is crying", 말이 공원에서 논다 "The horse is playing in the park" (the English simple
    present would read "cries (as a habit)"); 자주 울어요 stays "often cries". So does any
    verb of a subject just introduced (송아지 한 마리가 우유를 마셔요 "A calf is drinking
    milk"); a known subject with a generic object states a habit (김지우가 커피를 마셔요
    "Kim Jiwoo drinks coffee"), while one thing picked out is one event (이 차를 팔아요 "is
    selling this car", 달걀 아홉 개를 요리한다 "is cooking nine eggs"). Questions alike: 저
    여자들이 공원에서 울어요? "Are those women crying in the park?"; a question about a
    deed asks what is going on whatever its object (무엇을 옮겨요? "What is he moving?"),
    but not of an instant (잃어버리다: "Why does she lose ...?")."""
    if cl.tense != "present" or cl.adj or cl.neg is not None or cl.also or \
            not isinstance(cl.pred, Verb) or cl.pred.stative or (
                cl.pred.frame != "I" and not (cl.subj is not None and cl.subj.indefinite)
                and not _specific(cl.obj) and not question) or \
            question and cl.pred.ko in _PUNCTUAL or cl.wh in ("why", "time") or \
            habitual_marked(cl) or cl.pred.state_en or (
                cl.time is not None and cl.time[0][0].text not in ("지금", "오늘") and
                not cl.subj.indefinite):
        return  # (10시에 쇼핑해요: a plan or a habit, not "is going shopping at ten"; of a
    #           new subject a plan: "A hero is calling Ko Jian on Saturday")
    cl.en_tense = "progressive"


_DAYS = frozenset("Monday Tuesday Wednesday Thursday Friday Saturday Sunday weekend".split())


def _a_day(t) -> bool:
    """Whether the time adverbial ``t`` (a lexicon TIMES entry) names a day: with the plain
    present (화요일에 김밥을 맛봐요) a reader hesitates between a habit ("on Tuesdays") and a
    plan ("on Tuesday"), so the plain present draws none."""
    return bool(_DAYS & set(t[1]))


def _specific(np: NP | None) -> bool:
    """Whether an object names particular things (this car, Kim Minjun's bag, nine eggs, the
    bag that ...), not a kind (coffee, strawberries): with it a present verb tells one event."""
    if np is None or np.generic or not np.en or np.head == "":
        return False
    first = np.en[0][0]
    return first in ("this", "that", "these", "those") or first.endswith("'s") or \
        np.indefinite or np.rel or (first == "the" and not np.plural)


def going_on(cl: Clause) -> None:
    """The effect of a cause in the Korean present happens now: 피곤해서 자요 "is sleeping
    because she is tired", 배고파서 저 당근을 먹어요 "is eating that carrot" (the simple
    present would state a habit). Not for states, statives, negations or habits."""
    if cl.tense != "present" or cl.adj or cl.neg is not None or not isinstance(cl.pred, Verb) \
            or cl.pred.stative or cl.pred.state_en or habitual_marked(cl) or (
                cl.time is not None and cl.time[0][0].text not in ("지금", "오늘")):
        return
    cl.en_tense = "progressive"


def habitual_marked(cl: Clause) -> bool:
    """Whether an adverb marks the clause as a habit (매일, 자주, 가끔)."""
    if cl.time is not None and cl.time[0] and cl.time[0][0].text.startswith("매일"):
        return True
    return cl.manner is not None and cl.manner.ko in _HABITUAL_ADVERBS


def _clauses(node) -> list:
    """The finite clauses of a tree, left to right."""
    if isinstance(node, Clause):
        return [node]
    if isinstance(node, Sub):
        return _clauses(node.sub) + _clauses(node.main)
    return _clauses(node.left) + _clauses(node.right)


def age_sentence(b: SentenceBuilder, level: str, tense: str) -> Sentence:
    """Ages with the counter 살 and a native numeral: 소년은 스무 살이다 -> "The boy is 20 years
    old." (English: one to ten in words); 몇 살이니? -> "How old is the boy?"."""
    r = b.rng
    tense = "past" if tense == "past" else "present"
    subj = b.subject_np(("person",), 1, 0.3)
    if subj.plural or len(subj.ko) > 2 or subj.hon:  # (an honoured age is 연세: not drawn)
        subj = b.name_np()
    question = r.random() < 0.2
    # a neutral statement about a named person's age takes 은/는 (백진영은 72살이다); an
    # indefinite subject never does (한 소년이 스무 살이다, not 한 소년은)
    topic = not subj.indefinite  # 손동현의 아들은 서른여덟 살이다: a statement about him
    subj.ko[-1].text = attach(subj.ko[-1].text, "은/는" if topic else "이/가")
    be = E.be_form(tense, False)
    tags = {"number", "age", tense, level}
    if question:
        kn = K("몇")
        kc = K(KO.copula("살", level, tense, True))
        en = [["how", kn], ["old", kc], [be, kc]] + subj.en
        tags |= {"question", "wh"}
    else:
        n = r.randint(*age_range(subj.head))  # 아이 3-12, 노인 65-99 (lexicon.age_range);
        # native, like every count up to 99: 스무 살 "twenty (20)"
        kn = K(native_numeral(n))
        kc = K(KO.copula("살", level, tense))
        num = [E.number_text(n), kn]
        en = subj.en + [[be, kc], num, ["year" if n == 1 else "years", kc], ["old", kc]]
    ko = subj.ko + ([kn] if kn is not None else []) + [kc]
    ko_words, en_words, align = finish(ko, en, question)
    return Sentence(ko_words, en_words, align, frozenset(tags | subj.tags), (),
                    frozenset(subj.lemmas))
