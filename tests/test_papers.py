"""The papers' facts (one source for every number the book quotes) and the claim table built from
records: each claim as its source states it, tested as worded, with scope, and labelled paired or
unpaired."""

from __future__ import annotations

import pytest

from companion.errors import DataError
from companion.experiments.papers import (BAHDANAU_TABLE1, CLAIMS, FACTS, PAPERS, SUTSKEVER_TABLE1, VASWANI_TABLE2,
                                          VASWANI_TABLE3, claim, claim_rows, fact)
from companion.experiments.verdicts import FEW, HOLDS, NOISE, OPPOSITE

#: numbers from the papers that the chapters typed by hand before this module existed (found by
#: reading book/*.ipynb as text): each must now have one source here
TYPED_IN_CHAPTERS = {
    "sutskever2014": [28.45, 33.30, 26.17, 30.59, 33.00, 33.27, 34.50, 34.81, 36.5, 5.8, 4.7, 4, 1000,
                      160_000, 80_000, 12, 348, 304, 0.7, 5, 128, 8, 10],
    "bahdanau2015": [13.93, 24.19, 21.50, 31.44, 17.82, 26.71, 26.75, 34.16, 28.45, 36.15, 33.30, 35.63,
                     1000, 620, 500, 30_000, 348, 3003, 80, 5],
    "vaswani2017": [27.3, 38.1, 28.4, 41.8, 3.3e18, 2.3e19, 65, 213, 0.9, 0.98, 1e-9, 4000, 0.1, 512, 8, 6,
                    2048, 100_000, 25_000, 12, 3.5, 5],
}


def test_every_number_the_chapters_quote_has_a_sourced_fact():
    for paper, numbers in TYPED_IN_CHAPTERS.items():
        values = {f.value for f in FACTS.values() if f.paper == paper}
        missing = [n for n in numbers if not any(abs(n - v) <= 1e-9 * max(1.0, abs(v)) for v in values)]
        assert not missing, f"{paper}: no fact for {missing}"


def test_facts_name_their_source():
    for f in FACTS.values():
        assert f.paper in PAPERS and f.where and f.what and f.shown
        assert f.source.startswith(PAPERS[f.paper])
    assert fact("sutskever2014.table1.ensemble2_beam12").value == 33.27
    assert fact("sutskever2014.table1.ensemble2_beam12").source == "Sutskever et al. (2014), Table 1"
    assert [f.value for f in SUTSKEVER_TABLE1][-1] == 34.81 and len(BAHDANAU_TABLE1) == 12
    assert fact("vaswani2017.table2.big_flops").value == 2.3e19 and len(VASWANI_TABLE2) == 6
    assert fact("vaswani2017.table3.smoothing0_bleu").value < fact("vaswani2017.table3.base_bleu").value
    assert len(VASWANI_TABLE3) == 22
    assert fact("vaswani2017.table3.heads1_bleu").value < fact("vaswani2017.table3.heads16_bleu").value
    with pytest.raises(DataError, match="no paper fact 'sutskever2014.table1.nope'.*ensemble5_beam12"):
        fact("sutskever2014.table1.nope")


def test_claims_are_sourced_or_labelled_ours():
    for c in CLAIMS:
        assert c.statement and c.test and c.kind in ("paired", "unpaired", "not worse")
        if c.paper is None:
            assert c.source.startswith("ours")
        else:
            assert c.source == f"{PAPERS[c.paper]}, {c.where}" and c.where
        assert (c.measure is None) == bool(c.untested)
    # findings of ours are not attributed to the papers that inspired them
    assert claim("attention_aer").source.startswith("ours") and "no AER" in claim("attention_aer").source
    assert claim("averaging").source.startswith("ours")
    # Xiong et al.'s claim is that Pre-LN trains without warmup, tested as non-inferiority
    assert claim("preln_no_warmup").paper == "xiong2020" and claim("preln_no_warmup").kind == "not worse"
    # across families pairing by seed means nothing
    for key in ("attention_bleu", "attention_long", "transformer_bleu"):
        assert claim(key).kind == "unpaired"
    assert "33.27" in claim("ensemble").statement  # the 2-member row, beside ours of two members


def _row(**models):
    return {name: dict(values) for name, values in models.items()}


