"""A short label the model garbled keeps its source: ``<img alt="Logo">`` came back ``alt="Zwei Geschäfts"``, a Word
caption's label "Figure" "Auf einem Arzt".

A model trained on sentences (the demo's, on Multi30k's captions) reads a word or two alone as the start of a
caption, and writes one: "Logo" -> "Zwei Geschäfts", "Search" -> "In einem Auss", "Close" -> "In einem Restaurant",
"Table" -> "In einem Lebensmittelgeschäft".  In running text its neighbours carry such a word; a label stands alone,
where a screen reader reads it in place of a picture or a button or a browser shows it as a tip or in an empty
field.  Left in the source's language, a reader still understands it.

A label is a text of at most ``SHORT`` words that stands alone: a page's ``alt``, ``title``, ``placeholder`` or
``aria-label`` (attnmt.documents.short_attributes), an office file's alt text line or a Word caption's label, which
goes to the model alone before its number field (attnmt.documents.office_labels).  Its translation is taken only
where the model finds it plausible: its translator's ``plausibility`` (ModelTranslator.plausibility, the geometric
mean of its words' probabilities, its end left out: attnmt.decoding.garbled_labels.plausibility_of) at ``FLOOR`` or
over, judged as it is written: without the full stop the model added, which its source lacks.  Under it,
``KeepingLabels`` answers the label with itself, its words aligned in order, and notes it (``kept``: a page's
attribute then stays as written and its element says the source's language). A translator without a plausibility (a
user's own, translations already found) has its labels taken as they come, and so does a label holding one of its
glossary's terms: the user's word.  A label that is one term and nothing else is written as the glossary's target
term ("Figure" -> "Abbildung": the demo model wrote "Ein Arzt in einem Abbildung", the term inside the sentence it
made of the label).

A caption's label that is one of Word's three English ones (Figure, Table, Equation) is written as the target
language's Word writes it (``captions``: attnmt.documents.caption_labels, Abbildung, Tabelle, Gleichung for German),
a glossary's term for it first; a label a document's author typed ("Plate", "Chart", "Exhibit") is judged as any.
A numbered part's heading, a field's name or a label, is written alike ("Chapter 3" -> "Kapitel 3":
``numbered_heading``).

``FLOOR`` was set at 0.3 on exp(mean log-prob) of a translation's pieces and its end, measured with the demo model
on 81 labels of web pages and captions and on 90 of office files (1 and 2 good ones lost, 55 of 61 and 50 of 63 bad
ones kept out).  That end is how likely the model finds the translation to end there, where a caption's model
expects a verb: "Children" -> "Kinder" (its word 0.93, its end 0.07) was 0.26, "People" -> "Leute" 0.25, both kept
in English.  Its words alone at the same floor, on four sets of labels judged by hand (headers, headings, buttons,
menu items, product names, nouns alone, an adjective and a noun; benchmarks/experiments/short_labels_labelled.py),
lose fewer good ones and keep out more garbled ones in each: 3 -> 1 of 14 good ones lost and 40 -> 42 of 46 bad ones
kept out; 0 -> 0 of 9 and 35 -> 38 of 41; 2 -> 1 of 12 and 81 -> 81 of 91; on a set written after the choice, 1 -> 0
of 13 and 52 -> 55 of 62 (benchmarks/results/short_labels_labelled.txt).  Into German, a translation that is no
label's is kept out too, however likely its words (attnmt.decoding.label_phrases: a verb added, "Dog" -> "Ein Hund
schwimmt", 0.50; an article and a noun of two numbers, "A small cat" -> "Eine kleine Katzen", 0.64; a word said
twice): garbled ones kept out 42 -> 45 of 46, 38 -> 39 of 41, 81 -> 88 of 91, 55 -> 61 of 62, and 60 -> 67 of 72
on a fifth set written after, no good one more lost.  A German plural alone is read after a number too, as a caption's
model writes one (garbled_labels.labels_plausibility: "Red shoes" -> "Rote Schuhe" 0.06, after "Zwei" 0.46): good
ones lost 2 -> 0, 5 -> 4 and 1 -> 0 on three sets, no garbled one more taken.  Still taken: a noun whose form shows
no gender after an article of another ("A white boat" -> "Ein weißer Boot", 0.70; "Der Frau", "Ein kleine Hund"
are kept out: attnmt.decoding.label_gender), a caption with no verb ("Blue hat" -> "Ein Arzt mit Hut"), an
adjective dropped ("A busy market" -> "Ein Markt").  Still lost: a bare plural the model finds unlikely after a
number too ("BIKES" -> "FAHRRÄDER", 0.29)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from lxml import etree

from attnmt.decoding.garbled_labels import article_added, garbled, value_written
from attnmt.decoding.glossary import Glossary
from attnmt.decoding.sentence_edges import PAIRS
from attnmt.documents.flat import FlatText
from attnmt.documents.links import local_name
from attnmt.documents.list_marks import set_apart_field
from attnmt.documents.spans import Weights
from attnmt.documents.translator_parts import (
    checked_answer,
    translator_glossary,
    translator_plausibility,
    translator_rewritten,
)
from attnmt.documents.translators import Wrapper
from attnmt.text.list_marks import LIST_MARK
from attnmt.text.numbered_parts import COLONS, heading_alone, numbered_label, numbered_part
from attnmt.text.speaker_labels import BRACKETED

SHORT = 3  # words: "Search the site" is a label; "A dog runs on the beach" a caption the model reads as one
SENTENCE_ENDS = (".", "!", "?", "…", "。", "！", "？")  # a sentence's last mark, of which a label has none
EMPHASIS = frozenset({"b", "strong", "i", "em", "u"})  # what sets a label apart on its line (line_labels)
# What may close a sentence after its last mark: “A dog runs.” and (A dog runs.) are sentences too.
CLOSERS = "".join(dict.fromkeys(PAIRS.values()))


@dataclass
class KeepingLabels(Wrapper):
    """A Translator that answers each of ``labels`` and ``names`` (sentences as the pipeline sends them, stripped)
    its wrapped translator finds implausible (under FLOOR) with the label itself, and notes it in ``kept``; a field's
    name (``names``: a text line's, a cue's, a page's or a paragraph's) too where its translation opens with an
    article the name lacks (garbled_labels.article_added: "SIGNAL" -> "EIN SCHILD"); and any sentence that is a
    count or a measure in words alone whose translation lost it (garbled_labels.value_written: a field's value or a
    cell, "Three." -> "Drei Kerle."), whatever its translator; a count alone in one word is answered with its word in
    ``language``, the target's where known ("Drei.").  Each of ``captions`` (a caption's label -> the target
    language's Word's own: caption_labels.own_labels) is answered with its own label, where no term of the glossary
    is the label alone."""

    labels: frozenset[str] = frozenset()
    names: frozenset[str] = frozenset()
    language: str | None = None  # the target language, a count alone is written in (count_values.count_in)
    captions: Mapping[str, str] = field(default_factory=dict)
    kept: set[str] = field(default_factory=set)  # the labels answered with themselves
    descriptions: bool = False  # whether a sound's description alone is judged too (``description_alone``)

    def translate(self, sentences: list[str], weighed: list[bool]) -> tuple[list[str], list[Weights | None]]:
        texts, weights = checked_answer(self.translator, sentences, weighed)
        plausibility, glossary = translator_plausibility(self.translator), translator_glossary(self.translator)
        rewritten = []  # the labels given the glossary's term or their source: not the model's translation
        for i, sentence in enumerate(sentences):
            term = whole_term(sentence, glossary) if sentence.strip() in self.labels else None
            term = term or self.captions.get(sentence.strip())  # Word's own "Abbildung" for "Figure"
            if sentence.strip() in self.labels | self.names:  # "Chapter 3" -> "Kapitel 3", a field's name
                term = term or numbered_heading(sentence.strip(), glossary, self.language)
            if term is not None:  # the user's word for the label, not the model's sentence around it
                texts[i], weights[i] = term, None
                rewritten.append(i)
        judged = [i for i, sentence in enumerate(sentences) if plausibility is not None and (
                  sentence.strip() in self.labels | self.names or self.descriptions and description_alone(sentence))
                  and not (glossary and glossary.matches(sentence)) and i not in rewritten]
        kept = [] if plausibility is None or not judged else garbled(
            plausibility, [inside(sentences[i]) for i in judged], [inside(texts[i]) for i in judged])
        kept = [keep or (sentences[i].strip() in self.names and article_added(sentences[i], texts[i]))
                for i, keep in zip(judged, kept, strict=True)]
        lost = written_values(sentences, texts, glossary, self.language) | {
            i: sentences[i] for i, keep in zip(judged, kept, strict=True) if keep}
        for i, text in sorted(lost.items()):
            texts[i], weights[i] = text, None  # None: aligned in order (translator_parts.translated_by)
            if text == sentences[i]:
                self.kept.add(sentences[i].strip())
            rewritten.append(i)
        assessing = translator_rewritten(self.translator)
        if assessing is not None and rewritten:  # a review shows the quality of what the document holds
            assessing([sentences[i] for i in rewritten], [texts[i] for i in rewritten])
        return texts, weights


def description_alone(sentence: str) -> bool:
    """Whether ``sentence`` is a sound's description alone, in brackets ("[MUSIC]", "(sighs)", "[door slams]"): the
    demo model wrote one as a caption it made up ("[EINE BAND SPIELT GITARRE]", "(EIN BEREITET SICH)").  Judged as a
    label (by its words: ``inside``), 38 of 40 such descriptions of subtitles for the deaf and hard of hearing kept
    their source with the demo model (judged by hand, 2026-12-07); the 2 taken were wrong too ("[water splashing]" ->
    "[Ein Wasser]", "[baby crying]" -> "[Ein Baby lächelt]"), and the one near right, "[children laughing]" ->
    "[Kinder lächeln]", kept its source, which a reader still understands."""
    return re.fullmatch(BRACKETED, sentence.strip()) is not None


def inside(text: str) -> str:
    """``text``'s words inside the brackets around it all ("[MUSIC]" -> "MUSIC", "[Ein Wasser.]" -> "Ein Wasser."),
    as a label's plausibility reads them; ``text`` as it is where none are."""
    stripped = text.strip()
    return stripped[1:-1] if re.fullmatch(BRACKETED, stripped) else text


