"""The command line's own behaviour: help, version, errors as one line with exit status 2."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from companion import __version__, cli


def test_version(capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out.strip() == f"companion {__version__}"


def test_no_command_prints_help_and_fails(capsys):
    assert cli.main([]) == 2
    assert "generate-data" in capsys.readouterr().out


@pytest.mark.parametrize("name", sorted(cli.COMMANDS))
def test_every_command_in_the_table_is_real(name, capsys):
    module_name, help_text = cli.COMMANDS[name]
    module = importlib.import_module(module_name)
    assert callable(module.configure_parser) and callable(module.run)
    with pytest.raises(SystemExit) as info:
        cli.main([name, "--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: companion {name} ") and help_text in out
    parser = cli.build_parser([name])
    assert parser.parse_args([name, *REQUIRED.get(name, [])])._module == module_name


#: the required options of each command (parsing only: nothing runs)
REQUIRED = {
    "generate-data": ["--out", "x"],
    "train": ["--config", "c.yaml", "--data", "d", "--out", "r"],
    "prepare": ["--config", "c.yaml", "--data", "d", "--out", "r"],
    "translate": ["--checkpoint", "c.pt"],
    "evaluate": ["--checkpoint", "c.pt", "--data", "d"],
    "average": ["--inputs", "a.pt", "b.pt", "--out", "avg.pt"],
    "export": ["runs/x", "--format", "onnx", "--out", "x.onnx"],
}


def test_the_top_level_help_lists_every_command(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    out = capsys.readouterr().out
    for name, (_, help_text) in cli.COMMANDS.items():
        assert name in out and help_text in out


def test_a_real_user_error_is_one_line(tmp_path, capsys):
    assert cli.main(["translate", "--checkpoint", str(tmp_path / "none.pt")]) == 2
    assert capsys.readouterr().err == f"error: {tmp_path / 'none.pt'}: checkpoint not found\n"


def test_malformed_command_lines_are_one_line(capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(["translate", "--beam", "wide"])
    assert info.value.code == 2
    assert capsys.readouterr().err == ("error: companion translate: argument --beam: invalid int value: "
                                       "'wide' (see companion translate --help)\n")


def test_file_system_errors_are_one_line(monkeypatch, capsys):
    import companion.commands.translate as translate

    def full_disk(args):
        raise OSError(28, "No space left on device", "run/checkpoint-step5.pt")

    monkeypatch.setattr(translate, "run", full_disk)
    assert cli.main(["translate", "--checkpoint", "c.pt"]) == 2
    assert capsys.readouterr().err == "error: run/checkpoint-step5.pt: No space left on device\n"


def test_python_dash_m_and_console_script_agree():
    script = Path(sys.executable).parent / "companion"
    for command in ([sys.executable, "-m", "companion", "--version"], [str(script), "--version"]):
        out = subprocess.run(command, capture_output=True, text=True)
        assert out.returncode == 0 and out.stdout.strip() == f"companion {__version__}"


@pytest.mark.parametrize("name, extra", [("translate", ["--nbest", "--buffer-size"]), ("evaluate", [])])
def test_the_decoding_commands_list_their_decode_time_options(name, extra, capsys):
    """What overrides the checkpoint's ``decode`` section is in ``--help``, under its own heading."""
    with pytest.raises(SystemExit):
        cli.main([name, "--help"])
    out = capsys.readouterr().out
    assert "decode-time options (default: the checkpoint's decode section):" in " ".join(out.split())
    for option in ["--beam", "--lenpen", "--max-len-a", "--max-len-b", "--max-source-len", "--on-long", *extra]:
        assert f"  {option} " in out, option
    assert "--checkpoint CKPT [CKPT ...]" in out  # several checkpoints: an ensemble
    assert "--device DEVICE" in out and "default: cuda if available" in " ".join(out.split())
