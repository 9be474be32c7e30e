"""Property tests over generated pairs, splits, challenge sets, files and the CLI."""

import hashlib
import json
import os
import random
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from companion.data.kosynth import (CHALLENGES, LEVELS, Level, Pair, format_alignment,
                                    generate_pairs, level_from_name, parse_alignment,
                                    read_alignments, split_pairs, split_sizes, write_corpus)
from companion.data.kosynth import english as E
from companion.data.kosynth.corpus import challenge_sets
from companion.data.kosynth.grammar import (Coord, SentenceBuilder, Sub, lexicon_of,
                                            make_sentence)
from companion.data.kosynth.level import parse_knobs
from companion.data.kosynth.lexicon import ADJECTIVES, NOUNS, VERBS, lemma_count
from companion.errors import ConfigError, DataError

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
    """Korean digits reach the English as English prose writes numbers: above ten in digits
    (150명 "150"), one to ten in words (3시에 "at three o'clock"); a native numeral above ten
    is written in digits too (열두 명 "12"), so the English may hold more digits."""
    n = small = 0
    for p in pairs:
        ko_digits = re.findall(r"\d+", p.ko)
        big = Counter(d for d in ko_digits if int(d) > 10)
        assert not big - Counter(re.findall(r"\d+", p.en)), p
        words = {_bare(w) for w in p.en.split()}
        for d in ko_digits:
            if int(d) <= 10:
                assert E.number_word(int(d)) in words, p
                small += 1
        n += bool(ko_digits)
    assert n > 45 and small > 10, (n, small)  # (60: no hour beside a lasting property,
    #                                              no counted recipient)


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
        assert tags[t] > (10 if t == "nested" else 20), t  # (nested: one relative deep)


def test_length_distribution(pairs):
    lengths = [len(p.en.split()) for p in pairs]
    assert min(lengths) >= 3
    assert max(lengths) >= 20
    # a long sentence is a coherent story (a cause, a place and the deed done there, one
    # relative clause), never a chain of unrelated clauses nor two linked pairs joined by -고:
    # about 4.5% reach 15 words, 0.4% 20 (the long challenge set starts at 25)
    long_share = sum(n >= 15 for n in lengths) / len(lengths)
    assert long_share >= 0.02, long_share
    assert split_pairs(pairs, 0)["test"]


def test_wh_questions_front_the_wh_word(pairs):
    whs = [p for p in pairs if "wh" in p.phenomena]
    assert whs
    for p in whs:
        assert p.en.split()[0] in ("Who", "What", "Where", "When", "Why", "How"), p.en
        assert re.search(r"누가|누구|무엇을|어디|언제|왜|몇|무슨", p.ko), p.ko


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
    assert all(len(p.en.split()) >= 25 for p in sets["long"])


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


_SUPPLETIVE = re.compile(r"^(모르|모른|몰라|몰랐|모릅|모를)")


def _korean_negators(p) -> int:
    """않- (long negation), 모르다 (not 알다), 없다 "there is no / does not have", and 맛없-/
    재미없- where they translate a negated "delicious"/"interesting" (rather than the adjectives
    "tasteless"/"boring")."""
    toks, en = p.ko.split(), p.en.split()
    n = 0
    for i, t in enumerate(toks):
        if t.startswith(("않", "못하", "못했", "못할", "못합", "못해")) or _SUPPLETIVE.match(t):
            n += 1
        elif "없" in t:
            aligned = {_bare(en[j]) for a, j in p.align if a == i}
            if aligned & {"no"} or "not" in aligned and "have" in aligned:
                n += 1  # 없다 "there is no", "does not have"
                continue
            # (in a contrast the English adjective is elided: "..., but Joo Jaewon is not")
            n += bool(aligned & {"delicious", "interesting"}) or \
                (t.startswith(("맛없", "재미없")) and "not" in aligned)
    return n


