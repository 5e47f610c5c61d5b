"""XML dialects known by their root element (attnmt.documents.xml_dialects): what of an Android
strings.xml and a .NET .resx reaches the model, and what comes back byte for byte."""

import pytest

from attnmt.documents.files import translate_file_bytes
from attnmt.documents.markup import translate_markup
from attnmt.documents.pipeline import DocumentOptions


def one(text, translator):
    return translate_markup([text], translator, xml=True)[0]


def strings(*lines):
    return "<resources>\n" + "".join(f"    {line}\n" for line in lines) + "</resources>\n"


@pytest.mark.parametrize("source, kept, given", [
    ("Welcome %1$s, you have %2$d messages", ["%1$s", "%2$d"], "Welcome, you have messages"),
    ("Battery at %d%% now", ["%d", "%%"], "Battery at now"),
    ("Loading\\u2026 please wait", ["\\u2026"], "Loading please wait"),
    ("Say \\@name or \\?", ["\\@", "\\?"], "Say name or"),
])
def test_android_placeholders_and_escapes_pass_through_as_written(mirror, source, kept, given):
    """Read as words, ``%1$s`` came back ``%1$S`` and ``%d%%`` ``%D%%`` (the app crashed on the
    format), ``\\u2026`` ``\\U2026``; each is kept as it was written, and the model never reads it."""
    out = one(strings(f'<string name="s">{source}</string>'), mirror)
    assert all(out.count(piece) == source.count(piece) for piece in kept), out
    assert mirror.given == [given]


def test_an_android_xliff_g_is_kept_whole_and_never_read(mirror):
    """``<xliff:g>`` marks the app's part of a string (a placeholder, a name): its text went to the model."""
    g = '<xliff:g id="time" example="5 days">%1$s left</xliff:g>'
    text = ('<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">\n'
            f'    <string name="t">Time: {g} until the end</string>\n</resources>\n')
    out = one(text, mirror)
    assert g in out and "left" not in " ".join(mirror.given)


def test_an_android_line_break_escape_parts_the_words_around_it(same, mirror):
    """``First line\\nSecond line`` reached the model as "First lineSecond line"; each line is read on its
    own, and the escape stays glued to the words as it was."""
    text = strings('<string name="s">First line\\nSecond line</string>')
    assert one(text, same) == text and same.given == ["First line", "Second line"]
    assert one(text, mirror) == text.replace("First line\\nSecond line", "LINE FIRST\\nLINE SECOND")


def test_android_strings_on_one_line_are_translated_apart(mirror):
    """Two strings a space apart on one line were one sentence, whose words the model mixed."""
    text = '<resources><string name="a">a dog</string> <string name="b">a red cat</string></resources>'
    assert one(text, mirror) == text.replace(">a dog<", ">DOG A<").replace(">a red cat<", ">CAT RED A<")
    assert mirror.given == ["a dog", "a red cat"]


def test_an_android_resource_reference_is_kept(mirror):
    text = strings('<string name="a">@string/app_name</string>', '<string name="b">a dog</string>')
    assert one(text, mirror) == text.replace(">a dog<", ">DOG A<") and mirror.given == ["a dog"]


@pytest.mark.parametrize("source, kept", [
    ("Hello {0}, you have {1:N0} messages", ["{0}", "{1:N0}"]),
    ("Saved %d files to %s", ["%d", "%s"]),
    ("Welcome %1$s, ${count} new", ["%1$s", "${count}"]),
])
def test_a_programs_placeholders_in_other_xml_pass_through_as_written(same, mirror, source, kept):
    """Software strings kept in XML of a program's own (``<entry key="greeting">``) went to the model
    whole: ``{0}`` and ``%1$s`` came back changed (``%1$S``), and the program failed on its format."""
    text = f'<properties>\n  <entry key="a">{source}</entry>\n</properties>\n'
    assert one(text, same) == text
    out = one(text, mirror)
    assert all(out.count(piece) == 1 for piece in kept), out
    assert not any(piece in mirror.given[0] for piece in kept)


@pytest.mark.parametrize("source", ["{0}  items", "%1$s\titems", "https://x.org  is ours", "{0}  {1} items"])
def test_the_spaces_after_a_placeholder_that_opens_a_string_are_kept(same, source):
    """A piece's first blank was dropped after a protected span, whatever it was and however many
    followed: ``{0}  items`` came back ``{0} items``, and a tab after ``%1$s`` a space."""
    for text in (strings(f'<string name="s">{source}</string>'),
                 f'<properties>\n  <entry key="a">{source}</entry>\n</properties>\n',
                 f'<properties><entry key="a">{source}</entry></properties>'):
        assert one(text, same) == text


