"""The translation a person reads (issue 22): the API's `translation`, chapters served by /lookup, and the
same citations, validation and verse ids whichever text is shown."""

from __future__ import annotations

import pytest
from gradio_client.exceptions import AppError

from pastor.answer.chat import ChatService
from pastor.answer.filters import AnswerFilter
from pastor.bible.translations import Translations, UnknownTranslation, declared
from pastor.bible.usfx import load_bible
from pastor.config import ROOT, ConfigError, Settings
from pastor.providers.fake import FakeProvider
from pastor.search.results import Source
from pastor.web.reader import chapter_html
from tests.support.app_fixtures import FIXTURES, MINI_CORPUS, LiveServer, app_settings

OLD = FIXTURES / "app" / "por-mini1911.usfx.xml"  # the cited text, a few verses in the 1911 spelling
OLD_JOHN = "todo aquelle que n'elle crê"
NEW_JOHN = "todo aquele que nele crê"


@pytest.fixture(scope="module")
def texts() -> Translations:
    return Translations(load_bible(OLD), [load_bible(MINI_CORPUS)])


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    """The app on the old-spelling text with its modern translation; no vectors (lookup and BM25 suffice)."""
    settings = app_settings(
        tmp_path_factory.mktemp("translations"),
        PASTOR_CORPUS=str(OLD),
        PASTOR_EXTRA_CORPORA=str(MINI_CORPUS),
        PASTOR_BACKGROUND_INDEX="false",
        LLM_PROVIDER="none",
    )
    server = LiveServer(settings).start()
    server.runtime.wait_loaded(60)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def client(live):
    return live.client()


# == the setting ===================================================================================
class TestSetting:
    def test_the_default_is_the_modern_text_and_the_cited_one_is_first(self, texts):
        assert texts.default == "mini" and texts.keys == ["mini1911", "mini"]
        assert Translations(load_bible(OLD)).default == "mini1911"  # alone, the cited text is the default
        assert Translations(load_bible(OLD), [load_bible(MINI_CORPUS)], "mini1911").default == "mini1911"

    def test_a_loaded_translation_can_be_the_default(self):
        settings = Settings.from_env({"PASTOR_TRANSLATION": "blivre"})
        assert settings.translation == "blivre"

    def test_an_unknown_one_stops_the_app_naming_the_variable(self):
        with pytest.raises(ConfigError, match="PASTOR_TRANSLATION: use almeida1911 ou blivre"):
            Settings.from_env({"PASTOR_TRANSLATION": "nvi"})
        with pytest.raises(ConfigError, match="PASTOR_TRANSLATION"):
            Settings.from_env({"PASTOR_TRANSLATION": "blivre", "PASTOR_EXTRA_CORPORA": ""})

    def test_the_shipped_translations_carry_their_titles_and_credits(self):
        shipped = declared([ROOT / "corpus/por-almeida1911.usfx.xml.gz", ROOT / "corpus/por-blivre.usfx.xml.gz"])
        assert [(key, title) for key, title, _ in shipped] == [
            ("almeida1911", "Almeida 1911"),
            ("blivre", "Bíblia Livre"),
        ]
        assert "Diego Santos" in shipped[1][2] and "CC BY 4.0" in shipped[1][2]


# == texts by verse id ===============================================================================
class TestTexts:
    def test_a_verse_reads_in_each_translation(self, texts):
        assert OLD_JOHN in texts.text("JHN 3:16", "mini1911") and NEW_JOHN in texts.text("JHN 3:16")

    def test_an_unknown_translation_names_the_loaded_ones(self, texts):
        with pytest.raises(UnknownTranslation, match="mini1911, mini"):
            texts.get("nvi")
        assert texts.resolve("nvi") == "mini" and texts.resolve(None) == "mini"

    def test_a_verse_the_translation_lacks_keeps_the_cited_text(self, tmp_path):
        lacking = tmp_path / "por-curta.usfx.xml"
        lacking.write_text(
            MINI_CORPUS.read_text(encoding="utf-8").replace(
                '<v id="16"/>Porque Deus amou', '<v id="17"/>Porque Deus amou'
            ),
            encoding="utf-8",
        )
        both = Translations(load_bible(OLD), [load_bible(lacking)])
        assert OLD_JOHN in both.text("JHN 3:16", "curta")

    def test_the_chapter_panel_marks_the_verse(self, texts):
        page = chapter_html(texts, "PSA 23:4", "mini")
        assert "<h3>Salmos 23</h3>" in page and page.count('class="pastor-here"') == 1
        assert '<p class="pastor-here" aria-current="true"><sup>4</sup>Ainda que eu ande' in page


