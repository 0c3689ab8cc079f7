import QuireSupport

extension CardGenerator {
    /// Words that open a subject which is no term (`This`, `Some of them` …).
    static let notTermStarts: Set<String> = ["how", "why", "where", "this", "these", "those", "it", "they", "such", "each", "all", "some", "many", "most",
                                             "one", "another", "both", "other", "there", "here", "what", "which", "that", "he", "she",
                                             "we", "you", "its", "their", "his", "her", "our", "your", "however", "thus", "so", "but",
                                             "and", "if", "when", "while", "because", "although", "for", "in", "on", "at", "as"]
    /// Headings that name no subject.
    static let genericHeadings: Set<String> = ["introduction", "overview", "summary", "conclusion", "conclusions", "background",
                                               "review", "key terms", "exercises", "examples", "example", "references", "notes",
                                               "cards", "questions", "discussion", "learning objectives", "glossary"]

    /// Words that tie a sentence to the one before, left off when it stands alone on a card.
    static let connectives = ["Thus, ", "However, ", "Therefore, ", "In addition, ", "Also, ", "Moreover, ", "Furthermore, ",
                              "Consequently, ", "Hence, ", "Similarly, ", "Likewise, ", "Finally, ", "Indeed, ", "In fact, ",
                              "In other words, ", "As a result, ", "Instead, ", "Of course, ", "Remark: ", "Note: ", "Remark – "]

    /// How a cheat sheet's explanation opens when it sets up a formula rather than defines its
    /// term (`By noting α the learning rate, …`, `Let A1, …, Ak be k events`).
    static let setups = ["by ", "we ", "let ", "given ", "in ", "here ", "for ", "remark", "it ", "there ", "as ", "when ", "if ",
                         "using ", "with ", "from ", "this ", "these ", "such "]

    /// A definition item's explanation as a card's back: nil when it sets up a formula instead of
    /// defining; without the term said again (`The hypothesis is noted hθ …` → `noted hθ …`).
    static func explanation(_ given: String, of term: String) -> String? {
        var text = given
        // `It is a tree-based technique …`: the item's term is the subject.
        for opening in ["It is ", "It’s ", "It's ", "They are "] where text.hasPrefix(opening) { text = String(text.dropFirst(opening.count)) }
        // The term's other name said in passing (`…, also known as LWR, is …`) gives the term away.
        let names = Set([term] + abbreviations(of: term)).map { $0.lowercased() }
        for phrase in [", also known as ", ", also called ", ", commonly known as ", ", or "] {
            guard let r = text.range(of: phrase), let end = text[r.upperBound...].firstIndex(of: ",") else { continue }
            let named = text[r.upperBound..<end].lowercased()
            if names.contains(named) || names.contains(where: { named == "the " + $0 }) { text.removeSubrange(r.lowerBound...end) }
        }
        // A sentence that introduces a formula (`…, which is defined with parameter τ as:`) keeps
        // what it says before the formula's introduction.
        if let colon = text.firstIndex(of: ":"), text[text.index(after: colon)...].allSatisfy({ $0 == " " })
            || text[colon...].contains(where: { mathSymbols.contains($0) }) {
            text = String(text[..<colon])
            guard let cut = [", which is defined", ", and is defined", ", which is given", " is defined as follows", " as follows",
                             ", such that", " such that", ", which is "].compactMap({ text.range(of: $0)?.lowerBound }).min() else { return nil }
            text = String(text[..<cut])
            for joint in [" and", " or"] where text.hasSuffix(joint) { text = String(text.dropLast(joint.count)) }
            // What is left must say something: not a subject alone (`The sigmoid function g,`, `… h is`).
            let words = text.split(separator: " ")
            guard words.count >= 5, !text.hasSuffix(","), let last = words.last, !["is", "are", "be", "was", "were"].contains(last.lowercased())
            else { return nil }
            // Nor a long one whose formula is gone, nor one that only says where the term is used.
            guard words.count <= 30 else { return nil }
            for article in ["the ", "a ", "an "] {
                for copula in [" is ", " are "] where text.lowercased().hasPrefix(article + term.lowercased() + copula) {
                    let rest = text.dropFirst(article.count + term.count + copula.count).lowercased()
                    if !["a ", "an ", "the "].contains(where: { rest.hasPrefix($0) }) { return nil }
                }
            }
            // Nor the term and its symbol (`The cumulative distribution function F`).
            let bare = term.split(separator: "(").first.map { String($0).trimmingSpaces() } ?? term
            for article in ["the ", "a ", "an ", ""] where text.lowercased().hasPrefix(article + bare.lowercased() + " ") {
                if text.dropFirst(article.count + bare.count).split(separator: " ").count <= 2 { return nil }
            }
        }
        let lower = text.lowercased()
        guard !setups.contains(where: { lower.hasPrefix($0) }) else { return nil }
        for name in [term] + abbreviations(of: term) {
            for article in ["the ", "a ", "an ", ""] {
                for copula in [" is ", " are ", " refers to ", " means "] {
                    let opening = article + name.lowercased() + copula
                    if lower.hasPrefix(opening) { return String(text.dropFirst(opening.count)) }
                }
            }
        }
        return text
    }

