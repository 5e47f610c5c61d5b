"""Code typed as whole paragraphs in a Word document: lines in a monospaced font, set so run by run
(``pip install requests``, ``print('Hi.')`` in Consolas, as code is pasted from an editor), between
paragraphs of words in another font.  Kept whole, as an e-book's block in a monospaced class is
(attnmt.documents.styled_code), on the same evidence: most of the document's letters are in another
font, so the monospaced font sets the paragraph apart, and its text reads as code (code_look.reads_as_code:
no sentence's end, or code's own).  Read as words, every line came back German ("pip install requests"
as "Ein Ärzzzelzze stellt").

Only a run's own font counts for the paragraph (its properties', not its styles'): a style's font is
its paragraph's look (a heading whose style is in Consolas is words), and a document whose letters
are mostly monospaced (a screenplay in Courier) is words throughout."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from lxml import etree

from attnmt.documents.code_look import font_of, is_monospaced, reads_as_code
from attnmt.documents.formatting import worded_runs
from attnmt.documents.ooxml_dialects import WORD

if TYPE_CHECKING:
    from attnmt.documents.ooxml import ParagraphJob


def without_code_paragraphs(jobs: Sequence[ParagraphJob]) -> list[ParagraphJob]:
    """``jobs`` (a Word part's, in order) but those of paragraphs of code (module docstring), whose drop
    caps go back now (no job finishes them)."""
    letters = {True: 0, False: 0}  # letters in a code look (a code style's or a monospaced font's), and not
    for job in jobs:
        for run in worded_runs(job.paragraph, WORD, job.hiding):
            letters[any(job.code_look(run))] += sum(map(str.isalpha, run_text(run)))
    if letters[False] <= letters[True]:
        return list(jobs)
    kept = []
    for job in jobs:
        if is_code_paragraph(job):
            if job.drop_cap is not None:
                job.drop_cap.put_back(job.paragraph)
        else:
            kept.append(job)
    return kept


def is_code_paragraph(job: ParagraphJob) -> bool:
    """Whether each visible run with words of ``job``'s paragraph names a monospaced font in its own
    properties, and its text reads as code."""
    runs = worded_runs(job.paragraph, WORD, job.hiding)
    own = [run.find(WORD.properties) for run in runs]
    return bool(runs) and all(properties is not None and is_monospaced(font_of([properties])) for properties in own
                              ) and reads_as_code(job.flat.text)


def run_text(run: etree._Element) -> str:
    return "".join(WORD.text_of(part) for part in run.iterchildren(WORD.text))