class TestReaderHandlers:
    @pytest.fixture
    def reader(self, texts, tmp_path):
        from types import SimpleNamespace

        from pastor.web.reader import Reader

        settings = app_settings(tmp_path, PASTOR_CORPUS=str(OLD), PASTOR_EXTRA_CORPORA=str(MINI_CORPUS))
        return Reader(SimpleNamespace(settings=settings, engine=SimpleNamespace(translations=texts)))

    def test_a_stale_remembered_choice_reads_the_default(self, reader):
        assert reader.restore("mini1911")[0] == "mini1911"
        assert reader.restore("nvi")[0] == reader.restore(None)[0] == reader.restore(["x"])[0] == "mini"

    @pytest.mark.parametrize("verse", ["", "JHN 3:99", "<script>", "JHN 3:16; DROP", None, 42])
    def test_a_bad_verse_id_gets_a_message_not_an_error(self, reader, verse):
        panel, page = reader.open_chapter(verse, "mini")
        assert panel["visible"] is True and "Não encontrei esse versículo" in page and "<script>" not in page

    def test_the_chapter_opens_in_the_chosen_text(self, reader):
        _, page = reader.open_chapter("JHN 3:16", "mini")
        assert NEW_JOHN in page and "<h3>João 3</h3>" in page


# == the citation validator does not depend on the text shown =====================================
ANSWERS = [
    "Deus amou o mundo (João 3:16) e o Senhor é o meu pastor (Salmos 23:1).",
    "Veja João 3:17 e Salmos 23:4; também Gênesis 1:1 e Efésios 4:32.",
    "Em Jo 3.16 e Sl 23,1 há consolo, mas não em Apocalipse 22:21 nem em Hezequias 3:1.",
    "Perdoar é um caminho (Efésios 4:32), como em [FONTE 2] e em Mateus 18:22.",
]


class TestValidatorIsTheSame:
    @pytest.mark.parametrize("answer", ANSWERS)
    def test_citations_and_removals_match(self, texts, answer):
        outcomes = []
        for key in texts.keys:
            sources = [
                Source(i, texts.cited.by_id[i].reference, texts.text(i, key))
                for i in ("JHN 3:16", "PSA 23:1", "PSA 23:4", "EPH 4:32")
            ]
            validator = AnswerFilter("", sources)
            shown = "".join(validator.feed(answer[i : i + 5]) for i in range(0, len(answer), 5)) + validator.finish()
            outcomes.append((shown, list(validator.citations), list(validator.removed)))
        assert outcomes[0] == outcomes[1]
        assert outcomes[0][1]  # something was cited, so the comparison means something

    def test_a_whole_turn_differs_only_in_the_quoted_text(self, texts, tmp_path):
        from tests.answer.test_chat import load_engine
        from tests.support.core_fixtures import HashEmbedder, settings_for

        engine = load_engine(
            settings_for(tmp_path / "data", PASTOR_CORPUS=str(OLD), PASTOR_EXTRA_CORPORA=str(MINI_CORPUS)),
            HashEmbedder(),
        )
        finals = {}
        for key in engine.translations.keys:
            provider = FakeProvider(chunk=4)
            provider.enqueue("Deus amou o mundo (João 3:16); veja também Apocalipse 22:21.")
            service = ChatService(engine.retriever, engine.resources.bible, provider, translations=engine.translations)
            finals[key] = list(service.turn("o que diz João 3:16?", translation=key))[-1]
        old, new = finals["mini1911"].result, finals["mini"].result
        assert finals["mini1911"].answer == finals["mini"].answer
        assert (old.citations, old.removed_citations, old.mode) == (new.citations, new.removed_citations, new.mode)
        assert [s.id for s in old.sources] == [s.id for s in new.sources] == ["JHN 3:16"]
        assert OLD_JOHN in old.sources[0].text and NEW_JOHN in new.sources[0].text
        with pytest.raises(UnknownTranslation):
            next(service.turn("o que diz João 3:16?", translation="nvi"))