@pytest.mark.parametrize("source", ["Done. {0}  Next one.", "Done. {0}\n\nNext one.", "Done.\n{0}\nNext one.",
                                    "Done.  {0}  Next one.", "Saved. https://x.org  Next one."])
def test_the_spaces_after_a_placeholder_between_two_sentences_are_kept(same, mirror, source):
    """The first of two blanks after a placeholder was dropped from the text the model reads, and
    between two sentences, which keep the source's spacing, nothing wrote it back: ``Done. {0}  Next
    one.`` came back ``Done. {0} Next one.``, a blank line after it a line break, and a placeholder
    on a line of its own ended its line with a space."""
    text = f'<properties>\n  <entry key="a">{source}</entry>\n</properties>\n'
    assert one(text, same) == text
    first, rest = source.split(".", 1)
    assert one(text, mirror) == text.replace(source, f"{first.upper()}.{rest.replace('Next one.', 'ONE. NEXT')}")


def test_words_and_a_percent_sign_in_other_xml_are_still_the_models(mirror):
    assert one("<doc><p>a 100% dog</p></doc>", mirror) == "<doc><p>DOG 100% A</p></doc>"


RESX = """<?xml version="1.0" encoding="utf-8"?>
<root>
  <resheader name="resmimetype">
    <value>text/microsoft-resx</value>
  </resheader>
  <resheader name="reader">
    <value>System.Resources.ResXResourceReader, System.Windows.Forms, Version=4.0.0.0</value>
  </resheader>
  <data name="Greeting" xml:space="preserve">
    <value>Hello {0}, you have {1:N0} messages</value>
    <comment>Shown on the start page</comment>
  </data>
  <data name="Open"><value>Open the file</value></data> <data name="Save"><value>Save it</value></data>
  <data name="button1.Size" type="System.Drawing.Size, System.Drawing">
    <value>Seventy five</value>
  </data>
  <data name="&gt;&gt;button1.Name" xml:space="preserve">
    <value>button one</value>
  </data>
  <data name="logo" mimetype="application/x-microsoft.net.object.bytearray.base64">
    <value>
        AAEAAAD/////AQAAAAAAAAAMAgAAAFFTeXN0ZW0uRHJhd2luZw==
</value>
  </data>
</root>
"""


def test_a_resx_translates_its_string_values_alone(mirror):
    """A .resx's headers (its reader's class), comments, typed and binary entries (a Size, a picture's
    base64) and the designer's ``>>`` names went to the model, and the file no longer loaded."""
    out = one(RESX, mirror)
    assert mirror.given == ["Hello, you have messages", "Open the file", "Save it"]
    assert out == (RESX.replace("Hello {0}, you have {1:N0} messages", "{1:N0} MESSAGES HAVE YOU HELLO {0},")
                   .replace(">Open the file<", ">FILE THE OPEN<").replace(">Save it<", ">IT SAVE<"))


@pytest.mark.parametrize("kind", ["System.String", "System.String, mscorlib",
                                  "System.String, mscorlib, Version=4.0.0.0, Culture=neutral"])
def test_a_resx_string_that_names_its_type_is_translated(mirror, kind):
    """Older Visual Studio and some tools write a string resource's type (``type="System.String, mscorlib"``):
    taken for a typed entry, data, its words were never translated."""
    text = f'<root><resheader name="resmimetype"><value>text/microsoft-resx</value></resheader>' \
           f'<data name="Open" type="{kind}"><value>Open the file</value></data></root>'
    assert one(text, mirror) == text.replace(">Open the file<", ">FILE THE OPEN<")


def test_a_root_element_named_root_without_resx_entries_is_plain_xml(mirror):
    assert one("<root><comment>a dog</comment></root>", mirror) == "<root><comment>DOG A</comment></root>"


def test_an_android_apostrophe_is_read_as_one_and_the_translations_quotes_are_escaped(same, fixed):
    """``Don\\'t`` reached the model as "Dont" (its escape kept whole) and a translation's bare
    apostrophe or double quote was written as it came: Android reads them as quotes and drops them
    ("l'eau" showed "leau"), an odd one breaks the build."""
    text = strings("<string name=\"a\">Don\\'t say <b>it\\'s</b> \\\"here\\\"</string>")
    assert one(text, same) == text and same.given == ["Don't say it's here"]
    french = fixed("l'eau \"fraîche\"", [(0, 0)])
    assert one(strings('<string name="a">water</string>'), french) == strings(
        '<string name="a">l\\\'eau \\"fraîche\\"</string>')


