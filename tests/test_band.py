"""The one rule for a chapter's tolerance band: BAND_SDS standard deviations of the seeds."""

import pytest

from companion.errors import DataError
from companion.experiments.records import BAND_SDS, band, spread


def _record(values, model="m", key="bleu"):
    return {"name": "r", "results": {"summary": {model: {key: spread(values)}}}}


def test_band_is_the_mean_and_sds():
    rec = _record([70.0, 72.0, 74.0, 71.0, 73.0])
    recorded, tol = band(rec, "m", "bleu")
    assert recorded == pytest.approx(72.0)
    assert tol == pytest.approx(BAND_SDS * spread([70.0, 72.0, 74.0, 71.0, 73.0])["sd"])
    # every recorded seed lies inside its own band
    assert all(abs(v - recorded) <= tol for v in (70.0, 72.0, 74.0, 71.0, 73.0))


def test_floor_when_seeds_agree():
    assert band(_record([1.5, 1.5, 1.5]), "m", "bleu", floor=0.01) == (1.5, 0.01)


def test_one_seed_is_refused():
    with pytest.raises(DataError, match="one seed"):
        band(_record([3.0]), "m", "bleu")


def test_unknown_key_is_one_line():
    with pytest.raises(DataError, match="no summary of 'chrf'"):
        band(_record([1.0, 2.0]), "m", "chrf")
