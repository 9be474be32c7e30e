"""Challenge sentences the main grammar does not draw: 못 "cannot", 없다 "there is no / does not
have", 모르다 "does not know", the scope of negation under 다 "all", and the questions with
몇 "how many" and 무슨 "what (kind of)".

Each builder draws one short sentence from a :class:`~.grammar.SentenceBuilder` (its random
stream and its level's lexicon) and returns a :class:`~.grammar.Sentence` with its gold
alignment. The sentences are kept short on purpose -- a subject, at most an object or a
place, and the predicate -- so that a challenge item tests its phenomenon and little else.

Scope of negation, the two readings a translation must keep apart::

    학생들이 한 명도 안 왔다       "None of the students came."       (not even one)
    학생들이 다 오지는 않았다      "Not all of the students came."    (not > all)

(다 안 왔다 is left out: a Korean reader takes it either way -- "none came" or, as in 아직 다
안 왔다, "not all have come" -- and a challenge item must have one right answer.)
"""

from __future__ import annotations

from companion.data.kosynth import english as E
from companion.data.kosynth import korean as KO
from companion.data.kosynth.grammar import (NP, K, Sentence, SentenceBuilder, bare_plural,
                                            finish, generic_object, honoured)
from companion.data.kosynth.hangul import attach
from companion.data.kosynth.lexicon import Noun, Verb, can_subject


def _pick(b: SentenceBuilder, seq):
    return seq[int(b.rng.random() * len(seq))]


def _subject(b: SentenceBuilder, topic: bool) -> NP:
    """A person: a name or a bare "the N" (no adjective, count or relative clause), with its
    subject particle attached (은/는 when ``topic``)."""
    if b.rng.random() < 0.4:
        np = b.name_np()
    else:
        np = b.noun_np(("person",), 2, 0.0, allow_count=False, allow_rel=False)
    np.ko[-1].text = attach(np.ko[-1].text, "은/는" if topic else "이/가")
    return np


def _verb_en(verb: str, tense: str, plural: bool, *, negated: bool = False,
             question: bool = False) -> tuple[tuple, tuple]:
    return E.verb_phrase(verb, tense, plural_subject=plural, negated=negated, question=question)


def _group(verb: str, level: str, tense: str, question: bool = False,
           adj: bool = False, hon: bool = False) -> tuple[list, dict]:
    """Korean verb group as K tokens and its roles (V, AUX); ``hon``: an honoured subject
    (선생님, 할머니), whose verb takes -(으)시- (못하실 거예요, 걸으셨어요, 없으세요)."""
    group = KO.verb_group(verb, level, tense, question=question, adj=adj, hon=hon)
    ks = [K(w) for w, _ in group]
    return ks, {role: k for k, (_, role) in zip(ks, group)}


def _countable(n: Noun) -> bool:
    return bool(n.counter) and not n.mass and not n.plural_only and not n.bare


def _sentence(ko: list, en: list, question: bool, tags: set, lemmas: set) -> Sentence:
    words, en_words, align = finish(ko, en, question)
    return Sentence(words, en_words, align, frozenset(tags), (), frozenset(lemmas))


# ---------------------------------------------------------------------- negation

def _plain_verbs(b: SentenceBuilder, frame: str) -> tuple[Verb, ...]:
    """Dynamic verbs of a frame with a person subject, written in one word (not 미소 짓다) and
    not a posture verb (whose progressive is a state)."""
    return tuple(v for v in b.lex.verbs if v.frame == frame and not v.stative and not v.pre
                 and not v.state_en and "person" in v.subj)


#: bodily reflexes: nobody "cannot sneeze" in a neutral sentence
_REFLEX = frozenset("기침하다 하품하다 재채기하다 떨다 넘어지다 졸다".split())


#: verbs whose 못 in the past is a missed chance, not an inability: 올리브나무를 구경하지
#: 못했다 "did not get to see the olive tree" (not "could not look at"), with the English verb
#: 못 gives them in every tense (구경 못 한다 "cannot see")
_MISSED_CHANCE = {"구경하다": "see", "만나다": "meet", "방문하다": "visit", "여행하다": "tour",
                  "산책하다": "take a walk", "쇼핑하다": "go shopping"}


