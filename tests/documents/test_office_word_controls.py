"""Word's content controls whose content is no words of the sentence: a date picker's date, a
drop-down list's or a combo box's chosen item are kept whole (attnmt.documents.word_controls); a
data-bound control's store value follows its translated text, or the control is kept whole where
the store cannot be set (attnmt.documents.bound_controls)."""

import io
import subprocess

import docx
import pytest
from lxml import etree
from office_files import (
    SOFFICE,
    W,
    docx_bytes,
    paragraph_texts,
    read_members,
    word_children,
    word_paragraph,
    write_members,
)
from support import everything_listed

from attnmt.documents.bound_controls import plain_text, set_text
from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

BORN = '<w:r><w:t xml:space="preserve">The dog was born on </w:t></w:r>'
STOP = "<w:r><w:t>.</w:t></w:r>"
DATE = ('<w:date w:fullDate="2024-05-01T00:00:00Z"><w:dateFormat w:val="MMMM d, yyyy"/><w:lid w:val="en-US"/>'
        "</w:date>")
LIST = '<w:listItem w:displayText="May 1, 2024" w:value="1"/><w:listItem w:displayText="June 2" w:value="2"/>'
KINDS = {"date": DATE, "dropDownList": f"<w:dropDownList>{LIST}</w:dropDownList>",
         "comboBox": f"<w:comboBox>{LIST}</w:comboBox>"}
CORE = "{6C3C8BC8-F283-45AE-878A-BAB7291924A1}"  # the core properties' store
DC = "http://purl.org/dc/elements/1.1/"
TITLE = (f"xmlns:ns0='{DC}' xmlns:ns1='http://schemas.openxmlformats.org/package/2006/metadata/core-properties'",
         "/ns1:coreProperties[1]/ns0:title[1]")
ITEM = "{EF278816-EC6F-A645-907D-7F25AECB1D4A}"  # the item id of python-docx's template's customXml/item1.xml
NAME = ("xmlns:ns0='urn:test'", "/ns0:Data[1]/ns0:Name[1]")
W15 = "http://schemas.microsoft.com/office/word/2012/wordml"  # Word 2013's names: its data binding, repeating sections
NAMES = b'<ns0:Data xmlns:ns0="urn:test"><ns0:Name>The black dog</ns0:Name><ns0:Name>Rex</ns0:Name></ns0:Data>'


def control(properties: str, text: str) -> str:
    return (f'<w:sdt><w:sdtPr><w:id w:val="2"/>{properties}</w:sdtPr><w:sdtContent><w:r><w:t>{text}</w:t></w:r>'
            "</w:sdtContent></w:sdt>")


def data_binding(store: str, binding: tuple[str, str], name: str = "w:dataBinding") -> str:
    mappings, xpath = binding
    declared = f' xmlns:w15="{W15}"' if name.startswith("w15:") else ""
    return f'<{name}{declared} w:prefixMappings="{mappings}" w:xpath="{xpath}" w:storeItemID="{store}"/>'


def bound(store: str, binding: tuple[str, str], text: str = "The black dog") -> str:
    return control(data_binding(store, binding) + "<w:text/>", text)


def titled(*paragraphs: str, item: bytes | None = None) -> bytes:
    """A Word file of ``paragraphs`` (word_paragraph) titled "The black dog"; ``item``: its custom XML part's XML."""
    members = read_members(word_paragraph(*paragraphs))
    members["docProps/core.xml"] = members["docProps/core.xml"].replace(b"<dc:title/>",
                                                                          b"<dc:title>The black dog</dc:title>")
    if item is not None:
        members["customXml/item1.xml"] = item
    return write_members(members)


def store_title(data: bytes) -> str:
    return etree.fromstring(read_members(data)["docProps/core.xml"]).findtext(f"{{{DC}}}title")


@pytest.mark.parametrize(("kind", "shown"), [("date", "May 1, 2024"), ("dropDownList", "MAY 1, 2024"),
                                             ("comboBox", "MAY 1, 2024")])
def test_a_date_or_a_lists_chosen_item_is_kept_whole_where_it_stands(upper, kind, shown):
    """Read as a mark, "May 1, 2024" was translated as words ("einem Bein, als 2 2 2 2"), and a drop-down's
    choice came back as no item of its list: the control is one atom, as a DATE field's result is (a list's
    choice then shows its item's translation: attnmt.documents.word_lists)."""
    out = translate_office(word_paragraph(BORN + control(KINDS[kind], "May 1, 2024") + STOP), ".docx", upper,
                           DocumentOptions())
    assert upper.given[0] == "The dog was born on."
    assert word_children(out) == [("r", "THE DOG WAS BORN ON "), ("sdt", shown), ("r", ".")]


