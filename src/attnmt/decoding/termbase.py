"""A termbase as a glossary: TBX (ISO 30042, TermBase eXchange), what SDL Trados and MultiTerm,
memoQ, Phrase and Microsoft's terminology export.

TBX 2's root is ``martif``, TBX 3's ``tbx``; either holds entries (``termEntry``, TBX 3's
``conceptEntry``), one concept each, with a section per language (``langSet`` or ``langSec``,
its ``xml:lang`` saying the language) of terms (each in a ``tig``, ``ntig`` or ``termSec``, its
``term``).  MultiTerm's own XML export (its root ``mtf``) is read alike: its ``conceptGrp`` entries of
``languageGrp`` sections, each's ``<language lang="EN-US"/>`` saying the language, of ``termGrp`` terms.
A section's language is matched by its primary subtag: ``en-US`` is en (but between two
varieties of one language, en-US to en-GB, by the variety it is nearer: ``section_side``); of an entry's
target terms, those of the target language's own variety come first (de-CH's for de-CH), then, of its script
(zh-Hans-CN's for zh-Hans, not zh-Hant-TW's; "zh" and "zh-CN" are simplified, "zh-TW" traditional), those of the
language as a whole (de's), then another region's (``variety_distance``).

Of an entry, every source-language term is a source term, one deprecated or superseded too: its status is
about writing the source, not recognising it, so a text that uses it ("electronic mail") is given the entry's
target term as CAT tools offer it (but where another entry gives the same term without such a status, that entry
alone holds it: ``unambiguous``).  A target term deprecated or superseded (``administrativeStatus``, as a
``termNote`` or TBX 3's element, ``normativeAuthorization``, or the ``usageStatus`` some MultiTerm exports
write as a ``descrip``, or a field a termbase's users named
``Status``, ``Term Status`` or ``Usage``, saying so: ``deprecatedTerm-admn-sts``, ``deprecated``, and
other tools' ``forbidden``, ``not recommended``, ``obsolete``, ``rejected``, ``prohibited``, ``do not use``,
and a termbase's words in German, French, Spanish, Italian or Dutch: ``verboten``, ``interdit``),
which a writer should not use, is never the target term.  Every status a term carries is
read: a value not known (a typo, another tool's word) says nothing, and where two known ones
disagree the less fit wins (deprecated or superseded, then admitted, then preferred), so that no
status deprecating a term is overridden by another.  Its target term is the target-language term
to use: the first preferred one, else the first with no status, else the first admitted one, never
a deprecated one, of the target language's own variety first where the entry has it, and of the source
term's form where the entry has one (its ``termType``: an abbreviation's, an acronym's or another short
form's target a short form, "MS" for "MS", a full form's, or a term's of no type, a full form,
"Mitgliedstaat" for "Member State").  An entry without
both (no term in one of the languages, or only deprecated target terms) is skipped, and the entries
skipped are counted in one warning naming the first; a file none of whose entries has both is a
DataError naming its languages.  A source term that two entries give different target terms is
a homonym, two concepts ("bank": Bank, Ufer), which a real termbase often holds: nothing says
which one a sentence means, so it is skipped (but two cases of it given a target each, "Bank" and "bank",
are matched each in its own case, as a sheet's are), and such terms are counted in one warning naming
the first (``unambiguous``), where two files that disagree stop the reading.

The XML is parsed as attnmt.documents.archive parses a part, which this layer may not import:
no DTD loaded (TBX 2 files name ``TBXcoreStructV02.dtd``, which is never read), no entity
resolved, no network.  A DOCTYPE that declares an entity, and a term holding a reference to one
(``&nbsp;``, which an unread DTD would declare), are refused naming the line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from lxml import etree

from attnmt.decoding.term_forms import capitals, normal, same_target, term_key
from attnmt.errors import DataError, warn
from attnmt.text.data import BROKEN_STREAM, cannot_read, not_gzip, open_bytes
from attnmt.text.invisible import unaccented
from attnmt.text.language_codes import language_of, primary_subtag, subtags, variety
from attnmt.text.xml_entities import check_entities
from attnmt.text.xml_start import first_element

ROOTS = ("martif", "tbx", "mtf")
ENTRIES = ("termEntry", "conceptEntry", "conceptGrp")
SECTIONS = ("langSet", "langSec", "languageGrp")
TERM_GROUPS = ("tig", "ntig", "termSec", "termGrp")  # a TBX 2 ntig's own termGrp is the ntig's (``section_terms``)
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
# The names of a term's status: TBX 3's element, or a termNote's or a descrip's type (MultiTerm writes ``<descrip
# type="usageStatus">``), of which STATUS_TYPES are the others' names, as ``status_type`` reads them: a termbase's own
# field is exported under the name its users gave it (XTM's ``type="status"``, MultiTerm's "Status" or "Usage")
STATUSES = ("administrativeStatus", "normativeAuthorization", "usageStatus")
STATUS_TYPES = frozenset({"administrativestatus", "normativeauthorization", "usagestatus", "status", "termstatus",
                          "usage"})
STATUS_NOTES = ("termNote", "descrip")
# How fit a term is as the target term, by its status (the first word of the value that says it):
# the lowest wins; deprecated and superseded ones are never used.
RANKS = {"preferred": 0, None: 1, "admitted": 2}
NOT_USED = ("deprecated", "superseded")
# The words other tools write for a term not to use, read as deprecated (as ``status_word`` reads a value, in lower
# case, "_" and "-" as spaces): MultiTerm's, XTM's and Weblate's "forbidden", "not recommended" and "obsolete",
# Trados Enterprise's "rejected", and a field of one's own's "do not use"
DEPRECATED_WORDS = ("forbidden", "notrecommended", "not recommended", "obsolete", "rejected", "prohibited",
                    "do not use",
                    # a termbase kept in German, French, Spanish, Italian or Dutch: its picklist's words, accents aside
                    "verboten", "nicht verwenden", "nicht zugelassen", "nicht empfohlen", "veraltet", "abgelehnt",
                    "unzulassig", "interdit", "a eviter", "deconseille", "non recommande", "rejete", "prohibido",
                    "no usar", "no recomendado", "obsoleto", "rechazado", "desaconsejado", "vietato", "da evitare",
                    "sconsigliato", "non raccomandato", "verboden", "niet gebruiken", "afgeraden", "verouderd")
# The words of those languages for a preferred or an admitted term
OTHER_WORDS = {"bevorzugt": "preferred", "vorzugsbenennung": "preferred", "prefere": "preferred",
               "privilegie": "preferred", "preferido": "preferred", "preferito": "preferred", "voorkeur": "preferred",
               "zugelassen": "admitted", "erlaubt": "admitted", "admis": "admitted", "tolere": "admitted",
               "admitido": "admitted", "ammesso": "admitted", "toegestaan": "admitted"}

# A term's type (TBX's ``termType``, as a termNote's or a descrip's type, "Term Type" as MultiTerm names its field, or
# TBX 3's element), as ``term_type`` reads it: the short forms, whose target is a short form where the entry has one
TERM_TYPES = frozenset({"termtype"})
SHORT_FORMS = frozenset({"abbreviation", "acronym", "shortform", "initialism", "clippedterm"})

Row = tuple[str, str, str]  # (place "terms.tbx:12", source term, target term)
# A target term as its source terms choose it: (its variety's distance, its status's rank, its type, its text)
Target = tuple[tuple[int, int], int, str, str]
Source = tuple[etree._Element, str, str, str | None]  # a source term: its element, its text, its type, its status
LINE_BREAK = re.compile(r"[ \t]*[\r\n][ \t\r\n]*")  # in a term, with the spaces and tabs around it


def xml_root(path: str | Path) -> str | None:
    """The name of the XML file ``path``'s first element, its root, without its namespace: a
    termbase's is one of ROOTS.  None for a file that is no XML, or cannot be read (reading it as
    TSV then names the fault)."""
    try:
        with open_bytes(path) as file:
            first = first_element(file)
    except (OSError, *BROKEN_STREAM):
        return None
    return None if first is None else etree.QName(first).localname


def termbase_rows(path: str | Path, source_lang: str | None, target_lang: str | None) -> Iterator[Row]:
    """Each entry's source terms, each with the entry's target term (the module docstring), as
    (place of the source term, source term, target term); a DataError where the languages are not
    known, for XML that is not well-formed or not TBX, and for a section with no language."""
    source_lang, target_lang = known_language(path, "source", source_lang), known_language(path, "target", target_lang)
    root = parse_termbase(path)
    rows: list[tuple[Row, bool]] = []  # each with whether its source term is deprecated
    skipped: list[str] = []
    languages: set[str] = set()
    blanks: list[str] = []  # the empty terms, each named by its line and entry (``entry_terms``)
    entries = [node for node in root.iter() if local_name(node) in ENTRIES]
    for entry in entries:
        sources, targets = entry_terms(entry, path, source_lang, target_lang, languages, blanks)
        if not sources or not targets:
            skipped.append(f"{path}:{entry.sourceline}" + (f", entry {entry.get('id')}" if entry.get("id") else ""))
            continue
        rows.extend(((f"{path}:{term.sourceline}", text, target_of(kind, targets)), status in NOT_USED)
                    for term, text, kind, status in sources)
    if not entries:
        raise DataError(f"{path}: no glossary terms in the file (a termbase without a termEntry or conceptEntry)")
    if not rows and blanks:
        raise DataError(blanks[0])
    if not rows:
        raise DataError(f"{path}: no entry has a term in both {source_lang} and {target_lang} (the file's languages: "
                        f"{', '.join(sorted(languages)) or 'none'})")
    if skipped:
        warn(f"{path}: {len(skipped)} of {len(entries)} entries skipped, without a term in {source_lang} or in "
             f"{target_lang} that is not deprecated (the first: {skipped[0]})")
    return iter(unambiguous(rows, path))


def unambiguous(flagged: list[tuple[Row, bool]], path: str | Path) -> list[Row]:
    """The rows of ``flagged`` (each with whether its source term is deprecated) without the source terms given two
    target terms (homonyms, the module docstring), told apart as a glossary tells source terms apart (``term_key``:
    "US" and "us" are two), in every case where one of its cases is given two; one warning counts them.  Two cases
    of a term given two targets ("Bank": Bank, "bank": Ufer) are no homonym, but matched each in its own case, as a
    sheet's are (attnmt.decoding.glossary_pairs.add_term): they were skipped, where "Apple" and "apple" of a CSV file
    were not.  A source term that one entry deprecates and another holds
    without such a status is that other's ("mail", deprecated for "e-mail", is the "Post" of the entry "mail"):
    read as a homonym, the term the termbase approves was lost."""
    approved = {term_key(row[1]) for row, deprecated in flagged if not deprecated}
    rows = [row for row, deprecated in flagged if not deprecated or term_key(row[1]) not in approved]
    keys = [term_key(source) for _, source, _ in rows]
    targets: dict[str, dict[str, dict[str, Row]]] = {}  # source term's key -> {its case: {target term: first row}}
    for key, row in zip(keys, rows, strict=True):
        targets.setdefault(key, {}).setdefault(normal(row[1], capitals), {}).setdefault(same_target(row[2]), row)
    ambiguous = {key: given for key, cases in targets.items() for given in cases.values() if len(given) > 1}
    if ambiguous:
        first = next(iter(ambiguous.values()))  # in the file's order
        given = " or ".join(f"{target!r} ({where})" for target, (where, _, _) in first.items())
        warn(f"{path}: {len(ambiguous)} of {len(targets)} source terms skipped, each given different target terms "
             f"by different entries (the first: {next(iter(first.values()))[1]!r}, {given}): give the one meant "
             "in another glossary file")
    return [row for key, row in zip(keys, rows, strict=True) if key not in ambiguous]


def known_language(path: str | Path, side: str, lang: str | None) -> str:
    """``lang``, the ``side`` ("source", "target") language; a DataError saying it is not known for None."""
    if not lang:
        raise DataError(f"{path}: a termbase holds terms in several languages, and the {side} language is not "
                        f"known: give it (--{side}-lang; read_glossary(path, {side}_lang=...))")
    return lang


def entry_terms(entry: etree._Element, path: str | Path, source_lang: str, target_lang: str,
                languages: set[str], blanks: list[str]) -> tuple[list[Source], list[Target]]:
    """An entry's source terms, each with its ``term`` element, its type (``term_type``) and its status (a deprecated
    one is recognised all the same: the module docstring), and its target terms that may be used, for ``target_of``
    to choose from; the languages of its sections are added to ``languages``.  A blank term (an export's empty
    cell) is skipped, as a CSV file's empty cell is, and named in ``blanks`` ("terms.tbx:8: empty target term
    (entry c1)"), for a termbase of no other term: it stopped the whole file where the entry had another (a blank
    source term stopped it always)."""
    sources: list[Source] = []
    targets: list[Target] = []
    for section in entry:
        if local_name(section) not in SECTIONS:
            continue
        lang = section_language(section)
        if not lang:
            raise DataError(f"{path}:{section.sourceline}: a {local_name(section)} without xml:lang (entry "
                            f"{entry.get('id') or 'without an id'}): say which language its terms are in")
        languages.add(lang)
        side = section_side(lang, source_lang, target_lang)
        for term, status, kind in section_terms(section, path):
            if side is None or (side == "target" and status in NOT_USED):
                continue
            if not normal(text := term_text(term, path)):
                named = entry.get("id") or "without an id"
                blanks.append(f"{path}:{term.sourceline}: empty {side} term (entry {named})")
            elif side == "source":
                sources.append((term, text, kind, status))
            else:
                targets.append((variety_distance(lang, target_lang), RANKS.get(status, 1), kind, text))
    return sources, targets


def section_language(section: etree._Element) -> str:
    """A section's language: its xml:lang, or the ``lang`` of its ``language`` (MultiTerm XML's ``<language
    type="English" lang="EN-US"/>``); "" for none."""
    named = next((node for node in section if local_name(node) == "language"), section)
    return (section.get(XML_LANG) or named.get("lang") or "").strip()


def section_side(lang: str, source_lang: str, target_lang: str) -> str | None:
    """Whether a section of the language ``lang`` holds "source" or "target" terms, by its primary subtag; None for
    neither.  Between two varieties of one language (en-US to en-GB, pt-PT to pt-BR) the side whose variety it is
    nearer (``variety_distance``): every section was a source, and the file stopped with "no entry has a term in
    both en-US and en-GB".  One as near to both is the side that is the language as a whole ("pt-PT" of pt to
    pt-BR), else neither ("en" of en-US to en-GB).  A three-letter code is its language's (``language_of``):
    a section's xml:lang="deu" held no de term ("no entry has a term in both en and de")."""
    is_source, is_target = (language_of(lang) == language_of(code) for code in (source_lang, target_lang))
    if is_source and is_target:
        to_source, to_target = variety_distance(lang, source_lang), variety_distance(lang, target_lang)
        if to_source == to_target:
            is_source, is_target = (variety(code) == primary_subtag(code) for code in (source_lang, target_lang))
            return None if is_source == is_target else "source" if is_source else "target"
        return "source" if to_source < to_target else "target"
    return "source" if is_source else "target" if is_target else None


