"""CharLM over the fused modules, parameter budgets, and sampling."""

import pytest
import torch

from companion.data.batching import Batch
from companion.data.vocab import CharVocab
from companion.errors import ConfigError
from companion.models.charlm import (
    CharLM,
    charlm_parameters,
    hidden_size_for_budget,
    num_parameters,
    sample,
)

VOCAB = CharVocab.build("abcdefgh \n")


@pytest.mark.parametrize("cell", ["rnn", "lstm", "gru"])
def test_forward_shapes_and_state_carrying(cell):
    torch.manual_seed(0)
    model = CharLM(len(VOCAB), 8, 12, num_layers=2, cell=cell).eval()
    ids = torch.randint(4, len(VOCAB), (3, 10))
    batch = Batch(None, None, ids, ids)
    logits = model(batch)
    assert logits.shape == (3, 10, len(VOCAB))
    # running in two halves with the state carried equals one run
    first, state = model.forward_ids(ids[:, :6])
    second, _ = model.forward_ids(ids[:, 6:], state)
    assert torch.allclose(torch.cat([first, second], 1), logits, atol=1e-6)


@pytest.mark.parametrize("cell", ["rnn", "lstm", "gru"])
@pytest.mark.parametrize("layers", [1, 3])
def test_parameter_count_formula(cell, layers):
    model = CharLM(50, 16, 24, num_layers=layers, cell=cell)
    assert num_parameters(model) == charlm_parameters(50, 16, 24, layers, cell)


def test_hidden_size_for_budget_equalises_parameters():
    budget = charlm_parameters(84, 32, 128, 1, "lstm")
    sizes = {cell: hidden_size_for_budget(budget, 84, 32, 1, cell) for cell in ("rnn", "gru", "lstm")}
    assert sizes["lstm"] == 128
    assert sizes["rnn"] > sizes["gru"] > sizes["lstm"]
    for cell, H in sizes.items():
        n = charlm_parameters(84, 32, H, 1, cell)
        step = charlm_parameters(84, 32, H + 1, 1, cell) - n
        assert abs(n - budget) <= step


def test_forget_bias_is_added_to_lstm_forget_gates():
    torch.manual_seed(1)
    plain = CharLM(20, 4, 6, 2, "lstm")
    torch.manual_seed(1)
    biased = CharLM(20, 4, 6, 2, "lstm", forget_bias=2.0)
    for layer in range(2):
        diff = getattr(biased.rnn, f"bias_ih_l{layer}") - getattr(plain.rnn, f"bias_ih_l{layer}")
        assert torch.allclose(diff, torch.tensor([0.0] * 6 + [2.0] * 6 + [0.0] * 12))


def test_sampling_is_deterministic_given_a_generator():
    torch.manual_seed(2)
    model = CharLM(len(VOCAB), 8, 16, cell="lstm")
    a = sample(model, VOCAB, "ab", 40, 1.0, torch.Generator().manual_seed(7))
    b = sample(model, VOCAB, "ab", 40, 1.0, torch.Generator().manual_seed(7))
    c = sample(model, VOCAB, "ab", 40, 1.0, torch.Generator().manual_seed(8))
    assert a == b and a != c
    assert a.startswith("ab") and len(a) == 42
    assert set(a) <= set("abcdefgh \n")  # never a special id


def test_sample_never_draws_a_special_id_even_when_the_model_prefers_one():
    torch.manual_seed(4)
    model = CharLM(len(VOCAB), 8, 16, cell="gru")
    with torch.no_grad():
        model.output.bias[:4] += 100.0  # PAD, BOS, EOS, UNK take almost all the probability
    hot = sample(model, VOCAB, "ab", 30, 1.0, torch.Generator().manual_seed(0))
    greedy = sample(model, VOCAB, "ab", 30, 0.0)
    for text in (hot, greedy):
        assert len(text) == 32 and set(text) <= set("abcdefgh \n")  # UNK would decode as "⁇"


def test_temperature_zero_is_greedy_and_low_temperature_concentrates():
    torch.manual_seed(3)
    model = CharLM(len(VOCAB), 8, 16, cell="gru")
    greedy = sample(model, VOCAB, "a", 30, 0.0)
    assert greedy == sample(model, VOCAB, "a", 30, 0.0)
    cold = sample(model, VOCAB, "a", 30, 1e-4, torch.Generator().manual_seed(0))
    assert cold == greedy


def test_sample_restores_training_mode():
    model = CharLM(len(VOCAB), 4, 4, cell="rnn", dropout=0.5).train()
    sample(model, VOCAB, "a", 3, 1.0, torch.Generator().manual_seed(0))
    assert model.training


def test_errors_have_clear_messages():
    with pytest.raises(ConfigError, match=r"cell must be one of \['gru', 'lstm', 'rnn'\], got 'tanh'"):
        CharLM(10, 4, 4, cell="tanh")
    with pytest.raises(ConfigError, match="CharLM: hidden_size must be an integer >= 1, got 0"):
        CharLM(10, 4, 0)
    with pytest.raises(ConfigError, match=r"CharLM: dropout must be a number in \[0.0, 1.0\), got 1.0"):
        CharLM(10, 4, 4, dropout=1.0)
    with pytest.raises(ConfigError, match=r"expects ids of shape \(B, T\)"):
        CharLM(10, 4, 4).forward_ids(torch.zeros(3, dtype=torch.long))
    model = CharLM(len(VOCAB), 4, 4)
    with pytest.raises(ConfigError, match="non-empty prompt"):
        sample(model, VOCAB, "", 3)
    with pytest.raises(ConfigError, match=r"sample: temperature must be a number in \[0.0, inf\], got -1.0"):
        sample(model, VOCAB, "a", 3, -1.0)
    with pytest.raises(ConfigError, match="sample: n_chars must be an integer >= 0, got -2"):
        sample(model, VOCAB, "a", -2)
    with pytest.raises(ConfigError, match="hidden_size_for_budget: budget must be an integer >= 1, got 0"):
        hidden_size_for_budget(0, 10, 4, 1, "rnn")
    with pytest.raises(ConfigError, match="cell must be one of"):
        charlm_parameters(10, 4, 4, 1, "peephole")
