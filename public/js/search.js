// The search page (and only it) loads this. It runs Pagefind's index for the page's language, shows
// results as links with their section, title and excerpt, and keeps the query in the address so a
// search can be shared and the back button returns to it. Everything it says comes from the page.

const page = document.querySelector(".search");
const form = page.querySelector(".search-form");
const input = form.elements.namedItem("q");
const status = page.querySelector(".search-status");
const list = page.querySelector(".search-results");
const say = page.dataset;
const resultForms = JSON.parse(say.results);
const plural = new Intl.PluralRules(document.documentElement.lang);
const fill = (text, values) => text.replace(/\{(\w+)\}/g, (all, name) => (name in values ? String(values[name]) : all));

let pagefind;
let latest = 0;

async function run() {
  const query = input.value.trim();
  const section = form.elements.namedItem("section").value;
  const url = new URL(location.href);
  url.searchParams.set("q", query);
  if (section) url.searchParams.set("section", section);
  else url.searchParams.delete("section");
  history.replaceState(null, "", query ? url : location.pathname);
  const ticket = ++latest;
  if (!query) {
    list.replaceChildren();
    status.textContent = "";
    return;
  }
  const search = await pagefind.debouncedSearch(query, section ? { filters: { section } } : {}, 150);
  // A newer keystroke has started its own search, or this one was superseded.
  if (search === null || ticket !== latest) return;
  const results = await Promise.all(search.results.slice(0, 20).map((r) => r.data()));
  if (ticket !== latest) return;
  list.replaceChildren(...results.map(resultItem));
  const count = search.results.length;
  status.textContent = count ? fill(resultForms[plural.select(count)], { count, query }) : fill(say.none, { query });
}

function resultItem(result) {
  const item = document.createElement("li");
  const section = document.createElement("p");
  section.className = "search-section";
  section.textContent = result.filters.section?.[0] ?? "";
  const heading = document.createElement("h2");
  const link = document.createElement("a");
  link.href = result.url;
  link.textContent = result.meta.title;
  heading.append(link);
  const excerpt = document.createElement("p");
  // Pagefind's excerpt is the page's own text, escaped, with the matches marked.
  excerpt.innerHTML = result.excerpt;
  item.append(section, heading, excerpt);
  return item;
}

try {
  pagefind = await import(`${say.index}pagefind.js`);
  await pagefind.options({ baseUrl: say.siteRoot });
  const params = new URLSearchParams(location.search);
  input.value = params.get("q") ?? "";
  const section = [...form.elements.namedItem("section")].find((radio) => radio.value === (params.get("section") ?? ""));
  if (section) section.checked = true;
  page.querySelector(".search-needs-script").hidden = true;
  form.hidden = false;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    run();
  });
  form.addEventListener("input", run);
  if (input.value) run();
  input.focus();
} catch {
  status.textContent = say.failed;
}
