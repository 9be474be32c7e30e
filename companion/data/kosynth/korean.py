"""Korean predicate morphology: stems, the 아/어 form, speech levels, tenses, negation,
adnominal (relative-clause) forms and clause connectives.

Every predicate is given by its dictionary form (``먹다``) plus whether it is an adjective
(descriptive verb). Irregular stems are looked up in :data:`IRREGULAR` (or passed as ``irr``):

* ``"ㅂ"``  덥다 -> 더워요, 더운   (``"ㅂ와"`` for 돕다/곱다 -> 도와요)
* ``"ㄷ"``  듣다 -> 들어요, 들은
* ``"ㅅ"``  짓다 -> 지어요, 지은
* ``"르"``  모르다 -> 몰라요 (any stem in 르 unless marked ``"으"``)
* ``"ㅎ"``  빨갛다 -> 빨개요, 빨간
* ``"으"``  쓰다 -> 써요, 바쁘다 -> 바빠요 (any stem in ㅡ without batchim)
* ㄹ-stems (만들다, 살다) drop ㄹ before ㄴ, ㅂ, ㅅ: 만드는, 만든, 만듭니다, 산다.

Speech levels: ``plain`` (한다체), ``polite`` (해요체), ``formal`` (합니다체). Tenses:
``present``, ``past``, ``future`` (-(으)ㄹ 것이다), ``progressive`` (-고 있다, an action in
progress) and ``resultative`` (-아/어 있다, the state an action leaves: 서 있다 "is standing",
앉아 있다 "is sitting", 누워 있다 "is lying"; 서고 있다 would be "is standing up").

Functions that build a verb group return tokens tagged with their role, so that the grammar
can align them with English: ``V`` (the lexical verb), ``AUX`` (것이다 / 있다 carrying tense),
``NEG`` (안 / 않다), ``V+NEG`` (a suppletive negative that is both: 모른다, 없다).

Two predicates negate with another word instead of 안 / -지 않다: 알다 "know" -> 모르다, and
있다 "exist, have" (with its compounds 맛있다, 재미있다) -> 없다 (맛없다, 재미없다); see
:func:`negative_of`.
"""

from __future__ import annotations

from functools import lru_cache

from companion.data.kosynth.hangul import compose, decompose, with_tail

LEVELS = ("plain", "polite", "formal")
TENSES = ("present", "past", "future", "progressive", "resultative")

#: irregular stems by dictionary form
IRREGULAR: dict[str, str] = {}
for _w in ("덥다 춥다 어렵다 쉽다 가깝다 맵다 무겁다 가볍다 귀엽다 아름답다 즐겁다 반갑다 "
           "고맙다 뜨겁다 차갑다 부드럽다 시끄럽다 더럽다 눕다 굽다 줍다 밉다 싱겁다 두껍다 "
           "외롭다 새롭다 자유롭다 평화롭다 지혜롭다 부럽다 무섭다 간지럽다 그립다 사랑스럽다 "
           "자랑스럽다 놀랍다 괴롭다 까다롭다 번거롭다 어지럽다 서럽다 아깝다 얇다 어둡다 "
           "싱겁다 가깝다 날카롭다 향기롭다").split():
    IRREGULAR[_w] = "ㅂ"
IRREGULAR["얇다"] = ""  # regular (얇아요)
for _w in ("돕다", "곱다"):
    IRREGULAR[_w] = "ㅂ와"
for _w in "듣다 걷다 묻다 싣다 깨닫다 붇다".split():
    IRREGULAR[_w] = "ㄷ"
for _w in "짓다 낫다 붓다 잇다 긋다 미소짓다".split():
    IRREGULAR[_w] = "ㅅ"
for _w in "빨갛다 파랗다 노랗다 하얗다 까맣다 조그맣다 커다랗다 이렇다 그렇다 저렇다 어떻다".split():
    IRREGULAR[_w] = "ㅎ"
for _w in "따르다 치르다 들르다".split():
    IRREGULAR[_w] = "으"

