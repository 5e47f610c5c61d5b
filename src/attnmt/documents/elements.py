"""Which elements of a page are blocks, inline, kept whole (atoms) or left alone: HTML's
vocabulary, and XML's, read from the layout (Vocabulary), as attnmt.documents.markup walks them.
HTML's blocks are attnmt.documents.html_layout's; XML's native code, attnmt.documents.xml_code's."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from html.entities import name2codepoint

from lxml import etree

from attnmt.documents.abbreviations import is_abbreviation
from attnmt.documents.conditional_comments import conditional_edge
from attnmt.documents.flat import (
    SOFT_HYPHEN,
    FlatText,
    has_words_outside,
    is_stop,
)
from attnmt.documents.html_layout import ATOMS, BLOCKS, is_block, is_empty
from attnmt.documents.kept_code import KEPT_IN_TEXT
from attnmt.documents.kept_names import read_whole
from attnmt.documents.language import primary, said_direction, stated_language, states_no_words, written_against
from attnmt.documents.language_links import names_its_language
from attnmt.documents.markers import RAISED_NUMBERS, ShownCharacters, is_page_label, is_page_number
from attnmt.documents.number_atoms import is_signed_value
from attnmt.documents.page_markers import is_marker
from attnmt.documents.pages import is_comment, local_name
from attnmt.documents.script_tokens import Script, markup_script
from attnmt.documents.shown import has_text_of_its_own, shown_text
from attnmt.documents.xml_code import PAIRED_KEYS, holds_markup, is_code, is_code_element, is_inline_code, paired_code
from attnmt.text.letters import has_words
from attnmt.text.sentence_ends import closing_length

# Blocks whose text is not prose: left exactly as they are (but an <svg>'s labels, title and description: svg_texts).
UNTRANSLATED = frozenset(("script style pre code textarea svg math template "
                         "xmp plaintext listing noembed noframes").split())  # the last five obsolete
# Form fields: each ends its sentence, so the text before one and the button after it are translated
# apart ("Your name <input> <button>Send</button>": "Your name", then "Send").  A <select> does not: it
# stands in its sentence for one of its options ("Show <select> entries", "Choose <select> now").
CONTROLS = frozenset("input textarea".split())
RUBY_ANNOTATIONS = frozenset(("rt", "rp"))  # a ruby's reading above its base, and the brackets shown without ruby
# EPUB 3.0's <epub:case>: markup a reading system may not know (MathML) in an <epub:switch>, whose
# <epub:default> shows the same thing to the others (``<span>v</span>`` for ``<mi>v</mi>``).  The case
# is kept whole, as <math> is; the switch and its default are read inline (html_layout.EPUB_INLINE), so
# the default's words are translated in their sentence.
ITS_TRANSLATE = "{http://www.w3.org/2005/11/its}translate"  # the W3C Internationalization Tag Set's
EPUB_CASE = frozenset(("{http://www.idpf.org/2007/ops}case", "epub:case"))  # XHTML's name; HTML's
# What a page shows as no longer right: an edit's deleted words, struck-out text (is_deleted)
STRUCK = frozenset(("del", "s", "strike"))


def says_no(node: etree._Element) -> bool:
    return says(node) == "no"


def says_yes(node: etree._Element) -> bool:
    return says(node) == "yes"


def says(node: etree._Element) -> str:
    """An element's ``translate`` attribute, lower case ("" for a comment or an element without one);
    in XML, the W3C's ITS ``its:translate`` too (DITA, DocBook), and "no" for Android's ``translatable="false"``
    (a strings.xml's package name or id, which the app looks up as written) and, without a ``translate``,
    for an element of class ``notranslate``, which Google's and Microsoft's page translators keep."""
    if is_comment(node):
        return ""
    said = node.get("translate", node.get(ITS_TRANSLATE, "")).strip().lower()
    if said:
        return said
    kept = node.get("translatable", "").strip().lower() == "false" or "notranslate" in node.get("class", "").split()
    return "no" if kept else ""


def is_spacing(node: etree._Element) -> bool:
    """An element around spaces alone, nothing else (Word's ``<span style="mso-tab-count:1">\t</span>``,
    ``<span style='mso-spacerun:yes'>&nbsp; </span>``): kept whole, as an element around nothing is;
    read as a mark, it was emptied and its spaces went outside it."""
    return not len(node) and bool(node.text) and not node.text.strip()

class Vocabulary:
    """Which elements are inline, kept whole, or left alone: HTML's, or (``xml``) every element
    inline but those an element lays out on lines of their own (``lays_out``), and those with
    ``translate="no"``, around nothing or of native code (is_code) kept whole."""

    # what in the text passes through untranslated (URLs, e-mail addresses, file names, template tags): flat.FlatBuilder
    protected = KEPT_IN_TEXT
    xliff = False  # read as an XLIFF file: its paired codes are known by name, whatever its namespace (range_edge)
    fields = False  # a tab or a line's end in the text ends its sentence, and stays where it is (flat.FlatBuilder)
    combinations = True  # HTML's keys side by side are read as one (key_combinations); not Markdown's code stand-ins
    # XML's elements, by name as written, that end a sentence, and those never blocks of their own (DocumentOptions'
    # splitting_tags and non_splitting_tags: DeepL's): xml_block, ends_sentence
    splitting: frozenset[str] = frozenset()
    joining: frozenset[str] = frozenset()

    def __init__(self, xml: bool = False, source_lang: str = "") -> None:
        self.xml = xml
        self.source = primary(source_lang)  # the language the text is translated from ("": not known)
        # What the walk of one tree works out once an element (forget): whether its children stand on
        # lines of their own (lays_out), whether it is inline (is_inline), the characters it shows.
        self.laid_out: dict[etree._Element, bool] = {}
        self.inline: dict[etree._Element, bool] = {}
        self.shown = ShownCharacters()

    def forget(self) -> None:
        """Drops what was worked out of the tree walked last: its runs and flat texts are found, and the
        tree is about to change (markup_runs.rebuild puts the translations in)."""
        self.laid_out.clear()
        self.inline.clear()
        self.shown.clear()

    def is_foreign(self, node: etree._Element) -> bool:
        """An inline element of HTML's that states a language other than the source's and than the
        text around it (``The word <i lang="fr">plage</i> means beach``, a language switcher's ``<a
        lang="de">Deutsch</a>``, a ``<label lang="fr">`` among a sentence's words), a passage among words
        outside it in its block: kept whole as ``translate="no"`` is.  Translated, "plage" became German
        marked as French, and "Deutsch" was lost.  A block (``<p lang="fr">``) is translated, and says the
        target language (attnmt.documents.language), and so is an element holding all its block's words (Word's
        proofing ``<p><span lang="DE">`` over an English paragraph, a fragment that is one such
        element): it is the text to translate.  Word's ``lang="X-NONE"`` names no language.  So is
        one that says a direction (language.said_direction: SVG's ``direction``) around letters all written against
        the source's (language.written_against: ``<bdo dir="rtl">שלום</bdo>`` in English), whatever language it
        states; and so, the source's language known, is such a block (``<p dir="rtl" lang="ar">`` on an English
        page): the model cannot read its letters, which came back as they were, under a ``lang="de"
        dir="ltr"`` that drew the Arabic left to right.  So is a language switcher's entry, a link or an
        option that shows the name in itself of the language it leads to (language_links.names_its_language:
        ``<a hreflang="de">Deutsch</a>``), whatever it states and wherever it stands."""
        if self.xml or is_comment(node) or isinstance(node, etree._Entity):
            return False
        if names_its_language(node):
            return True
        # a <label> among its sentence's words is inline (html_layout.in_a_sentence); a link in a trail is no block
        block = local_name(node) in BLOCKS and is_block(node)
        if said_direction(node) in ("ltr", "rtl") and (self.source or not block) and written_against(
                "".join(node.itertext()), self.source):
            return True
        if block:
            return False
        stated = stated_language(node)
        if not stated or stated == self.source:
            return False
        if stated == next((lang for lang in map(stated_language, node.iterancestors()) if lang), self.source):
            return False
        above = list(node.iterancestors())
        return has_words_outside(next((block for block in above if is_block(block)), above[-1]), node)

    def lays_out(self, parent: etree._Element | None) -> bool:
        """Whether an XML element's children stand on lines of their own (``<note>\\n  <p>..</p>\\n</note>``):
        between them only spaces, at least one line break; or side by side with nothing at all
        between them, as a record's fields are (``<row><cell>A red car</cell><cell>12</cell></row>``:
        read inline, "car12" would be one word).  They are blocks, translated apart, and the layout
        stays where it was.  One child alone with nothing around it is no record: it is what its
        parent wraps (``<b><i>red</i></b>``), read with the sentence around the parent."""
        if parent is None or not len(parent):
            return False
        if parent not in self.laid_out:
            between = [parent.text or "", *(child.tail or "" for child in parent)]
            self.laid_out[parent] = all(not gap.strip() for gap in between) and (
                any("\n" in gap for gap in between) or (len(parent) > 1 and not any(between)))
        return self.laid_out[parent]

    def is_atom(self, node: etree._Element) -> bool:
        """Kept whole, at a point of its sentence: a comment, what says ``translate="no"``, a passage
        in another language (is_foreign), an inline element stated as in no language (``lang="zxx"``:
        language.states_no_words, code as ``<code>`` is: translated, it came back German words tagged
        "no language"), an inline element around nothing (it keeps the spaces it had, as atoms do:
        ``Click <x id="1"/> to open``, ``<i class="icon"></i> Home``); in HTML, ATOMS, EPUB_CASE
        and markers (is_marker); in XML, an element of native code (is_code), a segment's inline code
        (is_inline_code), and one whose text is HTML (holds_markup), and DITA's and DocBook's code (is_code_element)."""
        if is_comment(node) or (says_no(node) and not self.is_kept_word(node)) or self.is_foreign(node):
            return True
        if self.xml:  # a field laid out is translated apart, code or not: "<No name>" may be words
            return (is_empty(node) or is_inline_code(node) or self.holds_markup(node) or self.is_code_element(node)
                    or (is_code(node) and not self.lays_out(node.getparent())))
        name = local_name(node)
        if name == "data" and is_signed_value(self.shown[node]):  # a price a page states as a value, kept as it is
            return True
        return (name in ATOMS and not self.is_kept_word(node)) or node.tag in EPUB_CASE or (
            name not in BLOCKS and (is_empty(node) or is_spacing(node) or is_marker(node, self.shown[node])
                                or self.is_page_number(node) or states_no_words(node) or self.is_deleted(node)
                                or (is_abbreviation(node, self.shown[node]) and self.shows_its_block(node))))

    def is_deleted(self, node: etree._Element) -> bool:
        """A ``<del>`` among other words of its block: an edit's removed words, which are no part of the sentence a
        reader reads now (``The car is <del>red</del> <ins>blue</ins>.`` reads "The car is blue."), kept whole as
        written.  Read as words, the demo model took "red blue" for one colour and wrote "Der <del>rotes</del>
        <ins>blue</ins> Auto.".  So is struck-out text (STRUCK: ``<s>``, the obsolete ``<strike>``), words no longer
        right (``The <s>old</s> new plan.``, read "The old new plan.").  One that is all its block shows is translated,
        the text it shows; one of no words (``<del>6 €</del>``, an old price) is left to the rules of measures and
        symbols, which take it out as theirs."""
        return local_name(node) in STRUCK and has_words(self.shown[node]) and not self.shows_its_block(node)

    def is_kept_word(self, node: etree._Element) -> bool:
        """Read with its sentence as the words it shows, and written back as it came in their place (Mark.kept_whole):
        in HTML, an abbreviation (is_abbreviation), a kept name or a word of code (kept_names.read_whole) among words;
        one all its block shows (``<th><abbr>FAQ</abbr></th>``) is an atom, given to the model for nothing (is_atom)."""
        return not self.xml and local_name(node) not in BLOCKS and (is_abbreviation(node, self.shown[node]) or (
            read_whole(node, self.shown[node], says_no(node)))) and not self.shows_its_block(node)

    def shows_its_block(self, node: etree._Element) -> bool:
        """Whether ``node`` shows all its block (or tree) shows: spaces alone beside it and each element around it up to
        there, each look stopping at the first thing shown (not the whole text of a block of thousands of them).  A
        block inside its parent ends what is beside it, as a browser lays out the text after a ``<p>`` apart:
        ``<div><p>…</p><span translate="no">Acme</span></div>`` shows the name alone, as ``<div><span>`` does."""
        while node.getparent() is not None and not is_block(node):
            if (node.tail or "").strip() or self.shown_beside(node, True) or self.shown_beside(node, False):
                return False
            node = node.getparent()
        return True

    def shown_beside(self, node: etree._Element, after: bool) -> bool:
        """Whether something is shown after (or before) ``node`` in its parent, up to the nearest element there that
        is no inline one (runs lays out the text on each side of it apart): an element's text, or text between."""
        sibling = node
        while (sibling := sibling.getnext() if after else sibling.getprevious()) is not None:
            element, tail = isinstance(sibling.tag, str), bool((sibling.tail or "").strip())
            if element and not self.is_inline(sibling):
                return tail and not after  # its tail stands in node's run before it, and in the next one after it
            if tail or (element and bool(self.shown[sibling].strip())):
                return True
        parent = node.getparent()
        return not after and parent is not None and bool((parent.text or "").strip())

    def is_code_element(self, node: etree._Element) -> bool:
        return is_code_element(node) and not says_yes(node)

    def is_inline(self, node: etree._Element) -> bool:
        """An atom, or an inline element with only inline elements inside it.  Worked out once an
        element, from its children's answers, and kept: runs() asks it of each element of a block, and
        of 500 nested <span>s around a <p> each asked it again of every span below it (cubic, with
        the text each one shows)."""
        pending = [(node, False)]
        while pending:
            inside, opened = pending.pop()
            if inside in self.inline:
                continue
            if opened:  # its children are answered
                self.inline[inside] = all(self.inline[child] for child in inside)
            elif self.is_atom(inside):
                self.inline[inside] = True
            elif self.xml_block(inside) if self.xml else is_block(inside):
                self.inline[inside] = False
            else:
                pending += [(inside, True), *((child, False) for child in inside)]
        return self.inline[node]

    def xml_block(self, node: etree._Element) -> bool:
        """Whether an XML element is a block, translated apart from the text around it: one laid out (lays_out), but
        where ``joining`` names it, and one ``splitting`` names, wherever it stands."""
        name = written_name(node)
        return name in self.splitting or (self.lays_out(node.getparent()) and name not in self.joining)

    def is_untranslated(self, node: etree._Element) -> bool:
        """Left as it is by the walk of its tree: what says ``translate="no"``; in HTML, UNTRANSLATED, EPUB_CASE
        and page numbers; in XML, an element whose text is HTML (holds_markup: translated as a fragment of its own)
        and DITA's and DocBook's elements of code (is_code_element, but where they say ``translate="yes"``)."""
        if is_comment(node) or (says_no(node) and not self.is_kept_word(node)) or self.is_foreign(node):
            return True
        if self.xml:
            return self.holds_markup(node) or self.is_code_element(node)
        return local_name(node) in UNTRANSLATED or node.tag in EPUB_CASE or self.is_page_number(node)

    def is_page_number(self, node: etree._Element) -> bool:
        """In HTML, a printed page's number (markers.is_page_number: a page break), or a link a navigation page's
        list of pages labels with one (markers.is_page_label: ``<a href="one.xhtml#p12">xii</a>``)."""
        return is_page_number(node) or (local_name(node) == "a" and is_page_label(node, self.shown[node]))

    def holds_markup(self, node: etree._Element) -> bool:
        """Whether an XML element's text is HTML, translated apart (xml_code.holds_markup; a dialect's may differ)."""
        return holds_markup(node)

    def keeps_attributes(self, node: etree._Element) -> bool:
        """Whether an element's attributes are kept, whatever their names: in HTML, a page number's
        (is_page_number: ``title="xii"``, ``aria-label="Page 13"``), and a passage's in another
        language (is_foreign: ``<a lang="fr" title="Version française">``)."""
        return not self.xml and (self.is_page_number(node) or self.is_foreign(node))

    def as_read(self, text: str) -> str:
        """A piece of an element's text as the model is to read it: as it is written, but in a dialect
        that escapes characters in its own way (Android's ``\\'``: xml_dialects.AndroidStrings)."""
        return text

    def as_written(self, text: str) -> str:
        """A piece of the translation as the dialect writes it (as_read's other way); as it is."""
        return text

    def written_in(self, parent: etree._Element, source: FlatText) -> Callable[[str], str]:
        """How the translation of ``source``, a run's text in ``parent``, is written: as_written,
        the same for every text but in a dialect whose escapes hang on the text (Android's ``%``)."""
        return self.as_written

    def script(self, node: etree._Element) -> Script | None:
        """What ``node`` is as a script of a formula or a unit (script_tokens): in HTML, a ``<sub>`` or ``<sup>``."""
        return markup_script(node)

    def is_hidden(self, node: etree._Element) -> bool:
        """Whether an atom is text a reader does not see (an OpenDocument editor's note: its
        vocabulary's); in HTML and XML, none is."""
        return False

    def is_line_break(self, node: etree._Element) -> bool:
        """Whether an atom stands for a line break though its tag is none of shown.LINE_BREAKS (HTML's
        ``<br>``, OpenDocument's and Word's, known by their tags): in HTML and XML, none does (an XLIFF
        code may say it does: its vocabulary's)."""
        return False

    def is_reference(self, node: etree._Element) -> bool:
        """Whether an atom refers to a note: in HTML, a marker (is_marker) that shows a number or a
        label (``<sup><a href="#fn1">1</a></sup>``, ``<a href="#fn1">[1]</a>``, a noteref's ``a``),
        not symbols alone (a kept ``<i>.</i>``, ``★★★``)."""
        if self.xml or is_comment(node) or isinstance(node, etree._Entity):
            return False
        shown = self.shown[node]
        return is_marker(node, shown) and any(character.isalnum() for character in shown)

    def ends_sentence(self, node: etree._Element) -> bool:
        """Whether no sentence goes on past the atom: in HTML, a form field (CONTROLS) that shows
        (an <input type="hidden"> does not); in XML, one ``splitting`` names (OpenDocument: a tab)."""
        if self.xml:
            return written_name(node) in self.splitting
        return (not is_comment(node) and local_name(node) in CONTROLS
                and node.get("type", "").strip().lower() != "hidden")

    def range_edge(self, node: etree._Element) -> tuple[object, bool] | None:
        """(a key, whether it starts it) where the atom starts or ends a range of words whose end
        must stay after its start (attnmt.documents.flat.FlatBuilder.add_atom): in XML, a paired
        code's start or end (xml_code.paired_code: XLIFF's and TMX's ``<bpt id="1">``, ``<ept
        id="1">``; in XLIFF, its ``<bx rid="1"/>``, ``<ex rid="1"/>``), matched by its kind and
        PAIRED_KEYS, as an ``<ept>`` before its ``<bpt>`` makes the file invalid; and in HTML or XML,
        an e-mail's downlevel-revealed conditional comments, ``<!--[if !mso]><!-->`` before what
        Outlook does not show and ``<!--<![endif]-->`` after it (conditional_comments)."""
        if is_comment(node):
            return conditional_edge(node)
        code = None if not self.xml else paired_code(node, self.xliff)
        if code is None:
            return None
        kind, starts = code
        key = next((node.get(name) for name in PAIRED_KEYS if node.get(name) is not None), None)
        return None if key is None else ((kind, key), starts)

    def entity_character(self, node: etree._Element) -> str:
        """The character an XHTML page's entity reference stands for (``&mdash;``: "—"), which the
        model reads in its place (markup_runs.written_entities puts the reference back); "" for one
        whose character is a space (``&nbsp;``, an atom that parts words, kept where it stood),
        one HTML does not name, and any in XML, whose DOCTYPE may say anything of a name."""
        if self.xml or not isinstance(node, etree._Entity) or node.name not in name2codepoint:
            return ""
        character = chr(name2codepoint[node.name])
        return "" if character.isspace() or unicodedata.category(character) == "Cf" else character

    def is_dropped(self, node: etree._Element) -> bool:
        """Whether a node is left out of the translation: an XHTML page's soft hyphen (``co&shy;operative``),
        where the source word may break at a line's end.  Stale once the word is translated, it is
        dropped, as the character is in text (attnmt.documents.flat.SOFT_HYPHEN); kept, it went to
        the end of the word's translation ("Genossenschaft&shy;")."""
        return not self.xml and isinstance(node, etree._Entity) and name2codepoint.get(node.name) == ord(SOFT_HYPHEN)

    def parts_words(self, node: etree._Element) -> bool:
        """Whether an atom separates the words around it: a line break, an entity reference kept
        whole (it stands for text of its own, a name or a space: entity_character), one of spaces
        alone (is_spacing), or one that shows text of its own
        (``History<span>[</span><a>edit</a><span>]</span>``, ``WordPress<span> | </span>Theme``:
        read as one word, "Historyedit", they gave the link no word).  A stop alone does not part its
        sentence's last word from the quote or bracket right after it (``"A dog runs<b>.</b>"``: the
        model reads ``"A dog runs"``, where ``"A dog runs "`` left the quote on a word of its own),
        nor from an XHTML page's entity for one (``runs<b>.</b>&rdquo;``: next_shown), nor from a note's
        number in superscript digits typed right after it (``park<b>.</b>¹² A man``): read "park ¹²",
        the number was no note after a stop, the sentence did not end there and the model lost both.  Nor does a
        note's reference part the word it is glued to from what follows that is no word (``A dog runs<sup>1</sup>.``:
        the model read ``A dog runs .``, a stop on its own).  Nor does a ruby's annotation (``<rt>``, and the
        ``<rp>`` brackets shown around it where ruby is not), set above its base, not beside it: read
        ``漢 字を勉強する``, ``<ruby>漢<rt>kan</rt>字<rt>ji</rt></ruby>を勉強する`` had a space inside its word."""
        if isinstance(node, etree._Entity):  # a format character (&zwnj;) is inside its word
            return node.name not in name2codepoint or unicodedata.category(chr(name2codepoint[node.name])) != "Cf"
        following = self.next_shown(node)
        if is_stop(shown_text(node)) and (closing_length(following) or RAISED_NUMBERS.match(following)):
            return False
        if self.is_reference(node) and not following.isalnum():  # "runs<sup>1</sup>." read "runs .": the stop alone
            return False
        return not is_comment(node) and local_name(node) not in RUBY_ANNOTATIONS and (
            local_name(node) == "br" or has_text_of_its_own(node) or is_spacing(node))

    def next_shown(self, node: etree._Element) -> str:
        """The character a reader sees right after ``node``: its tail's first, or, with no tail,
        that of an entity reference after it (``&rdquo;``: entity_character); "" for any other."""
        following = node.getnext()
        if node.tail or not isinstance(following, etree._Entity):
            return (node.tail or "")[:1]
        return self.entity_character(following)


def written_name(node: etree._Element) -> str:
    """An XML element's name as its text writes it, in its case: its prefix, a colon, its local name (``ph:x``), or
    its local name; "" for a comment or a processing instruction."""
    if not isinstance(node.tag, str):
        return ""
    name = node.tag.rpartition("}")[2]
    return f"{node.prefix}:{name}" if node.prefix else name
