extension Array {
    /// Removes every element and keeps the storage for the next ones, destroying each element
    /// with code compiled for its type. `removeAll(keepingCapacity:)` goes through the
    /// runtime's generic destroy of an array's elements, some 200 instructions a call whatever
    /// the count: `OwnEntryCapture` empties a statement's one or two entries on every set.
    mutating func empty() {
        while popLast() != nil {}
    }
}
