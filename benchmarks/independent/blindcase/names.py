"""Invented name material. Place roots are built from syllables so the combinations
read like place names without being any real county, city or school."""

PLACE_HEADS = [
    "Quill", "Varn", "Thessel", "Brindle", "Corvane", "Dask", "Ebber", "Falden", "Gorse",
    "Hallam", "Ister", "Jorra", "Kestle", "Lunder", "Mossen", "Nethery", "Orrin", "Pellam",
    "Quenby", "Rusk", "Sabry", "Tolland", "Ulver", "Vesey", "Wendle", "Yarrow", "Zell",
    "Caddock", "Brannet", "Delver", "Harrowgate", "Marrin", "Selwick", "Tarrant", "Aldine",
]
PLACE_TAILS = [
    "wick", "mere", "stead", "ford", "holt", "crest", "dale", "brook", "field", "haven",
    "more", "ridge", "well", "ton", "worth", "by", "combe", "shaw",
]
STREET_WORDS = [
    "Larkspur", "Tamsin", "Old Quarry", "Hobbin", "Cresset", "Wrenfield", "Millrace",
    "Sorrel", "Kettering", "Bellwether", "Coppice", "Dovecote", "Furlong", "Ganton",
    "Halberd", "Inkwell", "Juniper Hollow", "Kilnworth", "Lantern", "Marlpit", "Nettlebed",
    "Orchardgate", "Pennywhistle", "Quarrel", "Rookery", "Saltbox", "Tinder", "Underhill",
]
STREET_TYPES = ["Rd", "Ave", "St", "Blvd", "Pkwy", "Ln", "Dr", "Way"]

FIRST_NAMES = [
    "Aldo", "Bryn", "Calla", "Dorian", "Elsa", "Fenton", "Greer", "Hollis", "Ines", "Jory",
    "Kellan", "Liesl", "Marek", "Nadia", "Osric", "Petra", "Quinlan", "Rhea", "Soren",
    "Talia", "Ulric", "Vera", "Wade", "Xenia", "Yusuf", "Zara", "Anselm", "Bettina",
    "Cormac", "Delphine", "Emory", "Fleur", "Gideon", "Hester", "Ignatius", "Juno", "Kasimir",
    "Lorcan", "Mireille", "Niall", "Odette", "Pascal", "Rosalind", "Silas", "Thea", "Uma",
    "Vaughn", "Wilhelmina", "Yates", "Ambrose", "Brigid", "Caspian", "Dagny", "Evander",
    "Faye", "Gunnar", "Hazel", "Isidore", "Jessamy", "Lazlo", "Maren", "Ottilie", "Percival",
    "Roswell", "Sabine", "Tobiah", "Verity", "Wystan", "Zebulon", "Annika", "Bastian",
]
LAST_NAMES = [
    "Ashgrove", "Brackett", "Carrow", "Dunmore", "Elkin", "Farrier", "Gallow", "Hensley",
    "Iverson", "Jessop", "Kilbride", "Lockyer", "Marchetti", "Nolasco", "Oakhurst", "Pryde",
    "Quarles", "Redwine", "Stellan", "Thackery", "Umber", "Vantongeren", "Whitlock", "Yandle",
    "Zabrowski", "Abernethy", "Bellweather", "Cardenas-Roe", "Delacroix", "Eberhart",
    "Fairweather", "Goldring", "Holloway", "Imbert", "Jankowicz", "Kettleby", "Larrabee",
    "Mossgrove", "Nettleton", "Orpington", "Penhallow", "Quimby", "Rasmussen-Tate", "Sallow",
    "Trevanion", "Upshaw", "Valcourt", "Wexley", "Yelverton", "Zuniga-Hale", "Ambler",
    "Birchall", "Crampton", "Dovecot", "Emberly", "Fosswell", "Grimaldi", "Hartigan",
    "Ingersoll", "Jarrow", "Kowalczyk", "Lindqvist", "Mabry", "Norcott", "Ostrander",
    "Pettibone", "Roebuck", "Salter", "Tolliver", "Underwood-Pike", "Voss", "Winterbourne",
]

HOSPITAL_PATTERNS = ["{} General Hospital", "{} Regional Medical Center", "St. {} Hospital",
                     "{} Memorial", "{} Community Hospital"]
SAINTS = ["Aldric", "Bertille", "Cuthman", "Dymphna", "Edwold", "Frideswide"]

BUILDING_NAME_SETS = [
    ["Main Building", "Science Wing", "Gymnasium", "Arts Center", "Freshman Center"],
    ["Building 100", "Building 200", "Building 300", "Building 400", "Building 500"],
    ["North Hall", "South Hall", "East Hall", "Commons", "Fieldhouse"],
    ["A Wing", "B Wing", "C Wing", "D Wing", "Media Center"],
]
