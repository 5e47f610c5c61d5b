"""What passes through a translation as it is written, never given to the model (``PROTECTED``): URLs, e-mail
addresses, file names, paths and a program's identifiers (a UUID, a commit's hash).  Read as words, "See
/home/john/report.docx now." came back "Alle Ärzzzenenenenze bespren sich an." from the demo model.  The
verbatim rule (attnmt.decoding.verbatim) holds a translation to the same ones as its source."""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from attnmt.text.code_points import scanned_code_points

# URLs, e-mail addresses and file names pass through untranslated (attnmt.documents.flat.FlatBuilder); a URL's last
# character is no punctuation (the full stop after "see https://example.org." ends the sentence, not the
# address), and no quotation mark or guillemet is part of one (German quotes it „https://example.org“); a
# scheme or www. in any case (HTTPS://EXAMPLE.ORG).  An e-mail address's local part is its run of name
# characters ([\w.+-] and combining marks: _NAME) from the run's first word character: the dots, pluses or
# hyphens before that are no part of it ("--info@example.org" is "info@example.org").  The local part is
# tried from that one place in each run, not from every word boundary in it: from each, a long run with no
# "@" after it ("a-a-a-…", "1.1.1.…") was read to its end again, in time growing as the square of its length
# (an 80 KB line took 47 s).  A lookbehind has a fixed width, so it sees a run's first word character
# (_RUN_START) where at most three dots, pluses or hyphens come before it.  After four or more
# (_AFTER_SEPARATORS: "Kontakt:....info@example.org") it cannot tell, so a local part tried from there
# holds no four in a row: it reads only to the next such place, where the next try starts.

def _combining_marks() -> str:
    """The combining marks of the Basic Multilingual Plane (categories Mn, Mc and Me, which \\w leaves out)
    as ranges of a character class: an accent after its letter as NFD writes it ("jose\\u0301@example.com"),
    an Indic vowel sign.  Python's re has no \\p{M}.  Not the marks for symbols (U+20D0-U+20FF: a keycap's
    enclosing mark) or the variation selectors (U+FE00-U+FE0F: an emoji's presentation), which follow a symbol,
    never a letter of a name: counted, "✉️info@example.com" began no run, and the address went to the model."""
    marks = [code for code in scanned_code_points() if unicodedata.category(chr(code)).startswith("M")
             and not 0x20D0 <= code <= 0x20FF and not 0xFE00 <= code <= 0xFE0F]
    ranges: list[list[int]] = []
    for code in marks:
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1][1] = code
        else:
            ranges.append([code, code])
    return "".join(chr(first) if first == last else f"{chr(first)}-{chr(last)}" for first, last in ranges)


_MARKS = _combining_marks()
_NAME = rf"[\w{_MARKS}]"
_RUN_START = rf"(?<!{_NAME})(?<!{_NAME}[.+-])(?<!{_NAME}[.+-]{{2}})(?<![\w{_MARKS}.+-][.+-]{{3}})"
_AFTER_SEPARATORS = r"(?<=[.+-]{4})"
_LOCAL_PART = (rf"(?:{_RUN_START}\w[\w{_MARKS}.+-]*"
               rf"|{_AFTER_SEPARATORS}\w(?:[.+-]{{0,3}}{_NAME})*[.+-]{{0,3}})")
# A file's name by its extension, one that documents, data, pictures, sound, video, archives, programs
# and code are saved with (``report.pdf``, ``ch001.xhtml``, ``archive.tar.gz``, ``Node.js``), case aside:
# no word's end, and no part of a longer name, path or address (``e.g.``, ``home.Then``, ``a.b.c``).
FILE_EXTENSIONS = ("pdf|docx?|docm|dotx|xlsx?|xlsm|csv|tsv|pptx?|odt|ods|odp|rtf|txt|md|epub|srt|vtt|ass|xliff?"
                   "|json|jsonl|ya?ml|toml|xml|x?html?|css|js|ts|py|ipynb|java|cpp|sh|sql|log|ini|cfg|conf|png|jpe?g"
                   "|gif|svg|webp|bmp|tiff?|ico|mp3|mp4|m4a|wav|ogg|mov|avi|mkv|webm|zip|gz|tgz|tar|7z|rar|exe|msi"
                   "|dmg|apk|iso|dll|jar|bak|tmp")
