"""LibreOffice's content controls whose content is a value they write, as a .docx's become in an .odt: a date
picker's date and a list's chosen item are kept whole, the list's items translated and the chosen one following
them (attnmt.documents.opendocument_controls); a control of words is translated inside it, as before."""

import subprocess

import pytest
from flat_files import zipped_file
from lxml import etree
from office_files import SOFFICE, read_members, word_paragraph
from support import everything_listed

from attnmt.documents.office import translate_office
from attnmt.documents.opendocument_code import LOEXT, TEXT
from attnmt.documents.pipeline import DocumentOptions

DATE = ('<loext:content-control loext:date="true" loext:date-format="MMMM d, yyyy" loext:date-rfc-language-tag="en-US"'
        ' loext:current-date="2024-05-01T00:00:00Z">May 1, 2024</loext:content-control>')
ITEMS = ('<loext:list-item loext:display-text="Choose an item." loext:value=""/>'
         '<loext:list-item loext:display-text="Very hungry" loext:value="H"/>'
         '<loext:list-item loext:display-text="Tired" loext:value="T"/>')


def control_paragraph(translator, inline: str) -> etree._Element:
    """The paragraph of ``inline`` (text: and loext: names) in an .odt, translated by ``translator``."""
    body = f'<office:text><text:p xmlns:loext="{LOEXT}">{inline}</text:p></office:text>'
    out = translate_office(zipped_file(body=body, masters=""), ".odt", translator, DocumentOptions())
    return etree.fromstring(read_members(out)["content.xml"]).find(f".//{{{TEXT}}}p")


def items(paragraph: etree._Element) -> list[tuple[str, str]]:
    return [(item.get(f"{{{LOEXT}}}display-text"), item.get(f"{{{LOEXT}}}value"))
            for item in paragraph.iter(f"{{{LOEXT}}}list-item")]


def test_a_date_controls_date_is_kept_whole_where_it_stands(upper):
    """Read as a mark, the demo model wrote "Spieler in der Mitte des" for "May 1, 2024"."""
    paragraph = control_paragraph(upper, f"The dog was born on {DATE} in the park.")
    control = paragraph.find(f"{{{LOEXT}}}content-control")
    assert upper.given == ["The dog was born on in the park."]
    assert (control.text, control.get(f"{{{LOEXT}}}date-format")) == ("May 1, 2024", "MMMM d, yyyy")
    assert "".join(paragraph.itertext()) == "THE DOG WAS BORN ON May 1, 2024 IN THE PARK."


@pytest.mark.parametrize("kind", ["", ' loext:dropdown="true"', ' loext:combobox="true"'])
def test_a_lists_items_are_translated_and_its_chosen_item_follows(upper, kind):
    """LibreOffice 7.4 marks a list by its items alone, later ones say dropdown or combobox: the items stayed
    English and the chosen one was translated as words of the sentence, no item of the list."""
    paragraph = control_paragraph(upper, f"The dog is <loext:content-control{kind}>{ITEMS}Very hungry"
                                         "</loext:content-control> after the walk.")
    control = paragraph.find(f"{{{LOEXT}}}content-control")
    assert upper.given == ["The dog is after the walk.", "Choose an item.", "Very hungry", "Tired"]
    assert items(paragraph) == [("CHOOSE AN ITEM.", ""), ("VERY HUNGRY", "H"), ("TIRED", "T")]
    assert "".join(control.itertext()) == "VERY HUNGRY"
    assert "".join(paragraph.itertext()) == "THE DOG IS VERY HUNGRY AFTER THE WALK."


def test_an_item_without_display_text_is_shown_by_its_value_and_given_its_translation(upper):
    """LibreOffice shows an item's value where it has no display text: that is what a reader picks from."""
    listed = ('<loext:list-item loext:value="Red apples"/><loext:list-item loext:value="Green pears"/>'
              '<text:span text:style-name="T1">Green pears</text:span>')
    paragraph = control_paragraph(upper, f"Buy <loext:content-control>{listed}</loext:content-control> today.")
    assert items(paragraph) == [("RED APPLES", "Red apples"), ("GREEN PEARS", "Green pears")]
    span = paragraph.find(f".//{{{TEXT}}}span")
    assert (span.text, span.get(f"{{{TEXT}}}style-name")) == ("GREEN PEARS", "T1")


