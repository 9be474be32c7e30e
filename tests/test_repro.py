"""companion.repro: determinism, fixed-format printing, the recorded-number check."""

from __future__ import annotations

import random

import numpy as np
import pytest
import torch

from companion.repro import RecordedNumberError, check, check_all, fmt, set_determinism


def draws():
    return random.random(), float(np.random.rand()), float(torch.rand(1))


def test_set_determinism_repeats_every_random_source():
    set_determinism(7)
    first = draws()
    set_determinism(7)
    assert draws() == first
    set_determinism(8)
    assert draws() != first


def test_set_determinism_fixes_threads_and_deterministic_algorithms():
    before = torch.get_num_threads()
    try:
        set_determinism(0, threads=1)
        assert torch.get_num_threads() == 1
        assert torch.are_deterministic_algorithms_enabled()
    finally:
        torch.set_num_threads(before)
        torch.use_deterministic_algorithms(False)


@pytest.mark.parametrize("seed, threads, message", [(-1, 1, "seed"), (1.5, 1, "seed"), (0, 0, "threads")])
def test_set_determinism_rejects_bad_arguments(seed, threads, message):
    with pytest.raises(ValueError, match=message):
        set_determinism(seed, threads=threads)


@pytest.mark.parametrize(
    "value, digits, expected",
    [
        (3.14159, 3, "3.142"),
        (-0.00004, 4, "0.0000"),
        (-0.00006, 4, "-0.0001"),
        (2, 3, "2"),
        (np.float32(0.5), 2, "0.50"),
        (torch.tensor(1.25, dtype=torch.float64), 1, "1.2"),
        (torch.tensor(7), 3, "7"),
        (float("nan"), 2, "nan"),
        (float("-inf"), 2, "-inf"),
        (True, 2, "True"),
    ],
)
def test_fmt_scalars(value, digits, expected):
    assert fmt(value, digits) == expected


def test_fmt_sequences_and_tensors():
    assert fmt([-0.010396, 0.0608751], 6) == "-0.010396,0.060875"
    assert fmt(torch.tensor([[1.0, -0.0], [0.5, 2.0]]), 1) == "1.0,0.0,0.5,2.0"
    assert fmt(np.array([1, 2, 3]), 2, sep=" ") == "1 2 3"


def test_fmt_rejects_non_numbers():
    with pytest.raises(TypeError, match="expected a number"):
        fmt("3.0")


def test_check_prints_the_band_not_the_value(capsys):
    assert check("test BLEU, RNNsearch", 60.07, recorded=61.4, tol=1.5) is None
    assert capsys.readouterr().out == "test BLEU, RNNsearch: 61.4 ± 1.5 ✓\n"
    check("valid bpc", torch.tensor(1.9312), recorded=1.93, tol=0.05, unit="bpc")
    assert capsys.readouterr().out == "valid bpc: 1.93 ± 0.05 bpc ✓\n"


def test_check_band_edges_are_inclusive(capsys):
    check("edge", 62.9, recorded=61.4, tol=1.5)
    assert "✓" in capsys.readouterr().out


@pytest.mark.parametrize("value", [63.0, 59.0, float("nan"), float("inf")])
def test_check_fails_outside_the_band_with_a_clear_message(value):
    with pytest.raises(RecordedNumberError, match=r"test BLEU: got .*outside the recorded band 61.4 ± 1.5"):
        check("test BLEU", value, recorded=61.4, tol=1.5)


def test_check_rejects_a_bad_tolerance():
    with pytest.raises(ValueError, match="tol must be"):
        check("x", 1.0, recorded=1.0, tol=-1)


def test_check_all_reports_every_failure(capsys):
    with pytest.raises(RecordedNumberError) as info:
        check_all([("a", 1.0, 1.0, 0.1), ("b", 5.0, 1.0, 0.1), ("c", 9.0, 1.0, 0.1)])
    assert "b: got 5.0" in str(info.value) and "c: got 9.0" in str(info.value)
    assert capsys.readouterr().out == "a: 1.0 ± 0.1 ✓\n"


# ------------------------------------------------------------------------ glue and claims

