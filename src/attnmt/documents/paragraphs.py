"""Plain text on the server, as ``attnmt translate`` reads it (which comes here too for more
than the best translation): each text's lines split into sentences (attnmt.documents.pipeline),
the sentences of every text in the batch translated together, and each text's translations
joined back with its own spacing and line breaks.

What the server says about a text of several sentences (docs/serving.md, "Paragraphs"):

- its hypotheses: the k-th joins each sentence's k-th best (a sentence's last where it has
  fewer); its score and log_prob are the sums of the sentences' (so the ranks stay in order);
- a hypothesis's alignment: each sentence's Pharaoh pairs, in order, numbering the words of
  the whole text and of the whole hypothesis (split at whitespace, as Pharaoh's are: two
  sentences with no space between share the word where they touch, a URL counts);
- a hypothesis's confidence: each sentence's [piece, probability] list, in order, each ending
  with its ``</s>``;
- the attention: one trace per sentence of the best hypothesis;
- a hypothesis's assessment, where asked: its sentences' joined (attnmt.decoding.quality_joined.joined),
  as trustworthy as its worst sentence, its word probabilities those of the whole hypothesis's
  words, split at whitespace, as the alignment's are (attnmt.documents.sentence_words.text_words).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial

from attnmt.decoding import MAX_TOKENS, Decoding
from attnmt.decoding.glossary import Glossary
from attnmt.decoding.inputs import fits_and_writes
from attnmt.decoding.quality import Assessment, Assessor
from attnmt.decoding.quality_joined import joined, read_whole
from attnmt.decoding.quality_language import UNKNOWN, Languages
from attnmt.decoding.sentence_parts import hypotheses_kept
from attnmt.decoding.translate import Translation, translate_n_best
from attnmt.decoding.unread import copy_assessment
from attnmt.documents.flat import FlatText
from attnmt.documents.letterless import Shown, reaches_model, with_terms
from attnmt.documents.list_marks import field_labels
from attnmt.documents.parted_lines import own_joined, parted_groups, parted_pairs
from attnmt.documents.pipeline import (
    DocumentOptions,
    paragraph_sentences,
    paragraph_spans,
    translate_paragraphs,
    with_letters,
)
from attnmt.documents.sentence_words import text_words, word_numbers
from attnmt.documents.spans import Weights
from attnmt.documents.text_units import read_text
from attnmt.documents.translators import FoundTranslations, ModelTranslator
from attnmt.inspect.align import pharaoh, trace_alignment, trace_weights
from attnmt.inspect.trace import PieceCodec, TranslationAttention, trace_translation
from attnmt.model import Transformer
from attnmt.text.invisible import blank
from attnmt.text.speaker_labels import dialogue


@dataclass
class Paragraph:
    """A plain text translated sentence by sentence, with each sentence's n-best."""

    text: str  # the text as given
    sentences: list[str]  # the sentences the model translated, in order (paragraph_sentences)
    found: list[list[Translation]]  # each sentence's hypotheses, best first
    hypotheses: list[Translation]  # the text's own, best first (the module docstring)

    def sentence_translations(self, rank: int) -> list[str]:
        """Each sentence's translation in the text's hypothesis ``rank``."""
        return [pick(found, rank).text if found else "" for found in self.found]

    def sentence_assessments(self, rank: int) -> list[Assessment | None]:
        """Each sentence's translation's assessment in the text's hypothesis ``rank`` (None where
        not assessed)."""
        return [pick(found, rank).assessment if found else None for found in self.found]


def pick(found: list[Translation], rank: int) -> Translation:
    return found[min(rank, len(found) - 1)]


def translate_texts(model: Transformer, tokenizer: PieceCodec, texts: Sequence[str], decoding: Decoding,
                    options: DocumentOptions, glossary: Glossary | None = None) -> list[str]:
    """The best translation of each plain text, exactly as ``attnmt translate`` gives it."""
    return translate_paragraphs(texts, ModelTranslator(model, tokenizer, decoding, glossary=glossary), options)


