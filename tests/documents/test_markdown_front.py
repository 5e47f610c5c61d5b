"""A Markdown page's front matter (attnmt.documents.markdown_front): the title, description and the
like a docs site shows translated, in the value's own quoting; every other byte kept.  Upper:
words upper-cased; Mirror: upper-cased in reverse order."""

import pytest
import yaml

from attnmt.documents.markdown import translate_markdown

PAGE = ("---\n"
        "title: Getting started\n"
        "description: \"How to \\\"install\\\" the tool\"\n"
        "summary: 'It''s quick'\n"
        "date: 2024-05-01\n"
        "tags: [setup, install]\n"
        "slug: getting-started\n"
        "---\n"
        "\n"
        "A dog runs.\n")


def test_the_title_and_description_are_translated_in_their_own_quoting(upper):
    """They stayed in the source: a translated page kept its English title in its heading, tab and navigation."""
    out = translate_markdown(PAGE, upper)
    assert out == PAGE.replace("title: Getting started", "title: GETTING STARTED").replace(
        '"How to \\"install\\" the tool"', '"HOW TO \\"INSTALL\\" THE TOOL"').replace(
        "'It''s quick'", "'IT''S QUICK'").replace("A dog runs.", "A DOG RUNS.")
    assert set(upper.given) == {"Getting started", 'How to install the tool', "It's quick", "A dog runs."}
    front = yaml.safe_load(out.split("---\n")[1])
    assert (front["title"], front["description"], front["summary"]) == (
        "GETTING STARTED", 'HOW TO "INSTALL" THE TOOL', "IT'S QUICK")


@pytest.mark.parametrize("line", [
    "title: |\n  A literal title\n",  # a literal block scalar: its line breaks are the value's
    "title: >\n  A folded\n\n  title\n",  # a blank line folds into a line break
    "title: A title # with a comment\n",
    "title: [A, list]\n",
    "title: yes\n",  # a truth value to a YAML reader
    "title: 2024\n",
    "title: \"A \\u00e9 escape\"\n",  # an escape other than a quote's or a backslash's
    "tags: A dog runs\n",  # no key a site shows as text
    "menu:\n  title: A nested title\n",  # not at the top level
])
def test_a_value_of_another_form_or_key_is_kept(upper, line):
    page = f"---\n{line}---\n"
    assert translate_markdown(page, upper) == page
    assert upper.given == []


def test_a_folded_description_is_translated_on_one_line_of_its_block(upper):
    """A blog's ``description: >-`` over indented lines (as Hugo and Jekyll themes write a long one) stayed
    in the source, shown in search results untranslated."""
    page = "---\ndescription: >-\n  A man and his dog walk\r\n  in the park.\r\nauthor: Jane Doe\n---\n"
    out = translate_markdown(page, upper)
    assert out == "---\ndescription: >-\n  A MAN AND HIS DOG WALK IN THE PARK.\r\nauthor: Jane Doe\n---\n"
    assert upper.given == ["A man and his dog walk in the park."]
    front = yaml.safe_load(out.split("---\n")[1].replace("\r", ""))
    assert front == {"description": "A MAN AND HIS DOG WALK IN THE PARK.", "author": "Jane Doe"}


def test_a_plain_translation_that_would_read_otherwise_is_quoted(known):
    translator = known({"Getting started": ("Erste Schritte: Installation", [(0, 0)]),
                        "The tool": ("- das Werkzeug", [(0, 0)])})
    out = translate_markdown("---\ntitle: Getting started\r\ndescription: The tool\n---\n", translator)
    assert out == '---\ntitle: "Erste Schritte: Installation"\r\ndescription: "- das Werkzeug"\n---\n'
    assert yaml.safe_load(out.split("---\n")[1].replace("\r", "")) == {
        "title": "Erste Schritte: Installation", "description": "- das Werkzeug"}


def test_toml_front_matter_keeps_its_strings_quoting(known):
    translator = known({"Getting started": ("Erste Schritte", [(0, 0)]), "A guide": ("Ein 'Leitfaden'", [(0, 0)])})
    page = "+++\ntitle = \"Getting started\"\ndescription = 'A guide'\ndraft = false\n+++\n"
    assert translate_markdown(page, translator) == (
        "+++\ntitle = \"Erste Schritte\"\ndescription = \"Ein 'Leitfaden'\"\ndraft = false\n+++\n")
