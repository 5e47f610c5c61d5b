"""Word's button fields, a template's prompts (attnmt.documents.word_buttons): the text in a MACROBUTTON's
or GOTOBUTTON's code is translated, and the result Word shows of it with it; the macro's or bookmark's
name is kept; and an OpenDocument macro field's text, what LibreOffice makes of a MACROBUTTON
(attnmt.documents.opendocument_conditions).

The Upper translator writes each sentence upper-cased: "[Type the town here]" -> "[TYPE THE TOWN HERE]"."""

import subprocess

import pytest
from flat_files import zipped_file
from lxml import etree
from office_files import SOFFICE, W, code_run, field_char, read_members, text_run, word_paragraph

from attnmt.documents.office import translate_office
from attnmt.documents.opendocument_code import TEXT
from attnmt.documents.pipeline import DocumentOptions


def run(inside: str) -> str:
    return f"<w:r>{inside}</w:r>"


def button(*codes: str, result: str) -> str:
    """A complex field of ``codes`` (each a w:instrText of its own) showing ``result``, as Word writes it."""
    return (field_char("begin") + "".join(code_run(part) for part in codes) + field_char("separate") + text_run(result)
            + field_char("end"))


def translated(paragraph: str, translator) -> tuple[list[str], str, str]:
    """The first paragraph of the translated document: its w:instrText's texts, its fields' w:instr joined, and
    its text (the fields' results among the runs' text)."""
    out = translate_office(word_paragraph(paragraph), ".docx", translator, DocumentOptions())
    body = etree.fromstring(read_members(out)["word/document.xml"]).find(f".//{{{W}}}p")
    codes = [node.text or "" for node in body.iter(f"{{{W}}}instrText")]
    simple = "".join(node.get(f"{{{W}}}instr") for node in body.iter(f"{{{W}}}fldSimple"))
    return codes, simple, "".join(node.text or "" for node in body.iter(f"{{{W}}}t"))


def test_a_macro_buttons_prompt_is_translated_in_its_code_and_result(upper):
    """A template's "[Type the town here]": kept as any field, the prompt stayed English in a translated
    sentence, and Word wrote the code's English again on each update."""
    field = button(" MACROBUTTON NoMacro [Type the town here] ", result="[Type the town here]")
    codes, _, shown = translated(text_run("Click ") + field + text_run(" to start."), upper)
    assert upper.given == ["Click to start.", "[Type the town here]"]
    assert codes == [" MACROBUTTON NoMacro [TYPE THE TOWN HERE] "]
    assert shown == "CLICK [TYPE THE TOWN HERE] TO START."


@pytest.mark.parametrize("kind", ["GOTOBUTTON", "gotobutton"])  # Word reads a field's kind in any case
def test_a_simple_goto_buttons_text_is_translated_and_its_bookmark_kept(upper, kind):
    field = f'<w:fldSimple w:instr=" {kind} Prices See the price list ">{text_run("See the price list")}</w:fldSimple>'
    _, simple, shown = translated(field, upper)
    assert (simple, shown) == (f" {kind} Prices SEE THE PRICE LIST ", "SEE THE PRICE LIST")


def test_a_prompt_over_several_codes_is_written_in_the_first(known):
    """Word splits a code where it was typed at different times; the prompt's other pieces are emptied."""
    translator = known({"[Your name]": ("[Ihr Name]", [(0, 0), (1, 1)])})
    field = button(" MACROBUTTON NoMacro [Your", " name] ", result="[Your name]")
    codes, _, shown = translated(field, translator)
    assert codes == [" MACROBUTTON NoMacro [Ihr Name]", " "] and shown == "[Ihr Name]"


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_libreoffice_shows_the_translated_prompt(upper, tmp_path):
    """LibreOffice reads a MACROBUTTON's text from its code (a text:execute-macro), not from its result."""
    field = button(" MACROBUTTON NoMacro [Type the town here] ", result="[Type the town here]")
    (tmp_path / "letter.docx").write_bytes(translate_office(word_paragraph(field), ".docx", upper, DocumentOptions()))
    profile = (tmp_path / "profile").as_uri()
    subprocess.run([SOFFICE, f"-env:UserInstallation={profile}", "--headless", "--convert-to", "txt:Text",
                    "--outdir", str(tmp_path), str(tmp_path / "letter.docx")], check=True, capture_output=True,
                   timeout=180)
    assert (tmp_path / "letter.txt").read_text(encoding="utf-8-sig").strip() == "[TYPE THE TOWN HERE]"


