"""Decoding an ONNX export with onnxruntime: the package's search over the exported graphs.

:class:`OnnxTranslator` loads an export directory (:mod:`companion.export.onnx`) into two
onnxruntime sessions and meets the package's decoding contract
(:class:`~companion.models.contract.AttentionTranslator`: ``encode``, ``step``,
``reorder_state``, ``step_attention``), so :func:`~companion.decoding.search.greedy_search`,
:func:`~companion.decoding.search.beam_search` and
:func:`~companion.decoding.corpus.translate_corpus` run on it unchanged -- the same search
rules as the package's own decoder, only the arithmetic of a step moved into onnxruntime::

    t = OnnxTranslator("export/")                 # threads=1 by default
    t.translate(["고양이가 물을 마신다"], beam=1)   # ['the cat drinks water']

:func:`greedy_one` is the loop written out with numpy alone for one sentence -- what a
decoding loop in another language (the book's page) does with the same two graphs.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

from companion.errors import DataError, require_extra
from companion.validation import check_int
from companion.specials import BOS, EOS, NEVER_GENERATED


@dataclass
class OnnxState:
    """The decoder-step inputs of ``N`` rows other than ``prev_tokens`` (``src``, the
    per-sentence encoder outputs and the state, as CPU tensors, one copy per row) and the
    last step's ``cross_attention`` ``(N, L, H, S)`` (None before the first step)."""

    inputs: dict[str, torch.Tensor]
    attention: torch.Tensor | None = None
    steps: int = 0


def read_manifest(directory: str | Path) -> dict:
    """The ``manifest.json`` of an export directory; a one-line error for a directory that is
    not one."""
    from companion.export.onnx import FORMAT

    path = Path(directory) / "manifest.json"
    if not path.is_file():
        raise DataError(f"{directory}: not an ONNX export (no manifest.json)")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError):
        raise DataError(f"{path}: not valid JSON") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise DataError(f"{path}: not a {FORMAT} manifest")
    return manifest


def session(path: str | Path, threads: int = 1) -> Any:
    """An onnxruntime CPU session on ``threads`` intra-op threads (one inter-op thread)."""
    ort = require_extra("onnxruntime", "export", "ONNX decoding")
    check_int("threads", threads, 1, where="onnxruntime")
    options = ort.SessionOptions()
    options.intra_op_num_threads = int(threads)
    options.inter_op_num_threads = 1
    options.log_severity_level = 3  # errors only
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