def written_values(sentences: Sequence[str], texts: Sequence[str], glossary: Glossary | None,
                   language: str | None) -> dict[int, str]:
    """Each of ``sentences`` that is a count or a measure in words alone whose translation in ``texts`` lost it,
    with its source, and each that is a count alone in one word, with its word in ``language``
    (garbled_labels.value_written: "Three." came back "Drei Kerle.", "Twelve" "Es"; now "Drei.", "Zwölf"), none
    holding a term of ``glossary``: the user's word."""
    found = {}
    for i, (sentence, text) in enumerate(zip(sentences, texts, strict=True)):
        written = value_written(sentence.strip(), text.strip(), language)
        if written != text.strip() and not (glossary and glossary.matches(sentence)):
            found[i] = written
    return found


def whole_term(label: str, glossary: Glossary | None) -> str | None:
    """The target term of ``glossary`` where ``label`` is one of its terms and nothing else: the model read "Figure"
    (Figure -> Abbildung) as a sentence's start and wrote "Ein Arzt in einem Abbildung" around the term."""
    found = glossary.found_in(label.strip()) if glossary else []
    return found[0][2] if len(found) == 1 and found[0][:2] == (0, len(label.strip())) else None


def numbered_heading(name: str, glossary: Glossary | None, language: str | None) -> str | None:
    """``name``, a numbered part's heading ("Chapter 3"), written in ``language`` (numbered_parts.numbered_label:
    "Kapitel 3"), its word as ``glossary``'s term for it where it has one; None for any other name."""
    found = numbered_part(name.rstrip(COLONS).rstrip())
    return numbered_label(name, language, whole_term(found[0], glossary) if found else None)


