"""``attnmt translate --input-format xml app_de.ts``: a Qt Linguist file, known by its root <TS>, end
to end on the tiny model (attnmt.documents.qt_linguist)."""

from lxml import etree
from support import run_cli

TS = ('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n<TS version="2.1" language="de_DE" sourcelanguage="en">\n'
      "<context>\n    <name>MainWindow</name>\n    <message>\n        <source>a dog runs</source>\n"
      '        <comment>the home page</comment>\n        <translation type="unfinished"></translation>\n'
      "    </message>\n</context>\n</TS>\n")


def test_a_qt_linguist_file_gets_its_translation_its_source_and_comment_kept(trained_model, tmp_path, capsys):
    """Read as plain XML, <source> was overwritten and the comment and the class name translated."""
    source, output = tmp_path / "app_de.ts", tmp_path / "out_de.ts"
    source.write_text(TS, encoding="utf-8")
    code, _, _ = run_cli(["translate", "--model", trained_model, "--input-format", "xml", source, output,
                          "--target-lang", "de"], capsys)
    root = etree.parse(str(output)).getroot()
    assert code == 0 and root.findtext(".//name") == "MainWindow"
    assert [(child.tag, child.text, child.get("type")) for child in root.find(".//message")] == [
        ("source", "a dog runs", None), ("comment", "the home page", None),
        ("translation", "ein hund rennt", "unfinished")]


def test_a_file_whose_root_is_ts_or_resources_is_one_document_without_an_xml_declaration(trained_model, tmp_path,
                                                                                          capsys):
    """With no <?xml ...?> it was read one fragment a line, and line 1 failed: "<TS> is never closed"."""
    ts = TS.split("\n", 2)[2]  # no declaration, no DOCTYPE
    android = '<resources>\n    <string name="title">a dog runs</string>\n</resources>\n'
    for name, text in (("app_de.ts", ts), ("strings.xml", android)):
        source, output = tmp_path / name, tmp_path / f"out_{name}"
        source.write_text(text, encoding="utf-8")
        code, _, err = run_cli(["translate", "--model", trained_model, "--input-format", "xml", source, output,
                                "--target-lang", "de"], capsys)
        assert code == 0, err
        assert "ein hund rennt" in output.read_text(encoding="utf-8")
    assert etree.parse(str(tmp_path / "out_app_de.ts")).getroot().findtext(".//source") == "a dog runs"


def test_a_ts_and_a_resx_are_translated_by_their_names_and_typescript_is_refused_in_one_line(trained_model, tmp_path,
                                                                                            capsys):
    """``attnmt translate app_de.ts out.ts`` and ``Resources.resx Resources.de.resx`` were refused: "the
    extension .ts is not a format attnmt translates"."""
    resx = '<?xml version="1.0" encoding="utf-8"?>\n<root>\n<data name="a"><value>a dog runs</value></data>\n</root>\n'
    for name, text in (("app_de.ts", TS), ("Resources.resx", resx)):
        (tmp_path / name).write_text(text, encoding="utf-8")
        output = tmp_path / f"out.{name}"
        code, _, err = run_cli(["translate", "--model", trained_model, tmp_path / name, output, "--target-lang", "de"],
                               capsys)
        assert code == 0, err
        assert "ein hund rennt</" in output.read_text(encoding="utf-8")
    assert etree.parse(str(tmp_path / "out.app_de.ts")).getroot().findtext(".//source") == "a dog runs"
    (tmp_path / "main.ts").write_text("export const a: number = 1;\n", encoding="utf-8")
    code, out, err = run_cli(["translate", "--model", trained_model, tmp_path / "main.ts", tmp_path / "out.ts"], capsys)
    assert code == 2 and not out and not (tmp_path / "out.ts").exists()
    assert err.strip().endswith("main.ts looks like TypeScript source, not a Qt Linguist file (XML whose root is "
                                "<TS>), and is not a format attnmt translates")
    assert len(err.strip().splitlines()) == 1
