"""A file job's review (GET /v1/files/ID/review): the sentences under the quality threshold (or flagged), the
rows ``attnmt translate --review`` writes, as JSON or as its TSV.  Uncalibrated, the memorising
model is surer of a pair it knows than of words it never saw: ``support.known_apart`` is a
min_quality between the two."""

import docx
import pytest
from fastapi.testclient import TestClient
from support import UNKNOWN, known_apart, run_cli, server_events, submit_file

from attnmt.checkpoint import load_model_dir
from attnmt.decoding.calibration import Calibration
from attnmt.decoding.quality_features import INPUT_NAMES
from attnmt.server.app import ServedModel, create_app
from attnmt.server.file_api import UNCALIBRATED

TEXT = f"a dog runs\n\n{UNKNOWN}\n"


@pytest.fixture(scope="module")
def client(trained_model):
    with TestClient(create_app([ServedModel(*load_model_dir(trained_model), "en-de", "en", "de")]),
                    raise_server_exceptions=False) as client:
        yield client


def reviewed(client, name: str = "notes.txt", data: bytes = TEXT.encode(), **fields) -> dict:
    """The submitted job, once done."""
    job = submit_file(client, name, data, **fields).json()
    assert server_events(client, job["events_url"])[-1][0] == "done"
    return job


def test_a_text_files_review_lists_its_sentences_under_the_threshold_by_line(client, trained_model):
    threshold = known_apart(str(trained_model))
    job = reviewed(client, min_quality=str(threshold))
    assert job["review_url"] == f"/v1/files/{job['id']}/review"
    review = client.get(job["review_url"]).json()
    [row] = review.pop("rows")
    assert review == {"id": job["id"], "filename": "notes.de.txt", "threshold": threshold, "calibrated": False,
                      "sentences": 2, "note": UNCALIBRATED}
    assert row["line"] == 3 and row["source"] == UNKNOWN and row["quality"] < threshold
    assert "low_quality" in row["flags"] and row["translation"]


def test_a_review_is_taken_from_the_search_with_no_second_pass(client, trained_model, monkeypatch):
    from attnmt.decoding import quality

    def no_second_pass(*args, **kwargs):
        raise AssertionError("the review ran the whole teacher-forced pass (quality.assess)")

    threshold = known_apart(str(trained_model))  # before the pass is made to fail
    monkeypatch.setattr(quality, "forced_passes", no_second_pass)
    job = reviewed(client, min_quality=str(threshold))
    assert [row["line"] for row in client.get(job["review_url"]).json()["rows"]] == [3]


def test_the_review_as_tsv_is_the_table_attnmt_translate_writes(client, trained_model, tmp_path, capsys):
    source, table = tmp_path / "notes.txt", tmp_path / "notes.review.tsv"
    source.write_text(TEXT, encoding="utf-8")
    threshold = str(known_apart(str(trained_model)))
    code, _, _ = run_cli(["translate", "--model", trained_model, "--input-format", "text", "--min-quality", threshold,
                          "--review", table, source, tmp_path / "out.txt"], capsys)
    assert code == 0
    job = reviewed(client, min_quality=threshold)
    answer = client.get(job["review_url"], params={"format": "tsv"})
    assert answer.status_code == 200 and answer.headers["content-type"] == "text/tab-separated-values; charset=utf-8"
    assert 'filename="notes.de.review.tsv"' in answer.headers["content-disposition"]
    assert answer.text == table.read_text(encoding="utf-8")


def test_a_file_job_keeps_the_symbols_its_vocabulary_cannot_write_as_attnmt_translate_does(client, trained_model,
                                                                                          tmp_path, capsys):
    """The tiny model's vocabulary has no "🐕" nor "»": a file job sent them to the model, which
    dropped them, where ``attnmt translate`` keeps each where it stood (attnmt.documents.symbols).
    The job's translation and its review (every sentence, at min_quality 1) are now the command line's."""
    text = "a dog 🐕 runs.\n\n» a cat sleeps\n"
    source, table, out = tmp_path / "notes.txt", tmp_path / "notes.review.tsv", tmp_path / "out.txt"
    source.write_text(text, encoding="utf-8")
    code, _, _ = run_cli(["translate", "--model", trained_model, "--input-format", "text", "--min-quality", "1",
                          "--review", table, source, out], capsys)
    assert code == 0 and "🐕" in out.read_text(encoding="utf-8") and "»" in out.read_text(encoding="utf-8")
    job = reviewed(client, data=text.encode(), min_quality="1")
    assert client.get(job["download_url"]).text == out.read_text(encoding="utf-8")
    assert client.get(job["review_url"], params={"format": "tsv"}).text == table.read_text(encoding="utf-8")


