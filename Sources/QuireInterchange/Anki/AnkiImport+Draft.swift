import QuireMarkdown
import QuireModel
import QuireParsing
import QuireSupport

/// An Anki note's cards written in Quire's syntax from its fields, before the note has a place.
extension AnkiImport {
    /// A note's cards written, before it has a place.
    struct Drafted: Sendable {
        var folder = ""
        /// The note's cards, in order.
        var written: [WrittenCard] = []
        /// Fields no card shows (and a cloze's Back Extra): the note's text after the cards, each
        /// labelled with its field's name.
        var extra: [(name: String, text: String)] = []
        var typed = false
        var title = ""
        /// The Anki card each Quire card stands for.
        var ankiCards: [AnkiPackage.Card?] = []
        /// The media the fields use: name → path in the vault.
        var media: [String: String] = [:]
        var unknownNotetype: String?
        var warnings: [String] = []
        var problem: (severity: Diagnostic.Severity, message: String)?
    }

    /// A card to write, and the Anki cards it stands for (a reversed pair's two, in order).
    private typealias CardPlan = (draft: CardDraft, anki: [AnkiPackage.Card?])

    /// Writes a note's cards from its fields, as its note type's templates show them.
    ///
    /// - Cloze: the cloze field is one cloze group (one Quire card per number, Anki's card
    ///   `ord` = number − 1); the other fields its template shows follow as the note's text.
    /// - Basic-shaped (every card's question shows the first field and its answer the second):
    ///   a basic card (a definition for Quire's own), or a reversed pair when the note has both
    ///   Anki cards of a front/back and back/front pair.
    /// - Any other note type: one basic card per Anki card, its front the fields its template's
    ///   question shows and its back those its answer adds, each labelled with its field's name
    ///   when a side shows several; fields no card shows follow as the note's text, labelled.
    static func draft(_ note: AnkiPackage.Note, package: AnkiPackage, cards unsorted: [AnkiPackage.Card], prefix: String,
                      media: [String: String]) -> Drafted {
        var result = Drafted()
        guard let notetype = package.notetypes[note.notetype] else {
            result.problem = (.error, "note \(note.id): its note type (\(note.notetype)) is not in the collection")
            return result
        }
        let cards = unsorted.sorted { $0.ordinal < $1.ordinal }
        guard let first = cards.first else { return result }
        let deckID = first.originalDeck != 0 ? first.originalDeck : first.deck
        let deckName = package.decks[deckID] ?? "Default"
        guard let deckFolder = CSVImport.folder(forDeck: deckName) else {
            result.problem = (.error, "note \(note.id): deck '\(deckName)' cannot be a folder of the vault")
            return result
        }
        result.folder = prefix + deckFolder
        let decks = Set(cards.map { $0.originalDeck != 0 ? $0.originalDeck : $0.deck })
        if decks.count > 1 {
            let names = decks.compactMap { package.decks[$0] }.filter { $0 != deckName }.sorted()
            result.warnings.append("note \(note.id): its cards are in several decks (\(([deckName] + names).joined(separator: ", "))); "
                                   + "the note goes to its first card's, \(deckName)")
        }
        let templates = notetype.templates.map { AnkiTemplate(question: $0.question, answer: $0.answer, fields: notetype.fields) }
        let latex = templates.reduce(into: Set<Int>()) { $0.formUnion($1.latex) }
        let fields = note.fields.enumerated().map {
            Self.markdownField($1, latex: latex.contains($0), media: media, used: &result.media).trimmingSpaces()
        }
        let sides = NoteSides(notetype: notetype, templates: templates, fields: fields)
        result.typed = cards.contains { sides.template($0)?.typed ?? false }
        let drafts = notetype.isCloze ? Self.clozeDrafts(note, sides, first: first, into: &result)
            : Self.templateDrafts(sides, cards: cards, first: first, into: &result)
        let titleField = notetype.isCloze ? (templates.first?.question.first ?? 0) : sides.template(first)?.question.first ?? 0
        // The question's field names the note; a picture or a sound there: the first field with
        // words, else the name of the file it shows.
        result.title = Self.title(of: [sides.field(titleField)] + fields)
        Self.writeCards(drafts, note: note, cards: cards, into: &result)
        return result
    }

