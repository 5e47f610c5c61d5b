"""XML dialects known by their root element, each read with a vocabulary of its own; any other XML
is read with XML's (attnmt.documents.elements.Vocabulary).

- Android's ``strings.xml`` (root ``<resources>``): the app fills in its placeholders (``%1$s``,
  ``%d``, ``%%``) and reads its escapes (``\\n``, ``\\"``, ``\\u2026``, ``\\@``) at run time, and an
  ``<xliff:g>`` marks what is not to be translated (``<xliff:g id="time" example="5 days">%1$s
  </xliff:g>``): read as words, the model dropped or changed them, and the app crashed on a lost
  ``%1$s`` or showed a stray ``\\``.  Each passes through as it was written, as a URL does; a
  resource reference (``@string/other``, ``?attr/colorPrimary``) too.  The model reads ``\\'`` as an
  apostrophe, and each quote it writes is escaped (AndroidStrings.as_written).  Its ``<string>``s, a string
  array's and a plural's ``<item>``s are each translated apart, on one line or on many; its other
  resources (``<color>``, ``<dimen>``, ``<bool>``, a ``<style>``'s items) are data, kept (is_android_data).
- .NET's ``.resx`` (root ``<root>`` holding ``<resheader>`` or ``<data>``): only a string
  resource's ``<value>`` is text, a ``<data name>`` with no ``mimetype`` and no ``type`` but ``System.String``
  (is_resx_text); its ``<comment>`` is a note to translators, its headers name the reader and
  writer classes, a typed or binary entry (``type="System.Drawing.Size, ..."``, a picture's base64
  with its ``mimetype``) is data, and a name starting with ``>>`` is the designer's (``>>button1.Name``):
  read as words, they went to the model and the file no longer loaded.  Its composite format items
  (``{0}``, ``{1:N2}``) pass through as written; a value with HTML's tags among its words is HTML (ResxHtml).
- Any other XML's program placeholders (``{0}``, ``%s``, ``%1$s``) pass through as a .resx's do (XmlStrings).

In each, as in a page's text, a name joined by "&" (``Tom &amp; Jerry``, ``AT&amp;T``) passes through as written, its
"&" written back ``&amp;`` (PROSE_PROTECTED): read as words, the model dropped it ("<p>We watched Tom &amp; Jerry.</p>"
came back "<p>WE WATCHED TOM JERRY.</p>" from a translator that drops such words, as the demo model did).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from lxml import etree

from attnmt.decoding.protected import PROSE_PROTECTED
from attnmt.documents.elements import Vocabulary
from attnmt.documents.flat import FlatText
from attnmt.documents.pages import is_comment, local_name
from attnmt.documents.xml_code import holds_markup, holds_tags

# A software string's placeholders, which the program fills in: ${name}, %{name}, {{count}}, {0} and
# {name}, printf's %d, %1$s, %.2f, %(name)s and %@ (no space flag: "100% sure" is words).  ICU's
# {count, plural, ...} is a message of its own, not one placeholder.  Apple's plural variable (%#@dogs@, %1$#@dogs@,
# a .stringsdict's NSStringLocalizedFormatKey in Xcode's XLIFF) is one: printf's %#@ alone left "dogs@" to the
# model, and the variable it renamed ("%#@Hunde@") named no rule of the .stringsdict.
PRINTF = (r"%(?:\d+\$|\([\w.]+\))?[-+0#]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|ll|[hlLqjzt])?[diouxXeEfFgGaAcsp@]"
          r"(?![A-Za-z])")
APPLE_VARIABLE = r"%(?:\d+\$)?#@[^\W\d]\w*@"
PLACEHOLDER = rf"\$\{{[\w.]+\}}|%\{{\w+\}}|\{{\{{\s*[\w.]+\s*\}}\}}|\{{[\w.]+\}}|{APPLE_VARIABLE}|{PRINTF}"
# Android's: printf's placeholders and its "%%" (a percent sign), and its escapes, a backslash and the
# character after it or a \uXXXX; a resource reference, a string's whole text (@string/name,
# @android:string/ok, ?attr/name).
# The double quotes that wrap a whole string (``"  spaced  "``) are syntax too, with the spaces inside them, which
# Android keeps: read as words, the first of "  Hello" was dropped as a space after a kept span is.
ANDROID = re.compile(rf"%%|{PLACEHOLDER}|\\(?:u[0-9A-Fa-f]{{4}}|.)|\A[@?](?:[\w.]+:)?\w+/[\w.]+(?=\s*\Z)"
                     rf'|\A\s*"\s*|\s*"\s*\Z|{PROSE_PROTECTED.pattern}', re.DOTALL)
# An escape, a quote Android reads as syntax where no backslash escapes it (as_written escapes it), or a
# backslash that starts none of Android's escapes, which Android drops (as_written doubles it:
# "C:\\Pfad" showed "C:Pfad").
ESCAPE_OR_QUOTE = re.compile(r"(\\(?:u[0-9A-Fa-f]{4}|[nt'\"\\@?#]))|(['\"])|(\\)")
# A "%" and the placeholder it starts, if any: a text piece may hold a placeholder as written (the HTML
# an Android string holds, ``<b>%d</b>``), kept; a bare "%" of the translation is doubled (written_in).
PERCENT = re.compile(rf"%%|{PRINTF}|%")
# A line break in a string's text with the spaces around it: the file's layout, which Android shows as one space.
LAID_OUT = re.compile(r"[ \t]*\n\s*")
# Where a string Android would read as a resource reference starts: before its first "@" or "?".
REFERENCE_START = re.compile(r"\A(\s*)(?=[@?])")
# .NET's composite format items: {0}, {0,10}, {1:N2}, {0,-8:yyyy-MM-dd}.
RESX = re.compile(rf"\{{\d+(?:,\s*-?\d+)?(?::[^{{}}]*)?\}}|{PLACEHOLDER}|{PROSE_PROTECTED.pattern}")
XLIFF_1 = "urn:oasis:names:tc:xliff:document:1.2"  # the namespace of Android's <xliff:g>
# Android's elements that hold strings, each a text of its own however it is laid out.
ANDROID_HOLDERS = frozenset(("resources", "plurals", "string-array"))
# Android's resources of text, as Android Studio's Translations Editor lists them; every other one a
# resources file holds is the app's data (<color>, <dimen>, <bool>, <style>'s items, <integer-array>).
ANDROID_TEXTS = frozenset(("string", "string-array", "plurals"))
# A .resx's elements that are no text: the reader's and writer's classes, its schema, the designer's.
RESX_KEPT = frozenset(("resheader", "comment", "schema", "metadata", "assembly"))


class AndroidStrings(Vocabulary):
    """An Android ``strings.xml``'s (the module docstring): its placeholders, escapes and references
    protected (ANDROID), each ``<xliff:g>`` kept whole, each string and item a text of its own."""

    protected = ANDROID

    def as_read(self, text: str) -> str:
        """``\\'`` read as the apostrophe it is (the model read "Don\\'t" as "Dont", or "Don\\'t"), and a line
        break of the file's layout as the space Android shows (LAID_OUT), so that a line break in the
        translation is the model's own, written ``\\n`` (as_written)."""
        return LAID_OUT.sub(" ", ESCAPE_OR_QUOTE.sub(lambda found: "'" if found[1] == "\\'" else found[0], text))

    def as_written(self, text: str) -> str:
        """Each apostrophe and double quote of the translation escaped: bare, Android reads them as
        quotes and drops them ("l'eau" showed "leau"), and an odd one breaks the build; each
        backslash that starts no escape of Android's doubled; and each line break written ``\\n``:
        Android shows a bare one as a space."""
        written = ESCAPE_OR_QUOTE.sub(lambda found: found[1] or "\\" + (found[2] or found[3]), text)
        return written.replace("\n", "\\n")

    def written_in(self, parent: etree._Element, source: FlatText) -> Callable[[str], str]:
        """The translation as_written, and: in a string String.format reads (printf placeholders, ``%%``,
        or ``formatted="true"``), each bare ``%`` written ``%%`` (PERCENT; bare, "%d % erledigt" threw at
        run time); a string's first ``@`` or ``?`` escaped (Android read "@Anna schreibt" as a resource
        reference, and the build failed)."""
        formatted = any(node.get("formatted") == "true" for node in (parent, *parent.iterancestors())) or any(
            re.fullmatch(rf"%%|{PRINTF}", mark.literal or "") for mark in source.marks)
        at_start = local_name(parent) in ("string", "item")  # the first piece written opens the string

        def written(text: str) -> str:
            nonlocal at_start
            text = self.as_written(text)
            if formatted:
                text = PERCENT.sub(lambda found: found[0] if len(found[0]) > 1 else "%%", text)
            if at_start and text.strip():
                text, at_start = REFERENCE_START.sub(r"\1\\", text, count=1), False
            return text

        return written

    def lays_out(self, parent: etree._Element | None) -> bool:
        return parent is not None and not is_comment(parent) and (
            local_name(parent) in ANDROID_HOLDERS or super().lays_out(parent))

    def holds_markup(self, node: etree._Element) -> bool:
        """A string's (or item's) text with HTML's tags among its words (xml_code.holds_tags) is HTML, as
        Html.fromHtml reads it, where other XML's is HTML only with tags at both ends: read as words,
        ``Read the &lt;a href="https://x.org">terms&lt;/a>`` went to the model with its tags, and the link
        came back empty, its URL moved out of it."""
        return holds_markup(node) or (local_name(node) in ("string", "item") and holds_tags(node))

    def is_atom(self, node: etree._Element) -> bool:
        return is_untranslated_g(node) or super().is_atom(node)

    def is_untranslated(self, node: etree._Element) -> bool:
        return is_untranslated_g(node) or is_android_data(node) or super().is_untranslated(node)


