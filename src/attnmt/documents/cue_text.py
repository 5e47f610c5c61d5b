"""Subtitle cue text with its tags, as a flat text with marks (attnmt.documents.spans) and back.

WebVTT cue text has a markup of its own (https://www.w3.org/TR/webvtt1/#cue-text): class
spans ``<c.yellow>``, ``<i>``, ``<b>``, ``<u>``, ``<ruby>``/``<rt>``, voice spans ``<v Roger>``
and language spans ``<lang en>`` (a name, then ``.classes``, then an annotation),
timestamps ``<00:01.500>``, and the entities ``&amp;``, ``&lt;``, ``&gt;``, ``&lrm;``,
``&rlm;``, ``&nbsp;``.  SRT files carry ``<i>``, ``<b>``, ``<u>``, ``<font color=…>``, the same
character references (``&amp;``, ``&lt;``, ``&#160;``: players read them, and so does the model; a ``&``
that starts none, ``AT&T``, is text) and
ASS codes such as ``{\\an8}``, and ASS's line breaks ``\\N`` and ``\\n`` and hard space ``\\h``
written in the text.  Neither is HTML (an HTML parser reads ``<v Roger>`` as an
element ``v`` with an attribute ``roger``), so cue text is read here by the WebVTT
tokenizer's own rule, a tag runs from ``<`` to the next ``>`` (in SRT, only from a ``<`` before
a letter or ``/`` and not after another ``<``, as HTML and players read it: ``I <3 my dog, he is >
all cats.``, ``x < 5 and y > 7``, ``<<The man>>`` are text, which WebVTT's rule would hide), and:

- a start tag opens a mark, and its end tag closes it; a tag never closed (a ``<v Roger>``
  voice over the whole cue, as is usual) ends with its cue and is written back without an
  end tag, as it came;
- an end tag closes the nearest open mark of its name (and any still open inside it); an
  end tag with none open, a timestamp, ``<br>``, a tab and SRT's ``{\\…}`` codes (a drawing with its
  commands, ``{\\p1}m 0 0 l 10 0{\\p0}``) are atoms, kept
  whole where rule 2 of attnmt.documents.spans puts them (``<br>``, ``\\N``, ``\\n``, ``\\h`` and tabs
  part the words either side, as a space does: the model never sees them);
- a ruby's annotation, ``<rt>`` with its text up to its ``</rt>`` (or the ``</ruby>`` or cue end
  that closes it), is one atom, as HTML's is (attnmt.documents.elements): it stays right after
  its base, which is translated (``<ruby>Hund<rt>inu</rt></ruby>``);
- a language span, ``<lang fr>`` with its text up to its ``</lang>`` (or the cue's end), is one
  atom that shows text, where it names another language than the source's and than the span
  around it, and the cue's text (a dialogue cue's line) has words outside it (``She said <lang
  fr>bonjour mon ami</lang> to the man.``): a passage in its own language, kept as HTML keeps
  ``<i lang="fr">`` (attnmt.documents.elements.Vocabulary.is_foreign).  Translated, the French
  became German marked as French.  A span over all the cue's words is the text to translate,
  and so is one in the source's language or naming none (``und``, ``zxx``, ``mul``, ``x-…``:
  language.NO_LANGUAGE).  Only ``<lang>`` names a language in WebVTT (``<i lang="fr">`` is an
  ``<i>`` whose annotation is ignored);
- a pair of quotes around words inside a sentence (``He said "hello" to me.``) is a mark around them
  (attnmt.documents.text_emphasis.Quote), as in a text line: the model reads the words alone, where it read the quotes
  as words and lost them, and they come back around the translation, in the target language's form;
- a space at a span's edge stays inside it where the translation has one there (``<b>Warning: </b>Do``,
  not ``<b>Warning:</b> Do``: attnmt.documents.nesting.keep_edge_spaces), as at its cue's end;
- every tag is written back exactly as it was read (classes, annotation, attributes); the
  text between is translated, WebVTT's entities read and ``&``, ``<``, ``>`` escaped again; in SRT
  the characters a cue wrote as references are written so again, the rest as the model wrote them, and what
  passes through (``Tom &amp; Jerry``, a URL) as the cue wrote it.

A *cue break* is an atom between the texts of cues translated as one sentence
(attnmt.documents.subtitles): where it lands, the translation is cut.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from html import escape, unescape

from attnmt.decoding.protected import PROSE_PROTECTED
from attnmt.documents.character_references import read_references as whole_references_read
from attnmt.documents.character_references import written_references
from attnmt.documents.flat import COLLAPSED, FlatBuilder, FlatText, has_words
from attnmt.documents.language import NO_LANGUAGE, primary
from attnmt.documents.nesting import Literal
from attnmt.documents.quote_forms import quotes_in_target_form
from attnmt.documents.spans import Nested
from attnmt.documents.symbols import HEART
from attnmt.documents.terminal_codes import Style
from attnmt.documents.text_emphasis import QUOTES, add_emphasized, quote_pattern
from attnmt.errors import warn
from attnmt.text.speaker_labels import BRACKETED

# An SRT file's ASS code such as {\an8}; or a drawing, whole: the code that starts one ({\p1}, {\pos(10,10)\p2}), the
# shape's commands after it on its line ("m 0 0 l 100 0 100 100"), and the code that ends it ({\p0}), if any.
# Its commands are no words: read, the model turned the shape around.
ASS_CODE = r"(\{(?=\\)[^{}]*\\p[1-9][^{}]*\}[^{}\n]*(?:\{(?=\\)[^{}]*\\p0[^{}]*\})?|\{\\[^{}]*\})"
# A tag (group 1: what is between < and >), or an ASS code (group 2).
TOKEN = re.compile(rf"<([^<>]*)>|{ASS_CODE}")
# In an SRT file, also ASS's line breaks and hard space written in the text: "walking\Nin the park",
# "JOHN:\NWhere are you?"; but not in a Windows path ("C:\new\data", "\\server\name"): group 3
# matches the path whole, which is read as text, up to a break after its last punctuation
# ("D:\Music.\NNext line").
PATH_CHARACTER = r"(?:(?![.,;:!?]\\[Nnh])[^\s<>{}])"  # of a path, not a stop's break: "D:\Music.\N"
# SRT's tags are HTML's (<i>, <b>, <u>, <s>, <font color=…> and their end tags), so a tag opens
# where HTML's tokenizer opens one, at a "<" before a letter or "/": "I <3 my dog, he is > all
# cats." and "If x < 5 and y > 7" are text.  Nor does a "<" right after another "<" open one, as
# players read "<<The man>>" (ASCII guillemets) as text too.  WebVTT's "<" opens a tag before
# anything (TOKEN), a timestamp "<00:01.500>" among them.
SRT_TAG = r"(?<!<)<([A-Za-z/][^<>]*)>"
SRT_TAGS = re.compile(rf"{SRT_TAG}|{ASS_CODE}")  # TOKEN's groups, by SRT's tag rule
SRT_TOKEN = re.compile(
    rf"{SRT_TAGS.pattern}|((?<![A-Za-z])[A-Za-z]:\\{PATH_CHARACTER}*|\\\\{PATH_CHARACTER}+)|\\[Nnh]")
# An ASS Dialogue's Text (attnmt.documents.ass_subtitles) has its override codes, and no tags: libass shows every
# "<" ("<y and z>", "<i>") as it is written, so it is text.  Its tags never match (group 1), as TOKEN's groups go.
ASS_TAGS = re.compile(rf"(?!)<([^<>]*)>|{ASS_CODE}")
ASS_TOKEN = re.compile(SRT_TOKEN.pattern.replace(SRT_TAGS.pattern, ASS_TAGS.pattern, 1))
# Whether the cue text read in this context is ASS Text, read as SRT cues (``ass_text``) but for its "<".
ASS_TEXT: ContextVar[bool] = ContextVar("attnmt_ass_text", default=False)
EMPTY_TAGS = frozenset({"br"})
# Tabs inside a cue's line part its words as a space does, and stay between them (an atom), where the flat
# text made a space of them.
TABS = re.compile(r"(\t+)")
# A continuation ellipsis a cue's text opens with, before a letter ("I saw a man..." / "...in the park."), or two
# hyphens right before it ("walking--" / "--down the street.", as typewriters wrote a dash; with a space after them
# they are a speaker's: cue_lines.DASH): the sentence of the cue before goes on.  In cues joined, it is an atom, so
# that the model reads one sentence where "man... ...in" read as two (the segmenter ended one at "..." and made
# another of the second "..."), and "--down" lost its hyphens.
CONTINUED = re.compile(r"(?:(?:\.{3}|…)\s*|--)(?=[^\W\d_])")
# The ellipsis or dash a cue's text ends with after a word, where its sentence runs on into the next cue ("riding
# his bike..." / "down the road.", "walking--", "walking—"): kept by the cue break after it (``CueBreak.ending``),
# so that it ends its cue.  Read as text in mid-sentence, the model dropped it ("fährt mit seinem Vater die
# Straße" / "entlang.").
RUNS_ON = re.compile(r"(?<=\w)(?:\.{3}|…|--|—)(?=\s*$)")
# The dash a cue's last text ends with after a word, where its speaker is cut off or breaks off ("I was walking --",
# "Wait—"): an atom at its end, kept there.  Read as text, the model dropped it ("Die Frau geht spazieren"), and the
# viewer read a sentence that ended where it was broken off.
BROKEN_OFF = re.compile(r"(?<=\w)(?:--|—)(?=\s*$)|(?<=\w )(?:--|—|–|-)(?=\s*$)")


@dataclass
class CueTag:
    """A tag as read: ``start`` ("<v Roger>"; an atom's whole text) and ``end`` ("</v>"; "" when
    the cue closed it, or for an atom); ``shown``: what a reader sees of an atom in its line, for
    a review (attnmt.documents.shown.shown_text): a line break or a hard space as a space, a kept
    passage as its text, anything else as nothing."""

    start: str
    end: str = ""
    shown: str = ""


@dataclass
class CueBreak:
    """Where one cue's text ends and the next one's starts, in cues translated together;
    ``ending``: the ellipsis the cue before ends with (RUNS_ON), written back at its end."""

    ending: str = ""


def tags_of(vtt: bool) -> re.Pattern[str]:
    """The tags (group 1: what is between < and >) and ASS codes (group 2) of a format's cue text:
    WebVTT's (TOKEN), or SRT's (SRT_TAGS), where "I <3 my dog, he is >" is text, or in ``ass_text``
    ASS's (ASS_TAGS: its codes alone).  Whatever counts a cue's tags (its wrapping, its speaker,
    whether it runs on) reads them as its format does."""
    return TOKEN if vtt else ASS_TAGS if ASS_TEXT.get() else SRT_TAGS


@contextmanager
def ass_text() -> Iterator[None]:
    """Within the block, SRT cue text is read as an ASS Dialogue's Text: a "<" opens no tag (``tags_of``)."""
    token = ASS_TEXT.set(True)
    try:
        yield
    finally:
        ASS_TEXT.reset(token)