def _records(n=5):
    """Records in the shape the scripts write, with made-up numbers: attention far ahead, reversal
    within noise, the Transformer behind RNNsearch, warmup needed by Post-LN only."""
    regime = {"level": "small", "size": 100_000, "max_words": 30}

    def rec(name, per_seed, recipes):
        return {"name": name, "config": {"regime": regime, "threads": 1, "seeds": list(range(n)),
                                         "recipes": {m: {"max_words": w, "train": {"max_steps": 700}}
                                                     for m, w in recipes.items()}},
                "results": {"per_seed": {str(s): per_seed(s) for s in range(n)}}}

    wiggle = [0.3, -0.2, 0.1, -0.4, 0.2, 0.0, 0.5][:n]
    s2s = rec("seeds-seq2seq", lambda s: _row(
        seq2seq={"test_bleu": 72 + wiggle[s], "valid_ppl": 1.27, "test_bleu_greedy": 71, "parameters": 355_601,
                 "steps": 1800, "train_cpu_s": 95},
        seq2seq_reversed={"test_bleu": 72 - wiggle[s], "valid_ppl": 1.26 + 0.01 * wiggle[s],
                          "test_bleu_greedy": 70 - wiggle[s], "parameters": 355_601, "steps": 1800,
                          "train_cpu_s": 94},
        ensemble={"test_bleu": 79 + wiggle[s]}), {"seq2seq": 10, "seq2seq_reversed": 10})
    model = lambda bleu, long, short, **kw: {"test_bleu": bleu, "test_bleu_20_words_or_more": long,  # noqa: E731
                                              "test_bleu_10_words_or_less": short, "parameters": 570_000,
                                              "steps": 700, "train_cpu_s": 90, **kw}
    att = rec("seeds-attention", lambda s: _row(
        rnnsearch=model(90 + wiggle[s], 85 + wiggle[s], 94, aer=0.15 + 0.001 * s,
                        alignment={"monotone_oracle": {"aer": 0.58}}, test_bleu_greedy=89),
        rnnencdec=model(27 - wiggle[s], 12, 48 + wiggle[s]),
        rnnencdec_converged=model(45 + wiggle[s], 30, 70)), {"rnnsearch": None, "rnnencdec": None,
                                                             "rnnencdec_converged": None})
    tf = rec("seeds-transformer", lambda s: _row(transformer=model(85 + wiggle[s], 75, 93, test_bleu_greedy=84.0)),
             {"transformer": None})
    return {"seeds-seq2seq": s2s, "seeds-attention": att, "seeds-transformer": tf}


def test_claim_rows_judge_each_claim_as_worded_with_scope():
    rows = {r["key"]: r for r in claim_rows(_records())}
    assert [r for r in rows] == [c.key for c in CLAIMS]  # every claim has a row, in order
    assert rows["attention_bleu"]["verdict"] == HOLDS and rows["attention_bleu"]["kind"] == "unpaired"
    assert rows["attention_bleu"]["groups"][0][0] == pytest.approx(90.3) and rows["attention_bleu"]["diffs"] is None
    # the interaction: (long - short) of RNNsearch runs against that of RNNencdec runs
    assert rows["attention_long"]["verdict"] == HOLDS
    assert rows["attention_long"]["mean"] == pytest.approx((85 - 94) - (12 - 48), abs=0.2)
    assert rows["attention_converged"]["verdict"] == HOLDS
    assert rows["reversal_bleu"]["verdict"] == NOISE and rows["reversal_bleu"]["kind"] == "paired"
    assert rows["reversal_bleu"]["diffs"] == pytest.approx([-2 * w for w in [0.3, -0.2, 0.1, -0.4, 0.2]])
    assert rows["ensemble"]["verdict"] == HOLDS and rows["ensemble"]["p"] == pytest.approx(1 / 32)
    assert rows["attention_aer"]["verdict"] == HOLDS and rows["attention_aer"]["unit"] == "AER"
    assert rows["transformer_bleu"]["verdict"] == OPPOSITE
    assert "against the claim" in rows["transformer_bleu"]["evidence"]
    assert rows["beam_transformer"]["verdict"] == HOLDS  # +1 on average, positive in every seed
    # scope: model size, budget, corpus and threads in the row itself
    assert rows["attention_bleu"]["scope"][0] == ("rnnsearch: 0.57M parameters, 700 steps, 90 CPU-s, level small, "
                                                  "100k pairs, <= 30 words, 1 thread, 5 seeds")
    assert "<= 10 words" in rows["reversal_bleu"]["scope"][0]
    # a record we do not have, and a claim we cannot test, say so
    assert rows["lr_spike"]["verdict"] == "not measured" and "ablation-transformer" in rows["lr_spike"]["missing"]
    assert rows["lstm_long"]["verdict"] == "not tested" and rows["lstm_long"]["missing"]


def test_three_seeds_are_too_few_for_a_paired_claim_but_not_an_unpaired_one():
    rows = {r["key"]: r for r in claim_rows(_records(3))}
    assert rows["ensemble"]["verdict"] == FEW
    assert rows["attention_bleu"]["verdict"] == HOLDS  # 3 vs 3 runs: the smallest p is 1/20


def test_a_model_missing_from_its_record_is_not_measured():
    records = _records()
    for row in records["seeds-attention"]["results"]["per_seed"].values():
        del row["rnnencdec_converged"]
    rows = {r["key"]: r for r in claim_rows(records)}
    assert rows["attention_converged"]["verdict"] == "not measured"
    assert "holds no run of rnnencdec_converged" in rows["attention_converged"]["missing"]


def test_table_rows_are_named_before_the_first_comma():
    """A table's facts name their row before the first comma (the results chapter groups the
    two BLEU columns of a row by that name), so the _all and _nounk facts of a row agree on it
    and no name is cut inside a parenthesis."""
    for table in (BAHDANAU_TABLE1,):
        rows = {}
        for f in table:
            if f.key.endswith(("_all", "_nounk")):
                rows.setdefault(f.key.rsplit("_", 1)[0], set()).add(f.what.split(",")[0])
        for key, names in rows.items():
            assert len(names) == 1, (key, names)
            (name,) = names
            assert name.count("(") == name.count(")"), (key, name)


def test_further_tests_count_one_comparison_per_challenge_set_and_no_test_twice():
    from companion.data.kosynth import CHALLENGES

    from companion.experiments import papers

    tests = papers.further_tests()
    assert len(tests) == len(set(tests))
    for name in CHALLENGES:
        assert sum(f"'{name}'" in t for t in tests) == 1
    assert not set(tests) & {c.statement for c in papers.CLAIMS}
