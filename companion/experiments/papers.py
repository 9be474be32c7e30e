"""The papers' facts and claims in one place, and the claim table that tests them on our records.

Every number the book quotes from a paper lives here as a :class:`Fact` with the table or section it
comes from, so that a chapter glues it (``fact("sutskever2014.table1.single_reversed_beam12")``)
instead of typing it; the tables the chapters reprint are :data:`SUTSKEVER_TABLE1`,
:data:`SUTSKEVER_TABLE2`, :data:`BAHDANAU_TABLE1`, :data:`VASWANI_TABLE2` and
:data:`VASWANI_TABLE3`.

Every claim the book tests is a :class:`Claim`: what the paper says (in our words, with the section
or table), or -- labelled ``ours`` -- a finding of this book that no paper states (the alignment
error rate of attention, the gain of checkpoint averaging, the controls); the test as worded on
our records; its minimum effect; and whether the comparison is paired (variants of one model
trained under the same seeds in one run, differing in one choice) or unpaired (different families,
or runs of different records). :func:`claim_rows` judges all of them with
:mod:`companion.experiments.verdicts` and returns the rows of chapter 6's table, scope included.

Sources (``book/references.bib``): Sutskever, Vinyals & Le (2014), *Sequence to sequence learning
with neural networks*; Bahdanau, Cho & Bengio (2015), *Neural machine translation by jointly
learning to align and translate*; Vaswani et al. (2017), *Attention is all you need*; Xiong et al.
(2020), *On layer normalization in the Transformer architecture*.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.errors import DataError
from companion.experiments.records import read_record
from companion.experiments.regime import RECIPES
from companion.experiments.verdicts import (Verdict, judge, judge_not_worse, judge_unpaired, paired,
                                            per_seed)

#: the papers by bibliography key: authors and year as the book cites them
PAPERS = {
    "sutskever2014": "Sutskever et al. (2014)",
    "bahdanau2015": "Bahdanau et al. (2015)",
    "vaswani2017": "Vaswani et al. (2017)",
    "xiong2020": "Xiong et al. (2020)",
}


@dataclass(frozen=True)
class Fact:
    """One number from a paper: ``value`` (for computing), ``shown`` (as the paper prints it),
    ``what`` it is (our words), and where: ``paper`` (a key of :data:`PAPERS`) and ``where``
    (table or section)."""

    key: str
    value: float
    shown: str
    what: str
    paper: str
    where: str

    @property
    def source(self) -> str:
        """``"Sutskever et al. (2014), Table 1"``."""
        return f"{PAPERS[self.paper]}, {self.where}"


def _facts(paper: str, where: str, prefix: str, rows: Sequence[tuple[str, float, str, str]]) -> list[Fact]:
    return [Fact(f"{paper}.{prefix}.{name}", value, shown, what, paper, where) for name, value, shown, what in rows]


_S, _B, _V, _X = "sutskever2014", "bahdanau2015", "vaswani2017", "xiong2020"
#: the margin of "comparable results" in Xiong et al.'s claim, in BLEU
_XIONG_MARGIN = 1.0

SUTSKEVER_TABLE1 = _facts(_S, "Table 1", "table1", [
    ("bahdanau", 28.45, "28.45", "Bahdanau et al. (attention), as the table lists it"),
    ("baseline", 33.30, "33.30", "the phrase-based baseline system"),
    ("single_forward_beam12", 26.17, "26.17", "single forward LSTM, beam 12"),
    ("single_reversed_beam12", 30.59, "30.59", "single reversed LSTM, beam 12"),
    ("ensemble5_beam1", 33.00, "33.00", "ensemble of 5 reversed LSTMs, beam 1"),
    ("ensemble2_beam12", 33.27, "33.27", "ensemble of 2 reversed LSTMs, beam 12"),
    ("ensemble5_beam2", 34.50, "34.50", "ensemble of 5 reversed LSTMs, beam 2"),
    ("ensemble5_beam12", 34.81, "34.81", "ensemble of 5 reversed LSTMs, beam 12"),
])
SUTSKEVER_TABLE2 = _facts(_S, "Table 2", "table2", [
    ("baseline", 33.30, "33.30", "the phrase-based baseline system"),
    ("cho", 34.54, "34.54", "Cho et al.'s network used with the phrase-based system"),
    ("best_wmt14", 37.0, "37.0", "the best WMT'14 result, scored the paper's way"),
    ("rescore_single_forward", 35.61, "35.61", "the baseline's 1000-best list re-ranked by a single forward LSTM"),
    ("rescore_single_reversed", 35.85, "35.85", "... by a single reversed LSTM"),
    ("rescore_ensemble5", 36.5, "36.5", "... by an ensemble of 5 reversed LSTMs"),
    ("oracle_rescore", 45.0, "~45", "the best hypothesis of each 1000-best list (oracle)"),
])
BAHDANAU_TABLE1 = _facts(_B, "Table 1", "table1", [
    ("rnnencdec30_all", 13.93, "13.93", "RNNencdec-30, all test sentences"),
    ("rnnencdec30_nounk", 24.19, "24.19", "RNNencdec-30, sentences without unknown words"),
    ("rnnsearch30_all", 21.50, "21.50", "RNNsearch-30, all test sentences"),
    ("rnnsearch30_nounk", 31.44, "31.44", "RNNsearch-30, sentences without unknown words"),
    ("rnnencdec50_all", 17.82, "17.82", "RNNencdec-50, all test sentences"),
    ("rnnencdec50_nounk", 26.71, "26.71", "RNNencdec-50, sentences without unknown words"),
    ("rnnsearch50_all", 26.75, "26.75", "RNNsearch-50, all test sentences"),
    ("rnnsearch50_nounk", 34.16, "34.16", "RNNsearch-50, sentences without unknown words"),
    ("rnnsearch50star_all", 28.45, "28.45", "RNNsearch-50*, trained longer, all test sentences"),
    ("rnnsearch50star_nounk", 36.15, "36.15", "RNNsearch-50*, sentences without unknown words"),
    ("moses_all", 33.30, "33.30", "Moses, all test sentences (phrase-based, extra monolingual data)"),
    ("moses_nounk", 35.63, "35.63", "Moses, sentences without unknown words"),
])
VASWANI_TABLE2 = _facts(_V, "Table 2", "table2", [
    ("base_en_de", 27.3, "27.3", "Transformer (base), BLEU on newstest2014 English-German"),
    ("base_en_fr", 38.1, "38.1", "Transformer (base), BLEU on newstest2014 English-French"),
    ("base_flops", 3.3e18, "3.3 * 10^18", "Transformer (base), training cost in floating-point operations"),
    ("big_en_de", 28.4, "28.4", "Transformer (big), BLEU English-German"),
    ("big_en_fr", 41.8, "41.8", "Transformer (big), BLEU English-French"),
    ("big_flops", 2.3e19, "2.3 * 10^19", "Transformer (big), training cost in floating-point operations"),
])
VASWANI_TABLE3 = _facts(_V, "Table 3", "table3", [
    ("base_ppl", 4.92, "4.92", "base model, development perplexity (per word piece) on newstest2013 En-De"),
    ("base_bleu", 25.8, "25.8", "base model, development BLEU"),
    ("base_params_m", 65, "65", "base model, millions of parameters"),
    ("heads1_ppl", 5.29, "5.29", "(A) 1 head of width 512, development perplexity"),
    ("heads1_bleu", 24.9, "24.9", "(A) 1 head of width 512, development BLEU"),
    ("heads4_bleu", 25.5, "25.5", "(A) 4 heads of width 128, development BLEU"),
    ("heads16_bleu", 25.8, "25.8", "(A) 16 heads of width 32, development BLEU"),
    ("heads_most", 32, "32", "(A) the most heads tried"),
    ("width_least", 16, "16", "(A) the narrowest heads tried (d_k = d_v)"),
    ("heads32_ppl", 5.01, "5.01", "(A) 32 heads of width 16, development perplexity"),
    ("heads32_bleu", 25.4, "25.4", "(A) 32 heads of width 16, development BLEU"),
    ("dropout0_ppl", 5.77, "5.77", "(D) residual dropout 0.0, development perplexity"),
    ("dropout0_bleu", 24.6, "24.6", "(D) residual dropout 0.0, development BLEU"),
    ("dropout02_ppl", 4.95, "4.95", "(D) residual dropout 0.2, development perplexity"),
    ("dropout02_bleu", 25.5, "25.5", "(D) residual dropout 0.2, development BLEU"),
    ("smoothing0_ppl", 4.67, "4.67", "(D) label smoothing 0.0, development perplexity"),
    ("smoothing0_bleu", 25.3, "25.3", "(D) label smoothing 0.0, development BLEU"),
    ("smoothing02_ppl", 5.47, "5.47", "(D) label smoothing 0.2, development perplexity"),
    ("smoothing02_bleu", 25.7, "25.7", "(D) label smoothing 0.2, development BLEU"),
    ("big_ppl", 4.33, "4.33", "big model, development perplexity"),
    ("big_bleu", 26.4, "26.4", "big model, development BLEU"),
    ("big_params_m", 213, "213", "big model, millions of parameters"),
])

_OTHER_FACTS = [
    # Sutskever et al. (2014)
    *_facts(_S, "Section 3.1", "data", [
        ("train_sentences_m", 12, "12M", "training sentence pairs, millions (WMT'14 English-French subset)"),
        ("french_words_m", 348, "348M", "French words in the training pairs, millions"),
        ("english_words_m", 304, "304M", "English words in the training pairs, millions"),
    ]),
    *_facts(_S, "Section 3.3", "reversal", [
        ("ppl_forward", 5.8, "5.8", "test perplexity with the source read forwards"),
        ("ppl_reversed", 4.7, "4.7", "test perplexity with the source reversed"),
        ("bleu_forward", 25.9, "25.9", "test BLEU of decoded translations, source forwards"),
        ("bleu_reversed", 30.6, "30.6", "test BLEU of decoded translations, source reversed"),
    ]),
    *_facts(_S, "Section 3.4", "model", [
        ("layers", 4, "4", "LSTM layers in the encoder and in the decoder"),
        ("cells", 1000, "1000", "LSTM cells per layer"),
        ("embedding", 1000, "1000", "word embedding dimension"),
        ("vocab_in", 160_000, "160,000", "input (English) vocabulary"),
        ("vocab_out", 80_000, "80,000", "output (French) vocabulary"),
        ("state_numbers", 8000, "8000", "real numbers that represent a sentence (4 layers x 1000 x (h, c))"),
        ("params_m", 384, "384M", "parameters, millions"),
        ("recurrent_params_m", 64, "64M", "pure recurrent parameters, millions"),
        ("init_range", 0.08, "0.08", "every parameter drawn uniformly from [-0.08, 0.08]"),
        ("lr", 0.7, "0.7", "SGD learning rate, no momentum"),
        ("halve_after_epochs", 5, "5", "epochs before the rate is halved every half epoch"),
        ("epochs", 7.5, "7.5", "training epochs"),
        ("batch", 128, "128", "sentences per batch"),
        ("clip_norm", 5, "5", "gradient norm threshold"),
    ]),
    *_facts(_S, "Section 3.5", "cost", [
        ("gpus", 8, "8", "GPUs of the training machine"),
        ("days", 10, "about ten", "days of training"),
    ]),
    *_facts(_S, "Section 3.2", "search", [
        ("beam_best", 12, "12", "the widest beam in Table 1"),
    ]),
    # Bahdanau et al. (2015)
    *_facts(_B, "Section 4.1", "data", [
        ("words_m", 348, "348M", "words of the training corpus after data selection, millions"),
        ("vocab", 30_000, "30,000", "most frequent words kept per language (the rest become [UNK])"),
        ("test_sentences", 3003, "3,003", "sentences of news-test-2014"),
    ]),
    *_facts(_B, "Section 4.2 and Appendix A", "model", [
        ("hidden", 1000, "1000", "hidden units of the encoder (each direction) and the decoder"),
        ("embedding", 620, "620", "word embedding dimension"),
        ("alignment_hidden", 1000, "1000", "hidden units of the alignment model"),
        ("maxout", 500, "500", "units of the maxout output layer"),
        ("batch", 80, "80", "sentences per minibatch"),
        ("train_days", 5, "about 5", "days of training per model"),
    ]),
    # Vaswani et al. (2017)
    *_facts(_V, "Table 3 and Section 3", "base", [
        ("layers", 6, "6", "encoder layers, and decoder layers, of the base model"),
        ("d_model", 512, "512", "model width of the base model"),
        ("d_ff", 2048, "2048", "feed-forward width of the base model"),
        ("heads", 8, "8", "attention heads of the base model"),
    ]),
    *_facts(_V, "Section 5", "training", [
        ("batch_tokens", 25_000, "about 25,000", "source tokens (and as many target tokens) per batch"),
        ("gpus", 8, "8", "P100 GPUs"),
        ("base_steps", 100_000, "100,000", "training steps of the base model"),
        ("base_hours", 12, "12", "hours of training of the base model"),
        ("big_steps", 300_000, "300,000", "training steps of the big model"),
        ("big_days", 3.5, "3.5", "days of training of the big model"),
        ("adam_beta1", 0.9, "0.9", "Adam beta_1"),
        ("adam_beta2", 0.98, "0.98", "Adam beta_2"),
        ("adam_eps", 1e-9, "10^-9", "Adam epsilon"),
        ("warmup", 4000, "4000", "warmup steps of the learning-rate schedule"),
        ("dropout", 0.1, "0.1", "residual dropout of the base model"),
        ("label_smoothing", 0.1, "0.1", "label smoothing epsilon"),
    ]),
    *_facts(_V, "Section 6.1", "inference", [
        ("average_base", 5, "5", "last checkpoints averaged for a base model (written at 10-minute intervals)"),
        ("average_big", 20, "20", "last checkpoints averaged for a big model"),
        ("beam", 4, "4", "beam size"),
        ("length_penalty", 0.6, "0.6", "length penalty alpha"),
        ("max_extra_length", 50, "50", "output may be at most this many tokens longer than the input"),
    ]),
]

#: every fact by key
FACTS: dict[str, Fact] = {f.key: f for f in [*SUTSKEVER_TABLE1, *SUTSKEVER_TABLE2, *BAHDANAU_TABLE1,
                                             *VASWANI_TABLE2, *VASWANI_TABLE3, *_OTHER_FACTS]}


def fact(key: str) -> Fact:
    """The fact registered as ``key``; a one-line error names the closest keys."""
    try:
        return FACTS[key]
    except KeyError:
        prefix = key.rsplit(".", 1)[0]
        near = [k for k in FACTS if k.startswith(prefix)] or sorted(FACTS)[:5]
        raise DataError(f"no paper fact {key!r} (e.g. {', '.join(near[:12])})") from None


# ------------------------------------------------------------------------------------ claims
Records = Mapping[str, Mapping[str, Any]]


def _f(key: str) -> str:
    """A fact as the paper prints it (claims quote the facts, never retype them)."""
    return FACTS[key].shown


@dataclass(frozen=True)
class Claim:
    """A claim and its test.

    ``statement`` is what the source says, in our words; ``paper`` its :data:`PAPERS` key, None
    for a finding of ours; ``where`` the section or table. ``test`` words our measurement;
    ``kind`` is ``"paired"`` (:func:`~companion.experiments.verdicts.judge`), ``"unpaired"``
    (:func:`~companion.experiments.verdicts.judge_unpaired`) or ``"not worse"``
    (:func:`~companion.experiments.verdicts.judge_not_worse`, ``min_effect`` is the margin);
    ``measure(records)`` returns the per-seed differences (paired) or the two groups (unpaired);
    ``scope`` names the ``(record, model)`` runs the test rests on. A claim we cannot test has no
    ``measure`` and says why in ``untested``.
    """

    key: str
    statement: str
    paper: str | None
    where: str
    test: str
    unit: str = "BLEU"
    min_effect: float = 1.0
    kind: str = "paired"
    sign: int = 1
    measure: Callable[[Records], Any] | None = None
    scope: tuple[tuple[str, str], ...] = ()
    note: str = ""
    untested: str = ""

    @property
    def source(self) -> str:
        """``"Sutskever et al. (2014), Section 3.3"`` or ``"ours"``."""
        return f"{PAPERS[self.paper]}, {self.where}" if self.paper else "ours" + (f" ({self.where})" if self.where else "")

    @property
    def records(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(name for name, _ in self.scope))


def _seeds_of(record: Mapping[str, Any], fn: Callable[[Mapping[str, Any]], float]) -> list[float]:
    try:
        return [float(fn(row)) for row in record["results"]["per_seed"].values()]
    except (KeyError, TypeError):
        raise DataError(f"{record.get('name')}: a seed lacks what this claim measures") from None


def _gap(model: str) -> Callable[[Mapping[str, Any]], float]:
    """BLEU on sentences of at least 20 words minus BLEU on those of at most 10, of ``model``."""
    return lambda row: row[model]["test_bleu_20_words_or_more"] - row[model]["test_bleu_10_words_or_less"]


S2S, ATT, SCORING, TF, ABL = "seeds-seq2seq", "seeds-attention", "ablation-attention-scoring", "seeds-transformer", \
    "ablation-transformer"
BAT = "batching-transformer"
VAR = "variations-transformer"

CLAIMS: tuple[Claim, ...] = (
    Claim("reversal_bleu", "reading the source sentence backwards makes the LSTM translate better "
          f"(test BLEU {_f('sutskever2014.reversal.bleu_forward')} to {_f('sutskever2014.reversal.bleu_reversed')})",
          _S, "Section 3.3",
          "BLEU(reversed) - BLEU(forward), seed by seed",
          measure=lambda r: paired(r[S2S], "seq2seq_reversed", "seq2seq", "test_bleu"),
          scope=((S2S, "seq2seq"), (S2S, "seq2seq_reversed")),
          note="our models train and test on sentences of at most 10 words"),
    Claim("reversal_ppl", "reversing the source lowers the test perplexity "
          f"({_f('sutskever2014.reversal.ppl_forward')} to {_f('sutskever2014.reversal.ppl_reversed')})",
          _S, "Section 3.3",
          "validation perplexity per piece, reversed - forward, seed by seed", unit="perplexity",
          min_effect=0.02, sign=-1,
          measure=lambda r: paired(r[S2S], "seq2seq_reversed", "seq2seq", "valid_ppl"),
          scope=((S2S, "seq2seq"), (S2S, "seq2seq_reversed")),
          note="ours per SentencePiece piece on validation, the paper's per word on test"),
    Claim("ensemble", "an ensemble of LSTMs translates better than one LSTM (Table 1, beam 12: "
          f"{_f('sutskever2014.table1.single_reversed_beam12')} single, {_f('sutskever2014.table1.ensemble2_beam12')} "
          f"for two, {_f('sutskever2014.table1.ensemble5_beam12')} for five)", _S, "Table 1",
          "BLEU(ensemble of the forward and the reversed model) - BLEU(its better member), seed by seed",
          measure=lambda r: _seeds_of(r[S2S], lambda row: row["ensemble"]["test_bleu"]
                                      - max(row["seq2seq"]["test_bleu"], row["seq2seq_reversed"]["test_bleu"])),
          scope=((S2S, "seq2seq"), (S2S, "seq2seq_reversed")),
          note="two members that differ in reading direction; the paper's 2-member row has two reversed LSTMs"),
    Claim("beam_lstm", "beam search improves on greedy decoding (tested: beam 5 against greedy; the "
          "paper adds that a beam of 2 gives most of the gain, which needs a beam-2 run we do not make) "
          f"(Table 1, five reversed LSTMs: {_f('sutskever2014.table1.ensemble5_beam1')} at beam 1, "
          f"{_f('sutskever2014.table1.ensemble5_beam2')} at 2, {_f('sutskever2014.table1.ensemble5_beam12')} at 12)",
          _S, "Section 3.2 and Table 1",
          "BLEU(beam 5) - BLEU(greedy), reversed LSTM, the same model seed by seed", min_effect=0.5,
          measure=lambda r: _seeds_of(r[S2S], lambda row: row["seq2seq_reversed"]["test_bleu"]
                                      - row["seq2seq_reversed"]["test_bleu_greedy"]),
          scope=((S2S, "seq2seq_reversed"),)),
    Claim("lstm_long", "the LSTM does well on long sentences (Figure 3: no degradation below 35 words)", _S,
          "Section 3.7", "not tested",
          untested="chapter 3's models train on sentences of at most 10 words; longer ones are extrapolation"),
    Claim("attention_bleu", "RNNsearch translates better than RNNencdec (Table 1: "
          f"{_f('bahdanau2015.table1.rnnsearch30_all')} against {_f('bahdanau2015.table1.rnnencdec30_all')} "
          "for the -30 models)", _B, "Table 1",
          "BLEU(RNNsearch) - BLEU(RNNencdec), equal parameters, steps and batches", kind="unpaired",
          measure=lambda r: (per_seed(r[ATT], "rnnsearch", "test_bleu"), per_seed(r[ATT], "rnnencdec", "test_bleu")),
          scope=((ATT, "rnnsearch"), (ATT, "rnnencdec"))),
    Claim("attention_long", "attention helps most on long sentences: RNNencdec's BLEU falls with length, "
          "RNNsearch's hardly (Figure 2)", _B, "Section 5.1 and Figure 2",
          "(RNNsearch - RNNencdec on >= 20 words) - (RNNsearch - RNNencdec on <= 10 words): each run's "
          "BLEU on >= 20 words minus its BLEU on <= 10 words, RNNsearch's runs against RNNencdec's",
          kind="unpaired",
          measure=lambda r: (_seeds_of(r[ATT], _gap("rnnsearch")), _seeds_of(r[ATT], _gap("rnnencdec"))),
          scope=((ATT, "rnnsearch"), (ATT, "rnnencdec"))),
    Claim("attention_converged", f"RNNsearch ({RECIPES['rnnsearch'].train['max_steps']} steps) beats RNNencdec trained until its validation "
          "perplexity stops improving", None, "control",
          "BLEU(RNNsearch) - BLEU(RNNencdec, early-stopped at its validation optimum)", kind="unpaired",
          measure=lambda r: (per_seed(r[ATT], "rnnsearch", "test_bleu"),
                             per_seed(r[ATT], "rnnencdec_converged", "test_bleu")),
          scope=((ATT, "rnnsearch"), (ATT, "rnnencdec_converged")),
          note="whether the fixed vector, not the budget, limits RNNencdec"),
    Claim("attention_aer", "RNNsearch's attention aligns words better than the best aligner that ignores "
          "reordering (alignment error rate against the corpus's gold alignments)", None,
          "Bahdanau et al. show alignments as pictures (Figure 3) and report no AER",
          "AER(attention) - AER(monotone oracle), seed by seed", unit="AER", min_effect=0.02, sign=-1,
          measure=lambda r: _seeds_of(r[ATT], lambda row: row["rnnsearch"]["aer"]
                                      - row["rnnsearch"]["alignment"]["monotone_oracle"]["aer"]),
          scope=((ATT, "rnnsearch"),)),
    Claim("additive_vs_dot", "additive attention aligns better than dot-product attention with the "
          "additive model's recipe", None, "scoring ablation",
          "AER(additive) - AER(dot), seed by seed", unit="AER", min_effect=0.02, sign=-1,
          measure=lambda r: paired(r[SCORING], "rnnsearch", "rnnsearch_dot", "aer"),
          scope=((SCORING, "rnnsearch"), (SCORING, "rnnsearch_dot"))),
    Claim("transformer_bleu", "the big Transformer outscores every previously reported model on WMT14 "
          "English-German (ensembles included) and every earlier single model on English-French, "
          "at a fraction of their training cost (Table 2)",
          _V, "Table 2 and Section 6.1",
          "BLEU(Transformer) - BLEU(RNNsearch), each with its recipe's updates on one CPU thread "
          "(RNNsearch the only earlier model tested; no convolutional model)", kind="unpaired",
          measure=lambda r: (per_seed(r[TF], "transformer", "test_bleu"), per_seed(r[ATT], "rnnsearch", "test_bleu")),
          scope=((TF, "transformer"), (ATT, "rnnsearch"))),
    Claim("transformer_cost", "the Transformer trains at a fraction of the recurrent models' cost "
          "(Table 2, training FLOPs)", _V, "Table 2", "not tested",
          untested="a claim about parallel hardware; one CPU thread has no parallel units to fill"),
    Claim("smoothing_bleu", "label smoothing 0.1 improves BLEU (Table 3 (D): "
          f"{_f('vaswani2017.table3.smoothing0_bleu')} without, {_f('vaswani2017.table3.base_bleu')} with)", _V,
          "Section 5.4 and Table 3", "BLEU(smoothed) - BLEU(book's recipe), seed by seed", min_effect=0.5,
          measure=lambda r: paired(r[ABL], "transformer_smoothed", "transformer", "test_bleu"),
          scope=((ABL, "transformer"), (ABL, "transformer_smoothed"))),
    Claim("smoothing_ppl", "label smoothing hurts perplexity (Table 3 (D): "
          f"{_f('vaswani2017.table3.smoothing0_ppl')} without, {_f('vaswani2017.table3.base_ppl')} with)", _V,
          "Section 5.4 and Table 3", "validation perplexity, smoothed - book's recipe, seed by seed",
          unit="perplexity", min_effect=0.01,
          measure=lambda r: paired(r[ABL], "transformer_smoothed", "transformer", "valid_ppl"),
          scope=((ABL, "transformer"), (ABL, "transformer_smoothed"))),
    Claim("heads_single", "single-head attention is worse than several heads at the same computation "
          f"(Table 3 (A): {_f('vaswani2017.table3.heads1_bleu')} BLEU with one head against "
          f"{_f('vaswani2017.table3.base_bleu')} with eight)", _V, "Table 3 (A)",
          "BLEU(4 heads of width 32, the book's recipe) - BLEU(1 head of width 128), seed by seed",
          min_effect=0.5,
          measure=lambda r: paired(r[VAR], "transformer", "transformer_heads1", "test_bleu"),
          scope=((VAR, "transformer"), (VAR, "transformer_heads1")),
          note="the paper's width is 512 and its best rows have 8-16 heads; ours is 128"),
    Claim("heads_many", "quality also drops off with too many heads (Table 3 (A): 32 heads of width 16, "
          f"{_f('vaswani2017.table3.heads32_bleu')} BLEU against {_f('vaswani2017.table3.heads16_bleu')} with 16)",
          _V, "Table 3 (A)",
          "BLEU(4 heads of width 32) - BLEU(8 heads of width 16, the paper's narrowest heads), seed by seed",
          min_effect=0.5,
          measure=lambda r: paired(r[VAR], "transformer", "transformer_heads8", "test_bleu"),
          scope=((VAR, "transformer"), (VAR, "transformer_heads8"))),
    Claim("dropout_bleu", "residual dropout improves BLEU (Table 3 (D): "
          f"{_f('vaswani2017.table3.dropout0_bleu')} without, {_f('vaswani2017.table3.base_bleu')} with 0.1)",
          _V, "Section 5.4 and Table 3 (D)",
          "BLEU(dropout 0.1) - BLEU(the book's recipe, no dropout), seed by seed", min_effect=0.5,
          measure=lambda r: paired(r[VAR], "transformer_dropout", "transformer", "test_bleu"),
          scope=((VAR, "transformer"), (VAR, "transformer_dropout")),
          note="our runs see the training corpus about once; dropout fights overfitting"),
    Claim("transformer_equal_cpu", "the Transformer translates better than RNNsearch when both get the same "
          "CPU time", None, "control",
          f"BLEU(Transformer stopped at RNNsearch's CPU time, {RECIPES['transformer_equal_cpu'].train['max_steps']:,} "
          f"steps) - BLEU(RNNsearch, {RECIPES['rnnsearch'].train['max_steps']:,} steps)",
          kind="unpaired",
          measure=lambda r: (per_seed(r[VAR], "transformer_equal_cpu", "test_bleu"),
                             per_seed(r[ATT], "rnnsearch", "test_bleu")),
          scope=((VAR, "transformer_equal_cpu"), (ATT, "rnnsearch")),
          note="the step count was fixed in advance from the two seed records' CPU times; the runs' own CPU "
               "seconds were measured beside other runs and run high (chapter 5 compares them side by side); "
               "the Transformer keeps its larger number of parameters"),
    Claim("averaging", "averaging the last 5 checkpoints beats the last checkpoint alone", None,
          "Vaswani et al. average checkpoints (Section 6.1) but do not test it",
          "BLEU(mean of the last 5 checkpoints, 25 steps apart) - BLEU(last checkpoint), seed by seed",
          min_effect=0.5,
          measure=lambda r: _seeds_of(r[ABL], lambda row: row["averaging"]["last5"]["test_bleu"]
                                      - row["averaging"]["last"]["test_bleu"]),
          scope=((ABL, "transformer"),)),
    # the warmup controls remove the warmup and nothing else: the warmed-up peak rate from step 1,
    # then the recipe's own decay ("_no_warmup"); "_constant" also removes the decay (two changes)
    Claim("postln_warmup", "a Post-LN Transformer needs the learning-rate warmup", _X, "Abstract and Section 3",
          "BLEU(Post-LN with warmup) - BLEU(Post-LN at the warmed-up peak rate from step 1, then the same "
          "decay), seed by seed",
          measure=lambda r: paired(r[ABL], "transformer_postln", "transformer_postln_no_warmup", "test_bleu"),
          scope=((ABL, "transformer_postln"), (ABL, "transformer_postln_no_warmup"))),
    Claim("preln_no_warmup", "a Pre-LN Transformer trains without warmup and reaches results comparable "
          "to the warmed-up model", _X, "Abstract and Section 5",
          "BLEU(Pre-LN at the warmed-up peak rate from step 1, then the same decay) is not below BLEU(Pre-LN "
          f"with warmup) by more than {_XIONG_MARGIN:g} BLEU, seed by seed", kind="not worse",
          min_effect=_XIONG_MARGIN,
          measure=lambda r: paired(r[ABL], "transformer_no_warmup", "transformer", "test_bleu"),
          scope=((ABL, "transformer"), (ABL, "transformer_no_warmup"))),
    Claim("decay_without_warmup", "without warmup, the recipe's decay still helps: the peak rate from step 1 "
          "then the recipe's decay beats the same peak held constant", None, "control",
          "BLEU(Pre-LN, peak from step 1 then decay) - BLEU(Pre-LN, peak held constant), seed by seed",
          measure=lambda r: paired(r[ABL], "transformer_no_warmup", "transformer_constant", "test_bleu"),
          scope=((ABL, "transformer_no_warmup"), (ABL, "transformer_constant")),
          note="the constant control of earlier editions removed the warmup and the decay at once"),
    Claim("lr_spike", "the schedule's formula with warmup 0 -- a first step at "
          f"{RECIPES['transformer'].train['warmup_steps'] ** 0.5:.0f} times the peak rate, then decay -- spoils training", None, "control",
          "BLEU(book's recipe) - BLEU(the same formula with warmup 0), seed by seed",
          measure=lambda r: paired(r[ABL], "transformer", "transformer_lr_spike", "test_bleu"),
          scope=((ABL, "transformer"), (ABL, "transformer_lr_spike"))),
    Claim("book_vs_paper", "the book's variant (Pre-LN, no dropout, no smoothing) beats the paper's "
          "configuration (Post-LN, dropout 0.1, smoothing 0.1) at our size and budget", None, "control",
          "BLEU(book's recipe) - BLEU(paper's configuration), seed by seed",
          measure=lambda r: paired(r[ABL], "transformer", "transformer_paper", "test_bleu"),
          scope=((ABL, "transformer"), (ABL, "transformer_paper"))),
    Claim("batching_budget", f"at the book's budget of {RECIPES['transformer'].max_tokens:,} token cells per batch, "
          "length buckets train the "
          "Transformer better than batches of mixed lengths", None, "chapter 5",
          "BLEU(length buckets) - BLEU(mixed lengths, the same budget), seed by seed",
          measure=lambda r: paired(r[BAT], "transformer", "transformer_mixed", "test_bleu"),
          scope=((BAT, "transformer"), (BAT, "transformer_mixed")),
          note=f"mixed batches of {RECIPES['transformer_mixed'].max_tokens:,} cells carry about half as many real tokens"),
    Claim("batching_composition", "with nearly as many real tokens per update, batches of mixed lengths "
          "train the Transformer better than length buckets (as on the reversal task)", None, "chapter 5",
          f"BLEU(mixed lengths, {RECIPES['transformer_mixed_2150'].max_tokens:,} cells) - BLEU(length buckets, "
          f"{RECIPES['transformer'].max_tokens:,} cells), seed by seed",
          measure=lambda r: paired(r[BAT], "transformer_mixed_2150", "transformer", "test_bleu"),
          scope=((BAT, "transformer"), (BAT, "transformer_mixed_2150")),
          note="the mixed batches cost about twice the CPU time per update"),
    Claim("batching_packed", "packed batches of mixed lengths train the Transformer better than length "
          "buckets in as many updates", None, "chapter 5",
          "BLEU(packed mixed lengths) - BLEU(length buckets), the same budget of real tokens, seed by seed",
          measure=lambda r: paired(r[BAT], "transformer_packed", "transformer", "test_bleu"),
          scope=((BAT, "transformer"), (BAT, "transformer_packed")),
          note="a packed row is as wide as its batch's longest pair: more CPU per update"),
    Claim("beam_transformer", "beam search beats greedy search for the Transformer", None, "",
          "BLEU(beam 5) - BLEU(greedy), the same model seed by seed", min_effect=0.5,
          measure=lambda r: _seeds_of(r[TF], lambda row: row["transformer"]["test_bleu"]
                                      - row["transformer"]["test_bleu_greedy"]),
          scope=((TF, "transformer"),)),
)


def further_tests() -> list[str]:
    """The tests the chapters judge by the verdict rule outside :data:`CLAIMS` (subgroups and
    re-comparisons of a claim, per-set comparisons), one line each. With :data:`CLAIMS` they are
    the tests run together, which is what chapter 6's count of chance "holds" must cover;
    chapter 5 asserts that the tests it runs are these."""
    from companion.data.kosynth import CHALLENGES

    where = "ch. 5, the Transformer against RNNsearch"
    return ([f"{where}, sentences of at most 10 words", f"{where}, sentences of at least 20 words",
             f"{where}, attention AER"]
            + [f"{where}, challenge set '{name}'" for name in CHALLENGES]
            + [f"{where}, packed batches, all sentences", f"{where}, packed batches, at least 20 words"])


def claim(key: str) -> Claim:
    for c in CLAIMS:
        if c.key == key:
            return c
    raise DataError(f"no claim {key!r} (known: {', '.join(c.key for c in CLAIMS)})")


def judge_claim(c: Claim, records: Records) -> Verdict:
    """The verdict on ``c`` from ``records`` (name -> record)."""
    if c.measure is None:
        raise DataError(f"claim {c.key!r} is not tested here: {c.untested}")
    measured = c.measure(records)
    if c.kind == "unpaired":
        return judge_unpaired(*measured, sign=c.sign, min_effect=c.min_effect)
    if c.kind == "not worse":
        return judge_not_worse(measured, margin=c.min_effect, sign=c.sign)
    return judge(measured, sign=c.sign, min_effect=c.min_effect)


# ------------------------------------------------------------------------------------ scope
def _mean(values: Sequence[Any]) -> float | None:
    vals = [float(v) for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    return statistics.fmean(vals) if vals else None


def run_scope(record: Mapping[str, Any], model: str) -> dict[str, Any]:
    """What one model's runs in a record were: parameters, steps and training CPU seconds (means
    over seeds), corpus level and size, longest training sentence, threads and seeds."""
    config = record["config"]
    rows = [row[model] for row in record["results"]["per_seed"].values() if model in row]
    if not rows:
        raise DataError(f"{record.get('name')} holds no run of {model}")
    regime = config.get("regime") or {}
    recipe = (config.get("recipes") or {}).get(model) or {}
    level = regime.get("level")
    steps = _mean([r.get("steps") for r in rows])
    if steps is None:
        steps = (recipe.get("train") or {}).get("max_steps")
    return {"model": model, "parameters": _mean([r.get("parameters") for r in rows]), "steps": steps,
            "train_cpu_s": _mean([r.get("train_cpu_s", r.get("cpu_s")) for r in rows]),
            "level": level if isinstance(level, str) else (level or {}).get("name"),
            "pairs": regime.get("size"), "max_words": recipe.get("max_words") or regime.get("max_words"),
            "threads": config.get("threads"), "seeds": len(record["results"]["per_seed"])}


def scope_text(scope: dict[str, Any]) -> str:
    """``"transformer: 0.84M parameters, 1200 steps, 116 CPU-s, level small, 100k pairs, <= 30 words,
    1 thread, 5 seeds"`` (unknown parts left out)."""
    parts = []
    if scope["parameters"]:
        parts.append(f"{scope['parameters'] / 1e6:.2f}M parameters")
    if scope["steps"]:
        parts.append(f"{scope['steps']:.0f} steps")
    if scope["train_cpu_s"]:
        parts.append(f"{scope['train_cpu_s']:.0f} CPU-s")
    if scope["level"]:
        parts.append(f"level {scope['level']}")
    if scope["pairs"]:
        parts.append(f"{scope['pairs'] / 1000:.0f}k pairs")
    if scope["max_words"]:
        parts.append(f"<= {scope['max_words']} words")
    if scope["threads"]:
        parts.append(f"{scope['threads']} thread" + ("s" if scope["threads"] > 1 else ""))
    parts.append(f"{scope['seeds']} seeds")
    return f"{scope['model']}: " + ", ".join(parts)