    /// A term's short name in brackets (`Probably Approximately Correct (PAC)` → `PAC`).
    static func abbreviations(of term: String) -> [String] {
        guard term.hasSuffix(")"), let open = term.lastIndex(of: "(") else { return [] }
        let inside = term[term.index(after: open)..<term.index(before: term.endIndex)]
        return inside.isEmpty || inside.contains(" ") ? [] : [String(inside)]
    }

    /// Whether `text` is a definition item: a term of at most eight words, then a dash.
    static func isDefinitionItem(_ text: String) -> Bool {
        guard let r = text.range(of: " – ") ?? text.range(of: " — ") else { return false }
        return text[..<r.lowerBound].split(separator: " ").count <= 8
    }

    /// Whether `term` opens `text` as a definition item's term (`Union bound – Let A1 …`).
    static func isItemTerm(_ term: String, of text: String) -> Bool {
        [" – ", ": ", " - ", " — "].contains { text.hasPrefix(term + $0) }
    }

    /// Terms that name no subject alone (`Assumption – The Naive Bayes model supposes …`): a
    /// definition item's such term is named by its section (`Naive Bayes: assumption`).
    static let genericTerms: Set<String> = ["setting", "assumption", "assumptions", "goal", "idea", "intuition", "remark", "example",
                                            "definition", "notation", "notations", "algorithm", "procedure", "steps", "application",
                                            "applications", "property", "properties", "interpretation", "formula", "motivation",
                                            "overview", "principle", "result", "results", "solutions", "solution", "update rule"]

    /// Terms that are a figure's or a table's caption, not a subject (`Image :: a photograph of …`).
    static let captionTerms: Set<String> = ["image", "figure", "fig", "photo", "photograph", "picture", "table", "chart", "graph", "diagram", "illustration"]

    /// Whether a sentence reads as prose: one of its words at least is a common English word (a
    /// row of a table's cells, `Linear regression Logistic regression SVM`, has none).
    static func readsAsProse(_ text: String) -> Bool {
        EnglishWords.words(text).contains { EnglishWords.common.contains($0) }
    }

    /// `text` without a leading connective, its first letter made a capital.
    static func standingAlone(_ text: String) -> String {
        for c in connectives where text.hasPrefix(c) { return capitalizedFirst(String(text.dropFirst(c.count))) }
        return text
    }

    /// The sentence without its closing full stop (and a leading connective).
    static func body(_ text: String) -> String {
        var t = standingAlone(text)
        while let last = t.last, last == "." || last == " " { t.removeLast() }
        return t
    }

    /// A subject that can be a term: one to six words, not opened by a pronoun or a connective.
    /// Returns it without a leading article (`The`, `A`, `An`).
    static func term(_ subject: String) -> String? {
        var words = subject.split(separator: " ").map(String.init)
        if let first = words.first?.lowercased(), ["the", "a", "an"].contains(first) { words.removeFirst() }
        guard (1...6).contains(words.count), let first = words.first?.lowercased().filter(\.isLetter),
              !notTermStarts.contains(first), words.allSatisfy({ $0.contains(where: \.isLetter) || $0.allSatisfy(\.isNumber) }) else { return nil }
        if subject.contains(",") || subject.contains(";") || subject.contains(":") { return nil }
        // A lone letter (`R`, a formula's symbol) is no term.
        if words.joined().filter(\.isLetter).count < 2 { return nil }
        return words.joined(separator: " ")
    }

    static func capitalizedFirst(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }

