"""Learning speed per update (issue 22): the reversal task, the two training loops that must agree,
the nn.Transformer reference, and the guard against a peak rate written as the ``vaswani`` factor."""

from __future__ import annotations

import math

import pytest
import torch

from companion import cli
from companion.errors import ConfigError
from companion.experiments import convergence as C
from companion.training import Trainer
from companion.training.optim import (MIN_PEAK_LR, inverse_sqrt_factor, make_optimizer, make_schedule,
                                      vaswani_factor, vaswani_peak_lr)

SMALL_TASK = C.ReversalTask(words=30, min_len=2, max_len=6, train_size=400, dev_size=40, test_size=10)
SMALL_RECIPE = C.Recipe(d_model=16, num_heads=2, num_layers=1, d_ff=32, dropout=0.0, peak_lr=3e-3,
                        warmup_steps=10, max_tokens=200)


@pytest.fixture(scope="module")
def data():
    return C.reversal_data(SMALL_TASK)


@pytest.fixture
def one_thread():
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


# ------------------------------------------------------------------------------------ the task
def test_target_is_the_reversed_source_renamed():
    for split, pairs in C.ReversalTask(words=50, train_size=200, dev_size=20, test_size=20).splits().items():
        for src, tgt in pairs:
            words = src.split()
            assert 5 <= len(words) <= 40
            assert tgt.split() == ["v" + w[1:] for w in reversed(words)]
            assert all(w.startswith("w") and 0 <= int(w[1:]) < 50 for w in words)


def test_task_is_a_function_of_its_seed():
    assert C.ReversalTask(train_size=50, seed=3).splits() == C.ReversalTask(train_size=50, seed=3).splits()
    assert C.ReversalTask(train_size=50, seed=3).splits() != C.ReversalTask(train_size=50, seed=4).splits()


def test_lengths_cover_the_range_uniformly():
    task = C.ReversalTask(words=5, train_size=36_000, dev_size=0, test_size=0)
    lengths = [len(s.split()) for s, _ in task.splits()["train"]]
    counts = [lengths.count(n) for n in range(5, 41)]
    assert sum(counts) == len(lengths)  # nothing outside 5..40
    assert all(850 < c < 1150 for c in counts)  # 1000 expected each, sd about 31


@pytest.mark.parametrize("bad, message", [
    (dict(words=0), "words must be"), (dict(min_len=0), "min_len must be"),
    (dict(min_len=5, max_len=4), "max_len must be"), (dict(train_size=0), "train_size must be")])
def test_bad_task_sizes_are_one_line_errors(bad, message):
    with pytest.raises(ConfigError, match=message):
        C.ReversalTask(**bad)


def test_word_vocabularies_give_one_id_per_word(data):
    assert len(data.src_vocab) == len(data.tgt_vocab) == SMALL_TASK.words + 4
    src, tgt = data.splits["dev"][0]
    assert len(data.src_vocab.encode(src)) == len(src.split())
    assert data.tgt_vocab.decode(data.tgt_vocab.encode(tgt)) == tgt


# ------------------------------------------------------------------------------------ the loops
def test_plain_loop_and_trainer_agree(data, one_thread):
    """The minimal PyTorch loop and the package Trainer, same model, same batches: the same
    learning curve (to float rounding), so the Trainer adds nothing to what is compared."""
    curves = []
    for loop in ("plain", "trainer"):
        model = C.package_model(data, SMALL_RECIPE, seed=0)
        curves.append(C.run(loop, loop, model, data, SMALL_RECIPE, max_steps=30, eval_every=10))
    plain, trainer = curves
    assert plain.updates == trainer.updates == [10, 20, 30]
    assert plain.dev_ppl == pytest.approx(trainer.dev_ppl, rel=1e-3)
    assert plain.lr == pytest.approx(trainer.lr, rel=1e-9)
    assert plain.lr == pytest.approx([C.inverse_sqrt_lr(s, 3e-3, 10) for s in (10, 20, 30)])
    assert plain.dev_ppl[-1] < plain.dev_ppl[0]