def test_an_odf_macro_fields_text_is_translated_after_its_listeners(upper):
    """LibreOffice's text:execute-macro, a MACROBUTTON of a .docx it opened: kept as any field, it stayed English."""
    listeners = ('<office:event-listeners><script:event-listener script:language="ooo:StarBasic" '
                 'script:event-name="dom:click" script:macro-name="document:Macro"/></office:event-listeners>')
    body = (f"<office:text><text:p>Click <text:execute-macro>{listeners}[Type the town here] </text:execute-macro>"
            " to start.</text:p></office:text>")
    out = translate_office(zipped_file(body=body, masters=""), ".odt", upper, DocumentOptions())
    field = next(etree.fromstring(read_members(out)["content.xml"]).iter(f"{{{TEXT}}}execute-macro"))
    assert upper.given == ["Click to start.", "[Type the town here]"]
    assert (field.text, len(field), field[0].tail, field.tail) == (None, 1, "[TYPE THE TOWN HERE] ", " TO START.")


PROMPT = " MACROBUTTON NoMacro [Type the name of the town here] "
HIGHLIGHT = '<w:rPr><w:highlight w:val="yellow"/></w:rPr>'
BOLD = '<w:rPr><w:b/><w:highlight w:val="yellow"/></w:rPr>'


def looked_runs(paragraph: str, translator) -> list[tuple[str, str]]:
    """(text, look) of each run of the translated paragraph's button result: "bold", "highlight" or "" (none)."""
    out = translate_office(word_paragraph(paragraph), ".docx", translator, DocumentOptions())
    body = etree.fromstring(read_members(out)["word/document.xml"]).find(f".//{{{W}}}p")
    found = []
    for node in body.iter(f"{{{W}}}t"):
        properties = node.getparent().find(f"{{{W}}}rPr")
        kind = "" if properties is None else "bold" if properties.find(f"{{{W}}}b") is not None else "highlight"
        found.append((node.text or "", kind))
    return found


@pytest.mark.parametrize(("translator", "runs"), [
    ("upper", [("[TYPE THE ", "highlight"), ("NAME", "bold"), (" OF THE TOWN HERE]", "highlight")]),
    ("german", [("[Geben Sie den ", "highlight"), ("Namen", "bold"), (" der Stadt ein]", "highlight")]),
])
def test_a_buttons_result_in_runs_of_several_looks_keeps_each_look_over_its_words(request, known, translator, runs):
    """A highlighted prompt with a bold word: written whole into its first run, the translation lost the bold and the
    later runs were left empty.  Each run's look goes over the translation of its words."""
    if translator == "german":
        sentence = "[Type the name of the town here]"
        pairs = [(0, 0), (0, 1), (1, 2), (2, 3), (3, 4), (4, 4), (5, 5), (6, 6)]
        translator = known({sentence: ("[Geben Sie den Namen der Stadt ein]", pairs)})
    else:
        translator = request.getfixturevalue(translator)
    result = (run(HIGHLIGHT + '<w:t xml:space="preserve">[Type the </w:t>') + run(BOLD + "<w:t>name</w:t>")
              + run(HIGHLIGHT + '<w:t xml:space="preserve"> of the town here]</w:t>'))
    field = field_char("begin") + code_run(PROMPT) + field_char("separate") + result + field_char("end")
    assert looked_runs(field, translator) == runs
