/// A piece of HTML markup for the inspector's pages.
///
/// Written as a string literal, where every interpolated `String` is escaped (so a value from
/// the database is always text, never markup) and only interpolated `HTML` is kept as markup:
/// ```swift
/// let cell: HTML = "<td>\(value)</td>"   // value "<script>" becomes &lt;script&gt;
/// ```
/// There is no way to interpolate a `String` unescaped.
struct HTML: ExpressibleByStringInterpolation, Sendable {
    /// The markup.
    private(set) var markup: String

    init(stringLiteral value: String) {
        markup = value
    }

    init(stringInterpolation: Interpolation) {
        markup = stringInterpolation.markup
    }

    /// The pieces one after another.
    init(joining pieces: some Sequence<HTML>) {
        markup = pieces.reduce(into: "") { $0 += $1.markup }
    }

    /// Builds markup: literals as written, strings escaped, markup kept.
    struct Interpolation: StringInterpolationProtocol {
        fileprivate var markup = ""

        init(literalCapacity: Int, interpolationCount: Int) {
            markup.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        mutating func appendLiteral(_ literal: String) {
            markup += literal
        }

        /// Text, escaped for an element's content and for a quoted attribute value.
        mutating func appendInterpolation(_ text: String) {
            markup += HTML.escape(text)
        }

        mutating func appendInterpolation(_ number: Int64) {
            markup += String(number)
        }

        mutating func appendInterpolation(_ number: Int) {
            markup += String(number)
        }

        mutating func appendInterpolation(_ html: HTML) {
            markup += html.markup
        }

        mutating func appendInterpolation(_ pieces: [HTML]) {
            for piece in pieces { markup += piece.markup }
        }
    }

    /// `text` with the five characters that can end text or an attribute value replaced by
    /// entities.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }
}
