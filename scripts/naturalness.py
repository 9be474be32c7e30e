"""How natural the generated corpus reads, before and after issue 16: the corpus chapter's record.

Runs the independent check (:mod:`companion.evaluation.naturalness`, rule lists of its own, not
the generator's) over the training pairs of every level -- 20,000 pairs drawn with seed 0, their
train split of 18,000 -- for two generators: this tree's ("after") and the one at ``--before``
("before", default: the commit before the naturalness rules), which a subprocess runs from a
``git archive`` of that commit, handing back only the pairs; the check is always this tree's.
It also counts the book's level's vocabulary (``small``, 100,000 pairs) for both, since the
rules may not grow it much. Writes ``book/results/naturalness.json``.

    .venv/bin/python scripts/naturalness.py                       # ~1.5 min on one thread
    .venv/bin/python scripts/naturalness.py --quick --out /tmp/naturalness.json
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.data.kosynth import LEVELS, generate_pairs, split_pairs  # noqa: E402
from companion.data.kosynth.grammar import NATURALNESS_RULES  # noqa: E402
from companion.evaluation.naturalness import BLIND_SPOTS, RULES, check_pairs  # noqa: E402
from companion.experiments.records import make_record, python_command, write_record  # noqa: E402

#: the generator before issue 16 (the parent of the commit that added the naturalness rules)
BEFORE = "8cab9028e50cf935b670969be588cd8949d28e03"

#: run inside the old tree: print the train pairs (or all pairs) as JSON lines
_DUMP = """
import json, sys
from companion.data.kosynth import generate_pairs, split_pairs
n, seed, level, which = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
pairs = generate_pairs(n, seed, level)
if which == "train":
    pairs = split_pairs(pairs, seed)["train"]
for p in pairs:
    sys.stdout.write(json.dumps([p.ko, p.en, [list(x) for x in p.align]], ensure_ascii=False))
    sys.stdout.write("\\n")
"""


def old_tree(commit: str, into: Path) -> Path:
    """The package at ``commit`` unpacked under ``into`` (git archive)."""
    try:
        blob = subprocess.run(["git", "archive", commit, "companion"], cwd=ROOT, check=True,
                              capture_output=True).stdout
    except (OSError, subprocess.CalledProcessError) as exc:
        err = getattr(exc, "stderr", b"") or b""
        sys.exit(f"error: cannot read commit {commit!r} with git archive: "
                 f"{err.decode(errors='replace').strip() or exc}")
    with tarfile.open(fileobj=io.BytesIO(blob)) as tar:
        tar.extractall(into, filter="data")
    return into


def old_pairs(tree: Path, n: int, seed: int, level: str, which: str) -> list[tuple]:
    """Pairs drawn by the generator in ``tree``, as ``(ko, en, links)``."""
    env = dict(os.environ, PYTHONPATH=str(tree), OMP_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", _DUMP, str(n), str(seed), level, which],
                         cwd=tree, env=env, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"error: the generator at {tree} failed: {out.stderr.strip().splitlines()[-1]}")
    return [tuple(json.loads(line)) for line in out.stdout.splitlines()]


def new_pairs(n: int, seed: int, level: str, which: str) -> list[tuple]:
    pairs = generate_pairs(n, seed, level)
    if which == "train":
        pairs = split_pairs(pairs, seed)["train"]
    return [(p.ko, p.en, p.align) for p in pairs]


def vocabulary(pairs: list[tuple]) -> dict:
    """Word types as the bench counts them (English lower case without . , ?; Korean eojeols
    without . ?) and as written (what a subword model sees)."""
    return {"english_words": len({w.strip(".,?").lower() for p in pairs for w in p[1].split()}),
            "korean_eojeols": len({w.strip(".?") for p in pairs for w in p[0].split()}),
            "english_types_as_written": len({w for p in pairs for w in p[1].split()}),
            "korean_types_as_written": len({w for p in pairs for w in p[0].split()})}


def summary(report) -> dict:
    d = report.as_dict()
    d["examples"] = {k: v[:3] for k, v in d["examples"].items() if v}
    return d


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=None, help="write here instead of book/results/")
    ap.add_argument("--before", default=BEFORE, help="git commit of the 'before' generator, or "
                                                     "'none' to check only this tree")
    ap.add_argument("--quick", action="store_true", help="600 pairs per level: plumbing only")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    n, vocab_n = (600, 2000) if args.quick else (20_000, 100_000)
    results: dict = {"levels": {}}
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        tree = old_tree(args.before, Path(tmp)) if args.before != "none" else None
        for level in LEVELS:
            row = {"after": summary(check_pairs(new_pairs(n, args.seed, level, "train")))}
            if tree is not None:
                row["before"] = summary(check_pairs(old_pairs(tree, n, args.seed, level,
                                                              "train")))
            results["levels"][level] = row
            print(f"{level}: unnatural pairs "
                  + (f"{row['before']['rate']:.2%} before, " if tree is not None else "")
                  + f"{row['after']['rate']:.2%} after (of {row['after']['pairs']})", flush=True)
        vocab = {"after": vocabulary(new_pairs(vocab_n, args.seed, "small", "all"))}
        if tree is not None:
            vocab["before"] = vocabulary(old_pairs(tree, vocab_n, args.seed, "small", "all"))
        results["small_vocabulary"] = {"pairs": vocab_n, **vocab}
        print(f"small, {vocab_n} pairs: {json.dumps(vocab)}")
    config = {"pairs_per_level": n, "split": "train (90%)", "seed": args.seed,
              "before_commit": None if args.before == "none" else args.before,
              "rules_checked": RULES, "blind_spots": list(BLIND_SPOTS),
              "generator_rules": list(NATURALNESS_RULES), "command": python_command(),
              "wall_s": round(time.perf_counter() - start, 1)}
    record = make_record("naturalness", "naturalness-check", config, results)
    print("wrote", write_record(record, args.out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
