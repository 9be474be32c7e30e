"""Sentences as digests: a set that remembers millions of sentences in a few bytes each.

The corpus writer must know whether it has drawn a Korean sentence before, for every pair of a
corpus of any size, without holding the sentences. :class:`DigestSet` keeps, for each sentence,
32 bits of its 64-bit BLAKE2b digest in a flat ``array('I')`` sized for the number of members
it will hold (open addressing, linear probing, at most 80% full): a million sentences cost
5 MB, against some 3 GB for the same pairs held as Python objects.

The other 32 bits pick the slot where the search starts, so a sentence is mistaken for a
member only if a member in the slots it probes has the same 32 bits: a chance of at most
about ``13 * 2**-32`` per look-up when the table is full, some 0.03 false alarms over ten
million draws. A false alarm never
lets a duplicate in; it only makes the writer draw another pair instead of a new one. The
outcome is deterministic either way (the same sentences, the same table).

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

#: the share of the slots a full table uses (the table is sized for this at ``expected``)
MAX_LOAD = 0.8
_LOW = (1 << 32) - 1


def digest64(text: str, key: bytes = b"") -> int:
    """A non-zero 64-bit BLAKE2b digest of ``text``'s UTF-8 bytes, keyed by ``key`` (at most 64
    bytes): the same text and key give the same number in every process and on every machine
    (unlike Python's ``hash``)."""
    d = int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8, key=key).digest(), "little")
    return d or 1


class DigestSet:
    """A set of 64-bit digests in ``4 / MAX_LOAD`` bytes per member, for at most ``expected``
    members (more raise ``OverflowError``: the table cannot grow, since it keeps only half of
    each digest). Membership may answer True for a digest never added, with the small
    probability stated in the module docstring; never False for one that was."""

    def __init__(self, expected: int):
        self._capacity = int(max(expected, 1) / MAX_LOAD) + 1
        self._slots = array("I", bytes(4 * self._capacity))
        self._n = 0
        self._limit = max(expected, 1)

    def __len__(self) -> int:
        return self._n

    @property
    def nbytes(self) -> int:
        """Bytes held by the table."""
        return self._slots.itemsize * len(self._slots)

    def _find(self, d: int) -> tuple[int, int]:
        """The fingerprint of ``d`` and the slot holding it, or the empty slot where it would go."""
        fp = (d & _LOW) or 1  # 0 marks an empty slot
        slots, cap = self._slots, self._capacity
        i = ((d >> 32) * cap) >> 32  # the high half picks where the search starts
        while True:
            v = slots[i]
            if v == fp or v == 0:
                return fp, i
            i += 1
            if i == cap:
                i = 0

    def __contains__(self, d: int) -> bool:
        fp, i = self._find(d)
        return self._slots[i] == fp

    def add(self, d: int) -> bool:
        """Insert ``d`` (a non-zero integer below 2**64); True if it was not a member yet."""
        if not 0 < d < 1 << 64:
            raise ValueError(f"a digest is a non-zero 64-bit integer, got {d}")
        fp, i = self._find(d)
        if self._slots[i] == fp:
            return False
        if self._n == self._limit:
            raise OverflowError(f"DigestSet sized for {self._limit} members is full")
        self._slots[i] = fp
        self._n += 1
        return True