def headings(lines: Sequence[str]) -> frozenset[str]:
    """The ``lines`` of text that are a numbered part's heading alone, after a list's mark too ("- Lesson 5"),
    stripped, a colon after it or none ("Act III", "Part iv:": numbered_parts.heading_alone), which
    ``KeepingLabels`` writes in the target language's word as a field's name is ("Akt III", "Teil iv:"): read as a
    sentence, the demo model wrote "Volume 2" as "Zwei Frauen", "Lesson 5" as "5", the word lost, and "Act III" as
    "Ein Paar rennt über den Schnee"."""
    bare = [line[mark.end("mark"):] if (mark := LIST_MARK.match(line)) else line for line in lines]
    return frozenset(line.strip() for line in bare if heading_alone(line))


def alone(sentences: Sequence[str]) -> bool:
    """Whether a block's ``sentences`` (those with words) are one short sentence with no mark that ends a sentence:
    a column's header or a table's cell ("Price" came back "Es ist", "Total" "Ein Coma"), a heading
    ("Introduction": "Amm Ste"), a button, a menu's link.  "A cat sleeps." is a sentence, in quotes too ('“A cat
    sleeps.”', whose translation the demo model's was judged as a label's and lost), and so is a short one beside
    others, which its neighbours carry."""
    return (len(sentences) == 1 and 0 < len(sentences[0].split()) <= SHORT
            and not sentences[0].rstrip().rstrip(CLOSERS).endswith(SENTENCE_ENDS))


