"""An XLIFF unit whose every sentence kept its source (a short label the model garbled: attnmt.documents.short_labels)
gets no target: a copy of its source said to be its translation was kept by every later run."""

import pytest
from conftest import Judging
from lxml import etree

from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.xliff import translate_xliff
from attnmt.errors import AttnmtWarning

DE = DocumentOptions(target_lang="de")
NS1 = {"x": "urn:oasis:names:tc:xliff:document:1.2"}
NS2 = {"x": "urn:oasis:names:tc:xliff:document:2.0"}


def xliff_1(units: str) -> str:
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" '
            'version="1.2">\n  <file datatype="plaintext" original="menu.properties" source-language="en">\n'
            f"    <body>\n{units}    </body>\n  </file>\n</xliff>\n")


def xliff_2(units: str) -> str:
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" '
            f'version="2.0" srcLang="en" trgLang="de">\n  <file id="f1">\n{units}  </file>\n</xliff>\n')


def unit_1(name: str, source: str, target: str = "") -> str:
    return f'      <trans-unit id="{name}">\n        <source>{source}</source>\n{target}      </trans-unit>\n'


def unit_2(name: str, source: str) -> str:
    segment = f"      <segment>\n        <source>{source}</source>\n      </segment>\n"
    return f'    <unit id="{name}">\n{segment}    </unit>\n'


def test_a_garbled_label_of_xliff_1_gets_no_target_and_is_counted(mirror):
    """The demo model's "Settings" was kept in English and written <target>Settings</target> as a suggestion."""
    units = unit_1("settings", "Settings") + unit_1("quit", "Quit the program") + unit_1("dog", "A dog runs.")
    judging = Judging(mirror, {"Settings": 0.0, "Quit the program": 0.05})
    with pytest.warns(AttnmtWarning, match=r"menu\.xlf: 2 unit\(s\) left as they came, without a translation"):
        out = etree.fromstring(translate_xliff(xliff_1(units), judging, DE, "menu.xlf").encode())
    targets = {unit.get("id"): unit.find("x:target", NS1) for unit in out.iterfind(".//x:trans-unit", NS1)}
    assert targets["settings"] is None and targets["quit"] is None
    assert targets["dog"].text == "RUNS. DOG A"


def test_a_garbled_label_keeps_the_empty_target_it_came_with(mirror):
    units = unit_1("print", "Print", '        <target state="new"></target>\n')
    with pytest.warns(AttnmtWarning, match="1 unit"):
        out = translate_xliff(xliff_1(units), Judging(mirror, {"Print": 0.0}), DE, "menu.xlf")
    target = etree.fromstring(out.encode()).find(".//x:target", NS1)
    assert target.get("state") == "new" and not target.text and len(target) == 0


def test_a_garbled_label_of_xliff_2_gets_no_target_and_its_segment_no_state(mirror):
    """Its segment said state="translated" over the English copy, which a later run keeps as a person's."""
    units = unit_2("search", "Search") + unit_2("cat", "A cat sleeps.")
    with pytest.warns(AttnmtWarning, match=r"1 segment\(s\) left as they came"):
        out = etree.fromstring(translate_xliff(xliff_2(units), Judging(mirror, {"Search": 0.0}), DE, "a.xlf").encode())
    search, cat = out.iterfind(".//x:segment", NS2)
    assert search.find("x:target", NS2) is None and search.get("state") is None
    assert cat.findtext("x:target", namespaces=NS2) == "SLEEPS. CAT A" and cat.get("state") == "translated"

