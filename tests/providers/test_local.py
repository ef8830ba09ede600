"""The `local` provider: real generation offline with tiny Qwen2 models built in the test, streaming, Stop,
one generation at a time served in order, and a model that is not ready (downloading, missing, offline)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from pastor.answer import prompts
from pastor.answer.history import History
from pastor.answer.turn_modes import Mode
from pastor.providers import ProviderError
from pastor.providers.fairslot import FairSlot
from pastor.providers.local_provider import LocalProvider, state_text
from pastor.providers.local_store import COMPLETE_MARK, ModelStore
from pastor.providers.local_torch import TorchRuntime
from pastor.providers.provider import MEMBER_NOTICE
from pastor.search.results import Source
from tests.support.helpers import retriever_over, wait_for
from tests.support.model_fixtures import WIRED_REPLY

SOURCES = [
    Source("Mateus 6:34", reference="Mateus 6:34", text="Não vos inquieteis, pois, pelo dia de amanhã", kind="verse")
]


def rag_prompt(question: str = "Estou com medo do futuro"):
    return prompts.build_messages(Mode.RAG, question, SOURCES, History(), history_turns=10)


def ready(folder: Path, **options) -> LocalProvider:
    provider = LocalProvider(model=str(folder), **options)
    provider.start()
    assert provider.store.wait(60).phase == "ready", state_text(provider.store.state())
    return provider


class TestGeneration:
    def test_streams_the_reply_token_by_token_through_the_chat_template(self, wired_model):
        provider = ready(wired_model, temperature=0.3)
        system, messages = rag_prompt()
        deltas = list(provider.stream(system, messages))
        assert "".join(deltas) == WIRED_REPLY and len(deltas) > 3

    def test_the_system_prompt_is_computed_once_and_reused(self, wired_model):
        provider = ready(wired_model, temperature=0)
        runtime = provider.store.model
        for question in ("Estou com medo do futuro", "Como perdoar quem me magoou?"):
            system, messages = rag_prompt(question)
            assert "".join(provider.stream(system, messages)) == WIRED_REPLY
        assert len(runtime._prefixes) == 1  # one system prompt: cached after the first turn, reused by the second

    def test_complete_returns_the_whole_reply(self, wired_model):
        provider = ready(wired_model, temperature=0)
        asked = History.checked([{"role": "user", "content": "Tenho medo"}], 4000)
        system, messages = prompts.rewrite_messages(asked, "e agora?")
        assert provider.complete(system, messages) == WIRED_REPLY

    def test_status_says_what_is_loaded(self, wired_model):
        check = ready(wired_model).check()
        assert check["reachable"] and check["detail"].startswith("carregado (transformers ")
        assert check["local"]["phase"] == "ready"

    def test_the_model_loads_with_every_core_for_the_one_generation_at_a_time(self, wired_model, monkeypatch):
        import torch

        before = torch.get_num_threads()
        monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0, 1, 2})  # a machine of 3 cores for this process
        seen: list[int] = []
        try:
            ready(wired_model)
            # A generation runs in a thread of its own (the chat reads the stream in a worker): it sees the setting.
            reader = threading.Thread(target=lambda: seen.append(torch.get_num_threads()))
            reader.start()
            reader.join()
        finally:
            torch.set_num_threads(before)
        assert seen == [3]

    def test_a_cap_on_tokens_ends_the_reply(self, endless_model):
        provider = ready(endless_model, temperature=0.7, max_new_tokens=12)
        deltas = list(provider.stream(*rag_prompt()))  # one delta per token at most (bytes may wait for the next)
        assert 0 < len(deltas) <= 12


class TestStopAndQueue:
    def test_stop_ends_generation_at_once_and_frees_the_slot(self, endless_model):
        provider = ready(endless_model, temperature=0.7, max_new_tokens=100_000)
        cancel = threading.Event()
        stream = provider.stream(*rag_prompt(), cancel=cancel)
        assert next(stream)
        cancel.set()
        assert len(list(stream)) <= 1  # at most the token in flight
        assert provider.slot.waiting == 0
        quick = LocalProvider(model=str(endless_model), max_new_tokens=3, store=provider.store)
        quick.slot = provider.slot  # the same model: the same slot
        done = threading.Event()
        threading.Thread(target=lambda: (list(quick.stream(*rag_prompt())), done.set()), daemon=True).start()
        assert done.wait(30), "the slot must be free once the stopped stream ends"

    def test_closing_the_stream_frees_the_slot(self, endless_model):
        provider = ready(endless_model, temperature=0.7, max_new_tokens=100_000)
        stream = provider.stream(*rag_prompt())
        next(stream)
        stream.close()  # what the chat service does when the turn ends (deadline, Stop, new question)
        cancel = threading.Event()
        with provider.slot.hold(cancel) as mine:
            assert mine

    def test_one_generation_at_a_time_in_arrival_order(self):
        slot, order = FairSlot(), []
        holder = slot.hold(threading.Event())
        assert holder.__enter__()

        def queued(name: str):
            with slot.hold(threading.Event()) as mine:
                assert mine
                order.append(name)

        threads = []
        for name in ("primeira", "segunda", "terceira"):
            thread = threading.Thread(target=queued, args=(name,), daemon=True)
            thread.start()
            threads.append(thread)
            waiting = len(threads)
            wait_for(lambda n=waiting: slot.waiting == n, 5, "a pessoa não entrou na fila")
        holder.__exit__(None, None, None)
        for thread in threads:
            thread.join(5)
        assert order == ["primeira", "segunda", "terceira"]

    def test_a_stopped_waiter_leaves_the_queue(self):
        slot = FairSlot()
        holder = slot.hold(threading.Event())
        holder.__enter__()
        cancel, result = threading.Event(), []
        thread = threading.Thread(target=lambda: result.append(slot.hold(cancel).__enter__()), daemon=True)
        thread.start()
        wait_for(lambda: slot.waiting == 1, 5, "não entrou na fila")
        cancel.set()
        thread.join(5)
        assert result == [False] and slot.waiting == 0
        holder.__exit__(None, None, None)
        with slot.hold(threading.Event()) as mine:  # the abandoned ticket is skipped
            assert mine


class TestNotReady:
    def test_a_folder_without_a_model_fails_with_a_reason(self, tmp_path):
        provider = LocalProvider(model=str(tmp_path))
        provider.start()
        state = provider.store.wait(30)
        assert state.phase == "failed" and "config.json" in state.reason
        with pytest.raises(ProviderError) as raised:
            list(provider.stream(*rag_prompt()))
        assert raised.value.kind == "unreachable" and "não está pronto" in raised.value.user_message

    def test_an_unreachable_hub_is_said_in_portuguese(self, tmp_path):
        # The suite runs with HF_HUB_OFFLINE=1 (tests/conftest.py), as this machine and CI are offline.
        provider = LocalProvider(model="Qwen/Qwen2.5-0.5B-Instruct", data_dir=tmp_path)
        provider.start()
        state = provider.store.wait(60)
        assert state.phase == "failed" and "não foi possível baixar o modelo" in state.reason
        assert "PASTOR_LOCAL_MODEL" in provider.setup_hint()
        assert provider.member_notice() == MEMBER_NOTICE  # the failure is for the operator to read

    def test_download_progress_then_ready_and_offline_afterwards(self, tmp_path, wired_model):
        gate, calls = threading.Event(), []

        def fetch(source, folder, announce_total):
            calls.append(source)
            files = sorted((p for p in wired_model.iterdir() if p.is_file()), key=lambda p: -p.stat().st_size)
            announce_total(sum(p.stat().st_size for p in files))
            for number, path in enumerate(files):
                (folder / path.name).write_bytes(path.read_bytes())
                if number == 0:
                    gate.wait(30)  # hold the download after the first file, for the test to look

        load = lambda folder: TorchRuntime.load(folder)  # noqa: E731
        store = ModelStore("org/modelo-de-teste", tmp_path / "models", load, fetch=fetch)
        provider = LocalProvider(model="org/modelo-de-teste", store=store)
        provider.start()
        state = wait_for(
            lambda: (s := store.state()).phase == "downloading" and s.done_bytes and s, 30, "sem progresso"
        )
        assert 0 < state.percent < 100 and state_text(state).startswith(
            "baixando org/modelo-de-teste do Hugging Face Hub: "
        )
        assert "ainda estou me preparando" in provider.member_notice()
        with pytest.raises(ProviderError, match="baixando"):
            list(provider.stream(*rag_prompt()))
        gate.set()
        assert (
            store.wait(60).phase == "ready" and (tmp_path / "models" / "org--modelo-de-teste" / COMPLETE_MARK).is_file()
        )
        # A new process finds the cached copy and never fetches again.
        again = ModelStore("org/modelo-de-teste", tmp_path / "models", load, fetch=fetch)
        again.start()
        assert again.wait(60).phase == "ready" and calls == ["org/modelo-de-teste"]


def test_a_long_history_is_trimmed_oldest_first_to_the_prompt_budget(wired_model):
    provider = ready(wired_model, temperature=0)
    runtime = provider.store.model
    history = []
    for number in range(12):
        history += [
            {"role": "user", "content": f"Pergunta número {number} sobre a fé e a esperança."},
            {"role": "assistant", "content": f"Resposta número {number}, com carinho e paciência."},
        ]
    system, messages = prompts.build_messages(
        Mode.RAG, "Estou com medo do futuro", SOURCES, History.checked(history, 4000), history_turns=12
    )
    full = runtime.prompt_ids(system, messages)
    alone = runtime.prompt_ids(system, messages[-1:])
    provider.max_prompt_tokens = len(alone) + (len(full) - len(alone)) // 3  # room for a third of the history
    fitted = provider._fitted(runtime, system, messages)
    assert len(alone) < len(fitted) <= provider.max_prompt_tokens < len(full)
    text = runtime.tokenizer.decode(fitted)
    assert "Estou com medo do futuro" in text and "número 11" in text and "número 0 " not in text


def test_a_rewrite_abandoned_at_the_deadline_frees_the_model(endless_model, mini_bible):
    from pastor.answer.chat import ChatService
    from pastor.search.bm25 import LexicalIndex

    provider = ready(endless_model, temperature=0, max_new_tokens=100_000)
    lexical = LexicalIndex([v.id for v in mini_bible.verses], [v.text for v in mini_bible.verses])
    chat = ChatService(
        retriever_over(mini_bible, embedder=None, index=None, lexical=lexical), mini_bible, provider, deadline=1.0
    )
    history = [{"role": "user", "content": "Tenho medo."}, {"role": "assistant", "content": "Estou aqui."}]
    chat.ask("e agora?", history)  # a follow-up: rewritten by a call the endless model never finishes
    give_up = threading.Event()
    threading.Timer(15, give_up.set).start()  # a slot still held after 15 s fails the test instead of hanging
    with provider.slot.hold(give_up) as mine:
        assert mine, "the abandoned rewrite kept the model's slot"


def test_a_retry_after_a_failed_download_keeps_saying_the_failure_until_the_hub_answers(tmp_path):
    """Issue 29: the status no longer flips between "baixando…" and the failure while a retry asks the hub."""
    attempts, hub_answers = [], threading.Event()

    def fetch(source, folder, announce_total):
        attempts.append(source)
        if len(attempts) == 1:
            raise ConnectionError("offline")
        hub_answers.wait(30)  # the second attempt hangs on the hub, as an offline machine does for a while
        raise ConnectionError("still offline")

    store = ModelStore("org/modelo-de-teste", tmp_path / "models", lambda folder: None, fetch=fetch)
    provider = LocalProvider(model="org/modelo-de-teste", store=store)
    provider.start()
    failed = store.wait(30)
    assert failed.phase == "failed" and "não foi possível baixar" in failed.reason
    store.start()  # what the status page's probe does after RETRY_AFTER
    retrying = wait_for(lambda: (s := store.state()).phase == "downloading" and s, 30, "a nova tentativa não começou")
    text = state_text(retrying)
    assert text.startswith(failed.reason) and "tentando de novo" in text and "baixando" not in text, text
    assert "ainda está sendo preparado" not in provider.member_notice()  # it failed; the retry may fail too
    hub_answers.set()
    assert store.wait(30).phase == "failed" and state_text(store.state()) == failed.reason
