"""The language rule (attnmt.decoding.quality_language): a translation clearly in another language than
the target language is flagged ``language``; a line too short to judge never is."""

import pytest

from attnmt.checkpoint import load_model_dir
from attnmt.decoding.quality import Assessor, assess
from attnmt.decoding.quality_language import Languages, in_other_language, in_source_language
from attnmt.errors import ConfigError


@pytest.fixture(scope="module")
def model_and_tokenizer(trained_model):
    return load_model_dir(trained_model)


@pytest.mark.parametrize(("text", "target"), [
    ("A man in a blue shirt is standing on a ladder.", "de"),  # an English paraphrase as the German translation
    ("Un homme en chemise bleue est debout sur une échelle.", "de"),  # a copy in a third language
    ("Ein Mann in einem blauen Hemd steht auf einer Leiter.", "en"),
    ("Un hombre con una camisa azul está de pie en una escalera.", "fr"),
    ("Een man in een blauw shirt staat op een ladder.", "de"),
    ("The dog is running in the park with its owner.", "ru"),  # another script, too
    ("Собака бежит по парку, и она очень рада.", "de"),
    ("私は公園で走るのが好きです。", "zh"),
    ("我喜欢在公园里跑步，这是我的爱好。", "ja"),
    ("A man in a blue shirt is standing on a ladder.", "de-AT"),  # a region: its language's rule
])
def test_a_translation_clearly_in_another_language_is_in_one(text, target):
    assert in_other_language(text, target)


@pytest.mark.parametrize(("text", "target"), [
    ("Ein Mann in einem blauen Hemd steht auf einer Leiter.", "de"),
    ("Le chien court dans le parc avec son maître.", "fr"),
    ("El perro corre en el parque con su dueño.", "es"),
    ("Il cane corre nel parco con il suo padrone.", "it"),
    ("O cão corre no parque com o seu dono.", "pt"),
    ("De hond rent in het park met zijn baasje.", "nl"),
    ("我喜欢在公园里跑步，这是我的爱好。", "zh"),
    ("私は公園で走るのが好きです。", "ja"),
    ("Der Film heißt im Original The Lord of the Rings.", "de"),  # a title in the source language, quoted
    ("Quiero ir a Madrid o a Barcelona.", "es"),  # "a", "o": Portuguese's too, not Portuguese's alone
])
def test_a_translation_in_its_language_is_not(text, target):
    assert not in_other_language(text, target)


@pytest.mark.parametrize("text", ["Hello world", "New York", "Apple iPhone 15 Pro Max", "12345", "OK!",
                                  "Thank you", "Microsoft Office", "the end", ""])
def test_a_short_line_a_name_or_a_number_is_never_judged(text):
    assert not any(in_other_language(text, target) for target in ("de", "ru", "fr", "ja"))


def test_a_target_it_does_not_know_or_none_is_never_judged():
    assert not in_other_language("A man in a blue shirt is standing on a ladder.", "fi")
    assert not in_other_language("A man in a blue shirt is standing on a ladder.", None)


def test_assess_flags_a_translation_not_in_the_target_language(model_and_tokenizer):
    model, tokenizer = model_and_tokenizer
    sources = ["a man rides a bike"] * 2
    translations = ["the man is riding on his bike with a friend", "ein mann fährt ein fahrrad"]
    paraphrase, german = assess(model, tokenizer, sources, translations, languages=Languages("en", "de"))
    assert "language" in paraphrase.flags and "language" not in german.flags
    unknown = assess(model, tokenizer, sources[:1], translations[:1])[0]  # no language given: not judged
    assert "language" not in unknown.flags


def test_the_assessor_takes_the_languages_to_the_flags(model_and_tokenizer):
    model, tokenizer = model_and_tokenizer
    found = Assessor(languages=Languages("en", "de")).assess(model, tokenizer, ["a dog runs"],
                                                              ["the dog is running in the park"])
    assert "language" in found[0].flags


@pytest.mark.parametrize("languages", ["de", ("en",), ("en", "German!"), ("en", 7)])
def test_languages_that_are_no_pair_of_codes_are_refused_in_one_line(model_and_tokenizer, languages):
    model, tokenizer = model_and_tokenizer
    with pytest.raises(ConfigError, match="languages: expected \\(source, target\\) language codes"):
        assess(model, tokenizer, ["a dog runs"], ["ein hund rennt"], languages=languages)


def test_languages_may_be_a_plain_pair(model_and_tokenizer):
    """("en", "de") as a tuple or a list is Languages("en", "de"): a tuple was an AttributeError (no .target)."""
    model, tokenizer = model_and_tokenizer
    for languages in (("en", "de"), ["en", "de"]):
        found = assess(model, tokenizer, ["a dog runs"], ["the dog is running in the park"], languages=languages)
        assert "language" in found[0].flags
        assert Assessor(languages=languages).languages == Languages("en", "de")


@pytest.mark.parametrize("text", ['<b title="the name of the file">Name</b>',
                                  'Öffnen Sie <a href="/help" class="is-it-on-the-web">die Seite</a>.',
                                  "Siehe https://example.com/how-to-use-the-app-with-your-phone",
                                  "Schreiben Sie an all.of.the.team@example.com oder öffnen Sie it_is_on_the.pdf"])
