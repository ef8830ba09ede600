"""Conversation that needs no verses: greetings, thanks, laughter, and questions about the assistant."""

from __future__ import annotations

import re

from pastor.care.chat_spelling import NOT_FOR_SMALLTALK, respell, spellings_for
from pastor.care.needs import need_kind
from pastor.care.routes import ConversationKind, NeedKind
from pastor.text.fold import fold_words

# Meaning, not spelling: `ia` and `bot` are the assistant, `oii` is `oi`.
_ALIASES = {"oii": "oi", "oiii": "oi", "oie": "oi", "bot": "robo", "ia": "robo"}
_SPELLINGS = {**spellings_for(NOT_FOR_SMALLTALK), **_ALIASES}


# Greetings, thanks, farewells and acknowledgements, each group its kind of reply (`care.openings.CONVERSATION`).
_HELLO = (
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
    # back again, as Brazil and Portugal say it
    "voltei",
    "estou de volta",
    "to de volta",
    "estou ca outra vez",
    "estou ca de novo",
    "estou aqui de novo",
)
_THANKS = (
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
    "deus te abencoe",
    "deus abencoe",
    "deus o abencoe",
    "deus lhe abencoe",
    "que deus te abencoe",
    "de coracao",
    "ajudou muito",
    "ajudou",
    "me ajudou",
    "foi otimo",
)
_FAREWELLS = (
    "tchau",
    "ate logo",
    "ate mais",
    "ate amanha",
    "fica com deus",
    "fique com deus",
    "boa semana",
    "bom descanso",
    # farewells as people type them
    "tenho que ir",
    "tenho de ir",
    "preciso ir",
    "preciso sair",
    "ja vou",
    "vou indo",
    "vou nessa",
    "vou dormir",
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
)
_ACKS = (
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
    "boa",
    "teste",
    "testando",
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
    # how people address each other in chat ("vlw mano"), and an apology before "não percebi"
    "mano",
    "mana",
    "cara",
    "brother",
    "bro",
    "parceiro",
    "meu",
    "minha",
    "desculpe",
    "desculpa",
    "foi mal",
)

# The weather, football and the day, told in passing ("que calor hoje", "viu o jogo ontem?"): conversation when
# the message is short, asks no fact (who won, what time, the forecast: off-topic requests the search refuses
# kindly) and tells no need (`care.needs`: "o jogo acabou e eu fiquei triste" is searched).
_SMALL_TALK = re.compile(
    r"\b(?:calor(?:ao)?|frio|friozinho|chuva|chuvarada|chovendo|choveu|chover|garoa|sol|solzao|nublado|ventania|"
    r"neve|nevando|temperatura|que\s+tempo|clima|dia\s+(?:lindo|bonito|feio|quente|frio|chuvoso|corrido|"
    r"puxado|cheio|longo|tranquilo|bom|otimo)|futebol|jogo|jogao|partida|gol|golaco|campeonato|brasileirao|"
    r"libertadores|copa|selecao|classico|torcida|torco|torcer|meu\s+time|seu\s+time|flamengo|fluminense|"
    r"corinthians|palmeiras|vasco|botafogo|gremio|cruzeiro|benfica|sporting|sextou|fim\s+de\s+semana|fds|"
    r"feriado|meu\s+dia|seu\s+dia|hoje\s+foi|almocei|almoco|jantei)\b"
)
_ASKS_A_FACT = re.compile(
    r"^(?:quem|qual|quais|quanto|quantos|quantas|que\s+horas|onde|quando|como|o\s+que|por\s*que)\b|"
    r"\b(?:previsao|resultado|placar|tabela|horario|escalacao)\w*"
)
# Gambling, debt or harm beside the game or the day ("jogo no cassino e estou perdendo tudo", "se perder de
# novo atiro-me ao rio") is never small talk, however it is joked: the search and the crisis checks read it.
_NOT_IN_PASSING = re.compile(
    r"\b(?:cassino|jogatina|jogo\s+do\s+bicho|caca\s*niquel|apost\w*|bet|vici\w*|divid\w*|devendo|"
    r"perd(?:endo|i)\s+tudo|atir\w*|me\s+(?:atiro|jogo|mato)|matar|morrer|sumir|pular|suicid\w*|enforc\w*)\b"
)
SMALL_TALK_WORDS = 12