def test_a_drop_down_lists_items_are_translated_and_its_choice_shows_its_items_translation(upper):
    """A translated form offered English choices, and showed one among German words.  Each item's
    shown text is translated (a value alone is what Word shows), its value kept; the review lists them."""
    items = ('<w:listItem w:displayText="Choose an item." w:value=""/><w:listItem w:displayText="Yes" w:value="Y"/>'
             '<w:listItem w:value="Not yet"/>')
    review = everything_listed()
    out = translate_office(word_paragraph(BORN + control(f"<w:dropDownList>{items}</w:dropDownList>", "Not yet")
                                          + STOP), ".docx", upper, DocumentOptions(), review=review)
    body = etree.fromstring(read_members(out)["word/document.xml"])
    assert [(item.get(f"{{{W}}}displayText"), item.get(f"{{{W}}}value")) for item in body.iter(f"{{{W}}}listItem")] == [
        ("CHOOSE AN ITEM.", ""), ("YES", "Y"), ("NOT YET", "Not yet")]
    assert word_children(out) == [("r", "THE DOG WAS BORN ON "), ("sdt", "NOT YET"), ("r", ".")]
    assert [(row["paragraph"], row["source"]) for row in review.rows()] == [
        (1, "The dog was born on Not yet."), (2, "Choose an item."), (3, "Yes"), (4, "Not yet")]


@pytest.mark.parametrize("kind", ["dropDownList", "comboBox"])
def test_a_review_row_shows_the_translated_item_a_list_control_shows(upper, kind):
    """The control's choice follows its item's translation once the paragraph is reviewed: the row showed the
    English item the document no longer shows ("Der Mann fährt a red car", the document "ein rotes Auto")."""
    items = '<w:listItem w:displayText="a red car" w:value="1"/><w:listItem w:displayText="a boat" w:value="2"/>'
    review = everything_listed()
    out = translate_office(word_paragraph('<w:r><w:t xml:space="preserve">The man drives </w:t></w:r>'
                                          + control(f"<w:{kind}>{items}</w:{kind}>", "a red car")
                                          + '<w:r><w:t xml:space="preserve"> to the red beach.</w:t></w:r>'),
                           ".docx", upper, DocumentOptions(), review=review)
    assert paragraph_texts(out) == ["THE MAN DRIVES A RED CAR TO THE RED BEACH."]
    assert [(row["paragraph"], row["source"], row["translation"]) for row in review.rows()][0] == (
        1, "The man drives a red car to the red beach.", "THE MAN DRIVES A RED CAR TO THE RED BEACH.")


def test_a_review_row_shows_the_text_a_bound_control_takes_from_the_first(upper):
    """A second control bound to the title, kept whole in its sentence, takes the first one's translation: the row
    showed its English."""
    review = everything_listed()
    out = translate_office(titled(bound(CORE, TITLE), BORN + bound(CORE, TITLE) + STOP), ".docx", upper,
                           DocumentOptions(), review=review)
    assert paragraph_texts(out) == ["THE BLACK DOG", "THE DOG WAS BORN ON THE BLACK DOG."]
    assert [(row["paragraph"], row["translation"]) for row in review.rows()] == [
        (1, "THE BLACK DOG"), (2, "THE DOG WAS BORN ON THE BLACK DOG.")]


def test_a_date_picker_around_a_paragraph_keeps_its_paragraph(upper):
    """A cover page's date is a control around its paragraph: its date was translated as words."""
    document = docx.Document()
    document.add_paragraph("The dog runs.")
    picker = etree.fromstring(f'<w:sdt xmlns:w="{W}"><w:sdtPr>{DATE}</w:sdtPr><w:sdtContent><w:p><w:r>'
                              "<w:t>May 1, 2024</w:t></w:r></w:p></w:sdtContent></w:sdt>")
    document.element.body.insert(0, picker)
    out = translate_office(docx_bytes(document), ".docx", upper, DocumentOptions())
    assert upper.given == ["The dog runs."]
    assert paragraph_texts(out) == ["May 1, 2024", "THE DOG RUNS."]


def test_a_control_bound_to_the_documents_title_sets_the_title(upper):
    """Word and LibreOffice show a bound control's store value: the title stayed "The black dog" in core.xml,
    and the reader saw it again in English."""
    out = translate_office(titled(bound(CORE, TITLE)), ".docx", upper, DocumentOptions())
    assert paragraph_texts(out) == ["THE BLACK DOG"]
    assert store_title(out) == "THE BLACK DOG"


def test_a_control_bound_to_a_custom_xml_part_sets_its_element(upper):
    out = translate_office(titled(bound(ITEM, NAME), item=NAMES), ".docx", upper, DocumentOptions())
    assert paragraph_texts(out) == ["THE BLACK DOG"]
    assert [name.text for name in etree.fromstring(read_members(out)["customXml/item1.xml"])] == [
        "THE BLACK DOG", "Rex"]


