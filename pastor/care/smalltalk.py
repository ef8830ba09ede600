"""Conversation that needs no verses: greetings, thanks, laughter, and questions about the assistant."""

from __future__ import annotations

import re

from pastor.care.chat_spelling import NOT_FOR_SMALLTALK, respell, spellings_for
from pastor.care.routes import ConversationKind
from pastor.text.fold import fold_words

# Meaning, not spelling: `ia` and `bot` are the assistant, `oii` is `oi`.
_ALIASES = {"oii": "oi", "oiii": "oi", "oie": "oi", "bot": "robo", "ia": "robo"}
_SPELLINGS = {**spellings_for(NOT_FOR_SMALLTALK), **_ALIASES}


# Greetings, thanks, farewells and acknowledgements.
_GREETINGS = (
    "oi",
    "ola",
    "opa",
    "eai",
    "e ai",
    "salve",
    "bom dia",
    "boa tarde",
    "boa noite",
    "tudo bem",
    "tudo bom",
    "tudo certo",
    "como tem passado",
    "como tem andado",
    "tudo tranquilo",
    "tudo joia",
    "joia",
    "beleza",
    "como vai",
    "como vai voce",
    "como voce esta",
    "como esta",
    "a paz do senhor",
    "paz do senhor",
    "graca e paz",
    "a paz",
    "obrigado",
    "obrigada",
    "obrigadao",
    "muito obrigado",
    "muito obrigada",
    "brigado",
    "brigada",
    "valeu",
    "gratidao",
    "agradeco",
    "amem",
    "tchau",
    "ate logo",
    "ate mais",
    "ate amanha",
    "deus te abencoe",
    "deus abencoe",
    "deus o abencoe",
    "deus lhe abencoe",
    "fica com deus",
    "fique com deus",
    "que deus te abencoe",
    "boa semana",
    "bom descanso",
    "de coracao",
    "ok",
    "okay",
    "certo",
    "entendi",
    "legal",
    "show",
    "massa",
    "top",
    "perfeito",
    "que bom",
    "ajudou muito",
    "ajudou",
    "me ajudou",
    "foi otimo",
    "boa",
    "teste",
    "testando",
    # farewells as people type them
    "tenho que ir",
    "tenho de ir",
    "preciso ir",
    "preciso sair",
    "ja vou",
    "vou indo",
    "vou nessa",
    "fui",
    "falou",
    "ate depois",
    "ate a proxima",
    "ate breve",
    "depois eu volto",
    "depois volto",
    "volto depois",
    "volto mais tarde",
    "depois a gente conversa",
    "depois converso",
    "boa noite a todos",
    "adeus",
    # back again, as Brazil and Portugal say it
    "voltei",
    "estou de volta",
    "to de volta",
    "estou ca outra vez",
    "estou ca de novo",
    "estou aqui de novo",
)
# Questions about the assistant, requests for help with nothing in them yet, and "what?".
_META = (
    r"quem e (?:voce|o senhor|a senhora)",
    r"quem (?:e que )?(?:esta )?(?:falando|ai|fala)",
    r"(?:pra|para) (?:que|o que) serve (?:isso|isso aqui|esse chat|este chat|esse site|este site|voce|o site|o chat)",
    r"voce responde (?:qualquer coisa|tudo|perguntas|qualquer pergunta)",
    r"(?:pode |poderia |consegue )?(?:me )?explica(?:r)?(?: isso)? (?:de novo|melhor|de outro jeito|de outra forma|"
    r"com outras palavras|mais simples|de um jeito mais simples)",
    r"nao entendi (?:sua resposta|a resposta|o que voce (?:disse|falou|quis dizer))",
    r"o que (?:e que )?voce quis dizer(?: com isso)?",
    r"nao percebi(?: nada| bem| a resposta)?",
    r"o que (?:e )?(?:que )?voce (?:faz|sabe fazer|pode fazer|consegue fazer|e)",
    r"voce e (?:um |uma |o |a )?(?:robo|humano|humana|pessoa(?: de verdade| real)?|maquina|programa|"
    r"inteligencia artificial|chatbot|chat|(?:pastor|padre|pastora|freira)(?: de verdade| mesmo| real)?|"
    r"de verdade|real)",
    r"(?:qual (?:e )?(?:o )?)?(?:seu|teu) nome",
    r"como (?:e )?(?:que )?(?:voce )?(?:funciona|trabalha)",
    r"como (?:e )?(?:que )?funciona (?:isso|isso aqui|aqui|o site|esse site|este site|o app|esse app|esse chat)",
    r"como (?:eu )?(?:posso |faco pra |faco para )?usar (?:isso|isso aqui|o site|esse site|este site|o app|esse app)",
    r"quem (?:te )?(?:criou|fez|programou|desenvolveu)(?: voce| isso)?",
    r"o que (?:eu )?(?:posso|devo) (?:te |lhe )?(?:perguntar|falar|escrever|pedir)",
    r"(?:voce e )?de (?:qual|que) igreja(?: voce e)?",
    r"voce (?:fala|entende|sabe) (?:ingles|espanhol|portugues)",
    r"voce (?:me )?(?:entende|escuta|ouve)",
    r"(?:tem )?alguem (?:ai|aqui)",
    r"(?:voce )?(?:esta|ta) ai",
    r"(?:voce )?(?:pode|poderia|consegue) me ajudar",
    r"preciso de (?:uma )?ajuda",
    r"me ajud[ae]",
    r"ajuda",
    r"socorro pastor",
    r"nao entendi(?: nada| direito| bem)?",
    r"como assim",
    r"pode repetir",
    r"repete",
    r"hein",
    r"que",
    r"o que",
    r"nao sei o que (?:perguntar|falar|escrever)",
    r"(?:eu )?(?:posso|poderia) (?:te |lhe )?(?:fazer|perguntar) (?:uma|umas) (?:pergunta|perguntas|coisa|coisinha)",
)
# Laughter: kkkk, hahaha, rsrs, hehe, huehue.
_LAUGHTER = r"k{2,}|(?:a?ha|he|hi|hue|hua|rs)(?:ha|he|hi|hue|hua|rs)+h?|lol"
_FILLERS = (
    "pastor",
    "pastora",
    "irmao",
    "irma",
    "querido",
    "querida",
    "amigo",
    "amiga",
    "e",
    "voce",
    "tambem",
    "mesmo",
    "muito",
    "sim",
    "pela",
    "pelas",
    "pelo",
    "palavras",
    "resposta",
    "ajuda",
    "por",
    "tudo",
    "a",
    "o",
    "ai",
    "aqui",
    "entao",
    "hoje",
    "ne",
    "viu",
    "bem",
    "agora",
    "senhor",
    "mais",
    "isso",
    "hmm",
    "hum",
    "uhm",
    "ah",
    "com",
    "senhora",
    "palavra",
    "mensagem",
    "linda",
    "abencoada",
)

