"""The run directory's names live in one module below the two that use them: the run's data
(rundata) and the run's files (rundir) import downward only."""

from __future__ import annotations

import ast
from pathlib import Path

import companion.training as training
from companion.training import averaging, checkpoint, rundata, rundir, runfiles

TRAINING = Path(training.__file__).parent


def imported_modules(path: Path) -> set[str]:
    """Every ``companion`` module that the file at ``path`` imports, at any depth (inside
    functions too)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return {m for m in out if m.startswith("companion")}


def test_rundata_and_runfiles_never_import_rundir():
    assert "companion.training.rundir" not in imported_modules(TRAINING / "rundata.py")
    assert not {m for m in imported_modules(TRAINING / "runfiles.py") if m.startswith("companion.training")}
    assert "companion.training.rundata" in imported_modules(TRAINING / "rundir.py")  # rundir is above it


def test_one_definition_of_each_run_file_name():
    assert rundata.CACHE_DIR is runfiles.CACHE_DIR and rundir.VOCAB_FILES is runfiles.VOCAB_FILES
    assert rundir.VOCAB_KEYS is runfiles.VOCAB_KEYS and rundata.SPLITS is runfiles.SPLITS
    assert averaging.STEP_FILE is checkpoint.STEP_FILE
    defining = [p.name for p in TRAINING.glob("*.py") if 'compile(r"checkpoint-step' in p.read_text(encoding="utf-8")]
    assert defining == ["checkpoint.py"]
    assert checkpoint.STEP_FILE.fullmatch("checkpoint-step12.pt").group(1) == "12"
    assert not checkpoint.STEP_FILE.fullmatch("checkpoint-stepX.pt")