    /// A field's HTML as Markdown, its media linked by their paths in the vault (each one linked
    /// added to `used`); a field Quire exported and Anki left as it was: its Markdown as written.
    private static func markdownField(_ field: String, latex: Bool, media: [String: String], used: inout [String: String]) -> String {
        let (html, stashed) = MarkdownStash.take(field)
        if let stashed {
            return MarkdownStash.relinked(stashed) { name in
                guard let path = media[name] else { return nil }
                used[name] = path
                return path
            }
        }
        func convert(_ html: String) -> String {
            HTMLToMarkdown.convert(html) { file in
                guard let path = media[file] else { return file }
                used[file] = path
                return path
            }.markdown
        }
        // LaTeX source the template typesets: its text as it is (not escaped), its `$…$`
        // math Markdown's math.
        if latex, !html.contains("[/latex]") { return Self.latexSource(convert("[latex]" + html + "[/latex]")) }
        return convert(html)
    }

    /// A cloze note's card: its cloze field one cloze group, with the other fields its question
    /// shows (the fields only its answer shows follow as the note's text); a basic card when the
    /// cloze text has no deletion.
    private static func clozeDrafts(_ note: AnkiPackage.Note, _ sides: NoteSides, first: AnkiPackage.Card,
                                    into result: inout Drafted) -> [CardPlan] {
        let notetype = sides.notetype, templates = sides.templates
        let clozeField = notetype.templates.first.map { Self.clozeField($0.question, fields: notetype.fields) } ?? 0
        // The other fields the question shows (an image occlusion's image and header) are part
        // of the card's text, in the template's order; those only the answer shows follow it.
        let question = templates.first?.question ?? [clozeField]
        let rest = (templates.first?.answer ?? [1]).filter { $0 != clozeField }
        let clozeText = sides.field(clozeField)
        let text = (question.contains(clozeField) ? question : [clozeField] + question)
            .filter { $0 == clozeField || !sides.field($0).isEmpty }.map(sides.field).joined(separator: "\n\n")
        if CardWriter.holdsAnkiDeletion(clozeText) {
            result.extra = rest.filter { !sides.field($0).isEmpty }.map { (sides.name($0), sides.field($0)) }
            return [(CardDraft(.cloze(text)), [])]
        }
        // Anki makes a card of a cloze note without a deletion; so does Quire, a basic one.
        result.warnings.append("note \(note.id): its cloze text has no deletion ('{{c1::…}}'); imported as a basic card")
        result.extra = []
        return [(CardDraft(.basic(question: text, answer: sides.side(rest))), [first])]
    }

    /// A note's cards from its templates: a basic card (a definition for Quire's own note type) or
    /// a reversed pair when its cards show the first field then the second, otherwise one basic
    /// card per Anki card (the note type reported when Quire does not know it); the fields no card
    /// shows follow as the note's text.
    private static func templateDrafts(_ sides: NoteSides, cards: [AnkiPackage.Card], first: AnkiPackage.Card,
                                       into result: inout Drafted) -> [CardPlan] {
        let notetype = sides.notetype
        let definition = notetype.name.hasPrefix("Quire Definition") || notetype.fields.prefix(2) == ["Term", "Definition"]
        let shapes = cards.map { card -> Int? in
            guard let t = sides.template(card) else { return nil }
            if t.question == [0] && t.answer == [1] { return 0 }
            if t.question == [1] && t.answer == [0] { return 1 }
            return nil
        }
        var drafts: [CardPlan] = []
        var shown = Set<Int>()
        if shapes == [0] {
            let content: CardDraft.Content = definition ? .definition(term: sides.field(0), definition: sides.field(1))
                : .basic(question: sides.field(0), answer: sides.field(1))
            drafts = [(CardDraft(content), [first])]
            shown = [0, 1]
        } else if shapes == [0, 1] {
            drafts = [(CardDraft(.reversed(front: sides.field(0), back: sides.field(1))), [cards[0], cards[1]])]
            shown = [0, 1]
        } else {
            if sides.templates.count > 2 || notetype.fields.count > 3 || shapes.contains(where: { $0 == nil }) {
                result.unknownNotetype = notetype.name
            }
            for card in cards {
                guard let t = sides.template(card), !t.question.isEmpty else {
                    // No template to read: the first field asks, the others answer.
                    let others = Array(1..<max(1, sides.fields.count))
                    drafts.append((CardDraft(.basic(question: sides.field(0), answer: sides.side(others))), [card]))
                    shown.formUnion([0] + others)
                    continue
                }
                drafts.append((CardDraft(.basic(question: sides.side(t.question), answer: sides.side(t.answer))), [card]))
                shown.formUnion(t.question + t.answer)
            }
        }
        let unshown = sides.fields.indices.filter { !shown.contains($0) && !sides.field($0).isEmpty }
        result.extra = unshown.map { (sides.name($0), sides.field($0)) }
        return drafts
    }

