// Pastor Online, the reader (web/reader.py): "ler o capítulo" under a source opens its chapter in the page.
(() => {
  const LINK = /^#ler-([1-4]?[A-Z]{2,3})-(\d+)-(\d+)$/;
  const WAIT_MS = 5000;  // how long the keyboard waits for the panel to open or close before giving up
  let opener = null;  // the link that opened the chapter: the keyboard goes back to it on close

  // The panel is `position: fixed`, so its offsetParent is always null: ask whether it is rendered at all.
  function panelShown() {
    const panel = document.querySelector("#context-panel");
    if (!panel) return false;
    return panel.checkVisibility ? panel.checkVisibility() : panel.getClientRects().length > 0;
  }

  // Once the panel is gone, focus returns to the link that opened it (found again by its address if the
  // chat was drawn anew meanwhile), without moving the page.
  function returnFocus() {
    if (!opener) return;
    const href = opener.getAttribute("href");
    const started = Date.now();
    const wait = () => {
      if (panelShown()) {
        if (Date.now() - started < WAIT_MS) setTimeout(wait, 50);
        return;
      }
      const link = opener.isConnected ? opener
        : document.querySelector(`#chatbot a.pastor-context[href="${CSS.escape(href || "")}"]`);
      if (link) link.focus({ preventScroll: true });
      opener = null;
    };
    wait();
  }

  // Once the chapter is drawn, the keyboard goes to "Fechar" (the open event's own step may run before Gradio
  // shows the panel, when the button cannot take focus yet).
  function focusClose() {
    const started = Date.now();
    const wait = () => {
      const close = document.querySelector("#context-close");
      const drawn = document.querySelector("#context-chapter .pastor-chapter, #context-chapter .pastor-chapter-message");
      if (panelShown() && close && drawn) return close.focus({ preventScroll: true });
      if (Date.now() - started < WAIT_MS) setTimeout(wait, 50);
    };
    wait();
  }

  document.addEventListener("click", (event) => {
    if (!event.target.closest) return;
    if (event.target.closest("#context-close")) return returnFocus();
    const link = event.target.closest("a.pastor-context");
    if (!link) return;
    event.preventDefault();
    event.stopPropagation();
    const found = (link.getAttribute("href") || "").match(LINK);
    const button = document.querySelector("#context-open");
    if (!found || !button) return;
    opener = link;
    // Read by the open event's own `js` step (web/reader.py), which hands it to Python.
    window.__pastorContextVerse = `${found[1]} ${found[2]}:${found[3]}`;
    button.click();
    focusClose();
  }, true);

  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !panelShown()) return;
    const close = document.querySelector("#context-close");
    if (!close) return;
    event.preventDefault();
    close.click();
  });
})();
