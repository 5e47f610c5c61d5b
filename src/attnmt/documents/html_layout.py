"""How HTML lays its elements out: which are blocks, each translated apart, and which are read
inline with their sentence (attnmt.documents.elements.Vocabulary asks): by name, and for an element
HTML does not know (a custom ``<my-tag>``), by where it stands."""

from __future__ import annotations

import re
from html.entities import name2codepoint

from lxml import etree

from attnmt.documents.pages import is_comment, local_name

# A <button> is read with its sentence ("Click <button>here</button> to go"); a <label> or <legend>,
# a form's caption for a control, is a block, translated apart from the controls and buttons beside it, but for a
# label that is words of a sentence (in_a_sentence).
# HTML's elements that are not read inline: blocks of their own, each translated apart.  Those of
# INLINE and ATOMS are read inline, as browsers show them; one HTML does not know, a custom <my-tag>,
# is inline where it stands in running text and a block where it touches a word or an element
# (touches_neighbour) or stands on a line of its own (on_its_own_line).
BLOCKS = frozenset("html head title base body article section nav aside h1 h2 h3 h4 h5 h6 hgroup header footer "
                   "address main search p hr pre blockquote ol ul menu li dl dt dd figure figcaption div table "
                   "caption colgroup col tbody thead tfoot tr td th form label datalist optgroup option fieldset "
                   "legend details summary dialog applet center dir frame frameset isindex listing marquee menuitem "
                   "multicol noembed noframes plaintext xmp".split())
# The form fields a <label> may caption (a labelable element's, but for <output>): one inside it makes it a caption.
FIELDS = frozenset("button input meter progress select textarea".split())
# HTML's inline (phrasing) elements that hold text read with their sentence.
INLINE = frozenset("a abbr acronym b bdi bdo big blink button cite data del dfn em font i ins mark nobr picture q rb "
                   "rtc ruby s slot small span strike strong sub sup time tt u".split())
# Inline elements that only change how their words look: one the translation left holding nothing gets its words
# back (attnmt.documents.emptied_marks), or, over a number alone, is left out (attnmt.documents.emptied_looks); a
# link, a button, a ruby or a value is not.
LOOKS = frozenset("abbr acronym b bdi bdo big blink cite del dfn em font i ins mark nobr q s small span strike strong "
                  "sub sup tt u".split())
# Links and buttons: inline, but side by side with nothing between them (a menu, a toolbar, as
# JSX and Angular write them) each is translated apart (is_block).
SIDE_BY_SIDE = frozenset(("a", "button"))
# What parts the links of a breadcrumb, a footer or a pagination bar (``<a>Home</a> » <a>Shop</a>``,
# ``<a>Privacy</a> | <a>Terms</a>``): symbols with no letter or digit, standing apart from words (the
# hyphen of "e-mail" or the slash of "1/2" is no separator).  Neither a comma nor a colon: a list of
# links in a sentence ("see <a>A</a>, <a>B</a>"), a label before its value.
SEPARATORS = "»›>/|·•–—-«‹<\\→←∙▸►▶◂◀⟩⟨~"
# Separators that point on to the next label, a path's (``<a>Home</a> › Men › Shoes``): two or more of them after
# one link make a breadcrumb, where dashes may part a sentence's words (``<a>John</a> - our founder - said``).
POINTERS = "»›>/→▸►▶"
# What a breadcrumb's element says it is, in its class, id, aria-label or schema.org itemtype (said_breadcrumb).
BREADCRUMB = re.compile("breadcrumb", re.IGNORECASE)
SEPARATOR = re.compile(rf"\s*(?<![^\s\x00\x01])[{re.escape(SEPARATORS)}]+(?![^\s\x00\x01])\s*")
# At most so many elements in a block whose links are translated apart (among_controls): a menu's or a list of tags';
# each link reads its block's text, so a paragraph of 900 links side by side took 900 times 900 steps.
MENU_ITEMS = 64
LABEL, OWN = "\x00", "\x01"  # a link or button of a trail, and the element asked about, as trail_text reads them
# Blocks that hold prose: a custom element on a line of its own in one is a line of its sentence.
PROSE = frozenset("p li h1 h2 h3 h4 h5 h6 td th dt dd caption figcaption label legend summary blockquote".split())
# Inline elements kept whole, at the place rule 2 of attnmt.documents.spans gives them; among them
# every void element but <hr> (a break between blocks) and <col> (in a table's head): one holds no
# text, so it is a point in its sentence (<meta itemprop> in a paragraph, a <source> after <wbr>);
# and a ruby's annotation (<rt>) and the brackets shown around it where ruby is not (<rp>).
ATOMS = frozenset("area br embed img input keygen link meta param source track wbr code kbd samp var script style "
                  "svg math textarea select iframe object video audio canvas noscript template meter progress "
                  "output rp rt".split())
