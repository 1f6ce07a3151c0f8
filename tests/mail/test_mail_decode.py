"""Reading mails as mail programs really send them."""

from __future__ import annotations

from email.message import EmailMessage

from rennleitung.mail.decode import clean_header, decode, html_to_text, reading_text


def _raw(lines: list[str]) -> bytes:
    return "\r\n".join(lines).encode("latin-1")


def test_quoted_printable_latin1_umlauts() -> None:
    raw = _raw(["From: =?iso-8859-1?q?J=FCrgen_M=FCller?= <Juergen@Example.ORG>",
                "Subject: =?iso-8859-1?q?Z=FCge?=", "MIME-Version: 1.0",
                "Content-Type: text/plain; charset=iso-8859-1",
                "Content-Transfer-Encoding: quoted-printable", "",
                "Rennstall: M=FCnchen", "Kontakt: Gr=FC=DFe an alle=", " und mehr"])
    mail = decode(raw)
    assert mail.sender == "juergen@example.org"
    assert mail.sender_name == "Jürgen Müller"
    assert mail.subject == "Züge"
    assert mail.body.split("\n")[:2] == ["Rennstall: München", "Kontakt: Grüße an alle und mehr"]


def test_windows_1252_declared_as_latin1() -> None:
    body = "Kontakt: „Preis“ 5 €".encode("cp1252")
    raw = (b"From: a@b.de\r\nContent-Type: text/plain; charset=iso-8859-1\r\n"
           b"Content-Transfer-Encoding: 8bit\r\n\r\n" + body)
    assert decode(raw).body == "Kontakt: „Preis“ 5 €"


def test_base64_utf8_with_bom_and_crlf() -> None:
    message = EmailMessage()
    message["From"] = "a@b.de"
    message.set_content("\ufeffGang 5\r\nBoost\r\n", charset="utf-8", cte="base64")
    assert decode(message.as_bytes()).body == "Gang 5\nBoost"


def test_undeclared_charset_falls_back() -> None:
    raw = b"From: a@b.de\r\nContent-Type: text/plain; charset=x-unknown\r\n\r\nGr\xfc\xdfe"
    assert decode(raw).body == "Grüße"


def test_html_only_becomes_text() -> None:
    message = EmailMessage()
    message["From"] = "a@b.de"
    message.set_content("<html><head><style>p{}</style></head><body><p>Gang&nbsp;5</p>"
                        "<div>Ziel C57<br>Boost</div><blockquote>Gang 9</blockquote></body>",
                        subtype="html")
    assert decode(message.as_bytes()).body.split("\n") == ["Gang 5", "", "Ziel C57", "Boost"]


def test_plain_part_preferred_over_html() -> None:
    message = EmailMessage()
    message["From"] = "a@b.de"
    message.set_content("Gang 4")
    message.add_alternative("<p>Gang 6</p>", subtype="html")
    assert decode(message.as_bytes()).body == "Gang 4"


def test_quotes_blank_and_signature_cut_keeping_line_numbers() -> None:
    text = "Gang 5\nAm Montag schrieb Rennleitung:\n> Frage\n>> alt\nBoost\n-- \nJürgen\nGang 9"
    assert reading_text(text).split("\n") == ["Gang 5", "", "", "", "Boost"]


def test_text_attachment_is_the_sheet() -> None:
    message = EmailMessage()
    message["From"] = "a@b.de"
    message.set_content("anbei mein Bogen\n")
    message.add_attachment("Rennstall: Ferrari\r\nRunde: 1\r\n".encode("cp1252"),
                           maintype="text", subtype="plain", filename="bogen.txt")
    mail = decode(message.as_bytes())
    assert mail.from_attachment
    assert mail.sheet == "Rennstall: Ferrari\nRunde: 1"
    assert mail.body == "anbei mein Bogen"


def test_header_injection_in_name_is_flattened() -> None:
    raw = b"From: =?utf-8?q?Evil=0D=0ABcc=3A_x=40y=2Ez?= <p@q.de>\r\nSubject: a\r\n\r\nx"
    mail = decode(raw)
    assert "\n" not in mail.sender_name and "\r" not in mail.sender_name
    assert mail.sender == "p@q.de"
    assert "\n" not in clean_header("a\r\nBcc: b@c.de")


def test_automatic_mail_is_recognised() -> None:
    raw = b"From: MAILER-DAEMON@x.de\r\nAuto-Submitted: auto-replied\r\n\r\nbounce"
    assert decode(raw).automatic
    assert not decode(b"From: a@b.de\r\n\r\nGang 3").automatic


def test_broken_mime_never_raises() -> None:
    raw = (b"From: a@b.de\r\nContent-Type: multipart/mixed; boundary=\"x\"\r\n\r\n--x\r\n"
           b"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n"
           b"\r\n!!!not base64\r\n")
    mail = decode(raw)
    assert mail.sender == "a@b.de"
    assert decode(b"").sender == ""


def test_html_to_text_survives_garbage() -> None:
    assert html_to_text("<p>a<<</p><script>b</script>c") .replace("\n", "") in ("a<<c", "ac")


def test_a_broken_charset_in_an_encoded_word_keeps_the_raw_header() -> None:
    raw = "From: a@b.de\r\nSubject: =?\ufffdtf-8?q?Z=C3=BCge?=\r\n\r\nx".encode()
    assert "tf-8" in decode(raw).subject


def test_eight_bit_headers_are_read_as_utf8_or_latin1() -> None:
    utf8 = decode("From: Jürgen <j@b.de>\r\nSubject: Züge\r\n\r\nx".encode())
    assert (utf8.sender_name, utf8.subject, utf8.sender) == ("Jürgen", "Züge", "j@b.de")
    latin = decode("From: Jürgen <j@b.de>\r\nSubject: Züge\r\n\r\nx".encode("latin-1"))
    assert (latin.sender_name, latin.subject) == ("Jürgen", "Züge")


def test_encoded_words_among_raw_eight_bit_text_are_decoded_too() -> None:
    mixed = (b"From: a@b.de\r\nSubject: Re: Zug f\xc3\xbcr =?utf-8?q?M=C3=BCller?= und "
             b"=?iso-8859-1?q?J=FCrgen?= =?utf-8?q?_Sch=C3=A4fer?=\r\n\r\nx")
    assert decode(mixed).subject == "Re: Zug für Müller und Jürgen Schäfer"
    latin = b"From: a@b.de\r\nSubject: f\xfcr =?utf-8?q?M=C3=BCller?=\r\n\r\nx"
    assert decode(latin).subject == "für Müller"
    broken = b"From: a@b.de\r\nSubject: f\xfcr =?b\xe4d?q?M=C3=BCller?=\r\n\r\nx"
    assert decode(broken).subject == "für =?bäd?q?M=C3=BCller?="  # kept as it came


def test_sender_is_found_behind_a_name_the_parser_cannot_read() -> None:
    for name in ('"Quote', "<>", "a" * 3000, "Enzo (unclosed"):
        raw = f"From: {name} <Enzo@Example.net>\r\nSubject: s\r\n\r\nx".encode()
        assert decode(raw).sender == "enzo@example.net", name
    injected = decode(b"From: Evil\r\nBcc: victim@example.org <p@q.de>\r\n\r\nx")
    assert injected.sender == ""  # the From header has no address; the Bcc line is no sender
