"""`python -m onrecord ...`: the same as the `onrecord` command (users reach for this form
when the venv's scripts are not on their PATH)."""

from onrecord.cli import main

if __name__ == "__main__":
    main()
