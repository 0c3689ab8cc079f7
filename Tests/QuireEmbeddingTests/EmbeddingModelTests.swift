import Foundation
import Testing
@testable import QuireEmbedding
@testable import QuireTestSupport

/// Installing and loading the model; damaged model files are errors, never crashes.
@Suite struct EmbeddingModelTests {
    @Test func folderFollowsXDGDataHomeThenHome() {
        #expect(EmbeddingModel.folder(environment: ["XDG_DATA_HOME": "/d", "HOME": "/h"]) == "/d/quire/models/all-MiniLM-L6-v2")
        #expect(EmbeddingModel.folder(environment: ["XDG_DATA_HOME": "relative", "HOME": "/h"]) == "/h/.local/share/quire/models/all-MiniLM-L6-v2")
        #expect(EmbeddingModel.folder(environment: [:]) == nil)
    }

    @Test func installsFromAnUnpackedFolderAndRefusesAnotherModel() throws {
        _ = try TestModel.encoder()
        let installed = try TestModel.dataHome.get() + "/quire/models/" + EmbeddingModel.name
        try withTempDir { dir in
            #expect(!EmbeddingModel.isInstalled(in: dir.full("none")))
            #expect(throws: EmbeddingError.notInstalled(folder: dir.full("none"))) { try EmbeddingModel.load(from: dir.full("none")) }
            let encoder = try EmbeddingModel.install(from: installed, into: dir.full("copy"))
            #expect(EmbeddingModel.isInstalled(in: dir.full("copy")))
            #expect(encoder.embed("same text") == (try TestModel.encoder()).embed("same text"))
            // Another model's configuration: refused, nothing written.
            try dir.makeFolder("other")
            for file in ["vocab.txt", "model.safetensors"] {
                try dir.write("other/" + file, bytes: Array(try Data(contentsOf: URL(fileURLWithPath: installed + "/" + file))))
            }
            try dir.write("other/config.json", #"{"hidden_size": 768, "num_hidden_layers": 12}"#)
            #expect(throws: EmbeddingError.self) { try EmbeddingModel.install(from: dir.full("other"), into: dir.full("target")) }
            #expect(!FileManager.default.fileExists(atPath: dir.full("target")))
        }
    }

    @Test func damagedSafetensorsAreLocatedErrors() throws {
        func header(_ json: String, data: Int = 0) -> [UInt8] {
            let h = Array(json.utf8)
            var out = (0..<8).map { UInt8((h.count >> (8 * $0)) & 0xFF) }
            out += h
            out += [UInt8](repeating: 0, count: data)
            return out
        }
        #expect(throws: EmbeddingError.self) { try Safetensors(bytes: [1, 2, 3], path: "m") }
        #expect(throws: EmbeddingError.self) { try Safetensors(bytes: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 0], path: "m") }
        #expect(throws: EmbeddingError.self) { try Safetensors(bytes: header("{not json"), path: "m") }
        // A range past the end of the file.
        #expect(throws: EmbeddingError.self) {
            try Safetensors(bytes: header(#"{"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}"#, data: 8), path: "m")
        }
        let ok = try Safetensors(bytes: header(#"{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}"#, data: 8), path: "m")
        #expect(try ok.tensor("a", shape: [2]).values == [0, 0])
        #expect(throws: EmbeddingError.self) { try ok.tensor("a", shape: [3]) }
        #expect(throws: EmbeddingError.self) { try ok.tensor("b", shape: [2]) }
        // A shape that does not match its byte range.
        let lying = try Safetensors(bytes: header(#"{"a":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}}"#, data: 8), path: "m")
        #expect(throws: EmbeddingError.self) { try lying.tensor("a", shape: [3]) }
        // Weights that are not finite numbers are found, located.
        #expect(ok.nonFiniteValue() == nil)
        var poisoned = header(#"{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}"#, data: 8)
        poisoned.replaceSubrange((poisoned.count - 4)..., with: [0x00, 0x00, 0xC0, 0x7F])   // a NaN, little-endian
        let nan = try Safetensors(bytes: poisoned, path: "m")
        #expect(nan.nonFiniteValue() == .malformed(path: "m", location: "byte \(poisoned.count - 4)", reason: "tensor a holds a value that is not a finite number"))
    }

    /// The real model with one weight made NaN: refused at install, nothing written.
    @Test func nanWeightsAreRefusedAtInstall() throws {
        _ = try TestModel.encoder()
        let installed = try TestModel.dataHome.get() + "/quire/models/" + EmbeddingModel.name
        try withTempDir { dir in
            try dir.makeFolder("nan")
            for file in ["vocab.txt", "config.json"] {
                try dir.write("nan/" + file, bytes: Array(try Data(contentsOf: URL(fileURLWithPath: installed + "/" + file))))
            }
            var weights = Array(try Data(contentsOf: URL(fileURLWithPath: installed + "/model.safetensors")))
            // A float of the data section (after the 8-byte length and the header), near its end.
            let start = 8 + weights.prefix(8).enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
            let k = start + (weights.count - 4_000 - start) / 4 * 4
            weights.replaceSubrange(k..<(k + 4), with: [0x00, 0x00, 0x80, 0x7F])   // +infinity
            try dir.write("nan/model.safetensors", bytes: weights)
            #expect(throws: EmbeddingError.self) { try EmbeddingModel.install(from: dir.full("nan"), into: dir.full("target")) }
            #expect(!FileManager.default.fileExists(atPath: dir.full("target")))
        }
    }
}
