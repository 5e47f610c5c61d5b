"""Language detection of short texts on a server of one source language into another (en -> de): a UI's labels,
menu items, titles and one-word lines in English and in German, and Multi30k's validation lines in both.

    .venv/bin/python benchmarks/experiments/detection_short.py [--source en --target de]

Two answers are scored, as ``attnmt serve`` gives them (attnmt.server.detect, attnmt.server.auto_source):

- ``auto``: a text sent alone with ``source: "auto"`` and ``target: "de"`` is detected as German (given back as it
  is) or as English (translated); right where it is the text's language;
- ``/detect``: the text's first-ranked language, right where it is the text's language.

The short texts come in two sets written by hand: ``tuned``, which the detection's rule was tuned on, and
``held_out``, written apart and scored once, after the tuning (words that are the same in both languages,
"Hotel", "Name", "OK", "Sport", "Newsletter", are in neither).  Multi30k's lines must stay right.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
from pathlib import Path

from attnmt.server.auto_source import detected
from attnmt.server.detect import Detector

TUNED = {
    "en": ["Save", "Cancel", "Open file", "Settings", "Log in", "Sign out", "Delete", "Edit profile", "Search", "Help",
           "Next", "Back", "Close", "Download PDF", "Print", "Share", "Home", "About us", "Contact us",
           "Privacy policy", "Terms of use", "Add to cart", "Checkout", "My account", "Forgot password?",
           "Remember me", "Submit", "Reset", "Upload", "New folder", "Rename", "Copy", "Paste", "Undo", "Redo",
           "File", "View", "Window", "Tools", "Options", "Preferences", "Yes", "No", "Apply", "Show more",
           "Read more", "Load more", "Subscribe", "Welcome back", "Loading...", "Error", "Warning", "Are you sure?",
           "Select all", "Clear filters", "Sort by", "Price", "Quantity", "Total"],
    "de": ["Speichern", "Abbrechen", "Datei öffnen", "Einstellungen", "Anmelden", "Abmelden", "Löschen",
           "Profil bearbeiten", "Suche", "Hilfe", "Weiter", "Zurück", "Schließen", "PDF herunterladen", "Drucken",
           "Teilen", "Startseite", "Über uns", "Kontaktieren Sie uns", "Datenschutz", "Nutzungsbedingungen",
           "In den Warenkorb", "Zur Kasse", "Mein Konto", "Passwort vergessen?", "Angemeldet bleiben", "Absenden",
           "Zurücksetzen", "Hochladen", "Neuer Ordner", "Umbenennen", "Kopieren", "Einfügen", "Rückgängig",
           "Wiederholen", "Datei", "Ansicht", "Fenster", "Werkzeuge", "Optionen", "Ja", "Nein",
           "Übernehmen", "Mehr anzeigen", "Weiterlesen", "Mehr laden", "Abonnieren", "Willkommen zurück",
           "Wird geladen...", "Fehler", "Warnung", "Sind Sie sicher?", "Alle auswählen", "Filter zurücksetzen",
           "Sortieren nach", "Preis", "Menge", "Gesamt"],
}
HELD_OUT = {
    "en": ["Shopping cart", "Customer reviews", "Frequently asked questions", "Opening hours", "Free shipping",
           "Order history", "Change password", "Payment methods", "Delivery address", "Our team", "Latest news",
           "Get started", "Learn more", "Sign up for free", "Track your order", "Return policy", "Gift cards",
           "Write a review", "Compare", "Wishlist", "Notifications", "Messages", "Friends", "Photos", "Events",
           "Calendar", "Today", "Tomorrow", "Yesterday", "Weather", "Business", "Travel", "Recipes", "Jobs",
           "Careers", "Accessibility", "Cookie settings", "Accept all", "Reject", "Manage preferences", "Continue",
           "Finish", "Skip", "Retry", "Refresh", "Send message", "Your name", "Email address", "Phone number",
           "Required field", "Invalid input", "Page not found", "Access denied", "Dark mode", "Language", "Volume",
           "Mute", "Play", "Full screen"],
    "de": ["Warenkorb", "Kundenbewertungen", "Häufig gestellte Fragen", "Öffnungszeiten", "Kostenloser Versand",
           "Bestellverlauf", "Passwort ändern", "Zahlungsarten", "Lieferadresse", "Unser Team", "Neueste Nachrichten",
           "Jetzt starten", "Mehr erfahren", "Kostenlos registrieren", "Bestellung verfolgen", "Rückgaberecht",
           "Gutscheine", "Bewertung schreiben", "Vergleichen", "Wunschliste", "Benachrichtigungen", "Nachrichten",
           "Freunde", "Fotos", "Veranstaltungen", "Kalender", "Heute", "Morgen", "Gestern", "Wetter", "Wirtschaft",
           "Reisen", "Rezepte", "Stellenangebote", "Karriere", "Barrierefreiheit", "Cookie-Einstellungen",
           "Alle akzeptieren", "Ablehnen", "Einstellungen verwalten", "Fortfahren", "Fertigstellen", "Überspringen",
           "Erneut versuchen", "Aktualisieren", "Nachricht senden", "Ihr Name", "E-Mail-Adresse", "Telefonnummer",
           "Pflichtfeld", "Ungültige Eingabe", "Seite nicht gefunden", "Zugriff verweigert", "Dunkelmodus", "Sprache",
           "Lautstärke", "Stummschalten", "Abspielen", "Vollbild"],
}


class Models:
    """What auto_source.detected asks of a server's models: one pair, ``source`` into ``target``."""

    def __init__(self, source: str, target: str) -> None:
        self.by_pair = {(source, target): None}

    def sources(self) -> list[str]:
        return [source for source, _ in self.by_pair]


class Server:
    def __init__(self, source: str, target: str) -> None:
        self.models, self.detector = Models(source, target), Detector([source], [target])


def auto(server: Server, text: str, target: str) -> str:
    """The language ``source: "auto"`` detects ``text`` in, sent alone."""
    return asyncio.run(detected(server, [text], target))[0]["language"]


def first_ranked(server: Server, text: str) -> str:
    return server.detector.rank_texts([text])[0][0]


def score(name: str, texts: dict[str, list[str]], server: Server, target: str) -> None:
    for language, lines in texts.items():
        wrong_auto = [text for text in lines if auto(server, text, target) != language]
        wrong_rank = [text for text in lines if first_ranked(server, text) != language]
        print(f"{name} {language}: {len(lines)} texts; auto right {len(lines) - len(wrong_auto)}, "
              f"/detect right {len(lines) - len(wrong_rank)}")
        print(f"  auto wrong: {wrong_auto[:12]}{' ...' if len(wrong_auto) > 12 else ''}")
        print(f"  /detect wrong: {wrong_rank[:12]}{' ...' if len(wrong_rank) > 12 else ''}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--source", default="en")
    parser.add_argument("--target", default="de")
    parser.add_argument("--data", default="data/multi30k", help="holds val.en.gz and val.de.gz")
    parser.add_argument("--sets", default="tuned,held_out,val")
    args = parser.parse_args()
    server = Server(args.source, args.target)
    sets = args.sets.split(",")
    if "tuned" in sets:
        score("tuned", TUNED, server, args.target)
    if "held_out" in sets:
        score("held_out", HELD_OUT, server, args.target)
    if "val" in sets:
        lines = {code: gzip.open(Path(args.data) / f"val.{code}.gz", "rt", encoding="utf-8").read().splitlines()
                 for code in ("en", "de")}
        score("val", lines, server, args.target)


if __name__ == "__main__":
    main()
