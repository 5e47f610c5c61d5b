"""Word's IF field (attnmt.documents.word_conditions): its two texts, what a reader sees, are
translated in its code, and its result with them; the compared values and every other part of the
code are kept.

The Mirror translator writes each sentence's words upper-cased in reverse order:
"Dear Madam" -> "MADAM DEAR"."""

import io

import docx
import pytest
from office_files import W, code_run, complex_field, field_char, read_members, text_run, word_paragraph
from support import everything_listed

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

MERGE = complex_field(" MERGEFIELD Gender ", "«Gender»")


def if_field(after: str, result: str = "Dear Sir") -> str:
    """{ IF { MERGEFIELD Gender }<after> }, its result ``result``, as Word writes it."""
    return (field_char("begin") + code_run(" IF ") + MERGE + code_run(after) + field_char("separate") + text_run(result)
            + field_char("end"))


def translated(paragraph: str, translator) -> tuple[str, str]:
    """The code of the translated document's first paragraph (its w:instrText, joined) and its text as
    python-docx reads it (the fields' results among the runs' text)."""
    out = translate_office(word_paragraph(paragraph), ".docx", translator, DocumentOptions())
    body = docx.Document(io.BytesIO(out)).paragraphs[0]
    codes = "".join(node.text or "" for node in body._p.iter(f"{{{W}}}instrText"))
    return codes, "".join(node.text or "" for node in body._p.iter(f"{{{W}}}t"))


def test_an_if_fields_two_texts_and_its_result_are_translated_and_the_compared_value_kept(mirror):
    """A letter's greeting, { IF { MERGEFIELD Gender } = "F" "Dear Madam" "Dear Sir" }, alone in its
    paragraph with a comma: kept whole, it greeted the reader in English whatever the field chose."""
    codes, shown = translated(if_field(' = "F" "Dear Madam" "Dear Sir" ') + text_run(","), mirror)
    assert codes == ' IF  MERGEFIELD Gender  = "F" "MADAM DEAR" "SIR DEAR" '
    assert shown == "«Gender»SIR DEAR,"
    assert sorted(mirror.given) == ["Dear Madam", "Dear Sir"]


def test_an_if_field_inside_a_sentence_is_translated_with_it(mirror):
    paragraph = text_run("We thank you, ") + if_field(' = "F" "madam" "sir" ', "sir") + text_run(", a lot.")
    codes, shown = translated(paragraph, mirror)
    assert codes == ' IF  MERGEFIELD Gender  = "F" "MADAM" "SIR" '
    assert "«Gender»SIR" in shown and "THANK WE" in shown
    assert sorted(mirror.given) == ["We thank you, , a lot.", "madam", "sir"]


@pytest.mark.parametrize(("after", "expected"), [
    (' = "F" "Dear Madam" \\* MERGEFORMAT ', ' = "F" "MADAM DEAR" \\* MERGEFORMAT '),  # one text and a switch
    (' = 1 Paid "Not paid" ', ' = 1 PAID "PAID NOT" '),  # a text of one word needs no quotes
    (' = "yes" "Say \\"hi\\" now" "No" ', ' = "yes" "NOW \\"HI\\" SAY" "NO" '),  # a quote in a text, escaped
])
def test_an_if_fields_texts_are_read_as_word_writes_them(mirror, after, expected):
    codes, _ = translated(if_field(after, "Dear Sir"), mirror)
    assert codes == " IF  MERGEFIELD Gender " + expected


def test_an_if_fields_text_that_holds_a_field_is_kept(mirror):
    """"Dear { MERGEFIELD Name }": the text holds a field, which no translation can place; the other is read."""
    after = code_run(' = "F" "Dear ') + complex_field(" MERGEFIELD Name ", "«Name»") + code_run('" "Hello there" ')
    paragraph = (field_char("begin") + code_run(" IF ") + MERGE + after + field_char("separate")
                 + text_run("Hello there") + field_char("end"))
    codes, shown = translated(paragraph, mirror)
    assert codes == ' IF  MERGEFIELD Gender  = "F" "Dear  MERGEFIELD Name " "THERE HELLO" '
    assert shown == "«Gender»«Name»THERE HELLO" and mirror.given == ["Hello there"]


def test_a_simple_if_field_is_translated_in_its_code_and_result(mirror):
    field = ('<w:fldSimple w:instr=\' IF "a" = "b" "Call us today" "Write to us" \'>'
             f'{text_run("Write to us")}</w:fldSimple>')
    out = translate_office(word_paragraph(field), ".docx", mirror, DocumentOptions())
    document = read_members(out)["word/document.xml"].decode()
    assert 'w:instr=" IF &quot;a&quot; = &quot;b&quot; &quot;TODAY US CALL&quot; &quot;US TO WRITE&quot; "' \
        in document and ">US TO WRITE</w:t>" in document


