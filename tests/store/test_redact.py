"""Redactor.json_row (store/redact.py): a row of the web's list stored as JSON text shows what
`Redactor.text` shows of each of its values, however a name is written (any case, a line break
between its parts, the letters re.I takes for ASCII ones: ı, ſ, İ, the Kelvin sign), and a row
naming nobody is given back as stored, unparsed."""

from __future__ import annotations

import json
import random

from pydantic_core import to_json

from onrecord.store.redact import Redactor

PEOPLE = [("Jane Q Doe", "Victim 1"), ("Ivan Sokol", "Victim 2"), ("Kai O'Neil", "Minor 1"),
          ("Andrea J \u00c7elik", "Witness 1"), ("I\u015f\u0131k Ayd\u0131n", "Witness 2")]
PIECES = ["jane doe", "DOE, JANE", "Doe,Jane", "Jane Q. Doe", "Jane\nDoe", "sokol ivan", "\u0131van sokol",
          "\u0130van Sokol", "\u017fokol, ivan", "\u017fokol \u0131van", "\u0130van \u017fokol",
          "\u212aai O'Neil", "o'neil, kai", "Janet Doerr", "Ivanova",
          "\njane doe", "\tDoe, Jane", "\nJane\nDoe", "\tSokol\tIvan",
          "\u2013jane doe", "\u00a0Sokol ivan", "jane_doe", "x_jane doe",
          "\u00e9jane doe", "jos\u00e9 doe", "\x01Ivan Sokol", "\"Ivan Sokol\"", "O'NEIL, KAI", "Kai\r\nO'Neil",
          "\u00c7ELIK, ANDREA", "\u00e7elik,andrea", "andrea \u00e7elik", "I\u015f\u0131k Ayd\u0131n",
          "i\u015fik aydin", "I\u015fIK AYDIN", "ayd\u0131n, \u0131\u015f\u0131k",
          "x", " ", ",", "\"", "\\", "\u2013", "\u00df", "caf\u00e9", "12:00"]


def _row(text: str, actor: str) -> dict:
    return {"id": 7, "kind": "contact", "local_text": "2021-03-31 22:36:11 EDT \u2013 22:37:00 EDT", "actor": actor,
            "text": text, "source": {"id": 3, "file": "contacts.csv", "kind": "cad"}, "record": {"line": 12}}


def test_a_stored_row_shows_what_each_of_its_values_shows_redacted():
    redact = Redactor(PEOPLE)
    rng = random.Random(16)
    kept = frozenset({"id", "local_text", "line"})
    for _ in range(3000):
        text = "".join(rng.choice(PIECES) + rng.choice(["", " "]) for _ in range(rng.randint(0, 6)))
        row = _row(text, rng.choice(PIECES))
        body = to_json(row).decode()
        want = {k: v if k in kept or not isinstance(v, str) else redact.text(v) for k, v in row.items()}
        want["source"] = {k: redact.text(v) if isinstance(v, str) else v for k, v in row["source"].items()}
        assert redact.json_row(body, kept) == to_json(want).decode(), text


def test_a_row_naming_nobody_is_given_back_as_stored():
    redact = Redactor(PEOPLE)
    body = '{"id": 1, "text": "Contact near the dock, no names", "actor": null}'  # spacing to_json would not keep
    assert redact.json_row(body) is body
    named = '{"id":1,"text":"Contact with DOE,\\nJANE","actor":null}'
    assert json.loads(redact.json_row(named))["text"] == "Contact with Victim 1"
    assert Redactor(()).json_row(named) is named  # nobody protected: nothing to do
    for odd in ("\u017fokol \u0131van", "\u0130van \u017fokol"):  # no word of the name as lower() writes it
        assert json.loads(redact.json_row(to_json({"text": odd}).decode()))["text"] == redact.text(odd) != odd


def test_the_words_tested_for_are_whole_words_of_every_form():
    redact = Redactor(PEOPLE)
    assert redact._words is not None  # every form has a word: each row is tested, not parsed
    assert b"elik" in redact._words  # "çelik, andrea": its first run of ASCII letters
    assert Redactor([("\u0418\u0432\u0430\u043d \u041f\u0435\u0442\u0440\u043e\u0432", "Witness 3")])._words is None


def test_a_name_with_a_character_json_escapes_is_still_found():
    redact = Redactor([('Ann "Nan" Lee', "Witness 1")])  # its first word's quote is escaped in JSON text
    body = to_json({"text": 'saw Ann "Nan" Lee'}).decode()
    assert json.loads(redact.json_row(body))["text"] == redact.text('saw Ann "Nan" Lee') == "saw Witness 1"
