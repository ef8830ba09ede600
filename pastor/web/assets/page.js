// Pastor Online: citations that open their source, the copy button, and labels Gradio leaves empty.
(() => {
  const LABEL_TOGGLE = "Mostrar ou ocultar as fontes";
  const OPENING_MS = 400;  // a little longer than the accordion's slide

  function sourceGroup(element) {
    // The answer and its sources accordion share one bubble (consecutive assistant messages).
    return element.closest(".message-wrap .message-row, .message-row") || element.closest("#chatbot");
  }

  function findEntry(group, key) {
    return group.querySelector(".pastor-source." + CSS.escape(key)) ||
      document.querySelector("#chatbot .pastor-source." + CSS.escape(key));
  }

  function flash(entry) {
    entry.scrollIntoView({ block: "center", behavior: "instant" });
    entry.classList.add("pastor-flash");
    entry.setAttribute("tabindex", "-1");
    entry.focus({ preventScroll: true });
    // The accordion slides open after the entry appears: centre it again once it has its final place.
    setTimeout(() => entry.scrollIntoView({ block: "center", behavior: "instant" }), OPENING_MS);
    setTimeout(() => entry.classList.remove("pastor-flash"), 2500);
  }

  function openSource(link) {
    const key = (link.getAttribute("href") || "").slice(1);
    if (!key) return;
    const group = sourceGroup(link);
    let entry = findEntry(group, key);
    if (entry) return flash(entry);
    // Collapsed: open the accordion that holds it, then wait for its content to render.
    const toggles = [...group.querySelectorAll(".thought-group .title")];
    const toggle = toggles[toggles.length - 1] || document.querySelector("#chatbot .thought-group .title");
    if (!toggle) return;
    toggle.click();
    let tries = 0;
    const wait = () => {
      entry = findEntry(group, key);
      if (entry) return flash(entry);
      if (++tries < 40) setTimeout(wait, 50);
    };
    wait();
  }

  function decode(html) {
    const box = document.createElement("textarea");
    box.innerHTML = html.replace(/<br\s*\/?>/gi, "\n").replace(/<[^>]*>/g, "");
    return box.value;
  }

  async function copyAnswer(button) {
    const hidden = button.parentElement.querySelector(".pastor-copytext");
    if (!hidden) return;
    const text = decode(hidden.innerHTML);
    try {
      await navigator.clipboard.writeText(text);
    } catch (error) {
      const area = document.createElement("textarea");
      area.value = text;
      area.style.position = "fixed";
      area.style.left = "-9999px";
      document.body.appendChild(area);
      area.select();
      document.execCommand("copy");
      area.remove();
    }
    window.__pastorCopied = text;
    button.textContent = "✅ Copiado";
    setTimeout(() => { button.textContent = "📋 Copiar"; }, 2000);
  }

  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("a.pastor-cite");
    if (link) {
      event.preventDefault();
      event.stopPropagation();
      openSource(link);
      return;
    }
    const copy = event.target.closest && event.target.closest("button.pastor-copy");
    if (copy) {
      event.preventDefault();
      event.stopPropagation();
      copyAnswer(copy);
    }
  }, true);

  // Labels Gradio leaves empty, in English (its i18n does not cover them) or as raw message markup.
  // Gradio writes these in its components' code, outside its i18n (see the README, "Gradio's strings").
  const ENGLISH = { "Liked": "Gostei (marcado)", "Disliked": "Não gostei (marcado)", "Feedback": "Avaliação",
    "chatbot conversation": "Conversa", "Loading response": "Preparando a resposta", "More tabs": "Mais abas",
    "Gradio footer navigation": "Rodapé", "Stop Recording": "Parar a gravação", "logo": "Gradio" };
  const SPEAKERS = { "bot's message: ": "Pastor Online: ", "user's message: ": "Você: " };
  const EXAMPLE = /^Select example (\d+): /;

  function relabel(element) {
    const example = (element.getAttribute("aria-label") || "").match(EXAMPLE);
    if (example) element.setAttribute("aria-label", element.getAttribute("aria-label").replace(EXAMPLE, "Exemplo $1: "));
    for (const name of ["aria-label", "title", "alt"]) {
      const value = element.getAttribute(name);
      if (value && ENGLISH[value]) element.setAttribute(name, ENGLISH[value]);
    }
    const label = element.getAttribute("aria-label") || "";
    for (const [english, portuguese] of Object.entries(SPEAKERS)) {
      // Gradio puts the message's raw markup in the label; a screen reader should hear the text.
      if (label.startsWith(english)) element.setAttribute("aria-label", portuguese + element.innerText.trim());
    }
  }

  function label() {
    const chat = document.querySelector("#chatbot");
    if (!chat) return;
    chat.querySelectorAll(".thought-group .title button[aria-label='']").forEach((b) => {
      b.setAttribute("aria-label", LABEL_TOGGLE);
      b.setAttribute("title", LABEL_TOGGLE);
    });
    chat.querySelectorAll(".thought-group .title[role='button']:not([aria-label])").forEach((t) => {
      t.setAttribute("aria-label", LABEL_TOGGLE + ": " + t.innerText.trim());
    });
    document.querySelectorAll("[aria-label], [title], [alt]").forEach(relabel);
    // The footer's hidden recording button carries its English name as text.
    document.querySelectorAll("footer button.record").forEach((button) => {
      const text = button.firstChild;
      if (text && text.nodeType === Node.TEXT_NODE && ENGLISH[text.textContent.trim()]) {
        text.textContent = ENGLISH[text.textContent.trim()] + " ";
      }
    });
  }

  // The chat's height is what the window leaves once everything else of the tab is placed, so the input,
  // a notice, the mode line, the hint and the choice of Bible text are never below the bottom edge (issues 22
  // and 29). CSS reads the value.
  const MIN_CHAT = 200;  // px: below this a very small window scrolls the page instead
  const BOTTOM_GAP = 12;  // px left under the last line of the tab
  let chatHeight = 0;
  function fitChat() {
    const chat = document.querySelector("#chatbot");
    const tab = document.querySelector("#chat-tab");
    if (!chat || !tab || tab.offsetParent === null) return;
    const shown = [...tab.querySelectorAll("#input-row, #hint-row, #comment-row, #translation-row")].filter((e) => e.offsetParent !== null);
    if (!shown.length) return;
    const bottom = Math.max(...shown.map((e) => e.getBoundingClientRect().bottom)) + window.scrollY;
    const rest = bottom - chat.getBoundingClientRect().height;  // everything above and under the chat
    const height = Math.max(MIN_CHAT, Math.floor(window.innerHeight - rest - BOTTOM_GAP));
    if (Math.abs(height - chatHeight) < 2) return;
    chatHeight = height;
    document.documentElement.style.setProperty("--pastor-chat-height", height + "px");
  }
  window.addEventListener("resize", () => { chatHeight = 0; schedule(); });

  // A crisis reply opens with the help lines: show its top, not its end. Gradio scrolls the chat to the
  // bottom after each render, so for a short while every render is followed by this; then the person
  // scrolls freely.
  const CRISIS_HOLD_MS = 2000;
  let crisisCount = 0;  // crisis replies in the chat: one more means a new one arrived
  let holdUntil = 0;
  function showCrisis() {
    const marks = document.querySelectorAll("#chatbot .pastor-crisis-top");
    if (marks.length > crisisCount) holdUntil = Date.now() + CRISIS_HOLD_MS;
    crisisCount = marks.length;
    if (!marks.length || Date.now() > holdUntil) return;
    marks[marks.length - 1].scrollIntoView({ block: "start", behavior: "instant" });
  }
  // Gradio's own scroll to the end sets scrollTop without changing the page: answer it too.
  document.addEventListener("scroll", () => { if (Date.now() <= holdUntil) showCrisis(); }, true);

  let pending = false;
  const schedule = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; label(); fitChat(); showCrisis(); });
  };
  new MutationObserver(schedule).observe(document.documentElement, {
    subtree: true, childList: true, characterData: true, attributes: true,
    attributeFilter: ["aria-label", "title", "alt", "class", "style"],
  });
})();
