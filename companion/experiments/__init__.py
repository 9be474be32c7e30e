"""What the chapters study beside the models themselves.

- :mod:`~companion.experiments.regime` -- the book's regime: the corpus, vocabularies and training
  recipes that chapters 3-5 share (``book_data``, ``RECIPES``, ``train``);
- :mod:`~companion.experiments.scoring` -- BLEU, chrF, exact matches and BLEU by length of held-out
  pairs, sample translations, decoding settings compared;
- :mod:`~companion.experiments.records` -- the JSON results under ``book/results/`` (seed spreads,
  ablations, long runs), with provenance;
- :mod:`~companion.experiments.toy` and :mod:`~companion.experiments.tiny_transformer_run` -- the two hand-sized
  models whose recorded outputs the book reproduces exactly (a peephole-LSTM encoder-decoder, a
  tiny Transformer);
- :mod:`~companion.experiments.tasks` -- the long-range recall task and the char-level LM runs;
- :mod:`~companion.experiments.ngram` -- n-gram baselines;
- :mod:`~companion.experiments.gradients` -- gradient flow through time, measured.
"""
