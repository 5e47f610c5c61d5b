"""benchmarks/documents.py's stand-in model is a Translator (attnmt.documents.translators): its page
pass through the document machinery alone runs, rather than failing on the protocol's glossary."""

import importlib.util
from pathlib import Path

from attnmt.documents.markup import translate_markup

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "documents.py"


def test_the_benchmarks_stand_in_translator_copies_a_page_through_the_machinery():
    """``Same`` had no ``glossary``: the benchmark's page pass was an AttributeError."""
    spec = importlib.util.spec_from_file_location("documents_benchmark", BENCHMARK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    page = '<p>A <b>dog</b> runs on <a href="#">the</a> beach.</p><table><tr><td>2012</td></tr></table>'
    assert translate_markup([page], module.Same()) == [page]
