"""Evaluation: sacrebleu BLEU and chrF on detokenized text (with signatures), teacher-forced
perplexity, BLEU by source length, and results tables."""

from companion.evaluation.metrics import (MetricScore, bleu_by_length, bleu_validator, corpus_bleu,
                                          corpus_chrf, perplexity)
from companion.evaluation.tables import results_markdown, write_results

__all__ = ["MetricScore", "bleu_by_length", "bleu_validator", "corpus_bleu", "corpus_chrf",
           "perplexity", "results_markdown", "write_results"]
