"""Word files (attnmt.documents.ooxml, attnmt.documents.office): runs are marks, read back with python-docx.

The Mirror translator writes each sentence's words upper-cased in reverse order, each aligned to
its source word, so where a run's formatting must land can be worked out by hand."""

import io

import docx
import pytest
from docx.oxml.ns import qn
from lxml import etree
from office_files import (
    add_hyperlink,
    docx_bytes,
    read_members,
    split_runs_file,
    word_children,
    word_file,
    word_paragraph,
    write_members,
)

from attnmt.decoding.glossary import Glossary
from attnmt.documents import ooxml_paragraphs
from attnmt.documents.office import translate_office
from attnmt.documents.ooxml import ParagraphJob
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.translators import FoundTranslations

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def translated(data: bytes, translator, **options) -> docx.document.Document:
    return docx.Document(io.BytesIO(translate_office(data, ".docx", translator, DocumentOptions(**options))))


def runs(paragraph) -> list[tuple[str, bool | None]]:
    return [(run.text, run.bold) for run in paragraph.runs]


def test_a_bold_word_stays_bold_on_its_translation(mirror):
    first = translated(word_file(), mirror).paragraphs[0]
    assert runs(first) == [("GRASS. ", None), ("GREEN", True), (" THE ON RUNS DOG A", None)]


def test_a_speakers_label_in_a_bold_run_or_typed_at_a_paragraph_s_start_is_kept_as_written(mirror):
    """An interview in Word: "INTERVIEWER:" in bold, then " How did you start?", came back from the demo model as
    "Auf dieser Fefebebebebeung findet es aus." all bold, the name lost, and "ANNA: Where are you going?" typed in
    one run without "ANNA:"; a bold remark's word is translated alone, as a field's name is."""
    document = docx.Document()
    for label, words in [("INTERVIEWER:", " A red dog runs."), ("NOTE:", " a cat.")]:
        paragraph = document.add_paragraph()
        paragraph.add_run(label).bold = True
        paragraph.add_run(words)
    document.add_paragraph("ANNA: A big cat.")
    out = translated(docx_bytes(document), mirror).paragraphs
    assert mirror.given == ["A red dog runs.", "NOTE", "a cat.", "A big cat."]
    assert runs(out[0]) == [("INTERVIEWER:", True), (" RUNS. DOG RED A", None)]
    assert out[2].text == "ANNA: CAT. BIG A"

def test_a_sound_description_at_a_paragraph_s_start_is_translated_alone_as_a_text_line_s(mirror):
    """The demo model wrote "[LAUGHS] Yes, of course." in Word as "Auf der Rennstrecke.", the description lost,
    where a text line gave "[EINE LACHT] Große Baue."."""
    document = docx.Document()
    document.add_paragraph("[LAUGHS] A red dog.")
    document.add_paragraph("ANNA: (sighs) A big cat.")
    out = translated(docx_bytes(document), mirror).paragraphs
    assert mirror.given == ["[LAUGHS]", "A red dog.", "(sighs)", "A big cat."]
    assert [paragraph.text for paragraph in out] == ["[LAUGHS] DOG. RED A", "ANNA: (SIGHS) CAT. BIG A"]


def test_a_fields_name_at_a_paragraph_s_start_is_translated_alone_its_colon_kept_as_a_text_line_s(mirror):
    """The demo model wrote "BENEFITS: Free parking and Wi-Fi." as "Auf einem Parkplatz ...", the name lost."""
    document = docx.Document()
    document.add_paragraph("KEY FEATURES: A red dog.")
    document.add_paragraph("Opening Times : Daily at 9am")
    out = translated(docx_bytes(document), mirror).paragraphs
    assert mirror.given == ["KEY FEATURES", "A red dog.", "Opening Times", "Daily at 9am"]
    assert [paragraph.text for paragraph in out] == ["FEATURES KEY: DOG. RED A", "TIMES OPENING : 9AM AT DAILY"]


def test_a_fields_name_in_a_bold_run_of_its_own_is_translated_alone_and_stays_bold(mirror):
    """"Ingredients:" in bold, then " flour, eggs", was read with its value: the demo model's HTML twin came back
    "Krankenschwestern <b>in einer</b> Badewanne mit Eiern", the name and the colon lost."""
    document = docx.Document()
    for label, words in [("Ingredients:", " flour, red eggs"), ("DIRECTOR : ", "Greta Gerwig"), ("ANNA:", " 5pm.")]:
        paragraph = document.add_paragraph()
        paragraph.add_run(label).bold = True
        paragraph.add_run(words)
    out = translated(docx_bytes(document), mirror).paragraphs
    assert mirror.given == ["Ingredients", "flour, red eggs", "DIRECTOR", "5pm."]
    assert runs(out[0]) == [("INGREDIENTS:", True), (" EGGS RED FLOUR,", None)]
    assert runs(out[1]) == [("DIRECTOR :", True), (" Greta Gerwig", None)]  # the bold's last space, as before
    assert runs(out[2])[0] == ("ANNA:", True) and out[2].text == "ANNA: 5PM."  # a speaker's name, kept