def target_of(kind: str, targets: list[Target]) -> str:
    """The target term of a source term of the type ``kind``, of an entry's ``targets``: of the target language's
    own variety first (``variety_distance``), then a short form's (an abbreviation's, an acronym's: SHORT_FORMS) a
    short form, a full form's a full form, where the entry has one ("MS" was given the preferred "Mitgliedstaat"
    where the entry held the German "MS" too), then the best by status (RANKS), then one of the same type; the
    first of those alike."""
    return min(targets, key=lambda target: (target[0], (target[2] in SHORT_FORMS) != (kind in SHORT_FORMS),
                                            target[1], target[2] != kind))[3]


def variety_distance(lang: str, target_lang: str) -> tuple[int, int]:
    """How far a section's language ``lang`` is from ``target_lang``, of one language, as (script, region): its
    own variety (``variety``: de-CH's "Velo" came first for de-CH, not the "Fahrrad" of a de-DE section before it) is
    (0, 0); a script other than the target language's (``subtags``: named, or the one its language and region are
    written in) is 1, before any region ("zh-Hant-TW", first, gave --target-lang zh-Hans its traditional term,
    where the entry's "zh-Hans-CN" held the simplified one); of the region, 1 for
    the target language's own (zh-Hans's "zh"), 2 for the language as a whole ("de" for de-CH: it holds the term
    of every region the entry has no section of), 3 for another region's ("de-AT": the Austrian "Jänner", first,
    was the target of --target-lang de-DE, where the entry's "de" section held "Januar")."""
    if variety(lang) == variety(target_lang):
        return 0, 0
    (_, script, region), (_, wanted_script, wanted_region) = subtags(lang), subtags(target_lang)
    other_script = int(bool(script and wanted_script and script != wanted_script))
    return other_script, 1 if region == wanted_region else 2 if not region else 3


