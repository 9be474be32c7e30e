"""The mask figures draw exactly the masks the model uses, with titles, labels and one-line errors."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402

from companion.errors import DataError  # noqa: E402
from companion.models.transformer.masks import cross_mask, decoder_self_mask, encoder_mask  # noqa: E402
from companion.plots.masks import plot_mask, plot_transformer_masks  # noqa: E402

SRC = torch.tensor([[4, 5, 6, 2], [7, 2, 0, 0]])
TGT_IN = torch.tensor([[1, 4, 5, 6], [1, 7, 2, 0]])


def drawn(ax) -> torch.Tensor:
    """The 0/1 matrix an axes shows (its only image)."""
    (image,) = ax.get_images()
    return torch.as_tensor(image.get_array().data).bool()


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def test_plot_mask_draws_the_matrix_with_title_labels_and_ticks():
    mask = torch.tensor([[True, False, False], [True, True, False]])
    ax = plot_mask(mask, queries=["<s>", "i"], keys=["a", "b", "c"], title="causal")
    assert torch.equal(drawn(ax), mask)
    assert ax.get_title() == "causal" and ax.get_xlabel() == "key position" and ax.get_ylabel() == "query position"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b", "c"]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["<s>", "i"]


def test_plot_mask_accepts_zero_one_lists_and_default_labels():
    ax = plot_mask([[1, 0], [1, 1]])
    assert torch.equal(drawn(ax), torch.tensor([[True, False], [True, True]]))
    assert [t.get_text() for t in ax.get_xticklabels()] == ["0", "1"]


@pytest.mark.parametrize("mask, message", [
    (torch.ones(2, 2, 2, dtype=torch.bool), "must be 2-D"),
    (torch.tensor([[0.5, 1.0]]), "only True/False"),
])
def test_plot_mask_refuses_what_is_not_a_mask(mask, message):
    with pytest.raises(DataError, match=message):
        plot_mask(mask)


def test_plot_mask_refuses_wrong_label_counts():
    with pytest.raises(DataError, match="3 labels for 2 query positions"):
        plot_mask(torch.ones(2, 2, dtype=torch.bool), queries=["a", "b", "c"])


@pytest.mark.parametrize("row", [0, 1])
def test_three_masks_are_the_models_masks(row):
    axes = plot_transformer_masks(SRC, TGT_IN, row)
    assert torch.equal(drawn(axes[0]), encoder_mask(SRC)[row])
    assert torch.equal(drawn(axes[1]), decoder_self_mask(TGT_IN)[row])
    assert torch.equal(drawn(axes[2]), cross_mask(SRC, TGT_IN.shape[1])[row])
    assert [ax.get_title() for ax in axes] == ["encoder self-attention (S, S)", "decoder self-attention (T, T)",
                                               "cross-attention (T, S)"]
    assert all(ax.get_xlabel() and ax.get_ylabel() for ax in axes)


def test_second_sentence_hides_its_padding():
    axes = plot_transformer_masks(SRC, TGT_IN, 1, src_tokens=["안녕", "</s>", "<pad>", "<pad>"],
                                  tgt_tokens=["<s>", "hello", "</s>", "<pad>"])
    enc, dec, cross = (drawn(ax) for ax in axes)
    assert not enc[:, 2:].any() and enc[:, :2].all()  # source PAD columns are closed to every query
    assert not dec[:, 3].any() and not dec[0, 1:].any()  # target PAD column and the future are closed
    assert not cross[:, 2:].any() and cross[:, :2].all()  # no causal part in cross-attention
    assert [t.get_text() for t in axes[2].get_xticklabels()] == ["안녕", "</s>", "<pad>", "<pad>"]


@pytest.mark.parametrize("args, message", [
    ((SRC, TGT_IN[:1]), "2 source rows but 1 target rows"),
    ((SRC, TGT_IN, 2), "row 2 is outside a batch of 2"),
    ((SRC[0], TGT_IN), r"\(B, L\) tensors"),
])
def test_plot_transformer_masks_errors(args, message):
    with pytest.raises(DataError, match=message):
        plot_transformer_masks(*args)
