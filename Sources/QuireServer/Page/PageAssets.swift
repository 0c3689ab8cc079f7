/// The page's own files, served at `/`, `/app.js` and `/app.css`: kept in the binary, so that
/// `quire serve` works wherever the binary is copied. The script builds every piece of vault text
/// with `textContent`; only a card's sides arrive as HTML, made safe by ``CardHTML``.
enum PageAssets {
    /// The page: no inline script or style (the Content-Security-Policy forbids both).
    static let html = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="color-scheme" content="light dark">
    <title>Quire</title>
    <link rel="icon" href="data:,">
    <link rel="stylesheet" href="/app.css">
    <link rel="stylesheet" href="/katex/katex.min.css">
    <script src="/katex/katex.min.js" defer></script>
    <script src="/hljs/highlight.min.js" defer></script>
    <script src="/app.js" defer></script>
    </head>
    <body>
    <header class="bar">
      <a href="/" id="home" class="brand">Quire</a>
      <span id="vault" class="muted"></span>
      <form id="search-form" role="search"><input id="search" type="search" placeholder="Search notes  /" aria-label="Search notes" autocomplete="off"></form>
      <nav>
        <a href="/report" target="_blank" rel="noopener" id="report-link">Statistics</a>
        <button type="button" id="theme" title="Light or dark (t)" aria-label="Switch light or dark">◐</button>
        <button type="button" id="help-button" title="Keys (?)" aria-label="Keys">?</button>
      </nav>
    </header>
    <main id="main" tabindex="-1"><p class="muted">Loading…</p></main>
    <div id="toast" role="status" aria-live="polite"></div>
    <dialog id="help">
      <h2>Keys</h2>
      <table>
        <tr><td><kbd>Space</kbd> <kbd>Enter</kbd></td><td>show the answer</td></tr>
        <tr><td><kbd>1</kbd>–<kbd>4</kbd></td><td>again, hard, good, easy (once the answer shows)</td></tr>
        <tr><td><kbd>u</kbd></td><td>undo the last answer, bury, suspension or move</td></tr>
        <tr><td><kbd>e</kbd></td><td>edit the card's note in $EDITOR on the computer</td></tr>
        <tr><td><kbd>x</kbd></td><td>show (or hide) the text the card was made from</td></tr>
        <tr><td><kbd>s</kbd></td><td>skip (the card comes back at the end)</td></tr>
        <tr><td><kbd>b</kbd></td><td>bury until tomorrow</td></tr>
        <tr><td><kbd>!</kbd></td><td>suspend</td></tr>
        <tr><td><kbd>p</kbd> / <kbd>P</kbd></td><td>promote / demote (StudyFlow cards)</td></tr>
        <tr><td><kbd>/</kbd></td><td>search the notes</td></tr>
        <tr><td><kbd>k</kbd> <kbd>a</kbd></td><td>curation: keep, archive (<kbd>←</kbd> <kbd>→</kbd> move)</td></tr>
        <tr><td><kbd>t</kbd></td><td>light or dark</td></tr>
        <tr><td><kbd>r</kbd></td><td>at the end: go over the failed cards again</td></tr>
        <tr><td><kbd>q</kbd> <kbd>Esc</kbd></td><td>back to today</td></tr>
      </table>
      <p><button type="button" id="help-close">Close</button></p>
    </dialog>
    </body>
    </html>

    """#
}
