"""scripts/rnn_lstm_seeds.py: the seed sweep behind the tolerances of chapters 1-2 runs end to end.

The full sweep takes tens of minutes; ``--quick`` shrinks every step count, so these tests check
the plumbing (every recorded quantity measured, summarised and written; the table in step with
the chapters' ``check(...)`` lines), not the numbers.
"""

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "rnn_lstm_seeds.py"


def load_script():
    spec = importlib.util.spec_from_file_location("rnn_lstm_seeds", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_quantity_table_is_well_formed():
    seeds = load_script()
    names = [q[0] for q in seeds.QUANTITIES]
    assert len(names) == len(set(names))
    for name, where, kind, spec in seeds.QUANTITIES:
        assert name.startswith(("ch1 ", "ch2 ")), name
        assert where.startswith(("book/01_rnn.ipynb", "book/02_lstm.ipynb")), name
        if kind == "check":
            recorded, tol = spec
            # a band wider than a fifth of its number checks nothing (the book's rule)
            assert 0 < tol <= 0.2 * abs(recorded), name
        elif kind == "claim":
            op, _ = spec
            assert op in seeds.OPS, name
        else:
            assert kind == "info" and spec is None, name


def _notebook_checks():
    found = {}
    for prefix, notebook in (("ch1", "01_rnn"), ("ch2", "02_lstm")):
        cells = json.loads((ROOT / "book" / f"{notebook}.ipynb").read_text())["cells"]
        for cell in cells:
            for line in "".join(cell["source"]).splitlines():
                if line.startswith("check("):
                    name = line.split('"')[1]
                    recorded = float(line.split("recorded=")[1].split(",")[0])
                    tol = float(line.split("tol=")[1].split(")")[0])
                    found[f"{prefix} {name}"] = (recorded, tol)
    return found


def test_quantity_table_matches_the_notebooks_checks():
    """Every check(...) of the two chapters appears, under its own name (prefixed with the
    chapter), with its recorded number and tolerance -- and nothing else is a check."""
    seeds = load_script()
    table = {name: spec for name, _, kind, spec in seeds.QUANTITIES if kind == "check"}
    assert _notebook_checks() == table


def test_the_cells_the_table_names_exist():
    seeds = load_script()
    ids = {}
    for notebook in ("01_rnn", "02_lstm"):
        cells = json.loads((ROOT / "book" / f"{notebook}.ipynb").read_text())["cells"]
        ids[f"book/{notebook}.ipynb"] = {cell["id"] for cell in cells}
    for name, where, _, _ in seeds.QUANTITIES:
        notebook = where.split()[0]
        named = re.findall(r"\b[0-9a-f]{8}\b", where.split(maxsplit=1)[1])
        assert named and set(named) <= ids[notebook], (name, where)


def test_banded_language_models_cannot_pass_for_each_other():
    """Chapter 2's recorded bands for the compared language models do not overlap."""
    seeds = load_script()
    bands = sorted((recorded - tol, recorded + tol) for recorded, tol in seeds.LM_CHECKS.values())
    for (_, high), (low, _) in zip(bands, bands[1:]):
        assert high < low


def _fake_run(seeds, shift):
    row = {}
    for name, _, kind, spec in seeds.QUANTITIES:
        if kind == "check":
            row[name] = spec[0] + shift
        elif kind == "claim":
            op, bound = spec
            row[name] = {"<": bound - 1, ">": bound + 1, "==": bound}[op]
        else:
            row[name] = 0.5
    return row


def test_summary_flags_a_seed_outside_the_band():
    seeds = load_script()
    summary = seeds.summarize({0: _fake_run(seeds, 0.0), 1: _fake_run(seeds, 1.0)})
    check_name = next(q[0] for q in seeds.QUANTITIES if q[2] == "check")
    assert summary[check_name]["failing_seeds"] == [1]
    assert summary[check_name]["max_abs_dev"] == pytest.approx(1.0)
    assert not summary[check_name]["holds"]
    claim_name = next(q[0] for q in seeds.QUANTITIES if q[2] == "claim")
    assert summary[claim_name]["holds"]


def test_summarize_merges_chapter_files_of_the_same_seed(tmp_path, capsys):
    seeds = load_script()
    run = _fake_run(seeds, 0.0)
    for chapter in ("1", "2"):
        part = {name: value for name, value in run.items() if name[2] == chapter}
        (tmp_path / f"c{chapter}.json").write_text(json.dumps({"quick": False, "per_seed": {"7": part}}))
    assert seeds.main(["--summarize", str(tmp_path / "c1.json"), str(tmp_path / "c2.json")]) == 0
    out = capsys.readouterr().out
    assert "seeds: [7]" in out and "hold for every seed" in out and "outside" not in out
    with pytest.raises(SystemExit, match="seed 7 has .* in more than one"):
        seeds.main(["--summarize", str(tmp_path / "c1.json"), str(tmp_path / "c1.json")])


@pytest.mark.slow
def test_quick_run_writes_every_quantity(tmp_path):
    out = tmp_path / "seeds.json"
    proc = subprocess.run([sys.executable, str(SCRIPT), "--quick", "--seeds", "0", "--out", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "NOT comparable" in proc.stdout
    data = json.loads(out.read_text())
    assert data["quick"] is True and data["complete"] is True and data["seeds"] == [0]
    names = [q[0] for q in load_script().QUANTITIES]
    assert set(data["per_seed"]["0"]) == set(names)
    assert set(data["summary"]) == set(names)
    for name in names:
        row = data["summary"][name]
        assert set(row["values"]) == {"0"}
        assert row["min"] <= row["mean"] <= row["max"]
        if row["kind"] == "check":
            assert "max_abs_dev" in row and isinstance(row["holds"], bool)
    assert set(data["ngram_bpc"]) == {"2", "3", "4", "5", "6", "7"}
    assert set(data["ngram_settings"]) == {"2", "3", "4", "5", "6", "7"}
    # the one-word RNN's step count is not shrunk: it must still learn "ocoa"
    assert data["per_seed"]["0"]["ch1 cocoa: next characters predicted right (of 4)"] == 4
    for name in names:
        assert name in proc.stdout


@pytest.mark.slow
def test_one_chapter_run_measures_only_that_chapter(tmp_path):
    out = tmp_path / "ch2.json"
    proc = subprocess.run([sys.executable, str(SCRIPT), "--quick", "--seeds", "3", "--chapter", "2",
                           "--out", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    data = json.loads(out.read_text())
    assert data["chapters"] == [2] and data["ngram_bpc"] == {}
    assert set(data["per_seed"]["3"]) == {q[0] for q in load_script().QUANTITIES if q[0].startswith("ch2")}


def test_rejects_repeated_seeds(capsys):
    with pytest.raises(SystemExit) as exc:
        load_script().main(["--seeds", "1", "1"])
    assert exc.value.code == 2
    assert "--seeds must be distinct non-negative ints, got [1, 1]" in capsys.readouterr().err


def test_summarize_writes_the_books_record(tmp_path):
    """--record turns saved runs into the record the chapters read: every seed's values, the
    machine of each seed, and for every judged quantity whether it held."""
    from companion.experiments.records import read_record

    seeds = load_script()
    payload = {"quick": False, "per_seed": {"7": _fake_run(seeds, 0.0), "8": _fake_run(seeds, 0.0)},
               "extra": {"7": {"machine": "cpu A, torch 2.13.0"}, "8": {"machine": "cpu B, torch 2.11.0"}},
               "steps": seeds.STEPS["full"], "ngram_bpc": {"2": 3.5}}
    (tmp_path / "runs.json").write_text(json.dumps(payload))
    path = tmp_path / "seeds-rnn-lstm.json"
    assert seeds.main(["--summarize", str(tmp_path / "runs.json"), "--record", str(path)]) == 0
    record = read_record(path)
    assert record["config"]["machines"] == {"7": "cpu A, torch 2.13.0", "8": "cpu B, torch 2.11.0"}
    assert set(record["results"]["per_seed"]) == {"7", "8"}
    check_name = next(q[0] for q in seeds.QUANTITIES if q[2] == "check")
    row = record["results"]["summary"][check_name]
    assert row["holds"] is True and row["n"] == 2 and row["failing_seeds"] == []
    assert "hold for every seed" in record["results"]["report"]


def test_record_refuses_a_quick_run(tmp_path):
    seeds = load_script()
    (tmp_path / "q.json").write_text(json.dumps({"quick": True, "per_seed": {"0": _fake_run(seeds, 0.0)}}))
    with pytest.raises(SystemExit, match="refuses a --quick run"):
        seeds.main(["--summarize", str(tmp_path / "q.json"), "--record", str(tmp_path / "r.json")])
