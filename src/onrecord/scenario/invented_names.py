"""Invented names and the ways agencies misspell them.

Every name here is a common given name or surname joined at random; no real person is
meant. The variant helpers reproduce what real records do to a name: a letter doubled or
dropped, a nickname, surname only, rank + surname, "LAST, FIRST M".
"""

from __future__ import annotations

import random

MALE = [
    "Aaron", "Adam", "Alexander", "Andrew", "Anthony", "Benjamin", "Brandon", "Bryce",
    "Caleb", "Christopher", "Colin", "Daniel", "Derek", "Dominic", "Edward", "Eli",
    "Ethan", "Gregory", "Isaac", "Jacob", "James", "Jared", "Jonathan", "Joseph",
    "Joshua", "Julian", "Kevin", "Lucas", "Marcus", "Matthew", "Michael", "Nathan",
    "Nicholas", "Owen", "Patrick", "Raymond", "Richard", "Robert", "Samuel", "Scott",
    "Stephen", "Thomas", "Timothy", "Tobias", "Travis", "Victor", "Wesley", "William",
    "Zachary", "Gavin",
]
FEMALE = [
    "Abigail", "Alicia", "Amanda", "Andrea", "Brianna", "Caroline", "Chloe", "Danielle",
    "Elizabeth", "Emily", "Erin", "Gabriela", "Hannah", "Isabel", "Jasmine", "Jennifer",
    "Jessica", "Julia", "Katherine", "Kayla", "Laura", "Lauren", "Leah", "Madison",
    "Margaret", "Maria", "Megan", "Melissa", "Monica", "Natalie", "Nicole", "Olivia",
    "Rachel", "Rebecca", "Samantha", "Sarah", "Sofia", "Stephanie", "Tessa", "Vanessa",
]
SURNAMES = [
    "Abernathy", "Alcott", "Ambrose", "Ashby", "Baird", "Barlow", "Beckett", "Bellamy",
    "Birch", "Blackwood", "Bramley", "Brennick", "Calloway", "Carver", "Castellano",
    "Chandler", "Coburn", "Corliss", "Crandall", "Dalby", "Delacroix", "Dempsey",
    "Donnelly", "Dorsey", "Eastman", "Ellery", "Esposito", "Farraday", "Fenwick",
    "Fitzgerald", "Galloway", "Garrity", "Gillespie", "Goodwin", "Greeley", "Hadley",
    "Halloran", "Harwood", "Hastings", "Hendricks", "Holloway", "Ingram", "Jankowski",
    "Keating", "Kendrick", "Kowalczyk", "Lachance", "Lindqvist", "Lockhart", "Lombardi",
    "Maddox", "Marchetti", "McAllister", "Mendoza", "Merriman", "Nakamura", "Novak",
    "Oakley", "Okafor", "Ortega", "Pemberton", "Petrakis", "Pruitt", "Quinlan", "Radcliffe",
    "Ramsey", "Renner", "Rhinehart", "Rosales", "Sandoval", "Schaefer", "Sheridan",
    "Slattery", "Sorensen", "Stanhope", "Sutcliffe", "Takahashi", "Thackeray", "Tremblay",
    "Underhill", "Valdivia", "Vasquez", "Wainwright", "Whitlock", "Winslow", "Yancey",
    "Zielinski", "Zimmerman", "Boudreaux", "Szymanski", "Haverford", "Moncrief",
    "Nuñez", "Bélanger", "Ibáñez", "Çelik",
]
# Surname pairs one letter apart: two real officers with near-identical names, which
# entity resolution must keep apart (a deputy and a sergeant, say).
LOOKALIKE_SURNAMES = [
    ("Morrow", "Morrows"), ("Daniel", "Daniels"), ("Field", "Fields"), ("Pitt", "Pitts"),
    ("Roberson", "Robertson"), ("Stephen", "Stephens"), ("Hollis", "Hollins"),
]
LOOKALIKE_FIRST = ["Dale", "Glen", "Wayne", "Curtis", "Dean", "Lyle"]

NICKNAMES = {
    "Alexander": "Alex", "Andrew": "Andy", "Anthony": "Tony", "Benjamin": "Ben",
    "Christopher": "Chris", "Daniel": "Dan", "Edward": "Ed", "Gregory": "Greg",
    "James": "Jim", "Jonathan": "Jon", "Joseph": "Joe", "Joshua": "Josh",
    "Matthew": "Matt", "Michael": "Mike", "Nicholas": "Nick", "Patrick": "Pat",
    "Richard": "Rick", "Robert": "Bob", "Samuel": "Sam", "Stephen": "Steve",
    "Thomas": "Tom", "Timothy": "Tim", "William": "Bill", "Zachary": "Zach",
    "Elizabeth": "Liz", "Jennifer": "Jen", "Katherine": "Kate", "Margaret": "Maggie",
    "Rebecca": "Becky", "Samantha": "Sam", "Stephanie": "Steph", "Jessica": "Jess",
}
# Spellings a clerk writes for the same sound.
SOUNDALIKES = [("ph", "f"), ("ck", "k"), ("ie", "ei"), ("y", "ie"), ("cz", "s"),
               ("ll", "l"), ("tt", "t"), ("ey", "y"), ("on", "en"), ("i", "y")]


def pick_person_name(rng: random.Random, sex: str | None = None) -> tuple[str, str, str, str]:
    """(first, middle initial, last, sex) drawn from the invented lists."""
    sex = sex or rng.choice("MF")
    first = rng.choice(MALE if sex == "M" else FEMALE)
    middle = rng.choice("ABCDEFGHJKLMNPRSTW")
    return first, middle, rng.choice(SURNAMES), sex


def misspell(word: str, rng: random.Random) -> str:
    """One plausible clerical misspelling of a name (never the word itself)."""
    low = word.lower()
    options = [(a, b) for a, b in SOUNDALIKES if a in low]
    ops = ["double", "drop", "swap"] + (["sound"] * 2 if options else [])
    for _ in range(8):
        op = rng.choice(ops)
        out = _apply(word, op, options, rng)
        if out and out.lower() != low:
            return out
    return word + "e"


def _apply(word: str, op: str, options, rng: random.Random) -> str:
    i = rng.randrange(1, max(2, len(word) - 1))
    if op == "double":
        return word[:i] + word[i] + word[i:]
    if op == "drop" and len(word) > 4:
        return word[:i] + word[i + 1:]
    if op == "swap" and i < len(word) - 1:
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    if op == "sound":
        a, b = rng.choice(options)
        j = word.lower().find(a)
        piece = b if word[j].islower() else b.capitalize()
        return word[:j] + piece + word[j + len(a):]
    return ""


def nickname(first: str) -> str:
    return NICKNAMES.get(first, first)
