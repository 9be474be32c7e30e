"""Tests of companion.data.parallel: readers, validation, cleaning, leak-free splits."""

import unicodedata
import urllib.error

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.data.parallel import (
    check_no_leak,
    clean_pairs,
    load_sacrebleu,
    load_split,
    normalize_text,
    read_lines,
    read_moses,
    read_tsv,
    split_pairs,
    write_split,
)
from companion.errors import DataError


def write(path, text: str | bytes):
    if isinstance(text, str):
        text = text.encode("utf-8")
    path.write_bytes(text)
    return path


# -- reading ---------------------------------------------------------------------------------------


def test_read_lines_endings_bom_and_final_newline(tmp_path):
    p = write(tmp_path / "a.txt", b"\xef\xbb\xbfone\r\ntwo\nthree")
    assert read_lines(p) == ["one", "two", "three"]
    q = write(tmp_path / "b.txt", "하나\n둘\n")
    assert read_lines(q) == ["하나", "둘"]


def test_invalid_utf8_names_file_and_line(tmp_path):
    p = write(tmp_path / "train.ko", b"ok\n\xed\x95\x9c ok\nbad \xff here\n")
    with pytest.raises(DataError, match=r"train\.ko:3: invalid UTF-8 \(byte 0xff at byte 5 of the line\)"):
        read_lines(p)


def test_missing_file(tmp_path):
    with pytest.raises(DataError, match=r"nope\.tsv: file not found"):
        read_tsv(tmp_path / "nope.tsv")
    with pytest.raises(DataError, match="is a directory"):
        read_lines(tmp_path)


def test_read_tsv_with_attribution_and_columns(tmp_path):
    p = write(
        tmp_path / "kor.txt",
        "Go.\t가.\tCC-BY 2.0 (France) Attribution: tatoeba.org #2877272\n"
        "Meet me at 3.\t3시에 만나요.\tCC-BY 2.0\n",
    )
    assert read_tsv(p) == [("Go.", "가."), ("Meet me at 3.", "3시에 만나요.")]
    assert read_tsv(p, src_col=1, tgt_col=0) == [("가.", "Go."), ("3시에 만나요.", "Meet me at 3.")]


def test_read_tsv_errors_name_file_and_line(tmp_path):
    p = write(tmp_path / "x.tsv", "a\tb\nonly one column\n")
    with pytest.raises(DataError, match=r"x\.tsv:2: expected at least 2 tab-separated columns, found 1"):
        read_tsv(p)
    assert read_tsv(p, on_invalid="skip") == [("a", "b")]
    e = write(tmp_path / "e.tsv", "a\tb\n  \tb\n")
    with pytest.raises(DataError, match=r"e\.tsv:2: empty source side"):
        read_tsv(e)
    e2 = write(tmp_path / "e2.tsv", "a\tb\na\t\n")
    with pytest.raises(DataError, match=r"e2\.tsv:2: empty target side"):
        read_tsv(e2)
    c = write(tmp_path / "c.tsv", "a\tb\u0007c\n")
    with pytest.raises(DataError, match=r"c\.tsv:1: control character U\+0007 in the target side \(column 2\)"):
        read_tsv(c)
    with pytest.raises(DataError, match="on_invalid must be 'raise' or 'skip', got 'ignore'"):
        read_tsv(c, on_invalid="ignore")


def test_read_moses_pairs_and_validation(tmp_path):
    ko = write(tmp_path / "train.ko", "나는 간다\n3시에 만나요\n")
    en = write(tmp_path / "train.en", "I go\nsee you at 3\n")
    assert read_moses(ko, en) == [("나는 간다", "I go"), ("3시에 만나요", "see you at 3")]
    short = write(tmp_path / "short.en", "I go\n")
    with pytest.raises(
        DataError, match=r"short\.en:2: line-count mismatch: .*short\.en has 1 lines but .*train\.ko has 2"
    ):
        read_moses(ko, short)
    ctrl = write(tmp_path / "ctrl.en", "I go\nsee\x1b[0m you\n")
    with pytest.raises(DataError, match=r"ctrl\.en:2: control character U\+001B in the target side \(column 4\)"):
        read_moses(ko, ctrl)
    sep = write(tmp_path / "sep.ko", "나는\u2028간다\n3시에\n")
    with pytest.raises(DataError, match=r"sep\.ko:1: control character U\+2028 in the source side"):
        read_moses(sep, en)
    empty = write(tmp_path / "empty.ko", "나는 간다\n\n")
    with pytest.raises(DataError, match=r"empty\.ko:2: empty source side"):
        read_moses(empty, en)
    # skipping drops the whole pair, never one side
    assert read_moses(empty, en, on_invalid="skip") == [("나는 간다", "I go")]


