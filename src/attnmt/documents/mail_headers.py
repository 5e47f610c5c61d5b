"""An e-mail's headers and a reply's attribution line in a plain text: what the model reads of them.

A mail program writes a message's headers (``From: Anna <anna@example.com>``, ``Subject: ...``) and, above a
quoted reply, who wrote it (``On Mon, 3 Jun 2024 at 10:00, Anna <a@b.c> wrote:``).  Given to the model whole,
a key was read as a word of the sentence and an address or a date as words to translate (``From: Anna
<anna@example.com>`` came back ``Auf diesem Fäner <anna@example.com>``).  Of a block of headers
(``mail_headers``: two of HEADERS' keys at least, or a subject's, in a block between blank lines) the model
reads only a subject's text (SUBJECTS), after its key and its reply marks (``Subject: Re: ``); every other
header (the addresses, the date, the message's id) and an attribution line (``attributions``) are kept as
written: they are the client's, read by people and programs as they stand; so is a signature under its ``-- ``
line (``signatures``: a name, a phone number, a company's address; the demo model wrote ``Anna`` as ``Ein
Kellner``).  A header folded onto indented lines (RFC 5322) is one header: a subject's text is read whole and
folded again to its width; so is a subject wrapped onto lines not indented (``wraps_on``: a memo's ``Re:``),
filled again to its lines' width.

    mail_headers(lines, folded) -> [Header(start, end, key, value, indent, width), ...]
    attributions(lines) -> {the index of each attribution line}
    separators(lines, headers) -> {the index of each forwarded message's line above its headers}
    signatures(lines) -> {the index of each line of a signature, its "-- " line and the lines under it}
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from attnmt.documents.hard_wrap import (
    ENDED,
    HEADERS,
    INDENT,
    MIN_WIDTH,
    blocks,
    columns,
    field_key,
    goes_on_in_lower_case,
    indent_of,
)

# The headers whose text a person wrote and a reader reads: a subject, as English, German, French, Spanish,
# Portuguese, Italian and Dutch mail programs name it, and a memo's "Re:".  HEADERS' others are addresses, dates
# and ids.
SUBJECTS = frozenset("subject re betreff objet asunto assunto oggetto onderwerp".split())
# The keys of a header only beside another: a memo's subject ("To: All staff" / "From: ..." / "Re: the printer") and
# Italian's "A:" (to), as a line of a reply's text may start "Re: your question, ..." and an interview's "A: ...".
BESIDE = frozenset({"re", "a"})
# A subject's key and the reply and forward marks before its text, as the clients of those languages write
# them, French's with a space before the colon: "Subject: Re: Fwd: ", "Betreff: AW: WG: ", "Objet : RE : TR : ",
# "Asunto: RE[2]: ", "Assunto: RES: ENC: ".
SUBJECT_KEY = re.compile(r"[^:]*:[ \t]*(?:(?:re|res|fwd?|aw|wg|tr|rv|r|i|enc|antw|doorst)(?:\[\d+\])?"
                         r"[ \u00a0\u202f]?:[ \t]*)*", re.I)
# A mail program's line above the headers of the message it forwards or quotes, its words between dashes:
# "---------- Forwarded message ---------", "-----Original Message-----", "-----Ursprüngliche Nachricht-----".
SEPARATOR = re.compile(r"-{3,}[ \t]*[^\W\d_][^-]*?[ \t]*-{3,}")
# The line above a mail's signature (RFC 3676's "-- "; many clients drop its space), after its quote marks.
SIGNATURE = re.compile(r"--[ \t]?")
FOLD_WIDTH = 78  # RFC 5322's width for a header's lines: a folded subject is folded again within it or its own
# A line a mail program writes above the text it quotes, ending in its verb: English's, German's, French's,
# Spanish's, Portuguese's, Italian's and Dutch's, and what a client writes after it ("schrieb Anna Berg:", "schrieb
# am Mo., 3. Juni 2024, 10:00:"), up to the colon that ends its line.
ATTRIBUTION = re.compile(r"\b(?:wrote|writes|schrieb|a écrit|escribió|escreveu|ha scritto|schreef)\b"
                         r"[^!?\n]{0,80}:\s*\Z", re.I)


@dataclass(frozen=True)
class Header:
    """An e-mail's header: lines ``start`` to ``end`` (past its last, a folded header's continued lines),
    its ``key`` as written on its first line (its indentation, a subject's reply marks and the spaces
    after them), the ``value`` the model reads ("" where the header is kept as written), the indentation
    of the lines it is folded onto and its width in columns."""

    start: int
    end: int
    key: str
    value: str
    indent: str
    width: int


def mail_headers(lines: Sequence[str], folded: bool = True) -> list[Header]:
    """The headers of each block of ``lines`` holding two e-mail headers or more (a memo's ``Re:`` one of them:
    BESIDE), or a subject (HEADERS, SUBJECTS: a lone ``Date: next Friday`` in a memo is prose, as a lone ``Re:`` is),
    each with the lines it is folded onto where ``folded`` (a line after it indented deeper by a space or a tab)."""
    found = []
    for start, end in blocks(lines):
        keys = {k: key for k in range(start, end) if (key := field_key(lines[k])) in HEADERS | BESIDE}
        if len(keys) < 2 and not (SUBJECTS - BESIDE) & set(keys.values()):
            continue
        for k, key in keys.items():
            last = k + 1
            while folded and last < end and last not in keys and (folds(lines[last], indent_of(lines[k])) or (
                    key in SUBJECTS and wraps_on(lines[last - 1], lines[last], indent_of(lines[k])))):
                last += 1
            found.append(header(lines, k, last, key))
    return found


def wraps_on(before: str, line: str, indent: str) -> bool:
    """Whether a subject's ``line``, not indented deeper than its first (``indent``), goes on the subject's line
    ``before``, as a memo's ``Re:`` or a subject pasted from a mail program's printout wraps: ``before`` ends no
    sentence (ENDED), ``line``'s first word did not fit on it (``overflows``), and either ``line`` goes on in lower
    case or ``before`` is as full as a wrapped line (MIN_WIDTH); and ``line`` is no field of its own (``X-Mailer:
    ...``).  Read alone, the second line of ``Re: The car park on the north side will be closed for`` / ``repairs
    from Monday.`` was a sentence; read with it, the body's first line of ``Re: lunch`` / ``the cafe is closed
    today.`` was the subject's."""
    text, before = line[len(indent):], before.rstrip()
    if indent_of(line) != indent or not text.strip() or field_key(line) or ENDED.search(before):
        return False
    return overflows(before, line, indent) and (goes_on_in_lower_case(text) or columns(before) >= MIN_WIDTH)


