"""HTML and XML, parsed with lxml, translated block by block with their inline markup.

Why lxml: one library parses both HTML (libxml2's forgiving HTML parser, which
repairs unclosed tags and stray ``<`` as browsers do) and XML, in C (a 1 MB page
parses in milliseconds, where html5lib, pure Python, is two orders slower), and
serialises a tree back with entities escaped and comments kept.  selectolax is as
fast but reads HTML only and does not expose text and tails for rebuilding runs.

A *block* is one of HTML's block elements (``<p>``, ``<li>``, ``<td>``, ``<title>``, ...:
attnmt.documents.html_layout.BLOCKS), an element with a block inside it, or an unknown or custom one
(``<ion-item>``) that touches a word or an element beside it; every other element (``<b>``, a
``<my-tag>`` in running text) is inline, as browsers show it.  A block's *runs* (text, inline elements
and their tails, up to the next block child) are each one flat text (attnmt.documents.spans):
inline elements become marks, ``<br>``, ``<img>``, ``<code>``, an element around nothing,
comments and anything with ``translate="no"`` become atoms kept as they are (an ``<input>`` or a ``<textarea>`` ends its
sentence; a ``<select>``'s options are translated each on its own).  ``<script>``, ``<style>``,
``<pre>``, ``<code>``, ``<textarea>`` blocks and ``translate="no"`` blocks are not
touched, but for what says ``translate="yes"`` again inside them.  The values of the
``title``, ``alt``, ``placeholder`` and ``aria-label`` attributes are translated as
sentences of their own, and so are ``value``, on a button's ``<input>`` only, and ``content``, on a
``<meta>`` of text only, a page's description (attnmt.documents.text_attributes).
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Callable, Iterator, Sequence

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.cdata_sections import cdata_text
from attnmt.documents.elements import Vocabulary, says_no, says_yes
from attnmt.documents.flat import FlatText, Mark, Place, parted
from attnmt.documents.kept_code import KEPT_IN_TEXT
from attnmt.documents.kept_passages import kept_holders, kept_passages, reads_as_target, say_bare_kept
from attnmt.documents.language import (
    inherited_language,
    say_kept,
    say_translated,
    say_translated_inline,
    say_written_direction,
)
from attnmt.documents.letterless import Shown, needs_translation
from attnmt.documents.markup_lines import run_line
from attnmt.documents.markup_runs import Run, block_start, flatten, leading_space, rebuild, runs, written_entities
from attnmt.documents.markup_text import is_command_block, quotes_in_form, quotes_placed
from attnmt.documents.markup_trails import attribute_line
from attnmt.documents.page_root import finish_xhtml, page_language, restate_page, shows_words
from attnmt.documents.page_writer import VALUE_CODE, character_references, held_value
from attnmt.documents.pages import Parsed, is_comment, local_name, parse
from attnmt.documents.pipeline import (
    DEFAULT_OPTIONS,
    DocumentOptions,
    check_inputs,
    translate_flats,
    translator_glossary,
    translator_sentences,
)
from attnmt.documents.review import Review
from attnmt.documents.short_attributes import label_sentences
from attnmt.documents.short_labels import KeepingLabels, field_sentences, keep_sources, keep_whole_sources, line_labels
from attnmt.documents.spans import Nested
from attnmt.documents.svg_lines import joined_lines
from attnmt.documents.terminal_codes import written as line_written
from attnmt.documents.text_attributes import translatable_attributes
from attnmt.documents.translators import ForXml, Translator
from attnmt.documents.xml_code import holds_markup
from attnmt.documents.xml_dialects import dialect_vocabulary, embedded_vocabulary
from attnmt.text.speaker_labels import dialogue
from attnmt.text.tokenizer import check_text_list

# What passes through a translated attribute as written: a template's code (``title="Hi <?= $name ?>"``) too.
ATTRIBUTE_KEPT = re.compile(f"{VALUE_CODE.pattern}|{KEPT_IN_TEXT.pattern}")


def reading_order(root: etree._Element, found: Sequence[Run], attributes: Sequence[tuple[etree._Element, str]]
                  ) -> list[int]:
    """The runs and attributes under ``root`` as a reader meets them: indices into ``found`` followed by
    ``attributes``.  A run stands where its text starts (its block's opening, or the end of the element
    whose tail it is); an attribute where its element opens, before that element's own text, so that an
    ``<img alt>`` comes between the paragraphs around its figure, not after the page's last block; that
    of an element in a run's text (``<abbr title>``, an ``<img alt>`` in a sentence) before that run,
    whose sentences hold the element's text.  The runs keep their order; the attributes are placed
    among them."""
    rank: dict[tuple[str, etree._Element], int] = {}  # each node's opening and closing, comments' too
    pending = [("start", root)]
    while pending:
        event, node = pending.pop()
        rank[event, node] = len(rank)
        if event == "start":
            pending += [("end", node), *(("start", child) for child in reversed(node))]
    runs_at = [(rank["start", run.parent] if run.owner is run.parent else rank["end", run.owner], 1, i)
               for i, run in enumerate(found)]
    holder = {child: runs_at[i][0] for i, run in enumerate(found) for child in run.children}
    parents = {run.parent for run in found}

    def opening(node: etree._Element) -> int:
        for above in (node, *node.iterancestors()):
            if above in holder:
                return holder[above]
            if above in parents:
                break  # a block's, or one of its own runs' (translate="yes" in a kept atom)
        return rank["start", node]

    attributes_at = sorted((opening(node), 0, len(found) + j) for j, (node, _) in enumerate(attributes))
    return [i for _, _, i in heapq.merge(runs_at, attributes_at, key=lambda at: at[:2])]


class TreeJob:
    """The runs and listed attributes under one root: their flat texts in reading order (an attribute's
    text where its element stands: ``reading_order``), then, given the translated contents (in the
    same order), the tree changed in place; with a target language, the blocks of translated
    text, the elements around them and the inline elements in their text say it
    (attnmt.documents.language).  A block whose sentences all kept their source text
    (--below-quality source: FlatText.source_kept) is no translated text, and keeps the language
    it states, or states it itself where it would inherit the target's (language.say_kept); one
    with some sentences translated says the target's.
    ``glossary``: the translator's; a run or attribute without letters is translated only where one
    of its terms stands in it, and takes it without the model (letterless.with_terms), as a line of
    plain text does."""

    states_language = True  # whether its elements state their language as HTML's do (lang, xml:lang, dir)

    def __init__(self, root: etree._Element, vocabulary: Vocabulary, options: DocumentOptions,
                 glossary: Glossary | None, as_sent: bool = False) -> None:
        self.svg_lines = [] if vocabulary.xml else joined_lines(root)  # a <text>'s lines read as one sentence
        found = [run for run in runs(root, vocabulary) if run.children or needs_translation(run.lead, glossary)]
        # the names in title case a page's dialogue takes turns in ("Anna:" / "Tom:")
        speakers = dialogue(block_start(run).lstrip() for run in found if run.owner is run.parent)
        flats = [flatten(run, vocabulary, speakers) for run in found]
        # A run with no word to translate (spacing, a <style>, an <img>), or a page's shell command alone, stays
        # exactly as it was.
        self.runs = [(run, flat) for run, flat in zip(found, flats, strict=True)
                     if needs_translation(flat.text, glossary, Shown.of(flat))
                     and (vocabulary.xml or not is_command_block(run.lead, not run.children))]
        pictures = {mark.node for _, flat in self.runs for mark in flat.marks if mark.initial}  # alts read as letters
        self.attributes = [(node, name) for node, name in translatable_attributes(
            root, vocabulary, options.attributes, glossary) if not (node in pictures and name == "alt")]
        self.order = reading_order(root, [run for run, _ in self.runs], self.attributes)
        # made once: Review.check marks the very flat texts it is handed (FlatText.source_kept)
        texts = [flat for _, flat in self.runs] + [attribute_line(node, name, ATTRIBUTE_KEPT)
                                                   for node, name in self.attributes]
        self.texts = [texts[i] for i in self.order]
        self.entities = [written_entities(run, vocabulary) for run, _ in self.runs]
        # XML's attributes mean what its vocabulary says (XLIFF's xml:lang is its source's language)
        self.language = options.target_lang if self.states_language and not vocabulary.xml else None
        self.vocabulary, self.root, self.source_lang = vocabulary, root, options.source_lang
        self.as_sent = as_sent  # a page given back as it came: its root states the target only where it stated one
        vocabulary.forget()  # what it kept of this tree: finish changes the tree, and the next job walks another

    def flats(self) -> list[FlatText]:
        return list(self.texts)

    def translated(self) -> bool:
        """Whether anything of it was translated, once finished: not every text kept its source
        (FlatText.source_kept), so that its page's root says the target language (page_language);
        a job with no text says it, as a page with none always did, but where its page shows words, all kept
        from translation (page_root.shows_words)."""
        return not (self.texts or shows_words(self.root)) or not all(flat.source_kept for flat in self.texts)

    def lines(self) -> list[int]:
        """The line of the parsed text each flat text comes from, in the order of ``flats``: that
        of its first word (a block's text, or a tail: ``</div>`` then words on the next line:
        run_line), or of the element that holds it (an attribute)."""
        lines = [run_line(run) for run, _ in self.runs] + [node.sourceline or 1 for node, _ in self.attributes]
        return [lines[i] for i in self.order]

    def blocks(self) -> Iterator[etree._Element]:
        """The block of each translated run: the element whose language the translation is in
        (attnmt.documents.language.say_translated); not that of a run whose sentences all kept
        their source (FlatText.source_kept), which is still in the source's language."""
        return (run.parent for run, flat in self.runs if not flat.source_kept)

    def finish(self, results: Sequence[Sequence[str | Nested]]) -> None:
        """The tree changed in place by ``results``, the contents of ``flats`` in their order."""
        contents: list[Sequence[str | Nested]] = list(results)
        for i, content in zip(self.order, results, strict=True):
            contents[i] = content  # the runs' first, then the attributes'
        bare = self.say_languages()
        self.write_contents(contents[:len(self.runs)], contents[len(self.runs):])
        for lines in self.svg_lines:  # its translation laid over them
            lines.spread()
        if self.language:  # written back as it came, a kept run's bare text is wrapped in a <span> saying its own
            say_bare_kept(bare, self.source_lang)

    def say_languages(self) -> list[tuple[Run, str]]:
        """With a target language, the translated blocks and their inline elements (translated_marks)
        say it, and the kept ones what they were in, and so does an element whose attributes all
        kept their source (kept_attributes), and a passage kept as written (kept_passages); the kept runs of bare
        text beside translated blocks, with the language each was read in, are given back (say_bare_kept)."""
        if not self.language:
            return []
        translated = dict.fromkeys(self.blocks())  # in order, once each
        # a kept block holding a translated one (<li>text<ul><li>…) stays unsaid: stated, its
        # language would be the translated block's too, the part that matters
        holding = {node for block in translated for node in block.iterancestors()}
        kept = {holder: None for run, flat in self.runs if flat.source_kept
                for holder in kept_holders(run, flat, translated, holding)}
        bare = [(run, inherited_language(run.parent)) for run, flat in self.runs if flat.source_kept
                and not run.children and not kept_holders(run, flat, translated, holding)]
        kept.update(dict.fromkeys(self.kept_attributes()))
        kept.update(dict.fromkeys(kept_passages(self.root, self.vocabulary)))  # translate="no", a <del>
        # outermost first: a kept link inside a kept breadcrumb then finds the source's language said above it
        before = [(block, inherited_language(block)) for block in sorted(kept, key=depth)]
        say_translated(translated, self.language, self.vocabulary.is_untranslated)
        say_translated_inline(self.translated_marks(), self.language)
        page_says = page_language(self.root, self.language, self.translated(), self.as_sent) is not None
        say_kept(before, self.language, self.source_lang, page_says)
        return [(run, lang) for run, lang in bare if reads_as_target(run.parent, self.language, page_says)]

    def translated_marks(self) -> Iterator[etree._Element]:
        """The inline elements of the translated runs (blocks), their words translated with them
        (around_translated_words), as the source has them."""
        return (mark.node for _, flat in self.runs for mark in flat.marks if around_translated_words(flat, mark))

    def kept_attributes(self) -> list[etree._Element]:
        """The elements whose listed attributes all kept their source (--below-quality source: an
        ``<img alt>``) and that hold no text, nor an element with a translated attribute: stating
        the source's language there (say_kept) labels those attributes alone.  One with text inside
        (``<abbr title>WHO</abbr>``) is left as it is: its language would re-label that text."""
        kept: dict[etree._Element, bool] = {}
        for (node, _), flat in zip(self.attributes, self.attribute_flats(), strict=True):
            kept[node] = kept.get(node, True) and flat.source_kept
        translated = {node for node, all_kept in kept.items() if not all_kept}
        return [node for node, all_kept in kept.items() if all_kept and not "".join(node.itertext()).strip()
                and not any(inside in translated for inside in node.iterdescendants())]

    def attribute_flats(self) -> list[FlatText]:
        """The flat texts of ``attributes``, in their order (``texts`` is in reading order)."""
        at = dict(zip(self.order, self.texts, strict=True))
        return [at[len(self.runs) + j] for j in range(len(self.attributes))]

    def write_contents(self, runs: Sequence[Sequence[str | Nested]],
                       attributes: Sequence[Sequence[str | Nested]]) -> None:
        """Each run rebuilt from its translated contents, each attribute set to its text; with a target
        language, the inline elements written around translated words say the direction of the words
        they now hold (language.say_written_direction)."""
        for (node, name), flat, content in zip(self.attributes, self.attribute_flats(), attributes, strict=True):
            if not flat.source_kept:  # else as written (short_attributes; a review's source_below)
                # first: atoms (an <img>) are copied with their attributes; a quote's or an emphasis' marks read
                # around their words (pipeline.flat_line: text_emphasis) written back around their translation
                node.set(name, held_value(line_written(flat, content)))
        # Last first: a run inside a translate="no" atom (one of markup_runs.said_yes's) is rebuilt, and
        # its directions said, before the run holding the atom copies it.
        for (run, flat), content, entities in reversed(list(zip(self.runs, runs, self.entities, strict=True))):
            written = rebuild(run, flat, content, entities, self.vocabulary.xml,
                              self.vocabulary.written_in(run.parent, flat))
            if self.language:
                say_written_direction(node for mark, node in written if around_translated_words(flat, flat.marks[mark]))