def test_read_moses_normalisation_keeps_digits(tmp_path):
    ko = write(tmp_path / "a.ko", "３시에  만나요\t!\n")
    en = write(tmp_path / "a.en", " see you at 3 \n")
    assert read_moses(ko, en, normalize="NFKC") == [("3시에 만나요 !", "see you at 3")]
    assert read_moses(ko, en, normalize="NFC")[0][0] == "３시에 만나요 !"


def test_normalize_text():
    decomposed = "\u1100\u1161"  # jamo ㄱ + ㅏ
    assert normalize_text(decomposed) == "가"
    assert normalize_text("3시에 만나요") == "3시에 만나요"
    assert normalize_text("ｆｕｌｌ ２０２４", "NFKC") == "full 2024"
    assert normalize_text(" a \u00a0 b\t", None) == "a b"
    assert normalize_text(" a  b ", None, whitespace=False) == " a  b "
    with pytest.raises(DataError, match="unknown Unicode normalisation form 'nfc'"):
        normalize_text("a", "nfc")


def _digit_values(text):
    return [unicodedata.decimal(c) for c in text if unicodedata.category(c) == "Nd"]


def _is_subsequence(small, big):
    it = iter(big)
    return all(any(x == y for y in it) for x in small)


@settings(max_examples=80, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30))
def test_normalisation_never_drops_digits(text):
    digits = _digit_values(text)
    assert _digit_values(normalize_text(text, "NFC")) == digits
    assert _is_subsequence(digits, _digit_values(normalize_text(text, "NFKC")))
    ascii_digits = [c for c in text if c in "0123456789"]
    assert [c for c in normalize_text(text, "NFC") if c in "0123456789"] == ascii_digits


# -- splits on disk --------------------------------------------------------------------------------


def test_write_and_load_split_round_trip(tmp_path):
    pairs = [("나는 간다", "I go"), ("3시에 만나요", "see you at 3")]
    paths = write_split(pairs, tmp_path / "data", "train", "ko", "en")
    assert [p.rsplit("/", 1)[-1] for p in paths] == ["train.ko", "train.en"]
    assert load_split(tmp_path / "data", "train", "ko", "en") == pairs
    # any suffixes work (Moses-style directories)
    write_split(pairs, tmp_path / "data", "dev", "src", "tgt")
    assert load_split(tmp_path / "data", "dev", "src", "tgt") == pairs


def test_load_split_missing_file_lists_directory(tmp_path):
    write_split([("a", "b")], tmp_path, "train", "ko", "en")
    with pytest.raises(
        DataError, match=r"valid\.ko: file not found \(the directory has: train\.en, train\.ko\)"
    ):
        load_split(tmp_path, "valid", "ko", "en")
    (tmp_path / "empty").mkdir()
    with pytest.raises(DataError, match=r"train\.ko: file not found \(the directory has: nothing\)"):
        load_split(tmp_path / "empty", "train", "ko", "en")
    with pytest.raises(DataError, match=r"nowhere: data directory not found"):
        load_split(tmp_path / "nowhere", "train", "ko", "en")


def test_write_split_validates_first(tmp_path):
    with pytest.raises(DataError, match="pair 2: line break in the target side"):
        write_split([("a", "b"), ("c", "d\ne")], tmp_path, "train", "ko", "en")
    with pytest.raises(DataError, match="pair 1: empty source side"):
        write_split([(" ", "b")], tmp_path, "train", "ko", "en")
    assert not (tmp_path / "train.ko").exists()


# -- sacrebleu -------------------------------------------------------------------------------------


@pytest.fixture
def wmt14(tmp_path, monkeypatch):
    """wmt14 with its cache moved to an empty temp dir and downloading failing as offline."""
    import sacrebleu.dataset.base as base
    from sacrebleu.dataset import DATASETS

    ds = DATASETS["wmt14"]
    monkeypatch.setattr(ds, "_outdir", str(tmp_path / "wmt14"))
    monkeypatch.setattr(ds, "_rawdir", str(tmp_path / "wmt14" / "raw"))

    def offline(url, *args, **kwargs):
        raise urllib.error.URLError("[Errno -2] Name or service not known")

    monkeypatch.setattr(base, "download_file", offline)
    return ds


def test_sacrebleu_offline_empty_cache_is_a_clear_error(wmt14):
    with pytest.raises(
        DataError,
        match=r"sacrebleu test set wmt14 \(de-en\) is not in .*wmt14 and could not be downloaded \(URLError: ",
    ):
        load_sacrebleu("wmt14", "de-en")


