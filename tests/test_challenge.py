"""Challenge-set checks: each passes a faithful translation and fails the error it is about."""

from __future__ import annotations

import pytest

from companion.errors import DataError
from companion.evaluation.challenge import (challenge_accuracy, checkable, numbers, passes, tense_words, tokens,
                                            verb_tenses)


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
    marks = tense_words("Kim cooked rice and ate bread while singing.")
    assert marks == {"past": 2, "progressive": 1}
    assert tense_words("The boy will not eat, but the girls were sleeping.") == {
        "future": 1, "past": 1, "progressive": 1}


def test_nouns_and_other_words_are_no_tense_marks():
    # the old rule counted every word of five letters or more ending in -ed or -ing
    for sentence in ("in the evening", "in the morning", "during the day", "one hundred", "the tired cook",
                     "the red ceiling", "Kim reads a book"):
        assert "past" not in tense_words(sentence) and "progressive" not in tense_words(sentence), sentence
    forms = verb_tenses()
    for word in ("evening", "morning", "during", "hundred", "tired", "red", "put", "read"):
        assert word not in forms, word
    assert forms["ate"] == "past" and forms["eats"] == "present" and forms["eating"] == "progressive"


@pytest.mark.parametrize("hyp", [
    "The girl ate the egg and will eat bread.",   # a wrong extra tense mark (future)
    "The girl ate the egg and eats bread.",       # ... present
    "The girl ate the egg, ate bread and was singing.",  # two more marks
])
def test_a_wrong_extra_tense_mark_fails(hyp):
    ref = "The girl ate the egg."
    assert passes("tense", "The girl ate the egg.", ref)
    assert not passes("tense", hyp, ref)


def test_no_check_passes_an_empty_output():
    for phenomenon, ref in (("numbers", "Kim buys 8 apples."), ("tense", "Kim will sing."),
                            ("negation", "Kim does not sing."), ("wh", "Where did Kim go?"),
                            ("relative", "The boy who sings eats."), ("long", "Kim sings.")):
        assert not passes(phenomenon, "", ref), phenomenon


def test_items_with_nothing_to_check_are_refused():
    with pytest.raises(DataError, match=r"numbers item 1 \('How old is Kim\?'\) has nothing to check"):
        challenge_accuracy("numbers", ["Kim is 8 years old.", ""], ["Kim is 8 years old.", "How old is Kim?"])
    with pytest.raises(DataError, match="tense item 0"):
        challenge_accuracy("tense", [""], ["The boys put the cup on the table."])
    assert checkable("numbers", "Kim is twenty-one years old.") and not checkable("numbers", "How old is Kim?")


def test_generated_numbers_items_all_hold_a_number():
    from companion.data.kosynth.corpus import challenge_sets

    sets = challenge_sets(0, 120, set(), set(), level="small")
    assert len(sets["numbers"]) == 120
    assert all(numbers(p.en) for p in sets["numbers"])  # "How old is ...?" is tagged but not drawn


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