@pytest.mark.parametrize("store, binding, title", [
    (CORE, (TITLE[0], "/ns1:coreProperties[1]/ns0:subject[2]"), "The black dog"),
    ("{00000000-0000-0000-0000-000000000000}", TITLE, "THE BLACK DOG"),
    (CORE, (TITLE[0], "//ns0:title"), "The black dog"), (ITEM, NAME, "THE BLACK DOG")],
    ids=["no-such-element", "no-such-store", "not-a-simple-path", "no-such-element-in-item"])
def test_a_control_whose_binding_cannot_be_set_is_kept_whole(upper, store, binding, title):
    """Translated, its text and its store disagreed, and the reader saw the store's English.  The document's
    title is left to a control bound to the core properties, and translated on its own where none is
    (attnmt.documents.package_properties)."""
    out = translate_office(titled(BORN + bound(store, binding) + STOP), ".docx", upper, DocumentOptions())
    assert upper.given == ["The dog was born on."] + (["The black dog"] if title == "THE BLACK DOG" else [])
    assert paragraph_texts(out) == ["THE DOG WAS BORN ON The black dog."]
    assert store_title(out) == title


def test_controls_bound_to_one_element_all_take_the_firsts_translation(upper):
    out = translate_office(titled(bound(CORE, TITLE), BORN + bound(CORE, TITLE) + STOP), ".docx", upper,
                           DocumentOptions())
    assert upper.given == ["The black dog", "The dog was born on."]
    assert paragraph_texts(out) == ["THE BLACK DOG", "THE DOG WAS BORN ON THE BLACK DOG."]
    assert store_title(out) == "THE BLACK DOG"


def item_names(data: bytes) -> list[str]:
    return [name.text for name in etree.fromstring(read_members(data)["customXml/item1.xml"])]


@pytest.mark.parametrize("bindings", [(("w15:dataBinding", CORE, TITLE),),
                                      (("w:dataBinding", CORE, TITLE), ("w15:dataBinding", CORE, TITLE)),
                                      (("w:dataBinding", CORE, TITLE), ("w15:dataBinding", ITEM, NAME))],
                         ids=["instead-of-w", "beside-w", "beside-w-elsewhere"])
def test_a_control_bound_in_word_2013s_namespace_sets_its_store(upper, bindings):
    """Word 2013 and later bind with ``w15:dataBinding`` beside ``w:dataBinding`` or alone: alone, it was not read,
    the control's words were translated, and the store kept the English Word shows on opening.  Each store the
    control is bound to is set."""
    properties = "".join(data_binding(store, binding, name) for name, store, binding in bindings) + "<w:text/>"
    out = translate_office(titled(control(properties, "The black dog"), item=NAMES), ".docx", upper,
                           DocumentOptions())
    read = docx.Document(io.BytesIO(out))
    assert read.core_properties.title == "THE BLACK DOG"
    assert paragraph_texts(out)[-1] == "THE BLACK DOG"
    assert item_names(out) == ["THE BLACK DOG" if ("w15:dataBinding", ITEM, NAME) in bindings else "The black dog",
                               "Rex"]


TITLE_AND_NAME = control(data_binding(CORE, TITLE) + data_binding(ITEM, NAME, "w15:dataBinding") + "<w:text/>",
                         "The black dog")


@pytest.mark.parametrize("first_bound_to_title_alone", [True, False], ids=["title-first", "title-and-name-first"])
def test_each_store_a_control_is_bound_to_is_set_whatever_the_order(upper, first_bound_to_title_alone):
    """A control bound to the title and to a Name, after one bound to the title alone, was given the title's
    translation while its Name stayed English; in the other order both were set."""
    controls = [bound(CORE, TITLE), BORN + TITLE_AND_NAME + STOP]
    out = translate_office(titled(*(controls if first_bound_to_title_alone else controls[::-1]), item=NAMES),
                           ".docx", upper, DocumentOptions())
    assert store_title(out) == "THE BLACK DOG"
    assert item_names(out) == ["THE BLACK DOG", "Rex"]


def test_a_w15_binding_that_cannot_be_read_beside_a_readable_one_is_passed_over(upper):
    """The control was kept whole, its readable title store left English; now it is translated and sets that."""
    name_of_rex = ("xmlns:ns0='urn:test'", "/ns0:Data[1]/ns0:Name[.='Rex']")
    properties = data_binding(CORE, TITLE) + data_binding(ITEM, name_of_rex, "w15:dataBinding") + "<w:text/>"
    out = translate_office(titled(BORN + control(properties, "The black dog") + STOP, item=NAMES), ".docx", upper,
                           DocumentOptions())
    assert paragraph_texts(out)[-1] == "THE DOG WAS BORN ON THE BLACK DOG."
    assert store_title(out) == "THE BLACK DOG"
    assert item_names(out) == ["The black dog", "Rex"]


