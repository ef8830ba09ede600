"""Crisis phrases in Portuguese, by kind: what the person says about themself, and topic words."""

from __future__ import annotations

import re

from pastor.care.chat_spelling import NOT_FOR_CRISIS, spellings_for
from pastor.care.routes import CrisisKind

# Words that put the person in the sentence. Topic words alone (`suicídio`, `overdose`,
# `violência doméstica`) only count with one of these: "o que a Bíblia diz sobre suicídio?"
# is a question about the topic, answered gently by the normal flow (see tests).
_FIRST_PERSON = re.compile(
    r"\b(eu|me|mim|meu|minha|meus|minhas|comigo|estou|to|tou|sinto|sofro|sofri|sofrendo|tenho|tive|"
    r"tomei|penso|pensei|pensando|quero|vou|estava|fui|sou|ando|tentei)\b"
)
# For suicide only the person's own present state counts: "meu irmão cometeu suicídio" is grief.
_OWN_STATE = re.compile(
    r"\b(estou|to|tou|sinto|penso|pensei|pensando|quero|queria|vou|ando|tentei|tento|planejo|tenho\s+medo|"
    r"tenho\s+vontade|me\s+sinto)\b"
)

# A negation right before a wish: "não quero morrer" is not a wish to die.
_NOT = r"(?<!nao )(?<!nunca )"
_ME_KILL = r"(?:me\s+matar|matar\s+me|me\s+suicidar|suicidar\s+me|cometer\s+suicidio)"
_LIVE = r"(?:viver|continuar\s+vivendo|continuar\s+vivo|continuar\s+viva)"
_REASON = r"(?:razao|motivo|sentido|porque)"
_PERPETRATOR = (
    r"(?:marido|esposo|esposa|mulher|namorado|namorada|noivo|noiva|companheiro|companheira|"
    r"pai|mae|padrasto|madrasta|irmao|irma|tio|tia|avo|primo|prima|chefe|patrao|ex|filho|filha|"
    r"sogro|sogra|vizinho|pastor|lider)"
)
_HARM_VERB = (
    r"(?:bate|batia|bateu|agride|agredia|agrediu|espanca|espancava|espancou|violenta|violentou|"
    r"estupra|estuprou|abusa|abusava|abusou|machuca|machucava|machucou|ameaca|ameacou|"
    r"enforca|enforcou|empurra|empurrou|tranca|trancou|forca|forcou)"
)
_PILLS = r"(?:comprimidos|remedios|pilulas|calmantes|capsulas|medicamentos|remedio|comprimido)"
_DRUGS = (
    r"(?:diazepam|rivotril|clonazepam|fluoxetina|sertralina|paracetamol|dipirona|tylenol|zolpidem|"
    r"amitriptilina|litio|lorazepam|alprazolam|frontal|quetiapina|insulina|tarja\s+preta)"
)
_POISONS = r"(?:chumbinho|veneno|raticida|formicida|inseticida|agua\s+sanitaria|soda\s+caustica|alvejante|desinfetante)"
_MEANS = (
    r"(?:comprimidos|remedios|pilulas|calmantes|veneno|chumbinho|corda|arma|revolver|faca|gilete|lamina|"
    r"navalha)"
)

# Someone else doing it ("quando ele me ferir", "ele vai me matar") is not self-harm: abuse patterns see it.
_BY_OTHERS = (
    "(?<!ele )(?<!ela )(?<!eles )(?<!elas )(?<!voce )(?<!alguem )(?<!vai )(?<!vao )(?<!quer )(?<!querem )(?<!tentou )"
)
# "Meu irmão me ameaçou de processo" is a quarrel, not violence.
_NOT_LEGAL = r"(?!\s+(?:de\s+)?(?:processo|processar|na\s+justica|demissao|demitir|mandar\s+embora|denunciar))"

