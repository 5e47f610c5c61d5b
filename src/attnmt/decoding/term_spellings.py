"""The closed spelling a hyphenated source term is found in too (attnmt.decoding.glossary): a glossary gives
"e-mail" -> "E-Mail", and a text writes "email", as most now do, which was no match, so the translation went
without the term.  A hyphen is dropped only where the closed word is the same word: after a part of one letter
("e-mail", "e-book", "x-ray") or before a particle ("log-in", "set-up", "add-on", "plug-in", "pop-up"), never
between two words of their own ("re-sign" is no "resign", "co-op" no "coop").

A term of words is found in its open and its hyphenated spelling too (``spaced_forms``): English writes a compound
both ways ("ice-cream vendor" and "ice cream vendor", "fire truck" and "fire-truck"), and a termbase holds one of
them; the other went without the term."""

from __future__ import annotations

import re

# The particles that a hyphenated verb's noun ends in, and that its closed spelling keeps ("login", "setup")
PARTICLES = ("in", "up", "on", "out", "off")
# What parts a term's words: a space or a hyphen
WORD = re.compile("[ -]")


def closed_form(key: str) -> str | None:
    """The normal source term ``key`` (``term_forms.normal``) with each hyphen dropped that joins a part of one
    letter or a particle to a word of letters ("e-mail address" -> "email address", "log-in" -> "login"); None
    where it holds no such hyphen."""
    parts = key.split("-")
    kept = [parts[0]]
    for part in parts[1:]:
        left, right = kept[-1].rpartition(" ")[2], part.partition(" ")[0]
        if left.isalpha() and right.isalpha() and (len(left) == 1 or right in PARTICLES):
            kept[-1] += part
        else:
            kept.append(part)
    return "-".join(kept) if len(kept) < len(parts) else None


def spaced_forms(key: str) -> list[str]:
    """The normal source term ``key`` with each hyphen between two words of letters a space ("ice-cream vendor" ->
    "ice cream vendor"), and with each space between two such words a hyphen ("fire truck" -> "fire-truck"); none
    where it has no such hyphen or space ("wi-fi 6" -> "wi fi 6" alone: "6" is no word of letters)."""
    forms = []
    for mark, other in (("-", " "), (" ", "-")):
        parts = key.split(mark)
        joined = parts[0]
        for part in parts[1:]:
            joins = WORD.split(joined)[-1].isalpha() and WORD.split(part)[0].isalpha()
            joined += (other if joins else mark) + part
        forms += [joined] if joined != key else []
    return forms


def closed_spellings(targets: dict[str, str], taken: set[str]) -> dict[str, str]:
    """Closed, open or hyphenated form -> the normal source term of ``targets`` (normal source term -> target term)
    it is the closed (``closed_form``) or other spelling (``spaced_forms``) of, less the forms ``taken`` (terms of
    their own: "email" beside "e-mail" keeps its own target) and those of two terms."""
    found: dict[str, list[str]] = {}
    for key in targets:
        for form in [closed_form(key), *spaced_forms(key)]:
            if form is not None:
                found.setdefault(form, []).append(key)
    return {form: own[0] for form, own in found.items() if form not in taken and len(own) == 1}
