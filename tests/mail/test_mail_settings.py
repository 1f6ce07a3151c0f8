"""Mail settings from the environment: a port that is not one is an error naming its variable
(the same reading as the web server's numbers, ``textinput.env_whole``)."""

from __future__ import annotations

import pytest

from rennleitung.errors import RennleitungError
from rennleitung.mail.settings import settings_from_env


def test_ports_default_and_chosen() -> None:
    assert (settings_from_env({}).smtp_port, settings_from_env({}).imap_port) == (25, 993)
    assert settings_from_env({"RENNLEITUNG_LMTP_PORT": "2424"}).listen_port == 2424


@pytest.mark.parametrize("name", ["RENNLEITUNG_SMTP_PORT", "RENNLEITUNG_LMTP_PORT",
                                  "RENNLEITUNG_IMAP_PORT"])
@pytest.mark.parametrize("value", ["x", "0", "65536", "-25", "٢٥"])
def test_a_port_that_is_not_one_is_refused_naming_it(name: str, value: str) -> None:
    with pytest.raises(RennleitungError) as refused:
        settings_from_env({name: value})
    assert refused.value.where == name