def test_the_quotes_that_wrap_an_android_string_stay_its_syntax(fixed):
    """A string wrapped in double quotes (``"  spaced  "``) keeps them as they were, unescaped."""
    french = fixed("l'eau", [(0, 0)])
    assert one(strings('<string name="a">"water"</string>'), french) == strings('<string name="a">"l\\\'eau"</string>')


@pytest.mark.parametrize("quoted", ['"  Hello there"', '"Hello there  "', '"\tHello there"'])
def test_the_spaces_inside_an_android_strings_quotes_are_kept_as_written(same, quoted):
    """Android keeps the spaces inside a quoted string: ``"  Hello"`` came back ``" Hello"``, the first
    space dropped as one after a kept span is."""
    text = strings(f'<string name="a">{quoted}</string>')
    assert one(text, same) == text and same.given == ["Hello there"]


def test_a_line_break_the_model_writes_is_written_as_androids_escape(fixed):
    """Written bare, Android showed the translation's line break as a space."""
    text = strings('<string name="a">\n        a dog\n    </string>', '<string name="b">"a cat"</string>')
    german = "Zeile eins\\nZeile zwei"
    written = one(text, fixed("Zeile eins\nZeile zwei", [(0, 0)]))
    assert written == text.replace("a dog", german).replace("a cat", german)


def test_a_line_break_of_the_files_layout_is_the_space_android_shows(same):
    """A string laid out on several lines is one line in the app: its line breaks are no line breaks
    of the translation, and were written ``\\n`` as if they were."""
    text = strings("<string name=\"a\">First sentence here.\n        Second sentence here.</string>")
    assert one(text, same) == text.replace(".\n        Second", ". Second")
    assert same.given == ["First sentence here.", "Second sentence here."]


@pytest.mark.parametrize("held", ["&lt;p&gt;You have &lt;b&gt;%d&lt;/b&gt; dogs, it\\'s %1$s&lt;/p&gt;",
                                  "<![CDATA[<p>You have <b>%d</b> dogs, it\\'s %1$s</p>]]>"])
def test_the_html_an_android_string_holds_keeps_its_placeholders(same, mirror, held):
    """An Android string of HTML (for Html.fromHtml), escaped or in a CDATA section, was read with HTML's
    vocabulary alone: ``%d`` came back ``%D``, and the model read "it\\'s"."""
    text = strings(f'<string name="a">{held}</string>')
    assert one(text, same) == text and same.given == ["You have dogs, it's"]
    out = one(text, mirror)
    assert out.count("%d") == 1 and out.count("%1$s") == 1 and "IT\\'S" in out


@pytest.mark.parametrize("held, given, written", [
    ('Read the &lt;a href="https://example.org/terms">terms&lt;/a> now.', ["Read the terms now."],
     'NOW. &lt;a href="https://example.org/terms"&gt;TERMS&lt;/a&gt; THE READ'),
    ("You have &lt;b>%2$d new messages&lt;/b>.", ["You have new messages."],
     "&lt;b&gt;MESSAGES. %2$d NEW&lt;/b&gt; HAVE YOU"),
    ("<![CDATA[<b>Bold</b> text]]>", ["Bold text"], "<![CDATA[TEXT <b>BOLD</b>]]>"),
])
def test_html_among_an_android_strings_words_is_translated_as_html(same, mirror, held, given, written):
    """Android's docs' own example, ``You have &lt;b>%2$d new messages&lt;/b>.``, was read as words, its
    tags with them, where its tags do not stand at both ends: a link came back ``&lt;A HREF=\\"\\"&gt;``,
    its URL moved out of it."""
    text = strings(f'<string name="a">{held}</string>')
    assert one(text, same).replace("&gt;", ">") == text.replace("&gt;", ">") and same.given == given
    assert one(text, mirror) == strings(f'<string name="a">{written}</string>')


def test_an_android_resources_files_data_is_kept(mirror):
    """A resources file's <dimen>, <bool>, <color> and a style's items went to the model ("16DP",
    "TRUE", "BOLD"), and the app no longer built; an <item type="string"> is a string."""
    text = strings('<string name="a">a dog</string>', '<dimen name="margin">16dp</dimen>',
                   '<bool name="tablet">true</bool>', '<color name="accent">#FFAACC</color>',
                   '<item type="string" name="b">a cat</item>', '<item type="id" name="button">item</item>',
                   '<style name="Theme"><item name="android:textStyle">bold</item></style>')
    assert one(text, mirror) == text.replace(">a dog<", ">DOG A<").replace(">a cat<", ">CAT A<")
    assert mirror.given == ["a dog", "a cat"]


