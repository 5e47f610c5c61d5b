"""An e-mail's headers and a reply's attribution line in a plain text (attnmt.documents.mail_headers): a subject's
text is translated after its key, folded again where it was folded; the addresses, dates, ids and attribution
lines are kept as written; prose that only looks like them (a lone ``Date: ...``) is translated as before."""

import pytest

from attnmt.documents.files import translate_file_bytes
from attnmt.documents.pipeline import DocumentOptions

HEADERS = """\
From: Anna Berg <anna@example.com>
To: Tom <tom@example.org>, Lisa <lisa@example.org>
Date: Mon, 3 Jun 2024 10:00:00 +0200
Subject: Re: a man on a train
Message-ID: <123@example.com>

the photos are lovely.
Date: the meeting moves to Friday.
"""


def translated(text: str, translator, options: DocumentOptions | None = None) -> str:
    return translate_file_bytes(text.encode(), "mail.txt", translator, options or DocumentOptions()).decode()


class Longer:
    """A stand-in for a German translation, longer than its source: each word written twice."""

    glossary = None

    def __init__(self) -> None:
        self.given: list[str] = []

    def translate(self, sentences: list[str], weighed: list[bool]) -> tuple[list[str], list]:
        self.given += sentences
        return [" ".join(word for word in s.split() for _ in range(2)) for s in sentences], [None] * len(sentences)


def test_headers_keep_their_keys_addresses_and_dates_and_only_the_subjects_text_is_translated(upper):
    out = translated(HEADERS, upper)
    expected = HEADERS.replace("a man on a train", "A MAN ON A TRAIN")
    body = "the photos are lovely.\nDate: the meeting moves to Friday.\n"  # a lone key in prose is no header
    assert out == expected.replace(body, body.upper())
    assert "a man on a train" in upper.given and not any("@" in s or "Jun" in s for s in upper.given)


def test_a_german_clients_headers_and_reply_marks_are_kept_too(upper):
    text = ("Von: Anna Berg [mailto:anna@example.com]\nGesendet: Montag, 3. Juni 2024 10:00\n"
            "An: Tom Weber\nBetreff: AW: WG: two dogs in the snow\n")
    lines = translated(text, upper).splitlines()
    assert lines == [*text.splitlines()[:3], "Betreff: AW: WG: TWO DOGS IN THE SNOW"]


def test_a_folded_subject_is_translated_whole_and_folded_again_within_its_width():
    text = ("Subject: a woman in a red dress is walking down the street with her two\n"
            " children and a small dog\nTo: tom@example.org,\n\tlisa@example.org\n")
    translator = Longer()
    lines = translated(text, translator).splitlines()
    assert "a woman in a red dress is walking down the street with her two children and a small dog" in translator.given
    subject = lines[:-2]
    assert len(subject) >= 3 and subject[0].startswith("Subject: a a woman woman")
    assert all(line.startswith(" ") and len(line) <= 78 for line in subject[1:]) and len(subject[0]) <= 78
    assert lines[-2:] == ["To: tom@example.org,", "\tlisa@example.org"]  # another header's folded lines kept


def test_with_the_lines_kept_a_folded_headers_lines_are_translated_alone_and_the_keys_still_kept(upper):
    text = "Subject: a man on a train\n and his dog\nFrom: anna@example.com\n"
    out = translated(text, upper, DocumentOptions(rewrap=False))
    assert out == "Subject: A MAN ON A TRAIN\n AND HIS DOG\nFrom: anna@example.com\n"


def test_a_replys_attribution_lines_are_kept_and_the_quoted_text_translated(upper):
    text = ("On Mon, 3 Jun 2024 at 10:00, Anna <a@b.c> wrote:\n> the printer is broken.\n>\n"
            "> Am 02.06.2024 um 09:00 schrieb Tom Weber:\n> > nobody called the company.\n\n"
            "In the letter she wrote:\nthe sea was calm.\n")  # no quote under it: prose
    assert translated(text, upper).splitlines() == [
        "On Mon, 3 Jun 2024 at 10:00, Anna <a@b.c> wrote:", "> THE PRINTER IS BROKEN.", ">",
        "> Am 02.06.2024 um 09:00 schrieb Tom Weber:", "> > NOBODY CALLED THE COMPANY.", "",
        "IN THE LETTER SHE WROTE:", "THE SEA WAS CALM."]
    assert not any("Anna" in s or "schrieb" in s for s in upper.given)


def test_a_lone_subject_is_a_header_and_an_attribution_wrapped_onto_two_lines_is_kept_whole(upper):
    text = ("Subject: a man on a train\n\nOn Mon, 3 Jun 2024 at 10:00, Anna Berg <anna.berg@example.com>\n"
            "wrote:\n> the printer is broken.\n")
    assert translated(text, upper).splitlines() == [
        "Subject: A MAN ON A TRAIN", "", "On Mon, 3 Jun 2024 at 10:00, Anna Berg <anna.berg@example.com>", "wrote:",
        "> THE PRINTER IS BROKEN."]