def keep_sources(labels: Sequence[tuple[FlatText, list[str]]], kept: set[str]) -> None:
    """Each of ``labels`` (short_attributes.label_sentences, office_labels.alone_blocks) whose sentences were all
    ``kept`` (KeepingLabels.kept) marked as keeping its source, written as it was (FlatText.source_kept)."""
    for flat, sentences in labels:
        if sentences and all(sentence in kept for sentence in sentences):
            flat.source_kept = True


def keep_whole_sources(flats: Sequence[FlatText], sentences: Sequence[Sequence[tuple[int, int]]],
                       kept: set[str]) -> None:
    """Each of ``flats`` (its sentences' spans in ``sentences``) whose every sentence was ``kept`` (KeepingLabels.
    kept) marked as keeping its source (``keep_sources``): "<p>SIGNAL: 3 bars</p>", a field's name the model garbled
    ("EIN SCHILD") and a measure it lost ("Drei weiblichen"), is still in the source's language, and says so where its
    page or document now says the target's, as a block --below-quality source kept does."""
    keep_sources([(flat, [flat.text[start:end].strip() for start, end in spans])
                  for flat, spans in zip(flats, sentences, strict=True)], kept)


def line_labels(flats: Sequence[FlatText], sentences: Sequence[Sequence[tuple[int, int]]]) -> frozenset[str]:
    """The labels that ``flats`` open with in bold or italics on a line of their own (``sentences``: each flat's
    spans), stripped: a page's ``<p><strong>Note</strong><br>Some text.</p>``, a sentence of its own before its line
    break, a few words (``SHORT``) with no stop, as Markdown's ``**Note**`` over its text's line is
    (markdown_github.LABEL).  Such a label the model garbles alone as a field's name (the demo model wrote "Note" as
    "Dieser Bauarbeiter machen"), so it keeps its source where it does."""
    found = set()
    for flat, spans in zip(flats, sentences, strict=True):
        start, end = spans[0] if spans else (0, 0)
        sentence = flat.text[start:end].strip()
        if not sentence or len(sentence.split()) > SHORT or sentence.endswith(SENTENCE_ENDS) \
                or flat.text[:start].strip():
            continue
        first = start + len(flat.text[start:end]) - len(flat.text[start:end].lstrip())
        around = any((mark.start, mark.end) == (first, first + len(sentence)) and is_emphasis(mark.node)
                     for mark in flat.marks if not mark.atom)
        line_break = next((mark.start for mark in flat.marks if mark.atom and mark.line_break and mark.start >= end),
                          None)
        if around and line_break is not None and not flat.text[end:line_break].strip():
            found.add(sentence)
    return frozenset(found)


def is_emphasis(node: object) -> bool:
    """Whether ``node`` is an HTML element that sets its words apart (EMPHASIS: ``<b>``, ``<strong>``, ...)."""
    return isinstance(node, etree._Element) and isinstance(node.tag, str) and local_name(node.tag).lower() in EMPHASIS


def field_sentences(flats: Sequence[FlatText], sentences: Sequence[Sequence[tuple[int, int]]]) -> frozenset[str]:
    """The names of fields that ``flats`` open with, each a sentence of its own before its colon (an atom), stripped
    (``sentences``: each flat's spans): a page's ``<p><b>Benefits:</b> Free parking.</p>``, a Word paragraph's bold
    "Benefits:", as a text line's (attnmt.documents.list_marks.field_labels), read by the one rule
    (attnmt.text.speaker_labels.field_name, its look setting it apart: list_marks.set_apart_field).  Such a name is
    a short label the model garbles alone (the demo model wrote "Benefits" as "Ein Dema"), so it keeps its source
    where it does."""
    found = set()
    for flat, spans in zip(flats, sentences, strict=True):
        start, end = spans[0] if spans else (0, 0)
        # its colon: after the element's close too, an empty atom ("<b>Side Effects</b>: nausea")
        colon = next((mark.literal for mark in flat.marks if mark.atom and mark.start == end and mark.literal), "")
        sentence = flat.text[start:end].strip()
        shown = f"{sentence}{colon}{flat.text[end:]}"
        if sentence and colon.lstrip().startswith((":", "：")) and set_apart_field(shown, len(sentence)):
            found.add(sentence)
    return frozenset(found)
