"""The Python API of attnmt.documents on the tiny model that knows the 20 pairs."""

import re

import pytest
from support import failing_on

from attnmt.decoding import Decoding
from attnmt.documents import translate_html, translate_subtitles, translate_text, translate_xml


def test_text_html_xml_and_subtitles_through_the_model(model_and_tokenizer):
    model, tokenizer = model_and_tokenizer
    greedy = Decoding(beam_size=1)
    assert translate_text(model, tokenizer, ["a dog runs", ""], greedy) == ["ein hund rennt", ""]
    assert translate_html(model, tokenizer, "<p>the boy laughs</p>", greedy) == "<p>der junge lacht</p>"
    assert translate_xml(model, tokenizer, "<s>a cat sleeps</s>", greedy) == "<s>eine katze schläft</s>"
    cue = "3\n00:00:01,000 --> 00:00:02,000\ntwo dogs run\n"
    assert translate_subtitles(model, tokenizer, cue, greedy) == "3\n00:00:01,000 --> 00:00:02,000\nzwei hunde rennen\n"


def test_a_glossary_term_inside_tagged_text_is_written_and_the_markup_stays_whole(model_and_tokenizer):
    from lxml import etree

    from attnmt.decoding.glossary import Glossary

    model, tokenizer = model_and_tokenizer
    glossary = Glossary.of({"dog runs": "katze rennt"})  # spans the end of <b>: matched on the text a reader sees
    out = translate_html(model, tokenizer, "<p>a <b>dog</b> runs. the boy laughs</p>", Decoding(beam_size=2),
                         glossary=glossary)
    root = etree.fromstring(out)
    assert "katze rennt" in "".join(root.itertext()) and len(root.findall("b")) == 1
    assert "junge" in "".join(root.itertext())  # the other sentence, without the term, translated as before
    cue = "1\n00:00:01,000 --> 00:00:02,000\n<i>a dog runs</i>\n"
    subtitles = translate_subtitles(model, tokenizer, cue, glossary=glossary)
    assert subtitles.startswith("1\n00:00:01,000 --> 00:00:02,000\n<i>") and "katze rennt" in subtitles


def test_a_file_is_translated_into_a_file_of_its_format(model_and_tokenizer, tmp_path):
    import docx

    from attnmt.documents import translate_file
    from attnmt.errors import UserError

    model, tokenizer = model_and_tokenizer
    document = docx.Document()
    paragraph = document.add_paragraph("a ")
    paragraph.add_run("dog").bold = True
    paragraph.add_run(" runs")
    document.save(tmp_path / "in.docx")
    translate_file(model, tokenizer, tmp_path / "in.docx", tmp_path / "out.docx", Decoding(beam_size=1))
    [translated] = docx.Document(str(tmp_path / "out.docx")).paragraphs
    assert translated.text == "ein hund rennt"
    assert [run.text for run in translated.runs if run.bold] == ["hund"]

    (tmp_path / "in.srt").write_text("1\n00:00:01,000 --> 00:00:02,000\ntwo dogs run\n", encoding="utf-8")
    translate_file(model, tokenizer, tmp_path / "in.srt", tmp_path / "out.srt", Decoding(beam_size=1))
    assert (tmp_path / "out.srt").read_text(encoding="utf-8").endswith("zwei hunde rennen\n")

    (tmp_path / "broken.docx").write_bytes(b"PK\x03\x04 not a zip")
    with pytest.raises(UserError, match="broken.docx") as refused:
        translate_file(model, tokenizer, tmp_path / "broken.docx", tmp_path / "out2.docx")
    assert "\n" not in str(refused.value) and not (tmp_path / "out2.docx").exists()
    with pytest.raises(UserError, match="notes.rtf"):
        (tmp_path / "notes.rtf").write_bytes(b"{\\rtf1}")
        translate_file(model, tokenizer, tmp_path / "notes.rtf", tmp_path / "out.rtf")