def test_a_line_break_in_a_resx_value_stays_where_it_is(mirror):
    """A .resx value's line break is one in the window (a message box's two lines): "first line⏎second
    line" reached the model as one sentence and came back on one line, the break lost."""
    text = ('<root>\n  <resheader name="version"><value>2.0</value></resheader>\n'
            '  <data name="Two" xml:space="preserve"><value>first line\nsecond line</value></data>\n</root>')
    assert one(text, mirror) == text.replace("first line\nsecond line", "LINE FIRST\nLINE SECOND")
    assert mirror.given == ["first line", "second line"]


def test_an_android_space_written_as_its_code_parts_the_words_around_it(same):
    """``10\\u00A0km`` and ``Hello\\u0020world`` reached the model as "10km" and "Helloworld"."""
    text = strings('<string name="a">Walk 10\\u00A0km today</string>', '<string name="b">Hello\\u0020world</string>')
    assert one(text, same) == text and same.given == ["Walk 10 km today", "Hello world"]


@pytest.mark.parametrize("attributes, source, written", [
    ("", "%d%% done", "%d%% zu %% erledigt"),
    (' formatted="true"', "half done", "zu %% erledigt"),
])
def test_a_percent_sign_the_translation_adds_to_a_formatted_android_string_is_doubled(fixed, attributes, source,
                                                                                      written):
    """``String.format`` reads a bare ``%`` as a placeholder and threw at run time ("%d zu % erledigt"):
    in a string with printf placeholders, or ``formatted="true"``, the translation's ``%`` is ``%%``."""
    german = fixed("zu % erledigt", [(0, 0)])
    assert one(strings(f'<string name="a"{attributes}>{source}</string>'), german) == strings(
        f'<string name="a"{attributes}>{written}</string>')


def test_a_percent_sign_in_an_unformatted_android_string_stays_as_written(fixed):
    assert one(strings('<string name="a">half done</string>'), fixed("50 % erledigt", [(0, 0)])) == strings(
        '<string name="a">50 % erledigt</string>')


@pytest.mark.parametrize("translation, written", [("@Anna schreibt", "\\@Anna schreibt"), ("?-Taste", "\\?-Taste"),
                                                  ("Schreib @Anna?", "Schreib @Anna?")])
def test_a_translation_starting_with_at_or_question_mark_is_escaped(fixed, translation, written):
    """Android reads a string starting with ``@`` or ``?`` as a resource reference, and the build
    failed ("@Anna schreibt"): the translation's first character is escaped, as Android's docs say."""
    assert one(strings('<string name="a">Anna writes</string>'), fixed(translation, [(0, 0)])) == strings(
        f'<string name="a">{written}</string>')


def test_a_backslash_the_translation_writes_that_starts_no_android_escape_is_doubled(fixed):
    """Android drops a backslash before a character it does not escape: "C:\\Pfad" showed "C:Pfad"."""
    assert one(strings('<string name="a">the folder</string>'), fixed("C:\\Pfad \\n", [(0, 0)])) == strings(
        '<string name="a">C:\\\\Pfad \\n</string>')


@pytest.mark.parametrize("name", ["Resources.resx", "Strings.de-DE.RESX"])
def test_a_resx_file_is_translated_by_its_name(mirror, name):
    """.resx was "not a format attnmt translates", in the CLI and the server alike: it is XML."""
    out = translate_file_bytes(RESX.encode(), name, mirror, DocumentOptions(target_lang="de")).decode()
    assert mirror.given == ["Hello, you have messages", "Open the file", "Save it"] and ">IT SAVE<" in out


@pytest.mark.parametrize("held, given", [
    ('Please &lt;a href="{0}"&gt;click here&lt;/a&gt; to confirm.', ["Please click here to confirm."]),
    ("You have &lt;b&gt;{0:N0}&lt;/b&gt; new orders.", ["You have new orders."]),
])
def test_html_among_a_resx_values_words_is_translated_as_html(same, mirror, held, given):
    """An ASP.NET page writes a value as HTML (``@Html.Raw``): read as words, ``Please <a href="{0}">click
    here</a>`` went to the model with its tags, and the link came back empty, its ``{0}`` moved out of it."""
    text = ('<root><resheader name="resmimetype"><value>text/microsoft-resx</value></resheader>'
            f'<data name="A" xml:space="preserve"><value>{held}</value></data></root>')
    assert one(text, same) == text and same.given == given
    out = one(text, mirror)
    assert out.count("{0") == 1 and ('href="{0}"' in out or "&lt;b&gt;{0:N0}&lt;/b&gt;" in out)
