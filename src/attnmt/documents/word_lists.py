"""The choices a Word form's drop-down list or combo box offers (a content control's ``w:listItem``),
translated, and the choice it shows following its translation.

Such a control is kept whole in its sentence (attnmt.documents.word_controls): its content is the
item chosen, which Word writes from its list.  Left as they were, a translated form offered English
choices among German words, and a user's pick put English into the document.  Each item's shown text
(its ``w:displayText``; Word shows its ``w:value`` where it has none) is translated as a line, each
text once, and becomes the item's ``w:displayText``, written as a part of a sentence, as the source item is
(attnmt.documents.chosen_items: "ein rotes Auto" for "a red car", not "Ein rotes Auto."); its ``w:value``, the
data the form gives a program or a data binding, is kept.  A control that shows an item's text (all its content's text)
shows that item's translation, written into its first text, the others emptied, as a choice Word made
from the translated list would be.  As a spreadsheet's drop-down items are (attnmt.documents.result_literals).
"""

from __future__ import annotations

from collections.abc import Iterable

from lxml import etree

from attnmt.documents.archive import Part
from attnmt.documents.chosen_items import as_written
from attnmt.documents.letterless import needs_translation
from attnmt.documents.pipeline import DocumentOptions, translate_lines
from attnmt.documents.review import Review
from attnmt.documents.tables import XML_SPACE
from attnmt.documents.translator_parts import translator_glossary
from attnmt.documents.translators import ForXml, Translator
from attnmt.documents.word_controls import Reshown
from attnmt.documents.wordml import w

LISTS = (w("dropDownList"), w("comboBox"))  # a control's kinds that offer a list of items


def list_controls(root: etree._Element) -> list[tuple[etree._Element, list[etree._Element]]]:
    """Each content control of ``root`` that offers a list (LISTS), with its items."""
    found = []
    for control in root.iter(w("sdt")):
        kind = next((child for child in control.iterfind(f"{w('sdtPr')}/*") if child.tag in LISTS), None)
        if kind is not None:
            found.append((control, kind.findall(w("listItem"))))
    return found


def shown(item: etree._Element) -> str:
    """What Word shows of a list's ``item``: its display text, else its value."""
    return item.get(w("displayText")) or item.get(w("value"), "")


def translate_list_items(parts: Iterable[Part], translator: Translator, options: DocumentOptions,
                         review: Review | None = None, reshown: Reshown | None = None) -> None:
    """Each list control's items in ``parts`` (a Word document's) translated by ``translator``, and the
    item each control shows following them (module docstring); ``review`` lists each text at its part
    (Review.places_after), the parts changed are marked so; ``reshown`` is told of each control's new choice."""
    glossary = translator_glossary(translator)
    held = [(part, control, items) for part in parts for control, items in list_controls(part.tree.getroot())]
    texts = ((part.member, shown(item)) for part, _, items in held for item in items)
    todo = [(member, text) for member, text in dict.fromkeys(texts) if needs_translation(text, glossary)]
    if not todo:
        return
    places = review.places_after([member for member, _ in todo]) if review is not None else None
    translated = translate_lines([text for _, text in todo], ForXml(translator), options, review, empty_kept=True,
                                 places=places)
    # an item is chosen into a sentence: written as a part of it, not as the sentence the model made of it
    translations = {text: as_written(text, now, options.target_lang)
                    for (_, text), now in zip(todo, translated, strict=True)}
    if review is not None and places is not None:
        for place, (_, text) in zip(places, todo, strict=True):
            review.written(place, text, translations[text])  # its row shows what the list offers
    for part, control, items in held:
        for item in items:
            if shown(item) in translations:
                item.set(w("displayText"), translations[shown(item)])
                part.changed = True
        chosen = show_choice(control, translations)
        if chosen is not None and reshown is not None:
            reshown(control, chosen, translations[chosen])


def show_choice(control: etree._Element, translations: dict[str, str]) -> str | None:
    """``control``'s content, where its text is all one item's shown text, that item's translation; that
    text (None where it shows none of the items)."""
    texts = list(control.iterfind(f"{w('sdtContent')}//{w('t')}"))
    chosen = "".join(text.text or "" for text in texts)
    if chosen not in translations:
        return None
    for text, now in zip(texts, [translations[chosen], *[""] * (len(texts) - 1)], strict=True):
        text.text = now
    texts[0].set(XML_SPACE, "preserve")
    return chosen
