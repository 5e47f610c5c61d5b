"""The words a numbering writes around its numbers: an OpenDocument list style's or outline's prefix and suffix.

A numbered list or the chapter numbering (Tools > Heading Numbering, or Format > Bullets and Numbering >
Customize: Before, After) holds the text it writes before and after each number in the level's style, not in
the paragraph: ``<text:outline-level-style text:level="1" style:num-prefix="Chapter " style:num-format="1"/>``
shows "Chapter 1" above the first heading, ``style:num-prefix="Step "`` "Step 2" before a list's second item.
Those stayed in the source's language before translated headings and items ("Chapter 1 Der Garten").  Each is
plain text, translated as a link's tooltip is (validations.AttributeJob); one of symbols alone (``(``, ``.``)
is kept, as it reads the same in any language.  LibreOffice (7.2 on) draws the number from the whole format it
writes beside them (``loext:num-list-format="Chapter %1%: "``), the prefix, the numbers' places and the suffix
in one: its ends follow the translated prefix and suffix, its places kept.  The styles are in content.xml's
automatic styles, styles.xml's named list styles and its outline style, or a flat file's root."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.flat import FlatText, parted
from attnmt.documents.letterless import needs_translation
from attnmt.documents.opendocument_code import LOEXT, STYLE, TEXT
from attnmt.documents.spans import Nested
from attnmt.documents.validations import AttributeJob

# The levels of a numbering that write a number: a list style's numbered levels and the outline's levels.
LEVELS = (f"{{{TEXT}}}list-level-style-number", f"{{{TEXT}}}outline-level-style")
AROUND = (f"{{{STYLE}}}num-prefix", f"{{{STYLE}}}num-suffix")
FORMAT = f"{{{LOEXT}}}num-list-format"  # LibreOffice's whole format: prefix, "%1%" for each number, suffix


class NumberingJob:
    """A numbering level's prefix and suffix to translate (``jobs``, each an attribute's), and its whole format."""

    def __init__(self, level: etree._Element, jobs: Sequence[AttributeJob]) -> None:
        self.element, self.jobs = level, list(jobs)
        self.texts = [job.flats() for job in self.jobs]

    def flats(self) -> list[FlatText]:
        return [flat for texts in self.texts for flat in texts]

    def finish(self, results: Sequence[Sequence[str | Nested]]) -> None:
        prefix, suffix = (self.element.get(name, "") for name in AROUND)
        for job, run in zip(self.jobs, parted(results, self.texts), strict=True):
            job.finish(run)
        written = self.element.get(FORMAT)
        if written is not None and len(written) >= len(prefix) + len(suffix) and written.startswith(prefix) \
                and written.endswith(suffix):
            places = written[len(prefix):len(written) - len(suffix)]
            new_prefix, new_suffix = (self.element.get(name, "") for name in AROUND)
            self.element.set(FORMAT, new_prefix + places + new_suffix)


def numbering_jobs(levels: Iterable[etree._Element], glossary: Glossary | None) -> list[NumberingJob]:
    """A job for each of the numbering ``levels`` whose prefix or suffix (AROUND) has words to translate."""
    found = []
    for level in levels:
        jobs = [AttributeJob(level, name, escaped=False) for name in AROUND
                if needs_translation(level.get(name, ""), glossary)]
        found += [NumberingJob(level, jobs)] if jobs else []
    return found