def test_a_w15_binding_that_cannot_be_read_alone_keeps_the_control_whole(upper):
    properties = data_binding(CORE, (TITLE[0], "//ns0:title"), "w15:dataBinding") + "<w:text/>"
    out = translate_office(titled(BORN + control(properties, "The black dog") + STOP), ".docx", upper,
                           DocumentOptions())
    assert paragraph_texts(out)[-1] == "THE DOG WAS BORN ON The black dog."
    assert store_title(out) == "The black dog"


def test_a_repeating_section_bound_in_word_2013s_namespace_is_translated(upper):
    """A repeating section's ``w15:dataBinding`` names the items Word repeats its content for, not a text: the
    section is no value of its store, and its words are translated as any control's."""
    section = control(data_binding(ITEM, ("xmlns:ns0='urn:test'", "/ns0:Data[1]/ns0:Name"), "w15:dataBinding")
                      + f'<w15:repeatingSection xmlns:w15="{W15}"/>', "The black dog")
    out = translate_office(titled(section, item=NAMES), ".docx", upper, DocumentOptions())
    assert paragraph_texts(out)[-1] == "THE BLACK DOG"
    assert item_names(out) == ["The black dog", "Rex"]


TRACKED = 'w:id="5" w:author="A" w:date="2024-01-01T00:00:00Z"'
# A control's run as Word shows none of it: a tracked deletion (its words w:delText, or w:t as some writers put
# them), hidden (w:vanish), the old place of a tracked move (w:moveFrom).
UNSHOWN = {"deleted": f"<w:del {TRACKED}><w:r><w:delText>The black dog</w:delText></w:r></w:del>",
           "deleted-as-text": f"<w:del {TRACKED}><w:r><w:t>The black dog</w:t></w:r></w:del>",
           "hidden": "<w:r><w:rPr><w:vanish/></w:rPr><w:t>The black dog</w:t></w:r>",
           "moved-away": f"<w:moveFrom {TRACKED}><w:r><w:t>The black dog</w:t></w:r></w:moveFrom>"}


def unshown(control_xml: str, kind: str) -> str:
    """``control_xml`` (bound) with its run made one Word shows none of (UNSHOWN[kind]): it shows no text."""
    return control_xml.replace("<w:r><w:t>The black dog</w:t></w:r>", UNSHOWN[kind])


@pytest.mark.parametrize("kind", UNSHOWN)
def test_a_bound_control_that_shows_no_text_does_not_set_the_store(upper, kind):
    """One holding a tracked deletion alone came first and set the title to "", and the control after it,
    which showed the title, was blanked; one holding hidden or moved-away words alone set the title to those
    English words, and the control after it showed them: the first that shows text leads."""
    out = translate_office(titled(unshown(bound(CORE, TITLE), kind), BORN + bound(CORE, TITLE) + STOP), ".docx",
                           upper, DocumentOptions())
    assert paragraph_texts(out)[1:] == ["THE DOG WAS BORN ON THE BLACK DOG."]
    assert UNSHOWN[kind].encode() in read_members(out)["word/document.xml"]
    assert store_title(out) == "THE BLACK DOG"


@pytest.mark.parametrize("kind", UNSHOWN)
def test_a_store_that_no_bound_control_shows_text_of_is_left_as_it_is(upper, kind):
    out = translate_office(titled(unshown(bound(CORE, TITLE), kind)), ".docx", upper, DocumentOptions())
    assert store_title(out) == "The black dog"
    assert UNSHOWN[kind].encode() in read_members(out)["word/document.xml"]


def test_a_leading_controls_hidden_words_are_not_written_to_its_store(upper):
    """Word shows the store's value in the control, and a reader does not see the hidden note: the store holds
    the words shown, translated."""
    note = "<w:r><w:rPr><w:vanish/></w:rPr><w:t xml:space=\"preserve\"> [check the name]</w:t></w:r>"
    leading = bound(CORE, TITLE).replace("</w:sdtContent>", note + "</w:sdtContent>")
    out = translate_office(titled(leading), ".docx", upper, DocumentOptions())
    assert store_title(out) == "THE BLACK DOG"
    assert docx.Document(io.BytesIO(out)).core_properties.title == "THE BLACK DOG"



