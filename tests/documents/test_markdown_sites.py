"""Docs sites' Markdown (attnmt.documents.markdown_sites): MkDocs, Docusaurus, Hugo, Jekyll and MDX
syntax kept byte for byte, the text inside it translated."""

import pytest

from attnmt.documents.markdown import translate_markdown

SITE = ('## Install the dog {#install}\n\nSee [install](#install).\n\n!!! note "Note"\n    A man sits.\n\n'
        ':::tip\nA dog runs.\n:::\n\n{{< figure src="a.png" >}}\n\nimport Tabs from "@theme/Tabs";\n')


def test_the_hand_testers_page_keeps_its_syntax_and_translates_its_text(upper):
    assert translate_markdown(SITE, upper) == (
        '## INSTALL THE DOG {#install}\n\nSEE [INSTALL](#install).\n\n!!! note "NOTE"\n    A MAN SITS.\n\n'
        ':::tip\nA DOG RUNS.\n:::\n\n{{< figure src="a.png" >}}\n\nimport Tabs from "@theme/Tabs";\n')
    assert upper.given == ["Install the dog", "See install.", "Note", "A man sits.", "A dog runs."]


def test_heading_ids_and_attribute_lists_are_kept_at_the_end(mirror):
    text = "# Big dog {: #big .wide }\n\nSetext title{#top}\n===\n\nA red car\n{: .note }\n\n{: .alone }\n"
    assert translate_markdown(text, mirror) == (
        "# DOG BIG {: #big .wide }\n\nTITLE SETEXT{#top}\n===\n\nCAR RED A\n{: .note }\n\n{: .alone }\n")
    assert mirror.given == ["Big dog", "Setext title", "A red car"]


def test_admonitions_and_tabs_keep_their_lines_and_translate_their_indented_bodies(mirror):
    text = ('??? tip "Open me"\n    A dog runs.\n\n    ```sh\n    :::code\n    ```\n\n'
            '=== "First tab"\n    One two.\n\n    !!! warning\n        Nested three four.\n\nOut here.\n')
    assert translate_markdown(text, mirror) == (
        '??? tip "ME OPEN"\n    RUNS. DOG A\n\n    ```sh\n    :::code\n    ```\n\n'
        '=== "TAB FIRST"\n    TWO. ONE\n\n    !!! warning\n        FOUR. THREE NESTED\n\nHERE. OUT\n')


def test_a_container_keeps_its_opening_and_closing_lines(mirror):
    text = ":::note[Heads up]\nA dog runs.\nIt barks.\n:::\n"
    assert translate_markdown(text, mirror) == ":::note[UP HEADS]\nRUNS. DOG A BARKS. IT\n:::\n"


def test_template_tags_are_atoms_and_a_tag_alone_keeps_its_line(mirror):
    text = ("Hello {{ page.title }} and {% include note.html %} here.\n\n"
            "{{% notice tip %}}\nBe kind now.\n{{% /notice %}}\n\n{{< figure\n  src=\"a.png\" >}}\n")
    assert translate_markdown(text, mirror) == (
        "{% include note.html %} HERE. {{ page.title }} AND HELLO\n\n"
        "{{% notice tip %}}\nNOW. KIND BE\n{{% /notice %}}\n\n{{< figure\n  src=\"a.png\" >}}\n")
    assert mirror.given == ["Hello and here.", "Be kind now."]


def test_mdx_statements_snippets_toc_and_abbreviations_are_kept_whole(same):
    text = ('import {A,\n  B} from "./x";\nexport const meta = {\n  title: "Some title",\n};\n\n'
            '--8<-- "includes/abbr.md"\n\n--8<--\na.md\n--8<--\n\n[TOC]\n\n*[HTML]: Hyper Text Markup Language\n\n'
            "Text after.\n")
    assert translate_markdown(text, same) == text
    assert same.given == ["Text after."]


def test_a_definition_list_keeps_its_colon_and_translates_term_and_definition_apart(mirror):
    text = "Apple\n:   A red fruit.\n\n    More about apples.\n"
    assert translate_markdown(text, mirror) == "APPLE\n:   FRUIT. RED A\n\n    APPLES. ABOUT MORE\n"
    assert mirror.given == ["Apple", "A red fruit.", "More about apples."]