class OnnxTranslator:
    """An ONNX export directory as a translator of the package's decoding contract.

    Args:
        directory: written by :func:`companion.export.export_onnx` (or ``companion export
            --format onnx``).
        threads: onnxruntime's intra-op threads.
    """

    def __init__(self, directory: str | Path, threads: int = 1) -> None:
        from companion.data.vocab import SentencePieceVocab

        self.directory = Path(directory)
        self.manifest = m = read_manifest(directory)
        self.family = m["family"]
        self.encoder = session(self.directory / m["files"]["encoder"], threads)
        self.decoder = session(self.directory / m["files"]["decoder_step"], threads)
        self.src_vocab = SentencePieceVocab.load(self.directory / m["files"]["src_spm"])
        self.tgt_vocab = SentencePieceVocab.load(self.directory / m["files"]["tgt_spm"])
        self.src_vocab_size, self.tgt_vocab_size = m["src_vocab_size"], m["tgt_vocab_size"]
        self._enc_out = list(m["encoder"]["outputs"])
        self._dec_out = list(m["decoder"]["outputs"])
        self._row_axis = m["decoder"]["row_axis"]
        self._state = m["decoder"]["state"]

    # ------------------------------------------------------------------ the decoding contract
    def encode(self, src: torch.Tensor, src_lengths: torch.Tensor) -> OnnxState:
        """Run ``encoder.onnx`` on ``src`` ``(B, S)``; the state holds the rows' inputs."""
        from companion.models.contract import check_source

        check_source(src, src_lengths, "OnnxTranslator.encode")
        src_np = src.detach().cpu().numpy().astype(np.int64)
        out = dict(zip(self._enc_out, self.encoder.run(None, {"src": src_np})))
        inputs = {"src": torch.from_numpy(src_np)}
        for name in self.manifest["decoder"]["per_sentence"]:
            inputs[name] = torch.from_numpy(out[name])
        for name, spec in self._state.items():
            if spec["initial"] == "empty":  # a cache of zero positions
                dtype, shape = self.manifest["decoder"]["inputs"][name]
                dims = [src_np.shape[0] if d == "N" else 0 if d == "t" else d for d in shape]
                inputs[name] = torch.zeros(dims, dtype=torch.float32)
            else:
                inputs[name] = torch.from_numpy(out[spec["initial"].split(":", 1)[1]])
        return OnnxState(inputs)

    def step(self, prev_tokens: torch.Tensor, state: OnnxState, need_attention: bool = False
             ) -> tuple[torch.Tensor, OnnxState]:
        """Run ``decoder_step.onnx`` once: ``log_probs`` ``(N, V)`` and the next state (which
        always keeps the step's attention: the graph computes it anyway)."""
        feed = {"prev_tokens": prev_tokens.detach().cpu().numpy().astype(np.int64)}
        feed.update({k: v.numpy() for k, v in state.inputs.items()})
        out = dict(zip(self._dec_out, self.decoder.run(None, feed)))
        inputs = dict(state.inputs)
        for name, spec in self._state.items():
            inputs[name] = torch.from_numpy(out[spec["output"]])
        attention = torch.from_numpy(out[self.manifest["decoder"]["attention"]])
        return torch.from_numpy(out["log_probs"]), OnnxState(inputs, attention, state.steps + 1)

    @staticmethod
    def step_attention(state: OnnxState) -> torch.Tensor:
        """``(N, S)``: the last layer's cross-attention averaged over heads (the package's
        ``step_attention``)."""
        if state.attention is None:
            raise DataError("OnnxTranslator.step_attention: no step has been taken from this state yet")
        return state.attention[:, -1].mean(dim=1)

    def reorder_state(self, state: OnnxState, index: torch.Tensor) -> OnnxState:
        """Rows ``index`` ``(N',)`` of every input (along its row axis) and of the attention."""
        index = index.detach().cpu()
        inputs = {k: v.index_select(self._row_axis[k], index) for k, v in state.inputs.items()}
        attention = None if state.attention is None else state.attention.index_select(0, index)
        return OnnxState(inputs, attention, state.steps)

    # ------------------------------------------------------------------ sentences
    def search_options(self, beam: int) -> dict:
        """The manifest's decoding options for a search of width ``beam``."""
        d = self.manifest["decoding"]
        options = {"max_len_a": d["max_len_a"], "max_len_b": d["max_len_b"]}
        if beam > 1:
            options["length_penalty"] = d["length_penalty"]
        return options

    def translate(self, sentences: Sequence[str], beam: int = 1, *, batch_size: int = 64) -> list[str]:
        """Detokenized translations of ``sentences`` by the package's search (greedy for
        ``beam=1``) over the exported graphs, with the manifest's decoding options."""
        from companion.decoding.corpus import translate_corpus

        if isinstance(sentences, str):
            raise DataError("OnnxTranslator.translate: sentences must be a list of strings, not one string")
        return translate_corpus(self, self.src_vocab, self.tgt_vocab, list(sentences), beam_size=beam,
                                batch_size=batch_size, **self.search_options(beam))

    def decode_ids(self, sources: Sequence[Sequence[int]], beam: int = 1, *, batch_size: int = 64) -> list[tuple]:
        """The best hypothesis' tokens (EOS included unless truncated) of each source id list
        (each ending with EOS)."""
        from companion.decoding.corpus import decode_corpus

        hyps = decode_corpus(self, sources, beam_size=beam, batch_size=batch_size, **self.search_options(beam))
        return [h[0].tokens if h else () for h in hyps]


def greedy_one(translator: OnnxTranslator, text: str) -> tuple[list[int], np.ndarray]:
    """Greedy decoding of one sentence with numpy and the two sessions only (no torch, no
    package search): ``(output ids, cross-attention (T, L, H, S))``. The same output as
    ``translator.translate([text], beam=1)``; a reference for loops written elsewhere."""
    m = translator.manifest
    if not text.strip():
        raise DataError("greedy_one: the sentence is empty")
    src = np.array([[*translator.src_vocab.encode(text), EOS]], dtype=np.int64)  # (1, S)
    if src.shape[1] > m["max_positions"]:
        raise DataError(f"greedy_one: the sentence has {src.shape[1]} pieces; the export takes at most "
                        f"{m['max_positions']}")
    enc = dict(zip(m["encoder"]["outputs"], translator.encoder.run(None, {"src": src})))
    feed: dict[str, np.ndarray] = {"src": src, **{n: enc[n] for n in m["decoder"]["per_sentence"]}}
    for name, spec in m["decoder"]["state"].items():
        if spec["initial"] == "empty":
            shape = m["decoder"]["inputs"][name][1]
            feed[name] = np.zeros([1 if d == "N" else 0 if d == "t" else d for d in shape], np.float32)
        else:
            feed[name] = enc[spec["initial"].split(":", 1)[1]]
    d = m["decoding"]
    limit = min(int(np.floor(d["max_len_a"] * src.shape[1] + d["max_len_b"])), m["max_positions"])
    prev, tokens, attention = BOS, [], []
    for _ in range(max(limit, 1)):
        out = dict(zip(m["decoder"]["outputs"],
                       translator.decoder.run(None, {**feed, "prev_tokens": np.array([prev], np.int64)})))
        log_probs = out["log_probs"][0].copy()
        log_probs[list(NEVER_GENERATED)] = -np.inf
        prev = int(log_probs.argmax())
        tokens.append(prev)
        attention.append(out[m["decoder"]["attention"]][0])
        for name, spec in m["decoder"]["state"].items():
            feed[name] = out[spec["output"]]
        if prev == EOS:
            break
    return tokens, np.stack(attention)


__all__ = ["OnnxState", "OnnxTranslator", "greedy_one", "read_manifest", "session"]