def test_sacrebleu_reads_its_cache(wmt14, tmp_path):
    files = [wmt14._get_txt_file_path("de-en", f) for f in wmt14.fieldnames("de-en")]
    (tmp_path / "wmt14").mkdir()
    for path, field in zip(files, wmt14.fieldnames("de-en")):
        text = {"src": "Guten Tag\nDrei Uhr: 3\n", "ref": "Good day\nThree o'clock: 3\n"}.get(field, "x\ny\n")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    assert load_sacrebleu("wmt14", "de-en") == [("Guten Tag", "Good day"), ("Drei Uhr: 3", "Three o'clock: 3")]
    with pytest.raises(DataError, match=r"has 1 reference\(s\), ref_index 1 is out of range"):
        load_sacrebleu("wmt14", "de-en", ref_index=1)


def test_sacrebleu_unknown_set_or_pair():
    with pytest.raises(DataError, match=r"unknown sacrebleu test set 'wmt41' \(similar: .*wmt"):
        load_sacrebleu("wmt41", "en-de")
    with pytest.raises(DataError, match=r"sacrebleu test set wmt14 has no language pair 'ko-en' \(it has: cs-en"):
        load_sacrebleu("wmt14", "ko-en")


# -- cleaning and splitting ------------------------------------------------------------------------


def test_clean_pairs_is_pair_level():
    pairs = [
        ("나는 간다", "I go"),
        ("나는  간다", "I go"),  # duplicate after whitespace normalisation
        ("나는 간다", "I am going"),  # same source, other translation: kept
        ("hello", "hello"),
        (" ", "empty"),
        ("a " * 20, "b"),
        ("3시에 만나요", "see you at 3"),
    ]
    kept, report = clean_pairs(pairs, max_words=10, max_ratio=3.0, drop_identical=True)
    assert kept == [("나는 간다", "I go"), ("나는 간다", "I am going"), ("3시에 만나요", "see you at 3")]
    assert (report.input, report.kept, report.duplicates, report.identical, report.empty, report.too_long) == (
        7, 3, 1, 1, 1, 1,
    )
    assert "7 pairs in, 3 kept" in str(report)
    ratio_kept, r2 = clean_pairs([("a b c d", "x")], max_ratio=3.0)
    assert ratio_kept == [] and r2.bad_ratio == 1
    # no deduplication or filtering of one side alone: sides stay aligned
    same_side, _ = clean_pairs([("x", "1"), ("y", "1"), ("x", "2")])
    assert same_side == [("x", "1"), ("y", "1"), ("x", "2")]


def test_split_pairs_has_no_leak_and_is_deterministic():
    pairs = [(f"문장 {i}", f"sentence {i % 70}") for i in range(300)] + [("문장 5", "another")]
    train, valid, test = split_pairs(pairs, valid=20, test=0.1, seed=3)
    check_no_leak(train, valid, test)
    assert len(train) + len(valid) + len(test) == len(set(pairs))
    assert set(train) | set(valid) | set(test) == set(pairs)
    assert 0 < len(valid) <= 20 and 0 < len(test) <= 30
    assert (train, valid, test) == split_pairs(pairs, valid=20, test=0.1, seed=3)
    assert (train, valid, test) != split_pairs(pairs, valid=20, test=0.1, seed=4)


def test_split_pairs_exact_sizes_with_distinct_sentences_and_dedupes():
    pairs = [(f"s{i}", f"t{i}") for i in range(100)] * 2
    train, valid, test = split_pairs(pairs, valid=10, test=15)
    assert (len(train), len(valid), len(test)) == (75, 10, 15)
    assert train == sorted(train, key=lambda p: int(p[0][1:]))  # original order kept


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from("abcdefgh"), st.sampled_from("ABCDEFGHIJ")), min_size=3, max_size=60),
    st.integers(0, 10),
)
def test_split_never_leaks(pairs, seed):
    n = len(set(pairs))
    if n < 3:
        return
    train, valid, test = split_pairs(pairs, valid=1, test=1, seed=seed)
    check_no_leak(train, valid, test)
    assert sorted(train + valid + test) == sorted(set(pairs))


def test_split_errors_and_leak_check_message():
    with pytest.raises(DataError, match="cannot hold out 2 valid \\+ 2 test pairs from 3 distinct pairs"):
        split_pairs([("a", "A"), ("b", "B"), ("c", "C")], valid=2, test=2)
    with pytest.raises(DataError, match=r"valid fraction must be in \[0, 1\), got 1.5"):
        split_pairs([("a", "A")], valid=1.5)
    with pytest.raises(
        DataError, match=r"test pair 1: target sentence 'See you' also occurs in train \(pair 2\): the splits leak"
    ):
        check_no_leak([("a", "b"), ("c", "see  you")], [("d", "e")], [("f", "See you")])