def shown_text(text: str, vtt: bool) -> str:
    """A cue's text as a viewer reads it: its tags and ASS codes left out, and its entities read
    (``&quot;Hello`` starts with a quote, not with the "q" of its escape)."""
    return read_references(tags_of(vtt).sub("", text), vtt)


def read_references(text: str, vtt: bool, protected: re.Pattern[str] | None = None) -> str:
    """Cue ``text`` with its character references read: all of WebVTT's; in SRT only whole ones
    (character_references.ENTITY: ``&amp;``, not the ``&copy`` HTML reads without its ";"), and none in what
    ``protected`` finds, which passes through as written, where an ASS file's Text has none."""
    if vtt:
        return unescape(text)
    return text if ASS_TEXT.get() else whole_references_read(text, protected)


def tag_name(tag: str) -> str:
    """The element name of a tag's text ("v Roger" -> "v", "c.yellow" -> "c", "/i" -> "i")."""
    match = re.match(r"/?([^\s./]+)", tag)
    return match.group(1).lower() if match else ""


# The quotes a cue's sentence reads around words (text_emphasis.quote()) but straight single ones, which dialogue writes
# as apostrophes ("Talkin' 'bout nothin'.", "Tell 'em the dogs' names."): read as a pair, they went out of what the
# model read and came back around other words.  Their groups stay (text_emphasis.marked_parts reads each), never set.
CUE_QUOTE = re.compile("|".join(quote_pattern(k, *pair) if pair != ("'", "'") else
                                f"(?!)(?P<qopen{k}>)(?P<quoted{k}>)(?P<qclose{k}>)" for k, pair in enumerate(QUOTES)))
