"""Mail settings from the environment, so passwords never sit in a file or a command line.

| variable | meaning | default |
|---|---|---|
| ``RENNLEITUNG_MAIL_FROM`` | sender address of every answer | ``rennleitung@localhost`` |
| ``RENNLEITUNG_SMTP_HOST`` / ``_PORT`` | SMTP server for outgoing mail | ``localhost`` / 25 |
| ``RENNLEITUNG_SMTP_SECURITY`` | ``none``, ``starttls`` or ``tls`` | ``none`` |
| ``RENNLEITUNG_SMTP_USER`` / ``_PASSWORD`` | login, if the server wants one | none |
| ``RENNLEITUNG_LMTP_HOST`` / ``_PORT`` | where ``mail serve`` listens | ``127.0.0.1`` / 8024 |
| ``RENNLEITUNG_LMTP_PROTOCOL`` | ``lmtp`` or ``smtp`` | ``lmtp`` |
| ``RENNLEITUNG_IMAP_HOST`` / ``_PORT`` | mailbox to poll (no host: no polling) | none / 993 |
| ``RENNLEITUNG_IMAP_SECURITY`` | ``tls``, ``starttls`` or ``none`` | ``tls`` |
| ``RENNLEITUNG_IMAP_USER`` / ``_PASSWORD`` / ``_FOLDER`` | mailbox login and folder | ``INBOX`` |
| ``RENNLEITUNG_BASE_URL`` | the web server, linked for the whole board | none (no link) |
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from rennleitung.play.outbox import SECURITY, SmtpSettings, env_choice, smtp_from_env
from rennleitung.textinput import env_whole


@dataclass(frozen=True)
class MailSettings:
    """Everything the mail side needs to reach its servers."""

    sender: str = "rennleitung@localhost"
    smtp_host: str = "localhost"
    smtp_port: int = 25
    smtp_security: str = "none"
    smtp_user: str = ""
    smtp_password: str = ""
    listen_host: str = "127.0.0.1"
    listen_port: int = 8024
    listen_protocol: str = "lmtp"
    imap_host: str = ""
    imap_port: int = 993
    imap_security: str = "tls"
    imap_user: str = ""
    imap_password: str = ""
    imap_folder: str = "INBOX"
    base_url: str = ""  # the web server, for the link to the whole board (none: no link)

    def smtp(self) -> SmtpSettings:
        """The part that sends the queue (``play/outbox.py``)."""
        return SmtpSettings(self.sender, self.smtp_host, self.smtp_port, self.smtp_security,
                            self.smtp_user, self.smtp_password)


def settings_from_env(environ: Mapping[str, str] | None = None) -> MailSettings:
    """The settings the environment gives; a wrong value is a bilingual error naming it."""
    env = os.environ if environ is None else environ
    p = "RENNLEITUNG_"
    smtp = smtp_from_env(env)
    return MailSettings(
        sender=smtp.sender,
        smtp_host=smtp.smtp_host,
        smtp_port=smtp.smtp_port,
        smtp_security=smtp.smtp_security,
        smtp_user=smtp.smtp_user,
        smtp_password=smtp.smtp_password,
        listen_host=env.get(f"{p}LMTP_HOST", "") or "127.0.0.1",
        listen_port=env_whole(env, f"{p}LMTP_PORT", 8024, 1, 65_535),
        listen_protocol=env_choice(env, f"{p}LMTP_PROTOCOL", "lmtp", ("lmtp", "smtp")),
        imap_host=env.get(f"{p}IMAP_HOST", ""),
        imap_port=env_whole(env, f"{p}IMAP_PORT", 993, 1, 65_535),
        imap_security=env_choice(env, f"{p}IMAP_SECURITY", "tls", SECURITY),
        imap_user=env.get(f"{p}IMAP_USER", ""),
        imap_password=env.get(f"{p}IMAP_PASSWORD", ""),
        imap_folder=env.get(f"{p}IMAP_FOLDER", "") or "INBOX",
        base_url=env.get(f"{p}BASE_URL", "").rstrip("/"),
    )
