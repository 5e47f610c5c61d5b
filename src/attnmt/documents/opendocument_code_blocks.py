"""The paragraphs of an OpenDocument part that are code, kept whole: those in a paragraph style meant for
code (LibreOffice's "Preformatted Text": opendocument_code.CodeLooks.is_code_paragraph), and lines of code
typed in a monospaced font among words (``pip install requests`` in a Liberation Mono span, as LibreOffice
writes a Word file's Consolas lines), on the evidence a Word document's are kept on
(attnmt.documents.code_paragraphs): most of the part's letters are in another font, every letter of the
paragraph is in a monospaced font not its paragraph style's (CodeLooks.look: a heading whose style is in
Liberation Mono is words), and its text reads as code (code_look.reads_as_code).  Read as words, each line
came back German."""

from __future__ import annotations

from lxml import etree

from attnmt.documents.code_look import reads_as_code
from attnmt.documents.opendocument_code import PARAGRAPHS, CodeLooks, holders, own_texts


def code_paragraphs(root: etree._Element, looks: CodeLooks) -> frozenset[etree._Element]:
    """The paragraphs of ``root`` (a part's) that are code (module docstring); ``looks``: the part's."""
    letters = {True: 0, False: 0}  # letters in a code look (a code style's or a monospaced font's), and not
    typed = []
    for paragraph in root.iter(*PARAGRAPHS):
        counts = {True: 0, False: 0}
        for holder in holders(paragraph):
            counts[any(looks.look(holder, paragraph))] += sum(map(str.isalpha, "".join(own_texts(holder))))
        letters[True], letters[False] = letters[True] + counts[True], letters[False] + counts[False]
        if counts[True] and not counts[False]:
            typed.append(paragraph)
    styled = {paragraph for paragraph in root.iter(*PARAGRAPHS) if looks.is_code_paragraph(paragraph)}
    if letters[False] <= letters[True]:  # a script all in Courier: words
        return frozenset(styled)
    return frozenset(styled | {paragraph for paragraph in typed if reads_as_code(
        "".join(text for holder in holders(paragraph) for text in own_texts(holder)))})
