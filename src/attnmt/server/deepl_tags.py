"""DeepL's ``tag_handling=xml``, ``ignore_tags`` and its splitting tags, as the clients that send them read the answer.

    check_xml        400 for a text that is not well-formed XML, before any model work
    tag_names        a request's names of elements: a JSON list, or a form's comma-separated text
    splits_of        ``splitting_tags`` and ``non_splitting_tags``: the XML elements that end a sentence, or never do
    mark_for         the mark of a request's ignore_tags elements, which none of its texts holds
    marked_ignored   each ``ignore_tags`` element marked ``translate="no"``: kept whole, its text as sent
    unmarked         the marks taken out of the translation again
    empty_as_sent    an empty element written as the text wrote it, ``<x></x>`` or ``<x/>``

Weblate sends its placeholders as ``<x id="7"></x>`` with ``ignore_tags=x`` and finds them in the
answer by that exact text: written ``<x id="7"/>``, as XML's writer shortens every empty element,
the placeholder (``%s``, ``{name}``) was missing from its suggestion.
"""

from __future__ import annotations

import re
from itertools import count

from attnmt.errors import UserError
from attnmt.server.api_errors import DeepLError
from attnmt.server.markup_texts import TagSplits

# What marks an ignore_tags element while it is translated: translate="no", which the documents' markup keeps whole,
# its text untranslated (attnmt.documents.elements.says reads it), beside an attribute that tells the mark from a
# client's own translate="no" (mark_for)
MARK = ' translate="no" attnmt-ignored="{}"'
# An empty element as a text writes it: with an end tag, or closed in its start tag.
PAIRED = re.compile(r"<([^\s<>/!?]+)(\s[^<>]*)?></\1>")
CLOSED = re.compile(r"<([^\s<>/!?]+)(\s[^<>]*)?/>")


class TagError(ValueError):
    """A request's tags that cannot be translated as it asks; the message says which and where."""


def check_xml(texts: list[str]) -> None:
    """TagError for a text that is not well-formed XML, naming it and where: as the batch's, its
    failure was a 500 for every text of the request."""
    from attnmt.documents.pages import parse  # lxml, imported only here (plain text starts faster)

    for i, text in enumerate(texts):
        if text.strip():
            try:
                parse(text, True, f"text[{i}]")
            except UserError as error:
                raise TagError(str(error)) from None


def tag_names(params: dict, name: str) -> list[str]:
    """``ignore_tags``, ``splitting_tags`` or ``non_splitting_tags`` (``name``) as names: a JSON list (deepl-python's,
    each entry split at its commas as it splits them), or a form's comma-separated text; 400 in DeepL's words for
    another JSON value (``5``, ``{"b": 1}``, a list holding one), which was read as a name ("5", "{'b': 1}")."""
    sent = params.get(name)
    if sent is None:
        return []
    if not isinstance(sent, str | list) or not all(isinstance(each, str) for each in sent):
        raise DeepLError(400, f"Value for '{name}' not supported: {sent!r} (a list of element names, or one text "
                              "of them parted by commas)")
    names = [tag.strip() for each in ([sent] if isinstance(sent, str) else sent) for tag in each.split(",")]
    return [tag for tag in names if tag]


def splits_of(params: dict) -> TagSplits:
    """The XML elements that ``splitting_tags`` says end a sentence, and those ``non_splitting_tags`` says never do,
    as DeepL reads them with ``tag_handling=xml``.  Both were read past: with ``splitting_tags=br``,
    ``<p>a dog runs<br/>two men walk</p>`` went to the model as one sentence, and an element of ``non_splitting_tags``
    standing beside another was translated alone, half a sentence."""
    return TagSplits(frozenset(tag_names(params, "splitting_tags")), frozenset(tag_names(params, "non_splitting_tags")))


def mark_for(texts: list[str]) -> str:
    """The MARK of ``texts``' ignore_tags elements, numbered so that none of them holds it: ``unmarked``
    took out every `` translate="No"``, a client's own too, from an element's start tag or the text
    of a code sample (``<code>&lt;div translate="No"&gt;</code>``)."""
    number = next(n for n in count() if not any(MARK.format(n) in text for text in texts))
    return MARK.format(number)


def marked_ignored(texts: list[str], names: list[str], html: bool, mark: str) -> list[str]:
    """``texts`` with each element of ``names`` (HTML's in any case) marked to be kept whole and
    untranslated (``mark``), as DeepL keeps an ignore_tags element: one holding text was refused, 400.
    One that says ``translate`` itself is left to say it (a second one would be no XML)."""
    for name in names:
        start = re.compile(rf"<{re.escape(name)}(?=[\s/>])(?![^<>]*\stranslate\s*=)", re.IGNORECASE if html else 0)
        texts = [start.sub(lambda found: found[0] + mark, text) for text in texts]
    return texts


def unmarked(translated: list[str], mark: str) -> list[str]:
    """The translations with the marks of ``marked_ignored`` taken out: the elements as they were sent."""
    return [text.replace(mark, "") for text in translated]


def empty_as_sent(sent: str, translated: str) -> str:
    """``translated`` with each empty element that ``sent`` writes with an end tag (and never
    closed in its start tag) written so again: the XML writer wrote ``<x/>``."""
    paired = {match[1] for match in PAIRED.finditer(sent)} - {match[1] for match in CLOSED.finditer(sent)}
    if not paired:
        return translated
    return CLOSED.sub(lambda match: f"<{match[1]}{match[2] or ''}></{match[1]}>" if match[1] in paired
                      else match[0], translated)
