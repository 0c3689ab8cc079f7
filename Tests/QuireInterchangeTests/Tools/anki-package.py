"""Builds Anki packages with Anki's own library, for Quire's import tests.

    python3 anki-package.py OUT_DIR

Writes OUT_DIR/current.apkg (Anki 2.1.50+ format: zstd, schema 18), OUT_DIR/legacy.apkg
(collection.anki21, JSON media list) and OUT_DIR/collection.colpkg (the whole collection) from one
collection holding every stock note type, a custom
one, nested decks, tags, media, suspended and buried cards, and a review history answered through
Anki's scheduler with FSRS on; and OUT_DIR/expected.json: what the collection holds, read through
the library, for the tests to compare with.
"""
import json, os, sys, time

from anki.collection import Collection, ExportAnkiPackageOptions
from anki.generic_pb2 import Empty
from anki.import_export_pb2 import ExportLimit
from anki.scheduler_pb2 import CardAnswer

out = sys.argv[1]
col = Collection(os.path.join(out, "source.anki2"))
col.set_config("fsrs", True)
models = col.models
cells = col.decks.id("Biology::Cells")
spanish = col.decks.id("Languages::Spanish")


def add(model, fields, deck, tags=()):
    note = col.new_note(models.by_name(model))
    for k, v in fields.items():
        note[k] = v
    note.tags = list(tags)
    col.add_note(note, deck)
    return note


open(os.path.join(col.media.dir(), "cell.png"), "wb").write(b"\x89PNG\r\n\x1a\nfake image bytes")
open(os.path.join(col.media.dir(), "hola.mp3"), "wb").write(b"ID3 fake sound")
basic = add("Basic", {"Front": "What is <b>ATP</b>?", "Back": 'The cell\'s energy currency<br><img src="cell.png">'}, cells, ["bio", "exam"])
add("Basic (and reversed card)", {"Front": "el perro", "Back": "the dog [sound:hola.mp3]"}, spanish, ["spanish"])
add("Basic (optional reversed card)", {"Front": "la casa", "Back": "the house", "Add Reverse": ""}, spanish)
add("Basic (optional reversed card)", {"Front": "el gato", "Back": "the cat", "Add Reverse": "y"}, spanish)
add("Basic (type in the answer)", {"Front": "Capital of France?", "Back": "Paris"}, cells)
add("Cloze", {"Text": "The {{c1::mitochondria}} makes {{c2::ATP}}", "Back Extra": "in cells"}, cells, ["bio"])
custom = models.copy(models.by_name("Basic"))
custom["name"] = "Vocabulary"
models.add_field(custom, models.new_field("Example"))
models.update_dict(custom)
add("Vocabulary", {"Front": "correr", "Back": "to run", "Example": "Me gusta <i>correr</i>."}, spanish)
# A note type of its own: four fields, two templates that show different ones, one field no
# template shows (as shared language decks have).
hanzi = models.new("Hanzi")
for name in ("Hanzi", "Pinyin", "Meaning", "Notes"):
    models.add_field(hanzi, models.new_field(name))
recognition = models.new_template("Recognition")
recognition["qfmt"] = "{{Hanzi}}"
recognition["afmt"] = "{{FrontSide}}<hr id=answer>{{Pinyin}}<br>{{Meaning}}"
recall = models.new_template("Recall")
recall["qfmt"] = "{{Meaning}}"
recall["afmt"] = "{{FrontSide}}<hr id=answer>{{Hanzi}} {{Pinyin}}"
models.add_template(hanzi, recognition)
models.add_template(hanzi, recall)
models.add(hanzi)
# Anki's own image occlusion: a cloze note type whose deletions are shapes on an image.
add("Image Occlusion", {"Occlusion": "{{c1::image-occlusion:rect:left=.1:top=.2:width=.3:height=.4:oi=1}}"
                        "{{c2::image-occlusion:ellipse:left=.5:top=.5:width=.1:height=.1:oi=1}}",
                        "Image": '<img src="cell.png">', "Header": "Parts of a cell", "Back Extra": "", "Comments": "Nucleus, then wall"},
    cells)
add("Hanzi", {"Hanzi": "人", "Pinyin": "rén", "Meaning": "person", "Notes": "A radical: 亻<br>Q: not a card"}, spanish)

# A history: answers a day apart, through Anki's scheduler.
now = int(time.time())
for day in range(4):
    for cid in col.find_cards("deck:Biology::Cells"):
        card = col.get_card(cid)
        card.start_timer()
        states = col._backend.get_scheduling_states(card.id)
        rating = CardAnswer.GOOD if day != 2 else CardAnswer.AGAIN
        col.sched.answer_card(col.sched.build_answer(card=card, states=states, rating=rating))
    # Move the clock: pretend a day passed by shifting every due date back.
    col.db.execute("update cards set due = due - 1 where queue = 2")
    col.db.execute("update cards set due = due - 86400 where queue in (1, 3)")
suspended = col.find_cards("el gato")[0]
col.sched.suspend_cards([suspended])
col.sched.bury_cards(col.find_cards("correr"), manual=True)

for legacy, name in ((False, "current.apkg"), (True, "legacy.apkg")):
    col.export_anki_package(out_path=os.path.join(out, name),
                            options=ExportAnkiPackageOptions(with_scheduling=True, with_deck_configs=True,
                                                             with_media=True, legacy=legacy),
                            limit=ExportLimit(whole_collection=Empty()))

expected = {
    "notes": [{"id": n, "fields": col.get_note(n).fields, "tags": col.get_note(n).tags,
               "notetype": col.get_note(n).note_type()["name"]} for n in col.find_notes("")],
    "cards": [{"id": c.id, "note": c.nid, "deck": col.decks.name(c.did), "ord": c.ord, "type": c.type, "queue": c.queue,
               "due": c.due, "ivl": c.ivl, "reps": c.reps, "lapses": c.lapses,
               "memory": [c.memory_state.stability, c.memory_state.difficulty] if c.memory_state else None}
              for c in (col.get_card(i) for i in col.find_cards(""))],
    "reviews": col.db.all("select id, cid, ease, time, type from revlog order by cid, id"),
    "media": sorted(os.listdir(col.media.dir())),
    "created": col.crt,
}
json.dump(expected, open(os.path.join(out, "expected.json"), "w"), indent=1)
# The whole collection as a collection package (what Anki's "Export collection" writes); this
# closes the collection.
col.export_collection_package(os.path.join(out, "collection.colpkg"), include_media=True, legacy=False)