def test_reference_model_is_an_nn_transformer_of_the_same_size(data):
    package = C.package_model(data, SMALL_RECIPE)
    reference = C.reference_model(data, SMALL_RECIPE)
    assert any(isinstance(m, torch.nn.Transformer) for m in reference.modules())
    count = lambda m: sum(p.numel() for p in m.parameters())  # noqa: E731
    assert count(package) == count(reference)
    std = reference.src_embed.weight[4:].std().item()
    assert std == pytest.approx(SMALL_RECIPE.d_model ** -0.5, rel=0.1)
    assert torch.count_nonzero(reference.tgt_embed.weight[0]) == 0


def test_curve_reports_the_first_update_that_reaches_a_target():
    curve = C.Curve("x", updates=[100, 200, 300], cpu_s=[1.0, 2.0, 3.0], dev_ppl=[50.0, 9.0, 4.0],
                    dev_bleu=[None, 38.0, 45.0])
    assert curve.to_point("dev_ppl", below=10) == {"updates": 200, "cpu_s": 2.0}
    assert curve.to_point("dev_bleu", above=40) == {"updates": 300, "cpu_s": 3.0}
    assert curve.to_point("dev_ppl", below=1) == {"updates": None, "cpu_s": None}


# ------------------------------------------------------------------------------------ the vaswani factor
def test_vaswani_factor_and_peak_are_inverse():
    assert vaswani_peak_lr(1.0, 4000, 512) == pytest.approx(6.99e-4, abs=1e-6)  # the paper's base model
    assert vaswani_factor(5e-4, 400, 256) == pytest.approx(0.16)
    factor = vaswani_factor(5e-4, 400, 256)
    assert factor * inverse_sqrt_factor(400, 400, 256) == pytest.approx(5e-4)


def test_schedule_with_the_converted_factor_peaks_at_the_peak_rate():
    opt = make_optimizer([torch.nn.Parameter(torch.zeros(1))], "vaswani", vaswani_factor(5e-4, 400, 256))
    schedule = make_schedule(opt, "vaswani", warmup_steps=400, d_model=256)
    rates = [schedule.step() for _ in range(1600)]
    assert max(rates) == pytest.approx(5e-4) and rates.index(max(rates)) == 399
    assert rates[-1] == pytest.approx(2.5e-4)  # sqrt(400 / 1600) of the peak
    assert rates == pytest.approx([C.inverse_sqrt_lr(s, 5e-4, 400) for s in range(1, 1601)])


def test_a_peak_rate_written_as_the_factor_is_refused_naming_the_factor():
    opt = make_optimizer([torch.nn.Parameter(torch.zeros(1))], "vaswani", 5e-4)
    with pytest.raises(ConfigError) as err:
        make_schedule(opt, "vaswani", warmup_steps=400, d_model=256)
    message = str(err.value)
    assert "\n" not in message
    assert message.startswith("train.lr: with preset vaswani, lr is the factor")
    assert "peaks at 1.6e-06 (d_model 256, warmup 400)" in message
    assert message.endswith("for a peak rate of 0.0005 write lr: 0.16")


def test_the_smallest_accepted_factor_peaks_at_the_minimum():
    factor = vaswani_factor(MIN_PEAK_LR, 400, 256)
    make_schedule(make_optimizer([torch.nn.Parameter(torch.zeros(1))], "vaswani", factor), "vaswani",
                  warmup_steps=400, d_model=256)
    with pytest.raises(ConfigError, match="too small to train"):
        make_schedule(make_optimizer([torch.nn.Parameter(torch.zeros(1))], "vaswani", factor * 0.99), "vaswani",
                      warmup_steps=400, d_model=256)


def test_trainer_refuses_the_misread_factor_before_training(data):
    model = C.package_model(data, SMALL_RECIPE)
    before = [p.detach().clone() for p in model.parameters()]
    with pytest.raises(ConfigError, match=r"peaks at 7\.9e-07 .* write lr: 0\.0001265$"):  # 1e-5 * sqrt(16 * 10)
        Trainer(model, data.loader("train", 200, shuffle=True), None, preset="vaswani", lr=1e-5,
                warmup_steps=10, progress=False)
    assert all(torch.equal(a, b) for a, b in zip(before, model.parameters()))


