"""attnmt.documents.markup_text: a page's text, and a Markdown paragraph's, read as a line of plain text is: quotes
around words, a program's call, a shell command alone."""

import pytest

from attnmt.documents.markdown import translate_markdown
from attnmt.documents.markup import translate_markup
from attnmt.documents.pipeline import DocumentOptions, translate_lines

LINES = ['she said "hello there" to him', "he said “yes” and left", "a man reads 'The Times' now",
         'type print("hi") to say "hello there"', "she saw « le chien » today"]


@pytest.mark.parametrize("target", ["de", "fr", "de-CH", "en", None])
def test_a_pages_paragraph_writes_its_quotes_as_a_text_line_does(mirror, target):
    """<p>She said "hello" to him.</p> came back <p>Sie ist mit der Aufschrift „S“ zu sehen.</p> from the demo model,
    where the same text line's quote wrapped „hallo“: the page read its quotes as words."""
    options = DocumentOptions(target_lang=target)
    pages = translate_markup([f"<p>{line}</p>" for line in LINES], mirror, options)
    assert pages == [f"<p>{line}</p>" for line in translate_lines(LINES, mirror, options)]


def test_a_pages_quotes_wrap_the_translation_of_their_words_the_model_reads_without_them(upper):
    page = '<ul><li>Type "yes" when <b>asked</b>.</li><li>The sign read \'Closed\' all day.</li></ul>'
    assert translate_markup([page], upper, DocumentOptions(target_lang="de")) == [
        "<ul><li>TYPE „YES“ WHEN <b>ASKED</b>.</li><li>THE SIGN READ ‚CLOSED‘ ALL DAY.</li></ul>"]
    assert upper.given == ["Type yes when asked.", "The sign read Closed all day."]


def test_a_stop_or_comma_ending_a_pages_quote_goes_after_it_as_in_a_text_line(known):
    translator = known({"It works, Tom wrote.": ("Es funktioniert, schrieb Tom.", [(0, 0), (1, 1), (2, 3), (3, 2)])})
    assert translate_markup(['<p>"It works," Tom wrote.</p>'], translator, DocumentOptions(target_lang="de")) == [
        "<p>„Es funktioniert“, schrieb Tom.</p>"]


def test_a_markdown_paragraphs_quotes_and_calls_are_read_as_a_text_lines(upper):
    text = '> She said "hello" to him.\n\n- Call os.getcwd() to see "where" you are.\n'
    assert translate_markdown(text, upper, DocumentOptions(target_lang="de")) == (
        '> SHE SAID „HELLO“ TO HIM.\n\n- CALL os.getcwd() TO SEE „WHERE“ YOU ARE.\n')


@pytest.mark.parametrize("call", ['print("hi")', "console.log('done')", "os.getcwd()", 'fmt.Println("a b")'])
def test_a_program_call_in_a_pages_text_passes_through_whole(upper, call):
    """<p>Call print("hi") to test.</p> lost its call: the model read its quotes as prose's."""
    assert translate_markup([f"<p>Then call {call} to test it.</p>"], upper) == [f"<p>THEN CALL {call} TO TEST IT.</p>"]
    assert call not in upper.given[0]


def test_code_and_xml_keep_their_quotes_as_written(upper):
    """What a page shows as code is never read as text, and XML's quotes are its data's."""
    page = '<p>Set <code>x = "a"</code> to say "hi" here.</p><pre>echo "hi"</pre><script>f("a")</script>'
    assert translate_markup([page], upper, DocumentOptions(target_lang="de")) == [
        '<p>SET <code>x = "a"</code> TO SAY „HI“ HERE.</p><pre>echo "hi"</pre><script>f("a")</script>']
    assert translate_markup(['<doc><t>Say "hi" now</t></doc>'], upper, DocumentOptions(target_lang="de"),
                            xml=True) == ['<doc><t>SAY "HI" NOW</t></doc>']


@pytest.mark.parametrize("command", ["npm install express", "sudo apt-get install -y curl", "cd ~/projects",
                                     "git commit -m \"fix the bug\"", "./configure --prefix=/usr", "make -j4"])
def test_a_block_that_is_a_shell_command_alone_stays_as_written(upper, command):
    """<p>npm install express</p> came back <p>Auf diesem Firmen</p>, where a text line's command is kept."""
    page = f"<ul><li>{command}</li><li>A dog runs.</li></ul>"
    assert translate_markup([page], upper) == [f"<ul><li>{command}</li><li>A DOG RUNS.</li></ul>"]
    assert translate_markdown(f"{command}\n\nA dog runs.\n", upper) == f"{command}\n\nA DOG RUNS.\n"


