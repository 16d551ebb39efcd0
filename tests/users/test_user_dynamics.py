import pytest

from tau_sim.users.dynamics import DissatisfactionModel, Signal, signal_of
from tau_sim.users.emotions import EmotionProfile


def model(emotion: str, intensity: float, scale: float = 1.0) -> DissatisfactionModel:
    return DissatisfactionModel(EmotionProfile.of(emotion, intensity), scale)


def turns_until_abandoned(m: DissatisfactionModel, trigger: str, limit: int = 50) -> int:
    for turn in range(1, limit + 1):
        m.apply([trigger])
        if m.abandoned:
            return turn
    return limit + 1


def test_friction_raises_and_progress_lowers() -> None:
    m = model("anger", 0.6)
    assert m.apply(["lookupable_question:order_id"]) > 0
    level = m.dissatisfaction
    intensity = m.intensity
    assert intensity > 0.6
    assert m.apply(["progress"]) < 0
    assert m.dissatisfaction < level
    assert m.intensity < intensity


def test_progress_never_goes_below_zero_and_values_are_clamped() -> None:
    m = model("outrage", 1.0)
    m.apply(["progress"] * 5)
    assert m.dissatisfaction == 0.0
    m.apply(["repeated_question:email"] * 30)
    assert m.dissatisfaction == 1.0
    assert m.intensity == 1.0


def test_high_intensity_crosses_the_threshold_sooner() -> None:
    low = turns_until_abandoned(model("anger", 0.3), "repeated_question:email")
    medium = turns_until_abandoned(model("anger", 0.6), "repeated_question:email")
    high = turns_until_abandoned(model("anger", 0.9), "repeated_question:email")
    assert high < medium < low
    assert model("anger", 0.9).threshold < model("anger", 0.3).threshold


def test_neutral_never_abandons_under_repeated_mild_friction() -> None:
    m = model("neutral", 0.9)
    for _ in range(40):
        m.apply(["lookupable_question:order_id", "no_progress"])
    assert not m.abandoned
    assert m.intensity == 0.9  # neutral has no arousal


def test_emotions_react_to_their_own_kind_of_friction() -> None:
    def rise(emotion: str, trigger: str) -> float:
        return model(emotion, 0.6).apply([trigger])

    assert rise("anger", "repeated_question:x") > rise("sadness", "repeated_question:x")
    assert rise("anger", "repeated_question:x") > rise("fear", "repeated_question:x")
    assert rise("fear", "unclear_question") > rise("anger", "unclear_question")
    assert rise("sadness", "dismissive") > rise("anger", "dismissive")
    assert rise("enjoyment", "repeated_question:x") < rise("disgust", "repeated_question:x")


def test_reason_is_the_dominant_friction() -> None:
    m = model("anger", 0.6)
    assert m.reason == ""
    m.apply(["dismissive", "repeated_question:a", "repeated_question:b"])
    assert m.reason == "procedural friction"
    sad = model("sadness", 0.6)
    sad.apply(["dismissive"])
    assert sad.reason == "emotional neglect"


def test_unknown_triggers_are_ignored_and_deterministic() -> None:
    assert signal_of("repeated_question:email") is Signal.REPEATED_QUESTION
    assert signal_of("question:email") is None
    m = model("fear", 0.6)
    assert m.apply(["question:email", "opening", "transfer"]) == 0.0
    a, b = model("fear", 0.6), model("fear", 0.6)
    seq = ["unclear_question", "progress", "repeated_question:x", "ignored_cue"]
    a.apply(seq)
    b.apply(seq)
    assert (a.dissatisfaction, a.intensity) == (b.dissatisfaction, b.intensity)


def test_threshold_scale() -> None:
    assert model("anger", 0.6, 2.0).threshold == pytest.approx(2 * model("anger", 0.6).threshold)


def leveled(emotion: str, intensity: float = 0.6, scale: float = 1.0, **levels: str):
    return DissatisfactionModel(EmotionProfile.of(emotion, intensity, **levels), scale)


def test_rise_and_threshold_follow_the_documented_formulas() -> None:
    # annoyance: friction 1.3, neglect 0.8, patience 0.9, own urgency moderate, politeness neutral
    m = leveled("annoyance", 0.6, 1.5, urgency="high", politeness="cold", trust="skeptical")
    assert m.friction(Signal.NO_PROGRESS) == pytest.approx(0.06 * 1.3 * (0.3 + 0.6) * 1.8)
    assert m.friction(Signal.DISMISSIVE) == pytest.approx(0.10 * 0.8 * 0.9 * 1.25)
    assert m.friction(Signal.UNBACKED_CLAIM) == pytest.approx(0.10 * 0.7 * 0.9 * 1.0)
    assert m.threshold == pytest.approx(0.90 * (1.2 - 0.7 * 0.6) * 0.8 * 1.5)
    # relative to the leaf's own level: frustration's own urgency is high, so high changes nothing
    own, high = leveled("frustration"), leveled("frustration", urgency="high")
    assert own.threshold == high.threshold
    assert own.friction(Signal.NO_PROGRESS) == high.friction(Signal.NO_PROGRESS)
    rise = high.apply(["no_progress"])
    assert high.intensity == pytest.approx(0.6 + 0.5 * rise)


@pytest.mark.parametrize(
    ("dimension", "mild", "strong", "trigger"),
    [
        ("urgency", "low", "high", "announced_delay"),
        ("urgency", "low", "high", "no_progress"),
        ("politeness", "warm", "cold", "dismissive"),
        ("politeness", "warm", "cold", "ignored_cue"),
        ("trust", "trusting", "skeptical", "unbacked_claim"),
    ],
)
def test_each_level_changes_the_rise(dimension: str, mild: str, strong: str, trigger: str) -> None:
    low = leveled("dread", **{dimension: mild}).apply([trigger])
    high = leveled("dread", **{dimension: strong}).apply([trigger])
    assert high > low >= 0


def test_urgency_lowers_the_threshold_and_neutral_never_abandons() -> None:
    assert leveled("anxiety", urgency="low").threshold > leveled("anxiety").threshold
    assert leveled("nervousness", urgency="high").threshold < leveled("nervousness").threshold
    for urgency in ("low", "moderate", "high"):
        m = leveled("neutral", 1.0, 0.01, urgency=urgency, politeness="cold", trust="skeptical")
        m.apply(["repeated_question:x", "announced_delay", "unbacked_claim", "dismissive"] * 20)
        assert m.dissatisfaction > m.threshold and not m.abandoned
