"""The command line's own behaviour: help, version, errors as one line with exit status 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from companion import __version__, cli
from companion.errors import DataError


def test_version(capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out.strip() == f"companion {__version__}"


def test_no_command_prints_help_and_fails(capsys):
    assert cli.main([]) == 2
    assert "generate-data" in capsys.readouterr().out


def test_user_errors_are_one_line(monkeypatch, capsys):
    class Broken:
        @staticmethod
        def configure_parser(p):
            pass

        @staticmethod
        def run(args):
            raise DataError("corpus/train.ko: line 3: empty source side")

    monkeypatch.setitem(sys.modules, "companion_test_broken", Broken)
    monkeypatch.setitem(cli.COMMANDS, "broken", ("companion_test_broken", "always fails"))
    assert cli.main(["broken"]) == 2
    assert capsys.readouterr().err == "error: corpus/train.ko: line 3: empty source side\n"


def test_python_dash_m_and_console_script_agree():
    script = Path(sys.executable).parent / "companion"
    for command in ([sys.executable, "-m", "companion", "--version"], [str(script), "--version"]):
        out = subprocess.run(command, capture_output=True, text=True)
        assert out.returncode == 0 and out.stdout.strip() == f"companion {__version__}"
