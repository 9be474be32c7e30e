"""companion: the code behind the seq2seq monograph.

Data flows one way through the sub-packages::

    data -> models -> training -> decoding -> evaluation -> plots

``experiments`` holds what the chapters study beside the models (the hand-checked toy, the
recall task, n-gram baselines, gradient flow); ``commands`` the command-line tools;
``presets`` the shipped training configurations. A trained run, from Python::

    import companion
    t = companion.load("runs/transformer")     # a run directory or a checkpoint file
    t.translate(["고양이가 물을 마신다"], beam=5)
    t.score(sources, references)               # {"bleu": ..., "chrf": ...}
"""

__version__ = "0.1.0"


def load(path, device=None):
    """A trained run (a ``companion train`` run directory or a checkpoint file) as a
    :class:`companion.translator.Translator` on ``device`` (default: CUDA if available, else
    the CPU): ``.translate(sentences)`` (the run's decoding settings unless overridden) and
    ``.score(sources, references)``."""
    from companion.translator import Translator  # torch is imported on first use, not by `import companion`

    return Translator.load(path, device)