# EPUB 3.0's <epub:switch> and its <epub:default>, the fallback most reading systems show (few render the
# MathML of its <epub:case>), by XHTML's names and those an HTML parser gives: read inline in their sentence,
# though nothing parts the default from the case before it, so that the default's words are translated
# with the words around the switch ("The speed is <switch>…<default>v</default></switch> meters per second.").
EPUB_INLINE = frozenset(("{http://www.idpf.org/2007/ops}switch", "epub:switch",
                         "{http://www.idpf.org/2007/ops}default", "epub:default"))


def is_block(node: etree._Element) -> bool:
    """An HTML element laid out as a block: one of BLOCKS; one HTML does not know (but EPUB_INLINE) that touches its
    neighbour (touches_neighbour) or stands on a line of its own (on_its_own_line: a template's
    components, ``<ion-list>\n  <ion-item>Settings</ion-item>\n  <ion-item>Log out</ion-item>``);
    or a link or button glued to another link or button (a menu, ``<a href="/">Home</a><a
    href="/about">About</a>``: read inline, "HomeAbout" was one word; glued_controls), or links and the
    labels among them parted by separators alone (a breadcrumb, a footer: in_a_trail)."""
    name = local_name(node)
    if name in BLOCKS:
        return not (name == "label" and in_a_sentence(node))
    if name in SIDE_BY_SIDE:
        return glued_controls(node) or in_a_trail(node) or among_controls(node)
    if name in INLINE:
        return in_a_trail(node)
    return name not in INLINE and name not in ATOMS and node.tag not in EPUB_INLINE and (
        touches_neighbour(node) or on_its_own_line(node))


def in_a_sentence(label: etree._Element) -> bool:
    """Whether a ``<label>`` is words of the sentence around it, read inline with it: words of its parent's text
    touch it on a side, spaces aside (``<p>I agree to the <label for="t">terms</label> of use.</p>``: a block, it
    parted the sentence in two for the model, "I agree to the" and "of use."), and no form field is inside it (a
    caption around its field, ``<label><input type="checkbox"> I agree</label>``, stays one of its own)."""
    if any(local_name(inside) in FIELDS for inside in label.iterdescendants()):
        return False
    return word_beside(label, False) or word_beside(label, True)


def word_beside(node: etree._Element, after: bool) -> bool:
    """Whether a letter or digit is the first thing shown after (or before) ``node`` in its parent, spaces aside: in
    the text there, or in an inline element next to it (``a <b>parking</b> <label>lot</label>``)."""
    gap = (node.tail or "") if after else gap_before(node)
    if gap.strip():
        return (gap.lstrip()[0] if after else gap.rstrip()[-1]).isalnum()
    sibling = node.getnext() if after else node.getprevious()
    if sibling is None or is_comment(sibling) or local_name(sibling) in BLOCKS | FIELDS:
        return False
    shown = "".join(sibling.itertext()).strip()
    return bool(shown) and (shown[0] if after else shown[-1]).isalnum()