def mot_sentence(b: SentenceBuilder, level: str) -> Sentence:
    """못 "cannot": 소년이 사과를 못 먹었다 "The boy could not eat the apple."; 하다 verbs and
    a third of the others take the long form V-지 못하다 (공부하지 못했다)."""
    r = b.rng
    tense = _pick(b, ("present", "past", "past", "future"))
    v = _pick(b, [v for v in _plain_verbs(b, "T") + _plain_verbs(b, "I") if v.ko not in _REFLEX])
    subj = _subject(b, topic=r.random() < 0.5)
    obj = None
    if v.frame == "T":
        obj = b.noun_np((), 2, 0.0, allow_count=False, allow_rel=False,
                        noun=_pick(b, v.objects), other_than=subj.head)
        generic_object(obj)
        if tense == "present":  # an inability is general: "cannot eat carrots"
            bare_plural(obj)
        obj.ko[-1].text = attach(obj.ko[-1].text, "을/를")
    long = not KO.short_negation_ok(v.ko) or r.random() < 0.35
    if long:  # 먹지 못했다: "could" with the verb, "not" with 못했다
        kv = K(KO.stem(v.ko) + "지")
        ks, roles = _group("못하다", level, tense, hon=subj.hon)
        neg, aux = ks[0], roles.get("AUX", ks[0])
        pred = [kv] + ks
    else:  # 못 먹었다
        neg = K("못")
        ks, roles = _group(v.ko, level, tense, hon=subj.hon)
        kv, aux = roles["V"], roles.get("AUX", roles["V"])
        pred = [neg] + ks
    missed = v.ko in _MISSED_CHANCE
    if tense == "present":
        modal = [["cannot", neg]]
    elif tense == "past" and missed:  # "did not get to see"
        modal = [["did", neg], ["not", neg], ["get", neg], ["to", neg]]
    elif tense == "past":
        modal = [["could", (neg, kv)], ["not", neg]]
    else:
        modal = [["will", aux], ["not", neg], ["be", neg], ["able", neg], ["to", neg]]
    verb_en = _MISSED_CHANCE[v.ko] if missed else v.en
    en = subj.en + modal + [[w, kv] for w in verb_en.split()] + (obj.en if obj else [])
    ko = subj.ko + (obj.ko if obj else []) + pred
    lemmas = {v.key} | subj.lemmas | (obj.lemmas if obj else set())
    return _sentence(ko, en, False, {"negation", "mot", tense, level}, lemmas)


_HAVE = ("accessory", "toy", "book", "item", "container", "device", "instrument")


def eopda_sentence(b: SentenceBuilder, level: str) -> Sentence:
    """없다: possession (소년은 우산이 없다 "The boy does not have an umbrella") or existence
    (공원에 개가 없다 "There is no dog in the park")."""
    r = b.rng
    tense = _pick(b, ("present", "present", "past"))
    ks, roles = _group("없다", level, tense, adj=True)
    kv = roles["V"]
    aux = roles.get("AUX", kv)
    classes = [c for c in _HAVE if b.lex.nouns.get(c)]
    if r.random() < 0.5 and classes:  # possession
        subj = _subject(b, topic=True)
        if subj.hon:  # 선생님은 우산이 없으세요
            ks, roles = _group("없다", level, tense, adj=True, hon=True)
            kv = roles["V"]
            aux = roles.get("AUX", kv)
        noun = _pick(b, [n for c in classes for n in b.lex.nouns[c] if not n.abstract])
        kn = K(attach(noun.ko, "이/가"))
        art = [] if noun.mass or noun.plural_only else [[E.indefinite_article(noun.en), kn]]
        word = noun.plural if noun.plural_only else noun.en
        before, after = _verb_en("have", tense, subj.plural, negated=True)
        en = subj.en + [[w, aux if role == "AUX" else kv] for w, role in after] + art + \
            [[w, kn] for w in word.split()]
        ko = subj.ko + [kn] + ks
        lemmas = subj.lemmas | {noun.key}
        kind = "possession"
    else:  # existence
        place = b.place_np(0.0)
        place.ko[-1].text += "에"
        who = _pick(b, [n for c in ("person", "animal") for n in b.lex.nouns[c]
                        if not n.kin and not n.plural_only])
        kn = K(attach(who.ko, "이/가"))
        be = [["is" if tense == "present" else "was", kv]]
        en = [["there", kv]] + be + [["no", kv]] + [[w, kn] for w in who.en.split()] + \
            b._place_en(place)
        ko = place.ko + [kn] + ks
        lemmas = place.lemmas | {who.key}
        kind = "existence"
    return _sentence(ko, en, False, {"negation", "eopda", kind, tense, level}, lemmas)


