#!/usr/bin/env python3
"""Checks that Quire's work grows linearly with hostile input (docs/SECURITY.md, "Work is bounded").

    scripts/scaling-probe.py [--quire PATH] [--family note|side|log|csv|anki|pdf|image|audio] [NAME...]

Each shape is a way a shared vault can be crafted against Quire: a note with a hundred thousand
unclosed cloze openers, a card answer of sixty thousand links, a review log of a million undos, an
`ignore:` pattern of many stars, a CSV of many columns. For each shape and command the shape's size
is grown fourfold until a run takes 0.2 s, then run at four times that size: linear work takes about
four times as long, quadratic work sixteen times. A ratio over 7 (with the larger run over 0.5 s)
is flagged. NAME picks shapes or commands by name. Use a release build (`swift build -c release`);
the whole probe takes about half an hour. Exit status 1 when anything is flagged.

Families: `note` (a note's body, front matter or the plugin's syntax, read by `quire check`),
`side` (a card's answer through show, review, the exports, search and ask), `log` (review logs
through the commands that read them), `csv` (`quire import csv`), `anki` (`quire import anki` of a
real deck, Tests/EndToEndTests/Fixtures/RealDecks/japanese-literature.apkg, one note's field made
hostile), `pdf`, `image` and `audio` (`quire import pdf|image|audio` of crafted files: blank pages,
pages of text, pages of drawn lines read by OCR, a compression bomb; an image of many pixels; a
recording of many seconds). For these three the peak memory of the largest process (Quire or a
helper program it ran) is measured too, and flagged over 150 MB + 16 bytes per byte of input.
"""
import argparse
import os
import random
import sqlite3
import struct
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
import zlib