# Phrases that are about the person themself: they count on their own.
_PERSONAL: tuple[tuple[str, str], ...] = (
    # "parece que vou morrer" (panic) and "sei que vou morrer" (illness) are fear, not a wish.
    (
        CrisisKind.SUICIDE,
        _NOT + r"(?<!parece que )(?<!sei que )(?<!sinto que )\b(?:quero|queria|vou|vontade\s+de|desejo\s+de|"
        r"prefiro|preferia)\s+morrer\b"
        r"(?!\s+de\s+(?:tanto\s+)?(?:rir|vergonha|saudade|fome|sede|calor|frio|tedio|medo|sono|amor)|\s+(?:velh|em\s+paz|ao\s+lado))",
    ),
    (
        CrisisKind.SUICIDE,
        _NOT + r"\b(?:quero|queria|vou|penso\s+em|pensei\s+em|pensando\s+em|vontade\s+de|"
        r"tentei|tentar|decidi|planejando|planejo)\s+(?:me\s+)?" + _ME_KILL,
    ),
    (
        CrisisKind.SUICIDE,
        _NOT + r"\b(?:vou|quero|posso|vontade\s+de)\s+me\s+(?:matar|enforcar|jogar\s+(?:da|de|do|na))\b",
    ),
    (CrisisKind.SUICIDE, r"\bnao\s+(?:aguento|suporto|quero|consigo)\s+mais\s+" + _LIVE + r"\b"),
    (CrisisKind.SUICIDE, r"\bnao\s+(?:quero|queria)\s+(?:mais\s+)?(?:viver|existir|acordar)\b"),
    (CrisisKind.SUICIDE, r"\b(?:cansei|cansado|cansada)\s+de\s+viver\b"),
    (
        CrisisKind.SUICIDE,
        r"\b(?:sem|nenhum|nenhuma|nao\s+tenho|perdi\s+a|perdi\s+o)\s+(?:mais\s+)?(?:uma\s+)?"
        + _REASON
        + r"\s+(?:para|pra|de)\s+viver\b",
    ),
    (CrisisKind.SUICIDE, r"\bnao\s+vale\s+(?:mais\s+)?a\s+pena\s+viver\b"),
    (
        CrisisKind.SUICIDE,
        r"\b(?:tirar|acabar\s+com|por\s+fim\s+(?:a|na|em)|dar\s+fim\s+(?:a|na|em))\s+(?:a\s+)?"
        r"minha\s+(?:propria\s+)?vida\b",
    ),
    (CrisisKind.SUICIDE, r"\bacabar\s+com\s+tudo\b"),
    (CrisisKind.SUICIDE, r"\b(?:pensamentos?|ideias?|ideacao)\s+suicidas?\b"),
    (CrisisKind.SUICIDE, r"\b(?:estou|to|me\s+sinto|ando)\s+suicida\b"),
    (CrisisKind.SUICIDE, r"\b(?:melhor|preferia)\s+(?:eu\s+)?(?:nem|nao)\s+ter\s+nascido\b"),
    (
        CrisisKind.SUICIDE,
        r"\b(?:queria|quero)\s+(?:nao\s+ter\s+nascido|sumir\s+para\s+sempre|desaparecer\s+para\s+sempre)\b",
    ),
    # Indirect: wishing to vanish or sleep for ever, feeling a burden, saying goodbye, no way out.
    (CrisisKind.SUICIDE, r"\b(?:quero|queria|vou|prefiro|preferia)\s+(?:dormir|apagar)\s+(?:pra|para)\s+sempre\b"),
    (CrisisKind.SUICIDE, r"\bdormir\s+e\s+(?:nunca\s+mais|nao)\s+(?:mais\s+)?acordar\b"),
    (
        CrisisKind.SUICIDE,
        r"\b(?:fechar\s+os\s+olhos|deitar)\s+e\s+(?:nunca\s+mais|nao)\s+(?:mais\s+)?(?:abrir|acordar|levantar)\b",
    ),
    (
        CrisisKind.SUICIDE,
        _NOT + r"\b(?:melhor|quero|queria|vou|preciso|vontade\s+de)\s+(?:eu\s+)?(?:sumir|desaparecer)\b"
        r"(?!\s+(?:de\s+vergonha|um\s+pouco|por\s+(?:um|uns|alguns)|daqui|do\s+mapa\s+de\s+vergonha))",
    ),
    (
        CrisisKind.SUICIDE,
        r"\bse\s+eu\s+(?:morrer|morresse|sumir|sumisse|nao\s+existisse|nao\s+estivesse\s+(?:mais\s+)?aqui|"
        r"desaparecer|desaparecesse|me\s+matar|me\s+matasse)\b",
    ),
    (CrisisKind.SUICIDE, r"\b(?:sou|me\s+sinto|sentindo|virei)\s+(?:so\s+)?(?:um\s+)?(?:peso|fardo|estorvo)\b"),
    (
        CrisisKind.SUICIDE,
        r"\bnao\s+vejo\s+(?:mais\s+)?(?:nenhuma?\s+)?(?:saida|futuro|esperanca|razao|sentido)"
        r"(?!\s+(?:para|pra|no|na|em|nesse|nessa|neste|nesta)\s+(?!nada|mim|minha\s+vida))",
    ),
    (CrisisKind.SUICIDE, r"\bacabou\s+(?:pra|para)\s+mim\b"),
    (CrisisKind.SUICIDE, r"\b(?:pensando\s+em|penso\s+em|vou|quero)\s+tentar\s+(?:de\s+novo|outra\s+vez|novamente)\b"),
    (
        CrisisKind.SUICIDE,
        r"\b(?:vou|quero|queria|decidi|hoje)\s+(?:dar|por)\s+(?:um\s+)?fim\s+(?:a|em|n)?\s*(?:isso|tudo|nisso|"
        r"minha\s+vida|essa\s+dor|esse\s+sofrimento)\b",
    ),
    (
        CrisisKind.SUICIDE,
        r"\b(?:vou|quero|queria|decidi)\s+acabar\s+com\s+(?:isso|tudo\s+isso|isso\s+tudo|essa\s+dor|"
        r"esse\s+sofrimento)\s*$",
    ),
    (
        CrisisKind.SUICIDE,
        r"\b(?:(?<!nao )me\s+despedi|(?:estou|to|tou)\s+me\s+despedindo|carta\s+de\s+despedida|ultima\s+vez\s+que\s+"
        r"(?:escrevo|falo|voces\s+me\s+veem))\b",
    ),
    (CrisisKind.SUICIDE, r"\b(?:cansei|cansado|cansada|exausto|exausta)\s+de\s+existir\b"),
    (
        CrisisKind.SUICIDE,
        r"\b(?:vou|acho\s+que\s+vou|vontade\s+de|medo\s+de|hora\s+de|posso|quero)\s+fazer\s+(?:uma\s+)?"
        r"(?:besteira|bobagem|loucura|merda)\b",
    ),
    (
        CrisisKind.SUICIDE,
        r"\b(?:vou|quero|queria|decidi|preciso)\s+acabar\s+com\s+(?:o\s+|meu\s+|esse\s+|essa\s+|a\s+minha\s+|"
        r"minha\s+)?(?:sofrimento|dor)\b",
    ),
    (CrisisKind.SUICIDE, r"\bnao\s+quero\s+mais\s+nada\b(?!\s+(?:com|d[aoe]))"),
    (CrisisKind.SUICIDE, r"\bnao\s+(?:aguento|suporto)\s+mais\s+(?:essa|esta|a\s+minha|minha)\s+vida\b"),
    (
        CrisisKind.SUICIDE,
        r"\b(?:quero|queria)\s+que\s+(?:a|essa|minha)\s+dor\s+(?:pare|parasse|acabe|acabasse|termine|terminasse)\b",
    ),
    (CrisisKind.SUICIDE, r"\b(?:queria|quero|preferia|gostaria\s+de)\s+(?:estar|ser|ficar)\s+mort[oa]\b"),
    (
        CrisisKind.SUICIDE,
        r"\b(?:estou|to|tou)\s+com\s+(?:a|uma|o|os|as)\s+(?:faca|arma|gilete|lamina|corda|navalha|revolver|"
        r"remedios|comprimidos)\s+na\s+mao\b",
    ),
    (
        CrisisKind.SUICIDE,
        r"\b(?:minha\s+)?vida\s+(?:nao\s+vale\s+(?:mais\s+)?nada|perdeu\s+(?:o\s+|todo\s+o\s+)?sentido|"
        r"nao\s+tem\s+mais\s+sentido)\b",
    ),
    (
        CrisisKind.SUICIDE,
        r"\bsei\s+(?:por\s+que|porque|pra\s+que|para\s+que)\s+(?:ainda\s+)?(?:continuo|estou|to)\s+"
        r"(?:aqui|vivo|viva|vivendo)\b",
    ),
    (
        CrisisKind.SUICIDE,
        r"\b(?:vou|quero|queria|pensando\s+em|penso\s+em|vontade\s+de)\s+(?:me\s+)?(?:pular|jogar|atirar)\s+"
        r"(?:me\s+)?(?:\w+\s+){0,4}?(?:ponte|janela|predio|viaduto|telhado|sacada|"
        r"laje|andar|penhasco|precipicio|abismo|varanda|rio|represa|barragem|trem|comboio|linha|metro|carro|"
        r"onibus|caminhao)\b",
    ),
    (
        CrisisKind.SUICIDE,
        r"\b(?:estou|to|tou)\s+(?:em\s+cima|no\s+alto|na\s+beira|no\s+parapeito)\s+d[aoe]\s+"
        r"(?:ponte|predio|viaduto|telhado|laje|janela|penhasco|linha\s+do\s+trem|trilhos?)\b",
    ),
    (
        CrisisKind.SUICIDE,
        _NOT
        + r"\b(?:penso|pensei|pensando|fico\s+pensando|penso\s+muito)\s+em\s+(?:morrer|sumir|acabar\s+com\s+tudo)\b",
    ),
    (CrisisKind.SUICIDE, r"\b(?:ja\s+)?(?:tenho|esta|ta)\s+tudo\s+planejado\b"),
    (
        CrisisKind.SUICIDE,
        r"\b(?:separei|guardei|juntei|comprei|arrumei|consegui|tenho|peguei)\s+(?:\w+\s+){0,4}?"
        + _MEANS
        + r"\b.{0,50}?(?:(?:pra|para)\s+(?:mim|tomar|acabar|me\s+matar)\b|de\s+uma\s+vez|usar\s+em\s+mim)",
    ),
    (CrisisKind.SUICIDE, r"\b(?:vou|quero|pensei\s+em|penso\s+em)\s+(?:ligar|abrir)\s+o\s+gas\b"),
    (
        CrisisKind.SUICIDE,
        r"\b(?:ficariam?|seriam?|estariam?|viveriam?)\s+(?:muito\s+)?(?:melhor|melhores|mais\s+felizes)\s+sem\s+mim\b",
    ),
    (CrisisKind.SUICIDE, r"\bnao\s+(?:tem|ha)\s+mais\s+(?:jeito|saida|solucao|volta|esperanca)\s+(?:pra|para)\s+mim\b"),
    (CrisisKind.SUICIDE, r"\bdesist(?:o|i|indo)\s+(?:de\s+tudo|de\s+viver|da\s+vida|de\s+mim)\b"),
    (
        CrisisKind.SUICIDE,
        r"\bnao\s+(?:quero|queria)\s+(?:mais\s+)?(?:estar|ficar)\s+aqui\b(?!\s+(?:nessa|nesta|neste|nesse|na|no|em)\b)",
    ),
    (
        CrisisKind.SUICIDE,
        r"\b(?:ir\s+embora|partir|sair)\s+(?:desse|deste|do)\s+mundo\b|\bdeixar\s+(?:esse|este)\s+mundo\b",
    ),
    (
        CrisisKind.SUICIDE,
        r"\b(?:pedi|peco|pedindo|quero\s+que|queria\s+que)\s+(?:pra\s+|para\s+|a\s+)?deus\s+me\s+(?:levar|leve|levasse)\b",
    ),
    (CrisisKind.SUICIDE, r"\b(?:e|sera|hoje\s+e)\s+(?:o\s+)?meu\s+ultimo\s+dia\b(?!\s+(?:no|na|de|do|da|em)\b)"),
    (CrisisKind.SUICIDE, r"\bnao\s+vou\s+(?:mais\s+)?estar\s+(?:mais\s+)?aqui\s*$"),
    (CrisisKind.SUICIDE, r"\b(?:bater|jogar\s+o\s+carro|batendo|capotar)\s+(?:o\s+carro\s+)?de\s+proposito\b"),
    (
        CrisisKind.SUICIDE,
        r"\b(?:plano|planos|jeito|forma|maneira)\s+(?:pra|para|de)\s+(?:me\s+matar|morrer|me\s+suicidar|"
        r"acabar\s+com\s+(?:tudo|minha\s+vida))\b",
    ),
    (CrisisKind.SUICIDE, r"\bpensamentos?\s+de\s+(?:morte|morrer|suicidio|me\s+matar)\b"),
    (CrisisKind.SUICIDE, r"\bpra\s+ver\s+se\s+(?:apago|morro|nao\s+acordo|durmo\s+pra\s+sempre)\b"),
    # A lethal act turned on oneself, whoever voices it: "a voz manda eu me matar", "de tanto me cortar".
    (CrisisKind.SUICIDE, _NOT + _BY_OTHERS + r"\b(?:eu\s+)?me\s+(?:matar|enforcar|suicidar|envenenar|afogar)\b"),
    (
        CrisisKind.SELF_HARM,
        _NOT + _BY_OTHERS + r"(?<!medo de )\b(?:eu\s+)?me\s+(?:cortar|ferir|machucar|mutilar|queimar)\b"
        r"(?!\s+(?:o|a|os|as)\s+(?:cabelo|unha|unhas|dedo)|\s+(?:na|no)\s+(?:academia|treino|jogo|trabalho))",
    ),
    (
        CrisisKind.SUICIDE,
        r"\b(?:desejo|vontade|saida|solucao|alivio)\b(?:\s+\w+){0,3}?\s+(?:e\s+|de\s+)?morrer\b"
        r"(?!\s+de\s+(?:tanto\s+)?(?:rir|vergonha|saudade|fome|sede|calor|frio|tedio|medo|sono|amor))",
    ),
    (
        CrisisKind.SUICIDE,
        r"\bcaso\s+eu\s+nao\s+(?:volte|esteja|acorde)\b|\bdei\s+(?:todas\s+as\s+)?minhas\s+coisas\b|"
        r"\bem\s+paz\s+com\s+(?:a|minha)\s+decisao\b",
    ),
    (CrisisKind.SUICIDE, r"(?<!medo de )\b(?:ser|sou)\s+(?:so\s+)?(?:um\s+)?(?:peso|fardo|estorvo)\b"),
    (
        CrisisKind.SUICIDE,
        r"\b(?:subi|estou|to|tou)\s+(?:no|na|em\s+cima\s+d[oa])\s+(?:terraco|telhado|laje|topo|alto|beira|parapeito)"
        r"\s+d[oa]\s+(?:predio|ponte|viaduto|edificio)\b",
    ),
    (
        CrisisKind.SUICIDE,
        r"\bnao\s+sentir\s+mais\s+nada\b|\b(?:seria\s+(?:tao\s+)?bom|queria|quero|melhor)\s+(?:\w+\s+){0,2}?nao\s+"
        r"(?:acordar|existir|ter\s+nascido)\b",
    ),
    (
        CrisisKind.SUICIDE,
        r"\bnao\s+tenho\s+(?:mais\s+)?(?:\w+\s+)?(?:forcas?|vontade|animo|motivos?|razao|razoes)\s+(?:pra|para|de)\s+viver\b",
    ),
    (
        CrisisKind.SUICIDE,
        r"\b(?:coragem|forca)\s+(?:pra|para)\s+(?:acabar\s+com|me\s+matar|pular|fazer\s+isso)\b|"
        r"\bacabar\s+com\s+(?:isso|tudo)\s+(?:hoje|amanha|agora|esta\s+noite|essa\s+noite|de\s+vez)\b",
    ),
    # Very short: "vou pular", "vou me jogar agora" said alone.
    (CrisisKind.SUICIDE, r"^\s*(?:eu\s+)?(?:vou|vo)\s+(?:pular|me\s+jogar)\s*(?:agora|hoje|hj|ja)?\s*$"),
    (CrisisKind.SUICIDE, r"\bvontade\s+(?:e\s+)?de\s+sumir\b|\bsumir\s+e\s+nunca\s+mais\s+(?:aparecer|voltar)\b"),
    (
        CrisisKind.SUICIDE,
        r"\b(?:quero|queria)\s+que\s+(?:(?:tudo|isso|essa\s+dor|esse\s+sofrimento|a\s+dor)\s+(?:acabe|termine)|"
        r"(?:acabe|termine)\s+(?:tudo|essa\s+dor|esse\s+sofrimento|a\s+dor|de\s+uma\s+vez))\b",
    ),
    (
        CrisisKind.OVERDOSE,
        r"\b(?:tomei|engoli|ingeri|acabei\s+de\s+tomar)\s+(?:uns|umas|muitos|muitas|varios|varias|um\s+monte\s+de|uma\s+caixa\s+de|"
        r"uma\s+cartela\s+de|todos\s+os|todas\s+as|o\s+vidro\s+de|o\s+frasco\s+de)\s+(?:\w+\s+)?" + _PILLS,
    ),
    (
        CrisisKind.OVERDOSE,
        r"\b(?:tomei|engoli|tomar|tomando|tomo)\s+(?:\w+\s+)?(?:remedios?|comprimidos?|calmantes?)\s+"
        r"(?:demais|a\s+mais)\b",
    ),
    (
        CrisisKind.OVERDOSE,
        r"\b(?:tomei|engoli)\s+(?:o|a|os|as)\s+" + _PILLS + r"\b(?:\s+\w+){0,5}?\s+(?:inteiro|inteira|todo|toda|"
        r"todos|todas)\b",
    ),
    (CrisisKind.OVERDOSE, r"\b(?:com|segurando)\s+(?:\w+\s+){0,4}?" + _PILLS + r"\s+na\s+mao\b"),
    (CrisisKind.OVERDOSE, r"\b(?:tomei|engoli|bebi|tomar|engolir|beber)\s+(?:\w+\s+){0,3}?" + _POISONS + r"\b"),
    (
        CrisisKind.OVERDOSE,
        r"\b(?:tomei|engoli)\s+(?:uns|umas|varios|varias|muitos|muitas|\d+)\s+(?:\w+\s+)?" + _DRUGS + r"\b",
    ),
    (CrisisKind.OVERDOSE, r"\b(?:tomei|engoli)\s+(?:\w+\s+){0,2}" + _PILLS + r"\s+todos\b"),
    (
        CrisisKind.OVERDOSE,
        r"\b(?:engoli|tomei|engolir|tomar)\s+tudo\s+(?:que\s+(?:tinha|havia)\s+)?(?:\w+\s+){0,3}?"
        r"(?:remedios?|comprimidos?|caixinha|cartela|frasco|vidro)\b",
    ),
    (
        CrisisKind.OVERDOSE,
        r"\b(?:tomei|engoli|ingeri)\s+(?:uma\s+caixa|um\s+vidro|o\s+vidro|a\s+cartela|uma\s+cartela|"
        r"o\s+frasco|um\s+frasco|a\s+caixa)(?:\s+inteira|\s+inteiro|\s+toda|\s+todo)?\s+de\b",
    ),
    (CrisisKind.OVERDOSE, r"\b(?:tomei|engoli|ingeri)\s+(?:uns\s+|umas\s+|mais\s+de\s+)?\d{2,}\s+\w+"),
    (
        CrisisKind.OVERDOSE,
        r"\b(?:exagerei|abusei)\s+(?:n[ao]s?|d[ao]s?)\s+(?:\w+\s+){0,3}?(?:dose|remedios?|comprimidos?|"
        r"calmantes?|medicamentos?|pilulas?)\b",
    ),
    (
        CrisisKind.OVERDOSE,
        r"\bmisturei\s+(?:\w+\s+){0,4}?(?:remedios?|comprimidos?|calmantes?|pilulas?|medicamentos?)\b",
    ),
    (
        CrisisKind.OVERDOSE,
        r"\b(?:tomei|engoli|bebi|ingeri)\s+(?:\w+\s+){0,2}(?:agua\s+sanitaria|veneno|chumbinho|soda\s+caustica|"
        r"raticida|desinfetante|alvejante|formicida|inseticida)\b",
    ),
    (
        CrisisKind.OVERDOSE,
        r"\b(?:vou|quero|pensei\s+em)\s+tomar\s+(?:todos\s+os|todas\s+as|muitos|muitas|uma\s+caixa\s+de)\s+" + _PILLS,
    ),
    # "me ferir" alone is not enough: "quando ele me ferir" is someone else hurting the person.
    (
        CrisisKind.SELF_HARM,
        _NOT + r"\b(?:vou|quero|queria|penso\s+em|pensei\s+em|pensando\s+em|(?:tenho\s+|sinto\s+)?vontade\s+de|"
        r"preciso|costumo|comecei\s+a|voltei\s+a|parar\s+de)\s+me\s+(?:cortar|machucar|ferir|queimar|arranhar)\b",
    ),
    (CrisisKind.SELF_HARM, _NOT + r"\bme\s+(?:corto|cortei|machuco|machuquei|firo|feri|queimo|queimei)\b"),
    (CrisisKind.SELF_HARM, r"\bme\s+(?:cortando|machucando|ferindo|queimando|arranhando)\b"),
    (
        CrisisKind.SELF_HARM,
        r"\b(?:peguei|usei|voltei\s+a\s+usar|escondo|guardo)\s+(?:as\s+|a\s+|uma\s+|umas\s+)?"
        r"(?:laminas?|giletes?|navalhas?|estilete)\b",
    ),
    (CrisisKind.SELF_HARM, r"\b(?:cortar|cortei|corto)\s+(?:os\s+|meus\s+)?(?:pulsos|bracos|braco|pernas)\b"),
    (CrisisKind.SELF_HARM, r"\b(?:automutilo|automutilando|me\s+automutil\w*)\b"),
    (
        CrisisKind.SELF_HARM,
        r"\b(?:faco|fazia|pratico|pratiquei|fiz)\s+(?:\w+\s+)?(?:automutilacao|autolesao|autoflagelo)\b",
    ),
    (CrisisKind.SELF_HARM, r"\bfiz\s+(?:um|uns|outro|outros)\s+cortes?\b|\bnao\s+para\s+de\s+sangrar\b"),
    (CrisisKind.SELF_HARM, r"\bate\s+sangrar\b"),
    (
        CrisisKind.SELF_HARM,
        r"\b(?:bato|bati|me\s+bato)\s+(?:a\s+|minha\s+)?cabeca\s+(?:na|contra\s+a|no)\s+(?:parede|chao|porta)\b",
    ),
    (
        CrisisKind.SELF_HARM,
        r"\b(?:queimei|queimo|cortei|corto|arranhei|arranho)\s+(?:o\s+|a\s+|meu\s+|minha\s+|meus\s+|minhas\s+)?"
        r"(?:braco|bracos|pulso|pulsos|perna|pernas|pele|coxa|coxas|barriga|mao|maos)\s+(?:com|de\s+proposito)\b",
    ),
    (CrisisKind.ABUSE, r"\b(?:meu|minha)\s+" + _PERPETRATOR + r"\s+(?:\w+\s+)?me\s+" + _HARM_VERB + r"\b" + _NOT_LEGAL),
    (
        CrisisKind.ABUSE,
        r"\b(?:estao|esta|ta|tao|ele|ela|eles|alguem)\s+(?:\w+\s+)?me\s+(?:abusando|abusar|batendo|"
        r"espancando|agredindo|violentando|estuprando|ameacando|machucando)\b",
    ),
    (CrisisKind.ABUSE, r"\bfui\s+(?:abusad|estuprad|violentad|agredid|espancad)[oa]s?\b"),
    (CrisisKind.ABUSE, r"\b(?:apanho|apanhei|apanhando)\s+(?:do|da|de)\s+(?:meu|minha)\b"),
    (CrisisKind.ABUSE, r"\bme\s+(?:estuprou|estupraram|violentou|violentaram|abusou|abusaram|espancou|espancaram)\b"),
    (CrisisKind.ABUSE, r"\b(?:abusa|abusava|abusou|abusaram|abusavam)\s+(?:\w+\s+){0,4}?de\s+mim\b"),
    # Violence done to the person, whoever does it; "me bateu uma saudade" is a feeling.
    (
        CrisisKind.ABUSE,
        r"(?<!quem )\bme\s+(?:bate|batia|bateu|espanca|espancou|agride|agrediu|estrangul\w+|sufoc\w+|enforcou|queima|queimou|"
        r"queimava|esfaqueou|chuta|chutou|chutava|assedi\w+|tranca|trancou|trancava|estupr\w+)\b"
        + _NOT_LEGAL
        + r"(?!\s+(?:uma?|aquela|aquele|essa|esse|a|o)?\s*(?:saudade|tristeza|vontade|desanimo|medo|fome|sono|culpa|"
        r"angustia|duvida|ansiedade|preguica|sentimento|alegria|paz|certeza|inveja|raiva|vergonha|pena)\b)",
    ),
    (CrisisKind.ABUSE, r"\bme\s+(?:tocou|toca|tocava|agarrou|agarra|beijou)\s+(?:a|na)\s+forca\b"),
    (CrisisKind.ABUSE, r"\bquebrou\s+(?:o\s+)?meu\s+(?:braco|nariz|dente|perna|costela|mao|dedo|queixo)\b"),
    (
        CrisisKind.ABUSE,
        r"\bme\s+(?:deu|da|dava|deram|davam)\s+(?:um\s+|uns\s+|uma\s+)?(?:tapa|soco|chute|surra|pancada|murro)s?\b",
    ),
    (
        CrisisKind.ABUSE,
        r"\bme\s+(?:obriga|obrigou|obrigava|forca|forcou|forcava)\s+a\s+(?:fazer\s+coisas|transar|fazer\s+sexo|"
        r"ter\s+relac|tirar\s+a\s+roupa|ficar\s+com|beijar)",
    ),
    (CrisisKind.ABUSE, r"\b(?:ele|ela|eles|elas)\s+(?:\w+\s+)?me\s+" + _HARM_VERB + r"\b" + _NOT_LEGAL),
    (
        CrisisKind.ABUSE,
        r"\bme\s+(?:ameaca|ameacou|ameacava|ameacando)\s+com\s+(?:uma\s+|um\s+)?(?:faca|arma|revolver|facao|tesoura)\b",
    ),
    # Stalked at home, not "meu chefe me persegue" (pressure at work: the normal flow).
    (
        CrisisKind.ABUSE,
        r"\b(?:meu|minha)\s+(?!chefe|patrao|lider|pastor)"
        + _PERPETRATOR
        + r"\s+(?:\w+\s+){0,2}me\s+(?:persegue|perseguindo|perseguiu|vigia|segue)\b",
    ),
    (CrisisKind.ABUSE, r"\b(?:mexe|mexia|mexeu)\s+em\s+mim\b|\bpass(?:a|ava|ou|aram|avam)\s+a\s+mao\s+em\s+mim\b"),
    (
        CrisisKind.ABUSE,
        r"\b(?:meu|minha)\s+" + _PERPETRATOR + r"\s+(?:\w+\s+){0,3}(?:me\s+(?:toca|tocava|tocou|apalpa|agarra|agarrou)|"
        r"nao\s+me\s+deixa\s+sair|me\s+(?:tranca|trancou|prende|prendeu)\s+(?:em\s+casa|no\s+quarto))\b",
    ),
    (
        CrisisKind.ABUSE,
        r"\b(?:ele|ela|eles|"
        + _PERPETRATOR[3:-1]
        + r")\s+(?:\w+\s+){0,3}(?:vai|ameacou|ameaca|jurou|prometeu|quer|queria|tentou)\s+"
        r"(?:que\s+vai\s+)?(?:me\s+matar|acabar\s+comigo|me\s+pegar|me\s+bater|me\s+espancar|me\s+machucar)\b",
    ),
)

