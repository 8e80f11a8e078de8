import Foundation

/// Writes a line to standard output at once (unbuffered), so a parent that kills this process
/// has every line printed before the kill.
func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Reports a failure and exits with status 1.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    exit(1)
}
