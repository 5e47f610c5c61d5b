"""The label a cue's text may open with, as captions for the deaf and hard of hearing write it
(attnmt.documents.subtitles): a speaker's name in capitals and a colon (``JOHN: I saw a man``,
``DR. SMITH (V.O.): Hello``), or sound descriptions in brackets (``[DOOR SLAMS] I saw``,
``(laughs) Come here``).  A label is no part of the sentence after it: read with it, the
alignment moved it with the words around it, and a sentence run on into the next cue took
``JOHN:`` to that cue's end.  So it is translated alone and written back at its cue's start.
"""

from __future__ import annotations

import re
from html import unescape

BRACKETED = r"(?:\[[^\[\]]*\]|\([^()]*\))"  # "[DOOR SLAMS]", "(laughs)"
# A cue's line of sound descriptions alone ("[dog barking].", "[MUSIC] (laughing)"), as captions for the
# deaf and hard of hearing write them: a cue of its own (subtitles.set_apart), no label.
DESCRIPTION = re.compile(rf"(?:{BRACKETED}[\s.,;:!?…-]*)+")
NAME = re.compile(r"[^\W\d_][^:\n]{0,40}?:")  # a speaker's name before a colon ("JOHN:", "DR. SMITH (V.O.):")
# Descriptions (group 1) or a name (group 2), then the spaces before the cue's words (group 3).
LABEL = re.compile(rf"(?:({BRACKETED}(?:\s*{BRACKETED})*)|({NAME.pattern}))(\s+)(?=\S)")


def split_label(text: str) -> tuple[str, str, str]:
    """(label, the spaces after it, the rest) of a cue's ``text``; ("", "", text) where it opens
    with none.  A name is a label only in capitals with two letters or more ("JOHN:", not "I:" nor
    "Note:"), and only first: a name and descriptions after it ("JOHN: (whispering) I saw") are one
    label; a text of descriptions alone is no label but the cue's own text (subtitles.set_apart)."""
    label, gap, rest = "", "", text
    while (match := LABEL.match(rest)) and not DESCRIPTION.fullmatch(rest) and not (
            match.group(2) and (label or not is_name(match.group(2)))):
        label, gap, rest = label + gap + (match.group(1) or match.group(2)), match.group(3), rest[match.end():]
    return label, gap, rest


def is_name(label: str) -> bool:
    """Whether a label opens with a speaker's name ("JOHN:"): a new speaker, whom the sentence before does not go
    on in.  Read as shown: WebVTT's "JOHN &amp; MARY:" is in capitals."""
    name = NAME.match(unescape(label))
    return name is not None and name.group().isupper() and sum(ch.isalpha() for ch in name.group()) >= 2
