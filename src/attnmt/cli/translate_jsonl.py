"""``attnmt translate``'s JSONL input: each line's text one sentence (each part of it between line breaks and
tabs: attnmt.cli.jsonl_breaks), with its own glossary and prefix (attnmt.cli.lines.read_inputs),
read without the bidirectional controls and spaces at its edges (attnmt.documents.bidi.whole), which
come back around its translation where they stood, and without a terminal's codes and the symbols the
model's vocabulary cannot write, which go back into it as a text line's do (attnmt.documents.sentence_translate,
as the Python ``attnmt.translate`` reads a sentence);
a line without letters passes through, its glossary's terms replaced.  Plain-text lines are paragraphs instead
(attnmt.cli.commands.translate.paragraph_batch)."""

from __future__ import annotations

import argparse
import warnings
from collections.abc import Callable, Hashable
from dataclasses import replace
from functools import partial
from typing import TextIO, TypeVar

from attnmt.cli.lines import Alignments, Inputs
from attnmt.cli.options import batching
from attnmt.cli.translate_quality import assessor, quality_wanted
from attnmt.decoding import Decoding
from attnmt.decoding.glossary import Glossary
from attnmt.decoding.inputs import check_target_terms, sampling_with_terms
from attnmt.decoding.translate import Translation
from attnmt.errors import AttnmtWarning, DataError

T = TypeVar("T")


def line_batch(args: argparse.Namespace, model, tokenizer, options: Decoding, glossary: Glossary | None,
               read: list[str], out: TextIO, where: str, first_line: int) -> int:
    """Writes the translations of JSONL input lines first_line, first_line + 1, …, each line's text
    one sentence, with its own glossary and prefix; returns how many lines the model failed on.
    A text without letters, or of one letter, passes through as a text line's does
    (``passed_through``).  A malformed line stops the run, named (DataError): from a stream, after
    the lines before it are translated and written (attnmt.cli.lines.good_inputs_first); from a
    file, before any is."""
    from attnmt.cli.lines import good_inputs_first

    inputs, malformed = good_inputs_first(partial(checked_inputs, args, model, tokenizer, options, glossary, where),
                                          read, first_line)
    if malformed is not None and not args.streamed:
        raise malformed
    lost = translate_inputs(args, model, tokenizer, options, inputs, out, where, first_line, glossary)
    if malformed is not None:
        raise malformed
    return lost


def checked_inputs(args: argparse.Namespace, model, tokenizer, options: Decoding, glossary: Glossary | None,
                   where: str, lines: list[str], first_line: int) -> Inputs:
    """JSONL lines first_line, first_line + 1, … as Inputs (attnmt.cli.lines.read_inputs), each
    line's own prefix and glossary checked: one the model cannot write (a prefix, a target term) is
    a DataError naming its line, and so is a line's own glossary with sampling (--prefix and
    --glossary are checked before any line is read).  Checked here, a line at a time
    (good_inputs_first), a bad line is named after the lines before it are translated, as the
    search's own check of a whole batch could not."""
    from attnmt.cli.document_options import by_extension
    from attnmt.cli.lines import read_inputs
    from attnmt.decoding.term_ids import prefix_ids

    # Read as JSONL for its name alone, a text file under a .jsonl name is told how to be read as text.
    named = f"; the file is read as JSONL ({by_extension('jsonl')})" if args.format_from_extension else ""
    inputs = read_inputs(lines, where, first_line, prefix=args.prefix, not_json=named)  # each line's own glossary
    for number, own in enumerate(inputs.glossaries, start=first_line):
        if own and options.sampling:
            raise DataError(f"{where}:{number}: " + sampling_with_terms('the line\'s "glossary"', "--sampling-topk"))
    check_target_terms(tokenizer, model.config.unk_id, inputs.glossaries)  # named by line (Glossary.place)
    for number, prefix in enumerate(inputs.prefixes, start=first_line):
        if prefix and prefix != args.prefix:  # a JSONL line's own
            prefix_ids(tokenizer, prefix, model.config.unk_id, f'{where}:{number}: "prefix"')
    return inputs.adding(glossary)


