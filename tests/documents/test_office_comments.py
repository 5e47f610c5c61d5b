"""Review comments and notes people leave in office files: Word's comments over words, PowerPoint's
classic and modern comments, Excel's threaded comments and the note Excel keeps beside each thread,
OpenDocument annotations and speaker notes; each translated, and read back with lxml, openpyxl or odfpy.
Mirror: words upper-cased in reverse order, each aligned to its source word."""

import io

import docx
import openpyxl
import openpyxl.comments
from comment_files import (
    AUTHORS,
    COMMENT_AUTHORS,
    PERSONS,
    REPLY,
    THREAD,
    annotated_calc_file,
    commented_slides_file,
    noted_presentation_file,
    threaded_sheet_file,
)
from lxml import etree
from office_files import docx_bytes, odf_bytes, read_members, write_members

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
P188 = "{http://schemas.microsoft.com/office/powerpoint/2018/8/main}"
THREADED = "{http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments}"


def test_a_slides_classic_comment_is_translated_line_by_line_and_its_author_kept(mirror):
    members = read_members(translate_office(commented_slides_file(), ".pptx", mirror, DocumentOptions()))
    [comment] = etree.fromstring(members["ppt/comments/comment1.xml"]).iter(f"{P}cm")
    assert comment.find(f"{P}text").text == "CAR. RED THE CHECK\nPARKED. IS IT"
    assert (comment.get("authorId"), comment.get("dt"), comment.get("idx")) == ("0", "2024-05-01T10:00:00.000", "1")
    assert members["ppt/commentAuthors.xml"] == COMMENT_AUTHORS.encode()


def test_a_slides_modern_comment_and_its_reply_are_translated_with_their_bold_word(mirror):
    out = translate_office(commented_slides_file(), ".pptx", mirror, DocumentOptions(target_lang="de"))
    members = read_members(out)
    [comment] = etree.fromstring(members["ppt/comments/modernComment_100_1.xml"]).iter(f"{P188}cm")
    body = comment.find(f"{P188}txBody")
    assert [(r.find(f"{A}t").text, r.find(f"{A}rPr").get("b")) for r in body.iter(f"{A}r")] == [
        ("BOX. ", None), ("BLUE", "1"), (" THE MOVE", None)]
    assert {r.get("lang") for r in comment.iter(f"{A}rPr")} == {"de"}
    [reply] = comment.iter(f"{P188}reply")
    assert "".join(t.text for t in reply.iter(f"{A}t")) == "FIXED. IS IT"
    assert (comment.get("id"), comment.get("authorId"), reply.get("created")) == (
        "{C1}", "{A1}", "2024-05-01T11:00:00.000")
    assert members["ppt/authors.xml"] == AUTHORS.encode()


def threads(out: bytes) -> list[etree._Element]:
    root = etree.fromstring(read_members(out)["xl/threadedComments/threadedComment1.xml"])
    return list(root.iter(f"{THREADED}threadedComment"))


def test_a_threaded_comment_and_its_reply_are_translated_and_their_people_and_ids_kept(mirror):
    out = translate_office(threaded_sheet_file(), ".xlsx", mirror, DocumentOptions())
    comment, reply = threads(out)
    assert comment.find(f"{THREADED}text").text == "CAR. RED THE CHECK"
    assert [(c.get("ref"), c.get("personId"), c.get("id"), c.get("parentId"), c.get("dT")) for c in (comment, reply)] \
        == [("A1", "{P1}", THREAD, None, "2024-05-01T10:00:00.00"),
            ("A1", "{P2}", REPLY, THREAD, "2024-05-01T11:00:00.00")]
    assert read_members(out)["xl/persons/person.xml"] == PERSONS.encode()
    assert openpyxl.load_workbook(io.BytesIO(out)).active["A1"].value == "RUNS. DOG A"