def test_random_batches_mix_lengths_under_the_same_budget(data):
    bucketed = list(data.loader("train", 60, shuffle=True))
    mixed = data.loader("train", 60, shuffle=True, batching="mixed")
    batches = list(mixed)
    assert sum(b.size for b in batches) == len(data.splits["train"])  # every pair once an epoch
    assert all(b.src.numel() <= 60 and b.tgt_in.numel() <= 60 for b in batches)
    spread = lambda bs: sum(int(b.src_lengths.max() - b.src_lengths.min()) for b in bs) / len(bs)  # noqa: E731
    assert spread(bucketed) < 0.1 and spread(batches) > 1  # a bucket boundary may join two lengths
    mixed.batch_sampler.set_epoch(1)
    assert [b.indices.tolist() for b in mixed] != [b.indices.tolist() for b in batches]


def test_plot_convergence_draws_every_chosen_run_with_labelled_axes():
    import matplotlib
    matplotlib.use("Agg")
    from companion.plots.curves import plot_convergence
    from companion.plots.figure import figure_problems

    curve = C.Curve("a", updates=[50, 100], cpu_s=[60.0, 120.0], dev_ppl=[900.0, 8.0], dev_bleu=[None, 45.0])
    record = {"name": "x", "results": {"experiments": {
        "a": {"size": "full", "label": "Transformer", "curve": curve.to_dict()},
        "b": {"size": "full", "label": "nn.Transformer", "curve": curve.to_dict()},
        "c": {"size": "reduced", "label": "small", "curve": curve.to_dict()}}}}
    left, right = plot_convergence(record)
    assert [line.get_label() for line in left.get_lines()] == ["Transformer", "nn.Transformer"]
    assert list(right.get_lines()[0].get_xdata()) == [1.0, 2.0]  # CPU minutes
    assert list(right.get_lines()[0].get_ydata()) == [900.0, 8.0] and right.get_yscale() == "log"
    assert figure_problems(left.figure) == []
    with pytest.raises(Exception, match="no experiment d"):
        plot_convergence(record, ["a", "d"])
    colours = {line.get_color() for line in left.get_lines()}
    assert len(colours) == 2                                     # two runs of one family, two colours
    # with real tokens per update: a middle panel against millions of tokens seen
    left, middle, right = plot_convergence(record, ["a", "b"], tokens={"a": 2000.0, "b": 4000.0})
    assert [list(line.get_xdata()) for line in middle.get_lines()] == [[0.1, 0.2], [0.2, 0.4]]
    assert "token" in middle.get_xlabel() and figure_problems(middle.figure) == []
    with pytest.raises(Exception, match="no tokens per update"):
        plot_convergence(record, ["a", "b"], tokens={"a": 1.0})


def test_the_joeynmt_schedule_applies_the_peak_first_then_lags_one_update_above_a_floor():
    joey = C.Recipe(schedule="joeynmt", min_lr=1e-4)
    rates = [joey.lr(s) for s in range(1, 1602)]
    assert rates[0] == 5e-4                                   # the optimiser's initial rate
    assert rates[1:80] == [1e-4] * 79                          # the floor, while the ramp is below it
    assert rates[100] == pytest.approx(C.inverse_sqrt_lr(100, 5e-4, 400))  # one update behind
    assert max(rates[1:]) == pytest.approx(5e-4) and rates.index(max(rates[1:]), 1) == 400
    assert rates[-1] == pytest.approx(2.5e-4)
    linear = C.Recipe()
    assert [linear.lr(s) for s in range(1, 1601)] == [C.inverse_sqrt_lr(s, 5e-4, 400) for s in range(1, 1601)]


def test_a_recipe_schedule_the_trainer_cannot_follow_is_refused():
    with pytest.raises(ConfigError, match="schedule"):
        C.Recipe(schedule="noam")
    with pytest.raises(ConfigError, match="min_lr"):
        C.Recipe(min_lr=1e-3)  # above the peak
    with pytest.raises(ConfigError, match="plain loop"):
        C.peak_lr_options(C.Recipe(schedule="joeynmt", min_lr=1e-4))


