"""`python -m onrecord.cli ...`: the same as the `onrecord` command."""

from onrecord.cli import main

main()
