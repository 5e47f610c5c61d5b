"""TBX termbases as glossaries: TBX 2 (``martif``) and TBX 3 (``tbx``), their languages, the
terms' status, the entries skipped, and the XML refused."""

import shutil
import unicodedata
import warnings
from pathlib import Path

import pytest

from attnmt.decoding.glossary import read_glossaries, read_glossary
from attnmt.errors import AttnmtWarning, DataError

GLOSSARIES = Path(__file__).parent / "fixtures" / "glossaries"


def test_a_tbx_2_termbase_gives_each_entrys_used_source_terms_its_preferred_target_term(recwarn):
    """multiterm.tbx (a DOCTYPE naming TBXcoreStructV02.dtd, never read; en-US and de-DE): "doggy"
    is deprecated, a word a writer should not use, and is recognised all the same; "Köter" is deprecated and
    "Hündchen" admitted, so "Hund", the preferred one, in an ntig, is the target; en-GB is en and de is de; inline
    markup is the term's."""
    glossary = read_glossary(GLOSSARIES / "multiterm.tbx", "en", "de")
    assert glossary.terms == (("dog", "Hund"), ("doggy", "Hund"), ("hound", "Hund"), ("H2O", "Wasser"))
    assert glossary.matches("A doggy and a hound drink H2O.") == ["Hund", "Wasser"]
    assert glossary.place("hound") == f"{GLOSSARIES / 'multiterm.tbx'}:21"


def test_a_tbx_3_termbase_in_its_namespace_is_read_as_tbx_2(recwarn):
    """memoq.tbx: conceptEntry > langSec > termSec; every source term is matched, the superseded "electronic
    mail" too."""
    glossary = read_glossary(GLOSSARIES / "memoq.tbx", "en-US", "de-AT")
    assert glossary.terms == (("email", "E-Mail"), ("e-mail", "E-Mail"), ("electronic mail", "E-Mail"))


def test_the_entries_without_both_languages_are_counted_in_one_warning():
    with pytest.warns(AttnmtWarning) as heard:
        read_glossary(GLOSSARIES / "multiterm.tbx", "en", "de")
    assert [str(warning.message) for warning in heard] == [
        f"{GLOSSARIES / 'multiterm.tbx'}: 1 of 3 entries skipped, without a term in en or in de that is not "
        f"deprecated (the first: {GLOSSARIES / 'multiterm.tbx'}:42, entry c2)"]


def test_a_termbase_is_read_for_the_languages_asked_for(recwarn):
    """The same file, German to English: every German term is a source term, the deprecated "Köter" too, "dog"
    the target."""
    glossary = read_glossary(GLOSSARIES / "multiterm.tbx", "de", "en")
    assert dict(glossary.terms) == {"Köter": "dog", "Hündchen": "dog", "Hund": "dog", "Wasser": "H2O"}


def test_an_xml_file_whose_root_is_a_termbase_is_one(tmp_path, recwarn):
    shutil.copy(GLOSSARIES / "memoq.tbx", tmp_path / "export.xml")
    assert read_glossary(tmp_path / "export.xml", "en", "de").terms[0] == ("email", "E-Mail")


def test_a_term_a_termbase_and_a_tsv_file_give_two_targets_names_both_places(tmp_path, recwarn):
    (tmp_path / "terms.tsv").write_text("dog\tKöter\n", encoding="utf-8")
    with pytest.raises(DataError) as refused:
        read_glossaries([tmp_path / "terms.tsv", GLOSSARIES / "multiterm.tbx"], "en", "de")
    assert str(refused.value) == (f"{GLOSSARIES / 'multiterm.tbx'}:13: source term 'dog' has two target terms, "
                                  f"'Köter' ({tmp_path / 'terms.tsv'}:1) and 'Hund'")


def test_a_termbase_whose_languages_are_not_known_is_one_line_saying_so():
    with pytest.raises(DataError, match=r"memoq.tbx: a termbase holds terms in several languages, and the target "
                                        r"language is not known: give it \(--target-lang; "):
        read_glossary(GLOSSARIES / "memoq.tbx", "en")


def test_a_termbase_without_the_languages_asked_for_names_its_own():
    with pytest.raises(DataError, match=r"memoq.tbx: no entry has a term in both en and fr \(the file's languages: "
                                        r"de-DE, en-US\)$"):
        read_glossary(GLOSSARIES / "memoq.tbx", "en", "fr")


TERMBASE = '<?xml version="1.0"?>\n{doctype}<martif type="TBX"><text><body>\n{entry}</body></text></martif>\n'
ENTRY = ('<termEntry id="c1"><langSet xml:lang="en"><tig><term>{term}</term></tig></langSet>'
         '<langSet xml:lang="de"><tig><term>Hund</term></tig></langSet></termEntry>\n')


@pytest.mark.parametrize(("doctype", "entry", "message"), [
    ("", ENTRY.format(term="dog") + "<termEntry>",
     r"terms.tbx:4: not well-formed XML: Opening and ending tag mismatch"),
    ('<!DOCTYPE martif [<!ENTITY e SYSTEM "file:///etc/passwd">]>\n', ENTRY.format(term="&e;"),
     r"terms.tbx: its DOCTYPE declares the external entity e \(SYSTEM \"file:///etc/passwd\"\), which is never read"),
    ('<!DOCTYPE martif [<!ENTITY e "dog">]>\n', ENTRY.format(term="&e;"),
     r"terms.tbx: its DOCTYPE declares the entity e, and declared entities are never expanded"),
    ('<!DOCTYPE martif SYSTEM "TBXcoreStructV02.dtd">\n', ENTRY.format(term="hot&nbsp;dog"),
     r"terms.tbx:4: the term holds the entity &nbsp;, which is never read from a DTD"),
    ("", ENTRY.format(term="dog").replace(' xml:lang="de"', ""),
     r"terms.tbx:3: a langSet without xml:lang \(entry c1\)"),
    ("", ENTRY.format(term=" "), r"terms.tbx:3: empty source term"),
    ("", ENTRY.format(term="dog").replace("<term>Hund</term>", ""), r"terms.tbx:3: a tig without a term"),
])
def test_a_malformed_termbase_is_one_line_naming_file_and_line(tmp_path, doctype, entry, message):
    path = tmp_path / "terms.tbx"
    path.write_text(TERMBASE.format(doctype=doctype, entry=entry), encoding="utf-8")
    with pytest.raises(DataError, match=message):
        read_glossary(path, "en", "de")