def test_names_in_title_case_that_take_turns_in_a_word_document_are_kept_as_written(mirror):
    """An interview in Word, "Anna:" in bold / "Tom:" typed / "Anna:" in bold, was read as words, the names lost."""
    document = docx.Document()
    for label, words in [("Anna:", " A red dog runs."), ("Tom:", " A cat sleeps here."), ("Anna:", " A dog runs?")]:
        paragraph = document.add_paragraph()
        paragraph.add_run(label).bold = label == "Anna:"
        paragraph.add_run(words)
    out = translated(docx_bytes(document), mirror).paragraphs
    assert mirror.given == ["A red dog runs.", "A cat sleeps here.", "A dog runs?"]
    assert [paragraph.text for paragraph in out] == ["Anna: RUNS. DOG RED A", "Tom: HERE. SLEEPS CAT A",
                                                     "Anna: RUNS? DOG A"]

def test_a_coloured_run_and_a_tab_keep_their_words(mirror):
    second = translated(word_file(), mirror).paragraphs[1]
    red = [run.text for run in second.runs if run.font.color.rgb is not None]
    assert second.text == "HERE TALKING ARE MEN TWO\tNOW."  # a tab ends a sentence: each side translated apart
    assert red == ["TALKING ARE"]


def test_a_hyperlink_stays_a_link_around_its_words(mirror):
    third = translated(word_file(), mirror).paragraphs[2]
    assert third.text == "FIRST. GUIDE THE READ"
    assert [(link.text, link.address) for link in third.hyperlinks] == [("GUIDE", "https://example.org/guide")]


def test_table_cells_headers_and_footers_are_translated_and_fields_kept(mirror):
    document = translated(word_file(), mirror)
    assert [cell.text for cell in document.tables[0]._cells] == ["SLEEPS. CAT A", "42"]
    assert document.sections[0].header.paragraphs[0].text == "TEXT. HEADER THE"
    footer = document.sections[0].footer.paragraphs[0]._p
    assert footer.findall(qn("w:fldSimple"))[0].get(qn("w:instr")) == "PAGE"
    assert "".join(t.text for t in footer.iter(qn("w:t"))).strip() == "PAGE"


def test_runs_of_the_same_formatting_are_merged_before_translation(same):
    paragraph = translated(split_runs_file(), same).paragraphs[0]
    assert same.given == ["The dog runs fast."]  # one sentence, not three fragments
    assert [(run.text, run.italic) for run in paragraph.runs] == [("The dog runs fast.", True)]
    assert paragraph._p.find(qn("w:proofErr")) is None


def test_an_underlined_phrase_over_a_page_break_word_last_drew_stays_one_underline(same):
    """Word marks where each page began when it last laid the file out (``w:lastRenderedPageBreak``,
    at the start of a run): the run it starts did not merge with the one before it, the two were two
    marks, and the underlined space between them came back plain, a gap in the line ("important_ _safety")."""
    underlined = '<w:rPr><w:u w:val="single"/></w:rPr>'
    data = word_paragraph(f'<w:r><w:t xml:space="preserve">Please read the </w:t></w:r><w:r>{underlined}'
                          '<w:t xml:space="preserve">very important </w:t></w:r>'
                          f'<w:r>{underlined}<w:lastRenderedPageBreak/><w:t>safety rules</w:t></w:r>'
                          '<w:r><w:t xml:space="preserve"> before you start.</w:t></w:r>')
    paragraph = translated(data, same).paragraphs[-1]
    assert [(run.text, run.underline) for run in paragraph.runs] == [
        ("Please read the ", None), ("very important safety rules", True), (" before you start.", None)]
    assert paragraph._p.find(f".//{qn('w:lastRenderedPageBreak')}") is None  # Word draws its pages anew


def test_the_document_language_becomes_the_target_language(mirror):
    document = translated(word_file(), mirror, target_lang="de")
    languages = document.styles.element.findall(".//" + qn("w:lang"))
    assert languages and all(lang.get(qn("w:val")) == "de" for lang in languages)


def test_a_run_that_names_no_language_keeps_it(same):
    """Code in a run that says ``w:lang w:val="zxx"`` (no language: not checked for spelling) came
    out saying the target's, as every other run does."""
    data = word_paragraph('<w:r><w:t xml:space="preserve">Run </w:t></w:r><w:r><w:rPr>'
                          '<w:rFonts w:ascii="Courier New" w:hAnsi="Courier New"/><w:lang w:val="zxx"/></w:rPr>'
                          '<w:t>ls -l /tmp</w:t></w:r><w:r><w:rPr><w:lang w:val="en-US"/></w:rPr>'
                          '<w:t xml:space="preserve"> to list files.</w:t></w:r>')
    paragraph = translated(data, same, target_lang="de").paragraphs[-1]
    said = {run.text: lang.get(qn("w:val")) for run in paragraph.runs
            if (lang := run._r.find(f"{qn('w:rPr')}/{qn('w:lang')}")) is not None}
    assert said["ls -l /tmp"] == "zxx" and said[" to list files."] == "de"


