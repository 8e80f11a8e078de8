import Foundation
@testable import SignalStoreCLI
import Testing

/// The command-line tour (the CLI catalog's "The Command Line in Two Minutes") works as printed:
/// each `$ signalstore …` line is run and its output compared with the article's (timestamps
/// masked), including the second terminal's `watch`.
@Suite(.ownThread) struct CommandLineTourTests {
    static let article = packageRoot.appendingPathComponent("Sources/SignalStoreCLI/SignalStoreCLI.docc/CommandLineTour.md")

    /// The `console` blocks of the tour's overview, in order.
    static func consoleBlocks() throws -> [[String]] {
        let text = try String(contentsOf: article, encoding: .utf8)
        let section = try #require(text.components(separatedBy: "## Overview").dropFirst().first?.components(separatedBy: "\n## ").first)
        return section.components(separatedBy: "```console\n").dropFirst().map { block in
            block.components(separatedBy: "\n```").first!.components(separatedBy: "\n")
        }
    }

    /// Commands and the output printed under each.
    static func steps(_ block: [String]) -> [(command: [String], output: [String])] {
        var steps: [(command: [String], output: [String])] = []
        for line in block {
            if line.hasPrefix("$ signalstore ") {
                steps.append((line.dropFirst("$ signalstore ".count).split(separator: " ").map(String.init), []))
            } else {
                steps[steps.count - 1].output.append(line)
            }
        }
        return steps
    }

    /// The database path the tour exports as `SIGNALSTORE_DB`.
    static func articleDatabasePath() throws -> String {
        let text = try String(contentsOf: article, encoding: .utf8)
        let line = try #require(text.components(separatedBy: "\n").first { $0.hasPrefix("export SIGNALSTORE_DB=") })
        return String(line.dropFirst("export SIGNALSTORE_DB=".count))
    }

    /// The tour's path becomes the test's; timestamps differ from run to run.
    static func masked(_ lines: [String], path: String) throws -> [String] {
        let articlePath = try articleDatabasePath()
        return lines.map { $0.replacingOccurrences(of: articlePath, with: path).replacingOccurrences(of: #"\d{10}\.\d+"#, with: "TIME", options: .regularExpression) }
    }

    @Test func theWalkthroughWorksAsPrinted() throws {
        let blocks = try Self.consoleBlocks()
        try #require(blocks.count == 3)
        let directory = TemporaryDirectory()
        let path = directory.path("shop.sqlite")
        let environment = ["SIGNALSTORE_DB": path]
        func run(_ block: [String]) throws {
            for step in Self.steps(block) {
                let arguments = step.command == ["migrate"] ? ["migrate", "--migrations", packageMigrations.path] : step.command
                let result = runCLI(arguments, environment: environment)
                #expect(result.status == 0, "\(step.command): \(result.error)")
                #expect(try Self.masked(result.outputLines, path: path) == Self.masked(step.output, path: path), "\(step.command)")
            }
        }
        try run(blocks[0])

        let watchStep = try #require(Self.steps(blocks[1]).first)
        let output = CapturedText(), stop = StopRequest()
        let finished = StopRequestResult()
        Thread.detachNewThread { finished.set(runCLI(watchStep.command, environment: environment, stop: stop, output: output)) }
        #expect(output.wait { $0.split(separator: "\n").map(String.init) == watchStep.output })

        try run(blocks[2])
        let text = try String(contentsOf: Self.article, encoding: .utf8)
        let announced = try #require(text.components(separatedBy: "the watch prints\n`").dropFirst().first?.components(separatedBy: "`").first)
        #expect(output.wait { $0.contains(announced + "\n") })
        stop.fire()
        #expect(finished.wait()?.status == 0)
    }
}
