"""The independent naturalness check (companion.evaluation.naturalness) on crafted sentences:
every rule flags its bad example and passes its natural counterpart, the alignment-based rule
reads the alignment, and bad input is one clear error."""

import subprocess
import sys
from pathlib import Path

import pytest

from companion.errors import DataError
from companion.evaluation.naturalness import RULES, check_pair, check_pairs

ROOT = Path(__file__).resolve().parents[1]


def _rules(ko, en, align=None) -> set:
    return {rule for rule, _ in check_pair(ko, en, align)}


@pytest.mark.parametrize("rule,bad,good", [
    ("antonym_adjectives", ("큰 작은 남자가 잔다.", "The big small man sleeps."),
     ("큰 남자가 잔다.", "The big man sleeps.")),
    ("antonym_adjectives", ("소년이 높고 낮은 의자를 샀다.", "The boy bought the tall low chair."),
     ("크고 빨간 공이 굴렀다.", "The big red ball rolled.")),
    ("stacked_adjectives", ("착한 조용한 사람이 잔다.", "The nice quiet person sleeps."),
     ("착하고 조용한 사람이 잔다.", "The nice quiet person sleeps.")),
    ("indefinite_topic", ("한 여자는 잔다.", "A woman sleeps."),
     ("한 여자가 잔다.", "A woman sleeps.")),
    ("indefinite_topic", ("어떤 작은 소년은 잔다.", "A small boy sleeps."),
     ("숙제를 한 학생은 잔다.", "The student who did the homework sleeps.")),
    ("indefinite_topic", ("한 호기심 많은 소년은 잔다.", "A curious boy sleeps."),
     ("소년 한 명은 잔다.", "One boy sleeps.")),
    ("posture_progressive", ("소년이 서고 있다.", "The boy is standing."),
     ("소년이 서 있다.", "The boy is standing.")),
    ("posture_progressive", ("눕고 있는 승객이 잔다.", "The passenger who is lying down sleeps."),
     ("소년이 서고 있다.", "The boy is standing up.")),  # the action: -고 있다 is right
    ("curious_trait", ("궁금한 광대가 잔다.", "The curious clown sleeps."),
     ("호기심 많은 광대가 잔다.", "The curious clown sleeps.")),
    ("same_noun_object", ("학생이 학생에게 책을 줬다.", "The student gave the book to the student."),
     ("학생이 다른 학생에게 책을 줬다.", "The student gave the book to another student.")),
    ("same_noun_object", ("학생 세 명이 큰 학생을 만났다.", "Three students met the big student."),
     ("학생 세 명이 다른 큰 학생을 만났다.", "Three students met another big student.")),
    ("same_noun_object", ("이지우가 이지우에게 책을 줬다.", "Lee Jiwoo gave the book to Lee Jiwoo."),
     ("이지우가 김민준에게 책을 줬다.", "Lee Jiwoo gave the book to Kim Minjun.")),
    ("implausible_adjective", ("소년이 높은 학교에서 잔다.", "The boy sleeps at the tall school."),
     ("소년이 높은 나무를 봤다.", "The boy saw the tall tree.")),
    ("implausible_adjective", ("긴 개가 잔다.", "The long dog sleeps."),
     ("긴 뱀이 잔다.", "The long snake sleeps.")),
    ("implausible_adjective", ("학교가 높다.", "The school is tall."),
     ("탑이 높다.", "The tower is tall.")),
    ("implausible_adjective", ("소년이 무거운 이메일을 보냈다.", "The boy sent the heavy email."),
     ("소년이 중요한 이메일을 보냈다.", "The boy sent the important email.")),
    ("modifier_garden_path", ("방이 크고 작은 소녀가 잔다.", "The room is big, and the small girl sleeps."),
     ("방이 크지만 작은 소녀가 잔다.", "The room is big, but the small girl sleeps.")),
    ("lasting_with_time", ("어제 의자가 낮았다.", "The chair was low yesterday."),
     ("어제 방이 더웠다.", "The room was hot yesterday.")),
    ("lasting_with_time", ("오늘 소파가 낮니?", "Is the sofa low today?"),
     ("오늘 소년이 피곤하니?", "Is the boy tired today?")),
])
def test_every_rule_flags_its_bad_example_and_passes_the_natural_one(rule, bad, good):
    assert rule in _rules(*bad)
    assert rule not in _rules(*good)
    assert not check_pair(*good), check_pair(*good)


#: 소년이 어제 [소녀가 산] 사과를 먹었다 / "... the apple that the girl bought yesterday"
DANGLING = ("소년이 어제 소녀가 산 사과를 먹었다.", "The boy ate the apple that the girl bought yesterday.",
            "0-0 0-1 5-2 4-3 4-4 3-5 2-6 2-7 3-8 1-9")
