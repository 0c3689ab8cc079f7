import QuireSupport

/// Inline SVG charts for the HTML report: bars, a heatmap and a calibration plot. Colours come
/// from the page's CSS classes (`bar`, `today`, `axis`, `l0`…`l4`), so one chart serves both the
/// light and the dark scheme; every label is escaped.
enum SVGChart {
    /// A bar to draw: its label under the axis, its value, and whether it is highlighted.
    struct Bar {
        var label: String
        var value: Int
        var highlighted = false
    }

    /// A vertical bar chart, `width` × `height` user units, labels every `labelEvery` bars.
    static func bars(_ bars: [Bar], width: Int = 720, height: Int = 180, labelEvery: Int = 1, title: String) -> String {
        let top = 16, bottom = 28, left = 36
        let plot = height - top - bottom
        let most = max(1, bars.map(\.value).max() ?? 1)
        let step = Double(width - left) / Double(max(1, bars.count))
        var out = svgOpen(width: width, height: height, title: title)
        out += "<line class=\"axis\" x1=\"\(left)\" y1=\"\(top + plot)\" x2=\"\(width)\" y2=\"\(top + plot)\"/>"
        out += "<text class=\"tick\" x=\"\(left - 4)\" y=\"\(top + 4)\" text-anchor=\"end\">\(most)</text>"
        out += "<text class=\"tick\" x=\"\(left - 4)\" y=\"\(top + plot)\" text-anchor=\"end\">0</text>"
        for (i, bar) in bars.enumerated() {
            let h = Double(plot) * Double(bar.value) / Double(most)
            let x = Double(left) + Double(i) * step
            out += "<rect class=\"\(bar.highlighted ? "bar today" : "bar")\" x=\"\(f(x + step * 0.1))\" y=\"\(f(Double(top + plot) - h))\" "
                + "width=\"\(f(step * 0.8))\" height=\"\(f(h))\"><title>\(escape(bar.label)): \(bar.value)</title></rect>"
            if i % max(1, labelEvery) == 0 {
                out += "<text class=\"tick\" x=\"\(f(x + step / 2))\" y=\"\(height - bottom + 14)\" text-anchor=\"middle\">\(escape(bar.label))</text>"
            }
        }
        return out + "</svg>"
    }

    /// Horizontal bars with their labels and values, one row each.
    static func rows(_ bars: [Bar], width: Int = 720, title: String) -> String {
        let row = 22, labelWidth = 150
        let height = max(row, bars.count * row)
        let most = max(1, bars.map(\.value).max() ?? 1)
        var out = svgOpen(width: width, height: height, title: title)
        for (i, bar) in bars.enumerated() {
            let y = i * row
            let w = Double(width - labelWidth - 60) * Double(bar.value) / Double(most)
            out += "<text class=\"label\" x=\"0\" y=\"\(y + 15)\">\(escape(bar.label))</text>"
            out += "<rect class=\"bar\" x=\"\(labelWidth)\" y=\"\(y + 4)\" width=\"\(f(w))\" height=\"\(row - 8)\"><title>\(escape(bar.label)): \(bar.value)</title></rect>"
            out += "<text class=\"tick\" x=\"\(f(Double(labelWidth) + w + 6))\" y=\"\(y + 15)\">\(bar.value)</text>"
        }
        return out + "</svg>"
    }

