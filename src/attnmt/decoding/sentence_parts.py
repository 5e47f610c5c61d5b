"""A sentence given to ``translate`` cut at its tabs and line breaks (``PART_BREAK``), as ``attnmt translate`` cuts a
text line (attnmt.documents.pipeline.flat_line: a tab or a line break ends a sentence, and stays where it was) and a
JSONL text (attnmt.cli.jsonl_breaks): the parts are translated apart and joined back by what stood between them, the
same characters with the spaces beside them.  Read whole, the model took a tab or a break for a space: the demo model
wrote "Fecheme Folne." for "Name:\\tJohn Smith", the tab and the field lost, where a text line gave each field's
translation with the tab between them.  So is a sentence after the sound descriptions in brackets it opens with, after
its list mark and speaker's label ("[LAUGHS] Yes, of course.", "ANNA: (sighs) I know."), as a text line's are
(attnmt.documents.list_marks.after_description) and a subtitle cue's (attnmt.documents.cue_labels): read whole, the
demo model wrote "[LAUGHS] Yes, of course." as "Häner bewäntliche U-Fahrerfahrer.", the brackets lost.

Each part's translation ends as the part does (``Parts.ended``), as a text line's sentence does.  Every part has its
sentence's glossary; its prefix starts the translation of its first part with letters (of its
first part, where none has).  An n-best list's k-th hypothesis joins each part's k-th best (a part's last where it
has fewer), its score and log_prob the parts' sums, its assessment theirs joined (attnmt.decoding.quality_joined).
A sentence without a tab or a break is one part, translated as it was.  A field's name cut from its value
keeps its source where its translation came back garbled, in the best translation (``labels_kept``) and in each
hypothesis of an n-best list (``hypotheses_kept``), as a text line's does."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import TYPE_CHECKING, TypeVar

from attnmt.decoding.failed_sentences import SentencesFailed
from attnmt.decoding.garbled_labels import garbled_fields, labels_plausibility, value_written
from attnmt.decoding.glossary import Glossary
from attnmt.decoding.inputs import Guides, TextCodec
from attnmt.decoding.label_phrases import known_words
from attnmt.decoding.quality_language import UNKNOWN
from attnmt.decoding.unread import copy_assessment
from attnmt.text.field_names import kept_value
from attnmt.text.invisible import blank
from attnmt.text.letters import reaches_model
from attnmt.text.list_marks import LIST_MARK
from attnmt.text.numbered_parts import COLONS, heading_alone, numbered_label, numbered_part
from attnmt.text.sentence_ends import ended_as_source
from attnmt.text.speaker_labels import BRACKETED, descriptions_end, dialogue, field_name

if TYPE_CHECKING:  # quality imports translate, which imports this module
    from attnmt.decoding.quality import Assessment, Assessor
    from attnmt.decoding.translate import Translation
    from attnmt.model import Transformer

# What str.splitlines breaks a line at (its CRLF is a CR and an LF), as a character class's body: LF, CR, VT, FF,
# the file, group and record separators FS, GS and RS, NEL, and the line and paragraph separators.  Every
# reader's line end is this one (attnmt.documents.flat's LINE_END and FIELD_END, review.BLANKS, xliff's codes).
LINE_ENDS = r"\n\r\v\f\x1c-\x1e\x85\u2028\u2029"
# What ends a field, and so a sentence, in a text line: a tab, the unit separator US, a line's end.
FIELD_ENDS = rf"\t\x1f{LINE_ENDS}"
# One of them (CRLF as one) with the spaces beside it (whitespace that ends nothing: a space, U+00A0): a part's
# translation has none at its ends, so they are kept with it.
PART_BREAK = re.compile(rf"[^\S{FIELD_ENDS}]*(?:\r\n|[{FIELD_ENDS}])[^\S{FIELD_ENDS}]*")

T = TypeVar("T", str, list)  # a part's output: its translation, or its hypotheses
V = TypeVar("V")


@dataclass
class Parts:
    """Sentences cut at their tabs and line breaks: every sentence's parts in order (``texts``), each sentence's
    breaks (one fewer than its parts) and the sentence of each part (``owners``)."""

    sentences: list[str]
    texts: list[str]
    breaks: list[list[str]]
    owners: list[int]

    def named(self, guides: Guides) -> list[int]:
        """The parts that are a field's name the model writes, with their ``guides`` (``named_parts``)."""
        return named_parts(self.texts, self.breaks, guides)

    def kept(self, model: Transformer, tokenizer: TextCodec, guides: Guides, outputs: list[str]) -> list[str]:
        """``outputs``, one per part, each garbled name's and each lost count's given its source (``labels_kept``)."""
        return labels_kept(model, tokenizer, self.texts, self.named(guides), outputs, free_parts(self.texts, guides),
                           self.headings(guides, model.target_lang))

    def kept_hypotheses(self, model: Transformer, tokenizer: TextCodec, guides: Guides,
                        outputs: list[list[Translation]], quality: Assessor | None) -> list[list[Translation]]:
        """``outputs``, each part's hypotheses, as ``kept`` keeps the best (``hypotheses_kept``)."""
        return hypotheses_kept(model, tokenizer, self.texts, self.named(guides), outputs, quality,
                               free_parts(self.texts, guides), self.headings(guides, model.target_lang))

    def headings(self, guides: Guides, language: str | None) -> dict[int, str]:
        """The field names and the parts alone that are a numbered part's heading ("Act III", "Part iv:", as a text
        line's are: attnmt.documents.short_labels.headings), none started by the prefix, written in ``language``
        (``numbered``)."""
        named = set(label_parts(self.breaks)) | {k for k, text in enumerate(self.texts) if heading_alone(text)}
        parts = [k for k in sorted(named) if guides.prefixes[k] is None]
        return numbered([self.texts[k] for k in parts], parts, [guides.glossaries[k] for k in parts], language)

    def grouped(self, values: Sequence[V]) -> list[list[V]]:
        """``values``, one per part, as a list per sentence."""
        groups: list[list[V]] = [[] for _ in self.sentences]
        for owner, value in zip(self.owners, values, strict=True):
            groups[owner].append(value)
        return groups

    def ended(self, part: int, translation: str) -> str:
        """Part ``part``'s ``translation`` ending as the part does (sentence_ends.ended_as_source), where its sentence
        was cut in several: the stop the model adds to every sentence stayed inside a description's brackets, the
        demo model's "[LAUGHS] Yes, of course." came back "[EINE LACHT.] Große Baue.", and after each field of
        "Yes\tNo".  A sentence of one part ends as its caller writes it (attnmt.documents.sentence_translate)."""
        return ended_as_source(self.texts[part], translation) if self.breaks[self.owners[part]] else translation

    def joined(self, outputs: Sequence[str]) -> list[str]:
        """Each sentence's translation: its parts' ``outputs``, each ``ended`` as its part, joined by its breaks."""
        ended = [self.ended(k, output) for k, output in enumerate(outputs)]
        return [with_breaks(each, breaks) for each, breaks in zip(self.grouped(ended), self.breaks, strict=True)]

    def joined_n_best(self, outputs: Sequence[list[Translation]], quality: Assessor | None) -> list[list[Translation]]:
        """Each sentence's hypotheses from its parts' (the module docstring), each ``ended`` as its part; ``quality``'s
        languages read the assessment of a sentence of several parts over its whole translation
        (quality_joined.read_whole)."""
        ended = [[replace(h, text=self.ended(k, h.text)) for h in each] for k, each in enumerate(outputs)]
        return [found[0] if len(found) == 1 else joined_hypotheses(sentence, breaks, found, quality)
                for sentence, breaks, found in zip(self.sentences, self.breaks, self.grouped(ended), strict=True)]

    @contextmanager
    def keeping(self, outputs: list[T], join: Callable[[list[T]], list[T]]) -> Iterator[list[T]]:
        """``outputs``, one per part; where parts fail (SentencesFailed), the SentencesFailed of their sentences,
        each left empty whole, its other parts' translations too, with the others' ``join``ed outputs."""
        try:
            yield outputs
        except SentencesFailed as failed:
            failures: dict[int, Exception] = {}
            for part, error in sorted(failed.failures.items()):
                failures.setdefault(self.owners[part], error)
            kept = SentencesFailed(failures)
            kept.outputs = [each[:0] if k in failures else each for k, each in enumerate(join(outputs))]
            raise kept from failed