def moreuda_sentence(b: SentenceBuilder, level: str) -> Sentence:
    """모르다, the negative of 알다: 소녀는 그 노래를 모른다 "The girl does not know the
    song" (a person or a piece of music). Present and past only: 모를 거예요 is a guess,
    "probably does not know", not "will not know"."""
    r = b.rng
    tense = _pick(b, ("present", "present", "past"))
    know = next((v for v in b.lex.verbs if v.ko == "알다"), None)
    subj = _subject(b, topic=r.random() < 0.6)
    people = [n for n in know.objects if n.cls in ("person", "music")] if know else []
    if people:  # a person or a song (not a place: "does not know the garage")
        noun = _pick(b, people)
        obj = b.noun_np((), 2, 0.0, allow_count=False, allow_rel=False, noun=noun,
                        other_than=subj.head)
    else:
        obj = b.name_np()
    for _ in range(8):  # (not 이서연이 이서연을 모른다)
        if obj.head != subj.head:
            break
        obj = b.name_np()
    obj.ko[-1].text = attach(obj.ko[-1].text, "을/를")
    ks, roles = _group("모르다", level, tense, hon=subj.hon)
    kv = roles["V"]
    aux = roles.get("AUX", kv)
    _, after = _verb_en("know", tense, subj.plural, negated=True)
    en = subj.en + [[w, aux if role == "AUX" else kv] for w, role in after] + obj.en
    lemmas = subj.lemmas | obj.lemmas | ({know.key} if know is not None else set())
    return _sentence(subj.ko + obj.ko + ks, en, False, {"negation", "moreuda", tense, level},
                     lemmas)


#: intransitive verbs that take the short negation 안 and read as one event of each subject
SCOPE_VERBS = frozenset("자다 웃다 울다 걷다 달리다 놀다 쉬다 일어나다 졸다 뛰다 싸우다 "
                        "떨다 넘어지다 날다 짖다 오다 가다".split())


def scope_sentence(b: SentenceBuilder, level: str) -> Sentence:
    """Negation and quantity: 아이들이 한 명도 안 잤다 "None of the children slept" (not even
    one) and 아이들이 다 자지는 않았다 "Not all of the children slept" (some did)."""
    r = b.rng
    tense = _pick(b, ("past", "past", "future"))
    verbs = [v for v in b.lex.verbs if v.ko in SCOPE_VERBS and v.frame == "I"] or \
        [v for v in b.lex.intransitive if not v.pre and not v.state_en]  # a small lexicon
    v = _pick(b, verbs)
    nouns = [n for c in ("person", "animal") for n in b.lex.nouns[c]
             if can_subject(v, n) and not n.kin and not n.plural_only]
    noun = _pick(b, nouns)
    ksubj = K(attach(noun.ko + "들", "이/가"))
    kall = K(_pick(b, ("다", "모두")))
    # 다 안 기침했다 is not Korean (안 goes inside a 하다 verb): those only say "not all"
    total = r.random() < 0.5 and KO.short_negation_ok(v.ko)
    _, after = _verb_en(v.en, tense, True)
    if total:  # 한 명도 안 잤다: "None of the children slept"
        kneg = K("안")
        ks, roles = _group(v.ko, level, tense, hon=honoured(noun))
        kv, aux = roles["V"], roles.get("AUX", roles["V"])
        counter = "분" if honoured(noun) else noun.counter or (
            "명" if noun in b.lex.nouns["person"] else "마리")
        kone, kc = K("한"), K(counter + "도")
        ko = [ksubj, kone, kc, kneg] + ks
        head = [["none", (kone, kc, kneg)]]
    else:  # 다 자지는 않았다: "Not all of the children slept"
        kv = K(KO.stem(v.ko) + "지는")
        ks, roles = _group("않다", level, tense, hon=honoured(noun))
        kneg, aux = ks[0], roles.get("AUX", ks[0])
        ko = [ksubj, kall, kv] + ks
        head = [["not", kneg], ["all", kall]]
    en = head + [["of", ksubj], ["the", ksubj]] + [[w, ksubj] for w in noun.plural.split()] + \
        [[w, aux if role == "AUX" else kv] for w, role in after]
    tags = {"negation", "scope", "scope_total" if total else "scope_partial", "plural", tense,
            level}
    return _sentence(ko, en, False, tags, {v.key, noun.key})


# ---------------------------------------------------------------------- questions