def test_a_field_of_another_kind_keeps_its_quoted_texts(mirror):
    """A MERGEFIELD's \\b "Dear " switch or a QUOTE field is no IF's choice: nothing of it is read."""
    paragraph = complex_field(' QUOTE "Dear Sir" ', "Dear Sir")
    codes, shown = translated(paragraph, mirror)
    assert (codes, shown, mirror.given) == (' QUOTE "Dear Sir" ', "Dear Sir", [])


def test_an_if_fields_texts_split_over_several_codes_are_translated_to_their_length(known):
    """Word splits a code where it was typed at different times: the texts, each over three w:instrText
    here, were kept; and the second text, written after the first grew, landed in the first's place."""
    translator = known({"Dear Madam": ("Sehr geehrte Frau", [(0, 0), (1, 2)]),
                        "Dear Sir": ("Sehr geehrter Herr", [(0, 0), (1, 2)])})
    after = code_run(' = "F" "Dear') + code_run(" Madam") + code_run('" "Dear') + code_run(" Sir") + code_run('" ')
    codes, shown = translated(if_field("", "Dear Sir").replace(code_run(""), after), translator)
    assert codes == ' IF  MERGEFIELD Gender  = "F" "Sehr geehrte Frau" "Sehr geehrter Herr" '
    assert shown == "«Gender»Sehr geehrter Herr"


def test_an_if_field_inside_a_link_fields_words_is_translated(mirror):
    """A link field whose words hold an IF field ("Click <the { IF ... } page> to learn more."): the
    link's words were written from the copies read before the IF field's texts were translated, and
    its code and result stayed in the source."""
    link = (field_char("begin") + code_run(' HYPERLINK "https://example.com/" ') + field_char("separate")
            + text_run("the ") + if_field(' = "F" "Dear Madam" "Dear Sir" ') + text_run(" page") + field_char("end"))
    codes, shown = translated(text_run("Click ") + link + text_run(" to learn more."), mirror)
    assert codes == ' HYPERLINK "https://example.com/"  IF  MERGEFIELD Gender  = "F" "MADAM DEAR" "SIR DEAR" '
    assert "«Gender»SIR DEAR" in shown
    assert sorted(mirror.given) == ["Click the page to learn more.", "Dear Madam", "Dear Sir"]


def reviewed_row(translator) -> tuple[str, str]:
    """(source, translation) of the review's row of "Yesterday {IF ...}the old man{} walked his dog."."""
    review = everything_listed()
    paragraph = text_run("Yesterday ") + if_field(' = "F" "the tall woman" "the old man" ', "the old man") + text_run(
        " walked his dog.")
    translate_office(word_paragraph(paragraph), ".docx", translator, DocumentOptions(), review=review)
    row = review.rows()[0]
    return row["source"], row["translation"]


def test_a_review_row_shows_nothing_of_a_field_nested_in_an_if_fields_code(upper):
    """The merge field's result inside the IF field's code shows nowhere: the row showed "Yesterday «Gender»the old
    man walked his dog."."""
    assert reviewed_row(upper)[0] == "Yesterday the old man walked his dog."


def test_a_review_row_shows_an_if_fields_result_as_its_translation(upper):
    """The result shows its text's translation once the sentence is reviewed: the row showed its English."""
    assert reviewed_row(upper)[1] == "YESTERDAY THE OLD MAN WALKED HIS DOG."


def test_an_if_fields_texts_inside_a_sentence_are_written_as_parts_of_it(sentencing):
    """Each text translated alone came back a sentence's start: "Gestern ging Der alte Mann mit seinem Hund."."""
    translator = sentencing({"the old woman": "Die alte Frau.", "the old man": "Der alte Mann.",
                             "Yesterday walked his dog.": "Gestern ging mit seinem Hund."})
    paragraph = (text_run("Yesterday ") + if_field(' = "F" "the old woman" "the old man" ', "the old man")
                 + text_run(" walked his dog."))
    out = translate_office(word_paragraph(paragraph), ".docx", translator, DocumentOptions(target_lang="de"))
    body = docx.Document(io.BytesIO(out)).paragraphs[0]._p
    assert "".join(node.text or "" for node in body.iter(f"{{{W}}}instrText")).endswith(
        ' = "F" "die alte Frau" "der alte Mann" ')
    shown = "".join(node.text or "" for node in body.iter(f"{{{W}}}t"))
    assert shown == "Gestern «Gender»der alte Mann ging mit seinem Hund."


def test_an_if_fields_texts_own_review_rows_show_them_as_written(sentencing):
    """Each text's row showed the model's sentence, "Der alte Mann.", where the field's code holds "der alte Mann"."""
    review = everything_listed()
    translator = sentencing({"the old woman": "Die alte Frau.", "the old man": "Der alte Mann."})
    paragraph = (text_run("Yesterday ") + if_field(' = "F" "the old woman" "the old man" ', "the old man")
                 + text_run(" walked his dog."))
    translate_office(word_paragraph(paragraph), ".docx", translator, DocumentOptions(target_lang="de"),
                     review=review)
    rows = {row["source"]: row["translation"] for row in review.rows()}
    assert (rows["the old woman"], rows["the old man"]) == ("die alte Frau", "der alte Mann")
