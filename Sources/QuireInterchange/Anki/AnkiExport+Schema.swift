import QuireSupport

/// The legacy collection's tables (Anki's schema 11) and the JSON its `col` row holds: note
/// types, decks, configuration, as Anki 2.1 writes them.
extension AnkiExport {
    static let schema = [
        "CREATE TABLE col (id integer PRIMARY KEY, crt integer NOT NULL, mod integer NOT NULL, scm integer NOT NULL, ver integer NOT NULL, "
            + "dty integer NOT NULL, usn integer NOT NULL, ls integer NOT NULL, conf text NOT NULL, models text NOT NULL, decks text NOT NULL, "
            + "dconf text NOT NULL, tags text NOT NULL)",
        "CREATE TABLE notes (id integer PRIMARY KEY, guid text NOT NULL, mid integer NOT NULL, mod integer NOT NULL, usn integer NOT NULL, "
            + "tags text NOT NULL, flds text NOT NULL, sfld integer NOT NULL, csum integer NOT NULL, flags integer NOT NULL, data text NOT NULL)",
        "CREATE TABLE cards (id integer PRIMARY KEY, nid integer NOT NULL, did integer NOT NULL, ord integer NOT NULL, mod integer NOT NULL, "
            + "usn integer NOT NULL, type integer NOT NULL, queue integer NOT NULL, due integer NOT NULL, ivl integer NOT NULL, "
            + "factor integer NOT NULL, reps integer NOT NULL, lapses integer NOT NULL, left integer NOT NULL, odue integer NOT NULL, "
            + "odid integer NOT NULL, flags integer NOT NULL, data text NOT NULL)",
        "CREATE TABLE revlog (id integer PRIMARY KEY, cid integer NOT NULL, usn integer NOT NULL, ease integer NOT NULL, ivl integer NOT NULL, "
            + "lastIvl integer NOT NULL, factor integer NOT NULL, time integer NOT NULL, type integer NOT NULL)",
        "CREATE TABLE graves (usn integer NOT NULL, oid integer NOT NULL, type integer NOT NULL)",
        "CREATE INDEX ix_notes_usn ON notes (usn)", "CREATE INDEX ix_cards_usn ON cards (usn)", "CREATE INDEX ix_revlog_usn ON revlog (usn)",
        "CREATE INDEX ix_cards_nid ON cards (nid)", "CREATE INDEX ix_cards_sched ON cards (did, queue, due)",
        "CREATE INDEX ix_revlog_cid ON revlog (cid)", "CREATE INDEX ix_notes_csum ON notes (csum)",
    ]

    static let css = ".card {\\n font-family: arial;\\n font-size: 20px;\\n text-align: center;\\n color: black;\\n background-color: white;\\n}\\n"

    static func field(_ name: String, _ ord: Int) -> JSONValue {
        .object([("name", .string(name)), ("ord", .int(ord)), ("sticky", .bool(false)), ("rtl", .bool(false)), ("font", .string("Arial")),
                 ("size", .int(20)), ("media", .array([]))])
    }

    static func template(_ name: String, _ ord: Int, _ question: String, _ answer: String) -> JSONValue {
        .object([("name", .string(name)), ("ord", .int(ord)), ("qfmt", .string(question)), ("afmt", .string(answer)),
                 ("bqfmt", .string("")), ("bafmt", .string("")), ("did", .null), ("bfont", .string("")), ("bsize", .int(0))])
    }

    static func notetype(id: Int64, name: String, type: Int, fields: [String], templates: [JSONValue], req: JSONValue) -> JSONValue {
        .object([
            ("id", .int(Int(id))), ("name", .string(name)), ("type", .int(type)), ("mod", .int(0)), ("usn", .int(0)), ("sortf", .int(0)),
            ("did", .null), ("tmpls", .array(templates)), ("flds", .array(fields.enumerated().map { field($1, $0) })),
            ("css", .string(css)), ("latexPre", .string("\\\\documentclass[12pt]{article}\\n\\\\special{papersize=3in,5in}\\n\\\\usepackage[utf8]{inputenc}\\n\\\\usepackage{amssymb,amsmath}\\n\\\\pagestyle{empty}\\n\\\\setlength{\\\\parindent}{0in}\\n\\\\begin{document}\\n")),
            ("latexPost", .string("\\\\end{document}")), ("latexsvg", .bool(false)), ("req", req), ("tags", .array([])), ("vers", .array([])),
        ])
    }