def translate_inputs(args: argparse.Namespace, model, tokenizer, options: Decoding, inputs: Inputs, out: TextIO,
                     where: str, first_line: int, shared: Glossary | None = None) -> int:
    """line_batch's translations of ``inputs``, written; how many lines the model failed on.  Each
    line's text is cut at its line breaks, the parts translated apart and joined back by them
    (attnmt.cli.jsonl_breaks).  Each part is read and written as ``attnmt.translate`` reads and writes
    a sentence (attnmt.documents.sentence_translate: ``sentence_reads``, ``written``): without the
    bidirectional controls at its edges, which come back around its translation, as they do around a
    sentence of a text line, and without the symbols its vocabulary cannot write, which go back where
    a text line's go."""
    from attnmt.cli.jsonl_breaks import kept_records, parted, write_record_hypotheses, write_record_texts
    from attnmt.decoding.inputs import Guides, writes_whole
    from attnmt.decoding.sentence_parts import free_parts, hypotheses_kept, labels_kept, named_parts
    from attnmt.decoding.translate import translate, translate_n_best
    from attnmt.documents.letterless import with_terms
    from attnmt.documents.paragraphs import traced_weights
    from attnmt.documents.sentence_translate import sentence_reads, written
    from attnmt.text.speaker_labels import dialogue

    records = parted(inputs)
    parts = records.parts
    lines, guides = parts.texts, dict(glossary=parts.glossaries, prefix=parts.prefixes)
    writes = writes_whole(tokenizer, model.config.unk_id)
    # blank: the model never sees it (no letter, or one: "A" came out "Ein Mann befindet sich."; a code's "m" is none,
    # every word in a script its vocabulary lacks); what it reads: without the symbols its vocabulary cannot write
    speakers = dialogue(lines)  # the names the batch's texts take turns in, kept in each as a text line's are
    sentences, reads = sentence_reads(lines, parts.glossaries, writes, speakers)
    warn_longer_than_trained(model, tokenizer, reads, where, records.numbers(first_line))
    # what each part writes for a translation of what the model read: those symbols back, in the part's controls
    translated = [partial(written, line, sentence, read, glossary=glossary, writes=writes,
                          weigh=partial(traced_weights, model, tokenizer), speakers=speakers)
                  for line, sentence, read, glossary in zip(lines, sentences, reads, parts.glossaries, strict=True)]
    # a part without letters, or of one, passes through, its glossary's terms replaced (2012: zweitausendzwölf)
    letterless = [with_terms(line, glossary) for line, glossary in zip(lines, parts.glossaries, strict=True)]
    # each distinct job (what the model reads, its glossary and prefix) searched once: jobs(translate)
    jobs = partial(searched_once, args, lines=reads, guides=guides, where=where, numbers=records.numbers(first_line),
                   keys=job_keys(reads, parts, shared, options))
    kept = partial(kept_records, records=records, where=where, first_line=first_line)
    # the fields' names the model writes: one it garbles keeps its source ("BENEFITS" came back "EIN DEMA")
    named = named_parts(reads, records.breaks, Guides(parts.glossaries, parts.prefixes))
    free = free_parts(reads, Guides(parts.glossaries, parts.prefixes))  # a count the model lost keeps its source
    if not quality_wanted(args):
        found, lost = kept(jobs(partial(translate, model, tokenizer, decoding=options, **batching(args))))
        found = labels_kept(model, tokenizer, reads, named, found, free)
        bare = [text if sentence else copy for copy, sentence, text in zip(letterless, sentences, found, strict=True)]
        texts = [write(text) for write, text in zip(translated, bare, strict=True)]
        write_record_texts(args, out, records, inputs.texts, texts,
                           aligned_lines(args, model, tokenizer, lines, reads, bare, texts))
        return lost
    quality = assessor(args)
    searched, lost = kept(jobs(partial(translate_n_best, model, tokenizer, decoding=options, **batching(args),
                                       quality=quality)))
    searched = hypotheses_kept(model, tokenizer, reads, named, searched, quality, free)
    results = passed_through(args, model, tokenizer, lines, sentences, searched, letterless)
    if args.output_format == "text":
        # no hypothesis: a blank part, as it was, or one the model failed on, empty
        bare = [hs[0].text if hs else s if not s.strip() else "" for s, hs in zip(lines, results, strict=True)]
        # as ``written`` writes them, before below_quality marks a line or puts its source in its place
        unmarked = [write(hs[0].text) if hs else text
                    for write, hs, text in zip(translated, results, bare, strict=True)]
        assessed = [hs[0].assessment if hs else None for hs in results]
        write_record_texts(args, out, records, inputs.texts, unmarked,
                           aligned_lines(args, model, tokenizer, lines, reads, bare, unmarked), assessed)
    else:
        texts = [[write(h.text) for h in hypotheses] for write, hypotheses in zip(translated, results, strict=True)]
        extras = [[hypothesis_extras(args, model, tokenizer, line, read, h.text, text)
                   for h, text in zip(hypotheses, each, strict=True)]
                  for line, read, hypotheses, each in zip(lines, reads, results, texts, strict=True)]
        results = [[replace(h, text=text) for h, text in zip(hypotheses, each, strict=True)]
                   for hypotheses, each in zip(results, texts, strict=True)]
        write_record_hypotheses(args, out, records, inputs.texts, first_line, results, extras)
    return lost


