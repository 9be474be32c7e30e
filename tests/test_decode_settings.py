"""Decode-time settings (:mod:`companion.decoding.settings`): the checkpoint's ``decode`` section
with overrides, the source limit, the refused beams, the counts of what decoding cut; the
ensemble's teacher-forced distribution; and the line reader that streams ``translate``'s stdin."""

from __future__ import annotations

import io
import os
import threading

import pytest
import torch

from companion.commands.translate import line_batches, read_lines
from companion.config import DecodeConfig
from companion.data.batching import collate
from companion.data.vocab import CharVocab
from companion.decoding.corpus import translate_corpus, translate_sentences
from companion.decoding.ensemble import Ensemble
from companion.decoding.settings import (API_NAMES, CLI_NAMES, DEFAULT_MAX_SOURCE_LEN, DecodeTally,
                                         model_max_source_len, resolve_settings)
from companion.errors import ConfigError, DataError
from companion.models.seq2seq import Seq2Seq
from companion.specials import EOS
from companion.training.trainer import evaluate_loss

VOCAB = CharVocab.build("abcdefgh")  # 12 entries: 10 tokens a search can generate


def toy(seed=0):
    torch.manual_seed(seed)
    return Seq2Seq(len(VOCAB), len(VOCAB), embed_dim=8, hidden_size=16, num_layers=1, init_range=0.5)


class EosFirst:
    """A translator that ranks EOS first at every step (its other preferences: ``model``'s)."""

    def __init__(self, model):
        self.model = model

    def encode(self, src, src_lengths):
        return self.model.encode(src, src_lengths)

    def step(self, prev, state):
        log_probs, state = self.model.step(prev, state)
        log_probs = log_probs.clone()
        log_probs[:, EOS] += 50.0
        return torch.log_softmax(log_probs, dim=-1), state

    def reorder_state(self, state, index):
        return self.model.reorder_state(state, index)


DECODE = DecodeConfig(beam_size=4, nbest=2, max_len_a=1.5, max_len_b=3, length_penalty=0.6)


def test_the_checkpoints_settings_apply_unless_overridden():
    s = resolve_settings(DECODE, toy(), len(VOCAB))
    assert (s.beam, s.nbest, s.lenpen, s.max_len_a, s.max_len_b) == (4, 2, 0.6, 1.5, 3)
    assert (s.max_source_len, s.on_long) == (DEFAULT_MAX_SOURCE_LEN, "error")
    assert s.search_options() == {"max_len_a": 1.5, "max_len_b": 3, "length_penalty": 0.6}
    s = resolve_settings(DECODE, toy(), len(VOCAB), beam=1, nbest=1, lenpen=0.0, max_len_a=0.0, max_len_b=7,
                         max_source_len=9, on_long="skip")
    assert (s.beam, s.nbest, s.lenpen, s.max_len_a, s.max_len_b, s.max_source_len, s.on_long) == \
        (1, 1, 0.0, 0.0, 7, 9, "skip")
    assert s.search_options() == {"max_len_a": 0.0, "max_len_b": 7}  # greedy: no length penalty


def test_a_model_declares_its_source_limit_and_an_ensemble_takes_the_least():
    a, b = toy(0), toy(1)
    assert model_max_source_len(a) == DEFAULT_MAX_SOURCE_LEN
    a.max_source_positions, b.max_source_positions = 50, 30
    assert model_max_source_len(a) == 50
    assert model_max_source_len(Ensemble([a, b])) == 30


