"""The book's codec repair: future_typing's catch-all codec must not shadow latexcodec."""

import codecs
import importlib.util

import pytest

from companion.booksetup import unregister_future_typing_codec


@pytest.mark.skipif(importlib.util.find_spec("future_typing") is None, reason="future_typing not installed")
def test_latex_codec_works_after_the_repair():
    import future_typing
    import latexcodec  # noqa: F401

    future_typing.register()
    future_typing.register()  # registered twice, as the .pth hook can do
    assert codecs.lookup("companion-no-such-codec").name == "future_typing"
    assert unregister_future_typing_codec() is True
    with pytest.raises(LookupError):
        codecs.lookup("companion-no-such-codec")
    assert codecs.decode("Gers and J{\\\"u}rgen", "ulatex") == "Gers and J{ü}rgen"
    assert unregister_future_typing_codec() is False


def test_hangul_fonts_are_copied_for_the_stylesheet(tmp_path):
    from companion.booksetup import STATIC, copy_hangul_fonts

    written = copy_hangul_fonts(tmp_path)
    assert [p.name for p in written] == ["NanumGothic.ttf", "NanumGothicBold.ttf"]
    assert all(p.stat().st_size > 1_000_000 for p in written)
    css = (STATIC / "hangul.css").read_text(encoding="utf-8")
    for p in written:
        assert f'url("fonts/{p.name}")' in css