def test_the_plain_loop_applies_the_recipes_schedule(data, one_thread):
    recipe = SMALL_RECIPE.replace(schedule="joeynmt", min_lr=1e-3)
    model = C.package_model(data, recipe)
    loader = data.loader("train", recipe.max_tokens, shuffle=True)
    curve = C.plain_loop("joey-rate", model, loader, C.Evaluator(data, data.loader("dev", 200, shuffle=False)),
                         recipe, max_steps=6, eval_every=2)
    # the rate recorded at an evaluation is the one of the update just done
    assert curve.lr == pytest.approx([recipe.lr(u) for u in (2, 4, 6)])
    assert curve.lr[0] == pytest.approx(1e-3)  # the floor: the ramp would give 3e-3 * 1 / 10


def test_the_joeynmt_reference_configuration_carries_the_recipe(tmp_path):
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "scripts" / "joeynmt_reference.py"
    spec = importlib.util.spec_from_file_location("joeynmt_reference", path)
    ref = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ref)
    recipe = C.Recipe()
    cfg = ref.joey_config(recipe, tmp_path / "data", tmp_path / "model", 800, 50)
    train, model = cfg["training"], cfg["model"]
    assert (train["learning_rate"], train["learning_rate_warmup"], train["clip_grad_norm"]) == (5e-4, 400, 1.0)
    assert (train["batch_size"], train["batch_type"], train["normalization"]) == (4096, "token", "tokens")
    assert train["label_smoothing"] == 0.1 and tuple(train["adam_betas"]) == (0.9, 0.98)
    assert model["tied_softmax"] and model["encoder"]["layer_norm"] == "pre"
    assert (model["encoder"]["num_layers"], model["encoder"]["hidden_size"], model["encoder"]["ff_size"],
            model["encoder"]["num_heads"]) == (3, 256, 1024, 4)
    ref.write_task(SMALL_TASK, tmp_path / "data")
    sources = (tmp_path / "data" / "train.src").read_text(encoding="utf-8").splitlines()
    targets = (tmp_path / "data" / "train.trg").read_text(encoding="utf-8").splitlines()
    assert list(zip(sources, targets)) == SMALL_TASK.splits()["train"]


def _script(name: str):
    import importlib.util
    import sys
    from pathlib import Path

    scripts = Path(__file__).resolve().parents[1] / "scripts"
    sys.path.insert(0, str(scripts))
    try:
        spec = importlib.util.spec_from_file_location(name, scripts / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # dataclasses look their module up
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(scripts))
    return module


def test_runs_recorded_apart_are_gathered_with_their_own_provenance(tmp_path):
    S = _script("convergence")
    curve = C.Curve("x", updates=[50], cpu_s=[1.0], dev_ppl=[900.0], dev_bleu=[None], lr=[1e-4], clip_rate=[0.0])

    def entry(label):
        return {"size": "full", "label": label, "curve": curve.to_dict(), "to_ppl_10": curve.to_point("dev_ppl", 10),
                "to_bleu_40": curve.to_point("dev_bleu", above=40)}

    a = S.merge(tmp_path / "a.json", {"run-a": entry("A")}, SMALL_TASK, False)
    b = S.merge(tmp_path / "b.json", {"run-b": entry("B")}, SMALL_TASK, False, {"equivalence": {"ok": 1}})
    out = S.merge_records(tmp_path / "all.json", [a, b])
    from companion.experiments.records import read_record

    merged = read_record(out)["results"]
    assert set(merged["experiments"]) == {"run-a", "run-b"} and merged["equivalence"] == {"ok": 1}
    assert set(merged["summary"]) == {"run-a", "run-b"}
    assert all("commit" in e["provenance"] for e in merged["experiments"].values())
    quick = S.merge(tmp_path / "q.json", {"run-q": entry("Q")}, SMALL_TASK, True)
    with pytest.raises(SystemExit, match="quick"):
        S.merge_records(tmp_path / "all.json", [quick])