# A host written without a scheme or www., its path after it (``github.com/attnmt/attnmt``): by a top-level
# domain of these, and a "/" after it, so that no abbreviation ("z.B.", "e.g.") or file name is one.
DOMAINS = ("com|org|net|edu|gov|io|dev|app|ai|co|de|uk|fr|eu|info|ch|at|nl|es|it|us|ca|au|jp|be|se|no|dk|pl|me"
           "|tv|ly|gl")
# A host alone, no scheme nor path (``bike.com``, ``shop.bike.de``), its top-level domain one of DOMAINS in small
# letters, in title case (``Bike.Com``, ``Shop.Bike.De``, as a sentence in title case writes it: it was read as two
# sentences, "Visit Bike." and "Com today.", and "bike" was a term in it) or all of it in capitals (``BIKE.COM``,
# ``SHOP.BIKE.DE``): no part of VERBATIM, as a translation may write it as words, but a glossary's term is no term
# inside it (attnmt.decoding.word_edges.addresses), and no sentence ends inside it (attnmt.documents.sentences).
# Not a sentence whose space a typist left out, the next one's first word after the stop, as a reader reads it:
# "the dog.It ran", "the dog.IT team" (no host of small letters ends in capitals).  In title case or in capitals a
# host may be such a sentence where its top-level domain is a word a sentence starts with (SENTENCE_WORDS: "it",
# "no", "me", "be", "us", "at", German's "es"), after one dot (or an abbreviation's, "the U.S.It was"), and a word
# follows it: "Paris.It is", "Paris.It's", and in capitals one in capitals ("THE DOG.IT RAN AWAY.", "THE DOG.IT'S"):
# these are two sentences, whose words a glossary's terms are found in.  Kept a host, conservatively, where a reader
# sees one: a name of two labels or more before it (``SALES.EXAMPLE.IT``, ``WWW.BIKE.IT``), another top-level domain
# (``BIKE.COM RULES``), nothing or small letters after it (``BIKE.IT now``), and any host in small letters
# (``bike.it today``).  Nor is one word in small letters, a top-level domain in title case and a word in small letters
# a host ("Sales fell.Net income rose.", "It rose.App sales grew."), whatever word the domain is (Net, App, Info): a
# typist writes a host in small letters or in title case, not "fell.Net", and a sentence starts with a capital, its
# words after in small letters; read as the host "fell.Net", the two were one sentence, no term found in "fell".
SENTENCE_WORDS = ("it", "no", "me", "be", "us", "at", "es")
_TITLED_DOMAINS = "|".join(domain.title() for domain in DOMAINS.split("|"))
_SMALL = "[a-zß-öø-ÿ]"  # a small letter of the Latin alphabets (Latin-1's, ß to ÿ without ÷)
_GLUED = (rf"(?:[^\W\d_]\.)*[\w-]+\.(?:{'|'.join(word.title() for word in SENTENCE_WORDS)})(?:\s+|['’])[^\W\d_]"
          rf"|{_SMALL}+\.(?:{_TITLED_DOMAINS})\s+{_SMALL}"
          rf"|(?:[A-Z]\.)*[A-Z\d-]+\.(?:{'|'.join(word.upper() for word in SENTENCE_WORDS)})(?:\s+|['’])[A-Z]+"
          r"(?![^\W\d_])")
_HOST = (rf"(?<![\w.@/\\-])(?!{_GLUED})(?:(?:[\w-]+\.)+(?:{DOMAINS}|{_TITLED_DOMAINS})"
         rf"|(?:[A-Z\d-]+\.)+(?:{DOMAINS.upper()}))(?![\w@/\\-]|\.\w)")
