// The search page (and only it) loads this. It runs Pagefind's index for the page's language, shows
// results as links with their section, title and excerpt, and keeps the query in the address so a
// search can be shared and the back button returns to it. Everything it says comes from the page.

const page = document.querySelector(".search");
const form = page.querySelector(".search-form");
const input = form.elements.namedItem("q");
const status = page.querySelector(".search-status");
const list = page.querySelector(".search-results");
const more = page.querySelector(".search-more");
const elsewhere = page.querySelector(".search-elsewhere");
const say = page.dataset;
// The page says search needs JavaScript for a reader without it. With it, that is untrue while the
// index loads (a quarter of a second from 127.0.0.1, most of a second at a 100 ms round trip), so it
// goes now, and comes back only if loading fails.
const needsScript = page.querySelector(".search-needs-script");
needsScript.hidden = true;
const resultForms = JSON.parse(say.results);
const plural = new Intl.PluralRules(document.documentElement.lang);
const fill = (text, values) => text.replace(/\{(\w+)\}/g, (all, name) => (name in values ? String(values[name]) : all));
// The course's name (its words, any space between them), kept on one line as headings keep it
// (keepTogether, src/html.ts): the parts of `text` between its occurrences, and each occurrence unbroken.
const together = say.keepTogether ? new RegExp(`(${say.keepTogether})`, "u") : undefined;
const keepTogether = (text) =>
  (together ? text.split(together) : [text]).map((part, i) => {
    if (i % 2 === 0) return part;
    const span = document.createElement("span");
    span.className = "unbroken";
    span.textContent = part;
    return span;
  });

let pagefind;
let latest = 0;
/** The current search's results not shown yet: they show a page at a time, behind the "more" button. */
let rest = [];
/** The query those results answer. */
let searched = "";
const PAGE = 20;

/** The next page of `rest` as list items, or null when a newer search has started meanwhile. */
async function nextPage(ticket) {
  const batch = rest.slice(0, PAGE);
  rest = rest.slice(PAGE);
  const data = await Promise.all(batch.map((r) => r.data()));
  if (ticket !== latest) return null;
  more.hidden = rest.length === 0;
  return data.map((result) => resultItem(result, searched));
}

async function run() {
  const query = input.value.trim();
  const section = form.elements.namedItem("section").value;
  const url = new URL(location.href);
  url.searchParams.set("q", query);
  if (section) url.searchParams.set("section", section);
  else url.searchParams.delete("section");
  history.replaceState(null, "", query ? url : location.pathname);
  // The same search in the other language: the query goes along (not the section, named in each language).
  for (const link of document.querySelectorAll("a.language-switch")) link.search = query ? `?${new URLSearchParams({ q: query })}` : "";
  const ticket = ++latest;
  if (!query) {
    list.replaceChildren();
    status.textContent = "";
    elsewhere.replaceChildren();
    more.hidden = true;
    return;
  }
  const search = await pagefind.debouncedSearch(query, section ? { filters: { section } } : {}, 150);
  // A newer keystroke has started its own search, or this one was superseded.
  if (search === null || ticket !== latest) return;
  rest = search.results;
  searched = query;
  const items = await nextPage(ticket);
  if (!items) return;
  list.replaceChildren(...items);
  const count = search.results.length;
  status.textContent = count ? fill(resultForms[plural.select(count)], { count, query }) : fill(section ? say.noneInSection : say.none, { query, section });
  const offers = count ? [] : [...(section ? [searchEverywhere(query)] : []), ...searchesElsewhere(query)];
  elsewhere.replaceChildren(...offers.flatMap((link, i) => (i ? [" · ", link] : [link])));
}

/** The same query in every section of this language's search: what one section lacks, another may hold. */
function searchEverywhere(query) {
  const link = document.createElement("a");
  link.href = `${location.pathname}?${new URLSearchParams({ q: query })}`;
  link.textContent = fill(say.everywhere, { query });
  return link;
}

/**
 * The same query in each other language's search (the language switch, which run() gave the query):
 * each language has its own index, so words of another language find nothing here.
 */
function searchesElsewhere(query) {
  return [...document.querySelectorAll("a.language-switch")].map((other) => {
    const link = document.createElement("a");
    link.href = other.href;
    link.hreflang = other.hreflang;
    // The language's name is in its own language, as the switch writes it.
    const [before, after = ""] = fill(say.elsewhere, { query }).split("{language}");
    const name = document.createElement("span");
    name.lang = other.lang;
    name.textContent = other.textContent;
    link.append(before, name, after);
    return link;
  });
}

