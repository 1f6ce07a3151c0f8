"""Step 4: the market. Answers (Kaufe, Verkaufe) to last round's lines, Turbo sales, factory
sales, then this round's Biete and Suche lines are published.

April 2000 §12 (count 1 when missing, in the parser), §13 (Kaufe names the offered rating,
Verkaufe may deliver better and must then), §14 (unfulfillable offers), §15 (factory sales),
§19 (material of a team that left). The rest is reconstructed: a Biete goes to the highest
Kaufe prices at or above the asking price, a Suche to the lowest Verkaufe prices at or below the
price offered; ties by lot. A seller who cannot deliver sends a better part of the same maker and
kind if he has one, else pays the agreed price to the buyer as a penalty (Konventionalstrafe).
"""

from __future__ import annotations

from dataclasses import dataclass

from rennleitung.turbo2000.amounts import amount
from rennleitung.turbo2000.errors import Problem
from rennleitung.turbo2000.model import Offer, Part
from rennleitung.turbo2000.sheet import TradeLine
from rennleitung.turbo2000.turn import Turn


@dataclass(frozen=True)
class Answer:
    """A Kaufe or Verkaufe line together with the team that wrote it."""

    team: str
    line: TradeLine


def _better_part(turn: Turn, seller: str, wanted: Part) -> Part | None:
    """The next better part of the same maker and kind the seller holds (a replacement)."""
    stock = turn.state.teams[seller].stock
    better = [p for p in stock if p.maker == wanted.maker and p.kind == wanted.kind
              and p.rating > wanted.rating]
    return min(better, key=lambda p: p.rating) if better else None


@dataclass(frozen=True)
class Deal:
    """Who sells what to whom, and the sheet lines (or published lines) each side wrote."""

    seller: str
    buyer: str
    wanted: Part
    count: int
    price: int
    seller_line: tuple[int, str]
    buyer_line: tuple[int, str]


def deliver(turn: Turn, deal: Deal) -> int:
    """Carry out a deal piece by piece; returns the pieces the buyer took up (delivered or paid
    for by a penalty). A buyer who cannot pay takes up nothing more, so what he could not pay for
    stays on offer for the next answer."""
    teams = turn.state.teams
    seller, buyer, wanted, price = deal.seller, deal.buyer, deal.wanted, deal.price
    delivered = settled = 0
    for _ in range(deal.count):
        if not turn.can_pay(buyer, price):
            turn.reject(buyer, Problem(*deal.buyer_line, f"Geld reicht nicht für "
                                       f"{wanted.notation()} zu {amount(price)}",
                                       f"not enough money for {wanted.notation()} at "
                                       f"{amount(price)}"))
            break
        part = wanted if teams[seller].count(wanted) else _better_part(turn, seller, wanted)
        if part is None:
            turn.pay(seller, -price, f"Konventionalstrafe an {buyer} ({wanted.notation()})",
                     f"penalty to {buyer} ({wanted.notation()})")
            turn.pay(buyer, price, f"Konventionalstrafe von {seller} ({wanted.notation()})",
                     f"penalty from {seller} ({wanted.notation()})")
            turn.reject(seller, Problem(*deal.seller_line, f"{wanted.notation()} nicht lieferbar:"
                                        f" Konventionalstrafe {amount(price)} an {buyer}",
                                        f"{wanted.notation()} not deliverable: penalty "
                                        f"{amount(price)} to {buyer}"))
            settled += 1
            continue
        teams[seller].remove(part)
        teams[buyer].add(part)
        turn.pay(buyer, -price, f"Kauf {part.notation()} von {seller}",
                 f"purchase {part.notation()} from {seller}")
        turn.pay(seller, price, f"Verkauf {part.notation()} an {buyer}",
                 f"sale {part.notation()} to {buyer}")
        delivered += 1
        settled += 1
    if delivered:
        turn.say(f"{seller} -> {buyer}: {delivered} x {wanted.notation()} zu {amount(price)}")
        turn.publish("Geschäfte",
                     f"{seller} an {buyer}: {delivered} {wanted.notation()} zu {amount(price)}",
                     f"{seller} to {buyer}: {delivered} {wanted.notation()} at {amount(price)}")
    return settled


def _answers(turn: Turn, verb: str) -> list[Answer]:
    return [Answer(team, line) for team, sheet in sorted(turn.sheets.items())
            for line in sheet.trades if line.verb == verb]