# A path: from the root or home, two names or more ("/etc/hosts", "~/notes.txt", "../src/main.py"), from a
# Windows drive or a network share ("C:\\Users\\john\\report.docx", "\\\\server\\team\\q3.xlsx"), its folders'
# names with spaces too ("C:\\Program Files\\Acme\\config.ini": a folder's, a backslash after it), or a file's
# in folders ("src/app/main.py"); not a slash between words or numbers ("and/or", "km/h", "1/2"), and no full stop
# or other mark that ends the sentence after it.  The demo model wrote "Files\\Acme\\config.ini" as words.
_PATH_NAME = r"[\w.-]*[\w-]"
_WINDOWS_NAME = rf"{_PATH_NAME}(?: {_PATH_NAME})*(?=\\)|{_PATH_NAME}"
PATH = (rf"(?<![\w.~/\\-])(?:(?:~|\.{{1,2}})(?:/{_PATH_NAME})+|(?:/{_PATH_NAME}){{2,}})"
        rf"|(?<![\w\\])(?:[A-Za-z]:|\\\\{_PATH_NAME})(?:\\(?:{_WINDOWS_NAME}))+"
        rf"|(?<![\w.~/\\-]){_PATH_NAME}(?:/{_PATH_NAME})*/\w[\w-]*(?:\.[\w-]+)*\.(?i:{FILE_EXTENSIONS})"
        r"(?![\w@/\\-]|\.\w)")
# An identifier a program wrote: a UUID, or a hash or commit id in hexadecimal, seven digits or more with both a
# digit and a letter among them ("9f86d08", not "2019" nor "decade"), which the model read as numbers and letters.
IDENTIFIER = (r"(?i:\b[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}\b"
              r"|\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,}\b)")
# What a program or a platform reads as it is written, which the demo model wrote as words ("The dog sleeps in
# $HOME" came back "... in der Nähe von SOMAMESSSSt", "#MachineLearning" and "v2.3.1" were dropped): code between
# backticks (`ls -la`, as Markdown writes it in a line), a variable of a shell (``$HOME``, ``${PATH}``, each
# with the path after it) or of Windows (``%APPDATA%``), a handle (``@john_doe``), a hashtag or a colour (a "#"
# and a word with a letter: ``#MachineLearning``, ``#ff0000``; six or eight hex digits: ``#000000``; not C#, not
# "#1"), an IPv4 address (``192.168.1.10``, its port too), a version (``v2.3.1``, ``2.13.0``, ``1.0.0-rc1``).
# Not a number that merely has dots: thousands ("1.000.000", "1.000.000.000"), a date ("12.05.2020"), "3.5".
_END = r"(?![\w-]|\.\w)"
CODE_SPAN = r"(?<!`)`[^`\s](?:[^`\n]*[^`\s])?`(?!`)"
VARIABLE = (rf"(?<![\w$])\$(?:\{{[A-Za-z_]\w*\}}|[A-Za-z_]\w*)(?:/{_PATH_NAME})*"
            rf"|(?<![\w%])%[A-Za-z_]\w*%(?:\\{_PATH_NAME})*")
HANDLE = r"(?<![\w.@/\\-])@[^\W\d]\w*|(?<![\w&#])#(?:\w*[^\W\d_]\w*|[0-9a-fA-F]{6}(?:[0-9a-fA-F]{2})?\b)"
_OCTET = r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"
IPV4 = rf"(?<![\w.]){_OCTET}(?:\.{_OCTET}){{3}}(?::\d{{1,5}})?(?![\w-]|\.\d)"
VERSION = (r"(?<![\w.])(?:[vV]\d+(?:\.\d+)+|(?!\d{1,3}(?:\.\d{3})+(?![\w-]|\.\d)|\d{1,2}\.\d{1,2}\.\d{4}\b)"
           rf"\d+(?:\.\d+){{2,3}})(?:-[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?{_END}")
