"""A native reader's review of the corpus: draw the samples a reviewer reads, and record the
verdicts as the corpus chapter's record ``book/results/native-review.json``.

    .venv/bin/python scripts/native_review.py sample --seed 1901 --out /tmp/review/a.md
    .venv/bin/python scripts/native_review.py record /tmp/review/a.md:/tmp/review/a-verdicts.md ...

``sample`` writes 110 numbered items: 30 training pairs of the small level and 50 of the full
level (drawn at random from 3,000 pairs generated with the seed), then 30 challenge lines of the
full level (five of each set). A reviewer -- a native Korean reader and translator -- judges each
item on three scales: the Korean natural / odd / wrong, the English natural / odd, the
translation accurate / wrong, with a line of reason for anything less than natural and accurate,
one line per item::

    17 | ko: odd | en: natural | tr: accurate | 빵을 혼자 주문하다: "alone" adds nothing

``record`` reads every sample beside its verdicts, checks that each item has exactly one verdict
line and that the sentences still come out of the generator as they were shown (so that a review
of an earlier generator is refused), and writes the per-item verdicts with the counts per level
and per reviewer. ``--earlier RECORD`` carries an earlier round's small-level counts into the new
record when the small level is unchanged (two rounds of reviewers on the same sentences show how
much the verdict depends on who reads), and ``--brief FILE`` keeps the reviewers' instructions. The chapter reads the shares of odd or wrong Korean and of wrong translations
among the training pairs, the two numbers the corpus is held to.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.data.kosynth import generate_pairs  # noqa: E402
from companion.data.kosynth.corpus import challenge_sets  # noqa: E402
from companion.experiments.records import make_record, python_command, write_record  # noqa: E402

#: (section, level, items): the training pairs a reviewer reads, then the challenge lines
SECTIONS = (("train", "small", 30), ("train", "full", 50), ("challenge", "full", 30))
POOL = 3000
_ITEM = re.compile(r"^(\d+)\. (?:\[(\w+)\] )?KO: (.+)$")
_VERDICT = re.compile(r"^\s*(\d+)\s*\|\s*ko:\s*(natural|odd|wrong)\s*\|\s*en:\s*(natural|odd)\s*\|"
                      r"\s*tr:\s*(accurate|wrong)\s*(?:\|\s*(.*))?$", re.IGNORECASE)


def draw(seed: int) -> list[dict]:
    """The items of one sample, in order: ``{"n", "section", "level", "set", "ko", "en"}``."""
    rng = random.Random(seed)
    items: list[dict] = []
    for section, level, n in SECTIONS:
        if section == "train":
            picked = [(None, p) for p in rng.sample(generate_pairs(POOL, seed, level), n)]
        else:
            sets = challenge_sets(seed, 40, set(), set(), level)
            per_set = n // len(sets)
            picked = [(name, p) for name, pairs in sets.items()
                      for p in rng.sample(list(pairs), per_set)]
        for name, p in picked:
            items.append({"n": len(items) + 1, "section": section, "level": level, "set": name,
                          "ko": p.ko, "en": p.en})
    return items


def write_sample(seed: int, out: Path) -> None:
    lines = [f"# Sample {seed}", ""]
    for section, level, _ in SECTIONS:
        lines += ["", f"## {'Training pairs' if section == 'train' else 'Challenge lines'}, "
                      f"level {level}", ""]
        for it in draw(seed):
            if (it["section"], it["level"]) == (section, level):
                tag = f"[{it['set']}] " if it["set"] else ""
                lines += [f"{it['n']}. {tag}KO: {it['ko']}", f"   EN: {it['en']}", ""]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines), encoding="utf-8")


def read_sample(path: Path) -> tuple[int, dict[int, tuple[str, str]]]:
    """The seed named in a sample file's title and its items ``n -> (ko, en)``."""
    text = path.read_text(encoding="utf-8").splitlines()
    m = re.match(r"# Sample (\d+)", text[0] if text else "")
    if not m:
        sys.exit(f"error: {path}: not a sample file (its first line must be '# Sample SEED')")
    items, last = {}, None
    for line in text:
        if (hit := _ITEM.match(line)):
            last = int(hit.group(1))
            items[last] = (hit.group(3).strip(), "")
        elif last is not None and line.strip().startswith("EN: "):
            items[last] = (items[last][0], line.strip()[4:].strip())
    return int(m.group(1)), items


def read_verdicts(path: Path) -> dict[int, dict]:
    """``n -> {"ko", "en", "tr", "reason"}``, one line per item; a second line for one item
    is an error."""
    out: dict[int, dict] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if (m := _VERDICT.match(line)):
            n = int(m.group(1))
            if n in out:
                sys.exit(f"error: {path}: item {n} has two verdict lines")
            out[n] = {"ko": m.group(2).lower(), "en": m.group(3).lower(),
                      "tr": m.group(4).lower(), "reason": (m.group(5) or "").strip()}
    return out


