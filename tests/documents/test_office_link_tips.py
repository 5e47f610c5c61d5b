"""A Word or PowerPoint link's screen tip is translated, its target kept (attnmt.documents.link_tips):
files built with python-docx and python-pptx, the tip set as Word and PowerPoint write it, read back with lxml."""

import io

import docx
import pptx
from lxml import etree
from office_files import W, docx_bytes, read_members, word_paragraph

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

A = "http://schemas.openxmlformats.org/drawingml/2006/main"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
URL = "https://example.com/dogs"


def linked_document(text: str, tip: str, language: str | None = None) -> bytes:
    """A Word file of one paragraph that is a link to URL reading ``text`` with the screen tip ``tip``
    (``w:tooltip``); ``language``: its run's (``zxx``: code, kept whole)."""
    document = docx.Document()
    paragraph = document.add_paragraph()._p
    rid = document.part.relate_to(URL, docx.opc.constants.RELATIONSHIP_TYPE.HYPERLINK, is_external=True)
    look = f'<w:rPr><w:lang w:val="{language}"/></w:rPr>' if language else ""
    paragraph.append(etree.fromstring(
        f'<w:hyperlink xmlns:w="{W}" xmlns:r="{R}" r:id="{rid}" w:tooltip="{tip}">'
        f"<w:r>{look}<w:t>{text}</w:t></w:r></w:hyperlink>"))
    return docx_bytes(document)


def word_link(data: bytes, mirror) -> tuple[etree._Element, bytes]:
    """The translated file's link, and the file."""
    out = translate_office(data, ".docx", mirror, DocumentOptions())
    return etree.fromstring(read_members(out)["word/document.xml"]).find(f".//{{{W}}}hyperlink"), out


def test_a_word_links_screen_tip_is_translated_and_its_target_kept(mirror):
    """``w:tooltip`` stayed in English beside the link's translated words."""
    data = linked_document("The dog runs.", "See the dog in the park.")
    link, out = word_link(data, mirror)
    assert link.get(f"{{{W}}}tooltip") == "PARK. THE IN DOG THE SEE"
    assert "".join(link.itertext()) == "RUNS. DOG THE"
    assert docx.Document(io.BytesIO(out)).part.rels[link.get(f"{{{R}}}id")].target_ref == URL


def test_a_word_links_screen_tip_in_a_paragraph_kept_whole_is_kept(mirror):
    """A paragraph of code (``zxx``: no job) keeps its link as it is, the tip with it."""
    link, _ = word_link(linked_document("ls -l /tmp", "See the dog in the park.", language="zxx"), mirror)
    assert link.get(f"{{{W}}}tooltip") == "See the dog in the park."
    assert "See the dog in the park." not in mirror.given


def linked_slide() -> bytes:
    """A slide whose text box's run links to URL with a screen tip, and whose box itself links to
    URL on a click and on the mouse resting on it (``p:cNvPr``'s ``a:hlinkClick`` and ``a:hlinkHover``)."""
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    box = slide.shapes.add_textbox(0, 0, 914400, 914400)
    run = box.text_frame.paragraphs[0].add_run()
    run.text = "The dog runs."
    run.hyperlink.address = URL
    run.hyperlink._hlinkClick.set("tooltip", "See the dog in the park.")
    box.click_action.hyperlink.address = URL
    click = box._element.nvSpPr.cNvPr.find(f"{{{A}}}hlinkClick")
    click.set("tooltip", "The cat sleeps.")
    hover = etree.SubElement(box._element.nvSpPr.cNvPr, f"{{{A}}}hlinkHover")
    hover.set(f"{{{R}}}id", click.get(f"{{{R}}}id"))
    hover.set("tooltip", "A bird sings.")
    out = io.BytesIO()
    deck.save(out)
    return out.getvalue()


def test_a_slides_links_screen_tips_are_translated_and_their_targets_kept(mirror):
    """A run's ``a:hlinkClick tooltip`` and a shape's (``hlinkClick``, ``hlinkHover``) stayed in English."""
    source = read_members(linked_slide())["ppt/slides/slide1.xml"]
    out = read_members(translate_office(linked_slide(), ".pptx", mirror, DocumentOptions()))
    slide = etree.fromstring(out["ppt/slides/slide1.xml"])
    tips = [(link.tag.split("}")[1], link.get("tooltip"), link.get(f"{{{R}}}id"))
            for link in slide.iter(f"{{{A}}}hlinkClick", f"{{{A}}}hlinkHover")]
    ids = [link.get(f"{{{R}}}id") for link in etree.fromstring(source).iter(f"{{{A}}}hlinkClick", f"{{{A}}}hlinkHover")]
    assert [(tag, tip) for tag, tip, _ in tips] == [
        ("hlinkClick", "SLEEPS. CAT THE"), ("hlinkHover", "SINGS. BIRD A"), ("hlinkClick", "PARK. THE IN DOG THE SEE")]
    assert [rid for _, _, rid in tips] == ids
    assert "".join(slide.find(f".//{{{A}}}r").itertext()) == "RUNS. DOG THE"
    assert URL.encode() in out["ppt/slides/_rels/slide1.xml.rels"]


def test_a_word_link_fields_screen_tip_is_translated_and_the_rest_of_its_code_kept(mirror):
    """A link field's tip is its code's ``\\o`` switch, in a ``w:instrText`` or a ``w:fldSimple``'s ``w:instr``:
    it stayed in English, the link's words translated.  Its escaped quotes are read as quotes and written
    escaped again; a contents field's ``\\o "1-3"`` (its heading levels) is no tip, and is kept."""
    complex_link = ('<w:r><w:t xml:space="preserve">Read </w:t></w:r><w:r><w:fldChar w:fldCharType="begin"/></w:r>'
                    '<w:r><w:instrText xml:space="preserve"> HYPERLINK "https://example.org/" \\o "Say \\"hi\\" now" '
                    '</w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>the guide</w:t>'
                    '</w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>'
                    '<w:r><w:t xml:space="preserve"> first.</w:t></w:r>')
    simple_link = ('<w:r><w:t xml:space="preserve">See </w:t></w:r><w:fldSimple w:instr=" HYPERLINK '
                   '&quot;https://example.org/&quot; \\o &quot;The help page&quot; "><w:r><w:t>our help</w:t></w:r>'
                   '</w:fldSimple><w:r><w:t xml:space="preserve"> now.</w:t></w:r>')
    contents = ('<w:r><w:t xml:space="preserve">The dog </w:t><w:fldChar w:fldCharType="begin"/><w:instrText>'
                ' TOC \\o "1-3" \\h </w:instrText><w:fldChar w:fldCharType="separate"/><w:t>1</w:t>'
                '<w:fldChar w:fldCharType="end"/><w:t xml:space="preserve"> runs.</w:t></w:r>')
    out = translate_office(word_paragraph(complex_link, simple_link, contents), ".docx", mirror, DocumentOptions())
    body = etree.fromstring(read_members(out)["word/document.xml"])
    assert [code.text for code in body.iter(f"{{{W}}}instrText")] == [
        ' HYPERLINK "https://example.org/" \\o "NOW \\"HI\\" SAY" ', ' TOC \\o "1-3" \\h ']
    assert body.find(f".//{{{W}}}fldSimple").get(f"{{{W}}}instr") == (
        ' HYPERLINK "https://example.org/" \\o "PAGE HELP THE" ')
