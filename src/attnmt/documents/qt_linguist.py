"""Qt Linguist's translation files (``.ts``, as lupdate writes them), read as XML by their root
``<TS>``: each message's ``<source>`` translated into its ``<translation>``, everything else kept.

    translate_ts(text, translator, options, where)  -> the file's text with its translations filled

Read as any XML (attnmt.documents.markup), the ``<source>`` was overwritten with the translation
(lupdate then found no message of the code's, and marked every one vanished), the ``<translation>``
stayed empty, and the ``<context>``'s ``<name>`` (a C++ class) and the developer's ``<comment>`` were
translated.  Here only translations are written:

- a message's empty ``<translation>`` (or each empty ``<numerusform>`` of a plural message, ``numerus="yes"``,
  as many as Qt gives the target language: PLURAL_FORMS) gets its source's translation, a missing one is
  added, and so does an unfinished one that is its source's copy (is_open); one with other text is a
  translation already (a person's, or an earlier run's) and is kept (one warning counts them), and so is a
  message that is ``obsolete`` or ``vanished`` (no longer in the program's code);
- a translation with length variants (``<translation variants="yes">``, or a source's parted by U+009C)
  gets each of its ``<lengthvariant>``s translated from the source's variant in its place (qt_variants);
- a translation written says ``type="unfinished"``, as Qt Linguist's own batch translation leaves
  what it filled unless asked: a machine's suggestion, for a person to review and mark done.  lrelease
  still puts unfinished translations into the ``.qm`` (unless ``-nounfinished``), so the program shows
  them meanwhile, and Weblate reads the mark as "needs editing", as an XLIFF ``mt-suggestion`` is read;
- a source's keyboard accelerator (``&File``) is taken out before the model reads it, and the
  translation gets one before its first letter (take_accelerator);
- the placeholders Qt fills in (``%1``, ``%L2``, ``%n``), as all those of XLIFF's sources
  (xliff.NUMBERED), pass through untranslated, and a source whose text is rich text (Qt Designer's
  escaped ``<html><body><p>…``, or words with tags among them: is_rich_text) is translated as HTML, its
  markup kept (attnmt.documents.xliff); a ``<byte value="xa0"/>`` (lupdate's no-break space, or a control
  character) is read as its character (LinguistCodes);
- where a review keeps the source of every sentence of a translation (--below-quality source), it
  stays empty, still unfinished, for a person or a later run to fill: a copy of the source there
  was a translation that lrelease shipped and no later run replaced;
- ``<TS language="…">`` names the target language: a file for another one is refused, one without is
  given it; a ``sourcelanguage`` other than the one translated from is refused (where that is known).
"""

from __future__ import annotations

import copy
import re
from dataclasses import replace

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.decoding.protected import ampersand_name
from attnmt.documents.doctype import DOCTYPE
from attnmt.documents.flat import LINE_END
from attnmt.documents.html_layout import gap_before
from attnmt.documents.markup import TreeJob, embedded_job, translate_trees
from attnmt.documents.pages import is_comment, parse
from attnmt.documents.pipeline import DocumentOptions, translator_glossary
from attnmt.documents.qt_variants import is_empty, is_note, to_write
from attnmt.documents.review import Review
from attnmt.documents.translators import Translator
from attnmt.documents.xliff import XliffHtml, XliffVocabulary
from attnmt.documents.xliff_languages import source_advice
from attnmt.documents.xml_code import holds_markup, holds_tags
from attnmt.errors import DataError, UserError, warn
from attnmt.text.language_codes import primary_subtag

# How a Qt Linguist file begins: its root <TS>, after an XML declaration, a DOCTYPE (its internal subset
# too, which may hold a ">": <!DOCTYPE TS [<!ENTITY app "Foo">]>) and comments.
QT_START = re.compile(rf"\A\ufeff?\s*(?:<\?xml\s[^>]*\?>\s*)?(?:<!--.*?-->\s*)*(?:{DOCTYPE.pattern}\s*)?"
                      r"(?:<!--.*?-->\s*)*<TS[\s>/]", re.DOTALL)
