"""A TMX translation memory (what CAT tools export, and OPUS offers for each corpus) read as sentence pairs.

    stream_tmx(path, languages, report)  ->  (source, target) segments of each <tu>, one at a time

A ``<tu>`` holds one ``<tuv xml:lang="..">`` per language, its text in a ``<seg>``.  The memory is read
one unit at a time (an OPUS memory holds millions), safely: no DTD loaded, no entity resolved, nothing
fetched, and a DOCTYPE declaring an entity refused (xml_entities.check_entities).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path

from lxml import etree

from attnmt.errors import DataError
from attnmt.text.data import BROKEN_STREAM, cannot_read, damaged_bzip2, not_gzip, open_bytes
from attnmt.text.language_codes import language_of, primary_subtag, variety
from attnmt.text.parallel_text import ReadReport
from attnmt.text.xml_entities import check_entities

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"  # TMX 1.4's xml:lang; TMX 1.1 wrote lang
# Inline codes hold the native code of a tag, a field or a placeholder (<bpt>&lt;b&gt;</bpt>, <ph>{0}</ph>), not
# words: left out with what they hold, on both sides alike.  <hi> marks words (a term, a highlight): its text stays.
CODES = frozenset({"bpt", "ept", "it", "ph", "ut"})
ASK_LANGUAGES = "give the two languages to read as source_lang and target_lang (--source-lang, --target-lang)"

Languages = tuple[str | None, str | None]


def stream_tmx(path: str | Path, languages: Languages, report: ReadReport) -> Iterator[tuple[str, str]]:
    """Each ``<tu>``'s segments in ``languages`` (source, target codes: ``en`` reads en-US and en-GB, ``pt-BR``
    that variety alone), one unit at a time.  A language None is the header's ``srclang`` for the source, and for
    the target the other one the first unit holds.  A unit without a segment in either is counted in ``report``
    (its ``unpaired``, the first one's line), not read; a memory none of whose units holds both is refused."""
    wanted: tuple[str, str] | None = None  # chosen at the first unit
    found, first_held = 0, ""  # the first unit without both: its languages, for the refusal of a memory of no pair
    try:
        with open_bytes(path) as file:
            for tu in units(file, path):
                wanted = wanted or chosen(tu, languages, path)
                report.languages = f"{wanted[0]} -> {wanted[1]}"
                source, target = segment_in(tu, wanted[0]), segment_in(tu, wanted[1])
                if source is None or target is None:
                    report.unpaired += 1
                    report.first_unpaired = report.first_unpaired or tu.sourceline
                    first_held = first_held or ", ".join(tu_languages(tu)) or "no language"
                else:
                    found += 1
                    yield source, target
                clear(tu)
    except BROKEN_STREAM as error:
        raise not_gzip(path, error) from None
    except etree.XMLSyntaxError as error:
        raise not_well_formed(path, error) from None
    except OSError as error:
        raise (not_gzip(path, error) if damaged_bzip2(path, error) else cannot_read(path, error)) from None
    if wanted and not found:
        raise DataError(f"{path}:{report.first_unpaired}: no translation unit holds both {wanted[0]} and {wanted[1]} "
                        f"(this one holds {first_held}): {ASK_LANGUAGES}")


def not_well_formed(path: str | Path, error: etree.XMLSyntaxError) -> DataError:
    """How a memory that is no well-formed XML is refused: the first fault libxml2 logged, with its line (lxml's
    iterparse, entities unresolved, raises a later one for an undefined entity: "Start tag expected" at line 1),
    and what to do where the fault is the file's encoding or an entity of HTML's (``&nbsp;``)."""
    first = next(iter(error.error_log.filter_from_errors()), None)
    line, fault = (first.line, first.message) if first is not None else (error.lineno, error.msg.split(", line ")[0])
    fault = fault.splitlines()[0] if fault else "its end is missing"
    if "encoding" in fault or "UTF-8" in fault:
        fault += (": the file is not in the encoding its XML declaration names (UTF-8 where it names none): save it "
                  "as UTF-8")
    elif "Entity" in fault:
        fault += ": a memory knows XML's five entities alone (&amp; &lt; &gt; &quot; &apos;): write the character"
    return DataError(f"{path}:{line}: not well-formed XML: {fault}")


def units(file: object, path: str | Path) -> Iterator[etree._Element]:
    """The ``<tu>`` elements of the TMX ``file``, each whole; the document's root and DOCTYPE checked at the first
    (no entity is resolved before: a reference to one stays a node of its own)."""
    etree.clear_error_log()  # the thread's log, which not_well_formed reads, holds earlier documents' faults too
    parser = etree.iterparse(file, events=("end",), tag="{*}tu", resolve_entities=False, no_network=True,
                             load_dtd=False, huge_tree=False, remove_comments=True, remove_pis=True)
    for number, (_, tu) in enumerate(parser):
        if number == 0:
            root = tu.getroottree().getroot()
            check_entities(root.getroottree().docinfo.internalDTD, str(path), keeps_internal=False)
            if local_name(root) != "tmx":
                raise DataError(f"{path}:{root.sourceline}: expected a TMX memory (a <tmx> root), got "
                                f"<{local_name(root)}>")
        yield tu


def chosen(tu: etree._Element, languages: Languages, path: str | Path) -> tuple[str, str]:
    """``languages`` with a None filled from the memory (stream_tmx) at its first unit ``tu``, or a DataError
    asking for them: a header naming no source (``srclang="*all*"``), or a unit of more than one other language."""
    held = tu_languages(tu)
    source = languages[0] or source_language(tu.getroottree().getroot())
    others = [code for code in held if source is None or not speaks(code, source)]
    target = languages[1] or (others[0] if len(others) == 1 else None)
    if source is None or target is None:
        lacking = "its header names no source language" if source is None else f"more than one besides {source}"
        raise DataError(f"{path}:{tu.sourceline}: the memory holds {', '.join(held) or 'no language'}, and "
                        f"{lacking}: {ASK_LANGUAGES}")
    return source, target


def source_language(root: etree._Element) -> str | None:
    """The source language a TMX's ``<header srclang="..">`` names; None for none, or ``*all*`` (any)."""
    header = next((child for child in root if local_name(child) == "header"), None)
    srclang = header.get("srclang") if header is not None else None
    return srclang if srclang and srclang != "*all*" else None


def segment_in(tu: etree._Element, language: str) -> str | None:
    """The text of ``tu``'s first segment in ``language`` (text_of), None where it has none with text."""
    for tuv in tu:
        if local_name(tuv) == "tuv" and speaks(tuv_language(tuv), language):
            seg = next((child for child in tuv if local_name(child) == "seg"), None)
            if seg is not None:
                return text_of(seg) or None
    return None


def text_of(seg: etree._Element) -> str:
    """A segment's words: its text and its ``<hi>`` elements', its inline codes (CODES) left out, each run of
    white space (a line break where an editor wrapped it) one space."""
    words = [seg.text or ""]
    for child in seg:
        if local_name(child) not in CODES:
            words.append(text_of(child))
        words.append(child.tail or "")
    return " ".join("".join(words).split())


@cache  # a memory's few codes, compared for each of its millions of segments
def speaks(code: str, wanted: str) -> bool:
    """Whether the language code ``code`` (a ``<tuv>``'s: ``en-US``, ``EN``) is of ``wanted``: its variety where
    ``wanted`` names one (``pt-BR``), else its language (``en``; a three-letter ``eng`` is ``en``)."""
    if variety(wanted) != primary_subtag(wanted):
        return variety(code) == variety(wanted)
    return language_of(code) == language_of(wanted)


def tuv_language(tuv: etree._Element) -> str:
    return tuv.get(XML_LANG) or tuv.get("lang") or ""


def tu_languages(tu: etree._Element) -> list[str]:
    """The languages of ``tu``'s segments, in its order."""
    return [tuv_language(tuv) for tuv in tu if local_name(tuv) == "tuv"]


def local_name(element: etree._Element) -> str:
    """An element's name without a namespace; "" for an entity or a comment."""
    return element.tag.rpartition("}")[2] if isinstance(element.tag, str) else ""


def clear(tu: etree._Element) -> None:
    """Frees a read unit and those before it: a memory of millions is never held whole."""
    tu.clear()
    parent = tu.getparent()
    while parent is not None and tu.getprevious() is not None:
        del parent[0]
