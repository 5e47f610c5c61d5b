"""A language switcher's entries: a link to the page in another language (``<a hreflang="fr">``) or a
dropdown's option for one (``<option value="fr">``) that shows that language's own name, "Français",
"Deutsch (Schweiz)".  Kept whole, as a passage in its own language is (attnmt.documents.elements.Vocabulary.
is_foreign): the switcher of a translated page still offers each reader their language by its own name, where
the demo model turned "Deutsch" into "Ein Hühhner" and "English" into "Auf diesem Firme".  A link that says
more than the name ("Read it in French") is translated."""

from __future__ import annotations

from lxml import etree

from attnmt.documents.pages import local_name
from attnmt.text.language_codes import is_language_code, primary_subtag
from attnmt.text.language_names import own_names, plain

# The attribute that names the language an element leads to: a link's hreflang, a dropdown option's value.
LEADS_TO = {"a": "hreflang", "option": "value"}


def names_its_language(node: etree._Element) -> bool:
    """Whether ``node`` leads to a language (LEADS_TO) whose own name it shows, alone (language_names.own_names;
    a region or script after it in parentheses aside)."""
    leads_to = LEADS_TO.get(local_name(node))
    code = (node.get(leads_to) or "").strip() if leads_to else ""
    return is_language_code(code) and plain("".join(node.itertext())) in own_names(primary_subtag(code))
