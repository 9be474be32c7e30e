"""Challenge sets: does a translation keep what a phenomenon is about?

The generated corpus comes with one challenge set per phenomenon (numbers, negation, tense,
wh-questions, relative clauses, long sentences; see :mod:`companion.data.kosynth.corpus`). BLEU
averages over everything; these checks ask one question per sentence instead, by comparing the
output with its reference on the words that carry the phenomenon:

===========  ==================================================================================
set          a translation passes when ...
===========  ==================================================================================
numbers      it contains the reference's numbers -- digits and number words -- with the same
             counts (digits copied exactly)
negation     it has as many negators (not, n't, cannot, never, no, none, nobody, nothing) as the
             reference, the same scope under "all" ("none of" vs "not all of": 다 안 V vs
             다 V-지는 않다) and as many words of ability (can, could, able: 못 "cannot")
tense        its tense marks are the reference's, as a multiset: every auxiliary (will: future;
             was, did, had: past; is, does, has: present) and every form of one of the
             grammar's verbs (``ate``/``walked``: past; ``eats``: present; ``eating``:
             progressive) counts as one mark; a missing mark fails, and so does a wrong extra one
wh           it opens with the reference's wh-word and the word after it ("how many", "what
             book", "where did") and ends with a question mark
relative     it has as many relative pronouns (who, that, which) as the reference
long         it is the reference, word for word (what else is there to check?)
===========  ==================================================================================

Each check is a necessary condition, not a proof of a correct translation; every set also reports
its exact-match rate, which is sufficient but strict. No check may pass vacuously: an item whose
reference holds nothing to check (a "numbers" reference without a number, a "tense" reference
without a tense mark) is refused by :func:`challenge_accuracy`, since an empty output would pass it.
The tense marks are the verb forms of the generator's lexicon minus every word the lexicon also
uses otherwise (nouns such as ``building`` or ``evening``, adjectives such as ``tired``), so a
noun never counts as a tense.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from companion.data.kosynth.corpus import NUMBER_TOKENS
from companion.errors import DataError

_WORD = re.compile(r"[A-Za-z]+(?:'[a-z]+)?|\d+(?::\d+)?|[?.,]")
NEGATORS = frozenset({"not", "n't", "cannot", "never", "no", "none", "nobody", "nothing"})
#: words of ability: 못 V is "cannot V / could not V / will not be able to V"
ABILITY = frozenset({"can", "cannot", "can't", "could", "couldn't", "able", "unable"})
#: auxiliaries and the tense they mark
AUXILIARIES = {
    **dict.fromkeys(("will", "won't"), "future"),
    **dict.fromkeys(("was", "were", "did", "had", "wasn't", "weren't", "didn't", "hadn't"), "past"),
    **dict.fromkeys(("is", "are", "am", "does", "do", "has", "have", "isn't", "aren't", "doesn't",
                     "don't", "hasn't", "haven't"), "present"),
}
RELATIVE_PRONOUNS = frozenset({"who", "that", "which", "whom"})
WH_WORDS = frozenset({"who", "whom", "what", "where", "when", "why", "how", "which", "whose"})


def tokens(text: str) -> list[str]:
    """Lower-cased words, numbers and ``? . ,`` of a detokenized English sentence; ``don't``
    stays one token and hyphenated numbers split (``twenty-three`` -> twenty, three)."""
    return [t.lower() for t in _WORD.findall(text)]


@functools.lru_cache(maxsize=1)
def verb_tenses() -> dict[str, str]:
    """Every inflected form of the generator's verbs with the tense it marks (``ate``: past,
    ``eats``: present, ``eating``: progressive), leaving out forms that equal the base form
    (``put``, ``read``: no tense of their own) and every word the lexicon also uses as a noun,
    adjective, adverb, name or time word."""
    from companion.data.kosynth import english as E
    from companion.data.kosynth import lexicon as L

    other: set[str] = set()
    for nouns in L.NOUNS.values():
        for n in nouns:
            other.update(f"{n.en} {n.plural}".lower().replace("-", " ").split())
    for words in ([a.en for a in L.ADJECTIVES], [a.en for a in L.ADVERBS],
                  [n.en for n in L.SURNAME_LIST + L.GIVEN_NAME_LIST], [" ".join(t[1]) for t in L.TIMES]):
        for w in words:
            other.update(w.lower().replace("-", " ").split())
    forms: dict[str, str] = {}
    for verb in L.VERBS:
        base = verb.en.split()[0].lower()
        for form, tense in ((E.third_person(base), "present"), (E.past(base), "past"),
                            (E.present_participle(base), "progressive")):
            if form != base and form not in other and form not in AUXILIARIES:
                forms.setdefault(form, tense)
    return forms


def numbers(text: str) -> Counter:
    """Digits and number words of a sentence, with their counts."""
    return Counter(t for t in tokens(text) if t[0].isdigit() or t in NUMBER_TOKENS)


def negators(text: str) -> int:
    return sum(t in NEGATORS or t.endswith("n't") for t in tokens(text))


def tense_words(text: str) -> Counter:
    """The tense marks of a sentence, counted by tense: ``Counter({"past": 2, "future": 1})``
    (see the module table)."""
    forms = verb_tenses()
    return Counter(AUXILIARIES.get(t) or forms[t] for t in tokens(text) if t in AUXILIARIES or t in forms)


def scope(text: str) -> tuple[int, int]:
    """Negation under "all": (partial, total) -- how often "not all" / "not every" (다
    V-지는 않다: some did not) and "none" (다 안 V: every one did not) occur."""
    toks = tokens(text)
    partial = sum(a == "not" and b in ("all", "every") for a, b in zip(toks, toks[1:]))
    return partial, toks.count("none")


def ability(text: str) -> int:
    """Words of ability (can, could, able ...): what 못 adds to a negation."""
    return sum(t in ABILITY for t in tokens(text))


def relatives(text: str) -> int:
    return sum(t in RELATIVE_PRONOUNS for t in tokens(text)[1:])  # a sentence-initial "Who" asks


def _wh_opening(text: str) -> tuple[str, ...]:
    toks = tokens(text)
    if not toks or toks[0] not in WH_WORDS:
        return ()
    return tuple(toks[:2])


def passes(phenomenon: str, hyp: str, ref: str) -> bool:
    """Whether ``hyp`` keeps ``phenomenon`` of ``ref`` (see the module table)."""
    if phenomenon == "numbers":
        return numbers(hyp) == numbers(ref)
    if phenomenon == "negation":
        return negators(hyp) == negators(ref) and scope(hyp) == scope(ref) and \
            ability(hyp) == ability(ref)
    if phenomenon == "tense":
        return tense_words(hyp) == tense_words(ref)
    if phenomenon == "wh":
        return _wh_opening(hyp) == _wh_opening(ref) != () and hyp.rstrip().endswith("?")
    if phenomenon == "relative":
        return relatives(hyp) == relatives(ref)
    if phenomenon == "long":
        return hyp == ref
    raise DataError(f"unknown phenomenon {phenomenon!r} (known: numbers, negation, tense, wh, "
                    f"relative, long)")


def checkable(phenomenon: str, ref: str) -> bool:
    """Whether ``ref`` holds what its set checks (a number, a tense mark, a wh-opening), so that
    no output passes by leaving it out."""
    if phenomenon == "numbers":
        return bool(numbers(ref))
    if phenomenon == "tense":
        return bool(tense_words(ref))
    if phenomenon == "wh":
        return _wh_opening(ref) != ()
    return True


def challenge_accuracy(phenomenon: str, hyps: Sequence[str], refs: Sequence[str]) -> dict[str, Any]:
    """``{"n", "accuracy", "exact"}`` of ``hyps`` on one challenge set: the share of outputs that
    pass the phenomenon's check, and the share identical to their reference."""
    if len(hyps) != len(refs):
        raise DataError(f"challenge_accuracy: {len(hyps)} outputs for {len(refs)} references")
    if not refs:
        raise DataError(f"challenge_accuracy: the {phenomenon} set is empty")
    for i, ref in enumerate(refs):
        if not checkable(phenomenon, ref):
            raise DataError(f"challenge_accuracy: {phenomenon} item {i} ({ref!r}) has nothing to check "
                            f"in its reference, so an empty output would pass it: drop it from the set")
    ok = [passes(phenomenon, h, r) for h, r in zip(hyps, refs)]
    return {"n": len(refs), "accuracy": sum(ok) / len(ok),
            "exact": sum(h == r for h, r in zip(hyps, refs)) / len(refs)}


__all__ = ["ABILITY", "AUXILIARIES", "NEGATORS", "ability", "challenge_accuracy", "checkable", "negators",
           "numbers", "passes", "relatives", "scope", "tense_words", "tokens", "verb_tenses"]