def test_untouched_members_keep_their_bytes_and_the_order(mirror):
    data = word_file()
    before, after = read_members(data), read_members(translate_office(data, ".docx", mirror, DocumentOptions()))
    changed = {name for name in before if before[name] != after[name]}
    assert list(after) == list(before)
    assert changed == {"word/document.xml", "word/header1.xml", "word/footer1.xml"}


def with_member(data: bytes, member: str, xml: str, content_type: str) -> bytes:
    members = read_members(data)
    members[member] = xml.encode()
    types = members["[Content_Types].xml"].decode()
    members["[Content_Types].xml"] = types.replace(
        "</Types>", f'<Override PartName="/{member}" ContentType="{content_type}"/></Types>').encode()
    return write_members(members)


FOOTNOTES = (f'<w:footnotes xmlns:w="{W}"><w:footnote w:id="1"><w:p><w:r><w:t>The boy laughs.</w:t></w:r></w:p>'
             "</w:footnote></w:footnotes>")


def test_footnotes_are_translated(mirror):
    data = with_member(word_file(), "word/footnotes.xml", FOOTNOTES,
                       "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml")
    out = read_members(translate_office(data, ".docx", mirror, DocumentOptions()))["word/footnotes.xml"]
    assert [t.text for t in etree.fromstring(out).iter(f"{{{W}}}t")] == ["LAUGHS. BOY THE"]


def test_comments_are_translated(mirror):
    document = docx.Document()
    paragraph = document.add_paragraph("A dog runs.")
    document.add_comment(paragraph.runs, text="The cat sleeps.", author="A")
    out = translated(docx_bytes(document), mirror)
    assert [c.text for c in out.comments] == ["SLEEPS. CAT THE"]


def test_a_text_box_is_translated_inside_its_translated_paragraph(mirror):
    document = docx.Document()
    paragraph = document.add_paragraph("A dog runs ")
    box = etree.fromstring(f'<w:r xmlns:w="{W}" xmlns:v="urn:schemas-microsoft-com:vml"><w:pict><v:shape>'
                           "<v:textbox><w:txbxContent><w:p><w:r><w:t>The boy laughs.</w:t></w:r></w:p>"
                           "</w:txbxContent></v:textbox></v:shape></w:pict></w:r>")
    paragraph._p.append(box)
    paragraph.add_run(" fast.")
    body = translated(docx_bytes(document), mirror).paragraphs[0]._p
    inner = body.findall(".//" + qn("w:txbxContent"))
    assert len(inner) == 1 and "".join(t.text for t in inner[0].iter(qn("w:t"))) == "LAUGHS. BOY THE"
    outer = "".join(t.text for r in body.iterchildren(qn("w:r")) for t in r.iterchildren(qn("w:t")))
    assert outer.split() == ["FAST.", "RUNS", "DOG", "A"]


def test_a_hyperlinked_word_in_a_glossary_sentence_reaches_the_translator_whole(same):
    document = docx.Document()
    paragraph = document.add_paragraph("See the ")
    add_hyperlink(paragraph, "red car", "https://example.org")
    paragraph.add_run(" now.")
    translated(docx_bytes(document), same)
    assert same.given == ["See the red car now."]  # a glossary term across runs is matched on this text


def test_progress_counts_sentences(mirror, monkeypatch):
    from attnmt.documents import office

    monkeypatch.setattr(office, "CHUNK", 2)
    seen = []
    translate_office(word_file(), ".docx", mirror, DocumentOptions(), progress=lambda done, total: seen.append(
        (done, total)))
    # 3 body paragraphs (the second two sentences: a tab ends one), one cell ("42" has no words to
    # translate), the header and the footer
    assert seen == [(0, 7), (3, 7), (5, 7), (7, 7)]
    document = docx.Document()
    document.add_paragraph("A dog runs. A cat sleeps on the mat.")
    document.add_paragraph("Two men talk.")
    seen.clear()
    monkeypatch.setattr(office, "CHUNK", 1)
    translate_office(docx_bytes(document), ".docx", mirror, DocumentOptions(), progress=lambda *p: seen.append(p))
    assert seen == [(0, 3), (2, 3), (3, 3)]


def test_a_sentence_repeated_across_calls_is_translated_once_and_keeps_its_formatting(mirror, monkeypatch):
    from attnmt.documents import office

    document = docx.Document()
    for page in range(3):  # a footer-like line on every "page", plain on the first, one word bold after
        document.add_paragraph(f"Page {page + 1} text.")
        line = document.add_paragraph("A dog runs on the ")
        line.add_run("green").bold = page > 0
        line.add_run(" grass.")
    data = docx_bytes(document)
    whole = translated(data, mirror)
    monkeypatch.setattr(office, "CHUNK", 2)  # a call for each page
    mirror.given.clear()
    paged = translated(data, mirror)
    assert mirror.given.count("A dog runs on the green grass.") == 1
    assert [runs(p) for p in paged.paragraphs] == [runs(p) for p in whole.paragraphs]
    assert runs(paged.paragraphs[5]) == [("GRASS. ", None), ("GREEN", True), (" THE ON RUNS DOG A", None)]


