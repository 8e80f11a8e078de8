import Foundation

extension String {
    /// Whether `other` has the same UTF-8 bytes: how SQLite compares the names it stores, and
    /// cheaper than `==`, which compares Unicode canonical equivalence: one `memcmp` of their
    /// bytes (a debug build would walk `elementsEqual` generically, at thousands of
    /// instructions).
    func hasSameUTF8(as other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        // `withUTF8` returns what its body returns: a debug build would look up the type of an
        // optional result (`withContiguousStorageIfAvailable`) at every comparison.
        var (left, right) = (self, other)
        return left.withUTF8 { left in
            right.withUTF8 { right in left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0 }
        }
    }
}
