"""Property tests over generated pairs, splits, challenge sets, files and the CLI."""

import hashlib
import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from companion.data.kosynth import (CHALLENGES, Pair, format_alignment, generate_pairs,
                                    parse_alignment, read_alignments, split_pairs,
                                    split_sizes, write_corpus)
from companion.data.kosynth import english as E
from companion.data.kosynth.corpus import challenge_sets
from companion.data.kosynth.lexicon import ADJECTIVES, VERBS
from companion.errors import DataError

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def pairs():
    return generate_pairs(3000, seed=0)


FUNCTION_WORDS = {"the", "a", "an", "to", "at", "in", "on", "by", "with", "into", "of",
                  "who", "that", "and", "but", "because", "when", "if", "does", "do", "did",
                  "will", "is", "are", "was", "were", "be", "not", "this", "these", "those"}


def _bare(w: str) -> str:
    return w.strip(".,?").lower()


def test_pairs_are_distinct_and_typed(pairs):
    assert len(pairs) == 3000
    assert len({(p.ko, p.en) for p in pairs}) == 3000
    p = pairs[0]
    assert isinstance(p, Pair) and isinstance(p.phenomena, frozenset)
    with pytest.raises(Exception):
        p.ko = "x"  # frozen


def test_alignment_in_range_and_complete(pairs):
    for p in pairs:
        ko, en = p.ko.split(), p.en.split()
        assert p.align, p
        assert all(0 <= i < len(ko) and 0 <= j < len(en) for i, j in p.align), p
        aligned_en = {j for _, j in p.align}
        aligned_ko = {i for i, _ in p.align}
        content = [j for j, w in enumerate(en) if _bare(w) not in FUNCTION_WORDS]
        assert set(content) <= aligned_en, (p.en, p.align)
        assert aligned_ko == set(range(len(ko))), (p.ko, p.align)


def test_punctuation_and_capital(pairs):
    for p in pairs:
        assert p.en[0].isupper(), p.en
        assert p.en[-1] in ".?" and p.ko[-1] == p.en[-1], p
        assert ("question" in p.phenomena) == (p.en[-1] == "?")


def test_digits_survive(pairs):
    n = 0
    for p in pairs:
        ko_digits = Counter(re.findall(r"\d+", p.ko))
        assert ko_digits == Counter(re.findall(r"\d+", p.en)), p
        n += bool(ko_digits)
    assert n > 100


def _inflected_forms():
    bases, inflected = set(), set()
    for v in VERBS:
        first = v.en.split()[0]
        bases.add(first)
        inflected |= {E.third_person(first), E.past(first), E.present_participle(first)}
    return inflected - bases


def test_no_agreement_errors(pairs):
    """No 'does not eats', 'will ate', 'did not went'; no 'a apple' or 'an boy'."""
    inflected = _inflected_forms()
    aux = re.compile(r"\b(?:does|do|did|will)(?: not)? (\S+)")
    for p in pairs:
        for m in aux.finditer(p.en):
            assert _bare(m.group(1)) not in inflected, p.en
        for m in re.finditer(r"\b[Aa] (\w+)", p.en):
            assert E.indefinite_article(m.group(1)) == "a", p.en
        for m in re.finditer(r"\b[Aa]n (\w+)", p.en):
            assert E.indefinite_article(m.group(1)) == "an", p.en
        assert "does not is" not in p.en and " not not " not in p.en


def test_korean_particles_agree_with_the_final_sound(pairs):
    """을 follows a consonant, 를 a vowel; 으로 a consonant other than ㄹ, 로 the rest."""
    from companion.data.kosynth.hangul import final_consonant
    checked = 0
    for p in pairs:
        assert "누구가" not in p.ko and "를를" not in p.ko
        for tok in p.ko.rstrip(".?").split():
            if len(tok) < 2 or tok in ("누구를", "무엇을"):
                continue
            if tok.endswith("를"):
                assert final_consonant(tok[:-1]) == "", p.ko
                checked += 1
            elif tok.endswith("으로"):
                assert final_consonant(tok[:-2]) not in ("", "ㄹ"), p.ko
            elif tok.endswith("로") and len(tok) > 2:
                assert final_consonant(tok[:-1]) in ("", "ㄹ"), p.ko
    assert checked > 500