@pytest.mark.parametrize("kw, names, message", [
    (dict(beam=0), CLI_NAMES, "--beam must be an integer >= 1, got 0"),
    (dict(beam=2, nbest=3), CLI_NAMES, "--nbest 3 exceeds --beam 2"),
    (dict(nbest=5), CLI_NAMES, "--nbest 5 exceeds the checkpoint's decode.beam_size 4; pass --beam 5 or more"),
    (dict(beam=1), CLI_NAMES, "the checkpoint's decode.nbest 2 exceeds --beam 1; pass --nbest 1 or less"),
    (dict(lenpen=-0.1), API_NAMES, "translate: lenpen must be a number in [0.0, inf], got -0.1"),
    (dict(max_len_a=0.0, max_len_b=0), API_NAMES,
     "translate: max_len_a * |src| + max_len_b must allow at least one output token, got 0 * 1 + 0"),
    (dict(max_len_b=2.5), API_NAMES, "translate: max_len_b must be an integer, got 2.5"),
    (dict(max_source_len=0), API_NAMES, "translate: max_source_len must be an integer >= 1, got 0"),
    (dict(on_long="cut"), API_NAMES, "translate: on_long must be one of error, skip, truncate, got 'cut'"),
    # a beam no search can fill: 10 tokens can be generated (12 less PAD and BOS)
    (dict(beam=11, nbest=1), CLI_NAMES, "--beam 11 exceeds the 10 tokens the model can generate (a target "
                                        "vocabulary of 12 less PAD and BOS), so no search can fill it; use a beam of "
                                        "10 or less"),
])
def test_bad_settings_are_one_line(kw, names, message):
    where = "translate" if names is API_NAMES else ""
    with pytest.raises(ConfigError) as info:
        resolve_settings(DECODE, toy(), len(VOCAB), names=names, where=where, **kw)
    assert str(info.value) == message


def test_the_checkpoints_own_beam_is_checked_against_the_vocabulary_too():
    with pytest.raises(ConfigError, match=r"^the checkpoint's decode.beam_size 40 exceeds the 10 tokens"):
        resolve_settings(DecodeConfig(beam_size=40), toy(), len(VOCAB), names=CLI_NAMES)
    assert resolve_settings(DECODE, toy(), len(VOCAB), beam=10, nbest=1).beam == 10  # exactly full


def test_a_long_source_is_refused_skipped_or_truncated_and_counted():
    model, sentences = toy(), ["abc", "abcdefgh", "", "ab"]
    strict = resolve_settings(DECODE, model, len(VOCAB), beam=2, nbest=1, max_source_len=4)
    with pytest.raises(DataError) as info:
        translate_sentences(model, VOCAB, VOCAB, sentences, strict)
    assert str(info.value) == ("sentences[1]: 9 source tokens (EOS included) exceed max_source_len 4; raise it, "
                               "or pass on_long='skip' or 'truncate'")
    tally = DecodeTally()
    skip = resolve_settings(DECODE, model, len(VOCAB), beam=2, nbest=1, max_source_len=4, on_long="skip")
    out = translate_sentences(model, VOCAB, VOCAB, sentences, skip, tally=tally)
    assert out[1] == [] and all(out[i] for i in (0, 2, 3))
    full = translate_corpus(model, VOCAB, VOCAB, ["abc", "", "ab"], beam_size=2, **skip.search_options())
    assert [out[i][0][0] for i in (0, 2, 3)] == full  # the others decode as without the limit
    assert (tally.sentences, tally.skipped, tally.shortened) == (4, 1, 0)
    assert tally.notes(skip)[0] == ("1 of 4 sources skipped (longer than max_source_len 4 tokens, EOS included); "
                                    "each gave an empty output")
    tally = DecodeTally()
    cut = resolve_settings(DECODE, model, len(VOCAB), beam=2, nbest=1, max_source_len=4, on_long="truncate")
    out = translate_sentences(model, VOCAB, VOCAB, sentences, cut, tally=tally)
    assert out[1][0][0] == translate_corpus(model, VOCAB, VOCAB, ["abc"], beam_size=2, **cut.search_options())[0]
    assert (tally.skipped, tally.shortened) == (0, 1)
    assert "1 of 4 sources truncated to max_source_len 4 tokens (EOS included)" in tally.notes(cut)


