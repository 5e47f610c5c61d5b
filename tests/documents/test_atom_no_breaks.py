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