import ast  # noqa: E402
import re  # noqa: E402
from pathlib import Path  # noqa: E402

from companion.errors import ConfigError  # noqa: E402
from companion.repro import (MEASURED_MARKER, ClaimError, claim, format_number,  # noqa: E402
                             glue_number, glue_text, join_words)

GLUE_PREFIX = "application/papermill.record/"
#: the sanitizer `make nbval` uses
ROOT_SANITIZE = Path(__file__).with_name("nbval_sanitize.cfg")


@pytest.fixture
def glued(monkeypatch):
    """What myst_nb.glue publishes, by name: ``{name: {mime: data}}``; nothing is displayed."""
    import myst_nb.ext.glue as glue_module

    out = {}

    def publish(bundle, raw, metadata):
        assert raw and metadata["scrapbook"]["mime_prefix"] == GLUE_PREFIX  # display=False
        out[metadata["scrapbook"]["name"]] = {k[len(GLUE_PREFIX):]: v for k, v in bundle.items()}

    monkeypatch.setattr(glue_module, "ipy_display", publish)
    return out


def pasted(data: dict, spec: str = "") -> str:
    """What ``{glue:text}`NAME[:spec]``` shows (myst-nb's own formatting of the stored text)."""
    from myst_nb.core.variables import format_plain_text

    return format_plain_text(data["text/plain"], spec)


@pytest.mark.parametrize("value, spec, text", [
    (91.8734, ".1f", "91.9"), (-0.01, ".1f", "0.0"), (12345, ",d", "12,345"), (0.734, ".0%", "73%"),
    (3.0, "d", "3"), (np.float32(2.5), ".2f", "2.50"), (torch.tensor(7), "d", "7"),
])
def test_format_number(value, spec, text):
    assert format_number(value, spec) == text


@pytest.mark.parametrize("value, spec, error, message", [
    (float("nan"), ".1f", ValueError, "cannot show nan"),
    (float("inf"), ".1f", ValueError, "cannot show inf"),
    (2.5, "d", ValueError, "integer format 'd' for the non-integral value 2.5"),
    (True, ".1f", TypeError, "a bool"),
    (1.0, ".1q", ConfigError, "bad format spec '.1q'"),
    (1.0, "", ConfigError, "non-empty string"),
])
def test_format_number_refuses(value, spec, error, message):
    with pytest.raises(error, match=re.escape(message)):
        format_number(value, spec)


def test_glue_number_stores_the_formatted_text_and_displays_nothing(glued, capsys):
    assert glue_number("bleu_search", 91.8734, ".1f") is None
    assert glued["bleu_search"] == {"text/plain": "'91.9'"}
    assert pasted(glued["bleu_search"]) == "91.9"
    glue_number("pairs", 100000, ",d")
    assert pasted(glued["pairs"]) == "100,000"
    assert capsys.readouterr().out == ""


def test_a_measured_glue_is_band_checked_and_marked_for_the_sanitizer(glued):
    from nbval.plugin import get_sanitize_patterns

    glue_number("bleu", 91.87, ".1f", recorded=91.9, tol=1.5)
    stored = glued["bleu"]["text/plain"]
    assert stored.endswith(f"# {MEASURED_MARKER}, recorded 91.9 ± 1.5")
    assert ast.literal_eval(stored) == "91.9" and pasted(glued["bleu"]) == "91.9"
    # another CPU's 91.84 stores another digit, and the sanitizer makes both the same line
    glue_number("bleu", 91.84, ".2f", recorded=91.9, tol=1.5)
    other = glued["bleu"]["text/plain"]
    cfg = ROOT_SANITIZE.read_text(encoding="utf-8")
    for regex, replace in get_sanitize_patterns(cfg):
        stored, other = re.sub(regex, replace, stored), re.sub(regex, replace, other)
    assert stored == other == "MEASURED"
    with pytest.raises(RecordedNumberError, match=r"bleu: got 80.0, outside the recorded band 91.9 ± 1.5"):
        glue_number("bleu", 80.0, ".1f", recorded=91.9, tol=1.5)