def _sell_turbo(turn: Turn, answer: Answer) -> None:
    """The game master sells Turbo parts at the new-factory rating and list price."""
    line, config = answer.line, turn.config
    assert line.part is not None
    kind = line.part.kind
    rating = turn.state.new_factory_rating[kind]
    price = config.turbo_price[kind]
    if line.part.maker != config.reserved_maker or line.part.rating != rating:
        turn.reject(answer.team, Problem(line.line, line.part.notation(),
                                         f"Turbo verkauft {config.reserved_maker}-{kind}{rating}",
                                         f"Turbo sells {config.reserved_maker}-{kind}{rating}"))
    elif line.price < price:
        turn.reject(answer.team, Problem(line.line, "Preis", f"Turbo-Preis ist {amount(price)}",
                                         f"the Turbo price is {amount(price)}"))
    else:
        bought = 0
        part = Part(config.reserved_maker, kind, rating)
        for _ in range(line.count):
            if not turn.can_pay(answer.team, price):
                turn.reject(answer.team, Problem(line.line, "Preis",
                                                 f"Geld reicht nur für {bought} Stück",
                                                 f"money only enough for {bought} pieces"))
                break
            turn.pay(answer.team, -price, f"Kauf {part.notation()} von Turbo",
                     f"purchase {part.notation()} from Turbo")
            turn.state.teams[answer.team].add(part)
            bought += 1
        turn.say(f"Turbo -> {answer.team}: {bought} x {part.notation()} zu {amount(price)}")


def _matches_biete(offer: Offer, answer: Answer) -> bool:
    part = answer.line.part
    return (not offer.factory and part is not None and offer.team == answer.line.to
            and part.maker == offer.maker and part.kind == offer.kind
            and part.rating == offer.rating and offer.to in (None, answer.team)
            and answer.team != offer.team)


def _matches_suche(offer: Offer, answer: Answer) -> bool:
    part = answer.line.part
    return (part is not None and offer.team == answer.line.to and part.kind == offer.kind
            and offer.maker in (None, part.maker) and part.rating >= offer.rating
            and offer.to in (None, answer.team) and answer.team != offer.team)


def _matches_factory(offer: Offer, answer: Answer) -> bool:
    return (offer.factory and answer.line.factory_owner == offer.team
            and answer.line.factory_kind == offer.kind and answer.team != offer.team)


def _drop_one_for_unfulfillable(turn: Turn, offer: Offer, bids: list[Answer]) -> list[Answer]:
    """April 2000 §14: demand above an offer that surely cannot be met loses its highest bid."""
    if not offer.unfulfillable or sum(b.line.count for b in bids) <= offer.count:
        return bids
    top = max(b.line.price for b in bids)
    highest = [b for b in bids if b.line.price == top]
    lots = [(turn.lot(f"§14 #{offer.number} {b.team}"), index) for index, b in enumerate(highest)]
    dropped = highest[min(lots)[1]]
    turn.say(f"§14: Angebot #{offer.number} unerfüllbar, Kaufe von {dropped.team} zu {top} "
             "gestrichen (Los)" if len(highest) > 1 else
             f"§14: Angebot #{offer.number} unerfüllbar, Kaufe von {dropped.team} gestrichen")
    turn.reject(dropped.team, Problem(dropped.line.line, "Kaufe",
                                      f"gestrichen, Angebot #{offer.number} war unerfüllbar (§14)",
                                      f"struck, offer #{offer.number} could not be met (§14)"))
    return [b for b in bids if b is not dropped]


def _ranked(turn: Turn, bids: list[Answer], highest_first: bool) -> list[Answer]:
    keyed = [((-b.line.price if highest_first else b.line.price),
              turn.lot(f"Geschäft {b.team} Zeile {b.line.line}"), b) for b in bids]
    keyed.sort(key=lambda item: (item[0], item[1]))
    return [item[2] for item in keyed]


def _below_price(turn: Turn, answer: Answer, offer: Offer, higher: bool) -> None:
    de = "unter dem Mindestpreis" if higher else "über dem gebotenen Preis"
    en = "below the asking price" if higher else "above the price offered"
    price = amount(offer.price)
    turn.reject(answer.team, Problem(answer.line.line, "Preis", f"{de} {price} (#{offer.number})",
                                     f"{en} {price} (#{offer.number})"))