def test_negation_is_translated_once_per_korean_negator(pairs):
    """Every Korean negator (않-, 못하-, 모르-, 없- for 있-) is one English "not" ("cannot"), and
    vice versa."""
    checked = 0
    for p in pairs:
        toks = p.ko.split()
        if "안" in toks or "못" in toks:  # short negation: skip
            continue
        n_ko = _korean_negators(p)
        words = [_bare(w) for w in p.en.split()]  # 어떤 N도 ... 않다: "no N"
        assert n_ko == words.count("not") + words.count("no") + words.count("cannot"), \
            (p.ko, p.en)  # (-지 못하다: "cannot")
        checked += n_ko > 0
    assert checked > 100


# ---------------------------------------------------------------- naturalness fixes


@pytest.fixture(scope="module")
def many():
    return generate_pairs(20_000, seed=0)


def test_know_and_have_negate_with_their_own_words(many):
    """No 알지 않-/안 알- (모르다 instead) and no 있지 않- (없다 instead); the suppletive
    forms occur, in every tense and in relative clauses, with the English negation."""
    forms = Counter()
    for p in many:
        assert "알지 않" not in p.ko and not re.search(r"\S있지 않", p.ko), p.ko
        # a word of its own, 있지 않 is the resultative state of a posture verb (앉아 있지 않다
        # "is not sitting"), which negates the state, not 있다 "exist"
        for m in re.finditer(r"(\S+) 있지 않", p.ko):
            assert m.group(1) in ("서", "앉아", "누워", "숨어"), p.ko
        assert not re.search(r"(^| )안 (알|압|안다|아니|아는)", p.ko), p.ko  # 안 + 알다
        toks, en = p.ko.split(), p.en.split()
        for i, t in enumerate(toks):  # 안 is only ever the negation, not "(who) knew"
            if t == "안":
                assert not {_bare(en[j]) for a, j in p.align if a == i} & {"knew", "know"}
        for i, t in enumerate(toks):
            if _SUPPLETIVE.match(t):
                aligned = " ".join(en[j] for a, j in sorted(p.align, key=lambda x: x[1])
                                   if a == i)
                assert re.search(r"\bnot know", aligned), (p.ko, p.en)
                forms[t.rstrip(".?")[:2]] += 1
        if re.search(r"\bnot (delicious|interesting)\b", p.en):
            assert re.search(r"맛없|재미없", p.ko), (p.ko, p.en)
            forms["없"] += 1
    # (the future 모를 is rare in a corpus since negated relative clauses are: every tense is
    # checked on the conjugation itself in tests/test_kosynth.py)
    # (negated relative clauses only in the negation challenge set now: fewer 모르는)
    assert sum(forms[k] for k in ("모르", "모른", "모릅", "몰라", "모를", "몰랐")) >= 2, forms
    assert forms["없"] >= 1, forms
    assert any(re.search(r"\b(does|did|will) not know\b", p.en) for p in many)


def test_no_indefinite_han_before_a_noun_that_reads_as_a_counter(many):
    """한 개 is "one item": 한 "a" never stands before a noun that reads as a counter or
    another word after it (개, 시, 가지, 배, 말 ...); such a noun stays bare. 어떤 is never the
    English "a" (it means "which" or, with 도 under negation, "any")."""
    from companion.data.kosynth.lexicon import HAN_AMBIGUOUS, NOUN_BY_KO
    own = {k: {NOUN_BY_KO[k].en, E.plural(NOUN_BY_KO[k].en)} for k in HAN_AMBIGUOUS}
    counted = introduced = 0
    for p in many:
        toks, en = p.ko.split(), p.en.split()
        for i in range(len(toks) - 1):
            nxt = toks[i + 1]
            if toks[i] == "어떤":
                assert not {_bare(en[j]) for a, j in p.align if a == i} & {"a", "an"}, p
            if toks[i] != "한":
                continue
            aligned = {_bare(en[j]) for a, j in p.align if a == i + 1}
            counter = i > 0 and aligned <= {_bare(en[j]) for a, j in p.align if a == i - 1}
            for k in HAN_AMBIGUOUS:  # 한 개를 may count apples (사과 한 개를), never a dog (a
                if nxt.startswith(k) and not counter:  # counter aligns with its noun: 핫도그)
                    assert not aligned & own[k], (p.ko, p.en)
            counted += nxt.startswith("개") and bool({"one", "a", "an"} & {  # 사과 한 개 "an
                _bare(en[j]) for a, j in p.align if a == i})  # apple", the count aligned
            introduced += bool({_bare(en[j]) for a, j in p.align if a == i} & {"a", "an"})
    assert counted > 3 and introduced > 100, (counted, introduced)