#: predicates in 있다/없다 that take -는 as adnominal and -니 like verbs
_EXIST = ("있다", "없다")


def negative_of(verb: str) -> str | None:
    """The suppletive negative of a predicate, or None: negative_of("알다") == "모르다",
    negative_of("있다") == "없다", negative_of("맛있다") == "맛없다"."""
    if verb == "알다":
        return "모르다"
    if verb.endswith("있다"):
        return verb[:-2] + "없다"
    return None


#: honorific verbs that replace the regular -(으)시- form (드시다 "eat, drink" for the
#: honoured, 주무시다 "sleep", 계시다 "be (somewhere), stay")
SUPPLETIVE_HONORIFIC = {"먹다": "드시다", "마시다": "드시다", "자다": "주무시다", "있다": "계시다"}
#: dictionary forms written by :func:`honorific` (their polite present is -세요)
_HONORIFIC_FORMS: set = set(SUPPLETIVE_HONORIFIC.values())


@lru_cache(maxsize=None)
def honorific(verb: str, irr: str | None = None) -> str:
    """The subject-honorific dictionary form (-(으)시-): 가다 -> 가시다, 읽다 -> 읽으시다,
    만들다 -> 만드시다, 듣다 -> 들으시다, 돕다 -> 도우시다, 피곤하다 -> 피곤하시다; the
    suppletive 먹다/마시다 -> 드시다, 자다 -> 주무시다, 있다 -> 계시다. The result is a regular
    stem in 시 (its polite present is 가세요, see :func:`simple_form`)."""
    if verb in SUPPLETIVE_HONORIFIC:
        return SUPPLETIVE_HONORIFIC[verb]
    cls = irregular_class(verb, irr)
    if cls == "ㄹ":
        out = _drop_l(verb, irr) + "시다"
    elif cls == "하":
        out = stem(verb) + "시다"
    else:
        out = eu_form(verb, "시", irr) + "다"
    _HONORIFIC_FORMS.add(out)
    return out


def stem(verb: str) -> str:
    """Dictionary form minus 다: stem("먹다") == "먹"."""
    if not verb.endswith("다") or len(verb) < 2:
        raise ValueError(f"not a dictionary form: {verb!r}")
    return verb[:-1]


@lru_cache(maxsize=None)
def irregular_class(verb: str, irr: str | None = None) -> str:
    """The stem class: one of "", "ㅂ", "ㅂ와", "ㄷ", "ㅅ", "ㅎ", "르", "으", "ㄹ", "하"."""
    if irr is not None and irr != "":
        return irr
    if verb in IRREGULAR:
        return IRREGULAR[verb]
    s = stem(verb)
    if s.endswith("하"):
        return "하"
    _, vowel, tail = decompose(s[-1])
    if s.endswith("르") and len(s) > 1:
        return "르"
    if tail == "ㄹ":
        return "ㄹ"
    if vowel == "ㅡ" and tail == "":
        return "으"
    return ""


def _bright(syllable: str) -> bool:
    """ㅏ/ㅗ syllables take 아, all others 어 (vowel harmony)."""
    return decompose(syllable)[1] in ("ㅏ", "ㅗ", "ㅑ")


_CONTRACT = {"ㅗ": "ㅘ", "ㅜ": "ㅝ", "ㅣ": "ㅕ", "ㅚ": "ㅙ"}