def test_a_combo_boxs_typed_text_that_is_no_item_is_kept(upper):
    paragraph = control_paragraph(upper, f'Colour: <loext:content-control loext:combobox="true">{ITEMS}'
                                         "sky blue</loext:content-control>")
    assert "".join(paragraph.find(f"{{{LOEXT}}}content-control").itertext()) == "sky blue"
    assert items(paragraph)[1:] == [("VERY HUNGRY", "H"), ("TIRED", "T")]


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice is not installed")
def test_a_word_files_controls_converted_by_libreoffice_keep_their_date_and_list(upper, tmp_path):
    """The real thing: a .docx's date picker and drop-down list as LibreOffice writes them in an .odt."""
    date = ('<w:sdt><w:sdtPr><w:date w:fullDate="2024-05-01T00:00:00Z"><w:dateFormat w:val="MMMM d, yyyy"/>'
            '</w:date></w:sdtPr><w:sdtContent><w:r><w:t>May 1, 2024</w:t></w:r></w:sdtContent></w:sdt>')
    listed = ('<w:sdt><w:sdtPr><w:dropDownList><w:listItem w:displayText="Very hungry" w:value="H"/>'
              '<w:listItem w:displayText="Tired" w:value="T"/></w:dropDownList></w:sdtPr>'
              '<w:sdtContent><w:r><w:t>Tired</w:t></w:r></w:sdtContent></w:sdt>')
    words = '<w:r><w:t xml:space="preserve">{}</w:t></w:r>'
    (tmp_path / "form.docx").write_bytes(word_paragraph(words.format("Born on ") + date + words.format(" and ")
                                                        + listed + words.format(" now.")))
    profile = (tmp_path / "profile").as_uri()
    subprocess.run([SOFFICE, f"-env:UserInstallation={profile}", "--headless", "--convert-to", "odt", "--outdir",
                    str(tmp_path), str(tmp_path / "form.docx")], check=True, capture_output=True, timeout=180)
    out = translate_office((tmp_path / "form.odt").read_bytes(), ".odt", upper, DocumentOptions())
    controls = list(etree.fromstring(read_members(out)["content.xml"]).iter(f"{{{LOEXT}}}content-control"))
    assert ["".join(control.itertext()) for control in controls] == ["May 1, 2024", "TIRED"]
    assert items(controls[1]) == [("VERY HUNGRY", "H"), ("TIRED", "T")]


PROMPTED = ' loext:showing-place-holder="true"'


@pytest.mark.parametrize("kind", [DATE.replace(" loext:date=", f"{PROMPTED} loext:date="),
                                  f"<loext:content-control{PROMPTED}>{ITEMS}May 1, 2024</loext:content-control>"],
                         ids=["date", "list"])
def test_a_date_or_list_control_showing_its_placeholder_has_its_prompt_translated(upper, kind):
    """A control showing its placeholder shows a prompt, no value of its own: read as words, as Word's is."""
    paragraph = control_paragraph(upper, f"The dog was born on {kind.replace('May 1, 2024', 'Enter a date.')}")
    assert upper.given[0] == "The dog was born on Enter a date."
    assert "".join(paragraph.find(f"{{{LOEXT}}}content-control").itertext()) == "ENTER A DATE."


CAR_ITEMS = ('<loext:list-item loext:display-text="a red car" loext:value="R"/>'
             '<loext:list-item loext:display-text="a boat" loext:value="B"/>')
