"""A speaker's label at the start of a line: a name in capitals before a colon, as scripts, subtitles and
transcripts write it (``ANNA: Where are you going?``, ``DR. SMITH (V.O.): Hello``, ``MAN 2: Come in``), and an
interview's ``Q:`` and ``A:``.  A name has no translation: read as words, the demo model wrote "ANNA: Where are you
going?" as "Ein Hühner, der auf dem Aussprüssssssssssen kann.", the name lost, and "Q: How long ...?" without its
"Q:".  So a label is kept as it is written and only the words after it are translated.  Not a word that introduces a
remark, written in capitals before a colon as names are (``NOTE:``, ``WARNING:``, ``P.S.:``): a reader wants it
translated with its sentence, and so is a status, a heading or an acronym written so
(``ERROR:``, ``FAQ:``, ``USA:``).  Nor a field's name (attnmt.text.field_names: ``BENEFITS:``, ``TRANSLATOR: Ann
Goldstein``), which the model lost read with its value: it is translated alone, as a sound's description in brackets
is, and its colon kept as written (``field_name``).  The one rule that says what is a speaker's label, which
attnmt.documents.cue_labels reads in a cue (through its tags), attnmt.documents.list_marks keeps in a text line and
attnmt.decoding.sentence_edges around a sentence ``translate`` is given."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

from attnmt.text.field_names import (
    credited,
    field_label,
    field_value,
    holds_persons,
    listed,
    names_field,
    names_person,
    plural,
    status,
    unit_measure,
    valued,
)
from attnmt.text.list_marks import LIST_MARK
from attnmt.text.numbered_parts import numbered_part

# A speaker's name before a colon ("JOHN:", "DR. SMITH (V.O.):"), a time in brackets in it ("INTERVIEWER (00:01:23):"),
# or before a full-width colon, as Chinese and Japanese text writes it ("Q：", "ANNA："): read as words, the demo model
# wrote "Q：How long is the walk?" without its "Q：".
NAME = re.compile(r"[^\W\d_](?:\([^()\n]{0,20}\)|[^:：\n(]){0,40}?[:：]")
# A log's levels, the standard sets whole, none a name: syslog's (EMERG ... DEBUG), Java's (SEVERE ... FINEST),
# log4j's and Python's (FATAL, CRITICAL, NOTSET).  Read as a speaker's, "12:00:01 CRITICAL: Disk /dev/sda1 is full."
# and "NOTICE: Rotating logs." kept an English label before the translated message.
LEVELS = frozenset({"EMERG", "EMERGENCY", "ALERT", "CRIT", "CRITICAL", "ERR", "ERROR", "WARNING", "WARN", "NOTICE",
                    "INFO", "DEBUG", "TRACE", "FATAL", "SEVERE", "CONFIG", "FINE", "FINER", "FINEST", "VERBOSE",
                    "NOTSET"})
# The words that introduce a remark, not a speaker's words, written in capitals before a colon as names are ("NOTE:",
# "WARNING:", "P.S.:", "IMPORTANT NOTE:"), or a program's or a checklist's status ("ERROR: file not found", "FATAL
# ERROR:", "TODO: Clean the kitchen."): a label with one is no name, and it stays in its sentence.
REMARKS = frozenset({"NOTE", "NOTES", "NB", "PS", "PPS", "WARNINGS", "CAUTION", "DANGER", "ATTENTION", "IMPORTANT",
                     "REMINDER", "TIP", "HINT", "UPDATE", "UPDATED", "DISCLAIMER", "FYI", "BTW", "SPOILER", "SPOILERS",
                     "ERRORS", "FAIL", "FAILED", "FAILURE", "PASS", "PASSED", "SUCCESS", "DONE", "TODO", "FIXME", "XXX",
                     "HACK"}) | LEVELS
# A memo's, an e-mail's and a report's fields and sections, and a news item's flag, each a whole label no person
# speaks under ("TO: All staff", "RE: Parking", "OVERVIEW: This guide ...", "REMARKS: Crew in good spirits.",
# "LOCATION: Conference room B", "BREAKING: Storm hits ..."): written in capitals before words with a capital, as a
# speaker's name is.  Those in the plural of an abstract noun need no place here (``ABSTRACT_PLURAL``).
SECTIONS = frozenset({"TO", "FROM", "CC", "BCC", "RE", "FW", "FWD", "MEMO", "MEMORANDUM", "OVERVIEW", "BACKGROUND",
                      "INTRODUCTION", "PURPOSE", "SCOPE", "OBJECTIVE", "OBJECTIVES", "GOAL", "GOALS", "AIM", "AIMS",
                      "REMARKS", "FINDINGS", "CONCLUSION", "RECOMMENDATION", "DESCRIPTION", "DEFINITION", "LOCATION",
                      "DURATION", "CONDITION", "SECTION", "AGENDA", "ATTENDEES", "ABSENT", "WEATHER", "PRIORITY",
                      "DEADLINE", "CATEGORY", "TITLE", "AUTHOR", "REFERENCE", "REF", "VENUE", "ROOM", "PRICE",
                      "BUDGET", "TOTAL", "OUTCOME", "STEPS", "TAGS", "KEYWORDS", "CONTEXT", "PROBLEM", "ISSUE",
                      "IMPACT", "RISK", "RISKS", "BREAKING", "DEVELOPING", "URGENT", "FLASH", "LIVE", "OPINION",
                      "ANALYSIS", "EDITORIAL", "WATCH", "LISTEN", "READ MORE", "SEE ALSO"})
# The plural of an abstract noun in English, a report's or a form's section ("RECOMMENDATIONS:", "REQUIREMENTS:",
# "KEY RESPONSIBILITIES:", "SPECIAL INSTRUCTIONS:"), which no name and no role a script gives a speaker ends with; in
# the singular some do ("PROSECUTION:", "CONGREGATION:", "CLEMENT:", "WITNESS:", "FELICITY:"), and "-INGS" a surname
# ("HASTINGS:").
ABSTRACT_PLURAL = re.compile(r"(?:TIONS|SIONS|MENTS|ITIES)\Z")
# The labels that are a heading, a form's field or an acronym the sentence after it is about, whole ("FAQ: How do I
# ...?", "SUMMARY: The ...", "USA: The country has fifty states.", "API: The server ..."), each no name; a word of them
# in a longer label may be one's ("TIME TRAVELLER:", "DR. SMITH (O.S.):").  Read as a speaker's, "ERROR: file not
# found" kept its English "ERROR:" before the translated words.
HEADINGS = frozenset({"FAQ", "TLDR", "SUMMARY", "ABSTRACT", "EXAMPLE", "SOLUTION", "QUESTION", "ANSWER", "RESULT",
                      "RESULTS", "SOURCE", "SUBJECT", "DATE", "TIME", "PLACE", "ADDRESS", "NAME", "PHONE", "EMAIL",
                      "INPUT", "OUTPUT", "TOPIC", "STATUS", "EDIT", "OK", "BREAKING NEWS", "NEWS", "EXCLUSIVE",
                      "CORRECTION", "USA", "US", "UK", "EU", "UN", "NATO", "API", "URL", "CPU", "GPU", "RAM", "SQL",
                      "HTTP", "HTTPS", "HTML", "CSS", "JSON", "XML", "PDF", "USB", "CEO", "CFO", "CTO", "FBI", "CIA",
                      "NASA", "BBC", "CNN", "GDP", "AI", "IT", "HR", "PR", "QA", "ETA", "DIY", "RSVP", "ASAP", "ID",
                      "APP", "APPS"}) | SECTIONS
EXTENSION = re.compile(r"\s*\([^()]*\)")  # a name's extension in brackets: " (V.O.)", " (whispering)", " (00:01:23)"
# The one-letter labels of an interview's or a hearing's transcript, question and answer ("Q: How long?", "A: Two
# years."); any other letter alone ("I: ...") is too likely a word.
ASKED = frozenset({"Q", "A"})
# A label at a line's start, after its indent (group "indent"), then a space and more: "ANNA: Where", not a URL's
# "HTTP://" nor a label alone on its line; a full-width colon holds its own space ("ANNA：Where").  A transcript's
# time before it is a line's mark (attnmt.text.list_marks).
LABEL = re.compile(rf"(?P<indent>[ \t]*)(?P<label>{NAME.pattern})(?=[ \t]+\S|(?<=：)\S)")
# Sound descriptions in brackets, each with a letter and no "/" (not a "[1]", a "[00:05]", nor a link's
# "[Home](/home)"), at a line's start, after its indent, then words: "[LAUGHS] Yes, of course.", "(sighs) I do not
# know.".  Read with the words after them, the demo model wrote "[LAUGHS] Yes, of course." as "Häner bewäntliche
# U-Fahrerfahrer.", the brackets lost; alone, it wrote "[LAUGHS]" as "[EINE LACHT]".
BRACKETED = r"(?:\[[^\[\]/\n]*[^\W\d_][^\[\]/\n]*\]|\([^()/\n]*[^\W\d_][^()/\n]*\))"
DESCRIPTIONS = re.compile(rf"(?P<indent>[ \t]*)(?P<description>{BRACKETED}(?:[ \t]*{BRACKETED})*)(?=[ \t]+\S)")
# What opens a speaker's words in a script whatever the case of the letter after it: a sound's description or a
# direction in brackets ("(whispering) I saw"), words broken off or taken up again ("...and then?", "-- wait").
SCRIPTED = re.compile(rf"\s*(?:{BRACKETED}|\.\.\.|…|—|--)")
# A speaker's name or role in brackets, as transcripts and captions write it before the words said ("[NARRATOR] Once
# upon a time", "(ANNA) Hello"), what they hold (group "inside" or "round") a speaker's where ``is_voice`` says so;
# at a line's start (``VOICE_LABEL``), after its indent, then a space and more, as ``LABEL``.
VOICE = re.compile(r"\[(?P<inside>[^\[\]\n]{1,40})\]|\((?P<round>[^()\n]{1,40})\)")
VOICE_LABEL = re.compile(rf"(?P<indent>[ \t]*)(?P<label>{VOICE.pattern})(?=[ \t]+\S)")
# The roles a voice has in capitals in brackets, no sound's description ("[NARRATOR]", not "[MUSIC]", "[LAUGHS]").
ROLES = frozenset({"NARRATOR", "NARRATION", "ANNOUNCER", "HOST", "CO-HOST", "INTERVIEWER", "INTERVIEWEE", "REPORTER",
                   "PRESENTER", "MODERATOR", "COMMENTATOR", "VOICEOVER", "VOICE-OVER", "VOICE OVER", "V.O."})
# Speech that opens with a number, as a field's value does ("ANNA: 3 MORE DAYS!", "COACH: 10 more laps, everyone!",
# "PILOT: 3 minutes to target."): an exclamation or a question, or three words or more, where a value is a quantity
# with its unit ("200 people", "6 FT", "WEIGHT: 1.2 kg", "MAN 2: 2 hours").  Read as a field, "ANNA: 3 MORE DAYS!"
# was translated whole and the demo model wrote "EIN CODDDDDDDDDDDDDD.", the name lost.
COUNTED_SPEECH = re.compile(r"[!?]\W*\Z|(?:[^\W\d_]{2,}\W+){2,}[^\W\d_]{2,}")
# The words speech opens with in lower case and a field's value or a log's message hardly ever does: an
# interjection, an answer, a greeting, "i", in the languages scripts and transcripts are most often written in ("ANNA:
# oh, years ago.", "TOM: yeah, right.", "HANS: ach, lass mal.", "LÉA: bah, non.").  Read as a field's value, "ANNA: oh,
# years ago." had the name translated alone.
OPENERS = frozenset({"OH", "OHH", "AH", "AHH", "AHA", "EH", "UH", "UHH", "UM", "UMM", "ER", "ERM", "HM", "HMM", "MM",
                     "OOH", "OW", "OUCH", "OOPS", "WOW", "WHOA", "HEY", "HI", "HELLO", "BYE", "YES", "YEAH", "YEP",
                     "YUP", "NO", "NOPE", "NAH", "OKAY", "WELL", "SORRY", "PLEASE", "THANKS", "I", "ACH", "JA",
                     "NEIN", "TJA", "OUI", "NON", "BAH", "BEN", "EUH", "HEIN", "SÍ", "VALE", "BUENO", "PUES"})
# A news item's dateline before a colon: a place in capitals, then after a comma its state or country or the date in
# any case, and the agency in brackets ("TOKYO, March 3 (Reuters):", "SAN FRANCISCO, Calif.:", "GENEVA, 12 May
# 2024:"): the groups "place" and "where".  No one's name, but kept as written too: read with the news, the demo model
# lost every one ("BERLIN, Jan. 5 (dpa): The strike ended." gave "Fischer, von denen einem Tomma-T-T-T-...").
DATELINE = re.compile(r"(?P<place>[^,:()\n]+),(?P<where>(?:[^,:()\n]+,?){1,3})(?:[ \t]*\([^()\n]+\))?:")
# A field's name and its colon inside a value, before a space or the end: the line holds several fields ("Tel.: +49
# 30 1234567, Fax: +49 30 7654321"), read whole as a form's line is, its atoms' commas with them.
INNER_FIELD = re.compile(r"[^\W\d_][\w.]*[ \t]?:(?!\S)")
# A quantity alone, a number and its unit at most ("15 min", "1995", "1.2 kg", "120 m²", "200 km/h", "180 °C", "5%"),
# as a form's or a listing's field of several words holds it ("PREP TIME: 15 min", "YEAR BUILT: 1995"): read as a
# speaker saying a number, "PREP TIME:" kept its English words.
QUANTITY = re.compile(r"\s*[$€£¥]?\d[\d.,:/-]*\s*(?:%|°?[^\W\d_]+(?:/[^\W\d_]+)?[²³]?\.?|°)?\s*\Z")
# A thing's name before a measure's colon: words of two letters or more, digits after them too ("HBA1C"), the last
# of them a code or none, a letter, a number or a letter and its number ("SPECIMEN:", "VITAMIN D:", "VITAMIN B12:",
# "OMEGA 3:"), a decimal's point in the first ("PM2.5:", an air quality's), as a lab's or a label's line writes it;
# no abbreviation's stop, no extension ("DR. SMITH:", "NURSE (O.S.):").  Read as a speaker's, "VITAMIN D: 30 ng/ml"
# kept its name and the demo model wrote "30 ng/ml" as "Fünf findet sich".
THING = re.compile(r"[^\W\d_]{2,}(?:[^\W_]|\.(?=\d))*(?:[ \t-][^\W\d_]{2,}[^\W_]*)*(?:[ \t-](?:[^\W\d_]\d*|\d+))?"
                   r"[ \t]*[:：]")
# A question or an exclamation, which a speaker's words in lower case may be ("ANNA: and then?", "TOM: no way!") and
# a field's value hardly ever is.
EXCLAIMED = re.compile(r"[?!][\W]*\Z")
# Names in title case ("Anna:", "Dr. Smith:") are a dialogue's speakers' said this many times or more, or once between
# two of those, as turns go: a label said once alone or after the turns may as well be a word ("Ingredients: Flour").
TURNS = 2


def is_speaker(name: str, speakers: frozenset[str] = frozenset(), said: str | None = None) -> bool:
    """Whether ``name`` (what ``NAME`` matched, read as shown) is a speaker's: one of a dialogue's ``speakers``
    (``dialogue``: "Anna:" where "Anna:" and "Tom:" take turns), or in capitals, with two letters or more ("JOHN:", "MAN
    2:", "DR. SMITH:") or an interview's "Q:" or "A:", none of its words introduces a remark or a status or is a log's
    level (``REMARKS``, its stops left out: "NOTE:", "P.S.:", "IMPORTANT NOTE:", "FATAL ERROR:", "NOTICE:"), it is no
    heading, section nor acronym (``HEADINGS``: "FAQ:", "USA:", "OVERVIEW:"), no open field's name
    (attnmt.text.field_names: "BENEFITS:", "SIDE EFFECTS:"), its last word no abstract noun's plural
    (``ABSTRACT_PLURAL``: "RECOMMENDATIONS:"), no numbered part's heading (attnmt.text.numbered_parts: "BOOK III:"), and
    what follows it, where ``said`` is known, reads as a speaker's words (``speaks``: not "CRITICAL: disk full"), not as
    a field's value (field_names.valued: not a role's credit, "TRANSLATOR: Ann Goldstein", nor a list, a time or a
    price) nor a thing's state (field_names.status: "DISK: full!", not "ANNA: ready!"), or is a number a speaker says
    (``says_number``: "ANNA: 5pm.", "HEAD CHEF: 3 eggs.")."""
    if name in speakers:
        return True
    bare = EXTENSION.sub("", name)  # a script's extension may be in lower case: "WATSON (whispering):", "(cont'd)"
    if not bare.isupper() or (sum(ch.isalpha() for ch in bare) < 2 and bare[:-1] not in ASKED):
        return False
    words = re.findall(r"[^\W\d_]+", bare.replace(".", ""))
    return (not REMARKS.intersection(words) and " ".join(words) not in HEADINGS and not names_field(words)
            and not (words and ABSTRACT_PLURAL.search(words[-1])) and numbered_part(bare.rstrip(":：")) is None
            and (said is None or (speaks(said) and not valued(words, said) and not status(words, said))
                 or says_number(bare, words, said)))


def says_number(bare: str, words: list[str], said: str) -> bool:
    """Whether ``said`` opens with a number (a quantity, a time, a price: "5pm.", "2 hours", "$40, cash only.")
    after a label whose ``words`` name no field (field_names.field_label: "ANNA", "MAN 2"; not "PLAYERS", "WEIGHT",
    "LAST ENTRY") and that is not a field's of several words before a quantity alone (``measured``: not "PREP
    TIME: 15 min"), nor a thing's name before a measure with its unit (``THING``, field_names.unit_measure: not
    "SPECIMEN: 2 ml", "VITAMIN D: 30 ng/ml"): a speaker says it.  Read as a field's, "ANNA: 5pm." had its name
    translated alone."""
    return (opens_with_number(said) and not field_label(words) and not measured(bare, said)
            and not (THING.fullmatch(bare) is not None and unit_measure(words, said)))  # "SPECIMEN: 2 ml"


def measured(bare: str, said: str) -> bool:
    """Whether a label read without its extension, ``bare`` (its colon too), is of two words or more, none an
    initial, without a digit or an abbreviation's stop, and ``said`` after it is a quantity alone (``QUANTITY``): a
    form's or a listing's field ("PREP TIME: 15 min", "YEAR BUILT: 1995", "LOT SIZE: 0.5 acres"), where a speaker
    saying a number is named by one word ("ANNA: 5pm."), a role and its number ("MAN 2: 2 hours"), a title ("DR.
    SMITH: 10 mg.") or an initial ("AGENT K: 12"), and no label of several words whose last names a person does
    (field_names.names_person: "OLD MAN: 5 dollars.", "DELIVERY MAN: 5 boxes")."""
    words = bare.rstrip(":：").split()
    return (len(words) >= 2 and all(len(word) >= 2 for word in words) and not re.search(r"[\d.]", bare)
            and not names_person(words) and QUANTITY.match(said) is not None)


def opens_with_number(said: str) -> bool:
    """Whether ``said``'s first letter or digit is a digit: "5pm.", "$40", "(2) weeks"."""
    return next((character for character in said if character.isalnum()), "").isdigit()


def is_field(name: str, said: str) -> bool:
    """Whether ``name`` (what ``NAME`` matched), no speaker's, names a field that ``said`` is the value of: in
    capitals or title case ("BENEFITS:", "Side Effects:"), no remark's word nor a heading (``REMARKS``, ``HEADINGS``:
    "NOTE:", "TO:", "USA:", translated with their sentence; a heading before a quantity alone, ``QUANTITY``, is a
    field's: "PRICE: $250,000", which the demo model, given whole, wrote "EIN ÄSSSSSSSSPAA-T-T-..."), its words an
    open field's (attnmt.text.field_names:
    "KEY FEATURES:", "INGREDIENTS:"), or its last word an abstract noun's plural (``ABSTRACT_PLURAL``:
    "REQUIREMENTS:"), or ``said`` a field's value after it (field_names.valued: "TRANSLATOR: Ann Goldstein",
    "OPENING TIMES: Mon-Fri 9am-5pm", "ACCESSORIES: Case, charger, cable."), after a name in title case whatever the
    name (field_names.field_value: "Prix : dès 25 €") or before a quantity ("Poids : 1,2 kg", a field on no list
    that the demo model lost whole), or, after a name in capitals, no speaker's words (``speaks``: "PLAYERS: 2-4",
    "AGES: 8 and up") or a thing's state (field_names.status: "SERVER: down!").  A heading before persons' names
    after a role is a field's too ("NAME: John Smith", "AUTHOR: Jane Austen": field_names.holds_persons), and so is
    a numbered part's heading before no word in lower case ("Book II:", "Section 4.2:":
    attnmt.text.numbered_parts)."""
    words = re.findall(r"[^\W\d_]+", EXTENSION.sub("", name).replace(".", ""))
    capitals = [word.upper() for word in words]
    if not words or not labelled(words) or REMARKS.intersection(capitals):
        return False
    if numbered_part(name.rstrip().rstrip(":：")) is not None and not said.lstrip()[:1].islower():
        return True  # "Book II: A man walks.": a heading, which the demo model lost read whole
    if " ".join(capitals) in HEADINGS:  # but before a quantity alone or persons' names: "PRICE: $250,000", "NAME:"
        return QUANTITY.match(said) is not None or (holds_persons(capitals) and credited(said))
    return (names_field(capitals) or ABSTRACT_PLURAL.search(capitals[-1]) is not None or valued(capitals, said)
            or (words != capitals and (field_value(said) or (opens_with_number(said) and not speaks(said))))
            or (words == capitals and (not speaks(said) or status(capitals, said))))


def labelled(words: list[str]) -> bool:
    """Whether a label's ``words`` are written as a field's name is: in capitals or title case, a credit's last "by"
    in lower case too ("Directed by", "Translated by"), which read as a sentence kept "Translated by: Lydia Davis"
    from being a field's; another preposition so leaves a sentence's start ("Write to: info@example.com, or call
    us.")."""
    return all(word[0].isupper() for word in words[:-1]) and (words[-1][0].isupper() or words[-1] == "by")


def field_name(line: str, speakers: frozenset[str] = frozenset()) -> tuple[int, int] | None:
    """Where the name of the field ``line`` opens with, after its list mark, ends, and where the colon after it does
    (``is_field``, no speaker's label: ``speaker_label``, the dialogue's ``speakers`` too): (8, 9) of "BENEFITS: Free
    parking.", (6, 8) of "- Prix : 25 €"; None where it opens with none.  Read with its value, the demo model lost
    the name ("BENEFITS: Free parking and Wi-Fi." came back "Auf einem Parkplatz ..."), so it is translated alone
    (attnmt.decoding.sentence_parts, attnmt.documents.list_marks), and the colon kept as written; a line of several
    fields (``INNER_FIELD``) is read whole."""
    mark = LIST_MARK.match(line)
    start = mark.end("mark") if mark else 0
    found = LABEL.match(line, start)
    if found is None or speaker_label(line[start:], speakers):
        return None
    value = line[found.end():]
    if INNER_FIELD.search(value) or not is_field(found["label"], value):
        return None
    return found.start("label") + len(found["label"][:-1].rstrip()), found.end("label")


def is_dateline(name: str, said: str) -> bool:
    """Whether ``name`` (what ``NAME`` matched) is a news item's dateline (``DATELINE``): its place is what a
    speaker's name in capitals may be (``is_speaker``: "TOKYO:", not "NOTE:", "BENEFITS:"), after the comma a date,
    with a digit, as any language writes it ("March 3", "12 May 2024", "5 de marzo", "3 mars"), or a state or a country,
    each word opening with a capital ("Calif.", "France"), and ``said`` reads as speech does (``speaks``).  "LONDON:"
    and "BERLIN (Reuters):" are speakers' labels already, kept alike."""
    found = DATELINE.fullmatch(name)
    words = found["where"].replace(",", " ").split() if found else []
    return (found is not None and is_speaker(f"{found['place'].strip()}:", said=said)
            and (any(character.isdigit() for character in found["where"]) or all(w[0].isupper() for w in words)))


def speaks(said: str) -> bool:
    """Whether ``said``, what follows a label, reads as a speaker's words: a script's sound descriptions or
    directions in brackets ("(whispering) I saw", "[sighs] no"), words broken off or taken up again (``SCRIPTED``:
    "...and then?", "-- wait"), or words whose first letter or digit, past quotes and punctuation, is a letter that is
    not in lower case (a capital, or one of a script without case: "Where are you?", "¿Dónde?", "「どこ？」") or that
    opens a word of speech (``opens_speech``: "oh, years ago.") or a question or an exclamation (``EXCLAIMED``: "and
    then?", which read as a field's value had "ANNA" translated alone), or a digit that opens an exclamation, a
    question or a sentence (``COUNTED_SPEECH``: "3 MORE DAYS!").  A field's value,
    a log's message and an acronym's explanation start in lower case or with a quantity ("CRITICAL: disk full", "XML:
    its declared encoding", "Ingredients: flour, sugar", "TIME: 10:30", "PRICE: $25", "MAN 2: 2 hours"), as a
    speaker's words hardly ever do."""
    if SCRIPTED.match(said):
        return True
    first = next((character for character in said if character.isalnum()), "")
    if first.isdigit():
        return COUNTED_SPEECH.search(said) is not None
    return first.isalpha() and (not first.islower() or opens_speech(said) or EXCLAIMED.search(said) is not None)


def opens_speech(said: str) -> bool:
    """Whether ``said`` opens with a word of speech (``OPENERS``: "oh, years ago.", "yeah, right") and more words
    follow it or a sentence's end closes it ("no."): a field's value may be a word alone ("REFUNDABLE: no")."""
    words = re.findall(r"[^\W\d_]+", said)
    closed = re.search(r"[.!?…]\W*\Z", said) is not None
    return bool(words) and words[0].upper() in OPENERS and (len(words) > 1 or closed)


def is_voice(found: re.Match[str], speakers: frozenset[str] = frozenset()) -> bool:
    """Whether what ``VOICE`` found in brackets names a speaker: a role in capitals (``ROLES``: "[NARRATOR]"), or
    a name the text's ``speakers`` hold (``dialogue``: "(ANNA)" where "ANNA:" speaks too), not a sound's description
    ("[MUSIC]", "(laughs)"), which is translated.  Read as words, the demo model wrote "[NARRATOR]" as
    "[SICHERHEITSWESTEN]" and "(ANNA) Hello" as "(EINE FRAU IN DER HOCKE)"."""
    inside = (found["inside"] or found["round"]).strip()
    return inside in ROLES or f"{inside}:" in speakers


def speaker_label(line: str, speakers: frozenset[str] = frozenset()) -> re.Match[str] | None:
    """The speaker's label ``line`` starts with (``LABEL``, ``is_speaker`` with the dialogue's ``speakers``; or in
    brackets: ``VOICE_LABEL``, ``is_voice``), or a news item's dateline, kept as written as a label is
    (``is_dateline``), or None."""
    found = LABEL.match(line)
    said = line[found.end("label"):] if found else ""
    if found is not None and (is_speaker(found["label"], speakers, said) or is_dateline(found["label"], said)):
        return found
    found = VOICE_LABEL.match(line)
    return found if found is not None and is_voice(found, speakers) else None


def descriptions_end(line: str, speakers: frozenset[str] = frozenset()) -> int:
    """Where the sound descriptions in brackets (``DESCRIPTIONS``) that ``line`` opens with end, after its list mark
    and its speaker's label (one of the dialogue's ``speakers`` too), words after them: 14 of "ANNA: [LAUGHS] Yes.",
    7 of "(sighs) I know."; 0 where it opens with none."""
    mark = LIST_MARK.match(line)
    start = mark.end("mark") if mark else 0
    if label := speaker_label(line[start:], speakers):
        start += label.end("label")
    found = DESCRIPTIONS.match(line, start)
    return found.end() if found else 0


def dialogue(lines: Iterable[str]) -> frozenset[str]:
    """The speakers' names that ``lines`` open with, after a list's mark or a speaker's dash ("- Anna: Hi."): each in
    capitals (``is_speaker``) where a line reads as it speaking (``speaks``: "ANNA: Come in.", after which "ANNA:
    ...and then?" is hers too), and those in title case (``titled``) that take turns in a dialogue: each name said
    ``TURNS`` times or more, speaking in one of them at least, and one that speaks once between two of those (blank
    lines passed over), where two names or more are so ("Anna: Where are you?" / "Tom: In the garden." / "Anna: Come
    in.").  Read as words, the demo model wrote "Anna: Where are you?" as "Ein Hühnzzze, der auf der Fähnt ist.",
    "Anna" lost.  "Figure 1:" or "Ingredients:" away from the dialogue or after its end is no speaker's, nor is what
    would be none in capitals ("Note:", "Date:"), nor a form's field ("Price: 59 euros" / "Price: 89 euros")."""
    opened = [line_label(line) for line in lines if line.strip()]
    labels = [label for label, _ in opened]
    spoken = {label for label, said in opened if label and speaks(said)}
    counts = Counter(label for label in labels if label)
    turns = {name for name, count in counts.items() if count >= TURNS and name in spoken and titled(name)}
    neighbours = zip(["", *labels][:len(labels)], [*labels[1:], ""][:len(labels)], strict=True)
    between = {label for label, (before, after) in zip(labels, neighbours, strict=True)
               if label in spoken and titled(label) and before in turns and after in turns}
    taken = turns | between if len(turns | between) >= 2 else set()
    named = {label for label, said in opened if label and is_speaker(label, said=said)}
    return frozenset(named | taken | script_plurals(opened, named))


def script_plurals(opened: Sequence[tuple[str, str]], named: set[str]) -> set[str]:
    """The labels in "-S" on no list of fields that a script's lines (``opened``: each line's label and what
    follows it) open before a list of things said (field_names.listed, no persons' names: "MILES: Bread, cheese,
    wine.", "EMRYS: Swords, shields, horses."), which alone read as a plural's field: between two turns of speakers
    in capitals (``named``), or after two at a script's end (``between_turns``), such a label is one more
    speaker's, where a menu's or a listing's after a script's end ("STARTERS: Soup, salad, bread." / "MAINS: ...") is
    still a field's.  Read as a field's, "MILES:" came back
    "URUNER:" from the demo model."""
    labels = [label for label, _ in opened]
    return {label for k, (label, said) in enumerate(opened)
            if between_turns(labels, k, named) and is_speaker(label) and speaks(said) and listed(said)
            and not credited(said) and plural(re.findall(r"[^\W\d_]+", label)[-1].upper())}


def between_turns(labels: Sequence[str], k: int, named: set[str]) -> bool:
    """Whether the line of ``labels[k]`` stands between two turns of speakers in capitals (``named``), or is a
    script's last, after two turns of two speakers: "MILES: Bread, cheese, wine." after "ANNA:" and "TOM:" closes
    their script, where a menu's "STARTERS:" after a script's end has a field's "MAINS:" after it."""
    if not 0 < k or labels[k - 1] not in named:
        return False
    if k < len(labels) - 1:
        return labels[k + 1] in named
    return k >= 2 and labels[k - 2] in named and labels[k - 2] != labels[k - 1]


def line_label(line: str) -> tuple[str, str]:
    """The label (``LABEL``) ``line`` opens with, after a list's mark or a speaker's dash and any sound's
    descriptions in brackets ("(laughs) Anna: Hi.", a turn as "Anna: Hi." is), as written, and what follows it;
    ("", "") for none."""
    mark = LIST_MARK.match(line)
    text = line[mark.end("mark"):].lstrip() if mark else line
    described = DESCRIPTIONS.match(text)  # a sound's description before a turn: "(laughs) Anna: Hi."
    text = text[described.end():].lstrip() if described else text
    found = LABEL.match(text)
    return (found["label"], text[found.end("label"):]) if found else ("", "")


def titled(name: str) -> bool:
    """Whether ``name`` (a ``LABEL``'s) is a name in title case: each of its words starts with a capital ("Anna:",
    "Dr. Smith:", "Man 2:"), and it is a speaker's in capitals (``is_speaker``: not "Note:", not "A:")."""
    words = re.findall(r"[^\W\d_]+", name)
    return not name.isupper() and all(word[0].isupper() for word in words) and is_speaker(name.upper())
