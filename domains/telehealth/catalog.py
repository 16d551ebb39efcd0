"""What the telehealth generator draws from: specialties, prices, plans, medications, pharmacies."""

from __future__ import annotations

VIDEO = "video"
IN_PERSON = "in_person"
VISIT_TYPES = (VIDEO, IN_PERSON)

# specialty -> (self-pay price of a video visit, of an in-person visit)
SPECIALTIES: dict[str, tuple[float, float]] = {
    "primary care": (79.0, 129.0),
    "dermatology": (119.0, 189.0),
    "cardiology": (159.0, 249.0),
    "psychiatry": (149.0, 219.0),
    "endocrinology": (139.0, 209.0),
    "neurology": (169.0, 259.0),
    "nutrition": (69.0, 99.0),
    "physical therapy": (89.0, 119.0),
}

# (plan id, name, covered specialties, video copay, in-person copay)
PLANS: tuple[tuple[str, str, tuple[str, ...], float, float], ...] = (
    (
        "PLN-BASIC",
        "Harbor Basic",
        ("primary care", "nutrition", "physical therapy"),
        20.0,
        35.0,
    ),
    (
        "PLN-PLUS",
        "Harbor Plus",
        ("primary care", "dermatology", "cardiology", "endocrinology", "physical therapy"),
        15.0,
        30.0,
    ),
    (
        "PLN-PPO",
        "Summit PPO",
        tuple(SPECIALTIES),
        10.0,
        25.0,
    ),
    (
        "PLN-HMO",
        "Evergreen HMO",
        ("primary care", "psychiatry", "endocrinology", "neurology"),
        5.0,
        20.0,
    ),
    ("PLN-STATE", "StateCare", ("primary care", "psychiatry", "nutrition"), 0.0, 0.0),
)

# (medication, dose, controlled substance, usual days of supply)
MEDICATIONS: tuple[tuple[str, str, bool, int], ...] = (
    ("lisinopril", "10 mg tablet", False, 30),
    ("atorvastatin", "20 mg tablet", False, 90),
    ("metformin", "500 mg tablet", False, 30),
    ("levothyroxine", "50 mcg tablet", False, 90),
    ("amlodipine", "5 mg tablet", False, 30),
    ("sertraline", "50 mg tablet", False, 30),
    ("omeprazole", "20 mg capsule", False, 30),
    ("albuterol", "90 mcg inhaler", False, 30),
    ("tretinoin", "0.05% cream", False, 60),
    ("losartan", "50 mg tablet", False, 90),
    ("escitalopram", "10 mg tablet", False, 30),
    ("montelukast", "10 mg tablet", False, 30),
    ("alprazolam", "0.5 mg tablet", True, 30),
    ("zolpidem", "10 mg tablet", True, 30),
    ("methylphenidate", "10 mg tablet", True, 30),
    ("oxycodone", "5 mg tablet", True, 15),
)

PHARMACY_BRANDS: tuple[str, ...] = (
    "CareWell Pharmacy",
    "Main Street Drugs",
    "GreenCross Pharmacy",
    "Sunrise Apothecary",
)