def test_adjective_predicates_use_be(pairs):
    adj = {a.en for a in ADJECTIVES} - {v.en.split()[0] for v in VERBS}
    for p in pairs:
        for m in re.finditer(r"\b(does|did|do) not (\w+)", p.en):
            assert m.group(2) not in adj, p.en


def test_phenomena_present(pairs):
    tags = Counter(t for p in pairs for t in p.phenomena)
    for t in ("negation", "past", "future", "progressive", "question", "wh", "relative",
              "number", "digits", "coordination", "subordination", "nested", "plain",
              "polite", "formal", "ditransitive", "possessive", "name", "plural"):
        assert tags[t] > 20, t


def test_length_distribution(pairs):
    lengths = [len(p.en.split()) for p in pairs]
    assert min(lengths) >= 3
    assert max(lengths) >= 50
    test = split_pairs(pairs, 0)["test"]
    long_share = sum(len(p.en.split()) >= 30 for p in test) / len(test)
    assert long_share >= 0.05


def test_wh_questions_front_the_wh_word(pairs):
    whs = [p for p in pairs if "wh" in p.phenomena]
    assert whs
    for p in whs:
        assert p.en.split()[0] in ("Who", "What", "Where", "When", "Why", "How"), p.en
        assert re.search(r"누가|누구|무엇을|어디|언제|왜|몇", p.ko), p.ko


def test_same_seed_same_pairs_other_seed_differs():
    a, b = generate_pairs(300, seed=9), generate_pairs(300, seed=9)
    assert a == b
    assert generate_pairs(300, seed=10) != a


def test_determinism_across_processes():
    code = ("import hashlib; from companion.data.kosynth import generate_pairs; "
            "ps = generate_pairs(400, 4); "
            "print(hashlib.sha256(repr([(p.ko, p.en, p.align, sorted(p.phenomena)) "
            "for p in ps]).encode()).hexdigest())")
    outs = set()
    for hashseed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hashseed)
        outs.add(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                env=env, cwd=ROOT, check=True).stdout)
    assert len(outs) == 1


def test_splits_are_leak_free(pairs):
    s = split_pairs(pairs, 0)
    assert [len(s[k]) for k in ("train", "valid", "test")] == [2700, 150, 150]
    train_ko, train_en = {p.ko for p in s["train"]}, {p.en for p in s["train"]}
    for name in ("valid", "test"):
        assert not any(p.ko in train_ko or p.en in train_en for p in s[name])
    assert not {p.en for p in s["valid"]} & {p.en for p in s["test"]}


def test_split_sizes():
    assert split_sizes(100_000) == {"train": 90_000, "valid": 5_000, "test": 5_000}
    assert split_sizes(3) == {"train": 1, "valid": 1, "test": 1}
    with pytest.raises(DataError, match=r"--size must be at least 3 .* got 0"):
        split_sizes(0)


def test_challenge_sets_carry_their_phenomenon():
    sets = challenge_sets(0, 8, set(), set())
    assert list(sets) == list(CHALLENGES)
    for name, ps in sets.items():
        assert len(ps) == 8, name
    assert all("number" in p.phenomena for p in sets["numbers"])
    assert all("negation" in p.phenomena for p in sets["negation"])
    assert all(p.phenomena & {"past", "future", "progressive"} for p in sets["tense"])
    assert all("wh" in p.phenomena for p in sets["wh"])
    assert all("relative" in p.phenomena for p in sets["relative"])
    assert all(len(p.en.split()) >= 40 for p in sets["long"])


