import Foundation

/// A Swift type that can be stored in a SQLite column.
///
/// Built in for `Bool`, the integer types, `Double`, `Float`, `String`, `Data`, `[UInt8]`,
/// `Date` (seconds since 1970 as a real), `UUID` and `URL` (text), `Optional` (`NULL` for nil)
/// and `RawRepresentable` enums. A `Codable` type is stored as JSON text once it declares the
/// conformance:
/// ```swift
/// struct Address: Codable { var street: String }
/// extension Address: SQLiteValueConvertible {}
/// ```
public protocol SQLiteValueConvertible {
    /// The value to store.
    var sqliteValue: SQLiteValue { get }

    /// Reads a stored value; `nil` if it cannot represent this type (wrong storage class or out
    /// of range).
    init?(sqliteValue: SQLiteValue)

    /// ``init(sqliteValue:)`` as a function, which a property's signal calls for each change.
    /// Every conforming type has it from this protocol: there is no need to write it.
    static func _sqliteDecoder() -> (SQLiteValue) -> Self?
}

extension SQLiteValueConvertible {
    /// ``init(sqliteValue:)`` as a function, compiled for this type: code that learns the type
    /// only at run time (a property's signal) decodes each value with it, without looking up
    /// the layout of an optional of the type for every value.
    public static func _sqliteDecoder() -> (SQLiteValue) -> Self? {
        { Self(sqliteValue: $0) }
    }
}

extension Bool: SQLiteValueConvertible {
    /// Stored as the integer 0 or 1.
    public var sqliteValue: SQLiteValue { .integer(self ? 1 : 0) }

    /// Reads 0 as `false` and any other integer as `true`.
    public init?(sqliteValue: SQLiteValue) {
        guard case .integer(let value) = sqliteValue else { return nil }
        self = value != 0
    }
}

extension SQLiteValueConvertible where Self: FixedWidthInteger & Codable {
    /// Stored as an integer; unsigned values above `Int64.max` are stored as their decimal text.
    public var sqliteValue: SQLiteValue {
        if let value = Int64(exactly: self) { return .integer(value) }
        return .text(String(self))
    }

    /// Reads an integer (or decimal text) that fits this type; `nil` if it is out of range.
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .integer(let value): self.init(exactly: value)
        case .text(let text): self.init(text)
        default: return nil
        }
    }
}

extension Int: SQLiteValueConvertible {}
extension Int8: SQLiteValueConvertible {}
extension Int16: SQLiteValueConvertible {}
extension Int32: SQLiteValueConvertible {}
extension Int64: SQLiteValueConvertible {}
extension UInt: SQLiteValueConvertible {}
extension UInt8: SQLiteValueConvertible {}
extension UInt16: SQLiteValueConvertible {}
extension UInt32: SQLiteValueConvertible {}
extension UInt64: SQLiteValueConvertible {}

extension Double: SQLiteValueConvertible {
    /// Stored as a real.
    public var sqliteValue: SQLiteValue { .real(self) }

    /// Reads a real, or an integer converted to the nearest double.
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .real(let value): self = value
        case .integer(let value): self = Double(value)
        default: return nil
        }
    }
}

extension Float: SQLiteValueConvertible {
    /// Stored as a real.
    public var sqliteValue: SQLiteValue { .real(Double(self)) }

    /// Reads a real or an integer, converted to the nearest float.
    public init?(sqliteValue: SQLiteValue) {
        guard let value = Double(sqliteValue: sqliteValue) else { return nil }
        self = Float(value)
    }
}

extension String: SQLiteValueConvertible {
    /// Stored as text.
    public var sqliteValue: SQLiteValue { .text(self) }

    /// Reads text.
    public init?(sqliteValue: SQLiteValue) {
        guard case .text(let value) = sqliteValue else { return nil }
        self = value
    }
}

extension Data: SQLiteValueConvertible {
    /// Stored as a blob.
    public var sqliteValue: SQLiteValue { .blob(self) }

    /// Reads a blob (or the UTF-8 bytes of text).
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .blob(let value): self = value
        case .text(let value): self = Data(value.utf8)
        default: return nil
        }
    }
}

