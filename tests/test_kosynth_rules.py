"""No naturalness rule is violated in 20,000 generated pairs of any level.

Property tests over the generator: every level (tiny, small, medium, full) draws 20,000 pairs
(5,000 from each of four seeds) once, and the independent check
(:mod:`companion.evaluation.naturalness`, word lists of its own, with the gold alignment) must
find no pair for any of its rules -- articles (한 / 어떤), connectives and lasting properties,
clause order, tense, the English a native writer keeps, spacing, counters, particles, glosses
and pairings, honorifics, one adjective per noun, one numeral style, sizes of people, the
places of an activity, the tense of a because-clause, English adjective commas, fronted
adverbials, habitual objects and 도, stories (two progressives at once, a negation against its
own relative clause, an effect before its cause), 한 without a counter, two bare subjects, past
relatives of stative verbs, kin terms by the possessor's sex, 도착하다 with 에, -세요 in
statements, English first mentions, numeral subjects of wh-questions, the aspect of one-off
events and adverb position, and the rules of the earlier rounds. The challenge sets of every
level (drawn from streams of their own) are held to the same rules. A failure names the rule
and the level, counts the pairs and prints the first examples with what the rule saw.
"""

import pytest

from companion.data.kosynth import CHALLENGES, LEVELS, generate_pairs
from companion.data.kosynth.corpus import challenge_sets
from companion.evaluation.naturalness import RULES, check_pairs

SEEDS = (11, 12, 13, 14)
PER_SEED = 5_000
CHALLENGE_SEED = 7
CHALLENGE_SIZE = 300

pytestmark = pytest.mark.slow  # four levels x 20,000 pairs: about half a minute on one thread


@pytest.fixture(scope="module", params=list(LEVELS))
def level_report(request):
    """``(level, report)``: the check over 20,000 pairs of one level, drawn once."""
    pairs = [p for seed in SEEDS for p in generate_pairs(PER_SEED, seed, request.param)]
    return request.param, check_pairs(pairs, max_examples=3)


def test_every_pair_is_read_with_its_alignment(level_report):
    level, report = level_report
    assert report.pairs == len(SEEDS) * PER_SEED and report.aligned, level


@pytest.mark.parametrize("rule", list(RULES))
def test_no_rule_is_violated(level_report, rule):
    level, report = level_report
    n = report.counts[rule]
    shown = "\n".join(f"  [{detail}] {ko} | {en}" for ko, en, detail in report.examples[rule])
    assert n == 0, (f"{rule} ({RULES[rule]}) at level {level}: {n} of {report.pairs} pairs, "
                    f"first examples:\n{shown}")


@pytest.fixture(scope="module", params=list(LEVELS))
def challenge_report(request):
    """``(level, {set name: report})``: every challenge set of one level, drawn once."""
    sets = challenge_sets(CHALLENGE_SEED, CHALLENGE_SIZE, set(), set(), request.param)
    return request.param, {name: check_pairs(sets[name], max_examples=3) for name in CHALLENGES}


def test_no_rule_is_violated_in_the_challenge_sets(challenge_report):
    level, reports = challenge_report
    bad = []
    for name, report in reports.items():
        assert report.pairs > 0, (level, name)
        for rule, n in report.counts.items():
            if n:
                shown = "\n".join(f"    [{d}] {ko} | {en}" for ko, en, d in report.examples[rule])
                bad.append(f"  {name}: {rule} ({RULES[rule]}) in {n} of {report.pairs} pairs\n"
                           f"{shown}")
    assert not bad, f"challenge sets of level {level}:\n" + "\n".join(bad)