    /// Writes the drafted cards in Quire's syntax into `result`, each of its cards matched with the
    /// Anki card it stands for; a card that cannot be written is the note's problem, and an Anki
    /// card no Quire card stands for is reported.
    private static func writeCards(_ drafts: [CardPlan], note: AnkiPackage.Note, cards: [AnkiPackage.Card],
                                   into result: inout Drafted) {
        for (draft, anki) in drafts {
            let written: WrittenCard
            do {
                written = try CardWriter.write(draft)
            } catch {
                result.problem = (.error, "note \(note.id) ('\(result.title)'): cannot be written as a card: \(error)")
                return
            }
            for (side, text) in written.draft.sides where text.isEmpty {
                result.warnings.append("note \(note.id) ('\(result.title)'): the \(side.rawValue) is empty; imported as it is")
            }
            result.written.append(written)
            for variant in written.variants {
                switch variant {
                case .single: result.ankiCards.append(anki.first ?? nil)
                case .forward: result.ankiCards.append(anki.first ?? nil)
                case .backward: result.ankiCards.append(anki.count > 1 ? anki[1] : nil)
                case .cloze(let n): result.ankiCards.append(cards.first { $0.ordinal == n - 1 })
                }
            }
        }
        let matched = Set(result.ankiCards.compactMap { $0?.id })
        for card in cards where !matched.contains(card.id) {
            result.warnings.append("note \(note.id) ('\(result.title)'): card \(card.ordinal + 1) is for cloze number "
                                   + "\(card.ordinal + 1), which the text no longer has (Anki shows it empty; its Empty Cards "
                                   + "tool removes it); not imported")
        }
    }
}

/// A note's fields as Markdown beside its note type's templates: what its cards' sides are made of.
private struct NoteSides {
    let notetype: AnkiPackage.Notetype
    let templates: [AnkiTemplate]
    let fields: [String]

    /// Field `k`'s Markdown ("" past the note's fields).
    func field(_ k: Int) -> String { k < fields.count ? fields[k] : "" }

    /// Field `k`'s name in the note type ("Field n" past its names).
    func name(_ k: Int) -> String { k < notetype.fields.count ? notetype.fields[k] : "Field \(k + 1)" }

    /// The fields as one side: a lone field (or the only one not empty) as it is, several each
    /// labelled with its name (empty ones left out).
    func side(_ indices: [Int]) -> String {
        let filled = indices.filter { !field($0).isEmpty }
        if filled.count <= 1 { return filled.first.map(field) ?? "" }
        return filled.map { AnkiImport.labelled(name($0), field($0)) }.joined(separator: "\n\n")
    }

    /// The template a card is shown with: a cloze note's first, any other's by the card's ordinal.
    func template(_ card: AnkiPackage.Card) -> AnkiTemplate? {
        notetype.isCloze ? templates.first : (card.ordinal < templates.count ? templates[card.ordinal] : nil)
    }
}