@pytest.mark.parametrize("suffix", [".docm"])
def test_macro_files_are_translated_when_allowed(mirror, suffix):
    out = translate_office(word_file(), suffix, mirror, DocumentOptions(macros=True))
    assert docx.Document(io.BytesIO(out)).paragraphs[0].text == "GRASS. GREEN THE ON RUNS DOG A"


def test_a_tracked_move_and_a_custom_xml_element_are_translated_and_the_old_place_kept(mirror):
    document = docx.Document()
    paragraph = document.add_paragraph("A woman ")
    revision = f'xmlns:w="{W}" w:id="1" w:author="A" w:date="2024-01-01T00:00:00Z"'
    paragraph._p.append(etree.fromstring(f'<w:customXml xmlns:w="{W}" w:element="who"><w:r><w:t>walks '
                                         "her dog.</w:t></w:r></w:customXml>"))
    moved_from = document.add_paragraph()._p
    moved_from.append(etree.fromstring(f"<w:moveFrom {revision}><w:r><w:delText>The cat sleeps.</w:delText></w:r>"
                                       "</w:moveFrom>"))
    moved_to = document.add_paragraph()._p
    moved_to.append(etree.fromstring(f"<w:moveTo {revision.replace('1', '2', 1)}><w:r><w:t>The cat sleeps.</w:t>"
                                     "</w:r></w:moveTo>"))
    out = read_members(translate_office(docx_bytes(document), ".docx", mirror, DocumentOptions()))
    body = etree.fromstring(out["word/document.xml"]).find(qn("w:body"))
    texts = ["".join(p.itertext()) for p in body.iter(qn("w:p"))]
    assert texts == ["DOG. HER WALKS WOMAN A", "The cat sleeps.", "SLEEPS. CAT THE"]
    assert body.find(f".//{qn('w:customXml')}") is not None and body.find(f".//{qn('w:moveTo')}") is not None


def ranged_paragraph_file() -> bytes:
    """A paragraph with a comment's anchor and a bookmark over "ate the apple", each end right after
    the last word, before the space, as Word writes them."""
    document = docx.Document()
    paragraph = document.add_paragraph("The man ")
    for tag in ("commentRangeStart", "bookmarkStart"):
        paragraph._p.append(etree.fromstring(f'<w:{tag} xmlns:w="{W}" w:id="7" w:name="b"/>'))
    paragraph.add_run("ate the apple")
    for tag in ("bookmarkEnd", "commentRangeEnd"):
        paragraph._p.append(etree.fromstring(f'<w:{tag} xmlns:w="{W}" w:id="7"/>'))
    paragraph.add_run(" today.")
    return docx_bytes(document)


def test_a_range_keeps_its_end_after_its_start_when_the_words_come_back_reversed(mirror):
    """Mirror puts "today." first: the ends, placed before its translation, would come before the starts."""
    out = read_members(translate_office(ranged_paragraph_file(), ".docx", mirror, DocumentOptions()))
    paragraph = etree.fromstring(out["word/document.xml"]).find(f".//{qn('w:p')}")
    tags = [etree.QName(child).localname for child in paragraph.iter() if "Range" in str(child.tag)
            or "bookmark" in str(child.tag)]
    assert tags == ["commentRangeStart", "bookmarkStart", "bookmarkEnd", "commentRangeEnd"]
    assert "".join(paragraph.itertext()) == "TODAY. APPLE THE ATE MAN THE"


def looked(parts: list[tuple[str, str]], translator) -> list[tuple[str, str]]:
    """(text, look) of each run of a paragraph of ``parts`` translated: look "u" underlined, "b" bold, "" plain."""
    document = docx.Document()
    paragraph = document.add_paragraph()
    for text, look in parts:
        run = paragraph.add_run(text)
        run.underline, run.bold = look == "u" or None, look == "b" or None
    out = translated(docx_bytes(document), translator).paragraphs[0]
    return [(run.text, "u" if run.underline else "b" if run.bold else "") for run in out.runs]


EURO = Glossary.of({"2012": "zweitausendzwölf", "€": "Euro"})


@pytest.mark.parametrize("parts, expected", [
    ([("2012", "u"), (" €", "")], [("zweitausendzwölf", "u"), (" Euro", "")]),
    ([("€ ", ""), ("2012", "u")], [("Euro ", ""), ("zweitausendzwölf", "u")]),
])
def test_a_plain_space_beside_an_underlined_base_stays_plain(parts, expected):
    """Put outside its run, the plain space took the base's underline, drawn across the word gap."""
    assert looked(parts, FoundTranslations({}, glossary=EURO)) == expected