def warn_longer_than_trained(model, tokenizer, reads: list[str], where: str, numbers: list[int]) -> None:
    """One warning for the texts (``reads``: what the model reads of each part) longer than the longest source the
    model was trained on (attnmt.decoding.inputs.longest_part), naming the input lines of the first few: a JSONL
    text is read whole, and the demo model (trained on 53 pieces at most) wrote one sentence for a paragraph of 40.
    A text line is parted so (attnmt.documents.sentences.fitting_parts); one over the model's positions is cut,
    and warned of so (attnmt.decoding.inputs.warn_cut)."""
    from attnmt.decoding.inputs import longest_part

    limit, positions = longest_part(model), model.config.longest_input
    if limit >= positions:
        return
    lengths = [len(tokenizer.encode(read)) if read else 0 for read in reads]
    long = list(dict.fromkeys(numbers[k] for k, length in enumerate(lengths) if limit < length <= positions))
    if long:
        shown = ", ".join(f"{where}:{number}" for number in long[:5]) + (", …" if len(long) > 5 else "")
        warnings.warn(f"{len(long)} JSONL text(s) longer than the longest source the model was trained on ({limit} "
                      f"pieces), at {shown}: each is read whole, as one sentence, and its translation may leave "
                      "much of it out; give one sentence a line, or read the file with --input-format text, which "
                      "parts it into sentences", AttnmtWarning, stacklevel=2)


def job_keys(reads: list[str], inputs: Inputs, shared: Glossary | None, options: Decoding) -> list[Hashable | None]:
    """What makes each line's search its own: what the model reads, its glossary (SHARED for
    --glossary's, met by every line without terms of its own: its terms are not hashed for each
    line) and its prefix; None for every line with sampling, where each line draws its own."""
    if options.sampling:
        return [None] * len(reads)
    return [(read, SHARED if glossary is shared else glossary and glossary.terms, prefix)
            for read, glossary, prefix in zip(reads, inputs.glossaries, inputs.prefixes, strict=True)]


SHARED = "--glossary"


def searched_once(args: argparse.Namespace, search: Callable[..., list[T]], lines: list[str], guides: dict,
                  where: str, numbers: list[int], keys: list[Hashable | None]) -> Callable[[], list[T]]:
    """``search(sentences, glossary=..., prefix=...)`` of ``lines`` as a call for
    attnmt.cli.jsonl_breaks.kept_records: a job ``keys`` names twice, in this batch or lately in the
    run (attnmt.cli.recent), searched once and its outputs written for each of its lines; a text the
    model cuts (a line's part between line breaks is read whole, by design) is warned of by the input
    line (``numbers``, one per line searched) of the first with it."""
    from attnmt.cli.recent import Recent, once
    from attnmt.decoding.inputs import named_places

    recent = vars(args).setdefault("recent", Recent())  # one for the run: its batches are its calls

    def searching(at: list[int]) -> list[T]:
        with named_places(lambda i: f"{where}:{numbers[at[i]]}"):
            return search([lines[i] for i in at], **{name: [each[i] for i in at] for name, each in guides.items()})

    return partial(once, searching, keys, recent)


