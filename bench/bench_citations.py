"""Streaming citation validation: how much text is held back, how long each chunk takes, what ordinary
answers lose (false removals, each printed) and which of issue 18's reference forms reach any partial."""

from __future__ import annotations

import difflib
import json
import statistics
import time

from pastor.answer.filters import AnswerFilter
from pastor.answer.prompts import build_messages
from pastor.answer_filter import shapes
from pastor.answer_filter.citations import validate
from pastor.answer_filter.streaming import StreamingValidator
from pastor.bible.canon import by_code
from pastor.datasets import dataset
from pastor.search.results import Source

ALLOWED = {
    "JHN 3:16",
    "JHN 14:27",
    "PHP 4:6",
    "PHP 4:7",
    "MAT 11:28",
    "PSA 23:1",
    "PSA 23:4",
    "PSA 34:18",
    "ROM 8:28",
    "ISA 41:10",
    "1PE 5:7",
    "1CO 13:4",
    "1CO 13:5",
    "1CO 13:6",
    "1CO 13:7",
}
DOCS = {"estatuto.md#p0-c3", "example/faq.json#p2-c0"}

# Realistic answers (~600 characters), with supported, invented and half-supported citations.
ANSWERS = (
    "Sinto muito pelo que você está vivendo. A ansiedade pesa, mas a Palavra nos convida a entregar tudo "
    'a Deus em oração: "Não andeis ansiosos de coisa alguma" (Filipenses 4:6-7). Jesus também disse: '
    '"Deixo-vos a paz, a minha paz vos dou" (João 14:27; Jo 14:28). Quando o coração apertar, lembre-se '
    "de que Ele cuida de você, como lemos em 1 Pedro 5:7 e em Hezequias 3:16. Se a angústia continuar, "
    "procure também um profissional de saúde, que pode caminhar com você. Que tal orarmos juntos agora? "
    "Conte comigo para continuar esta conversa sempre que precisar.",
    "O amor, segundo a Escritura, é paciente e bondoso (1Co 13,4-7). Ele não se alegra com a injustiça, "
    "mas se alegra com a verdade. Em João 3:16 vemos a medida desse amor: Deus deu o seu Filho. Também "
    "Romanos 8:28 lembra que todas as coisas cooperam para o bem dos que amam a Deus (cf. Rm 8:29-30). "
    "Se quiser saber dos encontros de casais da igreja, o estatuto.md#p0-c3 explica como participar, e "
    "example/faq.json#p2-c1 traz os horários. Que o Senhor fortaleça o seu lar e a sua fé a cada dia, "
    "com paciência e ternura.",
    "Quando a dor da perda chega, o Salmo 34:18 nos consola: o Senhor está perto dos que têm o coração "
    "quebrantado. Mesmo no vale da sombra da morte não precisamos temer, porque Ele está conosco "
    '(Salmos 23:4, Sl 23:5 e Tobias 1:1). Jesus chama: "Vinde a mim, todos os que estais cansados" '
    "— Mateus 11:28. E Isaías 41:10 diz: não temas, porque eu sou contigo. Chore o quanto precisar; "
    "o luto é também uma forma de amor. Estou aqui para ouvir você e orar com você sempre que quiser, "
    "hoje ou em qualquer outro dia.",
)
# The same kind of answer written with the forms that once slipped past the validator: invisible
# characters, a decomposed accent, a Cyrillic look-alike, Markdown emphasis, English names, roman numerals.
ADVERSARIAL = (
    'Sinto muito pelo que você está vivendo. Jesus disse: "Deixo-vos a paz" (Jo\u200bão 14:27). Ele '
    "também nos lembra, em Joa\u0303o 14:6, que é o caminho, e R\u043emanos 8:28 diz que tudo coopera para o "
    "bem. Como disse **Hezequias 3:16**, confie; veja *Rom*anos 8:29, John 14:1 e Romanos VIII:31. Entregue "
    "suas preocupações a Deus em oração (Filipenses 4:6-7) e lembre que Ele cuida de você (1 Pedro 5:7). "
    "Se a angústia continuar, procure também alguém de confiança. Estou aqui para orar com você.",
)
CHUNK_SIZES = (1, 3, 8, 20)
# Ordinary answers with numbers (times, ages, versions, prices, romans) and supported references,
# written before the validator changes of issue 18.
ORDINARY = dataset("references/ordinary_answers.jsonl")
# Issue 18, problem 1: the forms a second probe still saw on the screen, each unsupported.
ISSUE18_FORMS = (
    "hezequias 3:16",
    "john 14:6",
    "\u0280omanos 8:28",
    "John 14\u22366",
    "John 14\ua7896",
    "John 14\u05896",
    "John 14.6",
    "Romans 8,28",
    "Hezequias 3.16",
    "Hezequias\n3:16",
    "Hezequias 3\\:16",
    "Romanos `8:28`",
    "`Romanos` 8:28",
    "Salmo XXIII",
    "Hezequias 3",
)
ISSUE18_TEMPLATES = (
    "Como disse {form}, confie.",
    "Deus nos ama ({ok}). Leia {form} e {ok} hoje.",
    "Versículos:\n- {form}\n- {ok}\n",
    "Veja ({ok}; {form}) com calma.",
)


