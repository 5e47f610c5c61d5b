"""No-break spaces beside kept atoms (attnmt.documents.atom_no_breaks): they go out of what the model reads with
their atom, and come back where they stood, in order, whatever the translation does with the words around."""

import io

import docx
import pytest
from office_files import docx_bytes

from attnmt.documents.markup import translate_markup
from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions


@pytest.mark.parametrize("between", ["&nbsp;", " &nbsp; ", "&#8239;", "&#8201;"])
@pytest.mark.parametrize("first, second", [("https://a.example/x", "https://b.example/y"),
                                           ("anna@example.com", "tom@example.org"),
                                           ("<code>make</code>", "<code>test</code>"),
                                           ("<a href='#'>https://a.example/x</a>", "<a href='#'>tom@example.org</a>")])
def test_two_atoms_a_no_break_space_apart_keep_it_between_them(mirror, between, first, second):
    """It stayed in the text before them: the model read "Go to \u00a0 now." (Mirror: "NOW. \u00a0 TO GO" has
    none) and the page came back "Go to &nbsp; https://a.example/x https://b.example/y", the space moved."""
    page = f"<p>Go to {first}{between}{second} now.</p>"
    assert translate_markup([page], mirror) == [f"<p>{first}{between}{second} NOW. TO GO</p>"]
    assert mirror.given == ["Go to now."]


@pytest.mark.parametrize("page", ["<p>Go to &nbsp; https://a.example/x https://b.example/y now.</p>",
                                  "<p>Go to&nbsp;https://a.example/x now.</p>",
                                  "<p>Write&#8239;<code>ls</code> today.</p>",
                                  "<p>Visit https://a.example/x&nbsp; and more.</p>",
                                  "<p>Mail anna@example.com&nbsp;today, please.</p>"])
def test_a_no_break_space_before_or_after_atoms_comes_back_beside_them(same, page):
    """The model reads one plain space there, and the atoms write theirs back as it was: a translation that
    keeps the words in their order gives the page back byte for byte."""
    assert translate_markup([page], same) == [page]
    assert all("\u00a0" not in read and "\u202f" not in read for read in same.given)


def test_a_no_break_space_after_an_atom_goes_with_it_where_the_words_turn_round(mirror):
    assert translate_markup(["<p>Visit https://a.example/x&nbsp; and more.</p>"], mirror) == [
        "<p>MORE. https://a.example/x&nbsp; AND VISIT</p>"]
    assert mirror.given == ["Visit and more."]


@pytest.mark.parametrize("suffix", [".html", ".docx"])
def test_a_translation_written_with_plain_spaces_gets_the_no_break_space_back(fixed, suffix):
    """As the model writes it: "Go to\u00a0https://a.example/x now." read "Go to\u00a0now.", and the translation's
    plain spaces left the no-break space out, in a web page and in a Word file."""
    text, translator = "Go to\u00a0https://a.example/x now.", fixed("GEH ZU JETZT.", [(0, 0), (1, 1), (2, 2)])
    if suffix == ".html":
        assert translate_markup([f"<p>{text}</p>"], translator) == ["<p>GEH ZU\u00a0https://a.example/x JETZT.</p>"]
    else:
        document = docx.Document()
        document.add_paragraph(text)
        out = translate_office(docx_bytes(document), ".docx", translator, DocumentOptions())
        assert docx.Document(io.BytesIO(out)).paragraphs[0].text == "GEH ZU\u00a0https://a.example/x JETZT."
    assert translator.given == ["Go to now."]


@pytest.mark.parametrize("page, read", [
    ("<p>Go to&nbsp;<b>https://a.example/x</b> now.</p>", "Go to now."),
    ("<p>Mail&#8239;<a href='mailto:anna@example.com'>anna@example.com</a> today.</p>", "Mail today."),
    ("<p>Run &nbsp;<em><code>make test</code></em> twice.</p>", "Run twice.")])
def test_a_no_break_space_before_an_element_an_atom_fills_comes_back(same, page, read):
    """The space stood outside the element, where the atoms' own spacing is not written: it came back plain."""
    assert translate_markup([page], same) == [page]
    assert same.given == [read]


@pytest.mark.parametrize("page, translated", [
    ("<p>Go to&nbsp;https://a.example/x now.</p>", "<p>https://a.example/x&nbsp;NOW. TO GO</p>"),
    ("<p>Go to&nbsp;<b>https://a.example/x</b> now.</p>", "<p><b>https://a.example/x</b>&nbsp;NOW. TO GO</p>"),
    ("<p>Go to &#8239;https://a.example/x https://b.example/y now.</p>",
     "<p>https://a.example/x https://b.example/y &#8239;NOW. TO GO</p>")])
def test_a_no_break_space_before_atoms_the_translation_puts_first_goes_after_them(mirror, page, translated):
    """Nothing is written before them there (a space would show as an indent), and it was lost: it takes the place
    of the translation's space after them, before its words, and stays beside them."""
    assert translate_markup([page], mirror) == [translated]


@pytest.mark.parametrize("page, translated", [
    ("<p>Done. Go to&nbsp;https://a.example/x now.</p>", "<p>DONE. https://a.example/x&nbsp;NOW. TO GO</p>"),
    ("<p>Thanks. Mail&#8239;anna@example.com today.</p>", "<p>THANKS. anna@example.com&#8239;TODAY. MAIL</p>"),
    ("<p>Ready? Run&nbsp;<code>make</code> now!</p>", "<p>READY? <code>make</code>&nbsp;NOW! RUN</p>"),
    ("<p>One. Two. Visit&#8201;<a href='https://b.example'>https://b.example</a> soon. Three.</p>",
     "<p>ONE. TWO. <a href='https://b.example'>https://b.example</a>&#8201;SOON. VISIT THREE.</p>"),
    ("<p>Done.<br>Go to&nbsp;https://a.example/x now.</p>", "<p>DONE.<br>https://a.example/x&nbsp;NOW. TO GO</p>"),
    ("<p>Done. Go <b>to&nbsp;https://a.example/x now.</b></p>",
     "<p>DONE. <b>https://a.example/x&nbsp;NOW. TO</b> GO</p>")])
def test_a_no_break_space_before_atoms_that_open_a_later_sentence_goes_after_them(mirror, page, translated):
    """The space before them is the gap after the sentence before, not the one before them in their own sentence:
    it took the no-break space, which came back between the two sentences (``DONE.&nbsp;https://a.example/x NOW.``)
    or after a <br>, where it shows as an indent."""
    assert translate_markup([page], mirror) == [translated]


def test_a_no_break_space_before_atoms_that_open_a_later_sentence_goes_after_them_in_a_word_file(mirror):
    document = docx.Document()
    document.add_paragraph("Done. Go to\u00a0https://a.example/x now.")
    out = translate_office(docx_bytes(document), ".docx", mirror, DocumentOptions())
    assert docx.Document(io.BytesIO(out)).paragraphs[0].text == "DONE. https://a.example/x\u00a0NOW. TO GO"