    /// Whether the term is one the note marks or is about: emphasised, or its section's heading.
    static func isMarked(_ term: String, in sentence: SourceSentence) -> Bool {
        let t = term.lowercased()
        return sentence.emphasis.contains { $0.lowercased() == t || t.hasSuffix(" " + $0.lowercased()) || $0.lowercased().hasSuffix(t) }
            || sentence.headingPath.last.map { $0.lowercased() == t || $0.lowercased() == t + "s" || $0.lowercased() + "s" == t } == true
    }

    // MARK: - Definitions

    static func definitions(_ sentence: SourceSentence, _ context: Context) -> [CardProposal] {
        let text = body(sentence.text)
        guard !text.hasSuffix("?"), !text.hasSuffix("!") else { return [] }
        var found = Definitions(sentence: sentence)
        if sentence.isListItem, sentence.position == 0 { itemDefinition(text, into: &found) }
        copulaDefinition(text, into: &found)
        // `Term means / refers to / is defined as …`.
        for verb in [" means ", " refers to ", " is defined as ", " are defined as ", " is the term for "] {
            guard let r = text.range(of: verb), let t = term(String(text[..<r.lowerBound])) else { continue }
            let rest = String(text[r.upperBound...])
            if EnglishWords.words(rest).count >= 3 { found.add(t, rest, "definition.means", isMarked(t, in: sentence) ? 0.85 : 0.55) }
            break
        }
        calledDefinition(text, context, into: &found)
        // `…, Term, a …,`: an emphasised term followed by its description.
        for marked in sentence.emphasis {
            guard let r = text.range(of: marked + ", ") else { continue }
            let after = text[r.upperBound...]
            let first = after.split(separator: " ").first.map { $0.lowercased() } ?? ""
            guard ["a", "an", "the"].contains(first), let end = after.firstIndex(of: ",") else { continue }
            let description = String(after[..<end])
            let n = EnglishWords.words(description).count
            if (3...20).contains(n), let t = term(marked) { found.add(t, description, "definition.apposition", 0.8) }
        }
        whichDefinitions(text, into: &found)
        return found.out
    }

    /// The definition cards a sentence gives, as the rules find them.
    private struct Definitions {
        let sentence: SourceSentence
        var out: [CardProposal] = []

        /// Adds a card defining `front` (a caption's word, such as `Figure`, is no term).
        mutating func add(_ front: String, _ back: String, _ rule: String, _ score: Double) {
            guard !CardGenerator.captionTerms.contains(front.lowercased()) else { return }
            out.append(CardProposal(format: .definition, front: CardGenerator.capitalizedFirst(front), back: back, line: sentence.line,
                                    headingPath: sentence.headingPath, rule: rule, score: score))
        }
    }

    /// `Term: explanation` and `Term – explanation` list items (a generic term named by its
    /// section; a procedure's step no term).
    private static func itemDefinition(_ text: String, into found: inout Definitions) {
        let sentence = found.sentence
        for separator in [": ", " – ", " — ", " - "] {
            guard let r = text.range(of: separator), var t = term(String(text[..<r.lowerBound])) else { continue }
            if let explanation = explanation(String(text[r.upperBound...]), of: t), EnglishWords.words(explanation).count >= 3 {
                // A step of a procedure is no term.
                if t.lowercased().hasPrefix("step "), t.dropFirst(5).allSatisfy(\.isNumber) { return }
                if genericTerms.contains(t.lowercased()) {
                    // Named by its section, or no card.
                    guard let section = sentence.headingPath.last, !genericHeadings.contains(section.lowercased()),
                          section.split(separator: " ").count <= 5 else { return }
                    t = section + ": " + t.lowercased()
                }
                found.add(t, explanation, "definition.item", 0.8)
            }
            return
        }
    }

