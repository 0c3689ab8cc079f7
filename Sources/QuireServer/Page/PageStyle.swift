extension PageAssets {
    /// The page's style: light and dark (the system's choice, or the page's toggle), one column
    /// that fits a phone, the grade buttons a thumb can reach.
    static let style = #"""
    :root {
      --bg: #fbfaf7; --fg: #1d1d1f; --muted: #6b6b70; --line: #e2e0da; --card: #ffffff; --accent: #2d5bd3;
      --again: #c62828; --hard: #b26a00; --good: #2e7d32; --easy: #1565c0; --mark: #fff1a8; --cloze: #1565c0;
      --code: #f3f1ec; --shadow: 0 1px 3px rgba(0,0,0,.08);
      color-scheme: light;
    }
    :root[data-theme="dark"] {
      --bg: #16171a; --fg: #e7e6e3; --muted: #9a9aa0; --line: #2c2e33; --card: #1f2024; --accent: #8fb0ff;
      --again: #ef6b6b; --hard: #e0a040; --good: #66bb6a; --easy: #64a8f0; --mark: #5c4f12; --cloze: #8fc3ff;
      --code: #26282d; --shadow: none;
      color-scheme: dark;
    }
    * { box-sizing: border-box; }
    html { -webkit-text-size-adjust: 100%; }
    body { margin: 0; background: var(--bg); color: var(--fg); font: 17px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
    a { color: var(--accent); }
    .bar { display: flex; align-items: center; gap: .75rem; padding: .6rem 1rem; border-bottom: 1px solid var(--line); position: sticky; top: 0; background: var(--bg); z-index: 2; }
    .bar nav { margin-left: auto; display: flex; gap: .5rem; align-items: center; }
    .brand { font-weight: 700; text-decoration: none; color: var(--fg); }
    .muted { color: var(--muted); }
    #search-form { flex: 1; max-width: 22rem; }
    #search { width: 100%; font: inherit; font-size: .9rem; padding: .35rem .6rem; border: 1px solid var(--line); border-radius: .5rem; background: var(--card); color: var(--fg); }
    .hits { list-style: none; padding: 0; }
    .hits li { padding: .6rem 0; border-bottom: 1px solid var(--line); }
    .hits .place { font-size: .85rem; color: var(--muted); overflow-wrap: anywhere; }
    .hits mark { background: var(--mark); color: inherit; }
    .curation-due { margin: 1rem 0; }
    .curation-due li { margin: .3rem 0; }
    main { max-width: 46rem; margin: 0 auto; padding: 1rem; outline: none; }
    button { font: inherit; color: var(--fg); background: var(--card); border: 1px solid var(--line); border-radius: .5rem; padding: .45rem .8rem; cursor: pointer; box-shadow: var(--shadow); }
    button:hover { border-color: var(--accent); }
    button:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
    button.primary { background: var(--accent); color: #fff; border-color: var(--accent); }
    :root[data-theme="dark"] button.primary { color: #10131a; }
    button:disabled { opacity: .5; cursor: default; }
    kbd { font: 12px ui-monospace, monospace; border: 1px solid var(--line); border-bottom-width: 2px; border-radius: .3rem; padding: 0 .3rem; color: var(--muted); }
    h1 { font-size: 1.5rem; margin: .5rem 0 1rem; }
    .counts { display: flex; flex-wrap: wrap; gap: .5rem; margin: 0 0 1rem; padding: 0; list-style: none; }
    .counts li { background: var(--card); border: 1px solid var(--line); border-radius: .5rem; padding: .4rem .7rem; }
    .counts b { font-variant-numeric: tabular-nums; }
    table.decks { width: 100%; border-collapse: collapse; margin: 1rem 0; }
    table.decks th, table.decks td { text-align: left; padding: .45rem .3rem; border-bottom: 1px solid var(--line); }
    table.decks td.n, table.decks th.n { text-align: right; font-variant-numeric: tabular-nums; }
    .errors { color: var(--again); font-size: .9rem; }
    .errors li { overflow-wrap: anywhere; }
    .status { display: flex; flex-wrap: wrap; gap: .25rem .75rem; font-size: .85rem; color: var(--muted); margin-bottom: .5rem; }
    .status .new { color: var(--easy); } .status .learning { color: var(--again); } .status .review { color: var(--good); }
    .where { overflow-wrap: anywhere; }
    .card { background: var(--card); border: 1px solid var(--line); border-radius: .75rem; padding: 1rem 1.2rem; box-shadow: var(--shadow); overflow-wrap: anywhere; }
    .card img, .card video { max-width: 100%; height: auto; }
    .card audio { width: 100%; max-width: 24rem; }
    .card img.missing { display: none; }
    .card.note .hit { border-top: 2px solid var(--cloze); margin: .6em 0; }
    .card blockquote.embed { margin: .5em 0; padding: .2em .8em; border-left: 3px solid var(--cloze); }
    .card .embed.missing { font-style: italic; opacity: .7; }
    .card .embed.missing::before { content: "missing: "; }
    .card pre { background: var(--code); padding: .7rem; border-radius: .4rem; overflow-x: auto; font-size: .9rem; }
    .card code { background: var(--code); padding: .05rem .25rem; border-radius: .25rem; font-size: .92em; }
    .card pre code { padding: 0; background: none; }
    .card table { border-collapse: collapse; display: block; overflow-x: auto; }
    .card th, .card td { border: 1px solid var(--line); padding: .25rem .5rem; }
    .card mark { background: var(--mark); color: inherit; }
    .card mark.cloze { background: none; color: var(--cloze); font-weight: 700; }
    .card .katex-display { overflow-x: auto; overflow-y: hidden; }
    .heading { font-size: .85rem; color: var(--muted); margin: 0 0 .5rem; }
    hr.answer { border: 0; border-top: 1px dashed var(--line); margin: 1rem 0; }
    .reveal { margin-top: 1rem; width: 100%; padding: .8rem; }
    .type-answer { display: flex; gap: .5rem; margin-top: 1rem; }
    .type-answer input { flex: 1; font: inherit; padding: .6rem; border: 1px solid var(--line); border-radius: .5rem; background: var(--card); color: var(--fg); }
    .typed { font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
    .typed .same { color: var(--good); }
    .typed .wrong { color: var(--again); text-decoration: line-through; }
    .typed .missing { color: var(--hard); text-decoration: underline; }
    .grades { display: grid; grid-template-columns: repeat(var(--buttons, 4), 1fr); gap: .5rem; margin-top: 1rem; }
    .grades button { display: flex; flex-direction: column; align-items: center; padding: .55rem .2rem; }
    .grades button .interval { font-size: .8rem; color: var(--muted); }
    .grades button.again { border-color: var(--again); color: var(--again); }
    .grades button.hard { border-color: var(--hard); color: var(--hard); }
    .grades button.good { border-color: var(--good); color: var(--good); }
    .grades button.easy { border-color: var(--easy); color: var(--easy); }
    .actions { display: flex; flex-wrap: wrap; gap: .4rem; margin-top: 1rem; }
    .actions button { font-size: .85rem; padding: .35rem .6rem; }
    .message { min-height: 1.5rem; font-size: .9rem; color: var(--muted); margin: .5rem 0; }
    .actions.top { margin: 0 0 1rem; }
    button.primary kbd { color: inherit; border-color: currentColor; opacity: .75; }
    #toast { position: fixed; left: 50%; bottom: 1rem; transform: translateX(-50%); width: max-content; max-width: min(90vw, 40rem); background: var(--fg); color: var(--bg); padding: .5rem 1rem; border-radius: .5rem; opacity: 0; transition: opacity .2s; pointer-events: none; }
    #toast.shown { opacity: .95; }
    dialog { border: 1px solid var(--line); border-radius: .75rem; background: var(--card); color: var(--fg); max-width: 30rem; }
    dialog td { padding: .2rem .5rem; vertical-align: top; }
    .summary dt { color: var(--muted); } .summary dd { margin: 0 0 .5rem; font-size: 1.2rem; }
    .hljs-keyword, .hljs-selector-tag, .hljs-built_in { color: #a626a4; }
    .hljs-string, .hljs-attr, .hljs-template-variable { color: #50a14f; }
    .hljs-comment, .hljs-quote { color: var(--muted); font-style: italic; }
    .hljs-number, .hljs-literal, .hljs-type { color: #986801; }
    .hljs-title, .hljs-function .hljs-title, .hljs-section { color: #4078f2; }
    :root[data-theme="dark"] .hljs-keyword, :root[data-theme="dark"] .hljs-selector-tag, :root[data-theme="dark"] .hljs-built_in { color: #d29ef0; }
    :root[data-theme="dark"] .hljs-string, :root[data-theme="dark"] .hljs-attr { color: #98c379; }
    :root[data-theme="dark"] .hljs-number, :root[data-theme="dark"] .hljs-literal, :root[data-theme="dark"] .hljs-type { color: #e5c07b; }
    :root[data-theme="dark"] .hljs-title, :root[data-theme="dark"] .hljs-section { color: #61afef; }
    @media (max-width: 30rem) {
      body { font-size: 16px; }
      main { padding: .75rem; }
      .card { padding: .8rem; }
      #vault { display: none; }
      .bar { flex-wrap: wrap; }
      #search-form { order: 3; flex-basis: 100%; max-width: none; }
      /* A phone has no keyboard: the buttons say what they do. */
      .actions kbd, .grades kbd, .reveal kbd { display: none; }
      table.decks td:first-child { overflow-wrap: break-word; }
      table.decks .cards { display: none; }
    }

    """#
}