# A telephone number, which the demo model read as numbers and wrote back as others ("+49 30 1234567" came back
# "2 2 244444444444 2 2 2"): international, a "+" and seven digits or more in groups (``+49 30 1234567``,
# ``+1-800-555-0199``, ``+44 (0)20 7946 0958``); an area code in brackets (``(555) 123-4567``); a German area
# code and a slash (``030 / 123 456``); North American groups of three, three and four (``800-555-0199``).  Not a
# date (12.05.2020, 2020-05-12, 05/12/2020), a version, a time, a price, a score (+5) or a plain number.
_PHONE_GAP = r"(?: ?[./-] ?| )"
_PHONE_GROUP = r"(?:\(\d{1,5}\) ?)?\d{1,8}"
_PHONE_END = r"(?![\w/-]|[.,:]\d)"
PHONE = (rf"(?<![\w+])\+(?=(?:[ ().-]{{0,2}}\d){{7}})\d{{1,15}}(?:{_PHONE_GAP}{_PHONE_GROUP})*{_PHONE_END}"
         rf"|(?<![\w(])\(\d{{2,5}}\) ?\d{{3,4}}[ -]?\d{{3,4}}{_PHONE_END}"
         rf"|(?<![\w/.,-])0\d{{2,5}} ?/ ?\d{{2,}}(?: \d{{2,}})*{_PHONE_END}"
         rf"|(?<![\w.,-])(?:1[ .-])?\d{{3}}(?:-\d{{3}}-|\.\d{{3}}\.)\d{{4}}{_PHONE_END}")
# A bank account's IBAN (``DE89 3704 0044 0532 0130 00``), a book's hyphenated ISBN (``978-3-16-148410-0``), and
# an order's, a ticket's or a product's code of capitals and digits in hyphenated parts, three digits in a row among
# them (``#A-10293``, ``JIRA-1234``, ``SKU-4471-BL``): the demo model wrote each as other numbers ("Nummer 5 5 5"),
# and of "#A-10293" only "#A" was kept (HANDLE); or unhyphenated, ten capitals and digits or more, three digits and
# two letters among them (a parcel's ``1Z999AA10123456784``).  Not a name with a number (COVID-19, F-16, UTF-8,
# ISO9001), nor one a word goes on from (COVID-19-Pandemie), nor an X-ray's [X-1X].
IBAN = r"(?<![\w-])[A-Z]{2}\d{2}(?: ?[A-Z\d]{4}){2,7}(?: ?[A-Z\d]{1,3})?(?![\w-])"
ISBN = r"(?<![\w-])(?:97[89]-)?\d{1,5}-\d{1,7}-\d{1,7}-[\dX](?![\w-])"
ID_CODE = (r"(?<![\w#\[-])#?(?=[A-Z\d-]*\d{3})[A-Z][A-Z\d]*(?:-[A-Z\d]+)+(?![\w-])"
           r"|(?<![\w-])(?=(?:[A-Z]*\d){3})(?=(?:\d*[A-Z]){2})[A-Z\d]{10,}(?![\w-])")
# A short code after the word that says it is one (``PIN 4711``, ``Code A7``, ``Room B12``, ``Gate 4B``, ``Flight LH
# 454``, ``seat 14C``, ``Gleis 3``): a number, capitals and a number, or one or two capitals glued to digits.  After
# such a label a number names a thing (no room is "1.000"), and the demo model wrote it as another ("4711" came back
# "4111111") or dropped it.  Without the label it is text to translate: a plain number, a price, a time, "A4", "MP3".
CODE_LABELS = ("PIN", "TAN", "Code", "code", "Room", "room", "Gate", "gate", "Flight", "flight", "Seat", "seat",
               "Platform", "platform", "Terminal", "terminal", "Desk", "desk", "Counter", "counter", "Raum", "Zimmer",
               "Gleis", "Flug", "Sitzplatz", "Schalter")
_AFTER_LABEL = "|".join(rf"(?<=\b{label} )" for label in CODE_LABELS)
LABELLED_CODE = (rf"(?:{_AFTER_LABEL})(?:[A-Z]{{2,3}} \d{{1,5}}[A-Z]?|[A-Z]{{0,2}}\d{{1,5}}[A-Z]?)"
                 r"(?![\w-]|[.,:/]\d)")
