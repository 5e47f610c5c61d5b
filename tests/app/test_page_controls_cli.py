"""``attnmt translate page.html out.html`` of a page holding a control character XML cannot hold
(U+0001), in its text and in an ``alt``: it stopped in lxml's bare ValueError ("All strings must be
XML compatible"); the page is translated, the character written as its reference (``&#1;``)."""

from pathlib import Path

from lxml import html
from support import run_cli

from attnmt.documents import translators

RELEASE_0_1_0 = Path(__file__).parents[1] / "fixtures" / "model_0.1.0"
PAGE = ('<!DOCTYPE html>\n<html><head><title>A dog runs.</title></head><body>\n'
        '<p>A dog runs.\x01 The boy laughs.</p>\n'
        '<p><img src="a.png" alt="A cat sleeps.\x01 A dog runs."> The cat\x01 sleeps.</p>\n</body></html>\n')


def translated(tmp_path, capsys) -> str:
    source, output = tmp_path / "page.html", tmp_path / "out.html"
    source.write_text(PAGE, encoding="utf-8")
    code, _, err = run_cli(["translate", "--model", RELEASE_0_1_0, "--beam", "1", source, output], capsys)
    assert code == 0 and err == ""
    return output.read_text(encoding="utf-8")


def test_a_page_with_a_control_character_is_translated_with_the_character_between_its_sentences(tmp_path, capsys):
    """The model writes no such character (its tokenizer reads none), but the space between two
    sentences is the page's own, and keeps it."""
    written = translated(tmp_path, capsys)
    page = html.document_fromstring(written)
    assert "\x01" not in written and "&#1;" in written
    assert "\x01" in page.find("body/p").text_content() and "\x01" in page.find(".//img").get("alt")


def test_a_page_with_a_control_character_comes_back_with_every_word(tmp_path, capsys, monkeypatch):
    """Each sentence translated as itself: the page reads as it did, the characters and every word."""
    monkeypatch.setattr(translators, "translate_assessed", lambda model, tokenizer, sentences, *rest, **named:
                        (list(sentences), [None] * len(sentences), [None] * len(sentences)))
    written = translated(tmp_path, capsys)
    page, source = html.document_fromstring(written), html.document_fromstring(PAGE)
    assert "\x01" not in written and written.count("&#1;") == 3
    assert page.text_content() == source.text_content()
    assert page.find(".//img").get("alt") == "A cat sleeps.\x01 A dog runs."


def test_a_page_with_a_control_character_after_its_end_is_translated(tmp_path, capsys):
    """What follows </html> (a server's footer) is moved into the <body>, where browsers show it: set anew there,
    its U+0001 stopped the command in lxml's bare ValueError."""
    source, output = tmp_path / "after.html", tmp_path / "out.html"
    source.write_text("<!DOCTYPE html>\n<html><body><p>A dog runs.</p></body></html>\n\x01 Served by nginx.\n",
                      encoding="utf-8")
    code, _, err = run_cli(["translate", "--model", RELEASE_0_1_0, "--beam", "1", source, output], capsys)
    assert code == 0 and err == ""
    written = output.read_text(encoding="utf-8")
    assert "\x01" not in written and "&#1;" in written
    assert "\x01" in html.document_fromstring(written).find("body").text_content()