def test_alignment_format_roundtrip(tmp_path):
    links = [(0, 0), (0, 1), (2, 3)]
    assert format_alignment(links) == "0-0 0-1 2-3"
    assert parse_alignment("0-0 0-1 2-3") == links
    f = tmp_path / "x.align"
    f.write_text("0-0 1-1\n\n2-0\n", encoding="utf-8")
    assert read_alignments(f) == [[(0, 0), (1, 1)], [], [(2, 0)]]
    f.write_text("0-0\n1:1\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"x\.align:2: bad alignment link '1:1'"):
        read_alignments(f)
    with pytest.raises(DataError, match="cannot read"):
        read_alignments(tmp_path / "missing.align")


def test_write_corpus_errors(tmp_path):
    with pytest.raises(DataError, match="--size must be at least 3"):
        write_corpus(tmp_path / "a", 0, 1)
    full = tmp_path / "full"
    full.mkdir()
    (full / "keep.txt").write_text("x")
    with pytest.raises(DataError, match="is not empty \\(use --force to overwrite\\)"):
        write_corpus(full, 10, 1)
    afile = tmp_path / "file"
    afile.write_text("x")
    with pytest.raises(DataError, match="exists and is not a directory"):
        write_corpus(afile, 10, 1)
    with pytest.raises(DataError, match="cannot write to output directory"):
        write_corpus(afile / "sub", 10, 1)
    with pytest.raises(DataError, match="--challenge-size must be >= 0, got -1"):
        write_corpus(tmp_path / "b", 10, 1, challenge_size=-1)
    assert not (tmp_path / "b").exists()
    sheet = write_corpus(tmp_path / "c", 10, 1, challenge_size=0)
    assert sheet["challenge"] == {name: 0 for name in CHALLENGES}
    write_corpus(tmp_path / "c", 10, 2, force=True, challenge_size=0)  # --force overwrites
    assert json.loads((tmp_path / "c" / "datasheet.json").read_text())["seed"] == 2


def _digest(folder: Path) -> dict:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.slow
def test_cli_writes_corpus_byte_identical(tmp_path):
    out = tmp_path / "cli"
    r = subprocess.run([sys.executable, "-m", "companion", "generate-data", "--size", "2000",
                        "--seed", "1", "--out", str(out)], capture_output=True, text=True,
                       cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert "train=1800 valid=100 test=100" in r.stdout
    for split in ("train", "valid", "test"):
        n = [len((out / f"{split}.{ext}").read_text(encoding="utf-8").splitlines())
             for ext in ("ko", "en", "align")]
        assert n[0] == n[1] == n[2] == {"train": 1800, "valid": 100, "test": 100}[split]
    for name in CHALLENGES:
        ko = (out / "challenge" / f"{name}.ko").read_text(encoding="utf-8").splitlines()
        en = (out / "challenge" / f"{name}.en").read_text(encoding="utf-8").splitlines()
        assert len(ko) == len(en) > 0
    sheet = json.loads((out / "datasheet.json").read_text(encoding="utf-8"))
    for key in ("splits", "challenge", "phenomena", "seed", "version", "lexicon_lemmas"):
        assert key in sheet
    from companion import __version__
    assert sheet["version"] == __version__ and sheet["seed"] == 1
    assert set(sheet["splits"]["test"]) >= {"pairs", "en_length_histogram",
                                            "ko_length_histogram", "en_vocab", "ko_vocab"}
    # the same seed in this process writes the same bytes
    again = tmp_path / "again"
    assert write_corpus(again, 2000, 1) == sheet
    assert _digest(again) == _digest(out)
    # refusing a non-empty directory: one line on stderr, exit status 2
    r = subprocess.run([sys.executable, "-m", "companion", "generate-data", "--size", "10",
                        "--seed", "1", "--out", str(out)], capture_output=True, text=True,
                       cwd=ROOT)
    assert r.returncode == 2
    assert r.stderr.strip().count("\n") == 0 and "use --force" in r.stderr


def test_negation_is_translated_once_per_korean_negator(pairs):
    """Every 않- (long negation) is one English "not", and vice versa."""
    checked = 0
    for p in pairs:
        toks = p.ko.split()
        if "안" in toks:  # short negation, or the adnominal of 알다 (안 친구): skip
            continue
        n_ko = sum(t.startswith("않") for t in toks)
        assert n_ko == p.en.split().count("not"), (p.ko, p.en)
        checked += n_ko > 0
    assert checked > 100