def passed_through(args: argparse.Namespace, model, tokenizer, lines: list[str], sentences: list[str],
                   searched: list[list[Translation]], letterless: list[str]) -> list[list[Translation]]:
    """``searched``, the hypotheses of ``sentences``, with each line that the model is not given
    but is not blank (``123``, ``!!!``, ``A``: letterless.reaches_model) in its place as it passes
    through, as plain text passes it through (attnmt.documents.paragraphs.paragraph): one
    hypothesis, ``letterless`` (the line, its glossary's terms replaced: letterless.with_terms),
    score 0, and the assessment ``attnmt score`` gives the line and itself, quality 1 and no flags
    (attnmt.decoding.unread.copy_assessment: the model, never trained to copy, finds a copied "A" poor), its
    terms or not."""
    from attnmt.decoding.unread import copy_assessment

    copied = [k for k, (line, sentence) in enumerate(zip(lines, sentences, strict=True))
              if line.strip() and not sentence]
    found = assessor(args).assess(model, tokenizer, [lines[k] for k in copied], [lines[k] for k in copied])
    results = list(searched)
    for k, a in zip(copied, found, strict=True):
        # scores as a text line's: the sum of no sentence's
        results[k] = [Translation(letterless[k], 0, 0, copy_assessment(a))]
    return results

def aligned_lines(args: argparse.Namespace, model, tokenizer, lines: list[str], sentences: list[str], bare: list[str],
                  texts: list[str]) -> list[Alignments] | None:
    """--alignments of each line and its translation in text output (None without): of the
    ``sentences`` the model read and their translations as it wrote them (``bare``: without the
    controls at the line's edges and the symbols ``written`` puts back), numbering the words of the
    line and of what ``texts`` write (attnmt.documents.paragraphs.text_pairs, which reads past the
    controls; a symbol put back is aligned to no word, as in a text line).  What --below-quality
    does to them is the record's (attnmt.cli.jsonl_breaks.write_record_texts)."""
    from attnmt.documents.paragraphs import text_pairs
    from attnmt.inspect.align import align_batched

    if not args.alignments:
        return None
    # warn False: the search that wrote ``bare`` read ``sentences`` as cut here, and warned of it
    found = align_batched(model, tokenizer, sentences, bare, args.alignment_layer, args.alignment_heads,
                          args.max_tokens, warn=False)
    return [text_pairs([pairs], [sentence], [translation], line, text)
            for line, sentence, translation, text, pairs in zip(lines, sentences, bare, texts, found, strict=True)]


def hypothesis_extras(args: argparse.Namespace, model, tokenizer, line: str, sentence: str, translation: str,
                      text: str) -> dict:
    """What --alignments and --confidence add to one hypothesis of a JSONL line whose ``sentence``
    the model read (without the controls at the line's edges and the symbols it cannot write), its
    ``translation`` written as ``text`` (``written``: those symbols back, between those controls),
    from one scoring pass of the two for both: the confidence of each piece the model wrote, and
    an alignment that numbers the words of the line and of ``text``, a symbol put back aligned to
    no word (the model read none), as a text line's are (attnmt.documents.paragraphs.text_pairs):
    its pairs, which attnmt.cli.jsonl_breaks.write_record_hypotheses writes as Pharaoh's."""
    from attnmt.documents.paragraphs import text_pairs
    from attnmt.inspect.align import trace_alignment, trace_extras
    from attnmt.inspect.trace import trace_translation

    if not (args.alignments or args.confidence):
        return {}
    trace = trace_translation(model, tokenizer, sentence, target=translation, warn=False) if sentence.strip() else None
    extras = trace_extras(trace, False, args.confidence)
    if not args.alignments:
        return extras
    pairs = trace_alignment(trace, args.alignment_layer, args.alignment_heads) if trace is not None else []
    aligned = text_pairs([pairs], [sentence], [translation], line, text)
    return {"alignment": aligned, **extras}  # pairs: joined over the record's parts, then written