# A keyboard accelerator in a Qt string: "&" before the character it underlines ("&&" is an ampersand).
ACCELERATOR = re.compile(r"(?<!&)&(?=[^\s&])")
# A name joined by Qt's literal "&", "&&" (``Tom &&amp; Jerry`` in the file, "Tom & Jerry" on the screen), which no
# accelerator marks: it passes through as written, as an XLIFF source's name joined by "&" does (LinguistCodes).  Read
# as words, it was dropped as the demo model drops such a name (the tests' stand-in for it wrote "We watched Tom &&
# Jerry." as "WE WATCHED TOM JERRY."), and a single "&" written for it would underline the letter after it.
LITERAL_AMPERSAND_NAME = ampersand_name("&&")
# Where a translation's accelerator goes: before its first letter or digit.
ACCELERATED = re.compile(r"(?=[^\W_])")
# A Qt <byte>'s value: lupdate's hexadecimal after "x" (x9, xa0), or a decimal number.
BYTE_VALUE = re.compile(r"[xX][0-9A-Fa-f]{1,6}|[0-9]{1,7}")
# A message no longer in the program's code: its translation is kept for reuse, not shown.
RETIRED = frozenset(("obsolete", "vanished"))
# What comes before a message's <translation>, in the order of Qt's DTD: it is written after the last of them.
BEFORE_TRANSLATION = ("location", "source", "oldsource", "comment", "oldcomment", "extracomment", "translatorcomment")
# How many plural forms (<numerusform>s) Qt gives a language, by its primary subtag, as Qt Linguist's
# numerus rules count them (lupdate writes that many, and lrelease pads a message with fewer with empty
# ones, where the program shows the source): a language not listed gets one, as lupdate gives a file
# that names no language.
PLURAL_FORMS = {language: count for count, languages in (
    (1, "bi bo dz fa fj gn hu id ja jv ko ms my na om su th tr tt vi yo za zh"),
    (2, "aa ab af am as ay az ba bg bn br de el en eo es et eu fi fil fo fr fur fy gl gu ha he hi hy ia ie is it"
        " ka kk kl km kn ks ku kw ky la lb ln lo mg ml mn mr nb ne nl nn no nso oc or pa ps pt qu rm rn rw sd si"
        " sn so sq ss st sv sw ta te tg ti tk tn to ts ug ur uz vo wa wo xh yi zu"),
    (3, "be bs cs dv ga gv hr ik iu lt lv mi mk pl ro ru sa se sk sm sr uk"),
    (4, "gd mt sl"), (5, "cy"), (6, "ar")) for language in languages.split()}


def is_qt_ts(text: str) -> bool:
    """Whether ``text`` is a Qt Linguist file: XML whose root element is ``<TS>``."""
    return QT_START.match(text) is not None


def translate_ts(text: str, translator: Translator, options: DocumentOptions, where: str = "input",
                 review: Review | None = None, keep_declaration: bool = False) -> str:
    """A Qt Linguist file's text (``\\n`` line endings) with each empty translation of a current message
    filled (the module docstring); DataError naming ``where`` for one that is not well-formed or whose
    root is no ``<TS>``; UserError for a file of another target or source language (say_languages)."""
    parsed = parse(text, True, where, whole=True, document=True)
    roots = [] if parsed is None else [node for node in parsed.root if not is_comment(node)]
    if parsed is None or len(roots) != 1 or roots[0].tag != "TS":
        raise DataError(f"{where}: not a Qt Linguist file: its root element is not <TS>")
    parsed.keeps_declaration = keep_declaration
    root = roots[0]
    plurals = PLURAL_FORMS.get(primary_subtag(root.get("language", "") or options.target_lang or ""), 1)
    found = [(message, open_forms(message, plurals)) for message in root.iter("message") if is_current(message)]
    filled = [(message, forms) for message, forms in found if forms is not None]
    if filled:  # refused first: no warning before the one line
        say_languages(root, options, where)
    kept = sum(1 for _, forms in found if forms is None)
    if kept:
        warn(f"{where}: {kept:,} message(s) kept the translation they hold; to have one translated again, "
             "empty its <translation>", stacklevel=2)
    glossary = translator_glossary(translator)
    written = []
    for _, places in filled:
        for form, part in places:
            copy_source(form, part)
            marked = take_accelerator(form)
            written.append((form, form_jobs(form, options, where, glossary), marked))
    jobs = [job for _, each, _ in written for job in each]
    translate_trees(jobs, translator, options, review, [parsed.first_line] * len(jobs))
    left = 0
    for form, each, marked in written:
        if kept_source(each):
            form.text, left = None, left + 1
            del form[:]
        elif marked:
            form.text = ACCELERATED.sub("&", form.text or "", count=1)
    say_left(left, where)
    return parsed.serialise(None)


