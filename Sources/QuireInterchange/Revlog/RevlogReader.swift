import QuireModel
import QuireScheduling

/// A review log in the FSRS optimizer's CSV form read back (`quire optimize --revlog FILE`): the
/// columns `card_id`, `review_time` (milliseconds since 1970, or ISO 8601) and `review_rating`
/// (1–4), in any order, others ignored (`review_state`, `review_duration`). A row that cannot be
/// read is a located error and is left out; the rest is read.
public enum RevlogReader {
    /// The rows, and the problems at their lines.
    public static func read(_ bytes: [UInt8], path: String) -> (rows: [FSRSHistory.Row], diagnostics: [Diagnostic]) {
        let (table, found) = CSVReader.read(bytes, path: path)
        var diagnostics = found
        guard let table else { return ([], diagnostics) }
        let names = (table.columns ?? []).map { $0.lowercased() }
        guard let card = names.firstIndex(of: "card_id"), let time = names.firstIndex(of: "review_time"),
              let rating = names.firstIndex(of: "review_rating") else {
            diagnostics.append(Diagnostic(.error, path: path, line: max(1, table.columnsLine), column: 1,
                                          message: "a review log needs the columns card_id, review_time and review_rating"))
            return ([], diagnostics)
        }
        var rows: [FSRSHistory.Row] = []
        for row in table.rows {
            func field(_ k: Int) -> String { k < row.fields.count ? row.fields[k].trimmingSpaces() : "" }
            guard let id = Int(field(card)) else {
                diagnostics.append(Diagnostic(.error, path: path, line: row.line, column: 1, message: "card_id '\(field(card).prefix(40))' is not a whole number"))
                continue
            }
            let timeText = field(time)
            guard let when = Int64(timeText).map({ Timestamp(milliseconds: $0) }) ?? Timestamp(iso8601: timeText) else {
                diagnostics.append(Diagnostic(.error, path: path, line: row.line, column: 1,
                                              message: "review_time '\(timeText.prefix(40))' is neither milliseconds since 1970 nor ISO 8601"))
                continue
            }
            guard let r = Int(field(rating)), (1...4).contains(r) else {
                diagnostics.append(Diagnostic(.error, path: path, line: row.line, column: 1, message: "review_rating '\(field(rating).prefix(10))' is not 1 to 4"))
                continue
            }
            rows.append(FSRSHistory.Row(card: id, time: when, rating: r))
        }
        return (rows, diagnostics)
    }
}