#: the same meaning with the adverbial after the relative clause, fronted in English
PLACED = ("소년이 소녀가 산 사과를 어제 먹었다.", "Yesterday the boy ate the apple that the girl bought.",
          "4-0 0-1 0-2 5-3 3-4 3-5 2-6 1-7 1-8 2-9")
#: a place inside the relative clause, between its subject and its verb: one reading
INSIDE = ("소년이 소녀가 가게에서 산 사과를 먹었다.",
          "The boy ate the apple that the girl bought at the store.",
          "0-0 0-1 5-2 4-3 4-4 3-5 1-6 1-7 3-8 2-9 2-10 2-11")
#: a place at the relative clause's left edge after a topic: main clause or relative clause?
LEFT_EDGE = ("소년은 가게에서 기침하는 여자를 만났다.", "The boy met the woman who coughs at the store.",
             "0-0 0-1 4-2 3-3 3-4 2-5 2-6 1-7 1-8 1-9")


def test_dangling_adverbials_are_read_from_the_alignment():
    found = check_pair(*DANGLING)
    assert ("dangling_adverbial", "ko: 어제 ... 산") in found
    assert ("dangling_adverbial", "en: that ... yesterday") in found
    assert not check_pair(*PLACED)
    assert not check_pair(*INSIDE)
    assert [d for r, d in check_pair(*LEFT_EDGE)] == ["ko: 가게에서 ... 기침하는"]
    # without the alignment the rule cannot tell, and says so in the report
    assert not check_pair(*DANGLING[:2])
    report = check_pairs([DANGLING[:2]])
    assert not report.aligned and report.counts["dangling_adverbial"] == 0
    # links given as (i, j) pairs read the same as the Pharaoh string
    links = [tuple(map(int, x.split("-"))) for x in DANGLING[2].split()]
    assert check_pair(DANGLING[0], DANGLING[1], links) == found


def test_relative_clause_whose_argument_is_its_own_head():
    bad = ("간호사가 돕는 간호사가 잔다.", "The nurse who the nurse helps sleeps.",
           "0-3 0-4 1-2 1-5 2-0 2-1 3-6")
    good = ("다른 간호사가 돕는 간호사가 잔다.", "The nurse who another nurse helps sleeps.",
            "0-3 1-4 2-2 2-5 3-0 3-1 4-6")
    assert _rules(*bad) == {"same_noun_object"}
    assert not check_pair(*good)


def test_report_counts_pairs_once_per_rule_and_keeps_examples():
    pairs = [("큰 작은 남자가 작은 큰 개를 봤다.", "The big small man saw the small big dog.")] * 3 + [
        ("한 여자는 잔다.", "A woman sleeps."), ("소년이 잔다.", "The boy sleeps.")]
    report = check_pairs(pairs, max_examples=2)
    assert report.pairs == 5 and report.unnatural == 4 and report.rate == pytest.approx(0.8)
    assert report.counts["antonym_adjectives"] == 3 and report.counts["indefinite_topic"] == 1
    assert len(report.examples["antonym_adjectives"]) == 2
    assert report.examples["antonym_adjectives"][0][2] == "큰 + 작은 (size); 작은 + 큰 (size)"
    d = report.as_dict()
    assert set(d) == {"pairs", "unnatural", "rate", "aligned", "counts", "rates", "examples"}
    assert list(d["counts"]) == list(RULES) and d["rates"]["indefinite_topic"] == pytest.approx(0.2)
    assert check_pairs([]).rate == 0.0


def test_reads_corpus_pairs():
    from companion.data.kosynth import generate_pairs
    pairs = generate_pairs(50, 0, "small")
    report = check_pairs(pairs)
    assert report.pairs == 50 and report.aligned


def test_bad_input_is_one_clear_error():
    with pytest.raises(DataError, match=r"bad alignment link '0:1' \(expected i-j\)"):
        check_pair("소년이 잔다.", "The boy sleeps.", "0:1")
    with pytest.raises(DataError, match=r"alignment link 5-0 outside the pair \(2 Korean, 3 English"):
        check_pair("소년이 잔다.", "The boy sleeps.", "5-0")
    with pytest.raises(DataError, match=r"a pair is \(ko, en\) or \(ko, en, align\), got 1 fields"):
        check_pairs([("소년이 잔다.",)])
    with pytest.raises(DataError, match="cannot read a pair from int"):
        check_pairs([3])


def test_the_check_does_not_import_the_generator():
    """Independence: the rules are the module's own lists, not the generator's tables."""
    code = ("import sys, companion.evaluation.naturalness; "
            "print(sorted(m for m in sys.modules if m.startswith('companion.data')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         check=True).stdout.strip()
    assert out == "[]"
