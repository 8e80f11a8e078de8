import Foundation
import Testing

/// The built `signalstore` binary, as a user runs it: separate processes, pipes, SIGINT.
@Suite(.ownThread) struct EndToEndTests {
    @Test func watchInOneProcessSeesASetFromAnother() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        let watch = try ChildProcess(signalstoreExecutable, ["watch", "orders", "1", "purchase_num", "--db", path])
        #expect(watch.output.wait { $0.contains("now  orders  1  {purchase_num: 1}") })

        let set = try runBinary(["set", "orders", "1", "purchase_num=8", "--db", path])
        #expect(set.status == 0, "\(set.error)")
        #expect(watch.output.wait { $0.contains("orders  1  update  purchase_num: 1 → 8") })

        watch.send(SIGINT)
        #expect(watch.waitForExit() == 0)
        #expect(watch.error.value.isEmpty)
    }

    @Test func jsonLinesFromAFollowingProcessParse() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        let follow = try ChildProcess(signalstoreExecutable, ["changes", "--follow", "--json", "--db", path], environment: [:])
        #expect(follow.output.wait { $0.split(separator: "\n").count == 2 })
        #expect(try runBinary(["insert", "orders", "purchase_num=3", "status=new", "--db", path]).status == 0)
        #expect(try runBinary(["set", "orders", "3", "note=hello \"world\"\nline two", "--db", path]).status == 0)
        #expect(follow.output.wait { $0.split(separator: "\n").count == 4 })
        follow.send(SIGINT)
        #expect(follow.waitForExit() == 0)

        let objects = try follow.output.value.split(separator: "\n").map { try #require(try parseJSON(String($0)) as? [String: Any]) }
        #expect(objects.map { $0["seq"] as? Int } == [1, 2, 3, 4])
        #expect(objects[3]["new"] as? String == "hello \"world\"\nline two")
        #expect(objects.allSatisfy { $0["timestamp"] is String })
    }

    @Test func oneShotCommandsPrintOneJSONDocument() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        for arguments in [["status"], ["tables"], ["schema"], ["get", "orders"], ["get", "orders", "1"], ["changes"]] {
            let result = try runBinary(arguments + ["--json", "--db", path])
            #expect(result.status == 0)
            #expect(throws: Never.self) { try parseJSON(result.output) }
        }
    }

    @Test func theDemoRunsAndItsViewsHearTheSecondProcess() throws {
        let directory = TemporaryDirectory()
        let result = try runBinary(["demo", "--migrations", packageMigrations.path], environment: ["TMPDIR": directory.url.path])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        // The three main-actor views show the current value as soon as they are bound.
        let step2 = try #require(lines.firstIndex { $0.hasPrefix("2. Three main-actor views") })
        #expect(Array(lines[step2 + 1...step2 + 3]) == ["[list]   order 1 × 1", "[detail] total 12 €", "[badge]  new"])
        // The other process's change reaches the bound views through the main queue.
        let step6 = try #require(lines.firstIndex { $0.hasPrefix("6. Another process") })
        #expect(lines[step6 + 1] == "[list]   order 1 × 7")
        #expect(lines[step6 + 2] == "[detail] total 84 €")
        #expect(lines.contains("order 1: purchaseNum 7, status paid"))
        #expect(lines.last == "Done. The demo database was removed (use --keep to keep it).")
        // It cleaned up after itself.
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.hasPrefix("signalstore-demo-") }
        #expect(left.isEmpty)
    }
}
