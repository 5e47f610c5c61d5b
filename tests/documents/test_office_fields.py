"""Word's fields (attnmt.documents.fields): a link's, a fill-in's, a form text box's or an index or
contents mark's result is read as a mark over its words, as a w:hyperlink is; every other field's
result is kept as Word computed it.

The Mirror translator writes each sentence's words upper-cased in reverse order, each aligned to
its source word: "Click the help page to learn more." -> "MORE. LEARN TO PAGE HELP THE CLICK"."""

import io

import docx
import pytest
from lxml import etree
from office_files import code_run, field_char, read_members, text_run, w, word_paragraph
from support import everything_listed

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

LINK = ' HYPERLINK "https://example.com/help" '
STYLE = '<w:rPr><w:rStyle w:val="Hyperlink"/></w:rPr>'


def code_runs(code: str) -> str:
    """A complex field's begin, code and separator, a run each, as Word writes them."""
    return field_char("begin") + code_run(code) + field_char("separate")


END = field_char("end")


def click(result: str, code: str = LINK) -> str:
    """"Click <result> to learn more.", the result a complex field of ``code``."""
    return text_run("Click ") + code_runs(code) + result + END + text_run(" to learn more.")


def translated(runs: str, translator) -> bytes:
    return translated_file(word_paragraph(runs), translator)


def translated_file(data: bytes, translator) -> bytes:
    return translate_office(data, ".docx", translator, DocumentOptions())


def first_paragraph(data: bytes) -> etree._Element:
    return etree.fromstring(read_members(data)["word/document.xml"]).find(f".//{w('p')}")


def pieces(container: etree._Element) -> list[str]:
    """What each part of the runs in ``container`` is: a field character's type, a code, a bookmark's
    edge, a text (a run's text all one piece)."""
    found: list[str] = []
    for node in container.iter(w("fldChar"), w("instrText"), w("t"), w("bookmarkStart"), w("bookmarkEnd")):
        if node.tag == w("t") and node.getprevious() is not None and node.getprevious().tag == w("t"):
            found[-1] += node.text
        else:
            found.append(node.get(w("fldCharType")) or node.text or etree.QName(node).localname)
    return found


def looks(data: bytes) -> list[tuple[str, str | None]]:
    """(text, character style) of each run with text of a Word file's first paragraph, read by python-docx."""
    runs = docx.Document(io.BytesIO(data)).paragraphs[0].runs
    return [(run.text, run.element.style) for run in runs if run.text]


def test_a_link_fields_words_are_translated_inside_the_field(mirror):
    """The model read "Click to learn more.", and "the help page" stayed English in the translation."""
    out = translated(click(text_run("the help page", STYLE)), mirror)
    assert mirror.given == ["Click the help page to learn more."]
    assert pieces(first_paragraph(out)) == ["MORE. LEARN TO ", "begin", LINK, "separate", "PAGE HELP THE", "end",
                                            " CLICK"]
    assert looks(out) == [("MORE. LEARN TO ", None), ("PAGE HELP THE", "Hyperlink"), (" CLICK", None)]


def test_a_simple_link_fields_words_are_translated_inside_it(mirror):
    field = (f'<w:fldSimple w:instr=" HYPERLINK &quot;https://example.com/&quot; ">{text_run("the big park")}'
             "</w:fldSimple>")
    out = translated(text_run("Visit ") + field + text_run(" with the dog."), mirror)
    assert mirror.given == ["Visit the big park with the dog."]
    simple = first_paragraph(out).find(w("fldSimple"))
    assert (pieces(simple), simple.get(w("instr"))) == (["PARK BIG THE"], ' HYPERLINK "https://example.com/" ')
    assert pieces(first_paragraph(out)) == ["DOG. THE WITH ", "PARK BIG THE", " VISIT"]


@pytest.mark.parametrize("code", [" TITLE \\* MERGEFORMAT ", ' DOCPROPERTY "Subject" '], ids=["title", "subject"])
def test_a_field_of_a_translated_property_is_translated_inside_it(mirror, code):
    """The document's title (and subject) in its properties is translated; a field showing it stayed in
    the source until someone updated the fields."""
    field = f"<w:fldSimple w:instr='{code}'>{text_run('The old house')}</w:fldSimple>"
    out = translated(text_run("Welcome to ") + field + text_run(" today."), mirror)
    assert mirror.given == ["Welcome to The old house today."]
    simple = first_paragraph(out).find(w("fldSimple"))
    assert (pieces(simple), simple.get(w("instr"))) == (["HOUSE OLD THE"], code)


def test_a_field_of_another_property_is_kept(mirror):
    """An author's name, a company's: names and data, kept as Word computed them."""
    field = f'<w:fldSimple w:instr=" DOCPROPERTY Company ">{text_run("Green Tree Books")}</w:fldSimple>'
    translated(text_run("Printed by ") + field + text_run(" in May."), mirror)
    assert mirror.given == ["Printed by in May."]


def test_a_fill_in_fields_text_is_translated_inside_the_field(mirror):
    """The text someone typed at Word's prompt (FILLIN), here a whole paragraph, stayed English and
    was in no review."""
    out = translated(code_runs(' FILLIN "What is he doing?" ') + text_run("A man is cooking dinner.") + END, mirror)
    assert mirror.given == ["A man is cooking dinner."]
    assert pieces(first_paragraph(out)) == ["begin", ' FILLIN "What is he doing?" ', "separate",
                                            "DINNER. COOKING IS MAN A", "end"]


