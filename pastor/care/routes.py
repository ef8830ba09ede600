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
    """A conversational route's kind. The small-talk list gives `greeting` and `meta`; the trained router
    gives the kinds its examples are labelled with (greeting, thanks, farewell, about, clarify…)."""

    GREETING = "greeting"  # hello, thanks, laughter, ok, a farewell
    META = "meta"  # who are you, what?, help me
    CLARIFY = "clarify"  # "não entendi": the previous answer said again, not a search
    ABOUT = "about"  # about the assistant, as the trained router names it