def test_a_shell_command_alone_after_a_block_in_its_own_stays_as_written(upper):
    """Laid out apart from the <p> before it, it is a block's text alone: it was given to the model, as a command in
    a <p> of its own never is (the demo model made that one "Auf diesem Firmen")."""
    page = "<div><p>To install it, run:</p>npm install express</div>"
    assert translate_markup([page], upper) == ["<div><p>TO INSTALL IT, RUN:</p>npm install express</div>"]
    assert upper.given == ["To install it, run:"]


@pytest.mark.parametrize("text", ["git is a tool", "Git is a version control system.", "make sure the dog eats",
                                  "Run npm install express first.", "cd", "git"])
def test_a_sentence_or_a_name_alone_is_no_command(upper, text):
    """A command's name in a sentence, or alone in a table's cell or a list's item, is translated as before."""
    assert translate_markup([f"<td>{text}</td>"], upper) == [f"<td>{text.upper()}</td>"]


def test_a_quote_around_an_inline_elements_words_is_read_as_a_quote(upper):
    """<p>She said <b>"hello"</b> to him.</p>: all the <b>'s text in quotes is no sentence's edges."""
    page = '<p>She said <b>"hello"</b> to him. <a href="/x">"Read more"</a></p>'
    assert translate_markup([page], upper, DocumentOptions(target_lang="de")) == [
        '<p>SHE SAID <b>„HELLO“</b> TO HIM. <a href="/x">„READ MORE“</a></p>']
    assert upper.given == ["She said hello to him.", "Read more"]


@pytest.mark.parametrize("page, written, given", [
    ("<p>Run this:<br>pip install attnmt</p>", "<p>RUN THIS:<br>pip install attnmt</p>", ["Run this:"]),
    ("<li>First, update:<br/>sudo apt-get update<br>sudo apt-get install -y curl<br>Done.</li>",
     "<li>FIRST, UPDATE:<br/>sudo apt-get update<br>sudo apt-get install -y curl<br>DONE.</li>",
     ["First, update:", "Done."]),
    ("<p>Open a shell.<br>\n  cd ~/projects\n<br>Then look around.</p>",
     "<p>OPEN A SHELL.<br>\n  cd ~/projects\n<br>THEN LOOK AROUND.</p>", ["Open a shell.", "Then look around."]),
    ("<td><span>Build it with:<br>make -j4</span> and wait.</td>",
     "<td><span>BUILD IT WITH:<br>make -j4</span> AND WAIT.</td>", ["Build it with:", "and wait."]),
    ("<p>Install the deps:<br>pip install -r requirements.txt</p>",
     "<p>INSTALL THE DEPS:<br>pip install -r requirements.txt</p>", ["Install the deps:"]),
    ("<p>Run this:<br>pip install attnmt<br>then wait.</p>", "<p>RUN THIS:<br>pip install attnmt<br>THEN WAIT.</p>",
     ["Run this:", "then wait."]),  # no sentence runs on over the command
    ("<p>Install it with:\n  npm install express\n  npm start\nThen open the page.</p>",
     "<p>INSTALL IT WITH:\n  npm install express\n  npm start\nTHEN OPEN THE PAGE.</p>",
     ["Install it with:", "Then open the page."]),  # on lines of their own in the page's source
])
def test_a_command_on_a_line_of_its_own_in_a_block_stays_as_written(upper, page, written, given):
    """Run this:<br>pip install attnmt came back Auf diesem<br>Fäntzen: the command after its break read as words."""
    assert translate_markup([page], upper) == [written]
    assert upper.given == given


def test_prose_or_a_name_after_a_line_break_is_translated_beside_a_command(upper):
    page = ("<p>You should always use<br>git rebase carefully. Say:<br>git is a tool<br>Tools:<br>git<br>Run:<br>"
            "npm ci</p>")
    assert translate_markup([page], upper) == [
        page.upper().replace("<BR>", "<br>").replace("P>", "p>").replace("NPM CI", "npm ci")]


@pytest.mark.parametrize("text", ["Run this:\\\npip install attnmt\n", "Run this:  \npip install attnmt\n",
                                  "Run this:<br>pip install attnmt\n"])
def test_a_command_after_a_markdown_paragraphs_hard_break_stays_as_written(upper, text):
    assert translate_markdown(text, upper) == text.replace("Run this:", "RUN THIS:")