@lru_cache(maxsize=None)
def infinitive(verb: str, irr: str | None = None) -> str:
    """The 아/어 form (연결형), base of 해요체 and the past tense.

    Contracts vowels: 보+아 -> 봐, 주+어 -> 줘, 마시+어 -> 마셔, 가+아 -> 가, 서+어 -> 서,
    쓰+어 -> 써, 하 -> 해; and applies the irregular stems (도와, 더워, 들어, 지어, 몰라).
    """
    s = stem(verb)
    cls = irregular_class(verb, irr)
    head, last = s[:-1], s[-1]
    lead, vowel, tail = decompose(last)
    if cls == "하":
        return head + "해"
    if cls == "르":
        prev = head[-1]
        pl, pv, _ = decompose(prev)
        ending = "라" if _bright(prev) else "러"
        return head[:-1] + compose(pl, pv, "ㄹ") + ending
    if cls == "으":
        bright = bool(head) and _bright(head[-1])
        return head + compose(lead, "ㅏ" if bright else "ㅓ")
    if cls == "ㅂ와":
        return head + compose(lead, vowel) + "와"
    if cls == "ㅎ":
        return head + compose(lead, {"ㅏ": "ㅐ", "ㅑ": "ㅒ", "ㅓ": "ㅐ"}.get(vowel, "ㅐ"))
    if cls == "ㅂ":
        return head + compose(lead, vowel) + "워"
    if cls == "ㄷ":
        return head + compose(lead, vowel, "ㄹ") + ("아" if _bright(last) else "어")
    if cls == "ㅅ":
        return head + compose(lead, vowel) + ("아" if _bright(last) else "어")
    if tail:
        return s + ("아" if _bright(last) else "어")
    if vowel in ("ㅏ", "ㅓ", "ㅐ", "ㅔ", "ㅕ", "ㅑ"):
        return s
    if vowel in _CONTRACT:
        if vowel == "ㅣ" and lead == "ㅇ" and not head:
            return s + "어"  # 이다-like monosyllables stay open
        return head + compose(lead, _CONTRACT[vowel])
    return s + "어"  # ㅟ, ㅢ: 쉬어, 띄어


def _fuse(word: str, tail: str) -> str:
    """Put a jamo tail (ㄴ, ㄹ, ㅂ, ㅆ) under the last syllable of an open word."""
    return word[:-1] + with_tail(word[-1], tail)


@lru_cache(maxsize=None)
def past_stem(verb: str, irr: str | None = None) -> str:
    """Infinitive with ㅆ: 먹었, 갔, 했, 봤, 마셨, 도왔, 몰랐."""
    return _fuse(infinitive(verb, irr), "ㅆ")


@lru_cache(maxsize=None)
def eu_form(verb: str, suffix: str, irr: str | None = None) -> str:
    """Attach a suffix that begins with the linking vowel 으.

    ``suffix`` is a jamo (``"ㄴ"``, ``"ㄹ"``) or syllables (``"면"``, ``"니까"``):
    먹+ㄴ -> 먹은, 가+ㄴ -> 간, 만들+ㄴ -> 만든, 만들+ㄹ -> 만들, 만들+면 -> 만들면,
    돕+ㄴ -> 도운, 듣+ㄴ -> 들은, 짓+ㄴ -> 지은.
    """
    s = stem(verb)
    cls = irregular_class(verb, irr)
    head, last = s[:-1], s[-1]
    lead, vowel, tail = decompose(last)
    jamo = len(suffix) == 1 and not (0xAC00 <= ord(suffix) <= 0xD7A3)
    if cls in ("ㅂ", "ㅂ와"):
        s, tail = head + compose(lead, vowel) + "우", ""
    elif cls == "ㅎ":
        s, tail = head + compose(lead, vowel), ""
    elif cls == "ㄷ":
        s = head + compose(lead, vowel, "ㄹ")
        return s + ((compose("ㅇ", "ㅡ", suffix)) if jamo else "으" + suffix)
    elif cls == "ㅅ":
        s = head + compose(lead, vowel)
        return s + ((compose("ㅇ", "ㅡ", suffix)) if jamo else "으" + suffix)
    elif cls == "ㄹ" or (tail == "ㄹ" and cls not in ("ㄷ",)):
        if jamo:
            return _fuse(head + compose(lead, vowel), suffix) if suffix != "ㄹ" else s
        return s + suffix
    if tail:
        return s + (compose("ㅇ", "ㅡ", suffix) if jamo else "으" + suffix)
    return _fuse(s, suffix) if jamo else s + suffix