def test_a_folded_subject_keeps_a_quote_mark_that_ends_its_text(upper):
    text = "Subject: the reply to <Anna>\n and <Tom>\nFrom: a@b.c\n"
    assert translated(text, upper).splitlines() == ["Subject: THE REPLY TO <ANNA> AND <TOM>", "From: a@b.c"]


def test_a_line_of_the_reply_right_above_a_whole_attribution_is_translated(upper):
    text = "see you at 10 tomorrow\nOn Mon, 3 Jun 2024, Anna <a@b.c> wrote:\n> the printer is broken.\n"
    assert translated(text, upper).splitlines() == [
        "SEE YOU AT 10 TOMORROW", "On Mon, 3 Jun 2024, Anna <a@b.c> wrote:", "> THE PRINTER IS BROKEN."]


def test_a_forwarded_messages_line_above_its_headers_is_kept(upper):
    text = ("see below.\n\n---------- Forwarded message ---------\nFrom: Anna <a@b.c>\nSubject: the trip\n\n"
            "> -----Ursprüngliche Nachricht-----\n> Von: Tom <t@b.c>\n> Betreff: the dogs\n\n"
            "--- a line of dashes ---\n")  # above no headers: prose
    assert translated(text, upper).splitlines() == [
        "SEE BELOW.", "", "---------- Forwarded message ---------", "From: Anna <a@b.c>", "Subject: THE TRIP", "",
        "> -----Ursprüngliche Nachricht-----", "> Von: Tom <t@b.c>", "> Betreff: THE DOGS", "",
        "--- A LINE OF DASHES ---"]


def test_spanish_and_portuguese_outlooks_two_word_sent_key_is_a_header_kept_as_written(upper):
    for sent in ("Enviado el: lunes, 3 de junio de 2024 10:00", "Enviada em: segunda-feira, 3 de junho de 2024 10:00"):
        text = f"De: Ana García <ana@example.es>\n{sent}\nPara: Tom Weber\nCC: Luis\nAsunto: RE: two dogs\n\nhola.\n"
        lines = translated(text, upper).splitlines()
        assert lines == [*text.splitlines()[:4], "Asunto: RE: TWO DOGS", "", "HOLA."]
        assert upper.given[-2:] == ["two dogs", "hola."]


def test_french_reply_and_forward_marks_written_with_a_space_before_the_colon_stay_outside_the_subject(upper):
    text = "De : Anne <anne@example.fr>\nEnvoyé : lundi 3 juin 2024 10:00\nÀ : Tom\nObjet : RE : TR : the dogs\n"
    assert translated(text, upper).splitlines() == [*text.splitlines()[:3], "Objet : RE : TR : THE DOGS"]
    assert upper.given == ["the dogs"]


def test_a_portuguese_gmails_attribution_line_is_kept(upper):
    text = "Em seg., 3 de jun. de 2024 às 10:00, Ana <ana@example.com> escreveu:\n> the printer is broken.\n"
    assert translated(text, upper).splitlines() == [text.splitlines()[0], "> THE PRINTER IS BROKEN."]


def test_portuguese_and_italian_clients_keys_and_marks(upper):
    text = "Da: Anna\nInviato: lunedì 3 giugno 2024\nA: Tom Weber\nOggetto: R: the dogs\n\nAssunto: RES: ENC: a cat\n"
    assert translated(text, upper).splitlines() == [*text.splitlines()[:3], "Oggetto: R: THE DOGS", "",
                                                    "Assunto: RES: ENC: A CAT"]
    assert upper.given == ["the dogs", "a cat"]


def test_a_memos_re_is_its_subject_beside_its_other_headers_and_prose_alone(upper):
    memo = "To: All staff\nFrom: Anna Berg\nCC: Tom Weber\nRe: the printer on the second floor\n\nit is broken.\n"
    assert translated(memo, upper).splitlines() == [*memo.splitlines()[:3], "Re: THE PRINTER ON THE SECOND FLOOR",
                                                    "", "IT IS BROKEN."]
    assert upper.given == ["the printer on the second floor", "it is broken."]
    reply = "Re: your question, the printer works again.\n"  # a lone "Re:" opens a reply's text
    assert translated(reply, upper) == reply.upper()
    answer = ("Q: how was it?\n\nA: it was a long day, and the printer on the second floor was broken\n"
              "again when we came back from lunch.\n")  # an interview's "A:" is Italian's "To:" only beside a header
    assert translated(answer, upper) == answer.upper()
    assert upper.given[-1].endswith("floor was broken again when we came back from lunch.")  # read whole


def test_a_quoted_lines_marks_stay_outside_what_the_model_reads_and_its_list_mark_is_kept(upper):
    text = ("On Mon, Anna <a@b.c> wrote:\n> the printer is broken.\n> - a dog runs.\n>\n>a cat sleeps.\n"
            "  > > nobody called.  \n")
    assert translated(text, upper).splitlines() == [
        "On Mon, Anna <a@b.c> wrote:", "> THE PRINTER IS BROKEN.", "> - A DOG RUNS.", ">", ">A CAT SLEEPS.",
        "  > > NOBODY CALLED.  "]
    assert not any(">" in sentence for sentence in upper.given)
    assert translated(text, upper, DocumentOptions(rewrap=False)).splitlines()[1:] == text.upper().splitlines()[1:]


