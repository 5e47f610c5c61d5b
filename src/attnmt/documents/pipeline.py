"""Many flat texts (blocks of a page, lines, subtitle cues) translated together.

    flat texts ─ sentences (sentencex) ─ one batched translate (+ alignments where a mark needs one) ─ place ─ nest

Every sentence of a document goes into one ``translate`` call, so a page is batched
by length exactly as a file of lines is; a sentence repeated (a menu entry, a
footer) is translated once.  Word alignments (the decoder's cross-attention,
``attnmt.inspect.align.translate_with_weights``) are read only for sentences a mark
starts, ends or sits inside, in the same batches as their search.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from attnmt.config_ranges import check_function
from attnmt.decoding.glossary import Glossary
from attnmt.decoding.protected import PLAIN_PROTECTED
from attnmt.documents.bidi import balanced, without_lost_partners
from attnmt.documents.column_gaps import with_column_gaps
from attnmt.documents.direction_controls import take_out_controls
from attnmt.documents.document_options import DEFAULT_OPTIONS, DocumentOptions, check_options
from attnmt.documents.emptied_marks import refill_emptied
from attnmt.documents.failed import in_order_where_misshapen, kept_where_empty
from attnmt.documents.flat import FlatBuilder, FlatText, Place, Placed, atom_windows, pairs
from attnmt.documents.kept_numbers import keep_lost_numbers
from attnmt.documents.kept_stops import across_kept_stops
from attnmt.documents.letterless import (
    Shown,
    fields_with_terms,
    reaches_model,
    term_weights,
    translated_line,
    with_terms,
)
from attnmt.documents.line_looks import after_set_apart_name, set_apart_names
from attnmt.documents.list_marks import add_fields, after_line_head, field_labels
from attnmt.documents.nesting import nest
from attnmt.documents.no_break_spaces import needs_alignment
from attnmt.documents.quote_forms import commas_outside, in_target_form, quotes_in_target_form
from attnmt.documents.repeats import Repeats
from attnmt.documents.sentence_marks import part_at_sentences
from attnmt.documents.sentences import sentence_spans
from attnmt.documents.short_labels import KeepingLabels, headings
from attnmt.documents.spans import Nested, Weights, place
from attnmt.documents.stop_points import stop_point
from attnmt.documents.stops import EndAtoms, kept_stops, without_added_end
from attnmt.documents.symbols import take_out_symbols
from attnmt.documents.term_links import with_term_links
from attnmt.documents.terminal_codes import CODE, LINE_CODES, add_line, written
from attnmt.documents.text_emphasis import stops_after_quotes
from attnmt.documents.text_tags import add_tagged, holds_markup, written_references
from attnmt.documents.text_units import read_text, text_written
from attnmt.documents.translator_parts import (
    check_translator,
    translated_by,
    translator_fits,
    translator_glossary,
    translator_writes,
    within_bytes,
)
from attnmt.documents.translators import Translator
from attnmt.text.speaker_labels import dialogue
from attnmt.text.tokenizer import check_text_list

if TYPE_CHECKING:  # its module loads quality estimation, which a document without a review never needs
    from attnmt.documents.review import Review


def check_inputs(translator: object, options: object, review: object = None, progress: object = None) -> None:
    """One clear error, before a document is read, for a ``translator`` without ``translate``, ``options``
    that are no DocumentOptions, a ``review`` that is no Review or a ``progress`` that is no function:
    each failed deep in the document, most once its first sentences were translated."""
    check_translator(translator)
    check_options(options)
    if review is not None:  # a review's module loads quality estimation: a document without one never needs it
        from attnmt.documents.review import check_review

        check_review(review)
    check_progress(progress)


def check_progress(progress: object) -> None:
    """One clear error for a ``progress`` that is neither None nor a function (``progress="yes"`` was a
    TypeError, "'str' object is not callable", once the first sentences were translated)."""
    check_function(progress, "progress", "progress(done, total)")


def translate_flats(flats: Sequence[FlatText], translator: Translator, options: DocumentOptions = DEFAULT_OPTIONS,
                    review: Review | None = None, sentences: Sequence[list[tuple[int, int]]] | None = None,
                    repeats: Repeats | None = None, *, empty_kept: bool = True,
                    where: str | None = None) -> list[list[str | Nested]]:
    """Each flat text translated, its marks placed and nested (attnmt.documents.spans); ``review``
    (attnmt.documents.review) assesses the sentences and lists those that need review at the
    flats' places.  ``sentences``: each flat's ``flat_sentences``, where the caller has them;
    ``repeats``: where one document is translated in several calls, what earlier calls found
    (without ``review``, which lists every place a sentence needing review has).  A sentence
    without letters, or of one letter (``reaches_model``), never goes to ``translator``: it passes
    through with its glossary's terms that stand in it replaced (``with_terms``), as it is where
    none does.  A sentence the translator answers with nothing keeps its source, with a warning
    (failed.kept_where_empty: ``where``, the file's name, then its place), but not ``empty_kept`` False: plain
    text's lines (``translate_lines``)."""
    glossary = translator_glossary(translator)
    if sentences is None:
        sentences = translator_sentences(flats, translator, options)
    sources = [flat.text[s:e] for flat, spans in zip(flats, sentences, strict=True) for s, e in spans]
    needed = [need for flat, spans in zip(flats, sentences, strict=True) for need in needs_alignment(flat, spans)]
    wanted = {i for i, need in enumerate(needed) if need}
    # A sentence repeated (a menu entry, a footer) is translated once, and weighed if any of its uses needs it.
    unique = list(dict.fromkeys(s for s in sources if reaches_model(s)))
    weighed = {sources[i] for i in wanted} | (repeats.weighed if repeats else set())
    kept = repeats.kept if repeats else {}
    todo = [s for s in unique if s not in kept]
    asked = [s in weighed for s in todo]
    texts, found = translated_by(translator, todo, asked)
    found = in_order_where_misshapen(todo, texts, found, asked, pairs(flats, sentences), where)
    # Half a pair of controls the model wrote is left out (attnmt.documents.bidi), before a review can
    # keep a sentence's source instead: the source, and a translation that is its source, stay as they are.
    texts = [text if text == source else balanced(text) for source, text in zip(todo, texts, strict=True)]
    # A term's source words go to the target term the search wrote for them, not where its forced pieces looked.
    found = [with_term_links(source, text, weights, glossary)
             for source, text, weights in zip(todo, texts, found, strict=True)]
    emptied = empty_kept and not all(map(str.strip, texts))
    placed = [] if review is None and not emptied else [
        Placed(flat.place, flat, span, window) for flat, spans in zip(flats, sentences, strict=True)
        for span, window in zip(spans, atom_windows(flat, spans), strict=True)]
    if review is not None:
        texts, found = review.check(todo, texts, found, placed)
    if emptied:
        texts, found = kept_where_empty(todo, texts, found, placed, where)  # after the review, which lists them
    translated = {s: kept[s] for s in unique if s in kept} | dict(zip(todo, zip(texts, found, strict=True),
                                                                       strict=True))
    if repeats is not None:
        repeats.done(translated)
    every = pairs(flats, sentences)
    shown = [None if s in translated else Shown.of(flat, span) for (flat, span), s in zip(every, sources, strict=True)]
    ends = [atoms for flat, spans in zip(flats, sentences, strict=True) for atoms in [EndAtoms(flat)] * len(spans)]
    translations = [in_target_form(s, without_added_end(atoms, span, translated[s][0]), options.target_lang)
                    if s in translated else with_terms(s, glossary, seen)
                    for (_, span), atoms, s, seen in zip(every, ends, sources, shown, strict=True)]
    alignments: list[Weights | None] = [
        None if i not in wanted else translated[s][1] if s in translated else term_weights(s, glossary, seen)
        for i, (s, seen) in enumerate(zip(sources, shown, strict=True))]
    results, first = [], 0
    for flat, spans in zip(flats, sentences, strict=True):
        stop_point()  # a deleted job stops between the blocks its marks are placed in
        last = first + len(spans)
        # A kept sentence gives up half a pair that its neighbour's translation lost the other half of.
        outputs, weights = without_lost_partners(flat.text, spans, translations[first:last], alignments[first:last])
        # A mark over a sentence end whose words went apart is written once in each sentence (sentence_marks).
        parted = part_at_sentences(flat, spans, outputs, weights)
        placement = place(parted.flat, spans, outputs, weights)
        content = nest(parted.flat, placement)
        # a link over digits the model dropped is not left empty, nor one whose words a sibling link's word holds
        refill_emptied(parted.flat, placement.text, content, placement.merged)
        keep_lost_numbers(parted.flat, placement.text, content)  # <data>1,200</data> the model lost
        results.append(parted.renumber(content))
        first = last
    return results


def flat_sentences(flats: Sequence[FlatText], options: DocumentOptions, glossary: Glossary | None = None,
                   fits: Callable[[str], bool] | None = None, writes: Callable[[str], bool] | None = None,
                   *, parted: bool = True) -> list[list[tuple[int, int]]]:
    """Each flat text's sentences, (start, end) in its text, as ``options`` split them, read with
    the stops its atoms show (``kept_stops``), none ending inside a term of ``glossary`` where the
    sentence so joined ``fits`` the model (the translator's: ``translator_glossary``, ``translator_fits``),
    and none longer than ``fits``: parted at clauses (sentences.fitting_parts), but by ``within_bytes``, the
    guess for a translator that says nothing of its model, which reads what it is given as it chooses.
    First, in place, the bidirectional controls inside a line (attnmt.documents.direction_controls) and
    the symbols the model's vocabulary cannot write (``writes``: ``translator_writes``) are taken out of
    each flat text as atoms (attnmt.documents.symbols), but for those in a term of
    ``glossary``, which it translates: every split comes here.  Not ``parted``, none is parted: a
    translation's sentences, which ``fits``, the limit on what the model reads, does not bound."""
    if writes is not None:
        terms = (lambda text: [(s, e) for s, e, _ in glossary.found_in(text)]) if glossary else None
        for flat in flats:
            take_out_controls(flat)  # no model writes them back
            take_out_symbols(flat, writes, terms)
    reads = None if fits is within_bytes or not parted else fits
    return [across_kept_stops(flat, sentence_spans(flat.text, options.source_lang, options.split, flat.breaks,
                                                   kept_stops(flat), glossary, fits, reads, flat.line_ends), reads)
            for flat in flats]


def translator_sentences(flats: Sequence[FlatText], translator: Translator,
                         options: DocumentOptions) -> list[list[tuple[int, int]]]:
    """``flat_sentences`` with ``translator``'s glossary, fits and writes: the sentences
    ``translate_flats`` sends it, for a caller that must know them first (office, subtitles)."""
    return flat_sentences(flats, options, translator_glossary(translator), translator_fits(translator),
                          translator_writes(translator))


def flat_line(line: str, protected: re.Pattern[str] = PLAIN_PROTECTED, codes: re.Pattern[str] = CODE,
              speakers: frozenset[str] = frozenset(), references: bool = False) -> FlatText:
    """A line of plain text: its spacing kept, URLs, e-mail addresses, file names and a program's placeholders
    protected (what ``protected`` matches: PLAIN_PROTECTED), a terminal's escape codes kept around their words
    (terminal_codes.add_line; ``codes``: LINE_CODES, a text line's, keeps its control characters too); a tab or a
    line break inside it (U+2028, a form feed, ...) ends a sentence, and stays where it was, as does a column's gap of
    spaces (attnmt.documents.column_gaps); a list's mark at its
    start, or after such a tab or break, is kept whole there, and so is a speaker's label after it or in its place
    (``ANNA:``, ``Q:``, or the ``speakers`` of the dialogue the line is of: attnmt.documents.list_marks); a field's
    name there (``BENEFITS:``, or one a look sets apart, ``<b>WARNING:</b>``: attnmt.documents.line_looks) and a
    sound's description (``[LAUGHS]``) are each a sentence of their own; Markdown's
    emphasis is an element around its words (attnmt.documents.text_emphasis: ``**A dog** runs``), and so is HTML's
    inline element, its tags as written (attnmt.documents.text_tags: ``A <b>red</b> hat``); with ``references``, a
    line that holds such an element has its character references read (``&amp;`` as "&"), for a writer that writes
    them again (text_tags.written_references: translate_lines)."""
    builder = FlatBuilder(collapse=False, fields=True, protected=protected)
    tagged = partial(add_tagged, add_text=partial(add_fields, speakers=speakers),
                     references=references and holds_markup(line))
    add_line(builder, after_set_apart_name(builder, after_line_head(builder, line, speakers), speakers), codes, tagged)
    return with_column_gaps(builder.build())


def translate_lines(lines: Sequence[str], translator: Translator, options: DocumentOptions = DEFAULT_OPTIONS,
                    review: Review | None = None, first_line: int = 1, *, empty_kept: bool = False,
                    places: Sequence[Place] | None = None) -> list[str]:
    """Plain text lines, each split into sentences (unless options.split is false), URLs and
    e-mail addresses kept as they are; one output line per input line (the first is line
    ``first_line`` of its file, for ``review``; or each line's place in an archive, ``places``: a
    text of an office file that no paragraph holds, a formula's result literal).  A line without
    letters, one of only spaces or tabs too, or of one letter (``A``, ``(b)``:
    letterless.reaches_model), comes out exactly as it was, but for the terms of the translator's
    glossary that stand in a field of it
    (``fields_with_terms``: a term spans no tab), its soft hyphens too, which a line with letters
    loses with its words (FlatBuilder.add_text), as a ``--input-format jsonl`` line keeps them; a
    line whose sentences all came back empty comes out
    as its tabs alone, not as the spaces between them (" " for "A dog. A cat."): a tab parts
    fields, and a row without it would lose its columns ("Name:\\tJohn Smith" gives "\\t"): a line is the
    model's output, whose empty translation ``attnmt translate`` flags.  ``empty_kept``: such a sentence
    keeps its source instead, with a warning, as a document's does (a text file's, attnmt.documents.files).
    Only the lines the model is given become flat texts: the others (a file of blank lines, of
    ``-`` list marks) cost no sentence split, mark placement or bidi pass each.  ConfigError for one str
    of ``lines`` (translated a character a line) and the arguments ``check_inputs`` refuses."""
    check_text_list(lines, "lines")
    check_inputs(translator, options, review)
    glossary = translator_glossary(translator)
    given = [reaches_model(line) for line in lines]
    where = places or [Place(None, number) for number in range(first_line, first_line + len(lines))]
    speakers = dialogue(lines)  # "Anna:" where "Anna:" and "Tom:" take turns, kept as "ANNA:" is
    names = field_labels(lines, speakers) | set_apart_names(lines, speakers)  # "<b>WARNING:</b>" too
    translator = KeepingLabels(translator, headings(lines), names, options.target_lang, descriptions=True)
    flats = [replace(flat_line(line, codes=LINE_CODES, speakers=speakers, references=True), place=place)
             for place, line, model in zip(where, lines, given, strict=True) if model]
    for flat in flats:
        quotes_in_target_form(flat, options.target_lang)  # She said "hi" -> Sie sagte „hallo“
    commas = commas_outside(options.target_lang)  # "It works," he said -> „Es geht“, sagte er
    references = [written_references(line, PLAIN_PROTECTED) for line, model in zip(lines, given, strict=True) if model]
    texts = iter([written(flat, stops_after_quotes(flat, content, commas), written_as) for flat, content, written_as in
                  zip(flats, translate_flats(flats, translator, options, review, empty_kept=empty_kept), references,
                      strict=True)])
    return [translated_line(line, next(texts), glossary) if model else fields_with_terms(line, glossary)
            for line, model in zip(lines, given, strict=True)]


def translate_paragraphs(texts: Sequence[str], translator: Translator,
                         options: DocumentOptions = DEFAULT_OPTIONS) -> list[str]:
    """Plain texts of one or more lines (``\\n``, ``\\r\\n``) each, read as a text file's lines are
    (``read_text``: a hard-wrapped paragraph whole, filled again to its width, an e-mail's headers kept) and
    translated as ``translate_lines`` translates a line (split into sentences, all sentences in one
    ``translator`` call); one output per text, its line endings kept.  The server translates plain text so
    (attnmt.documents.paragraphs)."""
    read = [read_text(text, options.rewrap) for text in texts]
    translated = iter(translate_lines([text for units, _ in read for text in units.texts], translator, options))
    return [text_written(units, endings, [next(translated) for _ in units.texts]) for units, endings in read]


def paragraph_sentences(text: str, options: DocumentOptions = DEFAULT_OPTIONS, glossary: Glossary | None = None,
                        fits: Callable[[str], bool] | None = None, writes: Callable[[str], bool] | None = None,
                        *, parted: bool = True) -> list[str]:
    """The sentences of a plain text that ``translate_paragraphs`` gives a translator with
    ``glossary`` and ``fits``, in order: each line's sentences that have letters (the rest passes
    through, but for the glossary's terms that stand in it: ``with_terms``), none ending inside a
    term where the sentence so joined fits the model, and, where ``parted``, none longer (``flat_sentences``)."""
    return with_letters(paragraph_spans(text, options, glossary, fits, writes, parted=parted))


def paragraph_spans(text: str, options: DocumentOptions = DEFAULT_OPTIONS, glossary: Glossary | None = None,
                    fits: Callable[[str], bool] | None = None, writes: Callable[[str], bool] | None = None,
                    *, parted: bool = True) -> list[tuple[FlatText, tuple[int, int]]]:
    """(its line's flat text, its span) of every sentence of a plain text, in order, letters or
    none: each line split as ``translate_lines`` splits it (``flat_sentences``; a line's URLs and
    e-mail addresses, its only atoms, show no stop).  Split once, it gives both the sentences a
    translator is given (``with_letters``) and those that pass through.  The text is read as
    ``translate_paragraphs`` reads it (``read_text``): a hard-wrapped paragraph's sentences run over its lines."""
    lines = read_text(text, options.rewrap)[0].texts
    flats = [flat_line(line, codes=LINE_CODES, speakers=dialogue(lines), references=True) for line in lines]
    return pairs(flats, flat_sentences(flats, options, glossary, fits, writes, parted=parted))


def with_letters(sentences: Sequence[tuple[FlatText, tuple[int, int]]]) -> list[str]:
    """The text of each of ``sentences`` (flat text, span) that has letters, more than one: those a
    translator is given (``reaches_model``)."""
    return [sentence for flat, (s, e) in sentences if reaches_model(sentence := flat.text[s:e])]
