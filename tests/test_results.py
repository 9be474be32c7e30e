"""The recorded results under book/results/: every file parses, says where it came from, and its
configuration still builds a model with the current package; the results chapter reads only
these records."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion.errors import DataError
from companion.experiments.records import RESULTS_DIR, make_record, read_record, spread, write_record
from companion.models import build_model

RECORDS = sorted(RESULTS_DIR.glob("*.json"))
ROOT = Path(__file__).resolve().parents[1]


def _model_configs(record: dict) -> list[dict]:
    """Every model configuration a record names (recipes of seed records, long runs' models)."""
    config = record["config"]
    found = []
    for recipe in (config.get("recipes") or {}).values():
        found.append(recipe["model"])
    if isinstance(config.get("recipe"), dict):
        found.append(config["recipe"]["model"])
    if isinstance(config.get("model"), dict) and "name" in config["model"]:
        found.append(config["model"])
    return found


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_every_record_parses_and_names_its_provenance(path):
    record = read_record(path)
    assert record["name"] == path.stem
    prov = record["provenance"]
    for key in ("commit", "torch", "python", "cpu", "companion"):
        assert prov.get(key), f"{path.name}: provenance lacks {key}"
    assert record["results"], f"{path.name}: no results"


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_every_record_comes_from_committed_code(path):
    """A ``+dirty`` commit names code that was never committed: nobody can check out what made the
    record. Commit first, then re-run the record's script (``make results`` lists them)."""
    prov = read_record(path)["provenance"]
    commit = str(prov.get("commit"))
    assert re.fullmatch(r"[0-9a-f]{40}", commit) and prov.get("dirty") is not True, (
        f"{path.name}: made from uncommitted code (commit {commit}); commit, then re-run its script")


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_recorded_configs_still_build_models(path):
    for model_cfg in _model_configs(read_record(path)):
        model = build_model(dict(model_cfg), 60, 50)
        assert sum(p.numel() for p in model.parameters()) > 0


def test_read_record_errors_are_one_line(tmp_path):
    with pytest.raises(DataError, match="no such results file"):
        read_record(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(DataError, match="not valid JSON"):
        read_record(bad)
    partial = tmp_path / "partial.json"
    partial.write_text(json.dumps({"name": "x"}), encoding="utf-8")
    with pytest.raises(DataError, match="missing kind, created, provenance, config, results"):
        read_record(partial)


def test_write_then_read_round_trips_and_cleans_floats(tmp_path):
    rec = make_record("demo", "test", {"a": 1}, {"x": float("nan"), "y": 1.23456789, "z": (1, 2)})
    path = write_record(rec, tmp_path / "demo.json")
    back = read_record(path)
    assert back["results"] == {"x": None, "y": 1.234568, "z": [1, 2]}
    assert back["provenance"]["torch"]


def test_spread():
    s = spread([1.0, 2.0, 3.0])
    assert s == {"mean": 2.0, "sd": 1.0, "min": 1.0, "max": 3.0, "n": 3}
    with pytest.raises(DataError):
        spread([])


def test_the_results_chapter_reads_only_records():
    chapter = ROOT / "book" / "06_results.ipynb"
    if not chapter.exists():
        pytest.skip("the results chapter is not written yet")
    nb = json.loads(chapter.read_text(encoding="utf-8"))
    code = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    assert not re.search(r"\bopen\(|read_text\(|json\.load|\btrain\(|\.fit\(", code), \
        "the results chapter computes or reads something other than the records"
    names = set(re.findall(r"read_record\(\s*[\"']([\w-]+)[\"']", code))
    names |= {m for pattern in re.findall(r"records_named\(\s*[\"']([\w*-]+)[\"']", code)
              for m in [p.stem for p in RESULTS_DIR.glob(pattern + ".json")]}
    assert names, "the results chapter reads no record"
    for name in names:
        assert (RESULTS_DIR / f"{name}.json").exists(), f"the results chapter reads a missing record {name}"


def test_seed_summaries_and_mean_bleu_by_length(tmp_path, monkeypatch):
    from companion.experiments import records as R

    per_seed = {"0": {"m": {"bleu_by_length": [[3, 6, 2, 50.0], [6, 11, 0, None]]}},
                "1": {"m": {"bleu_by_length": [[3, 6, 2, 70.0], [6, 11, 0, None]]}}}
    rec = make_record("seeds-demo", "seed-spread", {}, {"per_seed": per_seed,
                                                      "summary": {"m": {"test_bleu": spread([1.0, 3.0])}}})
    monkeypatch.setattr(R, "RESULTS_DIR", tmp_path)
    write_record(rec, tmp_path / "seeds-demo.json")
    [back] = R.records_named("seeds-*")
    assert R.seed_summary(back, "m", "test_bleu")["mean"] == 2.0
    rows = R.mean_bleu_by_length(back, "m")
    assert rows[0] == ((3, 6), 2, 60.0) and rows[1][0] == (6, 11) and rows[1][2] != rows[1][2]
    with pytest.raises(DataError, match="no summary of 'chrf' for 'm'"):
        R.seed_summary(back, "m", "chrf")
    with pytest.raises(DataError, match="no BLEU by length for 'x'"):
        R.mean_bleu_by_length(back, "x")


def _git_repo(root: Path) -> None:
    import subprocess

    def git(*args):
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)

    (root / "book" / "results").mkdir(parents=True)
    (root / "code.py").write_text("x = 1\n", encoding="utf-8")
    (root / "book" / "results" / "r.json").write_text("{}\n", encoding="utf-8")
    git("init", "-q")
    git("-c", "user.name=t", "-c", "user.email=t@t", "add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "init")


def test_the_dirty_flag_ignores_the_records_and_pins_any_other_change(tmp_path):
    from companion.experiments.records import git_state

    _git_repo(tmp_path)
    clean = git_state(tmp_path)
    assert not clean["dirty"] and clean["diff_sha256"] is None and "+" not in clean["commit"]
    assert len(clean["commit"]) == 40
    # what the scripts write (changed or new records) leaves the flag alone
    (tmp_path / "book" / "results" / "r.json").write_text('{"x": 1}\n', encoding="utf-8")
    (tmp_path / "book" / "results" / "new.json").write_text("{}\n", encoding="utf-8")
    assert git_state(tmp_path) == clean
    # a change to the code is flagged and hashed; another change hashes differently
    (tmp_path / "code.py").write_text("x = 2\n", encoding="utf-8")
    first = git_state(tmp_path)
    assert first["dirty"] and first["commit"] == clean["commit"] + "+dirty"
    assert len(first["diff_sha256"]) == 64
    (tmp_path / "code.py").write_text("x = 3\n", encoding="utf-8")
    second = git_state(tmp_path)
    assert second["dirty"] and second["diff_sha256"] != first["diff_sha256"]
    # an untracked source file counts too (a record made with it is not pinned by the commit)
    (tmp_path / "code.py").write_text("x = 1\n", encoding="utf-8")
    assert git_state(tmp_path) == clean
    (tmp_path / "new_module.py").write_text("y = 1\n", encoding="utf-8")
    assert git_state(tmp_path)["dirty"]
    (tmp_path / ".gitignore").write_text("new_module.py\n.gitignore\n", encoding="utf-8")
    assert git_state(tmp_path) == clean  # ignored files do not count


def test_outside_a_checkout_the_commit_is_unknown(tmp_path):
    from companion.experiments.records import git_state

    assert git_state(tmp_path) == {"commit": "unknown", "dirty": None, "diff_sha256": None}


def test_records_carry_the_tokenizer_and_bleu_versions():
    import sacrebleu
    import sentencepiece

    prov = make_record("demo", "test", {}, {"x": 1})["provenance"]
    assert prov["sentencepiece"] == sentencepiece.__version__ and prov["sacrebleu"] == sacrebleu.__version__
    assert "diff_sha256" in prov


def test_tiny_floats_keep_their_significant_digits(tmp_path):
    from companion.experiments.records import make_record, read_record, write_record

    path = write_record(make_record("tiny", "test", {}, {"ratio": 1.23456789e-13, "bleu": 72.123456789,
                                                         "small": 0.0123456789}), tmp_path / "tiny.json")
    back = read_record(path)["results"]
    assert back["ratio"] == 1.234568e-13 and back["bleu"] == 72.123457 and back["small"] == 0.01234568


def test_records_know_the_corpus_they_were_computed_on(tmp_path, capsys, monkeypatch):
    """A new record carries the generator's fingerprint and is current; one without it (or with
    another corpus's) is stale, named in the chapter's note, and turns the band checks off."""
    import companion.repro as repro
    from companion.data.kosynth.corpus import generator_fingerprint
    from companion.experiments import records as R

    fresh = make_record("fresh", "test", {}, {})
    assert fresh["provenance"]["corpus_fingerprint"] == generator_fingerprint()
    assert len(generator_fingerprint()) == 16 and R.corpus_current(fresh)
    old = {**fresh, "name": "old", "provenance": {**fresh["provenance"], "corpus_fingerprint": "0" * 16}}
    assert not R.corpus_current(old) and R.stale_note(fresh) == ""
    assert "old" in R.stale_note(fresh, old) and "fresh" not in R.stale_note(fresh, old)
    for record in (fresh, old):
        write_record(record, tmp_path / f"{record['name']}.json")
    monkeypatch.setattr(R, "RESULTS_DIR", tmp_path)
    try:
        assert set(R.use_records("fresh")) == {"fresh"} and capsys.readouterr().out == ""
        assert repro._BANDS_OFF is None
        R.use_records("fresh", "old")
        assert "earlier edition of the corpus: old." in capsys.readouterr().out
        assert repro._BANDS_OFF == R.STALE_REASON
    finally:
        repro.use_bands(True)


def test_the_fingerprint_follows_the_generator(monkeypatch):
    """Another generator output gives another fingerprint (the cache is per process)."""
    from companion.data.kosynth import corpus as C

    first = C.generator_fingerprint()
    C.generator_fingerprint.cache_clear()
    real = C.generate_pairs
    monkeypatch.setattr(C, "generate_pairs", lambda n, seed, level: real(n, seed + 1, level))
    try:
        assert C.generator_fingerprint() != first
    finally:
        C.generator_fingerprint.cache_clear()


def test_a_record_of_one_level_outlives_changes_to_another(monkeypatch):
    """Revising the full level's lexicon leaves the book's small-level records current, but not
    a record that read both levels; a change to the small level makes both stale. A record made
    before records carried per-level fingerprints is judged through the legacy table."""
    from companion.data.kosynth import corpus as C
    from companion.experiments import records as R

    small_run = make_record("run", "test", {"regime": {"level": "small"}}, {})
    review = make_record("review", "test", {"sections": [["train", "full", 50]]}, {})
    lexicon = make_record("lex", "test", {"regime": {"level": "small+lemmas_per_class=12"}}, {})
    assert small_run["provenance"]["corpus_fingerprints"]["small"] == C.level_fingerprint("small")
    assert R.corpus_levels(small_run) == ("small",) and R.corpus_levels(review) is None
    assert R.corpus_levels(lexicon) is None
    real = C.generate_pairs

    def changed(level_changed):
        def gen(n, seed, level):
            pairs = real(n, seed, level)
            return pairs[1:] + pairs[:1] if level == level_changed else pairs
        return gen

    def caches():
        C.generator_fingerprint.cache_clear()
        C.level_fingerprint.cache_clear()

    try:
        for level, run_current in (("full", True), ("small", False)):
            caches()
            monkeypatch.setattr(C, "generate_pairs", changed(level))
            assert R.corpus_current(small_run) is run_current, level
            assert not R.corpus_current(review) and not R.corpus_current(lexicon)
            monkeypatch.setattr(C, "generate_pairs", real)
        caches()
        legacy = {**small_run, "provenance": {k: v for k, v in small_run["provenance"].items()
                                              if k != "corpus_fingerprints"}}
        legacy["provenance"]["corpus_fingerprint"] = "f" * 16
        assert not R.corpus_current(legacy)  # an unknown old corpus
        monkeypatch.setitem(R.LEGACY_LEVEL_FINGERPRINTS, "f" * 16,
                            {"small": C.level_fingerprint("small"), "full": "0" * 16})
        assert R.corpus_current(legacy)
    finally:
        caches()



def test_provenance_rows_name_the_training_threads_and_a_dirty_tree():
    from companion.experiments.records import provenance_row

    prov = {"commit": "0123456789abcdef", "torch": "2.13.0+cpu", "torch_threads": 2, "cpu": "AMD EPYC", "gpu": None}
    plain = {"name": "seeds-x", "created": "2026-12-03T10:00:00", "provenance": prov, "config": {"threads": 1},
             "results": {"per_seed": {"0": {}, "1": {}}}}
    row = provenance_row(plain)
    assert row == {"record": "seeds-x", "made": "2026-12-03", "commit": "01234567", "torch": "2.13.0+cpu",
                   "threads": 1, "seeds": 2, "hardware": "AMD EPYC"}
    merged = {**plain, "provenance": {**prov, "dirty": True, "gpu": "H200"}, "config": {},
              "results": {"experiments": {"a": {"provenance": {"torch_threads": 1}},
                                          "b": {"provenance": {"torch_threads": 4}}}}}
    row = provenance_row(merged)   # the runs' threads, not the merging process's 2
    assert (row["threads"], row["commit"], row["seeds"], row["hardware"]) == ("1, 4", "01234567+dirty", 1, "H200")


def test_a_wider_learning_rate_search_replaces_a_family_of_the_first(tmp_path, monkeypatch):
    import companion.experiments.records as records

    monkeypatch.setattr(records, "RESULTS_DIR", tmp_path)

    def search(name, seed, families):
        rows = {f: [{"factor": x, "lr": x} for x in grid] for f, grid in families.items()}
        return make_record(name, "lr-search", {"seed": seed},
                           {"families": {f: {"rows": r, "recipe_lr": 1.0} for f, r in rows.items()}})

    write_record(search("lr-search", 0, {"rnnsearch": (0.5, 1, 2), "transformer": (0.5, 1, 2)}),
                 tmp_path / "lr-search.json")
    first = records.lr_search_families()
    assert first["transformer"]["factors"] == [0.5, 1, 2] and first["transformer"]["record"] == "lr-search"
    write_record(search("lr-search-wide", 0, {"transformer": (0.25, 0.5, 1, 2)}), tmp_path / "lr-search-wide.json")
    both = records.lr_search_families()
    assert both["transformer"]["factors"] == [0.25, 0.5, 1, 2] and both["transformer"]["record"] == "lr-search-wide"
    assert both["rnnsearch"]["record"] == "lr-search" and list(both) == ["rnnsearch", "transformer"]
    write_record(search("lr-search-wide", 1, {"transformer": (0.25, 1)}), tmp_path / "lr-search-wide.json")
    with pytest.raises(DataError, match="one search cannot extend the other"):
        records.lr_search_families()