def section_terms(section: etree._Element, path: str | Path) -> Iterator[tuple[etree._Element, str | None, str]]:
    """Each term of a language section, with the first word of its status ("preferred",
    "deprecated"; None where it states none) and its type (``term_type``)."""
    for group in section.iter():
        if local_name(group) not in TERM_GROUPS or any(map(is_term_group, group.iterancestors())):
            continue  # a TBX 2 ntig's termGrp: the ntig's term, with the ntig's status and type
        term = next((node for node in group.iter() if local_name(node) == "term"), None)
        if term is None:
            raise DataError(f"{path}:{group.sourceline}: a {local_name(group)} without a term")
        yield term, term_status(group), term_type(group)


def is_term_group(node: etree._Element) -> bool:
    """Whether ``node`` is a term's group (TERM_GROUPS)."""
    return local_name(node) in TERM_GROUPS


def term_type(group: etree._Element) -> str:
    """A term's type, the value of its first ``termType`` (TERM_TYPES) in lower case, without spaces, "-" and "_"
    ("Short form": "shortform"); "" for none, as for a full form, which a term without a type is."""
    node = next((node for node in group.iter() if local_name(node) == "termType"
                 or (local_name(node) in STATUS_NOTES and squeezed(node.get("type") or "") in TERM_TYPES)), None)
    kind = squeezed(node.text or "") if node is not None else ""
    return "" if kind == "fullform" else kind