def depth(node: etree._Element) -> int:
    return sum(1 for _ in node.iterancestors())


def around_translated_words(flat: FlatText, mark: Mark) -> bool:
    """Whether ``mark`` is an inline element of a translated run (block), its words translated with
    it: not an atom, kept whole (a passage in its own language: ``<i lang="fr">``), nor one whose
    words all lie in sentences that kept their source (FlatText.keeps_source)."""
    return (not flat.source_kept and not mark.atom and isinstance(mark.node, etree._Element)
            and not flat.keeps_source(mark.start, mark.end))


class EmbeddedJob(TreeJob):
    """An XML element's text that is HTML (xml_code.holds_markup: an RSS item's description, escaped
    or in a CDATA section), translated as a fragment of HTML, with its markup, and written back as it
    came: escaped text stays escaped, a CDATA section stays one (but where the translation holds
    "]]>", which would end it), the spaces around it where they were (a line break and indentation
    before ``<![CDATA[``, one after ``]]>``: cdata_sections.cdata_text)."""

    def __init__(self, element: etree._Element, page: Parsed, options: DocumentOptions,
                 glossary: Glossary | None, vocabulary: Vocabulary) -> None:
        super().__init__(page.root, vocabulary, options, glossary)
        self.element, self.page = element, page
        # its encoding is the XML file's around it: a <meta charset> added told nothing, and changed Qt
        # Designer's "<html><head/><body>" into "<html><head><meta charset="utf-8"></head><body>"
        page.keeps_declaration = True
        self.cdata = cdata_text(element)

    def lines(self) -> list[int]:
        return [self.element.sourceline or 1] * (len(self.runs) + len(self.attributes))

    def finish(self, results: Sequence[Sequence[str | Nested]]) -> None:
        super().finish(results)
        # XML holds no control character: one in the HTML is a reference decoded there (``&amp;#1;``), and is written so
        text = character_references(self.page.serialise(page_language(self.page.root, self.language,
                                                                      self.translated())).strip())
        if self.cdata is not None:
            self.cdata.write(self.element, text)
        else:
            written = self.element.text or ""
            self.element.text = leading_space(written) + text + written[len(written.rstrip()):]