def small_talk(text: str) -> bool:
    """Whether the message is small talk about the weather, football or the day, and nothing more."""
    normal = _spelled(text)
    return (
        0 < len(normal.split()) <= SMALL_TALK_WORDS
        and bool(_SMALL_TALK.search(normal))
        and not _ASKS_A_FACT.search(normal.strip())
        and not _NOT_IN_PASSING.search(normal)
        and need_kind(text) in (NeedKind.GENERAL, NeedKind.GRATITUDE)
    )


# Each group of talk and its kind; a message of several keeps the first kind in this order that it has
# ("obrigado, tchau" is a farewell, "ok, obrigado" thanks). Laughter is an acknowledgement.
_TALK_KINDS = (
    (ConversationKind.FAREWELL, _FAREWELLS),
    (ConversationKind.THANKS, _THANKS),
    (ConversationKind.GREETING, _HELLO),
    (ConversationKind.ACK, _ACKS),
)
_TALK = tuple(
    (kind, tuple(re.compile(r"(?:" + re.escape(p) + r")\b") for p in phrases)) for kind, phrases in _TALK_KINDS
) + ((ConversationKind.ACK, (re.compile(r"(?:" + _LAUGHTER + r")\b"),)),)
_RANK = [kind for kind, _ in _TALK_KINDS]
_ASK = tuple(re.compile(r"(?:" + p + r")\b") for p in _META)
_FILLER = re.compile(r"(?:" + "|".join(re.escape(f) for f in _FILLERS) + r")\b")
# The kinds that are only talk: hello, thanks, a farewell, ok, laughter, the weather (not a question to answer).
TALK_ONLY = frozenset({*_RANK, ConversationKind.SMALL_TALK})


def _spelled(text: str) -> str:
    return respell(fold_words(text or ""), _SPELLINGS)


def _longest(patterns, text: str, pos: int) -> int:
    ends = [m.end() for p in patterns for m in [p.match(text, pos)] if m]
    return max(ends, default=pos)


def _talk_at(normal: str, pos: int) -> tuple[int, ConversationKind | None]:
    """Where the longest piece of talk starting at `pos` ends, and its kind (None when there is none)."""
    end, found = pos, None
    for kind, patterns in _TALK:
        longest = _longest(patterns, normal, pos)
        if longest > end:
            end, found = longest, kind
    return end, found


def _merged(kind: ConversationKind | None, talk: ConversationKind) -> ConversationKind:
    if kind is None or kind == ConversationKind.META:
        return kind or talk
    return min(kind, talk, key=_RANK.index)


def conversational_kind(text: str) -> ConversationKind | None:
    """`greeting`, `thanks`, `farewell` or `ack` (ok, laughter), `meta` (who are you, what? help me), `small_talk`
    (the weather, football, the day), or None when the message holds anything else, which is then a real
    question for the search."""
    normal = _spelled(text)
    if not normal or len(normal) > 80:
        return None
    pos, kind = 0, None
    while pos < len(normal):
        ask = _longest(_ASK, normal, pos)
        talk, talk_kind = _talk_at(normal, pos)
        filler = _FILLER.match(normal, pos)
        filler_end = filler.end() if filler else pos
        end = max(ask, talk, filler_end)
        if end == pos:
            return ConversationKind.SMALL_TALK if small_talk(text) else None
        if end > filler_end:  # a filler alone (`ajuda`, `pastor`) is no conversation
            kind = ConversationKind.META if ask == end else _merged(kind, talk_kind or ConversationKind.ACK)
        pos = end
        while pos < len(normal) and normal[pos] == " ":
            pos += 1
    return kind


def is_conversational(text: str) -> bool:
    """Whether the whole message is conversation the assistant answers without sources."""
    return conversational_kind(text) is not None


def is_greeting_or_thanks(text: str) -> bool:
    """Whether the whole message is only talk: a greeting, thanks, laughter, a farewell or small talk."""
    return conversational_kind(text) in TALK_ONLY
