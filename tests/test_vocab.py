"""Tests of companion.data.vocab: SentencePiece and character vocabularies."""

import pytest

from companion.data.vocab import (
    UNK_SURFACE,
    CharVocab,
    SentencePieceVocab,
    load_vocab,
    train_vocabs,
    vocab_from_bytes,
)
from companion.errors import DataError
from companion.specials import BOS, EOS, PAD, SPECIAL_TOKENS, UNK

_KO_SUBJ = ["나는", "그는", "우리는", "고양이가", "학생들이", "선생님이", "친구가", "동생이"]
_KO_TIME = ["3시에", "오늘", "내일", "10시에", "어제", "아침에", "저녁에"]
_KO_VERB = ["학교에 간다", "책을 읽는다", "집에서 잔다", "도서관에서 공부한다", "밥을 먹는다", "노래를 부른다"]
_KO_ADV = ["천천히", "빨리", "조용히", "함께", "혼자"]
_EN_SUBJ = ["I", "he", "we", "the cat", "the students", "the teacher", "a friend", "my brother"]
_EN_TIME = ["at 3", "today", "tomorrow", "at 10", "yesterday", "in the morning", "in the evening"]
_EN_VERB = ["go to school", "read a book", "sleep at home", "study in the library", "eat rice", "sing a song"]
_EN_ADV = ["slowly", "quickly", "quietly", "together", "alone"]

KO = [f"{s} {t} {a} {v}" for s in _KO_SUBJ for t in _KO_TIME for a in _KO_ADV for v in _KO_VERB]
EN = [f"{s} {a} {v} {t}" for s in _EN_SUBJ for t in _EN_TIME for a in _EN_ADV for v in _EN_VERB]


@pytest.fixture(scope="module")
def ko_vocab():
    return SentencePieceVocab.train(KO, 68)


def test_special_ids_and_surface_forms(ko_vocab):
    assert (ko_vocab.pad_id, ko_vocab.bos_id, ko_vocab.eos_id, ko_vocab.unk_id) == (0, 1, 2, 3)
    assert ko_vocab.pieces([PAD, BOS, EOS, UNK]) == list(SPECIAL_TOKENS)
    assert len(ko_vocab) == 68


def test_retraining_is_byte_identical(ko_vocab):
    again = SentencePieceVocab.train(iter(KO), 68)
    assert again.to_bytes() == ko_vocab.to_bytes()
    assert again.sha256 == ko_vocab.sha256
    other = SentencePieceVocab.train(KO[:-5], 68)
    assert other.sha256 != ko_vocab.sha256


def test_digits_are_single_pieces_and_survive(ko_vocab):
    pieces = ko_vocab.tokenize("3시에 만나요 123")
    assert "3" in pieces and pieces.count("1") == 1 and pieces.count("2") == 1
    assert ko_vocab.decode(ko_vocab.encode("친구가 3시에 간다")) == "친구가 3시에 간다"
    assert "10" not in ko_vocab.tokenize("10시에")


def test_encode_decode_and_specials_skipped(ko_vocab):
    ids = ko_vocab.encode("나는 학교에 간다")
    assert all(i > UNK for i in ids)
    assert ko_vocab.decode([BOS, *ids, EOS, PAD, PAD]) == "나는 학교에 간다"
    # an unseen character becomes UNK and shows as the unknown mark
    unk_ids = ko_vocab.encode("햏")
    assert UNK in unk_ids
    assert UNK_SURFACE in ko_vocab.decode(unk_ids)


def test_decode_out_of_range_id(ko_vocab):
    with pytest.raises(DataError, match="id 68 is out of range for a vocabulary of 68 pieces"):
        ko_vocab.decode([5, 68])


def test_save_load_and_bytes_round_trip(ko_vocab, tmp_path):
    path = tmp_path / "sub" / "ko.model"
    ko_vocab.save(path)
    loaded = SentencePieceVocab.load(path)
    assert loaded.sha256 == ko_vocab.sha256
    assert loaded.encode("그는 책을 읽는다") == ko_vocab.encode("그는 책을 읽는다")
    assert SentencePieceVocab.from_bytes(ko_vocab.to_bytes()).sha256 == ko_vocab.sha256
    assert load_vocab(path).sha256 == ko_vocab.sha256
    assert isinstance(vocab_from_bytes(ko_vocab.to_bytes()), SentencePieceVocab)