def test_an_empty_target_term_is_named_by_its_own_line(tmp_path):
    """An entry written one element a line, its German term blank: the message named line 5, the
    English term's, where the fault is on line 8."""
    entry = ('<termEntry id="c1">\n<langSet xml:lang="en">\n<tig><term>dog</term></tig>\n</langSet>\n'
             '<langSet xml:lang="de">\n<tig><term> </term></tig>\n</langSet>\n</termEntry>\n')
    path = tmp_path / "terms.tbx"
    path.write_text(TERMBASE.format(doctype="", entry=entry), encoding="utf-8")
    with pytest.raises(DataError, match=r"terms.tbx:8: empty target term \(entry c1\)$"):
        read_glossary(path, "en", "de")


CONCEPT = ('<termEntry id="{id}"><langSet xml:lang="en"><tig><term>{source}</term></tig></langSet>'
           '<langSet xml:lang="de"><tig><term>{target}</term></tig></langSet></termEntry>\n')


def homonyms(tmp_path):
    """A termbase of two concepts of "bank" (lines 3 and 4), "river", and "dog" in two entries with one target."""
    entries = [("c1", "bank", "Bank"), ("c2", "bank", "Ufer"), ("c3", "river", "Fluss"), ("c4", "dog", "Hund"),
               ("c5", "dog", "Hund")]
    path = tmp_path / "homo.tbx"
    path.write_text(TERMBASE.format(doctype="", entry="".join(CONCEPT.format(id=id_, source=source, target=target)
                                                              for id_, source, target in entries)), encoding="utf-8")
    return path


def test_a_termbase_of_homonyms_alone_is_given_their_meaning_by_another_file(tmp_path, recwarn):
    """Its every term skipped, the termbase was refused as a file of no terms, though the homonym's
    meaning was given by the other file, as the warning asks."""
    entries = [("c1", "bank", "Bank"), ("c2", "bank", "Ufer")]
    path = tmp_path / "homo.tbx"
    path.write_text(TERMBASE.format(doctype="", entry="".join(CONCEPT.format(id=id_, source=source, target=target)
                                                              for id_, source, target in entries)), encoding="utf-8")
    (tmp_path / "mine.tsv").write_text("bank\tUfer\n", encoding="utf-8")
    assert read_glossaries([tmp_path / "mine.tsv", path], "en", "de").terms == (("bank", "Ufer"),)


def test_a_termbases_homonyms_are_skipped_and_counted_in_one_warning(tmp_path):
    """Which concept of "bank" a sentence means nothing says, so neither target is required; the
    file's other terms are kept (and stopped the whole file before)."""
    path = homonyms(tmp_path)
    with pytest.warns(AttnmtWarning) as heard:
        glossary = read_glossary(path, "en", "de")
    assert glossary.terms == (("river", "Fluss"), ("dog", "Hund"))
    assert [str(warning.message) for warning in heard] == [
        f"{path}: 1 of 3 source terms skipped, each given different target terms by different entries (the first: "
        f"'bank', 'Bank' ({path}:3) or 'Ufer' ({path}:4)): give the one meant in another glossary file"]


def test_a_termbases_terms_that_differ_only_in_case_each_match_their_own_case(tmp_path):
    """"bank" and "Bank" in two entries of two targets were skipped as a homonym, where a CSV or TSV glossary's
    "apple" and "Apple" are each matched in their own case: a termbase's are too, as are "US army" and "US Army";
    one spelling given two targets (a third entry's "bank") is still a homonym, and so skipped in every case."""
    glossary = read_without_warnings(tmp_path, [("c1", "Bank", "Bank"), ("c2", "bank", "Ufer"),
                                                ("c3", "US Army", "US Army"), ("c4", "US army", "US-Armee")])
    assert glossary.terms == (("Bank", "Bank"), ("bank", "Ufer"), ("US Army", "US Army"), ("US army", "US-Armee"))
    assert glossary.matches("The Bank lends to the US army by the bank.") == ["Bank", "US-Armee", "Ufer"]
    path = tmp_path / "terms.tbx"
    path.write_text(path.read_text(encoding="utf-8").replace("</martif>", CONCEPT.format(
        id="c5", source="bank", target="Sitzbank") + "</martif>"), encoding="utf-8")
    with pytest.warns(AttnmtWarning, match="1 of 2 source terms skipped.* 'bank', 'Ufer' .* or 'Sitzbank'"):
        assert read_glossary(path, "en", "de").terms == (("US Army", "US Army"), ("US army", "US-Armee"))


