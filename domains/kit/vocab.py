"""Vocabularies every customer-service world draws people and places from."""

from __future__ import annotations

FIRST_NAMES: tuple[str, ...] = (
    "Ava",
    "Noah",
    "Mia",
    "Liam",
    "Sofia",
    "Ethan",
    "Chloe",
    "Lucas",
    "Amelia",
    "Mason",
    "Harper",
    "Omar",
    "Yusuf",
    "Aisha",
    "Mei",
    "Daniel",
    "Isabella",
    "Raj",
    "Priya",
    "Mateo",
    "Lena",
    "Ivan",
    "Fatima",
    "James",
    "Olivia",
    "Hiro",
    "Yuki",
    "Chen",
    "Sara",
    "Diego",
    "Emma",
    "Kofi",
    "Amara",
    "Leo",
    "Nora",
    "Ali",
    "Zoe",
    "Samuel",
    "Grace",
    "Anya",
)

LAST_NAMES: tuple[str, ...] = (
    "Smith",
    "Garcia",
    "Nguyen",
    "Patel",
    "Kim",
    "Johnson",
    "Martinez",
    "Brown",
    "Lopez",
    "Khan",
    "Wilson",
    "Anderson",
    "Rossi",
    "Muller",
    "Silva",
    "Sato",
    "Ito",
    "Cohen",
    "Ahmed",
    "Novak",
    "Moore",
    "Taylor",
    "Thomas",
    "Jackson",
    "White",
    "Harris",
    "Clark",
    "Lewis",
    "Walker",
    "Young",
    "Hernandez",
    "Okafor",
    "Mensah",
    "Santos",
    "Hansen",
    "Lee",
    "Wright",
    "Scott",
    "Green",
    "Baker",
)

# (city, state, first three digits of its zip codes)
CITIES: tuple[tuple[str, str, str], ...] = (
    ("Seattle", "WA", "981"),
    ("Portland", "OR", "972"),
    ("San Francisco", "CA", "941"),
    ("Los Angeles", "CA", "900"),
    ("San Diego", "CA", "921"),
    ("Phoenix", "AZ", "850"),
    ("Denver", "CO", "802"),
    ("Austin", "TX", "787"),
    ("Houston", "TX", "770"),
    ("Dallas", "TX", "752"),
    ("Chicago", "IL", "606"),
    ("Minneapolis", "MN", "554"),
    ("Detroit", "MI", "482"),
    ("Columbus", "OH", "432"),
    ("Atlanta", "GA", "303"),
    ("Miami", "FL", "331"),
    ("Charlotte", "NC", "282"),
    ("Philadelphia", "PA", "191"),
    ("New York", "NY", "100"),
    ("Boston", "MA", "021"),
    ("Nashville", "TN", "372"),
    ("Salt Lake City", "UT", "841"),
)

STREETS: tuple[str, ...] = (
    "Maple Street",
    "Oak Avenue",
    "Pine Road",
    "Cedar Lane",
    "Elm Street",
    "Willow Way",
    "Lakeview Drive",
    "Hillside Avenue",
    "River Road",
    "Sunset Boulevard",
    "Park Place",
    "Highland Avenue",
    "Main Street",
    "Chestnut Street",
    "Spruce Court",
    "Meadow Lane",
)

CARD_BRANDS: tuple[str, ...] = ("visa", "mastercard", "amex", "discover")


def counted(count: int, noun: str) -> str:
    """``count`` and ``noun`` in the plural it takes: "1 checked bag", "3 checked bags"."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


_FEMALE_RELATIVES = frozenset({"mother", "sister", "wife", "daughter", "aunt", "grandmother"})


def pronouns(relative: str) -> tuple[str, str, str]:
    """The possessive, object and absolute pronoun of ``relative``: ("her", "her", "hers")."""
    if relative in _FEMALE_RELATIVES:
        return ("her", "her", "hers")
    return ("his", "him", "his")
