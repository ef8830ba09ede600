"""The names of the routes a message can take before any search, and of their kinds.

`StrEnum`s, so each name is its own JSON and log value ("crisis", "suicide") and compares equal to it: a
route the trained router reads back from its labels (plain strings) is the same route.
"""

from __future__ import annotations

from enum import StrEnum


class RouteName(StrEnum):
    """Where a message goes (`pastor.care.router.Route.name`)."""

    CRISIS = "crisis"  # the help lines and a few verses first: no search and no model
    CONVERSATIONAL = "conversational"  # greetings, thanks, questions about the assistant: no verses
    OUT_OF_SCOPE = "out_of_scope"  # medical, legal or financial advice: a kind fixed reply
    ORDINARY = "ordinary"  # searched and answered from the verses


class ScopeRoute(StrEnum):
    """The two ordinary routes an author may write: the router takes both for ordinary, and the evidence
    gate's scope classifier tells them apart."""

    PASTORAL = "pastoral"
    OFF_TOPIC = "off_topic"


class CrisisKind(StrEnum):
    """What a crisis is about: it chooses the reply and the help lines (`PASTOR_CRISIS_CONTACTS`' kinds)."""

    SUICIDE = "suicide"
    SELF_HARM = "self_harm"
    VIOLENCE = "violence"
    ABUSE = "abuse"
    OVERDOSE = "overdose"


class AdviceKind(StrEnum):
    """Advice the pastoral scope does not give (an out-of-scope route's kind)."""

    MEDICAL = "medical"
    LEGAL = "legal"
    FINANCIAL = "financial"


class ConversationKind(StrEnum):
    """A conversational route's kind, as the small-talk list and the trained router (whose examples are labelled
    greeting, thanks, farewell, about, clarify) name it; it chooses the reply given without a model."""

    GREETING = "greeting"  # hello, how are you, the peace of the Lord
    THANKS = "thanks"  # thanks, amen, God bless you
    FAREWELL = "farewell"  # goodbye, good night, I have to go
    ACK = "ack"  # ok, got it, laughter
    SMALL_TALK = "small_talk"  # the weather, football, the day
    META = "meta"  # who are you, what?, help me
    CLARIFY = "clarify"  # "não entendi": the previous answer said again, not a search
    ABOUT = "about"  # about the assistant, as the trained router names it


class NeedKind(StrEnum):
    """What an ordinary message brings, read from its words (`pastor.care.needs`): it chooses the warm opening
    of an answer given without a model."""

    GRIEF = "grief"
    ILLNESS = "illness"
    FEAR = "fear"  # fear, anxiety, worry
    GUILT = "guilt"
    SADNESS = "sadness"  # sadness, loneliness, discouragement
    CONFLICT = "conflict"  # family, marriage, anger, forgiving someone
    TIREDNESS = "tiredness"
    GRATITUDE = "gratitude"  # joy, a prayer answered
    QUESTION = "question"  # about the Bible or the faith
    PASSAGE = "passage"  # a passage asked for by its reference
    GENERAL = "general"