_TALK = tuple(re.compile(r"(?:" + p + r")\b") for p in [re.escape(g) for g in _GREETINGS] + [_LAUGHTER])
_ASK = tuple(re.compile(r"(?:" + p + r")\b") for p in _META)
_FILLER = re.compile(r"(?:" + "|".join(re.escape(f) for f in _FILLERS) + r")\b")


def _spelled(text: str) -> str:
    return respell(fold_words(text or ""), _SPELLINGS)


def _longest(patterns, text: str, pos: int) -> int:
    ends = [m.end() for p in patterns for m in [p.match(text, pos)] if m]
    return max(ends, default=pos)


def conversational_kind(text: str) -> ConversationKind | None:
    """`greeting` (hello, thanks, laughter, ok), `meta` (who are you, what? help me) or None when
    the message holds anything else, which is then a real question for the search."""
    normal = _spelled(text)
    if not normal or len(normal) > 80:
        return None
    pos, kind = 0, None
    while pos < len(normal):
        ask, talk = _longest(_ASK, normal, pos), _longest(_TALK, normal, pos)
        filler = _FILLER.match(normal, pos)
        filler_end = filler.end() if filler else pos
        end = max(ask, talk, filler_end)
        if end == pos:
            return None
        if end > filler_end:  # a filler alone (`ajuda`, `pastor`) is no conversation
            kind = ConversationKind.META if ask == end else kind or ConversationKind.GREETING
        pos = end
        while pos < len(normal) and normal[pos] == " ":
            pos += 1
    return kind


def is_conversational(text: str) -> bool:
    """Whether the whole message is conversation the assistant answers without sources."""
    return conversational_kind(text) is not None


def is_greeting_or_thanks(text: str) -> bool:
    """Whether the whole message is only a greeting, thanks, laughter or a farewell."""
    return conversational_kind(text) == ConversationKind.GREETING
