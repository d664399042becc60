"""Given names and their nicknames: "Tim" and "Timothy", "Tony" and "Anthony".

Agencies write the name a person gave them, and a person gives the nickname to one
clerk and the formal name to the next. String similarity cannot see that Bill is
William; a hand-curated table can. The table is the `nicknames` package's (English
given names, Apache-2.0), shipped inside the wheel, so nothing is fetched.
"""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=1)
def _namer():
    from nicknames import NickNamer

    return NickNamer()


@lru_cache(maxsize=200_000)
def name_forms(name: str | None) -> tuple[str, ...]:
    """The name itself and every formal name it may be short for, sorted.

    Two given names are nickname-related when their forms share a name: "tim"
    ({tim, timothy}) and "timothy" ({timothy}); "mike" and "mick" (both michael).
    A name the table does not know is only itself. Lower-case input (as
    `prepare_persons` writes it) is expected; the first word of a double name counts.
    """
    if not name:
        return ()
    first_word = name.split()[0]
    forms = {name, first_word} | _namer().canonicals_of(first_word)
    return tuple(sorted(forms))