def embedded_jobs(root: etree._Element, options: DocumentOptions, where: str,
                  glossary: Glossary | None, vocabulary: Vocabulary | None = None,
                  holds: Callable[[etree._Element], bool] = holds_markup) -> list[EmbeddedJob]:
    """A job for each element of an XML tree whose text is HTML (``holds``: holds_markup, or the tree's
    dialect's), outside what says ``translate="no"`` (but inside what says ``translate="yes"`` again), read
    with ``vocabulary`` (embedded_job's)."""
    jobs = []
    pending = [(root, True)]
    while pending:
        node, translated = pending.pop()
        translated = (translated or says_yes(node)) and not says_no(node)
        job = embedded_job(node, options, where, glossary, vocabulary) if translated and holds(node) else None
        jobs.extend([] if job is None else [job])
        pending.extend((child, translated) for child in reversed(node) if not is_comment(child))
    return jobs


def embedded_job(node: etree._Element, options: DocumentOptions, where: str, glossary: Glossary | None,
                 vocabulary: Vocabulary | None = None) -> EmbeddedJob | None:
    """The job for an element whose text is HTML (None where there is nothing to parse), read with
    ``vocabulary`` (HTML's, by default; an XLIFF source's protects its placeholders too); a repair
    of its markup is warned of naming ``where`` and the element's line."""
    page = parse(node.text or "", False, f"{where}, the HTML in <{local_name(node)}> at line {node.sourceline}")
    vocabulary = vocabulary or Vocabulary(source_lang=options.source_lang)
    return None if page is None else EmbeddedJob(node, page, options, glossary, vocabulary)