def test_a_mention_is_kept_and_its_start_counts_utf16_units_where_it_landed(mirror):
    _, reply = threads(translate_office(threaded_sheet_file(), ".xlsx", mirror, DocumentOptions()))
    # "👍 Ask @Ann Smith about the 👍 car." mirrored, the mention before the word for "about"; the
    # first 👍 now comes before it, 11 characters in, 12 UTF-16 units (👍 is two)
    assert reply.find(f"{THREADED}text").text == "CAR. \N{THUMBS UP SIGN} THE @Ann Smith ABOUT ASK \N{THUMBS UP SIGN}"
    mention = reply.find(f"{THREADED}mentions/{THREADED}mention")
    assert (mention.get("startIndex"), mention.get("length"), mention.get("mentionpersonId")) == ("12", "10", "{P1}")


def test_the_note_beside_a_thread_says_what_the_thread_says(mirror):
    out = translate_office(threaded_sheet_file(), ".xlsx", mirror, DocumentOptions())
    note = openpyxl.load_workbook(io.BytesIO(out)).active["A1"].comment
    comment, _ = threads(out)
    lines = note.text.split("\n")
    assert lines[:2] == ["COMMENT] [THREADED", ""]
    assert "https://go.microsoft.com/fwlink/?linkid=870924" in lines[2]  # the address kept
    assert lines[4:7] == ["COMMENT:", "    " + comment.find(f"{THREADED}text").text, "REPLY:"]
    assert note.author == "tc=" + THREAD


def test_the_note_beside_a_thread_keeps_a_mention_and_its_line_reads_as_the_threads(mirror):
    """The note's copy of the reply holds "@Ann Smith" as text: it went to the model as words and
    came back "    CAR. 👍 THE ABOUT SMITH @ANN ASK 👍", not what the thread's reply says.  The thread's
    mention kept in the note too, the line is the reply's sentence, translated once."""
    out = translate_office(threaded_sheet_file(), ".xlsx", mirror, DocumentOptions())
    note = openpyxl.load_workbook(io.BytesIO(out)).active["A1"].comment
    _, reply = threads(out)
    assert reply.find(f"{THREADED}text").text == "CAR. \N{THUMBS UP SIGN} THE @Ann Smith ABOUT ASK \N{THUMBS UP SIGN}"
    assert note.text.split("\n")[-2:] == ["REPLY:", "    " + reply.find(f"{THREADED}text").text]
    assert not any("Ann" in sentence for sentence in mirror.given)
    assert mirror.given.count("\N{THUMBS UP SIGN} Ask about the \N{THUMBS UP SIGN} car.") == 1


def test_an_excel_notes_author_label_is_kept_and_its_text_translated(mirror):
    """Excel writes a note as its author's name and a colon in bold, then the note on the next line:
    the label was translated as a sentence ("Ein Gähnttel."), where the note's author stays."""
    workbook = openpyxl.Workbook()
    workbook.active["A1"] = "A red car"
    workbook.active["A1"].comment = openpyxl.comments.Comment("x", "Anna Smith")
    out = io.BytesIO()
    workbook.save(out)
    members = read_members(out.getvalue())
    [name] = [member for member in members if member.startswith("xl/comments")]
    label = '<r><rPr><b/><sz val="9"/></rPr><t>Anna Smith:</t></r>'
    note = '<r><rPr><sz val="9"/></rPr><t xml:space="preserve">\nThe car is parked.</t></r>'
    members[name] = members[name].replace(b"<text><t>x</t></text>", f"<text>{label}{note}</text>".encode())
    assert label.encode() in members[name]
    translated = openpyxl.load_workbook(io.BytesIO(translate_office(write_members(members), ".xlsx", mirror,
                                                                    DocumentOptions())))
    comment = translated.active["A1"].comment
    assert (comment.text, comment.author) == ("Anna Smith:\nPARKED. IS CAR THE", "Anna Smith")
    assert mirror.given == ["A red car", "The car is parked."]