def squeezed(value: str) -> str:
    """``value`` in lower case without spaces, "-" and "_", as a field's name or value is compared: "Term Status"
    is "termstatus"."""
    return re.sub(r"[\s_-]", "", value).casefold()


def term_status(group: etree._Element) -> str | None:
    """The first word of a term's status, lower case ("deprecatedTerm-admn-sts": "deprecated"), or None.
    Every status node of the term counts (the module docstring): of the known values, the least fit
    (deprecated or superseded over admitted over preferred); None where none is known."""
    words = [status_word(node) for node in group.iter() if is_status(node)]
    known = [word for word in words if word is not None]
    return max(known, key=lambda word: RANKS.get(word, len(RANKS)), default=None)  # NOT_USED ranks last


def is_status(node: etree._Element) -> bool:
    """Whether ``node`` states a term's status (STATUSES as an element, STATUS_TYPES as a termNote's or a
    descrip's type, case, spaces, "-" and "_" aside: "Term Status" is "termstatus")."""
    name = local_name(node)
    kind = squeezed(node.get("type") or "")
    return (name in STATUS_NOTES and kind in STATUS_TYPES) or name in STATUSES


def status_word(node: etree._Element) -> str | None:
    """The first word of the status ``node`` states (``status_of``)."""
    return status_of(node.text or "")


