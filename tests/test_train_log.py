"""The training log without a terminal: a plain line every ``log_every`` steps on stderr, so a
redirected log shows progress between evaluations."""

from __future__ import annotations

import io
import re
import subprocess
import sys

import pytest

from companion.data.batching import make_loader
from companion.training.trainer import Trainer, progress_line
from test_cli_train import CONFIG, ROOT, TINY, write_corpus
from test_train import reverse_task, tiny_model

LINE = re.compile(r"step (\d+)/(\d+) \| epoch \d+\.\d\d \| loss \d+\.\d{4} \| lr \d\.\d\de[-+]\d\d \| [\d,]+ tok/s")


@pytest.fixture(autouse=True)
def _one_thread(one_thread):
    """Every test here on one thread (see conftest.one_thread)."""


def test_the_progress_line():
    rec = {"step": 50, "epoch": 0.1234, "train_loss": 3.21404, "lr": 1e-3, "tokens_per_s": 5210.4}
    assert progress_line(rec, 2000) == "step 50/2000 | epoch 0.12 | loss 3.2140 | lr 1.00e-03 | 5,210 tok/s"
    assert LINE.fullmatch(progress_line(rec, 2000))


def test_the_trainer_prints_a_line_per_log_every_without_a_bar():
    loader = make_loader(reverse_task(64), max_tokens=120, shuffle=True, seed=0)
    log = io.StringIO()
    Trainer(tiny_model(), loader, preset="adam", max_steps=9, eval_every=0, log_every=4, progress=False,
            log_stream=log).fit()
    lines = log.getvalue().splitlines()
    assert lines[0].startswith("precision: ")
    assert [LINE.fullmatch(x).group(1) for x in lines[1:]] == ["4", "8", "9"]  # and the last step
    bar = io.StringIO()  # with a progress bar the bar shows the same numbers: no extra lines
    Trainer(tiny_model(), loader, preset="adam", max_steps=9, eval_every=0, log_every=4, progress=True,
            log_stream=bar).fit()
    assert not [x for x in bar.getvalue().splitlines() if LINE.fullmatch(x)]


@pytest.mark.slow
def test_a_redirected_train_log_shows_each_log_every(tmp_path):
    """``companion train ... > log 2>&1``: stderr is a file, not a terminal."""
    data = write_corpus(tmp_path / "data")
    log_path = tmp_path / "log"
    with open(log_path, "w") as log:
        proc = subprocess.run([sys.executable, "-m", "companion", "train", "--config", CONFIG, "--data", str(data),
                               "--out", str(tmp_path / "run"), "--max-steps", "12", "--set", *TINY,
                               "train.log_every=4"], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    assert proc.returncode == 0
    lines = log_path.read_text().splitlines()
    assert [m.group(1, 2) for m in map(LINE.fullmatch, lines) if m] == [("4", "12"), ("8", "12"), ("12", "12")]
    assert lines[0] == "precision: fp32 (auto on cpu: float32)"
    assert lines[-2].startswith("step 12/12 | epoch ") and " | valid ppl " in lines[-2]
