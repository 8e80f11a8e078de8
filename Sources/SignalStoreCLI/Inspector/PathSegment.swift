#if SIGNALSTORE_INSPECTOR
import Foundation

/// A table or column name as one segment of an inspector address, and back.
///
/// Every character but the unreserved ones is percent-encoded (`café` is `caf%C3%A9`, `sl/ash`
/// is `sl%2Fash`). A browser resolves a segment `.` or `..` (encoded or not) as "this folder"
/// or "the folder above" before it sends the request, so a table named `..` would open the
/// overview. Such names, and names that would decode to them, get one `~` more at the end:
/// `..` is `..~`, a table named `..~` is `..~~`. Nothing else is changed, so every other link
/// reads as the name it names.
enum PathSegment {
    /// `name` as a path segment a browser sends as it is.
    static func encode(_ name: String) -> String {
        QueryString.escape(isDotsAndTildes(name) ? name + "~" : name)
    }

    /// The name a segment of a request's path stands for: percent-decoded, with the `~` that
    /// ``encode(_:)`` added taken off. Text that is not valid percent-encoding is kept as it is,
    /// to be named in the page's "no such table" error.
    static func decode(_ segment: String) -> String {
        let text = segment.removingPercentEncoding ?? segment
        return isDotsAndTildes(text) && text.hasSuffix("~") ? String(text.dropLast()) : text
    }

    /// `.` or `..` followed by any number of `~`.
    private static func isDotsAndTildes(_ text: String) -> Bool {
        let dots = text.prefix { $0 == "." }
        return (1...2).contains(dots.count) && text.dropFirst(dots.count).allSatisfy { $0 == "~" }
    }
}
#endif
