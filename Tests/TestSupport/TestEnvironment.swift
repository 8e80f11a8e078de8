import Foundation

/// Whether the heavy variants run (`SIGNALSTORE_HEAVY=1`): more kills, writes, seeds and invocations.
public let isHeavy = ProcessInfo.processInfo.environment["SIGNALSTORE_HEAVY"] == "1"

/// Whether the tests run under a sanitizer (`.ci/run` sets `SIGNALSTORE_SANITIZED=1` there):
/// every process a test starts is a sanitized one, several times slower to start.
public let isSanitized = ProcessInfo.processInfo.environment["SIGNALSTORE_SANITIZED"] == "1"
