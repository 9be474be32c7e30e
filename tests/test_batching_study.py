"""companion.experiments.batching_study: the chapter's reading of the batching record."""

import pytest

from companion.errors import DataError
from companion.experiments.batching_study import batch_contents, batching_rows, mean_valid_curves
from companion.specials import EOS


def _record():
    def run(bleu, ppl, cpu, curve):
        return {"test_bleu": bleu, "valid_ppl": ppl, "train_cpu_s": cpu, "valid_curve": curve}
    return {"name": "b", "config": {"recipes": {"a": {"max_tokens": 40, "batching": "bucketed"},
                                                "p": {"max_tokens": 40, "batching": "packed"}}},
            "results": {"per_seed": {"0": {"a": run(80.0, 1.2, 10.0, [[100, 4.0], [200, 2.0]]),
                                           "p": run(82.0, 1.1, 12.0, [[100, 3.0], [200, 1.0]])},
                                     "1": {"a": run(82.0, 1.4, 20.0, [[100, 6.0], [200, 4.0]]),
                                           "p": run(84.0, 1.3, 14.0, [[100, 5.0], [200, 3.0]])}}}}


def test_rows_curves_and_contents_come_from_the_record():
    record = _record()
    exs = [([4] * (n % 7 + 1) + [EOS], [5] * (n % 5 + 1)) for n in range(60)]
    contents = batch_contents(record, ["a", "p"], exs, limit=3)
    assert contents["a"]["batches"] == 3 and contents["p"]["real_share"] > contents["a"]["real_share"] - 0.2
    rows = batching_rows(record, {"a": "buckets", "p": "packed"}, contents)
    assert [r["batches"] for r in rows] == ["buckets", "packed"]
    assert rows[0]["test BLEU"] == "81.0 ± 1.4" and rows[1]["CPU-s per run"] == 13.0
    curves = mean_valid_curves(record, {"a": "buckets"})
    assert curves == {"buckets": [{"step": 100, "valid_ppl": 5.0}, {"step": 200, "valid_ppl": 3.0}]}
    with pytest.raises(DataError, match=r"lacks \['m'\]"):
        batch_contents(record, ["m"], exs)
