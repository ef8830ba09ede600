"""Crisis phrases of suicide in Portuguese: what the person says of their own wish, plan or goodbye."""

from __future__ import annotations

from pastor.care.lexicon.fragments import BY_OTHERS, NOT

_ME_KILL = r"(?:me\s+matar|matar\s+me|me\s+suicidar|suicidar\s+me|cometer\s+suicidio)"
_LIVE = r"(?:viver|continuar\s+vivendo|continuar\s+vivo|continuar\s+viva)"
_REASON = r"(?:razao|motivo|sentido|porque)"
_MEANS = (
    r"(?:comprimidos|remedios|pilulas|calmantes|veneno|chumbinho|corda|arma|revolver|faca|gilete|lamina|"
    r"navalha)"
)

# Phrases about the person themself: they count on their own (in this order within the kind).
SUICIDE_PHRASES: tuple[str, ...] = (
    # "parece que vou morrer" (panic) and "sei que vou morrer" (illness) are fear, not a wish.
    NOT + r"(?<!parece que )(?<!sei que )(?<!sinto que )\b(?:quero|queria|vou|vontade\s+de|desejo\s+de|"
    r"prefiro|preferia)\s+morrer\b"
    r"(?!\s+de\s+(?:tanto\s+)?(?:rir|vergonha|saudade|fome|sede|calor|frio|tedio|medo|sono|amor)|\s+(?:velh|em\s+paz|ao\s+lado))",
    NOT + r"\b(?:quero|queria|vou|penso\s+em|pensei\s+em|pensando\s+em|vontade\s+de|"
    r"tentei|tentar|decidi|planejando|planejo)\s+(?:me\s+)?" + _ME_KILL,
    NOT + r"\b(?:vou|quero|posso|vontade\s+de)\s+me\s+(?:matar|enforcar|jogar\s+(?:da|de|do|na))\b",
    r"\bnao\s+(?:aguento|suporto|quero|consigo)\s+mais\s+" + _LIVE + r"\b",
    r"\bnao\s+(?:quero|queria)\s+(?:mais\s+)?(?:viver|existir|acordar)\b",
    r"\b(?:cansei|cansado|cansada)\s+de\s+viver\b",
    r"\b(?:sem|nenhum|nenhuma|nao\s+tenho|perdi\s+a|perdi\s+o)\s+(?:mais\s+)?(?:uma\s+)?"
    + _REASON
    + r"\s+(?:para|pra|de)\s+viver\b",
    r"\bnao\s+vale\s+(?:mais\s+)?a\s+pena\s+viver\b",
    r"\b(?:tirar|acabar\s+com|por\s+fim\s+(?:a|na|em)|dar\s+fim\s+(?:a|na|em))\s+(?:a\s+)?"
    r"minha\s+(?:propria\s+)?vida\b",
    r"\bacabar\s+com\s+tudo\b",
    r"\b(?:pensamentos?|ideias?|ideacao)\s+suicidas?\b",
    r"\b(?:estou|to|me\s+sinto|ando)\s+suicida\b",
    r"\b(?:melhor|preferia)\s+(?:eu\s+)?(?:nem|nao)\s+ter\s+nascido\b",
    r"\b(?:queria|quero)\s+(?:nao\s+ter\s+nascido|sumir\s+para\s+sempre|desaparecer\s+para\s+sempre)\b",
    # Indirect: wishing to vanish or sleep for ever, feeling a burden, saying goodbye, no way out.
    r"\b(?:quero|queria|vou|prefiro|preferia)\s+(?:dormir|apagar)\s+(?:pra|para)\s+sempre\b",
    r"\bdormir\s+e\s+(?:nunca\s+mais|nao)\s+(?:mais\s+)?acordar\b",
    r"\b(?:fechar\s+os\s+olhos|deitar)\s+e\s+(?:nunca\s+mais|nao)\s+(?:mais\s+)?(?:abrir|acordar|levantar)\b",
    NOT + r"\b(?:melhor|quero|queria|vou|preciso|vontade\s+de)\s+(?:eu\s+)?(?:sumir|desaparecer)\b"
    r"(?!\s+(?:de\s+vergonha|um\s+pouco|por\s+(?:um|uns|alguns)|daqui|do\s+mapa\s+de\s+vergonha))",
    r"\bse\s+eu\s+(?:morrer|morresse|sumir|sumisse|nao\s+existisse|nao\s+estivesse\s+(?:mais\s+)?aqui|"
    r"desaparecer|desaparecesse|me\s+matar|me\s+matasse)\b",
    r"\b(?:sou|me\s+sinto|sentindo|virei)\s+(?:so\s+)?(?:um\s+)?(?:peso|fardo|estorvo)\b",
    r"\bnao\s+vejo\s+(?:mais\s+)?(?:nenhuma?\s+)?(?:saida|futuro|esperanca|razao|sentido)"
    r"(?!\s+(?:para|pra|no|na|em|nesse|nessa|neste|nesta)\s+(?!nada|mim|minha\s+vida))",
    r"\bacabou\s+(?:pra|para)\s+mim\b",
    r"\b(?:pensando\s+em|penso\s+em|vou|quero)\s+tentar\s+(?:de\s+novo|outra\s+vez|novamente)\b",
    r"\b(?:vou|quero|queria|decidi|hoje)\s+(?:dar|por)\s+(?:um\s+)?fim\s+(?:a|em|n)?\s*(?:isso|tudo|nisso|"
    r"minha\s+vida|essa\s+dor|esse\s+sofrimento)\b",
    r"\b(?:vou|quero|queria|decidi)\s+acabar\s+com\s+(?:isso|tudo\s+isso|isso\s+tudo|essa\s+dor|"
    r"esse\s+sofrimento)\s*$",
    r"\b(?:(?<!nao )me\s+despedi|(?:estou|to|tou)\s+me\s+despedindo|carta\s+de\s+despedida|ultima\s+vez\s+que\s+"
    r"(?:escrevo|falo|voces\s+me\s+veem))\b",
    r"\b(?:cansei|cansado|cansada|exausto|exausta)\s+de\s+existir\b",
    r"\b(?:vou|acho\s+que\s+vou|vontade\s+de|medo\s+de|hora\s+de|posso|quero)\s+fazer\s+(?:uma\s+)?"
    r"(?:besteira|bobagem|loucura|merda)\b",
    r"\b(?:vou|quero|queria|decidi|preciso)\s+acabar\s+com\s+(?:o\s+|meu\s+|esse\s+|essa\s+|a\s+minha\s+|"
    r"minha\s+)?(?:sofrimento|dor)\b",
    r"\bnao\s+quero\s+mais\s+nada\b(?!\s+(?:com|d[aoe]))",
    r"\bnao\s+(?:aguento|suporto)\s+mais\s+(?:essa|esta|a\s+minha|minha)\s+vida\b",
    r"\b(?:quero|queria)\s+que\s+(?:a|essa|minha)\s+dor\s+(?:pare|parasse|acabe|acabasse|termine|terminasse)\b",
    r"\b(?:queria|quero|preferia|gostaria\s+de)\s+(?:estar|ser|ficar)\s+mort[oa]\b",
    r"\b(?:estou|to|tou)\s+com\s+(?:a|uma|o|os|as)\s+(?:faca|arma|gilete|lamina|corda|navalha|revolver|"
    r"remedios|comprimidos)\s+na\s+mao\b",
    r"\b(?:minha\s+)?vida\s+(?:nao\s+vale\s+(?:mais\s+)?nada|perdeu\s+(?:o\s+|todo\s+o\s+)?sentido|"
    r"nao\s+tem\s+mais\s+sentido)\b",
    r"\bsei\s+(?:por\s+que|porque|pra\s+que|para\s+que)\s+(?:ainda\s+)?(?:continuo|estou|to)\s+"
    r"(?:aqui|vivo|viva|vivendo)\b",
    r"\b(?:vou|quero|queria|pensando\s+em|penso\s+em|vontade\s+de)\s+(?:me\s+)?(?:pular|jogar|atirar)\s+"
    r"(?:me\s+)?(?:\w+\s+){0,4}?(?:ponte|janela|predio|viaduto|telhado|sacada|"
    r"laje|andar|penhasco|precipicio|abismo|varanda|rio|represa|barragem|trem|comboio|linha|metro|carro|"
    r"onibus|caminhao)\b",
    r"\b(?:estou|to|tou)\s+(?:em\s+cima|no\s+alto|na\s+beira|no\s+parapeito)\s+d[aoe]\s+"
    r"(?:ponte|predio|viaduto|telhado|laje|janela|penhasco|linha\s+do\s+trem|trilhos?)\b",
    NOT + r"\b(?:penso|pensei|pensando|fico\s+pensando|penso\s+muito)\s+em\s+(?:morrer|sumir|acabar\s+com\s+tudo)\b",
    r"\b(?:ja\s+)?(?:tenho|esta|ta)\s+tudo\s+planejado\b",
    r"\b(?:separei|guardei|juntei|comprei|arrumei|consegui|tenho|peguei)\s+(?:\w+\s+){0,4}?"
    + _MEANS
    + r"\b.{0,50}?(?:(?:pra|para)\s+(?:mim|tomar|acabar|me\s+matar)\b|de\s+uma\s+vez|usar\s+em\s+mim)",
    r"\b(?:vou|quero|pensei\s+em|penso\s+em)\s+(?:ligar|abrir)\s+o\s+gas\b",
    r"\b(?:ficariam?|seriam?|estariam?|viveriam?)\s+(?:muito\s+)?(?:melhor|melhores|mais\s+felizes)\s+sem\s+mim\b",
    r"\bnao\s+(?:tem|ha)\s+mais\s+(?:jeito|saida|solucao|volta|esperanca)\s+(?:pra|para)\s+mim\b",
    r"\bdesist(?:o|i|indo)\s+(?:de\s+tudo|de\s+viver|da\s+vida|de\s+mim)\b",
    r"\bnao\s+(?:quero|queria)\s+(?:mais\s+)?(?:estar|ficar)\s+aqui\b(?!\s+(?:nessa|nesta|neste|nesse|na|no|em)\b)",
    r"\b(?:ir\s+embora|partir|sair)\s+(?:desse|deste|do)\s+mundo\b|\bdeixar\s+(?:esse|este)\s+mundo\b",
    r"\b(?:pedi|peco|pedindo|quero\s+que|queria\s+que)\s+(?:pra\s+|para\s+|a\s+)?deus\s+me\s+(?:levar|leve|levasse)\b",
    r"\b(?:e|sera|hoje\s+e)\s+(?:o\s+)?meu\s+ultimo\s+dia\b(?!\s+(?:no|na|de|do|da|em)\b)",
    r"\bnao\s+vou\s+(?:mais\s+)?estar\s+(?:mais\s+)?aqui\s*$",
    r"\b(?:bater|jogar\s+o\s+carro|batendo|capotar)\s+(?:o\s+carro\s+)?de\s+proposito\b",
    r"\b(?:plano|planos|jeito|forma|maneira)\s+(?:pra|para|de)\s+(?:me\s+matar|morrer|me\s+suicidar|"
    r"acabar\s+com\s+(?:tudo|minha\s+vida))\b",
    r"\bpensamentos?\s+de\s+(?:morte|morrer|suicidio|me\s+matar)\b",
    r"\bpra\s+ver\s+se\s+(?:apago|morro|nao\s+acordo|durmo\s+pra\s+sempre)\b",
    # A lethal act turned on oneself, whoever voices it: "a voz manda eu me matar", "de tanto me cortar".
    NOT + BY_OTHERS + r"\b(?:eu\s+)?me\s+(?:matar|enforcar|suicidar|envenenar|afogar)\b",
    r"\b(?:desejo|vontade|saida|solucao|alivio)\b(?:\s+\w+){0,3}?\s+(?:e\s+|de\s+)?morrer\b"
    r"(?!\s+de\s+(?:tanto\s+)?(?:rir|vergonha|saudade|fome|sede|calor|frio|tedio|medo|sono|amor))",
    r"\bcaso\s+eu\s+nao\s+(?:volte|esteja|acorde)\b|\bdei\s+(?:todas\s+as\s+)?minhas\s+coisas\b|"
    r"\bem\s+paz\s+com\s+(?:a|minha)\s+decisao\b",
    r"(?<!medo de )\b(?:ser|sou)\s+(?:so\s+)?(?:um\s+)?(?:peso|fardo|estorvo)\b",
    r"\b(?:subi|estou|to|tou)\s+(?:no|na|em\s+cima\s+d[oa])\s+(?:terraco|telhado|laje|topo|alto|beira|parapeito)"
    r"\s+d[oa]\s+(?:predio|ponte|viaduto|edificio)\b",
    r"\bnao\s+sentir\s+mais\s+nada\b|\b(?:seria\s+(?:tao\s+)?bom|queria|quero|melhor)\s+(?:\w+\s+){0,2}?nao\s+"
    r"(?:acordar|existir|ter\s+nascido)\b",
    r"\bnao\s+tenho\s+(?:mais\s+)?(?:\w+\s+)?(?:forcas?|vontade|animo|motivos?|razao|razoes)\s+(?:pra|para|de)\s+viver\b",
    r"\b(?:coragem|forca)\s+(?:pra|para)\s+(?:acabar\s+com|me\s+matar|pular|fazer\s+isso)\b|"
    r"\bacabar\s+com\s+(?:isso|tudo)\s+(?:hoje|amanha|agora|esta\s+noite|essa\s+noite|de\s+vez)\b",
    # Very short: "vou pular", "vou me jogar agora" said alone.
    r"^\s*(?:eu\s+)?(?:vou|vo)\s+(?:pular|me\s+jogar)\s*(?:agora|hoje|hj|ja)?\s*$",
    r"\bvontade\s+(?:e\s+)?de\s+sumir\b|\bsumir\s+e\s+nunca\s+mais\s+(?:aparecer|voltar)\b",
    r"\b(?:quero|queria)\s+que\s+(?:(?:tudo|isso|essa\s+dor|esse\s+sofrimento|a\s+dor)\s+(?:acabe|termine)|"
    r"(?:acabe|termine)\s+(?:tudo|essa\s+dor|esse\s+sofrimento|a\s+dor|de\s+uma\s+vez))\b",
)