def translate_trees(jobs: Sequence[TreeJob], translator: Translator, options: DocumentOptions,
                    review: Review | None = None, first_lines: Sequence[int] = ()) -> None:
    """Every job's texts translated in one batched pass, then each tree changed in place;
    first_lines[k]: the line of its file that job k's parsed text starts on (for ``review``)."""
    flats = [job.flats() for job in jobs]
    for job, group, first in zip(jobs, flats, first_lines, strict=False):
        for flat, line in zip(group, job.lines(), strict=True):
            flat.place = Place(None, first + line - 1)
    every = [flat for group in flats for flat in group]
    quotes_in_form([flat for job, group in zip(jobs, flats, strict=True) if not job.vocabulary.xml for flat in group],
                   options.target_lang)  # a page's She said "hi" -> Sie sagte „hallo“, as a text line's
    sentences = translator_sentences(every, translator, options)
    # a short label the model garbled keeps its source (attnmt.documents.short_labels)
    labels = label_sentences(jobs, sentences)
    names = field_sentences(every, sentences)  # "<b>Benefits:</b>" garbled keeps its source, as a text line's
    names |= line_labels(every, sentences)  # and "<strong>Note</strong><br>", as Markdown's "**Note**" over a line
    keeping = KeepingLabels(translator, frozenset(sentence for _, each in labels for sentence in each), names,
                            options.target_lang)
    results = parted(translate_flats(every, ForXml(keeping), options, review, sentences), flats)
    results = [quotes_placed(group, result, options.target_lang) for group, result in zip(flats, results, strict=True)]
    keep_sources(labels, keeping.kept)
    keep_whole_sources(every, sentences, keeping.kept)  # "<p>SIGNAL: 3 bars</p>" kept whole says it is English
    for job, run in zip(jobs, results, strict=True):
        job.finish(run)