def translate_texts_n_best(model: Transformer, tokenizer: PieceCodec, texts: Sequence[str], decoding: Decoding,
                           options: DocumentOptions, glossary: Glossary | None = None,
                           prefix: str | None = None, max_tokens: int = MAX_TOKENS,
                           max_sentences: int | None = None, quality: Assessor | None = None) -> list[Paragraph]:
    """Each plain text's ``decoding.n_best`` hypotheses, from its sentences' (all searched in one
    batched pass, in batches as ``translate_n_best`` makes them); ``prefix`` starts the translation
    of each text's first sentence.  With ``quality``, each hypothesis gets its sentences'
    assessments joined (attnmt.decoding.quality_joined.joined); a text with no sentence to translate,
    which passes through untranslated, gets quality 1 and no flags (``copy_assessment``)."""
    fits, writes = fits_and_writes(model, tokenizer)  # as ModelTranslator's, where translate splits and keeps symbols
    sentences = [paragraph_sentences(text, options, glossary, fits, writes) for text in texts]
    keys = [[(sentence, prefix is not None and j == 0) for j, sentence in enumerate(each)] for each in sentences]
    unique = list(dict.fromkeys(key for each in keys for key in each))
    prefixes = [prefix if first else None for _, first in unique]
    found = translate_n_best(model, tokenizer, [sentence for sentence, _ in unique], decoding, max_tokens,
                             max_sentences, glossary=glossary, prefix=prefixes, quality=quality)
    found = hypotheses_kept(model, tokenizer, [sentence for sentence, _ in unique],
                            field_sentences(texts, unique, options, glossary), found, quality)
    table = dict(zip(unique, found, strict=True))
    weigh = partial(traced_weights, model, tokenizer)
    languages = quality.languages if quality else UNKNOWN  # the language rule's, read over each text whole too
    paragraphs = [paragraph(text, each, [table[key] for key in text_keys], weigh, options, glossary, fits, writes,
                            languages) for text, each, text_keys in zip(texts, sentences, keys, strict=True)]
    if quality:
        assess_passed_through(model, tokenizer, texts, paragraphs, quality)
    return paragraphs


def field_sentences(texts: Sequence[str], unique: Sequence[tuple[str, bool]], options: DocumentOptions,
                    glossary: Glossary | None) -> list[int]:
    """Which of the ``unique`` sentences (each with whether a prefix starts it) are a field's name ``texts``' lines
    open with (list_marks.field_labels, each text read as ``paragraph_spans`` reads it) that the model writes: none
    prefixed nor holding a term of ``glossary``.  A garbled one keeps its source (sentence_parts.hypotheses_kept)."""
    read = [read_text(text, options.rewrap)[0].texts for text in texts]
    labels = frozenset().union(*(field_labels(lines, dialogue(lines)) for lines in read))
    return [k for k, (sentence, prefixed) in enumerate(unique) if sentence.strip() in labels and not prefixed
            and not (glossary and glossary.matches(sentence))]


def assess_passed_through(model: Transformer, tokenizer: PieceCodec, texts: Sequence[str],
                          paragraphs: list[Paragraph], quality: Assessor) -> None:
    """In place: the one hypothesis of each text that has no sentence to translate (punctuation,
    numbers, a URL, an e-mail address) gets the assessment ``attnmt score`` gives the text and that
    hypothesis (``copy_assessment``; None for a blank text)."""
    passed = [k for k, p in enumerate(paragraphs) if not p.sentences]
    found = quality.assess(model, tokenizer, [texts[k] for k in passed],
                           [paragraphs[k].hypotheses[0].text for k in passed])
    for k, a in zip(passed, found, strict=True):
        paragraphs[k].hypotheses[0].assessment = copy_assessment(a)


def passes_through(text: str, translation: str, options: DocumentOptions, glossary: Glossary | None = None) -> bool:
    """Whether ``translation`` is ``text`` as plain text passes it through: ``text`` holds no
    sentence to translate (numbers, punctuation, URLs, e-mail addresses and file names only:
    ``paragraph_sentences``), so nothing of it reached the model, and ``translation`` is it as it is
    or, with ``glossary``, its terms replaced as translate replaces them (``2012`` ->
    ``zweitausendzwölf``: letterless.with_terms)."""
    if paragraph_sentences(text, options, glossary):
        return False
    given = translation.strip()
    return given == text.strip() or (glossary is not None and given == translate_paragraphs(
        [text], FoundTranslations({}, glossary=glossary), options)[0].strip())


