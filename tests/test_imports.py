"""The package's imports: every module imports on its own, and imports run downward only.

A module that imports only after another module of the package has been imported, or two modules
that import each other (directly or round a longer circle), break for a reader who starts from
the wrong end. Function-level imports are kept for optional dependencies (matplotlib, onnx, ...)
and for start-up time (the command line), never to dodge a circle: the graph checked here holds
the package's imports of its own modules wherever they stand.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "companion"

#: module -> why its function-level imports of the package are left out of the graph
LAZY = {
    "companion": "its load() imports the translator on first use, so that `import companion` imports no torch",
}


def module_names() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name)."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _is_type_checking(node: ast.AST) -> bool:
    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and ast.unparse(test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")


def imported_modules(name: str, path: Path, modules: dict[str, Path], *, in_functions: bool
                     ) -> set[str]:
    """The package modules that ``name`` imports: at module level, and with ``in_functions``
    inside functions too. ``from package import submodule`` is an import of the submodule; an
    import under ``if TYPE_CHECKING`` never runs and is left out."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def resolve(dotted: str) -> str | None:
        while dotted and dotted not in modules:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if _is_type_checking(child):
                continue
            inside = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(child, (ast.Import, ast.ImportFrom)) and (in_functions or not in_function):
                if isinstance(child, ast.Import):
                    targets = [resolve(a.name) for a in child.names]
                else:
                    base = child.module or ""
                    if child.level:
                        up = package.split(".")[: len(package.split(".")) - child.level + 1]
                        base = ".".join(up + ([base] if base else []))
                    targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else resolve(base)
                               for a in child.names]
                found.update(t for t in targets if t and t != name)
            visit(child, inside)

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return found


def import_graph(*, in_functions: bool) -> dict[str, set[str]]:
    modules = module_names()
    return {name: imported_modules(name, path, modules, in_functions=in_functions and name not in LAZY)
            for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return found


def _describe(graph: dict[str, set[str]], component: list[str]) -> str:
    return "; ".join(f"{m} -> {', '.join(sorted(graph[m] & set(component)))}" for m in component)


def test_the_cycle_finder_finds_a_circle_and_reads_imports_as_python_runs_them(tmp_path):
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
    pkg = tmp_path / "companion"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("from companion.sub.low import x\n")
    (pkg / "sub" / "low.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                        "    from companion.sub.high import y\nx = 1\n")
    (pkg / "sub" / "high.py").write_text("from companion.sub import low\nfrom . import low as again\n"
                                         "def f():\n    from companion import sub\n")
    modules = {"companion": pkg / "__init__.py", "companion.sub": pkg / "sub" / "__init__.py",
               "companion.sub.low": pkg / "sub" / "low.py", "companion.sub.high": pkg / "sub" / "high.py"}
    read = lambda name, f: imported_modules(name, modules[name], modules, in_functions=f)  # noqa: E731
    assert read("companion.sub.high", False) == {"companion.sub.low"}  # a submodule, not its package
    assert read("companion.sub.high", True) == {"companion.sub.low", "companion.sub"}
    assert read("companion.sub.low", True) == set()  # TYPE_CHECKING imports never run


def test_module_level_imports_form_no_circle():
    graph = import_graph(in_functions=False)
    assert len(graph) > 50 and graph["companion.data.batching"]  # the package was read
    found = cycles(graph)
    assert not found, "import circles: " + " | ".join(_describe(graph, c) for c in found)


def test_no_function_level_import_dodges_a_circle():
    """With the imports inside functions counted too (but for :data:`LAZY`), the graph still has
    no circle: no function-level import exists to break one."""
    graph = import_graph(in_functions=True)
    found = cycles(graph)
    assert not found, "circles through function-level imports: " + " | ".join(_describe(graph, c) for c in found)


ISOLATED_IMPORTS = r"""
import importlib, json, sys, traceback
failures = {}
for name in json.loads(sys.argv[1]):
    for loaded in [m for m in sys.modules if m == "companion" or m.startswith("companion.")]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
    except BaseException as exc:  # noqa: BLE001 - report every module's failure
        failures[name] = "".join(traceback.format_exception_only(type(exc), exc)).strip()
print(json.dumps(failures))
"""


def test_every_module_imports_on_its_own():
    """Each module imported first, with no other module of the package loaded before it (one
    fresh interpreter; the package's modules are dropped from ``sys.modules`` between imports,
    third-party ones such as torch stay loaded)."""
    names = list(module_names())
    done = subprocess.run([sys.executable, "-c", ISOLATED_IMPORTS, json.dumps(names)], capture_output=True,
                          text=True, timeout=600, cwd=PACKAGE.parent)
    assert done.returncode == 0, done.stderr[-3000:]
    failures = json.loads(done.stdout.strip().splitlines()[-1])
    assert not failures, "\n".join(f"{k}: {v}" for k, v in failures.items())


@pytest.mark.parametrize("module", ["companion", "companion.config", "companion.models", "companion.validation"])
def test_light_modules_import_no_torch(module):
    """The package root, the config and the model registry stay free of torch (a config is
    checked, and ``companion --help`` answers, without loading it)."""
    done = subprocess.run([sys.executable, "-c", f"import sys, {module}; print('torch' in sys.modules)"],
                          capture_output=True, text=True, timeout=120, cwd=PACKAGE.parent)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "False"