def glued_controls(node: etree._Element) -> bool:
    """Whether a link or button and a link or button beside it show text with nothing between
    them, no space at the join (``<a>Home</a><a>(About)</a>``), past what shows no text between
    them (unseen_between).  A link beside anything else (a citation's ``<sup>``, ``<code>``, a line
    break) stays in its sentence, and so does one whose text starts or ends with a space
    (``<a>Click</a><a> here</a>``)."""
    text = "".join(node.itertext())
    previous, following = control_beside(node, False), control_beside(node, True)
    return ((previous is not None and joins("".join(previous.itertext()), text))
            or (following is not None and joins(text, "".join(following.itertext()))))


def in_a_trail(node: etree._Element) -> bool:
    """Whether a link or button is one of two or more that, with at most some plain labels, make up
    all a block holds (or the one link a block holds beside separators, a list item's ``<a>Home</a> ›``,
    or beside two or more plain labels parted by POINTERS, ``<a>Home</a> › Men › Shoes``),
    each parted from the next by separators alone (SEPARATOR: a breadcrumb
    ``<a>Home</a> » <a>Shop</a> » Shoes``, a footer's ``<a>Privacy</a> | <a>Terms</a>``, with the
    separators as text or in elements of their own, ``<span class="sep">/</span>``); or an inline
    element that is a plain label of such a trail, all of it (``» <span>Shoes</span>``).  Read as one
    sentence, "Home Shop Shoes", the model merged or reordered labels across links.  A link with
    words beside it in a part (``Click <a>here</a> - or <a>there</a>``) leaves the block a sentence."""
    if not separated(node, False) and not separated(node, True):
        return False  # prose, told apart at once (a paragraph of 900 <b>s reads each block's text once)
    parent = node.getparent()
    control = is_control(node)
    if parent is None or not (control or any(c.isalnum() for c in "".join(node.itertext()))) or not holds_all(parent):
        return False
    text = trail_text(parent, node).strip()  # the spaces and line breaks around the trail, as a page indents it
    parts = SEPARATOR.split(text)
    labels = sum(part == LABEL for part in parts) + control
    worded = any(part.strip() and part != LABEL and not (control and part == OWN) for part in parts)  # plain labels
    whole = all(part in (LABEL, OWN) or not {LABEL, OWN} & set(part) for part in parts)  # no words beside a label
    pointed = len(parts) > 2 and all(set(found.strip()) <= set(POINTERS) for found in SEPARATOR.findall(text))
    return len(parts) > 1 and labels >= 1 and OWN in parts and whole and (
        labels >= 2 or not worded or pointed or said_breadcrumb(parent))


def among_controls(node: etree._Element) -> bool:
    """Whether a link or button is one of two or more that are all their block holds, spaces alone between them: a
    menu written a link a line (Bootstrap's ``<div class="dropdown-menu">\n  <a>Action</a>\n  <a>Another
    action</a>``), a list of tags (``<a>dogs</a> <a>cats</a>``).  Read as one sentence, "Action Another action", the
    model merged or turned round their labels."""
    parent = node.getparent()
    if gap_before(node).strip() or (node.tail or "").strip() or parent is None or len(parent) > MENU_ITEMS \
            or not holds_all(parent):
        return False  # words beside it: prose, told apart at once; or more elements than a menu holds
    text = trail_text(parent, node)
    return LABEL in text and not text.replace(LABEL, "").replace(OWN, "").strip()


def said_breadcrumb(node: etree._Element) -> bool:
    """Whether ``node`` or an element around it says it is a breadcrumb (BREADCRUMB: Bootstrap's ``<ol
    class="breadcrumb">``, ``<nav aria-label="breadcrumb">``, schema.org's ``itemtype=".../BreadcrumbList"``): there
    one link and one plain label, ``<a>Home</a> » Running shoes``, are two labels, where in prose they may be
    a sentence (``<a>Paris</a> - London flights``)."""
    names = ("class", "id", "aria-label", "itemtype")
    return any(BREADCRUMB.search(" ".join(element.get(name) or "" for name in names))
               for element in (node, *node.iterancestors()))


