"""What the assistant says in its own words when no model writes: a warm opening that fits the message before the
verses, a reply to conversation, and what it is for when a request is outside it. Fixed Portuguese texts,
several per kind, one chosen from the message itself, so the same message reads the same (tests are stable)
and the same greeting later in a conversation may read otherwise."""

from __future__ import annotations

import zlib

from pastor.care.routes import ConversationKind, NeedKind
from pastor.text.fold import fold

# Before the verses of an answer given without a model, by what the message brings (`care.needs.need_kind`).
OPENINGS: dict[str, tuple[str, ...]] = {
    NeedKind.GRIEF: (
        "Sinto muito pela sua perda. Que Deus console o seu coração neste tempo de dor.",
        "Meus sentimentos. Perder quem a gente ama dói fundo, e você não está só nessa dor.",
        "Sinto muito. O luto é um caminho difícil, e Deus está perto de quem tem o coração partido.",
    ),
    NeedKind.ILLNESS: (
        "Sinto muito por esse tempo de doença. Peço a Deus força e cuidado para você e para quem está ao seu lado.",
        "Que momento difícil. Estou com você em oração, pedindo a Deus alívio e bons cuidados.",
        "Sinto muito. Que Deus dê paz durante o tratamento e sabedoria a quem cuida da saúde de vocês.",
    ),
    NeedKind.FEAR: (
        "Quando o medo aperta, é bom lembrar que você não está só: Deus está com você.",
        "Entendo a sua preocupação. Respire com calma; a Palavra tem promessas de paz para este momento.",
        "Não há vergonha em sentir medo. Deus acolhe quem vem a Ele com o coração inquieto.",
    ),
    NeedKind.GUILT: (
        "Obrigado por se abrir. A graça de Deus é maior do que a nossa culpa, e há perdão para quem se volta a Ele.",
        "Reconhecer o erro já é um passo de coragem. Deus recebe de braços abertos quem se arrepende.",
        "Você não está longe demais de Deus. O perdão dele alcança também este momento.",
    ),
    NeedKind.SADNESS: (
        "Sinto muito que você esteja passando por isso. Você não está só: Deus vê as suas lágrimas.",
        "Obrigado por me contar como você está. Deus está perto de quem tem o coração ferido.",
        "Que bom que você escreveu. Mesmo nos dias escuros, Deus continua ao seu lado.",
    ),
    NeedKind.CONFLICT: (
        "Relacionamentos feridos doem muito. Que Deus traga paz e sabedoria para essa situação.",
        "Sinto muito por esse conflito. Peço a Deus serenidade para você e para quem está envolvido.",
        "Situações assim pesam no coração. A Palavra tem luz para os relacionamentos e para o perdão.",
    ),
    NeedKind.TIREDNESS: (
        "Que cansaço pesado. Jesus convida quem está cansado a encontrar descanso nele.",
        "Você tem carregado muita coisa. Que Deus renove as suas forças.",
        "Descansar também é um cuidado de Deus. Receba estas palavras com calma.",
    ),
    NeedKind.GRATITUDE: (
        "Que alegria! Glória a Deus por isso.",
        "Que notícia boa! Vamos agradecer juntos a Deus.",
        "Fico feliz com você! Deus é fiel.",
    ),
    NeedKind.QUESTION: (
        "Boa pergunta. Vamos ver juntos o que a Palavra diz.",
        "Obrigado pela pergunta. Estes trechos da Bíblia ajudam a pensar nela.",
        "Que bom buscar a resposta na Palavra.",
    ),
    NeedKind.PASSAGE: (
        "Aqui está a passagem que você pediu.",
        "Eis o texto que você pediu.",
        "Aqui está o trecho da Bíblia que você pediu.",
    ),
    NeedKind.GENERAL: (
        "Obrigado por compartilhar isso comigo. Estou aqui com você.",
        "Que bom que você escreveu. Deus se importa com o que você está vivendo.",
        "Estou aqui para ouvir e caminhar com você.",
    ),
}