def test_load_errors(tmp_path):
    missing = tmp_path / "nope.model"
    with pytest.raises(DataError, match=r"nope\.model: vocabulary file not found"):
        SentencePieceVocab.load(missing)
    bad = tmp_path / "bad.model"
    bad.write_bytes(b"not a model")
    with pytest.raises(DataError, match=r"bad\.model: not a SentencePiece model"):
        SentencePieceVocab.load(bad)


def test_vocab_size_too_large_raises_or_is_soft():
    with pytest.raises(DataError, match=r"vocab_size 5000 is larger than the training data allows \(at most \d+"):
        SentencePieceVocab.train(EN, 5000)
    soft = SentencePieceVocab.train(EN, 5000, hard_vocab_limit=False)
    assert len(SPECIAL_TOKENS) < len(soft) < 5000


def test_vocab_size_too_small_and_bad_input():
    with pytest.raises(DataError, match=r"vocab_size 10 is smaller than the \d+ pieces needed"):
        SentencePieceVocab.train(KO, 10)
    with pytest.raises(DataError, match="vocab_size must be an integer > 4, got 3"):
        SentencePieceVocab.train(KO, 3)
    with pytest.raises(DataError, match="no \\(non-empty\\) sentences"):
        SentencePieceVocab.train(["", "  "], 50)
    with pytest.raises(DataError, match="sentence 2 given to SentencePiece contains a line break"):
        SentencePieceVocab.train(["a b", "c\nd"], 50)


def test_train_vocabs_separate_and_joint():
    pairs = list(zip(KO, EN))
    src, tgt = train_vocabs(pairs, 68, 50)
    assert (len(src), len(tgt)) == (68, 50)
    assert src.sha256 != tgt.sha256
    assert src.sha256 == SentencePieceVocab.train(KO, 68).sha256
    j1, j2 = train_vocabs(pairs, 100, joint=True)
    assert j1 is j2 and len(j1) == 100
    assert UNK not in j1.encode("학교") and UNK not in j1.encode("school")
    with pytest.raises(DataError, match="empty list of pairs"):
        train_vocabs([], 50)


def test_char_vocab_sorted_ids_and_unknowns():
    v = CharVocab.build("hello")
    assert v.chars == ["e", "h", "l", "o"]
    assert len(v) == 8
    assert v.encode("hello") == [5, 4, 6, 6, 7]
    assert v.encode("hex") == [5, 4, UNK]
    assert v.decode([BOS, 5, 4, 6, 6, 7, EOS, PAD]) == "hello"
    assert v.decode([5, UNK]) == "h" + UNK_SURFACE
    assert (v.pad_id, v.bos_id, v.eos_id, v.unk_id) == (0, 1, 2, 3)
    assert CharVocab.build(["ol", "leh"]) == v  # same characters, same ids
    with pytest.raises(DataError, match="id 8 is out of range for a vocabulary of 8 characters"):
        v.decode([8])


def test_char_vocab_bytes_hash_and_files(tmp_path):
    v = CharVocab.build("한국어 text\n")
    w = CharVocab.from_bytes(v.to_bytes())
    assert w == v and w.sha256 == v.sha256
    assert CharVocab.build("abc").sha256 != CharVocab.build("abd").sha256
    assert isinstance(vocab_from_bytes(v.to_bytes()), CharVocab)
    p = tmp_path / "chars.json"
    v.save(p)
    assert CharVocab.load(p) == v and load_vocab(p) == v
    p.write_text('{"format": "something-else"}', encoding="utf-8")
    with pytest.raises(DataError, match=r"chars\.json: not a character vocabulary \(missing format tag\)"):
        CharVocab.load(p)
    p.write_bytes(b"\xff\xfe")
    with pytest.raises(DataError, match=r"chars\.json: not a character vocabulary \(expected JSON\)"):
        CharVocab.load(p)
    with pytest.raises(DataError, match="must be distinct"):
        CharVocab(["a", "a"])
    with pytest.raises(DataError, match="single characters"):
        CharVocab(["ab"])
