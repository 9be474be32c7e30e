"""The package's own text (docstrings, comments, messages) says facts a wheel's user can check,
not pointers to material that ships without it: no issue numbers, no internal notes."""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "companion"

#: pointers to internal material: tracker issues, the seed documents and notes the book grew from
INTERNAL = re.compile(r"\bissues? #?\d+|\bseed (?:document|notes?)\b|\bseed[ -]0\d\d\b|\(seed \d+\)|"
                      r"\bsource notes\b|\bat (?:this|the) stop\b|\bstop \d+\b", re.I)


def internal_citations(root: Path) -> list[str]:
    """``path:line: text`` of every line of the package's Python files that cites internal material."""
    hits = []
    for path in sorted(root.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if INTERNAL.search(line):
                hits.append(f"{path.relative_to(root.parent)}:{number}: {line.strip()}")
    return hits


def test_the_pattern_finds_what_it_names():
    cited = ["(issue 22)", "Issue 22 (record ...)", "seed document 000's", "as in seed 004", "(seed 001)",
             "our source notes on the paper", "the README's time at this stop"]
    assert all(INTERNAL.search(text) for text in cited)
    plain = ["seed=0", "the seed's generator", "seed: int = 0", "stop at EOS", "np.random.default_rng([seed, 004])",
             "issue a warning"]
    assert not [text for text in plain if INTERNAL.search(text)]


def test_the_package_cites_no_internal_material():
    hits = internal_citations(PACKAGE)
    assert not hits, "\n".join(hits)