# A sound's description in brackets right before another ("[MUSIC] (cheering)"): each is a sentence of its own, as in a
# text line (attnmt.documents.list_marks.after_description); read as one, the demo model wrote "Großer Ärenen".
DESCRIBED_BEFORE = re.compile(rf"{BRACKETED}(?=[ \t]*{BRACKETED})")


def cue_flat(texts: Sequence[str], vtt: bool, wheres: Sequence[str] = (), source_lang: str = "",
             target_lang: str | None = None) -> FlatText:
    """One or more cues' texts as one flat text, a CueBreak atom between cues (with the ellipsis the
    cue before ends with: RUNS_ON), and a following cue's continuation ellipsis (CONTINUED) an atom
    after it; ``vtt``: WebVTT's entities are read, and a language span in another language than
    ``source_lang`` (the source's) is kept (``foreign_end``); with none (""), every span is
    translated.  A ``<`` that opens no tag is text, with a warning naming its cue's place in
    ``wheres`` (one for each text; "input" where none is given).  A sound's description right before another ends
    its sentence (``DESCRIBED_BEFORE``); its quotes inside a sentence are in ``target_lang``'s form."""
    builder, ending = FlatBuilder(protected=PROSE_PROTECTED), ""  # "Tom & Jerry" too
    for k, text in enumerate(texts):
        if k:
            builder.add_text(" ")
            builder.add_atom(node=CueBreak(ending))
            if continued := CONTINUED.match(text):
                builder.add_atom(node=CueTag(continued.group()))  # shown as no stop: it ends no sentence
                text = text[continued.end():]
        ends = RUNS_ON.search(text) if k + 1 < len(texts) else None
        ending = ends.group() if ends else ""
        broken = BROKEN_OFF.search(text) if k + 1 == len(texts) else None
        cut = ends or broken
        add_cue(builder, text[:cut.start()] if cut else text, vtt,
                wheres[k] if wheres else "input", primary(source_lang))
        if broken:
            builder.add_atom(node=CueTag(broken.group(), shown=broken.group()))
    builder.breaks += [found.end() for found in DESCRIBED_BEFORE.finditer(builder.text)]
    flat = builder.build()
    quotes_in_target_form(flat, target_lang)  # She said "hi" -> Sie sagte „hallo“
    return flat