def test_a_link_to_a_template_is_a_link_and_an_image_of_one_is_kept(mirror):
    text = 'See [the *guide*]({{< ref "guide.md" >}}) now.\n\n![A dog]({{< static "a.png" >}})\n'
    assert translate_markdown(text, mirror) == 'NOW. [*GUIDE* THE]({{< ref "guide.md" >}}) SEE\n\n' \
                                               '![A dog]({{< static "a.png" >}})\n'


def test_prose_starting_with_import_or_export_is_translated(mirror):
    text = ("Before you start, remember to\nimport data, then run the script.\n\n"
            "export default settings are fine for most users.\n\n"
            "import os, sys is what the script needs (and more.\n\nSecond paragraph must be translated.\n")
    translate_markdown(text, mirror)
    assert mirror.given == ["Before you start, remember to import data, then run the script.",
                            "export default settings are fine for most users.",
                            "import os, sys is what the script needs (and more.",
                            "Second paragraph must be translated."]


def test_mdx_statements_in_javascripts_forms_are_kept_until_their_brackets_close_or_a_blank_line(same):
    text = ("import 'x.css';\nimport * as X from './x';\nexport default Layout;\n\n"
            "export function f(a) {\n  return a;\n}\n\nexport const meta = {\n  title: 'Open',\n\nNot code now.\n")
    assert translate_markdown(text, same) == text
    assert same.given == ["Not code now."]


def test_site_syntax_in_an_indented_code_block_is_code(mirror):
    text = 'Write an admonition like this:\n\n    !!! note "Title"\n        Body text of the note.\n\nDone.\n'
    assert translate_markdown(text, mirror) == (
        'THIS: LIKE ADMONITION AN WRITE\n\n    !!! note "Title"\n        Body text of the note.\n\nDONE.\n')
    assert mirror.given == ["Write an admonition like this:", "Done."]


def test_an_admonition_in_a_list_item_is_not_code(mirror):
    text = '1. Step one\n\n    !!! note "N"\n        Body one.\n\n2. Step two\n'
    assert translate_markdown(text, mirror) == '1. ONE STEP\n\n    !!! note "N"\n        ONE. BODY\n\n2. TWO STEP\n'


def test_a_scissors_line_without_file_names_after_it_keeps_only_its_line(mirror):
    text = "Cut here:\n\n----8<----\n\nThe rest of the document is prose.\n\n--8<--\na.md\nAnother paragraph.\n"
    assert translate_markdown(text, mirror) == (
        "HERE: CUT\n\n----8<----\n\nPROSE. IS DOCUMENT THE OF REST THE\n\n--8<--\na.md\nPARAGRAPH. ANOTHER\n")


def test_a_liquid_or_jinja_tag_does_not_run_over_lines(mirror):
    text = "In Go templates, {{ starts an action and the text goes on\nuntil }} ends it.\n"
    translate_markdown(text, mirror)
    assert mirror.given == ["In Go templates, {{ starts an action and the text goes on until }} ends it."]


TITLED = ('!!! note "Read this first"\n    A man sits.\n\n??? tip "Open *me* now"\n    A dog runs.\n\n'
          '???+ warning inline end\n    No title here.\n\n:::tip[Useful tip]\nA dog runs.\n:::\n\n'
          ':::tip Legacy title {#x}\nText here.\n:::\n\n=== "Linux"\n    Use apt.\n\n'
          '> [!TIP] Useful title here\n> The body text.\n\n> [!info]- Folded title\n\n'
          '<details><summary>Tips &amp; <b>tricks</b></summary>\n\nHidden text.\n\n</details>\n\n'
          '```\n!!! note "In code"\n<details><summary>In code</summary>\n```\n')


def test_docs_sites_titles_are_translated_their_keywords_quotes_and_brackets_kept(mirror, same):
    assert translate_markdown(TITLED, mirror) == (
        '!!! note "FIRST THIS READ"\n    SITS. MAN A\n\n??? tip "NOW *ME* OPEN"\n    RUNS. DOG A\n\n'
        '???+ warning inline end\n    HERE. TITLE NO\n\n:::tip[TIP USEFUL]\nRUNS. DOG A\n:::\n\n'
        ':::tip TITLE LEGACY {#x}\nHERE. TEXT\n:::\n\n=== "LINUX"\n    APT. USE\n\n'
        '> [!TIP] HERE TITLE USEFUL\n> TEXT. BODY THE\n\n> [!info]- TITLE FOLDED\n\n'
        '<details><summary><b>TRICKS</b> &amp; TIPS</summary>\n\nTEXT. HIDDEN\n\n</details>\n\n'
        '```\n!!! note "In code"\n<details><summary>In code</summary>\n```\n')
    assert mirror.given[:3] == ["Read this first", "A man sits.", "Open me now"]
    assert "Useful title here" in mirror.given and "The body text." in mirror.given
    assert translate_markdown(TITLED, same) == TITLED


