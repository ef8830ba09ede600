// Pastor Online, the reader (web/reader.py): "ler o capítulo" under a source opens its chapter in the page.
(() => {
  const LINK = /^#ler-([1-4]?[A-Z]{2,3})-(\d+)-(\d+)$/;

  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("a.pastor-context");
    if (!link) return;
    event.preventDefault();
    event.stopPropagation();
    const found = (link.getAttribute("href") || "").match(LINK);
    const button = document.querySelector("#context-open");
    if (!found || !button) return;
    // Read by the open event's own `js` step (web/reader.py), which hands it to Python.
    window.__pastorContextVerse = `${found[1]} ${found[2]}:${found[3]}`;
    button.click();
  }, true);

  document.addEventListener("keydown", (event) => {
    const panel = document.querySelector("#context-panel");
    if (event.key !== "Escape" || !panel || !panel.offsetParent) return;
    const close = document.querySelector("#context-close");
    if (close) close.click();
  });
})();
