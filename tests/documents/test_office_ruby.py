"""A ruby (a phonetic guide: a reading set above the words it annotates) in a Word or OpenDocument
paragraph: its base is read with its sentence and translated, as HTML's ``<ruby>`` is, and its
annotation is not read, and stays with the base.  Mirror: words upper-cased in reverse order, each
aligned to its source word.  (DrawingML has no ruby: a slide has none to read.)"""

from lxml import etree
from office_files import W, odf_bytes, read_members, word_paragraph

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
RUBY_PROPERTIES = ('<w:rubyPr><w:hps w:val="10"/><w:hpsRaise w:val="20"/><w:hpsBaseText w:val="22"/>'
                   '<w:lid w:val="ja-JP"/></w:rubyPr>')


def word_ruby(look: str = "") -> str:
    """A run (of ``look``, its properties' content) that holds a ruby: "hon" set above "book"."""
    properties = f"<w:rPr>{look}</w:rPr>" if look else ""
    return (f"<w:r>{properties}<w:ruby>{RUBY_PROPERTIES}<w:rt><w:r><w:t>hon</w:t></w:r></w:rt>"
            "<w:rubyBase><w:r><w:t>book</w:t></w:r></w:rubyBase></w:ruby></w:r>")


def word_sentence(ruby: str) -> bytes:
    return word_paragraph('<w:r><w:t xml:space="preserve">The boy reads a </w:t></w:r>' + ruby
                          + '<w:r><w:t xml:space="preserve"> at home.</w:t></w:r>')


def word_rubies(data: bytes) -> list[tuple[str, str, bool]]:
    """(its annotation's text, its base's text, whether its properties are there) of each ruby of a
    Word file's first paragraph."""
    paragraph = etree.fromstring(read_members(data)["word/document.xml"]).find(f".//{{{W}}}p")

    def text(node: etree._Element | None) -> str:
        return "" if node is None else "".join(t.text or "" for t in node.iter(f"{{{W}}}t"))

    return [(text(ruby.find(f"{{{W}}}rt")), text(ruby.find(f"{{{W}}}rubyBase")),
             ruby[0].tag == f"{{{W}}}rubyPr") for ruby in paragraph.iter(f"{{{W}}}ruby")]


def test_a_word_rubys_base_is_read_with_its_sentence_and_translated(mirror):
    """The ruby was kept whole, an atom the model read nothing of ("The boy reads a at home."), its
    base left untranslated, and the review showed the annotation glued to it ("a honbook")."""
    out = translate_office(word_sentence(word_ruby()), ".docx", mirror, DocumentOptions())
    assert mirror.given == ["The boy reads a book at home."]
    assert word_rubies(out) == [("hon", "BOOK", True)]


def test_a_word_ruby_in_a_run_of_its_own_look_is_translated_in_that_look(mirror):
    """In a bold run, the ruby was kept whole too: read as nothing, a run of its own look is an atom."""
    out = translate_office(word_sentence(word_ruby("<w:b/>")), ".docx", mirror, DocumentOptions())
    assert mirror.given == ["The boy reads a book at home."]
    bold = [run for run in etree.fromstring(read_members(out)["word/document.xml"]).iter(f"{{{W}}}r")
            if run.find(f"{{{W}}}rPr/{{{W}}}b") is not None]
    assert len(bold) == 1 and word_rubies(out) == [("hon", "BOOK", True)]
    assert bold[0].find(f"{{{W}}}ruby") is not None


def odt_ruby(before: str, after: str, in_spans: bool = False) -> bytes:
    """An .odt of one paragraph: ``before``, a ruby ("hon" set above "book"), ``after``; each of the
    two in a span where ``in_spans`` (LibreOffice writes a paragraph so)."""
    from odf.opendocument import OpenDocumentText
    from odf.text import P, Ruby, RubyBase, RubyText, Span

    def add(text: str) -> None:
        if in_spans:
            paragraph.addElement(Span(text=text))
        else:
            paragraph.addText(text)

    document = OpenDocumentText()
    paragraph = P()
    add(before)
    ruby = Ruby()
    ruby.addElement(RubyBase(text="book"))
    ruby.addElement(RubyText(text="hon"))
    paragraph.addElement(ruby)
    add(after)
    document.text.addElement(paragraph)
    return odf_bytes(document)


def odt_paragraph(data: bytes) -> str:
    """The first paragraph of an .odt's content.xml, with the text namespace's prefix and no other."""
    root = etree.fromstring(read_members(data)["content.xml"])
    paragraph = etree.tostring(root.find(f".//{{{TEXT}}}p"), encoding="unicode")
    return paragraph.replace(f' xmlns:text="{TEXT}"', "").split(">", 1)[1].rsplit("<", 1)[0]


def test_an_opendocument_rubys_base_is_read_with_its_sentence_and_translated(mirror):
    """The ruby was an atom: the model read "The boy reads a at home.", and "book" stayed as it was."""
    out = translate_office(odt_ruby("The boy reads a ", " at home."), ".odt", mirror, DocumentOptions())
    assert mirror.given == ["The boy reads a book at home."]
    assert odt_paragraph(out) == ("HOME. AT <text:ruby><text:ruby-base>BOOK</text:ruby-base>"
                                  "<text:ruby-text>hon</text:ruby-text></text:ruby> A READS BOY THE")


def test_text_between_spans_goes_into_a_span_not_into_a_ruby(mirror):
    """In a paragraph all in spans, the space after the ruby went into it, after its annotation,
    where ODF allows no text: into_spans puts text outside every mark into a span beside it."""
    out = translate_office(odt_ruby("The boy reads a ", " at home.", in_spans=True), ".odt", mirror,
                           DocumentOptions())
    assert odt_paragraph(out) == ("<text:span>HOME. AT </text:span><text:ruby><text:ruby-base>BOOK</text:ruby-base>"
                                  "<text:ruby-text>hon</text:ruby-text></text:ruby><text:span> A READS BOY THE"
                                  "</text:span>")