def parted(sentences: Sequence[str], guides: Guides) -> tuple[Parts, Guides]:
    """``sentences`` cut into their parts (``cut``, the names of the dialogue they take turns in read as speakers'),
    and each part's glossary and prefix from its sentence's (``guides``): the prefix its first part's with
    letters."""
    parts, prefixes, speakers = Parts(list(sentences), [], [], []), [], dialogue(sentences)
    for k, sentence in enumerate(sentences):
        pieces, breaks = ([sentence], []) if blank(sentence) else cut(sentence, speakers)  # a blank one's is ""
        first = next((j for j, piece in enumerate(pieces) if reaches_model(piece)), 0)
        parts.texts += pieces
        parts.breaks.append(breaks)
        parts.owners += [k] * len(pieces)
        prefixes += [guides.prefixes[k] if j == first else None for j in range(len(pieces))]
    return parts, Guides([guides.glossaries[k] for k in parts.owners], prefixes)


def cut(sentence: str, speakers: frozenset[str] = frozenset()) -> tuple[list[str], list[str]]:
    """``sentence``'s parts and the breaks between them: its tabs and line breaks with the spaces beside them
    (``PART_BREAK``), and the spaces after the sound descriptions a part opens with, which are translated alone
    (attnmt.text.speaker_labels.descriptions_end, ``speakers`` the dialogue's: "[LAUGHS]" of "[LAUGHS] Yes.", "ANNA:
    (sighs)" of "ANNA: (sighs) I know."), and the colon and the spaces after the name of a field a part opens with,
    which is translated alone too (speaker_labels.field_name: "BENEFITS" of "BENEFITS: Free parking.", after
    descriptions too: "[MUSIC] INGREDIENTS: Flour.").  A JSONL text
    is cut so too (attnmt.cli.jsonl_breaks)."""
    spans = [found.span() for found in PART_BREAK.finditer(sentence)]
    for start, end in zip([0, *(e for _, e in spans)], [*(s for s, _ in spans), len(sentence)], strict=True):
        if at := descriptions_end(piece := sentence[start:end], speakers):  # then a field's: "[MUSIC] TIPS: ..."
            found = list(re.finditer(BRACKETED, piece[:at]))  # each alone: "[MUSIC]", "(cheering)"
            spans += [(start + one.end(), start + two.start()) for one, two in pairwise(found)
                      if not piece[one.end():two.start()].strip()]  # not a label's "(V.O.):" before them
            spans.append((start + at, start := end - len(piece[at:].lstrip(" \t"))))
            piece = sentence[start:end]
        if field := field_name(piece, speakers):
            spans.append((start + field[0], end - len(piece[field[1]:].lstrip(" \t"))))
            if kept_value(piece[:field[0]], piece[field[1]:]):  # "PREP TIME: 15 min", "TRANSLATOR: Ann Goldstein"
                spans.append((end - len(piece[field[1]:].lstrip(" \t")), end))
    spans.sort()
    edges = zip([0, *(e for _, e in spans)], [*(s for s, _ in spans), len(sentence)], strict=True)
    return [sentence[s:e] for s, e in edges], [sentence[s:e] for s, e in spans]


