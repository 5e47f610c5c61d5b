"""The language Office Open XML runs state (Word's ``w:lang``, DrawingML's ``lang``): the target
language on every run of a translated part (``set_language``), and the source's again on the
runs of a paragraph that kept its source text (``say_source_language``), which Word and
PowerPoint would otherwise check for spelling, hyphenate and read aloud as the target's.  And the
direction a translated Word paragraph is written in, the target language's (``set_direction``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from lxml import etree

from attnmt.documents.language import direction, letters_direction, names_no_language, turned
from attnmt.documents.ooxml_dialects import DRAWING, WORD, Dialect, a
from attnmt.documents.word_styles import WordStyles
from attnmt.documents.wordml import DIRECTIONS, OFF, TABLE_OR_STORY, says_rtl, w

# Where set_language leaves the language a run stated before it (on the run: a run written again
# from its template keeps the template's attributes, attnmt.documents.ooxml_writing.ParagraphWriter._new_run,
# where its properties are copies that say the target's), and that of a paragraph's mark (on the
# paragraph, which stays); forget_languages takes it out before the part is written.
STATED = "attnmt-stated-language"
# Word's run properties in its schema's order (CT_RPr, then the record of a tracked change of
# format): a property added to a run's properties goes before the first that follows it here.
RUN_ORDER = tuple(map(w, "rStyle rFonts b bCs i iCs caps smallCaps strike dstrike outline shadow emboss imprint "
                         "noProof snapToGrid vanish webHidden color spacing w kern position sz szCs highlight u "
                         "effect bdr shd fitText vertAlign rtl cs em lang eastAsianLayout specVanish oMath "
                         "rPrChange".split()))
# A run's formatting of complex-script text (right to left) and of Latin text, pairwise: Word
# shows a run's text with the first only where the run is right to left, else with the second.
COMPLEX_LATIN = tuple((w(complex_script), w(latin)) for complex_script, latin in (("bCs", "b"), ("iCs", "i"),
                                                                                 ("szCs", "sz")))
# Word's paragraph properties that come after w:bidi, in its schema's order: one added goes before the first of them.
AFTER_BIDI = frozenset(map(w, "adjustRightInd snapToGrid spacing ind contextualSpacing mirrorIndents suppressOverlap "
                              "jc textDirection textAlignment textboxTightWrap outlineLvl divId cnfStyle rPr sectPr "
                              "pPrChange".split()))
# Word's table properties that come after w:bidiVisual, in its schema's order.
AFTER_BIDI_VISUAL = frozenset(map(w, "tblStyleRowBandSize tblStyleColBandSize tblW jc tblCellSpacing tblInd "
                                     "tblBorders shd tblLayout tblCellMar tblLook tblCaption tblDescription "
                                     "tblPrChange".split()))


def following(tag: str) -> frozenset[str]:
    """The run properties after ``tag`` in RUN_ORDER: a ``tag`` added goes before the first of them."""
    return frozenset(RUN_ORDER[RUN_ORDER.index(tag) + 1:])


def set_language(root: etree._Element, dialect: Dialect, language: str) -> None:
    """The language of every run (Word's ``w:lang``, DrawingML's ``lang``) set to ``language``,
    before the paragraphs are read, so that the runs written from their properties state it (and
    runs that differ only in their language are alike).  A Word run without ``w:lang`` takes the
    styles' default, which is set too (attnmt.documents.ooxml_parts.word_language_parts); a slide's
    run without ``lang`` takes its master's, which the untranslated masters and layouts share, so
    every DrawingML run gets a ``lang`` of its own, and properties where it has none (python-pptx
    writes runs so).  What each run and paragraph mark stated is kept aside (STATED) for
    say_source_language.  A run or a style that names no language (attnmt.documents.language.
    names_no_language: ``zxx``, what code is set in so that it is not checked for spelling) keeps
    it, as an OpenDocument style does."""
    remember_languages(root, dialect)
    if dialect is WORD:
        for lang in root.iter(w("lang")):
            if not names_no_language(lang.get(w("val"))):
                lang.set(w("val"), language)
    elif dialect is DRAWING:
        for run in root.iter(a("r")):
            if run.find(a("rPr")) is None:
                run.insert(0, run.makeelement(a("rPr"), {}))  # the properties come first in a run
        for properties in root.iter(a("rPr"), a("endParaRPr"), a("defRPr")):
            if ((properties.get("lang") is not None or properties.getparent().tag == a("r"))
                    and not names_no_language(properties.get("lang"))):
                properties.set("lang", language)


def remember_languages(root: etree._Element, dialect: Dialect) -> None:
    """Each run that states its language (Word's ``w:rPr/w:lang/@w:val``, DrawingML's
    ``a:rPr/@lang``) keeps it aside on itself (STATED), each paragraph whose mark states one on
    the paragraph: a paragraph that keeps its source says them again (say_source_language).  They
    are found from the properties that may state one, not by asking each run and paragraph: a
    part of millions of empty paragraphs, which state none, took a minute to ask."""
    word = dialect is WORD
    for properties in root.iter(w("rPr")) if word else root.iter(a("rPr"), a("endParaRPr")):
        holder = properties.getparent()
        mark = holder.tag == w("pPr") if word else properties.tag == a("endParaRPr")  # a paragraph's mark
        if mark and word:
            holder = holder.getparent()
        if holder is None or holder.tag != (dialect.paragraph if mark else dialect.run) or holder.get(STATED):
            continue
        lang = properties.find(w("lang")) if word else properties
        stated = None if lang is None else lang.get(w("val") if word else "lang")
        if stated is not None:
            holder.set(STATED, stated)


def forget_languages(root: etree._Element) -> None:
    """What remember_languages kept aside taken out again, from every run and paragraph, before
    the part is written: no reader knows the attribute."""
    for element in root.iter(WORD.run, WORD.paragraph, DRAWING.run, DRAWING.paragraph):
        element.attrib.pop(STATED, None)


def say_source_language(paragraph: etree._Element, dialect: Dialect, language: str) -> None:
    """A paragraph, written again, whose every sentence kept its source text (--below-quality
    source: FlatText.source_kept) says again on each of its runs the language the run stated
    before set_language (a French run ``fr-FR``, an English one ``en-GB``), and ``language``, the
    source's, where it stated none (Word: a ``w:lang`` added, as it took the styles' default, now
    the target's); its paragraph mark, where that states one, says what it stated, or
    ``language``.  A run that differed from its neighbour only in its language was merged with it
    and says the neighbour's.  The runs of a paragraph inside it (a text box's) are that
    paragraph's, which says its own."""
    if dialect is WORD:
        for run in own_runs(paragraph, dialect):
            lang = word_language(properties(run, dialect.properties))
            lang.set(w("val"), run.get(STATED, language))
        mark = paragraph.find(f"{w('pPr')}/{w('rPr')}/{w('lang')}")
        if mark is not None:
            mark.set(w("val"), paragraph.get(STATED, language))
    elif dialect is DRAWING:
        for run in own_runs(paragraph, dialect):
            properties(run, dialect.properties).set("lang", run.get(STATED, language))
        mark = paragraph.find(a("endParaRPr"))
        if mark is not None and mark.get("lang") is not None:
            mark.set("lang", paragraph.get(STATED, language))


