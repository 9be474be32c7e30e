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
    ("wh", "How many apples did Kim buy?", "How many apples did Kim eat?", "How much did Kim buy?"),
    ("wh", "What book did Kim read?", "What book did Kim buy?", "Which book did Kim read?"),
    ("negation", "None of the children slept.", "None of the kids slept.",
     "Not all of the children slept."),
    ("negation", "Not all of the children slept.", "Not all the kids slept.",
     "All of the children did not sleep."),
    ("negation", "The boy could not eat the apple.", "The boy couldn't eat the apple.",
     "The boy did not eat the apple."),
    ("negation", "The boy cannot swim.", "The boy can't swim.", "The boy swims."),
    ("negation", "Kim does not have an umbrella.", "Kim doesn't have an umbrella.",
     "Kim has an umbrella."),
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


# ---------------------------------------------------------------- the generated sets


@pytest.fixture(scope="module")
def full_sets():
    from companion.data.kosynth.corpus import challenge_sets

    return challenge_sets(5, 150, set(), set(), level="full")


def test_negation_set_holds_mot_eopda_moreuda_and_both_scopes(full_sets):
    import re

    items = full_sets["negation"]
    assert all("negation" in p.phenomena for p in items)
    kinds = {k: [p for p in items if k in p.phenomena]
             for k in ("mot", "eopda", "moreuda", "scope_total", "scope_partial")}
    assert all(len(v) >= 5 for v in kinds.values()), {k: len(v) for k, v in kinds.items()}
    for p in kinds["mot"]:
        assert re.search(r"(^| )못|지 못", p.ko) and re.search(r"cannot|could not|be able to|did not get to", p.en), p
    for p in kinds["eopda"]:
        assert "없" in p.ko and re.search(r"not have|There (is|was) no", p.en), p
    for p in kinds["moreuda"]:
        assert re.search(r"(모르|모른|몰라|몰랐|모릅|모를)", p.ko) and "not know" in p.en, p
    for p in kinds["scope_total"]:
        assert re.search(r"들이 한 (명|분|마리)도 안 ", p.ko) and p.en.startswith("None of the "), p
        assert not re.search(r"(다|모두) 안 ", p.ko), p  # (ambiguous: "none" or "not all")
    for p in kinds["scope_partial"]:
        assert re.search(r"들이 (다|모두) \S+지는 않", p.ko) and p.en.startswith("Not all of the "), p
    # the main grammar's negation (안, -지 않다) is still there
    assert sum(not p.phenomena & set(kinds) for p in items) >= 20


def test_wh_set_asks_with_myeot_and_museun(full_sets):
    items = full_sets["wh"]
    assert all("wh" in p.phenomena and p.en.endswith("?") for p in items)
    myeot = [p for p in items if "myeot" in p.phenomena]
    museun = [p for p in items if "museun" in p.phenomena]
    assert len(myeot) >= 10 and len(museun) >= 10
    for p in myeot:
        assert " 몇 " in f" {p.ko} " and p.en.startswith("How many "), p
    for p in museun:
        assert "무슨 " in p.ko and p.en.startswith("What ") and checkable("wh", p.en), p


def test_relative_set_is_of_moderate_length(full_sets):
    from companion.data.kosynth.corpus import RELATIVE_MAX_WORDS

    items = full_sets["relative"]
    assert len(items) == 150
    assert all("relative" in p.phenomena and len(p.en.split()) <= RELATIVE_MAX_WORDS for p in items)


def test_probe_alignments_link_every_word():
    import random

    from companion.data.kosynth import probes as P
    from companion.data.kosynth.grammar import SentenceBuilder

    for level in ("tiny", "small", "full"):
        b = SentenceBuilder(random.Random(1), level)
        for fn in (P.mot_sentence, P.eopda_sentence, P.moreuda_sentence, P.scope_sentence,
                   P.myeot_sentence, P.museun_sentence):
            for _ in range(40):
                s = fn(b, "polite")
                assert {j for _, j in s.align} == set(range(len(s.en))), (fn.__name__, s.en)
                assert {i for i, _ in s.align} == set(range(len(s.ko))), (fn.__name__, s.ko)


