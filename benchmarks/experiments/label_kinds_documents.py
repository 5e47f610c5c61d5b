"""What a label set apart at a block's start is read as in a page and a Word document, on hand-labelled pieces:
``speaker`` a name kept as written (the translator never sees it), ``field`` a name translated alone (the translator
is given it as a sentence of its own), ``none`` read with its sentence.  Each row of ``label_kinds/documents_*.tsv``:
the gold kind, the piece with a look of its own (bold), what follows it, a tab between; each is read as
``<p><b>PIECE</b>REST</p>`` and as a Word paragraph of a bold run and a plain one, through a translator that writes
each sentence as itself and notes what it was given.  Each piece read wrongly is printed.

    PYTHONPATH=src .venv/bin/python benchmarks/experiments/label_kinds_documents.py [FILE.tsv ...]
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import docx

from attnmt.documents.markup import translate_markup
from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

HERE = Path(__file__).parent / "label_kinds"


class Noting:
    """Every sentence translated as itself, in order; ``given``: what it was given."""

    glossary = None

    def __init__(self) -> None:
        self.given: list[str] = []

    def translate(self, sentences: list[str], weighed: list[bool]) -> tuple[list[str], list[None]]:
        self.given.extend(sentences)
        return list(sentences), [None] * len(sentences)


def kind(piece: str, given: list[str]) -> str:
    """What the bold ``piece`` was read as, from what the translator was ``given``."""
    name = piece.strip().rstrip(":：").strip()
    if any(sentence.strip() == name for sentence in given):
        return "field"
    return "none" if any(name in sentence for sentence in given) else "speaker"


def read_as(piece: str, rest: str) -> dict[str, str]:
    """What ``piece`` before ``rest`` is read as in a page and in a Word paragraph."""
    page = Noting()
    translate_markup([f"<p><b>{piece}</b>{rest}</p>"], page)
    document = docx.Document()
    paragraph = document.add_paragraph()
    paragraph.add_run(piece).bold = True
    paragraph.add_run(rest)
    data = io.BytesIO()
    document.save(data)
    word = Noting()
    translate_office(data.getvalue(), ".docx", word, DocumentOptions())
    return {"html": kind(piece, page.given), "docx": kind(piece, word.given)}


def score(path: Path) -> None:
    """Print each piece ``path`` labels wrongly, and how many of each format's pieces are read right."""
    rows = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    right = {"html": 0, "docx": 0}
    for gold, piece, rest in rows:
        for form, read in read_as(piece, rest).items():
            right[form] += read == gold
            if read != gold:
                print(f"  {form}: {gold} read as {read}: <b>{piece}</b>{rest}")
    print(f"{path.name}: {len(rows)} pieces, read right: html {right['html']}, docx {right['docx']}")


if __name__ == "__main__":
    for name in sys.argv[1:] or sorted(map(str, HERE.glob("documents_*.tsv"))):
        score(Path(name))
