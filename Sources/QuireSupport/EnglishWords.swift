/// English words that say nothing of a text's subject: function words, auxiliaries, fillers.
/// Used to find a text's content words (live notes of a transcript, key terms of a note).
package enum EnglishWords {
    package static let common: Set<String> = [
        "a", "an", "the", "and", "or", "nor", "but", "if", "then", "than", "so", "as", "at", "by", "for", "from", "in", "into",
        "of", "off", "on", "onto", "out", "over", "to", "under", "up", "with", "within", "without", "about", "above", "after",
        "again", "against", "along", "among", "around", "before", "behind", "below", "between", "beyond", "during", "through",
        "toward", "towards", "upon", "via", "that", "this", "these", "those", "there", "here", "what", "which", "who", "whom",
        "whose", "when", "where", "why", "how", "all", "any", "both", "each", "every", "few", "more", "most", "much", "many",
        "other", "others", "another", "some", "such", "same", "only", "own", "very", "too", "also", "just", "not", "no", "yes",
        "is", "are", "was", "were", "be", "been", "being", "am", "have", "has", "had", "having", "do", "does", "did", "doing",
        "done", "can", "could", "will", "would", "shall", "should", "may", "might", "must", "it", "its", "it's", "they", "them",
        "their", "theirs", "we", "us", "our", "ours", "you", "your", "yours", "he", "him", "his", "she", "her", "hers", "i",
        "me", "my", "one", "ones", "get", "got", "going", "gonna", "want", "know", "like", "okay", "yeah", "right", "well",
        "now", "let", "lets", "say", "said", "see", "think", "thing", "things", "kind", "sort", "actually", "basically",
        "because", "while", "although", "though", "however", "therefore", "thus", "hence", "whether", "either", "neither",
        "way", "there's", "that's", "we're", "you're", "don't", "dont", "thats", "youre", "theres", "ill", "ive", "isnt",
        "arent", "make", "made", "take", "look", "come", "use", "used", "using", "lot", "bit", "mean", "uhm", "um", "uh",
        "often", "usually", "generally", "also", "even", "still", "yet", "ever", "never", "always", "first", "second", "new",
        "example", "called", "known",
    ]

    /// The content words of `text`, lower-cased, in order: runs of letters (and digits, apostrophes
    /// and hyphens inside), common words and words of one or two letters left out.
    package static func contentWords(_ text: String) -> [String] {
        words(text).filter { $0.count >= 3 && !common.contains($0) && $0.contains(where: \.isLetter) }
    }

    /// Every word of `text`, lower-cased: a scan of its scalars, ASCII letters lower-cased by
    /// their bits, others by their Unicode lower-case mapping.
    package static func words(_ text: String) -> [String] {
        var out: [String] = []
        var current = String.UnicodeScalarView()
        func close() {
            while let last = current.last, last == "'" || last == "-" { current.removeLast() }
            if !current.isEmpty { out.append(String(current)) }
            current = String.UnicodeScalarView()
        }
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v < 0x80 {
                if (0x61...0x7A).contains(v) || (0x30...0x39).contains(v) {
                    current.append(scalar)
                } else if (0x41...0x5A).contains(v) {
                    current.append(Unicode.Scalar(UInt8(truncatingIfNeeded: v | 0x20)))
                } else if (v == 0x27 || v == 0x2D), !current.isEmpty {
                    current.append(scalar)
                } else if !current.isEmpty {
                    close()
                }
            } else if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                if scalar.properties.isUppercase {
                    current.appendScalars(scalar.properties.lowercaseMapping.unicodeScalars)
                } else {
                    current.append(scalar)
                }
            } else if v == 0x2019, !current.isEmpty {
                current.append("'")
            } else if !current.isEmpty {
                close()
            }
        }
        close()
        return out
    }
}
