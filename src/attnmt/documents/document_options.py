"""How documents are cut up and put back together: DocumentOptions, the options every reader of a
document takes (attnmt.documents.pipeline translates by them), each checked once as they are made."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from attnmt.config_ranges import truth_value
from attnmt.errors import ConfigError
from attnmt.text.language_codes import as_bcp_47, is_language_code

# What an attribute's name can be (XML's Name, which the HTML names of every real attribute are too):
# a name with anything else ("alt;title") matches no attribute, and would translate none without a word.
ATTRIBUTE_NAME = re.compile(r"[^\W\d][\w.:-]*")


@dataclass(frozen=True)
class DocumentOptions:
    """How documents are cut up and put back together (the search itself: attnmt.decoding).

    source_lang:  language code for the sentence segmenter (sentencex knows ~300), and the language an
                  XLIFF file's source-language (srcLang) must name, by its primary subtag
    target_lang:  written into an HTML document's ``lang`` attribute, and into each ``lang`` and
                  ``xml:lang`` on and around its blocks of translated text (attnmt.documents.language;
                  None: left as they were)
    split:        paragraphs into sentences (False: each block, line or cue translated whole)
    rewrap:       a plain text's hard-wrapped paragraphs (an e-mail's, a book's at 72 columns) translated
                  whole and filled again to their width (attnmt.documents.hard_wrap; False: a line at a time)
    lines_split:  an XML or HTML block's line breaks end its sentences, as DeepL's split_sentences=1 (False: spaces)
    splitting_tags: the XML elements, by name as written (``br``, ``ph:x``), that end a sentence: one with text is
                  a block of its own, translated apart from the text around it, an empty one ends the sentence
                  where it stands (DeepL's splitting_tags: ``a dog runs<br/>two men walk`` is two sentences)
    non_splitting_tags: the XML elements, by name as written, never read as blocks of their own: their words go
                  on the sentence around and beside them (DeepL's non_splitting_tags: ``<par>The firm said it
                  had </par><par>been robbed.</par>`` is one sentence, though its elements stand side by side)
    attributes:   HTML attributes whose values are translated (``()``: none; in HTML, in any case;
                  ``value`` only on a button's ``<input>``, a form's data elsewhere; ``content`` only on
                  a ``<meta>`` of text, a page's description, a link preview's title; ``label`` only on an
                  ``<optgroup>``, ``<option>`` or ``<track>``: text_attributes.holds_text)
    macros:       office files with macros (.docm, .pptm, .xlsm) accepted, their macros kept as they are
                  (attnmt.documents.office; refused otherwise)
    macros_hint:  how the refusal of a file with macros ends: how its reader can have them accepted, which
                  only the caller knows (the command line's --allow-macros; a server's clients cannot,
                  its operator can)
    xliff_hint:   how the refusal of an XLIFF file that is no XLIFF (its root not ``<xliff>``) ends: how
                  to have it translated as plain XML, which only the caller knows (the command line's
                  --input-format xml; a server's clients, who pass no flag, a name ending .xml)
    target_lang_option: the option that asks for a target language, where ``target_lang`` was not asked
                  for but is the model's (the command line's --target-lang, left out): an XLIFF file for
                  another language is refused naming the model's and how to ask for the file's (None: asked for)
    source_lang_option, source_lang_known: the same of ``source_lang`` (the command line's --source-lang);
                  known False where it is only the splitter's default (no model's language, none asked for):
                  an XLIFF file's source-language is then not checked against it
    source_lang_asked: False where ``source_lang`` is the model's and no option asks for another (a
                  server's: its clients choose a model, not what it reads): an XLIFF file in another
                  language is refused saying the model translates from it, not that it was asked for
    """

    source_lang: str = "en"
    target_lang: str | None = None
    split: bool = True
    # data-bs-title: the text of a Bootstrap 5 tooltip or popover (shown as title is, where it has none);
    # abbr: a table header's short form, which screen readers read out (a <th>'s or <td>'s only);
    # aria-description, aria-placeholder, aria-roledescription, aria-valuetext: WAI-ARIA's other texts a screen
    # reader reads out (a widget's description, an empty custom text box's hint, "slide" for a carousel's group,
    # "3 of 5 stars" for a slider's value)
    attributes: tuple[str, ...] = ("title", "alt", "placeholder", "aria-label", "label", "value", "content",
                                   "data-bs-title", "abbr", "aria-description", "aria-placeholder",
                                   "aria-roledescription", "aria-valuetext")
    macros: bool = False
    macros_hint: str = "they are refused unless asked for (DocumentOptions(macros=True)), and kept as they are then"
    xliff_hint: str = "a name ending .xml translates it as plain XML"
    target_lang_option: str | None = None
    source_lang_option: str | None = None
    source_lang_known: bool = True
    source_lang_asked: bool = True
    rewrap: bool = True  # these last: a caller's positional fields keep their places
    lines_split: bool = False
    splitting_tags: frozenset[str] = frozenset()
    non_splitting_tags: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        """One clear error for an option of the wrong type, before any document is read: a None source_lang
        was an AttributeError here, a number for target_lang a TypeError deep in lxml, split="no" was
        taken as true (any non-empty text is), and "German" was written into ``lang``.  The language
        codes are read as the command line reads them (attnmt.text.language_codes): de_DE is de-DE."""
        if isinstance(self.source_lang, str) and not self.source_lang.strip():
            raise ConfigError("document option source_lang is empty: give a language code such as 'en'")
        if not is_language_code(self.source_lang):
            raise ConfigError(f"document option source_lang: expected a language code such as 'en', 'de' or "
                              f"'pt-BR' (for the sentence splitter), got {self.source_lang!r}")
        if self.target_lang is not None and not is_language_code(self.target_lang):
            raise ConfigError(f"document option target_lang: expected a language code such as 'de', 'fr' or "
                              f"'pt-BR' (or None: lang attributes left as they were), got {self.target_lang!r}")
        if self.target_lang is not None:
            object.__setattr__(self, "target_lang", as_bcp_47(self.target_lang))  # frozen: set once, here
        for name in ("split", "rewrap", "lines_split", "macros", "source_lang_known", "source_lang_asked"):
            if (switch := truth_value(getattr(self, name))) is None:
                raise ConfigError(f"document option {name}: expected true or false, got {getattr(self, name)!r}")
            object.__setattr__(self, name, switch)  # frozen: set once, here
        self.check_attributes()
        for name in ("splitting_tags", "non_splitting_tags"):
            tags = getattr(self, name)
            tags = () if isinstance(tags, str | bytes) or not isinstance(tags, Iterable) else tuple(tags)
            if not all(isinstance(tag, str) for tag in tags) or (getattr(self, name) and not tags):
                raise ConfigError(f"document option {name}: expected element names, such as frozenset({{'br'}}), "
                                  f"got {getattr(self, name)!r}")
            object.__setattr__(self, name, frozenset(tags))  # a list given is kept as the set it names

    def check_attributes(self) -> None:
        """``attributes`` as a tuple of names an attribute can have; ConfigError otherwise (one str
        "alt" was the attributes a, l and t; a generator was used up by the check)."""
        names = self.attributes
        if isinstance(names, Iterable) and not isinstance(names, str | bytes):
            names = tuple(names)
        if not isinstance(names, tuple) or not all(isinstance(name, str) for name in names):
            raise ConfigError(f"document option attributes: expected a tuple of names, such as ('alt', 'title'), "
                              f"got {self.attributes!r}")
        for name in names:
            if not ATTRIBUTE_NAME.fullmatch(name):
                raise ConfigError(f"document option attributes (--attributes): {name!r} cannot be an attribute's "
                                  "name (a letter or '_' first, then letters, digits, '-', '_', '.', ':'); separate "
                                  "names with commas, as in 'alt,title'")
        object.__setattr__(self, "attributes", names)


DEFAULT_OPTIONS = DocumentOptions()


def check_options(options: object) -> None:
    """One clear error for ``options`` that are not DocumentOptions (a dict or None was an
    AttributeError deep in a parser)."""
    if not isinstance(options, DocumentOptions):
        raise ConfigError(f"options: expected attnmt.documents.DocumentOptions, got {type(options).__name__}; "
                          "e.g. DocumentOptions(split=False)")