# ---------------------------------------------------------------- difficulty levels

#: tags every level must produce (``long`` uses the level's own threshold)
LEVEL_TAGS = ("negation", "past", "future", "progressive", "question", "wh", "relative",
              "number", "digits", "age", "coordination", "subordination", "nested",
              "because", "when", "if", "and", "but", "plain", "polite", "formal",
              "ditransitive", "motion", "possessive", "name", "plural", "indefinite",
              "adjective", "adjective_predicate", "time", "place", "also", "only",
              "np_coordination", "long")
#: measured on the fixture (seed 0): distinct English words (lower case, no punctuation)
#: tiny 432, small 622 (saturated: 20,000 pairs give the same), medium 1566, full 2757
#: (full: 2300, was 2500 -- negation only where informative, no two activities at once, one
#: linked pair per story and fewer, fitting modifiers make fewer long sentences; the lemma
#: coverage below still binds)
EN_WORDS_BOUND = {"tiny": (300, 500), "small": (450, 700), "medium": (1200, 2000),
                  "full": (2300, 10_000)}
LEMMA_BOUND = {"tiny": 110, "small": 200, "medium": 800, "full": 1557}
WH_WORDS = ("누가", "무엇을", "누구를", "누구에게", "어디로", "어디에서", "언제", "왜", "몇")


@pytest.fixture(scope="module")
def by_level():
    return {name: generate_pairs(10_000 if name == "small" else 5000, 0, name)
            for name in LEVELS}


def _en_words(pairs) -> set[str]:
    return {_bare(w) for p in pairs for w in p.en.split()}


def test_named_levels_and_knob_errors():
    assert list(LEVELS) == ["tiny", "small", "medium", "full"]
    assert level_from_name("full") == Level()
    small = level_from_name("small")
    assert (small.lemmas_per_class, small.surnames, small.given_names, small.max_clauses,
            small.max_words, small.long_words) == (6, 4, 4, 3, 30, 20)
    assert level_from_name("full").long_words == 25
    with pytest.raises(ConfigError, match=r"unknown level 'huge' \(choose from tiny, small, "
                                          r"medium, full\)"):
        level_from_name("huge")
    with pytest.raises(ConfigError, match="unknown level"):
        generate_pairs(3, 0, "huge")
    for bad, match in [(dict(max_words=5), "max_words must be 10..80, got 5"),
                       (dict(max_clauses=5), "max_clauses must be 1..4"),
                       (dict(lemmas_per_class=0), "lemmas_per_class must be a positive"),
                       (dict(surnames=True), "surnames must be a positive")]:
        with pytest.raises(ConfigError, match=match):
            Level("x", **bad)
    assert small.with_knobs(max_words=30) is small
    custom = small.with_knobs(max_words=25, lemmas_per_class=None)
    assert custom.name == "small+max_words=25+lemmas_per_class=all"
    assert (custom.max_words, custom.lemmas_per_class, custom.surnames) == (25, None, 4)
    with pytest.raises(ConfigError, match="unknown level knob 'colour'"):
        small.with_knobs(colour=1)
    assert parse_knobs(names="4x3", lemmas_per_class="all", max_words="25") == {
        "surnames": 4, "given_names": 3, "lemmas_per_class": None, "max_words": 25}
    assert parse_knobs(names="5") == {"surnames": 5, "given_names": 5}
    for kw in (dict(names="4x4x4"), dict(names="ax4"), dict(max_clauses="all"),
               dict(lemmas_per_class="-1")):
        with pytest.raises(ConfigError, match="must be"):
            parse_knobs(**kw)


def test_full_is_the_default_level():
    a = generate_pairs(300, 5)
    assert a == generate_pairs(300, 5, "full") == generate_pairs(300, 5, Level())
    assert [p.align for p in a] == [p.align for p in generate_pairs(300, 5, None)]


