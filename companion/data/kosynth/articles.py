"""How the English article is chosen from the Korean, and how often another choice would be
just as right (the ambiguity BLEU cannot see).

Korean has no article. The generator decides English a / the / no article from the Korean
noun phrase by one rule, first match wins:

1. a name takes no article (김민준 "Kim Minjun");
2. a possessor replaces the article (김민준의 가방 "Kim Minjun's bag"); a kinship noun always
   has one (김민준의 이모 "Kim Minjun's aunt", never "the aunt");
3. a demonstrative gives this / that / these / those (이 가방, 저 가방들);
4. a number gives the number (가방 세 개 "three bags", 12개 "12 bags": one to ten in words);
5. 한 in the subject of a statement's first clause introduces a referent: "a" / "an", in
   the counter phrase where the noun has a counter (돼지 한 마리가 "A pig ...") and before
   the noun otherwise (한 소년이 "A boy ..."); 한 as "a" appears nowhere else, and 어떤
   (which / any) never as "a";
6. a bare mass noun as an object is generic: no article (차를 마신다 "drinks tea");
7. a bare count noun as the object of a habit (a verb in the simple present, or any tense
   with 매일 "every day", 자주 "often", 가끔 "sometimes") or of a plural subject is a bare
   plural: 소년은 딸기를 먹는다 "The boy eats strawberries", 편집자들이 반지를 끼고 있다
   "The editors are wearing rings";
8. a bare count noun as the object of an event (one that happens once) is first mentioned:
   "a" (소년이 토마토를 먹었다 "The boy ate a tomato", 한 침팬지가 파파야를 먹고 있다 "A
   chimpanzee is eating a papaya");
9. every other bare noun -- subject, place, a person as the object, any noun with a relative
   clause -- is definite: "the" (소년이 소녀를 만났다 "The boy met the girl"). A topic (은/는)
   and a noun mentioned before in the sentence are definite in any reading.

Rules 8 and 9 are conventions: for a bare noun that is neither a topic nor mentioned
before, the other article would be an equally right translation of a sentence seen on its
own -- 소년이 사과를 먹었다 is "A boy ate an apple" as much as "The boy ate the apple".
:func:`article_ambiguity` counts such choices in a corpus, so that a BLEU score can be read
with the share of references that a correct translation could miss by an article.
"""

from __future__ import annotations

import re

#: English words after "the" that belong to a fixed time expression ("in the morning")
_TIME_NOUNS = frozenset("morning evening afternoon weekend".split())
_TOPIC = re.compile(r"(은|는)[.?]?$")
_DEMONSTRATIVES = frozenset("이 그 저".split())


def _bare(w: str) -> str:
    return w.strip(".,?").lower()


def article_ambiguity(pairs) -> dict:
    """How often another article would be equally right, over ``pairs`` (objects with ``ko``,
    ``en`` and Pharaoh ``align``, such as :class:`~companion.data.kosynth.corpus.Pair`).

    A "the" or an "a" is *open* when the Korean word it translates (the eojeol it is aligned
    to) is a bare noun that is not a topic (은/는), is not plural (들), is not preceded by a
    demonstrative, and does not repeat a noun earlier in the sentence: then the other
    article would be as right ("ate the tomato" / "ate a tomato"). "a" from 한 (한 소년이,
    돼지 한 마리가: aligned to 한 itself), "this"/"that" from a demonstrative, possessors and
    numbers are forced.

    Returns ``{"articles": n, "open": k, "open_share": k / n, "pairs": m, "pairs_open": j,
    "pairs_open_share": j / m}``: ``pairs_open_share`` is the share of references that a
    correct translation could miss by one article (BLEU counts it as an error).

    >>> from types import SimpleNamespace as P
    >>> article_ambiguity([P(ko="소년은 사과를 먹었다.", en="The boy ate the apple.",
    ...                      align=((0, 0), (0, 1), (1, 3), (1, 4), (2, 2)))])["open"]
    1
    """
    articles = open_ = pairs_open = n_pairs = 0
    for p in pairs:
        n_pairs += 1
        ko, en = p.ko.split(), p.en.split()
        ko_of: dict[int, list[int]] = {}
        for i, j in p.align:
            ko_of.setdefault(j, []).append(i)
        any_open = False
        for j, w in enumerate(en):
            word = _bare(w)
            if word not in ("the", "a", "an"):
                continue
            if word == "the" and j + 1 < len(en) and _bare(en[j + 1]) in _TIME_NOUNS:
                continue  # "in the morning": a fixed expression, not a noun phrase
            articles += 1
            src = ko_of.get(j, [])
            if len(src) != 1:
                continue
            i = src[0]
            noun = ko[i]
            if noun in ("한", "어떤"):
                continue  # "a" introduced by 한: forced
            if _TOPIC.search(noun) or "들" in noun or (i > 0 and ko[i - 1] in _DEMONSTRATIVES):
                continue
            stem = noun.rstrip(".?")[:2]
            if any(k.startswith(stem) for k in ko[:i]):
                continue  # mentioned before: definite
            open_ += 1
            any_open = True
        pairs_open += any_open
    return {"articles": articles, "open": open_,
            "open_share": open_ / articles if articles else 0.0,
            "pairs": n_pairs, "pairs_open": pairs_open,
            "pairs_open_share": pairs_open / n_pairs if n_pairs else 0.0}
