"""Build the "Try the translator" panel's static files into the book.

    python scripts/build_panel.py [STATIC_DIR]      # default: _build/html/_static

1. ``npm ci`` in ``web/`` installs the pinned libraries of ``web/package-lock.json``
   (onnxruntime-web, a SentencePiece build, and esbuild to bundle them). Offline, an existing
   ``web/node_modules`` that matches the lockfile is used as it is.
2. esbuild bundles the two libraries into one classic script, ``vendor.js``: a page opened from
   ``file://`` may not load ES modules nor ``fetch`` its neighbours, so nothing may be loaded
   but ``<script src>`` files.
3. onnxruntime-web's WebAssembly binary is written, gzip-compressed and base64-encoded, into
   ``ort-wasm.js`` (the page decompresses it with the browser's ``DecompressionStream``).
4. ``panel.js`` and ``panel.css`` are copied beside them.

Everything lands in ``STATIC_DIR/companion-panel/``. The models the chapters export when they
run (:func:`companion.export.panel.write_panel` into ``book/_panel``, beside the notebooks and
outside ``_build``, so that a book built from cached or stored outputs still finds them) are
copied into its ``models/`` folder; a chapter whose model is missing is named in a warning.
"""

from __future__ import annotations

import argparse
import base64
import fcntl
import gzip
import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "web"
#: where the chapters' cells write their exported models (``write_panel(..., "_panel", ...)``
#: from ``book/``); not in git: each execution of a chapter writes its own
MODELS = ROOT / "book" / "_panel" / "models"
#: the panels the book's pages carry, by model name
BOOK_MODELS = ("rnnsearch", "transformer")
PANEL_FILES = ("panel.js", "panel.css")
WASM = Path("onnxruntime-web") / "dist" / "ort-wasm-simd-threaded.wasm"
LOCK_STAMP = ".companion-lock-sha256"  # written into node_modules after a successful `npm ci`


class PanelBuildError(RuntimeError):
    """The panel's libraries could not be installed or bundled (one line, for the reader)."""


def _lock_digest(web: Path) -> str:
    return hashlib.sha256((web / "package-lock.json").read_bytes()).hexdigest()


def install(web: Path = WEB) -> None:
    """``npm ci`` unless ``node_modules`` was installed from this very lockfile; if npm fails
    (offline) an existing installation is used, with a warning, and no installation is an error.
    Two builds at once (parallel test workers) take turns: the lockfile is locked meanwhile."""
    with open(web / "package-lock.json", "rb") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            _install(web)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _install(web: Path) -> None:
    modules = web / "node_modules"
    stamp = modules / LOCK_STAMP
    digest = _lock_digest(web)
    if stamp.exists() and stamp.read_text().strip() == digest:
        return
    npm = shutil.which("npm")
    proc = None
    if npm:
        proc = subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=web,
                              capture_output=True, text=True)
    if proc is not None and proc.returncode == 0:
        stamp.write_text(digest + "\n")
        return
    why = "npm is not installed" if proc is None else (proc.stderr.strip().splitlines() or ["npm ci failed"])[-1]
    if (modules / WASM).exists() and (modules / ".bin" / "esbuild").exists():
        print(f"warning: `npm ci` failed ({why}); using the existing web/node_modules", file=sys.stderr)
        return
    raise PanelBuildError(f"cannot install the panel's libraries: {why} (run `npm ci` in web/ once online)")


def bundle(out: Path, web: Path = WEB) -> None:
    """esbuild: ``web/src/vendor.js`` and what it imports -> one minified classic script."""
    esbuild = web / "node_modules" / ".bin" / "esbuild"
    empty = "./src/empty.js"
    cmd = [str(esbuild), "src/vendor.js", "--bundle", "--format=iife", "--platform=browser",
           "--minify", "--legal-comments=none", "--log-level=error",
           f"--alias:fs={empty}", f"--alias:module={empty}", f"--outfile={out}"]
    proc = subprocess.run(cmd, cwd=web, capture_output=True, text=True)
    if proc.returncode != 0:
        raise PanelBuildError(f"esbuild failed: {proc.stderr.strip()}")


def embedded_script(variable: str, data: bytes) -> str:
    """A classic script that stores ``data`` (gzip + base64) at ``window.CompanionPanel[variable]``."""
    b64 = base64.b64encode(gzip.compress(data, compresslevel=9, mtime=0)).decode("ascii")
    return ("(window.CompanionPanel = window.CompanionPanel || {models: {}})"
            f"[{json.dumps(variable)}] = \"{b64}\";\n")


def build(static_dir: Path, web: Path = WEB, models: Path = MODELS) -> Path:
    """Write the panel's files into ``static_dir/companion-panel`` and copy the chapters'
    exported models from ``models``; returns that folder."""
    install(web)
    target = Path(static_dir).resolve() / "companion-panel"  # esbuild runs in web/: no relative paths
    (target / "models").mkdir(parents=True, exist_ok=True)
    for script in sorted(Path(models).glob("*.js")):
        shutil.copy2(script, target / "models" / script.name)
    missing = [name for name in BOOK_MODELS if not (target / "models" / f"{name}.js").exists()]
    if missing and Path(models) == MODELS:
        print(f"warning: no exported model for the panel of {', '.join(missing)} in {models}: "
              "execute the chapter (make book, or make nbval) to write it", file=sys.stderr)
    bundle(target / "vendor.js", web)
    wasm = (web / "node_modules" / WASM).read_bytes()
    (target / "ort-wasm.js").write_text(embedded_script("ortWasm", wasm), encoding="ascii")
    for name in PANEL_FILES:
        shutil.copy2(web / name, target / name)
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("static_dir", nargs="?", default=str(ROOT / "_build" / "html" / "_static"))
    args = parser.parse_args(argv)
    try:
        target = build(Path(args.static_dir))
    except PanelBuildError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    sizes = ", ".join(f"{p.name} {p.stat().st_size / 1e6:.1f} MB" for p in sorted(target.glob("*.js")))
    print(f"panel: {target} ({sizes})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