@pytest.mark.parametrize("kwargs, message", [
    ({"name": "bleu:x"}, "no ':'"), ({"name": "1st"}, "glue name"),
    ({"recorded": 1.0}, "give both recorded= and tol="), ({"recorded": 1.0, "tol": -1}, "tol must be"),
])
def test_glue_number_refuses_bad_arguments(glued, kwargs, message):
    args = {"name": "n", "value": 1.0, "spec": ".1f", **kwargs}
    name, value, spec = args.pop("name"), args.pop("value"), args.pop("spec")
    with pytest.raises(ConfigError, match=re.escape(message)):
        glue_number(name, value, spec, **args)
    assert glued == {}


def test_glue_text_plain_joined_measured_and_markdown(glued):
    glue_text("sample", "the cat sat")
    assert pasted(glued["sample"]) == "the cat sat"
    glue_text("buckets", ["1-10", "11-20", "21+"])
    assert pasted(glued["buckets"]) == "1-10, 11-20 and 21+"
    glue_text("wrong", "don't 'quote' me", measured=True)
    assert glued["wrong"]["text/plain"].endswith(MEASURED_MARKER)
    assert pasted(glued["wrong"]) == "don't 'quote' me"
    glue_text("md", "*three* words", markdown=True)
    assert glued["md"]["text/markdown"] == "*three* words"
    with pytest.raises(ConfigError, match="measured markdown"):
        glue_text("x", "a", markdown=True, measured=True)
    with pytest.raises(ValueError, match="empty"):
        glue_text("x", "  ")
    with pytest.raises(TypeError, match="a string or a sequence"):
        glue_text("x", 3)
    assert join_words(["a"]) == "a" and join_words([1, 2], last=" or ") == "1 or 2"


def test_claim_prints_a_statement_that_holds(capsys):
    claim("attention beats the fixed vector", 91.9 > 30.2)
    claim("RNNsearch wins every bucket", {"1-10": True, "11-20": np.bool_(True)})
    claim("the losses agree", torch.tensor(True))
    assert capsys.readouterr().out == ("✓ attention beats the fixed vector\n✓ RNNsearch wins every bucket\n"
                                       "✓ the losses agree\n")


def test_a_claim_that_fails_names_the_statement_the_cases_and_the_evidence(capsys):
    with pytest.raises(ClaimError, match=r"claim does not hold: RNNsearch wins every bucket "
                                         r"\(fails for: 21\+\); evidence: \{'21\+': \(40.1, 41.0\)\}"):
        claim("RNNsearch wins every bucket", {"1-10": True, "21+": False}, evidence={"21+": (40.1, 41.0)})
    with pytest.raises(ClaimError, match="claim does not hold: the best head is 2"):
        claim("the best head is 2", 4 == 2)
    with pytest.raises(ClaimError, match="no cases"):
        claim("every seed agrees", {})
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize("condition", [[False], "yes", 1, torch.tensor([True, False])])
def test_a_claim_needs_a_real_bool(condition):
    """A non-empty list (or the string "no") is truthy: a claim must not pass by accident."""
    with pytest.raises(TypeError, match="must be a bool"):
        claim("something holds", condition)


def test_bands_off_print_why_and_never_raise_then_back_on(glued, capsys):
    """While a chapter's records describe an earlier corpus, a value far outside its band is
    neither compared nor printed (the line is the same on every CPU); switched back on, it fails."""
    from companion.repro import use_bands

    with pytest.raises(ConfigError, match="needs the reason"):
        use_bands(False)
    use_bands(False, "the record predates the current corpus")
    try:
        check("test BLEU", 12.3456, recorded=80.0, tol=1.0)
        assert capsys.readouterr().out == \
            "test BLEU: not compared (the record predates the current corpus)\n"
        glue_number("bleu", 12.3456, ".1f", recorded=80.0, tol=1.0)
        stored = glued["bleu"]["text/plain"]
        assert MEASURED_MARKER in stored and "not compared" in stored
        assert ast.literal_eval(stored) == "12.3"
    finally:
        use_bands(True)
    with pytest.raises(RecordedNumberError):
        check("test BLEU", 12.3456, recorded=80.0, tol=1.0)
