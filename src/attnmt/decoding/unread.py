"""The sentences ``translate`` passes through unread, as ``attnmt translate`` passes their lines through
(attnmt.text.letters.reaches_model): one without letters or of one letter is its own translation.  Given
them, the model made up words: "42" came back "422.", "A" "Ein Mann befindet sich.", where the command
wrote "42" and "A".

One that holds a term of its glossary is still searched, as it was, so that the term is in its translation
(the command writes the target term in place of its source term: attnmt.documents.letterless.with_terms)."""

from __future__ import annotations

from collections.abc import Sequence

from attnmt.decoding.glossary import Glossary
from attnmt.text.invisible import blank
from attnmt.text.letters import reaches_model


def passed_through(given: Sequence[str], read: Sequence[str], glossaries: Sequence[Glossary | None]
                   ) -> tuple[list[str], list[str]]:
    """Each sentence's output before any search: the sentence as ``given`` where the model is not given it (its
    text as the model would read it, ``read``, is not blank and does not ``reaches_model``, and holds no term of
    its glossary), "" for the others; and ``read`` with those sentences blank, so that none is searched."""
    unread = [not blank(text) and not reaches_model(text) and not (glossary and glossary.found_in(text))
              for text, glossary in zip(read, glossaries, strict=True)]
    return ([sentence if skipped else "" for sentence, skipped in zip(given, unread, strict=True)],
            ["" if skipped else text for text, skipped in zip(read, unread, strict=True)])