@pytest.mark.parametrize("name", list(LEVELS))
def test_level_pairs_are_bounded_and_rich(by_level, name):
    level, pairs = LEVELS[name], by_level[name]
    lengths = [len(p.en.split()) for p in pairs]
    assert min(lengths) >= 3 and max(lengths) <= level.max_words
    lo, hi = EN_WORDS_BOUND[name]
    assert lo < len(_en_words(pairs)) < hi, len(_en_words(pairs))
    used = set().union(*(p.lemmas for p in pairs))
    available = lexicon_of(level).counts()["lemmas"]
    assert len(used) <= available <= LEMMA_BOUND[name]
    # the cut keeps nothing the grammar cannot draw (20,000 pairs draw all but a few; these
    # 5,000 coherent, shorter pairs draw most)
    assert len(used) >= 0.85 * available
    tags = Counter(t for p in pairs for t in p.phenomena)
    # (long: at least one -- a coherent story reaches a level's long_words rarely, 2 in the
    # 5,000 medium pairs of seed 0 once adjectives and places fit their nouns)
    assert not [t for t in LEVEL_TAGS if tags[t] < (1 if t == "long" else 3)], \
        {t: tags[t] for t in LEVEL_TAGS}
    assert all(("long" in p.phenomena) == (len(p.en.split()) >= level.long_words)
               for p in pairs)
    wh = Counter(w for p in pairs if "wh" in p.phenomena for w in WH_WORDS
                 if w in p.ko.split() or (w == "어디로" and "어디로 " in p.ko))
    assert set(wh) == set(WH_WORDS), wh  # every kind of wh-question, 누구를 included
    s = split_pairs(pairs, 0)
    train_ko, train_en = {p.ko for p in s["train"]}, {p.en for p in s["train"]}
    for split in ("valid", "test"):
        assert not any(p.ko in train_ko or p.en in train_en for p in s[split])


def test_smaller_levels_are_smaller(by_level):
    words = [len(_en_words(by_level[name][:5000])) for name in LEVELS]
    assert words == sorted(words) and words[-1] > 4 * words[1]