def test_an_mdx_comment_is_kept_whole_alone_on_its_line_or_inside_a_text(mirror):
    """Translated and escaped as prose (``{/\\* A COMMENT \\*/}``), it was no JavaScript: the page no longer built."""
    text = "{/* A comment for editors */}\nA dog runs.\n\nText {/* TODO: fix it */} here.\n\n{/*\nOver lines\n*/}\n"
    assert translate_markdown(text, mirror) == (
        "{/* A comment for editors */}\nRUNS. DOG A\n\n{/* TODO: fix it */} HERE. TEXT\n\n{/*\nOver lines\n*/}\n")
    assert mirror.given == ["A dog runs.", "Text here."]


def test_an_mdx_expression_in_a_text_is_kept_whole(mirror):
    """MDX reads every "{" in a text as JavaScript: translated as prose, ``{props.name}`` came back as a word
    the model made up ("Kurfern"), and the page no longer built."""
    text = "A woman walks with {props.name} in the park.\n\nIt is {new Date().getFullYear()} and {a({b: {c: 1}})}.\n"
    assert translate_markdown(text, mirror, mdx=True) == (
        "PARK. THE {props.name} IN WITH WALKS WOMAN A\n\n{new Date().getFullYear()} AND {a({b: {c: 1}})}. IS IT\n")
    assert mirror.given == ["A woman walks with in the park.", "It is and."]


def test_an_inline_attribute_list_is_kept_whole_after_its_link_image_or_icon(mirror):
    """MkDocs Material's buttons and sized images: translated as prose, ``{ .MD-BUTTON }`` named no class."""
    text = ('Click [Get started](start.md){ .md-button .md-button--primary } now.\n\n'
            '![The dashboard](img/dash.png){ width="300" loading=lazy }\n\n'
            'See [the docs]{ .x } and [the api][]{ #y } with :material-clock:{ .lg } and {name}.\n\n'
            '[the docs]: a.md\n[the api]: b.md\n')
    assert translate_markdown(text, mirror) == (
        'NOW. [STARTED GET](start.md){ .md-button .md-button--primary } CLICK\n\n'
        '![DASHBOARD THE](img/dash.png){ width="300" loading=lazy }\n\n'
        '{NAME}. :material-clock:{ .lg } AND WITH [API THE][the api]{ #y } AND [DOCS THE][the docs]{ .x } SEE\n\n'
        '[the docs]: a.md\n[the api]: b.md\n')
    assert mirror.given == ["Click Get started now.", "The dashboard",
                            "See the docs and the api with and {name}."]


def test_pymdownx_keys_are_kept_whole(mirror):
    """Key names, not words: ``++ctrl+alt+del++`` came back ``++CTRL+ALT+DEL++`` (or "++Strg+Alt+Entf++")."""
    text = 'Press ++ctrl+alt+del++ or ++"My Key"++ now, and 1 ++ 2 stays.\n'
    assert translate_markdown(text, mirror) == 'STAYS. 2 ++ 1 AND ++"My Key"++ NOW, ++ctrl+alt+del++ OR PRESS\n'
    assert mirror.given == ["Press or now, and 1 ++ 2 stays."]


def test_code_and_comments_between_template_tags_are_kept_byte_for_byte(upper):
    """Read as paragraphs, their lines were joined into one and translated: ``DEF FOO PUTS "HELLO" END``."""
    text = ('{% highlight ruby %}\ndef foo\n  puts "hello"\n\nend\n{% endhighlight %}\n\n'
            '{% comment %}\nFor editors only.\n{% endcomment %}\n\n'
            '- A list item.\n\n  {{< highlight go "linenos=table" >}}\n  fmt.Println("Hello")\n  {{< /highlight >}}\n\n'
            '{% raw %}\nUse {{ it }} here.\n{% endraw %}\n')
    assert translate_markdown(text, upper) == text.replace("A list item.", "A LIST ITEM.").replace(
        "Use {{ it }} here.", "USE {{ it }} HERE.")
    assert upper.given == ["A list item.", "Use here."]