@pytest.mark.parametrize("seed, level, builder, style, ko, en, align", [
    # read by hand: 한 명도 안 V is "none", 다 V-지는 않다 is "not all"
    (4, "small", "scope_sentence", "polite", "학생들이 한 명도 안 잤어요.", "None of the students slept.",
     ((0, 1), (0, 2), (0, 3), (1, 0), (2, 0), (3, 0), (4, 4))),
    (3, "small", "scope_sentence", "polite", "아이들이 모두 걷지는 않았어요.",
     "Not all of the children walked.", ((0, 2), (0, 3), (0, 4), (1, 1), (2, 5), (3, 0))),
    (2, "full", "myeot_sentence", "formal", "농부 몇 명이 울고 있습니까?", "How many farmers are crying?",
     ((0, 2), (1, 0), (1, 1), (2, 2), (3, 4), (4, 3))),
])
def test_pinned_probe_references(seed, level, builder, style, ko, en, align):
    import random

    from companion.data.kosynth import probes as P
    from companion.data.kosynth.grammar import SentenceBuilder

    s = getattr(P, builder)(SentenceBuilder(random.Random(seed), level), style)
    assert (" ".join(s.ko), " ".join(s.en), s.align) == (ko, en, align)


def test_mot_in_the_past_of_a_missed_chance_is_did_not_get_to():
    """못 with 구경하다, 만나다 ... in the past is a missed chance: 올리브나무를 구경하지 못했다
    "did not get to see the olive tree", never "could not look at"; other verbs keep "could
    not" (먹지 못했다 "could not eat")."""
    import random

    from companion.data.kosynth import probes as P
    from companion.data.kosynth.grammar import SentenceBuilder

    b = SentenceBuilder(random.Random(7), "full")
    missed = other = 0
    for _ in range(1500):
        s = P.mot_sentence(b, "plain")
        ko, en = " ".join(s.ko), " ".join(s.en)
        assert "could not look at" not in en and "could not meet" not in en, (ko, en)
        if "did not get to" in en:
            missed += 1
            assert "못했" in ko or "못하셨" in ko or "못 " in ko, (ko, en)
        elif "could not" in en:
            other += 1
    assert missed >= 5 and other >= 5, (missed, other)


def test_probes_honour_an_honoured_subject():
    """An honoured subject (선생님, 할머니, a noun counted with 분) takes -(으)시- in every
    probe: 선생님들은 달리지 못하실 거예요, 선생님 몇 분이 걸으셨어요?, never 못할 / 걸었어요."""
    import random

    import re

    from companion.data.kosynth import probes as P
    from companion.data.kosynth.grammar import HONOURED, SentenceBuilder

    b = SentenceBuilder(random.Random(11), "full")
    head = re.compile("(%s)(들)?(은|는|이|가)?" % "|".join(sorted(HONOURED)))
    seen = 0
    for fn in (P.mot_sentence, P.myeot_sentence, P.moreuda_sentence, P.scope_sentence,
               P.museun_sentence, P.eopda_sentence):
        for _ in range(300):
            s = fn(b, "polite")
            ko = " ".join(s.ko)
            if head.fullmatch(s.ko[0]):
                seen += 1
                pred = " ".join(ko.split()[-2:])  # 못하실 거예요, 걸으셨어요
                assert any(m in pred for m in "시실신십셨세셔"), ko  # -(으)시- fused or not
    assert seen >= 10, seen


def test_training_shows_what_the_challenge_sets_probe():
    """The probe constructions (못, 없다, 모르다, 한 명도 / 다 ...지는 않다, 몇, 무슨) are drawn
    into training too, about PROBE_SHARE of the pairs: a challenge item must test a construction
    the model has seen, not one it never could have learned."""
    from companion.data.kosynth import generate_pairs
    from companion.data.kosynth.corpus import PROBE_SHARE

    pairs = generate_pairs(6000, 3, "small")
    kinds = ("mot", "eopda", "moreuda", "scope_total", "scope_partial", "myeot", "museun")
    counts = {k: sum(k in p.phenomena for p in pairs) for k in kinds}
    assert all(n >= 10 for n in counts.values()), counts
    probed = sum(bool(p.phenomena & set(kinds)) for p in pairs) / len(pairs)
    assert 0.5 * PROBE_SHARE < probed < 1.5 * PROBE_SHARE, probed