@pytest.mark.parametrize("look, expected", [
    ("u", [("Ein Hund rennt auf dem grünen Gras", "u"), (" heute.", "")]),
    ("b", [("Ein Hund rennt auf dem grünen Gras ", "b"), ("heute.", "")]),  # a bold space looks plain: as before
])
def test_a_runs_edge_space_keeps_its_look_where_the_base_shows_on_spaces(fixed, look, expected):
    translator = fixed("Ein Hund rennt auf dem grünen Gras heute.", [(k, k) for k in range(8)])
    assert looked([("A dog runs on the green grass", look), (" today.", "")], translator) == expected


def test_anchors_and_bookmarks_add_no_spaces_of_their_own(same):
    paragraph = translated(ranged_paragraph_file(), same).paragraphs[0]
    assert paragraph.text == "The man ate the apple today."


@pytest.mark.parametrize("parts", [["Name:", "\t", "*John Smith"], ["*Name:", "*\t", "John Smith"],
                                   ["See", "\n", "*below"], ["*See", "\n", "*below"]])
def test_a_tab_or_break_where_the_formatting_changes_takes_the_place_of_a_space(same, parts):
    """"*" marks a bold run: the break is at the edge of its run, the space it replaces outside it."""
    document = docx.Document()
    paragraph = document.add_paragraph()
    for part in parts:
        run = paragraph.add_run()
        run.bold = part.startswith("*")
        text = part.lstrip("*")
        if text == "\t":
            run.add_tab()
        elif text == "\n":
            run.add_break()
        else:
            run.text = text
    assert translated(docx_bytes(document), same).paragraphs[0].text == "".join(p.lstrip("*") for p in parts)


@pytest.mark.parametrize("after, given", [("Anna Smith", ["Best regards,", "Anna Smith"]),
                                          ("and thanks", ["Best regards, and thanks"])])
def test_a_line_break_ends_its_sentence_unless_the_next_line_goes_on_in_lower_case(mirror, after, given):
    """As a <br> in HTML does: read as a space, "Best regards, Anna Smith" was one sentence."""
    data = word_paragraph(f"<w:r><w:t>Best regards,</w:t><w:br/><w:t>{after}</w:t></w:r>")
    assert translated(data, mirror).paragraphs[-1].text.count("\n") == 1  # the break kept once
    assert mirror.given == given


def test_a_bold_run_over_a_line_break_that_ends_a_sentence_is_parted_where_its_words_went_apart(mirror):
    """Bold "runs." w:br "A cat": one bold span made "DOG THE" and "SLEEPS." bold too; each sentence
    now has its own bold run, and the break stands between them in a plain one."""
    data = word_paragraph('<w:r><w:t xml:space="preserve">The dog </w:t></w:r>'
                          '<w:r><w:rPr><w:b/></w:rPr><w:t>runs.</w:t><w:br/><w:t>A cat</w:t></w:r>'
                          '<w:r><w:t xml:space="preserve"> sleeps.</w:t></w:r>')
    paragraph = translated(data, mirror).paragraphs[-1]
    assert runs(paragraph) == [("RUNS.", True), (" DOG THE\nSLEEPS. ", None), ("CAT A", True)]


@pytest.mark.parametrize("wrap, name, named", [
    ('<w:ins w:id="7" w:author="A" w:date="2024-01-01T00:00:00Z">{}</w:ins>', "ins", b'w:id="7"'),
    ('<w:sdt><w:sdtPr><w:id w:val="7"/></w:sdtPr><w:sdtContent>{}</w:sdtContent></w:sdt>', "sdt", b'<w:id w:val="7"/>'),
], ids=["insertion", "content-control"])
def test_a_tracked_insertion_or_control_over_a_line_break_that_ends_a_sentence_is_not_parted(mirror, wrap, name,
                                                                                            named):
    """Parted, the insertion (or the control) was written once in each sentence, both with w:id 7: Word
    takes an id to name one element, and a reviewer saw one insertion as two."""
    data = word_paragraph('<w:r><w:t xml:space="preserve">The dog </w:t></w:r>'
                          + wrap.format("<w:r><w:t>runs.</w:t><w:br/><w:t>A cat</w:t></w:r>")
                          + '<w:r><w:t xml:space="preserve"> sleeps.</w:t></w:r>')
    out = translate_office(data, ".docx", mirror, DocumentOptions())
    assert word_children(out) == [(name, "RUNS. DOG THESLEEPS. CAT A")]  # one span, as before it was parted
    assert read_members(out)["word/document.xml"].count(named) == 1