def test_a_following_controls_hidden_note_stays_hidden_and_its_shown_words_take_the_text(upper):
    """Its first text element was the hidden note's: the translation was written there, hidden, and the words
    shown taken out, so that Word showed nothing of the control."""
    note = '<w:r><w:rPr><w:vanish/></w:rPr><w:t xml:space="preserve">[draft] </w:t></w:r>'
    following = bound(CORE, TITLE).replace("<w:sdtContent>", "<w:sdtContent>" + note)
    out = translate_office(titled(bound(CORE, TITLE), BORN + following + STOP), ".docx", upper, DocumentOptions())
    assert paragraph_texts(out) == ["THE BLACK DOG", "THE DOG WAS BORN ON [draft] THE BLACK DOG."]
    assert note.encode() in read_members(out)["word/document.xml"]

@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_libreoffice_shows_a_bound_controls_translation(upper, tmp_path):
    (tmp_path / "cover.docx").write_bytes(translate_office(titled(bound(CORE, TITLE)), ".docx", upper,
                                                           DocumentOptions()))
    profile = (tmp_path / "profile").as_uri()  # a profile of its own: never the user's, never shared
    run = subprocess.run([SOFFICE, f"-env:UserInstallation={profile}", "--headless", "--convert-to", "txt:Text",
                          "--outdir", str(tmp_path / "txt"), "cover.docx"], cwd=tmp_path, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "txt" / "cover.txt").read_text(encoding="utf-8-sig").split() == ["THE", "BLACK", "DOG"]


MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"


def alternate(choice: str, fallback: str) -> str:
    """An ``mc:AlternateContent`` of one Choice and its Fallback (w: names)."""
    return (f'<mc:AlternateContent xmlns:mc="{MC}"><mc:Choice Requires="w14">{choice}</mc:Choice>'
            f"<mc:Fallback>{fallback}</mc:Fallback></mc:AlternateContent>")


def text_box(text: str) -> str:
    """A drawing's text box (DrawingML, as Word writes it in a run) holding a paragraph of ``text``."""
    return ('<w:drawing xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
            'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
            'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wp:inline>'
            '<wp:extent cx="914400" cy="457200"/><wp:docPr id="1" name="Text Box 1"/><a:graphic><a:graphicData '
            'uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:txbx>'
            f"<w:txbxContent><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:txbxContent></wps:txbx><wps:bodyPr/>"
            "</wps:wsp></a:graphicData></a:graphic></wp:inline></w:drawing>")


# The text box's copy for readers without DrawingML (Word writes it as VML, a w:pict, in the mc:Fallback)
VML_NOTE = "<w:r><w:pict><w:txbxContent><w:p><w:r><w:t>A note.</w:t></w:r></w:p></w:txbxContent></w:pict></w:r>"


def control_of(content: str) -> etree._Element:
    return etree.fromstring(f'<w:sdt xmlns:w="{W}"><w:sdtPr/><w:sdtContent>{content}</w:sdtContent></w:sdt>')


def test_a_controls_text_reads_one_branch_of_alternate_content():
    """Word shows the first Choice alone: both branches read, the store took "AAB"."""
    runs = alternate("<w:r><w:t>A</w:t></w:r>", "<w:r><w:t>A</w:t></w:r>") + "<w:r><w:t>B</w:t></w:r>"
    assert plain_text(control_of(runs)) == "AB"
    assert plain_text(control_of(alternate("", "<w:r><w:t>A</w:t></w:r>"))) == ""  # the Choice shows nothing
    assert plain_text(control_of(f'<mc:AlternateContent xmlns:mc="{MC}"><mc:Fallback><w:r><w:t>A</w:t></w:r>'
                                 "</mc:Fallback></mc:AlternateContent>")) == "A"  # no Choice: the Fallback


def test_a_controls_text_holds_no_text_boxs_words():
    """A plain-text control's value is its runs' text: the text box's paragraph (and its VML copy) is a story of
    its own, translated as such."""
    box = alternate(f"<w:r>{text_box('A note.')}</w:r>", VML_NOTE)
    assert plain_text(control_of(f"<w:r><w:t>The black dog</w:t></w:r><w:r>{text_box('A note.')}</w:r>{box}")) == (
        "The black dog")


def test_a_bound_controls_store_takes_neither_its_text_box_nor_its_copy(upper):
    """The store took "THE BLACK DOGA NOTE.A NOTE.": the text box's words and those of its VML copy after the
    control's own.  The text box's paragraph (and its copy's) is translated where it stands."""
    box = alternate(f"<w:r>{text_box('A note.')}</w:r>", VML_NOTE)
    content = f"<w:r><w:t>The black dog</w:t></w:r>{box}"
    leading = bound(CORE, TITLE).replace("<w:r><w:t>The black dog</w:t></w:r>", content)
    out = translate_office(titled(leading), ".docx", upper, DocumentOptions())
    assert docx.Document(io.BytesIO(out)).core_properties.title == "THE BLACK DOG"
    assert paragraph_texts(out)[-2:] == ["A NOTE.", "A NOTE."]  # the text box's and its copy's paragraph


