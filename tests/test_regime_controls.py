"""The book's controls as recipes: a constant rate at the warmed-up peak (no warmup, no spike),
the schedule's formula with warmup 0 (the spike), the paper's Transformer at our size, and
training until validation stops improving -- each trains what its name says."""

from __future__ import annotations

import dataclasses

import pytest

from companion.errors import ConfigError
from companion.experiments import regime as R
from companion.training.optim import inverse_sqrt_factor


@pytest.fixture(scope="module")
def quick_data():
    return R.book_data(R.QUICK_REGIME)


def _rates(spec: R.Recipe, data, steps: int) -> list[float]:
    trained = R.train(R.quick_recipe(spec, steps).with_train(warmup_steps=spec.train["warmup_steps"]), data)
    return trained.history.lr


def test_constant_peak_trains_at_the_peak_the_warmup_reaches_from_the_first_step(one_thread, quick_data):
    book = R.recipe("transformer")
    d_model, warmup, factor = book.model["d_model"], book.train["warmup_steps"], book.train["lr"]
    peak = factor * inverse_sqrt_factor(warmup, warmup, d_model)
    constant = _rates(R.recipe("transformer_constant"), quick_data, 6)
    assert constant == pytest.approx([peak] * 6)
    warm = _rates(book, quick_data, 6)
    assert warm[0] == pytest.approx(peak / warmup) and warm == sorted(warm)  # climbing to the peak
    spike = _rates(R.recipe("transformer_lr_spike"), quick_data, 6)
    assert spike[0] == pytest.approx(factor * d_model ** -0.5)  # 12x the peak at the book's size
    assert spike[0] / peak == pytest.approx(warmup ** 0.5, rel=1e-6) and spike == sorted(spike, reverse=True)


def test_no_warmup_removes_the_warmup_and_keeps_the_recipes_decay(one_thread, quick_data):
    """The clean "without warmup" control: the peak from step 1, then the recipe's own rates."""
    book = R.recipe("transformer")
    d_model, warmup, factor = book.model["d_model"], book.train["warmup_steps"], book.train["lr"]
    peak = factor * inverse_sqrt_factor(warmup, warmup, d_model)
    no_warmup = R.control_factor(R.recipe("transformer_no_warmup"), d_model)
    recipe_rates = [factor * inverse_sqrt_factor(s, warmup, d_model) for s in range(1, 3 * warmup)]
    rates = [factor * no_warmup(s) for s in range(1, 3 * warmup)]
    assert rates[:warmup] == pytest.approx([peak] * warmup)  # no climb: the peak from the first step
    assert rates[warmup - 1:] == pytest.approx(recipe_rates[warmup - 1:])  # then exactly the recipe's decay
    assert rates[-1] < 0.6 * peak  # and it does decay (a constant rate would not)
    constant = R.control_factor(R.recipe("transformer_constant"), d_model)
    assert [factor * constant(s) for s in (1, warmup, 3 * warmup)] == pytest.approx([peak] * 3)
    # the Trainer follows it: the first steps of a quick run sit at the peak
    trained = _rates(R.recipe("transformer_no_warmup"), quick_data, 4)
    assert trained == pytest.approx([peak] * 4)
    assert R.recipe("transformer_postln_no_warmup") == dataclasses.replace(
        R.recipe("transformer_postln"), schedule="peak_then_decay")
    with pytest.raises(ConfigError, match="'preset' is not a control schedule"):
        R.control_factor(book, d_model)


def test_the_papers_transformer_and_the_books_differ_as_named():
    book, paper = R.recipe("transformer"), R.recipe("transformer_paper")
    assert book.model["pre_ln"] and book.model["dropout"] == 0.0 and "label_smoothing" not in book.train
    assert not paper.model["pre_ln"] and paper.model["dropout"] == 0.1 and paper.train["label_smoothing"] == 0.1
    changed = {k for k in book.model if book.model[k] != paper.model[k]}
    changed |= {k for k in {**book.train, **paper.train} if book.train.get(k) != paper.train.get(k)}
    assert changed == {"pre_ln", "dropout", "label_smoothing"}
    assert R.recipe("transformer_postln_constant").schedule == "constant_peak"
    assert not R.recipe("transformer_postln_constant").model["pre_ln"]