def kept_source(jobs: list[TreeJob]) -> bool:
    """Whether every sentence of a translation's ``jobs`` kept its source (say_left).  Not where the model read
    none, the words all passing through as written (a name joined by Qt's "&&", a URL): the source's copy is the
    translation.  Counted so, ``<source>Tom &amp;&amp; Jerry</source>`` came back an empty translation."""
    texts = [flat for job in jobs for flat in job.texts]
    return bool(texts) and all(flat.source_kept for flat in texts)


def say_left(left: int, where: str) -> None:
    """One warning counting the ``left`` translations (or plural forms, or length variants) still empty, every
    sentence of theirs having kept its source: a short label whose translation the model garbled (most of a
    program's strings are: "&File", "Settings"; attnmt.documents.short_labels), one under --below-quality source.
    Silent, a file of menus came back as it was sent."""
    if left:
        warn(f"{where}: {left:,} translation(s) left empty and unfinished: each sentence kept its source (a short "
             "label whose translation the model garbled, or one under --below-quality); Qt shows the source there "
             "until a translator or a later run fills them", stacklevel=3)


def take_accelerator(form: etree._Element) -> bool:
    """Whether the source's copy in a plain translation (no rich text, no code) marks its keyboard
    accelerator (ACCELERATOR: ``&File``, ``Save &As...``), taken out of it: the model reads "File",
    and the translation gets its own, before its first letter or digit (ACCELERATED), where Qt
    Linguist checks that it has one.  Read as a word, "&File" came back "& Datei" or without it."""
    if len(form) or is_rich_text(form) or not ACCELERATOR.search(form.text or ""):
        return False
    form.text = ACCELERATOR.sub("", form.text or "", count=1)
    return True


def form_jobs(form: etree._Element, options: DocumentOptions, where: str, glossary: Glossary | None) -> list[TreeJob]:
    """The job translating a translation (or plural form) that holds its source's copy: as HTML where
    that is rich text (is_rich_text), written back escaped as it came (markup.EmbeddedJob);
    else its words and codes, its attributes (``type``, ``value``) the file's data."""
    if is_rich_text(form):
        job = embedded_job(form, options, where, glossary, XliffHtml(source_lang=options.source_lang))
        return [] if job is None else [job]
    return [TreeJob(form, LinguistCodes(), replace(options, attributes=()), glossary)]


def is_rich_text(form: etree._Element) -> bool:
    """Whether a translation's text is rich text: HTML throughout (xml_code.holds_markup), or words with
    HTML's tags among them, each closed (xml_code.holds_tags), which a QLabel shows as rich text where a tag
    comes before the first line break (Qt::mightBeRichText): read as words, ``<b>Warning:</b> the file <i>%1</i> will
    be deleted.`` came back ``<B>WARNING:</B> ... <I></I> %1``, its tags changed and emptied."""
    return holds_markup(form) or holds_tags(form)


class LinguistCodes(XliffVocabulary):
    """A translation's codes as an XLIFF source's, and lupdate's ``<byte value="xa0"/>``, how it writes a
    control character or a space past ASCII (a no-break space): as the character it stands for (byte_character),
    it parts the words around it, and a line's end ends its sentence.  Glued, "10<byte value="xa0"/>km"
    reached the model as "10km".  A name joined by Qt's literal "&" passes through as written
    (LITERAL_AMPERSAND_NAME)."""

    protected = re.compile(f"{LITERAL_AMPERSAND_NAME}|{XliffVocabulary.protected.pattern}")

    def parts_words(self, node: etree._Element) -> bool:
        return super().parts_words(node) or byte_character(node).isspace()

    def is_line_break(self, node: etree._Element) -> bool:
        return super().is_line_break(node) or LINE_END.fullmatch(byte_character(node)) is not None


