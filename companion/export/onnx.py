"""Export a trained translator to ONNX: an encoder graph and a one-step decoder graph.

Additions since the contract was first written (nothing in it changed): the manifest's
``decoder`` entry also holds ``row_axis`` (the rows' axis of every decoder input, for gathering
hypotheses), and ``model`` also holds ``tie_output`` and ``share_all_embeddings``.

The contract (what a decoding loop in any language -- :mod:`companion.export.runtime` in
Python, ``onnxruntime-web`` in the book's page -- may rely on)
=============================================================================================

Files written into the output directory::

    encoder.onnx        the encoder graph
    decoder_step.onnx   one decoder step (its state as inputs and outputs)
    src.model           the source SentencePiece model (the checkpoint's bytes, unchanged)
    tgt.model           the target SentencePiece model
    src.vocab.json      {"pieces": [...], "scores": [...]}: piece and score of every id (index = id)
    tgt.vocab.json      the same for the target side
    manifest.json       what the loop needs besides the graphs (below)

Ids. Special ids are PAD=0, BOS=1, EOS=2, UNK=3 in both vocabularies. A source sentence is
``src.model``'s piece ids of the raw text (SentencePiece ``encode`` with its own normalisation,
no sampling) followed by EOS, **no BOS**: ``[*sp.encode(text), 2]``. A batch is right-padded
with PAD to ``(B, S)``. The target side starts from BOS: the first step is fed ``prev_tokens =
BOS``. The output is the generated ids up to and including EOS; the text is
``tgt.model``'s ``decode`` of them with PAD, BOS and EOS dropped (UNK renders as ``⁇``).

All graph inputs and outputs are int64 (ids) or float32 (everything else). Axes named ``B``
(sentences), ``S`` (source length, EOS included), ``N`` (decoder rows: sentences in greedy
search, sentences x beam in beam search) and ``t`` (tokens fed so far) are dynamic; ``L``, ``H``,
``d_k`` and ``V`` are fixed by the model and written in the manifest.

Transformer (``manifest["family"] == "transformer"``)
-----------------------------------------------------

``encoder.onnx``
    inputs:  ``src``           int64   ``(B, S)``
    outputs: ``cross_keys``    float32 ``(L, B, H, S, d_k)``  every decoder layer's
             ``cross_values``  float32 ``(L, B, H, S, d_k)``  cross-attention keys / values
                                                              of the encoder output

``decoder_step.onnx``
    inputs:  ``prev_tokens``   int64   ``(N,)``                the token fed at this step
             ``src``           int64   ``(N, S)``              the row's source ids (PAD = masked)
             ``cross_keys``    float32 ``(L, N, H, S, d_k)``   from the encoder, one copy per row
             ``cross_values``  float32 ``(L, N, H, S, d_k)``
             ``past_keys``     float32 ``(L, N, H, t, d_k)``   self-attention cache of the t
             ``past_values``   float32 ``(L, N, H, t, d_k)``   tokens fed before this one
    outputs: ``log_probs``       float32 ``(N, V)``            log-softmax over the next token
             ``present_keys``    float32 ``(L, N, H, t+1, d_k)`` the cache with this step appended
             ``present_values``  float32 ``(L, N, H, t+1, d_k)``
             ``cross_attention`` float32 ``(N, L, H, S)``      this step's cross-attention weights
                                                               of every layer and head (rows sum
                                                               to 1, exactly 0 at source PAD)

The KV cache step to step: at the first step ``past_keys``/``past_values`` are empty,
shape ``(L, N, H, 0, d_k)`` (zero elements); every later step feeds the previous step's
``present_keys``/``present_values`` back as ``past_keys``/``past_values``. The position of
``prev_tokens`` (for the sinusoidal encoding) is ``t``, read from ``past_keys``' shape, so no
position input exists. Positions (source and target) must stay below
``manifest["max_positions"]``.

Rows: the graph has no notion of beams. For beam search of width ``k`` repeat every
per-sentence input (``src`` on axis 0, ``cross_keys``/``cross_values`` on axis 1) ``k`` times
(row ``r`` belongs to sentence ``r // k``); to follow the hypotheses, gather the state
(``present_*`` on axis 1) by the chosen parent rows before feeding it back. Sentences that
finish may be dropped from every input the same way.

The package's attention heatmap (``step_attention``, the book's plots) is the **last** layer
averaged over heads: ``cross_attention[:, L-1].mean(axis=1)`` ``(N, S)``; a per-head view is
``cross_attention[n, L-1, h]``.

RNNsearch (``manifest["family"] == "rnnsearch"``)
-------------------------------------------------

``encoder.onnx``
    inputs:  ``src``           int64   ``(B, S)``
    outputs: ``hidden``        float32 ``(B, H)``     the decoder's initial state ``s_0``
             ``annotations``   float32 ``(B, S, K)``  ``h_j = [fwd_h_j ; bwd_h_j]`` (0 at PAD)
             ``keys``          float32 ``(B, S, A)``  the score's per-sentence part (``U_a h_j``)

``decoder_step.onnx``
    inputs:  ``prev_tokens`` int64 ``(N,)``, ``src`` int64 ``(N, S)``, ``hidden`` ``(N, H)``,
             ``annotations`` ``(N, S, K)``, ``keys`` ``(N, S, A)``
    outputs: ``log_probs`` ``(N, V)``, ``hidden_out`` ``(N, H)`` (feed back as ``hidden``),
             ``cross_attention`` ``(N, 1, 1, S)`` (the step's alignment ``alpha``: one "layer",
             one "head", so that a loop reads both families the same way)

Generic loop (both families; the manifest's ``"decoder"`` entry names the pieces)::

    enc = encoder.run({"src": src})                                  # src (B, S)
    per_sentence = {"src": src, **{n: enc[n] for n in manifest["decoder"]["per_sentence"]}}
    state = initial state (manifest["decoder"]["state"][name]["initial"]: "empty" -> zero-length
            t axis, "encoder:<output>" -> that encoder output)
    prev = [BOS] * N
    loop: out = decoder_step.run({"prev_tokens": prev, **per_sentence rows, **state})
          pick from out["log_probs"] (PAD and BOS are never picked: set them to -inf first)
          state[name] = out[manifest["decoder"]["state"][name]["output"]] (rows gathered on
          manifest["decoder"]["state"][name]["row_axis"])

Search rules (those of :mod:`companion.decoding.search`, which the Python driver runs over the
graphs): at most ``min(max_positions, floor(max_len_a * S_real + max_len_b))`` output tokens,
EOS included (``S_real`` counts the source's EOS); greedy stops a sentence at EOS or at that
limit (then the output has no EOS). Beam search (``finish_rule="top_k"``) ranks finished
hypotheses by ``log_prob / ((5 + |Y|) / 6) ** length_penalty``.

``manifest.json``::

    format            "companion-onnx"; format_version: 1
    family            "transformer" | "rnnsearch"
    package_version   companion.__version__ at export
    checkpoint        {"path": file name or null, "sha256": hex of the checkpoint file or null
                       (an in-memory model), "step": training step or null}
    opset             the ONNX opset of both graphs
    files             {"encoder", "decoder_step", "src_spm", "tgt_spm", "src_vocab", "tgt_vocab"}
                      -> file names above; files_sha256: {file name: hex sha256}
    special_ids       {"pad": 0, "bos": 1, "eos": 2, "unk": 3}
    src_vocab_size, tgt_vocab_size
    max_positions     the longest source and the longest output the graphs accept
    model             the architecture: transformer {"d_model", "num_heads", "head_dim",
                      "num_encoder_layers", "num_decoder_layers", "d_ff", "pre_ln"};
                      rnnsearch {"embed_dim", "hidden_size", "annotation_dim", "attention",
                      "attention_dim", "maxout_dim", "readout_state"}
    decoding          {"beam_size", "length_penalty", "length_penalty_form": "gnmt",
                       "max_len_a", "max_len_b", "at_limit": "truncate", "finish_rule": "top_k"}
    encoder           {"inputs": {name: [dtype, shape]}, "outputs": {...}}
    decoder           {"inputs": ..., "outputs": ..., "per_sentence": [encoder output names],
                       "state": {input name: {"output": name, "row_axis": int,
                                  "initial": "empty" | "encoder:<name>"}},
                       "row_axis": {input name: axis of its rows},
                       "attention": "cross_attention"}
    attention         {"shape": "(N, L, H, S)", "layers": L, "heads": H,
                       "heatmap": "cross_attention[:, layers-1].mean(axis=1)"}

How the graphs are made
-----------------------

The graphs are small modules (:class:`TransformerEncoderGraph`, :class:`TransformerStepGraph`,
:class:`RNNSearchEncoderGraph`, :class:`RNNSearchStepGraph`) that call the package model's own
layers, exported by ``torch.onnx.export(..., dynamo=True)`` (torch's default exporter, which
builds the graph with ``torch.export`` and needs ``onnxscript``). It is chosen over the older
TorchScript tracer because it treats the dynamic axes symbolically: a shape check inside the
model (``offset + length <= max_len``, "one copy of the keys per row") is proven for every size
in the declared range or the export fails, where the tracer silently freezes the branch the
example took; and the tracer is deprecated in torch 2.9+. Its cost is a few seconds per graph.
Every input and output then gets the contract's shape (named dynamic axes) and the graphs must
pass ``onnx.checker`` with ``full_check``. The step graph computes the attention weights of
every layer by the written-out softmax (the package's step uses the fused kernel when no
weights are asked for): the same numbers up to float32 rounding.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import io
import json
import logging
import math
import os
import shutil
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import torch
from torch import nn

from companion.errors import ConfigError, require_extra
from companion.specials import BOS, EOS, PAD, UNK

#: the ONNX opset of the exported graphs (onnxruntime-web runs it)
OPSET = 18
#: manifest["format"] and its version
FORMAT, FORMAT_VERSION = "companion-onnx", 1
#: the files of an export directory (manifest["files"])
FILES = {"encoder": "encoder.onnx", "decoder_step": "decoder_step.onnx", "src_spm": "src.model",
         "tgt_spm": "tgt.model", "src_vocab": "src.vocab.json", "tgt_vocab": "tgt.vocab.json"}
#: the families that export (registry names)
ONNX_FAMILIES = ("transformer", "rnnsearch")
# the dynamic axes' upper bounds given to the exporter (beyond them the graphs still run: the
# bounds only let torch.export prove the shape checks inside the model once)
_MAX_ROWS = 1 << 16


def family_of(model: Any, where: str = "export") -> str:
    """The registry name of ``model``'s family if it exports to ONNX, else a one-line
    :class:`ConfigError` naming the families that do."""
    from companion.models.attention import RNNSearch
    from companion.models.transformer import Transformer

    if isinstance(model, Transformer):
        return "transformer"
    if isinstance(model, RNNSearch):
        return "rnnsearch"
    raise ConfigError(f"{where}: a {type(model).__name__} does not export (supported: Transformer, RNNSearch)")


# ============================================================================ the Transformer graphs
class TransformerEncoderGraph(nn.Module):
    """``src`` ``(B, S)`` -> ``(cross_keys, cross_values)``, each ``(L, B, H, S, d_k)``: the
    encoder stack and every decoder layer's projection of its output
    (:meth:`~companion.models.transformer.Transformer.encode` without the empty cache)."""

    def __init__(self, model: nn.Module) -> None:
        super().__init__()
        self.model = model

    def forward(self, src: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        memory = self.model.encoder_output(src)  # (B, S, D)
        kv = [layer.cross_attn.project_kv(memory) for layer in self.model.decoder_layers]
        return torch.stack([k for k, _ in kv]), torch.stack([v for _, v in kv])


class TransformerStepGraph(nn.Module):
    """One decoder step with the key/value cache as tensors (see the module docstring):
    :meth:`~companion.models.transformer.Transformer.step` with the cache stacked over layers
    and the position read from the cache's length instead of a Python counter."""

    def __init__(self, model: nn.Module) -> None:
        super().__init__()
        self.model = model

    def forward(self, prev_tokens: torch.Tensor, src: torch.Tensor, cross_keys: torch.Tensor,
                cross_values: torch.Tensor, past_keys: torch.Tensor, past_values: torch.Tensor):
        m = self.model
        t = past_keys.shape[3]
        pe = m.positions.table[t : t + 1]  # (1, D): the position of prev_tokens
        x = m.tgt_embed(prev_tokens).unsqueeze(1) * math.sqrt(m.d_model) + pe  # (N, 1, D)
        c_mask = (src != PAD)[:, None, None, :]  # (N, 1, 1, S)
        layers = len(m.decoder_layers)
        hidden, kvs, weights = m._decoder_stack(
            x, None, tuple(zip(cross_keys.unbind(0), cross_values.unbind(0))), c_mask,
            past=tuple(zip(past_keys.unbind(0), past_values.unbind(0))), need_weights=range(layers))
        log_probs = torch.log_softmax(m.logits(hidden[:, 0]).float(), dim=-1)
        attention = torch.stack(weights, dim=1)[:, :, :, 0]  # (N, L, h, 1, S) -> (N, L, H, S)
        return (log_probs, torch.stack([k for k, _ in kvs]), torch.stack([v for _, v in kvs]), attention)