def label_parts(breaks: Sequence[Sequence[str]]) -> list[int]:
    """The parts, counted over all sentences cut so (each one part more than its ``breaks``), that are a field's name:
    ``cut`` parts it from its value at its colon, which opens the break after it ("BENEFITS" of "BENEFITS: Free
    parking.", its break ": ")."""
    after = [each for found in breaks for each in [*found, ""]]  # the break after each part, "" after a sentence's last
    return [k for k, each in enumerate(after) if each.strip()[:1] in (":", "：")]


def named_parts(texts: Sequence[str], breaks: Sequence[Sequence[str]], guides: Guides) -> list[int]:
    """The parts of ``texts`` (cut with ``breaks``, each sentence's) that are a field's name (``label_parts``) and the
    model's own to write: none holding a term of its glossary nor started by its prefix (``guides``, one per part),
    the user's words, taken as they came."""
    return [k for k in label_parts(breaks) if guides.prefixes[k] is None
            and not ((glossary := guides.glossaries[k]) and glossary.matches(texts[k]))]


def free_parts(texts: Sequence[str], guides: Guides) -> list[int]:
    """The parts of ``texts`` the model writes unguided: none holding a term of its glossary nor started by its
    prefix (``guides``, one per part).  Such a part that is a count or a measure in words alone keeps its source
    where its translation lost it (garbled_labels.value_lost: "Three." of "DOGS: Three." came back "Drei Kerle."), as
    a text line's does (attnmt.documents.short_labels)."""
    return [k for k, text in enumerate(texts) if guides.prefixes[k] is None
            and not ((glossary := guides.glossaries[k]) and glossary.matches(text))]


