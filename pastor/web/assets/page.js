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
    scrollInChat(entry, "center");
    entry.classList.add("pastor-flash");
    entry.setAttribute("tabindex", "-1");
    entry.focus({ preventScroll: true });
    // The accordion slides open after the entry appears: centre it again once it has its final place.
    setTimeout(() => scrollInChat(entry, "center"), OPENING_MS);
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

  // Where the person left it (issue 29). Only the chat's own scroll box is ever moved by this script, never the
  // window, so the title and tabs stay in view; the browser does not bring back an old window scroll on reload.
  if ("scrollRestoration" in history) history.scrollRestoration = "manual";
  const HOLD_MS = 2000;  // Gradio scrolls the chat to the end after each render: for a short while, answer it
  let acted = false;  // the person has used the chat since the page opened (a restore is what came before)
  let restored = false;
  let crisisCount = 0;  // crisis replies in the chat: one more, after the person acted, means a new one arrived
  let held = null;  // finds the element kept at the top of the chat while the hold lasts
  let holdUntil = 0;

  function chatScroller() {
    return document.querySelector("#chatbot .bubble-wrap");
  }

  // Brings `element` to the top (or the centre) of the chat's scroll boxes; the window stays where it was.
  function scrollInChat(element, where) {
    if (!element) return;
    const [x, y] = [window.scrollX, window.scrollY];
    element.scrollIntoView({ block: where, behavior: "instant" });
    if (window.scrollX !== x || window.scrollY !== y) window.scrollTo(x, y);
  }

  const lastOf = (selector) => () => {
    const found = document.querySelectorAll(selector);
    return found[found.length - 1] || null;
  };

  function hold(find) {
    held = find;
    holdUntil = Date.now() + HOLD_MS;
    keepHeld();
  }

  function keepHeld() {
    if (held && Date.now() <= holdUntil) scrollInChat(held(), "start");
  }

  // The title and tabs back in view, when the input stays in view with them (the chat is sized so that it does):
  // the browser scrolls the window to the autofocused input before the chat has its height, and may leave it so.
  let personMoved = false;  // the person has used the page: from then on the window is theirs
  for (const name of ["pointerdown", "wheel", "touchstart", "keydown"]) {
    document.addEventListener(name, () => { personMoved = true; }, { capture: true, passive: true });
  }
  function headerBack() {
    const input = document.querySelector("#input-row");
    if (!window.scrollY || !input) return;
    if (input.getBoundingClientRect().bottom + window.scrollY <= window.innerHeight) window.scrollTo(0, 0);
  }

  // A crisis reply opens with the help lines: a new one is shown from its top, not its end. A restored
  // conversation opens at its last exchange, from its question: the last answer, not an old crisis reply.
  function follow() {
    const marks = document.querySelectorAll("#chatbot .pastor-crisis-top");
    if (acted && marks.length > crisisCount) hold(lastOf("#chatbot .pastor-crisis-top"));
    crisisCount = marks.length;
    if (!acted && !restored && document.querySelector('#chatbot [data-testid="user"]')) {
      restored = true;
      hold(lastOf('#chatbot [data-testid="user"]'));
    }
    keepHeld();
    if (!personMoved) headerBack();
  }
  // Gradio's own scroll to the end sets the chat's scrollTop without changing the page: answer it too (the
  // window's own scroll events are this script's restoring it).
  document.addEventListener("scroll", (event) => { if (event.target !== document) keepHeld(); }, true);

  // A new question is followed as on any turn: the chat at its end, so that Gradio keeps following it
  // (it stops once the chat was scrolled up, as the hold leaves it).
  function sent() {
    acted = true;
    held = null;
    headerBack();
    const wrap = chatScroller();
    if (wrap) wrap.scrollTop = wrap.scrollHeight;
  }
  document.addEventListener("keydown", (event) => {
    const inBox = event.target.closest && event.target.closest("#message-box");
    if (inBox && event.key === "Enter" && !event.shiftKey && !event.isComposing) sent();
  }, true);
  document.addEventListener("click", (event) => {
    if (!event.target.closest) return;
    if (event.target.closest("#send-button, #chatbot button.example")) sent();
    else if (event.target.closest("#chatbot, #input-row, #hint-row")) acted = true;
  }, true);

  let pending = false;
  const schedule = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; label(); fitChat(); follow(); });
  };
  new MutationObserver(schedule).observe(document.documentElement, {
    subtree: true, childList: true, characterData: true, attributes: true,
    attributeFilter: ["aria-label", "title", "alt", "class", "style"],
  });
})();