@lru_cache(maxsize=None)
def _drop_l(verb: str, irr: str | None) -> str:
    """Stem with ㄹ dropped for ㄹ-stems (before ㄴ, ㅂ, ㅅ, 니), else the plain stem."""
    s = stem(verb)
    if irregular_class(verb, irr) == "ㄹ":
        lead, vowel, _ = decompose(s[-1])
        return s[:-1] + compose(lead, vowel)
    return s


def _open(word: str) -> bool:
    return decompose(word[-1])[2] == ""


@lru_cache(maxsize=None)
def simple_form(verb: str, level: str, tense: str, question: bool = False, *,
                adj: bool = False, irr: str | None = None) -> str:
    """One-word finite form for present or past: 먹는다, 먹어요, 먹습니다, 먹었니?-less."""
    if level not in LEVELS:
        raise ValueError(f"unknown speech level {level!r}")
    s = stem(verb)
    exist = verb.endswith(_EXIST)
    if tense == "present":
        if level == "polite":
            if verb in _HONORIFIC_FORMS:  # 가시다 -> 가세요 (not 가셔요)
                return s[:-1] + "세요"
            return infinitive(verb, irr) + "요"
        if level == "formal":
            if _open(s) or irregular_class(verb, irr) == "ㄹ":
                return _fuse(_drop_l(verb, irr), "ㅂ") + ("니까" if question else "니다")
            return s + ("습니까" if question else "습니다")
        if question:
            return _drop_l(verb, irr) + "니"
        if adj or exist:
            return verb
        if irregular_class(verb, irr) == "ㄹ" or _open(s):
            return _fuse(_drop_l(verb, irr), "ㄴ") + "다"
        return s + "는다"
    if tense == "past":
        p = past_stem(verb, irr)
        if level == "polite":
            return p + "어요"
        if level == "formal":
            return p + ("습니까" if question else "습니다")
        return p + ("니" if question else "다")
    raise ValueError(f"simple_form takes present or past, not {tense!r}")


def _future_aux(level: str, question: bool) -> str:
    if level == "plain":
        return "거니" if question else "것이다"
    if level == "polite":
        return "거예요"
    return "것입니까" if question else "것입니다"


#: verbs that are noun + verb compounds: 안 goes inside them (춤을 안 춘다), so only the
#: long negation (춤추지 않는다) is generated
_COMPOUNDS = frozenset("춤추다 미소짓다 산책시키다 잃어버리다 맛보다".split())


def short_negation_ok(verb: str) -> bool:
    """Whether 안 + V reads naturally: not for 하다/시키다 compounds and the like."""
    s = stem(verb)
    if verb in _COMPOUNDS or s.endswith("시키"):
        return False
    return not (s.endswith("하") and len(s) > 1)


