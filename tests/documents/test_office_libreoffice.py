"""LibreOffice, the application, opens every translated file: each is converted to PDF, headless,
in one run (skipped only where soffice is not installed; .ci/run installs it)."""

import shutil
import subprocess

import pytest
from chart_files import chart_word_file
from chartex_files import chartex_sheet_file, chartex_slides_file
from comment_files import (
    annotated_calc_file,
    chart_shapes_file,
    chart_text_file,
    commented_slides_file,
    noted_presentation_file,
    threaded_sheet_file,
)
from flat_files import charted_body, flat_file, zipped_file
from office_files import (
    CHUNK_PAGE,
    calc_file,
    chart_slides_file,
    chunked_word_file,
    commented_sheet_file,
    content_control_file,
    presentation_file,
    shared_string_sheet,
    sheet_file,
    slides_file,
    smartart_slides_file,
    text_file,
    word_file,
)

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")
FILES = {"word.docx": word_file, "slides.pptx": slides_file, "sheet.xlsx": lambda: shared_string_sheet(sheet_file()),
         "text.odt": text_file, "show.odp": presentation_file, "calc.ods": calc_file, "chart.pptx": chart_slides_file,
         "smartart.pptx": smartart_slides_file, "comments.xlsx": commented_sheet_file,
         "controls.docx": content_control_file, "reviewed.pptx": commented_slides_file,
         "threads.xlsx": threaded_sheet_file, "odfchart.odt": chart_text_file, "notes.odp": noted_presentation_file,
         "annotated.ods": annotated_calc_file, "boxedchart.xlsx": lambda: chart_shapes_file(".xlsx"),
         "boxedslide.pptx": lambda: chart_shapes_file(".pptx"), "flat.fodt": flat_file,
         "flatchart.fodt": lambda: flat_file(body=charted_body()),
         "chunk.docx": lambda: chunked_word_file(CHUNK_PAGE, "text/html"), "waterfall.xlsx": chartex_sheet_file,
         "waterfallslide.pptx": chartex_slides_file, "chartword.docx": chart_word_file}  # one PDF name each


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_libreoffice_converts_every_translated_file(mirror, tmp_path):
    names = []
    for name, build in FILES.items():
        out = translate_office(build(), "." + name.rsplit(".", 1)[1], mirror, DocumentOptions(target_lang="de"))
        (tmp_path / name).write_bytes(out)
        names.append(name)
    profile = (tmp_path / "profile").as_uri()  # a profile of its own: never the user's, never shared
    run = subprocess.run([SOFFICE, f"-env:UserInstallation={profile}", "--headless", "--convert-to", "pdf",
                          "--outdir", str(tmp_path / "pdf"), *names], cwd=tmp_path, capture_output=True, text=True,
                         timeout=300)
    made = {path.name: path.stat().st_size for path in (tmp_path / "pdf").glob("*.pdf")}
    assert run.returncode == 0, run.stderr
    assert sorted(made) == sorted(name.split(".")[0] + ".pdf" for name in names)
    assert all(size > 1000 for size in made.values())


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_libreoffice_reads_a_translated_flat_text_as_the_same_translated_odt(mirror, tmp_path):
    """The same paragraphs, in the same order, as LibreOffice shows them (its text export)."""
    options = DocumentOptions(target_lang="de")
    (tmp_path / "flat").mkdir()
    (tmp_path / "flat" / "doc.fodt").write_bytes(translate_office(flat_file(), ".fodt", mirror, options))
    (tmp_path / "doc.odt").write_bytes(translate_office(zipped_file(), ".odt", mirror, options))
    profile = (tmp_path / "profile").as_uri()
    for folder, name in ((tmp_path / "flat", "doc.fodt"), (tmp_path, "doc.odt")):
        run = subprocess.run([SOFFICE, f"-env:UserInstallation={profile}", "--headless", "--convert-to",
                              "txt:Text (encoded):UTF8", "--outdir", str(folder / "txt"), name], cwd=folder,
                             capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stderr
    flat, zipped = ((folder / "txt" / "doc.txt").read_text(encoding="utf-8-sig") for folder in (tmp_path / "flat",
                                                                                                 tmp_path))
    assert flat == zipped and "GRASS. GREEN THE ON RUNS DOG A" in flat and "ls -l /tmp" in flat
