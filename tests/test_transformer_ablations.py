"""scripts/transformer_ablations.py: chapter 5's Pre-LN/Post-LN x warmup ablation and checkpoint
averaging record.

The full run takes tens of minutes; ``--quick`` trains every variant for a few steps on a tiny
corpus, so the slow tests check the plumbing (every variant measured, averaging over the right
checkpoints, a record the chapter can read) and that the script trains exactly the model
``companion.experiments.regime.train`` trains.
"""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from companion.experiments.records import read_record

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "transformer_ablations.py"


@pytest.fixture(scope="module")
def script():
    spec = importlib.util.spec_from_file_location("transformer_ablations", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_loss_spikes_flags_only_a_jump_of_a_nat_over_the_recent_median(script):
    flat = [2.0] * 30
    assert script.loss_spikes(flat, window=20) == []
    spiky = flat[:25] + [3.5] + flat[26:]
    assert script.loss_spikes(spiky, window=20) == [26]  # 1-based step of the jump (3.5 > 2.0 + 1)
    assert script.loss_spikes(flat[:25] + [2.9] + flat[26:], window=20) == []  # 2.9 < 2.0 + 1
    # late in training single batches vary several-fold, but by less than a nat: no spike
    noisy = [0.05, 0.3, 0.1, 0.04, 0.35] * 20
    assert script.loss_spikes(noisy) == []
    falling = [10.0 / (t + 1) for t in range(80)]  # a steadily falling loss has no spikes
    assert script.loss_spikes(falling) == []
    assert script.loss_spikes([1.0, 9.0]) == []  # too short to judge


def test_windowed_means(script):
    assert script.windowed([1.0, 3.0, 5.0, 7.0, 9.0], window=2) == [2.0, 6.0, 9.0]


def test_variants_are_registered_recipes(script):
    from companion.experiments.regime import RECIPES

    assert set(script.VARIANTS) <= set(RECIPES)
    assert script.VARIANTS[0] == "transformer"
    ln = {name: RECIPES[name].model.get("pre_ln", False) for name in script.VARIANTS}
    assert [name for name, pre in ln.items() if not pre] == ["transformer_postln", "transformer_postln_no_warmup",
                                                            "transformer_postln_constant", "transformer_paper"]
    # each warmup control exists for both placements: the warmup removed (peak, then the recipe's
    # decay), and the peak held constant from step 1
    assert RECIPES["transformer_no_warmup"].schedule == RECIPES["transformer_postln_no_warmup"].schedule \
        == "peak_then_decay"
    assert RECIPES["transformer_constant"].schedule == RECIPES["transformer_postln_constant"].schedule == "constant_peak"


@pytest.mark.slow
def test_the_constant_variant_trains_at_the_warmed_up_peak_in_the_script(script, tmp_path):
    from companion.experiments import regime as R
    from companion.plots.curves import read_metrics

    data = R.book_data(R.QUICK_REGIME)
    spec = R.recipe("transformer_constant").with_train(max_steps=5, eval_every=5)
    _, facts = script.train_run(spec, data, 0, tmp_path / "run", every=None, keep=1)
    assert facts["failure"] is None and facts["steps"] == 5 and facts["parameters"] > 0
    rates = [r["lr"] for r in read_metrics(tmp_path / "run")[0]]
    peak = spec.train["lr"] * spec.model["d_model"] ** -0.5 * spec.train["warmup_steps"] ** -0.5
    assert rates == pytest.approx([peak] * 5)


def test_unknown_variant_is_a_one_line_usage_error(script, capsys):
    with pytest.raises(SystemExit) as exc:
        script.main(["--variants", "transformer", "no_such_recipe", "--quick"])
    assert exc.value.code == 2
    assert "unknown recipe 'no_such_recipe'" in capsys.readouterr().err


def test_average_must_be_a_variant(script, capsys):
    with pytest.raises(SystemExit) as exc:
        script.main(["--variants", "transformer_postln", "--quick"])
    assert exc.value.code == 2
    assert "--average 'transformer' is not one of the variants" in capsys.readouterr().err


@pytest.mark.slow
def test_quick_run_writes_a_complete_record(script, tmp_path):
    out = tmp_path / "ablation.json"
    assert script.main(["--quick", "--seeds", "0", "--out", str(out)]) == 0
    record = json.loads(out.read_text())
    assert record["kind"] == "ablation" and record["config"]["quick"] is True
    row = record["results"]["per_seed"]["0"]
    for name in script.VARIANTS:
        run = row[name]
        assert run["failure"] is None
        assert len(run["curve"]["loss"]) == -(-script.QUICK_STEPS // script.CURVE_WINDOW)
        for key in ("valid_ppl", "test_bleu", "test_bleu_greedy", "loss_spikes", "max_grad_norm", "early_loss"):
            assert run[key] is not None, (name, key)
    av = row["averaging"]
    n = script.QUICK_STEPS
    assert av["last"]["steps"] == [n]
    assert av["last5"]["steps"] == [n - 4, n - 3, n - 2, n - 1, n]
    assert av["last5_spaced"]["steps"] == [n - 8, n - 6, n - 4, n - 2, n]
    # the last checkpoint alone is the trained model itself
    assert av["last"]["valid_ppl"] == pytest.approx(row["transformer"]["valid_ppl"], rel=1e-9)
    summary = record["results"]["summary"]
    assert summary["transformer_postln - transformer"]["test_bleu"]["n"] == 1
    assert set(summary["averaging"]) == {"last", "last5", "last5_spaced", "last5 - last", "last5_spaced - last"}


@pytest.mark.slow
def test_the_script_trains_the_model_the_chapter_trains(script, tmp_path):
    """Checkpoints and per-step logs do not change a run: the script's model is bitwise the one
    ``regime.train`` returns for the same recipe and seed."""
    from companion.experiments import regime as R

    data = R.book_data(R.QUICK_REGIME)
    spec = R.recipe("transformer").with_train(max_steps=6, eval_every=3)
    reference = R.train(spec, data, seed=1).model
    model, facts = script.train_run(spec, data, 1, tmp_path / "run", every=1, keep=3)
    assert facts["failure"] is None
    for (name, a), b in zip(reference.state_dict().items(), model.state_dict().values()):
        assert torch.equal(a, b), name
    assert len(list((tmp_path / "run").glob("checkpoint-step*.pt"))) == 3


@pytest.mark.slow
def test_records_of_different_seeds_merge_into_one_and_a_seed_twice_is_refused(tmp_path):
    def run(*args):
        return subprocess.run([sys.executable, str(SCRIPT), *args], cwd=ROOT, capture_output=True, text=True,
                              timeout=600)

    variants = ["--variants", "transformer", "transformer_no_warmup", "--quick"]
    for seed in ("0", "1"):
        out = run(*variants, "--seeds", seed, "--out", str(tmp_path / f"s{seed}.json"))
        assert out.returncode == 0, out.stderr[-2000:]
    merged = tmp_path / "merged.json"
    out = run("--merge", str(tmp_path / "s0.json"), str(tmp_path / "s1.json"), "--out", str(merged))
    assert out.returncode == 0, out.stderr[-2000:]
    rec = read_record(merged)
    one = [read_record(tmp_path / f"s{s}.json") for s in ("0", "1")]
    assert rec["config"]["seeds"] == [0, 1] and sorted(rec["results"]["per_seed"]) == ["0", "1"]
    assert rec["results"]["per_seed"]["1"] == one[1]["results"]["per_seed"]["1"]
    bleu = [r["results"]["per_seed"][s]["transformer"]["test_bleu"] for r, s in zip(one, ("0", "1"))]
    assert rec["results"]["summary"]["transformer"]["test_bleu"]["n"] == 2
    assert rec["results"]["summary"]["transformer"]["test_bleu"]["mean"] == pytest.approx(sum(bleu) / 2, abs=1e-5)
    assert "transformer_no_warmup - transformer" in rec["results"]["summary"]
    assert [m["seeds"] for m in rec["merged_from"]] == [[0], [1]]
    out = run("--merge", str(tmp_path / "s0.json"), str(tmp_path / "s0.json"), "--out", str(tmp_path / "x.json"))
    assert out.returncode == 2 and "appear in two records" in out.stderr and "Traceback" not in out.stderr