def read_without_warnings(tmp_path, entries):
    """The en -> de glossary of a termbase of ``entries`` (id, source, target), a warning an error."""
    path = tmp_path / "terms.tbx"
    path.write_text(TERMBASE.format(doctype="", entry="".join(CONCEPT.format(id=id_, source=source, target=target)
                                                              for id_, source, target in entries)), encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return read_glossary(path, "en", "de")


def test_a_target_term_in_two_unicode_forms_is_no_homonym(tmp_path):
    """Two entries giving "coffee shop" the target "Café", one with a combining accent, mean one concept:
    the term was skipped as a homonym of two targets, "'Café' (…) or 'Café'"."""
    glossary = read_without_warnings(tmp_path, [("c1", "coffee shop", "Café"),
                                                ("c2", "coffee shop", unicodedata.normalize("NFD", "Café"))])
    assert len(glossary) == 1 and unicodedata.normalize("NFC", glossary.terms[0][1]) == "Café"


def test_an_acronym_and_the_word_of_its_letters_are_no_homonyms(tmp_path):
    """"US" matches only in capitals (smart case), so it and "us" are two terms, not one of two concepts:
    both were skipped, "1 of 1 source terms skipped", and the file refused as one of no terms."""
    glossary = read_without_warnings(tmp_path, [("c1", "US", "USA"), ("c2", "us", "uns")])
    assert glossary.terms == (("US", "USA"), ("us", "uns"))
    assert glossary.matches("The US need us.") == ["USA", "uns"]


def test_a_term_an_xml_editor_wrapped_over_lines_is_one_line(tmp_path):
    """Pretty-printed, "<term>Vereinigte\n      Staaten</term>" was the target term with its line break and
    indentation, which no translation writes: the model's vocabulary refused it ("writes it as 'Vereinigte
    Staaten'").  A line break in a term, with the spaces around it, is a space, as in a CSV file's cell."""
    glossary = read_without_warnings(tmp_path, [("c1", "United\n    States", "Vereinigte\r\n      Staaten")])
    assert glossary.terms == (("United States", "Vereinigte Staaten"),)
    assert read_without_warnings(tmp_path, [("c1", "New  York", "New\u00a0York")]).terms == (
        ("New  York", "New\u00a0York"),)  # spaces on one line are the term's own


def test_a_homonym_skipped_is_given_its_meaning_by_another_file(tmp_path, recwarn):
    (tmp_path / "mine.tsv").write_text("bank\tUfer\n", encoding="utf-8")
    glossary = read_glossaries([tmp_path / "mine.tsv", homonyms(tmp_path)], "en", "de")
    assert dict(glossary.terms) == {"bank": "Ufer", "river": "Fluss", "dog": "Hund"}


VARIETIES = ('<termEntry id="c1"><langSet xml:lang="en"><tig><term>bicycle</term></tig></langSet>'
             '<langSet xml:lang="de-DE"><tig><term>Fahrrad</term></tig></langSet>'
             '<langSet xml:lang="de-CH"><tig><term>Velo</term></tig></langSet></termEntry>\n'
             '<termEntry id="c2"><langSet xml:lang="en"><tig><term>bus</term></tig></langSet>'
             '<langSet xml:lang="pt-PT"><tig><term>autocarro</term></tig></langSet>'
             '<langSet xml:lang="pt-BR"><tig><term>ônibus</term></tig>'
             '<tig><term>busão</term><termNote type="administrativeStatus">admittedTerm-admn-sts</termNote>'
             '</tig></langSet></termEntry>\n')


@pytest.mark.parametrize(("target_lang", "terms"), [
    ("de-CH", (("bicycle", "Velo"),)), ("de_ch", (("bicycle", "Velo"),)), ("DE", (("bicycle", "Fahrrad"),)),
    ("de-AT", (("bicycle", "Fahrrad"),)), ("pt-BR", (("bus", "ônibus"),)), ("pt", (("bus", "autocarro"),)),
])
def test_the_target_term_of_the_target_languages_own_variety_comes_first(tmp_path, recwarn, target_lang, terms):
    """An entry with a section for each variety of the target language: the first section's term was
    the target whatever the variety asked for, so --target-lang de-CH got "Fahrrad", not the Swiss
    "Velo", and pt-BR the European "autocarro".  A variety without a section of its own takes the first."""
    path = tmp_path / "terms.tbx"
    path.write_text(TERMBASE.format(doctype="", entry=VARIETIES), encoding="utf-8")
    assert read_glossary(path, "en", target_lang).terms == terms


REGIONAL = ('<termEntry id="c1"><langSet xml:lang="en"><tig><term>January</term></tig></langSet>'
            '<langSet xml:lang="de-AT"><tig><term>Jänner</term></tig></langSet>'
            '<langSet xml:lang="de"><tig><term>Januar</term></tig></langSet></termEntry>\n')


@pytest.mark.parametrize(("target_lang", "target"), [("de-DE", "Januar"), ("de-CH", "Januar"), ("de", "Januar"),
                                                     ("de-AT", "Jänner")])
def test_the_languages_own_section_comes_before_another_regions(tmp_path, target_lang, target):
    """A section of the language as a whole (de) holds the term of every region the entry has no section of: the
    Austrian "Jänner", first, was the target of --target-lang de-DE."""
    path = tmp_path / "terms.tbx"
    path.write_text(TERMBASE.format(doctype="", entry=REGIONAL), encoding="utf-8")
    assert read_glossary(path, "en", target_lang).terms == (("January", target),)


STATUSES = ('<termEntry id="c1"><langSet xml:lang="en"><tig><term>dog</term></tig><tig><term>doggy</term>{status}'
            '</tig></langSet><langSet xml:lang="de"><tig><term>Hündchen</term></tig><tig><term>Köter</term>{status}'
            '</tig></langSet></termEntry>\n')


@pytest.mark.parametrize(("status", "terms"), [
    ('<descrip type="usageStatus">deprecated</descrip>', (("dog", "Hündchen"), ("doggy", "Hündchen"))),
    ('<descripGrp><descrip type="usageStatus">Superseded</descrip></descripGrp>', (("dog", "Hündchen"),
                                                                                   ("doggy", "Hündchen"))),
    ('<termNote type="normativeAuthorization">deprecatedTerm</termNote>', (("dog", "Hündchen"), ("doggy", "Hündchen"))),
    ('<descrip type="usageStatus">preferred</descrip>', (("dog", "Köter"), ("doggy", "Köter"))),
    ('<descrip type="definition">deprecated, as a word</descrip>', (("dog", "Hündchen"), ("doggy", "Hündchen"))),
])
def test_a_status_as_a_usage_status_or_normative_authorization_is_read(tmp_path, status, terms):
    """As some MultiTerm exports write it: "doggy" and "Köter" carry the status, the other terms none; a deprecated
    target term is never the target, a deprecated source term is recognised all the same."""
    path = tmp_path / "terms.tbx"
    path.write_text(TERMBASE.format(doctype="", entry=STATUSES.format(status=status)), encoding="utf-8")
    assert read_glossary(path, "en", "de").terms == terms


DEPRECATED = '<termNote type="administrativeStatus">deprecatedTerm-admn-sts</termNote>'
NOT_USED = (("dog", "Hündchen"), ("doggy", "Hündchen"))  # the deprecated "Köter" never the target


@pytest.mark.parametrize(("status", "terms"), [
    ('<descrip type="usageStatus">forbidden</descrip>' + DEPRECATED, NOT_USED),
    ('<descrip type="usageStatus">not recommended</descrip>' + DEPRECATED, NOT_USED),
    ('<descrip type="usageStatus">frobbed</descrip>' + DEPRECATED, NOT_USED),
    ('<descrip type="usageStatus">preferred</descrip>' + DEPRECATED, NOT_USED),
    (DEPRECATED + '<descrip type="usageStatus">preferred</descrip>', NOT_USED),
    ('<descrip type="usageStatus">Forbidden</descrip>', NOT_USED),
    ('<descrip type="usageStatus">notRecommended</descrip>', NOT_USED),
    ('<descrip type="usageStatus">preferred</descrip><termNote type="administrativeStatus">admittedTerm-admn-sts'
     '</termNote>', (("dog", "Hündchen"), ("doggy", "Hündchen"))),
    ('<descrip type="usageStatus">frobbed</descrip><termNote type="administrativeStatus">preferredTerm-admn-sts'
     '</termNote>', (("dog", "Köter"), ("doggy", "Köter"))),
])
def test_every_status_of_a_term_is_read_and_the_least_fit_known_one_wins(tmp_path, status, terms):
    """A usage status before the administrative status does not hide it: an unknown value says nothing,
    and of two known ones that disagree the less fit wins; MultiTerm's "forbidden" and "not recommended"
    are deprecated."""
    path = tmp_path / "terms.tbx"
    path.write_text(TERMBASE.format(doctype="", entry=STATUSES.format(status=status)), encoding="utf-8")
    assert read_glossary(path, "en", "de").terms == terms


@pytest.mark.parametrize("status", [
    '<termNote type="status">FORBIDDEN</termNote>',  # XTM's export
    '<descrip type="Status">forbidden</descrip>',  # a MultiTerm termbase's own field, exported as it is named
    '<descrip type="Usage">Forbidden</descrip>',
    '<termNote type="Term Status">Do not use</termNote>',
    '<termNote type="administrativeStatus">obsolete</termNote>',  # Weblate's
    '<termNote type="administrativeStatus">rejected</termNote>',  # Trados Enterprise's
    '<descrip type="usageStatus">not_recommended</descrip>',
])
def test_a_term_other_tools_mark_forbidden_is_never_used(tmp_path, status):
    """Termbases name the status field as their users do, and write its values in their own words: a forbidden
    target term ("Köter") was the entry's target, first of two without a known status, and forced into every
    translation of "dog"."""
    path = tmp_path / "terms.tbx"
    entry = (f'<termEntry id="c1"><langSet xml:lang="en"><tig><term>dog</term></tig><tig><term>doggy</term>{status}'
             f'</tig></langSet><langSet xml:lang="de"><tig><term>Köter</term>{status}</tig><tig><term>Hund</term>'
             '</tig></langSet></termEntry>\n')
    path.write_text(TERMBASE.format(doctype="", entry=entry), encoding="utf-8")
    assert read_glossary(path, "en", "de").terms == (("dog", "Hund"), ("doggy", "Hund"))


def test_a_tbx_file_that_is_no_termbase_is_refused_naming_its_root(tmp_path):
    (tmp_path / "terms.tbx").write_text('<?xml version="1.0"?>\n<xliff version="1.2"/>\n', encoding="utf-8")
    with pytest.raises(DataError, match=r"terms.tbx:2: expected a TBX termbase \(a martif or tbx root\) or "
                                        r"MultiTerm XML \(mtf\), got <xliff>"):
        read_glossary(tmp_path / "terms.tbx", "en", "de")


MTF = """<?xml version="1.0" encoding="{encoding}"?>
<mtf>
  <conceptGrp>
    <concept>1</concept>
    <transacGrp><transac type="origination">jsmith</transac><date>2024-03-01T10:00:00</date></transacGrp>
    <languageGrp>
      <language type="English" lang="EN-US"/>
      <termGrp><term>access point</term>
        <descripGrp><descrip type="Definition">A device that lets Wi-Fi devices join a network.</descrip></descripGrp>
      </termGrp>
      <termGrp><term>AP</term></termGrp>
    </languageGrp>
    <languageGrp>
      <language type="German" lang="DE-DE"/>
      <termGrp><term>Access Point</term><descripGrp><descrip type="Usage">Forbidden</descrip></descripGrp></termGrp>
      <termGrp><term>Zugangspunkt</term></termGrp>
    </languageGrp>
  </conceptGrp>
  <conceptGrp>
    <concept>2</concept>
    <languageGrp><language type="English" lang="EN-US"/><termGrp><term>router</term></termGrp></languageGrp>
  </conceptGrp>
</mtf>
"""


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16"])
def test_a_multiterm_xml_export_is_read_as_a_termbase(tmp_path, encoding):
    """MultiTerm's own XML export (``<mtf>``, in UTF-16 as MultiTerm writes it) was refused, "a <mtf> file, not
    TBX", though it holds a termbase's entries: ``conceptGrp``, its ``languageGrp`` sections each naming its
    language in a ``<language lang=…/>``, ``termGrp`` terms; a forbidden target term (its "Usage" field) is never
    the target, and an entry without a German term is skipped, counted in one warning."""
    path = tmp_path / "export.xml"
    path.write_text(MTF.format(encoding=encoding.upper()), encoding=encoding)
    with pytest.warns(AttnmtWarning, match=r"1 of 2 entries skipped, without a term in en or in de .*export.xml:19\)$"):
        glossary = read_glossary(path, "en", "de")
    assert glossary.terms == (("access point", "Zugangspunkt"), ("AP", "Zugangspunkt"))
    assert glossary.place("AP") == f"{path}:11"


TMX = ('<?xml version="1.0" encoding="{encoding}"?>\n<tmx version="1.4"><header srclang="en"/><body><tu>'
       '<tuv xml:lang="en"><seg>dog</seg></tuv><tuv xml:lang="de"><seg>Hund</seg></tuv></tu></body></tmx>\n')


@pytest.mark.parametrize(("name", "encoding"), [("memory.tmx", "utf-8"), ("export.mtf", "utf-16"),
                                                ("terms.txt", "utf-8-sig")])
def test_an_xml_file_of_another_name_is_refused_naming_its_root(tmp_path, name, encoding):
    """A translation memory (.tmx, or any other name) given as a glossary was read as TSV:
    "memory.tmx:1: expected 'source term<TAB>target term', got 0 TABs in '<?xml version=…'"."""
    path = tmp_path / name
    path.write_text(TMX.format(encoding=encoding.removesuffix("-sig").upper()), encoding=encoding)
    with pytest.raises(DataError, match=rf"^{path}: a <tmx> file, not TBX \(whose root is <martif> or <tbx>\) nor "
                                        r"MultiTerm XML \(<mtf>\): "):
        read_glossary(path, "en", "de")


@pytest.mark.parametrize(("name", "root"), [("memory.tmx", "tmx"), ("strings.xlf", "xliff"), ("app.xliff", "xliff")])
def test_a_translation_memory_or_xliff_file_without_an_xml_declaration_is_refused_naming_its_root(tmp_path, name, root):
    """A .tmx written without "<?xml …?>" was read as TSV, and the message said to make "<tmx version="1.4">…" its own
    target: "memory.tmx:1: expected 'source term<TAB>target term', got 0 TABs in '<tmx …'"."""
    path = tmp_path / name
    path.write_text(TMX.format(encoding="UTF-8").partition("\n")[2].replace("tmx", root), encoding="utf-8")
    with pytest.raises(DataError, match=rf"^{path}: a <{root}> file, not TBX "):
        read_glossary(path, "en", "de")


@pytest.mark.parametrize("name", ["terms.txt", "terms.tsv", "termbase"])
def test_a_termbase_of_another_name_is_a_termbase(tmp_path, name, recwarn):
    """A TBX export saved as terms.txt (or with no extension) was read as TSV, "got 0 TABs in '<?xml …'"."""
    shutil.copy(GLOSSARIES / "memoq.tbx", tmp_path / name)
    assert read_glossary(tmp_path / name, "en", "de").terms[0] == ("email", "E-Mail")


def test_an_xml_file_that_is_no_termbase_is_read_as_tsv(tmp_path):
    (tmp_path / "terms.xml").write_text("dog\tHund\n", encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert read_glossary(tmp_path / "terms.xml").terms == (("dog", "Hund"),)


SHORT_FORMS = ('<termEntry id="c1"><langSet xml:lang="en"><tig><term>Member State</term></tig><tig><term>MS</term>'
               '{source_type}</tig></langSet><langSet xml:lang="de"><tig><term>Mitgliedstaat</term>'
               '<termNote type="administrativeStatus">preferredTerm-admn-sts</termNote></tig><tig><term>MS</term>'
               '{target_type}</tig></langSet></termEntry>\n')


@pytest.mark.parametrize(("source_type", "target_type"), [
    ('<termNote type="termType">abbreviation</termNote>', '<termNote type="termType">abbreviation</termNote>'),
    ('<termNote type="termType">acronym</termNote>', '<termNote type="termType">acronym</termNote>'),
    ('<termNote type="termType">shortForm</termNote>', '<termNote type="termType">abbreviation</termNote>'),
    ('<descrip type="Term Type">Abbreviation</descrip>', '<descrip type="Term Type">Short form</descrip>'),
])
def test_an_abbreviations_target_is_the_entrys_abbreviation(tmp_path, source_type, target_type):
    """An entry of a full form and its abbreviation in both languages: "MS" was given the entry's one target,
    the preferred full form "Mitgliedstaat", forced wherever the text wrote "MS".  A short form's target is the
    target language's short form where the entry has one; a full form's is still the full form."""
    path = tmp_path / "terms.tbx"
    path.write_text(TERMBASE.format(doctype="", entry=SHORT_FORMS.format(source_type=source_type,
                                                                         target_type=target_type)), encoding="utf-8")
    assert read_glossary(path, "en", "de").terms == (("Member State", "Mitgliedstaat"), ("MS", "MS"))


def test_a_tbx_3_term_type_element_is_read_as_a_term_note(tmp_path):
    """TBX 3's DCT style writes the term type as an element of its module's namespace (``<basic:termType>``); the
    target abbreviation first, the full form is still the full form's target."""
    entry = ('<conceptEntry id="c1"><langSec xml:lang="en"><termSec><term>Member State</term></termSec><termSec>'
             '<term>MS</term><basic:termType>abbreviation</basic:termType></termSec></langSec>'
             '<langSec xml:lang="de"><termSec><term>MS</term><basic:termType>abbreviation</basic:termType></termSec>'
             '<termSec><term>Mitgliedstaat</term><basic:termType>fullForm</basic:termType></termSec></langSec>'
             '</conceptEntry>\n')
    path = tmp_path / "terms.tbx"
    path.write_text('<?xml version="1.0"?>\n<tbx xmlns="urn:iso:std:iso:30042:ed-2" xmlns:basic='
                    '"http://www.tbxinfo.net/ns/basic" type="TBX-Basic" style="dct"><text><body>\n'
                    f'{entry}</body></text></tbx>\n', encoding="utf-8")
    assert read_glossary(path, "en", "de").terms == (("Member State", "Mitgliedstaat"), ("MS", "MS"))


def test_an_abbreviation_without_a_target_abbreviation_takes_the_full_form(tmp_path):
    path = tmp_path / "terms.tbx"
    entry = SHORT_FORMS.format(source_type='<termNote type="termType">abbreviation</termNote>', target_type="")
    path.write_text(TERMBASE.format(doctype="", entry=entry.replace("<tig><term>MS</term></tig>", "")),
                    encoding="utf-8")
    assert read_glossary(path, "en", "de").terms == (("Member State", "Mitgliedstaat"), ("MS", "Mitgliedstaat"))


SCRIPTS = ('<termEntry id="c1"><langSet xml:lang="en"><tig><term>software</term></tig></langSet>'
           '<langSet xml:lang="zh-Hant-TW"><tig><term>軟體</term></tig></langSet>'
           '<langSet xml:lang="zh-Hans-CN"><tig><term>软件</term></tig></langSet></termEntry>\n'
           '<termEntry id="c2"><langSet xml:lang="en"><tig><term>school</term></tig></langSet>'
           '<langSet xml:lang="sr-Cyrl"><tig><term>школа</term></tig></langSet>'
           '<langSet xml:lang="sr-Latn"><tig><term>škola</term></tig></langSet></termEntry>\n')


@pytest.mark.parametrize(("target_lang", "terms"), [
    ("zh-Hans", {"software": "软件"}), ("zh-Hant", {"software": "軟體"}), ("zh-CN", {"software": "软件"}),
    ("zh-TW", {"software": "軟體"}), ("zh-HK", {"software": "軟體"}), ("zh", {"software": "软件"}),
    ("zh_hans_SG", {"software": "软件"}),
    ("sr-Latn", {"school": "škola"}), ("sr-Latn-RS", {"school": "škola"}), ("sr-Cyrl", {"school": "школа"}),
    ("sr", {"school": "школа"}),
])
def test_the_target_term_of_the_target_languages_script_comes_first(tmp_path, recwarn, target_lang, terms):
    """A script is compared before a region: --target-lang zh-Hans took the first section's traditional "軟體"
    of zh-Hant-TW, not zh-Hans-CN's "软件", and sr-Latn the Cyrillic "школа".  A code without a script has the
    one its language, or its region, is written in (zh and zh-CN simplified, zh-TW and zh-HK traditional)."""
    path = tmp_path / "terms.tbx"
    path.write_text(TERMBASE.format(doctype="", entry=SCRIPTS), encoding="utf-8")
    assert dict(read_glossary(path, "en", target_lang).terms) == terms


def test_the_target_languages_own_code_comes_before_one_of_its_likely_script(tmp_path, recwarn):
    """"zh" is written in simplified characters, as "zh-Hans" is, but a section of the code asked for is its own."""
    path = tmp_path / "terms.tbx"
    path.write_text(TERMBASE.format(doctype="", entry=SCRIPTS.replace("zh-Hant-TW", "zh").replace("zh-Hans-CN",
                                                                                                 "zh-Hans")),
                    encoding="utf-8")
    assert dict(read_glossary(path, "en", "zh-Hans").terms) == {"software": "软件"}


SPELLINGS = ('<termEntry id="c1"><langSet xml:lang="en"><tig><term>color</term></tig></langSet>'
             '<langSet xml:lang="en-US"><tig><term>color</term></tig></langSet>'
             '<langSet xml:lang="en-GB"><tig><term>colour</term></tig></langSet></termEntry>\n'
             '<termEntry id="c2"><langSet xml:lang="pt-PT"><tig><term>autocarro</term></tig></langSet>'
             '<langSet xml:lang="pt-BR"><tig><term>ônibus</term></tig></langSet></termEntry>\n')


@pytest.mark.parametrize(("languages", "terms"), [
    (("en-US", "en-GB"), (("color", "colour"),)), (("en-GB", "en-US"), (("colour", "color"),)),
    (("pt-PT", "pt-BR"), (("autocarro", "ônibus"),)), (("pt-BR", "pt-PT"), (("ônibus", "autocarro"),)),
    (("pt", "pt-BR"), (("autocarro", "ônibus"),)), (("pt-BR", "pt"), (("ônibus", "autocarro"),)),
])
def test_a_termbase_between_two_varieties_of_one_language_is_read(tmp_path, recwarn, languages, terms):
    """Every section of one language was a source: en-US to en-GB stopped with "no entry has a term in both en-US
    and en-GB".  Between two varieties of one language a section is the side whose variety it is; one as near to
    both (the "en" of c1) is neither, but where one side is the language as a whole ("pt" to "pt-BR"): that one."""
    path = tmp_path / "terms.tbx"
    path.write_text(TERMBASE.format(doctype="", entry=SPELLINGS), encoding="utf-8")
    assert read_glossary(path, *languages).terms == terms


FORBIDDEN = (("dog", "Hund"), ("doggy", "Hund"))  # the forbidden "Köter" never the target


@pytest.mark.parametrize(("status", "terms"), [
    ('<descrip type="Status">verboten</descrip>', FORBIDDEN),  # a German MultiTerm termbase's picklist
    ('<descrip type="Status">Nicht verwenden</descrip>', FORBIDDEN),
    ('<descrip type="Status">nicht zugelassen</descrip>', FORBIDDEN),
    ('<termNote type="Term Status">À éviter</termNote>', FORBIDDEN),  # a French one's
    ('<termNote type="usage">interdit</termNote>', FORBIDDEN),
    ('<descrip type="Status">prohibido</descrip>', FORBIDDEN),
])
def test_a_status_in_the_termbases_own_language_is_read(tmp_path, status, terms):
    """A termbase kept in German or French names its statuses in its users' words: "verboten" and "interdit" said
    nothing, and the forbidden "Köter", first, was forced into every translation of "dog"."""
    path = tmp_path / "terms.tbx"
    entry = (f'<termEntry id="c1"><langSet xml:lang="en"><tig><term>dog</term></tig><tig><term>doggy</term>{status}'
             f'</tig></langSet><langSet xml:lang="de"><tig><term>Köter</term>{status}</tig><tig><term>Hund</term>'
             '</tig></langSet></termEntry>\n')
    path.write_text(TERMBASE.format(doctype="", entry=entry), encoding="utf-8")
    assert read_glossary(path, "en", "de").terms == terms


@pytest.mark.parametrize("status", ['<descrip type="Status">Bevorzugt</descrip>',
                                    '<termNote type="Term Status">préféré</termNote>',
                                    '<descrip type="Status">Preferido</descrip>'])
def test_a_preferred_status_in_the_termbases_own_language_is_read(tmp_path, status):
    """The preferred "Hund", after a term of no status, was not the target: its "Bevorzugt" said nothing."""
    path = tmp_path / "terms.tbx"
    entry = ('<termEntry id="c1"><langSet xml:lang="en"><tig><term>dog</term></tig></langSet><langSet xml:lang="de">'
             f'<tig><term>Köter</term></tig><tig><term>Hund</term>{status}</tig></langSet></termEntry>\n')
    path.write_text(TERMBASE.format(doctype="", entry=entry), encoding="utf-8")
    assert read_glossary(path, "en", "de").terms == (("dog", "Hund"),)


def test_a_termbase_not_in_the_encoding_it_declares_names_the_line(tmp_path):
    """A TBX file saved in Windows-1252 under a UTF-8 declaration was "cannot read terms.tbx: error reading file
    '…': invalid bytes in character encoding", as if the file could not be opened, and no line named."""
    path = tmp_path / "terms.tbx"
    path.write_bytes(TERMBASE.format(doctype="", entry=ENTRY.format(term="Hündchen")).encode("cp1252"))
    with pytest.raises(DataError, match=r"terms.tbx:3: not well-formed XML: Invalid bytes in character encoding: the "
                                        r"file is not in the encoding its XML declaration names \(UTF-8 where it names "
                                        r"none\): save it as UTF-8$"):
        read_glossary(path, "en", "de")


DEPRECATED_SOURCE = ('<termEntry id="c1"><langSet xml:lang="en"><tig><term>e-mail</term>{preferred}</tig><tig><term>'
                     'electronic mail</term>{status}</tig></langSet><langSet xml:lang="de"><tig><term>E-Mail</term>'
                     '</tig></langSet></termEntry>\n')


@pytest.mark.parametrize("status", [DEPRECATED, '<descrip type="usageStatus">forbidden</descrip>',
                                    '<termNote type="administrativeStatus">supersededTerm-admn-sts</termNote>'])
def test_a_deprecated_source_term_is_recognised_and_given_the_entrys_target(tmp_path, status):
    """A source term's status is about writing the source: a text saying "electronic mail", deprecated beside the
    preferred "e-mail", had no "E-Mail" constraint, where CAT tools recognise it and offer the entry's target."""
    path = tmp_path / "terms.tbx"
    preferred = '<termNote type="administrativeStatus">preferredTerm-admn-sts</termNote>'
    entry = DEPRECATED_SOURCE.format(preferred=preferred, status=status)
    path.write_text(TERMBASE.format(doctype="", entry=entry), encoding="utf-8")
    glossary = read_glossary(path, "en", "de")
    assert glossary.matches("Send it by electronic mail.") == ["E-Mail"]
    assert glossary.place("electronic mail") == f"{path}:3"


def test_a_source_term_deprecated_in_one_entry_is_the_others_where_another_uses_it(tmp_path):
    """"mail", deprecated in the entry of "e-mail", is the approved term of the entry "mail" (Post): read as a
    homonym of two targets, it was skipped, the term the termbase approves lost."""
    path = tmp_path / "terms.tbx"
    entries = (DEPRECATED_SOURCE.format(preferred="", status="").replace("electronic mail</term>", "mail</term>"
                                                                          + DEPRECATED)
               + '<termEntry id="c2"><langSet xml:lang="en"><tig><term>mail</term></tig></langSet><langSet '
                 'xml:lang="de"><tig><term>Post</term></tig></langSet></termEntry>\n')
    path.write_text(TERMBASE.format(doctype="", entry=entries), encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert read_glossary(path, "en", "de").terms == (("e-mail", "E-Mail"), ("mail", "Post"))


def test_an_empty_target_term_beside_another_is_skipped(tmp_path):
    """An entry whose German section holds a blank term beside "Vogel" (an export's empty cell) stopped the whole
    termbase, "empty target term (entry c2)", where a CSV file's empty target cell is skipped; an entry of blank
    target terms alone is skipped with the entries without a target term."""
    entries = (CONCEPT.format(id="c1", source="dog", target="Hund")
               + '<termEntry id="c2"><langSet xml:lang="en"><tig><term>bird</term></tig></langSet><langSet '
                 'xml:lang="de"><tig><term> </term></tig><tig><term>Vogel</term></tig></langSet></termEntry>\n'
               + CONCEPT.format(id="c3", source="cat", target=""))
    path = tmp_path / "terms.tbx"
    path.write_text(TERMBASE.format(doctype="", entry=entries), encoding="utf-8")
    with pytest.warns(AttnmtWarning) as heard:
        assert read_glossary(path, "en", "de").terms == (("dog", "Hund"), ("bird", "Vogel"))
    assert [str(warning.message) for warning in heard] == [
        f"{path}: 1 of 3 entries skipped, without a term in en or in de that is not deprecated (the first: "
        f"{path}:5, entry c3)"]


def test_an_empty_source_term_is_skipped_as_an_empty_target_term_is(tmp_path):
    """An entry whose English term was blank (an export's empty cell, a concept kept in German alone) stopped the
    whole termbase, "terms.tbx:4: empty source term (beside 'Katze')", where a blank target term, and a CSV file's
    empty source cell, are skipped: the entry is skipped with those without a source term, and a termbase of blank
    source terms alone names the first."""
    entries = (CONCEPT.format(id="c1", source="dog", target="Hund")
               + CONCEPT.format(id="c2", source=" ", target="Katze")
               + '<termEntry id="c3"><langSet xml:lang="en"><tig><term/></tig><tig><term>bird</term></tig></langSet>'
                 '<langSet xml:lang="de"><tig><term>Vogel</term></tig></langSet></termEntry>\n')
    path = tmp_path / "terms.tbx"
    path.write_text(TERMBASE.format(doctype="", entry=entries), encoding="utf-8")
    with pytest.warns(AttnmtWarning) as heard:
        assert read_glossary(path, "en", "de").terms == (("dog", "Hund"), ("bird", "Vogel"))
    assert [str(warning.message) for warning in heard] == [
        f"{path}: 1 of 3 entries skipped, without a term in en or in de that is not deprecated (the first: "
        f"{path}:4, entry c2)"]
    path.write_text(TERMBASE.format(doctype="", entry=CONCEPT.format(id="c1", source="", target="Katze")),
                    encoding="utf-8")
    with pytest.raises(DataError, match=r"terms.tbx:3: empty source term \(entry c1\)$"):
        read_glossary(path, "en", "de")


def test_a_section_whose_language_is_a_three_letter_code_is_its_languages(tmp_path):
    """xml:lang="eng" and "deu" (ISO 639-2, as some tools write them) are en and de, beside "EN-us" and
    "de-DE": every entry was skipped ("no entry has a term in both en and de"); the deprecated "Köter" is
    still never the target."""
    path = tmp_path / "codes.tbx"
    path.write_text(
        '<?xml version="1.0"?>\n<tbx type="TBX-Basic" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2"><text><body>\n'
        '<conceptEntry id="1"><langSec xml:lang="EN-us"><termSec><term>dog</term></termSec></langSec>'
        '<langSec xml:lang="deu"><termSec><term>Köter</term><termNote type="administrativeStatus">'
        'deprecatedTerm-admn-sts</termNote></termSec><termSec><term>Hund</term></termSec></langSec></conceptEntry>\n'
        '<conceptEntry id="2"><langSec xml:lang="eng"><termSec><term>e-mail</term></termSec></langSec>'
        '<langSec xml:lang="de-DE"><termSec><term>E-Mail</term></termSec></langSec></conceptEntry>\n'
        '</body></text></tbx>\n', encoding="utf-8")
    for source_lang, target_lang in (("en", "de"), ("eng", "deu")):
        glossary = read_glossary(path, source_lang, target_lang)
        assert glossary.terms == (("dog", "Hund"), ("e-mail", "E-Mail"))


def test_the_entry_skipped_first_is_named_by_its_file_line_and_id(tmp_path):
    """An entry of a numbered termbase (id="2") skipped was named "(the first: 2)", a number nothing said was an
    entry's id, with no line to look at."""
    entries = CONCEPT.format(id="1", source="dog", target="Hund") + (
        '<termEntry id="2"><langSet xml:lang="en"><tig><term>cup</term></tig></langSet></termEntry>\n')
    path = tmp_path / "terms.tbx"
    path.write_text(TERMBASE.format(doctype="", entry=entries), encoding="utf-8")
    with pytest.warns(AttnmtWarning) as heard:
        assert read_glossary(path, "en", "de").terms == (("dog", "Hund"),)
    assert [str(warning.message) for warning in heard] == [  # line 4: the declaration, <martif>, entry 1, entry 2
        f"{path}: 1 of 2 entries skipped, without a term in en or in de that is not deprecated (the first: "
        f"{path}:4, entry 2)"]
