"""The tiny Transformer run the chapter-5 notes recorded: its six facts, and the package Transformer holding
the document's weights computing the same logits, loss and generated ids."""

import pytest
import torch

from companion.decoding.search import greedy_search
from companion.errors import ConfigError
from companion.experiments.tiny_transformer_run import (TINY_RUN_RECORDED, NNTransformerTranslator, tiny_run_batch,
                                           tiny_run_lines, tiny_run_models, to_package_transformer)
from companion.models.transformer import RecomputingDecoder, Transformer
from companion.specials import BOS, EOS, PAD
from companion.training.optim import make_optimizer
from companion.training.trainer import Trainer, sequence_loss


@pytest.mark.parametrize("implementation", ["package", "nn.Transformer"])
def test_the_recorded_lines_are_reproduced_exactly(implementation):
    lines = tiny_run_lines(implementation)
    assert len(lines) == len(TINY_RUN_RECORDED) == 6
    for got, recorded in zip(lines, TINY_RUN_RECORDED):
        assert got == recorded


def test_the_documents_batch():
    batch = tiny_run_batch()
    assert batch.src.tolist() == [[4, 5, 6, 2], [7, 2, 0, 0]]
    assert batch.tgt_in.tolist() == [[1, 4, 5, 6], [1, 7, 2, 0]]
    assert batch.tgt_out.tolist() == [[4, 5, 6, 2], [7, 2, 0, 0]]
    assert batch.ntokens == 6


def test_the_package_transformer_with_the_documents_weights_computes_the_same_things():
    reference, package = tiny_run_models()
    assert isinstance(package, Transformer) and package.pre_ln and package.d_model == 16
    # every parameter of the document's model has its place in the package's, and no more
    assert sum(p.numel() for p in package.parameters()) == sum(p.numel() for p in reference.parameters())
    batch = tiny_run_batch()
    losses = []
    for model in (reference, package):
        logits = model(batch)
        loss = sequence_loss(logits, batch.tgt_out) / batch.ntokens
        optimizer = make_optimizer(model.parameters(), "adam", 1e-3)
        loss.backward()
        optimizer.step()
        losses.append((logits.detach(), float(loss.detach())))
    (ref_logits, ref_loss), (pkg_logits, pkg_loss) = losses
    assert ref_logits.shape == (2, 4, 9)
    torch.testing.assert_close(pkg_logits, ref_logits, rtol=0, atol=1e-6)
    assert pkg_loss == pytest.approx(ref_loss, abs=1e-6)
    assert f"{pkg_loss:.4f}" == "17.7308"
    # after the same Adam step the two still agree, and so do their (cached / recomputed) outputs
    reference.eval(), package.eval()
    with torch.no_grad():
        torch.testing.assert_close(package(batch), reference(batch), rtol=0, atol=1e-5)
    for i in range(2):
        src, n = batch.src[i : i + 1, : int(batch.src_lengths[i])], batch.src_lengths[i : i + 1]
        cached = greedy_search(package, src, n, max_len=5)[0]
        recomputed = greedy_search(RecomputingDecoder(reference), src, n, max_len=5)[0]
        assert cached.tokens == recomputed.tokens
        assert cached.log_prob == pytest.approx(recomputed.log_prob, abs=1e-4)


def test_models_are_seeded_without_touching_the_global_generator():
    torch.manual_seed(7)
    expected = torch.rand(3)
    torch.manual_seed(7)
    a, _ = tiny_run_models()
    assert torch.equal(torch.rand(3), expected)
    b, _ = tiny_run_models()
    for p, q in zip(a.parameters(), b.parameters()):
        assert torch.equal(p, q)


def test_post_ln_models_do_not_convert_and_bad_names_are_config_errors():
    torch.manual_seed(0)
    post = NNTransformerTranslator(pre_ln=False)
    with pytest.raises(ConfigError, match=r"^to_package_transformer: only Pre-LN \(norm_first=True\) models convert"):
        to_package_transformer(post)
    with pytest.raises(ConfigError, match=r"^tiny_run_lines: implementation must be one of 'package', "
                                          r"'nn.Transformer', got 'torch'$"):
        tiny_run_lines("torch")


def documents_loop(model: NNTransformerTranslator, src: torch.Tensor, steps: int = 5) -> list[int]:
    """The document's generation procedure, written plainly: start from BOS, rerun the decoder over
    everything generated so far, take the highest-scoring id at the last position with PAD and
    BOS excluded, append it, and stop after EOS or after ``steps`` new ids."""
    generated = [BOS]
    with torch.no_grad():
        memory = model.encoder_output(src)
        while len(generated) <= steps:
            hidden, _ = model.decoder_output(torch.tensor([generated]), memory, src)
            scores = model.logits(hidden[0, -1]).clone()
            scores[[PAD, BOS]] = float("-inf")
            generated.append(int(scores.argmax()))
            if generated[-1] == EOS:
                break
    return generated


@pytest.mark.parametrize("seed", range(12))
def test_the_package_generates_what_the_documents_loop_generates_from_other_seeds(seed):
    """From any initial seed, greedy search with ``max_len=5`` returns the document's ids: at most
    five generated tokens, the last one the model's choice, never an EOS forced in its place."""
    reference, _ = tiny_run_models(seed)
    batch = tiny_run_batch()
    Trainer(reference, [batch], None, preset="adam", lr=1e-3, max_steps=1, eval_every=0, clip_norm=0.0,
            progress=False).fit()
    reference.eval()
    expected = documents_loop(reference, batch.src[:1])
    assert len(expected) <= 6 and (expected[-1] == EOS or len(expected) == 6)
    for implementation in ("package", "nn.Transformer"):
        assert tiny_run_lines(implementation, seed)[-1] == f"generated_ids={expected}"