def test_a_following_controls_fallback_copy_takes_its_text_too(upper):
    """Only the Choice was written: the Fallback copy, which a reader of it shows, kept "The black dog"."""
    runs = alternate("<w:r><w:t>The black dog</w:t></w:r>", "<w:r><w:t>The black dog</w:t></w:r>")
    following = bound(CORE, TITLE).replace("<w:r><w:t>The black dog</w:t></w:r>", runs)
    out = translate_office(titled(bound(CORE, TITLE), BORN + following + STOP), ".docx", upper, DocumentOptions())
    body = etree.fromstring(read_members(out)["word/document.xml"])
    assert ["".join(branch.itertext()) for branch in body.iter(f"{{{MC}}}Choice", f"{{{MC}}}Fallback")] == [
        "THE BLACK DOG", "THE BLACK DOG"]


def test_a_fallback_copy_of_words_taken_out_of_the_choice_is_taken_out_too(upper):
    """The control's text is written into its first text element, before the AlternateContent: the Choice's
    "dog" goes, and so does its Fallback copy's, or a reader of the copy showed "THE BLACK DOGdog"."""
    runs = "<w:r><w:t>The black </w:t></w:r>" + alternate("<w:r><w:t>dog</w:t></w:r>", "<w:r><w:t>dog</w:t></w:r>")
    following = bound(CORE, TITLE).replace("<w:r><w:t>The black dog</w:t></w:r>", runs)
    out = translate_office(titled(bound(CORE, TITLE), BORN + following + STOP), ".docx", upper, DocumentOptions())
    body = etree.fromstring(read_members(out)["word/document.xml"])
    assert ["".join(branch.itertext()) for branch in body.iter(f"{{{MC}}}Choice", f"{{{MC}}}Fallback")] == ["", ""]


def test_a_control_in_a_text_box_leaves_the_text_boxs_fallback_copy_to_its_own_control():
    """The AlternateContent around the control is none of its own: its Fallback is the text box's copy."""
    control = '<w:sdt><w:sdtPr/><w:sdtContent><w:r><w:t>The black dog</w:t></w:r></w:sdtContent></w:sdt>'
    paragraph = etree.fromstring(f'<w:p xmlns:w="{W}">{alternate(control, "<w:r><w:t>A copy</w:t></w:r>")}</w:p>')
    assert set_text(paragraph.find(f".//{{{W}}}sdt"), "THE BLACK DOG")
    assert ["".join(branch.itertext()) for branch in paragraph.iter(f"{{{MC}}}Choice", f"{{{MC}}}Fallback")] == [
        "THE BLACK DOG", "A copy"]


@pytest.mark.parametrize("where", ["its content", "the control"])
def test_a_leading_bound_control_in_alternate_content_takes_the_translation_of_the_next(upper, where):
    """The paragraph reads no runs of an ``mc:AlternateContent`` (one atom): the leading control's words, in one
    (its content's) or around it (the control and its Fallback copy), went unread, and set the store to them,
    untranslated; the next control bound to the title was given that English text.  The store now takes the
    first control's translation whose words are read, and each copy in the AlternateContent is given it."""
    runs = "<w:r><w:t>The black dog</w:t></w:r>"
    leading = (bound(CORE, TITLE).replace(runs, alternate(runs, runs)) if where == "its content"
               else alternate(bound(CORE, TITLE), bound(CORE, TITLE)))
    out = translate_office(titled(leading, BORN + bound(CORE, TITLE) + STOP), ".docx", upper, DocumentOptions())
    assert docx.Document(io.BytesIO(out)).core_properties.title == "THE BLACK DOG"
    assert paragraph_texts(out)[-1] == "THE DOG WAS BORN ON THE BLACK DOG."
    body = etree.fromstring(read_members(out)["word/document.xml"])
    assert ["".join(branch.itertext()) for branch in body.iter(f"{{{MC}}}Choice", f"{{{MC}}}Fallback")] == [
        "THE BLACK DOG", "THE BLACK DOG"]


PKG = "http://schemas.microsoft.com/office/2006/xmlPackage"


def rich_package(runs: str) -> str:
    """A rich-text control's store value as Word 2013 writes it: a Flat OPC package of a document of ``runs``."""
    return (f'<?xml version="1.0" standalone="yes"?><?mso-application progid="Word.Document"?>'
            f'<pkg:package xmlns:pkg="{PKG}"><pkg:part pkg:name="/word/document.xml" pkg:contentType="application/'
            f'vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"><pkg:xmlData><w:document '
            f'xmlns:w="{W}"><w:body><w:p>{runs}</w:p></w:body></w:document></pkg:xmlData></pkg:part></pkg:package>')


