"""DeepL's splitting_tags and non_splitting_tags with tag_handling=xml: the elements a client names end a sentence,
or never do, as DeepL's documentation of its XML handling says.  Both were read past."""

import functools
import re

import pytest
from lxml import etree
from support import deepl_text

from attnmt.documents import DocumentOptions
from attnmt.errors import ConfigError

xml = functools.partial(deepl_text, tag_handling="xml")


def words(text: str) -> str:
    """What an XML text says, its tags left out and its spaces one."""
    return re.sub(r"\s+", " ", "".join(etree.fromstring(text).itertext())).strip()


def inner(text: str) -> str:
    return re.fullmatch(r"<r>(.*)</r>", text)[1]


@pytest.mark.parametrize(("split", "written"), [
    ({"splitting_tags": ["br"]}, "<r>{}<br/>{}</r>"),
    ({"splitting_tags": "br", "split_sentences": "0"}, "<r>{}<br/>{}</r>"),  # a form's commas; no line break
    ({"splitting_tags": ["x:br"]}, '<r xmlns:x="urn:x">{}<x:br/>{}</r>'),  # the name as the text writes it
    ({"splitting_tags": ["b"]}, "<r>{} <b>{}</b></r>")])  # one with text: a block of its own
def test_an_element_of_splitting_tags_ends_the_sentence_before_it(deepl_client, split, written):
    """The two halves went to the model as one sentence, "a dog runs two men walk": "<r>ein hund<br/>rennt</r>"."""
    sent = written.format("a dog runs", "two men walk")
    alone = written.format(*(inner(xml(deepl_client, f"<r>{half}</r>")) for half in ("a dog runs", "two men walk")))
    assert xml(deepl_client, sent, **split) == alone
    assert xml(deepl_client, sent) != alone


def test_an_element_of_non_splitting_tags_goes_on_the_sentence_beside_it(deepl_client):
    """Side by side, each element was a block translated alone: "a bike" as a sentence of its own."""
    sent = "<r><par>a man rides </par><par>a bike</par></r>"
    whole = words(xml(deepl_client, "<r>a man rides a bike</r>"))
    assert words(xml(deepl_client, sent, non_splitting_tags=["par"])) == whole
    assert words(xml(deepl_client, sent)) != whole


def test_splitting_tags_are_read_by_xml_alone(deepl_client):
    """DeepL's XML handling reads them; a plain text's tags are its words."""
    plain = xml(deepl_client, "a dog runs", tag_handling=None)
    assert xml(deepl_client, "a dog runs", tag_handling=None, splitting_tags="br") == plain


@pytest.mark.parametrize("name", ["splitting_tags", "non_splitting_tags", "ignore_tags"])
@pytest.mark.parametrize("value", [5, {"b": 1}, ["b", 5]])
def test_names_of_another_json_type_are_400_naming_the_parameter(deepl_client, name, value):
    """``5`` was read as an element named "5", ``{"b": 1}`` as one named "{'b': 1}"."""
    body = {"text": ["<r>a dog runs</r>"], "target_lang": "DE", "tag_handling": "xml", name: value}
    answer = deepl_client.post("/v2/translate", json=body)
    assert answer.status_code == 400 and answer.json()["message"].startswith(f"Value for '{name}' not supported: ")


def test_the_document_options_take_element_names_only():
    assert DocumentOptions(splitting_tags=["br", "br"]).splitting_tags == frozenset({"br"})
    with pytest.raises(ConfigError, match="non_splitting_tags: expected element names"):
        DocumentOptions(non_splitting_tags="par")  # a str is no set of names: "p", "a", "r"
