"""An EPUB package's metadata that a reading system's library, a shop and a Go To menu show a reader
(attnmt.documents.epub translates the rest of the book): the package's titles (LibraryJob: ``dc:title``, as
toc.ncx's ``docTitle`` and the navigation page's ``<title>`` are, and a series' name: TITLES, Calibre's too:
SERIES) and their sort keys (FILE_AS, TITLE_SORTS), its subjects (SUBJECTS, but a scheme's terms and codes), the
EPUB 2 guide's titles (GUIDE) and its description (description_jobs: ``dc:description``; Calibre's escaped HTML
as HTML).  Its identifier, dates, creators (their sort names too) and publisher are data or names, kept, and its
``dc:language`` is attnmt.documents.epub's (PackageJob).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.archive import Job
from attnmt.documents.comments import TextJob
from attnmt.documents.elements import Vocabulary
from attnmt.documents.flat import FlatText, parted
from attnmt.documents.language import say_language
from attnmt.documents.letterless import needs_translation
from attnmt.documents.markup import EmbeddedJob, TreeJob, embedded_job
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.spans import Nested
from attnmt.documents.validations import AttributeJob
from attnmt.documents.xml_code import holds_markup
from attnmt.documents.xstring import text_in

OPF = "http://www.idpf.org/2007/opf"
DC = "http://purl.org/dc/elements/1.1/"

# The package's titles (LibraryJob): the book's and a subtitle's (dc:title), and the name of a series or set it
# belongs to (EPUB 3's belongs-to-collection), which a reading system's library shows beside the title.
TITLES = "o:metadata/dc:title | o:metadata/o:meta[@property='belongs-to-collection']"
# A title's or a series' sort key, "Old house, The": what a reading system's library sorts the book by, and shows as
# its "Title sort" (Calibre), translated as the title is, so that the translated book sorts by its translated words.
# EPUB 2 writes it in the title's opf:file-as (plain text: TITLE_SORTS), EPUB 3 in a meta refining the title or the
# series (FILE_AS, of the ids of TITLES); a creator's file-as, "Field, Mary Rose", is a name, kept.
FILE_AS = "o:metadata/o:meta[@property='file-as']"
TITLE_SORTS = "o:metadata/dc:title[@o:file-as]"
# Calibre's name of that series (<meta name="calibre:series" content="…"/>, an EPUB 2 book's too), which its
# library and the reading systems that read Calibre's metadata show: translated as plain text.
SERIES = "o:metadata/o:meta[@name='calibre:series']"
# The EPUB 2 guide's entries (<reference type="toc" title="Table of Contents"/>), what EPUB 3's landmarks are on
# the navigation page, which is translated: a reading system's Go To menu shows their titles, plain text.
GUIDE = "o:guide/o:reference"
# The book's subjects (dc:subject: its genre, keywords), which a reading system's library shows as its tags (Calibre's,
# Apple Books' genre): translated as its titles are, but a scheme's term (kept_subject: a code, a heading its
# scheme's authority refines), which a shop or a library looks up as written.
SUBJECTS = "o:metadata/dc:subject"
# EPUB 3's metas that make a subject a scheme's term: <meta refines="#s1" property="authority">BISAC</meta>, "term".
SCHEME = frozenset(("authority", "term"))
# A subject that is a code, one word with a digit (BISAC's FIC027000, a class number): a scheme's term too.
CODE = re.compile(r"\S*\d\S*")


class LineJob(TreeJob):
    """A line of the book's XML that a reader sees as a heading, read as an HTML block is (a toc.ncx entry, a
    package's title), so that it is translated as the page's heading or the navigation page's ``<title>`` that
    shows the same text (a numbered part's label: "Part One: The storm" as "Teil Eins: …", where read as XML's
    record it went to the model whole); its elements state no language as a page's do: the file is no page,
    and its job says the target's where it states one (ContentsJob, LibraryJob)."""

    states_language = False


class LibraryJob:
    """What a reading system's library shows of the book: the package's titles (TITLES: the book's, a
    subtitle's, its series', and EPUB 3's sort keys of them, FILE_AS) and subjects (SUBJECTS), each translated
    as a heading (LineJob), as toc.ncx's docTitle and the navigation page's ``<title>`` are, so that the library
    shows the title the book's pages do, and its tags in the same language; one that states its language or
    direction (``xml:lang``, ``dir``) then says the target's where it was translated (language.say_language:
    ``dir="ltr"`` showed an Arabic title left to right).  The rest of the metadata is data or names: its
    identifier, dates, creators and publisher are kept (and ``dc:language`` is PackageJob's)."""

    def __init__(self, titles: list[etree._Element], options: DocumentOptions, glossary: Glossary | None) -> None:
        vocabulary = Vocabulary(xml=False, source_lang=options.source_lang)
        self.titles, self.target_lang = titles, options.target_lang
        self.jobs = [LineJob(title, vocabulary, options, glossary) for title in titles]
        self.texts = [job.flats() for job in self.jobs]

    def flats(self) -> list[FlatText]:
        return [flat for texts in self.texts for flat in texts]

    def stating(self, title: etree._Element) -> tuple[etree._Element, ...]:
        """The elements that say the target language once ``title`` was translated: itself."""
        return (title,)

    def finish(self, results: Sequence[Sequence[str | Nested]]) -> None:
        for title, job, run, texts in zip(self.titles, self.jobs, parted(results, self.texts), self.texts,
                                          strict=True):
            job.finish(run)
            if self.target_lang and not all(flat.source_kept for flat in texts):  # none: nothing of it to say
                for element in self.stating(title):
                    say_language(element, self.target_lang)


