import Foundation

/// Images drawn in the review screen with the kitty graphics protocol (kitty, WezTerm, Ghostty,
/// Konsole): a note's embedded PNG shown under its placeholder.
///
/// Each image is sent once (`a=t`, with an ID) and placed again at every redraw (`a=p`), after the
/// placements of the previous frame are deleted (`a=d,d=a`, which keeps the images' data). Every
/// command asks for no reply (`q=2`), so nothing comes back on standard input among the keys.
package final class KittyImages {
    /// Images sent, by path, with their IDs.
    private var sent: [String: UInt32] = [:]
    private var nextID: UInt32 = 1
    /// The largest file sent.
    package static let maximumBytes = 20 << 20

    /// Whether the terminal speaks the protocol: `QUIRE_IMAGES=kitty` or `off` decides, else
    /// kitty's, WezTerm's or Ghostty's own variables, outside tmux and screen (which drop it).
    package static func isSupported(environment: [String: String]) -> Bool {
        switch environment["QUIRE_IMAGES"] {
        case "kitty"?: return true
        case "off"?, "none"?: return false
        default: break
        }
        if environment["TMUX"] != nil || environment["TERM"]?.hasPrefix("screen") == true { return false }
        return environment["KITTY_WINDOW_ID"] != nil || environment["TERM"] == "xterm-kitty"
            || ["WezTerm", "ghostty"].contains(environment["TERM_PROGRAM"] ?? "")
    }

    /// Whether `bytes` are a PNG file (the format the protocol takes as it is).
    package static func isPNG(_ bytes: [UInt8]) -> Bool {
        bytes.count > 8 && bytes.prefix(8).elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    /// The commands that send a PNG under `id` without showing it: base64 in chunks of 4096
    /// bytes, `m=1` on every chunk but the last.
    package static func transmission(png: [UInt8], id: UInt32) -> String {
        let encoded = Array(Data(png).base64EncodedString().utf8)
        var out = ""
        var offset = 0
        repeat {
            let end = min(encoded.count, offset + 4096)
            let more = end < encoded.count ? 1 : 0
            let keys = offset == 0 ? "a=t,f=100,t=d,i=\(id),q=2,m=\(more)" : "m=\(more)"
            out += "\u{1B}_G" + keys + ";" + String(decoding: encoded[offset..<end], as: UTF8.self) + "\u{1B}\\"
            offset = end
        } while offset < encoded.count
        return out
    }

    /// The commands that show image `id` over `rows` rows from the start of screen row `row`
    /// (1-based), the cursor left where it was.
    package static func placement(id: UInt32, row: Int, rows: Int) -> String {
        "\u{1B}[\(row);1H\u{1B}_Ga=p,i=\(id),r=\(rows),C=1,q=2\u{1B}\\"
    }

    /// Deletes the placements on screen (the images' data stays for the next frame).
    package static let clearPlacements = "\u{1B}_Ga=d,d=a,q=2\u{1B}\\"

    /// The ID of the image at `path`, sending it first when it was not sent yet; nil when it is
    /// not a PNG or too large.
    package func id(for path: String, read: (String) -> [UInt8]?) -> (id: UInt32, transmission: String)? {
        if let id = sent[path] { return (id, "") }
        guard let bytes = read(path), bytes.count <= Self.maximumBytes, Self.isPNG(bytes) else { return nil }
        let id = nextID
        nextID += 1
        sent[path] = id
        return (id, Self.transmission(png: bytes, id: id))
    }
}