def test_pymdownx_blocks_keep_their_lines_and_options_and_translate_their_titles_and_text(upper):
    """Read as prose, a block's lines joined its text: ``/// NOTE | SOME TITLE CONTENT HERE. ///``."""
    text = ("/// note | Some title\nContent here.\n///\n\n"
            "/// details | Click to see\n    type: warning\n    open: true\n\nHidden text.\n///\n\n"
            "/// html | div\nIn a div.\n///\n\n- An item.\n\n    /// tab | Linux\n    In the item.\n    ///\n\n"
            "The /// marks and /// this | that stay text.\n")
    assert translate_markdown(text, upper) == (
        "/// note | SOME TITLE\nCONTENT HERE.\n///\n\n/// details | CLICK TO SEE\n    type: warning\n    open: true\n\n"
        "HIDDEN TEXT.\n///\n\n/// html | div\nIN A DIV.\n///\n\n- AN ITEM.\n\n    /// tab | LINUX\n    IN THE ITEM.\n"
        "    ///\n\nTHE /// MARKS AND /// THIS | THAT STAY TEXT.\n")


def test_a_title_like_line_of_kept_code_or_statements_is_not_translated(upper):
    text = ('{% highlight rust %}\n/// foo | bar\n!!! note "x y"\n{% endhighlight %}\n\n'
            'export const x = {\n::: tip Kept here\n};\n\n!!! note "Real title"\n    Body.\n')
    assert translate_markdown(text, upper) == text.replace("Real title", "REAL TITLE").replace("Body", "BODY")


def test_a_myst_directives_options_are_kept_and_its_title_and_text_translated(upper):
    """Read as its text, ``:class: tip`` came back ``:class: TIP TEXT HERE.``, a class name no more."""
    text = ":::{admonition} My own title\n:class: tip\n:name: my-note\nText here.\n:::\n"
    assert translate_markdown(text, upper) == (
        ":::{admonition} MY OWN TITLE\n:class: tip\n:name: my-note\nTEXT HERE.\n:::\n")
    assert upper.given == ["My own title", "Text here."]


@pytest.mark.parametrize("text, given, written", [
    ("> !!! note\n>     1. Open the file.\n>     2. Edit the line.\n", ["Open the file.", "Edit the line."],
     "> !!! note\n>     1. FILE. THE OPEN\n>     2. LINE. THE EDIT\n"),
    ('> ??? tip "Be careful"\n>     Hot water burns.\n>\n> After the tip.\n',
     ["Be careful", "Hot water burns.", "After the tip."],
     '> ??? tip "CAREFUL BE"\n>     BURNS. WATER HOT\n>\n> TIP. THE AFTER\n'),
    ("> :::tip Read first\n> - Feed the cat.\n> :::\n\nOutside.\n", ["Read first", "Feed the cat.", "Outside."],
     "> :::tip FIRST READ\n> - CAT. THE FEED\n> :::\n\nOUTSIDE.\n"),
    (">> :::warning\n>> 1) Turn it off.\n>> :::\n", ["Turn it off."], ">> :::warning\n>> 1) OFF. IT TURN\n>> :::\n"),
])
def test_an_admonition_or_container_in_a_block_quote_is_read_as_outside_one(mirror, text, given, written):
    """Its lines were the quote's paragraph: the model was given "!!! note 1." and ":::tip Read this. :::"."""
    assert translate_markdown(text, mirror) == written
    assert mirror.given == given



@pytest.mark.parametrize("text, given, written", [
    ("- :::tip Be quick\n  Read this.\n  :::\n- Next item.\n", ["Be quick", "Read this.", "Next item."],
     "- :::tip QUICK BE\n  THIS. READ\n  :::\n- ITEM. NEXT\n"),
    ('1. !!! note "Heads up"\n\n       The oven is hot.\n\n2. Bake the bread.\n',
     ["Heads up", "The oven is hot.", "Bake the bread."],
     '1. !!! note "UP HEADS"\n\n       HOT. IS OVEN THE\n\n2. BREAD. THE BAKE\n'),
    ("* :::warning\n  1. Unplug it.\n  :::\n", ["Unplug it."], "* :::warning\n  1. IT. UNPLUG\n  :::\n"),
])
def test_a_container_or_admonition_a_list_item_opens_with_is_read_as_on_its_own_line(mirror, text, given, written):
    """Its line was the item's text: the model was given ":::tip Be quick Read this." and "!!! note Heads up"."""
    assert translate_markdown(text, mirror) == written
    assert mirror.given == given
