"""The readable core of beam search (companion.decoding.search.beam_step and
FinishedHypotheses), checked on hand-made distributions whose answer can be worked out by hand.
Their composition, beam_search, is checked against exhaustive and greedy search in test_decode."""

import math

import pytest
import torch

from companion.decoding.search import FinishedHypotheses, beam_step, length_penalty
from companion.specials import BOS, EOS, PAD

NEG = float("-inf")


def dist(**probs: float) -> torch.Tensor:
    """Log-probabilities over a 7-token vocabulary (PAD, BOS, EOS, UNK, a=4, b=5, c=6) from the
    probabilities given by name; the rest of the mass goes to UNK."""
    names = {"pad": PAD, "bos": BOS, "eos": EOS, "a": 4, "b": 5, "c": 6}
    p = torch.zeros(7, dtype=torch.float64)
    for name, value in probs.items():
        p[names[name]] = value
    p[3] = 1.0 - float(p.sum())
    return p.log()


def test_one_step_extends_finishes_and_selects_by_hand():
    # sentence 0 has two live hypotheses, log p 0 and log 0.5
    scores = torch.tensor([[0.0, math.log(0.5)]], dtype=torch.float64)
    log_probs = torch.stack([dist(eos=0.3, a=0.4, b=0.2, c=0.05), dist(eos=0.9, a=0.02, b=0.02, c=0.02)])
    step = beam_step(scores, log_probs, finish_rule="top_k")
    # all extensions: row 0: a .4, eos .3, b .2, unk .05, c .05; row 1: eos .45, a/b/c/unk .01
    # the two best: row1+eos (.45), row0+a (.4) -> only row 1's EOS finishes
    assert torch.allclose(step.finished.exp(), torch.tensor([[0.0, 0.45]], dtype=torch.float64))
    # the two best that do not end in EOS: row0+a (.4), row0+b (.2)
    assert step.beam.tolist() == [[0, 0]] and step.token.tolist() == [[4, 5]]
    assert torch.allclose(step.scores.exp(), torch.tensor([[0.4, 0.2]], dtype=torch.float64))
    # row0+a ranks among the two best extensions; row0+b (third) does not
    assert step.in_top_k.tolist() == [[True, False]]


def test_every_rule_finishes_every_eos_extension():
    scores = torch.tensor([[0.0, math.log(0.5)]], dtype=torch.float64)
    log_probs = torch.stack([dist(eos=0.3, a=0.4, b=0.2, c=0.05), dist(eos=0.9, a=0.02, b=0.02, c=0.02)])
    step = beam_step(scores, log_probs, finish_rule="every")
    assert torch.allclose(step.finished.exp(), torch.tensor([[0.3, 0.45]], dtype=torch.float64))
    assert step.token.tolist() == [[4, 5]]


def test_specials_are_never_live_and_an_empty_slot_stays_empty():
    # the model puts most mass on PAD and BOS: they are banned, never selected
    scores = torch.tensor([[0.0, NEG]], dtype=torch.float64)
    lp = dist(pad=0.5, bos=0.3, eos=0.05, a=0.1, b=0.04)
    step = beam_step(scores, torch.stack([lp, lp]))
    assert set(step.token.flatten().tolist()).isdisjoint({PAD, BOS, EOS})
    assert step.beam.tolist() == [[0, 0]]  # nothing extends the empty slot
    assert not torch.isfinite(step.finished[0, 1])


def test_only_eos_at_the_last_step():
    scores = torch.tensor([[0.0, math.log(0.5)]], dtype=torch.float64)
    log_probs = torch.stack([dist(eos=0.1, a=0.8), dist(eos=0.2, a=0.7)])
    step = beam_step(scores, log_probs, finish_rule="every", only_eos=torch.tensor([True]))
    assert torch.allclose(step.finished.exp(), torch.tensor([[0.1, 0.1]], dtype=torch.float64))
    assert not torch.isfinite(step.scores).any()  # nothing stays live


def test_finished_lists_rank_by_the_length_penalty_and_keep_nbest():
    penalty = lambda n: length_penalty(n, 1.0)  # noqa: E731 - GNMT form, alpha 1
    fin = FinishedHypotheses(B=2, n=2, L=4, penalty=penalty, dtype=torch.float64, device=torch.device("cpu"))
    tokens = torch.tensor([[[4, EOS, PAD, PAD], [5, EOS, PAD, PAD]]])
    fin.add(torch.tensor([1]), torch.tensor([[-1.2, NEG]], dtype=torch.float64), tokens, 2, truncated=False)
    longer = torch.tensor([[[4, 4, 4, EOS], [5, 5, 5, EOS]]])
    fin.add(torch.tensor([1]), torch.tensor([[-1.5, -3.0]], dtype=torch.float64), longer, 4, truncated=False)
    hyps = fin.hypotheses()
    assert hyps[0] == []  # sentence 0 finished nothing
    # -1.5 / lp(4) = -1.0 beats -1.2 / lp(2) = -1.0286; -3.0 / lp(4) = -2.0 drops out
    assert [h.tokens for h in hyps[1]] == [(4, 4, 4, EOS), (4, EOS)]
    assert hyps[1][0].score == pytest.approx(-1.5 / penalty(4.0))
    assert hyps[1][0].log_prob == -1.5
    assert fin.count.tolist() == [0, 3]
