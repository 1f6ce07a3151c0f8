"""Play by e-mail: mail in (LMTP/SMTP, IMAP) stored as received, games answered, mail out queued.

``decode`` reads a mail, ``service`` stores and routes it to a game adapter (``turbo_game``,
``fd_game``), ``outbox`` sends the answers through the configured SMTP server.
"""