def _run_biete(turn: Turn, offer: Offer, answers: list[Answer]) -> None:
    valid = [a for a in answers if a.line.price >= offer.price]
    for answer in answers:
        if answer.line.price < offer.price:
            _below_price(turn, answer, offer, higher=True)
    left = offer.count
    assert offer.maker is not None
    wanted = Part(offer.maker, offer.kind, offer.rating)
    for answer in _ranked(turn, _drop_one_for_unfulfillable(turn, offer, valid), True):
        if left <= 0:
            turn.reject(answer.team, Problem(answer.line.line, "Kaufe",
                                             f"Angebot #{offer.number} ausverkauft",
                                             f"offer #{offer.number} sold out"))
            continue
        count = min(left, answer.line.count)
        left -= deliver(turn, Deal(offer.team, answer.team, wanted, count, answer.line.price,
                                   (0, f"Biete #{offer.number}"), (answer.line.line, "Kaufe")))


def _run_suche(turn: Turn, offer: Offer, answers: list[Answer]) -> None:
    valid = [a for a in answers if a.line.price <= offer.price]
    for answer in answers:
        if answer.line.price > offer.price:
            _below_price(turn, answer, offer, higher=False)
    left = offer.count
    for answer in _ranked(turn, valid, False):
        if left <= 0:
            turn.reject(answer.team, Problem(answer.line.line, "Verkaufe",
                                             f"Suche #{offer.number} schon erfüllt",
                                             f"Suche #{offer.number} already met"))
            continue
        part = answer.line.part
        assert part is not None and part.maker is not None
        count = min(left, answer.line.count)
        left -= deliver(turn, Deal(answer.team, offer.team, Part(part.maker, part.kind,
                                                                 part.rating),
                                   count, answer.line.price, (answer.line.line, "Verkaufe"),
                                   (0, f"Suche #{offer.number}")))


def _run_factory_sale(turn: Turn, offer: Offer, answers: list[Answer]) -> None:
    """April 2000 §15: highest bid at or above the minimum; buyers owning one are ignored."""
    state = turn.state
    factory = state.factory(offer.team, offer.kind)
    bids = []
    for answer in answers:
        if state.factory(answer.team, offer.kind):
            turn.reject(answer.team, Problem(answer.line.line, "Fabrik",
                                             "Rennstall hat schon eine Fabrik dieses Typs (§15)",
                                             "team already has a factory of this kind (§15)"))
        elif answer.line.price < offer.price:
            _below_price(turn, answer, offer, higher=True)
        elif not turn.can_pay(answer.team, answer.line.price):
            turn.reject(answer.team, Problem(answer.line.line, "Preis", "Geld reicht nicht",
                                             "not enough money"))
        else:
            bids.append(answer)
    if factory is None or not bids:
        return
    winner = _ranked(turn, bids, True)[0]
    price = winner.line.price
    turn.pay(winner.team, -price, f"Kauf {offer.team}-{offer.kind}-Fabrik",
             f"purchase {offer.team} {offer.kind} factory")
    turn.pay(offer.team, price, f"Verkauf {offer.kind}-Fabrik an {winner.team}",
             f"sale {offer.kind} factory to {winner.team}")
    factory.owner = winner.team
    turn.say(f"{offer.team}-{offer.kind}-Fabrik an {winner.team} zu {amount(price)}")
    turn.publish("Geschäfte", f"{offer.kind}-Fabrik von {offer.team} an {winner.team} zu "
                 f"{amount(price)} (heißt jetzt {winner.team})",
                 f"{offer.kind} factory of {offer.team} to {winner.team} at {amount(price)} "
                 f"(now called {winner.team})")


def _answer_offers(turn: Turn) -> None:
    offers = turn.state.offers
    matchers = {"Biete": _matches_biete, "Suche": _matches_suche}
    runners = {"Biete": _run_biete, "Suche": _run_suche}
    claimed: dict[int, list[Answer]] = {offer.number: [] for offer in offers}
    for verb, answer_verb in (("Biete", "Kaufe"), ("Suche", "Verkaufe")):
        for answer in _answers(turn, answer_verb):
            if answer.line.to == turn.config.reserved_maker and verb == "Biete":
                _sell_turbo(turn, answer)
                continue
            target = next((o for o in offers if o.verb == verb and (
                _matches_factory(o, answer) if answer.line.factory_owner
                else matchers[verb](o, answer))), None)
            if target is None:
                turn.reject(answer.team, Problem(
                    answer.line.line, answer_verb,
                    f"keine passende veröffentlichte {verb}-Zeile von {answer.line.to}",
                    f"no matching published {verb} line of {answer.line.to}"))
            else:
                claimed[target.number].append(answer)
    for offer in offers:
        if offer.factory:
            _run_factory_sale(turn, offer, claimed[offer.number])
        elif claimed[offer.number]:
            runners[offer.verb](turn, offer, claimed[offer.number])


