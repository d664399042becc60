"""The one terminal console the command line prints case data through.

Rich reads `[...]` in a printed string as markup (styles, `[link=...]` terminal
hyperlinks) and `:name:` as emoji. A radio line, a file name or a phrase from an export
is the agency's text, never markup: every table and sentence that can hold imported text
is printed through a console that takes strings literally. Our own emphasis goes in
`style=` arguments, never in the text.
"""

from __future__ import annotations

from rich.console import Console


def data_console(**options) -> Console:
    return Console(markup=False, emoji=False, highlight=False, **options)


def data_console_for(width: int, **options) -> Console:
    """The terminal's console, or one `width` columns wide when the output is piped."""
    console = data_console(**options)
    return console if console.is_terminal else data_console(width=width, **options)