def counts(items: list[dict]) -> dict:
    n = len(items)
    ko_bad = sum(it["ko"] != "natural" for it in items)
    tr_bad = sum(it["tr"] == "wrong" for it in items)
    return {"items": n, "ko_odd": sum(it["ko"] == "odd" for it in items),
            "ko_wrong": sum(it["ko"] == "wrong" for it in items), "ko_odd_or_wrong": ko_bad,
            "en_odd": sum(it["en"] == "odd" for it in items), "tr_wrong": tr_bad,
            "ko_odd_or_wrong_share": ko_bad / n if n else None,
            "tr_wrong_share": tr_bad / n if n else None}


def earlier_rounds(path: Path) -> list[dict]:
    """The small-level verdicts of an earlier review (and of the rounds it carries), kept so
    that two rounds of reviewers can be compared on one generator: refused unless the small
    level still writes the sentences that round read (its level fingerprint is unchanged)."""
    from companion.data.kosynth.corpus import level_fingerprint
    from companion.experiments.records import level_fingerprints, read_record

    old = read_record(path)
    prov = old["provenance"]
    if level_fingerprints(old).get("small") != level_fingerprint("small"):
        sys.exit(f"error: {path}: that review read another small level (its fingerprint differs "
                 f"from this generator's): its verdicts cannot be compared with a new round")
    this = {"commit": prov["commit"], "created": old["created"],
            "reviewers": old["config"]["reviewers"], "seeds": old["config"]["seeds"],
            "brief": old["config"].get("brief"),
            "train/small": old["results"]["pooled"]["train/small"]}
    return [this, *old["results"].get("earlier_rounds", [])]


def make(pairs: list[tuple[Path, Path]], out: Path | None, earlier: Path | None = None,
         brief: Path | None = None) -> Path:
    rounds = earlier_rounds(earlier) if earlier is not None else []
    reviews, everything = [], []
    for sample_path, verdict_path in pairs:
        seed, shown = read_sample(sample_path)
        drawn = {it["n"]: it for it in draw(seed)}
        if {n: (it["ko"], it["en"]) for n, it in drawn.items()} != shown:
            sys.exit(f"error: {sample_path}: the generator no longer draws these sentences for "
                     f"seed {seed} (a review of another generator): draw the sample again")
        verdicts = read_verdicts(verdict_path)
        if sorted(verdicts) != sorted(drawn):
            missing = sorted(set(drawn) - set(verdicts))
            sys.exit(f"error: {verdict_path}: verdicts for {len(verdicts)} of {len(drawn)} items"
                     + (f" (missing {missing[:8]})" if missing else ""))
        items = [{**drawn[n], **verdicts[n]} for n in sorted(drawn)]
        everything += items
        reviews.append({"seed": seed, "items": items,
                        "counts": {f"{s}/{lv}": counts([it for it in items
                                                        if (it["section"], it["level"]) == (s, lv)])
                                   for s, lv, _ in SECTIONS}})
    pooled = {f"{s}/{lv}": counts([it for it in everything if (it["section"], it["level"]) == (s, lv)])
              for s, lv, _ in SECTIONS}
    pooled["train"] = counts([it for it in everything if it["section"] == "train"])
    record = make_record("native-review", "review", {
        "reviewers": len(reviews), "seeds": [r["seed"] for r in reviews],
        "sections": [list(s) for s in SECTIONS], "pool": POOL,
        "reviewer": "a native Korean reader and professional Korean-English translator "
                    "(one per sample), judging each item on its own",
        "scales": {"ko": "natural / odd / wrong", "en": "natural / odd",
                   "tr": "accurate / wrong"},
        "brief": brief.read_text(encoding="utf-8").strip() if brief is not None else None,
        "command": python_command()},
        {"pooled": pooled, "reviews": reviews, "earlier_rounds": rounds})
    return write_record(record, out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("sample", help="write the items a reviewer reads")
    s.add_argument("--seed", type=int, required=True)
    s.add_argument("--out", type=Path, required=True)
    r = sub.add_parser("record", help="record the verdicts of SAMPLE:VERDICTS file pairs")
    r.add_argument("pairs", nargs="+", help="SAMPLE.md:VERDICTS.md")
    r.add_argument("--out", type=Path, default=None)
    r.add_argument("--earlier", type=Path, default=None,
                   help="an earlier review record of the same small level: its small-level "
                        "verdicts are carried into this record (a second round's comparison)")
    r.add_argument("--brief", type=Path, default=None,
                   help="the instructions the reviewers were given (kept in the record)")
    args = ap.parse_args(argv)
    if args.cmd == "sample":
        write_sample(args.seed, args.out)
        print(f"wrote {args.out}")
        return 0
    pairs = []
    for spec in args.pairs:
        if ":" not in spec:
            ap.error(f"expected SAMPLE.md:VERDICTS.md, got {spec!r}")
        a, b = spec.split(":", 1)
        pairs.append((Path(a), Path(b)))
    print(f"wrote {make(pairs, args.out, args.earlier, args.brief)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
