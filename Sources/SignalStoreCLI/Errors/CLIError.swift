/// A failure a command reports as one line on standard error, with exit status 1.
///
/// The message says what was wrong and how to fix it.
struct CLIError: Error, CustomStringConvertible {
    let description: String

    init(_ message: String) {
        description = message
    }
}