def test_a_rich_text_stores_package_takes_the_translation_and_keeps_its_look(upper):
    """A rich-text control bound by ``w15:dataBinding`` (no ``w:text``) holds its value as an escaped package:
    the store was given the plain text, and Word showed the control without its package's bold."""
    store = etree.fromstring(NAMES)
    store[0].text = rich_package("<w:r><w:rPr><w:b/></w:rPr><w:t>The black </w:t></w:r><w:r><w:t>dog</w:t></w:r>")
    rich = control(data_binding(ITEM, NAME, "w15:dataBinding"), "The black dog")
    out = translate_office(titled(rich, item=etree.tostring(store)), ".docx", upper, DocumentOptions())
    parts = {part.partname: part.blob for part in docx.Document(io.BytesIO(out)).part.package.iter_parts()}
    value = etree.fromstring(parts["/customXml/item1.xml"])[0].text
    assert value.startswith('<?xml version="1.0" standalone="yes"?><?mso-application progid="Word.Document"?>')
    runs = etree.fromstring(value.split("?>", 2)[2].encode()).findall(f".//{{{W}}}r")
    assert [("".join(run.itertext()), run.find(f"{{{W}}}rPr/{{{W}}}b") is not None) for run in runs] == [
        ("THE BLACK DOG", True), ("", False)]
    assert paragraph_texts(out)[-1] == "THE BLACK DOG"


def test_a_bound_control_with_words_beside_its_alternate_content_is_translated(upper):
    """Only the control's words all in an ``mc:AlternateContent`` go unread: one whose other words the paragraph
    reads is translated as ever, not kept whole untranslated for the "dog" its AlternateContent holds."""
    runs = "<w:r><w:t>The black </w:t></w:r>" + alternate("<w:r><w:t>dog</w:t></w:r>", "<w:r><w:t>dog</w:t></w:r>")
    out = translate_office(titled(bound(CORE, TITLE).replace("<w:r><w:t>The black dog</w:t></w:r>", runs)), ".docx",
                           upper, DocumentOptions())
    assert paragraph_texts(out)[-1].startswith("THE BLACK")


GLOSSARY = "word/glossary/document.xml"
PLACEHOLDER = "Click here to enter a name."
GLOSSARY_XML = (f'<w:glossaryDocument xmlns:w="{W}"><w:docParts><w:docPart><w:docPartPr><w:name w:val="Name"/>'
                '<w:category><w:name w:val="General"/><w:gallery w:val="placeholder"/></w:category>'
                '<w:guid w:val="{1B2C3D4E-0000-0000-0000-000000000001}"/></w:docPartPr><w:docPartBody><w:p><w:r>'
                f'<w:rPr><w:rStyle w:val="PlaceholderText"/></w:rPr><w:t>{PLACEHOLDER}</w:t></w:r></w:p>'
                '</w:docPartBody></w:docPart></w:docParts></w:glossaryDocument>')


def form_with_glossary() -> bytes:
    """A form whose content control shows its placeholder, kept in the glossary document as Word keeps it."""
    members = read_members(word_paragraph(
        '<w:sdt><w:sdtPr><w:id w:val="3"/><w:placeholder><w:docPart w:val="{1B2C3D4E-0000-0000-0000-000000000001}"/>'
        f'</w:placeholder><w:showingPlcHdr/></w:sdtPr><w:sdtContent><w:r><w:t>{PLACEHOLDER}</w:t></w:r>'
        "</w:sdtContent></w:sdt>"))
    members[GLOSSARY] = GLOSSARY_XML.encode()
    kind = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.glossary+xml"
    members["[Content_Types].xml"] = members["[Content_Types].xml"].replace(
        b"</Types>", f'<Override PartName="/{GLOSSARY}" ContentType="{kind}"/></Types>'.encode())
    members["word/_rels/document.xml.rels"] = members["word/_rels/document.xml.rels"].replace(
        b"</Relationships>", b'<Relationship Id="rId90" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
                             b'relationships/glossaryDocument" Target="glossary/document.xml"/></Relationships>')
    return write_members(members)


def test_a_controls_placeholder_in_the_glossary_document_is_translated_as_the_control_shows_it(upper):
    """The control showed its placeholder translated, but Word keeps it in the glossary document too,
    which was left in the source: emptied, the control showed the source's words again."""
    out = read_members(translate_office(form_with_glossary(), ".docx", upper, DocumentOptions()))
    assert PLACEHOLDER.upper().encode() in out["word/document.xml"]
    assert etree.fromstring(out[GLOSSARY]).findtext(f".//{{{W}}}t") == PLACEHOLDER.upper()


