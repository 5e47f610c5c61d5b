"""XLIFF 1.2's sub-flows: a ``<sub>`` inside an inline code (``<ph>``, ``<bpt>``, ``<ept>``, ``<it>``) holds
text of the code's own that a reader sees, an ``alt`` or ``title`` the code writes::

    <source>Click <ph id="1">&lt;img alt="<sub>A red car</sub>"&gt;</ph> to open.</source>

The code is an atom of its sentence, kept whole where the alignment puts it (attnmt.documents.xliff),
so its sub-flow is no part of that sentence: each is a text of its own, translated in the target in
place with its own codes and placeholders (sub_flow_jobs).  Read with its code alone, it stayed in
the source's language."""

from __future__ import annotations

from dataclasses import replace

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.elements import Vocabulary
from attnmt.documents.markup import TreeJob
from attnmt.documents.pages import local_name
from attnmt.documents.pipeline import DocumentOptions

CODES = frozenset({"ph", "bpt", "ept", "it"})  # the inline codes a <sub> may stand in (XLIFF 1.2)


def sub_flow_jobs(target: etree._Element, vocabulary: Vocabulary, options: DocumentOptions,
                  glossary: Glossary | None) -> list[TreeJob]:
    """A job for each sub-flow of a code in ``target`` (a written target or segment), read in ``vocabulary``
    (the target's, XliffVocabulary), the innermost first: an outer one's job writes its atoms as they are then."""
    subs = [sub for sub in target.iter("{*}sub") if local_name(sub.getparent()) in CODES]
    return [TreeJob(sub, vocabulary, replace(options, attributes=()), glossary) for sub in reversed(subs)]