def _load(names: Sequence[str], records: Records | None) -> dict[str, Mapping[str, Any]]:
    out = {}
    for name in names:
        if records is None:
            out[name] = read_record(name)
        elif name in records:
            out[name] = records[name]
        else:  # records given: they are the whole evidence, book/results/ is not consulted
            raise DataError(f"record {name} is not among the records given")
    return out


def claim_rows(records: Records | None = None, claims: Sequence[Claim] = CLAIMS) -> list[dict[str, Any]]:
    """Chapter 6's claim table: one row per claim with ``claim``, ``source``, ``test``, ``scope``
    (one line per run it rests on), ``kind`` (paired / unpaired / paired, not worse),
    ``min_effect``, ``sign`` (the claimed direction) and ``unit``, the per-seed ``diffs`` (paired) or the two ``groups``
    (unpaired), ``mean``, ``p``, ``verdict`` and ``evidence`` (the verdict's summary line).

    ``records`` maps record names to records (default: read from ``book/results/``). A claim
    whose record or measurement is missing gets the verdict ``"not measured"`` and the reason in
    ``missing``; one we cannot test, ``"not tested"`` and the reason."""
    rows = []
    for c in claims:
        row: dict[str, Any] = {"key": c.key, "claim": c.statement, "source": c.source, "test": c.test,
                               "ours": c.paper is None, "kind": {"not worse": "paired, not worse"}.get(c.kind, c.kind),
                               "min_effect": c.min_effect, "sign": c.sign, "unit": c.unit, "note": c.note,
                               "scope": [],
                               "diffs": None, "groups": None, "mean": None, "p": None, "evidence": ""}
        if c.measure is None:
            rows.append({**row, "verdict": "not tested", "missing": c.untested})
            continue
        try:
            loaded = _load(c.records, records)
            row["scope"] = [scope_text(run_scope(loaded[name], model)) for name, model in c.scope]
            v = judge_claim(c, loaded)
        except DataError as exc:
            rows.append({**row, "verdict": "not measured", "missing": str(exc)})
            continue
        digits = 3 if c.unit in ("AER", "perplexity") else 1
        rows.append({**row, "diffs": list(v.diffs) if v.paired else None,
                     "groups": [list(v.a), list(v.b)] if not v.paired else None, "mean": v.mean, "p": v.p,
                     "verdict": v.verdict, "evidence": v.evidence(c.unit if c.unit == "BLEU" else "", digits),
                     "missing": ""})
    return rows


__all__ = ["BAHDANAU_TABLE1", "CLAIMS", "Claim", "FACTS", "Fact", "PAPERS", "SUTSKEVER_TABLE1", "SUTSKEVER_TABLE2",
           "VASWANI_TABLE2", "VASWANI_TABLE3", "claim", "claim_rows", "fact", "further_tests", "judge_claim", "run_scope",
           "scope_text"]
