@testable import QuireIndex
import Testing
import QuireModel
@testable import QuireSupport

/// The query language of docs/QUERIES.md.
@Suite struct QueryTests {
    private func q(_ text: String) throws -> Query { try Query(parsing: text) }
    private func word(_ w: String) -> Query { .term(.text(w)) }
    private func tag(_ t: String) -> Query { .term(.tag(Tag(t)!)) }

    private func error(_ text: String) -> String? {
        do {
            _ = try Query(parsing: text)
            return nil
        } catch {
            return error.description
        }
    }

    /// Nesting is bounded (the long fuzz trial overflowed the stack with a thousand '('): 64
    /// levels of '(' and '-' read, one more is an error at its column, a million is one too.
    @Test func nestingIsBounded() throws {
        let deep = String(repeating: "(", count: 64) + "tag:x" + String(repeating: ")", count: 64)
        #expect(try Query(parsing: deep) == Query(parsing: "tag:x"))
        #expect(throws: Never.self) { try Query(parsing: String(repeating: "-", count: 64) + "tag:x") }
        do {
            _ = try Query(parsing: String(repeating: "(", count: 65) + "tag:x" + String(repeating: ")", count: 65))
            Issue.record("65 levels read")
        } catch {
            #expect(error.column == 65 && error.message == "more than 64 levels of '(' and '-'")
        }
        #expect(throws: QueryError.self) { try Query(parsing: String(repeating: "(-", count: 500_000) + "x") }
    }

    @Test func emptyIsAll() throws {
        #expect(try q("") == .all)
        #expect(try q("   ") == .all)
        #expect(try q("").isAll)
        #expect(try Query(arguments: []) == .all)
    }

    @Test func andBindsTighterThanOr() throws {
        #expect(try q("a b or c") == .or([.and([word("a"), word("b")]), word("c")]))
        #expect(try q("a or b c") == .or([word("a"), .and([word("b"), word("c")])]))
        #expect(try q("a OR b Or c") == .or([word("a"), word("b"), word("c")]))
    }

    @Test func negationAndParentheses() throws {
        #expect(try q("-tag:done") == .not(tag("done")))
        #expect(try q("-(type:cloze or is:new)") == .not(.or([.term(.kind(.cloze)), .term(.status(.new))])))
        #expect(try q("deck:Biology (tag:exam or is:due)")
            == .and([.term(.deck(DeckPath("Biology")!)), .or([tag("exam"), .term(.status(.due))])]))
        #expect(try q("--x") == .not(.not(word("x"))))
        #expect(try q("a-b") == word("a-b"))
        #expect(try q("a - b") == .and([word("a"), word("-"), word("b")]))
        #expect(try q("((a))") == word("a"))
    }

    @Test func quotes() throws {
        #expect(try q("\"a phrase\"") == word("a phrase"))
        #expect(try q("deck:\"Ancient Rome\"") == .term(.deck(DeckPath("Ancient Rome")!)))
        #expect(try q("\"or\"") == word("or"))
        #expect(try q("\"foo:bar\"") == word("foo:bar"))
        #expect(try q("\"say \\\"hi\\\"\"") == word("say \"hi\""))
        // Arguments are joined with spaces and read as one query; quotes the shell removed are not
        // put back (docs/QUERIES.md).
        #expect(try Query(arguments: ["tag:exam", "two words"]) == .and([tag("exam"), word("two"), word("words")]))
        #expect(try Query(arguments: ["deck:Ancient Rome"]) == .and([.term(.deck(DeckPath("Ancient")!)), word("Rome")]))
        #expect(try Query(arguments: ["deck:\"Ancient Rome\"", "x"]) == .and([.term(.deck(DeckPath("Ancient Rome")!)), word("x")]))
        #expect(try Query(arguments: ["\"a phrase\""]) == word("a phrase"))
        // A whole query in one argument, as in docs/QUERIES.md, is still a query.
        #expect(try Query(arguments: ["tag:exam -tag:done (type:cloze or type:reversed)"])
            == .and([tag("exam"), .not(tag("done")), .or([.term(.kind(.cloze)), .term(.kind(.reversed))])]))
        #expect(throws: QueryError(column: 13, message: "unknown status 'soon' (is: due, new, learning, review, suspended, buried, archived, leech)")) {
            try Query(arguments: ["deck:Bio is:soon"])
        }
    }

    @Test func everyField() throws {
        #expect(try q("deck:Biology/Cells") == .term(.deck(DeckPath("Biology/Cells")!)))
        #expect(try q("tag:#exam/week-3") == tag("exam/week-3"))
        for status in CardStatus.allCases {
            #expect(try q("is:\(status.rawValue.uppercased())") == .term(.status(status)))
        }
        for kind in CardKind.allCases {
            #expect(try q("type:\(kind.rawValue)") == .term(.kind(kind)))
            #expect(try q("kind:\(kind.rawValue)") == .term(.kind(kind)))
        }
        #expect(try q("path:Biology/**/mito*") == .term(.path(Glob("Biology/**/mito*"))))
        #expect(try q("cycle:Weekly") == .term(.cycle(.weekly)))
        #expect(try q("category:Concept") == .term(.category("concept")))
        #expect(try q("id:7k2m9xq4v1ab") == .term(.id(CardID("7k2m9xq4v1ab")!)))
        #expect(try q("DECK:x") == .term(.deck(DeckPath("x")!)))
        #expect(try q(":leading") == word(":leading"))
    }

    @Test func errorsWithExactColumns() {
        #expect(error("deck:Bio is:soon")
            == "query:1:13: error: unknown status 'soon' (is: due, new, learning, review, suspended, buried, archived, leech)")
        #expect(error("a foo:bar")
            == "query:1:3: error: unknown field 'foo' (fields: deck, tag, is, type, kind, path, cycle, category, id)")
        #expect(error("x tag:") == "query:1:7: error: 'tag:' needs a value")
        #expect(error("a \"unclosed") == "query:1:3: error: unclosed quote")
        #expect(error("deck:\"open") == "query:1:6: error: unclosed quote")
        #expect(error("a )") == "query:1:3: error: unexpected ')'")
        #expect(error("  (a b") == "query:1:3: error: '(' is never closed")
        #expect(error("or a") == "query:1:1: error: expected a search term")
        #expect(error("a () b") == "query:1:4: error: expected a search term")
        #expect(error("type:card")
            == "query:1:6: error: unknown card type 'card' (type: basic, definition, reversed, cloze)")
        #expect(error("cycle:hourly") == "query:1:7: error: unknown cycle 'hourly' (cycle: daily, weekly, monthly, yearly)")
        #expect(error("id:bad.id") == "query:1:4: error: 'bad.id' is not a card ID")
        #expect(error("tag:\"a b\"") == "query:1:5: error: 'a b' is not a tag")
        #expect(error("deck:/") == "query:1:6: error: empty deck")
        #expect(error("a -)") == "query:1:4: error: unexpected ')'")
        // Columns count characters, not bytes.
        #expect(error("é is:x") == "query:1:6: error: unknown status 'x' (is: due, new, learning, review, suspended, buried, archived, leech)")
    }

    @Test func missingTermAfterOrPointsPastTheText() {
        #expect(error("a or") == "query:1:5: error: expected a search term")
        #expect(error("tag:exam or  ") == "query:1:12: error: expected a search term")
    }
}
