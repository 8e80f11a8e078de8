import Foundation

/// Text written by a command or process, collected as it arrives, with a condition to wait on.
public final class CapturedText: @unchecked Sendable {
    // @unchecked: `text` is read and written only while holding `condition`'s lock.
    private let condition = NSCondition()
    private var bytes: [UInt8] = []
    private var text: String { String(decoding: bytes, as: UTF8.self) }

    /// An empty collector.
    public init() {}

    /// Appends a piece of text and wakes waiters.
    public func append(_ piece: String) {
        append(bytes: Array(piece.utf8)[...])
    }

    /// Appends raw output (decoded as UTF-8 when read, so a character split across two reads
    /// stays whole) and wakes waiters.
    public func append(bytes piece: ArraySlice<UInt8>) {
        condition.lock()
        bytes += piece
        condition.broadcast()
        condition.unlock()
    }

    /// Everything collected so far.
    public var value: String {
        condition.lock()
        defer { condition.unlock() }
        return text
    }

    /// The complete lines collected so far.
    public var lines: [String] {
        value.split(separator: "\n").map(String.init)
    }

    /// Waits until the text satisfies `predicate`, or `timeout` passes.
    /// - Returns: Whether the predicate held.
    @discardableResult
    public func wait(timeout: TimeInterval = 10, until predicate: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(text) {
            if !condition.wait(until: deadline) { return predicate(text) }
        }
        return true
    }
}
