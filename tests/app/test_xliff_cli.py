"""``attnmt translate app.xlf app.de.xlf``: an XLIFF file chosen by its extension, end to end on the
tiny model (attnmt.documents.xliff)."""

import pytest
import yaml
from lxml import etree
from support import run_cli

NS = {"x": "urn:oasis:names:tc:xliff:document:1.2"}
XLIFF = ('<?xml version="1.0" encoding="UTF-8"?>\n<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">'
         '<file source-language="en" datatype="plaintext" original="x"><body>\n'
         '<trans-unit id="1"><source>a dog runs</source><note>the home page</note></trans-unit>\n'
         "</body></file></xliff>\n")


def test_an_xlf_file_is_translated_as_xliff_by_its_extension(trained_model, tmp_path, capsys):
    """Read as text, each line of XML went to the model and no XML parser opened the output."""
    source, output = tmp_path / "app.xlf", tmp_path / "app.de.xlf"
    source.write_text(XLIFF, encoding="utf-8")
    code, _, _ = run_cli(["translate", "--model", trained_model, source, output, "--target-lang", "de"], capsys)
    root = etree.parse(str(output)).getroot()
    assert code == 0 and root.find("x:file", NS).get("target-language") == "de"
    unit = root.find(".//x:trans-unit", NS)
    assert [(child.tag.rpartition("}")[2], child.text) for child in unit] == [
        ("source", "a dog runs"), ("target", "ein hund rennt"), ("note", "the home page")]


def test_an_xliff_file_may_be_written_under_either_xml_name(trained_model, tmp_path, capsys):
    """XLIFF is XML: .xlf to .xliff, and --input-format xml into an .xlf, are no change of format."""
    source = tmp_path / "app.xlf"
    source.write_text(XLIFF, encoding="utf-8")
    code, _, _ = run_cli(["translate", "--model", trained_model, source, tmp_path / "app.de.xliff"], capsys)
    assert code == 0 and "<target " in (tmp_path / "app.de.xliff").read_text(encoding="utf-8")
    code, _, _ = run_cli(["translate", "--model", trained_model, "--input-format", "xml", source,
                          tmp_path / "as-xml.xlf"], capsys)
    assert code == 0


def test_an_xliff_file_that_is_not_well_formed_is_refused_in_one_line_and_nothing_written(trained_model, tmp_path,
                                                                                          capsys):
    """It was "repaired" with a warning and exit 0: the & deleted from the file's own source."""
    source, output = tmp_path / "bad.xlf", tmp_path / "bad.de.xlf"
    source.write_text(XLIFF.replace("a dog runs", "a dog & cat"), encoding="utf-8")
    code, _, err = run_cli(["translate", "--model", trained_model, source, output], capsys)
    assert code == 2 and not output.exists()
    assert err == (f"attnmt: error: {source} is not well-formed XML at line 3, column 35: a & that starts no entity "
                   "reference (write & as &amp;)\n")


def test_a_file_for_another_language_than_the_models_is_refused_as_the_server_refuses_it(english_to_german, tmp_path,
                                                                                          capsys):
    """--target-lang left out, a file for fr went through an en-de model with exit 0: German targets
    under target-language fr.  The model's language is taken as the server takes it; --target-lang
    still says otherwise."""
    source, output = tmp_path / "app.xlf", tmp_path / "app.out.xlf"
    source.write_text(XLIFF.replace('source-language="en"', 'source-language="en" target-language="fr"'),
                      encoding="utf-8")
    code, _, err = run_cli(["translate", "--model", english_to_german, source, output], capsys)
    assert code == 2 and not output.exists()
    assert err == (f"attnmt: error: {source}: the file's target-language is fr, the model's target language (from "
                   "its train.yaml) is de: give --target-lang fr to translate it into fr, or take a file for de\n")
    code, _, err = run_cli(["translate", "--model", english_to_german, source, output, "--target-lang", "de"], capsys)
    assert code == 2 and err == (f"attnmt: error: {source}: the file's target-language is fr, the target language "
                                 "asked for de: translate it into fr, or take a file for de\n")
    code, _, _ = run_cli(["translate", "--model", english_to_german, source, output, "--target-lang", "fr"], capsys)
    assert code == 0 and etree.parse(str(output)).getroot().find("x:file", NS).get("target-language") == "fr"