class StatedJob:
    """An element of the package's metadata (its description) that states its language or direction, to state
    the target's once something of it (``texts``, the flat texts of its own job) was translated, as a title does
    (language.say_language): ``<dc:description xml:lang="en">`` went on saying English over its German
    translation.  A job of its own, with no text, beside the element's: the pipeline reads that one's kind."""

    def __init__(self, element: etree._Element, texts: list[FlatText], target_lang: str | None) -> None:
        self.element, self.texts, self.target_lang = element, texts, target_lang

    def flats(self) -> list[FlatText]:
        return []

    def finish(self, results: Sequence[Sequence[str | Nested]]) -> None:
        if self.target_lang and not all(flat.source_kept for flat in self.texts):
            say_language(self.element, self.target_lang)


def description_jobs(package: etree._Element, options: DocumentOptions, glossary: Glossary | None,
                     where: str) -> list[Job]:
    """A job for each of the package's ``dc:description`` (the blurb a reading system's library and a shop show)
    that is plain text with words, line by line; one that is HTML escaped as text (Calibre's ``&lt;p&gt;``:
    xml_code.holds_markup) is translated as an HTML fragment, its tags kept, and written back escaped (EmbeddedJob:
    read as text, its tags went to the model as words); other text holding a ``<`` is kept.  Each with the
    StatedJob of its language."""
    jobs: list[Job] = []
    for node in package.iterfind(f"{{{OPF}}}metadata/{{{DC}}}description"):
        job: TextJob | EmbeddedJob | None = None
        if holds_markup(node):
            job = embedded_job(node, options, where, glossary)
        elif "<" not in text_in(node) and needs_translation(text_in(node), glossary):
            job = TextJob(node)
        if job is not None and job.flats():
            jobs += [job, StatedJob(node, job.flats(), options.target_lang)]
    return jobs


def metadata_jobs(package: etree._Element, options: DocumentOptions, glossary: Glossary | None,
                  where: str) -> list[Job]:
    """The jobs that translate the metadata of ``package`` (the package document's root, named ``where``) a reader
    sees: its titles, their sort keys and its subjects, its description, its series' name (Calibre's) and its guide's
    titles."""
    shown = package.xpath(TITLES, namespaces={"o": OPF, "dc": DC})
    titled = {f"#{title.get('id', '').strip()}" for title in shown if title.get("id", "").strip()}
    shown += [meta for meta in package.xpath(FILE_AS, namespaces={"o": OPF})
              if meta.get("refines", "").strip() in titled]
    shown += [subject for subject in package.xpath(SUBJECTS, namespaces={"o": OPF, "dc": DC})
              if not kept_subject(subject)]
    library = LibraryJob(shown, options, glossary)
    jobs: list[Job] = [library] if library.flats() else []
    jobs += description_jobs(package, options, glossary, where)
    named = [(meta, "content") for meta in package.xpath(SERIES, namespaces={"o": OPF})]
    named += [(title, f"{{{OPF}}}file-as")
              for title in package.xpath(TITLE_SORTS, namespaces={"o": OPF, "dc": DC})]
    named += [(entry, "title") for entry in package.xpath(GUIDE, namespaces={"o": OPF})]
    jobs += [AttributeJob(element, name, escaped=False) for element, name in named
             if needs_translation(element.get(name, ""), glossary)]
    return jobs


def kept_subject(subject: etree._Element) -> bool:
    """Whether a ``dc:subject`` is a scheme's term, kept as written: a code (CODE: ``FIC027000``), or one that
    EPUB 3's metas refine with its scheme or code (SCHEME: ``FICTION / Ghost``, BISAC's heading for FIC015000)."""
    if CODE.fullmatch(text_in(subject).strip()):
        return True
    name = subject.get("id", "").strip()
    metas = subject.getparent().iterfind(f"{{{OPF}}}meta")
    return bool(name) and any(meta.get("refines", "").strip() == f"#{name}" and meta.get("property", "").strip()
                              in SCHEME for meta in metas)
