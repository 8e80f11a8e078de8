import Foundation

/// Progress of long work, on one line of standard error that redraws itself: only when standard
/// error is a terminal and `--quiet` is not given, so pipes, files and scripts never see it.
/// Redrawn at most ten times a second; erased when the work ends, so the results that follow
/// start on a clean line.
final class ProgressLine {
    private let label: String
    private let total: Int64?
    private let console: Console
    private var lastDrawn: Date?
    private var isVisible = false

    /// - Parameter whileOutputStreams: The command prints results while it works: progress is
    ///   then shown only when they go elsewhere than the terminal (a file, a pipe).
    /// - Returns: `nil` when progress is not shown (not a terminal, or `--quiet`).
    init?(_ label: String, total: Int64?, quiet: Bool, whileOutputStreams: Bool = false) {
        let console = CommandContext.current.console
        guard console.isErrorTerminal, !quiet, !(whileOutputStreams && console.isOutputTerminal) else { return nil }
        self.label = label
        self.total = total
        self.console = console
    }

    /// Shows that `done` units are done (drawn unless the last draw was under 0.1 s ago).
    func update(_ done: Int64) {
        let now = Date()
        if let lastDrawn, now.timeIntervalSince(lastDrawn) < 0.1 { return }
        lastDrawn = now
        var text = "\(label): \(done.formatted())"
        if let total, total > 0 {
            text += " of \(total.formatted()) (\(min(100, done * 100 / total))%)"
        }
        console.writeError("\r\u{1B}[K" + text)
        isVisible = true
    }

    /// Shows what is being done, when there is nothing to count.
    func show(_ status: String) {
        console.writeError("\r\u{1B}[K\(label): \(status)")
        isVisible = true
    }

    /// Erases the line.
    func finish() {
        guard isVisible else { return }
        console.writeError("\r\u{1B}[K")
        isVisible = false
    }
}