def test_a_notes_author_label_in_its_one_text_is_kept_and_its_lines_translated(mirror):
    """openpyxl and other tools write a note as one text, its author's label its first line, as Excel shows it:
    the label was translated as a sentence (the demo model wrote "Anna Smith:" as "Ein Krühner:")."""
    workbook = openpyxl.Workbook()
    workbook.active["A1"] = 42
    note = "Anna Smith:\nThe car is parked.\nA dog runs."
    workbook.active["A1"].comment = openpyxl.comments.Comment(note, "Anna Smith")
    workbook.active["A2"] = 7
    workbook.active["A2"].comment = openpyxl.comments.Comment("Tom:\nThe car is red.", "Anna Smith")  # no author's
    out = io.BytesIO()
    workbook.save(out)
    translated = translate_office(out.getvalue(), ".xlsx", mirror, DocumentOptions())
    sheet = openpyxl.load_workbook(io.BytesIO(translated)).active
    notes = [(sheet[cell].comment.text, sheet[cell].comment.author) for cell in ("A1", "A2")]
    assert notes == [("Anna Smith:\nPARKED. IS CAR THE\nRUNS. DOG A", "Anna Smith"),
                     ("TOM:\nRED. IS CAR THE", "Anna Smith")]
    assert "Anna Smith:" not in mirror.given


def test_a_notes_author_label_in_a_run_that_goes_on_is_kept_and_its_lines_translated(mirror):
    """LibreOffice writes a note's lines in one run ("Peter Brown:\nThe car is parked."), or its label's run with the
    line break after it: the label was translated as a sentence (the demo model wrote "Ein braunhaariger Mann:")."""
    workbook = openpyxl.Workbook()
    for cell in ("A1", "A2", "A3"):
        workbook.active[cell] = 42
        workbook.active[cell].comment = openpyxl.comments.Comment(cell, "Peter Brown")
    out = io.BytesIO()
    workbook.save(out)
    members = read_members(out.getvalue())
    [name] = [member for member in members if member.startswith("xl/comments")]
    look = '<rPr><sz val="12"/><rFont val="DejaVu Serif"/></rPr>'
    runs = {"A1": f'<r>{look}<t xml:space="preserve">Peter Brown:&#10;The car is parked.&#10;A dog runs.</t></r>',
            "A2": f'<r>{look}<t xml:space="preserve">Peter Brown:&#10;</t></r><r>{look}<t>The car is red.</t></r>',
            "A3": f'<r>{look}<t xml:space="preserve">Tom:&#10;The car is red.</t></r>'}  # no author's label
    for cell, text in runs.items():
        members[name] = members[name].replace(f"<text><t>{cell}</t></text>".encode(), f"<text>{text}</text>".encode())
    translated = translate_office(write_members(members), ".xlsx", mirror, DocumentOptions())
    sheet = openpyxl.load_workbook(io.BytesIO(translated)).active
    assert [sheet[cell].comment.text for cell in ("A1", "A2", "A3")] == [
        "Peter Brown:\nPARKED. IS CAR THE\nRUNS. DOG A", "Peter Brown:\nRED. IS CAR THE", "TOM:\nRED. IS CAR THE"]
    assert "Peter Brown:" not in mirror.given
    assert f'<r>{look}<t xml:space="preserve">Peter Brown:</t></r>'.encode() in read_members(translated)[name]


def cell_annotations(out: bytes) -> list[tuple[str, str, str, str]]:
    """Each cell's (value type, shown text, annotation's creator, annotation's text), by odfpy."""
    from odf import teletype
    from odf.dc import Creator
    from odf.office import Annotation
    from odf.opendocument import load
    from odf.table import TableCell
    from odf.text import P as Paragraph

    found = []
    for cell in load(io.BytesIO(out)).getElementsByType(TableCell):
        [annotation] = cell.getElementsByType(Annotation)
        shown = [p for p in cell.getElementsByType(Paragraph) if p.parentNode is cell]
        found.append((cell.getAttribute("valuetype"), teletype.extractText(shown[0]),
                      teletype.extractText(annotation.getElementsByType(Creator)[0]),
                      teletype.extractText(annotation.getElementsByType(Paragraph)[0])))
    return found


