"""The Transformer as a CTranslate2 model, built with CTranslate2's specification API.

CTranslate2 is a C++ inference engine for Transformer translation models; a model is a
``model.bin`` of named weights and a ``config.json``, described in Python by a *specification*
(``ctranslate2.specs.TransformerSpec``). :func:`transformer_spec` fills one from a
:class:`~companion.models.transformer.Transformer`, weight by weight:

=====================================  ===================================================
package                                CTranslate2 specification
=====================================  ===================================================
``src_embed``, ``tgt_embed``           ``encoder.embeddings[0]``, ``decoder.embeddings``;
                                       ``scale_embeddings`` multiplies by ``sqrt(d_model)``
``positions.table`` (sin at even,      ``position_encodings.encodings`` of both stacks (set
cos at odd columns)                    explicitly: CTranslate2's built-in table puts all sines
                                       first, then all cosines)
self-attention ``in_proj``             ``self_attention.linear[0]`` (the fused ``[W^Q; W^K;
(``[W^Q; W^K; W^V]``), ``out_proj``    W^V]``, same row order), ``self_attention.linear[1]``
cross-attention ``in_proj``            ``attention.linear[0]`` (``W^Q``: the first
                                       ``d_model`` rows), ``attention.linear[1]`` (``[W^K;
                                       W^V]``), ``attention.linear[2]`` (``W^O``)
``norm1``, ``norm2`` (``norm3``)       the ``layer_norm`` of each sub-layer, in order; with
                                       ``pre_norm=False`` CTranslate2 applies it after the
                                       residual sum (Post-LN), with ``True`` before (Pre-LN)
``encoder_norm``, ``decoder_norm``     ``encoder.layer_norm``, ``decoder.layer_norm`` (Pre-LN)
``ffn.linear1``, ``ffn.linear2``       ``ffn.linear_0``, ``ffn.linear_1`` (ReLU)
the output layer (tied: ``E_tgt``)     ``decoder.projection`` (no bias)
LayerNorm epsilon (torch's 1e-5)       ``config.layer_norm_epsilon``
=====================================  ===================================================

The vocabularies are the SentencePiece pieces (id ``i`` = piece ``i``), so CTranslate2 reads
and writes the package's ids: a source is the pieces of ``src_vocab.encode(text) + [EOS]``
(the EOS piece passed explicitly, ``add_source_eos`` off), decoding starts from the BOS piece,
and BOS and PAD are suppressed as the package's search bans them.

Length limits: CTranslate2 takes one ``max_decoding_length`` per call; the package's limit is per
sentence (``floor(max_len_a * |src| + max_len_b)``). :class:`CT2Translator` decodes a batch
with the batch's largest limit and cuts each greedy output at its own, which is exactly the
package's greedy output; a beam search's hypotheses near the limit can differ (a shorter
sentence's beam sees longer candidates), which the parity report counts.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from companion.errors import ConfigError, DataError, require_extra
from companion.specials import BOS, EOS, NEVER_GENERATED
from companion.validation import check_int

#: manifest["format"] of a CTranslate2 export
CT2_FORMAT = "companion-ctranslate2"
#: quantizations accepted by ``--quantization`` (CTranslate2's names)
QUANTIZATIONS = ("float32", "int8", "int8_float32", "int16")


def _np(t: torch.Tensor) -> np.ndarray:
    return t.detach().to("cpu", torch.float32).numpy().copy()


def _linear(spec: Any, weight: torch.Tensor, bias: torch.Tensor | None) -> None:
    spec.weight = _np(weight)
    if bias is not None:
        spec.bias = _np(bias)


def _norm(spec: Any, norm: nn.LayerNorm) -> None:
    spec.gamma, spec.beta = _np(norm.weight), _np(norm.bias)


def _self_attention(spec: Any, attn: nn.Module, norm: nn.LayerNorm) -> None:
    _norm(spec.layer_norm, norm)
    _linear(spec.linear[0], attn.in_proj.weight, attn.in_proj.bias)
    _linear(spec.linear[1], attn.out_proj.weight, attn.out_proj.bias)


def _cross_attention(spec: Any, attn: nn.Module, norm: nn.LayerNorm) -> None:
    D = attn.d_model
    _norm(spec.layer_norm, norm)
    _linear(spec.linear[0], attn.in_proj.weight[:D], attn.in_proj.bias[:D])
    _linear(spec.linear[1], attn.in_proj.weight[D:], attn.in_proj.bias[D:])
    _linear(spec.linear[2], attn.out_proj.weight, attn.out_proj.bias)


def _ffn(spec: Any, ffn: nn.Module, norm: nn.LayerNorm) -> None:
    _norm(spec.layer_norm, norm)
    _linear(spec.linear_0, ffn.linear1.weight, ffn.linear1.bias)
    _linear(spec.linear_1, ffn.linear2.weight, ffn.linear2.bias)


def check_transformer(model: Any, where: str = "export") -> None:
    """Refuse (one line) anything but the package's Transformer."""
    from companion.models.transformer import Transformer

    if not isinstance(model, Transformer):
        raise ConfigError(f"{where}: CTranslate2 export takes the Transformer; a {type(model).__name__} "
                          f"does not convert (use --format onnx for the RNNsearch)")