def test_training_until_validation_stops_improving_keeps_the_best_weights(one_thread, quick_data):
    spec = R.quick_recipe(R.recipe("rnnencdec"), 8).with_train(eval_every=2)
    plain = R.train(spec, quick_data)
    plateau = R.train(dataclasses.replace(spec, patience=100), quick_data)  # never runs out of patience
    # the same steps, bitwise: the same validations at the same steps
    assert [v["valid_ppl"] for v in plateau.history.valid] == [v["valid_ppl"] for v in plain.history.valid]
    assert plateau.stopped["stopped_by"] == "steps" and plateau.stopped["steps"] == 8
    best = min(plain.history.valid, key=lambda v: v["valid_ppl"])
    assert plateau.stopped["best_step"] == best["step"]
    assert plateau.stopped["best_valid_ppl"] == pytest.approx(best["valid_ppl"])


def test_patience_stops_a_run_whose_validation_stalls(one_thread, quick_data):
    # a learning rate of ~0 leaves the validation perplexity where it started: one improvement
    # (the first validation), then `patience` validations without one
    spec = dataclasses.replace(R.quick_recipe(R.recipe("rnnencdec"), 40).with_train(eval_every=2, lr=1e-12),
                               patience=2)
    trained = R.train(spec, quick_data)
    assert trained.stopped["stopped_by"] == "patience" and trained.stopped["steps"] == 6
    assert trained.stopped["best_step"] == 2


def test_recipes_refuse_what_they_cannot_do():
    with pytest.raises(ConfigError, match="schedule must be one of preset, constant_peak, peak_then_decay"):
        dataclasses.replace(R.recipe("transformer"), schedule="cosine")
    with pytest.raises(ConfigError, match="batching must be one of bucketed, mixed, packed, got 'sorted'"):
        dataclasses.replace(R.recipe("transformer"), batching="sorted")
    assert R.recipe("transformer_mixed") == dataclasses.replace(R.recipe("transformer"), batching="mixed")
    assert R.recipe("transformer_mixed_2150") == dataclasses.replace(R.recipe("transformer_mixed"), max_tokens=2150)
    with pytest.raises(ConfigError, match="patience needs"):
        dataclasses.replace(R.recipe("rnnencdec"), patience=0)
    with pytest.raises(ConfigError, match="only recipes that train with a preset's schedule"):
        R.run_config(R.recipe("transformer_constant"))
    with pytest.raises(ConfigError, match="give max_steps or cpu_budget"):
        R.fit_until_plateau(None, every=1, patience=1)


def test_every_schedule_of_a_recorded_variant_is_named_by_what_it_removes():
    """The ablation tables describe each control by what it removes: the clean no-warmup
    control keeps the decay, the constant one removes both, w = 0 is a spike; an unknown
    schedule is a one-line error."""
    from companion.errors import ConfigError
    from companion.experiments.regime import RECIPES, describe_variant, schedule_label

    def spec(name):
        r = RECIPES[name]
        return {"schedule": r.schedule, "model": dict(r.model), "train": dict(r.train)}

    labels = {name: schedule_label(spec(name)) for name in
              ("transformer", "transformer_no_warmup", "transformer_constant", "transformer_lr_spike")}
    assert labels["transformer"].startswith("warmup ") and "decay" in labels["transformer"]
    assert labels["transformer_no_warmup"].startswith("no warmup") and "then the decay" in labels["transformer_no_warmup"]
    assert "no decay" in labels["transformer_constant"]
    assert "spike" in labels["transformer_lr_spike"]
    assert len(set(labels.values())) == 4
    assert describe_variant(spec("transformer_paper")).startswith("Post-LN")
    assert "smoothing 0.1" in describe_variant(spec("transformer_smoothed"))
    with pytest.raises(ConfigError, match="unknown schedule"):
        schedule_label({"schedule": "cosine", "train": {}})