def test_urls_addresses_file_names_and_tags_are_not_read_as_words(text):
    """What passes through untranslated, a URL's English slug, a tag's attributes, is no word of the text."""
    assert not in_other_language(text, "de")


@pytest.mark.parametrize(("text", "target"), [
    ("Hunden springer i parken med sin ägare, och den är mycket glad.", "da"),  # Swedish given as Danish
    ("Hunden løber i parken med sin ejer, og den er meget glad.", "sv"),  # Danish given as Swedish
    ("Jeg har ikke sett ham i dag, men han kommer kanskje i morgen, og hun er veldig glad.", "sv"),  # Norwegian
    ("El perro corre en el parque con su dueño y está muy contento.", "ca"),  # Spanish given as Catalan
    ("El gos corre pel parc amb el seu amo i està molt content.", "es"),  # Catalan given as Spanish
    ("Não o vi hoje, mas talvez venha amanhã.", "es"),  # Portuguese given as Spanish
    ("Pes beží v parku so svojím majiteľom a je veľmi šťastný.", "cs"),  # Slovak given as Czech
    ("Dnes jsem ho neviděl, ale možná přijde zítra.", "sk"),  # Czech given as Slovak
    ("Die hond hardloop in die park met sy eienaar en hy is baie gelukkig.", "nl"),  # Afrikaans given as Dutch
    ("De hond rent in het park met zijn baasje en hij is heel blij.", "af"),  # Dutch given as Afrikaans
    ("Собака бежит по парку, и она очень рада, что это так.", "uk"),  # Russian given as Ukrainian
    ("Nogle børn leger ude i haven, og de vil ikke gå tilbage.", "nb"),  # Danish given as Norwegian
    ("Noen barn leker ute i hagen, og de vil ikke gå tilbake.", "da"),  # Norwegian given as Danish
    ("Måske kommer han igen uden sin hund, men vi ved det ikke.", "no"),
    ("Kanskje kommer han igjen uten hunden sin, men vi vet det ikke.", "da"),
])
def test_a_close_language_is_told_apart(text, target):
    assert in_other_language(text, target)


@pytest.mark.parametrize(("text", "target"), [
    ("Hunden springer i parken med sin ägare, och den är mycket glad.", "sv"),
    ("Hunden løber i parken med sin ejer, og den er meget glad.", "da"),
    ("Jeg har ikke sett ham i dag, men han kommer kanskje i morgen, og hun er veldig glad.", "nb"),
    ("Nogle børn leger ude i haven, og de vil ikke gå tilbage.", "da"),
    ("Noen barn leker ute i hagen, og de vil ikke gå tilbake.", "nb"),
    ("Måske kommer han igen uden sin hund, men vi ved det ikke.", "da"),
    ("Kanskje kommer han igjen uten hunden sin, men vi vet det ikke.", "nb"),
    ("Några barn leker ute i trädgården, och de vill inte gå tillbaka igen.", "sv"),
    ("El gos corre pel parc amb el seu amo i està molt content.", "ca"),
    ("Ha llegado, han comido, va a dormir, van a salir.", "es"),  # Spanish's auxiliaries: Catalan's too
    ("Pes beží v parku so svojím majiteľom a je veľmi šťastný.", "sk"),
    ("Die hond hardloop in die park met sy eienaar en hy is baie gelukkig.", "af"),
    ("Собака біжить по парку, і вона дуже рада, що це так.", "uk"),
    ("José García und María Martínez fahren nach São Paulo.", "de"),  # names keep their own letters
    ("Ein Mann sitzt in einem Café und liest ein Exposé über Crème brûlée.", "de"),
])
def test_a_close_language_in_its_own_language_is_not_flagged(text, target):
    assert not in_other_language(text, target)


@pytest.mark.parametrize(("source", "translation"), [
    ("Two men play in the snow.", "The men are playing in snow."),  # two English words: too few for any language
    ("A dog runs on the beach.", "The dog is running."),
    ("Ein großer Hund rennt.", "Der Hund ist groß."),
])
def test_a_translation_in_the_sources_language_needs_fewer_words_to_tell(source, translation):
    languages = Languages("en", "de") if source.startswith(("Two", "A ")) else Languages("de", "en")
    assert in_source_language(source, translation, languages)
    assert not in_other_language(translation, languages.target)  # what the rule said before


@pytest.mark.parametrize(("source", "translation", "languages"), [
    ("Two men play in the snow.", "Zwei Männer spielen im Schnee.", Languages("en", "de")),
    ('Several people take part in "Race for a Cure".', "Mehrere Personen nehmen an „Race for a Cure“ teil.",
     Languages("en", "de")),  # a title kept as the source writes it
    ("Two men play in the snow.", "The men are playing in snow.", Languages(None, "de")),  # the source's not known
    ("Two men play in the snow.", "The men are playing in snow.", Languages("en", "en")),
])
def test_a_translation_in_its_language_or_a_kept_quotation_is_not_in_the_sources(source, translation, languages):
    assert not in_source_language(source, translation, languages)


def test_assess_flags_a_translation_in_the_sources_language(model_and_tokenizer):
    model, tokenizer = model_and_tokenizer
    english, german = assess(model, tokenizer, ["a dog runs"] * 2, ["the dog is running", "ein hund rennt"],
                             languages=Languages("en", "de"))
    assert "language" in english.flags and "language" not in german.flags