def transformer_spec(model: nn.Module, vocabs: Any) -> Any:
    """A ``ctranslate2.specs.TransformerSpec`` holding ``model``'s weights (see the module
    docstring for the mapping) and the pieces of ``vocabs = (src_vocab, tgt_vocab)``."""
    check_transformer(model)
    require_extra("ctranslate2", "export", "CTranslate2 export")
    from ctranslate2.specs import transformer_spec as ts

    from companion.export.onnx import check_vocabs, vocab_table

    src_vocab, tgt_vocab = check_vocabs(vocabs, model)
    enc_layers, dec_layers = len(model.encoder_layers), len(model.decoder_layers)
    spec = ts.TransformerSpec.from_config((enc_layers, dec_layers), model.num_heads, pre_norm=bool(model.pre_ln))
    table = _np(model.positions.table)  # (max_len, D), sin at even columns, cos at odd
    enc, dec = spec.encoder, spec.decoder
    enc.embeddings[0].weight = _np(model.src_embed.weight)
    dec.embeddings.weight = _np(model.tgt_embed.weight)
    enc.scale_embeddings = dec.scale_embeddings = True
    enc.position_encodings.encodings = table
    dec.position_encodings.encodings = table  # one array: saved once, the decoder's an alias
    for layer_spec, layer in zip(enc.layer, model.encoder_layers):
        _self_attention(layer_spec.self_attention, layer.self_attn, layer.norm1)
        _ffn(layer_spec.ffn, layer.ffn, layer.norm2)
    for layer_spec, layer in zip(dec.layer, model.decoder_layers):
        _self_attention(layer_spec.self_attention, layer.self_attn, layer.norm1)
        _cross_attention(layer_spec.attention, layer.cross_attn, layer.norm2)
        _ffn(layer_spec.ffn, layer.ffn, layer.norm3)
    if model.pre_ln:
        _norm(enc.layer_norm, model.encoder_norm)
        _norm(dec.layer_norm, model.decoder_norm)
    dec.projection.weight = _np(model.tgt_embed.weight if model.output is None else model.output.weight)
    eps = {float(m.eps) for m in model.modules() if isinstance(m, nn.LayerNorm)}
    if len(eps) != 1:
        raise ConfigError(f"export: the LayerNorms use several epsilons {sorted(eps)}; CTranslate2 takes one")
    src_pieces, tgt_pieces = vocab_table(src_vocab)["pieces"], vocab_table(tgt_vocab)["pieces"]
    spec.config.layer_norm_epsilon = eps.pop()
    spec.config.unk_token, spec.config.bos_token = tgt_pieces[3], tgt_pieces[BOS]
    spec.config.eos_token, spec.config.decoder_start_token = tgt_pieces[EOS], tgt_pieces[BOS]
    spec.config.add_source_bos = spec.config.add_source_eos = False
    spec.register_source_vocabulary(src_pieces)
    spec.register_target_vocabulary(tgt_pieces)
    return spec


def export_ctranslate2(model: nn.Module, vocabs: Any, out_dir: str | Path, *, quantization: str = "float32",
                       decoding: Any = None, checkpoint: str | Path | None = None, step: int | None = None,
                       overwrite: bool = False) -> Path:
    """Write ``model`` (the Transformer) as a CTranslate2 model directory: ``model.bin``,
    ``config.json``, the two vocabularies (CTranslate2's files), ``src.model`` / ``tgt.model``
    (SentencePiece) and ``manifest.json`` (format ``companion-ctranslate2``: the decoding
    options, the checkpoint's sha256, the package version, the quantization).

    ``quantization``: ``"float32"`` (the weights as trained) or one of CTranslate2's weight
    types (``"int8"``, ``"int8_float32"``, ``"int16"``), applied when the model is saved."""
    from companion import __version__
    from companion.export.onnx import check_vocabs, decoding_options, prepare_out_dir, replace_dir, sha256_file

    check_transformer(model)
    if quantization not in QUANTIZATIONS:
        raise ConfigError(f"export: quantization must be one of {', '.join(QUANTIZATIONS)}, got {quantization!r}")
    src_vocab, tgt_vocab = check_vocabs(vocabs, model)
    out = prepare_out_dir(out_dir, overwrite)
    spec = transformer_spec(model, (src_vocab, tgt_vocab))
    spec.validate()
    spec.optimize(quantization=None if quantization == "float32" else quantization)
    tmp = out.with_name(f".{out.name}.tmp-{os.getpid()}")
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)
    try:
        spec.save(str(tmp))
        (tmp / "src.model").write_bytes(src_vocab.to_bytes())
        (tmp / "tgt.model").write_bytes(tgt_vocab.to_bytes())
        manifest = {"format": CT2_FORMAT, "format_version": 1, "family": "transformer", "package_version": __version__,
                    "checkpoint": {"path": Path(checkpoint).name if checkpoint else None,
                                   "sha256": sha256_file(checkpoint) if checkpoint else None, "step": step},
                    "quantization": quantization, "decoding": decoding_options(decoding),
                    "src_vocab_size": len(src_vocab), "tgt_vocab_size": len(tgt_vocab),
                    "max_positions": int(model.positions.table.shape[0])}
        (tmp / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
        replace_dir(tmp, out)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp)
    return out


