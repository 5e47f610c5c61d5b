"""Whether the first target word of a mark's translation belongs to the unmarked source word before the mark, and was
aligned to the mark's words only because it was written looking ahead at them (rule 1 of attnmt.documents.spans).

A decoder writes an article with the noun it agrees with in view, so the article's cross-attention goes mostly to that
noun or its adjective, and some to the source article it translates: ``A man in a <i>blue</i> shirt.`` -> ``Ein Mann
in einem blauen Hemd.``, where "einem" gives "blue" 0.59 and "a" 0.25 (the demo model's weights), and "blauen" gives
"blue" 0.97.  Aligned by its strongest link, "einem" went inside the mark: ``in <i>einem blauen</i> Hemd``.  So the
first word of the mark's translation is left out when it gives the source word right before the mark at least SHARE
of what it gives the mark's words, and for each of the mark's words another target word of the mark gives it more:
then the mark holds ``<i>blauen</i>``, and "through the <b>snow</b>" holds ``durch den <b>Schnee</b>``, not ``<b>den
Schnee</b>``.  A word that translates a marked word ("liest" in ``is <i>reading a book</i>``) gives it the most, so it
stays; a whole marked phrase (``<i>in a black dress</i>``) has no unmarked article inside it to lose.

A mark that opens its sentence has no source word before it, but the target language may add an article there:
``<b>Red</b> car.`` -> ``Ein rotes Auto.``, where "Ein" gives "Red" 0.79 and "rotes" 0.63, both their most.  So the
translation's first word is left out too where the mark starts at the source's first word and the target word right
after it attends most to the same marked word (opens_sentence): ``Ein <b>rotes</b> Auto.``; ``<b>Tall men</b>`` ->
``Diese Männer`` keeps "Diese", "Männer" attending most to "men".

Only the first word: looking ahead is what a decoder does, and the last word of a mark's translation that gives the
next source word a share is most often the mark's own noun ("Pfütze." gives "puddle" 0.50 and "outside" 0.23, the
article before it "puddle" 0.55).  On the first 400 pairs of Multi30k's validation set, tagged as
benchmarks/documents.py tags them, the marks holding their anchor's word alone went from 428 to 473 of 536, and one
of 519 holding it lost it: a reflexive verb, ``is <b>shaving</b>`` -> ``rasiert <b>sich</b>``, whose "sich" gives
"shaving" more than "rasiert" does.  Only the words tell the two apart, and one word does: an article is followed by
its noun or adjective, never by a reflexive pronoun (REFLEXIVES), so a first word followed by one stays
(``<b>rasiert sich</b>``).  With this and opens_sentence, on the same lines with today's pipeline, the marks
holding their anchor's word alone went from 480 to 481, those holding it from 534 to 535 (few marks open a sentence).

An article is the word that looks ahead most, and attention does not always show it: "einer" in ``sitting on a
<b>bench.</b>`` -> ``auf einer Bank.`` gives "bench." 0.49 and "Bank." 0.45, and "ein" in ``and a <a>groom</a>`` gives
"groom" 0.72 and "a" only 0.15.  Articles are a closed class (attnmt.text.articles), so one word tells: a first word
that is one goes out where another word of the mark gives each marked word more than RIVAL of what it gives it,
whatever the word before (``in <a>coat</a>`` -> ``in einem <a>Mantel</a>``, the source has no article), and so does
a preposition and an article in one word (``in the <b>lake</b>`` -> ``im <b>See</b>``: "im" gave "lake" 0.52, "See"
0.50, and stayed in the mark as a word of its own); any other
word keeps the stricter test ("übergewichtiger" for ``older, <a>overweight</a> man``, 0.59, where "Mann" gives 0.54).
The test is made again on the next word, so that a preposition and then an article go out (``rides a <b>swing.</b>``
-> ``auf einer <b>Schaukel.</b>``).  On the same 400 Multi30k pairs (373 lines, 650 marks): alone 487 -> 511, holding
535 both, English left 8 -> 7 (``<a>street.</a>`` now ``<a>Straße</a>``), well-formed 366 both; RIVAL 0.8: alone
509.  One line went worse: ``from <b>bed</b> to <a>bed.</a>`` -> ``von einem <b>Bett</b><a>.</a>`` (before, ``<a>einem
</a> <b>Bett</b>``): the model dropped the second bed, and the link keeps only the stop beside its sibling.

Otherwise the cue is the attention, not the words: a one-word translation of the marked word as a lexical check
(``blue`` -> "Ein blaues", ``bench`` -> "Eine Bank", ``helmet`` -> "Jemand mit Helm") comes back as a sentence with
its own article, which shares its letters with the very article to leave out ("Eine", "einer"), and costs a second
pass of the model.
"""