# A key, a token or data in base64 (``PZuDsGgLpEXqrcAqBH1Mz++6Bpy…``, a JSON web token's dotted parts): twenty
# characters or more of base64's alphabet with a letter and a digit among them, as no word of a language is (not
# "COVID-19-Pandemie", which a hyphen parts).  Given to the model, 4000 characters of base64 came back as words.
TOKEN = (r"(?<![\w+/=.-])(?=[A-Za-z0-9+/_]*\d)(?=[A-Za-z0-9+/_]*[A-Za-z])[A-Za-z0-9+/_]{20,}={0,2}"
         r"(?:\.[A-Za-z0-9_-]+){0,2}(?![\w+/=-]|\.\w)")
# A program's placeholders, which it fills in: printf's, not after a "%" (``%%`` is a percent sign) nor with a
# letter after it ("100%ige" is no "%i"; "100% sure" none), and a brace's (``{0}``, ``{count}``, ``{{name}}``,
# ``${name}``; no "{" of prose); and those Weblate's LibreTranslate machinery sends in their place (``[X6X]``,
# the placeholder's offset in its string), which it finds again in the answer as sent ("[1]" is a footnote's).
# In a line of plain text the demo model wrote them as words ("You have {count} new messages." came back
# "Auf dieser Verspühntel."), and the program lost its value.
PLACEHOLDER = re.compile(r"(?<!%)%(?:\d+\$)?(?:\([A-Za-z_]\w*\))?[-+#0]*\d*(?:\.\d+)?[sdifuxXeEgGcp@](?![A-Za-z])"
                         r"|\$?\{\{?\s*(?:[A-Za-z_\d][\w.-]*)?\s*\}\}?|\[X\d+X\]")
# A URL's brackets come in pairs (Wikipedia's ``https://en.wikipedia.org/wiki/Berlin_(disambiguation)``, which
# ends in one): a bracket it does not open closes the text around it ("(see https://example.org)").  Its last
# bracket was read as the text's, and the model was given it.
_URL_PART = r"[^\s<>\"„“”«»‹›()]|\([^\s()<>\"„“”«»‹›]*\)"
_URL_REST = rf"(?:{_URL_PART})*(?:[^\s<>\"„“”«»‹›.,;:!?()\]}}'’…]|\([^\s()<>\"„“”«»‹›]*\))"
VERBATIM = re.compile(
    rf"(?i:\bhttps?://|\bwww\.){_URL_REST}"
    rf"|(?<![\w.@/\\-])(?:[\w-]+\.)+(?i:{DOMAINS})/(?:{_URL_REST})?"
    rf"|{_LOCAL_PART}@[\w{_MARKS}-]+(?:\.[\w{_MARKS}-]+)*\.[A-Za-z]{{2,}}\b"
    rf"|(?<![\w.@/\\-])\w[\w-]*(?:\.[\w-]+)*\.(?i:{FILE_EXTENSIONS})(?![\w@/\\-]|\.\w)"
    rf"|{PATH}|{IDENTIFIER}|{CODE_SPAN}|{VARIABLE}|{IBAN}|{ISBN}|{ID_CODE}|{HANDLE}|{PHONE}|{IPV4}|{VERSION}|{TOKEN}"
)
# A key combination (``Ctrl+Shift+P``, ``Cmd+K``, ``Alt+F4``): the demo model wrote "Press Ctrl+Shift+P to open the
# command palette." as "Fänzzzzzze Stefefefe findet die Palme aus.".  Not in VERBATIM: a translation may name the
# keys as its readers' keyboards do ("Strg+Umschalt+P").  Not a plus between words ("C++", "Disney+").
_MODIFIER = r"(?:Ctrl|Strg|Shift|Alt|AltGr|Cmd|Command|Option|Opt|Win|Meta|Fn|Super)"
KEY_COMBO = rf"(?<![\w+]){_MODIFIER}(?:\+(?:{_MODIFIER}|F\d{{1,2}}|[A-Za-z0-9]\w*))+(?![\w+])"
# A program's name for a variable, a function or a constant, which no language writes as a word: one with an
# underscore inside it (``my_var_name``, ``MAX_RETRIES``, ``_private_cache``), a Python's dunder (``__init__``), or
# camelCase, a lower-case start of two letters or more and a capital inside (``getUserName``, ``isEmpty``,
# ``parseHttpResponse``), with the dotted names before it (``self.max_retries``, ``config.timeoutSeconds``), its
# empty brackets (``save_all()``) or an option's dashes (``--dry_run``).  The demo model read them as words: "Open
# the file my_var_name now." came back "Ein Hähner, der sich an der Küstent.".  Not a word with one lower-case
# letter before its capital (``iPhone``, ``eBay``), nor one that starts with a capital (``McDonald``, German's
# ``LehrerInnen``, and a class's ``HttpClient`` alike a brand's ``WordPress`` or ``JavaScript``, which the model
# reads, and a page's markup aligns, as the words they are), a hyphen's (``e-mail``, ``co-operate``), Markdown's
# ``_emphasis_``, nor a name in a placeholder's braces ("{user_name}": PLACEHOLDER's).
_DOTTED = r"(?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*"
_PROGRAM_SIGN = r"[A-Za-z0-9]_+[A-Za-z0-9]|(?<![A-Za-z0-9])[a-z][a-z0-9]+[A-Z]"
PROGRAM_NAME = (rf"(?<![\w.@/\\$%#{{-])(?:--?)?(?=[\w.]*?(?:{_PROGRAM_SIGN})|__[A-Za-z0-9]+__(?!\w)){_DOTTED}"
                r"(?:\(\))?(?![\w@/\\-]|\.\w)")
