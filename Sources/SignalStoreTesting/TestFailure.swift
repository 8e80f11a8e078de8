#if canImport(XCTest)
import XCTest
#endif

/// Where a kit function was called: the place a failure points at, in Swift Testing and XCTest.
public struct CallerLocation: Sendable {
    let fileID: String
    let filePath: StaticString
    let line: UInt
    let column: UInt

    var sourceLocation: SourceLocation {
        SourceLocation(fileID: fileID, filePath: "\(filePath)", line: Int(line), column: Int(column))
    }
}

/// Records a test failure at the caller's line: an issue in a Swift Testing test, `XCTFail` in
/// an XCTest one.
enum TestFailure {
    static func record(_ message: String, at location: CallerLocation) {
        #if canImport(XCTest)
        if Test.current == nil {
            XCTFail(message, file: location.filePath, line: location.line)
            return
        }
        #endif
        Issue.record(Comment(rawValue: message), sourceLocation: location.sourceLocation)
    }
}