from __future__ import annotations

from collections.abc import Sequence

from attnmt.documents.attention_given import given
from attnmt.text.articles import ANY_ARTICLE, CONTRACTIONS

SHARE = 0.25  # of the attention the first word gives the mark's words
RIVAL = 0.6  # an article at a mark's start: what another word of the mark gives each marked word, more than this share
# Reflexive pronouns that follow the verb they go with (German, Dutch, French, Spanish, Italian, Portuguese): the
# attention of "rasiert sich" looks as "einem blauen" does, so only the word tells the verb from an article.
REFLEXIVES = frozenset("sich mich dich uns euch zich se me te nous vous nos os si mi ti ci vi".split())
WITH_ARTICLE = ANY_ARTICLE | CONTRACTIONS  # the words is_article reads as articles
PUNCTUATION = ".,;:!?\"'()[]«»„“”‚‘’"


def own_targets(weights: Sequence[Sequence[float]], words: Sequence[int], targets: Sequence[int], target: str,
                written: Sequence[tuple[int, int]]) -> list[int]:
    """``targets`` (the target words aligned to the source ``words``, in order) without the first while it was
    written looking ahead at them for the source word before them (an article: on less, ``is_article``), or for the
    start of the sentence they open, and is no verb before its reflexive pronoun (module docstring); one is always
    left.  ``weights``: [target word][source word], ``written``: [start, end) of each target word in ``target``, the
    translation."""
    kept = list(targets)
    while len(kept) >= 2 and not before_reflexive(target[slice(*written[kept[1]])]):
        article = is_article(target[slice(*written[kept[0]])])
        if not (looks_ahead(weights, words, kept[0], kept[1:], article) or opens_sentence(weights, words, kept)):
            break
        kept = kept[1:]
    return kept


def opens_sentence(weights: Sequence[Sequence[float]], words: Sequence[int], targets: Sequence[int]) -> bool:
    """Whether ``targets[0]`` is the translation's first word, written for the start of the sentence that the mark
    opens, as an article the target language adds there is: the mark starts at the source's first word, and the
    target word right after it attends most to the same marked word (``<b>Red</b> car.`` -> ``Ein rotes Auto.``:
    "Ein" gives "Red" 0.79, "rotes" 0.63).  A word that translates a marked word of its own stays ("Diese Männer"
    for ``<b>Tall men</b>``: "Männer" attends most to "men"), and so does any in a sentence of one source word, as a
    Chinese or Japanese one is, every target word attending to it."""
    first, second = targets[0], targets[1]
    if words[0] != 0 or first != 0 or second != 1 or len(weights[first]) < 2:
        return False
    own = [max(range(len(weights[t])), key=weights[t].__getitem__) if weights[t] else None for t in (first, second)]
    return own[0] == own[1] and own[0] in words


def before_reflexive(second: str) -> bool:
    """Whether ``second``, the target word after the first of a mark's, is a reflexive pronoun (REFLEXIVES): the
    first is then a verb, ``is <b>shaving</b>`` -> ``rasiert sich``, where an article is followed by its noun or its
    adjective."""
    return second.strip(PUNCTUATION).lower() in REFLEXIVES


def looks_ahead(weights: Sequence[Sequence[float]], words: Sequence[int], first: int, others: Sequence[int],
                article: bool = False) -> bool:
    """Whether target word ``first`` gives the source word before ``words`` at least SHARE of what it gives
    ``words``, and translates none of them: for each, one of ``others`` gives it more ("liest" stays in ``is
    <i>reading a book</i>`` -> ``liest ein Buch``, though it gives "is" some too).  An ``article`` needs no share
    of the word before, and is taken for none of them where one of ``others`` gives each more than RIVAL of what it
    gives it."""
    row, before = weights[first], words[0] - 1
    if not article and not (0 <= before < len(row) and row[before] >= SHARE * given(row, words)):
        return False
    rival = RIVAL if article else 1.0
    for k in words:  # what first gives word k, taken once a word, not once a rival
        least = rival * given(row, [k])
        if not any(given(weights[t], [k]) > least for t in others):
            return False
    return True


def is_article(word: str) -> bool:
    """Whether ``word``, the first of a mark's translation, is an article or a preposition and an article in one
    word (attnmt.text.articles: of any language, the target's being unknown here; ``in the <b>lake</b>`` -> ``im
    <b>See</b>``, where "im" gave "lake" 0.52 and "See" 0.50): a closed class of words, which never translates a
    content word alone."""
    return word.strip(PUNCTUATION).lower() in WITH_ARTICLE

