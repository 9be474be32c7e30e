"""Hangul syllable arithmetic: composing, decomposing, final consonants and particles.

A precomposed syllable is ``0xAC00 + (lead * 21 + vowel) * 28 + tail``; ``tail == 0`` means the
syllable ends in a vowel (no batchim). Particles that alternate on the final consonant of the
preceding word (이/가, 을/를, 은/는, 와/과, (으)로) are chosen here.
"""

from __future__ import annotations

from functools import lru_cache

BASE = 0xAC00
LEADS = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ"
VOWELS = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ"
TAILS = ("", "ㄱ", "ㄲ", "ㄳ", "ㄴ", "ㄵ", "ㄶ", "ㄷ", "ㄹ", "ㄺ", "ㄻ", "ㄼ", "ㄽ", "ㄾ", "ㄿ",
         "ㅀ", "ㅁ", "ㅂ", "ㅄ", "ㅅ", "ㅆ", "ㅇ", "ㅈ", "ㅊ", "ㅋ", "ㅌ", "ㅍ", "ㅎ")

#: how a digit, read in Sino-Korean, ends: the final consonant of its last syllable
_DIGIT_TAIL = {"0": "ㅇ", "1": "ㄹ", "2": "", "3": "ㅁ", "4": "", "5": "", "6": "ㄱ",
               "7": "ㄹ", "8": "ㄹ", "9": ""}


def is_syllable(ch: str) -> bool:
    """True for a precomposed Hangul syllable (가 .. 힣)."""
    return len(ch) == 1 and 0xAC00 <= ord(ch) <= 0xD7A3


def decompose(ch: str) -> tuple[str, str, str]:
    """Split one syllable into (lead, vowel, tail) jamo; tail is "" without batchim."""
    if not is_syllable(ch):
        raise ValueError(f"not a Hangul syllable: {ch!r}")
    code = ord(ch) - BASE
    return LEADS[code // 588], VOWELS[(code % 588) // 28], TAILS[code % 28]


def compose(lead: str, vowel: str, tail: str = "") -> str:
    """Build a syllable from jamo, e.g. compose("ㅂ", "ㅘ") == "봐"."""
    return chr(BASE + (LEADS.index(lead) * 21 + VOWELS.index(vowel)) * 28 + TAILS.index(tail))


def final_consonant(word: str) -> str:
    """The batchim of the word's last syllable ("" after a vowel); digits read Sino-Korean."""
    last = word.rstrip(".?!,")[-1]
    if last.isdigit():
        return _DIGIT_TAIL[last]
    if not is_syllable(last):
        raise ValueError(f"cannot read the final sound of {word!r}")
    return decompose(last)[2]


def has_batchim(word: str) -> bool:
    """True when the word ends in a consonant (사과 -> False, 책 -> True)."""
    return final_consonant(word) != ""


def with_tail(syllable: str, tail: str) -> str:
    """Replace the tail of a syllable: with_tail("가", "ㄹ") == "갈"."""
    lead, vowel, _ = decompose(syllable)
    return compose(lead, vowel, tail)


#: particle pairs: (after a consonant, after a vowel)
PARTICLES = {
    "이/가": ("이", "가"),
    "은/는": ("은", "는"),
    "을/를": ("을", "를"),
    "와/과": ("과", "와"),
    "과/와": ("과", "와"),
    "으로/로": ("으로", "로"),
    "(으)로": ("으로", "로"),
    "이다": ("이다", "다"),
}
#: particles that never alternate
INVARIANT = ("에", "에서", "에게", "께", "의", "도", "만", "까지", "부터", "한테", "보다")


@lru_cache(maxsize=4096)
def particle(word: str, kind: str) -> str:
    """The allomorph of ``kind`` that follows ``word``.

    ``particle("사과", "을/를") == "를"``; ``(으)로`` takes 로 after a vowel *or* ㄹ
    (``particle("연필", "(으)로") == "로"``). Invariant particles (에, 에서, 에게, 의, 도, 만)
    are returned unchanged.
    """
    if kind in INVARIANT:
        return kind
    if kind not in PARTICLES:
        raise ValueError(f"unknown particle {kind!r}")
    after_consonant, after_vowel = PARTICLES[kind]
    tail = final_consonant(word)
    if kind in ("(으)로", "으로/로"):
        return after_vowel if tail in ("", "ㄹ") else after_consonant
    return after_consonant if tail else after_vowel


@lru_cache(maxsize=8192)
def attach(word: str, kind: str) -> str:
    """``word`` followed by its particle: attach("사과", "을/를") == "사과를"."""
    return word + particle(word, kind)