def overflows(before: str, line: str, indent: str) -> bool:
    """Whether ``line`` (its text after ``indent``) reads as what did not fit on ``before``: a line wrapped at a
    width is no wider than it, and the line before it too full for the next line's first word, so ``line`` is
    narrower than ``before`` with that word after it.  A line wider than that was not wrapped there: it is a line
    of its own."""
    first = (line[len(indent):].split() or [""])[0]
    return columns(line.rstrip()) < columns(before) + 1 + columns(first)


def folds(line: str, indent: str) -> bool:
    """Whether ``line`` goes on a header of ``indent`` (a quoted one's ``> ``): it starts with a space or a tab
    after that indentation (RFC 5322's folding)."""
    return line.startswith(indent) and line[len(indent):][:1] in (" ", "\t")


def header(lines: Sequence[str], start: int, end: int, key: str) -> Header:
    """The header of ``key`` on ``lines[start:end]``: a subject's text read on one line, its folded lines'
    indentation the first's (a tab or a space as in the source), any other kept (an empty value)."""
    first, more = lines[start].rstrip(), [line.rstrip() for line in lines[start + 1:end]]
    indent = folding(more[0]) if more else ""
    # folded by a mail program: within RFC 5322's width; wrapped onto lines as indented as its first (wraps_on),
    # within its own, as a hard-wrapped paragraph is filled again
    unfolded = bool(more) and indent == indent_of(first)
    width = max(map(columns, [first, *more])) if unfolded else max(FOLD_WIDTH, *map(columns, [first, *more]))
    subject = SUBJECT_KEY.match(first[len(indent_of(first)):]) if key in SUBJECTS else None
    if subject is None:
        return Header(start, end, first, "", indent, width)
    written = indent_of(first) + subject[0]
    value = " ".join([first[len(written):], *(line[len(folding(line)):] for line in more)]).strip()
    return Header(start, end, written, value, indent, width)


def folding(line: str) -> str:
    """A folded header's line's indentation: its quote marks and the spaces or tabs that fold it."""
    return line[:len(line) - len(line.lstrip(" \t>"))]


def attributions(lines: Sequence[str]) -> set[int]:
    """The lines that say who wrote the text quoted after them (ATTRIBUTION), which the next line not
    blank quotes deeper (``On Monday, Anna wrote:`` above ``> ...``, ``> Tom wrote:`` above ``> > ...``)."""
    found = set()
    for k, line in enumerate(lines):
        if ATTRIBUTION.search(line):
            after = next((lines[j] for j in range(k + 1, len(lines)) if lines[j].strip()), "")
            found |= ({k} | begun(lines, k)) if depth(after) > depth(line) else set()
    return found


def begun(lines: Sequence[str], k: int) -> set[int]:
    """The line before the attribution line ``k``, where the mail program wrapped the attribution onto two
    (``On Mon, 3 Jun 2024 at 10:00, Anna Berg <anna.berg@example.com>`` / ``wrote:``): the line ``k`` has a
    word at most before its verb (an address, a name's end: ``On Mon, Anna wrote:`` is whole), and the line
    before is as deep, ends no sentence (ENDED) and holds a date's or an address's digit or ``@``, which a
    line of prose seldom does."""
    before, line = (lines[k - 1].rstrip() if k else ""), lines[k][len(indent_of(lines[k])):]
    verb = ATTRIBUTION.search(line)
    if verb is None or len(line[:verb.start()].split()) > 1:
        return set()
    written = before.strip(INDENT) and depth(before) == depth(lines[k]) and not ENDED.search(before)
    return {k - 1} if written and re.search(r"[\d@]", before) else set()


def separators(lines: Sequence[str], headers: Sequence[Header]) -> set[int]:
    """The lines right above a block of ``headers`` that a mail program writes there (SEPARATOR)."""
    above = {header.start - 1 for header in headers if header.start}
    return {k for k in above if SEPARATOR.fullmatch(lines[k][len(indent_of(lines[k])):].strip())}


def depth(line: str) -> int:
    """How deep a line is quoted: the quote marks of its indentation (``> > `` is two)."""
    return indent_of(line).count(">")


def signatures(lines: Sequence[str]) -> set[int]:
    """The lines of each signature in ``lines``: its ``-- `` line (SIGNATURE, after its quote marks) and the lines
    right under it as deep, up to a blank one (after which a disclaimer or a quoted reply is prose again)."""
    found = set()
    for k, line in enumerate(lines):
        if SIGNATURE.fullmatch(line[len(indent_of(line)):]) and (k + 1 < len(lines) and lines[k + 1].strip(INDENT)):
            end = k + 1
            while end < len(lines) and lines[end].strip(INDENT) and indent_of(lines[end]) == indent_of(line):
                end += 1
            found |= set(range(k, end))
    return found
