"""Special token ids, fixed project-wide: PAD=0, BOS=1, EOS=2, UNK=3."""

PAD = 0
BOS = 1
EOS = 2
UNK = 3

#: Surface forms in id order; every vocabulary reserves ids 0..3 for them.
SPECIAL_TOKENS = ("<pad>", "<s>", "</s>", "<unk>")