def line_pairs(source: str, translation: str, options: DocumentOptions, target_lang: str,
               glossary: Glossary | None = None, fits: Callable[[str], bool] | None = None,
               writes: Callable[[str], bool] | None = None,
               own: Callable[[list[str]], Sequence[str]] | None = None) -> list[tuple[str, str]]:
    """The (source, translation) pairs a line's translation is read by, as ``attnmt translate``
    reads the line: each side's sentences (``paragraph_sentences``: URLs, e-mail addresses and file names
    taken out, split unless ``options.split`` is false; the translation's by ``target_lang``'s
    rules), pair by pair where both sides have as many and each holds the other's sentences with
    no letter (``letterless_parts``); else the line whole, as it is.  With ``glossary`` (the one
    translate had), the source's sentences with no letter are looked for with its terms, as
    translate wrote them (``2012.`` is ``zweitausendzwölf.``), and a sentence of the translation
    that is one of them is no model's sentence: ``A dog runs in the park. 2012.`` and ``Ein Hund
    rennt im Park. zweitausendzwölf.`` were read whole, where translate had read one sentence.
    Neither side's sentences end inside a term, where the sentence so joined ``fits`` the model
    (attnmt.documents.sentences.across_terms): the source's inside a source term of ``glossary``, as
    translate split it, the translation's inside a target term ("Wir lieben dich. Tschüss" split in
    two made one more sentence than its source had, and the line was read whole).  Each side is
    read without the symbols the model's vocabulary cannot ``write`` (``ModelTranslator.writes``),
    which translate took out of the source and placed in the translation: "A dog runs. 👍 A cat
    sleeps." was read by "👍 A cat sleeps." and "👍 Eine Katze schläft.", where the model had read
    and written no "👍".  A source sentence that ``fits`` parted, as translate parted it, is read
    part by part where ``own`` (the model's translations of sentences) finds its parts in the
    translation (attnmt.documents.parted_lines), else whole: the translation, parted by the source's
    limit, was read by halves that were no part's translation.  A translation of fewer sentences
    than its source that is the model's own translations of the source's sentences joined
    (``own_joined``) is read by them: the model wrote no stop in "ein hund rennt eine katze
    schläft", and translate's own 0.9994 was read whole, 0.0189."""
    target = replace(options, source_lang=target_lang)
    split = paragraph_spans(source, options, glossary, fits, writes)  # once: each split looks for the terms
    if fits and (groups := parted_groups(source, with_letters(split), options, glossary, writes)):
        whole = line_pairs(source, translation, options, target_lang, glossary, None, writes)  # nothing parted
        return (own and parted_pairs(whole, groups, own)) or whole
    parts, ours = letterless_parts(split, glossary), with_letters(split)
    alone = letterless_parts(paragraph_spans(translation, target, writes=writes))
    # The translation's sentences joined across a target term where the joined one fits, as the source's, but
    # none parted: fits is the limit on what the model reads, which no translation's length is bound by.
    theirs = without_parts(paragraph_sentences(translation, target, glossary and glossary.of_targets, fits, writes,
                                               parted=False), parts - alone)
    if (ours and len(ours) == len(theirs) and stands_in(parts, translation)
            and stands_in(alone, " ".join([source, *parts.elements()]))):
        return list(zip(ours, theirs, strict=True))
    if own and len(theirs) < len(ours) > 1 and not parts and (joined := own_joined(translation, own(ours))):
        return list(zip(ours, joined, strict=True))
    return [(source, translation)]


def without_parts(sentences: list[str], parts: Counter[str]) -> list[str]:
    """``sentences`` (those with letters) without ``parts`` (spaces collapsed), each as often as
    ``parts`` holds it: a letterless sentence translate passed through (``7.``), with a glossary's
    terms (``zweitausendzwölf.``) or of one letter, which no model wrote, whether the splitter gave
    it on its own or left it at a sentence's start or end (``ein hund rennt 1.``: the model wrote no
    full stop).  Read with the sentence, a number the model never wrote there made the line poor
    (0.003 for translate's 0.9309), and a term's word more so."""
    left = parts.copy()
    kept = []
    for sentence in sentences:
        spaced = " ".join(sentence.split())
        for part in (part for part, n in left.items() if n):
            if spaced == part or spaced.endswith(" " + part) or spaced.startswith(part + " "):
                left[part] -= 1
                sentence = (spaced.removesuffix(part) if spaced.endswith(part) else spaced.removeprefix(part)).strip()
                break
        if sentence:
            kept.append(sentence)
    return kept


