"""Markdown's emphasis and links, and quotes, in a line of plain text (``**bold**``, ``*italic*``, ``~~struck~~``,
``[the docs](https://example.com)``, ``"A dog runs," she said.``), as a chat message, an issue or a README pasted
into a textarea writes them: read as an inline element around its words, as a terminal's colour is
(attnmt.documents.terminal_codes.Style), its marks (a link's brackets and its target after them, kept as written)
around the translation of the words they wrapped.  Given to the model, the marks were lost: "**A dog** runs in the
park." came back "Ein flauschiger Hund rennt im Park." from the demo model, "See [the docs](https://example.com) for
more." "Ein(https://example.com) Dema...", and '"A dog runs," she said.' "Ein großer Hund rennt mit seinem Hund.".

A mark opens where a word starts after it and closes after a word with the same mark, neither inside a word
(``a*b*c``, ``2 * 3 * 4`` and a list's ``* `` are no emphasis; ``the dogs' bowl`` and ``5' 10"`` no quotes);
underscores only around words with a space between them (``_very good_``), as ``__init__`` and ``my_var_name`` are
a program's names.  Marks inside code or a URL are the protected text's (attnmt.decoding.protected), not emphasis.
A pair of quotes around a whole sentence is its edges' (``quotes_inside``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from attnmt.documents.flat import FlatBuilder, FlatText, Mark, has_words
from attnmt.documents.spans import Nested
from attnmt.documents.terminal_codes import Style

# A link or an image, its text (group "label", with a letter or digit) between its brackets, its target and title
# after them (group "close"): "[the docs](https://example.com)", "![a dog](dog.png \"Rex\")"; not glued after a
# word, as code indexes and calls ("a[0](x)").
LINK = re.compile(r"(?<![\w\]])(?P<open>!?\[)(?P<label>[^\[\]\t\n]*[^\W_][^\[\]\t\n]*)"
                  r"(?P<close>\]\([^()\s]+(?:[ \t]+\"[^\"\n]*\")?\))")
EMPHASIS = re.compile(r"(?<![\w*~\\])(?P<mark>\*\*|\*|~~)(?=[^\s*~])(?P<inner>[^\t\n]*?[^\s\\*~])(?P=mark)(?![\w*~])"
                      r"|(?<![\w\\])(?P<under>__|_)(?=[^\s_])(?P<spaced>[^\t\n_]*?\s[^\t\n_]*?[^\s\\_])(?P=under)"
                      r"(?!\w)")
# The quotes that wrap a quotation, a title or a word inside a sentence, each opening mark with its closing one
# (English's, German's, French's and Swiss guillemets with their spaces inside, Polish's, CJK's corner brackets).
QUOTES = (('"', '"'), ("'", "'"), ("\u201c", "\u201d"), ("\u2018", "\u2019"), ("\u201e", "\u201c"),
          ("\u201e", "\u201d"), ("\u201a", "\u2018"), ("\u00ab", "\u00bb"), ("\u00bb", "\u00ab"),
          ("\u2039", "\u203a"), ("\u300c", "\u300d"), ("\u300e", "\u300f"))
GUILLEMETS = "\u00ab\u00bb\u2039\u203a"  # French writes a space inside them: it goes with its mark
CORNERS = "\u300c\u300e"  # CJK's, in a script without spaces: glued to the words around them
# A word shortened at its start, its apostrophe written as a single quote (as a word processor turns it): English's
# "and" between two words ("Rock 'n' Roll", "Rock ‘n’ Roll"), "them", "till", "about", a decade ("‘em", "’til", "‘90s"):
# a word of its own, no quote's start; a quote may hold it.
SHORTENED_WORDS = "em|tis|twas|til|cause|cos|bout|round|nuff"
SHORTENED = ("(?<![\\w'\u2018\u2019])['\u2018\u2019]"
             f"(?:[nN]['\u2018\u2019]|(?i:{SHORTENED_WORDS})|[0-9]0s)(?![\\w'\u2018\u2019])")
# What opens no quote: such a word in lower case ("‘cause I said so").  In a capital, a quote's opening mark before it
# is typed where the word's apostrophe was ("‘Cause I said so,’ she said", "‘Round midnight,’ he sang"): a quote, where
# its closing mark follows; without one, it is the word, text as written ("‘Cause I said so, she said.").
OPENS_SHORTENED = ("(?<![\\w'\u2018\u2019])['\u2018\u2019]"
                   f"(?:[nN]['\u2018\u2019]|(?:{SHORTENED_WORDS})|[0-9]0s)(?![\\w'\u2018\u2019])")


def quote_pattern(k: int, opening: str, closing: str) -> str:
    """The pattern of a pair of ``QUOTES`` (the ``k``th) around words: the opening mark not glued after a word (nor,
    a straight one, after a bracket or "=", as code writes ``print("hi")``), nothing but an apostrophe between letters
    of the same marks inside (``'It's here'``) but a word shortened at its start (``SHORTENED``: ``Rock ‘n’ Roll`` is
    no quote of ``n``, nor ``‘em go’`` one of ``em go``, and ``‘Rock ‘n’ roll,’ he said`` is one of ``Rock ‘n’
    roll,``; ``‘Cause I said so,’`` is one of ``Cause I said so,``: OPENS_SHORTENED), the closing mark not glued
    before a word (but CJK's ``CORNERS``); the groups ``qopen{k}``, ``quoted{k}`` and ``qclose{k}``."""
    marks = re.escape(opening + closing)
    space = "[ \u00a0\u202f]?" if opening in GUILLEMETS else ""
    before = "(?<![\\w([=])" if opening in "\"'" else "" if opening in CORNERS else "(?<!\\w)"
    after = "" if opening in CORNERS else "(?!\\w)"
    inner = f"(?:{SHORTENED}|[^{marks}\\t\\n]|(?<=\\w)[{marks}](?=\\w))*?[^\\s{marks}]"
    return (f"{before}(?!{OPENS_SHORTENED})(?P<qopen{k}>{re.escape(opening)}{space})(?=[^\\s{marks}])"
            f"(?P<quoted{k}>{inner})(?P<qclose{k}>{space}{re.escape(closing)}){after}")


_QUOTE = "|".join(quote_pattern(k, *pair) for k, pair in enumerate(QUOTES))
MARKED = re.compile(f"{LINK.pattern}|{EMPHASIS.pattern}|{_QUOTE}")


@cache
def quote() -> re.Pattern[str]:
    """A quote alone (of ``QUOTES``), compiled at its first use: MARKED finds quotes with links and emphasis in one
    pass, and compiling the quotes' pattern again takes some 0.01 s, which a line without a mark never needs (issue
    44: a one-line job's start-up)."""
    return re.compile(_QUOTE)


STOPS = re.compile(r"[.!?\u2026]+(?=\s*\Z)")  # the stops that end a text, spaces after them aside
COMMA = re.compile(r",(?=\s*\Z)")
# A quote the model wrote itself right before and after a quote's translation (without_models_quotes): an opening
# mark glued to it, and a closing one after the stops that end it.
MODELS_OPENING = re.compile(f"[{''.join(dict.fromkeys(opening for opening, _ in QUOTES))}]\\Z")
MODELS_CLOSING = re.compile(f"(?P<stop>[.!?\u2026,]*)[{''.join(dict.fromkeys(closing for _, closing in QUOTES))}]")


@dataclass
class Quote(Style):
    """A pair of quotes around words inside a sentence: prose's, which the target language may write in its own form
    (attnmt.documents.quote_forms.quotes_in_target_form), where a link's or an emphasis' marks are kept as written."""

    def around(self, inner: str, references: Mapping[int, str]) -> str:
        """``inner`` between its quotes, each written as the line wrote it where that was a character reference
        (``&#8220;``: attnmt.documents.text_tags)."""
        return f"{self.opening.translate(references)}{inner}{self.closing.translate(references)}"


def add_emphasized(builder: FlatBuilder, text: str, add_text: Callable[[FlatBuilder, str], None],
                   marked: re.Pattern[str] = MARKED, edges: bool = True, tags: Mapping[str, str] | None = None) -> None:
    """``text``, a piece of a text line, into ``builder`` by ``add_text``, each link, emphasis and quote of it
    (``LINK``, ``EMPHASIS``, ``quote()``; what ``marked`` finds of them) an element around its words, written back with
    its marks around their translation.  ``edges``: whether a pair of quotes around all of ``text`` may be its
    sentence's edges (``quotes_inside``), not where ``text`` follows words or stands inside an element of a page's,
    nor where its words hold marks of their own (``"Two **dogs** play."``, ``"He said 'hi'."``), read as a page's
    quote around an element is (attnmt.documents.split_quotes): left to the edges, its words' marks went to the model
    as words, unread.  ``tags``: the characters that stand for a text line's HTML tags in ``text``, each mapped to its
    partner's (attnmt.documents.text_tags.add_tagged): an element's tags are marks of its words' own, and marks that
    cut an element (``A "<b>bold" word</b>``) are left as written, as a page's are."""
    tags = tags or {}
    position = 0
    for found in marked.finditer(text):
        opening, inner, closing = marked_parts(found)
        quoted = quote().fullmatch(found[0]) is not None
        if any(tags[character] not in found[0] for character in found[0] if character in tags) or (
                quoted and not quotes_inside(text if edges else "", found, builder.protected)
                and not marked.search(inner) and not any(character in tags for character in inner)):
            continue
        add_text(builder, text[position:found.start()])
        builder.open(Quote(opening, closing) if quoted else Style(opening, closing))
        add_emphasized(builder, inner, add_text, marked, edges, tags)
        builder.close()
        position = found.end()
    add_text(builder, text[position:])


def marked_parts(found: re.Match[str]) -> tuple[str, str, str]:
    """A ``MARKED`` match's opening mark, the words it wraps and its closing mark: a link's ``[`` and ``](target)``, an
    emphasis' mark twice, a quote's pair."""
    groups = found.groupdict()  # a quote()'s alone has no link's nor emphasis' groups
    if groups.get("open"):
        return found["open"], found["label"], found["close"]
    if groups.get("mark") or groups.get("under"):
        return (found["mark"], found["inner"], found["mark"]) if found["mark"] else (found["under"], found["spaced"],
                                                                                   found["under"])
    k = next(k for k in range(len(QUOTES)) if found[f"quoted{k}"] is not None)
    return found[f"qopen{k}"], found[f"quoted{k}"], found[f"qclose{k}"]


def quotes_inside(text: str, found: re.Match[str], protected: re.Pattern[str]) -> bool:
    """Whether ``found``, a ``quote()`` in ``text``, quotes words inside it, read apart: not a pair around all of
    ``text``, which the sentence's edges take (attnmt.decoding.sentence_edges.quoted_edges, written in the target
    language's form: attnmt.documents.quote_forms), but where its words hold what passes through untranslated (a
    file's name, a URL), which the edges cannot take where it stands last or first (``"Open report.pdf"`` gave the
    model ``"Open "``, its quotes as words), as a page's quote around kept code is read (split_quotes); nor one around
    what passes through untranslated alone (a URL: the sentence's quotes, read with it, "Siehe „“ heute.")."""
    inner = found[0][1:-1]
    return (found[0] != text.strip() or protected.search(inner) is not None) and has_words(protected.sub(" ", inner))


def stops_after_quotes(flat: FlatText, content: Sequence[str | Nested],
                       commas_outside: bool = False) -> list[str | Nested]:
    """``content``, a translation of ``flat`` placed, with the stops that end what a ``Quote`` holds moved after it
    where the words it quoted ended with none: the model ends its sentence with a stop, and the quote, wrapping the
    translation of its last words, took it in ('"It works on my machine," Tom wrote.' came back 'Es "arbeitet an einer
    Maschine."' from the demo model).  A quote whose words ended with their own stop (``He said "I am here."``) keeps
    it inside.  ``commas_outside``: a target language that writes a comma after the closing quote (German's „Es
    geht“, sagte er; English's "It works," inside), where a comma ends what a quote holds, it goes after it too.
    Quotes the model wrote itself around a quote's words are left out first (``without_models_quotes``)."""
    pieces: list[str | Nested] = []
    for piece in without_models_quotes(flat, list(content)):
        if isinstance(piece, str):
            pieces.append(piece)
            continue
        inner = stops_after_quotes(flat, piece.content, commas_outside)
        last = inner[-1] if inner else None
        stop = moved_out(flat, flat.marks[piece.mark], last, commas_outside) if isinstance(last, str) else None
        if stop is None:
            pieces.append(Nested(piece.mark, inner))
            continue
        inner[-1] = stop.string[:stop.start()] + stop.string[stop.end():]
        pieces.extend([Nested(piece.mark, inner), stop[0]])
    return pieces


def without_models_quotes(flat: FlatText, pieces: list[str | Nested]) -> list[str | Nested]:
    """``pieces``, a translation of ``flat`` placed, without the pair of quotes the model wrote itself right around
    what a ``Quote`` holds, a stop between its words and its closing mark kept: the quote's own marks go there
    ('He said "hello".' came back ``Er sagte „"Hallo".“`` where the model wrote "Hallo" in quotes)."""
    for k, piece in enumerate(pieces[1:-1], start=1):
        before, after = pieces[k - 1], pieces[k + 1]
        if not (isinstance(piece, Nested) and isinstance(flat.marks[piece.mark].node, Quote)
                and isinstance(before, str) and isinstance(after, str)):
            continue
        opening, closing = MODELS_OPENING.search(before), MODELS_CLOSING.match(after)
        if opening is not None and closing is not None:
            pieces[k - 1] = before[:opening.start()]
            pieces[k + 1] = closing["stop"] + after[closing.end():]
    return pieces


def moved_out(flat: FlatText, mark: Mark, last: str, commas_outside: bool) -> re.Match[str] | None:
    """The stops, or with ``commas_outside`` the comma, ending ``last``, the text a ``Quote`` ``mark`` of ``flat``
    holds last, that go after it (``stops_after_quotes``); None where none does, or where no word is left inside."""
    if not isinstance(mark.node, Quote):
        return None
    stop = None if STOPS.search(flat.text[mark.start:mark.end]) else STOPS.search(last)
    if stop is None and commas_outside:
        stop = COMMA.search(last)
    return stop if stop is not None and has_words(last[:stop.start()]) else None
