"""`python -m onrecord.cli ...`: the same as the `onrecord` command."""

from onrecord.cli import main

if __name__ == "__main__":
    main()