def test_a_memos_re_wrapped_onto_a_line_not_indented_is_read_whole_and_filled_again_to_its_width():
    """Its second line was translated alone: ``repairs from Monday to Friday next week.`` a sentence of its own."""
    memo = ("To: All staff\nFrom: Facilities\nRe: The car park on the north side of the building will be closed for\n"
            "repairs from Monday to Friday next week.\n\nPlease park on the street.\n")
    translator = Longer()
    lines = translated(memo, translator).splitlines()
    assert ("The car park on the north side of the building will be closed for repairs from Monday to Friday next "
            "week.") in translator.given
    assert lines[:2] == memo.splitlines()[:2] and lines[2].startswith("Re: The The car car park park")
    subject = lines[2:lines.index("")]
    assert len(subject) >= 3 and all(len(line) <= 70 and not line.startswith(" ") for line in subject)  # its width
    assert " ".join(subject).endswith("week. week.")


@pytest.mark.parametrize("header, goes_on, read", [
    ("Subject: Lunch on Friday", "Please bring a salad.", False),  # short, and a sentence starts: the body's
    ("Betreff: die Sitzung am Freitag", "fällt wegen des Feiertags aus", True),  # goes on in lower case
    ("Re: The printer on the second floor is broken again and the technician comes", "on Monday.", True),
    ("Re: The printer on the second floor is broken again and the technician comes.", "Please wait.", False),
    ("Subject: A quarterly review of the budget for the new office in the city centre", "X-Mailer: Outlook 16.0",
     False),
])
def test_a_subjects_next_line_goes_on_it_where_it_ends_no_sentence_and_is_full_or_goes_on_in_lower_case(
        upper, header, goes_on, read):
    text = f"From: Anna Berg <anna@example.com>\n{header}\n{goes_on}\n"
    translated(text, upper)
    value = header.split(": ", 1)[1]
    assert (f"{value} {goes_on}" in upper.given) is read
    assert (value in upper.given) is not read


@pytest.mark.parametrize("header, body", [
    ("Re: lunch", "the cafe is closed today."),
    ("Subject: Meeting", "let us meet at noon in the big room."),
    ("Betreff: Sitzung", "bitte kommt alle pünktlich um neun Uhr ins Büro."),
    ("> Re: the printer", "> it works again since this morning, thanks to Tom."),
])
def test_a_line_wider_than_a_short_subject_with_its_first_word_is_the_bodys_not_the_subjects(upper, header, body):
    """A subject wraps onto a line its next word did not fit on: "the cafe is closed today." fits after "Re: lunch"
    in no width that "Re: lunch" was wrapped at, and was read as the subject's end ("lunch the cafe is ...")."""
    quote = header[:len(header) - len(header.lstrip("> "))]
    memo = f"{quote}To: Tom\n{quote}From: Anna\n{header}\n{body}\n"
    lines = translated(memo, upper).splitlines()
    value, text = header.split(": ", 1)[1], body[len(quote):]
    assert value in upper.given and text in upper.given
    assert lines[2:] == [header.split(": ")[0] + ": " + value.upper(), quote + text.upper()]


def test_a_quoted_memos_wrapped_re_is_read_whole_and_keeps_its_quote_marks(upper):
    memo = "> To: All staff\n> From: Anna\n> Re: the printer on the second floor\n> is broken again\n"
    subject = translated(memo, upper).splitlines()[2:]
    assert "the printer on the second floor is broken again" in upper.given
    assert subject == ["> Re: THE PRINTER ON THE SECOND FLOOR", "> IS BROKEN AGAIN"]  # filled again to its width


@pytest.mark.parametrize("delimiter", ["-- ", "--", "> -- "])
def test_a_signature_under_its_delimiter_is_kept_and_the_prose_after_a_blank_line_translated(upper, delimiter):
    """``-- `` / ``Anna`` came back ``-- `` / ``Ein Kellner``: a name, a role, a phone number are the sender's."""
    quote = delimiter[:len(delimiter) - len(delimiter.lstrip("> "))]
    signature = [delimiter, f"{quote}Anna Berg", f"{quote}Sales Manager", f"{quote}ACME GmbH | Tel. +49 30 1234567"]
    mail = "\n".join([f"{quote}the photos are lovely.", *signature, "", "this message is confidential."]) + "\n"
    lines = translated(mail, upper).splitlines()
    assert lines[1:5] == signature
    assert lines[0] == f"{quote}THE PHOTOS ARE LOVELY." and lines[6] == "THIS MESSAGE IS CONFIDENTIAL."
    assert not any("Anna" in given or "Sales" in given for given in upper.given)
    assert translated("the photos are lovely.\n--\n\nthe dog runs.\n", upper).splitlines()[1:] == [
        "--", "", "THE DOG RUNS."]  # two dashes with nothing under them sign nothing
