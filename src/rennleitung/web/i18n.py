"""German and English for every page: one language per page, chosen by the reader.

The choice comes from the ``lang`` cookie (set by the switch in the page header), else the signed-in
person's setting, else the browser's Accept-Language; English when none of them names a language
we have. Texts live here as (German, English) pairs under a key; a page asks ``t(key)``.
"""

from __future__ import annotations

from collections.abc import Mapping

from rennleitung.errors import RennleitungError
from rennleitung.web.places import place_de

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
    "too_many_races": ("zu viele Rennen: höchstens {day} am Tag und {open} offene zugleich",
                       "too many races: at most {day} a day and {open} open at once"),
    "too_many_signups": ("zu viele neue Konten von dieser Adresse; bitte in {minutes} Minuten "
                         "wieder versuchen",
                         "too many new accounts from this address; please try again in {minutes} "
                         "minutes"),
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
    "nul": ("Nullzeichen sind in keinem Feld erlaubt",
            "a NUL character is not allowed in any field"),
    "forbidden": ("Das darfst du hier nicht", "You may not do this here"),
    "error": ("Fehler", "Error"),
    "back": ("Zurück", "Back"),
    "language": ("Sprache", "Language"),
    "welcome": ("Formula Dé nach den Dresdner Regeln: mit Menschen und Bots an einem Tisch.",
                "Formula Dé by the Dresden rules: people and bots at one table."),
    "demo_hint": ("Ein Demo-Rennen in Monaco wartet mit drei Bots und einem freien Platz.",
                  "A demo race at Monaco is waiting with three bots and a free seat."),
    "no_races": ("Noch keine Rennen.", "No races yet."),
    "move_mail_subject": ("Rennen {race}: du bist dran", "Race {race}: your move"),
    "move_mail_body": ("Hallo {name},\n\ndein Auto {car} wartet auf deine Entscheidung:\n{link}\n",
                       "Hello {name},\n\nyour car {car} is waiting for your decision:\n{link}\n"),
    "not_organiser": ("Das darf nur die Rennleitung dieses Rennens",
                      "Only this race's organiser may do this"),
    "not_your_car": ("Das ist nicht dein Auto", "This is not your car"),
    "not_over": ("Das Rennen ist noch nicht vorbei", "The race is not over yet"),
    "state_open": ("offen", "open"),
    "state_running": ("läuft", "running"),
    "state_finished": ("beendet", "finished"),
    "state_closed": ("geschlossen", "closed"),
    "track": ("Strecke", "Track"),
    "ruleset": ("Regeln", "Rules"),
    "laps": ("Runden", "Laps"),
    "league_race": ("Rennen {number} der Liga", "Race {number} of the league"),
    "league_entered": ("in der Wertung", "in the standings"),
    "league_pending": ("kommt nach der Zielflagge in die Wertung",
                       "enters the standings after the flag"),
    "league_refused": ("von der Liga abgelehnt: {note}", "refused by the league: {note}"),
    "laps_count": ("{n} Runden", "{n} laps"),
    "laps_count:1": ("{n} Runde", "{n} lap"),
    "laps_default": ("Runden (0: wie die Regeln)", "Laps (0: as the rules say)"),
    "seats": ("Plätze", "Seats"),
    "people": ("Plätze für Menschen", "Seats for people"),
    "bots": ("Bots", "Bots"),
    "bot": ("Bot", "Bot"),
    "seconds": ("Zeit je Entscheidung in Sekunden (leer: unbegrenzt); danach entscheidet der Bot",
                "Time per decision in seconds (empty: unlimited); then the seat's bot decides"),
    "bank_seconds": ("Zeitreserve je Fahrer in Sekunden (leer: keine); gilt, wenn die Zeit je "
                     "Entscheidung abgelaufen ist, bevor der Bot entscheidet",
                     "Time bank per driver in seconds (empty: none); used once the time per "
                     "decision has run out, before the bot decides"),
    "bot_after_misses": ("Nach so vielen verpassten Entscheidungen in Folge fährt der Bot, bis "
                         "der Fahrer zurück ist (0: nie)",
                         "After this many missed decisions in a row the bot drives until the "
                         "driver is back (0: never)"),
    "abandon_hours": ("Rennen aufgeben nach so vielen Stunden ohne Entscheidung (leer: nie)",
                      "Abandon the race after this many hours without any decision (empty: "
                      "never)"),
    "abandon_action": ("Ein aufgegebenes Rennen …", "An abandoned race is …"),
    "abandon_close": ("… wird geschlossen", "… closed"),
    "abandon_bots": ("… von den Bots zu Ende gefahren (jeder Fahrer kann zurückkommen)",
                     "… driven to the flag by the bots (each driver may come back)"),
    "race_name": ("Name des Rennens", "Race name"),
    "drive_myself": ("Ich fahre selbst mit", "I drive too"),
    "create": ("Anlegen", "Create"),
    "free_seat": ("frei", "free"),
    "take_seat": ("Platz nehmen", "Take this seat"),
    "start_race": ("Rennen starten", "Start the race"),
    "close_race": ("Rennen beenden", "Close the race"),
    "halt": ("Anhalten", "Halt"),
    "put_bot": ("Bot fahren lassen", "Let a bot drive"),
    "invite": ("Einladungslink", "Invitation link"),
    "commitment": ("Würfel-Hash (vor dem Start festgelegt)", "Dice hash (fixed before the start)"),
    "seed": ("Seed (nach der Flagge offengelegt)", "Seed (revealed after the flag)"),
    "verify": ("Prüfen", "Verify"),
    "verified": ("Geprüft: jeder Wurf folgt aus dem Seed, der Seed passt zum Hash.",
                 "Verified: every roll follows from the seed, the seed matches the hash."),
    "not_verified": ("Prüfung fehlgeschlagen", "Verification failed"),
    "record": ("Rennprotokoll (JSON)", "Race record (JSON)"),
    "replay": ("Wiederholung", "Replay"),
    "decision_no": ("Entscheidung", "Decision"),
    "order": ("Reihenfolge", "Running order"),
    "log": ("Ereignisse", "Events"),
    "weather": ("Wetter", "Weather"),
    "round": ("Spielrunde", "Round"),
    "gear": ("Gang", "Gear"),
    "tyres": ("Reifen", "Tyres"),
    "tyre_set": ("Reifensatz", "Tyre set"),
    "tyre_laps": ("{n} Runden auf diesem Satz", "{n} laps on this set"),
    "tyre_laps:1": ("{n} Runde auf diesem Satz", "{n} lap on this set"),
    "karma": ("Karma", "Karma"),
    "reserve": ("Reserve in der Box", "Reserve in the box"),
    "box": ("Box", "Box"),
    "space": ("Feld", "Space"),
    "status": ("Stand", "Status"),
    "dashboard": ("Dein Auto", "Your car"),
    "your_turn": ("Du bist dran", "Your move"),
    "table_asks": ("Am Tisch: {driver}", "At the table: {driver}"),
    "roll_q": ("{driver}: {purpose} – welche Zahl zeigt der Würfel {die} ({colour})?",
               "{driver}: {purpose} – which number does the die {die} ({colour}) show?"),
    "roll_faces": ("Seiten dieses Würfels: {faces}", "faces of this die: {faces}"),
    "roll_number": ("Gewürfelte Zahl", "Number rolled"),
    "take_back": ("Letzte Eingabe zurücknehmen", "Take back the last entry"),
    "table_rolls": ("Am Tisch wird gewürfelt: {driver} – die Rennleitung gibt die Zahl ein.",
                    "The table rolls for {driver}; the organiser enters the number."),
    "table_desk": ("die Rennleitung gibt am Tisch ein", "the organiser enters at the table"),
    "table_mode": ("Am Tisch (echte Würfel, die Rennleitung gibt jeden Wurf ein)",
                   "At the table (real dice, the organiser enters every roll)"),
    "waiting_for": ("Wartet auf {name}", "Waiting for {name}"),
    "deadline": ("Entscheiden bis", "Decide by"),
    "setup_q": ("Setup: verteile die Punkte und wähle die Reifen",
                "Setup: share out the points and choose tyres"),
    "box_q": ("Wähle deinen Boxenplatz", "Choose your pit box"),
    "turn_q": ("Gang wählen", "Choose your gear"),
    "move_q": ("Gewürfelt: {roll}. Klicke auf ein Ziel auf dem Spielplan oder in der Liste.",
               "Rolled {roll}. Click a destination on the board or in the list."),
    "pit_q": ("Boxenstopp: was macht die Crew?", "Pit stop: what does the crew do?"),
    "karma_q": ("Test nicht bestanden ({test}): Karma einsetzen?",
                "Test failed ({test}): spend karma?"),
    "bid_q": ("Kopf an Kopf: geheimes Karma-Gebot (höchstens {most})",
              "Head to head: secret karma bid (at most {most})"),
    "die_range": ("Würfel {lo}–{hi}", "die {lo}–{hi}"),
    "boost": ("Motor-Boost (+1, kostet Motorpunkt)", "Engine boost (+1, costs an engine point)"),
    "soft_bonus": ("Weiche Reifen: +1", "Soft tyres: +1"),
    "no_launch": ("Ohne Start-+1 (Praktiker)", "Without the launch +1 (Praktiker)"),
    "pit_announce": ("Boxenstopp ansagen", "Announce a pit stop"),
    "new_tyres": ("Neue Reifen", "New tyres"),
    "keep_tyres": ("behalten", "keep"),
    "fuel_points": ("Verbrauchspunkte", "Fuel points"),
    "repairs": ("Reparieren", "Repair"),
    "long_stop": ("Langer Stopp", "Long stop"),
    "send": ("Abschicken", "Send"),
    "karma_none": ("Kein Karma", "No karma"),
    "karma_plus_one": ("+1 (Karma)", "+1 (karma)"),
    "karma_reroll": ("Neu würfeln (Karma)", "Re-roll (karma)"),
    "points_total": ("Summe: {total} Punkte", "Total: {total} points"),
    "open_races": ("Rennen", "Races"),
    "watch": ("Ansehen", "Watch"),
    "finished_flag": ("Zielflagge!", "Chequered flag!"),
    "closed_flag": ("Von der Rennleitung beendet, ohne Zielflagge.",
                    "Closed by the organiser, without the chequered flag."),
    "driver": ("Fahrer", "Driver"),
    "car": ("Auto", "Car"),
    "points": ("Punkte", "Points"),
    "cost_hint": ("Zeige mit der Maus auf ein Ziel oder tippe es an, um seine Kosten zu sehen.",
                  "Point at a destination or tap it to see its cost."),
    "tyre_type": ("Reifentyp", "Tyre type"),
    "zoom": ("Spielplan vergrößern", "Zoom the board"),
    "zoom_in": ("Vergrößern", "Zoom in"),
    "zoom_out": ("Verkleinern", "Zoom out"),
    "zoom_fit": ("Ganz", "Whole board"),
    "follow_car": ("Mein Auto verfolgen", "Follow my car"),
    "show_on_board": ("auf dem Spielplan zeigen", "show on the board"),
    "you": ("du", "you"),
    "destination": ("Ziel", "Destination"),
    "corner_stops": ("Kurvenstopps", "Corner stops"),
    "pit_plan": ("Was die Crew beim Stopp macht", "What the crew does at the stop"),
    "board_legend": ("Was der Spielplan zeigt", "What the board shows"),
    "legend_you": ("Pinker Ring und DU: dein Auto. Die Kürzel auf den Autos sind die ersten "
                   "Buchstaben der Fahrer.",
                   "Pink ring and YOU: your car. The letters on the cars are the drivers' "
                   "first letters."),
    "legend_trail": ("Gestrichelte Linie in der Farbe eines Autos: sein letzter Zug, vom Punkt "
                     "aus, an dem es stand.",
                     "Dashed line in a car's colour: its last move, from the dot where it "
                     "stood."),
    "legend_flag": ("Gelbe Kurvenfahne: die große Zahl ist die Zahl der Stopps, die die Kurve "
                    "verlangt; L und C sind die Felder auf dem längsten und dem kürzesten Weg "
                    "hindurch (Masters 7-1-1). Ein Stopp ist ein Zugende in der Kurve; fehlt "
                    "einer, kostet das Reifen, fehlen zwei, scheidet das Auto aus (Masters 10-1).",
                    "Yellow corner flag: the big number is how many stops the corner asks for; "
                    "L and C are the spaces on the longest and the shortest way through "
                    "(Masters 7-1-1). A stop is a move ending in the corner; one missing costs "
                    "tyres, two missing eliminate the car (Masters 10-1)."),
    "legend_danger": ("Graue Felder: gefährlich (Öl, Wrackteile): wer darüber fährt, macht einen "
                      "Straßenlagetest (Masters 17).",
                      "Grey spaces: dangerous (oil, debris): a car crossing one takes a "
                      "road-holding test (Masters 17)."),
    "legend_boxes": ("Die nummerierten Felder unten sind die Boxen der Teams (Box 1 zuerst), "
                     "der Streifen davor die Boxengasse.",
                     "The numbered spaces below the start are the teams' pit boxes (box 1 "
                     "first), the strip before them the pit lane."),
    "guide_title": ("Dein erstes Rennen", "Your first race"),
    "guide_1": ("Setup: verteile die Punkte auf die Teile deines Autos. Reifen- und Bremspunkte "
                "verbrauchst du beim Bremsen in Kurven, Verbrauch beim Herunterschalten über "
                "mehrere Gänge.",
                "Setup: share the points among your car's parts. Brake and tyre points go when "
                "you brake hard into corners, fuel when you shift down more than one gear."),
    "guide_2": ("Jeder Zug: wähle einen Gang (jeder hat seinen Würfel; ein Gang hinauf oder "
                "hinunter ist frei), dann ein Ziel auf dem Spielplan.",
                "Each turn: choose a gear (each has its own die; one gear up or down is free), "
                "then a destination on the board."),
    "guide_3": ("Grün ist frei, gelb kostet Punkte, orange ist ein Würfeltest, rot scheidet "
                "aus. In Kurven mit Fahne musst du so oft anhalten, wie die Fahne sagt.",
                "Green is free, yellow costs points, orange is a test of the die, red "
                "eliminates. In a corner with a flag you must stop as often as the flag says."),
    "guide_dismiss": ("Verstanden, nicht mehr zeigen", "Got it, don't show again"),
    "setup_limits": ("Je Teil mindestens {min}, in der Box höchstens {box}; zusammen {points}.",
                     "Each part at least {min}, at most {box} in the box; {points} in all."),
    "setup_sum": ("Verteilt: {sum} von {points}", "Shared out: {sum} of {points}"),
    "podium": ("Podium", "Podium"),
    "halt_confirm": ("Das Auto von {name} für den Rest des Rennens anhalten?",
                     "Halt {name}'s car for the rest of the race?"),
    "close_confirm": ("Das Rennen jetzt beenden? Das lässt sich nicht rückgängig machen.",
                      "Close the race now? This cannot be undone."),
    "step_back": ("Eine Entscheidung zurück", "One decision back"),
    "step_on": ("Eine Entscheidung weiter", "One decision on"),
    "step_first": ("Zum Anfang", "To the start"),
    "step_last": ("Zum Ende", "To the end"),
    "step_made": ("Entscheidung {n}: {what}", "Decision {n}: {what}"),
    "step_none": ("Vor der ersten Entscheidung", "Before the first decision"),
    "new_race_sign_in": ("Um ein Rennen anzulegen, melde dich an oder lege ein Konto an.",
                         "To create a race, sign in or create an account."),
    "stale_plain": ("Das Rennen ist weitergegangen, während du gewählt hast. Die Seite zeigt "
                    "jetzt, was gerade gefragt ist: bitte wähle noch einmal.",
                    "The race moved on while you were choosing. The page now shows what is "
                    "asked now: please choose again."),
    "did_setup": ("Setup", "set up the car"),
    "did_box": ("Box gewählt", "chose a box"),
    "did_turn": ("Gang gewählt", "chose a gear"),
    "did_move": ("gezogen", "moved"),
    "did_pit": ("Boxenstopp", "made a pit stop"),
    "did_karma": ("Karma", "used karma"),
    "did_bid": ("geboten", "made a bid"),
    "did_halt": ("angehalten", "was halted"),
    "time_left": ("noch {left}", "{left} left"),
    "time_over": ("Zeit abgelaufen: der Bot entscheidet", "time is up: the bot decides"),
    "bank_with": (" · Reserve {bank}", " · time bank {bank}"),
    "on_bank": ("Reserve: noch {left}", "time bank: {left} left"),
    "bank_of": ("Reserve {bank}", "bank {bank}"),
    "away_you": ("Der Bot fährt dein Auto, seit du {misses}-mal in Folge nicht entschieden "
                 "hast. Bist du wieder da?",
                 "The bot drives your car since you missed {misses} decisions in a row. Are "
                 "you back?"),
    "away_you_quiet": ("Der Bot fährt dein Auto, seit das Rennen ruhte. Bist du wieder da?",
                       "The bot drives your car since the race went quiet. Are you back?"),
    "back_button": ("Ich bin zurück", "I am back"),
    "bot_drives": ("Bot fährt", "bot drives"),
    "log_list": ("Ereignisse, das neueste zuerst", "Events, the newest first"),
    "board_box": ("Spielplan (mit den Pfeiltasten verschieben)",
                  "Board (scroll with the arrow keys)"),
    "legend": ("Legende", "Legend"),
    "risk_free": ("grün: ohne Kosten", "green: free"),
    "risk_costly": ("gelb: kostet Brems-, Reifen- oder Verbrauchspunkte",
                    "yellow: costs brake, tyre or fuel points"),
    "risk_test": ("orange, gestrichelt: ein Test (Kollision, Mauer, Straßenlage) mit seiner Chance",
                  "orange, dashed: a test (collision, wall, road holding) with its odds"),
    "risk_eliminated": ("rot: scheidet sicher aus", "red: certain elimination"),
    "bot_simple": ("einfach", "simple"),
    "bot_steady": ("ruhig", "steady"),
    "bot_strong": ("stark", "strong"),
    "verified_counts": ("{rolls} Würfe nachgerechnet, {events} Ereignisse nachgespielt",
                        "{rolls} rolls recomputed, {events} events replayed"),
}


def text(lang: str, key: str, **values: object) -> str:
    """The text under ``key`` in ``lang`` with ``values`` filled in; a count ``n`` of 1 takes the
    key's ``:1`` form where there is one ("1 Runde", not "1 Runden")."""
    if values.get("n") == 1 and f"{key}:1" in TEXTS:
        key = f"{key}:1"
    de, en = TEXTS[key]
    template = de if lang == "de" else en
    return template.format(**values) if values else template


def error_text(lang: str, error: RennleitungError) -> str:
    """A bilingual error in one language, with the place at fault (in German words on a
    German page, ``places.py``)."""
    if lang != "de":
        return error.message_en
    return f"{place_de(error.where)}: {error.de}" if error.where else error.de


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
