"""attnmt.documents.markdown_names: a Python name in double underscores typed in Markdown's text is kept whole."""

import pytest

from attnmt.documents.markdown import translate_markdown


@pytest.mark.parametrize("text, kept", [
    ("Call __init__ in Python.\n", "__init__"),
    ("Edit __init__.py first.\n", "__init__.py"),
    ("The __repr__() method.\n", "__repr__()"),
    ("# The __main__ module\n", "__main__"),
])
def test_a_python_name_in_double_underscores_is_kept_as_written_not_read_as_strong(text, kept, upper):
    """CommonMark reads ``__init__`` as strong "init": the model was given "Call init in Python." and wrote
    "INIT" (``__INIT__``), as it writes any word; ``__repr__()``'s brackets went to it apart."""
    translated = translate_markdown(text, upper)
    assert kept in translated and kept.upper() not in translated
    name = kept.split("__")[1]
    assert upper.given and not any(name in sentence.lower().split() or "()" in sentence for sentence in upper.given)


@pytest.mark.parametrize("text, strong", [
    ("A __small__ toolkit.\n", "__SMALL__"),  # bold written with underscores: no name of Python's
    ("An __init__ and __bold__ word.\n", "__BOLD__"),
])
def test_any_other_word_in_double_underscores_stays_strong_and_is_translated(text, strong, upper):
    translated = translate_markdown(text, upper)
    assert strong in translated and "__INIT__" not in translated
