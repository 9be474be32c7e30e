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

from companion.data.kosynth import english as E
from companion.data.kosynth import korean as KO
from companion.data.kosynth.hangul import attach
from companion.data.kosynth.level import Level, resolve_level
from companion.data.kosynth.lexicon import (ANIMATE, HAN_AMBIGUOUS, Adjective, Lexicon, Noun,
                                            Verb, select_lexicon)
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
    "two adjectives are joined with -고: 착하고 조용한 'nice quiet'",
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
    "(방이 크고 작은 소녀가 would read 'the big and small girl')",
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

    # ------------------------------------------------------------------ noun phrases
    def name_np(self) -> NP:
        r = self.rng
        s, g = _pick(r, self.lex.surnames), _pick(r, self.lex.given_names)
        k = K(s.ko + g.ko)
        return NP([k], [[s.en, k], [g.en, k]], human=True, name=True, cls="person",
                  tags={"name"}, lemmas={s.key, g.key}, head=k.text)

    def adjective_tokens(self, adjs: list) -> tuple[list, list]:
        """Korean tokens and English words of stacked adjectives: every adjective but the
        last takes -고 (착하고 조용한 "nice quiet"); 호기심 많은 "curious" is two eojeols
        aligned to one English word."""
        ko: list = []
        en: list = []
        last = len(adjs) - 1
        for i, a in enumerate(adjs):
            irr = a.irr or None
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
                other_than: str | None = None, avoid_scale: str | None = None) -> NP:
        """A common-noun phrase of one of ``classes``: [poss] [rel] [adj] N [num counter].

        At most two adjectives, of different scales (no "big small", no "big long"), none of
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
        if cands and r.random() < c * 0.8:
            a1 = _pick(r, cands)
            if a1.scale != avoid_scale:
                adjs.append(a1)
                if r.random() < c * 0.4:
                    a2 = _pick(r, cands)
                    if a2.scale != a1.scale and a2.scale != avoid_scale:
                        adjs.append(a2)
                        adjs.sort(key=lambda a: E.adjective_rank(a.en))  # "big red"
        want_rel = allow_rel and depth < 2 and r.random() < c * 0.6 and bool(
            lex.subj_verbs.get(noun.ko) or lex.obj_verbs[noun.ko])
        counter = noun.counter
        x = r.random()
        if allow_count and counter and not noun.mass and not noun.plural_only and \
                x < 0.18 + c * 0.1 + self.count_bias:
            mode = "count"
        elif noun.mass:
            mode = "the"
        elif x < 0.30:
            mode = "plural" if cls in _ANIMATE and r.random() < 0.7 else "the"
        elif x < 0.38 and not want_rel:
            mode = "dem"
        elif x < 0.46 and not want_rel and not noun.plural_only and not other:
            mode = "indef"
        else:
            mode = "the"
        if noun.plural_only:
            plural = True
        num_en: list = []
        counter_k = None
        if mode == "count":
            n = _pick(r, (1, 2, 2, 3, 3, 4, 5, 6, 7, 8, 9, 10, 12, 20)) if r.random() < 0.6 \
                else r.randint(2, 99)
            plural = n > 1
            tags.add("number")
            if r.random() < 0.5:
                counter_k = K(f"{n}{counter}")
                post_ko = [counter_k]
                num_en = [[str(n), counter_k]]
                tags.add("digits")
            else:
                kn, counter_k = K(native_numeral(n)), K(counter)
                post_ko = [kn, counter_k]
                num_en = [[E.number_word(n), kn]]
        elif mode == "plural":
            plural = True
            head.text += "들"
            tags.add("plural")
            det = [["the", head]]
        elif mode == "dem":
            dem = _pick(r, ("이", "저"))
            kd = K(dem)
            pre_ko.append(kd)
            if cls in _ANIMATE and r.random() < 0.3:
                plural = True
                head.text += "들"
                tags.add("plural")
            word = {("이", False): "this", ("이", True): "these", ("저", False): "that",
                    ("저", True): "those"}[dem, plural]
            det = [[word, kd]]
        elif mode == "indef":
            ind = K(_pick(r, ("어떤", "한")))
            if noun.ko in HAN_AMBIGUOUS:  # 한 개 reads "one item": 어떤 개 "a dog"
                ind.text = "어떤"
            pre_ko.append(ind)
            first = adjs[0].en if adjs else noun.en
            det = [[E.indefinite_article(first), ind]]
            tags.add("indefinite")
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
        rel = self.relative(noun, depth + 1, c, plural) if want_rel else None
        poss = None
        if mode == "the" and rel is None and depth < 2 and cls != "person" and not other and \
                r.random() < c * 0.25:
            poss = self.name_np() if r.random() < 0.5 else self.noun_np(
                ("person",), depth=2, c=0.0, allow_count=False, allow_rel=False)
            if poss.plural or len(poss.ko) > 1:
                poss = self.name_np()
            poss.ko[-1].text += "의"
            poss.en[-1][0] += "'s"
            det = []
            tags.add("possessive")
        # Korean: [poss] [rel] [dem/ind] [adj...] head [num counter]
        ko = (poss.ko if poss else []) + (rel.ko if rel else []) + pre_ko
        adj_pairs: list = []
        if adjs:
            adj_ko, adj_pairs = self.adjective_tokens(adjs)
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
        if rel:
            en.extend(rel.en)
            tags |= rel.tags
            lemmas |= rel.lemmas
        if poss:
            tags |= poss.tags
            lemmas |= poss.lemmas
        np = NP(ko, en, plural=plural, human=human, cls=cls, tags=tags, lemmas=lemmas,
                rel=rel is not None, indefinite=mode in ("indef", "count"), head=noun.ko)
        np.prep = noun.prep
        return np

    def subject_np(self, classes: tuple[str, ...], depth: int, c: float,
                   other_than: str | None = None, avoid_scale: str | None = None) -> NP:
        """A person or animal NP; a quarter of the people are named (김민준). A name never
        repeats ``other_than`` (no 이지우가 이지우에게); a noun takes 다른 (see noun_np)."""
        if "person" in classes and self.rng.random() < 0.25:
            for _ in range(8):
                np = self.name_np()
                if np.head != other_than:
                    return np
        return self.noun_np(classes, depth, c, other_than=other_than, avoid_scale=avoid_scale)

    # ------------------------------------------------------------------ relative clauses
    def relative(self, head: Noun, depth: int, c: float, plural_head: bool = False) -> NP:
        """A relative clause modifying ``head``: returns an NP holding only the clause
        (Korean before the head, English after it)."""
        r = self.rng
        cls = head.cls
        subj_verbs = self.lex.subj_verbs.get(head.ko, ())
        obj_verbs = self.lex.obj_verbs[head.ko]
        tense = _pick(r, ("present", "present", "past", "past", "future", "progressive"))
        neg = r.random() < 0.12
        if subj_verbs and (not obj_verbs or r.random() < 0.5):
            v = _pick(r, subj_verbs)
            if v.stative and tense == "progressive":
                tense = "present"
            clause = Clause(None, v, tense)
            if v.frame == "T":  # not 학생을 만난 학생: 다른 학생을 만난 학생
                clause.obj = self.noun_np((), depth, c * 0.7, allow_rel=depth < 2,
                                          noun=_pick(r, v.objects), other_than=head.ko)
            gap = "subj"
        elif obj_verbs:
            v = _pick(r, obj_verbs)
            if v.stative and tense == "progressive":
                tense = "present"
            clause = Clause(self.verb_subject(v, 2, c * 0.5, other_than=head.ko), v, tense)
            gap = "obj"
        else:
            raise LookupError(cls)
        # a place only between an argument and the verb (소녀가 가게에서 산 사과, 사과를
        # 가게에서 산 소녀): at the clause's left edge (가게에서 기침하는 여자) a reader may
        # give it to the verb outside, and after an object with its own relative clause the
        # English would give it to the inner verb
        if r.random() < c * 0.3 and (gap == "obj" or (clause.obj is not None
                                                      and not clause.obj.rel)):
            clause.place = self.place_np(c * 0.5)
        if neg:
            clause.neg = "long"
            if tense == "progressive":  # 먹지 않는 = "who does not eat"
                tense = clause.tense = "present"
        ko, _ = self.ko_args(clause, in_relative=True)
        group = KO.adnominal_group(v.ko, _ko_tense(v, tense), negation=neg,
                                   irr=v.irr or None)
        vks = [K(w) for w, _ in group]
        ko.extend(vks)
        roles = role_map(vks, group)
        pron = "who" if cls == "person" else "that"
        last = vks[-1]
        en = [[pron, last]]
        if gap == "obj":
            en.extend(clause.subj.en)
            plural = clause.subj.plural
        else:
            plural = plural_head
        en.extend(self.en_verb(clause, roles, last, plural=plural))
        en.extend(self.en_args(clause))
        tags = {"relative"} | _tense_tags(tense) | ({"negation"} if neg else set())
        lemmas = {v.key}
        for np in (clause.subj, clause.obj, clause.place):
            if np is not None:
                tags |= np.tags
                lemmas |= np.lemmas
        return NP(ko, en, tags=tags, lemmas=lemmas)

    def place_np(self, c: float) -> NP:
        return self.noun_np(("place",), depth=2, c=c, allow_count=False, allow_rel=False,
                            allow_home=True)

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
            last.text = "어디에서" if cl.wh == "place" else last.text + "에서"
            place = cl.place.ko
        subj: list = []
        if cl.subj is not None:
            part = "은/는" if cl.topic and not in_relative and not cl.subj.indefinite \
                else "이/가"
            if cl.wh == "subj":
                cl.subj.ko[-1].text = "누가"
            elif cl.also:
                cl.subj.ko[-1].text += "도"
            else:
                cl.subj.ko[-1].text = attach(cl.subj.ko[-1].text, part)
            subj = cl.subj.ko
        # arguments: a fixed postposition (에게/에 do not alternate), or the wh-word in situ
        args = [(cl.subj, subj)]
        for phrase, role, particle, wh_word in ((cl.rec, "rec", "에게", "누구에게"),
                                                (cl.goal, "goal", "에", "어디에")):
            if phrase is not None:
                last = phrase.ko[-1]
                last.text = wh_word if cl.wh == role else last.text + particle
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
        elif cut:
            for _, toks in args[:cut]:
                ko.extend(toks)
            ko += time + wh_k + place
            for _, toks in args[cut:]:
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
        before, after = E.verb_phrase(_en_lemma(cl), tense or cl.tense, plural_subject=plural,
                                      negated=cl.neg is not None, question=question,
                                      adjective=cl.adj)
        out = [[w, self._role_k(role, roles, last)] for w, role in before + after]
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
        if cl.obj is not None and cl.wh != "obj":
            if cl.only:
                en.append(["only", cl.obj.ko[-1]])
            en.extend(cl.obj.en)
        if cl.rec is not None:
            k = cl.rec.ko[-1]
            if v.prep:  # "to the girl"; stranded in questions: "Who ... give it to?"
                en.append([v.prep, k])
            if cl.wh != "rec":
                en.extend(cl.rec.en)
        if cl.goal is not None and cl.wh != "goal":
            home = cl.goal.cls == "place" and cl.goal.en[-1][0] == "home" and len(cl.goal.en) == 1
            if not home:
                en.append([v.prep, cl.goal.ko[-1]])
            en.extend(cl.goal.en)
        if cl.instr is not None:
            k = cl.instr.ko[-1]
            if cl.instr.cls == "vehicle":  # "by bus": no article
                en.append(["by", k])
                en.extend([w, k] for w, _ in cl.instr.en)
            else:
                en.append(["with", k])
                en.extend(cl.instr.en)
        if cl.manner is not None:
            en.extend([w, cl.manner_k] for w in cl.manner.en.split())
        if cl.place is not None and cl.wh != "place" and not fronted:
            en.extend(self._place_en(cl.place))
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
            out.extend(self._place_en(cl.place))
        return out

    @staticmethod
    def _place_en(np: NP) -> list:
        k = np.ko[-1]
        if len(np.en) == 1 and np.en[0][0] == "home":
            return [["at", k], ["home", k]]
        return [[np.prep, k]] + np.en

    # ------------------------------------------------------------------ clause choice
    def verb_subject(self, v: Verb, depth: int, c: float, other_than: str | None = None) -> NP:
        """A subject the verb accepts: a person (often a name), an animal, or one of the
        nouns it is restricted to (날다 -> birds); 다른 when it is ``other_than``."""
        r = self.rng
        if v.subj_only:
            return self.noun_np((), depth, c, noun=self.lex.noun_by_ko[_pick(r, v.subj_only)],
                                other_than=other_than)
        person = "person" in v.subj and (len(v.subj) == 1 or r.random() < 0.75)
        return self.subject_np(("person",) if person else ("animal",), depth, c,
                               other_than=other_than)

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
        kind = r.random()
        if wh in ("obj",):
            kind = 0.3
        elif wh == "rec":
            kind = 0.95 if r.random() < 0.6 else 0.8
        elif wh == "goal":
            kind = 0.7
        elif wh == "place" and kind < 0.15:
            kind = 0.3
        if kind < 0.15 and tense != "progressive":
            if wh == "subj":
                adj = _pick(r, lex.person_adj)
                subj = self.name_np()
            else:
                adj = _pick(r, lex.adjectives)
                if adj.person and r.random() < 0.5:
                    subj = self.subject_np(("person",), 0, c, avoid_scale=adj.scale)
                else:
                    subj = self.noun_np((), 0, c, noun=_pick(r, adj.nouns),
                                        avoid_scale=adj.scale)
            cl = Clause(subj, adj, tense)
        elif kind < 0.55:
            pool = lex.dynamic_transitive if tense == "progressive" else lex.transitive
            v = _pick(r, pool)
            while (wh == "obj" and v.ko not in lex.wh_obj_ok) or (
                    wh == "subj" and "person" not in v.subj):
                v = _pick(r, pool)
            cl = Clause(self.verb_subject(v, 0, c), v, tense)
            same = None if wh == "subj" else cl.subj.head
            cl.obj = self.noun_np((), 0, c, noun=_pick(r, v.objects), other_than=same)
            if v.instr and r.random() < 0.15 + c * 0.2:
                cl.instr = self.noun_np((), 1, c * 0.5, allow_count=False, allow_rel=False,
                                        noun=_pick(r, v.instr))
        elif kind < 0.68:
            v = _pick(r, lex.intransitive)
            while wh == "subj" and "person" not in v.subj:
                v = _pick(r, lex.intransitive)
            cl = Clause(self.verb_subject(v, 0, c), v, tense)
        elif kind < 0.80:
            v = _pick(r, lex.motion)
            while wh == "goal" and v.en.endswith("back"):  # not "Where does he go back?"
                v = _pick(r, lex.motion)
            cl = Clause(self.verb_subject(v, 0, c), v, tense)
            goal = _pick(r, lex.places)
            if wh == "goal":
                goal = _pick(r, lex.places[:3])
            cl.goal = self.noun_np(("place",), 1, c * 0.7, allow_count=False, noun=goal)
            if v.instr and r.random() < 0.25:
                veh = _pick(r, v.instr)
                k = K(veh.ko)
                cl.instr = NP([k], [[veh.en, k]], cls="vehicle", lemmas={veh.key})
        elif kind < 0.9:
            v = _pick(r, lex.ditransitive)
            cl = Clause(self.verb_subject(v, 0, c), v, tense)
            same = None if wh == "subj" else cl.subj.head
            cl.rec = self.subject_np(("person",), 1, c * 0.7, other_than=same)
            cl.obj = self.noun_np((), 1, c, noun=_pick(r, v.objects), other_than=same)
        else:
            v = _pick(r, lex.recipient)
            cl = Clause(self.verb_subject(v, 0, c), v, tense)
            same = None if wh == "subj" else cl.subj.head
            rec = _pick(r, v.objects)
            if rec.cls == "person" or wh == "rec":
                cl.rec = self.subject_np(("person",), 1, c * 0.7, other_than=same)
            else:
                cl.rec = self.noun_np((), 1, c * 0.7, noun=rec, other_than=same)
        # adjuncts (none beside a stranded preposition: "Who ... get angry at?")
        post_rel = (cl.obj is not None and cl.obj.rel and wh != "obj") or \
            (cl.rec is not None and cl.rec.rel and wh != "rec") or \
            (cl.goal is not None and cl.goal.rel and wh != "goal")
        quiet = question and post_rel
        if wh == "rec":
            pass
        elif not cl.adj and cl.goal is None and wh != "place" and \
                r.random() < 0.15 + c * 0.4 and not quiet:
            cl.place = self.place_np(c)
        elif wh == "place":
            cl.place = self.place_np(0.0)
        if cl.place is not None and wh is None and r.random() < 0.3:
            cl.place_first = True
        # a time adverbial, not with a lasting property ("the chair was low yesterday"), and
        # "now" not with a simple present verb ("eats the apple now")
        if wh not in ("time", "rec") and r.random() < 0.15 + c * 0.4 and not quiet and \
                (not cl.adj or cl.pred.stage):
            opts = [t for t in lex.times if tense in t[2] and
                    not (tense == "present" and t[0][0] == "지금" and not cl.adj)]
            if r.random() < 0.2 and tense != "progressive":
                hour = r.randint(1, 12)
                kt = K(f"{hour}시에")
                cl.time = ([kt], [["at", kt], [str(hour), kt], ["o'clock", kt]], "")
                cl.subj.tags |= {"digits", "number"}
            elif opts:
                t = _pick(r, opts)
                ks = [K(w) for w in t[0]]
                if len(ks) > 1:  # 다음 주에: next <-> 다음, week <-> 주에
                    cl.time = (ks, [[t[1][0], ks[0]], [t[1][1], ks[1]]], t[2])
                else:
                    cl.time = (ks, [[w, ks[0]] for w in t[1]], t[2])
        state = tense == "progressive" and not cl.adj and cl.pred.state_en  # 누워 있다
        if not cl.adj and not cl.pred.stative and r.random() < c * 0.3 and not post_rel \
                and not state:
            cl.manner = _pick(r, lex.adverbs)
            cl.manner_k = K(cl.manner.ko)
        cl.wh = wh
        cl.topic = topic
        if wh in ("time", "why"):
            cl.wh_k = K("언제" if wh == "time" else "왜")
        return cl


def _tense_tags(tense: str) -> set:
    return {tense}


def _holds_relative(cl: Clause) -> bool:
    """Whether an argument of the clause holds a relative clause (adverbials then follow it)."""
    return any(np is not None and np.rel for np in (cl.subj, cl.rec, cl.goal, cl.obj))


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
    return p.en


# ---------------------------------------------------------------------- sentence trees
@dataclass
class Sub:
    """Subordination: ``sub`` is an adverbial clause (because/when/if) of ``main``."""

    kind: str
    sub: object
    main: object


@dataclass
class Coord:
    """Coordination with -고 (and) or -지만 (but)."""

    kind: str
    left: object
    right: object


_CONJ_EN = {"because": "because", "when": "when", "if": "if", "and": "and", "but": "but"}
_WH_EN = {"subj": "who", "rec": "who", "goal": "where", "place": "where", "time": "when",
          "why": "why"}


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
    pre = [(attach(p.pre, "이/가"), "PRE")] if cl.adj and p.pre else []  # 호기심이 많다
    verb = p.head if cl.adj else p.ko
    ko_tense = _ko_tense(p, cl.tense)
    if form[0] == "final":
        group = pre + list(KO.verb_group(verb, form[1], ko_tense, question=form[2],
                                         negation=neg, adj=cl.adj, irr=irr))
        ks = [K(w) for w, _ in group]
        return ks, role_map(ks, group)
    kind = form[1]
    tense = "past" if cl.tense == "past" else "present"
    v_role = "V"
    if neg is not None and KO.negative_of(verb):  # 모르고, 몰라서, 맛없지만
        verb, v_role, neg, irr = KO.negative_of(verb), "V+NEG", None, None
    if ko_tense == "resultative" and neg is not None:  # 앉아 있지 않지만
        head = [(KO.infinitive(verb, irr), "V"), ("있지", "AUX")]
        tail = KO.connective("않다", kind, "present", adj=True)
        tail_role = "NEG"
    elif ko_tense == "resultative":  # 앉아 있어서
        head = [(KO.infinitive(verb, irr), v_role)]
        tail = KO.connective("있다", kind, "present")
        tail_role = "AUX"
    elif cl.tense == "progressive" and neg is not None:  # 먹지 않고 있지만
        head = [(KO.stem(verb) + "지", "V"), ("않고", "NEG")]
        tail = KO.connective("있다", kind, "present")
        tail_role = "AUX"
    elif cl.tense == "progressive":
        head = [(KO.stem(verb) + "고", v_role)]
        tail = KO.connective("있다", kind, "present")
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
        ko, _ = self.ko_args(cl)
        pks, roles = ko_predicate(cl, form)
        ko.extend(pks)
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
            if fronted:  # "Yesterday the boy met the girl who ...", not "... who ... yesterday"
                en.extend(self.fronted_adverbials(cl))
            en.extend(cl.subj.en)
            en.extend(self.en_verb(cl, roles, last, plural=plural))
        elif cl.wh == "subj":
            en.append(["who", cl.subj.ko[-1]])
            en.extend(self.en_verb(cl, roles, last, plural=False))
        else:
            before, after = E.verb_phrase(_en_lemma(cl), cl.tense, plural_subject=plural,
                                          negated=cl.neg is not None, question=True,
                                          adjective=cl.adj)
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
            return s_ko + m_ko, m_en + [[_CONJ_EN[node.kind], s_conj]] + s_en, m_conj
        l_ko, l_en, l_conj = self.render(node.left, ("conn", node.kind))
        r_ko, r_en, r_conj = self.render(node.right, form)
        l_en[-1] = [l_en[-1][0] + ",", l_en[-1][1]]
        return l_ko + r_ko, l_en + [[_CONJ_EN[node.kind], l_conj]] + r_en, r_conj

    # ------------------------------------------------------------------ trees
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
        if not time:
            cl.time = None
        if rng.random() < neg_p:
            cl.neg = "short" if rng.random() < 0.5 and not cl.adj else "long"
        if cl.obj is not None and rng.random() < 0.06:  # 사과와 배를 -> the apple and the pear
            other = self.noun_np((), 1, c * 0.4, allow_rel=False,
                                 noun=_pick(rng, cl.pred.objects), other_than=cl.subj.head)
            if other.en[-1][0] != cl.obj.en[-1][0] and other.head != cl.obj.head:
                cl.obj = coordinate_nps(cl.obj, other)
        if cl.subj is not None and cl.subj.cls in _ANIMATE and rng.random() < 0.05:
            other = self.subject_np((cl.subj.cls,), 1, c * 0.4)
            taken = {h for np in (cl.obj, cl.rec) if np is not None for h in np.head.split("|")}
            if other.en[-1][0] != cl.subj.en[-1][0] and other.head != cl.subj.head and \
                    other.head not in taken:
                cl.subj = coordinate_nps(cl.subj, other)
        x = rng.random()
        if x < 0.04 and cl.subj is not None:
            cl.also = True
        elif x < 0.08 and cl.obj is not None and cl.neg is None:
            cl.only = True
        return cl

    def tree(self, c: float, tense: str, depth: int, topic_ok: bool = True, final: bool = True,
             budget: int = 4):
        """A clause, a Sub (adverbial clause + main clause), or at depth 2 a Coord of two
        such subtrees (nesting depth 2), with at most ``budget`` clauses (4 never binds)."""
        r = self.rng
        x = r.random()
        if depth <= 0 or x < 1.0 - c or budget < 2:
            return self.clause(c, tense, topic=topic_ok and r.random() < 0.5, time=final)
        if depth == 1 or x < 1.0 - c * 0.6:
            kind = _pick(r, ("because", "when", "if") if tense in ("present", "future")
                            else ("because", "when"))
            if kind == "if" and tense == "present" and r.random() < 0.5:
                tense = "future"
            if kind == "when" and tense == "progressive":
                kind = "because"
            st = self.sub_tense(kind, tense)
            sub = self.clause(c * 0.8, st, topic=False, time=False)
            main = self.clause(c * 0.8, tense, topic=topic_ok and r.random() < 0.5, time=final)
            return Sub(kind, sub, main)
        kind = "and" if tense == "future" or r.random() < 0.6 else "but"
        left = self.tree(c * 0.9, tense, 1, topic_ok, final=False, budget=budget - 1)
        right = self.tree(c * 0.9, tense, 1, topic_ok, final,
                          budget=budget - clause_count(left))
        # 방이 크고 작은 소녀가 ... reads "the big and small girl": after an adjective in -고
        # the next clause must not open with an adjective (a few redraws)
        if kind == "and" and _closes_with_adjective(left):
            for _ in range(4):
                if not self.opens_with_adjective(right):
                    break
                right = self.tree(c * 0.9, tense, 1, topic_ok, final,
                                  budget=budget - clause_count(left))
        return Coord(kind, left, right)

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


def coordinate_nps(a: NP, b: NP) -> NP:
    """NP coordination with 와/과: 소년과 소녀 -> "the boy and the girl" (plural)."""
    a.ko[-1].text = attach(a.ko[-1].text, "와/과")
    return NP(a.ko + b.ko, a.en + [["and", a.ko[-1]]] + b.en, plural=True,
              human=a.human and b.human, cls=a.cls, tags=a.tags | b.tags | {"np_coordination"},
              lemmas=a.lemmas | b.lemmas, rel=a.rel or b.rel,
              indefinite=a.indefinite or b.indefinite, head=f"{a.head}|{b.head}")


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
    """Finite clauses joined by subordination and coordination (relatives not counted)."""
    if isinstance(node, Clause):
        return 1
    if isinstance(node, Sub):
        return clause_count(node.sub) + clause_count(node.main)
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
    if u < 0.85:
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
DOUBLE_OBJECT = frozenset("give send show lend sell teach pass toss read".split())


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
    """Punctuate, capitalise and turn K identities into Pharaoh index pairs."""
    mark = "?" if question else "."
    words: list[str] = []
    links = set()
    for k in ko:
        k.index = -1
    for i, k in enumerate(ko):
        k.index = i
    for word, al in en:
        for w in word.split(" "):  # "social studies" -> two words, same links
            j = len(words)
            words.append(w)
            if type(al) is K:
                if al.index < 0:
                    raise KeyError(al.text)
                links.add((al.index, j))
            elif al is not None:
                for k in al:
                    if k.index < 0:
                        raise KeyError(k.text)
                    links.add((k.index, j))
    ko[-1].text += mark
    words[-1] += mark
    words[0] = words[0][0].upper() + words[0][1:]
    return [k.text for k in ko], words, tuple(sorted(links))


def make_sentence(b: SentenceBuilder, require: str | None = None) -> Sentence:
    """One sentence pair from builder ``b``; ``require`` biases toward a phenomenon."""
    r = b.rng
    level = _pick(r, KO.LEVELS)
    c = sample_complexity(r)
    tense = _pick(r, _TENSE_WEIGHTS)
    b.count_bias = 0.3 if require == "number" else 0.0
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
        tree = cl
    else:
        depth = 2 if c > 0.55 else 1
        tree = b.tree(c, tense, depth, budget=b.level.max_clauses)
        if require == "negation" and isinstance(tree, Clause) and tree.neg is None:
            tree.neg = "long" if tree.adj or r.random() < 0.5 else "short"
    ko, en, _ = b.render(tree, ("final", level, question))
    refs = double_object_refs(tree, en, question)
    ko_words, en_words, align = finish(ko, en, question)
    tags = node_tags(tree) | {level}
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


def age_sentence(b: SentenceBuilder, level: str, tense: str) -> Sentence:
    """Ages with the counter 살: 소년은 스무 살이다 / 20살이다 -> "The boy is twenty (20) years
    old."; 몇 살이니? -> "How old is the boy?"."""
    r = b.rng
    tense = "past" if tense == "past" else "present"
    subj = b.subject_np(("person",), 1, 0.3)
    if subj.plural or len(subj.ko) > 2:
        subj = b.name_np()
    question = r.random() < 0.2
    topic = r.random() < 0.6 and not subj.indefinite  # 한 소년이 스무 살이다, not 한 소년은
    subj.ko[-1].text = attach(subj.ko[-1].text, "은/는" if topic else "이/가")
    be = E.be_form(tense, False)
    tags = {"number", "age", tense, level}
    if question:
        kn = K("몇")
        kc = K(KO.copula("살", level, tense, True))
        en = [["how", kn], ["old", kc], [be, kc]] + subj.en
        tags |= {"question", "wh"}
    else:
        n = r.randint(1, 99)
        if r.random() < 0.5:
            kn = K(native_numeral(n))
            kc = K(KO.copula("살", level, tense))
            num = [E.number_word(n), kn]
        else:
            kc = K(KO.copula(f"{n}살", level, tense))
            kn = None
            num = [str(n), kc]
            tags.add("digits")
        en = subj.en + [[be, kc], num, ["year" if n == 1 else "years", kc], ["old", kc]]
    ko = subj.ko + ([kn] if kn is not None else []) + [kc]
    ko_words, en_words, align = finish(ko, en, question)
    return Sentence(ko_words, en_words, align, frozenset(tags | subj.tags), (),
                    frozenset(subj.lemmas))
