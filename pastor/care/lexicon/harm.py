"""Crisis phrases of self-harm, overdose and abuse in Portuguese: what the person says was done or is done."""

from __future__ import annotations

from pastor.care.lexicon.fragments import BY_OTHERS, NOT

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
# "Meu irmão me ameaçou de processo" is a quarrel, not violence.
_NOT_LEGAL = r"(?!\s+(?:de\s+)?(?:processo|processar|na\s+justica|demissao|demitir|mandar\s+embora|denunciar))"

# Phrases about the person themself: they count on their own (in this order within each kind).
SELF_HARM_PHRASES: tuple[str, ...] = (
    NOT + BY_OTHERS + r"(?<!medo de )\b(?:eu\s+)?me\s+(?:cortar|ferir|machucar|mutilar|queimar)\b"
    r"(?!\s+(?:o|a|os|as)\s+(?:cabelo|unha|unhas|dedo)|\s+(?:na|no)\s+(?:academia|treino|jogo|trabalho))",
    # "me ferir" alone is not enough: "quando ele me ferir" is someone else hurting the person.
    NOT + r"\b(?:vou|quero|queria|penso\s+em|pensei\s+em|pensando\s+em|(?:tenho\s+|sinto\s+)?vontade\s+de|"
    r"preciso|costumo|comecei\s+a|voltei\s+a|parar\s+de)\s+me\s+(?:cortar|machucar|ferir|queimar|arranhar)\b",
    NOT + r"\bme\s+(?:corto|cortei|machuco|machuquei|firo|feri|queimo|queimei)\b",
    r"\bme\s+(?:cortando|machucando|ferindo|queimando|arranhando)\b",
    r"\b(?:peguei|usei|voltei\s+a\s+usar|escondo|guardo)\s+(?:as\s+|a\s+|uma\s+|umas\s+)?"
    r"(?:laminas?|giletes?|navalhas?|estilete)\b",
    r"\b(?:cortar|cortei|corto)\s+(?:os\s+|meus\s+)?(?:pulsos|bracos|braco|pernas)\b",
    r"\b(?:automutilo|automutilando|me\s+automutil\w*)\b",
    r"\b(?:faco|fazia|pratico|pratiquei|fiz)\s+(?:\w+\s+)?(?:automutilacao|autolesao|autoflagelo)\b",
    r"\bfiz\s+(?:um|uns|outro|outros)\s+cortes?\b|\bnao\s+para\s+de\s+sangrar\b",
    r"\bate\s+sangrar\b",
    r"\b(?:bato|bati|me\s+bato)\s+(?:a\s+|minha\s+)?cabeca\s+(?:na|contra\s+a|no)\s+(?:parede|chao|porta)\b",
    r"\b(?:queimei|queimo|cortei|corto|arranhei|arranho)\s+(?:o\s+|a\s+|meu\s+|minha\s+|meus\s+|minhas\s+)?"
    r"(?:braco|bracos|pulso|pulsos|perna|pernas|pele|coxa|coxas|barriga|mao|maos)\s+(?:com|de\s+proposito)\b",
)
OVERDOSE_PHRASES: tuple[str, ...] = (
    r"\b(?:tomei|engoli|ingeri|acabei\s+de\s+tomar)\s+(?:uns|umas|muitos|muitas|varios|varias|um\s+monte\s+de|uma\s+caixa\s+de|"
    r"uma\s+cartela\s+de|todos\s+os|todas\s+as|o\s+vidro\s+de|o\s+frasco\s+de)\s+(?:\w+\s+)?" + _PILLS,
    r"\b(?:tomei|engoli|tomar|tomando|tomo)\s+(?:\w+\s+)?(?:remedios?|comprimidos?|calmantes?)\s+"
    r"(?:demais|a\s+mais)\b",
    r"\b(?:tomei|engoli)\s+(?:o|a|os|as)\s+" + _PILLS + r"\b(?:\s+\w+){0,5}?\s+(?:inteiro|inteira|todo|toda|"
    r"todos|todas)\b",
    r"\b(?:com|segurando)\s+(?:\w+\s+){0,4}?" + _PILLS + r"\s+na\s+mao\b",
    r"\b(?:tomei|engoli|bebi|tomar|engolir|beber)\s+(?:\w+\s+){0,3}?" + _POISONS + r"\b",
    r"\b(?:tomei|engoli)\s+(?:uns|umas|varios|varias|muitos|muitas|\d+)\s+(?:\w+\s+)?" + _DRUGS + r"\b",
    r"\b(?:tomei|engoli)\s+(?:\w+\s+){0,2}" + _PILLS + r"\s+todos\b",
    r"\b(?:engoli|tomei|engolir|tomar)\s+tudo\s+(?:que\s+(?:tinha|havia)\s+)?(?:\w+\s+){0,3}?"
    r"(?:remedios?|comprimidos?|caixinha|cartela|frasco|vidro)\b",
    r"\b(?:tomei|engoli|ingeri)\s+(?:uma\s+caixa|um\s+vidro|o\s+vidro|a\s+cartela|uma\s+cartela|"
    r"o\s+frasco|um\s+frasco|a\s+caixa)(?:\s+inteira|\s+inteiro|\s+toda|\s+todo)?\s+de\b",
    r"\b(?:tomei|engoli|ingeri)\s+(?:uns\s+|umas\s+|mais\s+de\s+)?\d{2,}\s+\w+",
    r"\b(?:exagerei|abusei)\s+(?:n[ao]s?|d[ao]s?)\s+(?:\w+\s+){0,3}?(?:dose|remedios?|comprimidos?|"
    r"calmantes?|medicamentos?|pilulas?)\b",
    r"\bmisturei\s+(?:\w+\s+){0,4}?(?:remedios?|comprimidos?|calmantes?|pilulas?|medicamentos?)\b",
    r"\b(?:tomei|engoli|bebi|ingeri)\s+(?:\w+\s+){0,2}(?:agua\s+sanitaria|veneno|chumbinho|soda\s+caustica|"
    r"raticida|desinfetante|alvejante|formicida|inseticida)\b",
    r"\b(?:vou|quero|pensei\s+em)\s+tomar\s+(?:todos\s+os|todas\s+as|muitos|muitas|uma\s+caixa\s+de)\s+" + _PILLS,
)
ABUSE_PHRASES: tuple[str, ...] = (
    r"\b(?:meu|minha)\s+" + _PERPETRATOR + r"\s+(?:\w+\s+)?me\s+" + _HARM_VERB + r"\b" + _NOT_LEGAL,
    r"\b(?:estao|esta|ta|tao|ele|ela|eles|alguem)\s+(?:\w+\s+)?me\s+(?:abusando|abusar|batendo|"
    r"espancando|agredindo|violentando|estuprando|ameacando|machucando)\b",
    r"\bfui\s+(?:abusad|estuprad|violentad|agredid|espancad)[oa]s?\b",
    r"\b(?:apanho|apanhei|apanhando)\s+(?:do|da|de)\s+(?:meu|minha)\b",
    r"\bme\s+(?:estuprou|estupraram|violentou|violentaram|abusou|abusaram|espancou|espancaram)\b",
    r"\b(?:abusa|abusava|abusou|abusaram|abusavam)\s+(?:\w+\s+){0,4}?de\s+mim\b",
    # Violence done to the person, whoever does it; "me bateu uma saudade" is a feeling.
    r"(?<!quem )\bme\s+(?:bate|batia|bateu|espanca|espancou|agride|agrediu|estrangul\w+|sufoc\w+|enforcou|"
    r"queima|queimou|queimava|esfaqueou|chuta|chutou|chutava|assedi\w+|tranca|trancou|trancava|estupr\w+)\b"
    + _NOT_LEGAL
    + r"(?!\s+(?:uma?|aquela|aquele|essa|esse|a|o)?\s*(?:saudade|tristeza|vontade|desanimo|medo|fome|sono|culpa|"
    r"angustia|duvida|ansiedade|preguica|sentimento|alegria|paz|certeza|inveja|raiva|vergonha|pena)\b)",
    r"\bme\s+(?:tocou|toca|tocava|agarrou|agarra|beijou)\s+(?:a|na)\s+forca\b",
    r"\bquebrou\s+(?:o\s+)?meu\s+(?:braco|nariz|dente|perna|costela|mao|dedo|queixo)\b",
    r"\bme\s+(?:deu|da|dava|deram|davam)\s+(?:um\s+|uns\s+|uma\s+)?(?:tapa|soco|chute|surra|pancada|murro)s?\b",
    r"\bme\s+(?:obriga|obrigou|obrigava|forca|forcou|forcava)\s+a\s+(?:fazer\s+coisas|transar|fazer\s+sexo|"
    r"ter\s+relac|tirar\s+a\s+roupa|ficar\s+com|beijar)",
    r"\b(?:ele|ela|eles|elas)\s+(?:\w+\s+)?me\s+" + _HARM_VERB + r"\b" + _NOT_LEGAL,
    r"\bme\s+(?:ameaca|ameacou|ameacava|ameacando)\s+com\s+(?:uma\s+|um\s+)?(?:faca|arma|revolver|facao|tesoura)\b",
    # Stalked at home, not "meu chefe me persegue" (pressure at work: the normal flow).
    r"\b(?:meu|minha)\s+(?!chefe|patrao|lider|pastor)"
    + _PERPETRATOR
    + r"\s+(?:\w+\s+){0,2}me\s+(?:persegue|perseguindo|perseguiu|vigia|segue)\b",
    r"\b(?:mexe|mexia|mexeu)\s+em\s+mim\b|\bpass(?:a|ava|ou|aram|avam)\s+a\s+mao\s+em\s+mim\b",
    r"\b(?:meu|minha)\s+" + _PERPETRATOR + r"\s+(?:\w+\s+){0,3}(?:me\s+(?:toca|tocava|tocou|apalpa|agarra|agarrou)|"
    r"nao\s+me\s+deixa\s+sair|me\s+(?:tranca|trancou|prende|prendeu)\s+(?:em\s+casa|no\s+quarto))\b",
    r"\b(?:ele|ela|eles|"
    + _PERPETRATOR[3:-1]
    + r")\s+(?:\w+\s+){0,3}(?:vai|ameacou|ameaca|jurou|prometeu|quer|queria|tentou)\s+"
    r"(?:que\s+vai\s+)?(?:me\s+matar|acabar\s+comigo|me\s+pegar|me\s+bater|me\s+espancar|me\s+machucar)\b",
)
