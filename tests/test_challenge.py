"""Challenge-set checks: each passes a faithful translation and fails the error it is about."""

from __future__ import annotations

import pytest

from companion.errors import DataError
from companion.evaluation.challenge import challenge_accuracy, numbers, passes, tense_words, tokens


def test_tokens_keep_contractions_and_split_hyphenated_numbers():
    assert tokens("Kim doesn't eat twenty-three apples at 10:30?") == [
        "kim", "doesn't", "eat", "twenty", "three", "apples", "at", "10:30", "?"]


@pytest.mark.parametrize("phenomenon, ref, good, bad", [
    ("numbers", "Kim buys 8 apples and two pears.", "Kim bought 8 apples and two pears.",
     "Kim buys 9 apples and two pears."),
    ("numbers", "Eighty-three children sing.", "Eighty-three kids sing.", "Eighty children sing."),
    ("negation", "The boy did not eat the bread.", "The boy didn't eat the cake.",
     "The boy ate the bread."),
    ("tense", "The girl will cook the egg.", "The woman will cook the egg.", "The girl cooks the egg."),
    ("tense", "The girl ate the egg.", "The boy ate the bread.", "The girl eats the egg."),
    ("tense", "The girl is cooking the egg.", "The girl is cooking rice.", "The girl cooked the egg."),
    ("wh", "Where did Kim go?", "Where did Kim go yesterday?", "When did Kim go?"),
    ("wh", "Who is singing?", "Who is singing?", "Who is singing."),
    ("relative", "The boy who sings eats.", "The boy who dances eats.", "The boy sings and eats."),
    ("long", "A long sentence here.", "A long sentence here.", "A long sentence there."),
])
def test_each_check_passes_the_faithful_output_and_fails_the_error(phenomenon, ref, good, bad):
    assert passes(phenomenon, good, ref)
    assert not passes(phenomenon, bad, ref)


def test_numbers_count_repeats():
    assert numbers("3 cats and 3 dogs")["3"] == 2
    assert not passes("numbers", "3 cats and dogs", "3 cats and 3 dogs")


def test_tense_words_find_regular_and_irregular_pasts():
    words = tense_words("Kim cooked rice and ate bread while singing.")
    assert set(words) == {"cooked", "ate", "singing"}


def test_accuracy_and_exact_rates():
    refs = ["Kim does not sing.", "Lee sings.", "Park did not go."]
    hyps = ["Kim does not sing.", "Lee does not sing.", "Park never went."]
    out = challenge_accuracy("negation", hyps, refs)
    assert out == {"n": 3, "accuracy": pytest.approx(2 / 3), "exact": pytest.approx(1 / 3)}


def test_errors_are_one_line():
    with pytest.raises(DataError, match="unknown phenomenon 'color'"):
        passes("color", "a", "b")
    with pytest.raises(DataError, match="2 outputs for 1 references"):
        challenge_accuracy("numbers", ["a", "b"], ["a"])
    with pytest.raises(DataError, match="the wh set is empty"):
        challenge_accuracy("wh", [], [])
