import Foundation

/// A running child process whose standard output and error are collected as they arrive.
public final class ChildProcess {
    /// The process.
    public let process: Process
    /// Its standard output so far.
    public let output = CapturedText()
    /// Its standard error so far.
    public let error = CapturedText()
    private let outputPipe = Pipe()
    private let errorPipe = Pipe()
    /// Signalled by each pipe's handler when it reads end-of-file: everything was appended.
    private let endOfOutput = DispatchSemaphore(value: 0)
    private let endOfError = DispatchSemaphore(value: 0)

    /// Starts `executable` with `arguments` and `environment` (else this process's). A given
    /// environment still passes on this process's sanitizer settings (`ASAN_OPTIONS`…), so a
    /// child runs under the same rules as its parent.
    public init(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil) throws {
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if var environment {
            for (name, value) in ProcessInfo.processInfo.environment where name.hasSuffix("SAN_OPTIONS") {
                environment[name] = environment[name] ?? value
            }
            process.environment = environment
        }
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        try process.run()
        // One thread per pipe reads until end-of-file with plain blocking reads: chunks arrive
        // in order, and nothing is left in a handler when the reader signals the end.
        for (pipe, text, end) in [(outputPipe, output, endOfOutput), (errorPipe, error, endOfError)] {
            let descriptor = pipe.fileHandleForReading.fileDescriptor
            Thread {
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    if count > 0 {
                        text.append(bytes: buffer[0..<count])
                    } else if count < 0, errno == EINTR {
                        continue
                    } else {
                        break
                    }
                }
                end.signal()
            }.start()
        }
    }

    /// Sends `signal` to the process.
    public func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the process to exit (at most `timeout`), then collects the rest of its output.
    /// - Returns: Its exit status, or `nil` if it is still running.
    public func waitForExit(timeout: TimeInterval = 30) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline { return nil }
            usleep(2_000)
        }
        process.waitUntilExit()
        // The readers signal once they read end-of-file, after their last chunk. A grandchild
        // that keeps a pipe open only delays this by the timeout.
        _ = endOfOutput.wait(timeout: .now() + 10)
        _ = endOfError.wait(timeout: .now() + 10)
        return process.terminationStatus
    }
}

/// Runs a program to completion and returns its exit status and output.
@discardableResult
public func runProgram(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil) throws -> (status: Int32, output: String, error: String) {
    let child = try ChildProcess(executable, arguments, environment: environment)
    guard let status = child.waitForExit(timeout: 120) else {
        child.send(SIGKILL)
        return (-1, child.output.value, child.error.value + "\n(timed out)")
    }
    return (status, child.output.value, child.error.value)
}

/// The built executable `name` of this package, found next to the running test bundle.
public func builtExecutable(_ name: String) -> URL {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path), directory.path != "/" {
        directory.deleteLastPathComponent()
    }
    return directory.appendingPathComponent(name)
}