def test_outputs_cut_at_the_length_limit_and_empty_outputs_are_counted():
    model = toy(2)
    sentences = ["abc", "hg", "", "fedcba"]
    settings = resolve_settings(DECODE, model, len(VOCAB), beam=1, nbest=1, max_len_a=0.0, max_len_b=1)
    tally = DecodeTally()
    out = translate_sentences(model, VOCAB, VOCAB, sentences, settings, tally=tally)
    cut = sum(h.truncated for r in out for _, h in r)
    assert cut == sum(1 for r in out if r[0][0])  # one token: text, or EOS alone
    assert tally.cut == cut
    assert tally.empty == sum(1 for s, r in zip(sentences, out) if s and not r[0][0])
    tally = DecodeTally()
    eos_first = resolve_settings(DECODE, model, len(VOCAB), beam=3, nbest=1)
    out = translate_sentences(EosFirst(model), VOCAB, VOCAB, sentences, eos_first, tally=tally)
    assert [r[0][0] for r in out] == ["", "", "", ""]
    assert (tally.empty, tally.cut) == (3, 0)  # the empty source's empty output is no surprise
    assert tally.notes(eos_first) == ["3 of 4 translations are empty for a non-empty source (the search ranked "
                                      "EOS first)"]


@pytest.mark.parametrize("bad, shown", [(None, "None (NoneType)"), (5, "5 (int)"), (b"ab", "b'ab' (bytes)")])
def test_sentences_that_are_not_strings_are_named_by_index_and_type(bad, shown):
    with pytest.raises(DataError) as info:
        translate_corpus(toy(), VOCAB, VOCAB, ["abc", bad], beam_size=2)
    assert str(info.value) == f"translate_corpus: sentences[1] is {shown}, not a string"


def test_an_ensembles_teacher_forced_distribution_is_the_average_of_its_members():
    members = [toy(0), toy(1)]
    batch = collate([([4, 5, EOS], [6, 7]), ([8, EOS], [9])])
    with torch.no_grad():
        probs = torch.stack([torch.softmax(m(batch), -1) for m in members]).mean(0)
        got = Ensemble(members)(batch)
        single = Ensemble(members[:1])(batch)
    assert torch.allclose(got.exp(), probs, atol=1e-6)
    assert torch.allclose(single, torch.log_softmax(members[0](batch), -1))
    nll, _, ntok = evaluate_loss(Ensemble(members), [batch], "cpu")
    mask = batch.tgt_out != 0
    want = -probs.log().gather(-1, batch.tgt_out.unsqueeze(-1)).squeeze(-1)[mask].sum() / mask.sum()
    assert ntok == int(mask.sum()) and nll == pytest.approx(float(want), rel=1e-5)
    assert evaluate_loss(Ensemble(members[:1]), [batch], "cpu")[0] == pytest.approx(
        evaluate_loss(members[0], [batch], "cpu")[0], rel=1e-6)


class Piped:
    """A stdin that is the read end of a pipe (what ``translate`` reads from a shell)."""

    def __init__(self, fd):
        self.buffer = os.fdopen(fd, "rb", buffering=0)


def test_lines_are_handed_on_as_they_arrive_not_at_the_end_of_the_input():
    read, write = os.pipe()
    stream, batches = Piped(read), []
    first_seen = threading.Event()
    reader = line_batches(stream, 64)

    def consume():
        for batch in reader:
            batches.append(batch)
            first_seen.set()

    thread = threading.Thread(target=consume, daemon=True)
    thread.start()
    os.write(write, "가나\n다".encode())
    assert first_seen.wait(60), "the first line was not handed on before the input ended"
    assert batches == [["가나"]] and thread.is_alive()  # the pipe is still open
    os.write(write, "라\n\n마바\n사".encode())
    os.close(write)
    thread.join(60)
    assert [line for b in batches for line in b] == ["가나", "다라", "", "마바", "사"]
    assert all(len(b) <= 64 for b in batches)


def test_full_batches_and_the_text_reader_agree():
    text = "".join(f"line {i}\n" for i in range(10))
    assert [len(b) for b in line_batches(io.StringIO(text), 4)] == [4, 4, 2]
    assert read_lines(io.StringIO(text)) == [f"line {i}" for i in range(10)]
    read, write = os.pipe()
    os.write(write, ("\ufeff" + text).encode())
    os.close(write)
    assert [len(b) for b in line_batches(Piped(read), 4)] == [4, 4, 2]  # the BOM dropped, batches full
    read, write = os.pipe()
    os.write(write, b"ok\n\xff\n")
    os.close(write)
    with pytest.raises(DataError, match=r"^stdin line 2: not valid UTF-8 \(byte 0xff at byte 1\)"):
        list(line_batches(Piped(read), 4))
