import Foundation

/// Where a command writes: standard output for results, standard error for diagnostics.
///
/// The real console writes to the process's file descriptors, unbuffered, so a streaming
/// command's lines reach a pipe as they are printed. Tests pass a console that records.
public struct Console: Sendable {
    private let writeOutput: @Sendable (String) -> Void
    private let writeErrorText: @Sendable (String) -> Void
    /// Whether standard error is a terminal, where progress lines are shown.
    let isErrorTerminal: Bool
    /// Whether standard output is a terminal (a progress line would mix with the results).
    let isOutputTerminal: Bool

    /// A console that hands each piece of text to `output` or `error`.
    /// - Parameter output: Receives what the command prints for its results.
    /// - Parameter error: Receives error lines and the progress line.
    /// - Parameter errorIsTerminal: Whether `error` goes to a terminal (progress is shown).
    /// - Parameter outputIsTerminal: Whether `output` goes to a terminal.
    public init(
        output: @escaping @Sendable (String) -> Void,
        error: @escaping @Sendable (String) -> Void,
        errorIsTerminal: Bool = false,
        outputIsTerminal: Bool = false
    ) {
        writeOutput = output
        writeErrorText = error
        isErrorTerminal = errorIsTerminal
        isOutputTerminal = outputIsTerminal
    }

    /// The process's standard output and standard error.
    public static let standard = Console(
        output: { FileHandle.standardOutput.write(Data($0.utf8)) },
        error: { FileHandle.standardError.write(Data($0.utf8)) },
        errorIsTerminal: isatty(STDERR_FILENO) == 1,
        outputIsTerminal: isatty(STDOUT_FILENO) == 1
    )

    /// Writes `text` to standard error as it is (a progress line redraws itself with `\r`).
    func writeError(_ text: String) {
        writeErrorText(text)
    }

    /// Writes `line` and a newline to standard output.
    func print(_ line: String) {
        writeOutput(line + "\n")
    }

    /// Writes `line` and a newline to standard error.
    func printError(_ line: String) {
        writeErrorText(line + "\n")
    }
}
