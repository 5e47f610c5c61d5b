"""Office Open XML paragraphs (Word's ``w:p``, DrawingML's ``a:p`` in slides, a spreadsheet's
shared or inline string): their runs are marks, carried through translation by word alignment
(attnmt.documents.spans), as an HTML paragraph's inline elements are.

A paragraph is a row of *runs*, each its formatting (``rPr``: bold, colour, font, character
style, a slide's hyperlink) and its content (text, tabs, breaks, pictures, field codes).  To
translate it:

1. Adjacent runs with the same formatting are merged (Word splits runs for spelling marks and
   revision ids; the spelling marks, ``w:proofErr``, a slide's spelling flags, ``err`` and ``dirty``,
   the soft hyphens, ``w:softHyphen``, and where a page began when Word last laid the file out,
   ``w:lastRenderedPageBreak``, are dropped: they are stale once the text changes).
2. The formatting that covers the most characters is the paragraph's *base*; its runs are plain
   text (a field's result the model reads nothing of, a bold prompt or date, counts for none: fields.kept_runs).
   Every other run is a mark over its text, and a hyperlink (or a tracked insertion) a
   mark over its runs, with a base of its own.  A slide's linked run (its link is in its
   formatting) is never the base: a link over most of a paragraph is a mark over its words, not
   the plain text around which the rest are marks.  Where every run with text is linked, the
   base is the longest one's formatting without its link.  Nor is a hidden run (``w:vanish``,
   ``w:specVanish``: an editor's note) while a visible run has text: the spaces
   between the translation's marks would be written hidden, and the words beside them run together.
   The base holds no tracked formatting change (``w:rPrChange``, whose ``w:id`` is its own): it is
   written wherever the translation puts text outside every mark, and the id was written twice.
   It is that run's look without the change, and the run a mark over its words.
3. A non-breaking hyphen (``w:noBreakHyphen``) inside a word is text, a "-" to the model: in a
   word the translation keeps ("555-0100", "Jean-Paul") it is written non-breaking again
   (attnmt.documents.hyphens); one outside a word (a leading minus, "‑10") is an atom.
   Tabs, breaks, pictures, field codes and anything else in a run are atoms; so is every other element
   between runs (bookmarks, comment anchors, a simple field, a tracked deletion), and a run of a formatting
   of its own (or a hyperlink, a content control) that the model would read nothing of (a note's
   reference, a field's result) or that is a marker (symbols alone between words: markers.is_marker_text;
   a link's "[3]": markers.is_reference; a note's number typed in superscript, "book¹", "park.¹²":
   markers.is_note_number), and hidden text (a hidden run, or a container of hidden runs alone) in a
   paragraph with visible words: as a mark, it hid the translated words aligned to it.  So is code, never
   the base (attnmt.documents.code_look): a run in a style meant for code or in ``zxx``, or in a monospaced font beside
   letters in another (a paragraph all in Courier is words).  The text of a complex field (``w:fldChar``
   begin to end: a page number, a date) is kept too, also where the field goes on over several paragraphs;
   but a table of contents' entries are read as its paragraphs' words, the fields in them kept.  A link
   field's result is words of the sentence, a mark over them as a hyperlink is (attnmt.documents.fields).
   A ruby (``w:ruby``, in a run) is a mark over its base's words (``w:rubyBase``), read with the sentence, as
   HTML's ``<ruby>`` is; its annotation (``w:rt``, the reading set above the base) is not read, and stays in it.
   A run in subscript or superscript whose letters beside it make a formula or a unit (``H`` ``2`` ``O``, ``25 m``
   ``2``) is kept whole with those letters (attnmt.documents.run_scripts); one holding an ordinal's ending after its
   number (``21`` ``st``, French's ``XIX`` ``e``) is a mark over those letters of its word, which goes on the ending
   of the translation's ordinal, or on none (attnmt.documents.ordinal_marks).
   In a Word paragraph, a pair of quotes around words inside a sentence is a mark over its words, its marks out of
   the text, written around their translation in the target language's form, as a page's (attnmt.documents.word_quotes);
   a run's text elements are read as one text, so that a quote over two of them is one.
4. The paragraph's text is translated whole; then runs are written again: text outside every
   mark in runs of the base formatting, each mark's text in a run of its own formatting (with
   the spaces it had at its edges, where the base's look shows on a space: nesting.keep_edge_spaces);
   a container (a hyperlink, a tracked insertion) or a slide's linked run keeps the spaces it had at
   its edges inside it whatever the look, as they are its content.
   Paragraph properties (``w:pPr``, ``a:pPr``, ``a:endParaRPr``) stay where they were
   (attnmt.documents.ooxml_writing).

A spreadsheet's text is an escaped string (``A_x000D_`` for a carriage return:
attnmt.documents.xstring), read as the characters it stands for and written escaped again (a
carriage return as ``&#13;``, which every reader reads).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from itertools import takewhile

from lxml import etree

from attnmt.documents import fields, fields_complex  # by module: fields imports this module (through ooxml_dialects)
from attnmt.documents.code_look import font_of, has_no_words, in_symbol_font, is_monospaced
from attnmt.documents.dropcaps import DropCap
from attnmt.documents.flat import FlatBuilder, FlatText, is_stop
from attnmt.documents.formatting import (
    base_run,
    formatting,
    is_hidden,
    is_raised,
    merge_runs,
    run_parts,
    script_kind,
    shows_on_spaces,
    text_runs,
    worded_runs,
)
from attnmt.documents.hyphens import hyphenated_words, in_word
from attnmt.documents.language import written_against
from attnmt.documents.list_marks import after_list_mark, after_speaker_label, value_kept
from attnmt.documents.markers import is_marker_text, is_note_number, is_reference
from attnmt.documents.ooxml_dialects import Dialect
from attnmt.documents.ooxml_labels import label_alone, own_look
from attnmt.documents.ooxml_writing import ParagraphWriter
from attnmt.documents.run_scripts import formula_runs
from attnmt.documents.script_tokens import add_scripted
from attnmt.documents.shown import shown_text
from attnmt.documents.split_placeholders import PARAGRAPH_PROTECTED, join_split_placeholders
from attnmt.documents.white_space import TYPED_LINES
from attnmt.documents.word_alternates import unwrap_run_choices
from attnmt.documents.word_styles import WordStyles
from attnmt.documents.wordml import DIRECTIONS, NO_HIDING, RUBY, RUBY_BASE, Hiding, W, range_edge, says_rtl, w

# Word's tabs, which part fields ("Name:<tab/>John Smith", a contents line's "Title<tab/>2"): no
# sentence goes on past one (a tab in DrawingML or a spreadsheet is a character, and ends one too).
FIELD_SEPARATORS = frozenset({w("tab"), w("ptab")})
class ParagraphJob(ParagraphWriter):
    """One paragraph: its flat text (runs as marks), then, given its translated content, the
    paragraph written again in place.  ``field_depth``: the complex fields (``w:fldChar``) open where
    the paragraph starts; ``self.field_depth`` is those open where it ends.  ``styles``: a Word
    document's, which give its runs their look as their own properties do.  ``source_lang``: the
    language the paragraph is translated from, where a direction override or embedding around
    letters written against its direction is a passage kept whole (None: not known, none is).  ``speakers``: the
    names in title case its document's dialogue takes turns in (attnmt.text.speaker_labels.dialogue: "Anna:").
    ``reader``: the builder its text is read by (a Word paragraph's reads its quotes: word_quotes.QuoteBuilder)."""

    def __init__(self, paragraph: etree._Element, dialect: Dialect, field_depth: int = 0,
                 styles: WordStyles | None = None, source_lang: str | None = None,
                 protected: re.Pattern[str] = PARAGRAPH_PROTECTED, speakers: frozenset[str] = frozenset(),
                 reader: type[FlatBuilder] = FlatBuilder) -> None:
        self.paragraph, self.dialect, self.styles, self.source_lang = paragraph, dialect, styles, source_lang
        self.speakers, self.reader = speakers, reader
        self.protected = protected  # what passes through untranslated (an index's pages: index_pages)
        # What the styles say of hiding a run (word_styles.WordStyles.hiding), as its own w:vanish does
        self.hiding: Hiding = NO_HIDING if styles is None else styles.hiding
        self.bare = paragraph.find(dialect.text)  # a string with no runs: its text element
        self.drop_cap: DropCap | None = None  # whose letters begin the paragraph (attnmt.documents.dropcaps)
        unwrap_run_choices(paragraph)
        merge_runs(paragraph, dialect)
        join_split_placeholders(paragraph, dialect)
        self.bases: dict[etree._Element, etree._Element | None] = {}
        self.loose_hyphens: set[int] = set()  # the numbers of the non-breaking hyphens kept as atoms
        # the visible runs with words: a stray visible space shows none
        worded = worded_runs(paragraph, dialect, self.hiding)
        self.shows_words = bool(worded)
        self.prose = any(not any(self.code_look(run)) for run in worded)  # letters in a font not monospaced
        self.flat = self._read(field_depth)
        # A non-breaking hyphen outside a word ("‑10", "runs‑") is no "-" of a word the model
        # would keep: read again, those are atoms, kept where they stood.
        self.loose_hyphens = {number for number, at in enumerate(self.hyphens) if not in_word(self.flat.text, at)}
        if self.loose_hyphens:
            self.flat = self._read(field_depth)
        self.no_break = hyphenated_words(self.flat.text, self.hyphens)

    def _read(self, field_depth: int) -> FlatText:
        self.field_depth = field_depth
        # The atoms that belong inside a run (a tab, a picture), by their elements: a mark's number changes
        # where a symbol taken out goes before it (attnmt.documents.symbols.take_out_symbols).
        self.run_atoms: set[etree._Element] = set()
        self.hyphens: list[int] = []  # where the non-breaking hyphens read as "-" are in the flat text
        self.hyphens_seen = 0
        self.value_kept = False  # a field's value after its name's run, kept as written (list_marks.value_kept)
        self.complex_fields: dict[etree._Element, fields_complex.ComplexField] = {}  # each read as a stand-in, by it
        self.originals: dict[etree._Element, etree._Element] = {}  # each node of a stand-in -> the result's own
        # a tab or a cell's line ends a sentence; a template's placeholders are kept (split_placeholders)
        builder = self.reader(collapse=False, fields=True, protected=self.protected)
        builder.kept = TYPED_LINES if self.dialect.typed_lines else builder.kept  # a cell's Alt+Enter as a <br>
        self._add(builder, self.paragraph)
        flat = builder.build()
        # the hyphens after a quote's marks or a name that building took out (word_quotes, split_names)
        self.hyphens = [builder.place(at) for at in self.hyphens]
        return flat

    def flats(self) -> list[FlatText]:
        return [self.flat]

    def _add(self, builder: FlatBuilder, container: etree._Element) -> None:
        """``container``'s children into ``builder``."""
        dialect = self.dialect
        children = self._children(container)
        kept = fields.kept_runs(children, self.field_depth, dialect)  # a button's, a date's: no look of the words'
        base = self.bases[container] = base_run([child for child in children if not self._is_code(child)
                                                 and child not in kept], dialect, self.hiding)
        shows = shows_on_spaces(self._layers(base))  # whether a space beside a run of its own shows the base's look
        formulas = formula_runs(children, dialect, base, lambda run: script_kind(self._layers(run)))
        for child in children:
            if child.tag in dialect.kept:
                continue
            if child.tag == dialect.text:  # a plain cell's string: its start read as a run's ("Step 1:", "ANNA:")
                self._add_run(builder, child, [child])
            elif child in formulas.scripts:  # H₂O, 25 m²: kept whole with its letters (run_scripts)
                add_scripted(builder, child, formulas.scripts[child])
            elif child in formulas.texts:  # a base run some of whose letters a formula's script took
                builder.add_text(formulas.texts[child])
            elif dialect.holds_runs(child) and self._kept_whole(builder, child):
                continue
            elif child.tag == dialect.run:
                marked = base is None or formatting(child, dialect) != formatting(base, dialect)
                if (marked or self._is_note(child) or self._label_alone(builder, child)) and self._kept_whole(
                        builder, child):
                    continue
                # A space at its edge keeps its look where the base's would show on it; a slide's
                # linked run keeps it whatever the look, as a Word hyperlink does: the link covers it.
                if marked:
                    builder.open(child, keeps_edge_spaces=shows or dialect.is_link(child))
                self._add_run(builder, child, child)
                if marked:
                    builder.close()
            elif dialect.holds_runs(child):
                # Its edge spaces are its content, whatever the look around it: a tracked insertion's
                # space is text it inserts (rejected, the words either side would touch or a space
                # be doubled), a hyperlink's is part of the link, a content control's its value.
                builder.open(child, keeps_edge_spaces=True)
                self._add(builder, child)
                builder.close()
            elif fields.is_number_field(child) and self._add_number(builder, child):
                continue
            else:  # a deletion's field characters begin or end a field (run_parts)
                self.field_depth = fields.read_depth_after(run_parts(child, dialect), self.field_depth)
                builder.add_atom(node=child, parts_words=child.tag in dialect.breaks,  # a slide's a:br
                                 range_edge=range_edge(child), shown=shown_text(child, self.hiding),
                                 ends_sentence=fields.numbers_caption(child))  # a simple field's: a caption's number

    def _layers(self, run: etree._Element | None) -> list[etree._Element]:
        """The run properties that give ``run`` its look, weakest first (formatting.shows_on_spaces):
        in a Word document, its styles' before its own (word_styles.WordStyles.layers)."""
        if self.styles is not None:
            return self.styles.layers(run, self.paragraph)
        properties = None if run is None else run.find(self.dialect.properties)
        return [] if properties is None else [properties]

    def _children(self, container: etree._Element) -> list[etree._Element]:
        """``container``'s children as they are read: a complex field whose result the model reads
        (attnmt.documents.fields) as the simple field it stands for."""
        read = []
        for child in fields_complex.as_read(container, self.field_depth, self.dialect):
            if isinstance(child, fields_complex.ComplexField):
                stand_in = child.stand_in()
                self.complex_fields[stand_in] = child
                for copied, original in zip(stand_in, child.result, strict=True):
                    self.originals.update(zip(copied.iter(), original.iter(), strict=True))
                child = stand_in
            read.append(child)
        return read

    def _kept_whole(self, builder: FlatBuilder, node: etree._Element) -> bool:
        """Whether a run of a formatting of its own, or a container, is one atom, and if so adds it:
        where the model would read nothing of it (a note's reference, a field's result, a picture)
        or it is a marker (markers.is_marker_text: a symbol, a check box, apart from the words; a link's ``[3]``,
        markers.is_reference; a superscript ``¹²``, markers.is_note_number), or code (_is_code: ``ls -l /tmp`` in
        Courier New).  As a mark around atoms alone it lost the spaces it had; as one around a symbol, "[3]" or "¹²",
        the model dropped it and the formatting went onto its words.  A link field alone in a container is its words.
        A direction override or embedding (``w:bdo``, ``w:dir``), or a run its own properties say is right to left
        (``w:rtl``, as Word writes a Hebrew quote), around letters all written against the source's direction
        (language.written_against: Hebrew in English) is a passage in another language: translated, the Hebrew was
        lost, and German words were drawn right to left."""
        parts = list(fields_complex.parts_as_read(node, self.field_depth, self.dialect))
        shown, depth = self._shown(parts)
        note, code, before = self._is_note(node), bool(shown.strip()) and self._is_code(node), builder.text[-1:]
        cited = (is_reference(shown) and self.dialect.is_link(node)) or (  # a link's "[3]", a typed note's "¹²"
            is_note_number(shown, before) and is_raised(node, self.dialect, self._layers))
        other = (node.tag in DIRECTIONS or says_rtl(node)) and self.source_lang is not None and written_against(
            shown, self.source_lang)
        if shown and not (note or code or cited or other or self._label_alone(builder, node)
                          or is_marker_text(shown, before, self._text_after(node))):
            return False
        self.field_depth = depth
        parts_words = any(part.tag in self.dialect.breaks for part in parts) or (
            not note and bool(shown.strip()) and not is_stop(shown)) or (
            note and shown != shown.strip() and not builder.text[-1:].isspace())  # "A man" + " (Anna) " + "walks."
        builder.add_atom(node=node, parts_words=parts_words, hidden=note,  # a note hidden by its style shows no text
                         ends_sentence=any(part.tag in FIELD_SEPARATORS or fields.numbers_caption(part)
                                           for part in parts),
                         shown="" if note else shown_text(node, self.hiding))
        return True

    def _add_number(self, builder: FlatBuilder, field: etree._Element) -> bool:
        """Whether a field whose result is a number (fields.is_number_field: ``See page {PAGEREF}4{} for a man.``) is
        read as that number, and if so adds it: a mark kept whole (Mark.kept_whole), written back as it came over the
        model's copy of the number.  An atom, the model read "See page for a man." and the field went where its
        neighbours' words did.  One among no words (fields.amid_words) or raised (a note's number) stays an atom."""
        runs, stood_for = list(field.iter(self.dialect.run)), self.complex_fields.get(field)
        after = fields.result_text(*fields_complex.siblings_after(field if stood_for is None else stood_for.closing))
        if not fields.amid_words(field.get(w("instr"), ""), builder.text, after) or all(
                script_kind(self._layers(run)) == "sup" for run in runs):
            return False
        builder.open(field)
        builder.marks[-1].kept_whole = True
        builder.add_text(fields.result_text(field))
        builder.close()
        return True

    def _is_note(self, node: etree._Element) -> bool:
        """Whether a run, or a container, is hidden text (an editor's note) in a paragraph a reader
        sees words of: kept whole, as written, where alignment puts it.  As a mark over the words
        aligned to its own, a poor alignment let it take the translation's visible words with it."""
        runs = list(text_runs(node, self.dialect))
        return self.shows_words and bool(runs) and all(is_hidden(run, self.dialect, self.hiding) for run in runs)

    def _is_code(self, node: etree._Element) -> bool:
        """Whether a run, or each run with text in a container, is code: a code style's, or a monospaced
        font's beside letters in another (self.prose: a paragraph all in Courier is words)."""
        looks = [self.code_look(run) for run in text_runs(node, self.dialect)]
        return bool(looks) and all(styled or (monospaced and self.prose) for styled, monospaced in looks)

    def code_look(self, run: etree._Element) -> tuple[bool, bool]:
        """(styled, monospaced): ``run``'s look as code (word_styles.WordStyles.code_look; else its own properties')."""
        return (self.styles.code_look(run, self.paragraph) if self.styles is not None
                else (has_no_words(self._layers(run), run) or in_symbol_font(self._layers(run)),
                      is_monospaced(font_of(self._layers(run)))))

    def _shown(self, parts: Sequence[etree._Element]) -> tuple[str, int]:
        """What the model reads of run ``parts`` (their text outside fields), and the complex fields open after them."""
        shown, depth = "", self.field_depth
        for part in parts:
            if part.tag == w("fldChar"):
                depth = fields.read_depth_after([part], depth)
            elif part.tag == self.dialect.text and not depth:
                shown += self.dialect.text_of(part)
            elif part.tag == self.dialect.hyphen and not depth:
                shown += "-"
            elif part.tag == RUBY and not depth:  # its base's words (_add_ruby)
                shown += "".join(map(self.dialect.text_of, part.iterfind("w:rubyBase//w:t", {"w": W})))
        return shown, depth

    def _text_after(self, node: etree._Element) -> str:
        """The first character a reader sees after ``node`` in its container ("" where none; after a
        complex field's stand-in, after the field's end)."""
        field = self.complex_fields.get(node)
        for following in (field.closing if field is not None else node).itersiblings():
            for part in run_parts(following, self.dialect):
                if part.tag in self.dialect.breaks:
                    return " "
                if part.tag == self.dialect.text and self.dialect.text_of(part):
                    return self.dialect.text_of(part)[:1]
        return ""

    def _words_after(self, run: etree._Element) -> str:
        """The text of the runs after ``run`` in its container (after a complex field's stand-in, after the field's
        end): the value after a field's name in a run of its own ("Ingredients:" in bold, then " flour, eggs"),
        translated alone as a text line's is (list_marks)."""
        field = self.complex_fields.get(run)
        return "".join(map(self.dialect.text_of, (part for following in (field.closing if field else run).itersiblings()
                                                  for part in following.iter(self.dialect.text))))

    def _label_alone(self, builder: FlatBuilder, node: etree._Element) -> bool:
        """Whether ``node`` holds a speaker's label alone at its paragraph's start (ooxml_labels.label_alone)."""
        return not builder.text.strip() and label_alone(node, self.dialect, self.speakers)

    def _add_run(self, builder: FlatBuilder, run: etree._Element, parts: Iterable[etree._Element]) -> None:
        parts = [part for part in parts if part.tag != self.dialect.properties]
        for k, part in enumerate(parts):
            if part.tag == w("fldChar"):
                self.field_depth = fields.read_depth_after([part], self.field_depth)
            if part.tag == self.dialect.text and not self.field_depth:
                if k and parts[k - 1].tag == self.dialect.text:
                    continue  # read with the text element before it (_joined_text)
                text = fields.after_caption_separator(builder, self._joined_text(parts[k:]))  # "1: A dog": ": " apart
                if self.value_kept:
                    builder.add_atom(literal=text)
                elif builder.text.strip():
                    builder.add_text(text)
                else:  # a list's mark and a speaker's label typed at its start kept, as a text line's (a cell's
                    # "- apples\n- pears": list_lines); a field's name set apart too
                    after, apart = self._words_after(run), own_look(run, self.dialect)
                    text = after_list_mark(builder, text)
                    builder.add_text(after_speaker_label(builder, text, self.speakers, after, apart))
                    self.value_kept = value_kept(text, after, self.speakers, apart)
            elif part.tag == self.dialect.hyphen and not self.field_depth and self._next_hyphen_in_word():
                builder.add_text("-")  # the hyphen the model knows (NFKC makes U+2011 one it has never seen)
                self.hyphens.append(len(builder.text) - 1)
            elif part.tag == RUBY and not self.field_depth:
                self._add_ruby(builder, part)
            else:
                builder.add_atom(node=part, parts_words=part.tag in self.dialect.breaks,
                                 ends_sentence=part.tag in FIELD_SEPARATORS or fields.numbers_caption(part),
                                 shown="" if part.tag == self.dialect.text and fields.in_field_code(part)
                                 else shown_text(part, self.hiding))  # a nested field's result in a code: none
                self.run_atoms.add(part)

    def _joined_text(self, parts: Sequence[etree._Element]) -> str:
        """The text of ``parts``' first, a text element, and of those right after it, as one text: runs of one look
        merged hold one each (a LibreOffice file's ``“`` and ``A dog runs,” she said.``), whose quote, read a text at a
        time, went to the model as words (word_quotes)."""
        return "".join(map(self.dialect.text_of, takewhile(lambda part: part.tag == self.dialect.text, parts)))

    def _add_ruby(self, builder: FlatBuilder, ruby: etree._Element) -> None:
        """A ruby: a mark over its base's runs (``w:rubyBase``, read as a container's), written again inside the
        run that holds it (ParagraphWriter._ruby).  Its properties and annotation (``w:rubyPr``, ``w:rt``) are not
        read: kept whole as one atom, the base was left untranslated and the model read neither, and the review
        showed the annotation glued to its base ("a honbook")."""
        builder.open(ruby, keeps_edge_spaces=True)
        base = ruby.find(RUBY_BASE)
        if base is not None:
            merge_runs(base, self.dialect)
            self._add(builder, base)
        builder.close()

    def _next_hyphen_in_word(self) -> bool:
        self.hyphens_seen += 1
        return self.hyphens_seen - 1 not in self.loose_hyphens

