"""XLIFF files of CAT tools that say a segment's status in attributes of their own (Trados's
.sdlxliff, memoQ's .mqxliff; attnmt.documents.xliff_targets): what they say is locked or confirmed
is kept as it is, the rest filled, with the stand-in translators of conftest.py."""

import warnings

import pytest

from attnmt.documents.files import supported_suffixes, translate_file_bytes
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.xliff import translate_xliff

DE = DocumentOptions(target_lang="de")
SDL = 'xmlns:sdl="http://sdl.com/FileTypes/SdlXliff/1.0"'
MQ = 'xmlns:mq="MQXliff"'
PHRASE = 'xmlns:m="http://www.memsource.com/mxlf/2.0"'


def xliff(units: str, spaces: str = SDL) -> str:
    return (f'<xliff {spaces} xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2"><file original="x" '
            f'source-language="en-US" target-language="de-DE" datatype="x-sdlfilterframework2"><body>{units}'
            '</body></file></xliff>')


def trados(mid: str, source: str, target: str, status: str) -> str:
    """A Trados unit of one segment: its target segment holding ``target``, its <sdl:seg> saying ``status``."""
    segment = f'<mrk mtype="seg" mid="{mid}">{target}</mrk>' if target else f'<mrk mtype="seg" mid="{mid}"/>'
    return (f'<trans-unit id="{mid}"><source>{source}</source><seg-source><mrk mtype="seg" mid="{mid}">{source}'
            f'</mrk></seg-source><target>{segment}</target>'
            f'<sdl:seg-defs><sdl:seg id="{mid}"{status}/></sdl:seg-defs></trans-unit>')


@pytest.mark.parametrize("status", [' conf="ApprovedSignOff" locked="true"', ' locked="true"', ' conf="Translated"',
                                    ' conf="ApprovedTranslation"', ' conf="ApprovedSignOff"'])
def test_a_trados_segment_locked_or_confirmed_is_kept_empty_or_a_copy_of_its_source(mirror, status):
    """The locked, signed-off "Trek Bike Pro" became 'Ein „Re".', the locked empty segment was filled."""
    units = trados("1", "Trek Bike Pro", "Trek Bike Pro", status) + trados("2", "A dog runs.", "", status)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "kept the translation" advice: emptying it would not undo a lock
        assert translate_xliff(xliff(units), mirror, DE) == xliff(units)
    assert mirror.given == []


@pytest.mark.parametrize("status", ["", ' conf="Draft"', ' conf="RejectedTranslation"', ' conf="RejectedSignOff"'])
def test_a_trados_segment_not_confirmed_is_filled_and_said_a_machine_draft(mirror, status):
    out = translate_xliff(xliff(trados("2", "A dog runs.", "", status)), mirror, DE)
    assert '<mrk mtype="seg" mid="2">RUNS. DOG A</mrk></target>' in out
    assert '<sdl:seg id="2" conf="Draft" origin="mt"/>' in out


def test_the_open_segments_of_a_unit_with_a_locked_one_are_filled_the_locked_one_kept(mirror):
    unit = ('<trans-unit id="u"><source>A cat sleeps. A dog runs.</source><seg-source><mrk mtype="seg" mid="1">'
            'A cat sleeps.</mrk> <mrk mtype="seg" mid="2">A dog runs.</mrk></seg-source><target>'
            '<mrk mtype="seg" mid="1">A cat sleeps.</mrk> <mrk mtype="seg" mid="2"/></target><sdl:seg-defs>'
            '<sdl:seg id="1" conf="Translated" locked="true"/><sdl:seg id="2"/></sdl:seg-defs></trans-unit>')
    out = translate_xliff(xliff(unit), mirror, DE)
    assert ('<mrk mtype="seg" mid="1">A cat sleeps.</mrk> <mrk mtype="seg" mid="2">RUNS. DOG A</mrk></target>'
            '<sdl:seg-defs><sdl:seg id="1" conf="Translated" locked="true"/>'
            '<sdl:seg id="2" conf="Draft" origin="mt"/></sdl:seg-defs>') in out
    assert mirror.given == ["A dog runs."]