    /// `Term is a …`, with `Term, or Synonym, is a …` for a term known by two names: a term the
    /// note marks, or one opening its paragraph whose predicate narrows a class.
    private static func copulaDefinition(_ text: String, into found: inout Definitions) {
        let sentence = found.sentence
        for copula in [" is ", " are "] {
            guard let r = text.range(of: copula) else { continue }
            var subject = String(text[..<r.lowerBound])
            var synonym: String?
            if let or = subject.range(of: ", or "), subject.hasSuffix(",") {
                synonym = String(subject[or.upperBound...].dropLast())
                subject = String(subject[..<or.lowerBound])
            }
            let predicate = String(text[r.upperBound...])
            let article = predicate.split(separator: " ").first.map { $0.lowercased() } ?? ""
            guard ["a", "an", "the", "any"].contains(article) || predicate.lowercased().hasPrefix("one of "),
                  EnglishWords.words(predicate).count >= 4, let t = term(subject) else { return }
            let marked = isMarked(t, in: sentence)
            let front = synonym.flatMap { term($0) }.map { t + " (" + $0 + ")" } ?? t
            // Unmarked, `X is a …` is as often a classification or an example as a definition
            // (3 of 16 judged good on the OpenStax set): only a term the note marks is defined —
            // or one whose predicate narrows a class by a relative clause, as a definition does
            // (`The mitochondrion is the organelle that produces …`).
            // Unmarked, it must open its paragraph, as a definition does (mid-paragraph, `X is the
            // Y that …` is as often a detail of an example).
            guard marked || (sentence.position == 0 && restricts(predicate)) else { return }
            let joined = [";", " while ", " whereas ", ", and that ", ", but ", ", and it ", ", and they "].contains { predicate.contains($0) }
            if !joined { found.add(front, predicate, "definition.copula", 0.9) }
            return
        }
    }

    /// `The process by which … is called Term`.
    private static func calledDefinition(_ text: String, _ context: Context, into found: inout Definitions) {
        for verb in [" is called ", " are called ", " is known as ", " are known as ", " is termed ", " are termed ",
                     " is referred to as ", " are referred to as "] {
            guard let r = text.range(of: verb) else { continue }
            let description = String(text[..<r.lowerBound])
            var named = String(text[r.upperBound...])
            if let cut = named.firstIndex(where: { ",;(".contains($0) }) { named = String(named[..<cut]) }
            named = named.trimmingSpaces()
            for article in ["an ", "a ", "the "] where named.lowercased().hasPrefix(article) { named = String(named.dropFirst(article.count)) }
            let words = named.split(separator: " ")
            // A definition item's own sentence (`Event – Any subset E … is known as an event`) is the item's card.
            guard (1...5).contains(words.count), EnglishWords.words(description).count >= 3, !isDefinitionItem(description),
                  let first = EnglishWords.words(description).first, !notTermStarts.contains(first) || first == "the" else { return }
            found.add(named, context.lowerFirst(description), "definition.called", 0.85)
            return
        }
    }

    /// `…**Term**, which is the …` and `…**Term**, which means that …`: an emphasised term
    /// defined by the clause that follows it, to its end or the next semicolon.
    private static func whichDefinitions(_ text: String, into found: inout Definitions) {
        for marked in found.sentence.emphasis {
            guard let r = text.range(of: marked + ", which ") else { continue }
            var rest = String(text[r.upperBound...])
            var opened = false
            for verb in ["is ", "are ", "means that ", "means ", "refers to ", "is defined as "] where rest.hasPrefix(verb) {
                rest = String(rest.dropFirst(verb.count))
                opened = verb.hasPrefix("means") || verb.hasPrefix("refers") || verb.hasPrefix("is defined")
                    || ["a", "an", "the"].contains(rest.split(separator: " ").first.map { $0.lowercased() } ?? "")
                break
            }
            // A clause of its own (`which means they believed …`) defines nothing.
            guard opened, let t = term(marked), !dangling.contains(EnglishWords.words(rest).first ?? "") else { continue }
            if let cut = rest.range(of: "; ") { rest = String(rest[..<cut.lowerBound]) }
            // A second predicate (`the oldest system and can be found …`) is not the definition.
            let words = rest.split(separator: " ")
            if let k = words.indices.dropLast().first(where: { words[$0] == "and" && auxiliaries.contains(words[$0 + 1].lowercased()) }) {
                rest = words[..<k].joined(separator: " ")
                if rest.hasSuffix(",") { rest.removeLast() }
            }
            if (6...30).contains(EnglishWords.words(rest).count) { found.add(t, rest, "definition.which", 0.8) }
        }
    }

    /// Whether a predicate names a class and narrows it by a relative clause: an article, one
    /// to four words, then `that`, `which`, `who`, `whose` or `where` (`the organelle that …`,
    /// `a protein which …`).
    static func restricts(_ predicate: String) -> Bool {
        let words = predicate.split(separator: " ").map { $0.lowercased() }
        guard let article = words.first, ["a", "an", "the"].contains(article) else { return false }
        for k in 2..<min(words.count, 6) where ["that", "which", "who", "whose", "where"].contains(words[k]) {
            // The class's words are words, not a list (`a, b and c that`).
            return !words[1..<k].contains { $0.hasSuffix(",") } && EnglishWords.words(words[(k + 1)...].joined(separator: " ")).count >= 2
        }
        return false
    }