def byte_character(node: etree._Element) -> str:
    """The character a Qt ``<byte value="x9"/>`` stands for (its value hexadecimal after "x", or
    decimal); "" for any other node, and for a value that is no character."""
    value = node.get("value", "") if not is_comment(node) and node.tag == "byte" else ""
    if BYTE_VALUE.fullmatch(value) is None:
        return ""
    code = int(value[1:], 16) if value[0] in "xX" else int(value)
    return chr(code) if code <= 0x10FFFF else ""


def is_current(message: etree._Element) -> bool:
    """Whether a message is still in the program's code (its translation is not RETIRED) and has a
    source with words to translate."""
    translation = message.find("translation")
    source = message.find("source")
    if translation is not None and translation.get("type", "").strip() in RETIRED:
        return False
    return source is not None and bool("".join(source.itertext()).strip())


def open_forms(message: etree._Element, plurals: int) -> list[tuple[etree._Element, etree._Element]] | None:
    """The elements of a message to write its translation into, each with the source (or the source's
    length variant) it translates, marked ``type="unfinished"``: its ``<translation>`` (added where it has
    none), or, in a plural message, each empty ``<numerusform>`` of it (as many as the target language
    has, ``plurals`` (PLURAL_FORMS), where it has none or fewer, all empty: add_forms), or one that is
    still its source's copy, or their length variants (qt_variants.to_write); None where every one holds
    a translation already."""
    translation = message.find("translation")
    if translation is None:
        translation = message.makeelement("translation", {})
        before = [child for child in message if child.tag in BEFORE_TRANSLATION]
        anchor = before[-1] if before else message.find("source")
        anchor.addnext(translation)
        translation.tail, anchor.tail = anchor.tail, gap_before(anchor) or anchor.tail
    draft = translation.get("type", "").strip() == "unfinished"
    source = message.find("source")
    if message.get("numerus") == "yes":
        forms = translation.findall("numerusform")
        if not forms and (translation.text or "").strip():
            return None  # a translation of text alone, no form: a person's, kept
        if all(is_empty(form) for form in forms):
            forms = add_forms(translation, forms, plurals)
    else:
        forms = [translation]
    pairs = [pair for form in forms for pair in to_write(form, source, draft)]
    if not pairs:
        return None
    translation.set("type", "unfinished")
    return pairs


def add_forms(translation: etree._Element, forms: list[etree._Element], plurals: int) -> list[etree._Element]:
    """``forms`` (a plural translation's empty ``<numerusform>``s) with as many more as make ``plurals``,
    each after the last, laid out as the last is (on a line of its own where it is)."""
    forms = list(forms)
    while len(forms) < plurals:
        form = translation.makeelement("numerusform", {})
        if forms:
            last = forms[-1]
            previous = last.getprevious()
            last.addnext(form)
            form.tail, last.tail = last.tail, translation.text if previous is None else previous.tail
        else:
            translation.append(form)
        forms.append(form)
    return forms


def copy_source(target: etree._Element, source: etree._Element) -> None:
    """``source``'s text, codes (``<byte>``) and entity references (``&app;``) copied into ``target``, to be
    translated there; its comments left out, as an XLIFF source's are (is_note)."""
    target.text = source.text
    target.extend(copy.deepcopy(child) for child in source if not is_note(child))
    target.sourceline = source.sourceline  # for a review's line


def say_languages(root: etree._Element, options: DocumentOptions, where: str) -> None:
    """UserError where ``<TS language>`` names another target language than ``options``' (by its primary
    subtag: ``de_DE`` is ``de``), or ``sourcelanguage`` another source language (where it is known);
    ``language`` set to the target where the file names none."""
    target = options.target_lang
    written = root.get("language", "").strip()
    if target and written and primary_subtag(written) != primary_subtag(target):
        asked = (f"the model's target language (from its train.yaml) is {target}: give {options.target_lang_option} "
                 f"{written} to translate it into {written}" if options.target_lang_option else
                 f"the target language asked for {target}: translate it into {written}")
        raise UserError(f"{where}: the file's <TS language> is {written}, {asked}, or take a file for {target}")
    if target and not written:
        root.set("language", target)
    source = root.get("sourcelanguage", "").strip()
    if options.source_lang_known and source and primary_subtag(source) != primary_subtag(options.source_lang):
        raise UserError(f"{where}: the file's <TS sourcelanguage> is {source}, " + source_advice(
            source, options.source_lang, options.source_lang_option, options.source_lang_asked))