/**
 * The entry of a page that `result` matches best, when the page is made of entries (the glossary:
 * each term, and each name in its where-to-look index, is one, marked with data-pagefind-title):
 * Pagefind's sub-result of that entry, linked to it, with an excerpt of the entry alone. A page of
 * sections (a lesson) has none: its excerpt is the best stretch of the whole page.
 */
function bestEntry(result, query) {
  // An entry named as typed comes first: "QP" is "Queue pair (QP)", not "QP number (QPN)", which says QP more often.
  const q = query.toLowerCase();
  const named = ({ title }) => [title, title.replace(/ \(.*\)$/, ""), title.match(/\(([^)]*)\)$/)?.[1]].some((name) => name?.toLowerCase() === q);
  const score = (sub) => (named(sub) ? Infinity : sub.weighted_locations.reduce((sum, l) => sum + l.balanced_score, 0));
  const entries = result.sub_results.filter((sub) => sub.anchor?.title);
  return entries.length ? entries.reduce((best, sub) => (score(sub) > score(best) ? sub : best)) : undefined;
}

function resultItem(result, query) {
  const item = document.createElement("li");
  const section = document.createElement("p");
  section.className = "search-section";
  section.append(...keepTogether(result.filters.section?.[0] ?? ""));
  const heading = document.createElement("h2");
  const link = document.createElement("a");
  link.href = result.url;
  // A lesson's number goes before its title, as the course's lists write it: "2.7 SEND and RECV".
  link.append(...(result.meta.number ? [`${result.meta.number} `] : []), ...keepTogether(result.meta.title));
  heading.append(link);
  item.append(section, heading);
  const entry = bestEntry(result, query);
  if (entry) {
    const where = document.createElement("p");
    where.className = "search-entry";
    const entryLink = document.createElement("a");
    entryLink.href = entry.url;
    entryLink.textContent = entry.title;
    where.append(entryLink);
    item.append(where);
  }
  const excerpt = document.createElement("p");
  // Pagefind's excerpt is the page's own text, escaped, with the matches marked; cut from anywhere in
  // it, so a mark says where text was left out before or after.
  excerpt.innerHTML = (entry ?? result).excerpt;
  // Pagefind marks a word with the comma or full stop after it ("queue,"): the mark keeps to the word.
  // (Brackets stay: "ibv_post_send(3)" is one name.)
  for (const mark of excerpt.querySelectorAll("mark")) {
    const [, word, stop] = mark.textContent.match(/^(.*?)([.,;:!?、。，；：！？]*)$/su);
    if (!word || !stop) continue;
    mark.textContent = word;
    mark.after(stop);
  }
  const shown = excerpt.textContent;
  const [before, after] = say.cut.split("{excerpt}");
  if (!result.content.startsWith(shown)) excerpt.prepend(before);
  if (!result.content.endsWith(shown)) excerpt.append(after);
  item.append(excerpt);
  return item;
}

try {
  pagefind = await import(`${say.index}pagefind.js`);
  // One call, before the first search: Pagefind keeps only the last options given before it starts.
  await pagefind.options({ baseUrl: say.siteRoot, ranking: JSON.parse(say.ranking) });
  // A section none of this language's pages is in (the course, where it has no translation) would only ever find nothing.
  const held = (await pagefind.filters()).section ?? {};
  for (const radio of form.elements.namedItem("section")) if (radio.value && !held[radio.value]) radio.closest("label").hidden = true;
  const params = new URLSearchParams(location.search);
  input.value = params.get("q") ?? "";
  const section = [...form.elements.namedItem("section")].find((radio) => radio.value === (params.get("section") ?? "") && !radio.closest("label").hidden);
  if (section) section.checked = true;
  form.hidden = false;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    run();
  });
  form.addEventListener("input", run);
  // The count in the status covers every result: the rest are a press away, and focus goes to the first new one.
  let loading = false;
  more.addEventListener("click", async () => {
    if (loading) return; // one page at a time, in order
    loading = true;
    const items = await nextPage(latest).finally(() => (loading = false));
    if (!items?.length) return;
    list.append(...items);
    items[0].querySelector("a").focus();
  });
  if (input.value) run();
  input.focus();
} catch {
  needsScript.hidden = false;
  status.textContent = say.failed;
}
