"""German and English for every page: one language per page, chosen by the reader.

The choice comes from the ``lang`` cookie (set by the switch in the page header), else the signed-in
person's setting, else the browser's Accept-Language; English when none of them names a language
we have. Texts live here as (German, English) pairs under a key; a page asks ``t(key)``.
"""

from __future__ import annotations

from collections.abc import Mapping

from rennleitung.errors import RennleitungError

LANGS = ("de", "en")
DEFAULT_LANG = "en"

TEXTS: Mapping[str, tuple[str, str]] = {
    "site": ("Rennleitung", "Race control"),
    "home": ("Start", "Home"),
    "races": ("Rennen", "Races"),
    "new_race": ("Neues Rennen", "New race"),
    "sign_in": ("Anmelden", "Sign in"),
    "sign_up": ("Konto anlegen", "Create account"),
    "sign_out": ("Abmelden", "Sign out"),
    "signed_in_as": ("Angemeldet als {name}", "Signed in as {name}"),
    "name": ("Name", "Name"),
    "email": ("E-Mail", "E-mail"),
    "email_optional": ("E-Mail (für Anmeldelinks und Benachrichtigungen, freiwillig)",
                       "E-mail (for sign-in links and notifications, optional)"),
    "password": ("Passwort", "Password"),
    "password_hint": ("mindestens 8 Zeichen", "at least 8 characters"),
    "login": ("Name oder E-Mail", "Name or e-mail"),
    "send_link": ("Anmeldelink per E-Mail schicken", "E-mail me a sign-in link"),
    "link_sent": ("Wenn es zu dieser Adresse ein Konto gibt, ist ein Link unterwegs.",
                  "If this address has an account, a link is on its way."),
    "link_confirm": ("Mit diesem Link anmelden", "Sign in with this link"),
    "link_invalid": ("Dieser Anmeldelink ist ungültig, abgelaufen oder schon benutzt.",
                     "This sign-in link is invalid, expired or already used."),
    "link_mail_subject": ("Dein Anmeldelink für die Rennleitung",
                          "Your sign-in link for race control"),
    "link_mail_body": ("Hallo {name},\n\nmit diesem Link meldest du dich einmal an "
                       "(eine Stunde gültig):\n{link}\n",
                       "Hello {name},\n\nthis link signs you in once (valid for one hour):\n"
                       "{link}\n"),
    "bad_login": ("Name/E-Mail oder Passwort stimmt nicht", "wrong name/e-mail or password"),
    "too_many": ("zu viele Fehlversuche; bitte in {minutes} Minuten wieder versuchen",
                 "too many failed attempts; try again in {minutes} minutes"),
    "name_missing": ("Name fehlt", "name is missing"),
    "name_too_long": ("Name zu lang (höchstens {n} Zeichen)",
                      "name too long (at most {n} characters)"),
    "email_bad": ("keine gültige E-Mail-Adresse", "not a valid e-mail address"),
    "password_short": ("Passwort zu kurz (mindestens 8 Zeichen)",
                       "password too short (at least 8 characters)"),
    "csrf": ("Formular abgelaufen oder nicht von dieser Seite; bitte Seite neu laden",
             "form expired or not from this site; please reload the page"),
    "need_sign_in": ("Dafür bitte anmelden", "Please sign in for this"),
    "not_found": ("Nicht gefunden", "Not found"),
    "forbidden": ("Das darfst du hier nicht", "You may not do this here"),
    "error": ("Fehler", "Error"),
    "back": ("Zurück", "Back"),
    "language": ("Sprache", "Language"),
    "welcome": ("Formel Dé nach den Dresdner Regeln: mit Menschen und Bots an einem Tisch.",
                "Formula Dé by the Dresden rules: people and bots at one table."),
    "demo_hint": ("Ein Demo-Rennen in Monaco wartet mit drei Bots und einem freien Platz.",
                  "A demo race at Monaco is waiting with three bots and a free seat."),
    "no_races": ("Noch keine Rennen.", "No races yet."),
}


def text(lang: str, key: str, **values: object) -> str:
    """The text under ``key`` in ``lang`` with ``values`` filled in."""
    de, en = TEXTS[key]
    template = de if lang == "de" else en
    return template.format(**values) if values else template


def error_text(lang: str, error: RennleitungError) -> str:
    """A bilingual error in one language, with the place at fault."""
    return error.message_de if lang == "de" else error.message_en


def from_accept_language(header: str | None) -> str | None:
    """The first language of ``LANGS`` in an Accept-Language header, by its weights."""
    if not header:
        return None
    ranked: list[tuple[float, int, str]] = []
    for position, part in enumerate(header.split(",")):
        pieces = part.strip().split(";")
        code = pieces[0].strip().lower().split("-")[0]
        weight = 1.0
        for parameter in pieces[1:]:
            key, _, value = parameter.strip().partition("=")
            if key == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        if code in LANGS and weight > 0:
            ranked.append((-weight, position, code))
    return min(ranked)[2] if ranked else None


def choose_lang(cookie: str | None, account: str | None, accept_language: str | None) -> str:
    """Cookie, then account setting, then browser, then English."""
    for choice in (cookie, account):
        if choice in LANGS:
            return choice
    return from_accept_language(accept_language) or DEFAULT_LANG