    /// A sentence opened by `Its` or `Their` made to stand alone: the possessive read as the term
    /// the sentence before it in the paragraph defines (`Its inner membrane` after `The
    /// mitochondrion is the organelle that …` → `The mitochondrion's inner membrane`); nil when
    /// there is none.
    static func resolvingPossessive(_ sentence: SourceSentence, _ context: Context) -> String? {
        let text = sentence.text
        guard sentence.position > 0, text.hasPrefix("Its ") || text.hasPrefix("Their "),
              let before = context.sentences.first(where: { $0.block == sentence.block && $0.position == sentence.position - 1 }) else { return nil }
        let previous = body(before.text)
        guard let r = previous.range(of: " is ") ?? previous.range(of: " are "), let subject = term(String(previous[..<r.lowerBound])),
              previous[..<r.lowerBound].split(separator: " ").count <= 4 else { return nil }
        let named = (previous.hasPrefix("The ") ? "The " : "") + subject
        let rest = text.hasPrefix("Its ") ? text.dropFirst(4) : text.dropFirst(6)
        return named + (named.hasSuffix("s") && text.hasPrefix("Their ") ? "' " : "'s ") + rest
    }

    // MARK: - Questions

    static let auxiliaries: Set<String> = ["is", "are", "was", "were", "can", "could", "will", "would", "should", "may", "might",
                                           "must", "has", "have", "had", "do", "does", "did"]

    /// `clause` (a statement) asked as a why-question: the auxiliary put first (`leaves are green`
    /// → `Why are leaves green?`), a present verb in `-s` given `does`, else `Why is it that …?`.
    static func why(_ clause: String, _ context: Context) -> String {
        let words = clause.split(separator: " ").map(String.init)
        for k in 1..<min(words.count, 7) {
            let w = words[k].lowercased()
            if words[..<k].contains(where: { $0.hasSuffix(",") }) { break }
            if auxiliaries.contains(w) {
                let subject = context.lowerFirst(words[..<k].joined(separator: " "))
                return "Why " + w + " " + ([subject] + words[(k + 1)...]).joined(separator: " ") + "?"
            }
            // After a quantifier (`several countries`) a word in -s is the subject's noun, not its verb.
            if k <= 5, w.hasSuffix("s"), !w.hasSuffix("ss"), !w.hasSuffix("us"), !w.hasSuffix("is"), w.count > 3,
               !["several", "many", "few", "some", "all", "both", "most", "these", "those", "two", "three", "four", "other", "various"]
                .contains(words[k - 1].lowercased()),
               w.allSatisfy(\.isLetter), !(words[k - 1].lowercased().hasSuffix("s") && !words[k - 1].lowercased().hasSuffix("ss")),
               !EnglishWords.common.contains(w), k >= 1 {
                // The heart pumps blood → Why does the heart pump blood?
                let base: String
                if w.hasSuffix("ies") { base = String(w.dropLast(3)) + "y" }
                else if ["ches", "shes", "sses", "xes", "zes", "oes"].contains(where: w.hasSuffix) { base = String(w.dropLast(2)) }
                else { base = String(w.dropLast()) }
                let subject = context.lowerFirst(words[..<k].joined(separator: " "))
                return "Why does " + ([subject, base] + words[(k + 1)...]).joined(separator: " ") + "?"
            }
        }
        // A plural subject and its verb: Enzymes (in hot water) work best → Why do enzymes … work best?
        if let head = words.first?.lowercased(), head.hasSuffix("s"), !head.hasSuffix("ss"), !head.hasSuffix("us"), !words[0].contains(",") {
            for k in 1..<min(words.count, 7) {
                let w = words[k]
                if w.contains(",") || w.first?.isUppercase == true { break }
                let lower = w.lowercased()
                if EnglishWords.common.contains(lower) || lower.hasSuffix("s") || lower.hasSuffix("ly") || lower.hasSuffix("ing")
                    || lower.hasSuffix("ed") || !lower.allSatisfy(\.isLetter) { continue }
                // The words between the subject's first word and the verb are the subject's (`in hot water`).
                if k > 1, !words[1..<k].allSatisfy({ EnglishWords.common.contains($0.lowercased()) || $0.lowercased().hasSuffix("s") || k <= 4 }) { break }
                let subject = context.lowerFirst(words[..<k].joined(separator: " "))
                return "Why do " + ([subject] + words[k...]).joined(separator: " ") + "?"
            }
        }
        return "Why is it that " + context.lowerFirst(clause) + "?"
    }

