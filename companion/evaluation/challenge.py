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
negation     it has as many negators (not, n't, never, no, nobody, nothing) as the reference
tense        it contains every tense-bearing word of the reference: auxiliaries (will, is, was,
             did, ...), past forms (``-ed`` and the grammar's irregular pasts) and ``-ing`` forms
wh           it opens with the reference's wh-word (and auxiliary) and ends with a question mark
relative     it has as many relative pronouns (who, that, which) as the reference
long         it is the reference, word for word (what else is there to check?)
===========  ==================================================================================

Each check is a necessary condition, not a proof of a correct translation; every set also reports
its exact-match rate, which is sufficient but strict.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from companion.errors import DataError

_WORD = re.compile(r"[A-Za-z]+(?:'[a-z]+)?|\d+(?::\d+)?|[?.,]")
NEGATORS = frozenset({"not", "n't", "never", "no", "nobody", "nothing"})
AUXILIARIES = frozenset({"will", "won't", "is", "are", "am", "was", "were", "did", "does", "do",
                         "has", "have", "had", "isn't", "aren't", "wasn't", "weren't", "didn't",
                         "doesn't", "don't"})
RELATIVE_PRONOUNS = frozenset({"who", "that", "which", "whom"})
WH_WORDS = frozenset({"who", "whom", "what", "where", "when", "why", "how", "which", "whose"})
_NUMBER_WORDS = frozenset(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty "
    "ninety hundred".split())


def tokens(text: str) -> list[str]:
    """Lower-cased words, numbers and ``? . ,`` of a detokenized English sentence; ``don't``
    stays one token and hyphenated numbers split (``twenty-three`` -> twenty, three)."""
    return [t.lower() for t in _WORD.findall(text)]


def _irregular_pasts() -> frozenset[str]:
    from companion.data.kosynth.english import IRREGULAR_PAST

    return frozenset(IRREGULAR_PAST.values())


def numbers(text: str) -> Counter:
    """Digits and number words of a sentence, with their counts."""
    return Counter(t for t in tokens(text) if t[0].isdigit() or t in _NUMBER_WORDS)


def negators(text: str) -> int:
    return sum(t in NEGATORS or t.endswith("n't") for t in tokens(text))


def tense_words(text: str) -> Counter:
    """The tense-bearing words of a sentence: auxiliaries, past forms, ``-ing`` forms."""
    pasts = _irregular_pasts()
    return Counter(t for t in tokens(text)
                   if t in AUXILIARIES or t in pasts or (len(t) > 4 and t.endswith(("ed", "ing"))))


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
        return negators(hyp) == negators(ref)
    if phenomenon == "tense":
        return not (tense_words(ref) - tense_words(hyp))
    if phenomenon == "wh":
        return _wh_opening(hyp) == _wh_opening(ref) != () and hyp.rstrip().endswith("?")
    if phenomenon == "relative":
        return relatives(hyp) == relatives(ref)
    if phenomenon == "long":
        return hyp == ref
    raise DataError(f"unknown phenomenon {phenomenon!r} (known: numbers, negation, tense, wh, "
                    f"relative, long)")


def challenge_accuracy(phenomenon: str, hyps: Sequence[str], refs: Sequence[str]) -> dict[str, Any]:
    """``{"n", "accuracy", "exact"}`` of ``hyps`` on one challenge set: the share of outputs that
    pass the phenomenon's check, and the share identical to their reference."""
    if len(hyps) != len(refs):
        raise DataError(f"challenge_accuracy: {len(hyps)} outputs for {len(refs)} references")
    if not refs:
        raise DataError(f"challenge_accuracy: the {phenomenon} set is empty")
    ok = [passes(phenomenon, h, r) for h, r in zip(hyps, refs)]
    return {"n": len(refs), "accuracy": sum(ok) / len(ok),
            "exact": sum(h == r for h, r in zip(hyps, refs)) / len(refs)}


__all__ = ["AUXILIARIES", "NEGATORS", "challenge_accuracy", "negators", "numbers", "passes",
           "relatives", "tense_words", "tokens"]
