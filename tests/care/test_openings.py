"""The assistant's own words when no model writes: an opening for every kind the router gives, a reply to every
kind of conversation, several texts where a message comes back often, chosen the same way for the same message."""

from __future__ import annotations

from pastor.care.openings import CONVERSATION, OFF_TOPIC, OPENINGS, conversation_reply, opening, pick
from pastor.care.routes import ConversationKind, NeedKind, RouteName
from pastor.care.semantic import training_examples

# Messages people send again and again: several texts each, so a conversation does not repeat itself.
OFTEN = (*NeedKind, ConversationKind.GREETING, ConversationKind.THANKS, ConversationKind.FAREWELL)


def test_every_kind_the_router_gives_has_its_texts():
    """The rules' kinds and the trained router's labels (its examples' kinds), each with its own texts."""
    trained = {e.kind for e in training_examples() if e.route == RouteName.CONVERSATIONAL}
    missing = [k for k in NeedKind if k not in OPENINGS] + [
        k for k in {*ConversationKind, *trained} if k not in CONVERSATION
    ]
    assert not missing, missing
    few = [kind for kind in OFTEN if len({**OPENINGS, **CONVERSATION}[kind]) < 3]
    assert not few and len(OFF_TOPIC) >= 2, few


def test_the_same_message_reads_the_same_and_messages_spread_over_the_texts():
    assert opening("grief", "minha mãe morreu") == opening("grief", "Minha  mãe morreu")  # folded, spaces
    chosen = {opening("grief", f"mensagem {n}") for n in range(30)}
    assert chosen == set(OPENINGS["grief"])
    assert len({pick(OFF_TOPIC, "receita de bolo", turn) for turn in range(10)}) == len(OFF_TOPIC)


def test_a_kind_without_its_own_texts_reads_the_general_ones():
    assert opening("unknown", "x") in OPENINGS[NeedKind.GENERAL]
    assert conversation_reply("unknown", "x") in CONVERSATION[ConversationKind.GREETING]