class CT2Translator:
    """A CTranslate2 export directory with ``ctranslate2.Translator`` on the CPU.

    Args:
        directory: written by :func:`export_ctranslate2`.
        threads: CTranslate2's intra-op threads (one translation at a time).
        compute_type: CTranslate2's compute type (``"default"``: the saved weights' type;
            ``"int8"`` quantizes a float32 model as it loads).
    """

    def __init__(self, directory: str | Path, threads: int = 1, compute_type: str = "default") -> None:
        ct2 = require_extra("ctranslate2", "export", "CTranslate2 decoding")
        check_int("threads", threads, 1, where="CT2Translator")
        from companion.data.vocab import SentencePieceVocab
        from companion.export.onnx import vocab_table

        self.directory = Path(directory)
        path = self.directory / "manifest.json"
        if not path.is_file():
            raise DataError(f"{directory}: not a CTranslate2 export (no manifest.json)")
        self.manifest = json.loads(path.read_text(encoding="utf-8"))
        if self.manifest.get("format") != CT2_FORMAT:
            raise DataError(f"{path}: not a {CT2_FORMAT} manifest")
        self.translator = ct2.Translator(str(self.directory), device="cpu", compute_type=compute_type,
                                         inter_threads=1, intra_threads=int(threads))
        self.src_vocab = SentencePieceVocab.load(self.directory / "src.model")
        self.tgt_vocab = SentencePieceVocab.load(self.directory / "tgt.model")
        self._src_pieces = vocab_table(self.src_vocab)["pieces"]
        self._tgt_pieces = vocab_table(self.tgt_vocab)["pieces"]
        self._tgt_ids = {p: i for i, p in enumerate(self._tgt_pieces)}
        self._banned = [[self._tgt_pieces[i]] for i in NEVER_GENERATED]

    def decode_ids(self, sources: Sequence[Sequence[int]], beam: int = 1, *, batch_size: int = 64,
                   length_penalty: float | None = None, max_len_a: float | None = None,
                   max_len_b: int | None = None) -> list[tuple[int, ...]]:
        """The best output ids of each source id list (each ending with EOS): EOS included
        unless the sentence's length limit cut it (then exactly the limit's number of tokens).
        Sentences go in length-sorted batches of ``batch_size``. ``length_penalty`` (default:
        the manifest's for a beam, 0 for greedy search) is CTranslate2's: scores divided by
        ``|Y| ** alpha`` (the package's ``length_penalty_form="plain"``, not GNMT's form);
        ``max_len_a``/``max_len_b`` default to the manifest's."""
        d = dict(self.manifest["decoding"])
        d.update({k: v for k, v in (("max_len_a", max_len_a), ("max_len_b", max_len_b)) if v is not None})
        if length_penalty is None:
            length_penalty = d["length_penalty"] if beam > 1 else 0.0
        for i, s in enumerate(sources):
            if len(s) == 0 or s[-1] != EOS:
                raise DataError(f"CT2Translator: source {i} must end with EOS (id {EOS})")
        limits = [max(1, int(np.floor(d["max_len_a"] * len(s) + d["max_len_b"]))) for s in sources]
        order = sorted(range(len(sources)), key=lambda i: (len(sources[i]), i))
        out: list[tuple[int, ...]] = [()] * len(sources)
        for start in range(0, len(order), batch_size):
            ids = order[start : start + batch_size]
            tokens = [[self._src_pieces[t] for t in sources[i]] for i in ids]
            results = self.translator.translate_batch(
                tokens, beam_size=beam, length_penalty=float(length_penalty), max_decoding_length=max(limits[i] for i in ids),
                return_end_token=True, suppress_sequences=self._banned, max_input_length=0, min_decoding_length=0)
            for i, result in zip(ids, results):
                hyp = [self._tgt_ids[p] for p in result.hypotheses[0]]
                out[i] = tuple(hyp[: limits[i]])
        return out

    def translate(self, sentences: Sequence[str], beam: int = 1, *, batch_size: int = 64) -> list[str]:
        """Detokenized translations of ``sentences`` (the manifest's decoding options)."""
        from companion.data.batching import source_ids

        if isinstance(sentences, str):
            raise DataError("CT2Translator.translate: sentences must be a list of strings, not one string")
        ids = self.decode_ids([source_ids(self.src_vocab, s) for s in sentences], beam, batch_size=batch_size)
        return [self.tgt_vocab.decode(t) for t in ids]


__all__ = ["CT2Translator", "CT2_FORMAT", "QUANTIZATIONS", "check_transformer", "export_ctranslate2",
           "transformer_spec"]