def letterless_parts(sentences: Sequence[tuple[FlatText, tuple[int, int]]],
                     glossary: Glossary | None = None) -> Counter[str]:
    """The sentences with no letter or one (``reaches_model``), among a text's ``sentences``
    (``paragraph_spans``), that ``translate_paragraphs`` passes through as they are, or with
    ``glossary``'s terms (``with_terms``), which ``paragraph_sentences`` leaves out, spaces collapsed.  The model reads
    none of them: pair by pair, a translation with junk after a sentence ("rennt. 1 1 1 1 1 1",
    "rennt. ?!?!?!") scored as the translation without it."""
    return Counter(" ".join(with_terms(part, glossary, Shown.of(flat, (s, e))).split())
                   for flat, (s, e) in sentences if not reaches_model(part := flat.text[s:e]))


def stands_in(parts: Counter[str], text: str) -> bool:
    """Whether ``text`` (spaces collapsed) holds each of ``parts`` as often.  Looked for in the
    text, not among its own parts: the splitters of two languages may leave a "1." on its own in
    one and at a sentence's end in the other, where the model reads it."""
    spaced = " ".join(text.split())
    return all(spaced.count(part) >= n for part, n in parts.items())


def assess_lines(assess: Callable[[list[str], list[str]], Sequence[Assessment | None]], sources: Sequence[str],
                 translations: Sequence[str], options: DocumentOptions,
                 target_lang: str = "en", glossary: Glossary | None = None,
                 fits: Callable[[str], bool] | None = None,
                 writes: Callable[[str], bool] | None = None,
                 own: Callable[[list[str]], Sequence[str]] | None = None,
                 languages: Languages = UNKNOWN) -> list[Assessment | None]:
    """Each line's translation assessed as ``attnmt translate`` assesses its own (``attnmt
    score``): ``assess`` (quality.assess or elsewhere.assess_elsewhere, bound to a model) over
    every line's ``line_pairs`` in one call, a line of several sentences as trustworthy as its
    worst (quality_joined.joined); a line with no sentence to translate, given as it is or with
    ``glossary``'s terms replaced as translate gives it, quality 1 and no flags (``copy_assessment``);
    None where a side is ``blank``.  ``fits`` and ``writes``: the model's limit and the symbols its
    vocabulary writes, which translate split with (``line_pairs``); ``own``: the model's translations
    of sentences, which find the parts of a sentence translate parted in its translation (``line_pairs``);
    ``languages``: the language rule's, read over each line whole too (``text_assessment``)."""
    pairs = [[(s, t)] if blank(s) or blank(t) else line_pairs(s, t, options, target_lang, glossary, fits, writes, own)
             for s, t in zip(sources, translations, strict=True)]
    every = [pair for each in pairs for pair in each]
    found = iter(assess([s for s, _ in every], [t for _, t in every]))
    lines = [text_assessment([next(found) for _ in each], [t for _, t in each], translation, source, languages)
             for each, source, translation in zip(pairs, sources, translations, strict=True)]
    return [copy_assessment(a) if passes_through(s, t, options, glossary) else a
            for s, t, a in zip(sources, translations, lines, strict=True)]


def text_assessment(parts: Sequence[Assessment | None], sentences: Sequence[str], text: str, source: str,
                    languages: Languages = UNKNOWN, earlier: Sequence[Assessment | None] = ()) -> Assessment | None:
    """The Assessment of ``text``, the translation of ``source``, from those of its ``sentences`` (``parts``, in the
    order ``text`` holds them): quality_joined.joined's (one sentence's as it is), the verbatim and language rules read
    over ``source`` and ``text`` whole (quality_joined.read_whole: the sentences had no URL; ``earlier``, the text's
    hypotheses before, that read the same say it), its word probabilities those of the words of ``text``."""
    found = read_whole(parts[0] if len(parts) == 1 else joined(parts), source, text, languages, earlier)
    return found and replace(found, words=text_words(parts, sentences, text))


def traced_weights(model: Transformer, tokenizer: PieceCodec, sentence: str, translation: str) -> Weights:
    """The word weights that place a mark inside ``sentence`` on ``translation`` (one scoring pass)."""
    return trace_weights(trace_translation(model, tokenizer, sentence, target=translation, warn=False)).tolist()


