"""What an ordinary message brings, read from its words: the kind of the opening an answer without a model gets."""

from __future__ import annotations

from pastor.care.needs import need_kind

# Each message and its kind; the first kind in order wins when a message tells of several.
NEEDS = {
    "Estou de luto pela minha mãe": "grief",
    "meu pai faleceu semana passada e estou com medo": "grief",
    "perdi minha esposa e não sei viver sem ela": "grief",
    "minha filha está internada na UTI": "illness",
    "recebi o diagnóstico de câncer hoje": "illness",
    "Estou com medo do futuro": "fear",
    "tenho crises de ansiedade toda noite": "fear",
    "estou muito preocupada com as contas": "fear",
    "pequei de novo e sinto muita culpa": "guilt",
    "tenho vergonha do que fiz": "guilt",
    "me sinto sozinho, ninguém me procura": "sadness",
    "ando muito triste e desanimado": "sadness",
    "meu marido e eu brigamos o tempo todo": "conflict",
    "não consigo perdoar meu irmão": "conflict",
    "estou exausto, cansado de tudo": "tiredness",
    "consegui o emprego, glória a Deus!": "gratitude",
    "o que a Bíblia diz sobre o medo?": "question",
    "quem foi Moisés?": "question",
    "versículos sobre esperança": "question",
    "o que significa graça?": "question",
    "quero crescer na fé": "general",
    "preciso de uma palavra": "general",
    "": "general",
}


def test_each_message_gets_the_kind_of_its_need():
    wrong = {text: need_kind(text) for text, kind in NEEDS.items() if need_kind(text) != kind}
    assert not wrong, wrong
