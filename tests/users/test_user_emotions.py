import math

import pytest

from simulator.errors import UsageError
from simulator.registry import resolve_emotion
from users.emotions import (
    DEFAULT_LEAF,
    FAMILIES,
    LEAVES,
    EmotionProfile,
    leaf,
    level_name,
    parse_intensity,
    resolve,
)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("low", 0.3),
        ("medium", 0.6),
        ("HIGH", 0.9),
        (" 0.75 ", 0.75),
        ("0", 0.0),
        ("1", 1.0),
        (0.5, 0.5),
    ],
)
def test_parse_intensity(text: str | float, value: float) -> None:
    assert math.isclose(parse_intensity(text), value)


@pytest.mark.parametrize("bad", ["extreme", "1.5", "-0.1", "nan", "", "0.5x"])
def test_parse_intensity_rejects_and_names_the_value(bad: str) -> None:
    with pytest.raises(UsageError, match=repr(bad).replace(".", r"\.")):
        parse_intensity(bad)


def test_taxonomy_has_five_families_and_at_least_fifteen_leaves() -> None:
    emotional = [leaf for leaf in LEAVES.values() if leaf.family != "neutral"]
    assert len(emotional) >= 15
    for family in FAMILIES:
        members = [leaf for leaf in LEAVES.values() if leaf.family == family]
        assert members, family
        if family != "neutral":
            assert len(members) >= 2, family
    for spec in LEAVES.values():
        for value in (spec.politeness, spec.urgency, spec.trust):
            assert 0.0 <= value <= 1.0
        assert spec.friction > 0 and spec.patience > 0


@pytest.mark.parametrize(
    ("family", "default"),
    [
        ("anger", "frustration"),
        ("fear", "anxiety"),
        ("sadness", "helplessness"),
        ("disgust", "contempt"),
        ("enjoyment", "cheerfulness"),
        ("neutral", "neutral"),
    ],
)
def test_family_resolves_to_default_leaf(family: str, default: str) -> None:
    assert DEFAULT_LEAF[family] == default
    assert resolve(family) == default
    assert resolve(family.upper()) == default


def test_leaves_resolve_to_themselves_and_unknown_is_key_error() -> None:
    for name in LEAVES:
        assert resolve(name) == name
    with pytest.raises(KeyError):
        resolve("hunger")


def test_registered_resolver() -> None:
    assert resolve_emotion("anger") == "frustration"
    assert resolve_emotion("panic") == "panic"
    with pytest.raises(UsageError, match="hunger"):
        resolve_emotion("hunger")


def test_profile_dimensions_follow_intensity() -> None:
    calm = EmotionProfile.of("anger", 0.3)
    hot = EmotionProfile.of("anger", 0.9)
    assert (hot.family, hot.leaf, hot.intensity) == ("anger", "frustration", 0.9)
    assert hot.politeness < calm.politeness
    assert hot.urgency > calm.urgency
    assert hot.trust < calm.trust
    neutral = [EmotionProfile.of("neutral", i) for i in (0.3, 0.9)]
    assert neutral[0].politeness == neutral[1].politeness == leaf("neutral").politeness
    assert not neutral[0].emotional and hot.emotional
    with pytest.raises(KeyError):
        EmotionProfile.of("hunger", 0.5)


def test_level_name() -> None:
    assert [level_name(v) for v in (0.0, 0.3, 0.6, 0.9, 1.0)] == [
        "low",
        "low",
        "medium",
        "high",
        "high",
    ]
