/// An error message for the user; printed as `quire: error: …`, exit status 1.
package struct CLIError: Error, CustomStringConvertible {
    package var description: String
    package init(_ message: String) { description = message }
}