def set_direction(paragraph: etree._Element, styles: WordStyles | None, language: str,
                  tables_done: set[etree._Element]) -> None:
    """A translated Word paragraph written in ``language``'s direction (attnmt.documents.language.
    direction, as an HTML block's ``dir`` is): right to left (``w:bidi``) for Arabic or Hebrew, else
    left to right, where its own ``w:bidi`` or, without one, its ``styles`` said otherwise (its own
    taken out where the styles give the target's direction, else ``w:bidi w:val="0"`` or
    ``w:bidi``); and each of its runs, and its mark where that has properties, likewise with
    ``w:rtl`` (set_run_direction), but a run of right-to-left letters alone that says it is right to left
    (a Hebrew quote kept whole in German: ooxml.ParagraphJob._kept_whole), which stays so.  An Arabic
    paragraph translated into German was still laid out from the right, and a German word still said to
    be right-to-left text.  A direction override or
    embedding in it (``w:bdo``, ``w:dir``) turns to the direction of its letters where all are now
    written against it (attnmt.documents.language.turned): German in ``w:bdo w:val="rtl"`` was
    drawn right to left.  The tables holding it
    take the same direction (set_table_direction), each once: ``tables_done`` holds those a
    paragraph of the part settled before, and is given those this one settles.  The runs of a
    paragraph inside it (a text box's) are that paragraph's, which says its own."""
    rtl = direction(language) == "rtl"
    styled = styled_on(styles.paragraph_layers(paragraph) if styles is not None else [], w("bidi"))
    own = paragraph.find(w("pPr"))
    settle(None if own is None else own.find(w("bidi")), styled, rtl, partial(properties, paragraph, w("pPr")),
           w("bidi"), AFTER_BIDI)
    for run in own_runs(paragraph, WORD):
        if not (says_rtl(run) and letters_direction("".join(text.text or "" for text in run.iter(w("t")))) == "rtl"):
            set_run_direction(run.find(w("rPr")), partial(properties, run, w("rPr")), paragraph, styles, rtl)
    mark = paragraph.find(f"{w('pPr')}/{w('rPr')}")
    if mark is not None:  # a mark without properties of its own is left as it is: it holds no text
        set_run_direction(mark, lambda: mark, paragraph, styles, rtl)
    for embedding in (node for node in paragraph.iter(*DIRECTIONS) if next(node.iterancestors(w("p"))) is paragraph):
        letters = "".join(text.text or "" for text in embedding.iter(w("t"))
                          if next(text.iterancestors(w("p"))) is paragraph)
        direction_now = turned(embedding.get(w("val")), letters)
        if direction_now is not None:
            embedding.set(w("val"), direction_now)
    for table in paragraph.iterancestors(*TABLE_OR_STORY):
        if table.tag != w("tbl"):
            break
        if table not in tables_done:
            set_table_direction(table, styles, rtl)
            tables_done.add(table)


