"""The environment files agree with pyproject.toml, so conda and pip users get the same pins."""

from __future__ import annotations

import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def test_environment_yml_pins_equal_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pins = set(project["dependencies"])
    for extra in ("book", "test"):
        pins |= set(project["optional-dependencies"][extra])
    env = yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))
    pip_section = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    assert {p for p in pip_section if "==" in p} == pins
    assert "torch==2.13.0" in pins


def test_every_pin_is_exact():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    for dep in project["dependencies"]:
        assert "==" in dep, f"{dep} is not pinned"