@pytest.mark.parametrize("status", ['mq:status="ManuallyConfirmed"', 'mq:locked="locked"', 'mq:status="Proofread"'])
def test_a_memoq_unit_confirmed_or_locked_is_kept(mirror, status):
    """Proofread is what a Reviewer 2's confirmation says: it was filled as a unit still to translate."""
    units = (f'<trans-unit id="1" {status}><source>A cat sleeps.</source><target/></trans-unit>'
             '<trans-unit id="2" mq:status="NotStarted"><source>A dog runs.</source><target/></trans-unit>')
    out = translate_xliff(xliff(units, MQ), mirror, DE)
    assert f'<trans-unit id="1" {status}><source>A cat sleeps.</source><target/></trans-unit>' in out
    assert mirror.given == ["A dog runs."]


@pytest.mark.parametrize("status", ["NotStarted", "PartiallyEdited", "Pretranslated"])
def test_a_memoq_unit_filled_here_says_it_is_pretranslated(mirror, status):
    """It kept mq:status="NotStarted": memoQ showed the machine's translation as a row no one had filled."""
    unit = f'<trans-unit id="2" mq:status="{status}"><source>A dog runs.</source><target/></trans-unit>'
    out = translate_xliff(xliff(unit, MQ), mirror, DE)
    assert '<trans-unit id="2" mq:status="Pretranslated"><source>A dog runs.</source><target ' in out
    assert ">RUNS. DOG A</target>" in out


def test_a_unit_without_memoqs_status_gets_none(mirror):
    unit = '<trans-unit id="2"><source>A dog runs.</source><target/></trans-unit>'
    assert '<trans-unit id="2"><source>' in translate_xliff(xliff(unit, MQ), mirror, DE)


@pytest.mark.parametrize("name", ["job.sdlxliff", "job.mqxliff", "JOB.SDLXLIFF", "Job.MqXliff"])
def test_sdlxliff_and_mqxliff_files_are_read_as_xliff(mirror, name):
    """They were plain text without --input-format xliff: each line of XML went to the model.  A
    name in capitals is theirs too, as a server's upload and the command line read it."""
    assert name[name.index("."):].lower() in supported_suffixes()
    out = translate_file_bytes(xliff(trados("2", "A dog runs.", "", "")).encode(), name, mirror, DE).decode()
    assert '<mrk mtype="seg" mid="2">RUNS. DOG A</mrk>' in out and mirror.given == ["A dog runs."]


@pytest.mark.parametrize("target", ["", "<target/>"])
def test_a_trados_unit_with_no_target_gets_one_its_confirmed_segment_empty(mirror, target):
    """A unit with no target (or an empty one) whose <sdl:seg> said one segment Translated was skipped
    whole: its open segment was never filled.  No one's work is in it: the target is written, the
    confirmed segment in it empty, as it came, and the open one filled."""
    unit = ('<trans-unit id="u"><source>A cat sleeps. A dog runs.</source><seg-source><mrk mtype="seg" mid="1">'
            f'A cat sleeps.</mrk> <mrk mtype="seg" mid="2">A dog runs.</mrk></seg-source>{target}<sdl:seg-defs>'
            '<sdl:seg id="1" conf="Translated"/><sdl:seg id="2"/></sdl:seg-defs></trans-unit>')
    out = translate_xliff(xliff(unit), mirror, DE)
    assert ('<mrk mtype="seg" mid="1"/> <mrk mtype="seg" mid="2">RUNS. DOG A</mrk></target><sdl:seg-defs>'
            '<sdl:seg id="1" conf="Translated"/><sdl:seg id="2" conf="Draft" origin="mt"/></sdl:seg-defs>') in out
    assert mirror.given == ["A dog runs."]


def test_a_trados_unit_with_no_target_and_every_segment_confirmed_is_kept(mirror):
    unit = ('<trans-unit id="u"><source>A cat sleeps.</source><seg-source><mrk mtype="seg" mid="1">A cat sleeps.'
            '</mrk></seg-source><sdl:seg-defs><sdl:seg id="1" locked="true"/></sdl:seg-defs></trans-unit>')
    assert translate_xliff(xliff(unit), mirror, DE) == xliff(unit)
    assert mirror.given == []