def is_android_data(node: etree._Element) -> bool:
    """Whether ``node`` is a resource of a resources file that is not text (ANDROID_TEXTS; an ``<item
    type="string">`` is a string): read as words, ``<dimen>16dp</dimen>``, ``<bool>true</bool>``
    and a style's ``<item name="android:textStyle">bold</item>`` went to the model, and the app no
    longer built."""
    parent = None if is_comment(node) else node.getparent()
    if parent is None or parent.tag != "resources":
        return False
    name = local_name(node)
    return name not in ANDROID_TEXTS and not (name == "item" and node.get("type") == "string")


class AndroidHtml(Vocabulary):
    """The HTML an Android string holds, escaped or in a CDATA section (``&lt;p&gt;Hello %1$s&lt;/p&gt;``,
    for Html.fromHtml), translated as HTML (markup.EmbeddedJob): HTML's elements, with its
    placeholders, escapes and quotes read and written as AndroidStrings reads and writes them; read
    with HTML's vocabulary alone, ``%1$s`` came back ``%1$S``."""

    protected = ANDROID
    as_read = AndroidStrings.as_read
    as_written = AndroidStrings.as_written
    written_in = AndroidStrings.written_in


def is_untranslated_g(node: etree._Element) -> bool:
    """Whether ``node`` is an ``<xliff:g>``: what it holds is the app's, never translated."""
    return not is_comment(node) and node.tag == f"{{{XLIFF_1}}}g"