@pytest.mark.parametrize("code", [' XE "orange cat" ', ' TC "orange cat" \\l 1 '],
                         ids=["index-entry", "contents-entry"])
def test_the_words_an_index_or_contents_entry_marks_are_translated_inside_the_field(mirror, code):
    """LibreOffice writes the words its index or contents mark spans as the field's result (Word
    writes none): kept, the model read "An sits on the wall." and "orange cat" stayed English.  The
    entry in the code is translated too (attnmt.documents.index_entries)."""
    field = code_runs(code) + text_run("orange cat") + END
    out = translated(text_run("An ") + field + text_run(" sits on the wall."), mirror)
    assert mirror.given == ["An orange cat sits on the wall.", "orange cat"]
    assert pieces(first_paragraph(out)) == ["WALL. THE ON SITS ", "begin", code.replace("orange cat", "CAT ORANGE"),
                                            "separate", "CAT ORANGE", "end", " AN"]


def test_an_index_entrys_levels_and_cross_reference_are_translated_in_its_code(mirror):
    """Word builds the index again from its XE fields' codes: kept, updating the fields brought back an
    English index.  Each level of an entry is translated apart, its switches kept; a code Word split
    over two instrText elements is written whole into the first."""
    split = field_char("begin") + code_run(' XE "Fruit:red') + code_run(' apple" \\t "See also park" \\f "a" ') + END
    simple = '<w:fldSimple w:instr=" XE &quot;Opening times\\: summer&quot; \\b "/>'
    out = first_paragraph(translated(text_run("A red apple") + split + text_run(" and a pear.") + simple, mirror))
    codes = [node.text or "" for node in out.iter(w("instrText"))] + [out.find(w("fldSimple")).get(w("instr"))]
    assert codes == [' XE "FRUIT:APPLE RED" \\t "PARK ALSO SEE" \\f "a" ', "",
                     ' XE "SUMMER TIMES\\: OPENING" \\b ']


def test_an_index_entrys_words_keep_the_looks_of_their_runs_in_its_code(mirror):
    """Word lists an entry in the looks its code's runs give it ("Bold" bold in the index): written
    whole into the code's first run, the translated entry lost them.  The words are carried by
    alignment, each level apart; the code around them keeps its runs."""
    bold = "<w:rPr><w:b/></w:rPr>"

    def code(text: str, look: str = "") -> str:
        return f'<w:r>{look}<w:instrText xml:space="preserve">{text}</w:instrText></w:r>'

    entry = ('<w:r><w:fldChar w:fldCharType="begin"/></w:r>' + code(' XE "') + code("Bold", bold)
             + code(' term:red apple" \\t "See also park" ') + END)
    out = first_paragraph(translated(text_run("A bold term.") + entry, mirror))
    codes = [(node.text, node.getparent().find(f"{w('rPr')}/{w('b')}") is not None)
             for node in out.iter(w("instrText"))]
    assert codes == [(' XE "TERM ', False), ("BOLD", True), (':APPLE RED" \\t "PARK ALSO SEE" ', False)]
    assert pieces(out) == ["TERM. BOLD A", "begin", ' XE "TERM ', "BOLD", ':APPLE RED" \\t "PARK ALSO SEE" ', "end"]


def test_a_review_lists_an_index_entrys_words_after_the_paragraphs_of_their_part(mirror):
    """Translated in the code alone, an entry was never listed: a wrong index heading could not be
    found and corrected.  Each level is listed once, at the part holding it, after its paragraphs."""
    review = everything_listed()
    entry = code_runs(' XE "Fruit:red apple" ') + END
    translate_office(word_paragraph(text_run("A red apple.") + entry), ".docx", mirror, DocumentOptions(),
                     review=review)
    rows = [(row["part"], row["paragraph"], row["source"], row["translation"]) for row in review.rows()]
    assert rows == [("word/document.xml", 1, "A red apple.", "APPLE. RED A"),
                    ("word/document.xml", 2, "Fruit", "FRUIT"), ("word/document.xml", 3, "red apple", "APPLE RED")]


def test_an_index_is_translated_as_its_paragraphs_words(mirror):
    """Word shows the index it last built until someone updates the fields: kept, a translated book
    ended with an English index.  Each entry is translated, its tab and pages kept."""
    index = code_runs(' INDEX \\e "\t" \\c "2" \\z "1033" ')
    data = word_paragraph(index + text_run("apple tree") + '<w:r><w:tab/><w:t>3, 7</w:t></w:r>',
                          text_run("orange cat") + '<w:r><w:tab/><w:t>12</w:t></w:r>' + END)
    out = etree.fromstring(read_members(translated_file(data, mirror))["word/document.xml"])
    assert mirror.given == ["apple tree", "orange cat"]
    assert [pieces(paragraph) for paragraph in out.iter(w("p"))] == [
        ["begin", ' INDEX \\e "\t" \\c "2" \\z "1033" ', "separate", "TREE APPLE", "3, 7"],
        ["CAT ORANGE", "12", "end"]]


