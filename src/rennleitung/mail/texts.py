"""The sentences of the mail side in German and English; a mail uses the reader's language.

A sender nobody knows gets both, German first.
"""

from __future__ import annotations

from rennleitung.errors import RennleitungError

LANGUAGES = ("de", "en")


def pick(language: str, de: str, en: str) -> str:
    """One of two sentences; ``both`` (an unknown reader) gets German, then English."""
    if language == "de":
        return de
    if language == "en":
        return en
    return f"{de}\n\n{en}"


def error_text(language: str, error: RennleitungError) -> str:
    """A bilingual error in the reader's language, with the place at fault."""
    return pick(language, error.message_de, error.message_en)


GREETING = ("Hallo", "Hello")
SIGNATURE = ("-- \nRennleitung (automatische Antwort)",
             "-- \nRennleitung (automatic answer)")


def letter(language: str, body: str) -> str:
    """A whole mail text: greeting, body, signature."""
    de_greeting, en_greeting = GREETING
    greeting = pick(language, de_greeting, en_greeting).split("\n")[0]
    signature = pick(language, *SIGNATURE) if language in LANGUAGES else SIGNATURE[0]
    return f"{greeting},\n\n{body.rstrip()}\n\n{signature}\n"


UNKNOWN_SENDER = (
    "Ihre Adresse ist bei keiner Partie angemeldet, deshalb kann die Rennleitung Ihre Mail nicht "
    "auswerten. Sie ist aufbewahrt worden. Bitte bitten Sie die Spielleitung, Ihre Adresse "
    "einzutragen, oder schreiben Sie von der angemeldeten Adresse.",
    "Your address is not registered for any game, so race control cannot evaluate your mail. It "
    "has been kept. Please ask the game master to register your address, or write from the "
    "registered one.",
)
NO_SECRET = (
    "Das Geheimwort der Partie fehlt oder ist falsch. Schreiben Sie es in den Betreff oder in die "
    "erste Zeile, z. B. \"Geheimwort: …\". Ihre Mail ist aufbewahrt, aber nicht ausgewertet.",
    "The game's secret word is missing or wrong. Put it in the subject or the first line, e.g. "
    "\"secret: …\". Your mail has been kept but not evaluated.",
)
OTHER_TOKEN = (
    "Diese Mail trägt den Code eines Platzes, der nicht zu Ihrer Adresse gehört. Sie ist "
    "aufbewahrt, aber nicht ausgewertet. Antworten Sie auf die Fragen, die an Ihre Adresse "
    "gehen: deren Betreff trägt Ihren eigenen Code.",
    "This mail carries the code of a seat that does not belong to your address. It has been "
    "kept but not evaluated. Answer the questions sent to your address: their subject carries "
    "your own code.",
)
SECRET_ALONE = (
    "Das Geheimwort der Partie reicht nicht mehr: es kennen alle Mitspieler. Antworten Sie auf "
    "die Frage-Mail (Antworten), oder schreiben Sie Ihren Code {code} in den Betreff. Ihre Mail "
    "ist aufbewahrt, aber nicht ausgewertet.",
    "The game's secret is no longer enough: every player knows it. Reply to the question mail, "
    "or put your code {code} in the subject. Your mail has been kept but not evaluated.",
)
TOO_LONG = (
    "Die Mail ist zu lang, um sie auszuwerten (höchstens 200.000 Zeichen Text). Sie ist "
    "aufbewahrt worden.",
    "The mail is too long to evaluate (at most 200,000 characters of text). It has been kept.",
)
FAILED = (
    "Ihre Mail konnte nicht ausgewertet werden; sie ist aufbewahrt und die Spielleitung sieht "
    "sie sich an.",
    "Your mail could not be evaluated; it has been kept and the game master will look at it.",
)
