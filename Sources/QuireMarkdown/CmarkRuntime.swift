internal import CCmarkGFM
internal import CCmarkGFMShim

/// cmark-gfm's process-wide state: its core extensions, registered exactly once, and what the
/// shim was compiled with.
///
/// Swift runs a `static let` initializer once, even when several threads reach it at the same time,
/// so concurrent first parses are safe.
enum CmarkRuntime {
    /// The registered extensions, looked up once. They are global, immutable once registered and
    /// never freed, so sharing the pointers between threads is safe.
    struct Extensions: @unchecked Sendable {
        let table: OpaquePointer?
        let strikethrough: OpaquePointer?
        let autolink: OpaquePointer?
        let tasklist: OpaquePointer?
        let tagfilter: OpaquePointer?
    }

    static let extensions: Extensions = {
        cmark_gfm_core_extensions_ensure_registered()
        return Extensions(
            table: cmark_find_syntax_extension("table"),
            strikethrough: cmark_find_syntax_extension("strikethrough"),
            autolink: cmark_find_syntax_extension("autolink"),
            tasklist: cmark_find_syntax_extension("tasklist"),
            tagfilter: cmark_find_syntax_extension("tagfilter")
        )
    }()

    /// Whether the shim was compiled with its fast path (cmark's structs read directly, bare
    /// paragraphs left unparsed, an arena per thread) or with cmark's public API only.
    static let fastPath = quire_cmark_fast_path() != 0

    /// The version of the cmark-gfm library in use, such as `0.29.0.gfm.6`.
    static let version = String(cString: cmark_version_string())

    /// The cmark node type values of the GFM extensions' nodes, which exist only at run time (the
    /// extensions register them).
    struct NodeTypes {
        var table: UInt32
        var tableRow: UInt32
        var tableCell: UInt32
        var strikethrough: UInt32

        /// Reads the values; the extensions must be registered (``CmarkRuntime/extensions``).
        static func read() -> NodeTypes {
            NodeTypes(
                table: quire_node_type_table(),
                tableRow: quire_node_type_table_row(),
                tableCell: quire_node_type_table_cell(),
                strikethrough: quire_node_type_strikethrough()
            )
        }

        /// The node kind of a cmark node type value.
        func kind(of type: UInt32) -> MarkdownNodeKind {
            if type == table { return .table }
            if type == tableRow { return .tableRow }
            if type == tableCell { return .tableCell }
            if type == strikethrough { return .strikethrough }
            // The values of cmark_node_type (cmark-gfm.h): blocks 0x8001…, inlines 0xc001….
            switch type {
            case 0x8001: return .document
            case 0x8002: return .blockQuote
            case 0x8003: return .list
            case 0x8004: return .item
            case 0x8005: return .codeBlock
            case 0x8006: return .htmlBlock
            case 0x8007: return .customBlock
            case 0x8008: return .paragraph
            case 0x8009: return .heading
            case 0x800a: return .thematicBreak
            case 0x800b: return .footnoteDefinition
            case 0xc001: return .text
            case 0xc002: return .softBreak
            case 0xc003: return .lineBreak
            case 0xc004: return .code
            case 0xc005: return .htmlInline
            case 0xc006: return .customInline
            case 0xc007: return .emphasis
            case 0xc008: return .strong
            case 0xc009: return .link
            case 0xc00a: return .image
            case 0xc00b: return .footnoteReference
            default: return .other
            }
        }
    }
}