extension Array: SQLiteValueConvertible where Element == UInt8 {
    /// Stored as a blob.
    public var sqliteValue: SQLiteValue { .blob(Data(self)) }

    /// Reads a blob.
    public init?(sqliteValue: SQLiteValue) {
        guard let data = Data(sqliteValue: sqliteValue) else { return nil }
        self = Array(data)
    }
}

extension Date: SQLiteValueConvertible {
    /// Stored as a real: seconds since 1970-01-01 00:00:00 UTC.
    public var sqliteValue: SQLiteValue { .real(timeIntervalSince1970) }

    /// Reads seconds since 1970 (real or integer).
    public init?(sqliteValue: SQLiteValue) {
        guard let seconds = Double(sqliteValue: sqliteValue) else { return nil }
        self.init(timeIntervalSince1970: seconds)
    }
}

extension UUID: SQLiteValueConvertible {
    /// Stored as text, e.g. `E621E1F8-C36C-495A-93FC-0C247A3E6E5F`.
    public var sqliteValue: SQLiteValue { .text(uuidString) }

    /// Reads UUID text.
    public init?(sqliteValue: SQLiteValue) {
        guard case .text(let text) = sqliteValue else { return nil }
        self.init(uuidString: text)
    }
}

extension URL: SQLiteValueConvertible {
    /// Stored as its absolute string.
    public var sqliteValue: SQLiteValue { .text(absoluteString) }

    /// Reads URL text.
    public init?(sqliteValue: SQLiteValue) {
        guard case .text(let text) = sqliteValue else { return nil }
        self.init(string: text)
    }
}

extension Optional: SQLiteValueConvertible where Wrapped: SQLiteValueConvertible {
    /// `NULL` for `nil`, otherwise the wrapped value.
    public var sqliteValue: SQLiteValue { self?.sqliteValue ?? .null }

    /// `nil` for `NULL`, otherwise the wrapped type's reading (failing if that fails).
    public init?(sqliteValue: SQLiteValue) {
        if case .null = sqliteValue {
            self = .none
        } else if let value = Wrapped(sqliteValue: sqliteValue) {
            self = .some(value)
        } else {
            return nil
        }
    }
}

extension SQLiteValueConvertible where Self: RawRepresentable, RawValue: SQLiteValueConvertible {
    /// Stored as the raw value.
    public var sqliteValue: SQLiteValue { rawValue.sqliteValue }

    /// Reads a raw value; `nil` if no case has it.
    public init?(sqliteValue: SQLiteValue) {
        guard let rawValue = RawValue(sqliteValue: sqliteValue) else { return nil }
        self.init(rawValue: rawValue)
    }
}

extension SQLiteValueConvertible where Self: Codable {
    /// Stored as JSON text.
    public var sqliteValue: SQLiteValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let data = try? encoder.encode(self), let text = String(data: data, encoding: .utf8) else {
            return .null
        }
        return .text(text)
    }

    /// Reads JSON text.
    public init?(sqliteValue: SQLiteValue) {
        guard case .text(let text) = sqliteValue,
              let value = try? JSONDecoder().decode(Self.self, from: Data(text.utf8))
        else { return nil }
        self = value
    }
}

extension SQLiteValueConvertible where Self: RawRepresentable & Codable, RawValue: SQLiteValueConvertible {
    /// Stored as the raw value (an enum with raw values is `Codable` too; the raw value wins).
    public var sqliteValue: SQLiteValue { rawValue.sqliteValue }

    /// Reads a raw value; `nil` if no case has it.
    public init?(sqliteValue: SQLiteValue) {
        guard let rawValue = RawValue(sqliteValue: sqliteValue) else { return nil }
        self.init(rawValue: rawValue)
    }
}

extension SQLiteValue: SQLiteValueConvertible {
    /// The value itself.
    public var sqliteValue: SQLiteValue { self }

    /// The value itself.
    public init?(sqliteValue: SQLiteValue) {
        self = sqliteValue
    }
}