NOTE = {
    'unclosed-cloze': lambda k: 'x ' + '{{c1::' * k + '\n',
    'many-clozes': lambda k: ' '.join('{{c%d::a}}' % (i % 9 + 1) for i in range(k)) + '\n',
    'nested-cloze': lambda k: 'x ' + '{{c1::' * k + 'a' + '}}' * k + '\n',
    'cloze-hints': lambda k: '{{c1::a' + '::h' * k + '}}\n',
    'many-colons': lambda k: 'a' + ' :: b' * k + '\n',
    'many-triple-colons': lambda k: 'a' + ' ::: b' * k + '\n',
    'q-lines': lambda k: 'Q: what?\n' * k,
    'qa-pairs': lambda k: 'Q: what?\nA: that.\n\n' * k,
    'question-marks': lambda k: 'a\n?\n' * k,
    'id-comments': lambda k: 'Q: a\nA: b ' + '<!-- id: abcdefabcdef -->' * k + '\n',
    'headings': lambda k: ''.join('#' * (i % 6 + 1) + ' h%d\nQ: q%d\nA: a\n\n' % (i, i) for i in range(k)),
    'inline-tags': lambda k: ' '.join('#t%d' % i for i in range(k)) + '\n',
    'unclosed-wikilinks': lambda k: '[[' * k + '\n',
    'embeds': lambda k: '![[x' * k + '\n',
    'stars': lambda k: '*a' * k + '\n',
    'underscores': lambda k: '_a' * k + '\n',
    'tildes': lambda k: '~a' * k + '\n',
    'brackets': lambda k: '[' * k + 'a' + ']' * k + '\n',
    'open-brackets': lambda k: '[a' * k + '\n',
    'backticks': lambda k: ''.join('`' * (i % 7 + 1) + 'a' for i in range(k)) + '\n',
    'backslashes': lambda k: '\\' * k + '\n',
    'html-comments': lambda k: '<!--' * k + '\n',
    'lt': lambda k: '<a' * k + '\n',
    'dollars': lambda k: '$a' * k + '\n',
    'fences': lambda k: '```\n' * k,
    'table-rows': lambda k: '| a | b |\n| - | - |\n' + '| x | y |\n' * k,
    'footnotes': lambda k: '[^a' * k + '\n',
    'entities': lambda k: '&amp' * k + '\n',
    'autolinks': lambda k: 'http://a' * k + '\n',
    'long-word': lambda k: 'Q: ' + 'a' * (20 * k) + '\nA: b\n',
}
FRONT_MATTER = {
    'fm-tags': lambda k: 'tags: [' + ', '.join('t%d' % i for i in range(k)) + ']\n',
    'fm-keys': lambda k: ''.join('k%d: v\n' % i for i in range(k)),
    'fm-nested': lambda k: 'a: ' + '[' * k + ']' * k + '\n',
    'fm-long-string': lambda k: 'title: "' + 'a\\n' * k + '"\n',
    'fm-aliases': lambda k: 'a: &x [1]\n' + ''.join('b%d: *x\n' % i for i in range(k)),
    'fm-deck-path': lambda k: 'deck: ' + '::'.join('d' for _ in range(k)) + '\n',
    'fm-tag-path': lambda k: 'tags: [' + '/'.join('d' for _ in range(k)) + ']\n',
}
PLUGIN = {
    'obs-highlights': lambda k: '#flashcards\n' + '==a==' * k + '\n',
    'obs-unclosed-hl': lambda k: '#flashcards\n' + '==a' * k + '\n',
    'obs-bold': lambda k: '#flashcards\n' + '**a' * k + '\n',
    'obs-seps': lambda k: '#flashcards\nq' + '::a' * k + '\n',
    'obs-multiline': lambda k: '#flashcards\nq\n?\n' + 'a\n' * k,
    'obs-question-lines': lambda k: '#flashcards\n' + 'q\n?\n' * k,
    'obs-braces': lambda k: '#flashcards\n' + '{{a' * k + '\n',
}
SIDES = {
    'words': lambda k: 'a ' * k,
    'linebreaks': lambda k: 'a\n' * k,
    'emphasis': lambda k: '*a* ' * k,
    'long-word': lambda k: 'a' * (4 * k),
    'cjk': lambda k: '漢' * k,
    'math': lambda k: '$x$ ' * k,
    'links': lambda k: '[a](b) ' * k,
    'html': lambda k: '<b>a</b>' * k,
    'code': lambda k: '`a` ' * k,
    'escapes': lambda k: '\\*' * k,
    'br': lambda k: 'a<br>' * k,
    'cyrillic': lambda k: 'ж' * k,
    'accents': lambda k: 'é' * k,
    'controls': lambda k: '\x7f\x85' * k,
}
SIDE_COMMANDS = {
    'show': lambda d, card: ['show', card],
    'review': lambda d, card: ['review', '--plain'],
    'export-csv': lambda d, card: ['export', 'csv', '-'],
    'export-json': lambda d, card: ['export', 'json', '-'],
    'export-anki': lambda d, card: ['export', 'anki', os.path.join(d, 'out.apkg')],
    'search': lambda d, card: ['search', 'a'],
    'ask': lambda d, card: ['ask', 'what is a?'],
    'list-text': lambda d, card: ['list', 'слово'],
}