@lru_cache(maxsize=None)
def verb_group(verb: str, level: str, tense: str, *, question: bool = False,
               negation: str | None = None, adj: bool = False,
               irr: str | None = None, hon: bool = False) -> tuple[tuple[str, str], ...]:
    """The finite predicate as eojeols tagged ``V`` / ``AUX`` / ``NEG``.

    ``negation`` is None, ``"short"`` (안 + V) or ``"long"`` (V-지 않다). Short negation is
    not used with 하다-compounds or the progressive (callers fall back to long). ``hon``: an
    honoured subject, -(으)시- on the verb (가세요, 기다리셨습니다, 드셨다) and 계시다 for the
    auxiliary 있다 (가고 계세요, 앉아 계신다).
    """
    if tense not in TENSES:
        raise ValueError(f"unknown tense {tense!r}")
    if hon:
        if tense in ("progressive", "resultative"):
            head = (stem(SUPPLETIVE_HONORIFIC.get(verb, verb)) + "고"  # 드시고 계세요
                    if tense == "progressive" else infinitive(verb, irr), "V")
            if negation is None:
                return (head, (simple_form("계시다", level, "present", question), "AUX"))
            rest = verb_group("않다", level, "present", question=question, adj=True)
            return (head, ("계시지", "AUX")) + tuple((w, "NEG" if i == 0 else r)
                                                   for i, (w, r) in enumerate(rest))
        if negation in ("short", "long") and negative_of(verb):  # 모르세요, 없으세요
            group = verb_group(honorific(negative_of(verb)), level, tense, question=question,
                               adj=adj)
            return tuple((w, "V+NEG" if r == "V" else r) for w, r in group)
        if negation == "short" and not short_negation_ok(verb):
            negation = "long"
        return verb_group(honorific(verb, irr), level, tense, question=question,
                          negation=negation, adj=adj)
    if tense == "resultative":  # 앉아 있다; negated 앉아 있지 않다 (the state is negated)
        head = (infinitive(verb, irr), "V")
        if negation is None:
            return (head, (simple_form("있다", level, "present", question, adj=True), "AUX"))
        if negation not in ("short", "long"):
            raise ValueError(f"unknown negation {negation!r}")
        rest = verb_group("않다", level, "present", question=question, adj=True)
        return (head, ("있지", "AUX")) + tuple((w, "NEG" if i == 0 else r)
                                              for i, (w, r) in enumerate(rest))
    if negation in ("short", "long") and negative_of(verb):  # 모른다, not 알지 않는다
        group = verb_group(negative_of(verb), level, tense, question=question, adj=adj)
        return tuple((w, "V+NEG" if r == "V" else r) for w, r in group)
    if negation == "short" and (tense == "progressive" or not short_negation_ok(verb)):
        negation = "long"
    if negation == "long":
        host = "않다"
        out = [(stem(verb) + "지", "V")]
        rest = verb_group(host, level, tense, question=question, adj=adj)
        return tuple(out + [(w, "NEG" if i == 0 else r) for i, (w, r) in enumerate(rest)])
    if tense == "future":
        out = [(eu_form(verb, "ㄹ", irr), "V"), (_future_aux(level, question), "AUX")]
    elif tense == "progressive":
        out = [(stem(verb) + "고", "V"),
               (simple_form("있다", level, "present", question, adj=True), "AUX")]
    else:
        out = [(simple_form(verb, level, tense, question, adj=adj, irr=irr), "V")]
    if negation == "short":
        out = [("안", "NEG")] + out
    elif negation is not None:
        raise ValueError(f"unknown negation {negation!r}")
    return tuple(out)


def conjugate(verb: str, level: str, tense: str, *, question: bool = False,
              negation: str | None = None, adj: bool = False, irr: str | None = None,
              hon: bool = False) -> str:
    """The finite predicate as text: conjugate("먹다", "polite", "present") == "먹어요"."""
    return " ".join(w for w, _ in verb_group(verb, level, tense, question=question,
                                             negation=negation, adj=adj, irr=irr, hon=hon))


@lru_cache(maxsize=None)
def adnominal(verb: str, tense: str = "present", *, adj: bool = False,
              irr: str | None = None) -> str:
    """Relative-clause / attributive form: 먹는, 먹은, 먹을; 큰, 작은, 더운; 만드는, 만든."""
    if adj and not verb.endswith(_EXIST):
        if tense != "present":
            raise ValueError("adjectives take only the present adnominal here")
        return eu_form(verb, "ㄴ", irr)
    if tense in ("present", "progressive"):
        return _drop_l(verb, irr) + "는"
    if tense == "past":
        return eu_form(verb, "ㄴ", irr)
    if tense == "future":
        return eu_form(verb, "ㄹ", irr)
    raise ValueError(f"unknown tense {tense!r}")