def myeot_sentence(b: SentenceBuilder, level: str) -> Sentence:
    """몇 "how many": 소년은 사과를 몇 개 샀니? "How many apples did the boy buy?", or of the
    subject: 학생 몇 명이 왔니? "How many students came?"."""
    r = b.rng
    kq = K("몇")
    if r.random() < 0.5:  # the object is counted
        tense = _pick(b, ("present", "past", "future", "progressive"))
        verbs = [v for v in _plain_verbs(b, "T") if any(_countable(n) for n in v.objects)]
        v = _pick(b, verbs)
        subj = _subject(b, topic=r.random() < 0.5)
        nouns = [n for n in v.objects if _countable(n)]  # (not 선생님이 선생님을 몇 분)
        noun = _pick(b, [n for n in nouns if n.ko != subj.head] or nouns)
        kn, kc = K(attach(noun.ko, "을/를")), K(noun.counter)
        ks, roles = _group(v.ko, level, tense, question=True, hon=subj.hon)
        kv, aux = roles["V"], roles.get("AUX", roles["V"])
        before, after = _verb_en(v.en, tense, subj.plural, question=True)
        en = [["how", kq], ["many", kq]] + [[w, (kn, kc)] for w in noun.plural.split()] + \
            [[w, aux if role == "AUX" else kv] for w, role in before] + subj.en + \
            [[w, aux if role == "AUX" else kv] for w, role in after]
        ko = subj.ko + [kn, kq, kc] + ks
        lemmas = subj.lemmas | {v.key, noun.key}
    else:  # the subject is counted: 학생 몇 명이 왔니?
        tense = _pick(b, ("past", "future", "progressive"))
        verbs = _plain_verbs(b, "I")
        v = _pick(b, verbs)
        noun = _pick(b, [n for n in b.lex.nouns["person"] if _countable(n) and not n.kin
                         and can_subject(v, n)])
        kn, kc = K(noun.ko), K(attach(noun.counter, "이/가"))
        ks, roles = _group(v.ko, level, tense, question=True, hon=honoured(noun))
        kv, aux = roles["V"], roles.get("AUX", roles["V"])
        _, after = _verb_en(v.en, tense, True)
        en = [["how", kq], ["many", kq]] + [[w, (kn, kc)] for w in noun.plural.split()] + \
            [[w, aux if role == "AUX" else kv] for w, role in after]
        ko = [kn, kq, kc] + ks
        lemmas = {v.key, noun.key}
    return _sentence(ko, en, True, {"wh", "question", "myeot", "number", tense, level}, lemmas)


#: nouns that name a kind, asked about with 무슨 "what (kind of)"
MUSEUN_NOUNS = ("책", "노래", "꽃", "케이크", "빵", "차", "주스", "모자", "잡지", "과자", "음악",
                "운동화", "수프", "나무", "게임기", "영화")


def museun_sentence(b: SentenceBuilder, level: str) -> Sentence:
    """무슨 "what (kind of)": 소녀가 무슨 책을 읽었니? "What book did the girl read?"."""
    r = b.rng
    kinds = {ko for ko in MUSEUN_NOUNS if ko in b.lex.noun_by_ko}
    verbs = [v for v in b.lex.verbs if v.frame == "T" and not v.pre and "person" in v.subj
             and any(n.ko in kinds for n in v.objects)]
    if not verbs:  # a level without such a noun: ask with 몇
        return myeot_sentence(b, level)
    v = _pick(b, verbs)
    tense = _pick(b, ("present", "past", "future") if v.stative or v.state_en
                  else ("present", "past", "future", "progressive"))
    noun = _pick(b, [n for n in v.objects if n.ko in kinds])
    subj = _subject(b, topic=r.random() < 0.5)
    kq, kn = K("무슨"), K(attach(noun.ko, "을/를"))
    ks, roles = _group(v.ko, level, tense, question=True, hon=subj.hon)
    kv, aux = roles["V"], roles.get("AUX", roles["V"])
    before, after = _verb_en(v.en, tense, subj.plural, question=True)
    word = noun.plural if noun.plural_only else noun.en
    en = [["what", kq]] + [[w, kn] for w in word.split()] + \
        [[w, aux if role == "AUX" else kv] for w, role in before] + subj.en + \
        [[w, aux if role == "AUX" else kv] for w, role in after]
    return _sentence(subj.ko + [kq, kn] + ks, en, True,
                     {"wh", "question", "museun", tense, level},
                     subj.lemmas | {v.key, noun.key})


#: challenge set -> (builder or None for the main grammar's sentence, weight)
#: every probe builder, in a fixed order (the training stream draws from them: see
#: corpus.PROBE_SHARE)
PROBES = (mot_sentence, eopda_sentence, moreuda_sentence, scope_sentence, myeot_sentence,
          museun_sentence)

MIXES = {
    "negation": ((None, 35), (mot_sentence, 20), (eopda_sentence, 15), (moreuda_sentence, 10),
                 (scope_sentence, 20)),
    "wh": ((None, 50), (myeot_sentence, 30), (museun_sentence, 20)),
}


def pick_builder(b: SentenceBuilder, name: str):
    """The builder of the next item of challenge set ``name`` (None: the main grammar)."""
    mix = MIXES.get(name)
    if not mix:
        return None
    x = b.rng.random() * sum(w for _, w in mix)
    for fn, w in mix:
        if x < w:
            return fn
        x -= w
    return mix[-1][0]
