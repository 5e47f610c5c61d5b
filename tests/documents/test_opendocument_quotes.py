"""Quotes inside a sentence of an OpenDocument paragraph (attnmt.documents.office.job_results): read and written as
an HTML page's are (attnmt.documents.quote_forms), the model given the words without their marks and the quote
written around their translation in the target language's form.  Upper upper-cases each sentence."""

import io
import zipfile

import pytest
from office_files import calc_file, odt_span, presentation_file, read_members, write_members

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

GERMAN = DocumentOptions(target_lang="de")


def content(data: bytes) -> str:
    return zipfile.ZipFile(io.BytesIO(data)).read("content.xml").decode()


def with_text(data: bytes, old: str, new: str) -> bytes:
    """``data``, an OpenDocument file, with ``old`` in its content.xml written ``new``."""
    members = read_members(data)
    assert old.encode() in members["content.xml"]
    members["content.xml"] = members["content.xml"].replace(old.encode(), new.encode())
    return write_members(members)


def test_a_quote_inside_a_text_documents_sentence_is_written_in_the_target_form(upper):
    """It stopped the whole file: TypeError: 'Quote' object does not support item deletion."""
    data = odt_span('The girl said "hello" to ', "the old", " man.", fontweight="bold")
    out = content(translate_office(data, ".odt", upper, GERMAN))
    assert 'THE GIRL SAID „HELLO“ TO <text:span text:style-name="T1">THE OLD</text:span> MAN.</text:p>' in out
    assert upper.given == ["The girl said hello to the old man."]


@pytest.mark.parametrize("make, suffix, old", [(presentation_file, ".odp", "The boy laughs."),
                                               (calc_file, ".ods", "A dog runs.")])
def test_a_quote_on_a_slide_or_in_a_cell_is_written_in_the_target_form(upper, make, suffix, old):
    data = with_text(make(), old, "He read “The Times” in the garden.")
    assert "HE READ „THE TIMES“ IN THE GARDEN." in content(translate_office(data, suffix, upper, GERMAN))


def test_a_quote_in_a_text_document_of_no_target_language_stays_as_written(upper):
    data = odt_span("He said 'yes' to ", "the", " dog.", fontweight="bold")
    out = content(translate_office(data, ".odt", upper, DocumentOptions()))
    assert "HE SAID 'YES' TO <text:span text:style-name=\"T1\">THE</text:span> DOG.</text:p>" in out