def add_cue(builder: FlatBuilder, text: str, vtt: bool, where: str, source: str) -> None:
    opened: list[tuple[str, CueTag]] = []
    position = 0
    for match in (TOKEN if vtt else ASS_TOKEN if ASS_TEXT.get() else SRT_TOKEN).finditer(text):
        if match.start() < position or (not vtt and match.group(3)):
            continue  # inside a ruby's annotation or a kept passage, kept whole; a path, read as text
        add_cue_text(builder, text[position:match.start()], vtt, where)
        position = match.end()
        tag, name = match.group(1), tag_name(match.group(1) or "")
        is_end = tag is not None and tag.startswith("/")
        kept = foreign_end(text, match, language_around(opened, source)) if (
            vtt and source and name == "lang" and not is_end) else None
        if kept is not None:
            position = kept
            passage = text[match.start():position]
            builder.add_atom(node=CueTag(passage, shown=COLLAPSED.sub(" ", shown_text(passage, vtt))))
        elif name == "rt" and not is_end:
            position = annotation_end(text, match)
            builder.add_atom(node=CueTag(text[match.start():position]))
        elif tag is None or not name or name in EMPTY_TAGS or tag[:1].isdigit() or (
                is_end and name not in [n for n, _ in opened]):
            line_break = name in EMPTY_TAGS or match.group().startswith("\\")  # <br>, \N, \n, \h
            builder.add_atom(node=CueTag(match.group(), shown=" " if line_break else ""), parts_words=line_break)
        elif is_end:
            while opened:
                builder.close()
                closed_name, node = opened.pop()
                if closed_name == name:
                    node.end = match.group()
                    break
        else:
            node = CueTag(match.group())
            # A space written inside a tag's edge is the tag's ("<b>Warning: </b>Do"): a subtitle editor or a CAT
            # tool compares the tag's content, and an underline or a background shows on it.
            builder.open(node, keeps_edge_spaces=True)
            opened.append((name, node))
    add_cue_text(builder, text[position:], vtt, where)
    for _ in opened:
        builder.close()