def test_a_run_with_a_tracked_formatting_change_over_a_line_break_that_ends_a_sentence_is_not_parted(mirror):
    """The change's w:id sits in the run's own properties (w:rPr/w:rPrChange): parted, each sentence's run
    carried a copy, two formatting changes of the one id 9."""
    change = '<w:rPrChange w:id="9" w:author="A" w:date="2024-01-01T00:00:00Z"><w:rPr/></w:rPrChange>'
    data = word_paragraph('<w:r><w:t xml:space="preserve">The dog </w:t></w:r>'
                          f'<w:r><w:rPr><w:b/>{change}</w:rPr><w:t>runs.</w:t><w:br/><w:t>A cat</w:t></w:r>'
                          '<w:r><w:t xml:space="preserve"> sleeps.</w:t></w:r>')
    out = translate_office(data, ".docx", mirror, DocumentOptions())
    assert word_children(out) == [("r", "RUNS. DOG THESLEEPS. CAT A")]
    assert read_members(out)["word/document.xml"].count(b'w:id="9"') == 1


def test_a_tracked_formatting_change_in_the_bases_look_is_written_once(upper):
    """The run with the most words carried a tracked formatting change (w:rPrChange w:id="2"): as the
    base, its look was written for every text the translation put outside the marks, here the space
    before "RUNS" and the words after it, two changes of the one id 2 (ECMA-376 17.13.1 wants it
    unique).  The base is its look without the change now, and the run a mark over its words."""
    def change(number: int) -> str:
        return f'<w:rPrChange w:id="{number}" w:author="A" w:date="2024-01-01T00:00:00Z"><w:rPr/></w:rPrChange>'

    data = word_paragraph(f'<w:r><w:rPr><w:i/>{change(1)}</w:rPr><w:t xml:space="preserve">a dog </w:t></w:r>'
                          '<w:r><w:rPr><w:b/></w:rPr><w:t>runs</w:t></w:r>'
                          f'<w:r><w:rPr><w:i/>{change(2)}</w:rPr>'
                          '<w:t xml:space="preserve"> very fast today.</w:t></w:r>')
    out = translate_office(data, ".docx", upper, DocumentOptions())
    document = read_members(out)["word/document.xml"]
    assert document.count(b'w:id="1"') == 1 and document.count(b'w:id="2"') == 1
    assert "".join(text for _, text in word_children(out)) == "A DOG RUNS VERY FAST TODAY."


def field_run(kind: str) -> etree._Element:
    return etree.fromstring(f'<w:r xmlns:w="{W}"><w:fldChar w:fldCharType="{kind}"/></w:r>')


def bibliography_file() -> bytes:
    """A bibliography as Word writes it: one BIBLIOGRAPHY field whose begin is in its first entry's
    paragraph and whose end is in its last's, then a paragraph of the body."""
    document = docx.Document()
    entries = [document.add_paragraph() for _ in range(3)]
    entries[0]._p.append(field_run("begin"))
    entries[0]._p.append(etree.fromstring(f'<w:r xmlns:w="{W}"><w:instrText> BIBLIOGRAPHY</w:instrText></w:r>'))
    entries[0]._p.append(field_run("separate"))
    for entry, title in zip(entries, ("bird, 3", "cat on the roof, 2", "dog in the park, 1"), strict=True):
        entry.add_run(title)
    entries[-1]._p.append(field_run("end"))
    document.add_paragraph("The dog runs.")
    return docx_bytes(document)


def test_a_field_over_several_paragraphs_keeps_all_its_text(mirror):
    """Each entry of the bibliography is inside the field (docs: the text between a field's begin and
    end is kept), not only the one its begin is in; the field's end closes it for what follows."""
    paragraphs = translated(bibliography_file(), mirror).paragraphs
    assert [p.text for p in paragraphs] == ["bird, 3", "cat on the roof, 2", "dog in the park, 1", "RUNS. DOG THE"]
    assert mirror.given == ["The dog runs."]


def test_a_field_never_ended_keeps_no_more_than_its_paragraph(mirror):
    """A damaged file's field with no end: carried on, it kept the rest of the document untranslated."""
    document = docx.Document()
    first = document.add_paragraph()
    first._p.extend([field_run("begin"), field_run("separate")])
    first.add_run("Old result")
    document.add_paragraph("the dog runs.")
    assert [p.text for p in translated(docx_bytes(document), mirror).paragraphs] == ["Old result", "RUNS. DOG THE"]


def test_a_text_box_inside_a_field_over_two_paragraphs_is_a_story_of_its_own(mirror):
    """The box's paragraph comes, in document order, while the field around its anchor is open."""
    document = docx.Document()
    first, second = document.add_paragraph(), document.add_paragraph()
    first._p.extend([field_run("begin"), field_run("separate")])
    first.add_run("Old result")
    first._p.append(etree.fromstring(f'<w:r xmlns:w="{W}" xmlns:v="urn:schemas-microsoft-com:vml"><w:pict>'
                                     "<v:shape><v:textbox><w:txbxContent><w:p><w:r><w:t>The boy laughs.</w:t></w:r>"
                                     "</w:p></w:txbxContent></v:textbox></v:shape></w:pict></w:r>"))
    second.add_run("here")
    second._p.append(field_run("end"))
    body = translated(docx_bytes(document), mirror).paragraphs
    box = body[0]._p.find(".//" + qn("w:txbxContent"))
    assert [t.text for t in box.iter(qn("w:t"))] == ["LAUGHS. BOY THE"]
    assert [p.text for p in body] == ["Old result", "here"]


