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