def span_language(tag: str) -> str:
    """The primary subtag of the language a ``<lang>`` tag's text names ("lang fr-CA" -> "fr",
    "lang.loud en" -> "en"), "" for none and for one that names no language (NO_LANGUAGE)."""
    name_and_annotation = tag.split(maxsplit=1)
    named = primary(name_and_annotation[1]) if len(name_and_annotation) == 2 else ""
    return "" if named in NO_LANGUAGE else named


def language_around(opened: Sequence[tuple[str, CueTag]], source: str) -> str:
    """The language of the nearest open ``<lang>`` span that names one, else ``source``."""
    named = (span_language(node.start[1:-1]) for name, node in reversed(opened) if name == "lang")
    return next((language for language in named if language), source)


def foreign_end(text: str, start: re.Match, around: str) -> int | None:
    """Where the language span ``start`` opens ends in ``text`` (after its own ``</lang>``, else at
    the cue's end) where it is kept: it names a language other than ``around`` (the span's around
    it, else the source's), and ``text`` has words outside it; else None (a span to translate)."""
    language = span_language(start.group(1))
    if not language or language == around:
        return None
    depth, end = 0, len(text)
    for match in TOKEN.finditer(text, start.end()):
        tag = match.group(1) or ""
        if tag_name(tag) == "lang":
            depth += -1 if tag.startswith("/") else 1
            if depth < 0:
                end = match.end()
                break
    outside = TOKEN.sub(" ", text[:start.start()] + " " + text[end:])
    return end if has_words(unescape(outside)) else None


def annotation_end(text: str, start: re.Match) -> int:
    """Where the ruby annotation whose ``<rt>`` is ``start`` ends in ``text``: after its ``</rt>``,
    else before the ``</ruby>`` that closes it, else at the cue's end (WebVTT lets both close it)."""
    for match in TOKEN.finditer(text, start.end()):
        tag = match.group(1) or ""
        if tag.startswith("/") and tag_name(tag) in ("rt", "ruby"):
            return match.end() if tag_name(tag) == "rt" else match.start()
    return len(text)


