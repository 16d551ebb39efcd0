"""Condition vocabulary: dimension levels on the command line and task files' emotion profiles."""

from pathlib import Path

import msgspec
import pytest

import tau_sim.users.emotions  # noqa: F401  (registers the taxonomy)
from tau_sim.simulator.core.conditions import EmotionSpec, parse_levels, validate_emotion_spec
from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.world.domain import load_tasks
from tests.simulator.toy import toy_domain


def test_parse_levels() -> None:
    assert parse_levels("politeness", None) == [None]
    assert parse_levels("politeness", "cold, Warm,default,cold") == ["cold", "warm", None]
    with pytest.raises(UsageError, match=r"^--urgency: unknown urgency level 'asap' \(use low"):
        parse_levels("urgency", "high,asap")
    with pytest.raises(UsageError, match="--trust: give at least one"):
        parse_levels("trust", " , ")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (EmotionSpec(family="fear", leaf="frustration"), "belongs to family 'anger', not 'fear'"),
        (EmotionSpec(family="fear", leaf="irritation"), "belongs to family 'anger', not 'fear'"),
        (
            EmotionSpec(family="frustration"),
            "emotion.family 'frustration' is not an emotion family",
        ),
        (EmotionSpec(leaf="hunger"), "emotion.leaf 'hunger' is not an emotion"),
        (EmotionSpec(intensity=1.5), "emotion.intensity 1.5 is outside 0..1"),
        (EmotionSpec(politeness="rude"), "emotion.politeness: unknown politeness level 'rude'"),
    ],
)
def test_bad_spec_is_one_line_naming_where(spec: EmotionSpec, message: str) -> None:
    with pytest.raises(UsageError) as info:
        validate_emotion_spec(spec, "f.jsonl:4")
    text = str(info.value)
    assert text.startswith("f.jsonl:4: ") and message in text and "\n" not in text


def test_good_spec_resolves_aliases() -> None:
    spec = EmotionSpec(family="anger", leaf="Irritation", intensity=0.9, urgency="high")
    assert validate_emotion_spec(spec, "x") == msgspec.structs.replace(spec, leaf="annoyance")
    assert validate_emotion_spec(EmotionSpec(), "x") == EmotionSpec()


def test_load_tasks_reads_and_checks_the_emotion(tmp_path: Path) -> None:
    task = toy_domain().tasks[0]
    with_emotion = msgspec.structs.replace(
        task, id="toy-8", emotion=EmotionSpec(family="fear", leaf="panic", trust="skeptical")
    )
    path = tmp_path / "t.jsonl"
    path.write_bytes(msgspec.json.encode(task) + b"\n" + msgspec.json.encode(with_emotion))
    plain, profiled = load_tasks(path)
    assert plain.emotion is None
    assert profiled.emotion == EmotionSpec(family="fear", leaf="desperation", trust="skeptical")
    bad = msgspec.structs.replace(with_emotion, id="toy-9", emotion=EmotionSpec(family="joy"))
    path.write_bytes(msgspec.json.encode(task) + b"\n" + msgspec.json.encode(bad))
    with pytest.raises(UsageError, match=rf"^{path}:2: emotion.family 'joy'"):
        load_tasks(path)