    /// A contribution-graph heatmap: one column a week (Monday on top), shaded by reviews.
    ///
    /// - Parameters:
    ///   - days: each day's label (its date), reviews, and weekday (0 Monday … 6 Sunday), oldest first.
    static func heatmap(_ days: [(label: String, reviews: Int, weekday: Int)], title: String) -> String {
        let cell = 13, left = 30, top = 16
        let most = max(1, days.map(\.reviews).max() ?? 1)
        let weeks = (days.count + (days.first?.weekday ?? 0) + 6) / 7
        let width = left + weeks * cell + 4, height = top + 7 * cell + 4
        var out = svgOpen(width: width, height: height, title: title)
        for (r, name) in [(0, "Mon"), (2, "Wed"), (4, "Fri"), (6, "Sun")] {
            out += "<text class=\"tick\" x=\"0\" y=\"\(top + r * cell + 10)\">\(name)</text>"
        }
        // Each month's name above the week its first day falls in (labels are YYYY-MM-DD).
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        var lastLabelled = -3
        for (i, day) in days.enumerated() where day.label.count == 10 && day.label.hasSuffix("-01") {
            let column = (i + (days.first?.weekday ?? 0)) / 7
            guard column - lastLabelled >= 3, column < weeks - 1,
                  let month = Int(day.label.dropFirst(5).prefix(2)), (1...12).contains(month) else { continue }
            out += "<text class=\"tick\" x=\"\(left + column * cell)\" y=\"10\">\(months[month - 1])</text>"
            lastLabelled = column
        }
        var slot = days.first?.weekday ?? 0
        for day in days {
            let level = day.reviews == 0 ? 0 : 1 + min(3, (day.reviews - 1) * 4 / most)
            out += "<rect class=\"day l\(level)\" x=\"\(left + slot / 7 * cell)\" y=\"\(top + slot % 7 * cell)\" width=\"\(cell - 2)\" "
                + "height=\"\(cell - 2)\" rx=\"2\"><title>\(escape(day.label)): \(day.reviews) reviews</title></rect>"
            slot += 1
        }
        return out + "</svg>"
    }

    /// Predicted recall against the actual pass rate, bin by bin, with the diagonal of a perfect
    /// calibration; a point's size grows with its reviews.
    static func calibration(_ points: [(predicted: Double, actual: Double, reviews: Int)], title: String) -> String {
        // The axis titles sit outside the tick labels: "actual" left of the percentages (it
        // overlapped the 50 % tick), "predicted" under them.
        let size = 272, left = 52, right = 14, top = 20
        let plot = Double(size - left - right)
        let bottom = top + Int(plot)
        let most = max(1, points.map(\.reviews).max() ?? 1)
        func x(_ v: Double) -> String { f(Double(left) + v * plot) }
        func y(_ v: Double) -> String { f(Double(bottom) - v * plot) }
        var out = svgOpen(width: size, height: bottom + 36, title: title)
        out += "<rect class=\"frame\" x=\"\(left)\" y=\"\(top)\" width=\"\(f(plot))\" height=\"\(f(plot))\"/>"
        out += "<line class=\"axis dashed\" x1=\"\(x(0))\" y1=\"\(y(0))\" x2=\"\(x(1))\" y2=\"\(y(1))\"/>"
        for v in [0.0, 0.5, 1.0] {
            out += "<text class=\"tick\" x=\"\(x(v))\" y=\"\(bottom + 14)\" text-anchor=\"middle\">\(Int(v * 100))%</text>"
            out += "<text class=\"tick\" x=\"\(left - 4)\" y=\"\(y(v))\" dy=\"4\" text-anchor=\"end\">\(Int(v * 100))%</text>"
        }
        out += "<text class=\"tick\" x=\"\(x(0.5))\" y=\"\(bottom + 32)\" text-anchor=\"middle\">predicted</text>"
        let middle = f(Double(top) + plot / 2)
        out += "<text class=\"tick\" x=\"10\" y=\"\(middle)\" transform=\"rotate(-90 10 \(middle))\" text-anchor=\"middle\">actual</text>"
        for p in points {
            let r = 3 + 6 * (Double(p.reviews) / Double(most)).squareRoot()
            out += "<circle class=\"point\" cx=\"\(x(p.predicted))\" cy=\"\(y(p.actual))\" r=\"\(f(r))\"><title>predicted "
                + "\(Int((p.predicted * 100).rounded()))%, actual \(Int((p.actual * 100).rounded()))% of \(p.reviews)</title></circle>"
        }
        return out + "</svg>"
    }

    private static func svgOpen(width: Int, height: Int, title: String) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" viewBox=\"0 0 \(width) \(height)\" width=\"\(width)\" height=\"\(height)\">"
            + "<title>\(escape(title))</title>"
    }

    /// A number with at most one decimal, as SVG reads it.
    static func f(_ v: Double) -> String {
        guard v.isFinite else { return "0" }
        let tenths = (v * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? String(Int(tenths / 10)) : String(tenths / 10)
    }

    /// Text made safe for HTML and XML (``HTMLText/escaped(_:)``).
    static func escape(_ text: String) -> String { HTMLText.escaped(text) }
}
