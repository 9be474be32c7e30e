"""The package as a reuser gets it: the built wheel, installed into a fresh virtual environment
(no system site-packages, no access to this repository), gives a ``companion`` command with the
presets, trains 3 steps from a preset name on a tiny generated corpus, and loads the run from
Python.

The wheel is built from a copy of the package's sources (so the repository gets no ``build/``);
its dependencies install with the project's pins (``-c constraints.txt``) from the package index
pip is configured with (torch 2.13.0 comes from the machine's local CPU wheel where there is
one). About 1.5 minutes, most of it installing torch.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(cmd: list[str], cwd: Path, timeout: int = 600) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env.update(OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(map(str, cmd))} failed:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.mark.slow
def test_the_wheel_installs_in_a_fresh_venv_and_trains_from_a_preset_name(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, src / name)
    shutil.copytree(ROOT / "companion", src / "companion", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(tmp_path / "wheels"), str(src)],
         tmp_path)
    [wheel] = (tmp_path / "wheels").glob("seq2seq_companion-*.whl")

    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], tmp_path)
    py, companion = venv / "bin" / "python", venv / "bin" / "companion"
    _run([str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-c",
          str(ROOT / "constraints.txt"), "--find-links", str(tmp_path / "wheels"), str(wheel)], tmp_path)

    work = tmp_path / "work"  # neither the repository nor its configs/ are in sight
    work.mkdir()
    where = _run([str(py), "-c", "import companion; print(companion.__file__)"], work).strip()
    assert Path(where).is_relative_to(venv)
    listed = _run([str(companion), "presets"], work).splitlines()
    assert [line.split()[0] for line in listed] == [
        "cpu/rnnencdec", "cpu/rnnsearch", "cpu/seq2seq", "cpu/transformer",
        "gpu/rnnencdec", "gpu/rnnsearch", "gpu/seq2seq", "gpu/transformer"]
    assert Path(_run([str(companion), "presets", "--path", "cpu/transformer"], work).strip()).is_relative_to(venv)

    _run([str(companion), "generate-data", "--size", "200", "--seed", "0", "--level", "tiny", "--out", "data"], work)
    _run([str(companion), "train", "--config", "cpu/transformer", "--data", "data", "--out", "run",
          "--max-steps", "3", "--no-progress", "--set", "data.src_vocab_size=260", "data.tgt_vocab_size=120",
          "train.eval_every=0"], work)
    out = _run([str(py), "-c", (
        "import torch, companion\n"
        "ckpt = torch.load('run/checkpoint-last.pt', weights_only=True)\n"
        "t = companion.load('run')\n"
        "print(ckpt['step'], ckpt['config']['model']['name'], t.step, len(t.translate(['고양이가 물을 마신다'])))\n")],
        work)
    assert out.split() == ["3", "transformer", "3", "1"]