def garbled_names(model: Transformer, tokenizer: TextCodec, names: Sequence[str],
                  translations: Sequence[str]) -> list[bool]:
    """Whether each translation of each field's name in ``names`` is garbled (attnmt.decoding.garbled_labels.
    garbled_fields: its words' plausibility to the model under FLOOR, or an article its name lacks), judged as a text
    line's is, without its list mark ("Side Effects" of "- Side Effects: nausea").  The one judge of every path that
    translates a field's name alone: the best translation (``labels_kept``) and each of an n-best list
    (``hypotheses_kept``)."""
    from attnmt.decoding.quality import assess  # quality imports translate, which imports this module

    def plausibility(sources: Sequence[str], found: Sequence[str]) -> list[float | None]:
        return labels_plausibility(lambda s, t: assess(model, tokenizer, s, t), sources, found, model.target_lang,
                                   known_words(tokenizer))

    marks = [found[0] if (found := LIST_MARK.match(name)) else "" for name in names]  # kept around the translation
    return garbled_fields(plausibility, [name[len(mark):].lstrip() for name, mark in zip(names, marks, strict=True)],
                   [text.removeprefix(mark).lstrip() for text, mark in zip(translations, marks, strict=True)])


def labels_kept(model: Transformer, tokenizer: TextCodec, texts: Sequence[str], named: Sequence[int],
                outputs: list[str], free: Sequence[int] = (), headings: Mapping[int, str] | None = None) -> list[str]:
    """``outputs``, one per part of ``texts``, each field's name's (``named``: ``named_parts``) the model finds
    garbled (``garbled_names``) given its source instead, as a text line's is (attnmt.documents.short_labels): alone,
    the demo model wrote "BENEFITS" as "EIN DEMA"; and so is each count's or measure's of the parts the model wrote
    unguided (``free``: ``free_parts``) that lost it, a count alone in one word written in the target language's
    word (garbled_labels.value_written: "Three." -> "Drei."); a numbered part's heading is written in the target
    language's word (``headings``: ``numbered``, "Chapter 3" -> "Kapitel 3")."""
    kept = garbled_names(model, tokenizer, [texts[k] for k in named], [outputs[k] for k in named])
    written = {k: value_written(texts[k], outputs[k], model.target_lang) for k in free}
    sources = written | {k: texts[k] for k, keep in zip(named, kept, strict=True) if keep} | dict(headings or {})
    return [sources.get(k, output) for k, output in enumerate(outputs)]


