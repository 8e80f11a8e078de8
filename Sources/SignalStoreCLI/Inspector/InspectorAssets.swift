#if SIGNALSTORE_INSPECTOR
import Hummingbird

/// The inspector's stylesheet and its one small script, served from `/static/`. No build step
/// and nothing fetched from elsewhere; the pages work without the script, which adds only the
/// live updates.
enum InspectorAssets {
    static func response(_ name: String) -> Response {
        switch name {
        case "inspector.css": return asset(css, type: "text/css; charset=utf-8")
        case "inspector.js": return asset(script, type: "text/javascript; charset=utf-8")
        default: return Page.plain(.notFound, "There is no such file.")
        }
    }

    private static func asset(_ text: String, type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    static let css = """
        :root { color-scheme: light dark; --muted: #777; --line: #8884; --accent: #2a6ad8; }
        body { font: 14px/1.45 system-ui, sans-serif; margin: 0; }
        header { display: flex; flex-wrap: wrap; gap: .75em; align-items: baseline; padding: .6em 1em; border-bottom: 1px solid var(--line); }
        header nav { margin-left: auto; display: flex; gap: 1em; }
        .brand { font-weight: 600; text-decoration: none; }
        .path { color: var(--muted); font-family: ui-monospace, monospace; }
        .mode { font-size: 12px; padding: 0 .5em; border: 1px solid var(--line); border-radius: 1em; }
        .mode.writes { border-color: #c33; color: #c33; }
        .live { font-size: 12px; color: var(--muted); }
        .live.on::before { content: "● "; color: #2a2; }
        .live.gone { color: #c33; font-weight: bold; }
        main { padding: 0 1em 2em; min-width: 0; }
        .layout { display: grid; grid-template-columns: minmax(8em, 14em) 1fr; }
        nav.tables { border-right: 1px solid var(--line); padding: 0 .8em; font-size: 13px; }
        nav.tables ul { list-style: none; padding: 0; margin: 0; }
        nav.tables li { overflow-wrap: anywhere; padding: .1em 0; }
        nav.tables a[aria-current] { font-weight: 600; text-decoration: none; }
        @media (max-width: 700px) { .layout { display: block; } nav.tables { border: none; } }
        details#schema { margin: .5em 0; } details#schema ul { margin: .3em 0; }
        td.date, td.time { white-space: nowrap; } td.date time { color: inherit; } th a.dates { font-size: 11px; font-weight: normal; }
        .condition { display: inline-flex; gap: .3em; align-items: center; }
        h1 { font-size: 20px; } h2 { font-size: 16px; margin-top: 1.5em; }
        table { border-collapse: collapse; margin: .5em 0; }
        th, td { border: 1px solid var(--line); padding: .2em .5em; text-align: left; vertical-align: top; }
        td { white-space: pre-wrap; font-family: ui-monospace, monospace; max-width: 40em; overflow-wrap: anywhere; }
        th small { color: var(--muted); font-weight: normal; }
        td.num { text-align: right; }
        td.actions { white-space: nowrap; overflow-wrap: normal; }
        p.note { border-left: 3px solid var(--accent); padding-left: .6em; }
        p.whole { white-space: pre-wrap; overflow-wrap: anywhere; font-family: ui-monospace, monospace; }
        td.null { color: var(--muted); font-style: italic; }
        td.empty::before { content: "(empty text)"; color: var(--muted); font-style: italic; }
        td.blob { color: #a5a; }
        td.none, p.none { color: var(--muted); font-style: italic; }
        .more { color: var(--muted); }
        td.op.insert { color: #2a2; } td.op.delete { color: #c33; } td.op.update { color: var(--accent); }
        tr.fresh { animation: fresh 1.5s ease-out; }
        @keyframes fresh { from { background: #fd4a; } to { background: transparent; } }
        form.filter { display: flex; flex-wrap: wrap; gap: .5em; align-items: center; margin: .5em 0; }
        .error { color: #c33; }
        dl.facts { display: grid; grid-template-columns: max-content auto; gap: .2em 1em; }
        dl.facts dt { color: var(--muted); } dl.facts dd { margin: 0; }
        .pager { display: flex; gap: 1.5em; }
        tr.group td { background: #8881; }
        button.toggle { font: inherit; border: none; background: none; cursor: pointer; padding: 0 .2em; }
        tr.member td:first-child { padding-left: 1.5em; }
        p.glossary { color: var(--muted); font-size: 12px; max-width: 60em; }
        """

    /// Follows `/events` (the URL in the body's `data-events`): prepends each new entry to the
    /// feed table, and on pages marked `data-refresh` reloads the `.live-part` elements a
    /// moment after entries arrive. Everything from the server goes in as text.
    static let script = """
        "use strict";
        (() => {
          // A line of entries written together opens to show them.
          const toggle = (button) => {
            const open = button.getAttribute("aria-expanded") !== "true";
            button.setAttribute("aria-expanded", String(open));
            button.textContent = open ? "▾" : "▸";
            const group = button.closest("tr").dataset.group;
            for (const row of document.querySelectorAll(`tr.member[data-group="${group}"]`)) row.hidden = !open;
          };
          for (const button of document.querySelectorAll("button.toggle")) button.hidden = false;
          document.addEventListener("click", (event) => {
            const button = event.target.closest && event.target.closest("button.toggle");
            if (button) toggle(button);
          });
          const url = document.body.dataset.events;
          if (!url) return;
          const status = document.getElementById("live-status");
          const feed = document.getElementById("feed-rows");
          const refresh = document.body.dataset.refresh === "1";
          const say = (text, on) => { if (status) { status.textContent = text; status.classList.toggle("on", on); } };
          const source = new EventSource(url);
          source.onopen = () => say("live", true);
          source.onerror = () => say("reconnecting…", false);
          const cell = (text, className) => {
            const td = document.createElement("td");
            if (className) td.className = className;
            td.textContent = text;
            return td;
          };
          const link = (text, href, className) => {
            const td = document.createElement("td");
            if (href) {
              const a = document.createElement("a");
              a.href = href; a.textContent = text;
              if (className) a.className = className;
              td.append(a);
            }
            return td;
          };
          const detail = (entry) => {
            const td = cell(entry.detail, "detail");
            if (entry.expand) {
              const a = document.createElement("a");
              a.href = entry.expand; a.className = "expand"; a.textContent = "whole entry";
              td.append(" ", a);
            }
            return td;
          };
          const lastSeq = document.getElementById("last-seq");
          const prepend = (row) => {
            if (lastSeq && row.dataset.seq) lastSeq.textContent = row.dataset.seq;
            if (!feed) return;
            row.classList.add("fresh");
            feed.prepend(row);
            while (feed.rows.length > 1000) feed.lastElementChild.remove();
          };
          const entryRow = (entry) => {
            const row = document.createElement("tr");
            row.dataset.seq = entry.seq;
            row.append(cell("#" + entry.seq, "num"), cell(entry.time, "time"), cell(entry.table),
              link(String(entry.rowID), entry.history, "history"), cell(entry.operation, "op " + entry.operation),
              detail(entry), entry.revert ? link("revert…", entry.revert, "revert") : cell("", "actions"));
            return row;
          };
          source.addEventListener("change", (event) => {
            prepend(entryRow(JSON.parse(event.data)));
            schedule();
          });
          source.addEventListener("group", (event) => {
            const group = JSON.parse(event.data);
            if (feed) {
              for (const entry of group.entries) {
                const row = entryRow(entry);
                row.className = "member";
                row.dataset.group = group.from;
                row.hidden = true;
                feed.prepend(row);
              }
            }
            const row = document.createElement("tr");
            row.className = "group";
            row.dataset.seq = group.through;
            row.dataset.group = group.from;
            const td = document.createElement("td");
            td.colSpan = 5;
            const button = document.createElement("button");
            button.type = "button"; button.className = "toggle"; button.textContent = "▸";
            button.setAttribute("aria-expanded", "false");
            const a = document.createElement("a");
            a.href = group.open; a.className = "group-link";
            a.textContent = group.count.toLocaleString("en-US") + " entries written together";
            const shown = group.entries.length < group.count ? " (the first " + group.entries.length + " below)" : "";
            td.append(button, " ", a, ": " + group.summary + shown);
            row.append(cell("#" + group.from + "–#" + group.through, "num"), cell(group.time, "time"), td);
            prepend(row);
            schedule();
          });
          source.addEventListener("gone", (event) => {
            source.close();
            say(JSON.parse(event.data).message, false);
            if (status) status.classList.add("gone");
          });
          source.addEventListener("skipped", (event) => {
            const skipped = JSON.parse(event.data);
            const row = document.createElement("tr");
            row.dataset.seq = skipped.through;
            const td = link("… entries " + skipped.from + " to " + skipped.through + " came too fast to show live: open them", "/feed?through=" + skipped.through);
            td.colSpan = 7;
            row.append(td);
            prepend(row);
            schedule();
          });
          // One reload of the live parts at a time. An entry that arrives while one is on its
          // way may be newer than what the server read for it: it asks for one more reload
          // when this one ends, so the page never rests behind the feed. Until the page has
          // caught up it says so, not "live".
          let pending = null, again = false;
          const schedule = () => {
            if (!refresh) return;
            if (pending) { again = true; return; }
            say("updating…", true);
            pending = setTimeout(async () => {
              let caughtUp = false;
              try {
                const response = await fetch(location.href, { credentials: "same-origin" });
                if (!response.ok) throw new Error("HTTP " + response.status);
                const page = new DOMParser().parseFromString(await response.text(), "text/html");
                for (const part of page.querySelectorAll(".live-part[id]")) {
                  const old = document.getElementById(part.id);
                  if (old) old.replaceWith(document.importNode(part, true));
                }
                caughtUp = true;
              } catch (error) {
                say("behind (" + error.message + "): retrying", false);
                again = true;
              } finally {
                pending = null;
                if (again) {
                  again = false;
                  if (caughtUp) schedule(); else setTimeout(schedule, 1000);
                } else if (source.readyState === EventSource.OPEN) {
                  say("live", true);
                }
              }
            }, 150);
          };
        })();
        """
}
#endif
