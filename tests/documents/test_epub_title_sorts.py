"""An EPUB package's titles' sort keys (``file-as``): what a reading system's library sorts a book by,
and shows where it lists the sort (Calibre's "Title sort"), translated as the title is, so that the
translated book sorts by its translated title.  A creator's ``file-as`` is a name, kept.  Mirror: words
upper-cased in reverse order."""

from lxml import etree
from office_files import epub2_file, read_members, write_members

from attnmt.documents.files import translate_file_bytes
from attnmt.documents.pipeline import DocumentOptions

GERMAN = DocumentOptions(target_lang="de")
PACKAGE = "OEBPS/content.opf"
OPF, DC = "http://www.idpf.org/2007/opf", "http://purl.org/dc/elements/1.1/"


def with_metadata(metadata: str, version: str = "2.0") -> bytes:
    """epub2_file with ``metadata`` before its dc:language, the package of ``version``."""
    members = read_members(epub2_file())
    members[PACKAGE] = (members[PACKAGE].decode().replace("<dc:language>", metadata + "<dc:language>")
                        .replace('version="2.0"', f'version="{version}"')
                        .replace("<metadata ", f'<metadata xmlns:opf="{OPF}" ')).encode()
    return write_members(members)


def translated_metadata(book: bytes, mirror) -> etree._Element:
    package = etree.fromstring(read_members(translate_file_bytes(book, "book.epub", mirror, GERMAN))[PACKAGE])
    return package.find(f"{{{OPF}}}metadata")


def test_an_epub2_titles_file_as_is_translated_as_the_title_is(mirror):
    """``opf:file-as`` stayed "Old house, The" over the title "HOUSE OLD THE": the library sorted and listed
    the translated book by the source's words; the author's sort name is kept."""
    metadata = translated_metadata(with_metadata(
        '<dc:title opf:file-as="Old house, The">The old house</dc:title>'
        '<dc:creator opf:file-as="Field, Mary Rose">Mary Rose Field</dc:creator>'), mirror)
    title, creator = metadata.find(f"{{{DC}}}title"), metadata.find(f"{{{DC}}}creator")
    assert (title.text, title.get(f"{{{OPF}}}file-as")) == ("HOUSE OLD THE", "THE HOUSE, OLD")
    assert (creator.text, creator.get(f"{{{OPF}}}file-as")) == ("Mary Rose Field", "Field, Mary Rose")


def test_an_epub3_titles_and_series_file_as_metas_are_translated_and_a_creators_kept(mirror):
    """EPUB 3 refines a title, a series' name and a creator with a ``file-as`` meta: the title's and the series'
    stayed in the source; the meta's ``refines`` and the creator's sort name are kept."""
    metadata = translated_metadata(with_metadata(
        '<dc:title id="t">The old house</dc:title><meta refines="#t" property="file-as">Old house, The</meta>'
        '<meta property="belongs-to-collection" id="c">The dark stories</meta>'
        '<meta refines="#c" property="file-as">Dark stories, The</meta>'
        '<dc:creator id="a">Mary Rose Field</dc:creator><meta refines="#a" property="file-as">Field, Mary Rose</meta>',
        version="3.0"), mirror)
    found = [(etree.QName(node).localname, node.get("refines"), node.text) for node in metadata]
    assert found == [("identifier", None, "x"), ("title", None, "HOUSE OLD THE"), ("meta", "#t", "THE HOUSE, OLD"),
                     ("meta", None, "STORIES DARK THE"), ("meta", "#c", "THE STORIES, DARK"),
                     ("creator", None, "Mary Rose Field"), ("meta", "#a", "Field, Mary Rose"), ("language", None, "de")]
