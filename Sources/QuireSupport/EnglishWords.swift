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
}