def test_a_word_after_a_fields_end_does_not_stick_to_its_result(fixed):
    """"[SEQ]1[end]: A boy jumps.": the result "1" shows, the end after it does not, and the source had no word
    there; the caption's separator stays between them, its text read after it (fields.after_caption_separator)."""
    document = docx.Document()
    paragraph = document.add_paragraph()
    paragraph._p.extend([field_run("begin"), etree.fromstring(f'<w:r xmlns:w="{W}"><w:instrText> SEQ Figure '
                                                              "</w:instrText></w:r>"), field_run("separate")])
    paragraph.add_run("1")
    paragraph._p.append(field_run("end"))
    paragraph.add_run(": A boy jumps.")
    out = translated(docx_bytes(document), fixed("Ein Junge springt.", [(0, 0), (1, 1), (2, 2)]))
    assert out.paragraphs[0].text == "1: Ein Junge springt."


def hyphen_file(before: str, element: str, after: str) -> bytes:
    """A Word paragraph of one run: ``before``, a ``w:{element}`` (noBreakHyphen, softHyphen), ``after``."""
    document = docx.Document()
    run = document.add_paragraph().add_run(before)
    run._r.append(run._r.makeelement(qn(f"w:{element}"), {}))
    run._r.add_t(after)
    return docx_bytes(document)


@pytest.mark.parametrize("translation, kept", [("Er ist ein self-made Mann.", 1), ("Er ist ein SELF-MADE Mann.", 1),
                                               ("Er ist ein Selfmade-Mann.", 0)], ids=["same", "case", "changed"])
def test_a_non_breaking_hyphen_reaches_the_model_as_a_hyphen_and_stays_in_a_kept_word(fixed, translation, kept):
    translator = fixed(translation, [(k, k) for k in range(5)])
    paragraph = translated(hyphen_file("He is a self", "noBreakHyphen", "made man."), translator).paragraphs[0]
    assert translator.given == ["He is a self-made man."]
    assert paragraph.text == translation  # python-docx reads w:noBreakHyphen as "-"
    assert len(paragraph._p.findall(f".//{qn('w:noBreakHyphen')}")) == kept


@pytest.mark.parametrize("before, after, term", [("The Cafe\u0301", "Bar is open.", "Café-Bar"),
                                                 ("ये हिंदी", "भाषी लोग हैं।", "हिंदी-भाषी")], ids=["accent", "matra"])
def test_a_non_breaking_hyphen_after_a_combining_mark_is_a_words_hyphen(same, before, after, term):
    """After a letter's combining accent (a Mac's NFD text) or a Hindi vowel sign ("ी"), both no letter to
    str.isalnum, the hyphen was taken for one outside a word, an atom: the model read "CaféBar", "हिंदीभाषी",
    and the glossary's "Café-Bar" matched nothing."""
    paragraph = translated(hyphen_file(before, "noBreakHyphen", after), same).paragraphs[0]
    assert same.given == [f"{before}-{after}"]
    assert Glossary.of({term: "T"}).matches(same.given[0]) == ["T"]
    assert len(paragraph._p.findall(f".//{qn('w:noBreakHyphen')}")) == 1


def bookmarked_hyphen_file(at_hyphen: str) -> bytes:
    """"He is a self‑made man." with a bookmark around "made man." (``w:bookmarkStart`` ``at_hyphen``
    "before" or "after" the non-breaking hyphen's run, ``w:bookmarkEnd`` at the paragraph's end)."""
    document = docx.Document()
    paragraph = document.add_paragraph()._p
    start = paragraph.makeelement(qn("w:bookmarkStart"), {qn("w:id"): "0", qn("w:name"): "made"})
    hyphen = paragraph.makeelement(qn("w:noBreakHyphen"), {})
    first, second = paragraph.add_r(), paragraph.add_r()
    first.add_t("He is a self")
    (first if at_hyphen == "after" else second).append(hyphen)
    paragraph.insert(paragraph.index(second), start)
    second.add_t("made man.")
    paragraph.append(paragraph.makeelement(qn("w:bookmarkEnd"), {qn("w:id"): "0"}))
    return docx_bytes(document)


@pytest.mark.parametrize("at_hyphen", ["before", "after"])
def test_a_non_breaking_hyphen_beside_a_bookmark_stays_non_breaking(same, at_hyphen):
    """The bookmark's start, an atom between "self-" and "made", cut the text into two pieces, and
    neither held the word "self-made" whose hyphen was non-breaking: it came back a plain "-"."""
    paragraph = translated(bookmarked_hyphen_file(at_hyphen), same).paragraphs[0]
    assert same.given == ["He is a self-made man."]
    assert paragraph.text == "He is a self-made man."  # python-docx reads w:noBreakHyphen as "-"
    assert len(paragraph._p.findall(f".//{qn('w:noBreakHyphen')}")) == 1
    assert len(paragraph._p.findall(f".//{qn('w:bookmarkStart')}")) == 1