# A form's text box as LibreOffice writes a .doc's: its properties in the begin, empty runs about its result.
FORM_BEGIN = ('<w:r><w:fldChar w:fldCharType="begin"><w:ffData><w:name w:val="name"/><w:enabled/>'
              '<w:calcOnExit w:val="0"/><w:textInput/></w:ffData></w:fldChar></w:r>')
EMPTY_RUN = "<w:r><w:rPr></w:rPr></w:r>"


def test_a_form_text_boxs_text_is_translated_inside_the_field(mirror):
    """What a FILLIN becomes through a .doc (FORMTEXT): kept, its text stayed English and was moved
    to the sentence's front ("your name here Ein ... .")."""
    field = (FORM_BEGIN + '<w:r><w:instrText xml:space="preserve"> FORMTEXT </w:instrText></w:r>' + EMPTY_RUN
             + '<w:r><w:fldChar w:fldCharType="separate"/></w:r>' + text_run("your name here") + EMPTY_RUN + END)
    out = translated(text_run("Type ") + field + text_run(" in the box."), mirror)
    assert mirror.given == ["Type your name here in the box."]
    assert pieces(first_paragraph(out)) == ["BOX. THE IN ", "begin", " FORMTEXT ", "separate", "HERE NAME YOUR",
                                            "end", " TYPE"]
    assert first_paragraph(out).find(f".//{w('ffData')}/{w('name')}").get(w("val")) == "name"


BLANK = "\u2002" * 5  # the result Word writes for a blank form text box: five en spaces


@pytest.mark.parametrize(("before", "after", "given", "expected"), [
    ("Name: ", "", "Name:", ["NAME: ", "begin", " FORMTEXT ", "separate", BLANK, "end"]),
    ("Type ", " in the box.", "Type in the box.",
     ["BOX. THE ", "begin", " FORMTEXT ", "separate", BLANK, "end", " IN TYPE"]),
], ids=["at-the-end", "between-words"])
def test_a_blank_form_text_boxs_spaces_are_kept_as_they_were(mirror, before, after, given, expected):
    """Read as a mark over no words, the five en spaces became one ASCII space, the space before the
    field was lost or moved inside it.  A result of spaces alone is kept, as before FORMTEXT was read."""
    field = (FORM_BEGIN + '<w:r><w:instrText xml:space="preserve"> FORMTEXT </w:instrText></w:r>'
             + '<w:r><w:fldChar w:fldCharType="separate"/></w:r>' + text_run(BLANK) + END)
    out = translated(text_run(before) + field + (text_run(after) if after else ""), mirror)
    assert mirror.given == [given]
    assert pieces(first_paragraph(out)) == expected


def test_a_link_fields_runs_keep_their_looks_and_bookmarks_inside_it(mirror):
    """A bold word of the result lands on its translation; a bookmark inside stays inside the field;
    a code Word split over runs of their own looks is read whole, and kept as it was."""
    bold = '<w:rPr><w:rStyle w:val="Hyperlink"/><w:b/></w:rPr>'
    split = (f'<w:r>{bold}<w:fldChar w:fldCharType="begin"/></w:r><w:r>{bold}<w:instrText> HYPERLINK "</w:instrText>'
             f'</w:r><w:r><w:instrText>https://example.com/help" </w:instrText></w:r>'
             f'<w:r>{STYLE}<w:fldChar w:fldCharType="separate"/></w:r>')
    result = (text_run("the ", STYLE) + '<w:bookmarkStart w:id="7" w:name="help"/>' + text_run("help", bold)
              + text_run(" page", STYLE) + '<w:bookmarkEnd w:id="7"/>')
    out = translated(text_run("Click ") + split + result + END + text_run(" to learn more."), mirror)
    assert mirror.given == ["Click the help page to learn more."]
    inside = pieces(first_paragraph(out))
    assert inside[1:5] == ["begin", ' HYPERLINK "', 'https://example.com/help" ', "separate"]
    inside = inside[inside.index("separate") + 1:inside.index("end")]
    assert "".join(piece for piece in inside if piece.isupper() or piece == " ") == "PAGE HELP THE"
    assert inside.index("bookmarkStart") < inside.index("bookmarkEnd")
    runs = docx.Document(io.BytesIO(out)).paragraphs[0].runs
    assert [run.text for run in runs if run.bold and run.text] == ["HELP"]


def test_a_field_inside_a_link_fields_result_is_kept_there(mirror):
    """The result's own field (a page number) keeps its result; the words around it are read."""
    nested = code_runs(" PAGEREF _Ref1 \\h ") + text_run("3") + END
    out = translated(click(text_run("page ", STYLE) + nested), mirror)
    assert mirror.given == ["Click page to learn more."]
    assert pieces(first_paragraph(out)) == ["MORE. LEARN TO ", "begin", LINK, "separate", "PAGE ", "begin",
                                            " PAGEREF _Ref1 \\h ", "separate", "3", "end", "end", " CLICK"]


def test_text_outside_a_long_link_field_keeps_the_paragraphs_look(mirror):
    """The link's runs are no part of the paragraph's base look (as a w:hyperlink's are not): longer
    than the rest, the link's look went onto the words outside it."""
    out = translated(text_run("Read ") + code_runs(LINK) + text_run("the guide to the new project", STYLE) + END
                     + text_run(" now."), mirror)
    assert looks(out) == [("NOW. ", None), ("PROJECT NEW THE TO GUIDE THE", "Hyperlink"), (" READ", None)]


