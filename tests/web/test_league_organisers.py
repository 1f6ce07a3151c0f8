"""Organiser rights of a league, on both databases: only for existing accounts (a name nobody
holds cannot be squatted), an invitation link for someone without an account, revocation; on
the web and on the command line."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from rennleitung.cli.main import app as cli
from rennleitung.errors import RennleitungError
from rennleitung.league.formats import LeagueKind
from rennleitung.store.league_store import LeagueStore
from rennleitung.web.league_pages import league_url
from tests.web.conftest import LiveServer, client, signed_up

NAME = "Liga"


def league(server: LiveServer) -> LeagueStore:
    store = LeagueStore(server.app.state.engine)
    store.create_league(NAME, LeagueKind.SEASON)
    return store


def test_rights_only_for_existing_accounts(server: LiveServer) -> None:
    store = league(server)
    with pytest.raises(RennleitungError, match="no web account 'Later'"):
        store.add_organiser(NAME, "Later")
    later = signed_up(server, "Later")  # whoever takes the name first gets nothing
    assert later.page(league_url(NAME, "/organise")).status_code == 403
    assert store.organisers(NAME) == ()


def test_organisers_add_and_revoke_on_the_web(server: LiveServer) -> None:
    store = league(server)
    orga = signed_up(server, "Orga")
    store.add_organiser(NAME, "Orga")
    helper = signed_up(server, "Helfer")
    orga.page(league_url(NAME, "/organise"))
    unknown = orga.submit(league_url(NAME, "/organisers"), {"action": "add", "account": "Nobody"})
    assert unknown.status_code == 400 and "no web account" in unknown.text
    added = orga.submit(league_url(NAME, "/organisers"), {"action": "add", "account": "helfer"})
    assert added.status_code == 303
    assert store.organisers(NAME) == ("Helfer", "Orga")
    assert helper.page(league_url(NAME, "/organise")).status_code == 200
    stranger = signed_up(server, "Fremd")
    stranger.page(league_url(NAME))
    assert stranger.submit(league_url(NAME, "/organisers"), {
        "action": "revoke", "account": "Orga"}).status_code == 403
    revoked = orga.submit(league_url(NAME, "/organisers"), {"action": "revoke",
                                                             "account": "Helfer"})
    assert revoked.status_code == 303
    assert helper.page(league_url(NAME, "/organise")).status_code == 403
    assert store.organisers(NAME) == ("Orga",)


def test_an_invitation_link_for_someone_without_an_account(server: LiveServer) -> None:
    store = league(server)
    orga = signed_up(server, "Orga")
    store.add_organiser(NAME, "Orga")
    orga.page(league_url(NAME, "/organise"))
    made = orga.submit(league_url(NAME, "/organisers"), {"action": "invite"})
    assert made.status_code == 200
    link = made.text.split('<code id="invitation">', 1)[1].split("<", 1)[0]
    path = link.removeprefix(server.url)
    assert path.startswith("/league/invitation/")
    visitor = client(server)
    assert "sign in" in visitor.page(path).text.lower()
    newcomer = signed_up(server, "Neu")  # signs up after getting the link
    newcomer.page(path)
    taken = newcomer.submit(path)
    assert taken.status_code == 303 and taken.headers["location"] == league_url(NAME,
                                                                                "/organise")
    assert newcomer.page(league_url(NAME, "/organise")).status_code == 200
    other = signed_up(server, "Andere")
    other.page(path)
    again = other.submit(path)  # an invitation works once
    assert again.status_code == 400 and "not valid" in again.text
    assert store.organisers(NAME) == ("Neu", "Orga")


def test_the_command_line_grants_invites_and_revokes(server: LiveServer,
                                                     database_url: str) -> None:
    league(server)
    runner = CliRunner()

    result = runner.invoke(cli, ["league", "add-organiser", NAME, "Ghost", "--db", database_url])
    assert result.exit_code == 1 and "no web account" in result.output
    signed_up(server, "Ghost")
    result = runner.invoke(cli, ["league", "add-organiser", NAME, "ghost", "--db", database_url])
    assert result.exit_code == 0 and "'Ghost' now organises" in result.output
    result = runner.invoke(cli, ["league", "invite-organiser", NAME, "--db", database_url,
                                 "--base-url", server.url])
    assert result.exit_code == 0, result.output
    link = result.output.strip().splitlines()[-1]
    assert link.startswith(f"{server.url}/league/invitation/")
    friend = signed_up(server, "Freund")
    path = link.removeprefix(server.url)
    friend.page(path)
    assert friend.submit(path).status_code == 303
    result = runner.invoke(cli, ["league", "remove-organiser", NAME, "Ghost", "--db",
                                 database_url])
    assert result.exit_code == 0, result.output
    result = runner.invoke(cli, ["league", "remove-organiser", NAME, "Ghost", "--db",
                                 database_url])
    assert result.exit_code == 1 and "does not organise" in result.output
    assert LeagueStore(server.app.state.engine).organisers(NAME) == ("Freund",)
