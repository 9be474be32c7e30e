"""Vocabularies: SentencePiece unigram models per language, and characters.

Both kinds share one small interface, which the Trainer, the models' embedding sizes, the
decoders and the checkpoints rely on:

``encode(text) -> list[int]``, ``decode(ids) -> str``, ``len(vocab)``, ``to_bytes()`` /
``from_bytes(b)``, ``save(path)`` / ``load(path)``, ``sha256`` (hex digest of ``to_bytes()``,
which a checkpoint records so that a model is never decoded with a different vocabulary), and
``pad_id, bos_id, eos_id, unk_id == 0, 1, 2, 3`` (:mod:`companion.specials`).

``encode`` returns the ids of the text only; the special ids (BOS, EOS, PAD) are added by
:mod:`companion.data.batching`. ``decode`` drops PAD, BOS and EOS; an unknown id is shown as
``⁇`` (SentencePiece's convention) rather than dropped, so that a translation full of unknowns
never looks better than it is.

A corpus too large to hold trains its vocabularies on a seeded sample of its sentences
(:func:`sample_sentences`, reservoir sampling streamed from the file: :func:`train_vocabs_from_files`),
so their time and memory stop growing with the corpus; a corpus no larger than the sample uses
every sentence in file order, exactly as :func:`train_vocabs` does.

SentencePiece models are trained in memory (``sentence_iterator`` + ``model_writer``), with one
thread and a fixed random seed: retraining on the same sentences gives byte-identical models
(SentencePiece's output depends on its thread count). Digits are split into single pieces (``split_digits=True``) so that every number
survives tokenization ("3시에 만나요" keeps its 3).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import random
import re
import threading
from array import array
from collections.abc import Iterable, Sequence

import numpy as np

import sentencepiece as spm

from companion.errors import DataError
from companion.specials import BOS, EOS, PAD, SPECIAL_TOKENS, UNK

__all__ = [
    "SentencePieceVocab",
    "CharVocab",
    "train_vocabs",
    "train_vocabs_from_files",
    "sample_sentences",
    "vocab_from_bytes",
    "load_vocab",
    "UNK_SURFACE",
]

#: How an unknown id is rendered by ``decode`` (the same mark SentencePiece uses).
UNK_SURFACE = "\u2047"

_SPECIAL_IDS = (PAD, BOS, EOS, UNK)
_DROPPED_ON_DECODE = frozenset((PAD, BOS, EOS))
# SentencePiece's random generator is process-global; serialise training so that a seed set
# for one model is not consumed by another thread's training.
_SPM_LOCK = threading.Lock()


class _SpecialIds:
    """The fixed special ids, shared by every vocabulary."""

    pad_id: int = PAD
    bos_id: int = BOS
    eos_id: int = EOS
    unk_id: int = UNK

    def to_bytes(self) -> bytes:  # pragma: no cover - overridden
        raise NotImplementedError

    @property
    def sha256(self) -> str:
        """Hex sha256 of :meth:`to_bytes`: the identity a checkpoint records."""
        return hashlib.sha256(self.to_bytes()).hexdigest()

    def save(self, path: str | os.PathLike) -> None:
        """Write :meth:`to_bytes` to ``path`` (parent directories are created)."""
        path = os.fspath(path)
        parent = os.path.dirname(path)
        if parent:
            os.makedirs(parent, exist_ok=True)
        with open(path, "wb") as f:
            f.write(self.to_bytes())

    @staticmethod
    def _read(path: str | os.PathLike) -> bytes:
        path = os.fspath(path)
        try:
            with open(path, "rb") as f:
                return f.read()
        except FileNotFoundError:
            raise DataError(f"{path}: vocabulary file not found") from None
        except IsADirectoryError:
            raise DataError(f"{path}: is a directory, expected a vocabulary file") from None


class SentencePieceVocab(_SpecialIds):
    """A SentencePiece model with ids PAD=0, BOS=1, EOS=2, UNK=3.

    Build one with :meth:`train` (in memory, deterministic) or :meth:`load` /
    :meth:`from_bytes`. ``len(vocab)`` is the number of pieces including the four specials,
    i.e. the size of the embedding and output layers.
    """

    def __init__(self, model_bytes: bytes, *, source: str = "<bytes>"):
        """Wrap a serialized ``ModelProto``; ``source`` names it in error messages."""
        model_bytes = bytes(model_bytes)
        sp = spm.SentencePieceProcessor()
        try:
            sp.LoadFromSerializedProto(model_bytes)
        except Exception:  # sentencepiece raises RuntimeError/OSError on a bad proto
            raise DataError(f"{source}: not a SentencePiece model") from None
        if sp.get_piece_size() < len(SPECIAL_TOKENS):
            raise DataError(f"{source}: SentencePiece model has only {sp.get_piece_size()} pieces")
        found = (sp.pad_id(), sp.bos_id(), sp.eos_id(), sp.unk_id())
        if found != _SPECIAL_IDS:
            raise DataError(
                f"{source}: SentencePiece special ids (pad, bos, eos, unk) are {found}, "
                f"expected {_SPECIAL_IDS}"
            )
        self._bytes = model_bytes
        self._sp = sp

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def train(
        cls,
        sentences: Iterable[str],
        vocab_size: int,
        *,
        model_type: str = "unigram",
        seed: int = 0,
        character_coverage: float = 1.0,
        hard_vocab_limit: bool = True,
    ) -> "SentencePieceVocab":
        """Train a model on ``sentences`` (use the train split only) in memory.

        Args:
            sentences: one sentence per item (any iterable; it is read once).
            vocab_size: number of pieces including the 4 specials.
            model_type: ``"unigram"`` (default, Kudo 2018), ``"bpe"``, ``"char"`` or ``"word"``.
            seed: seed of SentencePiece's random generator.
            character_coverage: fraction of characters covered by the model (1.0 keeps every
                character seen, right for Korean's large alphabet of syllables).
            hard_vocab_limit: if True (default), a ``vocab_size`` larger than the data allows
                raises :class:`DataError` saying the largest size that fits; if False,
                SentencePiece is allowed to return fewer pieces (``len(vocab) <= vocab_size``).

        Retraining with the same arguments on the same sentences gives byte-identical models
        (one thread, fixed seed).
        """
        if not isinstance(vocab_size, int) or vocab_size <= len(SPECIAL_TOKENS):
            raise DataError(
                f"vocab_size must be an integer > {len(SPECIAL_TOKENS)}, got {vocab_size!r}"
            )
        data = [s for s in sentences]
        data = [s for s in data if s.strip()]
        if not data:
            raise DataError("cannot train a SentencePiece model on no (non-empty) sentences")
        for i, s in enumerate(data):
            if "\n" in s or "\r" in s:
                raise DataError(f"sentence {i + 1} given to SentencePiece contains a line break")
        buf = io.BytesIO()
        options = dict(
            sentence_iterator=iter(data),
            model_writer=buf,
            vocab_size=vocab_size,
            model_type=model_type,
            character_coverage=character_coverage,
            pad_id=PAD,
            bos_id=BOS,
            eos_id=EOS,
            unk_id=UNK,
            pad_piece=SPECIAL_TOKENS[PAD],
            bos_piece=SPECIAL_TOKENS[BOS],
            eos_piece=SPECIAL_TOKENS[EOS],
            unk_piece=SPECIAL_TOKENS[UNK],
            split_digits=True,
            num_threads=1,
            hard_vocab_limit=hard_vocab_limit,
            input_sentence_size=0,  # use every sentence: no sampling
            shuffle_input_sentence=False,
            minloglevel=2,
        )
        with _SPM_LOCK:
            spm.set_random_generator_seed(int(seed))
            try:
                spm.SentencePieceTrainer.train(**options)
            except RuntimeError as e:
                msg = str(e)
                m = re.search(r"Vocabulary size too high \((\d+)\)\. Please set it to a value <= (\d+)", msg)
                if m:
                    raise DataError(
                        f"vocab_size {m.group(1)} is larger than the training data allows "
                        f"(at most {m.group(2)} for this {model_type} model); lower vocab_size "
                        f"or pass hard_vocab_limit=False"
                    ) from None
                m = re.search(r"Vocabulary size is smaller than required_chars\. (\d+) vs (\d+)", msg)
                if m:
                    raise DataError(
                        f"vocab_size {m.group(1)} is smaller than the {m.group(2)} pieces needed "
                        f"for the specials and every character kept; raise vocab_size or lower "
                        f"character_coverage (now {character_coverage})"
                    ) from None
                first = msg.strip().splitlines()[0] if msg.strip() else type(e).__name__
                raise DataError(f"SentencePiece training failed: {first}") from None
        return cls(buf.getvalue(), source="<trained>")

    @classmethod
    def from_bytes(cls, model_bytes: bytes) -> "SentencePieceVocab":
        """Rebuild from :meth:`to_bytes` (e.g. bytes stored in a checkpoint)."""
        return cls(model_bytes)

    @classmethod
    def load(cls, path: str | os.PathLike) -> "SentencePieceVocab":
        """Load a ``.model`` file written by :meth:`save` (or by ``spm_train``)."""
        return cls(cls._read(path), source=os.fspath(path))

    def to_bytes(self) -> bytes:
        """The serialized model proto (what :meth:`save` writes and :attr:`sha256` hashes)."""
        return self._bytes

    # -- use ----------------------------------------------------------------------------------

    def __len__(self) -> int:
        return self._sp.get_piece_size()

    def encode(self, text: str) -> list[int]:
        """Ids of ``text``'s pieces, without BOS/EOS. ``(L,)`` as a Python list."""
        return list(self._sp.encode(text, out_type=int))

    def encode_batch(self, texts: Sequence[str], num_threads: int = 1) -> list[list[int]]:
        """``[encode(t) for t in texts]`` in one call into SentencePiece (on ``num_threads``
        threads; the ids do not depend on the thread count)."""
        return self._sp.encode(list(texts), out_type=int, num_threads=int(num_threads))

    def decode(self, ids: Iterable[int]) -> str:
        """Text of ``ids``: PAD/BOS/EOS are dropped, UNK shows as `` ⁇ ``."""
        ids = [int(i) for i in ids]
        n = len(self)
        for i in ids:
            if not 0 <= i < n:
                raise DataError(f"id {i} is out of range for a vocabulary of {n} pieces")
        return self._sp.decode([i for i in ids if i not in _DROPPED_ON_DECODE])

    def pieces(self, ids: Iterable[int]) -> list[str]:
        """Surface pieces of ``ids`` (e.g. ``['▁', '3', '시', '에']``), specials included."""
        return [self._sp.id_to_piece(int(i)) for i in ids]

    def tokenize(self, text: str) -> list[str]:
        """Pieces of ``text``: ``pieces(encode(text))``."""
        return list(self._sp.encode(text, out_type=str))

    def __repr__(self) -> str:
        return f"SentencePieceVocab(size={len(self)}, sha256={self.sha256[:12]})"


_CHAR_MAGIC = "companion-char-vocab"


class CharVocab(_SpecialIds):
    """A character vocabulary for the RNN chapters.

    Ids 0..3 are the specials; the characters seen in the building text follow in sorted
    (code point) order, so the same text always gives the same ids. A character not seen when
    building encodes to UNK.
    """

    def __init__(self, chars: Sequence[str]):
        """``chars``: distinct single characters, in id order starting at id 4."""
        chars = list(chars)
        for c in chars:
            if not isinstance(c, str) or len(c) != 1:
                raise DataError(f"CharVocab entries must be single characters, got {c!r}")
        if len(set(chars)) != len(chars):
            raise DataError("CharVocab characters must be distinct")
        self._itos = list(SPECIAL_TOKENS) + chars
        self._stoi = {c: i + len(SPECIAL_TOKENS) for i, c in enumerate(chars)}

    @classmethod
    def build(cls, text: str | Iterable[str]) -> "CharVocab":
        """Collect the characters of ``text`` (a string or an iterable of strings)."""
        seen: set[str] = set()
        if isinstance(text, str):
            seen.update(text)
        else:
            for t in text:
                seen.update(t)
        return cls(sorted(seen))

    @property
    def chars(self) -> list[str]:
        """The characters, in id order (ids 4, 5, ...)."""
        return self._itos[len(SPECIAL_TOKENS):]

    def __len__(self) -> int:
        return len(self._itos)

    def encode(self, text: str) -> list[int]:
        """One id per character of ``text``; unknown characters map to UNK."""
        get = self._stoi.get
        return [get(c, UNK) for c in text]

    def encode_batch(self, texts: Sequence[str], num_threads: int = 1) -> list[list[int]]:
        """``[encode(t) for t in texts]`` (``num_threads`` is accepted for the common interface)."""
        return [self.encode(t) for t in texts]

    def decode(self, ids: Iterable[int]) -> str:
        """Characters of ``ids``: PAD/BOS/EOS are dropped, UNK shows as ``⁇``."""
        out = []
        n = len(self._itos)
        for i in ids:
            i = int(i)
            if not 0 <= i < n:
                raise DataError(f"id {i} is out of range for a vocabulary of {n} characters")
            if i in _DROPPED_ON_DECODE:
                continue
            out.append(UNK_SURFACE if i == UNK else self._itos[i])
        return "".join(out)

    def to_bytes(self) -> bytes:
        """A canonical UTF-8 JSON document (what :meth:`save` writes, :attr:`sha256` hashes)."""
        doc = {"format": _CHAR_MAGIC, "version": 1, "chars": self.chars}
        return json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode("utf-8")

    @classmethod
    def from_bytes(cls, data: bytes, *, source: str = "<bytes>") -> "CharVocab":
        """Rebuild from :meth:`to_bytes`."""
        try:
            doc = json.loads(bytes(data).decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise DataError(f"{source}: not a character vocabulary (expected JSON)") from None
        if not isinstance(doc, dict) or doc.get("format") != _CHAR_MAGIC:
            raise DataError(f"{source}: not a character vocabulary (missing format tag)")
        if doc.get("version") != 1 or not isinstance(doc.get("chars"), list):
            raise DataError(f"{source}: unsupported character vocabulary version {doc.get('version')!r}")
        return cls(doc["chars"])

    @classmethod
    def load(cls, path: str | os.PathLike) -> "CharVocab":
        """Load a file written by :meth:`save`."""
        return cls.from_bytes(cls._read(path), source=os.fspath(path))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CharVocab) and self._itos == other._itos

    def __hash__(self) -> int:
        return hash(tuple(self._itos))

    def __repr__(self) -> str:
        return f"CharVocab(size={len(self)}, sha256={self.sha256[:12]})"


def vocab_from_bytes(data: bytes, *, source: str = "<bytes>") -> SentencePieceVocab | CharVocab:
    """Rebuild either kind of vocabulary from its :meth:`to_bytes` (as stored in checkpoints)."""
    data = bytes(data)
    if data.lstrip().startswith(b"{"):
        return CharVocab.from_bytes(data, source=source)
    return SentencePieceVocab(data, source=source)


def load_vocab(path: str | os.PathLike) -> SentencePieceVocab | CharVocab:
    """Load either kind of vocabulary file, telling them apart by content."""
    return vocab_from_bytes(_SpecialIds._read(path), source=os.fspath(path))


def train_vocabs(
    pairs: Sequence[tuple[str, str]],
    src_vocab_size: int,
    tgt_vocab_size: int | None = None,
    *,
    joint: bool = False,
    model_type: str = "unigram",
    seed: int = 0,
    character_coverage: float = 1.0,
    hard_vocab_limit: bool = True,
) -> tuple[SentencePieceVocab, SentencePieceVocab]:
    """Train the source and target vocabularies on (train-split) sentence pairs.

    With ``joint=False`` (default; a vocabulary per language, as in Sutskever et al. 2014) each
    side gets its own model; with ``joint=True`` one model of ``src_vocab_size`` pieces is trained on both sides
    and returned twice (needed for tied source/target embeddings).
    """
    if not pairs:
        raise DataError("cannot train vocabularies on an empty list of pairs")
    kw = dict(
        model_type=model_type,
        seed=seed,
        character_coverage=character_coverage,
        hard_vocab_limit=hard_vocab_limit,
    )
    if joint:
        both = [s for s, _ in pairs] + [t for _, t in pairs]
        v = SentencePieceVocab.train(both, src_vocab_size, **kw)
        return v, v
    src = SentencePieceVocab.train([s for s, _ in pairs], src_vocab_size, **kw)
    tgt = SentencePieceVocab.train(
        [t for _, t in pairs], tgt_vocab_size if tgt_vocab_size is not None else src_vocab_size, **kw
    )
    return src, tgt


def sample_sentences(sentences: Iterable[str], k: int, seed: int = 0) -> list[str]:
    """A uniform random sample of ``k`` of ``sentences``, read once (reservoir sampling, Vitter's
    Algorithm R, with ``random.Random(seed)``), returned in their original order; all of them,
    in order, when there are at most ``k``. Memory: the ``k`` sentences kept."""
    if not isinstance(k, int) or k < 1:
        raise DataError(f"the sample size must be a positive integer, got {k!r}")
    rng = random.Random(f"vocab-sample/{seed}")
    kept: list[str] = []
    where = array("q")  # position of each kept sentence in the input
    for i, text in enumerate(sentences):
        if i < k:
            kept.append(text)
            where.append(i)
            continue
        j = rng.randrange(i + 1)
        if j < k:
            kept[j] = text
            where[j] = i
    if len(kept) < k:
        return kept
    order = np.argsort(np.frombuffer(where, dtype=np.int64), kind="stable")
    return [kept[j] for j in order.tolist()]


def train_vocabs_from_files(
    src_path: str | os.PathLike,
    tgt_path: str | os.PathLike,
    src_vocab_size: int,
    tgt_vocab_size: int | None = None,
    *,
    sample: int,
    model_type: str = "unigram",
    seed: int = 0,
    character_coverage: float = 1.0,
    hard_vocab_limit: bool = True,
) -> tuple[SentencePieceVocab, SentencePieceVocab]:
    """:func:`train_vocabs` (separate vocabularies) for a corpus in files: each side's model is
    trained on :func:`sample_sentences` of its file (``sample`` sentences at most, streamed, the
    same line numbers on both sides), one side at a time. For a file of at most ``sample``
    lines the models are byte-identical to ``train_vocabs(read_moses(src_path, tgt_path), ...)``."""
    from companion.data.parallel import iter_lines

    kw = dict(model_type=model_type, seed=seed, character_coverage=character_coverage,
              hard_vocab_limit=hard_vocab_limit)
    out = []
    for path, size in ((src_path, src_vocab_size), (tgt_path, tgt_vocab_size or src_vocab_size)):
        sentences = sample_sentences(iter_lines(path), sample, seed)
        if not any(s.strip() for s in sentences):
            raise DataError(f"{path}: no sentence to train a vocabulary on (the file is empty or blank)")
        out.append(SentencePieceVocab.train(sentences, size, **kw))
    return out[0], out[1]