def status_of(text: str) -> str | None:
    """The first word of the status ``text`` states (MultiTerm's DEPRECATED_WORDS: "deprecated"; OTHER_WORDS:
    German "bevorzugt" is "preferred"), or None for a value not known.  Accents aside: "À éviter" is "a eviter"."""
    value = unaccented(text.strip().lower().replace("_", " ").replace("-", " "))
    if value.startswith(DEPRECATED_WORDS):
        return "deprecated"
    if other := next((word for word in OTHER_WORDS if value.startswith(word)), None):
        return OTHER_WORDS[other]
    return next((word for word in (*RANKS, *NOT_USED) if word and value.startswith(word)), None)


def term_text(term: etree._Element, path: str | Path) -> str:
    """A term's text, its inline markup's (``<hi>``) included, on one line: a line break in it, with
    the spaces around it, is a space (LINE_BREAK: an XML editor that wraps long lines made
    "Vereinigte\\n      Staaten" of a term, which no translation writes), as a CSV file's cell's
    is; a DataError for a reference to an entity."""
    entity = next((node for node in term.iter() if isinstance(node, etree._Entity)), None)
    if entity is not None:
        raise DataError(f"{path}:{term.sourceline}: the term holds the entity {entity.text}, which is never read "
                        "from a DTD: write its character instead")
    return LINE_BREAK.sub(" ", str(term.xpath("string()")))


def parse_termbase(path: str | Path) -> etree._Element:
    """The root of the TBX file ``path``, parsed safely (the module docstring)."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False,
                             huge_tree=False)
    try:
        with open_bytes(path) as file:
            data = file.read()  # parsed from bytes: lxml names a file's encoding fault as an OSError, with no line
        root = etree.fromstring(data, parser)
    except BROKEN_STREAM as error:
        raise not_gzip(path, error) from None
    except OSError as error:  # missing, a folder, unreadable
        raise cannot_read(path, error) from None
    except etree.XMLSyntaxError as error:
        fault = error.msg.split(", line ")[0]
        if "character encoding" in fault:  # Windows-1252 under a UTF-8 declaration, or none
            fault += (": the file is not in the encoding its XML declaration names (UTF-8 where it names none): "
                      "save it as UTF-8")
        raise DataError(f"{path}:{error.lineno}: not well-formed XML: {fault}") from None
    check_entities(root.getroottree().docinfo.internalDTD, str(path), keeps_internal=False)
    if local_name(root) not in ROOTS:
        raise DataError(f"{path}:{root.sourceline}: expected a TBX termbase (a martif or tbx root) or MultiTerm "
                        f"XML (mtf), got "
                        f"<{local_name(root)}>")
    return root


def local_name(node: etree._Element) -> str:
    """An element's name without its namespace (TBX 3's ``urn:iso:std:iso:30042:ed-2``); "" for a
    comment, a processing instruction or an entity."""
    return etree.QName(node).localname if isinstance(node.tag, str) else ""