def hypotheses_kept(model: Transformer, tokenizer: TextCodec, texts: Sequence[str], named: Sequence[int],
                    outputs: list[list[Translation]], quality: Assessor | None = None,
                    free: Sequence[int] = (), headings: Mapping[int, str] | None = None) -> list[list[Translation]]:
    """``outputs``, the hypotheses of each of ``texts``, each of a field's name's (``named``) that the model finds
    garbled (``garbled_names``), and each of a count's or a measure's that lost it (of the ``free`` parts), given its
    source instead (a count alone in one word its target word: garbled_labels.value_written), as ``labels_kept``
    gives the best translation: an n-best
    list's rank 1 is what the text output writes, and the demo model's "EIN DEMA", "AUF DIESEM DE" for "BENEFITS"
    were no better as alternatives.  Its score stays the search's; with ``quality``, its assessment is a copy's
    (attnmt.decoding.unread.copy_assessment: quality 1, no flags), as a part passed through untranslated gets: the
    model wrote none of it, and assessed as its own translation, "PREP TIME" gave its line 0.0 and ``copied``."""
    judged = [(k, j) for k in named for j in range(len(outputs[k]))]  # (part, rank) of every name's hypothesis
    found = garbled_names(model, tokenizer, [texts[k] for k, _ in judged], [outputs[k][j].text for k, j in judged])
    kept = [(k, j, text) for k in free for j, each in enumerate(outputs[k])
            if (text := value_written(texts[k], each.text, model.target_lang)) != each.text]
    kept += [(k, j, texts[k]) for (k, j), keep in zip(judged, found, strict=True) if keep]  # a name's last: its own
    headings = headings or {}  # a numbered part's heading: its target word's, in every hypothesis
    kept = [(k, j, text) for k, j, text in kept if k not in headings]
    kept += [(k, j, heading) for k, heading in headings.items() for j in range(len(outputs[k]))]
    pairs = [(texts[k], text) for k, _, text in kept]
    assessed = assessed_once(quality, model, tokenizer, pairs) if quality else [None] * len(kept)
    out = [list(each) for each in outputs]
    for (k, j, text), assessment in zip(kept, assessed, strict=True):
        out[k][j] = replace(outputs[k][j], text=text, assessment=copy_assessment(assessment))
    return out


def assessed_once(quality: Assessor, model: Transformer, tokenizer: TextCodec,
                  pairs: Sequence[tuple[str, str]]) -> list[Assessment | None]:
    """``quality``'s assessment of each (source, translation) of ``pairs``, each distinct pair read once: a name's
    source kept gives each hypothesis of an n-best list the same pair, a forced pass and its features each."""
    unique = list(dict.fromkeys(pairs))
    found = quality.assess(model, tokenizer, [s for s, _ in unique], [t for _, t in unique]) if unique else []
    table = dict(zip(unique, found, strict=True))
    return [table[pair] for pair in pairs]


def numbered(names: Sequence[str], parts: Sequence[int], glossaries: Sequence[Glossary | None],
             language: str | None) -> dict[int, str]:
    """Each of ``parts`` whose field name in ``names`` is a numbered part's heading, written in ``language``
    (attnmt.text.numbered_parts.numbered_label: "Chapter 3" -> "Kapitel 3", as a text line's is), its word as the
    part's glossary's term for it where it has one: alone, the demo model wrote such a heading as a caption it
    garbled, and made to hold a term, "Ein Mann, der 3 3 Abschnitt ist"."""
    found = {}
    for k, name, glossary in zip(parts, names, glossaries, strict=True):
        word = (numbered_part(name.rstrip().rstrip(COLONS)) or ("",))[0]
        terms = glossary.found_in(word) if word and glossary else []
        term = terms[0][2] if len(terms) == 1 and terms[0][:2] == (0, len(word)) else None
        if (text := numbered_label(name, language, term)) is not None:
            found[k] = text
    return found


def with_breaks(parts: Sequence[str], breaks: Sequence[str]) -> str:
    """A sentence's parts joined by its breaks, each where it stood."""
    return "".join(part + line_break for part, line_break in zip(parts, [*breaks, ""], strict=True))


def joined_hypotheses(sentence: str, breaks: list[str], found: list[list[Translation]],
                      quality: Assessor | None) -> list[Translation]:
    """The hypotheses of ``sentence`` from its parts' (``found``), none where no part has any (blank parts).  Two of
    them may join the same text ("BENEFITS: 12": its name's source kept in each, its count's copy the only one): the
    rules read it whole once (quality_joined.read_whole's ``earlier``)."""
    from attnmt.decoding.quality_joined import joined, read_whole  # quality imports translate, which imports this

    hypotheses: list[Translation] = []
    languages = quality.languages if quality else UNKNOWN
    for rank in range(max(map(len, found))):
        picked = [each[min(rank, len(each) - 1)] for each in found if each]
        text = with_breaks([each[min(rank, len(each) - 1)].text if each else "" for each in found], breaks)
        assessed = joined([h.assessment for h in picked])
        hypotheses.append(replace(picked[0], text=text, score=sum(h.score for h in picked),
                                  log_prob=sum(h.log_prob for h in picked),
                                  assessment=read_whole(assessed, sentence, text, languages,
                                                        [h.assessment for h in hypotheses])))
    return hypotheses