def set_table_direction(table: etree._Element, styles: WordStyles | None, rtl: bool) -> None:
    """A table holding a translated paragraph laid out in the target's direction, as Word lays out
    a right-to-left document's tables: its first column on the right (``w:bidiVisual``) for a
    right-to-left target, else on the left; its own ``w:bidiVisual`` taken out where its style
    gives the target's direction (word_styles.WordStyles.table_layers), else turned on or off."""
    holder = properties(table, w("tblPr"))
    styled = styled_on(styles.table_layers(table) if styles is not None else [], w("bidiVisual"))
    settle(holder.find(w("bidiVisual")), styled, rtl, lambda: holder, w("bidiVisual"), AFTER_BIDI_VISUAL,
           holder.remove)  # not take_out: a table's w:tblPr is there even when empty


def set_run_direction(own: etree._Element | None, make: Callable[[], etree._Element], paragraph: etree._Element,
                      styles: WordStyles | None, rtl: bool) -> None:
    """A run (or a paragraph mark) whose properties are ``own`` (None: it has none; ``make`` adds
    them) made right to left (``rtl``) or left to right where it is not: its own ``w:rtl`` turned on
    or off, or taken out where the styles in effect for it (word_styles.WordStyles.styled_layers:
    the defaults, its paragraph's style, its character style) give the target's direction, or one
    added where they give the other (``<w:rtl w:val="0"/>`` where a style sets ``w:rtl``).  Its
    formatting of the script it leaves is carried over (carry_formatting)."""
    layers = styles.styled_layers(own, paragraph) if styles is not None else []

    def turning() -> etree._Element:
        """The run's properties, made where it has none, given the formatting of the script it leaves."""
        found = own if own is not None else make()
        carry_formatting(found, rtl, layers)
        return found

    settle(None if own is None else own.find(w("rtl")), styled_on(layers, w("rtl")), rtl, turning, w("rtl"),
           following(w("rtl")))