def test_a_soft_hyphen_is_dropped_as_spelling_marks_are(same):
    paragraph = translated(hyphen_file("The extra", "softHyphen", "ordinary dog runs."), same).paragraphs[0]
    assert same.given == ["The extraordinary dog runs."]
    assert [run.text for run in paragraph.runs] == ["The extraordinary dog runs."]
    assert paragraph._p.find(f".//{qn('w:softHyphen')}") is None


@pytest.mark.parametrize("before, after, given", [("", "A dog runs.", "A dog runs."), ("A dog runs", "", "A dog runs"),
                                                  ("It is ", "10 degrees.", "It is 10 degrees.")],
                         ids=["start", "end", "minus"])
def test_a_non_breaking_hyphen_outside_a_word_is_kept_where_it_stood(same, before, after, given):
    """Sent as "-", it was lost: "-A dog runs." came back "A dog runs.", "-10" as "10"."""
    paragraph = translated(hyphen_file(before, "noBreakHyphen", after), same).paragraphs[0]
    assert same.given == [given]
    assert paragraph.text == f"{before}-{after}"  # python-docx reads w:noBreakHyphen as "-"
    assert len(paragraph._p.findall(f".//{qn('w:noBreakHyphen')}")) == 1


def test_a_part_named_with_a_superscript_digit_is_translated(mirror):
    """"²" is a digit to str.isdigit but no number to int: the parts' order raised ValueError
    for a header named header1²2.xml, and nothing was translated."""
    members = read_members(word_file())
    members["word/header1²2.xml"] = members.pop("word/header1.xml")
    for name in ("[Content_Types].xml", "word/_rels/document.xml.rels"):
        members[name] = members[name].replace(b"header1.xml", "header1²2.xml".encode())
    out = read_members(translate_office(write_members(members), ".docx", mirror, DocumentOptions()))
    assert b"TEXT. HEADER THE" in out["word/header1²2.xml"]


def test_empty_paragraphs_make_no_job(upper, monkeypatch):
    """A security test's part of millions of ``<w:p/>`` (200 MB, a 342 KB file) ran for minutes: each
    empty paragraph was read as a job (its runs merged, its styles' looks, its flat text) to find it
    had no words.  Here 20,000 of them make no job, and stay as they were around the translated one."""
    members = read_members(word_paragraph("<w:r><w:t>The dog runs.</w:t></w:r>"))
    body = members["word/document.xml"]
    members["word/document.xml"] = body.replace(b"<w:body>", b"<w:body>" + b"<w:p/>" * 20_000)
    made = []  # the paragraphs read as jobs

    def job(paragraph, *rest) -> ParagraphJob:
        made.append(paragraph)
        return ParagraphJob(paragraph, *rest)

    monkeypatch.setattr(ooxml_paragraphs, "ParagraphJob", job)
    document = translated(write_members(members), upper)
    assert upper.given == ["The dog runs."]
    assert len(made) == 1  # the paragraph with words
    assert [paragraph.text for paragraph in document.paragraphs] == [""] * 20_000 + ["THE DOG RUNS."]


def test_a_line_feed_in_a_words_text_is_a_space_within_its_sentence(same, mirror):
    """Word writes a line break as ``w:br``; a generator's literal "\\n" in ``w:t`` (docxtemplater, a
    hand-written template) Word and LibreOffice show as a space.  Read as a line break, it split the
    sentence in two ("The dog runs" and "fast today."), each half translated alone."""
    data = word_paragraph('<w:r><w:t xml:space="preserve">The dog runs\nfast today.\r\nIt sleeps.</w:t></w:r>')
    translated(data, same)
    assert same.given == ["The dog runs fast today.", "It sleeps."]
    assert translated(data, mirror).paragraphs[0].text == "TODAY. FAST RUNS DOG THE SLEEPS. IT"


def test_a_bold_part_of_a_chinese_sentence_stays_on_part_of_its_translation(fixed):
    """Chinese has no spaces: "这是重要的句子。" is one word to the alignment, every target word aligned
    to it, and the bold "重要" made the whole translation bold.  It keeps its proportional place."""
    bold = "<w:rPr><w:b/></w:rPr>"
    data = word_paragraph(f"<w:r><w:t>这是</w:t></w:r><w:r>{bold}<w:t>重要</w:t></w:r><w:r><w:t>的句子。</w:t></w:r>")
    translator = fixed("This is an important sentence.", [(0, k) for k in range(5)])
    assert runs(translated(data, translator).paragraphs[0]) == [
        ("This is ", None), ("an", True), (" important sentence.", None)]
