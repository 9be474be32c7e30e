"""What the chapters study beside the translation models: the hand-checked seed-000 toy
encoder-decoder (:mod:`~companion.experiments.toy`), the long-range recall task and the
char-level LM runs (:mod:`~companion.experiments.tasks`), n-gram baselines
(:mod:`~companion.experiments.ngram`) and gradient-flow measurement
(:mod:`~companion.experiments.gradients`)."""
