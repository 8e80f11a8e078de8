import Foundation

/// Waits until `condition` holds, checking every 5 ms, for at most `timeout`; returns whether it
/// held. For effects that arrive asynchronously (another process's commit noticed by polling).
public func eventually(timeout: TimeInterval = 10, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: 0.005)
    }
    return try condition()
}