def translate_markup(texts: Sequence[str], translator: Translator, options: DocumentOptions = DEFAULT_OPTIONS,
                     xml: bool = False, where: str = "input", unit: str = "text", review: Review | None = None,
                     first_line: int = 1, xhtml: bool = False, keep_declaration: bool = False,
                     as_sent: bool = False) -> list[str]:
    """HTML documents or fragments (or XML ones with ``xml``), translated together in one batched
    pass; always well-formed output.  Blank texts (and pages of nothing but a DOCTYPE) come back
    as they are.  A repair warning names ``where`` and, among several texts, the ``unit`` and its
    number ("line 3"); DataError for a text that cannot be translated (``parse``).  For ``review``
    (attnmt.documents.review): several texts are lines ``first_line``, ``first_line`` + 1, ... of
    one file; one text is a whole file.  ``xhtml``: XHTML pages (an .xhtml file), parsed and
    written as XML, as an EPUB's pages are, and read as HTML.  ``keep_declaration``: pages.Parsed's.  ``as_sent``:
    pages given back as they came but for their text (attnmt.documents.page_root), their declaration kept too.
    ConfigError for one str of ``texts`` (parsed a character a text) and the arguments
    pipeline.check_inputs refuses, before any text is parsed."""
    check_text_list(texts)
    check_inputs(translator, options, review)
    whole = len(texts) == 1 and unit == "text"
    parsed = [parse(text, xml or xhtml, f"{where}, {unit} {i + 1}" if len(texts) > 1 else where, whole)
              if text.strip() else None for i, text in enumerate(texts)]
    vocabulary = Vocabulary(xml and not xhtml, options.source_lang)
    jobs: list[TreeJob] = []
    lines = []
    glossary = translator_glossary(translator)
    for i, p in enumerate(parsed):
        if p is not None:  # an element's HTML first: the tree's job copies the element as it finishes
            p.keeps_declaration = keep_declaration or as_sent
            html = embedded_vocabulary(p.root, options.source_lang)
            read = dialect_vocabulary(p.root, options.source_lang) if vocabulary.xml else vocabulary
            read.fields = read.fields or options.lines_split  # a line break ends its sentence
            if vocabulary.xml:  # the elements a request says end its sentences, or never do (DeepL's)
                read.splitting, read.joining = options.splitting_tags, options.non_splitting_tags
            inner = embedded_jobs(p.root, options, where, glossary, html, read.holds_markup) if vocabulary.xml else []
            jobs += [*inner, TreeJob(p.root, read, options, glossary, as_sent)]
            lines += [first_line + i if len(texts) > 1 else p.first_line] * (len(inner) + 1)
    translate_trees(jobs, translator, options, review, lines)
    pages = iter(job for job in jobs if not isinstance(job, EmbeddedJob))  # each parsed text's own, in order
    languages = [None if p is None else page_language(p.root, options.target_lang, next(pages).translated(), as_sent)
                 for p in parsed]
    if as_sent:  # in the attributes it stated it in: Parsed.say_language would add a lang beside an xml:lang
        for p, lang in zip(parsed, languages, strict=True):
            if p is not None and p.document and lang:
                restate_page(p.root, lang)
        languages = [None] * len(parsed)
    if xhtml:
        for p, lang in zip(parsed, languages, strict=True):
            if p is not None:
                finish_xhtml(p.root, lang, keep_declaration)
    return [text if p is None else p.serialise(lang) for text, p, lang in zip(texts, parsed, languages, strict=True)]