def stamp(i):
    s = i * 37
    return '2026-%02d-%02dT%02d:%02d:%02d.%03dZ' % (1 + (s // 2419200) % 10, 1 + (s // 86400) % 28,
                                                   (s // 3600) % 24, (s // 60) % 60, s % 60, i % 1000)


LOGS = {
    'one-card-grades': lambda c, k: ''.join('%s grade %s good id=x%09d sched=fsrs ms=1 path=a.md\n' % (stamp(i), c, i) for i in range(k)),
    'many-cards': lambda c, k: ''.join('%s grade %012d good id=y%09d sched=fsrs ms=1 path=a.md\n' % (stamp(i), i, i) for i in range(k)),
    'undo-chain': lambda c, k: ''.join('%s grade %s good id=u%09d sched=fsrs ms=1 path=a.md\n%s undo %s of=%s of-id=u%09d path=a.md\n'
                                       % (stamp(2 * i), c, i, stamp(2 * i + 1), c, stamp(2 * i), i) for i in range(k)),
    'long-line': lambda c, k: '%s grade %s good id=zz sched=fsrs ms=1 path=a.md x=%s\n' % (stamp(1), c, 'a' * (100 * k)),
    'many-paths': lambda c, k: ''.join('%s grade %s good id=p%09d sched=fsrs ms=1 path=n%d.md\n' % (stamp(i), c, i, i) for i in range(k)),
}
LOG_COMMANDS = {name: (lambda args: lambda d, card: args)(args) for name, args in {
    'stats': ['stats'], 'check': ['check'], 'doctor': ['doctor'], 'review': ['review', '--plain'], 'replay': ['replay'],
    'undo': ['undo'], 'export-revlog': ['export', 'revlog', '-'], 'report': ['report', '--out', 'r.html'], 'today': ['today'],
}.items()}
CSVS = {
    'rows': lambda k: 'front,back\n' + ''.join('q%d,a%d\n' % (i, i) for i in range(k)),
    'headerless-rows': lambda k: ''.join('q%d,a%d,p%d\n' % (i, i, i) for i in range(k)),
    'giant-field': lambda k: 'front,back\nq,"' + 'a ' * (10 * k) + '"\n',
    'quoted-newlines': lambda k: 'front,back\nq,"' + 'a\n' * k + '"\n',
    'many-columns': lambda k: ','.join('c%d' % i for i in range(k)) + '\n' + ','.join('v' for _ in range(k)) + '\n',
    'html-field': lambda k: 'front,back\nq,"' + '<b>a</b><br>' * k + '"\n',
    'same-front': lambda k: 'front,back\n' + ''.join('q,a%d\n' % i for i in range(k)),
    'deck-paths': lambda k: 'front,back,deck\n' + ''.join('q%d,a,%s\n' % (i, '::'.join(['d'] * 20)) for i in range(k)),
    'tags': lambda k: 'front,back,tags\nq,a,"' + ' '.join('t%d' % i for i in range(k)) + '"\n',
}
ANKI_FIELDS = {
    'text': lambda k: 'a ' * k,
    'nested-b': lambda k: '<b>' * k + 'x' + '</b>' * k,
    'links': lambda k: '<a href="https://example.com/x">y</a> ' * k,
    'clozes': lambda k: ' '.join('{{c%d::a}}' % (i % 50 + 1) for i in range(k)),
    'images': lambda k: '<img src="missing.png">' * k,
    'sounds': lambda k: '[sound:x.mp3]' * k,
    'br': lambda k: 'a<br>' * k,
    'math': lambda k: '\\(x\\) ' * k,
    'latex': lambda k: '[latex]x[/latex]' * k,
    'divs': lambda k: '<div>a</div>' * k,
    'entities': lambda k: '&nbsp;&amp;' * k,
    'spaces-url': lambda k: '<a href="' + ' ' * k + 'x">y</a>',
    'cyrillic': lambda k: 'ж' * k,
}
DECK = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'Tests', 'EndToEndTests', 'Fixtures', 'RealDecks',
                    'japanese-literature.apkg')


def pdf_file(objs):
    """A PDF of the given objects (PDF source), the first the catalogue."""
    out = b'%PDF-1.4\n'
    offsets = []
    for i, o in enumerate(objs, 1):
        offsets.append(len(out))
        out += b'%d 0 obj\n' % i + o + b'\nendobj\n'
    x = len(out)
    out += b'xref\n0 %d\n0000000000 65535 f \n' % (len(objs) + 1) + b''.join(b'%010d 00000 n \n' % o for o in offsets)
    return out + b'trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n' % (len(objs) + 1, x)


def pdf_pages(contents):
    """A PDF of one letter page for each content stream (bytes), with Helvetica as /F1."""
    n = len(contents)
    objs = [b'<< /Type /Catalog /Pages 2 0 R >>',
            b'<< /Type /Pages /Kids [%s] /Count %d >>' % (b' '.join(b'%d 0 R' % (4 + 2 * i) for i in range(n)), n),
            b'<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>']
    for i, c in enumerate(contents):
        objs.append(b'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R /Resources << /Font << /F1 3 0 R >> >> >>'
                    % (5 + 2 * i))
        objs.append(b'<< /Length %d >>\nstream\n' % len(c) + c + b'\nendstream')
    return pdf_file(objs)


def text_page(i):
    return b'BT /F1 11 Tf 72 700 Td (Page %d says that osmosis moves water across a membrane.) Tj ET' % i


def lines_page(i):
    return b'4 w ' + b' '.join(b'72 %d m 540 %d l' % (100 + 20 * j + i % 7, 100 + 20 * j + i % 7) for j in range(30)) + b' S'


def bomb(k):
    body = zlib.compress(b'BT /F1 12 Tf 72 700 Td (aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa) Tj ET\n' * k, 9)
    return pdf_file([b'<< /Type /Catalog /Pages 2 0 R >>', b'<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
                     b'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
                     b'<< /Length %d /Filter /FlateDecode >>\nstream\n' % len(body) + body + b'\nendstream',
                     b'<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'])


PDFS = {
    'blank-pages': (lambda k: pdf_pages([b''] * k), 16),
    'text-pages': (lambda k: pdf_pages([text_page(i) for i in range(k)]), 16),
    'drawn-pages': (lambda k: pdf_pages([lines_page(i) for i in range(k)]), 1),
    'many-ops': (lambda k: pdf_pages([b'\n'.join(text_page(i) for i in range(k))]), 1000),
    'bomb': (bomb, 16000),
}


def png(pixels):
    """A grey PNG of about `pixels` pixels (square), with dark bars drawn on it."""
    side = max(8, int(pixels ** 0.5))
    rows = b''.join(b'\x00' + bytes(0 if (y // 8) % 5 == 0 and x % 9 else 255 for x in range(side)) for y in range(side))
    chunk = lambda kind, data: struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', side, side, 8, 0, 0, 0, 0))
            + chunk(b'IDAT', zlib.compress(rows, 6)) + chunk(b'IEND', b''))


def wav(seconds):
    """A WAV of `seconds` of quiet noise at 16 kHz."""
    rng = random.Random(7)
    samples = b''.join(struct.pack('<h', rng.randint(-300, 300)) for _ in range(16000 * seconds))
    return (b'RIFF' + struct.pack('<I', 36 + len(samples)) + b'WAVEfmt ' + struct.pack('<IHHIIHH', 16, 1, 1, 16000, 32000, 2, 16)
            + b'data' + struct.pack('<I', len(samples)) + samples)


# Runs a command and prints the peak resident memory of the largest process it waited for (itself
# or a helper it ran), in kilobytes, as the last line of its standard error.
PEAK = 'import resource, subprocess, sys\n' \
       'r = subprocess.run(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)\n' \
       'sys.stderr.buffer.write(r.stderr[-2000:])\n' \
       'sys.stderr.write("\\npeak %d\\n" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n'


def hostile_package(d, field):
    """The real deck with its first note's last field replaced by `field`, as d/x.apkg."""
    source = zipfile.ZipFile(DECK)
    db = os.path.join(d, 'collection.db')
    with open(db, 'wb') as f:
        f.write(source.read('collection.anki2'))
    c = sqlite3.connect(db)
    note, fields = c.execute('SELECT id, flds FROM notes ORDER BY id LIMIT 1').fetchone()
    parts = fields.split('\x1f')
    parts[-1] = field
    c.execute('UPDATE notes SET flds = ? WHERE id = ?', ('\x1f'.join(parts), note))
    c.commit()
    c.close()
    with zipfile.ZipFile(os.path.join(d, 'x.apkg'), 'w') as w:
        with open(db, 'rb') as f:
            w.writestr('collection.anki2', f.read())
        w.writestr('media', source.read('media'))
    os.remove(db)


class Probe:
    def __init__(self, quire):
        self.quire = quire
        self.flagged = []

    def run(self, args, cwd, stdin=b' \n3\nq\n'):
        return subprocess.run([self.quire] + args, cwd=cwd, capture_output=True, input=stdin, timeout=600)

    def vault(self):
        d = tempfile.mkdtemp(prefix='quire-scaling-')
        self.run(['init'], d)
        return d

    def timed(self, build, command):
        """Seconds `command` takes on the vault `build` makes, with the vault's path and a card's ID."""
        d = self.vault()
        try:
            card = build(d)
            start = time.perf_counter()
            self.run(command(d, card), d)
            return time.perf_counter() - start
        finally:
            shutil.rmtree(d, ignore_errors=True)

    def peak(self, build, command):
        """Seconds, peak kilobytes and input bytes of `command` on the vault `build` makes (which returns the input's size)."""
        d = self.vault()
        try:
            size = build(d)
            start = time.perf_counter()
            r = subprocess.run([sys.executable, '-c', PEAK, self.quire] + command(d, None), cwd=d, capture_output=True, timeout=900)
            seconds = time.perf_counter() - start
            return seconds, int(r.stderr.decode(errors='replace').rsplit('peak ', 1)[-1].strip() or 0), size
        finally:
            shutil.rmtree(d, ignore_errors=True)

    def grown(self, name, build, command, measure, start, cap, enough):
        """`measure` (a run's figures, its seconds first) at the size where a run takes over `enough`
        seconds (grown fourfold from `start`, at most `cap`) and at four times it: the size and both
        runs' figures, or None after a timeout (flagged)."""
        k = start
        try:
            while True:
                small = measure(lambda d: build(d, k), command)
                if small[0] > enough or k * 4 > cap:
                    break
                k *= 4
            return k, small, measure(lambda d: build(d, 4 * k), command)
        except subprocess.TimeoutExpired:
            print(f'{name:34} TIMEOUT at size {4 * k}', flush=True)
            self.flagged.append(name)
            return None

    def measure_memory(self, name, build, command, start, cap):
        """As measure, with the peak memory of each run, flagged over 150 MB + 16 bytes per input byte."""
        grown = self.grown(name, build, command, self.peak, start, cap, enough=0.5)
        if grown is None:
            return
        k, small, large = grown
        ratio = large[0] / max(small[0], 1e-3)
        slow = ratio > 7 and large[0] > 0.5
        heavy = [run for run in (small, large) if run[1] * 1024 > 150 * 2 ** 20 + 16 * run[2]]
        if slow or heavy:
            self.flagged.append(name)
        print(f'{name:34} size {k:>9} ({small[2] / 1024:9.0f} KB): {small[0]:7.3f} s {small[1] / 1024:6.0f} MB, '
              f'x4: {large[0]:7.3f} s {large[1] / 1024:6.0f} MB, ratio {ratio:5.1f}'
              f'{"  <- superlinear" if slow else ""}{"  <- memory" if heavy else ""}', flush=True)

    def measure(self, name, build, command, cap=64_000_000):
        grown = self.grown(name, build, command, lambda b, c: (self.timed(b, c),), 1000, cap, enough=0.2)
        if grown is None:
            return
        k, (small,), (large,) = grown
        ratio = large / max(small, 1e-3)
        flag = ratio > 7 and large > 0.5
        if flag:
            self.flagged.append(name)
        print(f'{name:34} size {k:>9}: {small:7.3f} s, x4: {large:7.3f} s, ratio {ratio:5.1f}{"  <- superlinear" if flag else ""}',
              flush=True)


def write(d, name, text):
    with open(os.path.join(d, name), 'w') as f:
        f.write(text)


def first_card(probe, d):
    out = probe.run(['list'], d).stdout.decode().split('\t')
    return out[0] if out else ''


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--quire', default='.build/release/quire')
    parser.add_argument('--family', choices=['note', 'side', 'log', 'csv', 'anki', 'pdf', 'image', 'audio'])
    parser.add_argument('names', nargs='*')
    options = parser.parse_args()
    probe = Probe(os.path.abspath(options.quire))
    wanted = lambda *names: not options.names or any(n in options.names for n in names)
    family = lambda f: options.family in (None, f)
    check = lambda d, card: ['check', '--no-cache']

    if family('note'):
        for name, shape in NOTE.items():
            if wanted(name):
                probe.measure(f'note {name}', lambda d, k, s=shape: write(d, 'n.md', s(k)), check)
        for name, shape in FRONT_MATTER.items():
            if wanted(name):
                probe.measure(f'note {name}', lambda d, k, s=shape: write(d, 'n.md', '---\n' + s(k) + '---\nQ: a\nA: b\n'), check)

        def plugin(d, k, s):
            with open(os.path.join(d, '.quire/config.yaml'), 'a') as f:
                f.write('card_syntax: obsidian-sr\n')
            write(d, 'n.md', s(k))
        for name, shape in PLUGIN.items():
            if wanted(name):
                probe.measure(f'note {name}', lambda d, k, s=shape: plugin(d, k, s), check)

        def stars(d, k):
            with open(os.path.join(d, '.quire/config.yaml'), 'a') as f:
                f.write('ignore: ["' + '*a' * k + '*b"]\n')
            write(d, 'a' * 200 + '.md', 'Q: a\nA: b\n')
        if wanted('ignore-stars'):
            probe.measure('note ignore-stars', stars, check, cap=4_000_000)

    if family('side'):
        for name, shape in SIDES.items():
            for command, args in SIDE_COMMANDS.items():
                if wanted(name, command):
                    def build(d, k, s=shape):
                        write(d, 'n.md', 'Q: what is a?\nA: ' + s(k).replace('\n\n', '\n') + '\n')
                        return first_card(probe, d)
                    probe.measure(f'side {name} {command}', build, args, cap=16_000_000)

    if family('log'):
        for name, shape in LOGS.items():
            for command, args in LOG_COMMANDS.items():
                if wanted(name, command):
                    def build(d, k, s=shape):
                        write(d, 'a.md', 'Q: a?\nA: b\n')
                        probe.run(['review', '--plain'], d)
                        folder = os.path.join(d, '.quire', 'log')
                        log = os.path.join(folder, sorted(os.listdir(folder))[0])
                        card = open(log).read().split('\n')[1].split()[2]
                        with open(log, 'a') as f:
                            f.write(s(card, k))
                        return card
                    probe.measure(f'log {name} {command}', build, args, cap=1_000_000)

    if family('csv'):
        for name, shape in CSVS.items():
            if wanted(name):
                probe.measure(f'csv {name}', lambda d, k, s=shape: write(d, 'in.csv', s(k)),
                              lambda d, card: ['import', 'csv', 'in.csv'], cap=4_000_000)

    if family('anki'):
        for name, shape in ANKI_FIELDS.items():
            if wanted(name):
                probe.measure(f'anki {name}', lambda d, k, s=shape: hostile_package(d, s(k)),
                              lambda d, card: ['import', 'anki', 'x.apkg'], cap=16_000_000)

    def written(d, name, data):
        with open(os.path.join(d, name), 'wb') as f:
            f.write(data)
        return len(data)

    if family('pdf'):
        for name, (shape, start) in PDFS.items():
            if wanted(name):
                probe.measure_memory(f'pdf {name}', lambda d, k, s=shape: written(d, 'in.pdf', s(k)),
                                     lambda d, card: ['import', 'pdf', 'in.pdf'], start, cap=64_000_000)
    if family('image') and wanted('pixels'):
        probe.measure_memory('image pixels', lambda d, k: written(d, 'in.png', png(k)),
                             lambda d, card: ['import', 'image', 'in.png'], 250_000, cap=64_000_000)
    if family('audio') and wanted('seconds'):
        probe.measure_memory('audio seconds', lambda d, k: written(d, 'in.wav', wav(k)),
                             lambda d, card: ['import', 'audio', 'in.wav'], 4, cap=4096)

    if probe.flagged:
        print('superlinear: ' + ', '.join(probe.flagged))
        return 1
    print('every shape linear')
    return 0


if __name__ == '__main__':
    sys.exit(main())