# ============================================================================ the RNNsearch graphs
class RNNSearchEncoderGraph(nn.Module):
    """``src`` ``(B, S)`` -> ``(hidden (B, H), annotations (B, S, K), keys (B, S, A))``:
    :meth:`~companion.models.attention.RNNSearch.encode` with the lengths read from the PAD ids.

    The package reads a padded batch with packed sequences, which ONNX has no form of; here
    the backward GRU reads every row reversed within its own length (a gather), so that it
    starts at the row's last real token exactly as the packed GRU does, and the outputs at PAD
    positions are zeroed as ``pad_packed_sequence`` leaves them."""

    def __init__(self, model: nn.Module) -> None:
        super().__init__()
        self.model = model
        enc = model.encoder
        self.forward_gru = nn.GRU(enc.input_size, enc.hidden_size, batch_first=True)
        self.backward_gru = nn.GRU(enc.input_size, enc.hidden_size, batch_first=True)
        with torch.no_grad():
            for name in ("weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0"):
                getattr(self.forward_gru, name).copy_(getattr(enc, name))
                getattr(self.backward_gru, name).copy_(getattr(enc, name + "_reverse"))

    def forward(self, src: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        m = self.model
        mask = src != PAD  # (B, S)
        lengths = mask.sum(dim=1, keepdim=True)  # (B, 1)
        emb = m.src_embed(src)  # (B, S, E)
        fwd, _ = self.forward_gru(emb)
        pos = torch.arange(src.shape[1], device=src.device).unsqueeze(0)  # (1, S)
        rev = torch.where(pos < lengths, lengths - 1 - pos, pos)  # (B, S): each row reversed in place
        rev_emb = emb.gather(1, rev.unsqueeze(-1).expand(-1, -1, emb.shape[-1]))
        bwd_rev, _ = self.backward_gru(rev_emb)
        bwd = bwd_rev.gather(1, rev.unsqueeze(-1).expand(-1, -1, bwd_rev.shape[-1]))
        annotations = torch.cat([fwd, bwd], dim=-1) * mask.unsqueeze(-1).to(fwd.dtype)
        hidden = torch.tanh(m.W_s(bwd[:, 0]))  # s_0 = tanh(W_s bwd_h_1)
        return hidden, annotations, m.attention.project_keys(annotations)


class RNNSearchStepGraph(nn.Module):
    """One decoder step: :meth:`~companion.models.attention.RNNSearch.step` on a state of one
    row per sentence; the alignment comes out as ``cross_attention`` ``(N, 1, 1, S)``."""

    def __init__(self, model: nn.Module) -> None:
        super().__init__()
        self.model = model

    def forward(self, prev_tokens: torch.Tensor, src: torch.Tensor, hidden: torch.Tensor,
                annotations: torch.Tensor, keys: torch.Tensor):
        from companion.models.attention import AttentionState

        log_probs, new = self.model.step(prev_tokens, AttentionState(hidden, annotations, keys, src != PAD))
        return log_probs, new.hidden, new.weights[:, None, None, :]


# ============================================================================ graph descriptions
def _signatures(model: nn.Module, family: str) -> dict:
    """Inputs and outputs of both graphs, ``{name: [dtype, shape]}`` (shape entries are ints
    or the names of dynamic axes), the state and the rows' axes -- manifest["encoder"/"decoder"]."""
    f32, i64 = "float32", "int64"
    if family == "transformer":
        L, H = len(model.decoder_layers), model.num_heads
        dk = model.d_model // H
        kv = lambda rows, t: [f32, [L, rows, H, t, dk]]  # noqa: E731
        encoder = {"inputs": {"src": [i64, ["B", "S"]]},
                   "outputs": {"cross_keys": kv("B", "S"), "cross_values": kv("B", "S")}}
        decoder = {
            "inputs": {"prev_tokens": [i64, ["N"]], "src": [i64, ["N", "S"]], "cross_keys": kv("N", "S"),
                       "cross_values": kv("N", "S"), "past_keys": kv("N", "t"), "past_values": kv("N", "t")},
            "outputs": {"log_probs": [f32, ["N", model.tgt_vocab_size]], "present_keys": kv("N", "t+1"),
                        "present_values": kv("N", "t+1"), "cross_attention": [f32, ["N", L, H, "S"]]},
            "per_sentence": ["cross_keys", "cross_values"],
            "state": {"past_keys": {"output": "present_keys", "row_axis": 1, "initial": "empty"},
                      "past_values": {"output": "present_values", "row_axis": 1, "initial": "empty"}},
            "row_axis": {"prev_tokens": 0, "src": 0, "cross_keys": 1, "cross_values": 1, "past_keys": 1,
                         "past_values": 1},
            "attention": "cross_attention",
        }
        return {"encoder": encoder, "decoder": decoder, "layers": L, "heads": H}
    Hs, K = model.hidden_size, model.annotation_dim
    A = _key_dim(model)
    encoder = {"inputs": {"src": [i64, ["B", "S"]]},
               "outputs": {"hidden": [f32, ["B", Hs]], "annotations": [f32, ["B", "S", K]],
                           "keys": [f32, ["B", "S", A]]}}
    decoder = {
        "inputs": {"prev_tokens": [i64, ["N"]], "src": [i64, ["N", "S"]], "hidden": [f32, ["N", Hs]],
                   "annotations": [f32, ["N", "S", K]], "keys": [f32, ["N", "S", A]]},
        "outputs": {"log_probs": [f32, ["N", model.tgt_vocab_size]], "hidden_out": [f32, ["N", Hs]],
                    "cross_attention": [f32, ["N", 1, 1, "S"]]},
        "per_sentence": ["annotations", "keys"],
        "state": {"hidden": {"output": "hidden_out", "row_axis": 0, "initial": "encoder:hidden"}},
        "row_axis": {"prev_tokens": 0, "src": 0, "hidden": 0, "annotations": 0, "keys": 0},
        "attention": "cross_attention",
    }
    return {"encoder": encoder, "decoder": decoder, "layers": 1, "heads": 1}


def _key_dim(model: nn.Module) -> int:
    with torch.no_grad():
        return int(model.attention.project_keys(torch.zeros(1, 1, model.annotation_dim)).shape[-1])


def _architecture(model: nn.Module, family: str) -> dict:
    if family == "transformer":
        first = model.encoder_layers[0] if len(model.encoder_layers) else model.decoder_layers[0]
        return {"d_model": model.d_model, "num_heads": model.num_heads, "head_dim": model.d_model // model.num_heads,
                "num_encoder_layers": len(model.encoder_layers), "num_decoder_layers": len(model.decoder_layers),
                "d_ff": first.ffn.linear1.out_features, "pre_ln": bool(model.pre_ln),
                "tie_output": model.output is None, "share_all_embeddings": bool(model.share_all_embeddings)}
    return {"embed_dim": model.embed_dim, "hidden_size": model.hidden_size, "annotation_dim": model.annotation_dim,
            "attention": model.attention_kind, "attention_dim": _key_dim(model),
            "maxout_dim": model.output.W_o.in_features, "readout_state": model.readout_state}


def max_positions(model: nn.Module, family: str) -> int:
    """The longest source (and output) the graphs accept: the Transformer's table of positional
    encodings (the RNNsearch has no such limit; the export still states one)."""
    return int(model.positions.table.shape[0]) if family == "transformer" else 1024


def _example(model: nn.Module, family: str) -> tuple[tuple, tuple, tuple]:
    """Example inputs of both graphs (sizes other than 0 and 1, so that no axis is taken for a
    constant) and the dynamic axes as torch.export ``Dim`` objects."""
    Dim = torch.export.Dim
    B, S = 3, 5
    words = 4 + torch.arange(B * S).view(B, S) % (model.src_vocab_size - 4)  # ids of real pieces
    lengths = torch.tensor([S, 3, 4])
    pos = torch.arange(S).unsqueeze(0)
    src = torch.where(pos < lengths.unsqueeze(1) - 1, words, torch.where(pos == lengths.unsqueeze(1) - 1, EOS, PAD))
    limit = max_positions(model, family)
    b, s, n = Dim("B", min=1, max=_MAX_ROWS), Dim("S", min=1, max=limit), Dim("N", min=1, max=_MAX_ROWS)
    enc_dyn = {"src": {0: b, 1: s}}
    with torch.no_grad():
        if family == "transformer":
            keys, values = TransformerEncoderGraph(model)(src)
            t = Dim("t", min=0, max=limit - 1)
            past = torch.zeros(keys.shape[0], B, keys.shape[2], 2, keys.shape[4])
            step_args = (torch.full((B,), BOS), src, keys, values, past, past.clone())
            step_dyn = {"prev_tokens": {0: n}, "src": {0: n, 1: s}, "cross_keys": {1: n, 3: s},
                        "cross_values": {1: n, 3: s}, "past_keys": {1: n, 3: t}, "past_values": {1: n, 3: t}}
        else:
            hidden, ann, keys = RNNSearchEncoderGraph(model)(src)
            step_args = (torch.full((B,), BOS), src, hidden, ann, keys)
            step_dyn = {"prev_tokens": {0: n}, "src": {0: n, 1: s}, "hidden": {0: n},
                        "annotations": {0: n, 1: s}, "keys": {0: n, 1: s}}
    return (src,), enc_dyn, (step_args, step_dyn)


def _export_graph(graph: nn.Module, args: tuple, names: dict, dynamic: dict) -> Any:
    """``graph`` as an ONNX ``ModelProto`` with the contract's names, and the contract's shapes
    written on its inputs and outputs (the exporter's own shape annotations dropped: they may
    hold an example's size where an axis is dynamic)."""
    onnx = require_extra("onnx", "export", "ONNX export")
    require_extra("onnxscript", "export", "ONNX export")
    sink = io.StringIO()
    quiet = logging.getLogger("torch.onnx")
    level = quiet.level
    quiet.setLevel(logging.ERROR)  # the exporter logs every operator library it skips
    with warnings.catch_warnings(), contextlib.redirect_stdout(sink), contextlib.ExitStack() as undo:
        undo.callback(quiet.setLevel, level)
        warnings.simplefilter("ignore")
        program = torch.onnx.export(graph, args, None, input_names=list(names["inputs"]),
                                    output_names=list(names["outputs"]), opset_version=OPSET, dynamo=True,
                                    dynamic_shapes=dynamic, optimize=True, verbose=False)
    proto = program.model_proto
    del proto.graph.value_info[:]
    for values in (proto.graph.input, proto.graph.output):
        for value in values:
            dtype, shape = {**names["inputs"], **names["outputs"]}[value.name]
            tensor = value.type.tensor_type
            tensor.elem_type = onnx.TensorProto.INT64 if dtype == "int64" else onnx.TensorProto.FLOAT
            tensor.shape.Clear()
            for d in shape:
                dim = tensor.shape.dim.add()
                if isinstance(d, int):
                    dim.dim_value = d
                else:
                    dim.dim_param = d
    onnx.checker.check_model(proto, full_check=True)
    return proto


def onnx_graphs(model: nn.Module) -> tuple[Any, Any, dict]:
    """``(encoder ModelProto, decoder-step ModelProto, signatures)`` of a Transformer or an
    RNNSearch (on the CPU, in float32, in eval mode; ``model`` itself is not changed)."""
    family = family_of(model)
    model = copy.deepcopy(model).to("cpu", torch.float32).eval()
    for p in model.parameters():
        p.requires_grad_(False)
    sig = _signatures(model, family)
    enc_args, enc_dyn, (step_args, step_dyn) = _example(model, family)
    if family == "transformer":
        enc, step = TransformerEncoderGraph(model), TransformerStepGraph(model)
    else:
        enc, step = RNNSearchEncoderGraph(model), RNNSearchStepGraph(model)
    encoder = _export_graph(enc.eval(), enc_args, sig["encoder"], enc_dyn)
    decoder = _export_graph(step.eval(), step_args, sig["decoder"], step_dyn)
    return encoder, decoder, sig


# ============================================================================ the export directory
def sha256_file(path: str | Path) -> str:
    """Hex sha256 of a file's bytes."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def vocab_table(vocab: Any) -> dict:
    """``{"pieces": [...], "scores": [...]}`` of a SentencePiece vocabulary (index = id)."""
    import sentencepiece as spm

    sp = spm.SentencePieceProcessor()
    sp.LoadFromSerializedProto(vocab.to_bytes())
    n = sp.get_piece_size()
    return {"pieces": [sp.id_to_piece(i) for i in range(n)], "scores": [float(sp.get_score(i)) for i in range(n)]}


def check_vocabs(vocabs: Any, model: nn.Module, where: str = "export") -> tuple[Any, Any]:
    """``(src_vocab, tgt_vocab)``: two SentencePiece vocabularies whose sizes are the model's."""
    from companion.data.vocab import SentencePieceVocab

    if not isinstance(vocabs, (tuple, list)) or len(vocabs) != 2:
        raise ConfigError(f"{where}: vocabs must be a pair (src_vocab, tgt_vocab)")
    for side, vocab, size in zip(("source", "target"), vocabs, (model.src_vocab_size, model.tgt_vocab_size)):
        if not isinstance(vocab, SentencePieceVocab):
            raise ConfigError(f"{where}: the {side} vocabulary is a {type(vocab).__name__}, not SentencePiece")
        if len(vocab) != size:
            raise ConfigError(f"{where}: the {side} vocabulary has {len(vocab)} pieces but the model {size}")
    return vocabs[0], vocabs[1]


def decoding_options(decoding: Any = None) -> dict:
    """The manifest's ``decoding`` entry from a config's ``decode`` section, a
    :class:`~companion.experiments.regime.Decoding`, a mapping or None (the package defaults)."""
    base = {"beam_size": 5, "length_penalty": 0.0, "length_penalty_form": "gnmt", "max_len_a": 1.5,
            "max_len_b": 10, "at_limit": "truncate", "finish_rule": "top_k"}
    if decoding is None:
        return base
    get = decoding.get if isinstance(decoding, Mapping) else (lambda k, d=None: getattr(decoding, k, d))
    for key in ("beam_size", "length_penalty", "max_len_a", "max_len_b"):
        value = get(key, None)
        if value is not None:
            base[key] = value
    return base


def prepare_out_dir(out_dir: str | Path, overwrite: bool, where: str = "export") -> Path:
    """Refuse an existing ``out_dir`` (one line) unless ``overwrite``; with ``overwrite`` only a
    previous export (a directory holding a ``manifest.json``) or an empty directory is replaced."""
    out = Path(out_dir)
    if out.exists() or out.is_symlink():
        if not overwrite:
            raise ConfigError(f"{where}: {out} already exists (choose a new --out directory)")
        if not out.is_dir() or (any(out.iterdir()) and not (out / "manifest.json").is_file()):
            raise ConfigError(f"{where}: {out} exists and is not an earlier export; refusing to replace it")
    return out


def replace_dir(tmp: Path, out: Path) -> None:
    """Move the finished ``tmp`` directory to ``out`` (an earlier export there is removed)."""
    if out.exists():
        shutil.rmtree(out)
    tmp.replace(out)


def export_onnx(model: nn.Module, vocabs: Any, out_dir: str | Path, *, decoding: Any = None,
                checkpoint: str | Path | None = None, step: int | None = None, overwrite: bool = False) -> Path:
    """Write ``model`` (a Transformer or an RNNSearch, in memory) and its vocabularies
    ``(src_vocab, tgt_vocab)`` as the ONNX export directory described in the module docstring.

    Args:
        decoding: the decoding options recorded in the manifest (a config's ``decode``
            section, a :class:`~companion.experiments.regime.Decoding`, a mapping; None: the
            package's defaults).
        checkpoint, step: the checkpoint file the model was loaded from (its sha256 goes into
            the manifest) and its training step; None for a model trained in memory.
        overwrite: replace an earlier export in ``out_dir`` (else an existing ``out_dir`` is an
            error).

    Returns the directory. Both graphs pass ``onnx.checker`` before anything is written; the
    directory appears complete or not at all.
    """
    from companion import __version__

    family = family_of(model)
    src_vocab, tgt_vocab = check_vocabs(vocabs, model)
    out = prepare_out_dir(out_dir, overwrite)
    onnx = require_extra("onnx", "export", "ONNX export")
    encoder, decoder, sig = onnx_graphs(model)
    tmp = out.with_name(f".{out.name}.tmp-{os.getpid()}")
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)
    try:
        onnx.save(encoder, tmp / FILES["encoder"])
        onnx.save(decoder, tmp / FILES["decoder_step"])
        (tmp / FILES["src_spm"]).write_bytes(src_vocab.to_bytes())
        (tmp / FILES["tgt_spm"]).write_bytes(tgt_vocab.to_bytes())
        for key, vocab in (("src_vocab", src_vocab), ("tgt_vocab", tgt_vocab)):
            (tmp / FILES[key]).write_text(json.dumps(vocab_table(vocab), ensure_ascii=False), encoding="utf-8")
        manifest = {
            "format": FORMAT, "format_version": FORMAT_VERSION, "family": family, "package_version": __version__,
            "checkpoint": {"path": Path(checkpoint).name if checkpoint else None,
                           "sha256": sha256_file(checkpoint) if checkpoint else None, "step": step},
            "opset": OPSET, "files": dict(FILES),
            "files_sha256": {name: sha256_file(tmp / name) for name in FILES.values()},
            "special_ids": {"pad": PAD, "bos": BOS, "eos": EOS, "unk": UNK},
            "src_vocab_size": len(src_vocab), "tgt_vocab_size": len(tgt_vocab),
            "max_positions": max_positions(model, family),
            "model": _architecture(model, family), "decoding": decoding_options(decoding),
            "encoder": sig["encoder"], "decoder": sig["decoder"],
            "attention": {"shape": "(N, L, H, S)", "layers": sig["layers"], "heads": sig["heads"],
                          "heatmap": f"cross_attention[:, {sig['layers'] - 1}].mean(axis=1)"},
        }
        (tmp / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n",
                                           encoding="utf-8")
        replace_dir(tmp, out)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp)
    return out


__all__ = ["FILES", "FORMAT", "ONNX_FAMILIES", "OPSET", "RNNSearchEncoderGraph", "RNNSearchStepGraph",
           "TransformerEncoderGraph", "TransformerStepGraph", "check_vocabs", "decoding_options", "export_onnx",
           "family_of", "max_positions", "onnx_graphs", "prepare_out_dir", "sha256_file", "vocab_table"]