@pytest.mark.parametrize("code", [" PAGEREF _Ref1 \\h ", " DATE ", " PAGE "], ids=["page-reference", "date", "page"])
def test_any_other_fields_result_is_kept_as_word_computed_it(mirror, code):
    """A page reference, a date, a page number: Word computes them again."""
    out = translated(click(text_run("Chapter 1", STYLE), code), mirror)
    assert mirror.given == ["Click to learn more."]
    assert pieces(first_paragraph(out)) == ["MORE. LEARN ", "begin", code, "separate", "Chapter 1", "end",
                                            " TO CLICK"]


CROSS_REFERENCE = " REF _Ref55 \\h "


def test_a_cross_references_words_are_translated_inside_the_field(mirror):
    """Word shows a REF field's copy of its bookmark's words until someone updates the fields: kept, the
    model read "Click to learn more." and "the help page" stayed English inside the translation."""
    out = translated(click(text_run("the help page"), CROSS_REFERENCE), mirror)
    assert mirror.given == ["Click the help page to learn more."]
    assert pieces(first_paragraph(out)) == ["MORE. LEARN TO ", "begin", CROSS_REFERENCE, "separate", "PAGE HELP THE",
                                            "end", " CLICK"]


SEE = "See Feeding the small dog for the details."
TWICE = "Siehe kleinen Hund für den kleinen Hund."  # "small dog" aligned twice, "für den" to "for the" between
TWICE_PAIRS = [(0, 0), (3, 1), (4, 2), (5, 3), (6, 4), (3, 5), (4, 6)]


def see(result: str) -> str:
    return text_run("See ") + result + text_run(" for the details.")


@pytest.mark.parametrize("field", [
    code_runs(" REF _Toc9 \\h \\* MERGEFORMAT ") + text_run("Feeding the small dog") + END,
    code_runs(' DOCPROPERTY "Title" ') + text_run("Feeding the small dog") + END,
    '<w:fldSimple w:instr=" REF _Toc9 \\h ">' + text_run("Feeding the small dog") + "</w:fldSimple>",
], ids=["cross-reference", "title", "simple"])
def test_a_copied_fields_result_holds_its_own_words_and_leaves_the_sentences_between(known, field):
    """Word writes a REF field's result again from its bookmark on an update (F9, printing), and a title field's from
    the document's title: the demo model's "small dog" went to two places, and the result ran over the words between,
    "<Es wird ein kleiner Hund für den kleinen Hund>.", which an update deleted.  The result goes over one run of its
    own words; "für den" stays outside."""
    paragraph = first_paragraph(translated(see(field), known({SEE: (TWICE, TWICE_PAIRS)})))
    assert "".join(node.text for node in paragraph.iter(w("t"))) == TWICE
    assert result_text(paragraph) == "kleinen Hund"


def result_text(paragraph: etree._Element) -> str:
    """The text of the one field's result in ``paragraph``: a simple field's runs, or a complex one's after its
    separator."""
    simple = paragraph.find(f".//{w('fldSimple')}")
    if simple is not None:
        return "".join(node.text for node in simple.iter(w("t")))
    found = pieces(paragraph)
    return "".join(found[found.index("separate") + 1:found.index("end")])


def test_a_copied_fields_result_goes_over_the_run_its_words_attend_most(known):
    """"Feeding" aligned to the second "kleinen" too: the second run gives the field's words more attention."""
    field = code_runs(CROSS_REFERENCE) + text_run("Feeding the small dog") + END
    out = translated(see(field), known({SEE: (TWICE, [*TWICE_PAIRS, (1, 5)])}))
    assert pieces(first_paragraph(out)) == ["Siehe kleinen Hund für den ", "begin", CROSS_REFERENCE, "separate",
                                            "kleinen Hund", "end", "."]


def test_a_cross_reference_to_a_headings_number_is_read_and_kept_whole(mirror):
    """A REF field with \\n shows the heading's number alone: the model reads it in place ("See section for the dog."
    before), and the field comes back as Word wrote it over the model's copy of the number."""
    code = " REF _Ref55 \\n \\h "
    out = translated(text_run("See section ") + code_runs(code) + text_run("4") + END + text_run(" for the dog."),
                     mirror)
    assert mirror.given == ["See section 4 for the dog."]
    assert pieces(first_paragraph(out)) == ["DOG. THE FOR ", "begin", code, "separate", "4", "end", " SECTION SEE"]


def test_a_link_field_inside_another_fields_result_is_kept(mirror):
    """A text another file gives (INCLUDETEXT) holds a link; Word writes it again from that file."""
    entry = code_runs(LINK) + text_run("A dog in the park", STYLE) + END
    out = translated(text_run("Notes: ") + code_runs(' INCLUDETEXT "notes.docx" ') + entry + END, mirror)
    assert mirror.given == ["Notes"]  # a remark's name in a run of a look other than its value's: read alone
    assert "A dog in the park" in pieces(first_paragraph(out))


CONTENTS = ' TOC \\o "1-3" \\h \\z \\u '
ENTRY_LOOK = '<w:rPr><w:rStyle w:val="Hyperlink"/><w:noProof/></w:rPr>'


