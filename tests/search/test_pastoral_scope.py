"""Pastoral by meaning for the evidence gate (issue 21): a person's life is heard, a request for a thing is not."""

from __future__ import annotations

import pytest

from pastor.search.gates import Calibration, Evidence, Gate
from pastor.search.modes import SearchMode as Mode
from pastor.search.pastoral_scope import PastoralScope, load_scope_examples
from pastor.text.pastoral_vocabulary import is_pastoral


@pytest.fixture(scope="module")
def scope(real_embedder):
    return PastoralScope(real_embedder)


@pytest.mark.parametrize(
    "message",
    [
        "perdi a vontade de ir aos encontros, me afastei de todo mundo",
        "meu sogro mora com a gente e a casa virou um campo de batalha",
        "fiquei sabendo que meu marido tem outra família",
        "não sei lidar com as crises do meu filho autista",
    ],
)
def test_a_persons_life_is_pastoral_by_meaning(scope, message):
    assert scope.pastoral(message)


@pytest.mark.parametrize(
    "message",
    [
        "como fazer brigadeiro de panela",
        "quanto custa uma passagem para o Recife",
        "como criar uma tabela em SQL",
        "quem é o artilheiro do campeonato",
        "qual a cotação da libra esterlina",
    ],
)
def test_a_request_for_a_thing_is_not(scope, message):
    assert not scope.pastoral(message)


def test_the_shipped_examples_hold_both_scopes():
    assert {scope for scope, _ in load_scope_examples()} == {"pastoral", "off_topic"}


def test_a_bad_line_is_named(tmp_path):
    path = tmp_path / "scope.tsv"
    path.write_text("# comment\npastoral\testou triste\nreceita\tbolo\n", encoding="utf-8")
    with pytest.raises(ValueError, match="linha 3"):
        load_scope_examples(path)


def test_pastoral_by_meaning_gets_the_lower_bar(scope):
    """The vocabulary has no word in it; the meaning is enough for the gate's pastoral bar."""
    message = "meu sogro mora com a gente e a casa virou um campo de batalha"
    assert not is_pastoral(message)
    calibration = Calibration(0.0, 0.1)
    weak = 0.15  # z = 1.5: under the general bar, over the pastoral one
    plain = Evidence(weak, 0.0, 4, pastoral=is_pastoral(message))
    heard = Evidence(weak, 0.0, 4, pastoral=is_pastoral(message) or scope.pastoral(message))
    assert Gate().decide(plain, calibration)[0] == Mode.NO_EVIDENCE
    assert Gate().decide(heard, calibration)[0] == Mode.RAG


@pytest.mark.parametrize("message", ["como fazer pão de queijo?", "quem é o namorado da Taylor Swift"])
def test_a_request_for_a_thing_is_refused_even_near_a_verse(scope, message):
    """Bread has verses, and a celebrity's name can carry pastoral vocabulary: the classifier is sure it is a
    request for a thing, and the gate refuses it whatever the vector match."""
    assert scope.probability(message) < scope.off_topic_bar
    calibration = Calibration(0.0, 0.1)
    strong = Evidence(0.6, 1.0, 4, pastoral=True, off_topic=True)  # z = 6
    assert Gate().decide(strong, calibration)[0] == Mode.NO_EVIDENCE
    assert Gate().decide(Evidence(0.6, 1.0, 4, pastoral=True), calibration)[0] == Mode.RAG


def test_the_scope_classifier_is_trained_on_the_blind_authors_messages_too():
    from pastor.search.pastoral_scope import scope_training

    examples = scope_training()
    assert len(examples) > len(load_scope_examples()) + 1000 and {s for s, _ in examples} == {"pastoral", "off_topic"}


def test_the_app_trains_the_scope_while_it_loads(real_embedder, tmp_path):
    """The evidence gate's classifier is ready once the chat is built (the background load), so the first
    person's question does not wait for it; a broken one does not stop the router from loading."""
    from types import SimpleNamespace

    from pastor.config import Settings
    from pastor.wiring import build_router

    class Broken(PastoralScope):
        def warm(self):
            raise RuntimeError("sem memória")

    settings = Settings.from_env({"PASTOR_DATA_DIR": str(tmp_path)})
    ready = PastoralScope(real_embedder, examples=[("pastoral", "perdi meu emprego"), ("off_topic", "receita de bolo")])
    engine = SimpleNamespace(resources=SimpleNamespace(embedder=real_embedder), retriever=SimpleNamespace(scope=ready))
    assert ready._classifier is None
    build_router(settings, engine)
    assert ready._classifier is not None
    engine.retriever.scope = Broken(real_embedder)
    assert build_router(settings, engine).semantic is not None
