"""Portuguese function words dropped from search tokens (folded, modern spelling)."""

from __future__ import annotations

# Written folded (no accents) and in modern spelling, because tokens are compared after
# `normalize` (1911 "elle" is already "ele" by then). Only words that carry no topic:
# articles, prepositions and their contractions, pronouns, conjunctions, common adverbs,
# quantifiers and the auxiliary forms of ser/estar/ter/haver.
#
# Kept on purpose (they carry meaning in pastoral questions and verses): deus, senhor,
# amor, medo, paz, vida, bem, mal, sempre, nunca, jamais, fazer/ir forms.
# "nao" IS a stop-word: it occurs in ~8,000 of the 31,101 verses, so as a BM25 term it
# matches a quarter of the Bible and adds noise to every question ("nao consigo dormir"),
# while the negation itself ("nao temas") is better carried by the embedding side.
_WORDS = """
a o as os um uma uns umas ao aos
de da do das dos dum duma duns dumas
em na no nas nos num numa nuns numas
por pelo pela pelos pelas per
para pra pro com sem sob sobre ante apos ate contra desde entre perante tras
e ou nem mas porem contudo todavia entretanto pois porque porquanto que se como
quando enquanto onde aonde donde logo entao assim tambem ainda ja so somente apenas
eu tu ele ela nos vos eles elas me te se lhe lhes mim ti si comigo contigo consigo
conosco convosco o lo la los las no na
meu minha meus minhas teu tua teus tuas seu sua seus suas nosso nossa nossos nossas
vosso vossa vossos vossas
este esta estes estas isto esse essa esses essas isso aquele aquela aqueles aquelas aquilo
deste desta destes destas disto desse dessa desses dessas disso daquele daquela daqueles
daquelas daquilo neste nesta nestes nestas nisto nesse nessa nesses nessas nisso naquele
naquela naqueles naquelas naquilo dele dela deles delas nele nela neles nelas
qual quais quem cujo cuja cujos cujas quanto quanta quantos quantas
todo toda todos todas tudo cada outro outra outros outras algum alguma alguns algumas
nenhum nenhuma nada ninguem alguem mesmo mesma mesmos mesmas tal tais tanto tanta tantos
tantas muito muita muitos muitas pouco pouca poucos poucas mais menos mui
aqui ali la ai ca aquem alem
nao sim
ser sou es e somos sois sao era eras eramos ereis eram fui foste foi fomos fostes foram
fora foras foramos foreis sera seras seremos sereis serao seria serias seriam seja sejas
sejamos sejais sejam fosse fosses fossemos fosseis fossem for fores formos fordes forem
sendo sido
estar estou estas esta estamos estais estao estava estavas estavamos estaveis estavam
estive esteve estivemos estiveram estivera esteja estejam estivesse estivessem estando
estado
ter tenho tens tem temos tendes tinha tinhas tinhamos tinheis tinham tive teve
tivemos tivestes tiveram tivera tiver tiverem tivesse tivessem tenha tenhas tenhamos
tenhais tenham tendo tido terei teras tera teremos tereis terao teria teriam
haver hei has ha havemos heis hao havia haviam houve houveram houvera houver houverem
houvesse houvessem haja hajam havendo havido
lho lha lhos lhas mo mos to tos tas
eis oh ah
""".split()

STOPWORDS: frozenset[str] = frozenset(_WORDS)