def is_control(node: etree._Element) -> bool:
    """A link or button, or an element around one alone, which shows nothing but its text (a trail's
    ``<span itemprop="itemListElement"><a>Home</a></span>``, as Yoast and schema.org write breadcrumbs)."""
    if local_name(node) in SIDE_BY_SIDE:
        return True
    inner = [child for child in node if not is_comment(child)]
    return (len(inner) == 1 and not (node.text or "").strip() and not (inner[0].tail or "").strip()
            and local_name(inner[0]) in SIDE_BY_SIDE)


def holds_all(node: etree._Element) -> bool:
    """Whether ``node`` is a block, or all of one, only elements around it (Yoast's breadcrumb in a
    ``<span>`` alone in its ``<p>``): what it holds is all the block holds."""
    while not is_block(node):
        parent = node.getparent()
        if parent is None or (node.tail or "").strip() or (gap_before(node)).strip() or any(
                sibling is not node and not is_comment(sibling) for sibling in parent):
            return False
        node = parent
    return True


def separated(node: etree._Element, after: bool) -> bool:
    """Whether a separator stands right before (or ``after``) ``node``, spaces aside: in the text
    (`` » ``) or as an element of its own (``<span class="sep">/</span>``); none but separators and
    spaces on that side (``Click <a>here</a> - or`` has a word before it)."""
    gap = (node.tail or "") if after else gap_before(node)
    if gap.strip():
        return (gap.lstrip()[0] if after else gap.rstrip()[-1]) in SEPARATORS
    sibling = node.getnext() if after else node.getprevious()
    if isinstance(sibling, etree._Entity):
        return bool(entity_separator(sibling))
    if sibling is None or is_comment(sibling):
        return False
    text = "".join(sibling.itertext()).strip()
    if not text:
        return is_icon(sibling)
    return all(character in SEPARATORS or character.isspace() for character in text)


def trail_text(parent: etree._Element, own: etree._Element) -> str:
    """A block's text, ``own`` as OWN, each other link or button in it (is_control) as LABEL, an icon
    (is_icon) as a separator, a comment as nothing; an entity (XHTML's, unexpanded) as the separator it stands
    for (``&raquo;``: entity_separator), any other (``&copy;``) as a label, which ends any trail.  Only the run
    of text between two blocks in it that holds ``own`` counts, as a browser lays that run out apart: a footer's
    ``<p>`` before its links (``<footer><p>© Acme.</p><a>Privacy</a> | <a>Terms</a></footer>``), whose words
    made "Privacy | Terms" one sentence, the links turned round."""
    pieces = [parent.text or ""]
    for child in parent:
        if child is own:
            pieces.append(OWN)
        elif isinstance(child, etree._Entity):
            pieces.append(entity_separator(child) or LABEL + "&")
        elif not is_comment(child) and local_name(child) in BLOCKS:
            if OWN in pieces:
                break
            pieces = []
        elif is_comment(child) or (unseen_between(child) and not is_icon(child)):
            pass
        elif is_icon(child):
            pieces.append(f" {SEPARATORS[0]} ")
        elif is_control(child):
            pieces.append(LABEL)
        else:
            pieces.append("".join(child.itertext()).replace(LABEL, "").replace(OWN, ""))
        pieces.append(child.tail or "")
    return "".join(pieces)


def entity_separator(node: etree._Element) -> str:
    """The separator an XHTML page's entity reference stands for (``&raquo;``, ``&middot;``, ``&ndash;``: SEPARATORS),
    "" for any other node: an XML parser keeps such a reference whole, where an HTML one reads its character."""
    if not isinstance(node, etree._Entity) or node.name not in name2codepoint:
        return ""
    character = chr(name2codepoint[node.name])
    return character if character in SEPARATORS else ""


def is_icon(node: etree._Element) -> bool:
    """Whether an element shows no text, a picture at most, and no line break: a trail's separator drawn by
    its class or its inline SVG (``<i class="fa fa-chevron-right"></i>``, ``<span class="sep"></span>``)."""
    return (not is_comment(node) and not isinstance(node, etree._Entity) and local_name(node) != "br"
            and not "".join(node.itertext()).strip())


