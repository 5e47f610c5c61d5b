"""Language codes as BCP 47 writes them (en, de, pt-BR, zh-Hant), the one rule the command line's
--source-lang and --target-lang and the Python API's DocumentOptions read them by.

sentencex takes any text for a language and splits by its default rules where it knows none, and
it does not list the languages it knows, so a name ("english") is refused by its form; a target
language is written into the translated file's language attributes as it is given.
"""

from __future__ import annotations

import re

# en, EN, pt-BR, en_US; a private-use or grandfathered tag (x-klingon, i-default)
LANGUAGE_CODE = re.compile(r"([a-z]{2,3}|[xi](?=[-_]))([-_][a-z0-9]+)*", re.IGNORECASE)


def is_language_code(text: object) -> bool:
    """Whether ``text`` is a str of LANGUAGE_CODE's form."""
    return isinstance(text, str) and LANGUAGE_CODE.fullmatch(text) is not None


def as_bcp_47(code: str) -> str:
    """A target language code as BCP 47 writes it in a language attribute: ``de_DE`` is ``de-DE``."""
    return code.replace("_", "-")


def primary_subtag(code: str) -> str:
    """A language code's primary subtag, in lower case, what two codes of one language share:
    "en-US", "en_us" and "EN" are "en"."""
    return re.split(r"[-_]", code.strip(), maxsplit=1)[0].lower()