def test_a_file_in_another_language_than_the_models_source_is_refused(english_to_german, trained_model, tmp_path,
                                                                    capsys):
    """A French file went through an en-de model as English, exit 0, even with --source-lang en: its
    source-language is checked against the model's, or the one given, as its target-language is."""
    source, output = tmp_path / "fr.xlf", tmp_path / "fr.de.xlf"
    source.write_text(XLIFF.replace('source-language="en"', 'source-language="fr"'), encoding="utf-8")
    code, _, err = run_cli(["translate", "--model", english_to_german, source, output], capsys)
    assert code == 2 and not output.exists()
    assert err == (f"attnmt: error: {source}: the file's source-language is fr, the model's source language (from "
                   "its train.yaml) is en: translate it with a model from fr (or give --source-lang fr where this one "
                   "reads it), or take a file in en\n")
    code, _, err = run_cli(["translate", "--model", english_to_german, source, output, "--source-lang", "en"], capsys)
    assert code == 2 and err == (f"attnmt: error: {source}: the file's source-language is fr, the source language "
                                 "asked for en: translate it from fr, or take a file in en\n")
    code, _, _ = run_cli(["translate", "--model", english_to_german, source, output, "--source-lang", "fr-FR"], capsys)
    assert code == 0 and output.exists()
    # the tiny model's training names no language: --source-lang's default is the splitter's alone
    code, _, err = run_cli(["translate", "--model", trained_model, source, tmp_path / "fr.out.xlf"], capsys)
    assert code == 0, err


def test_a_file_without_a_target_language_is_given_the_models(english_to_german, tmp_path, capsys):
    source, output = tmp_path / "app.xlf", tmp_path / "app.de.xlf"
    source.write_text(XLIFF, encoding="utf-8")
    code, _, _ = run_cli(["translate", "--model", english_to_german, source, output], capsys)
    assert code == 0 and etree.parse(str(output)).getroot().find("x:file", NS).get("target-language") == "de"


def test_a_model_whose_training_names_no_languages_leaves_the_file_as_it_says(trained_model, tmp_path, capsys):
    """The tiny model was trained on train.src and train.tgt: the file's own target-language stands."""
    source, output = tmp_path / "app.xlf", tmp_path / "app.out.xlf"
    source.write_text(XLIFF.replace('source-language="en"', 'source-language="en" target-language="fr"'),
                      encoding="utf-8")
    code, _, _ = run_cli(["translate", "--model", trained_model, source, output], capsys)
    assert code == 0 and etree.parse(str(output)).getroot().find("x:file", NS).get("target-language") == "fr"


def test_a_multilingual_models_file_keeps_its_own_target_language(trained_copy, tmp_path, capsys):
    """A model trained on en->de and en->fr (>>fr<< tokens) was taken for an en-de one, its first train:
    entry: its XLIFF file for fr was refused as "asked for de", which no one had asked for."""
    record = trained_copy / "train.yaml"
    config = yaml.safe_load(record.read_text(encoding="utf-8"))
    train = [{"src": "a.en", "tgt": "a.de"}, {"src": "b.en", "tgt": "b.fr"}]
    record.write_text(yaml.safe_dump({**config, "train": train}), encoding="utf-8")
    source, output = tmp_path / "frtok.xlf", tmp_path / "frtok.out.xlf"
    source.write_text(XLIFF.replace('source-language="en"', 'source-language="en" target-language="fr"'),
                      encoding="utf-8")
    code, _, err = run_cli(["translate", "--model", trained_copy, source, output], capsys)
    assert code == 0, err
    assert etree.parse(str(output)).getroot().find("x:file", NS).get("target-language") == "fr"


@pytest.mark.parametrize("suffix", [".SDLXLIFF", ".MQXLIFF", ".XLF", ".XLIFF"])
def test_an_xliff_extension_in_capitals_is_read_as_xliff(trained_model, tmp_path, capsys, suffix):
    """JOB.SDLXLIFF out.SDLXLIFF, as Trados and Windows name files: its XML is not read as lines of text."""
    source, output = tmp_path / f"JOB{suffix}", tmp_path / f"out{suffix}"
    source.write_text(XLIFF, encoding="utf-8")
    code, _, _ = run_cli(["translate", "--model", trained_model, source, output, "--target-lang", "de"], capsys)
    target = etree.parse(str(output)).getroot().find(".//x:target", NS)
    assert code == 0 and target.text == "ein hund rennt"
