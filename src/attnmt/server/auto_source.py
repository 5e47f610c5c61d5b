"""LibreTranslate's ``source: "auto"``: the language of each text, among the served languages with a
model into the target, for /translate, /translate/stream and /translate_file.

A text lingua finds, surely, in the target language itself is detected as the target: LibreTranslate
translates a language into itself by giving the text back, where a model of another source
language would only have garbled it (German on a page sent into German).  Given back so, its quality
(``given_back``) is a copy's, read on the scale of the answers into the target.
"""

from __future__ import annotations

import asyncio

from attnmt.decoding.quality import Assessment, blank_pair
from attnmt.server.api_errors import LibreError
from attnmt.server.context import Server
from attnmt.server.detect import language_name, readable_text

# LibreTranslate's own cut: a text this short tells its language too poorly to go by alone.
SHORT_TEXT = 40
# How sure lingua must be (percent) that a text is in the target language to give it back untranslated: a short
# English text can look German at 45 % ("a dog runs"), where German ones of a word or two are surer ("Abbrechen": 98 %).
SURELY_TARGET = 80.0


async def detected(server: Server, texts: list[str], target: str, text_format: str = "text") -> list[dict]:
    """LibreTranslate's detectedLanguage for each of ``texts``, among the languages with a model into
    ``target`` where there are any, or ``target`` itself where lingua is SURELY_TARGET sure the text
    is in it (the module docstring).  As LibreTranslate detects them: a text over SHORT_TEXT characters on its
    own, a shorter one as the whole request (all its texts together), but on its own where the whole is
    likeliest in ``target``: the English "a dog runs" beside a German sentence is no text to give back untranslated.
    Its confidence is /detect's for the same text, or for the whole request where it takes the whole's
    language (``Detector.mean_ranking``): the choice among the model's languages alone, reported with their own
    confidences, put "A dog runs." at 26 % English where /detect said 55 %.  Text with no letters to go by
    (lingua ranks nothing) goes to the first such language, with confidence 0.  Of HTML, what would be
    translated is read, not the markup (readable_text).  A ``target`` no model translates into is refused (unreachable):
    before detection where it is no served language, else where a text is not surely in it, as a text sent from it
    into it is given back ("Welcome back" into en on an en-de server was refused with ``auto`` alone)."""
    sources = server.models.sources()
    if not sources:
        raise LibreError(400, "auto is not supported: this server knows no source language")
    into_target = [code for code in sources if (code, target) in server.models.by_pair]
    if not into_target and target not in server.models.codes():
        raise unreachable(server, target)

    def best(read: list[str]) -> dict:
        """The language of ``read`` (one text, or the whole request's), with /detect's confidence in it."""
        ranking = server.detector.mean_ranking(read)
        likeliest = server.detector.language(" ".join(read))
        if likeliest is not None and likeliest[0] == target and likeliest[1] >= SURELY_TARGET:
            return {"confidence": dict(ranking).get(target, 0.0), "language": target}
        if not into_target and ranking[0][1] > 0:  # no model would read it: not surely the target's, no answer
            return {"confidence": ranking[0][1], "language": None}
        # nothing to go by (``12345``): the first model's language, or the target's, which passes it through alike
        return next(({"confidence": p, "language": code} for code, p in ranking if code in into_target and p > 0),
                    {"confidence": 0.0, "language": into_target[0] if into_target else target})

    def each() -> list[dict]:
        read = [readable_text(text, text_format) for text in texts]
        if all(len(text) > SHORT_TEXT for text in read):
            return [best([text]) for text in read]
        # the whole is no text's own language: where it may be the target, one given back as it is must be
        # surely in the target alone; a mixed list is rarely surely in it ("the boy laughs ein hund rennt")
        likeliest = server.detector.language(" ".join(read))
        if likeliest is not None and likeliest[0] == target:
            return [best([text]) for text in read]
        whole = best(read)
        return [best([text]) if len(text) > SHORT_TEXT else whole for text in read]

    found = await asyncio.to_thread(each)
    if any(each["language"] is None for each in found):
        raise unreachable(server, target)
    return found


def unreachable(server: Server, target: str) -> LibreError:
    """The 400 for ``source=auto`` with a ``target`` no served model translates into: of the target
    alone, since no detected language could reach it (not "from English (en)", a source the client
    never named), with the targets there are."""
    if target not in server.models.codes():
        return LibreError(400, f"{target} is not supported")
    served = dict.fromkeys(code for _, code in server.models.by_pair)
    targets = ", ".join(f"{language_name(code)} ({code})" for code in served)
    return LibreError(400, f"{language_name(target)} ({target}) is not available as a target language from any "
                           f"source language (this server translates into {targets})")


def given_back(server: Server, target: str) -> Assessment:
    """The quality of a text given back as it is, in ``target`` already (detected so, or so named): a
    copy, its own reference, quality 1 and no flags, as a blank text has; calibrated where every
    served model into ``target`` is, so that it reads on the scale of the answers beside it (no one
    model would have translated it)."""
    into = [served.calibration for (_, code), served in server.models.by_pair.items() if code == target]
    return blank_pair(into[0] if into and all(calibration is not None for calibration in into) else None)