def add_cue_text(builder: FlatBuilder, text: str, vtt: bool, where: str) -> None:
    # SRT escapes nothing: a heart typed as text ("I <3 you") is a symbol (attnmt.documents.symbols.HEART), not a
    # tag the file may have broken; WebVTT writes it "&lt;3".
    if "<" in (text if vtt else HEART.sub("", text)):
        hint = " (WebVTT writes it &lt;)" if vtt else ""
        warn(f"{where}: a '<' that opens no tag is kept as text{hint}", stacklevel=4)
    for k, part in enumerate(TABS.split(text)):  # text at even places, tabs at odd ones
        if k % 2:
            builder.add_atom(node=CueTag(part, shown=" "), parts_words=True)
        else:  # a quote around a piece's whole text at the sentence's start is its edges' (text_emphasis)
            edges = not (builder.text.strip() or builder.open_marks)
            marks = len(builder.marks)
            read = read_references(part, vtt, builder.protected)  # SRT's "Tom &amp; Jerry" passes through so
            add_emphasized(builder, read, FlatBuilder.add_text, CUE_QUOTE, edges)
            for mark in builder.marks[marks:]:  # and shows as a viewer reads it, "Tom & Jerry", in a review
                if mark.literal:
                    mark.shown = read_references(mark.literal, vtt)


def cue_markup(flat: FlatText, content: Sequence[str | Nested], vtt: bool, sources: Sequence[str] = ()) -> str:
    """Translated content back as cue text: each tag as it was read, text escaped for WebVTT, and
    the characters its ``sources`` (the cues' texts) wrote as references written so again (in SRT,
    which escapes nothing, ``&``, ``<`` and ``"`` too: an SRT cue's ``&amp;`` stays ``&amp;``); in SRT, what passed
    through (a Literal: ``Tom &amp; Jerry``, ``AT&T``, a URL) is written as it came, and the model's text as the
    rest of the cues wrote theirs ("Tom &amp; Jerry & friends" keeps its bare "&")."""
    entities = written_entities(sources) if vtt else {} if ASS_TEXT.get() else written_references(
        sources, PROSE_PROTECTED)
    return markup_of(flat, content, vtt, entities)


def markup_of(flat: FlatText, content: Sequence[str | Nested], vtt: bool, entities: Mapping[int, str]) -> str:
    out = []
    for piece in content:
        if isinstance(piece, str):
            out.append(escape(piece, quote=False).translate(entities) if vtt else
                       piece if isinstance(piece, Literal) and not flat.marks[piece.mark].references_read
                       else piece.translate(entities))
        else:
            node = flat.marks[piece.mark].node
            if isinstance(node, Style):  # a quote's marks are text, escaped as text is
                out.append(markup_of(flat, [node.opening, *piece.content, node.closing], vtt, entities))
            else:
                out.append(node.start + markup_of(flat, piece.content, vtt, entities) + node.end)
    return "".join(out)


def written_entities(texts: Sequence[str]) -> dict[int, str]:
    """The characters WebVTT cue ``texts`` wrote as references, as ``str.translate`` maps them to the
    reference written (``&nbsp;``, ``&lrm;``, ``&#160;``, ``&mdash;``): read for the model, they came
    back as the characters themselves, a no-break space or a mark an editor does not show.  Not those
    printable in ASCII (``&quot;``, ``&#65;``): ``&``, ``<`` and ``>`` are escaped anyway, and the others
    are plain text, whose every copy the reference would replace."""
    return {code: written for code, written in written_references(texts).items()
            if not (chr(code).isascii() and chr(code).isprintable())}


def split_at_breaks(flat: FlatText, content: Sequence[str | Nested]) -> list[list[str | Nested]]:
    """Top-level content cut at its cue breaks: one list per cue."""
    cues: list[list[str | Nested]] = [[]]
    for piece in content:
        if isinstance(piece, Nested) and isinstance(flat.marks[piece.mark].node, CueBreak):
            cues.append([])
        else:
            cues[-1].append(piece)
    return cues