def test_a_word_files_review_places_its_sentences_by_part_and_paragraph(client, trained_model, tmp_path):
    document = docx.Document()
    for text in ("a dog runs", UNKNOWN, "a cat sleeps"):
        document.add_paragraph(text)
    document.save(tmp_path / "in.docx")
    job = reviewed(client, "in.docx", (tmp_path / "in.docx").read_bytes(), review="true",
                   min_quality=str(known_apart(str(trained_model))))
    rows = client.get(job["review_url"]).json()["rows"]
    assert [(row["part"], row["paragraph"], row["source"]) for row in rows] == [("word/document.xml", 2, UNKNOWN)]


def test_a_word_files_review_with_no_row_has_the_part_and_paragraph_columns(client, tmp_path):
    document = docx.Document()
    document.add_paragraph("a dog runs")
    document.save(tmp_path / "in.docx")
    job = reviewed(client, "in.docx", (tmp_path / "in.docx").read_bytes(), min_quality="0")
    answer = client.get(job["review_url"], params={"format": "tsv"})
    assert answer.text == "part\tparagraph\tquality\tflags\tsource\ttranslation\n"


def test_at_the_default_threshold_the_known_sentences_need_no_review_words_never_seen_are_flagged(client):
    """Over the threshold, the sentence of words the model never saw is still listed: flagged ``unknown``."""
    review = client.get(reviewed(client, review="true")["review_url"]).json()
    assert review["threshold"] == 0.5 and review["sentences"] == 2
    [row] = review["rows"]  # how long the tiny model's words for it are (the length flag) differs by CPU
    assert row["line"] == 3 and "unknown" in row["flags"] and row["quality"] >= 0.5


def test_a_calibrated_model_says_so_and_its_threshold_is_the_calibrations(trained_model):
    inputs = len(INPUT_NAMES)  # all weights 0: every sentence's quality is 1 / (1 + e^0) = 0.5, under 0.6
    calibration = Calibration("0" * 64, [0.0] * inputs, 0.0, [0.0] * inputs, [1.0] * inputs, 0.0, (0.4, 2.5),
                              threshold=0.6)
    served = ServedModel(*load_model_dir(trained_model), "en-de", "en", "de", calibration=calibration)
    with TestClient(create_app([served])) as client:
        review = client.get(reviewed(client, review="true")["review_url"]).json()
    assert review["calibrated"] is True and "note" not in review and review["threshold"] == 0.6
    assert [(row["line"], row["quality"]) for row in review["rows"]] == [(1, 0.5), (3, 0.5)]


def test_a_file_sent_without_review_has_none(client):
    job = reviewed(client)
    assert "review_url" not in job
    answer = client.get(f"/v1/files/{job['id']}/review")
    assert answer.status_code == 409
    assert answer.json() == {"detail": "the file was translated without a review: send it with review=true"}


@pytest.mark.parametrize("fields, detail", [
    ({"review": "maybe"}, "review: expected true or false, got 'maybe'"),
    ({"min_quality": "2"}, "min_quality: expected a number from 0 to 1, got '2'"),
    ({"min_quality": "high"}, "min_quality: expected a number from 0 to 1, got 'high'"),
    ({"min_quality": "9" * 500}, f"min_quality: expected a number from 0 to 1, got '{'9' * 79}… (502 characters)"),
])
def test_a_bad_review_field_is_422_naming_it(client, fields, detail):
    answer = submit_file(client, "notes.txt", TEXT.encode(), **fields)
    assert answer.status_code == 422 and answer.json() == {"detail": detail}


def test_a_review_in_another_format_is_422_naming_the_field(client):
    job = reviewed(client, review="true")
    answer = client.get(job["review_url"], params={"format": "csv"})
    assert answer.status_code == 422 and answer.json()["detail"] == "format: Input should be 'json' or 'tsv'"
