extension PageAssets {
    /// The page's script: today's plan, the review with the terminal's keys, and the notes
    /// changed on disk followed through server-sent events. Vault text goes in as `textContent`;
    /// a card's sides come as HTML the server made safe.
    static let script = #"""
    "use strict";
    (function () {
      const main = document.getElementById("main");
      const toastBox = document.getElementById("toast");
      const help = document.getElementById("help");
      let view = "overview";       // overview | review | done
      let state = null;            // the session's state, as the server sent it
      let revealed = false;
      let typedResult = null;      // the typed answer's comparison, shown with the back
      let explained = null;        // the text the card was made from (x)
      let busy = false;

      // ---- theme ----
      function applyTheme(theme) {
        document.documentElement.dataset.theme = theme;
      }
      function storedTheme() {
        try { return localStorage.getItem("quire-theme"); } catch (e) { return null; }
      }
      applyTheme(storedTheme() || (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light"));
      function toggleTheme() {
        const next = document.documentElement.dataset.theme === "dark" ? "light" : "dark";
        applyTheme(next);
        try { localStorage.setItem("quire-theme", next); } catch (e) { /* private mode */ }
      }
      document.getElementById("theme").addEventListener("click", toggleTheme);
      document.getElementById("help-button").addEventListener("click", () => help.showModal());
      document.getElementById("help-close").addEventListener("click", () => help.close());

      // ---- helpers ----
      function el(tag, attrs, ...children) {
        const node = document.createElement(tag);
        for (const [k, v] of Object.entries(attrs || {})) {
          if (k === "class") node.className = v;
          else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
          else if (k === "dataset") Object.assign(node.dataset, v);
          else node.setAttribute(k, v);
        }
        for (const c of children) {
          if (c === null || c === undefined || c === false) continue;
          node.append(c instanceof Node ? c : document.createTextNode(String(c)));
        }
        return node;
      }
      function toast(text) {
        toastBox.textContent = text;
        toastBox.classList.add("shown");
        clearTimeout(toast.timer);
        toast.timer = setTimeout(() => toastBox.classList.remove("shown"), 3500);
      }
      // ---- the run's token ----
      // It comes in the address's fragment (never sent anywhere, not even to this server), is
      // kept in this origin's storage (no other port's page can read it) and goes in a header with
      // every request: a cookie would go to every port of this host. The fragment then leaves
      // the address bar and the history. A token from the address replaces the kept one only once
      // the server takes it: another site may send the browser here with a token of its own.
      let token = null;
      try { token = localStorage.getItem("quire-token"); } catch (e) { token = null; }
      const given = /^#(?:.*&)?token=([0-9a-f]{32})(?:&|$)/.exec(location.hash);
      let offered = given ? given[1] : null;
      if (given) history.replaceState(null, "", location.pathname + location.search);
      async function send(method, path, body, credential) {
        const options = { method, headers: { "X-Quire-Token": credential || "" } };
        if (method !== "GET") {
          options.headers["Content-Type"] = "application/json";
          options.headers["X-Quire-Page"] = "1";
          options.body = JSON.stringify(body || {});
        }
        return fetch(path, options);
      }
      async function api(method, path, body) {
        let response = await send(method, path, body, offered || token);
        if (offered) {
          const tried = offered;
          offered = null;
          if (response.status !== 403) {
            token = tried;
            try { localStorage.setItem("quire-token", token); } catch (e) { /* this page only */ }
          } else if (token && token !== tried) {
            response = await send(method, path, body, token);
          }
        }
        let data = null;
        const text = await response.text();
        try { data = JSON.parse(text); } catch (e) { data = { error: text.trim() || "the server answered " + response.status }; }
        if (!response.ok) {
          const error = new Error(data && data.error ? data.error : "the server answered " + response.status);
          error.status = response.status;
          throw error;
        }
        return data;
      }
      // A card's side: HTML the server made safe; math through KaTeX, code through highlight.js.
      function side(html) {
        const box = el("div", { class: "side" });
        box.innerHTML = html;
        if (window.katex) {
          for (const m of box.querySelectorAll("span.math")) {
            const tex = m.textContent;
            try { window.katex.render(tex, m, { displayMode: m.dataset.display === "1", throwOnError: false }); }
            catch (e) { m.textContent = tex; }
          }
        }
        if (window.hljs) {
          for (const code of box.querySelectorAll("pre code")) {
            try { window.hljs.highlightBlock(code); } catch (e) { /* plain */ }
          }
        }
        return box;
      }

      // A deck's name with a break allowed after each "/".
      function deckName(deck) {
        if (!deck) return ["(no deck)"];
        const parts = [];
        deck.split("/").forEach((p, i) => { if (i) parts.push("/", el("wbr", {})); parts.push(p); });
        return parts;
      }

      // ---- overview ----
      async function showOverview() {
        view = "overview";
        state = null;
        try { sessionStorage.removeItem("quire-session"); } catch (e) { /* ignore */ }
        let data;
        try { data = await api("GET", "/api/overview"); } catch (e) { main.replaceChildren(el("p", { class: "errors" }, e.message)); return; }
        document.getElementById("vault").textContent = data.vault;
        document.title = "Quire · " + data.vault;
        const p = data.plan;
        const counts = el("ul", { class: "counts" },
          el("li", {}, el("b", {}, p.learning), " learning"),
          el("li", {}, el("b", {}, p.overdue), " overdue"),
          el("li", {}, el("b", {}, p.reviewing + p.mastered), " to review"),
          el("li", {}, el("b", {}, p.new), " new"));
        const start = el("button", { class: "primary", id: "study", onclick: () => startSession(null) },
          p.total ? "Study today's plan — " + p.total + " card" + (p.total === 1 ? "" : "s") + ", about " + data.minutes + " min" : "Nothing due now");
        if (!p.total) start.disabled = true;
        const rows = data.decks.map(d => el("tr", {},
          el("td", {}, ...deckName(d.deck)),
          el("td", { class: "n" }, d.due), el("td", { class: "n" }, d.new), el("td", { class: "n cards" }, d.cards),
          el("td", { class: "n" }, (d.due + d.new) ? el("button", { onclick: () => startSession(d.deck), "aria-label": "Study " + d.deck }, "Study")
            : d.unseen ? el("button", { onclick: () => startSession(d.deck, true), "aria-label": "Learn new " + d.deck,
              title: "Up to 20 of its " + d.unseen + " new cards, past today's limit" }, "Learn new") : "")));
        const decks = el("table", { class: "decks" },
          el("thead", {}, el("tr", {}, el("th", {}, "Deck"), el("th", { class: "n" }, "Due"), el("th", { class: "n" }, "New"),
            el("th", { class: "n cards" }, "Cards"), el("th", {}, ""))),
          el("tbody", {}, ...rows));
        const streak = el("p", { class: "muted" }, "Streak: " + data.streak.current + " day" + (data.streak.current === 1 ? "" : "s") +
          " (longest " + data.streak.longest + ") · studied today: " + data.studiedToday.reviews + " reviews, " + data.studiedToday.new + " new · " +
          data.notes + " notes, " + data.cards + " cards");
        const parts = [el("h1", {}, "Today"), counts, start, decks, streak];
        if (data.curation.length) {
          // One line per kind of review: its periods due, the oldest first (where Curate starts).
          const kinds = [];
          for (const c of data.curation) {
            let kind = kinds.find(k => k.review === c.review);
            if (!kind) { kind = { review: c.review, first: c.title, periods: 0, left: 0 }; kinds.push(kind); }
            kind.periods += 1;
            kind.left += c.left;
          }
          parts.push(el("h2", {}, "Curation due"), el("ul", { class: "curation-due" }, ...kinds.map(k => el("li", {},
            el("button", { onclick: () => startCuration(k.review), "aria-label": "Curate " + k.review }, "Curate"),
            " " + k.review + ": " + k.left + " note" + (k.left === 1 ? "" : "s") + " to decide in " + k.periods + " period" +
            (k.periods === 1 ? "" : "s") + ", from " + k.first))));
        }
        if (data.errors.length) {
          parts.push(el("p", { class: "errors" }, "Files that could not be read:"), el("ul", { class: "errors" }, ...data.errors.map(e => el("li", {}, e))));
        }
        main.replaceChildren(...parts);
      }

      async function startSession(deck, learnNew) {
        const body = deck === null ? {} : { deck };
        if (learnNew) body.learn = "new";
        try { show(await api("POST", "/api/sessions", body)); }
        catch (e) { toast(e.message); }
      }

      // ---- review ----
      function show(next, keepRevealed) {
        const sameCard = state && next.card && state.card && state.card.id === next.card.id;
        state = next;
        try { sessionStorage.setItem("quire-session", next.session); } catch (e) { /* ignore */ }
        if (!(keepRevealed && sameCard)) { revealed = false; typedResult = null; explained = null; }
        if (next.done) { view = "done"; renderDone(); } else { view = "review"; renderCard(); }
        if (next.message) toast(next.message);
      }

      function renderCard() {
        const s = state, c = s.card;
        if (main.dataset.shown !== c.id) { window.scrollTo(0, 0); main.dataset.shown = c.id; }
        const r = s.remaining;
        const status = el("div", { class: "status" },
          el("span", {}, s.progress.position + " / " + s.progress.total),
          el("span", { class: "new" }, r.new + " new"), el("span", { class: "learning" }, r.learning + " learning"),
          el("span", { class: "review" }, r.review + " review"),
          el("span", { class: "where" }, c.path + ":" + c.line + " · " + c.state));
        const card = el("article", { class: "card", "data-card": c.id });
        if (c.heading.length) card.append(el("p", { class: "heading" }, c.heading.join(" › ")));
        card.append(side(c.front));
        const parts = [status, card];
        if (revealed) {
          card.append(el("hr", { class: "answer" }));
          if (typedResult) {
            const line = el("p", { class: "typed " + (typedResult.correct ? "right" : "wrong") }, typedResult.correct ? "✓ " : "✗ ");
            for (const [text, kind] of typedResult.segments) line.append(el("span", { class: kind }, text));
            if (!typedResult.segments.length) line.append(el("span", { class: "muted" }, "(nothing typed)"));
            card.append(line);
          }
          card.append(side(c.back));
          if (explained) {
            card.append(el("hr", { class: "answer" }), el("p", { class: "heading" }, explained.line ? "From line " + explained.line + ":" : "From its section:"),
              explained.html ? side(explained.html) : el("p", { class: "muted" }, "(nothing before the card in its section)"));
          }
          const grades = el("div", { class: "grades" });
          grades.style.setProperty("--buttons", String(s.buttons.length));
          for (const b of s.buttons) {
            grades.append(el("button", { class: b.rating, "data-rating": b.rating, onclick: () => grade(b.rating) },
              el("span", {}, el("kbd", {}, b.key), " " + b.label), el("span", { class: "interval" }, b.interval)));
          }
          parts.push(grades);
        } else if (c.type) {
          // The answer typed first, then compared (Enter); Esc shows it without typing.
          const input = el("input", { id: "answer", type: "text", autocomplete: "off", autocapitalize: "off", spellcheck: "false",
            "aria-label": "Your answer", placeholder: "Type the answer, then Enter" });
          const form = el("form", { class: "type-answer", onsubmit: event => { event.preventDefault(); checkTyped(input.value); } },
            input, el("button", { type: "submit", class: "primary" }, "Check"));
          parts.push(form);
          setTimeout(() => input.focus(), 0);
        } else {
          parts.push(el("button", { class: "reveal primary", id: "reveal", onclick: reveal }, "Show answer ", el("kbd", {}, "Space")));
        }
        const action = (label, key, fn) => el("button", { onclick: fn, title: label + " (" + key + ")" }, el("kbd", {}, key), el("span", { class: "label" }, " " + label));
        const actions = el("div", { class: "actions" },
          action("Undo", "u", undo), action("Edit", "e", edit), action("Explain", "x", explain), action("Skip", "s", () => act("skip")),
          action("Bury", "b", () => act("bury")), action("Suspend", "!", () => act("suspend")));
        if (c.flow) actions.append(action("Promote", "p", () => act("promote")), action("Demote", "P", () => act("demote")));
        actions.append(action("Today", "q", showOverview));
        parts.push(actions);
        main.replaceChildren(...parts);
      }

      function renderDone() {
        const m = state.summary;
        const parts = [el("h1", {}, m.answers ? "Session done" : "Nothing to study")];
        if (m.answers) {
          const minutes = Math.floor(m.seconds / 60), seconds = m.seconds % 60;
          parts.push(el("dl", { class: "summary" },
            el("dt", {}, "Cards"), el("dd", {}, m.cards + " (" + m.answers + " answers)"),
            el("dt", {}, "Accuracy"), el("dd", {}, m.accuracy + "% — " + m.level),
            el("dt", {}, "Time"), el("dd", {}, (minutes ? minutes + " min " : "") + seconds + " s"),
            el("dt", {}, "Streak"), el("dd", {}, m.streak + " day" + (m.streak === 1 ? "" : "s") + " (longest " + m.longest + ")")));
          if (m.failed) parts.push(el("p", {}, m.failed + " card" + (m.failed === 1 ? "" : "s") + " failed: ",
            el("button", { onclick: retry }, el("kbd", {}, "r"), " Go over " + (m.failed === 1 ? "it" : "them") + " again")));
        } else {
          parts.push(el("p", { class: "muted" }, "No card of this session is due now."));
        }
        parts.push(el("div", { class: "actions" }, el("button", { onclick: undo }, el("kbd", {}, "u"), " Undo"),
          el("button", { class: "primary", onclick: showOverview }, "Back to today")));
        main.replaceChildren(...parts);
      }

      function checkTyped(typed) {
        if (view !== "review" || revealed) return;
        run(async () => {
          typedResult = await api("POST", "/api/sessions/" + state.session + "/check", { card: state.card.id, typed });
          revealed = true;
          renderCard();
        });
      }

      function reveal() {
        if (view !== "review" || revealed) return;
        revealed = true;
        renderCard();
      }

      async function run(work) {
        if (busy) return;
        busy = true;
        try { await work(); }
        catch (e) {
          toast(e.message);
          if (e.status === 404) { showOverview(); }
          else if (e.status === 409 && state) { try { show(await api("GET", "/api/sessions/" + state.session)); } catch (x) { showOverview(); } }
        } finally { busy = false; }
      }
      function grade(rating) {
        if (view !== "review" || !revealed) return;
        run(async () => show(await api("POST", "/api/sessions/" + state.session + "/grade", { card: state.card.id, rating })));
      }
      function undo() {
        if (!state) return;
        run(async () => show(await api("POST", "/api/sessions/" + state.session + "/undo", {})));
      }
      function act(action) {
        if (view !== "review") return;
        run(async () => show(await api("POST", "/api/sessions/" + state.session + "/act", { card: state.card.id, action })));
      }
      function explain() {
        if (view !== "review") return;
        if (explained) { explained = null; renderCard(); return; }
        run(async () => {
          explained = await api("POST", "/api/sessions/" + state.session + "/explain", { card: state.card.id });
          revealed = true;
          renderCard();
        });
      }
      function retry() {
        if (view !== "done" || !state || !state.summary.failed) return;
        run(async () => show(await api("POST", "/api/sessions/" + state.session + "/retry", {})));
      }
      function edit() {
        if (view !== "review") return;
        run(async () => toast((await api("POST", "/api/sessions/" + state.session + "/edit", { card: state.card.id })).message));
      }

      // ---- curation: keep or archive, as quire curate ----
      let curation = null;
      async function startCuration(review) {
        try { showCuration(await api("POST", "/api/curations", { review })); } catch (e) { toast(e.message); }
      }
      function showCuration(next) {
        view = "curation";
        curation = next;
        if (next.message) toast(next.message);
        window.scrollTo(0, 0);
        const parts = [el("h1", {}, next.heading)];
        for (const w of next.warnings) parts.push(el("p", { class: "errors" }, w));
        const button = (label, key, fn) => el("button", { onclick: fn, title: label + " (" + key + ")" }, el("kbd", {}, key), el("span", { class: "label" }, " " + label));
        if (next.done) {
          parts.push(el("p", {}, "Every note of this period gone through."),
            el("div", { class: "actions" }, button("Undo", "u", () => curate("undo")), button("Previous", "←", () => curate("previous")),
              el("button", { class: "primary", id: "finish", onclick: finishCuration }, "Finish")));
        } else {
          const n = next.note;
          // The keys above the note: a long note scrolls under them.
          parts.push(el("div", { class: "status" }, el("span", {}, next.position + " / " + next.total), el("span", { class: "where" }, n.location)),
            el("div", { class: "actions top" }, button("Keep", "k", () => curate("keep")), button("Archive", "a", () => curate("archive")),
              button("Skip", "s", () => curate("skip")), button("Undo", "u", () => curate("undo")), button("Previous", "←", () => curate("previous")),
              button("Next", "→", () => curate("next")), button("Edit", "e", () => openNote(n.path, 1)), button("Finish", "q", finishCuration)),
            el("article", { class: "card", "data-note": n.path }, el("p", { class: "heading" }, n.facts), side(n.html)));
        }
        main.replaceChildren(...parts);
      }
      function curate(key) {
        if (view !== "curation" || !curation) return;
        run(async () => showCuration(await api("POST", "/api/curations/" + curation.curation + "/key", { key })));
      }
      function finishCuration() {
        if (!curation) return showOverview();
        run(async () => {
          const done = await api("POST", "/api/curations/" + curation.curation + "/key", { key: "finish" });
          curation = null;
          toast(done.message);
          await showOverview();
        });
      }
      function openNote(path, line) {
        run(async () => toast((await api("POST", "/api/open", { path, line: String(line) })).message));
      }

      // ---- search ----
      const searchBox = document.getElementById("search");
      document.getElementById("search-form").addEventListener("submit", event => {
        event.preventDefault();
        const text = searchBox.value.trim();
        if (text) search(text);
      });
      async function search(text) {
        let data;
        try { data = await api("GET", "/api/search?q=" + encodeURIComponent(text)); } catch (e) { toast(e.message); return; }
        view = "search";
        const items = data.hits.map(h => {
          const snippet = el("p", {});
          for (const [run, marked] of h.snippet) snippet.append(marked ? el("mark", {}, run) : document.createTextNode(run));
          return el("li", {},
            el("div", {}, el("strong", {}, h.title || h.path), " ", el("button", { onclick: () => readNote(h.path, h.line, text), title: "Read the note here" }, "Read"),
              " ", el("button", { onclick: () => openNote(h.path, h.line), title: "Open in the editor on the computer running quire serve" }, "Edit")),
            el("div", { class: "place" }, h.path + ":" + h.line + (h.heading_path.length ? " · " + h.heading_path.join(" › ") : "") + (h.card ? " · card " + h.card : "")),
            snippet);
        });
        main.replaceChildren(el("h1", {}, "Search: " + text),
          el("p", { class: "muted" }, data.hits.length + " hit" + (data.hits.length === 1 ? "" : "s") + (data.semantic ? ", by words and meaning" : ", by words")),
          items.length ? el("ul", { class: "hits" }, ...items) : el("p", {}, "No match."),
          el("div", { class: "actions" }, el("button", { onclick: showOverview }, el("kbd", {}, "q"), " Today")));
      }

      // A note read where a hit points: rendered here (a phone cannot open the computer's editor).
      async function readNote(path, line, text) {
        let data;
        try { data = await api("GET", "/api/note?path=" + encodeURIComponent(path) + "&line=" + line); } catch (e) { toast(e.message); return; }
        view = "note";
        const hit = el("div", { class: "hit", id: "hit" });
        main.replaceChildren(el("h1", {}, data.title),
          el("div", { class: "place" }, data.path + ":" + data.line),
          el("div", { class: "card note" }, side(data.before), hit, side(data.from)),
          el("div", { class: "actions" }, el("button", { onclick: () => search(text) }, "Back to the hits"),
            el("button", { onclick: () => openNote(path, line) }, "Edit"), el("button", { onclick: showOverview }, el("kbd", {}, "q"), " Today")));
        hit.scrollIntoView({ block: "start" });
      }

      // ---- keys: the terminal's ----
      document.addEventListener("keydown", event => {
        if (event.ctrlKey || event.metaKey || event.altKey) return;
        if (help.open) { if (event.key === "Escape" || event.key === "?") { help.close(); event.preventDefault(); } return; }
        const k = event.key;
        if (event.target === searchBox) { if (k === "Escape") searchBox.blur(); return; }
        if (event.target && event.target.id === "answer") { if (k === "Escape") { event.preventDefault(); reveal(); } return; }
        if (k === "/") { searchBox.focus(); event.preventDefault(); return; }
        if (k === "?") { help.showModal(); event.preventDefault(); return; }
        if (k === "t") { toggleTheme(); return; }
        if (view === "overview") {
          if ((k === " " || k === "Enter") && event.target === document.body) { const b = document.getElementById("study"); if (b && !b.disabled) { startSession(null); event.preventDefault(); } }
          return;
        }
        if (view === "curation") {
          const keys = { k: "keep", a: "archive", s: "skip", u: "undo", ArrowLeft: "previous", ArrowRight: "next" };
          if (keys[k]) { curate(keys[k]); event.preventDefault(); }
          else if (k === "e" && curation && curation.note) openNote(curation.note.path, 1);
          else if (k === "q" || k === "Escape") finishCuration();
          return;
        }
        if (k === "q" || k === "Escape") { showOverview(); return; }
        if (view === "search" || view === "note") return;
        if (k === "u") { undo(); return; }
        if (view === "done" && k === "r") { retry(); return; }
        if (view !== "review") return;
        if (k === " " || k === "Enter") {
          if (!revealed) { reveal(); event.preventDefault(); }
          else if (k === " ") { /* Space scrolls a long card */ }
          return;
        }
        if (revealed && /^[1-4]$/.test(k)) {
          const b = state.buttons[Number(k) - 1];
          if (b) { grade(b.rating); event.preventDefault(); }
          return;
        }
        const actions = { e: edit, x: explain, s: () => act("skip"), b: () => act("bury"), "!": () => act("suspend") };
        if (state.card.flow) { actions.p = () => act("promote"); actions.P = () => act("demote"); }
        if (actions[k]) { actions[k](); event.preventDefault(); }
      });

      // ---- notes changed on disk ----
      async function listen() {
        let links = null;
        try { links = await api("GET", "/api/links"); } catch (e) { return; }
        document.getElementById("report-link").href = links.report;
        const events = new EventSource(links.events);
        events.addEventListener("changed", async message => {
          let paths = [];
          try { paths = JSON.parse(message.data).paths; } catch (e) { return; }
          if (view === "overview") { showOverview(); return; }
          if ((view !== "review" && view !== "done") || !state || busy) return;
          try {
            const next = await api("GET", "/api/sessions/" + state.session);
            const before = state.card;
            if (!before || !next.card || next.card.id !== before.id) {
              // The card left the session (deleted, answered elsewhere): the next one.
              show(next, false);
            } else if (next.card.front !== before.front || next.card.back !== before.back) {
              show(next, true);
              toast("The note changed on disk: the card shows it.");
            } else {
              // The page's own writes, or another card's note: only the counts.
              state.remaining = next.remaining;
              state.progress = next.progress;
            }
          } catch (e) { /* the next action says it */ }
        });
      }

      // ---- start ----
      document.getElementById("home").addEventListener("click", event => { event.preventDefault(); showOverview(); });
      (async () => {
        let id = null;
        try { id = sessionStorage.getItem("quire-session"); } catch (e) { /* ignore */ }
        if (id) {
          try { show(await api("GET", "/api/sessions/" + id)); }
          catch (e) { await showOverview(); }
        } else {
          await showOverview();
        }
        listen();
      })();
    })();

    """#
}
