"""Sentences as 64-bit digests: a set that remembers millions of sentences in a few bytes each.

The corpus writer must know whether it has drawn a Korean sentence before, for every pair of a
corpus of any size, without holding the sentences: :class:`DigestSet` keeps one 8-byte
BLAKE2b digest per sentence in a flat ``array('Q')`` (open addressing, linear probing, at most
70% full), so a million sentences cost about 11.5 MB -- against some 3 GB for the same pairs
held as Python objects. Two different sentences share a digest with probability ``2**-64``; for
ten million sentences the chance that any two do is about ``3e-6``.

>>> seen = DigestSet(expected=4)
>>> seen.add(digest64("사과를 먹었다.")), seen.add(digest64("사과를 먹었다."))
(True, False)
>>> len(seen), digest64("사과를 먹었다.") in seen
(1, True)
"""

from __future__ import annotations

import hashlib
from array import array

__all__ = ["DigestSet", "digest64"]

#: the largest share of the slots in use before the table grows
MAX_LOAD = 0.7


def digest64(text: str, key: bytes = b"") -> int:
    """A non-zero 64-bit BLAKE2b digest of ``text``'s UTF-8 bytes, keyed by ``key`` (at most 64
    bytes): the same text and key give the same number in every process and on every machine
    (unlike Python's ``hash``)."""
    d = int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8, key=key).digest(), "little")
    return d or 1  # 0 marks an empty slot


class DigestSet:
    """A set of non-zero 64-bit integers in one flat array of ``8 / MAX_LOAD`` bytes per member.

    ``expected`` sizes the table so that it never grows while it holds at most that many
    members (it doubles when it would pass :data:`MAX_LOAD`).
    """

    def __init__(self, expected: int = 0):
        self._slots = self._empty(int(max(expected, 1) / MAX_LOAD) + 1)
        self._n = 0

    @staticmethod
    def _empty(capacity: int) -> array:
        return array("Q", bytes(8 * max(capacity, 8)))

    def __len__(self) -> int:
        return self._n

    @property
    def nbytes(self) -> int:
        """Bytes held by the table."""
        return self._slots.itemsize * len(self._slots)

    def _find(self, d: int) -> int:
        """The slot holding ``d``, or the empty slot where it would go."""
        slots = self._slots
        cap = len(slots)
        i = (d * cap) >> 64  # the high bits pick the slot
        while True:
            v = slots[i]
            if v == d or v == 0:
                return i
            i += 1
            if i == cap:
                i = 0

    def __contains__(self, d: int) -> bool:
        return self._slots[self._find(d)] == d

    def add(self, d: int) -> bool:
        """Insert ``d`` (non-zero, < 2**64); True if it was not a member yet."""
        if not 0 < d < 1 << 64:
            raise ValueError(f"a digest is a non-zero 64-bit integer, got {d}")
        i = self._find(d)
        if self._slots[i] == d:
            return False
        self._slots[i] = d
        self._n += 1
        if self._n > MAX_LOAD * len(self._slots):
            self._grow()
        return True

    def _grow(self) -> None:
        old = self._slots
        self._slots = self._empty(2 * len(old))
        for d in old:
            if d:
                self._slots[self._find(d)] = d