class TestCrisis:
    def test_the_comforting_verses_are_quoted_in_the_reader_s_translation(self, texts, tmp_path):
        from tests.answer.test_chat import load_engine
        from tests.support.core_fixtures import HashEmbedder, settings_for

        engine = load_engine(
            settings_for(tmp_path / "data", PASTOR_CORPUS=str(OLD), PASTOR_EXTRA_CORPORA=str(MINI_CORPUS)),
            HashEmbedder(),
            index=False,
        )
        service = ChatService(
            engine.retriever, engine.resources.bible, FakeProvider(), translations=engine.translations
        )
        old = list(service.turn("quero me matar", translation="mini1911"))[-1]
        new = list(service.turn("quero me matar"))[-1]  # the modern text is the default
        assert old.result.mode == new.result.mode == "crisis" and old.result.citations == new.result.citations
        assert "estaes cançados e opprimidos" in old.answer and "cansados e sobrecarregados" in new.answer
        assert [s.id for s in old.result.sources] == [s.id for s in new.result.sources]


# == the API ========================================================================================
class TestApi:
    def test_lookup_in_each_translation(self, client):
        old = client.predict("João 3:16", "mini1911", api_name="/lookup")
        new = client.predict("João 3:16", api_name="/lookup")  # the modern text is the default
        assert OLD_JOHN in old["references"][0]["verses"][0]["text"]
        assert NEW_JOHN in new["references"][0]["verses"][0]["text"]
        assert old["references"][0]["verses"][0]["id"] == new["references"][0]["verses"][0]["id"] == "JHN 3:16"

    def test_lookup_of_a_chapter_serves_the_chapter(self, client):
        for text in ("Salmos 23", "Sl 23"):
            result = client.predict(text, "mini", api_name="/lookup")
            assert [v["id"] for v in result["references"][0]["verses"]] == ["PSA 23:1", "PSA 23:4"]
        john = client.predict("Jo 14", api_name="/lookup")
        assert john["references"][0]["reference"] == "João 14"
        assert [v["id"] for v in john["references"][0]["verses"]] == ["JHN 14:1", "JHN 14:27"]

    def test_search_in_the_modern_text(self, client):
        result = client.predict("Deus amou o mundo", 3, "bible", "mini", api_name="/search")
        john = next(r for r in result["results"] if r["id"] == "JHN 3:16")
        assert NEW_JOHN in john["text"] and john["reference"] == "João 3:16"

    def test_chat_in_the_modern_text(self, client):
        job = client.submit("o que diz João 3:16?", None, "mini", api_name="/chat")
        final = job.result(timeout=60)
        assert NEW_JOHN in final["answer"] and OLD_JOHN not in final["answer"]
        assert NEW_JOHN in final["sources"][0]["text"] and final["sources"][0]["id"] == "JHN 3:16"

    @pytest.mark.parametrize(
        "endpoint, args",
        [
            ("/lookup", ("João 3:16", "nvi")),
            ("/search", ("Deus amou o mundo", 3, "all", "nvi")),
            ("/chat", ("o que diz João 3:16?", None, "nvi")),
        ],
    )
    def test_an_unknown_translation_is_a_clear_error(self, client, endpoint, args):
        with pytest.raises(AppError, match="translation inválida. Use uma destas: mini1911, mini"):
            client.predict(*args, api_name=endpoint)