@pytest.mark.parametrize("output", ["in.txt", "./in.txt", "link.txt"])
def test_a_file_is_never_translated_over_itself(model_and_tokenizer, tmp_path, monkeypatch, output):
    """translate_file(model, tokenizer, "b.txt", "b.txt") wrote the translation over its source, as the
    command line refuses to (attnmt.output_checks.check_not_an_input): a hard link is the same file too."""
    from attnmt.documents import translate_file
    from attnmt.errors import ConfigError

    model, tokenizer = model_and_tokenizer
    monkeypatch.chdir(tmp_path)
    (tmp_path / "in.txt").write_text("a dog runs\n", encoding="utf-8")
    (tmp_path / "link.txt").hardlink_to(tmp_path / "in.txt")
    with pytest.raises(ConfigError, match=rf"^the output {re.escape(output)} is the source file: give it a file of "
                                          r"its own \(in.translated.txt\)$"):
        translate_file(model, tokenizer, "in.txt", output, Decoding(beam_size=1))
    assert (tmp_path / "in.txt").read_text(encoding="utf-8") == "a dog runs\n"


@pytest.mark.parametrize(("source", "output", "named"), [
    ("in.docx", "out.odt", "out.docx"), ("in.docx", "out.txt", "out.docx"), ("in.html", "out.srt", "out.html"),
])
def test_an_output_named_for_another_format_is_refused_before_any_work(model_and_tokenizer, tmp_path, source,
                                                                        output, named):
    """translate_file(model, tokenizer, "in.docx", "out.odt") wrote Word's zip under the name of an
    OpenDocument file, where ``attnmt translate`` refuses the name (attnmt does not convert formats)."""
    import docx

    from attnmt.documents import translate_file
    from attnmt.errors import ConfigError

    model, tokenizer = model_and_tokenizer
    docx.Document().save(tmp_path / "in.docx")
    (tmp_path / "in.html").write_text("<p>a dog runs</p>", encoding="utf-8")
    made = source[source.index("."):]
    with pytest.raises(ConfigError) as refused:
        translate_file(model, tokenizer, tmp_path / source, tmp_path / output, Decoding(beam_size=1))
    assert str(refused.value) == (f"output: {tmp_path / output} names a {output[output.index('.'):]} file, but the "
                                  f"translation of a {made} file is a {made} file (attnmt does not convert "
                                  f"formats): name it {named}")
    assert not (tmp_path / output).exists()


@pytest.mark.parametrize("output", ["out.htm", "out.txt", "out.de", "out.bin"])
def test_an_output_of_the_same_kind_or_a_name_of_no_format_is_written(model_and_tokenizer, tmp_path, output):
    from attnmt.documents import translate_file

    model, tokenizer = model_and_tokenizer
    (tmp_path / "in.html").write_text("<p>a dog runs</p>", encoding="utf-8")
    translate_file(model, tokenizer, tmp_path / "in.html", tmp_path / output, Decoding(beam_size=1))
    assert (tmp_path / output).read_text(encoding="utf-8") == "<p>ein hund rennt</p>"


@pytest.mark.parametrize(("output", "message"), [
    ("{tmp}", "could not write {tmp}: it is a directory; give the name of a file to write"),
    ("{tmp}/report.docx/out.txt",
     "could not write {tmp}/report.docx/out.txt: {tmp}/report.docx is a file, not a directory"),
])
def test_an_output_that_cannot_be_written_is_one_output_error_naming_it(model_and_tokenizer, tmp_path, output, message):
    from attnmt.documents import translate_file
    from attnmt.errors import OutputError

    model, tokenizer = model_and_tokenizer
    (tmp_path / "report.docx").write_bytes(b"")
    (tmp_path / "in.txt").write_text("a dog runs\n", encoding="utf-8")
    with pytest.raises(OutputError) as refused:  # not a ModelDirError: the model is fine
        translate_file(model, tokenizer, tmp_path / "in.txt", output.format(tmp=tmp_path), Decoding(beam_size=1))
    assert str(refused.value) == message.format(tmp=tmp_path)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["in.txt", "report.docx"]  # no temporary file left