def test_the_comparison_table_reads_each_run_at_the_chosen_updates():
    fast = C.Curve("f", updates=[50, 100, 150], cpu_s=[10.0, 20.0, 30.0], dev_ppl=[900.0, 80.0, 9.0],
                   dev_bleu=[None, None, 51.0])
    slow = C.Curve("s", updates=[50, 100, 150], cpu_s=[8.0, 16.0, 24.0], dev_ppl=[950.0, 400.0, 120.0],
                   dev_bleu=[None, None, None])
    runs = {"joey": {"label": "JoeyNMT", "loop": "joeynmt", "bucketed": False, "curve": slow.to_dict()},
            "pkg": {"label": "package", "bucketed": True, "recipe": {"schedule": "linear"}, "curve": fast.to_dict()}}
    rows = C.comparison_rows(runs, ["pkg", "joey"], shown=(100, 125))
    assert rows[0] == {"run": "package", "batches": "length buckets", "rate": "linear warmup",
                       "CPU-s per update": 0.2, "ppl at 100": 80.0, "ppl at 125": None, "first ppl ≤ 100": 100,
                       "BLEU at 150": 51.0}
    assert (rows[1]["batches"], rows[1]["rate"], rows[1]["first ppl ≤ 100"], rows[1]["BLEU at 150"]) == (
        "mixed lengths", "JoeyNMT's", "—", "—")
    assert C.curve_at(runs["joey"], 150) == 120.0 and C.curve_at(runs["joey"], 150, "cpu_s") == 24.0
    assert C.first_update_below(runs["pkg"], 10) == 150 and C.first_update_below(runs["joey"], 10) is None


def _recorded(label, updates, cpu_s, ppl, batches=None):
    run = {"label": label, "curve": {"updates": updates, "cpu_s": cpu_s, "dev_ppl": ppl}}
    return {**run, "batches": batches} if batches else run


def test_ppl_at_interpolates_log_linearly_and_is_none_beyond_the_run():
    run = _recorded("a", [100, 200], [10.0, 20.0], [1000.0, 10.0])
    assert C.ppl_at(run, [1.0, 2.0], 1.5) == pytest.approx(100.0)  # halfway in log space
    assert C.ppl_at(run, [1.0, 2.0], 1.0) == pytest.approx(1000.0)
    assert C.ppl_at(run, [1.0, 2.0], 2.5) is None and C.ppl_at(run, [1.0, 2.0], 0.5) is None


def test_equal_footing_puts_runs_of_different_batch_sizes_on_tokens_and_cpu_time():
    # run "small" carries half the tokens per update of "big" at half the CPU cost: the same
    # curve per update is the same curve per CPU-minute and twice as fast per token for "small"
    curve = dict(updates=[100, 200, 300], cpu_s=[60.0, 120.0, 180.0], ppl=[400.0, 100.0, 25.0])
    runs = {"small": _recorded("small", **curve, batches=[[10, 1000, 2000]]),
            "big": _recorded("big", curve["updates"], [120.0, 240.0, 360.0], curve["ppl"])}
    tokens = {"small": C.tokens_per_update(runs["small"]), "big": 2000.0}
    assert tokens["small"] == 1000.0
    rows = {r["run"]: r for r in C.equal_footing_rows(runs, ["small", "big"], tokens, [0.2, 0.3], [2, 4])}
    assert rows["small"]["ppl at 0.2M tokens"] == pytest.approx(100.0)  # update 200 of "small"
    assert rows["big"]["ppl at 0.2M tokens"] == pytest.approx(400.0)    # update 100 of "big"
    assert rows["small"]["ppl at 0.3M tokens"] == pytest.approx(25.0)
    assert rows["small"]["ppl at 2 CPU-min"] == pytest.approx(100.0)
    assert rows["big"]["ppl at 2 CPU-min"] == pytest.approx(400.0)
    assert rows["small"]["ppl at 4 CPU-min"] is None  # beyond its last evaluation


def test_tokens_per_update_of_a_package_run_needs_the_task_data():
    run = _recorded("p", [1], [1.0], [2.0])
    run["recipe"] = {"max_tokens": 512}
    with pytest.raises(ConfigError, match="pass the task's data"):
        C.tokens_per_update(run)
