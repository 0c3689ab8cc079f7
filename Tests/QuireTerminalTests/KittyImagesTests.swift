import Foundation
import Testing
@testable import QuireTerminal

/// The kitty graphics commands the review screen sends for a note's embedded PNGs.
struct KittyImagesTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0x41, count: 10_000)

    @Test func sentOnceInChunksThenPlaced() {
        let sent = KittyImages.transmission(png: Self.png, id: 7)
        let commands = sent.components(separatedBy: "\u{1B}\\").filter { !$0.isEmpty }
        // 10,008 bytes are 13,344 base64 characters: chunks of 4096, 4096, 4096 and 1056.
        #expect(commands.count == 4)
        #expect(commands[0].hasPrefix("\u{1B}_Ga=t,f=100,t=d,i=7,q=2,m=1;"))
        #expect(commands[1].hasPrefix("\u{1B}_Gm=1;") && commands[3].hasPrefix("\u{1B}_Gm=0;"))
        let payload = commands.map { String($0.split(separator: ";", maxSplits: 1)[1]) }.joined()
        #expect(Data(base64Encoded: payload).map(Array.init) == Self.png)
        #expect(KittyImages.placement(id: 7, row: 5, rows: 8) == "\u{1B}[5;1H\u{1B}_Ga=p,i=7,r=8,C=1,q=2\u{1B}\\")
        // Each image goes once; a file that is not a PNG never goes.
        let images = KittyImages()
        #expect(images.id(for: "/a.png") { _ in Self.png }?.transmission.isEmpty == false)
        #expect(images.id(for: "/a.png") { _ in nil }?.transmission == "")
        #expect(images.id(for: "/b.png") { _ in Array("GIF89a".utf8) } == nil)
    }

    @Test func onlyTerminalsThatSpeakIt() {
        #expect(KittyImages.isSupported(environment: ["KITTY_WINDOW_ID": "1", "TERM": "xterm-kitty"]))
        #expect(KittyImages.isSupported(environment: ["TERM_PROGRAM": "WezTerm"]))
        #expect(!KittyImages.isSupported(environment: ["KITTY_WINDOW_ID": "1", "TMUX": "/tmp/x"]))
        #expect(!KittyImages.isSupported(environment: ["TERM": "xterm-256color"]))
        #expect(KittyImages.isSupported(environment: ["QUIRE_IMAGES": "kitty", "TMUX": "/tmp/x"]))
        #expect(!KittyImages.isSupported(environment: ["QUIRE_IMAGES": "off", "TERM": "xterm-kitty"]))
    }
}
