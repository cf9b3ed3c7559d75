// Progressive enhancements. Everything on the site reads without this file; it only adds the theme
// toggle and copy buttons, which stay hidden until it runs. What it says comes from the page, in the
// page's language (data attributes on <body>).

const root = document.documentElement;
const say = document.body.dataset;
const darkQuery = window.matchMedia("(prefers-color-scheme: dark)");
const effectiveTheme = () => root.dataset.theme ?? (darkQuery.matches ? "dark" : "light");

function setUpThemeToggle() {
  const button = document.querySelector(".theme-toggle");
  if (!button) return;
  const show = () => button.setAttribute("aria-pressed", String(effectiveTheme() === "dark"));
  button.addEventListener("click", () => {
    const next = effectiveTheme() === "dark" ? "light" : "dark";
    root.dataset.theme = next;
    try {
      localStorage.setItem("theme", next);
    } catch {
      // Storage may be disabled; the choice then lasts for this page only.
    }
    show();
  });
  darkQuery.addEventListener("change", show);
  show();
  button.hidden = false;
}

/**
 * What a copy button copies: a split address (never whole in the page), the element it names, or
 * the code in the block it belongs to.
 */
function copyText(button) {
  const { copyUser, copyDomain, copyFrom } = button.dataset;
  if (copyUser && copyDomain) return `${copyUser}@${copyDomain}`;
  const source = copyFrom ? document.getElementById(copyFrom) : button.closest("[data-copy-scope]")?.querySelector("pre code");
  return source ? source.textContent : "";
}

function setUpCopyButtons() {
  const buttons = document.querySelectorAll(".copy-button");
  if (!navigator.clipboard || buttons.length === 0) return;
  // Screen readers hear the outcome from one polite status region; the button shows it briefly.
  const status = document.createElement("p");
  status.className = "visually-hidden";
  status.setAttribute("role", "status");
  document.body.append(status);
  for (const button of buttons) {
    // The label may hold visually hidden words ("Copy<span> C code</span>"): restore it whole.
    const label = button.innerHTML;
    let reset;
    button.addEventListener("click", async () => {
      clearTimeout(reset); // a second click restarts the two seconds
      try {
        await navigator.clipboard.writeText(copyText(button));
        button.textContent = say.copied;
        status.textContent = say.copiedStatus;
      } catch {
        button.textContent = say.copyFailed;
        status.textContent = say.copyFailedStatus;
      }
      reset = setTimeout(() => {
        button.innerHTML = label;
        status.textContent = "";
      }, 2000);
    });
    button.hidden = false;
  }
}

/**
 * Wide figures, tables, display math and code scroll sideways (and long code and transcripts
 * downwards), so the page makes them tab stops for keyboard scrolling. Where one fits and does not
 * scroll, that stop is only noise: drop it while it fits.
 */
function setUpScrollRegions() {
  // pre[role=region]: a paper page's BibTeX, which does not wrap.
  const regions = document.querySelectorAll(".figure-scroll, .table-scroll, .code-block pre, pre[role=region], .katex-block");
  const update = () => {
    for (const region of regions) {
      if (region.scrollWidth > region.clientWidth || region.scrollHeight > region.clientHeight) region.setAttribute("tabindex", "0");
      else region.removeAttribute("tabindex");
    }
  };
  update();
  addEventListener("resize", update);
}

/**
 * On wide screens the course sidebar scrolls inside itself, and it opened at Part 1 whatever the
 * lesson: centre the current page's link in it (the page itself does not move).
 */
function showCurrentLesson() {
  const list = document.querySelector(".course-nav nav");
  const current = list?.querySelector('[aria-current="page"]');
  if (!current || list.scrollHeight <= list.clientHeight) return;
  const offset = current.getBoundingClientRect().top - list.getBoundingClientRect().top + list.scrollTop;
  list.scrollTop = offset - (list.clientHeight - current.offsetHeight) / 2;
}

setUpThemeToggle();
setUpCopyButtons();
setUpScrollRegions();
showCurrentLesson();