# Topic words: they count only when the message also speaks in the first person.
_TOPICAL: tuple[tuple[str, str], ...] = (
    (CrisisKind.SUICIDE, r"\b(?:suicidio|suicidar|suicida)\b"),
    (CrisisKind.SELF_HARM, r"\b(?:automutilacao|autolesao)\b"),
    (CrisisKind.OVERDOSE, r"\b(?:overdose|superdosagem|intoxicacao\s+por\s+remedios?)\b"),
    (
        CrisisKind.ABUSE,
        r"\b(?:violencia\s+domestica|abuso\s+sexual|violencia\s+sexual|estupro|abuso|agressao|maus\s+tratos)\b",
    ),
    (CrisisKind.ABUSE, r"\b(?:estuprad|abusad|violentad|espancad|agredid)[oa]s?\b"),
)

# When several signals appear, the most urgent decides the message.
PRIORITY = (CrisisKind.SUICIDE, CrisisKind.OVERDOSE, CrisisKind.VIOLENCE, CrisisKind.SELF_HARM, CrisisKind.ABUSE)
PERSONAL = tuple((kind, re.compile(p)) for kind, p in _PERSONAL)
TOPICAL = tuple(
    (kind, re.compile(p), _OWN_STATE if kind in (CrisisKind.SUICIDE, CrisisKind.SELF_HARM) else _FIRST_PERSON)
    for kind, p in _TOPICAL
)

# Chat spellings, word for word: `qro morrer` is `quero morrer` (the shared table, as this reader reads it).
SPELLINGS = spellings_for(NOT_FOR_CRISIS)
