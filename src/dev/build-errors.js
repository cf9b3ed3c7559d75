// Served by the dev server only (see src/dev-server.ts): when a build fails, its error is shown over
// the page, which is the last good build. The next good build reloads the page (Eleventy's reload
// client), which removes this dialog. Words come from the script tag, in the page's language.

const say = document.querySelector("script[data-build-errors]")?.dataset ?? {};
const DIALOG_ID = "dev-build-error";

/** The error and each error it wraps (Eleventy's `originalError`), outermost first. */
function messages(error) {
  const lines = [];
  for (let e = error; e && typeof e === "object"; e = e.originalError) if (e.message) lines.push(e.message);
  return lines;
}

function show(error) {
  let dialog = document.getElementById(DIALOG_ID);
  if (!dialog) {
    dialog = document.createElement("dialog");
    dialog.id = DIALOG_ID;
    dialog.setAttribute("aria-labelledby", `${DIALOG_ID}-title`);
    Object.assign(dialog.style, { maxWidth: "min(60rem, 92vw)", border: "3px solid #b3261e", background: "Canvas", color: "CanvasText", padding: "1rem 1.5rem" });
    document.body.append(dialog);
  }
  const title = Object.assign(document.createElement("h2"), { id: `${DIALOG_ID}-title`, textContent: say.title ?? "Build failed" });
  const hint = Object.assign(document.createElement("p"), { textContent: say.hint ?? "" });
  const details = Object.assign(document.createElement("pre"), { textContent: messages(error).join("\n\n") });
  Object.assign(details.style, { whiteSpace: "pre-wrap", overflowWrap: "anywhere", maxHeight: "60vh", overflow: "auto" });
  details.tabIndex = 0;
  const close = Object.assign(document.createElement("button"), { type: "button", textContent: say.close ?? "Close" });
  close.addEventListener("click", () => dialog.close());
  dialog.replaceChildren(title, hint, details, close);
  if (!dialog.open) dialog.showModal();
}

// The dev server tells every open page about each build on its WebSocket, this page's own origin.
const socket = new WebSocket(location.origin.replace(/^http/, "ws"));
socket.addEventListener("message", (event) => {
  const data = JSON.parse(event.data);
  if (data.type === "eleventy.error") show(JSON.parse(data.error));
});