    static let basicNotetype = notetype(id: basicID, name: "Quire Basic", type: 0, fields: ["Front", "Back"],
                                        templates: [template("Card 1", 0, "{{Front}}", "{{FrontSide}}\\n\\n<hr id=answer>\\n\\n{{Back}}")],
                                        req: .array([.array([.int(0), .string("any"), .array([.int(0)])])]))
    static let reversedNotetype = notetype(id: reversedID, name: "Quire Basic (and reversed card)", type: 0, fields: ["Front", "Back"],
                                           templates: [template("Card 1", 0, "{{Front}}", "{{FrontSide}}\\n\\n<hr id=answer>\\n\\n{{Back}}"),
                                                       template("Card 2", 1, "{{Back}}", "{{FrontSide}}\\n\\n<hr id=answer>\\n\\n{{Front}}")],
                                           req: .array([.array([.int(0), .string("any"), .array([.int(0)])]),
                                                        .array([.int(1), .string("any"), .array([.int(1)])])]))
    static let definitionNotetype = notetype(id: definitionID, name: "Quire Definition", type: 0, fields: ["Term", "Definition"],
                                             templates: [template("Card 1", 0, "{{Term}}", "{{FrontSide}}\n\n<hr id=answer>\n\n{{Definition}}")],
                                             req: .array([.array([.int(0), .string("any"), .array([.int(0)])])]))
    static let clozeNotetype = notetype(id: clozeID, name: "Quire Cloze", type: 1, fields: ["Text", "Back Extra"],
                                        templates: [template("Cloze", 0, "{{cloze:Text}}", "{{cloze:Text}}<br>\\n{{Back Extra}}")],
                                        req: .array([.array([.int(0), .string("any"), .array([.int(0)])])]))

    static func deckJSON(id: Int64, name: String) -> JSONValue {
        .object([
            ("id", .int(Int(id))), ("mod", .int(0)), ("name", .string(name)), ("usn", .int(0)), ("lrnToday", .array([.int(0), .int(0)])),
            ("revToday", .array([.int(0), .int(0)])), ("newToday", .array([.int(0), .int(0)])), ("timeToday", .array([.int(0), .int(0)])),
            ("collapsed", .bool(false)), ("browserCollapsed", .bool(false)), ("desc", .string("")), ("dyn", .int(0)), ("conf", .int(1)),
            ("extendNew", .int(0)), ("extendRev", .int(0)),
        ])
    }

    static let configJSON = #"{"nextPos":1,"estTimes":true,"activeDecks":[1],"sortType":"noteFld","timeLim":0,"sortBackwards":false,"addToCur":true,"curDeck":1,"newSpread":0,"dueCounts":true,"curModel":null,"collapseTime":1200,"schedVer":2,"sched2021":true}"#

    static let deckConfigJSON = #"{"1":{"id":1,"mod":0,"name":"Default","usn":0,"maxTaken":60,"autoplay":true,"timer":0,"replayq":true,"new":{"bury":false,"delays":[1.0,10.0],"initialFactor":2500,"ints":[1,4,0],"order":1,"perDay":20},"rev":{"bury":false,"ease4":1.3,"ivlFct":1.0,"maxIvl":36500,"perDay":200,"hardFactor":1.2},"lapse":{"delays":[10.0],"leechAction":1,"leechFails":8,"minInt":1,"mult":0.0},"dyn":false,"newMix":0,"newPerDayMinimum":0,"interdayLearningMix":0,"reviewOrder":0,"newSortOrder":0,"newGatherPriority":0,"buryInterdayLearning":false}}"#
}
