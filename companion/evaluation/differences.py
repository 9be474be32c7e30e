"""Where an output differs from its reference, word by word, and what kind of words differ.

A chapter that discusses sample translations must not describe them by hand ("one content word
wrong"): on another CPU the samples change. :func:`word_differences` aligns the two word
sequences (longest matching blocks, :class:`difflib.SequenceMatcher`) and returns the edits;
:func:`describe` classifies the words an edit touches, so a chapter can select "the first wrong
output whose only error is a number" and say so from the computation.

>>> [str(d) for d in word_differences("the cat ate 3 fish", "the dog ate 4 fish")]
['cat -> dog', '3 -> 4']
>>> describe(word_differences("the cat ate 3 fish", "the dog ate 4 fish"))
{'edits': 2, 'content': 1, 'function': 0, 'number': 1, 'missing': 0, 'extra': 0}
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass

from companion.evaluation.challenge import NEGATORS, RELATIVE_PRONOUNS, WH_WORDS, tokens

#: closed-class English words (articles, auxiliaries, prepositions, pronouns, connectives): an
#: edit that touches only these is a "function-word" error
FUNCTION_WORDS = frozenset("""
a an the this that these those some any every each all both either neither another other
is are am was were be been being do does did doing have has had having will would can could
shall should may might must to of in on at by for from with without about into onto over under
after before during since until while when because if although though than as and or but nor so
not n't no never i you he she it we they me him her us them my your his its our their mine
yours hers ours theirs who whom whose which what where why how there here also too very just
""".split()) | NEGATORS | RELATIVE_PRONOUNS | WH_WORDS


@dataclass(frozen=True)
class Edit:
    """One difference: reference words ``ref`` became output words ``hyp`` (either may be empty:
    a missing or an extra word)."""

    ref: tuple[str, ...]
    hyp: tuple[str, ...]

    def __str__(self) -> str:
        return f"{' '.join(self.ref) or '∅'} -> {' '.join(self.hyp) or '∅'}"

    @property
    def words(self) -> tuple[str, ...]:
        return self.ref + self.hyp


def word_differences(reference: str, output: str) -> list[Edit]:
    """The edits that turn ``reference`` into ``output``, compared on lower-cased word tokens
    (:func:`companion.evaluation.challenge.tokens`); an empty list when they agree."""
    ref, hyp = tokens(reference), tokens(output)
    matcher = difflib.SequenceMatcher(a=ref, b=hyp, autojunk=False)
    return [Edit(tuple(ref[i1:i2]), tuple(hyp[j1:j2]))
            for op, i1, i2, j1, j2 in matcher.get_opcodes() if op != "equal"]


def word_kind(word: str) -> str:
    """``"number"`` (digits or a time such as ``3:30``), ``"function"`` (closed-class words and
    punctuation) or ``"content"``."""
    if word[0].isdigit():
        return "number"
    if word in FUNCTION_WORDS or not word[0].isalpha():
        return "function"
    return "content"


def describe(edits: Sequence[Edit]) -> dict[str, int]:
    """Counts over ``edits``: how many edits, how many touch a content word, a function word, a
    number (an edit may count in several), and how many are pure omissions or additions."""
    counts = {"edits": len(edits), "content": 0, "function": 0, "number": 0, "missing": 0, "extra": 0}
    for e in edits:
        for kind in {word_kind(w) for w in e.words}:
            counts[kind] += 1
        counts["missing"] += not e.hyp
        counts["extra"] += not e.ref
    return counts


__all__ = ["Edit", "FUNCTION_WORDS", "describe", "word_differences", "word_kind"]