@lru_cache(maxsize=None)
def adnominal_group(verb: str, tense: str, *, negation: bool = False, adj: bool = False,
                    irr: str | None = None, hon: bool = False) -> tuple[tuple[str, str], ...]:
    """Relative-clause predicate as tagged eojeols: (먹는), (먹지, 않는), (먹고, 있는),
    resultative (앉아, 있는) / (앉아, 있지, 않은); suppletive negatives: (모르는), (몰랐던).

    알다 / 모르다 take the retrospective -았던 in the past: 알았던 / 몰랐던, since 안 (the
    plain past adnominal of 알다) reads as the negation 안 ("안 아름다운" = "not beautiful")
    and 모른 reads oddly. ``hon``: an honoured subject (사신, 기다리시는, 가고 계신).
    """
    if hon:
        if tense in ("progressive", "resultative"):
            head = (stem(SUPPLETIVE_HONORIFIC.get(verb, verb)) + "고"  # 드시고 계세요
                    if tense == "progressive" else infinitive(verb, irr), "V")
            if negation:
                return (head, ("계시지", "AUX"), ("않은" if tense == "resultative" else "않는",
                                                 "NEG"))
            return (head, ("계시는", "AUX"))
        if negation and negative_of(verb):
            return adnominal_group(honorific(negative_of(verb)), tense, adj=adj)
        return adnominal_group(honorific(verb, irr), tense, negation=negation, adj=adj)
    if tense == "resultative":
        head = (infinitive(verb, irr), "V")
        if negation:
            return (head, ("있지", "AUX"), ("않은", "NEG"))
        return (head, ("있는", "AUX"))
    neg_verb = negative_of(verb) if negation else None
    if neg_verb is not None:
        if tense == "past":
            return ((past_stem(neg_verb) + "던", "V+NEG"),)
        return ((adnominal(neg_verb, tense, adj=adj), "V+NEG"),)
    if tense == "past" and verb == "알다" and not negation:
        return ((past_stem(verb) + "던", "V"),)
    if negation:
        return ((stem(verb) + "지", "V"), (adnominal("않다", tense, adj=adj), "NEG"))
    if tense == "progressive":
        return ((stem(verb) + "고", "V"), ("있는", "AUX"))
    return ((adnominal(verb, tense, adj=adj, irr=irr), "V"),)


#: clause connectives
CONNECTIVES = ("and", "but", "because", "when", "if")


@lru_cache(maxsize=None)
def connective(verb: str, kind: str, tense: str = "present", *, adj: bool = False,
               irr: str | None = None, hon: bool = False) -> str:
    """A non-final clause ending: -고 (and), -지만 (but), -아서/-어서 (because; then, after
    a motion: 도서관에 가서 "went to the library and"),
    -(으)ㄹ 때 (when; returns "먹을 때"), -(으)면 (if).

    -고 and -지만 carry past tense (먹었고, 먹었지만); -아서 never does; -(으)ㄹ 때 takes
    past as 먹었을 때. ``hon``: an honoured subject (가셔서, 드시면, 피곤하셨을 때).
    """
    if hon:
        verb, irr = honorific(verb, irr), None
    s = stem(verb)
    past = tense == "past"
    if kind == "and":
        return (past_stem(verb, irr) if past else s) + "고"
    if kind == "but":
        return (past_stem(verb, irr) if past else s) + "지만"
    if kind in ("because", "then"):  # (then: 가서 "went and", a motion and what follows)
        return infinitive(verb, irr) + "서"
    if kind == "when":
        return (past_stem(verb, irr) + "을" if past else eu_form(verb, "ㄹ", irr)) + " 때"
    if kind == "if":
        return eu_form(verb, "면", irr)
    raise ValueError(f"unknown connective {kind!r}")


def copula(noun_phrase_last: str, level: str, tense: str, question: bool = False) -> str:
    """이다 after a noun: 살이다 / 살이에요 / 살입니다 / 살이었다; after a vowel 학생 -> 학생이다,
    의사 -> 의사다 / 의사예요 / 의사입니다."""
    w = noun_phrase_last
    closed = decompose(w[-1])[2] != "" if 0xAC00 <= ord(w[-1]) <= 0xD7A3 else True
    if tense == "present":
        if level == "plain":
            return w + (("이니" if closed else "니") if question else ("이다" if closed else "다"))
        if level == "polite":
            return w + ("이에요" if closed else "예요")
        return w + ("입니까" if question else "입니다")
    if tense == "past":
        p = w + ("이었" if closed else "였")
        if level == "plain":
            return p + ("니" if question else "다")
        if level == "polite":
            return p + "어요"
        return p + ("습니까" if question else "습니다")
    raise ValueError(f"copula takes present or past, not {tense!r}")