def contents_entry(heading: str, bookmark: str, page: str) -> str:
    """A table of contents' entry as Word writes it: the heading's words and, after a tab, its page
    number (a PAGEREF field), all in a link to the heading's bookmark."""
    return (f'<w:hyperlink w:anchor="{bookmark}">' + text_run(heading, ENTRY_LOOK) + '<w:r><w:tab/></w:r>'
            + code_runs(f" PAGEREF {bookmark} \\h ") + text_run(page) + END + "</w:hyperlink>")


def test_a_table_of_contents_entries_are_translated_and_its_fields_kept(mirror):
    """Kept as Word last wrote them, the entries stayed English above the translated headings
    until someone updated the fields; Word and LibreOffice showed them so on opening."""
    data = word_paragraph(code_runs(CONTENTS) + contents_entry("A dog in the park", "_Toc101", "1"),
                          contents_entry("The cat sleeps", "_Toc102", "2") + END)
    out = etree.fromstring(read_members(translated_file(data, mirror))["word/document.xml"])
    assert mirror.given == ["A dog in the park", "The cat sleeps"]
    first, second = out.iter(w("p"))
    assert pieces(first) == ["begin", CONTENTS, "separate", "PARK THE IN DOG A", "begin", " PAGEREF _Toc101 \\h ",
                             "separate", "1", "end"]
    assert pieces(second) == ["SLEEPS CAT THE", "begin", " PAGEREF _Toc102 \\h ", "separate", "2", "end", "end"]
    assert [link.get(w("anchor")) for link in out.iter(w("hyperlink"))] == ["_Toc101", "_Toc102"]


def test_a_table_of_contents_link_field_to_its_heading_is_read_as_a_link(mirror):
    """An older Word writes an entry's link as a HYPERLINK field to the heading's bookmark."""
    to_heading = ' HYPERLINK \\l "_Toc101" '
    entry = code_runs(to_heading) + text_run("A dog in the park", STYLE) + '<w:r><w:tab/></w:r>' + text_run("1") + END
    out = translated(code_runs(CONTENTS) + entry + END, mirror)
    assert mirror.given == ["A dog in the park"]
    assert pieces(first_paragraph(out)) == ["begin", CONTENTS, "separate", "begin", to_heading, "separate",
                                            "PARK THE IN DOG A", "1", "end", "end"]


SUPERSCRIPT = '<w:rPr><w:rStyle w:val="Hyperlink"/><w:vertAlign w:val="superscript"/></w:rPr>'


@pytest.mark.parametrize(("before", "shown", "after", "given"), [
    ("A dog runs in the park", "[1]", " and a cat sleeps.", ["A dog runs in the park and a cat sleeps."]),
    ("A dog runs in the park.", "12", " A cat sleeps.", ["A dog runs in the park.", "A cat sleeps."]),
    ("The dog runs fast.", "*", " The cat sleeps.", ["The dog runs fast.", "The cat sleeps."]),
    ("Call ", "555 1234", " now for help.", ["Call now for help."]),
], ids=["citation", "note-number", "star", "phone-number"])
def test_a_link_field_with_no_letter_is_kept_whole(mirror, before, shown, after, given):
    """Read with its sentence, a note's number glued "park." and "A cat sleeps." into one sentence
    ("park.12 A cat sleeps."), and the model lost the number and the second sentence."""
    out = translated(text_run(before) + code_runs(LINK) + text_run(shown, SUPERSCRIPT) + END + text_run(after),
                     mirror)
    assert mirror.given == given
    found = pieces(first_paragraph(out))
    assert found[found.index("begin"):found.index("end") + 1] == ["begin", LINK, "separate", shown, "end"]


SIMPLE = '<w:fldSimple w:instr=" HYPERLINK &quot;https://e.com/&quot; ">{}</w:fldSimple>'
HYPERLINK = '<w:hyperlink w:anchor="note12">{}</w:hyperlink>'


def test_a_simple_link_field_with_no_letter_is_kept_whole(mirror):
    """Word's other way to write a link field keeps a note's number whole too."""
    runs = text_run("A dog runs in the park.") + SIMPLE.format(text_run("12", SUPERSCRIPT)) + text_run(" A cat sleeps.")
    out = translated(runs, mirror)
    assert mirror.given == ["A dog runs in the park.", "A cat sleeps."]
    assert "".join(first_paragraph(out)[1].itertext()) == "12"


@pytest.mark.parametrize(("link", "before", "shown", "after", "given"), [
    (SIMPLE, "In", " 2024 ", "the dog ran in the park.", ["In 2024 the dog ran in the park."]),
    (LINK, "The big", " ", "dog runs in the park.", ["The big dog runs in the park."]),
    (LINK, "Call ", "555 1234 ", "today.", ["Call 555 1234 today."]),
    (LINK, "See page ", "12.", " The cat sleeps.", ["See page 12.", "The cat sleeps."]),
    (SIMPLE, "Where is the dog", "?", " The cat sleeps.", ["Where is the dog?", "The cat sleeps."]),
    (LINK, "The dog runs", "…", " The cat sleeps.", ["The dog runs… The cat sleeps."]),
], ids=["spaces-around", "space-alone", "space-after", "full-stop", "question-mark", "ellipsis"])
def test_a_link_field_with_a_space_at_an_end_or_a_stop_is_read_with_its_sentence(mirror, link, before, shown,
                                                                                 after, given):
    """Kept whole, such a result took its space or its stop away from the model: "Inthe dog ran",
    "See page The cat sleeps." as one sentence, the question mark or the "…" lost."""
    field = SIMPLE.format(text_run(shown, STYLE)) if link == SIMPLE else code_runs(LINK) + text_run(shown, STYLE) + END
    translated(text_run(before) + field + text_run(after), mirror)
    assert mirror.given == given