@pytest.mark.parametrize("target", ["<target>A dog.</target>", '<target state="needs-translation">Hund</target>'])
def test_a_unit_that_says_approved_keeps_its_target_even_a_copy_of_its_source(mirror, target):
    """An approved ``<target>A dog.</target>`` (a name, "OK", kept in the target's language) was taken for
    Okapi's copy of the source and written again: "DOG. A", the reviewer's approval on it."""
    units = f'<trans-unit id="1" approved="yes"><source>A dog.</source>{target}</trans-unit>'
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "kept the translation" advice: a state would not undo the approval
        assert translate_xliff(xliff(units, ""), mirror, DE) == xliff(units, "")
    assert mirror.given == []


def test_a_unit_that_says_approved_of_an_empty_target_is_filled(mirror):
    units = '<trans-unit id="1" approved="yes"><source>A dog.</source><target/></trans-unit>'
    assert ">DOG. A</target>" in translate_xliff(xliff(units, ""), mirror, DE)


def test_a_trados_tracked_deletion_in_the_source_is_left_out_of_the_target_and_its_insertion_unwrapped(same):
    """The model read the words a reviewer deleted ("A blue red car runs."), and the target showed the machine's
    translation as a tracked deletion and insertion of the source's revisions; Trados translates the source as
    its changes accepted, and the target holds no change of its own."""
    source = ('A <mrk mtype="x-sdl-deleted" sdl:revid="r1">blue </mrk><mrk mtype="x-sdl-added" sdl:revid="r2">red '
              '</mrk>car runs.')
    out = translate_xliff(xliff(trados("1", source, "", "")), same, DE)
    assert '<mrk mtype="seg" mid="1">A red car runs.</mrk></target>' in out
    assert f'<seg-source><mrk mtype="seg" mid="1">{source}</mrk></seg-source>' in out  # the source as it came
    assert same.given == ["A red car runs."]


def test_a_trados_comment_on_the_source_stays_on_the_source_its_words_translated_in_the_target(mirror):
    """A reviewer's comment on source words (its <cmt-def> in the file's <doc-info>) went into the target too,
    around whichever words the alignment gave it: each comment showed twice."""
    source = 'A <mrk mtype="x-sdl-comment" sdl:cid="c1">red car</mrk> runs. A <mrk mtype="x-sdl-deleted">big</mrk> dog.'
    out = translate_xliff(xliff(trados("1", source, "", "")), mirror, DE)
    assert '<mrk mtype="seg" mid="1">RUNS. CAR RED A DOG. A</mrk></target>' in out
    assert mirror.given == ["A red car runs.", "A dog."]


@pytest.mark.parametrize("status", ['m:locked="true" m:confirmed="0"', 'm:locked="false" m:confirmed="1"',
                                    'm:confirmed="2"'])
def test_a_phrase_unit_locked_or_confirmed_is_kept_even_a_copy_of_its_source(mirror, status):
    """Phrase (Memsource) copies a name or a number into its target and locks or confirms it: the target, its
    source's copy saying no state, was taken for one still to translate ("Acme Pro" became "PRO ACME")."""
    units = (f'<trans-unit id="1" {status}><source>Acme Pro</source><target>Acme Pro</target></trans-unit>'
             '<trans-unit id="2" m:locked="false" m:confirmed="0"><source>A dog runs.</source><target/></trans-unit>')
    out = translate_xliff(xliff(units, PHRASE), mirror, DE)
    assert f'<trans-unit id="1" {status}><source>Acme Pro</source><target>Acme Pro</target></trans-unit>' in out
    assert mirror.given == ["A dog runs."]


def test_a_phrase_mxliff_file_is_read_as_xliff(mirror):
    """Phrase's own extension was refused as a format attnmt does not know."""
    assert ".mxliff" in supported_suffixes()
    unit = '<trans-unit id="2" m:confirmed="0"><source>A dog runs.</source><target/></trans-unit>'
    out = translate_file_bytes(xliff(unit, PHRASE).encode(), "job.mxliff", mirror, DE).decode()
    assert ">RUNS. DOG A</target>" in out