@pytest.mark.parametrize("kind", ["date", "dropDownList"])
def test_a_date_or_list_control_showing_its_placeholder_has_its_prompt_translated(upper, kind):
    """"Click or tap to enter a date." is no value of the control but a prompt: kept whole, it stayed English."""
    prompt = control("<w:showingPlcHdr/>" + KINDS[kind], "click or tap to enter a date")
    out = translate_office(word_paragraph(BORN + prompt + STOP), ".docx", upper, DocumentOptions())
    assert upper.given[0] == "The dog was born on click or tap to enter a date."
    assert word_children(out) == [("r", "THE DOG WAS BORN ON "), ("sdt", "CLICK OR TAP TO ENTER A DATE"), ("r", ".")]


# (the item, its translation as a model writes it alone, the target language, the item as a part of a sentence)
ITEMS_IN_A_SENTENCE = [
    ("a red car", "Ein rotes Auto.", "de", "ein rotes Auto"),  # an article
    ("two black dogs", "Zwei schwarze Hunde.", None, "zwei schwarze Hunde"),  # a number in words
    ("red cars", "Rote Autos.", "de", "rote Autos"),  # an adjective before its noun
    ("cars and boats", "Autos und Boote.", "de", "Autos und Boote"),  # a noun keeps its capital
    ("a red car", "Une voiture rouge.", "fr", "une voiture rouge"),  # French writes no noun with a capital
    ("Rex and Bella", "Rex und Bella.", "de", "Rex und Bella"),  # a name: the source's capital
    ("very tired!", "Sehr müde!", "de", "sehr müde!"),  # an adverb, the source's own stop
    ("happy", "Glücklich.", "de", "glücklich"),  # an adjective
    ("bikes", "Fahrräder.", "de", "Fahrräder"),  # a noun
]


@pytest.mark.parametrize(("item", "alone", "language", "written"), ITEMS_IN_A_SENTENCE)
def test_a_chosen_item_inside_a_sentence_is_written_as_a_part_of_it(sentencing, item, alone, language, written):
    """Translated alone, the item came back a sentence: "Der Mann fährt Ein rotes Auto. am Strand."."""
    items = f'<w:listItem w:displayText="{item}" w:value="1"/><w:listItem w:displayText="a boat" w:value="2"/>'
    out = translate_office(word_paragraph('<w:r><w:t xml:space="preserve">The man drives </w:t></w:r>'
                                          + control(f"<w:dropDownList>{items}</w:dropDownList>", item)
                                          + '<w:r><w:t xml:space="preserve"> to the beach.</w:t></w:r>'),
                           ".docx", sentencing({item: alone}), DocumentOptions(target_lang=language))
    assert paragraph_texts(out) == [f"The man drives {written} to the beach."]
    shown = etree.fromstring(read_members(out)["word/document.xml"]).find(f".//{{{W}}}listItem")
    assert shown.get(f"{{{W}}}displayText") == written


@pytest.mark.parametrize(("kind", "language", "alone", "written"), [
    ("dropDownList", "de", {"a red car": "Ein rotes Auto.", "two boats": "Zwei Boote."},
     ["ein rotes Auto", "zwei Boote"]),
    ("comboBox", "fr", {"a red car": "Une voiture rouge.", "two boats": "Deux bateaux."},
     ["une voiture rouge", "deux bateaux"]),
    ("dropDownList", "de", {"a red car": "Autos.", "two boats": "Rote Boote."}, ["Autos", "rote Boote"]),
])
def test_each_list_items_own_review_row_shows_the_item_the_list_offers(sentencing, kind, language, alone, written):
    """A reviewer saw the model's sentence, "Ein rotes Auto.", in the item's row, where the list offers "ein rotes
    Auto" (no stop its source lacks, lower case where the target writes it so)."""
    items = "".join(f'<w:listItem w:displayText="{item}" w:value="{k}"/>' for k, item in enumerate(alone))
    review = everything_listed()
    out = translate_office(word_paragraph('<w:r><w:t xml:space="preserve">The man drives </w:t></w:r>'
                                          + control(f"<w:{kind}>{items}</w:{kind}>", "a red car")
                                          + '<w:r><w:t xml:space="preserve"> to the beach.</w:t></w:r>'),
                           ".docx", sentencing(alone), DocumentOptions(target_lang=language), review=review)
    offered = etree.fromstring(read_members(out)["word/document.xml"]).iter(f"{{{W}}}listItem")
    assert [item.get(f"{{{W}}}displayText") for item in offered] == written
    assert [(row["paragraph"], row["source"], row["translation"]) for row in review.rows()][1:] == [
        (2, "a red car", written[0]), (3, "two boats", written[1])]