# A comparison of numbers or one-letter variables (``a < b``, ``x <= 5``, ``0 < t < 1``, ``n ≠ 0``, ``x=y``), its
# sign spaced on both sides or on neither: math, whose letters are no words.  Read apart, "a < b" gave the model
# "a b" (an article, and its sign, a symbol it cannot write, went before the translation of all, "< Ein Är").  Not
# a word compared ("Home > Shop", a breadcrumb), nor a heart ("I <3 you"), nor an arrow ("x => y"), nor a tag's
# end typed in a line of text ("</b>e", "</s>=2").
_OPERAND = r"(?:\d+(?:[.,]\d+)?|[^\W\d_])"
_COMPARES = r"(?:<=|>=|==|!=|[<>=\u2264\u2265\u2260])"
COMPARISON = (rf"(?<![\w.,<>=!/&#@$\u2264\u2265\u2260]){_OPERAND}(?:(?: {_COMPARES} |{_COMPARES}){_OPERAND})+"
              r"(?![\w<>=!/\u2264\u2265\u2260]|[.,]\d)")


def ampersand_name(ampersand: str) -> str:
    """The pattern of a name joined by ``ampersand``, a pattern of how a format writes the "&" (AMPERSAND_NAME's; a
    Qt string's "&&", attnmt.documents.qt_linguist)."""
    return (rf"(?<![\w&])(?<![\w&];)(?:[A-Z]{{1,4}}{ampersand}[A-Z]{{1,4}}|[A-Z][a-z]+ {ampersand} [A-Z][a-z]+)"
            r"(?![\w&])")