def paragraph(text: str, sentences: list[str], found: list[list[Translation]],
              weigh: Callable[[str, str], Weights], options: DocumentOptions,
              glossary: Glossary | None = None, fits: Callable[[str], bool] | None = None,
              writes: Callable[[str], bool] | None = None, languages: Languages = UNKNOWN) -> Paragraph:
    """The text's hypotheses from its sentences' (a text with no sentence to translate has one:
    itself, its glossary's terms replaced, as ``translate_paragraphs`` passes it through, scored 0);
    ``glossary``: the one the sentences were searched with, whose terms letterless parts take
    (letterless.with_terms); ``fits``: the limit they were split with (``paragraph_sentences``),
    and ``writes``: the symbols the model's vocabulary writes, which were left in them (the others
    are placed by ``weigh``'s alignments, as URLs are), so that the text is split again into the
    same sentences."""
    result = Paragraph(text, sentences, found, [])
    for rank in range(max(map(len, found), default=1)):
        known = FoundTranslations({}, weigh, glossary, fits, writes)
        for sentence, translation in zip(sentences, result.sentence_translations(rank), strict=True):
            known.translations.setdefault(sentence, translation)  # a repeated sentence: its first translation
        picked = [pick(each, rank) for each in found if each]
        translated = translate_paragraphs([text], known, options)[0]
        assessed = text_assessment(result.sentence_assessments(rank), result.sentence_translations(rank), translated,
                                   text, languages, [h.assessment for h in result.hypotheses])
        result.hypotheses.append(Translation(translated, sum(t.score for t in picked), sum(t.log_prob for t in picked),
                                             assessed))
    return result


def sentence_traces(model: Transformer, tokenizer: PieceCodec, paragraph: Paragraph,
                    rank: int) -> list[TranslationAttention]:
    """One scoring pass per sentence of the text's hypothesis ``rank``."""
    return [trace_translation(model, tokenizer, sentence, target=translation, warn=False)
            for sentence, translation in zip(paragraph.sentences, paragraph.sentence_translations(rank), strict=True)]


def joined_alignment(paragraph: Paragraph, rank: int, traces: Sequence[TranslationAttention], layer: int = -1,
                     heads: Sequence[int] | None = None) -> list[tuple[int, int]]:
    """The word alignment of the text and its hypothesis ``rank``, from its sentences' ``traces``
    (``trace_alignment`` of ``layer`` and ``heads``): the pairs of ``text_pairs``."""
    return text_pairs([trace_alignment(trace, layer, heads) for trace in traces], paragraph.sentences,
                      paragraph.sentence_translations(rank), paragraph.text, paragraph.hypotheses[rank].text)


def text_pairs(found: Sequence[Sequence[tuple[int, int]]], sentences: Sequence[str], translations: Sequence[str],
               text: str, translated: str) -> list[tuple[int, int]]:
    """Each sentence's word pairs ``found`` (numbering the words of the sentence and of its
    translation), in order, as pairs of the words of the whole ``text`` and of the whole
    ``translated`` text, split at whitespace, as Pharaoh's words are.  Counting on from one
    sentence's words to the next went past the line's last word where sentences touch
    ("A dog runs.A cat sleeps.": five words, not six); a pair that two sentences both give is given once."""
    source_words, target_words = word_numbers(sentences, text), word_numbers(translations, translated)
    pairs = [(sources[s], targets[t]) for each, sources, targets in zip(found, source_words, target_words, strict=True)
             for s, t in each if s < len(sources) and t < len(targets)]
    return list(dict.fromkeys(pairs))


def joined_extras(paragraph: Paragraph, rank: int, traces: Sequence[TranslationAttention], alignment: bool,
                  confidence: bool, layer: int = -1, heads: Sequence[int] | None = None) -> dict:
    """What the text's hypothesis ``rank`` adds on request, from its sentences' traces: the
    alignment (of ``layer`` and ``heads``) and confidence of the module docstring."""
    extras: dict = {}
    if alignment:
        extras["alignment"] = pharaoh(joined_alignment(paragraph, rank, traces, layer, heads))
    if confidence:
        extras["confidence"] = [[piece, round(p, 4)] for trace in traces
                                for piece, p in trace.confidence()]
    return extras
