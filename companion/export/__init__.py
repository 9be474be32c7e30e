"""A trained translator in the field's inference formats.

- :func:`export_onnx` (:mod:`companion.export.onnx`): the Transformer or the RNNsearch as an
  encoder graph and a one-step decoder graph (the decoder's state as inputs and outputs), the
  two SentencePiece models and a manifest; :class:`OnnxTranslator`
  (:mod:`companion.export.runtime`) decodes them with onnxruntime and the package's search;
- :func:`export_ctranslate2` (:mod:`companion.export.ctranslate2`): the Transformer as a
  CTranslate2 model, built with CTranslate2's specification API; :class:`CT2Translator`
  translates with ``ctranslate2.Translator``.

The book's chapter exports the Transformer it trained in memory::

    from companion.experiments.regime import DECODING
    export_onnx(trained.model, (data.src_vocab, data.tgt_vocab), "translator", decoding=DECODING, overwrite=True)

Both need the ``export`` extra (``pip install 'seq2seq-companion[export]'``); without it they
raise a one-line :class:`~companion.errors.MissingDependencyError`.
"""

from __future__ import annotations

import importlib
from typing import Any

_NAMES = {
    "export_onnx": "companion.export.onnx",
    "onnx_graphs": "companion.export.onnx",
    "OnnxTranslator": "companion.export.runtime",
    "greedy_one": "companion.export.runtime",
    "export_ctranslate2": "companion.export.ctranslate2",
    "transformer_spec": "companion.export.ctranslate2",
    "CT2Translator": "companion.export.ctranslate2",
    "greedy_differences": "companion.export.parity",
    "agreement": "companion.export.parity",
}


def __getattr__(name: str) -> Any:  # the submodules import torch and the engines only when used
    if name in _NAMES:
        return getattr(importlib.import_module(_NAMES[name]), name)
    raise AttributeError(f"module 'companion.export' has no attribute {name!r}")


__all__ = sorted(_NAMES)
