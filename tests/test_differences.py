"""Word-level differences between an output and its reference."""

from companion.evaluation.differences import Edit, describe, word_differences, word_kind


def test_identical_has_no_edits():
    assert word_differences("The cat sleeps .", "the cat sleeps .") == []
    assert describe([]) == {"edits": 0, "content": 0, "function": 0, "number": 0, "missing": 0, "extra": 0}


def test_substitution_missing_and_extra():
    edits = word_differences("the boy gave 3 apples to the teacher", "the boy gave apples to a teacher today")
    assert edits == [Edit(("3",), ()), Edit(("the",), ("a",)), Edit((), ("today",))]
    d = describe(edits)
    assert d == {"edits": 3, "content": 1, "function": 1, "number": 1, "missing": 1, "extra": 1}


def test_kinds():
    assert word_kind("11:30") == "number"
    assert word_kind("did") == "function"
    assert word_kind("?") == "function"
    assert word_kind("wardrobe") == "content"


def test_verb_adjective_noun_all_counted():
    edits = word_differences("a tall man ate bread", "a short woman drank bread")
    assert describe(edits)["content"] == 1 and describe(edits)["edits"] == 1
    assert set(edits[0].ref) == {"tall", "man", "ate"}
