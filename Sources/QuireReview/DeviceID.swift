import QuireModel
import QuireSystem
import QuireVault

extension Vault {
    /// The file holding this machine's device ID, relative to the root (kept out of git).
    public static let deviceFile = folderName + "/device"

    /// This machine's device ID, which names its review log (FORMAT.md §6): read from
    /// `.quire/device`, or made from `generator` (8 base32 characters) and written there on first use.
    ///
    /// - Throws: ``FileIOError`` when the file cannot be read or written, or ``ReviewError`` when
    ///   it holds something that is not an ID.
    public func deviceID(using generator: inout some RandomNumberGenerator) throws(ReviewError) -> String {
        let path: String
        do { path = try internalPath(Self.deviceFile) } catch { throw .io(error) }
        for _ in 0..<2 {
            if io.linkStamp(path) != nil {
                let bytes: [UInt8]
                do { bytes = try io.read(path).bytes } catch { throw .io(error) }
                let text = String(String(decoding: bytes, as: UTF8.self).unicodeScalars
                    .reversed().drop { $0.properties.isWhitespace }.reversed()
                    .drop { $0.properties.isWhitespace }.map(Character.init))
                guard !text.isEmpty, text.utf8.count <= 32, text.utf8.allSatisfy(CardID.isIDByte) else {
                    throw .invalidDevice(path: Self.deviceFile, text: text)
                }
                return text
            }
            var id = ""
            for _ in 0..<8 { id.append(Base32.alphabet[Int(generator.next() % 32)]) }
            do {
                // Made once, under the write lock as every file of the vault is written.
                let lock = try lockForWriting()
                defer { lock.release() }
                try io.makeDirectories(fullPath(Self.folderName))
                try io.replace(path, with: Array((id + "\n").utf8), expected: nil)
                return id
            } catch .changedOnDisk {
                continue  // Another process made it first: use theirs.
            } catch {
                throw .io(error)
            }
        }
        throw .invalidDevice(path: Self.deviceFile, text: "")
    }

    /// The relative path of a device's review log.
    public static func logPath(device: String) -> String { logFolder + "/" + device + ".log" }
}
