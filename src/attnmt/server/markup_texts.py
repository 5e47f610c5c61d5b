"""The texts a request sends in markup, translated with their tags (attnmt.documents): LibreTranslate's and
attnmt's ``format: "html"``, DeepL's ``tag_handling`` ``html`` and ``xml``; a file's pages are attnmt.server.file_jobs'.

    LineBreaks       how a request's line breaks are read: as attnmt and LibreTranslate read them, or as
                     DeepL's ``split_sentences`` says (attnmt.server.deepl_text.line_breaks)
    translated_html  HTML fragments or pages; one with no tag and no entity read as plain text or as HTML
    translated_xml   XML fragments, written back as XML
    TagSplits        which XML elements end a sentence, or never do, as DeepL's splitting tags say

lxml is imported only when a request sends markup: a server of plain text starts faster.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from enum import Enum
from html import escape
from typing import NamedTuple

from attnmt.decoding import Decoding
from attnmt.decoding.glossary import Glossary
from attnmt.documents.paragraphs import translate_texts
from attnmt.documents.pipeline import DocumentOptions
from attnmt.inspect.trace import PieceCodec
from attnmt.model import Transformer

# What makes a text HTML rather than text: a tag, a comment or an entity ("Tom & Jerry", "a < b" are text)
MARKUP = re.compile(r"<[A-Za-z/!?]|&[#0-9A-Za-z]")


class LineBreaks(Enum):
    """How a request's line breaks are read (Options.lines)."""

    # attnmt's and LibreTranslate's: a plain text's hard-wrapped paragraphs read whole and filled again, as a .txt
    # file's (DocumentOptions.rewrap), an html text with no tag a plain text (Nextcloud's app sends every text as
    # html), a line break in markup HTML's space
    PARAGRAPHS = "paragraphs"
    # DeepL's split_sentences nonewlines or 0 (tag_handling=html's default): a line break inside a sentence a space,
    # in a plain text (attnmt.server.deepl_text.as_split) as in markup; with tag_handling=html every text is HTML
    SPACES = "spaces"
    # DeepL's split_sentences 1 (the default but for tag_handling=html): a line alone, its line break ending its
    # sentence and kept where it stands, in a plain text as in an XML or HTML block's text (DocumentOptions.lines_split)
    ALONE = "alone"


class TagSplits(NamedTuple):
    """DeepL's splitting_tags and non_splitting_tags (tag_handling=xml; Options.tags): the XML elements, by name as
    written, that end a sentence, and those never read as blocks of their own (DocumentOptions' fields so named)."""

    splitting: frozenset[str] = frozenset()
    non_splitting: frozenset[str] = frozenset()


NO_SPLITS = TagSplits()  # attnmt's own reading: each element with text of its own a block, the others inline


def translated_html(model: Transformer, tokenizer: PieceCodec, texts: Sequence[str], decoding: Decoding,
                    glossary: Glossary | None, page: DocumentOptions, lines: LineBreaks) -> list[str]:
    """HTML texts translated with their tags, ``page`` saying how, each page given back as it was sent but for its
    text, as DeepL and LibreTranslate give one back (attnmt.documents.page_root: no ``<meta charset>`` added, nor
    a ``lang`` where its ``<html>`` states none; one it states says the target language).  Read as attnmt's and
    LibreTranslate's (``lines`` PARAGRAPHS), one with no tag and no entity is text: translated as plain text is,
    its line breaks and paragraphs kept, which HTML's whitespace made one line (and one sentence of a greeting and
    the line after it), then escaped, as HTML's writer would escape a model's "&" or "<".  Read as DeepL's, every
    text is HTML, as DeepL reads it: each line of "A dog runs\\nA cat sleeps" was translated alone, its line break
    kept, where DeepL reads the line break as a space (``nonewlines``, its default for HTML)."""
    from attnmt.documents import translate_html_texts

    as_text = [lines is LineBreaks.PARAGRAPHS and not MARKUP.search(text) for text in texts]
    plain = [i for i, is_text in enumerate(as_text) if is_text]
    marked = [i for i, is_text in enumerate(as_text) if not is_text]
    page = replace(page, lines_split=lines is LineBreaks.ALONE)
    answers = dict(zip(marked, translate_html_texts(model, tokenizer, [texts[i] for i in marked], decoding, page,
                                                    glossary=glossary, as_sent=True) if marked else [], strict=True))
    written = translate_texts(model, tokenizer, [texts[i] for i in plain], decoding, page, glossary) if plain else []
    answers.update(zip(plain, (escape(text, quote=False) for text in written), strict=True))
    return [answers[i] for i in range(len(texts))]


def translated_xml(model: Transformer, tokenizer: PieceCodec, texts: Sequence[str], decoding: Decoding,
                   glossary: Glossary | None, options: DocumentOptions, lines: LineBreaks,
                   tags: TagSplits = NO_SPLITS) -> list[str]:
    """XML texts translated with their tags and written back as XML (DeepL's tag_handling=xml), each line break
    in an element's text ending its sentence where ``lines`` is ALONE (DeepL's split_sentences=1), and the
    elements ``tags`` name ending a sentence, or never reading as blocks of their own."""
    from attnmt.documents import translate_xml_texts

    options = replace(options, lines_split=lines is LineBreaks.ALONE, splitting_tags=tags.splitting,
                      non_splitting_tags=tags.non_splitting)
    return translate_xml_texts(model, tokenizer, texts, decoding, options, glossary=glossary)
