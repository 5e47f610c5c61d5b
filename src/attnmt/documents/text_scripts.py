"""HTML's ``<sub>`` and ``<sup>`` in a line of plain text (``Water is H<sub>2</sub>O.``, ``12 m<sup>2</sup>``, ``a
study<sup>3</sup>``), read as the same line of a page reads them (attnmt.documents.script_tokens): a formula or a unit
with its scripts is one token kept whole where the translation puts it, and a script without letters (a power, a
note's number) is kept whole by the word it is glued to.  Given to the model as words, the demo model wrote "2
bereitet sich in der Nacht." for ``Water is H<sub>2</sub>O.``, the formula and its tags lost.  A script of letters (an
ordinal's ending, ``1<sup>st</sup>``) is an element around them, as ``<b>`` is (attnmt.documents.text_tags), whose
mark goes on the ending of the translation's ordinal (attnmt.documents.ordinal_marks)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from attnmt.documents.script_tokens import SCRIPTS, Script, scripted


def kept_scripts(text: str, pairs: Mapping[int, re.Match[str]], starts: Mapping[int, re.Match[str]]) -> list[
        tuple[int, int]]:
    """The spans of ``text`` kept whole as atoms (sorted, apart): each formula's or unit's script with the letters
    glued to it (script_tokens.scripted: ``H<sub>2</sub>``, ``O`` going with it, ``25 m<sup>2</sup>``), and each other
    script that holds no letter (``<sup>3</sup>``); ``pairs``: where each paired start tag starts, mapped to its end
    tag (text_tags.paired), ``starts`` to the start tag itself.  A script holding an element stays an element."""
    found = sorted((start, end) for start, end in pairs.items() if starts[start]["name"].lower() in SCRIPTS
                   and "<" not in text[starts[start].end():end.start()])
    texts = [text[found[k - 1][1].end() if k else 0:start] for k, (start, _) in enumerate(found)]
    texts.append(text[found[-1][1].end():] if found else text)
    scripts = [Script(starts[start]["name"].lower(), text[starts[start].end():end.start()]) for start, end in found]
    tokens = scripted(texts, scripts)
    spans = []
    for k, (start, end) in enumerate(found):
        if k in tokens:
            spans.append((start - len(tokens[k].before), end.end() + len(tokens[k].after)))
        elif not any(character.isalpha() for character in scripts[k].text or ""):
            spans.append((start, end.end()))
    return [span for k, span in enumerate(spans) if not k or spans[k - 1][1] <= span[0]]