def test_annotations_on_text_and_number_cells_are_translated_and_the_cells_kept(mirror):
    out = translate_office(annotated_calc_file(), ".ods", mirror, DocumentOptions())
    assert cell_annotations(out) == [("string", "RUNS. DOG A", "Ann", "CAR. RED THE CHECK"),
                                     ("float", "12", "Ann", "AGAIN. DOGS THE COUNT")]


def test_an_odf_slides_speaker_notes_are_translated(mirror):
    from odf import teletype
    from odf.opendocument import load
    from odf.presentation import Notes
    from odf.text import P as Paragraph

    out = translate_office(noted_presentation_file(), ".odp", mirror, DocumentOptions())
    [notes] = load(io.BytesIO(out)).getElementsByType(Notes)
    assert [teletype.extractText(p) for p in notes.getElementsByType(Paragraph)] == ["PEOPLE. THE TO HELLO SAY"]


def test_a_word_comment_stays_over_the_translation_of_its_words_with_its_reference_after_it(known):
    """A comment on "big red dog" translated "gros chien rouge": its range's end went before "rouge" (the
    word after it in the source, "sleeps", came last), and its reference with it, which LibreOffice
    reads as a comment on no words."""
    document = docx.Document()
    paragraph = document.add_paragraph("A ")
    document.add_comment(paragraph.add_run("big red dog"), text="Check it.", author="Bob")
    paragraph.add_run(" sleeps here.")
    translator = known({"A big red dog sleeps here.": ("Un gros chien rouge dort ici.",
                                                       [(0, 0), (1, 1), (2, 3), (3, 2), (4, 4), (5, 5)]),
                        "Check it.": ("Vérifiez-le.", [(0, 0), (1, 0)])})
    out = translate_office(docx_bytes(document), ".docx", translator, DocumentOptions())
    paragraph = etree.fromstring(read_members(out)["word/document.xml"]).find(f".//{W}p")
    read = [(etree.QName(node).localname, node.text) for node in paragraph.iter(f"{W}t", f"{W}commentRangeStart",
                                                                                f"{W}commentRangeEnd",
                                                                                f"{W}commentReference")]
    assert read == [("t", "Un "), ("commentRangeStart", None), ("t", "gros chien rouge"), ("commentRangeEnd", None),
                    ("commentReference", None), ("t", " dort ici.")]


def test_an_odf_annotation_stays_over_the_translation_of_its_words(known):
    """``A <annotation/>big red dog<annotation-end/> sleeps.`` as French: the annotation covered "gros chien"."""
    from odf.office import Annotation, AnnotationEnd
    from odf.opendocument import OpenDocumentText
    from odf.text import P as Paragraph

    document = OpenDocumentText()
    paragraph = Paragraph(text="A ")
    annotation = Annotation(name="c1")
    annotation.addElement(Paragraph(text="Check it."))
    paragraph.addElement(annotation)
    paragraph.addText("big red dog")
    paragraph.addElement(AnnotationEnd(name="c1"))
    paragraph.addText(" sleeps.")
    document.text.addElement(paragraph)
    french = ("Un gros chien rouge dort.", [(0, 0), (1, 1), (2, 3), (3, 2), (4, 4)])
    translator = known({"A big red dog sleeps.": french, "Check it.": ("Vérifiez-le.", [(0, 0), (1, 0)])})
    out = translate_office(odf_bytes(document), ".odt", translator, DocumentOptions())
    content = etree.fromstring(read_members(out)["content.xml"])
    [annotated] = [p for p in content.iter(f"{TEXT}p") if p.find(f"{OFFICE}annotation") is not None]
    assert (annotated.text, annotated.find(f"{OFFICE}annotation").tail) == ("Un ", "gros chien rouge")
    assert annotated.find(f"{OFFICE}annotation-end").tail == " dort."