    /// Whether a clause's subject is `there` or a bare quantity (`several countries`, `some
    /// people`, `many`): a question about it would not say what it is about.
    static func vagueSubject(_ clause: String) -> Bool {
        let first = EnglishWords.words(clause).first ?? ""
        return ["there", "several", "some", "many", "few", "most", "others", "other", "certain", "various", "one"].contains(first)
    }

    static let categories: Set<String> = ["types", "kinds", "forms", "classes", "categories", "stages", "phases", "steps", "parts",
                                          "components", "functions", "layers", "levels", "branches", "elements", "features",
                                          "properties", "roles", "principles", "groups", "sources", "causes", "effects", "factors",
                                          "characteristics", "methods", "ways", "periods", "areas", "regions", "tissues", "organs"]
    static let numbers = ["two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10]

    static func questions(_ sentence: SourceSentence, _ context: Context) -> [CardProposal] {
        let text = body(sentence.text)
        var out: [CardProposal] = []
        func add(_ front: String, _ back: String, _ rule: String, _ score: Double) {
            out.append(CardProposal(format: .qa, front: front, back: capitalizedFirst(back), line: sentence.line,
                                    headingPath: sentence.headingPath, rule: rule, score: score))
        }
        guard !text.hasSuffix("?") else { return [] }
        // Why: `X because Y`, `Because Y, X` — not when X's subject names nothing the question
        // could carry (`there is little progress`, `several countries were not ranked`).
        if let r = text.range(of: " because "), !dangling.contains(EnglishWords.words(text).first ?? ""),
           !vagueSubject(String(text[..<r.lowerBound])),
           !text.lowercased().contains("let’s"), !text.lowercased().contains("let's") {
            var clause = String(text[..<r.lowerBound])
            if clause.hasSuffix(",") { clause.removeLast() }
            var reason = String(text[r.upperBound...])
            for stop in ["; ", ", but ", ", while ", ", whereas ", ", and so "] { if let cut = reason.range(of: stop) { reason = String(reason[..<cut.lowerBound]) } }
            if EnglishWords.words(clause).count >= 3, EnglishWords.words(reason).count >= 3, !clause.contains(", ") || clause.count < 60 {
                add(why(clause, context), "because " + reason, "qa.because", 0.6)
            }
        } else if text.hasPrefix("Because "), let comma = text.firstIndex(of: ",") {
            let reason = String(text[text.index(text.startIndex, offsetBy: 8)..<comma])
            let clause = String(text[text.index(after: comma)...]).trimmingSpaces()
            if EnglishWords.words(clause).count >= 3, EnglishWords.words(reason).count >= 3, !vagueSubject(clause) {
                add(why(clause, context), "because " + reason, "qa.because", 0.6)
            }
        }
        // An enumeration the list after the sentence gives.
        if !sentence.followingItems.isEmpty, sentence.followingItems.count <= 10,
           sentence.followingItems.allSatisfy({ EnglishWords.words($0).count <= 14 }) {
            var question = text
            if question.hasSuffix(":") { question.removeLast() }
            if let r = question.range(of: "the following ") {
                question.replaceSubrange(r, with: "which ")
                add(question + "?", sentence.followingItems.joined(separator: "; "), "qa.list", 0.7)
            } else if let last = question.split(separator: " ").last, ["include", "includes", "are", "were", "were:", "involve", "involves"].contains(last.lowercased()) {
                add(question + " what?", sentence.followingItems.joined(separator: "; "), "qa.list", 0.6)
            }
        }
        // `There are three types of X: a, b and c` and `The three types of X are a, b and c`.
        let words = text.split(separator: " ").map(String.init)
        for k in words.indices.dropLast(2) {
            guard let n = numbers[words[k].lowercased()] ?? Int(words[k]), n >= 2, n <= 10 else { continue }
            var c = k + 1
            if c < words.count, !categories.contains(words[c].lowercased().filter(\.isLetter)) { c += 1 }   // `main types`
            guard c + 1 < words.count, categories.contains(words[c].lowercased().filter(\.isLetter)), words[c + 1].lowercased() == "of" else { continue }
            let tail = words[(c + 2)...].joined(separator: " ")
            var object = tail, list = ""
            if let colon = tail.range(of: ": ") {
                object = String(tail[..<colon.lowerBound])
                list = String(tail[colon.upperBound...])
            } else if let are = tail.range(of: " are ") ?? tail.range(of: " include ") {
                object = String(tail[..<are.lowerBound])
                list = String(tail[are.upperBound...])
            }
            guard !list.isEmpty, list.contains(","), (1...8).contains(object.split(separator: " ").count),
                  !object.contains(",") else { break }
            let category = words[(k + 1)...c].joined(separator: " ").lowercased()
            add("What are the \(words[k].lowercased()) \(category) of \(object)?", list, "qa.enumeration", 0.75)
            break
        }
        // A section's first sentence about the heading's subject: `What is Heading?`.
        if sentence.position == 0, let heading = sentence.headingPath.last, sentence.headingPath.count >= 2,
           !genericHeadings.contains(heading.lowercased()), (1...5).contains(heading.split(separator: " ").count),
           !heading.contains("?"), !heading.contains(":"), text.lowercased().contains(heading.lowercased()),
           EnglishWords.words(text).count <= 35, !(isFirstBlockWithOtherSentence(sentence, context)) {
            let plural = heading.lowercased().hasSuffix("s") && !heading.lowercased().hasSuffix("ss") && !heading.lowercased().hasSuffix("sis")
            let subject = heading == heading.uppercased() ? heading.capitalized : heading
            add("What " + (plural ? "are " : "is ") + context.lowerFirst(subject) + "?", sentence.text, "qa.heading", 0.5)
        }
        return out
    }

    /// Whether an earlier sentence of the same section came first (only a section's opening
    /// sentence is asked by its heading).
    static func isFirstBlockWithOtherSentence(_ sentence: SourceSentence, _ context: Context) -> Bool {
        (context.firstBlock[sentence.headingPath] ?? sentence.block) < sentence.block
    }

    // MARK: - Cloze deletions

    /// `sentence` with the first `term` (whole words) marked as deletion 1, or nil.
    static func cloze(_ sentence: String, deleting term: String) -> String? {
        var search = sentence.startIndex
        while let r = sentence[search...].range(ofLiteral: term) {
            let before = r.lowerBound == sentence.startIndex ? " " : sentence[sentence.index(before: r.lowerBound)]
            let after = r.upperBound == sentence.endIndex ? " " : sentence[r.upperBound]
            if !before.isLetter, !before.isNumber, !after.isLetter, !after.isNumber {
                return String(sentence[..<r.lowerBound]) + "{{c1::" + term + "}}" + String(sentence[r.upperBound...])
            }
            search = r.upperBound
        }
        return nil
    }

    /// A sentence that can carry a cloze: 6 to 40 words, standing alone — no pronoun or `this`,
    /// `such`, a chapter or a passage it leans on, not an aside in brackets.
    static func clozeable(_ sentence: SourceSentence) -> Bool {
        let n = EnglishWords.words(sentence.text).count
        let words = Set(EnglishWords.words(sentence.text))
        return (6...40).contains(n) && !leansOnContext(sentence.text) && !sentence.text.hasSuffix("?") && !sentence.text.hasSuffix(":")
            && readsAsProse(sentence.text)
            && !sentence.text.hasPrefix("(") && !sentence.text.contains("Chapter ")
            && words.isDisjoint(with: ["he", "she", "they", "him", "them", "this", "such"])
    }

    /// Whether the rest of the sentence gives a deletion away: one of its words (its first five
    /// letters) comes back elsewhere in the sentence (`antihistamines … {{histamine}}`).
    static func givenAway(_ deletion: String, in sentence: String) -> Bool {
        let hidden = EnglishWords.words(deletion)
        guard let r = sentence.range(of: deletion) else { return false }
        let rest = EnglishWords.words(String(sentence[..<r.lowerBound]) + " " + String(sentence[r.upperBound...]))
        return hidden.contains { word in
            word.count >= 4 && rest.contains { $0.count >= 4 && ($0.hasPrefix(String(word.prefix(5))) || $0.contains(String(word.prefix(5)))) }
        }
    }

    static func clozes(_ given: SourceSentence, _ context: Context) -> [CardProposal] {
        var sentence = given
        sentence.text = resolvingPossessive(given, context) ?? standingAlone(given.text)
        guard clozeable(sentence) else { return [] }
        var out: [CardProposal] = []
        for given in sentence.emphasis where (1...5).contains(given.split(separator: " ").count) && given.contains(where: \.isLetter) {
            // A definition item's term (`**Union bound** – Let A1 …`): its definition card asks it.
            if isItemTerm(given, of: sentence.text) || isDefinitionItem(sentence.text) { continue }
            // The term as the sentence writes it (capitalised when a connective before it was left off).
            let marked = sentence.text.contains(given) ? given : capitalizedFirst(given)
            guard let text = cloze(sentence.text, deleting: marked), !givenAway(marked, in: sentence.text) else { continue }
            let defining = text.hasPrefix("{{c1::") || text.hasPrefix("The {{c1::") || text.hasPrefix("A {{c1::") || text.hasPrefix("An {{c1::")
            out.append(CardProposal(format: .cloze, front: text, back: marked, line: sentence.line, headingPath: sentence.headingPath,
                                    rule: "cloze.emphasis", score: defining ? 0.75 : 0.65))
        }
        return out
    }

    /// The note's key terms (words and two-word phrases frequent in it and rare in the vault),
    /// each deleted from the first sentence that can carry it.
    static func keyTermClozes(_ context: Context) -> [CardProposal] {
        var counts: [String: Int] = [:]
        var display: [String: String] = [:]
        for sentence in context.sentences {
            let words = EnglishWords.words(sentence.text)
            for (k, w) in words.enumerated() where w.count >= 3 && !EnglishWords.common.contains(w) && w.contains(where: \.isLetter) {
                counts[w, default: 0] += 1
                if k + 1 < words.count, words[k + 1].count >= 3, !EnglishWords.common.contains(words[k + 1]), words[k + 1].contains(where: \.isLetter) {
                    counts[w + " " + words[k + 1], default: 0] += 1
                }
            }
            for marked in sentence.emphasis { display[marked.lowercased()] = marked }
        }
        // A word mostly met inside one of the phrases counted is that phrase's part, not a term.
        let phrases = counts.filter { $0.key.contains(" ") && $0.value >= 2 }
        let parts = Set(counts.filter { word, n in
            !word.contains(" ") && phrases.contains { phrase, m in phrase.split(separator: " ").contains(Substring(word)) && Double(m) >= 0.5 * Double(n) }
        }.keys)
        // Phrases of two words only: a single word deleted from its sentence (sleep, life, Europe)
        // too seldom tests what the note teaches.
        // A phrase the note marks (emphasised, or in a heading), or uses three times: two words
        // side by side twice are as often a subject and its verb as a term.
        var marked: Set<String> = []
        for sentence in context.sentences {
            for text in sentence.emphasis + sentence.headingPath { marked.insert(EnglishWords.words(text).joined(separator: " ")) }
        }
        let headings = Set(context.sentences.flatMap { $0.headingPath.map { EnglishWords.words($0).joined(separator: " ") } })
        let scored = counts.filter { term, n in
            n >= 2 && !parts.contains(term) && term.contains(" ") && headings.contains { $0.contains(term) }
        }
            .map { term, n -> (String, Double) in
            let parts = term.split(separator: " ").map(String.init)
            let idf = parts.map { context.statistics.idf($0) }.reduce(0, +) / Double(parts.count)
            return (term, Double(n) * idf * (parts.count == 2 ? 1.5 : 1))
        }.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
        guard let best = scored.first?.1, best > 0 else { return [] }
        var out: [CardProposal] = []
        for (term, score) in scored.prefix(6) {
            // Its first sentence that can carry it, written as the note writes it.
            for given in context.sentences {
                var sentence = given
                sentence.text = standingAlone(given.text)
                guard clozeable(sentence) else { continue }
                // The term as the sentence's subject (within its first three words): a sentence about it.
                guard let r = sentence.text.range(of: term, options: .caseInsensitive),
                      sentence.text[..<r.lowerBound].split(separator: " ").count <= 2 else { continue }
                let written = String(sentence.text[r])
                // A definition item: its definition card asks its term.
                guard !isDefinitionItem(sentence.text), let text = cloze(sentence.text, deleting: written) else { continue }
                out.append(CardProposal(format: .cloze, front: text, back: written, line: sentence.line, headingPath: sentence.headingPath,
                                        rule: "cloze.keyterm", score: 0.4 + 0.2 * score / best))
                break
            }
        }
        return out
    }
}
