"""Seed document 000's hand-set encoder-decoder: all 17 recorded lines, exactly."""

import pytest
import torch

from companion.decoding.search import beam_search, exhaustive_search, greedy_search
from companion.errors import DataError
from companion.experiments.toy import HAND_SET_TOY_RECORDED, ToySeq2Seq, hand_set_toy_lines, source, words


def test_the_17_recorded_lines_are_reproduced_exactly():
    lines = hand_set_toy_lines()
    assert len(lines) == len(HAND_SET_TOY_RECORDED) == 17
    for got, recorded in zip(lines, HAND_SET_TOY_RECORDED):
        assert got == recorded


def test_toy_softmax_is_the_documents_four_way_softmax():
    model = ToySeq2Seq()
    src, n = source(["B", "A", "<EOS>"])
    with torch.no_grad():
        log_probs, _ = model.step(torch.tensor([1]), model.encode(src, n))
    p = log_probs.exp()[0]
    assert p[0] == 0 and p[3] == 0  # PAD and UNK are impossible
    assert float(p.sum()) == pytest.approx(1.0, abs=1e-15)
    assert log_probs.dtype == torch.float64


def test_beam_rules_on_the_toy():
    """Under the seed's rule every EOS extension is kept and beam 2 finds the exact argmax;
    under the paper's top-k rule (and greedy search) the short output is pruned at step 1.
    The seed's search space: complete outputs of at most 3 tokens (``at_limit="eos"``)."""
    model = ToySeq2Seq()
    src, n = source(["B", "A", "<EOS>"])
    complete = dict(max_len=3, at_limit="eos")
    exact = exhaustive_search(model, src, n, nbest=7, **complete)[0]
    assert [words(h) for h in exact[:3]] == ["<EOS>", "W,<EOS>", "X,<EOS>"]
    assert len(exact) == 7  # 1 + 2 + 4 outputs of at most 3 tokens
    every = beam_search(model, src, n, beam_size=2, finish_rule="every", **complete)[0][0]
    top_k = beam_search(model, src, n, beam_size=2, finish_rule="top_k", **complete)[0][0]
    greedy = greedy_search(model, src, n, **complete)[0]
    assert words(every) == "<EOS>"
    assert words(top_k) == words(greedy) == "W,W,<EOS>"
    assert top_k.log_prob < every.log_prob == pytest.approx(exact[0].log_prob, abs=1e-15)


def test_the_default_limit_cuts_instead_of_ending_with_eos():
    """By default the limit keeps the model's choices: greedy writes W W W and is marked
    truncated; the 8 outputs of three words without EOS join the 7 complete ones."""
    model = ToySeq2Seq()
    src, n = source(["B", "A", "<EOS>"])
    greedy = greedy_search(model, src, n, max_len=3)[0]
    assert words(greedy) == "W,W,W" and greedy.truncated
    exact = exhaustive_search(model, src, n, max_len=3, nbest=100)[0]
    assert len(exact) == 7 + 8 and sum(h.truncated for h in exact) == 8
    assert words(exact[0]) == "<EOS>"  # still the most probable output
    assert words(beam_search(model, src, n, beam_size=2, max_len=3)[0][0]) == "W,W,W"


def test_padding_keeps_the_toy_encoder_state():
    model = ToySeq2Seq()
    src = torch.tensor([[4, 5, 2], [5, 2, 0]])
    h, c = model.encode(src, torch.tensor([3, 2]))
    h1, c1 = model.encode(src[1:, :2], torch.tensor([2]))
    assert torch.equal(h[1], h1[0]) and torch.equal(c[1], c1[0])


def test_unknown_toy_words_are_data_errors():
    with pytest.raises(DataError, match="toy source: unknown word 'C'"):
        source(["A", "C", "<EOS>"])