class ResxStrings(Vocabulary):
    """A .NET ``.resx``'s (the module docstring): only its string resources' values translated, each
    a text of its own, their format items protected (RESX)."""

    protected = RESX
    fields = True  # a line break in a value is one in the window, kept where it is ("Line one⏎line two")

    def lays_out(self, parent: etree._Element | None) -> bool:
        return parent is not None and not is_comment(parent) and (
            local_name(parent) in ("root", "data") or super().lays_out(parent))

    def holds_markup(self, node: etree._Element) -> bool:
        """A value's text with HTML's tags among its words (xml_code.holds_tags) is HTML, as an ASP.NET page
        writes it (``@Html.Raw``): read as words, ``Please &lt;a href="{0}"&gt;click here&lt;/a&gt;`` went to
        the model with its tags, and the link came back empty, its ``{0}`` moved out of it."""
        return holds_markup(node) or (local_name(node) == "value" and holds_tags(node))

    def is_untranslated(self, node: etree._Element) -> bool:
        if is_comment(node):
            return True
        name = local_name(node)
        return (name in RESX_KEPT or (name == "data" and not is_resx_text(node))
                or super().is_untranslated(node))


def is_resx_text(node: etree._Element) -> bool:
    """Whether a ``<data>`` is a string resource: no ``mimetype`` (a picture's base64), no ``type`` but
    ``System.String``'s (as older Visual Studio writes a string's, ``System.String, mscorlib``; any other is a
    typed value, a Size, a file's reference), and no designer's name (``>>button1.Name``)."""
    kind = node.get("type")
    return ((kind is None or kind.split(",")[0].strip() == "System.String") and node.get("mimetype") is None
            and not node.get("name", "").startswith(">>"))


class XmlStrings(Vocabulary):
    """Any other XML's: XML's vocabulary, with a program's placeholders protected as a .resx's are (RESX:
    .NET's format items and PLACEHOLDER, printf's among them).  Software strings are often kept in XML of
    a program's own (a Java ``<entry key="greeting">Hello {0}</entry>``, a game's, a CMS's), where the
    model read ``{0}``, ``{1:N0}``, ``%s`` and ``%1$s`` as words and dropped or changed them ("%1$S"), and
    the program failed on its format; a document's prose (DITA, DocBook) holds them only as the
    placeholders they are."""

    protected = RESX


def dialect_vocabulary(holder: etree._Element, source_lang: str = "") -> Vocabulary:
    """The vocabulary of the XML parsed into ``holder`` (pages.Parsed.root), by its root element
    (dialect): an Android strings file's, a .resx's; XmlStrings for any other."""
    return {"android": AndroidStrings, "resx": ResxStrings}.get(dialect(holder), XmlStrings)(True, source_lang)


class ResxHtml(Vocabulary):
    """The HTML a .resx value holds: HTML's elements, its format items protected as ResxStrings' (RESX);
    read with HTML's vocabulary alone, ``{1:N0}`` went to the model as words."""

    protected = RESX


def embedded_vocabulary(holder: etree._Element, source_lang: str = "") -> Vocabulary | None:
    """The vocabulary of the HTML an element of ``holder``'s XML holds (markup.embedded_jobs): an
    Android string's (AndroidHtml), a .resx value's (ResxHtml); None for HTML's own."""
    html = {"android": AndroidHtml, "resx": ResxHtml}.get(dialect(holder))
    return None if html is None else html(False, source_lang)


def dialect(holder: etree._Element) -> str:
    """The dialect of the XML parsed into ``holder``, by its one root element: "android" for
    ``<resources>``, "resx" for ``<root>`` with ``<resheader>`` or ``<data>``; "" for any other, and
    for several elements side by side (a fragment)."""
    elements = [child for child in holder if not is_comment(child)]
    if len(elements) != 1:
        return ""
    if elements[0].tag == "resources":
        return "android"
    resx = elements[0].tag == "root" and any(not is_comment(child) and child.tag in ("resheader", "data")
                                             for child in elements[0])
    return "resx" if resx else ""