def _clear_leftovers(turn: Turn) -> None:
    """April 2000 §19: the auction of a leaving team's material runs for the set number of
    rounds (``leftover_auction_rounds``); what is still unsold then is eliminated."""
    state = turn.state
    for name, rounds_left in sorted(state.leaving.items()):
        if rounds_left > 1:
            state.leaving[name] = rounds_left - 1
            continue
        team = state.teams[name]
        if team.stock or state.factory(name, "W") or state.factory(name, "M") or \
                state.factory(name, "R"):
            turn.say(f"{name}: Restmaterial eliminiert / leftover material eliminated")
        team.stock.clear()
        state.factories[:] = [f for f in state.factories if f.owner != name]
        del state.leaving[name]


def _surely_undeliverable(turn: Turn, team: str, line: TradeLine) -> bool:
    """April 2000 §14: the seller holds too few such parts and cannot build them."""
    part = line.part
    assert part is not None
    stock = turn.state.teams[team].stock
    held = sum(count for p, count in stock.items() if p.maker == part.maker
               and p.kind == part.kind and p.rating >= part.rating)
    factory = turn.state.factory(team, part.kind)
    can_build = part.maker == team and factory is not None and factory.rating >= part.rating
    return held < line.count and not can_build


def _publish_lines(turn: Turn) -> None:
    state = turn.state
    published: list[Offer] = []
    for team, sheet in sorted(turn.sheets.items()):
        for line in sheet.trades:
            if line.verb not in ("Biete", "Suche"):
                continue
            if line.to is not None and line.to not in state.teams:
                turn.reject(team, Problem(line.line, "an", f"Rennstall '{line.to}' unbekannt",
                                          f"unknown team '{line.to}'"))
                continue
            if line.factory_owner:
                if state.factory(team, line.factory_kind) is None:
                    turn.reject(team, Problem(line.line, "Fabrik", "keine Fabrik dieses Typs",
                                              "no factory of this kind"))
                    continue
                offer = Offer(state.next_offer_number, "Biete", team, None, 1, team,
                              line.factory_kind, 0, line.price, factory=True)
            else:
                part = line.part
                assert part is not None
                unfulfillable = line.verb == "Biete" and _surely_undeliverable(turn, team, line)
                offer = Offer(state.next_offer_number, line.verb, team, line.to, line.count,
                              part.maker, part.kind, part.rating, line.price,
                              unfulfillable=unfulfillable)
            state.next_offer_number += 1
            published.append(offer)
    published.extend(_departure_lines(turn))
    state.offers = published
    for offer in published:
        turn.say(f"veröffentlicht / published {offer.describe()}")


def _departure_lines(turn: Turn) -> list[Offer]:
    """April 2000 §19: the game master offers a leaving team's material to all at price 0."""
    state = turn.state
    lines: list[Offer] = []
    for name in sorted(state.leaving):
        for part, count in sorted(state.teams[name].stock.items()):
            lines.append(Offer(state.next_offer_number, "Biete", name, None, count, part.maker,
                               part.kind, part.rating, 0))
            state.next_offer_number += 1
        for factory in sorted(state.factories, key=lambda f: f.kind):
            if factory.owner == name:
                lines.append(Offer(state.next_offer_number, "Biete", name, None, 1, name,
                                   factory.kind, 0, 0, factory=True))
                state.next_offer_number += 1
    return lines


def run_market(turn: Turn, leaving_now: list[str]) -> None:
    """Answers first, then leftovers of last round's leavers go, then new lines are published."""
    turn.begin("4 Geschäfte")
    _answer_offers(turn)
    _clear_leftovers(turn)
    for name in leaving_now:
        turn.state.leaving[name] = turn.config.leftover_auction_rounds
    _publish_lines(turn)