# A name joined by an ampersand: capitals glued to it (``AT&T``, ``R&D``, ``H&M``) or a word in title case either side
# of a spaced one (``Tom & Jerry``, ``Marks & Spencer``).  The demo model's vocabulary writes "&" ("▁&", "&"), but
# it dropped the name ("We watched Tom & Jerry." came back "Ein bereitet sich."; "A man works at AT&T." "Ein Mann
# arbeitet in der Nähe eines Footballs.").  Not "&" between words in lower case ("salt & pepper"), read as "and".
# Its "&" written as a reference too, as an SRT cue or a text line of HTML writes it ("Tom &amp; Jerry"), so that the
# name is found as it was written and passes through so (attnmt.documents.character_references); not right after a
# reference ("&eacute;AT&amp;T"), which, read, glues a letter or a "&" to it: found there, it went to the model unread.
AMPERSAND_NAME = ampersand_name("(?:&amp;|&)")
# What passes through a document's text: VERBATIM, which a translation must hold as its source does wherever the
# text comes from (attnmt.decoding.verbatim), a short code after its label, which a translation names with its
# own label ("Gate 4B" as "Flugsteig 4B"), so that the verbatim rule cannot find it there by its label, and a
# comparison, which a translation may write with its own spacing.
_PROTECTED = f"{VERBATIM.pattern}|{LABELLED_CODE}|{KEY_COMBO}|{COMPARISON}|{PROGRAM_NAME}"
# A program's call written in a line of text, its name glued to its brackets, with nothing in them or a string in
# quotes (``print("hi")``, ``console.log('done')``, ``os.getcwd()``): the model read its quotes as prose's and wrote
# the call as words (``print("hi")`` came back ``Auf diesem Baue``).  Not a word's bracket in prose ("word(s)").
CALL = r"(?<![\w.])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*\((?:\s*|[^()\n]*[\"'][^()\n]*)\)"
# What passes through a line of plain text (attnmt.documents.pipeline.flat_line): PROTECTED, a program's call, and
# a program's placeholders, which a client sends in plain text only as the placeholders they are; on a web page or
# in an office document "{0}" is the page's own text (a software string's reader keeps them:
# attnmt.documents.xml_dialects), and a call in a sentence a page's <code> shows as code already; and a name joined
# by "&", as in a subtitle's cue (PROSE_PROTECTED): "We watched Tom & Jerry." in a .txt lost the name as a cue did.
PLAIN_PROTECTED = re.compile(  # a call first: console.log(x)
    f"{CALL}|{_PROTECTED}|{PLACEHOLDER.pattern}|{AMPERSAND_NAME}")
# What passes through a text read whole as one sentence (attnmt.documents.whole_sentence: ``attnmt.translate``'s, a
# JSONL line's): PROTECTED, a program's call and a name joined by "&", as in a line of plain text.
_SENTENCE_PROTECTED = f"{CALL}|{_PROTECTED}|{AMPERSAND_NAME}"
# What passes through the prose a reader sees: PROTECTED and a name joined by "&".  A subtitle's cue finds it before
# its references are read and writes it back as the cue wrote it (an SRT cue's "Tom &amp; Jerry":
# attnmt.documents.cue_text.cue_markup); a web page's text and translated attributes (attnmt.documents.kept_code's
# KEPT_IN_TEXT) and a Markdown file's (attnmt.documents.markdown) find it as parsed, "&", written back as their
# format escapes it (a page's "&amp;"): "<p>We watched Tom &amp; Jerry.</p>" lost the name as a cue did.
_PROSE_PROTECTED = f"{_PROTECTED}|{AMPERSAND_NAME}"
# The patterns a line of plain text read whole (--no-split) never uses, each compiled where first read: each of the
# last three holds VERBATIM's some 7,000 characters, whose classes of combining marks take some 0.015 s to compile
# (issue 44: a one-line job's start-up).  HOST is read where sentences are split, and where glossary terms are placed.
_ON_USE = {"HOST": _HOST, "PROTECTED": _PROTECTED, "SENTENCE_PROTECTED": _SENTENCE_PROTECTED,
           "PROSE_PROTECTED": _PROSE_PROTECTED}


@cache
def _compiled(name: str) -> re.Pattern[str]:
    return re.compile(_ON_USE[name])


def __getattr__(name: str) -> re.Pattern[str]:
    """One of the patterns of ``_ON_USE`` (``protected.PROTECTED``), compiled at its first read."""
    if name not in _ON_USE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return _compiled(name)
