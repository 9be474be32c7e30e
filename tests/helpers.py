"""Small builders shared by the model tests."""

from __future__ import annotations

import torch

from companion.specials import EOS


def random_pairs(seed: int = 1, n: int = 4, src_vocab: int = 13, tgt_vocab: int = 11):
    """``n`` (source ids + EOS, target ids) pairs of varied lengths over ids ``4..V-1``."""
    g = torch.Generator().manual_seed(seed)
    out = []
    for i in range(n):
        s = torch.randint(4, src_vocab, (2 + (3 * i) % 7,), generator=g).tolist() + [EOS]
        t = torch.randint(4, tgt_vocab, (1 + (2 * i + 1) % 6,), generator=g).tolist()
        out.append((s, t))
    return out
