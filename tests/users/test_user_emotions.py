import math

import pytest

from tau_sim.simulator.core.conditions import DIMENSIONS
from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.registry import resolve_emotion
from tau_sim.users.emotions import (
    ALIASES,
    DEFAULT_LEAF,
    FAMILIES,
    LEAVES,
    EmotionProfile,
    family_of,
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
        for dimension, levels in DIMENSIONS.items():
            assert getattr(spec, dimension) in levels
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
    # the earlier default leaves; contempt and cheerfulness are now aliases of new leaves
    assert DEFAULT_LEAF[family] == resolve(default)
    assert resolve(family) == resolve(default)
    assert resolve(family.upper()) == resolve(default)


def test_leaves_resolve_to_themselves_and_unknown_is_key_error() -> None:
    for name in LEAVES:
        assert resolve(name) == name
    for alias, target in ALIASES.items():
        assert resolve(alias) == target and alias not in LEAVES
    with pytest.raises(KeyError):
        resolve("hunger")


def test_registered_resolver() -> None:
    assert resolve_emotion("anger") == "frustration"
    assert resolve_emotion("panic") == "desperation"  # an alias of the earlier taxonomy
    with pytest.raises(UsageError, match="hunger"):
        resolve_emotion("hunger")


def test_profile_dimensions_follow_intensity() -> None:
    calm = EmotionProfile.of("anger", 0.3)
    hot = EmotionProfile.of("anger", 0.9)
    assert (hot.family, hot.leaf, hot.intensity) == ("anger", "frustration", 0.9)
    # levels are ordered from the mildest to the most demanding user
    assert hot.rank("politeness") > calm.rank("politeness")  # colder
    assert hot.rank("urgency") > calm.rank("urgency")
    assert hot.rank("trust") > calm.rank("trust")  # more skeptical
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


SEED_TAXONOMY = {
    "anger": {"annoyance", "frustration", "argumentativeness", "bitterness", "exasperation"},
    "fear": {"anxiety", "nervousness", "dread", "desperation"},
    "disgust": {"dislike", "aversion", "distaste", "repugnance"},
    "sadness": {"disappointment", "discouragement", "helplessness", "hopelessness", "sorrow"},
    "enjoyment": {"relief", "pride", "peace", "excitement"},
    "neutral": {"neutral"},
}


def test_taxonomy_is_the_22_leaf_hierarchy_each_leaf_in_exactly_one_family() -> None:
    by_family = {f: {n for n, s in LEAVES.items() if s.family == f} for f in FAMILIES}
    assert by_family == SEED_TAXONOMY
    assert sum(len(v) for f, v in by_family.items() if f != "neutral") == 22
    # a name in two families would appear twice across the families' sets
    names = [n for members in by_family.values() for n in members]
    assert len(names) == len(set(names)) == len(LEAVES)
    for name, spec in LEAVES.items():
        assert family_of(name) == spec.family


def test_aliases_map_into_the_nearest_family() -> None:
    old_family = {
        "irritation": "anger",
        "outrage": "anger",
        "panic": "fear",
        "worry": "fear",
        "despair": "sadness",
        "contempt": "disgust",
        "disdain": "disgust",
        "cheerfulness": "enjoyment",
        "amusement": "enjoyment",
    }
    assert set(ALIASES) == set(old_family)
    for alias, family in old_family.items():
        assert family_of(alias) == family
        assert EmotionProfile.of(alias, 0.6).leaf == ALIASES[alias]


def test_levels_given_are_kept_and_unset_ones_are_the_leafs_own() -> None:
    spec = leaf("dread")
    own = EmotionProfile.of("dread", 0.6)
    assert (own.politeness, own.urgency, own.trust) == (spec.politeness, spec.urgency, spec.trust)
    set_ = EmotionProfile.of("dread", 0.9, politeness="warm", urgency="low", trust="trusting")
    assert (set_.politeness, set_.urgency, set_.trust) == ("warm", "low", "trusting")
    with pytest.raises(KeyError):
        EmotionProfile.of("dread", 0.6, urgency="extreme")


def test_only_negative_families_want_an_acknowledgement() -> None:
    wants = {f for f in FAMILIES if EmotionProfile.of(f, 0.9).wants_acknowledgement}
    assert wants == {"anger", "fear", "sadness", "disgust"}