@pytest.mark.parametrize(("runs", "given"), [
    (text_run("Visit ") + HYPERLINK.format(text_run("the", STYLE)) + HYPERLINK.format(text_run(" ", STYLE))
     + HYPERLINK.format(text_run("big park", STYLE)) + text_run(" today."), ["Visit the big park today."]),
    (text_run("See page ") + HYPERLINK.format(text_run("12.", STYLE)) + text_run(" The cat sleeps."),
     ["See page 12.", "The cat sleeps."]),
    (text_run("Where is the dog") + HYPERLINK.format(text_run("?", STYLE)) + text_run(" The cat sleeps."),
     ["Where is the dog?", "The cat sleeps."]),
    (text_run("See page ") + HYPERLINK.format(text_run("12", STYLE)) + text_run(" for details."),
     ["See page 12 for details."]),
    (HYPERLINK.format(text_run("3", STYLE)) + text_run(" dogs run in the park."), ["3 dogs run in the park."]),
], ids=["split-link", "full-stop", "question-mark", "page-number", "count"])
def test_a_hyperlink_with_no_letter_is_read_with_its_sentence(mirror, runs, given):
    """A w:hyperlink is read as it always was (the rule for link fields is theirs): kept whole, one of
    a space glued "thebig park", one with a stop joined two sentences, and a number in the middle of
    a sentence was hidden from the model ("See page for details.")."""
    translated(runs, mirror)
    assert mirror.given == given


def test_a_hyperlinks_number_moved_before_a_word_keeps_its_space(known):
    """Kept whole and moved before "einem", the number lost the space after it ("in 101einem")."""
    translator = known({
        "The meeting is in room 101.": ("Die Sitzung ist in 101 einem Raum.", [(0, 0), (1, 1), (2, 2), (3, 3),
                                                                               (4, 6), (5, 4)]),
        "The meeting is in room .": ("Die Sitzung ist in einem Raum .", [(0, 0), (1, 1), (2, 2), (3, 3), (4, 5),
                                                                          (5, 4)])})
    runs = text_run("The meeting is in room ") + HYPERLINK.format(text_run("101", STYLE)) + text_run(".")
    out = translated(runs, translator)
    assert "".join(first_paragraph(out).itertext()) == "Die Sitzung ist in 101 einem Raum."
    assert "".join(first_paragraph(out).find(w("hyperlink")).itertext()) == "101"


@pytest.mark.parametrize(("opening", "closing", "name"), [
    ('<w:ins w:id="3" w:author="A" w:date="2024-01-01T00:00:00Z">', "</w:ins>", "ins"),
    ('<w:sdt><w:sdtPr><w:id w:val="9"/></w:sdtPr><w:sdtContent>', "</w:sdtContent></w:sdt>", "sdt"),
], ids=["tracked-insertion", "content-control"])
def test_a_link_field_alone_in_a_container_is_translated_inside_both(mirror, opening, closing, name):
    """Everything in the container was the field's, so the container read as holding no words, and
    was kept: the link's words stayed English."""
    field = code_runs(LINK) + text_run("the help page", STYLE) + END
    out = translated(text_run("Click ") + opening + field + closing + text_run(" to learn more."), mirror)
    assert mirror.given == ["Click the help page to learn more."]
    container = first_paragraph(out)[1]
    assert container.tag == w(name)
    assert pieces(container) == ["begin", LINK, "separate", "PAGE HELP THE", "end"]


def test_a_fill_in_field_alone_in_a_content_control_is_translated(mirror):
    field = code_runs(' FILLIN "What is he doing?" ') + text_run("A man is cooking dinner.") + END
    out = translated(f'<w:sdt><w:sdtPr><w:id w:val="9"/></w:sdtPr><w:sdtContent>{field}</w:sdtContent></w:sdt>',
                     mirror)
    assert mirror.given == ["A man is cooking dinner."]
    assert pieces(first_paragraph(out)) == ["begin", ' FILLIN "What is he doing?" ', "separate",
                                            "DINNER. COOKING IS MAN A", "end"]


@pytest.mark.parametrize(("mark", "name"), [('<w:bookmarkEnd w:id="4"/>', "bookmarkEnd"),
                                            ('<w:permStart w:id="5" w:edGrp="everyone"/>', "permStart")],
                         ids=["bookmark", "editing-permission"])
def test_a_link_field_with_a_mark_between_its_begin_and_its_code_is_translated(mirror, mark, name):
    """Word leaves a hyperlink's bookmark ("_Hlt1") there; the field was not read, its words stayed
    English.  The mark stays where it was, in the field's code."""
    opening = code_runs(LINK).replace("</w:r>", f"</w:r>{mark}", 1)
    runs = text_run("Click ") + '<w:bookmarkStart w:id="4" w:name="_Hlt1"/>' + opening
    out = translated(runs + text_run("the help page", STYLE) + END + text_run(" to learn more."), mirror)
    assert mirror.given == ["Click the help page to learn more."]
    children = list(first_paragraph(out))
    begin = next(n for n, child in enumerate(children) if child.find(w("fldChar")) is not None)
    assert children[begin + 1].tag == w(name)
    found = pieces(first_paragraph(out))
    assert found[found.index(LINK):found.index("end") + 1] == [LINK, "separate", "PAGE HELP THE", "end"]


