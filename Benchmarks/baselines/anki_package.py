"""Makes a large Anki package with Anki's own library, for `QuireBench --anki`.

    python3 anki_package.py OUT.apkg CARDS REVIEWS

CARDS Basic notes (one card each) over 20 decks and 50 tags, with HTML fields; REVIEWS answers
spread over the cards across two years (written into the review log directly: answering half a
million cards through the scheduler would take hours), each card left in review state with an FSRS
memory state. Exported in the current package format.
"""
import json, os, random, sys, tempfile

from anki.collection import AddNoteRequest, Collection, ExportAnkiPackageOptions
from anki.generic_pb2 import Empty
from anki.import_export_pb2 import ExportLimit

out, cards, reviews = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
random.seed(7)
work = tempfile.mkdtemp()
col = Collection(os.path.join(work, "bench.anki2"))
basic = col.models.by_name("Basic")
decks = [col.decks.id(f"Subject {d // 5}::Topic {d % 5}") for d in range(20)]
requests = []
for i in range(cards):
    note = col.new_note(basic)
    note["Front"] = f"Question <b>{i}</b>: what is item {i * 7919 % 100003}?"
    note["Back"] = f"Answer {i}<br>with <i>detail</i> {i % 97}"
    note.tags = [f"tag{i % 50}", f"set{i % 7}"]
    requests.append(AddNoteRequest(note=note, deck_id=decks[i % 20]))
col.add_notes(requests)
ids = [cid for (cid,) in col.db.execute("select id from cards order by id")]
start = 1732500000000
rows = []
per = max(1, reviews // len(ids))
n = 0
for k, cid in enumerate(ids):
    for r in range(per):
        if n >= reviews:
            break
        t = start + r * 14 * 86_400_000 + k * 1000
        ease = random.choices([1, 2, 3, 4], [10, 5, 75, 10])[0]
        rows.append((t, cid, -1, ease, 10 * (r + 1), 10 * r, 2500, random.randint(2000, 14000), 1 if r else 0))
        n += 1
col.db.executemany("insert into revlog (id, cid, usn, ease, ivl, lastIvl, factor, time, type) values (?,?,?,?,?,?,?,?,?)", rows)
data = json.dumps({"s": 31.5, "d": 5.2, "dr": 0.9})
col.db.execute("update cards set type = 2, queue = 2, due = 800, ivl = 30, factor = 2500, reps = ?, lapses = 1, data = ?", per, data)
col.export_anki_package(out_path=out, options=ExportAnkiPackageOptions(with_scheduling=True, with_deck_configs=False,
                                                                      with_media=False, legacy=False),
                        limit=ExportLimit(whole_collection=Empty()))
col.close()
print(f"{len(ids)} cards, {n} reviews")
