"""SRT and WebVTT subtitles: the cue text translated, every other byte kept.

Both formats are blocks separated by empty lines (a line of spaces is in its block); in a cue, the line with ``-->``
holds the timings (and WebVTT's cue settings), the lines before it the cue's
number or identifier, the lines after it the text.  Blocks without ``-->`` (the
``WEBVTT`` header, ``NOTE``, ``STYLE``, ``REGION``) are not cues.  Nothing else is skipped
without a word: a timing line written without its arrow (``00:00:01,000 -> 00:00:02,000``) still
marks a cue, translated with a warning naming the line, as does one with its arrow but not two whole
times (``00:00:04,000 -->``, ``00:00:09;000 --> 00:00:10;000``, ``… --> 00:00:10;000``) or ending before
it starts; a line may end in CRLF, LF or a lone CR (old Mac OS), a file mixing them included; cues with
no blank line between them are told apart by their timing lines (a line of spaces between them, as
editors leave, is no fault to warn about); any other block is left as it was,
with a warning (attnmt.documents.cue_blocks).  That is the whole of what is needed, so the file is
read block by block here rather than through a subtitle library: srt, webvtt-py and pysubs2 all
write files back from their own model (renumbered cues, reformatted times, dropped settings or notes), and the
promise here is that numbering, timings, settings and notes come out byte for byte.

A cue's lines are translated as one text (split into sentences as any paragraph) and wrapped again
into as many lines (two for one too long: cue_wrap.fitted), at the spaces nearest even lengths (fewer where the
translation has fewer words: a blank line would end the cue), lengths in the characters shown (tags
and ASS codes left out, an entity one), never inside a tag or ASS code.  A speaker's turn, from a line
beginning with a dash and a space (after any start tags, ASS codes or bidirectional controls:
``<i>- Hi.``, ``{\\an8}- Hi.``, ``<v Anna> - Hi.``; a dash right before a digit is a minus) to the
next, or a line of one voice span a speaker, or a lyric's line (``♪ La la la ♪``), is translated
alone, keeping its start and the end tags that close nothing in it (attnmt.documents.cue_lines).
Its tags (WebVTT's ``<v Roger>``, ``<c.yellow>``, ``<i>``; SRT's ``<font color=…>``) are carried
as marks (attnmt.documents.cue_text); karaoke timestamps go where their words went, their values then
put back in ascending order.

A sentence that runs on into the next cue is translated whole: consecutive cues
without tags (a voice span over a whole cue, ``<v Roger>…``, is the cue's speaker, kept
as its prefix, and does not count, nor does one tag over each whole cue,
``<i>…</i>``: attnmt.documents.cue_wrappers), and not each in another speaker's voice (another voice is another
speaker, as a dash is; a cue without a voice goes on in the voice before it, as captions name a
speaker only where the speaker changes), are joined where the next cue starts with a
lower-case letter (as shown: WebVTT's ``&quot;Hello`` starts with a capital; or both are in capitals) and without a
speaker's dash (a cue's last speaker's turn, ``- I saw a man`` / ``in the park.``, runs on as a cue of one
text does), neither opening with a sound description's bracket or a lyric's note (``[dog barking]``,
``(phone ringing)``, ``♪ La la la ♪``: each its own text; a label before words, ``JOHN:`` or ``(laughs)``,
is translated alone and stays first, and a description after words, ``I'm leaving. [DOOR SLAMS]``, last:
attnmt.documents.cue_edges), and the segmenter finds no sentence end
where the cue's text ends (over as many cues as the sentence goes on where the model reads it whole, else at
most ``MAX_JOINED`` cues a run; never across a ``NOTE`` or with ``--no-split``).
The translation is cut back into the cues where the cue breaks land by the alignment
(rule 2 of attnmt.documents.spans: before the first target word aligned to the source
word after the break); where that would leave a cue without a word, or the breaks out
of order, it is cut by the cues' shares of the source text instead, at the word
boundaries nearest them; where the translation has fewer words than the run has cues,
each of its cues is translated again alone.  Every cue keeps its number and timing.  A line roll-up
captions repeat from the cue before (YouTube's automatic ones) is written as it was translated there
(attnmt.documents.cue_rolls.rolled).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType

from attnmt.decoding.glossary import Glossary
from attnmt.decoding.term_forms import cased
from attnmt.documents.bidi import edges
from attnmt.documents.cue_blocks import (
    BLOCK_GAP,
    block_cues,
    in_time_order,
    is_webvtt,
    metadata_line,
    said_language,
)
from attnmt.documents.cue_cuts import split_cues
from attnmt.documents.cue_edges import ENDED, SUNG_START, apart, cue_edges
from attnmt.documents.cue_endings import cue_endings, rejoined
from attnmt.documents.cue_labels import DESCRIPTION, cue_field, is_name, shown_places
from attnmt.documents.cue_lines import Turn, another_speaker, speaker_name, turns, written
from attnmt.documents.cue_rolls import repeated_line, rolled
from attnmt.documents.cue_text import CONTINUED, cue_flat, shown_text, tags_of
from attnmt.documents.cue_wrap import breaks_inside
from attnmt.documents.cue_wrappers import alike, opens, outer
from attnmt.documents.flat import FlatText, Place, has_words
from attnmt.documents.letterless import Shown, needs_translation, reaches_model
from attnmt.documents.pipeline import (
    DEFAULT_OPTIONS,
    DocumentOptions,
    check_inputs,
    translate_flats,
    translator_glossary,
    translator_sentences,
)
from attnmt.documents.review import Review
from attnmt.documents.sentences import sentence_spans
from attnmt.documents.short_labels import KeepingLabels
from attnmt.documents.translator_parts import translator_fits, within_bytes
from attnmt.documents.translators import Translator
from attnmt.errors import LeftUntranslated, warn
from attnmt.text.speaker_labels import dialogue

FORMATS = ("srt", "vtt")
MAX_JOINED = 3  # cues joined at most of a sentence too long for the model (one it reads whole is joined whole)
TAGGED = "one of them has tags"  # why two cues are translated apart, as chains warns of a term across them
# A line's ending: CRLF, LF or a lone CR, and a CR before a CRLF (a CRLF file converted twice).
LINE_END = re.compile(r"\r?\r\n|\r|\n")
# The ASS codes a cue opens with that say where it shows ({\an8}, {\pos(640,50)}, {\move(…)}, {\org(…)}) or how it comes
# and goes ({\fad(…)}, {\clip(…)}), whole blocks: ASS applies them to the whole line, and SRT players read them at its
# start alone.  Kept there, a cue in one place runs on into the next cue in that place as cues without codes do.
PLACING = re.compile(r"(?:\{(?=[^{}]*\\(?:an?[1-9]|pos\(|move\(|org\(|fade?\(|i?clip\())[^{}]*\})+")
# A comma a cue's text ends with (after closing quotes): no sentence ends there, so the next cue goes on with it
# even where it starts with a capital ("When the man came home," / "I was sleeping.", "He was tall," / "Anna said.").
CLAUSE_END = re.compile(r"[,，、][\"”’»)]*\s*\Z")
# A cue of sound descriptions alone (cue_labels.DESCRIPTION) or a lyric is never joined to the cues beside it;
# a label before words ("(whispering) I saw", "JOHN: I saw") is translated alone, and the words may go on.


def translate_subtitle_text(text: str, translator: Translator, options: DocumentOptions = DEFAULT_OPTIONS,
                            where: str = "input", review: Review | None = None, webvtt: bool = False) -> str:
    """An SRT or WebVTT file's text with each cue's text translated; everything else as it was
    (``review``: attnmt.documents.review, a cue's place the line its text starts on).  Its lines
    end at each CRLF, LF and lone CR (``LINE_END``), as WebVTT's parsing rules and Python's text
    files read them: a file of old Mac OS's CRs, or one whose endings were mixed by an editor
    (``1\\r00:00:01,000 --> …\\r`` then CRLF), is read line by line, where a block of two
    endings was split at neither and its cues lost.  A CR right before a CRLF is of that line's
    ending (``\\r\\r\\n``: a CRLF file whose endings were converted twice).  Each line is written
    back with its own ending, whoever calls (the command line, the server,
    ``attnmt.documents.translate_subtitles``); a cue's text, wrapped anew, in the ending its lines
    had, or where they mixed them, in its first line's (``cue_endings``).  A WebVTT metadata track
    (its header says ``Kind: metadata``) holds data for scripts in its cues (JSON, say), not text
    shown, so it comes back as it was, with a warning naming the line that says so (``metadata_line``).
    A file is WebVTT where its first line says so, or ``webvtt`` (its name, .vtt or .webvtt, or
    --input-format vtt): without that line, with a warning naming it (``is_webvtt``).
    ConfigError, before the text is read, for the arguments pipeline.check_inputs refuses."""
    check_inputs(translator, options, review)
    endings = [*LINE_END.findall(text), ""]  # line k's ending (counted from 0): the last line's none
    lf_text = LINE_END.sub("\n", text)
    vtt = is_webvtt(lf_text, webvtt, where)
    kind_line = metadata_line(lf_text) if vtt else None
    if kind_line is not None:
        warn(f"{where}, line {kind_line}: a WebVTT metadata track (Kind: metadata) holds data, not text to show, "
             "so it is kept as it was, untranslated", category=LeftUntranslated)
        return text
    return translate_lf_subtitles(lf_text, endings, translator, options, where, review, vtt)


def translate_lf_subtitles(text: str, endings: Sequence[str], translator: Translator, options: DocumentOptions,
                           where: str, review: Review | None, vtt: bool) -> str:
    """``translate_subtitle_text`` of a file's text in LF lines, written back with the file's
    ``endings`` (``endings[k]``: line k's, counted from 0); ``vtt``: it is WebVTT, not SRT."""
    pieces = BLOCK_GAP.split(text)  # blocks at even indices, the blank lines between them at odd ones
    pieces[0] = said_language(pieces[0], options.target_lang) if vtt else pieces[0]  # the header's Language:
    cues = []  # (piece index, lines kept: number and timing, text lines)
    lines = []  # the line each cue's text starts on
    line_number = 1  # of the block's first line in the file
    for i in range(0, len(pieces), 2):
        offset = 0  # a block's cues follow each other line after line
        for kept, text_lines in block_cues(pieces[i], vtt, where, line_number):
            cues.append((i, kept, text_lines))
            lines.append(line_number + offset + len(kept))
            offset += len(kept) + len(text_lines)
        line_number += "".join(pieces[i:i + 2]).count("\n")
    # A cue is one text a speaker's turn ("- Hi." / "- Hello.", or a voice a line), each keeping its dash
    # or voice; a cue without a dash is one text, its lines joined.  A cue's last turn may run on into
    # the next cue where that one starts without a dash or a lyric's note ("- I saw a man" / "in the
    # park.") and no other voice: another voice is another speaker, as a dash is; a cue without one
    # goes on in the last.  A lyric ("♪ La la la ♪") runs on into no cue: it is sung, not said.
    # A line a roll-up caption repeats from the cue before is written as it was translated there (``rolled``).
    repeats = rolled([text_lines for _, _, text_lines in cues], tags_of(vtt))
    # "Anna:" and "Tom:" taking turns, read line by line: a cue may give each its line ("Anna: Hi." / "Tom: Hello.")
    names = dialogue(shown_places(line, tags_of(vtt))[0] for _, _, text_lines in cues for line in text_lines)
    said = [turns(text_lines[again:], tags_of(vtt), names)
            for (_, _, text_lines), again in zip(cues, repeats, strict=True)]
    texts, follows, starts = [], [], []  # a text a turn; whether it runs on into the next; the line it starts on
    noted: dict[int, str] = {}  # the texts that would run on into the next but for a block between, or tags: why
    speaking = ""  # the voice the last turn is said in: named, or carried on from the cue before (one turn)
    for k, ((i, _, _), cue_turns) in enumerate(zip(cues, said, strict=True)):
        speaking = speaker_name(cue_turns[-1]) or (speaking if len(cue_turns) == 1 else "")
        goes_on = (k + 1 < len(cues) and joinable(cue_turns) and not cue_turns[-1].sung and joinable(said[k + 1])
                   and not opens(said[k + 1][0]) and not another_speaker(speaking, said[k + 1][0]))
        nxt = goes_on and cues[k + 1][0] - i in (0, 2)
        tagged = nxt and not alike(cue_turns[-1], said[k + 1][0], tags_of(vtt))  # in other tags: cue_wrappers
        if goes_on and (tagged or not nxt):
            noted[len(texts) + len(cue_turns) - 1] = TAGGED if tagged else "a NOTE or another block stands between them"
        texts += [turn.text for turn in cue_turns]
        follows += [False] * (len(cue_turns) - 1) + [nxt and not tagged]  # runs on only into the cue right after it
        starts += [lines[k] + repeats[k] + turn.line for turn in cue_turns]
    translated = iter(translate_cues(texts, follows[:-1], translator, options, vtt, where, starts, review, noted,
                                     names))
    # piece index: (its new lines, their endings, how many old lines they replace)
    blocks: dict[int, tuple[list[str], list[str], int]] = {}
    previous: tuple[list[str], list[str]] = ([], [])  # the cue before's text lines, and its new ones
    rolls = [a or b for a, b in zip(repeats, [*repeats[1:], False], strict=False)]  # a roll-up keeps its lines
    for (i, kept, text_lines), cue_turns, start, again, roll in zip(cues, said, lines, repeats, rolls, strict=True):
        new = written(cue_turns, [next(translated) for _ in cue_turns], tags_of(vtt), not roll)
        new = [repeated_line(text_lines[0], *previous, tags_of(vtt)), *new] if again else new
        previous = (text_lines, new)
        new = in_time_order(new) if vtt else new
        first, text_first = start - 1 - len(kept), start - 1  # the cue's first line and its text's, from 0
        own = endings[text_first:text_first + len(text_lines)]
        # a cue that comes back as it was (--below-quality source) keeps its lines' endings as well
        ended = [*endings[first:text_first],
                 *(own if new == text_lines else cue_endings(own, len(new), endings[first]))]
        before, before_ended, replaced = blocks.get(i, ([], [], 0))
        blocks[i] = [*before, *kept, *new], [*before_ended, *ended], replaced + len(kept) + len(text_lines)
    out, at = [], 0  # at: the piece's first line in the file, counted from 0
    for i, piece in enumerate(pieces):
        new, ended, replaced = blocks.get(i, ([], [], 0))
        old = piece.split("\n")
        # then the piece's lines as they were (a block's blank last lines, the blank lines between blocks)
        out.append(rejoined([*new, *old[replaced:]], [*ended, *endings[at + replaced:at + len(old)]]))
        at += len(old) - 1
    return "".join(out)


def joinable(cue_turns: Sequence[Turn]) -> bool:
    """Whether a cue's turns may run over into the cues beside it: it is one text, or its turns
    begin at speakers' dashes or labels (its last turn may go on into the next cue, and its first, where
    it has no dash, on from the cue before: "park." / "<v Anna>- Good.</v>" too).  A cue of a voice a
    line (``Turn.voiced``: "<v Anna>- Hi.</v>" / "<v Ben>- Hello.</v>") is each speaker's own."""
    return len(cue_turns) == 1 or bool((cue_turns[-1].start or cue_turns[-1].labelled) and not cue_turns[-1].voiced)


def translate_cues(texts: Sequence[str], follows: Sequence[bool], translator: Translator,
                   options: DocumentOptions, vtt: bool, where: str, lines: Sequence[int],
                   review: Review | None = None, noted: Mapping[int, str] = MappingProxyType({}),
                   named: frozenset[str] = frozenset()) -> list[str]:
    """Cue texts translated in one batched pass, a sentence running over cues as one (``chains``);
    follows[k]: cue k + 1 comes right after cue k in the file; lines[k]: the line text k starts on
    (for warnings and ``review``); ``noted``: the k whose cue would go on into the next but for a
    block between them (a NOTE) or tags taken out of its text or the next's (``Turn.line_tags``), and why;
    ``named``: the speakers' names that take turns line by line in the file (speaker_labels.dialogue)."""
    speakers = [outer(text, tags_of(vtt)) for text in texts]  # a voice span, or a tag or code, over a whole cue
    shown = [shown_places(body, tags_of(vtt))[0] for _, body, _ in speakers]
    names = dialogue(shown) | named  # "Anna:" and "Tom:" taking turns, cue by cue or line by line
    fields = [cue_field(body, tags_of(vtt), names) for _, body, _ in speakers]  # each cue's field's name, or ""
    translator = KeepingLabels(translator, names=frozenset(fields) - {""}, language=options.target_lang,
                               descriptions=True)  # "[MUSIC]" alone: its source where the model garbles it
    edges = [cue_edges(body, tags_of(vtt), names) for _, body, _ in speakers]  # a label or a tail translated alone
    # The codes that place a cue, kept at its start (read, rule 2 put them before the word the alignment gave theirs)
    placed = [found.group() if (found := PLACING.match(edge.body)) else "" for edge in edges]
    bodies = [edge.body[len(codes):] for edge, codes in zip(edges, placed, strict=True)]
    follows = [goes_on and not is_name(edges[k + 1].speaker(), names) and not fields[k + 1]  # a new speaker, field
               and placed[k] == placed[k + 1] for k, goes_on in enumerate(follows)]  # or place, as a sign is
    runs = chains(bodies, follows, options, vtt, where, lines, translator_glossary(translator), noted,
                  translator_fits(translator))
    alone = apart(edges)
    runs += [[len(bodies) + j] for j in range(len(alone))]
    texts, lines = [*bodies, *(text for _, _, text in alone)], [*lines, *(lines[k] for k, _, _ in alone)]
    places = [(k, 2) for k in range(len(bodies))] + [(k, place) for k, place, _ in alone]  # turn, then place in it
    runs.sort(key=lambda run: (lines[run[0]], places[run[0]]))  # the file's order: a label, its text, a tail
    out = [""] * len(texts)
    for run, cut in zip(runs, translate_runs(runs, texts, translator, options, vtt, where, lines, review), strict=True):
        for k, text in zip(run, cut, strict=True):
            out[k] = text
    out = [breaks_inside(body, text, vtt) for body, text in zip(texts, out, strict=True)]
    said = {(k, place): out[len(bodies) + j] for j, (k, place, _) in enumerate(alone)}
    return [start + edge.written(said.get((k, 0), "") + edge.label[slice(*edge.kept)] + said.get((k, 1), ""),
                                 placed[k] + out[k], said.get((k, 3), "")) + end
            for k, ((start, _, end), edge) in enumerate(zip(speakers, edges, strict=True))]


def translate_runs(runs: Sequence[list[int]], bodies: Sequence[str], translator: Translator,
                   options: DocumentOptions, vtt: bool, where: str, lines: Sequence[int],
                   review: Review | None) -> list[list[str]]:
    """Each run of cues translated as one text and cut back into its cues (``split_cues``); a run
    whose translation has fewer words than it has cues is translated again, each of its cues
    alone, so that no cue is left without a word (what ``review`` recorded of it taken back)."""
    flats = [cue_flat([bodies[k] for k in run], vtt, [f"{where}, line {lines[k]}" for k in run], options.source_lang,
                      options.target_lang) for run in runs]
    for run, flat in zip(runs, flats, strict=True):
        flat.place = Place(None, lines[run[0]])
    first = len(review.segments) if review is not None else 0
    glossary = translator_glossary(translator)
    # A cue with nothing to translate ("♪", "...", a soft hyphen alone) comes back as it was, as markup's
    # runs do: its flat text, all its translation, is without what a flat text leaves out (a soft hyphen).
    # So does a run whose every sentence kept its source (--below-quality source): its flat text ran its
    # spaces together and read its entities, and, no longer its cues' text, it was wrapped anew.  A run
    # with nothing to translate is not given to translate_flats at all (200,000 cues of "." cost a
    # placement and a bidi pass each): taking its symbols out there would add no letter to it.
    given = [j for j, flat in enumerate(flats) if needs_translation(flat.text, glossary, Shown.of(flat))]
    contents = dict(zip(given, translate_flats([flats[j] for j in given], translator, options, review), strict=True))
    cuts = [split_cues(flat, contents[j], [bodies[k] for k in run], vtt, options.target_lang)
            if j in contents and needs_translation(flat.text, glossary, Shown.of(flat)) and not flat.source_kept
            else [bodies[k] for k in run]
            for j, (run, flat) in enumerate(zip(runs, flats, strict=True))]
    short = [j for j, cut in enumerate(cuts) if cut is None]
    if not short:
        return cuts
    if review is not None:
        withdraw(review, first, [flats[j] for j in short], options, translator)
    alone = iter(translate_runs([[k] for j in short for k in runs[j]], bodies, translator, options, vtt, where,
                                lines, review))  # a run of one cue is never short
    cuts = [cut if cut is not None else [next(alone)[0] for _ in run] for run, cut in zip(runs, cuts, strict=True)]
    if review is not None:  # the file's order again, by line (a stable sort)
        review.segments[first:] = sorted(review.segments[first:], key=lambda segment: segment.place.number)
    return cuts


def withdraw(review: Review, first: int, flats: Sequence[FlatText], options: DocumentOptions,
             translator: Translator) -> None:
    """Takes back what ``review`` recorded of ``flats`` (runs translated again cue by cue) from its
    segment ``first`` on: their rows, and their sentences from its count (those that reached the
    model: letterless.reaches_model; one without letters or of one letter has its terms replaced
    without it, letterless.with_terms)."""
    places = {flat.place for flat in flats}
    review.segments[first:] = [segment for segment in review.segments[first:] if segment.place not in places]
    found = translator_sentences(flats, translator, options)
    spans = zip(flats, found, strict=True)  # as translate_flats split them
    review.sentences -= sum(reaches_model(flat.text[s:e]) for flat, each in spans for s, e in each)


def chains(texts: Sequence[str], follows: Sequence[bool], options: DocumentOptions, vtt: bool, where: str,
           lines: Sequence[int], glossary: Glossary | None = None, noted: Mapping[int, str] = MappingProxyType({}),
           fits: Callable[[str], bool] = within_bytes) -> list[list[int]]:
    """The cues in runs translated as one text: cue k + 1 joins cue k's run when both are without
    tags (their format's, ``tags_of``: an SRT cue's "<3 my dog, he is >" is text), it follows cue k in
    the file, it goes on with cue k's sentence or a term of ``glossary`` runs across the two (``runs_on``), their
    texts read as shown (``shown_text``: WebVTT's "&quot;Hello" starts with a capital), and the run is shorter
    than MAX_JOINED or the whole sentence it is in, to the cue that ends it with a stop, ``fits`` what the model
    reads whole (the translator's: translator_parts.translator_fits).  Cut at MAX_JOINED, the fourth cue of a
    sentence was translated alone, and the model wrote a sentence of its own ("in the park." as "Ein Park im
    Park."); a sentence too long for the model, or with no end in sight (captions without stops, whose every cue
    goes on: ``whole_sentence``), is still cut there.  A term
    across two cues that stay apart for tags or length, for ``options.split`` false (--no-split), or for a block
    between them or tags taken out of their texts (k - 1 in ``noted``, with why) is lost, so it is warned about,
    naming the lines their texts start on (``lines``)."""
    tags, shown = tags_of(vtt), [shown_text(text, vtt) for text in texts]
    together = [k > 0 and options.split and follows[k - 1] for k in range(len(texts))]
    tagged = [together[k] and bool(tags.search(texts[k]) or tags.search(texts[k - 1])) for k in range(len(texts))]
    goes_on = [together[k] and not tagged[k] and runs_on(shown[k - 1], shown[k], options.source_lang, glossary)
               for k in range(len(texts))]
    runs: list[list[int]] = []
    for k in range(len(texts)):
        whole = whole_sentence(shown, goes_on, runs[-1][0]) if together[k] and len(runs[-1]) >= MAX_JOINED else ""
        full = whole is None or (bool(whole) and not fits(whole))
        if goes_on[k] and not full:
            runs[-1].append(k)
            continue
        why = (TAGGED if tagged[k] else f"{MAX_JOINED} cues are joined at most of a sentence too long for the model"
               if full else "--no-split joins no cues" if k > 0 and not options.split and follows[k - 1]
               else noted.get(k - 1))
        term = term_across(shown[k - 1], shown[k], glossary) if why else None
        if term:
            warn(f"{where}, lines {lines[k - 1]} and {lines[k]}: the glossary term '{term}' runs across two cues "
                 f"translated apart ({why}), so its translation is not kept; write the term within one cue")
        runs.append([k])
    return runs


def whole_sentence(shown: Sequence[str], goes_on: Sequence[bool], first: int) -> str | None:
    """The texts ``shown`` from cue ``first`` to the last cue its sentence goes on into (``goes_on[k]``: cue k goes
    on with cue k - 1's sentence), joined as one text; None where that cue ends no sentence (ENDED: captions
    without stops, whose cues all go on, or a sentence cut off by tags or a NOTE): no end in sight."""
    last = first
    while last + 1 < len(shown) and goes_on[last + 1]:
        last += 1
    return " ".join(text.strip() for text in shown[first:last + 1]) if ENDED.search(shown[last]) else None


def term_across(text: str, following: str, glossary: Glossary | None) -> str | None:
    """The term of ``glossary`` written across ``text`` and the cue ``following`` it, as the
    glossary writes it, in its own case (attnmt.decoding.term_forms.cased): matching, which ignores
    case, finds "Apple Music" in "eating an apple" / "Music is playing.", but a capital starts a
    sentence, and joined, the first cue's sentence lost its "apple" to the term.  None where none is."""
    if not glossary:
        return None
    first = text.strip()
    both = f"{first} {following.strip()}"
    found = (both[s:e] for s, e, _ in glossary.found_in(both) if s < len(first) < e)
    return next((term for term in found if cased(term) in glossary.cased_terms), None)


def runs_on(text: str, following: str, language: str, glossary: Glossary | None = None) -> bool:
    """Whether ``following`` goes on with the sentence ``text`` ends with: it starts with a lower-case letter, or
    both are in capitals (captions for the deaf and hard of hearing, where case tells nothing), or ``text`` ends with
    a comma (``CLAUSE_END``), and the sentence segmenter, reading both as one text, finds no sentence end where
    ``text`` ends.  (Else a capital, or a script without case, starts a sentence of its own.)
    Or a term of ``glossary`` runs across the two ("A man reads the Wham!" / "Guide on a bike.",
    ``term_across``): each cue read alone, the term was in neither, and its translation was
    dropped silently; read as one, the splitter keeps it in one sentence
    (attnmt.documents.sentences.across_terms).  Never where either is set apart (``set_apart``): a
    sound description or a lyric is no part of a sentence said, and joined into one ("with his [dog
    barking] dog in the park."), the model dropped its words."""
    if not has_words(text) or set_apart(text) or set_apart(following):
        return False
    if term_across(text, following, glossary):
        return True
    following = following.strip()
    following = following[continuation.end():] if (continuation := CONTINUED.match(following)) else following
    letter = next((ch for ch in following if ch.isalpha()), "")
    if not (letter.islower() or (text.isupper() and following.isupper()) or CLAUSE_END.search(text)):
        return False
    first = text.strip()
    ends = edges(first, 0, len(first))[1]  # where a sentence of it ends: before a control closing it
    return all(end != ends for _, end in sentence_spans(f"{first} {following.strip()}", language))


def set_apart(text: str) -> bool:
    """Whether a cue's ``text`` is a cue of its own: each of its lines sound descriptions alone
    (DESCRIPTION: "[dog barking]", "(phone ringing).", "[MUSIC] (laughing)"), or it opens with a note
    or a "#" before a space (a lyric: cue_edges.SUNG)."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return bool(lines) and (SUNG_START.match(lines[0]) or all(DESCRIPTION.fullmatch(line) for line in lines))