@pytest.mark.parametrize(("before", "number", "after", "translation", "alignment", "out"), [
    ("See page ", "1", " for details.", "Siehe Seite für Details.", [(0, 0), (1, 1), (3, 2), (4, 3)],
     "Siehe Seite 1 für Details."),
    ("Call room ", "4711", " now.", "Ruf Raum jetzt an.", [(0, 0), (1, 1), (3, 2), (3, 3)], "Ruf Raum 4711 jetzt an."),
], ids=["note-number", "room-number"])
def test_a_hyperlink_over_a_number_the_model_dropped_keeps_its_number(known, before, number, after, translation,
                                                                      alignment, out):
    """The model dropped the digits, and an empty <w:hyperlink/> was written: the number was gone
    from the page.  The link holds its number again, its run's look with it, spaced as it was."""
    source = before + number + after
    runs = text_run(before) + HYPERLINK.format(text_run(number, STYLE)) + text_run(after)
    paragraph = first_paragraph(translated(runs, known({source: (translation, alignment)})))
    assert "".join(paragraph.itertext()) == out
    link = paragraph.find(w("hyperlink"))
    assert ("".join(link.itertext()), link.find(f".//{w('rStyle')}").get(w("val"))) == (number, "Hyperlink")


def test_a_hyperlinked_telephone_number_never_reaches_the_model_and_stays_in_its_link(known):
    """A telephone number is kept as written (attnmt.decoding.protected.PHONE): the model reads the words around it."""
    runs = text_run("Call ") + HYPERLINK.format(text_run("+1 555 0100", STYLE)) + text_run(" now.")
    translator = known({"Call now.": ("Ruf jetzt an.", [(0, 0), (1, 1), (1, 2)])})
    paragraph = first_paragraph(translated(runs, translator))
    assert "".join(paragraph.itertext()) == "Ruf +1 555 0100 jetzt an."
    assert "".join(paragraph.find(w("hyperlink")).itertext()) == "+1 555 0100"


def test_a_link_fields_number_the_model_dropped_is_written_again_inside_the_field(known):
    """A HYPERLINK field is a link, as a w:hyperlink is: its emptied number comes back (emptied_marks)."""
    runs = text_run("See page") + code_runs(LINK) + text_run(" 12 ") + END + text_run("for details.")
    translator = known({"See page 12 for details.": ("Siehe Seite für Details.", [(0, 0), (1, 1), (3, 2), (4, 3)])})
    assert pieces(first_paragraph(translated(runs, translator))) == ["Siehe Seite ", "begin", LINK, "separate", " 12 ",
                                                                     "end", "für Details."]


SEQUENCE = " SEQ Figure \\* ARABIC "


def simple_field(code: str, result: str) -> str:
    return f'<w:fldSimple w:instr="{code}">{text_run(result)}</w:fldSimple>'


@pytest.mark.parametrize(("runs", "given", "out"), [
    (text_run("Figure ") + code_runs(SEQUENCE) + text_run("1") + END + text_run(": A black dog jumps."),
     ["Figure", "A black dog jumps."], "FIGURE 1: A BLACK DOG JUMPS."),
    (text_run("Table ") + code_runs(" SEQ Table \\* ARABIC ") + text_run("2") + END + text_run(". Prices of the fruit"),
     ["Table", "Prices of the fruit"], "TABLE 2. PRICES OF THE FRUIT"),
    (text_run("Figure ") + code_runs(" STYLEREF 1 \\s ") + text_run("3") + END + text_run("-")
     + code_runs(" SEQ Figure \\* ARABIC \\s 1 ") + text_run("1") + END + text_run(" \u2013 A woman sells fruit."),
     ["Figure", "A woman sells fruit."], "FIGURE 3-1 \u2013 A WOMAN SELLS FRUIT."),
    (text_run("Plate ") + simple_field(SEQUENCE, "4") + text_run(": Two boys play in a field."),
     ["Plate", "Two boys play in a field."], "PLATE 4: TWO BOYS PLAY IN A FIELD."),
    ('<w:bookmarkStart w:id="1" w:name="_Ref7"/>' + text_run("Figure ") + code_runs(SEQUENCE) + text_run("5") + END
     + '<w:bookmarkEnd w:id="1"/>' + text_run(": A cat sleeps on the sofa."),
     ["Figure", "A cat sleeps on the sofa."], "FIGURE 5: A CAT SLEEPS ON THE SOFA."),
], ids=["colon", "full-stop", "chapter-and-dash", "simple-field", "cross-referenced"])
def test_a_captions_label_and_text_are_read_apart_around_its_number_and_separator(upper, runs, given, out):
    """Word's caption is a label, a number field (SEQ, after the chapter's STYLEREF), a separator and its text: read
    as one sentence, "Figure : A black dog jumps." came back "Ein bärtiger 1 schwarzer Hund...", the label and the
    colon lost.  The label and the text are read each alone; the number and the separator stay where they were, also
    where a cross-reference's bookmark (Word's "_Ref") ends between the number and the separator."""
    paragraph = first_paragraph(translated(runs, upper))
    assert upper.given == given
    assert "".join(node.text for node in paragraph.iter(w("t"))) == out