def carry_formatting(found: etree._Element, rtl: bool, layers: Sequence[etree._Element] = ()) -> None:
    """Run properties turning right to left (``rtl``) or left to right given the formatting they had
    for the script they leave where they say none for the other (COMPLEX_LATIN): Word makes a
    run's text bold by ``w:bCs`` alone where the run is right to left and by ``w:b`` alone where
    not, so ``<w:bCs/><w:rtl/>`` turning German lost its bold; it gets ``<w:b/>`` too, with the same
    value (``w:sz`` the same size), in the schema's place.  What the styles give it (``layers``,
    weakest first: word_styles.WordStyles.styled_layers) counts too, its own properties first, then
    the strongest style that says either: a character style's ``<w:bCs/><w:rtl/>`` gets the run its
    own ``<w:b/>``, where one that says ``w:b`` as well needs none."""
    for complex_script, latin in COMPLEX_LATIN:
        given, wanted = (latin, complex_script) if rtl else (complex_script, latin)
        for layer in [found, *reversed(layers)]:
            if layer.find(wanted) is not None:
                break
            had = layer.find(given)
            if had is not None:
                added(found, wanted, following(wanted)).attrib.update(had.attrib)
                break


def styled_on(layers: list[etree._Element], tag: str) -> bool:
    """Whether properties ``layers`` (the weakest first) turn on an on/off property ``tag`` (``w:bidi``, ``w:rtl``)."""
    said = [element for layer in layers for element in layer.findall(tag)]  # the strongest last
    return bool(said) and is_on(said[-1])


def is_on(element: etree._Element | None) -> bool:
    """Whether an on/off property (``w:bidi``, ``w:rtl``) is there and not turned off (``w:val="0"``)."""
    return element is not None and element.get(w("val")) not in OFF


def take_out(element: etree._Element) -> None:
    """A property taken out of its properties, and they out of their run or paragraph where it was
    the last of them (``<w:rPr><w:rtl/></w:rPr>``): none is then said."""
    holder = element.getparent()
    holder.remove(element)
    if not len(holder) and not holder.attrib and holder.getparent() is not None:
        holder.getparent().remove(holder)


def switch(element: etree._Element, on: bool) -> None:
    """An on/off property turned on (no ``w:val``: on, as Word writes it) or off (``w:val="0"``)."""
    if on:
        element.attrib.pop(w("val"), None)
    else:
        element.set(w("val"), "0")


def settle(said: etree._Element | None, styled: bool, on: bool, holder: Callable[[], etree._Element], tag: str,
           after: frozenset[str], remove: Callable[[etree._Element], None] = take_out) -> None:
    """An on/off property ``tag`` (``w:bidi``, ``w:bidiVisual``, ``w:rtl``) made to say ``on`` where it
    does not: its own (``said``; None: it has none, and the styles' word, ``styled``, holds) taken
    out (``remove``) where the styles say ``on``, else turned on or off, or added in its schema's
    place (before the first of ``after``) to its properties, which ``holder`` gives (adding them
    where there are none) before either."""
    if (is_on(said) if said is not None else styled) == on:
        return
    found = holder()
    if said is not None and styled == on:
        remove(said)
    else:
        switch(said if said is not None else added(found, tag, after), on)


def added(properties: etree._Element, tag: str, after: frozenset[str]) -> etree._Element:
    """A new ``tag`` in ``properties``, in its schema's place: before the first of ``after``."""
    element = properties.makeelement(tag, {})
    following = next((child for child in properties if child.tag in after), None)
    if following is None:
        properties.append(element)
    else:
        following.addprevious(element)
    return element


def own_runs(paragraph: etree._Element, dialect: Dialect) -> list[etree._Element]:
    """The runs of ``paragraph``, not those of a paragraph inside it (a text box's)."""
    return [run for run in paragraph.iter(dialect.run) if next(run.iterancestors(dialect.paragraph)) is paragraph]


def properties(holder: etree._Element, tag: str) -> etree._Element:
    """The properties ``tag`` of a run, paragraph or table (``w:rPr``, ``w:pPr``, ``w:tblPr``,
    DrawingML's ``a:rPr``), added first in it where it has none: the properties come first."""
    found = holder.find(tag)
    if found is None:
        found = holder.makeelement(tag, {})
        holder.insert(0, found)
    return found


def word_language(properties: etree._Element) -> etree._Element:
    """The ``w:lang`` of Word run properties, added in its schema's place where they have none."""
    lang = properties.find(w("lang"))
    return added(properties, w("lang"), following(w("lang"))) if lang is None else lang
