import Foundation

extension String {
    /// Whether `other` has the same UTF-8 bytes: how SQLite compares the names it stores, and
    /// cheaper than `==`, which compares Unicode canonical equivalence. Native and small strings
    /// lend their bytes, so it is one `memcmp` (a debug build would walk `elementsEqual`
    /// generically, at thousands of instructions).
    func hasSameUTF8(as other: String) -> Bool {
        let left = utf8, right = other.utf8
        guard left.count == right.count else { return false }
        let compared = left.withContiguousStorageIfAvailable { left in
            right.withContiguousStorageIfAvailable { right in
                left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0
            }
        }
        return (compared ?? nil) ?? left.elementsEqual(right)
    }
}
