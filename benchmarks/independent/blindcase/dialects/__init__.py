"""One module per kind of export; each draws its layout, wording and time style per seed."""