def whole_filter() -> AnswerFilter:
    sources = sources_for(ALLOWED) + [Source(id=d, reference=d, kind="doc") for d in sorted(DOCS)]
    return AnswerFilter(build_messages("rag", "pergunta", sources, history_turns=0)[0], sources)


def run(text: str, size: int, make=lambda: StreamingValidator(ALLOWED, DOCS)) -> tuple[list[int], list[float]]:
    validator = make()
    lags, times, emitted = [], [], ""
    for start in range(0, len(text), size):
        t0 = time.perf_counter()
        emitted += validator.feed(text[start : start + size])
        times.append((time.perf_counter() - t0) * 1000)
        lags.append(validator.held)
    emitted += validator.finish()
    whole = make()
    assert emitted == whole.feed(text) + whole.finish(), "streamed text differs from the whole text at once"
    return lags, times


def table(title: str, answers, make=lambda: StreamingValidator(ALLOWED, DOCS)) -> None:
    print(
        f"\n{title}: {len(answers)} answer(s) of {', '.join(str(len(a)) for a in answers)} characters; "
        "lag = characters received but not yet shown"
    )
    print(f"{'chunk':>5}  {'lag max':>7}  {'lag mean':>8}  {'ms mean':>7}  {'ms p95':>6}  {'ms max':>6}")
    for size in CHUNK_SIZES:
        lags, times = [], []
        for answer in answers:
            answer_lags, answer_times = run(answer, size, make)
            lags += answer_lags
            times += answer_times
        p95 = statistics.quantiles(times, n=20)[-1] if len(times) > 1 else times[0]
        print(
            f"{size:>5}  {max(lags):>7}  {statistics.mean(lags):>8.1f}  {statistics.mean(times):>7.2f}  "
            f"{p95:>6.2f}  {max(times):>6.2f}"
        )


def sources_for(allowed) -> list[Source]:
    """Sources as the chat service passes them, one per verse id (`JHN 3:16` → `João 3:16`)."""
    books = by_code()
    return [Source(id=v, reference=f"{books[v.split()[0]].name} {v.split()[1]}") for v in sorted(allowed)]


def through_filter(text: str, allowed, size: int = 3) -> str:
    sources = sources_for(allowed)
    answer = AnswerFilter(build_messages("rag", "pergunta", sources, history_turns=0)[0], sources)
    return "".join(answer.feed(text[i : i + size]) for i in range(0, len(text), size)) + answer.finish()


def false_removals(title: str, run_one) -> None:
    """Every ordinary answer that loses text, with what it lost."""
    rows = [json.loads(line) for line in ORDINARY.read_text(encoding="utf-8").splitlines() if line.strip()]
    changed, lost = 0, 0
    for row in rows:
        shown = run_one(row["text"], set(row["allowed"]))
        if shown != row["text"]:
            changed += 1
            gone = [
                row["text"][a:b]
                for tag, a, b, _, _ in difflib.SequenceMatcher(None, row["text"], shown).get_opcodes()
                if tag != "equal"
            ]
            lost += sum(map(len, gone))
            print(f"  changed: {gone!r} in {row['text'][:70]!r}…")
    print(f"{title}: {changed} of {len(rows)} ordinary answers changed, {lost} characters lost")


def issue18_forms() -> None:
    """How many of issue 18's forms reach a partial or the final answer, per chunk size."""
    allowed, ok = {"JHN 3:16"}, "João 3:16"
    for size in (1, 3, 11):
        leaks, kept, total = 0, 0, 0
        for form in ISSUE18_FORMS:
            for template in ISSUE18_TEMPLATES:
                text, total = template.format(form=form, ok=ok), total + 1
                validator, shown, seen = StreamingValidator(allowed), "", False
                for start in range(0, len(text), size):
                    shown += validator.feed(text[start : start + size])
                    seen |= form in shown
                shown += validator.finish()
                leaks += seen or form in shown
                kept += "{ok}" not in template or ok in shown
        print(
            f"issue 18 forms, chunks of {size:>2}: {leaks} of {total} texts show the form in a partial or "
            f"the final answer; the supported reference kept in {kept} of {total}"
        )


def main() -> None:
    t0 = time.perf_counter()
    run(ANSWERS[0][:40], 40)  # builds the book-name patterns once per process
    print(f"first chunk of the process (pattern build): {(time.perf_counter() - t0) * 1000:.0f} ms")
    for title, answers in (("ordinary", ANSWERS), ("adversarial", ADVERSARIAL)):
        table(title, answers)
    table("ordinary, whole answer filter (markers, leaks, citations)", ANSWERS, whole_filter)
    print()
    issue18_forms()
    print()
    false_removals("validate()", lambda text, allowed: validate(text, allowed).text)
    false_removals("answer filter (markers, leaks, citations), chunks of 3", through_filter)
    full = shapes.NOT_BOOKS
    shapes.NOT_BOOKS = shapes.STOPWORDS | shapes.CLOCK_WORDS  # the same, without the quantity words
    false_removals("validate() without QUANTITY_WORDS", lambda text, allowed: validate(text, allowed).text)
    shapes.NOT_BOOKS = full
    for answer in ANSWERS + ADVERSARIAL:
        result = validate(answer, ALLOWED, DOCS)
        print(f"\nkept: {result.citations}\nremoved: {result.removed}")


if __name__ == "__main__":
    main()
