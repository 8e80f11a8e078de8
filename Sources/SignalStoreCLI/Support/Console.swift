import Foundation

/// Where a command writes: standard output for results, standard error for diagnostics.
///
/// The real console writes to the process's file descriptors, unbuffered, so a streaming
/// command's lines reach a pipe as they are printed. Tests pass a console that records.
public struct Console: Sendable {
    private let writeOutput: @Sendable (String) -> Void
    private let writeError: @Sendable (String) -> Void

    /// A console that hands each piece of text to `output` or `error`.
    public init(output: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void) {
        writeOutput = output
        writeError = error
    }

    /// The process's standard output and standard error.
    public static let standard = Console(
        output: { FileHandle.standardOutput.write(Data($0.utf8)) },
        error: { FileHandle.standardError.write(Data($0.utf8)) }
    )

    /// Writes `line` and a newline to standard output.
    func print(_ line: String) {
        writeOutput(line + "\n")
    }

    /// Writes `line` and a newline to standard error.
    func printError(_ line: String) {
        writeError(line + "\n")
    }
}
