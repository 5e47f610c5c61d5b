"""A speaker's label at the start of a line: a name in capitals before a colon, as scripts, subtitles and
transcripts write it (``ANNA: Where are you going?``, ``DR. SMITH (V.O.): Hello``, ``MAN 2: Come in``), and an
interview's ``Q:`` and ``A:``.  A name has no translation: read as words, the demo model wrote "ANNA: Where are you
going?" as "Ein Hühner, der auf dem Aussprüssssssssssen kann.", the name lost, and "Q: How long ...?" without its
"Q:".  So a label is kept as it is written and only the words after it are translated.  Not a word that introduces a
remark, written in capitals before a colon as names are (``NOTE:``, ``WARNING:``, ``P.S.:``): a reader wants it
translated with its sentence.  The one rule that says what is a speaker's label, which attnmt.documents.cue_labels
reads in a cue (through its tags), attnmt.documents.list_marks keeps in a text line and
attnmt.decoding.sentence_edges around a sentence ``translate`` is given."""

from __future__ import annotations

import re

NAME = re.compile(r"[^\W\d_][^:\n]{0,40}?:")  # a speaker's name before a colon ("JOHN:", "DR. SMITH (V.O.):")
# The words that introduce a remark, not a speaker's words, written in capitals before a colon as names are ("NOTE:",
# "WARNING:", "P.S.:", "IMPORTANT NOTE:"): a label of one is no name, and it stays in its sentence.
REMARKS = frozenset({"NOTE", "NOTES", "NB", "PS", "PPS", "WARNING", "CAUTION", "DANGER", "ATTENTION", "IMPORTANT",
                     "REMINDER", "TIP", "HINT", "UPDATE", "DISCLAIMER", "FYI", "BTW"})
# The one-letter labels of an interview's or a hearing's transcript, question and answer ("Q: How long?", "A: Two
# years."); any other letter alone ("I: ...") is too likely a word.
ASKED = frozenset({"Q", "A"})
# A label at a line's start, after its indent (group "indent"), then a space and more: "ANNA: Where", not a URL's
# "HTTP://" nor a label alone on its line.
LABEL = re.compile(rf"(?P<indent>[ \t]*)(?P<label>{NAME.pattern})(?=[ \t]+\S)")


def is_speaker(name: str) -> bool:
    """Whether ``name`` (what ``NAME`` matched, read as shown) is a speaker's: in capitals, with two letters or more
    ("JOHN:", "MAN 2:", "DR. SMITH:") or an interview's "Q:" or "A:", and none of its words introduces a remark
    (``REMARKS``, its stops left out: "NOTE:", "P.S.:", "IMPORTANT NOTE:")."""
    if not name.isupper() or (sum(ch.isalpha() for ch in name) < 2 and name[:-1] not in ASKED):
        return False
    return not REMARKS.intersection(re.findall(r"[^\W\d_]+", name.replace(".", "")))


def speaker_label(line: str) -> re.Match[str] | None:
    """The speaker's label ``line`` starts with (``LABEL``, ``is_speaker``), or None."""
    found = LABEL.match(line)
    return found if found is not None and is_speaker(found["label"]) else None
