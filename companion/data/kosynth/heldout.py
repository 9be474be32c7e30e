"""Which split a pair belongs to, decided by a hash of its English side.

Every English sentence gets a *split key*: a 64-bit BLAKE2b digest keyed by the corpus seed
(:func:`split_key`). Pairs that share an English sentence share its key, so they form one group.
Groups are visited in increasing key order; a group goes to ``test`` while it fits in test's
size, else to ``valid`` while it fits there, else to ``train``, until both held-out splits are
full; every group after that is train (:func:`assign`). Since a group is never cut and a Korean
sentence occurs only once in a kosynth corpus (the generator deduplicates its Korean side), no
Korean or English sentence of valid or test occurs in train or in the other held-out split.

Only the smallest keys matter: the held-out splits are 10% of the corpus, so a writer keeps the
keys below a bound that ~12.5% of the keys fall under (1 byte per pair) (:func:`candidate_bound`) and calls
:func:`assign` with ``complete=False``; in the rare case that the kept keys do not fill both
splits it asks again with every key. The outcome (:class:`HeldOut`) is the same either way, and
the same as :func:`assign` over the keys of an in-memory list: one rule, whichever path.

>>> keys = sorted(split_key(en, seed=0) for en in ["A.", "B.", "C.", "D."])
>>> ho = assign(keys, {"train": 2, "valid": 1, "test": 1})
>>> sorted(ho.split_of(k) for k in keys)
['test', 'train', 'train', 'valid']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from companion.data.kosynth.digests import digest64

__all__ = ["HeldOut", "assign", "candidate_bound", "split_key"]

KEY_SPACE = 1 << 64


def split_key(en: str, seed: int) -> int:
    """The split key of English sentence ``en`` in the corpus of ``seed``."""
    return digest64(en, f"kosynth-split/{seed}".encode())


def candidate_bound(size: int, held: int) -> int:
    """A key bound under which (with overwhelming probability) the ``held`` held-out pairs of a
    corpus of ``size`` pairs all fall: 1.25 times their share, plus 4,000 pairs' worth; ``2**64``
    (every key) for small corpora."""
    share = min(1.0, 1.25 * held / max(size, 1) + 4000 / max(size, 1))
    return KEY_SPACE if share >= 1.0 else int(share * KEY_SPACE)


@dataclass(frozen=True, eq=False)
class HeldOut:
    """The split keys of test and of valid (sorted); every other key is train's."""

    test: np.ndarray
    valid: np.ndarray

    @property
    def last(self) -> int:
        """The largest held-out key (-1 if none)."""
        return int(max(self.test[-1] if len(self.test) else -1, self.valid[-1] if len(self.valid) else -1))

    def split_of(self, key: int) -> str:
        """``"train"``, ``"valid"`` or ``"test"`` for a pair whose English has ``key``."""
        if key > self._last:
            return "train"
        for name, keys in (("test", self.test), ("valid", self.valid)):
            i = int(np.searchsorted(keys, np.uint64(key)))
            if i < len(keys) and int(keys[i]) == key:
                return name
        return "train"

    def __post_init__(self) -> None:
        object.__setattr__(self, "_last", self.last)


def assign(sorted_keys: Sequence[int] | np.ndarray, sizes: dict[str, int], complete: bool = True) -> HeldOut | None:
    """The held-out groups, from the smallest split keys of a corpus (with repetitions, sorted).

    ``sizes`` gives the wanted pairs of ``test`` and ``valid``. With ``complete=False`` the keys
    are only those below some bound; then None is returned when they run out before both
    held-out splits are full (ask again with every key).
    """
    keys = np.asarray(sorted_keys, dtype=np.uint64)
    uniq, counts = np.unique(keys, return_counts=True)
    want_test, want_valid = sizes["test"], sizes["valid"]
    test: list[int] = []
    valid: list[int] = []
    n_test = n_valid = 0
    for k, c in zip(uniq.tolist(), counts.tolist()):
        if n_test == want_test and n_valid == want_valid:
            break
        if n_test + c <= want_test:
            test.append(k)
            n_test += c
        elif n_valid + c <= want_valid:
            valid.append(k)
            n_valid += c
    else:
        if not complete and (n_test < want_test or n_valid < want_valid):
            return None
    return HeldOut(np.array(test, dtype=np.uint64), np.array(valid, dtype=np.uint64))