def test_small_has_a_long_tail_but_is_mostly_short(by_level):
    """The book's level: >= 5% of test pairs have >= 12 English words, most are short (a
    long sentence is one coherent story now -- a cause, a place and the deed done there, one
    relative clause; no chain of unrelated clauses, no epithet the event does not need -- so
    far fewer are long than in the first edition's corpus: about 10% reach 12 words, 2.5% 15,
    0.3% 20; the long challenge set holds the sentences of 25 words and more)."""
    pairs = by_level["small"]
    test = split_pairs(pairs, 0)["test"]
    assert sum(len(p.en.split()) >= 12 for p in test) / len(test) >= 0.05
    lengths = sorted(len(p.en.split()) for p in pairs)
    assert lengths[len(lengths) // 2] <= 12
    assert sum(n <= 15 for n in lengths) / len(lengths) >= 0.6


@pytest.mark.parametrize("name", list(LEVELS))
def test_every_challenge_set_at_every_level(name):
    level = LEVELS[name]
    sets = challenge_sets(0, 6, set(), set(), name)
    assert all(len(ps) == 6 for ps in sets.values()), {k: len(v) for k, v in sets.items()}
    assert all(len(p.en.split()) >= level.long_words for p in sets["long"])
    assert all(len(p.en.split()) <= level.max_words for ps in sets.values() for p in ps)


@pytest.mark.parametrize("name", ["tiny", "small", "medium"])
def test_lexicon_cut_keeps_restrictions_satisfiable(name):
    level = LEVELS[name]
    lex = lexicon_of(level)
    n = level.lemmas_per_class
    kept = set(lex.noun_by_ko)
    for cls, ns in NOUNS.items():
        assert lex.nouns[cls], cls  # every class is drawn
        assert [x.ko for x in ns[:n]] == [x.ko for x in lex.nouns[cls][:n]], cls
    for v in lex.verbs:
        assert {x.ko for x in v.objects + v.instr} <= kept and set(v.subj_only) <= kept
        assert v.objects or v.frame in ("I", "M"), v.key
    for a in lex.adjectives:
        assert a.nouns and {x.ko for x in a.nouns} <= kept
    full_counters = {x.counter for x in lexicon_of(Level()).all_nouns if x.counter}
    assert {x.counter for x in lex.all_nouns if x.counter} == full_counters
    assert lex.surnames == lexicon_of(Level()).surnames[:level.surnames]
    assert len(lex.given_names) == level.given_names
    for frame in "TIMDR":
        frame_verbs = [v for v in lex.verbs if v.frame == frame]
        total = sum(v.frame == frame for v in VERBS)
        assert min(n, total) <= len(frame_verbs) <= n + 3, (frame, len(frame_verbs))
    assert any(x.cls == "person" for v in lex.transitive for x in v.objects)  # 누구를
    assert any(all(x.cls == "person" for x in v.objects) for v in lex.dynamic_transitive)


def test_levels_do_not_interfere():
    """Two builders with different levels, interleaved, draw what each draws alone."""
    import random
    alone = {}
    for name in ("small", "full"):
        b = SentenceBuilder(random.Random(7), name)
        alone[name] = [" ".join(make_sentence(b).en) for _ in range(200)]
    small, full = SentenceBuilder(random.Random(7), "small"), SentenceBuilder(random.Random(7))
    mixed = {"small": [], "full": []}
    for _ in range(200):
        mixed["full"].append(" ".join(make_sentence(full).en))
        mixed["small"].append(" ".join(make_sentence(small).en))
    assert mixed == alone and alone["small"] != alone["full"]


def test_level_corpus_is_deterministic_and_described(tmp_path):
    a = write_corpus(tmp_path / "a", 400, 3, level="small", challenge_size=5)
    b = write_corpus(tmp_path / "b", 400, 3, level=level_from_name("small"), challenge_size=5)
    assert a == b and _digest(tmp_path / "a") == _digest(tmp_path / "b")
    c = write_corpus(tmp_path / "c", 400, 3, level="tiny", challenge_size=5)
    assert _digest(tmp_path / "c") != _digest(tmp_path / "a")
    sheet = json.loads((tmp_path / "a" / "datasheet.json").read_text(encoding="utf-8"))
    lv = sheet["level"]
    assert (lv["name"], lv["lemmas_per_class"], lv["surnames"], lv["given_names"],
            lv["max_clauses"], lv["max_words"], lv["min_words"], lv["long_words"]) == \
        ("small", 6, 4, 4, 3, 30, 3, 20)
    assert sheet["challenge_long_min_words"] == 20 and sheet["challenge"]["long"] == 5
    # <= 200: 크다 no longer describes people, so the cut adds one person adjective (조용하다)
    assert lv["lexicon"]["lemmas"] == sheet["lexicon_lemmas"] <= 200
    assert any(x.startswith("verb:만나다/meet") for x in lv["added_for_coverage"])
    for split in ("train", "valid", "test"):
        st = sheet["splits"][split]
        assert 0 < st["lemmas_used"] <= sheet["lemmas_used"] <= sheet["lexicon_lemmas"]
        assert st["en_vocab"] > 0 and st["ko_vocab"] > 0 and st["en_words_max"] <= 30
    assert c["level"]["name"] == "tiny" and c["challenge_long_min_words"] == 13
    full = write_corpus(tmp_path / "f", 10, 3, challenge_size=0)
    assert full["level"]["name"] == "full" and full["lexicon_lemmas"] == lemma_count()
    assert full["level"]["added_for_coverage"] == [] and full["challenge_long_min_words"] == 25


def test_cli_level_end_to_end(tmp_path, capsys):
    from companion.cli import main
    out = tmp_path / "small"
    assert main(["generate-data", "--size", "300", "--seed", "1", "--out", str(out),
                 "--level", "small", "--challenge-size", "4"]) == 0
    assert "(level small)" in capsys.readouterr().out
    write_corpus(tmp_path / "api", 300, 1, level="small", challenge_size=4)
    assert _digest(out) == _digest(tmp_path / "api")
    custom = tmp_path / "custom"
    assert main(["generate-data", "--size", "300", "--seed", "1", "--out", str(custom),
                 "--level", "small", "--max-words", "20", "--names", "2x3",
                 "--lemmas-per-class", "4", "--max-clauses", "2",
                 "--challenge-size", "2"]) == 0
    lv = json.loads((custom / "datasheet.json").read_text(encoding="utf-8"))["level"]
    assert (lv["max_words"], lv["surnames"], lv["given_names"], lv["lemmas_per_class"],
            lv["max_clauses"], lv["long_words"]) == (20, 2, 3, 4, 2, 13)
    assert lv["name"].startswith("small+")
    en = (custom / "train.en").read_text(encoding="utf-8").splitlines()
    assert max(len(line.split()) for line in en) <= 20
    capsys.readouterr()
    for args, message in [(["--level", "huge"], "unknown level 'huge' (choose from tiny, "
                                                "small, medium, full)"),
                          (["--max-words", "5"], "max_words must be 10..80, got 5"),
                          (["--names", "four"], "--names must be SxG")]:
        code = main(["generate-data", "--size", "10", "--out", str(tmp_path / "bad")] + args)
        err = capsys.readouterr().err
        assert code == 2 and err.count("\n") == 1 and err.startswith("error: "), err
        assert message in err
    assert not (tmp_path / "bad").exists()


# ---------------------------------------------------------------- articles, links, clause order
def test_any_is_no_under_negation_and_never_a(many):
    """어떤 stands only in 어떤 N도 under negation, translated "no N" (never "a N", never with a
    positive verb: 어떤 팀장도 동물원에 돌아와요 is not Korean)."""
    n = 0
    for p in many:
        toks, en = p.ko.split(), p.en.split()
        for i, t in enumerate(toks):
            if t != "어떤":
                continue
            aligned = {_bare(en[j]) for a, j in p.align if a == i}
            assert aligned == {"no"}, (p.ko, p.en)
            rest = " ".join(toks[i + 1:])
            assert re.search(r"^(\S+ ){0,2}\S+도 ", rest), p.ko
            assert re.search(r"(^| )안 |지 않|없|모르|몰", rest), p.ko
            n += 1
    assert n > 20


def test_article_ambiguity_is_measured(many):
    from companion.data.kosynth.articles import article_ambiguity
    got = article_ambiguity(many)
    assert 0.3 < got["open_share"] < 0.95 and 0.3 < got["pairs_open_share"] < 0.95, got
    assert got["pairs"] == len(many)
    from types import SimpleNamespace as P
    al = ((0, 0), (0, 1), (1, 3), (1, 4), (2, 2))
    topic = P(ko="소년은 사과를 먹었다.", en="The boy ate the apple.", align=al)
    subject = P(ko="소년이 사과를 먹었다.", en="The boy ate the apple.", align=al)
    this = P(ko="이 소년이 먹었다.", en="This boy ate.", align=((0, 0), (1, 1), (2, 2)))
    assert [article_ambiguity([x])["open"] for x in (topic, subject, this)] == [1, 2, 0]
    # "a" for a bare object is open ("the" as right); "a" from 한, before the noun or in the
    # counter phrase, is forced
    an_apple = P(ko="소년이 사과를 먹었다.", en="The boy ate an apple.", align=al)
    han = P(ko="한 소년이 잤다.", en="A boy slept.", align=((0, 0), (1, 1), (2, 2)))
    pig = P(ko="돼지 한 마리가 잤다.", en="A pig slept.",
            align=((1, 0), (0, 1), (2, 1), (3, 2)))
    assert [article_ambiguity([x])["open"] for x in (an_apple, han, pig)] == [2, 0, 0]


def test_generic_mass_objects_take_no_article(many):
    """차를 마신다 "drinks tea": a bare mass noun as an object has no "the" (unless a relative
    clause follows it: "the tea that ...")."""
    mass = {n.en for ns in NOUNS.values() for n in ns if n.mass and " " not in n.en}
    bare = 0
    for p in many:
        toks, en = p.ko.split(), p.en.split()
        ko_of = {}
        for i, j in p.align:
            ko_of.setdefault(j, set()).add(i)
        for j in range(len(en) - 1):
            w = _bare(en[j + 1])
            if w not in mass or ko_of.get(j + 1, set()) != ko_of.get(j, set()) or (
                    j + 2 < len(en) and ko_of.get(j + 2) == ko_of[j + 1]):  # "rice ball"
                continue
            (i,) = ko_of[j + 1] if len(ko_of[j + 1]) == 1 else (None,)
            if i is None or not re.search(r"[을를][.?]?$", toks[i]):
                continue
            after = _bare(en[j + 2]) if j + 2 < len(en) else ""
            if _bare(en[j]) == "the":
                assert after in ("that", "who", "which"), (p.ko, p.en)
        for j, w in enumerate(en):
            bare += _bare(w) in mass and (j == 0 or _bare(en[j - 1]) not in ("the", "this",
                                                                             "that"))
    assert bare > 100


@pytest.mark.parametrize("name", ["tiny", "small", "full"])
def test_subordinate_clauses_link_related_events_and_precede_no_relative(name):
    """Every because/when/if clause comes from the link table (no lasting property in it, the
    same participant or a place and a person); the main clause never opens (in Korean) with a
    relative clause right after it; -지만 joins one predicate, once negated."""
    from companion.data.kosynth import coherence as CO
    from companion.data.kosynth.grammar import SCENES, _SCENE_CAUSES, Clause as Cl, lexicon_of
    level = LEVELS[name]
    b = SentenceBuilder(random.Random(3), level)
    links = {(x[1].key, x[2].key, k) for x in CO.links_in(lexicon_of(level).adjectives,
                                                          lexicon_of(level).verbs)
             for k in x[3]}
    subs = buts = 0

    def walk(node):
        nonlocal subs, buts
        if isinstance(node, Cl):
            return
        if isinstance(node, Sub) and isinstance(node.main, Coord):
            # a state that sends someone to a scene: 배고파서 식당에 가서 먹었다
            assert node.kind == "because" and node.main.kind == "then"
            assert node.main.right.pred.ko in _SCENE_CAUSES[node.sub.pred.ko]
            assert node.sub.subj is node.main.left.subj and not node.main.left.ko_subj
        elif isinstance(node, Sub):
            subs += 1
            s, m = node.sub, node.main
            assert (s.pred.key, m.pred.key, node.kind) in links
            first = m.subj if m.ko_subj else None
            assert first is None or not first.rel
            if not m.ko_subj:  # an object with a relative clause moves before the clause,
                #                unless the relative clause opens with its own subject
                assert not any(np is not None and np.rel for np in (m.rec, m.goal))
                assert node.obj_first == (m.obj is not None and m.obj.rel and
                                          not m.obj.rel_subj)
                assert not node.obj_first or s.ko_subj  # (after the shared subject)
            assert s.subj.head == m.subj.head or s.subj.cls == "place"
        else:  # after -고 / -지만 a clause names its subject, or it is the subject of the
            #      clause before -고 (소년은 빵을 먹고 피곤해서 잤다), and no relative clause
            #      opens it
            first = node.right
            while not isinstance(first, Cl):
                first = first.sub if isinstance(first, Sub) else first.left
            before = node.left
            while not isinstance(before, Cl):
                before = before.main if isinstance(before, Sub) else before.right
            assert first.ko_subj or (node.kind == "and" and first.subj is before.subj
                                     and first.en_pron) or (
                node.kind == "then" and first.subj is before.subj and first.en_no_subj), \
                (first, before)
            if node.kind == "then":  # a motion, then a deed its goal is the place of
                assert before.goal is not None and first.pred.ko in {
                    ko for ko, _ in SCENES[before.goal.head]}
            if not first.ko_subj:  # (after 가서 a relative clause with a subject of its own:
                #                    시장에 가서 할머니가 만든 떡을 샀다)
                assert not any(np is not None and np.rel and not (
                    node.kind == "then" and np is first.obj and np.rel_subj)
                               for np in (first.obj, first.rec, first.goal, first.place))
        if isinstance(node, Coord) and node.kind == "but":
            buts += 1
            assert node.left.pred is node.right.pred
            assert (node.left.neg is None) != (node.right.neg is None)
        for child in ((node.sub, node.main) if isinstance(node, Sub) else
                      (node.left, node.right)):
            walk(child)

    for i in range(3000):
        tense = ("present", "past", "future", "progressive")[i % 4]
        walk(b.tree(0.3 + 0.7 * (i % 10) / 10, tense, 2, budget=level.max_clauses))
    assert subs > 300 and buts > 30, (subs, buts)
