import Testing
import QuireModel
@testable import QuireIngest

/// A transcript as a note's body: sections of about 100 words under time anchors, live notes,
/// escaping, the rough engine's label and whisper's uncertain words.
@Suite struct TranscriptMarkdownTests {
    /// `count` words, one every half second from `start`, a sentence ending every `sentence` words.
    static func words(_ count: Int, from start: Double = 0, sentence: Int = 12, word: (Int) -> String = { "word\($0)" }) -> [Transcript.Word] {
        (0..<count).map { k in
            // Each sentence starts with a capital (as whisper writes) and ends with a full stop.
            let text = word(k)
            let first: String = k % sentence == 0 ? text.prefix(1).uppercased() + text.dropFirst() : text
            let stop: String = (k + 1) % sentence == 0 ? "." : ""
            return Transcript.Word(first + stop, start: start + Double(k) * 0.5, end: start + Double(k) * 0.5 + 0.4, probability: 0.9)
        }
    }

    @Test func sectionsOfAboutAHundredWordsEndAtSentences() {
        let words = Self.words(330)
        let sections = TranscriptMarkdown.sections(words)
        #expect(sections.map(\.count) == [108, 108, 114], "\(sections)")
        #expect(sections.allSatisfy { words[$0.upperBound - 1].endsSentence(before: $0.upperBound < words.count ? words[$0.upperBound] : nil) || $0.upperBound == words.count })
        // Without punctuation (pocketsphinx): at a pause of half a second, never past 140 words.
        var plain = (0..<300).map { Transcript.Word("w\($0)", start: Double($0) * 0.3, end: Double($0) * 0.3 + 0.25) }
        for k in 105..<300 { plain[k].start += 1; plain[k].end += 1 }
        let cut = TranscriptMarkdown.sections(plain)
        #expect(cut.first == 0..<105 && cut.allSatisfy { $0.count <= 140 }, "\(cut)")
    }

    @Test func noteBodyWithAnchorsAndHeadings() {
        let transcript = Transcript(words: Self.words(230, from: 65), duration: 200)
        let result = TranscriptMarkdown.convert(transcript, engine: .fasterWhisper(model: "m"), recording: "Recording: [a.mp3](<assets/a.mp3>)")
        #expect(result.sections == 2)
        #expect(result.body.hasPrefix("\nRecording: [a.mp3](<assets/a.mp3>) · 3:20\n\n*Transcribed by faster-whisper.*\n\n## Live notes\n\n- **"))
        #expect(result.body.contains("\n## Transcript\n\n<!-- time 1:05 -->\n\n### 1:05–1:59\n\nWord0 word1 "), "\(result.body)")
        #expect(result.body.contains("\n<!-- time 1:59 -->\n\n### 1:59–3:00\n\nWord108 "), "\(result.body)")
    }

    /// A section ends where the next one's anchor begins: no "0:00–1:07" before "1:06".
    @Test func aSectionEndsWhereTheNextBegins() {
        // Words every 0.6 s; the section's last word ends 0.5 s into the second the next one starts.
        var words = Self.words(230, from: 0)
        for k in words.indices {
            words[k].start = Double(k) * 0.6
            words[k].end = Double(k) * 0.6 + 0.55
        }
        let body = TranscriptMarkdown.convert(Transcript(words: words, duration: 200), engine: .fasterWhisper(model: "m"), recording: "R").body
        let headings = body.split(separator: "\n").filter { $0.hasPrefix("### ") }
        let anchors = body.split(separator: "\n").filter { $0.hasPrefix("<!-- time ") }
        for (k, heading) in headings.enumerated().dropLast() {
            let end = heading.split(separator: "–").last.map(String.init) ?? ""
            #expect(anchors[k + 1] == "<!-- time \(end) -->", "\(headings) \(anchors)")
        }
    }

    @Test func roughEnginesAreLabelledAndUncertainWordsMarked() {
        var words = Self.words(20)
        words[0].text = "Q:"
        words[3].probability = 0.1
        words[4].text = "**bold**"
        let rough = TranscriptMarkdown.convert(Transcript(words: words, duration: 10), engine: .pocketsphinx, recording: "R")
        #expect(rough.body.contains("*Transcribed by pocketsphinx: a rough transcript, many words may be wrong; the times are right.*"))
        #expect(rough.body.contains("Q\\: word1 word2 word3 \\*\\*bold\\*\\*"), "\(rough.body)")
        let good = TranscriptMarkdown.convert(Transcript(words: words, duration: 10), engine: .fasterWhisper(model: "m"), recording: "R")
        #expect(good.body.contains("words followed by (?) are uncertain") && good.body.contains("word3 (?) \\*\\*bold"), "\(good.body)")
        let empty = TranscriptMarkdown.convert(Transcript(words: [], duration: 10), engine: .pocketsphinx, recording: "R")
        #expect(empty.body == "\nR · 0:10\n\n*No speech was recognized (pocketsphinx).*\n" && empty.sections == 0)
    }

    @Test func liveNotesPickEachWindowsTellingSentence() {
        // Two five-minute windows: filler talk, and one sentence full of the window's subject.
        let filler = ["so", "well", "we", "will", "see", "about", "that", "now", "okay", "right"]
        var words: [Transcript.Word] = []
        func say(_ sentence: String, at start: Double) {
            let parts = sentence.split(separator: " ")
            for (k, p) in parts.enumerated() {
                words.append(Transcript.Word(String(p) + (k == parts.count - 1 ? "." : ""), start: start + Double(k) * 0.4, end: start + Double(k) * 0.4 + 0.3))
            }
        }
        for k in 0..<20 { say((filler[(k % 10)...] + filler[..<(k % 10)]).joined(separator: " "), at: Double(k) * 14) }
        say("enzymes lower the activation energy so enzymes speed reactions", at: 290 - 6)
        for k in 0..<5 { say("enzymes bind substrates at the active site of enzymes", at: 100 + Double(k) * 5) }
        for k in 0..<20 { say((filler[(k % 10)...] + filler[..<(k % 10)]).joined(separator: " "), at: 320 + Double(k) * 14) }
        for k in 0..<5 { say("the krebs cycle oxidizes acetyl groups in the krebs cycle", at: 450 + Double(k) * 5) }
        words.sort { $0.start < $1.start }
        let notes = TranscriptMarkdown.liveNotes(Transcript(words: words, duration: 700))
        let texts = notes.map { words[$0.words].map(\.text).joined(separator: " ") }
        #expect(texts.count == 2 && texts[0].contains("enzymes") && texts[1].contains("krebs"), "\(texts)")
        #expect(notes[0].start < 300 && notes[1].start >= 300)
        // A sentence the engine was unsure of is not chosen when its probabilities mean something.
        for k in words.indices where words[k].start >= 450 && words[k].start < 480 { words[k].probability = 0.1 }
        let sure = TranscriptMarkdown.liveNotes(Transcript(words: words, duration: 700), sureOnly: true)
        #expect(sure.count == 1 && sure[0].start < 300, "\(sure)")
    }
}