# What the assistant says about itself, and asks when it was not understood: also the model's guide for "quem é
# você?" (`answer.prompts`).
SELF_DESCRIPTION = (
    "Olá! Eu sou o Pastor Online, um assistente de aconselhamento pastoral em português. Você "
    "pode me contar o que está vivendo ou perguntar sobre um tema da fé, e eu respondo com "
    "versículos da Bíblia, sempre citando a referência. Não substituo seu pastor, um médico ou um "
    "psicólogo, mas estou aqui para ouvir e refletir com você. O que está no seu coração hoje?"
)
NOT_UNDERSTOOD = (
    "Desculpe se não fui claro. Me diga qual parte ficou confusa, ou conte com outras palavras o "
    "que você procura, e eu tento de novo com você."
)

# The whole reply to conversation when no model writes, by the route's kind.
CONVERSATION: dict[str, tuple[str, ...]] = {
    ConversationKind.GREETING: (
        "Olá! Que bom ter você aqui. Como você está hoje? Pode me contar o que está no seu coração ou pedir "
        "uma passagem da Bíblia (por exemplo, Salmos 23).",
        "Oi! A paz do Senhor. Estou aqui para conversar com você: me conte como você está ou o que gostaria "
        "de ler na Palavra.",
        "Olá! Fico feliz com a sua visita. Se quiser, me conte o que está vivendo, e buscamos juntos uma "
        "palavra da Bíblia.",
    ),
    ConversationKind.THANKS: (
        "De nada! Fico feliz em caminhar com você. Se quiser continuar conversando, estou aqui.",
        "Amém! Que Deus abençoe você também. Quando quiser, é só escrever.",
        "Eu que agradeço pela confiança. Estou aqui sempre que precisar.",
    ),
    ConversationKind.FAREWELL: (
        "Vá em paz! Que Deus guarde você. Quando quiser conversar de novo, estou aqui.",
        "Até logo! Fique com Deus.",
        "Que Deus abençoe o seu caminho. Volte quando quiser.",
    ),
    ConversationKind.ACK: (
        "Combinado! Se quiser conversar mais sobre algo, é só escrever.",
        "Certo! Quando quiser, me conte como você está ou peça uma passagem.",
        "Que bom! Estou aqui se quiser continuar.",
    ),
    ConversationKind.SMALL_TALK: (
        "Que bom conversar com você! E por dentro, como você está hoje? Se algo pesar no coração, é só contar.",
        "Gosto de saber do seu dia. Se quiser, posso orar com você ou trazer uma palavra da Bíblia.",
        "Obrigado por puxar conversa! Estou aqui para ouvir; me conte como você está de verdade.",
    ),
    ConversationKind.META: (SELF_DESCRIPTION,),
    ConversationKind.ABOUT: (SELF_DESCRIPTION,),
    ConversationKind.CLARIFY: (NOT_UNDERSTOOD,),
}

# A request for something else (a recipe, a score, a sum): what the assistant is for, and what it can do.
OFF_TOPIC: tuple[str, ...] = (
    "Sou um assistente pastoral: converso sobre a fé, a Bíblia e o que você está vivendo, e esse assunto "
    "fica fora do que sei fazer. Posso ouvir você, orar com você ou trazer uma palavra das Escrituras; "
    "se quiser, me conte como você está.",
    "Nisso eu não consigo ajudar: sou um assistente pastoral. Mas posso conversar sobre o que está no seu "
    "coração, orar com você ou procurar uma passagem da Bíblia para o seu momento.",
)


def pick(texts: tuple[str, ...], message: str, turn: int = 0) -> str:
    """One of `texts`, chosen by the message (and how many the person wrote before it): the same in every
    process, unlike `hash`, so a test and a reader see the same text for the same message."""
    key = f"{turn}|{' '.join(fold(message or '').lower().split())}"
    return texts[zlib.crc32(key.encode("utf-8")) % len(texts)]


def opening(kind: str, message: str, turn: int = 0) -> str:
    """The warm opening before the verses, by the message's kind (the general one for a kind without its own)."""
    return pick(OPENINGS.get(kind, OPENINGS[NeedKind.GENERAL]), message, turn)


def conversation_reply(kind: str, message: str, turn: int = 0) -> str:
    """The reply to conversation without a model, by its kind (a kind without its own: the greeting's)."""
    return pick(CONVERSATION.get(kind, CONVERSATION[ConversationKind.GREETING]), message, turn)


def off_topic_reply(message: str, turn: int = 0) -> str:
    return pick(OFF_TOPIC, message, turn)