@pytest.fixture
def failing_on_the_boy(model_and_tokenizer, monkeypatch):
    """The tiny model, its encoder raising on any batch that holds the sentence "the boy laughs"."""
    model, tokenizer = model_and_tokenizer
    failing_on(model, tokenizer, "the boy laughs", monkeypatch)
    return model, tokenizer


def test_a_text_the_model_fails_on_is_named_by_its_index_and_the_other_texts_keep_their_translations(
        failing_on_the_boy):
    from attnmt.decoding.failed_sentences import SentencesFailed
    from attnmt.documents import translate_html_texts

    model, tokenizer = failing_on_the_boy
    greedy = Decoding(beam_size=1)
    # Text 1's second sentence is the third distinct sentence sent: the failure names the text, not it.
    with pytest.raises(SentencesFailed) as failed:
        translate_text(model, tokenizer, ["a cat sleeps", "a dog runs\tthe boy laughs", "a cat sleeps"], greedy)
    assert list(failed.value.failures) == [1] and str(failed.value.failures[1]) == "boom"
    assert failed.value.outputs == ["eine katze schläft", "", "eine katze schläft"]
    with pytest.raises(SentencesFailed) as failed:
        translate_html_texts(model, tokenizer, ["<p>a dog runs</p>", "<p>a cat sleeps</p><p>the boy laughs</p>",
                                               "<p>two dogs run</p>"], greedy)
    assert list(failed.value.failures) == [1]
    assert failed.value.outputs == ["<p>ein hund rennt</p>", "", "<p>zwei hunde rennen</p>"]


def test_a_page_or_subtitle_file_the_model_fails_on_fails_whole(failing_on_the_boy):
    from attnmt.decoding.failed_sentences import SentencesFailed

    model, tokenizer = failing_on_the_boy
    cues = "1\n00:00:01,000 --> 00:00:02,000\n<i>a dog runs</i>\n\n2\n00:00:03,000 --> 00:00:04,000\nthe boy laughs\n"
    for translating, text in [(translate_html, "<p>a dog runs</p><p>the boy laughs</p>"),
                              (translate_xml, "<s>a dog runs</s><s>the boy laughs</s>"),
                              (translate_subtitles, cues)]:
        with pytest.raises(SentencesFailed) as failed:
            translating(model, tokenizer, text, Decoding(beam_size=1))
        assert list(failed.value.failures) == [0] and failed.value.outputs == ""


def test_a_file_the_model_fails_on_is_one_line_naming_it_and_nothing_is_written(failing_on_the_boy, tmp_path):
    """translate_file let the search's SentencesFailed out, "the model failed on 1 sentence(s), the first
    on sentence 2", keyed by the file's distinct sentences: the file was named nowhere."""
    from attnmt.decoding.failed_sentences import SentencesFailed
    from attnmt.documents import translate_file

    model, tokenizer = failing_on_the_boy
    page, output = tmp_path / "part.html", tmp_path / "part.de.html"
    page.write_text("<p>a dog runs</p>\n<p>the boy laughs</p>\n", encoding="utf-8")
    output.write_text("the last translation\n", encoding="utf-8")
    with pytest.raises(SentencesFailed) as failed:
        translate_file(model, tokenizer, page, output, Decoding(beam_size=1))
    assert str(failed.value) == (f"{page}: not translated, the model failed on 1 of its sentences "
                                 "(the first: RuntimeError: boom); nothing was written")
    assert list(failed.value.failures) == [0] and failed.value.outputs is None  # one text, failed whole
    assert isinstance(failed.value.__cause__, SentencesFailed) and len(failed.value.__cause__.failures) == 1
    assert output.read_text(encoding="utf-8") == "the last translation\n"
