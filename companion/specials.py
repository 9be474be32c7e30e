"""Special token ids, fixed project-wide: PAD=0, BOS=1, EOS=2, UNK=3."""

PAD = 0
BOS = 1
EOS = 2
UNK = 3

#: Surface forms in id order; every vocabulary reserves ids 0..3 for them.
SPECIAL_TOKENS = ("<pad>", "<s>", "</s>", "<unk>")

#: ids no search ever generates (every hypothesis starts after BOS; PAD only fills batches)
NEVER_GENERATED = (PAD, BOS)


def ban_tokens(scores, ids=NEVER_GENERATED, *, inplace: bool = False):
    """``scores`` ``(..., V)`` (a torch tensor) with ``-inf`` at the token ids ``ids`` (by default
    PAD and BOS), so that no argmax, top-k or sample picks them. A copy unless ``inplace``."""
    if not inplace:
        scores = scores.clone()
    scores[..., list(ids)] = float("-inf")
    return scores