def test_a_caption_count_hidden_inside_a_sentence_parts_none_of_its_words(upper):
    """A SEQ field with \\h shows no number: it resets or steps a count where it stands, often inside a sentence."""
    runs = text_run("A dog runs") + code_runs(" SEQ Figure \\r 0 \\h ") + END + text_run(" in the park.")
    paragraph = first_paragraph(translated(runs, upper))
    assert upper.given == ["A dog runs in the park."]
    assert "".join(node.text for node in paragraph.iter(w("t"))) == "A DOG RUNS IN THE PARK."


def test_a_headings_words_shown_inside_a_sentence_part_none_of_them(upper):
    """A STYLEREF without a number's switch shows a heading's words, kept as Word computes them: no caption's number."""
    runs = (text_run("As described in ") + code_runs(" STYLEREF 1 ") + text_run("Care") + END
            + text_run(", the dog sleeps."))
    translated(runs, upper)
    assert upper.given == ["As described in , the dog sleeps."]


def test_an_index_entrys_page_list_is_kept_after_its_words(mirror):
    """Word's index lists an entry as "apple tree, 3-5, 7" (its \\e separator, ", " by default, then the
    pages): read whole, the model dropped the pages.  The separator and pages are kept, the words translated;
    an \\e "; " separator is read from the code."""
    comma = code_runs(' INDEX \\c "2" \\z "1033" ')
    semicolon = code_runs(' INDEX \\e "; " ')
    data = word_paragraph(comma + text_run("apple tree, 3-5, 7"), text_run("Smith, John, 12"),
                          text_run("preface, iv") + END, semicolon + text_run("orange cat; 4") + END)
    out = etree.fromstring(read_members(translated_file(data, mirror))["word/document.xml"])
    assert mirror.given == ["apple tree", "Smith, John", "preface", "orange cat"]
    texts = ["".join(t.text for t in paragraph.iter(w("t"))) for paragraph in out.iter(w("p"))]
    assert [texts[0], texts[2], texts[3]] == ["TREE APPLE, 3-5, 7", "PREFACE, iv", "CAT ORANGE; 4"]
    assert texts[1].endswith(", 12")


BOLD = "<w:rPr><w:b/></w:rPr>"


def bold_field(code: str, result: str) -> str:
    """A complex field whose runs are all bold, as a template's prompt is."""
    return "".join(f'<w:r>{BOLD}{part}</w:r>' for part in (
        '<w:fldChar w:fldCharType="begin"/>', f'<w:instrText xml:space="preserve">{code}</w:instrText>',
        '<w:fldChar w:fldCharType="separate"/>', f'<w:t xml:space="preserve">{result}</w:t>',
        '<w:fldChar w:fldCharType="end"/>'))


def bold_texts(paragraph: etree._Element) -> list[tuple[str, bool]]:
    """(text, whether bold) of the paragraph's text, neighbours of one look joined."""
    found: list[tuple[str, bool]] = []
    for node in paragraph.iter(w("t")):
        bold = node.getparent().find(f"{w('rPr')}/{w('b')}") is not None
        if found and found[-1][1] == bold:
            found[-1] = (found[-1][0] + node.text, bold)
        else:
            found.append((node.text, bold))
    return found


@pytest.mark.parametrize(("label", "code", "result"), [
    ("Name: ", " MACROBUTTON NoMacro [Type your name] ", "[TYPE YOUR NAME]"),
    ("Date: ", " DATE \\@ \"dddd, d MMMM yyyy\" ", "Sunday, 5 May 2024"),
    ("Pages: ", " NUMPAGES \\* CardText ", "one hundred and twelve"),
], ids=["button", "date", "page-count"])
def test_the_space_before_a_bold_field_keeps_the_look_of_the_words_before_it(upper, label, code, result):
    """A bold field's result longer than the words before it (a template's prompt, a date written out) made bold the
    paragraph's base look, though the model reads none of it: the space between the label and the field came back
    a bold run of its own."""
    paragraph = first_paragraph(translated(text_run(label) + bold_field(code, result), upper))
    assert bold_texts(paragraph) == [(label.upper(), False), (result, True)]


def test_a_review_row_shows_an_index_entrys_words_as_its_code_holds_them(sentencing):
    """Each level's row showed the model's sentence, "Roter Apfel.", where the code holds "Roter Apfel"."""
    review = everything_listed()
    entry = code_runs(' XE "Fruit:red apple" ') + END
    out = translate_office(word_paragraph(text_run("A pear.") + entry), ".docx",
                           sentencing({"Fruit": "Obst.", "red apple": "Roter Apfel."}), DocumentOptions(),
                           review=review)
    assert [node.text for node in first_paragraph(out).iter(w("instrText"))][0] == ' XE "Obst:Roter Apfel" '
    assert [(row["source"], row["translation"]) for row in review.rows()][1:] == [
        ("Fruit", "Obst"), ("red apple", "Roter Apfel")]
