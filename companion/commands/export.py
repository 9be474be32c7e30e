"""``companion export RUN --format onnx|ctranslate2 --out DIR [--quantization int8]``

Writes a trained run (a run directory or a checkpoint file) in an inference engine's format:

- ``onnx``: the Transformer or the RNNsearch as ``encoder.onnx`` and ``decoder_step.onnx``
  (the decoder's key/value cache or recurrent state as inputs and outputs), the two
  SentencePiece models and ``manifest.json`` (:mod:`companion.export.onnx` states the
  contract); decode it with :class:`companion.export.OnnxTranslator`;
- ``ctranslate2``: the Transformer as a CTranslate2 model (``--quantization int8`` stores int8
  weights); translate with :class:`companion.export.CT2Translator` or ``ctranslate2.Translator``.

``DIR`` must not exist (``--overwrite`` replaces an earlier export). The checkpoint's sha256,
its step and the run's decoding options go into the manifest.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.errors import ConfigError

FORMATS = ("onnx", "ctranslate2")


def configure_parser(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run", metavar="RUN", help="a run directory of `companion train` or a checkpoint file")
    parser.add_argument("--format", required=True, choices=FORMATS, help="onnx or ctranslate2")
    parser.add_argument("--out", required=True, help="the directory to write (must not exist)")
    parser.add_argument("--quantization", default="float32",
                        help="ctranslate2 only: float32 (default), int8, int8_float32 or int16")
    parser.add_argument("--overwrite", action="store_true", help="replace an earlier export in --out")


def export_run(run: str | Path, fmt: str, out: str | Path, *, quantization: str = "float32",
               overwrite: bool = False) -> Path:
    """Export the run or checkpoint ``run`` to ``out`` in format ``fmt`` (see the module
    docstring); every error a user can cause is one line, raised before the export starts."""
    from companion.export.ctranslate2 import QUANTIZATIONS, check_transformer
    from companion.export.onnx import family_of, prepare_out_dir
    from companion.training.rundir import load_run
    from companion.translator import checkpoint_of

    if fmt not in FORMATS:
        raise ConfigError(f"export: --format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    if fmt == "onnx" and quantization != "float32":
        raise ConfigError("export: --quantization applies to --format ctranslate2 only")
    if quantization not in QUANTIZATIONS:
        raise ConfigError(f"export: --quantization must be one of {', '.join(QUANTIZATIONS)}, got {quantization!r}")
    prepare_out_dir(out, overwrite)
    ckpt_path = checkpoint_of(run)
    model, src_vocab, tgt_vocab, cfg, ckpt = load_run(ckpt_path, "cpu")
    where = f"export: {ckpt_path} (model.name {cfg.model.name})"
    if fmt == "onnx":
        from companion.export.onnx import export_onnx

        family_of(model, where)
        return export_onnx(model, (src_vocab, tgt_vocab), out, decoding=cfg.decode, checkpoint=ckpt_path,
                           step=int(ckpt["step"]), overwrite=overwrite)
    from companion.export.ctranslate2 import export_ctranslate2

    check_transformer(model, where)
    return export_ctranslate2(model, (src_vocab, tgt_vocab), out, quantization=quantization, decoding=cfg.decode,
                              checkpoint=ckpt_path, step=int(ckpt["step"]), overwrite=overwrite)


def run(args: argparse.Namespace) -> int:
    out = export_run(args.run, args.format, args.out, quantization=args.quantization, overwrite=args.overwrite)
    files = sorted(p for p in out.iterdir() if p.is_file())
    size = sum(p.stat().st_size for p in files)
    print(f"{out}: {args.format} export, {len(files)} files, {size / 1e6:.2f} MB")
    return 0