def control_beside(node: etree._Element, after: bool) -> etree._Element | None:
    """The link or button right before (or ``after``) ``node`` with no text between them, past
    comments, processing instructions and elements around nothing (unseen_between: a menu's icon
    ``<a class="icon-rss"></a>``, a separator ``<img alt="">``, ``<span class="sep"></span>``);
    None where text, an entity or any other element comes first."""
    sibling = node
    while not (sibling.tail if after else gap_before(sibling)):
        sibling = sibling.getnext() if after else sibling.getprevious()
        if sibling is None or isinstance(sibling, etree._Entity):
            return None
        if not unseen_between(sibling):
            return sibling if local_name(sibling) in SIDE_BY_SIDE else None
    return None


def unseen_between(node: etree._Element) -> bool:
    """Whether a node between two controls shows them no text to part them: a comment, a processing
    instruction (``<!--[if !mso]><!-- -->``, ``<?php echo 1; ?>``), or an element around nothing
    but a line break (``<br>`` parts them: attnmt.documents.elements.Vocabulary.parts_words)."""
    return is_comment(node) or (is_empty(node) and local_name(node) != "br")


def joins(first: str, second: str) -> bool:
    """Two texts that would run together: both with something to show, no space where they meet."""
    return bool(first.strip()) and bool(second.strip()) and not first[-1].isspace() and not second[0].isspace()


def on_its_own_line(node: etree._Element) -> bool:
    """Whether only spaces part an element from the line breaks before and after it (or its
    parent's start and end), at least one of them a line break; in a paragraph, a heading, a list
    item or a cell (PROSE) only where no sibling is read inline by name (``<b>``, ``<a>``: then it
    is a line of a sentence laid over lines).  In a ``<div>`` or a component, it is a block."""
    before, after = gap_before(node), node.tail or ""
    if before.strip() or after.strip() or not ("\n" in before or "\n" in after):
        return False
    parent = node.getparent()  # a paragraph's sentence laid over lines ("The <b>quick</b>\n<x>brown</x>\n")
    return parent is None or local_name(parent) not in PROSE or all(
        is_comment(child) or local_name(child) not in INLINE for child in parent)


def gap_before(node: etree._Element) -> str:
    previous = node.getprevious()
    parent = node.getparent()
    return (previous.tail if previous is not None else parent.text if parent is not None else "") or ""


def touches_neighbour(node: etree._Element, words: bool = True) -> bool:
    """Whether nothing parts an element from a word (unless not ``words``) or an element beside it: no space, no
    punctuation (``<ion-item>Settings</ion-item><ion-item>Profile</ion-item>``,
    ``<x-title>Welcome</x-title>read our news``, ``<b>park</b><o:p>&nbsp;</o:p>``).  Read inline,
    such an element glues its words to its neighbour's ("SettingsProfile") or its neighbour's
    to it; a web component standing so is laid out as a block (as XML's fields side by side are,
    elements.Vocabulary.lays_out), where one in running text (``is <my-tag>sleeping</my-tag> on``) is read
    with its sentence.  A comment beside it parts it as a space does."""
    previous, following = node.getprevious(), node.getnext()
    before, after = gap_before(node), node.tail or ""
    return ((words and (before[-1:].isalnum() or after[:1].isalnum()))
            or (not before and shows_something(previous)) or (not after and shows_something(following)))


def shows_something(node: etree._Element | None) -> bool:
    """Whether a neighbour is an element with something in it: not a comment, nor one around nothing
    (Word's ``<o:p></o:p>`` at a paragraph's end glues no words)."""
    return node is not None and not is_comment(node) and not is_empty(node)


def is_empty(node: etree._Element) -> bool:
    """An element around nothing, not even a space (``<x id="1"/>``, ``<a name="top"></a>``)."""
    return not len(node) and not node.text