SHOWING_A_RED_CAR = {  # each thing kept whole in its sentence that shows "a red car", one of its choices
    "content control": f'<loext:content-control loext:dropdown="true">{CAR_ITEMS}a red car</loext:content-control>',
    "control in a span": (f'<text:span text:style-name="T1"><loext:content-control loext:combobox="true">{CAR_ITEMS}'
                          '<text:span text:style-name="T2">a red car</text:span></loext:content-control></text:span>'),
    "input list": '<text:drop-down><text:label text:value="a red car"/><text:label text:value="a boat"/>a red car'
                  '</text:drop-down>',
    "conditional text": ('<text:conditional-text text:condition="ooow:Car == 1" text:string-value-if-true="a boat"'
                         ' text:string-value-if-false="a red car">a red car</text:conditional-text>'),
}


@pytest.mark.parametrize("inline", SHOWING_A_RED_CAR.values(), ids=SHOWING_A_RED_CAR.keys())
def test_a_review_row_shows_the_translated_choice_the_paragraph_shows(upper, inline):
    """The choice follows its translation once the paragraph is reviewed: the row showed the English the document
    no longer shows ("THE MAN DRIVES a red car TO THE BEACH."), in the second paragraph as in the first."""
    review = everything_listed()
    body = (f'<office:text><text:p>The cat sleeps.</text:p><text:p xmlns:loext="{LOEXT}">The man drives {inline}'
            ' to the beach.</text:p></office:text>')
    out = translate_office(zipped_file(body=body, masters=""), ".odt", upper, DocumentOptions(), review=review)
    shown = etree.fromstring(read_members(out)["content.xml"]).findall(f".//{{{TEXT}}}p")[1]
    assert "".join(shown.itertext()).endswith("THE MAN DRIVES A RED CAR TO THE BEACH.")
    assert [(row["paragraph"], row["translation"]) for row in review.rows()][:2] == [
        (1, "THE CAT SLEEPS."), (2, "THE MAN DRIVES A RED CAR TO THE BEACH.")]


@pytest.mark.parametrize("inline", SHOWING_A_RED_CAR.values(), ids=SHOWING_A_RED_CAR.keys())
@pytest.mark.parametrize(("alone", "language", "written"), [
    ("Ein rotes Auto.", "de", "ein rotes Auto"), ("Une voiture rouge.", "fr-FR", "une voiture rouge"),
    ("Rotes Auto.", None, "rotes Auto"), ("Auto und Boot.", "de", "Auto und Boot")])
def test_a_chosen_item_inside_a_sentence_is_written_as_a_part_of_it(sentencing, inline, alone, language, written):
    """Translated alone, the choice came back a sentence with a capital: "Der Mann fährt Ein rotes Auto am Strand."
    (the demo model), where the source item is written in lower case inside its sentence."""
    translator = sentencing({"a red car": alone})
    body = f'<office:text><text:p xmlns:loext="{LOEXT}">The man drives {inline} to the beach.</text:p></office:text>'
    out = translate_office(zipped_file(body=body, masters=""), ".odt", translator,
                           DocumentOptions(target_lang=language))
    paragraph = etree.fromstring(read_members(out)["content.xml"]).find(f".//{{{TEXT}}}p")
    assert "".join(paragraph.itertext()) == f"The man drives {written} to the beach."


@pytest.mark.parametrize("inline", SHOWING_A_RED_CAR.values(), ids=SHOWING_A_RED_CAR.keys())
def test_each_choices_own_review_row_shows_it_as_the_document_writes_it(sentencing, inline):
    """The choices' rows showed the model's sentences ("Ein rotes Auto.") where the document offers and shows "ein
    rotes Auto"."""
    review = everything_listed()
    translator = sentencing({"a red car": "Ein rotes Auto.", "a boat": "Ein Boot."})
    body = f'<office:text><text:p xmlns:loext="{LOEXT}">The man drives {inline} to the beach.</text:p></office:text>'
    translate_office(zipped_file(body=body, masters=""), ".odt", translator, DocumentOptions(target_lang="de"),
                     review=review)
    rows = {row["source"]: row["translation"] for row in review.rows()}
    assert (rows["a red car"], rows["a boat"]) == ("ein rotes Auto", "ein Boot")
