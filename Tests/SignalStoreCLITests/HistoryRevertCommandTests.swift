import Foundation
import SignalStore
import Testing

/// `signalstore history` and `signalstore revert`, run as the built binary.
@Suite("history and revert commands")
struct HistoryRevertCommandTests {
    private func binary(_ arguments: [String], _ path: String) throws -> CLIResult {
        try runBinary(arguments + ["--db", path])
    }

    @Test func historyListsARowsEntriesAsTextAndJSON() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        #expect(try binary(["set", "orders", "1", "status=paid"], path).status == 0)
        let text = try binary(["history", "orders", "1"], path)
        #expect(text.status == 0, "\(text.error)")
        #expect(text.outputLines.count == 2)
        #expect(text.outputLines.last?.hasSuffix("orders  1  update  status: new → paid") == true)
        let json = try binary(["history", "orders", "1", "--json"], path)
        let entries = try #require(try parseJSON(json.output) as? [[String: Any]])
        #expect(entries.map { $0["operation"] as? String } == ["insert", "update"])
        let none = try binary(["history", "orders", "77"], path)
        #expect(none.status == 0 && none.output.contains("(no entries for orders 77"))
        let badTable = try binary(["history", "ordres", "1"], path)
        #expect(badTable.status == 1 && badTable.error.contains("orders"))
    }

    @Test func revertPrintsWhatItWritesAndDryRunWritesNothing() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        #expect(try binary(["set", "orders", "1", "status=paid", "purchase_num=4"], path).status == 0)
        let last = try #require(Int64(try binary(["status", "--json"], path).output.split(separator: "\"lastSeq\":").last?.prefix { $0.isNumber } ?? ""))
        let range = "\(last - 1)...\(last)"
        let dryRun = try binary(["revert", range, "--dry-run"], path)
        #expect(dryRun.status == 0, "\(dryRun.error)")
        #expect(dryRun.outputLines.first == "dry run: reverting seq \(range) would write 2 entries; nothing was written")
        #expect(try binary(["get", "orders", "1", "status"], path).output == "paid\n")
        let revert = try binary(["revert", range], path)
        #expect(revert.status == 0, "\(revert.error)")
        #expect(revert.outputLines.first == "reverted seq \(range): wrote 2 entries")
        #expect(revert.outputLines.dropFirst().allSatisfy { $0.contains("orders  1  update") })
        #expect(try binary(["get", "orders", "1", "status"], path).output == "new\n")
        // Redo: revert the revert.
        let redo = try binary(["revert", "\(last + 1)...\(last + 2)", "--json"], path)
        #expect((try parseJSON(redo.output) as? [Any])?.count == 2)
        #expect(try binary(["get", "orders", "1", "status"], path).output == "paid\n")
    }

    @Test func aConflictIsRefusedOnOneLineAndWritesNothing() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        #expect(try binary(["set", "orders", "1", "status=paid"], path).status == 0)
        let history = try binary(["history", "orders", "1", "--json"], path)
        let paidSeq = try #require((try parseJSON(history.output) as? [[String: Any]])?.last?["seq"] as? Int)
        #expect(try binary(["set", "orders", "1", "status=shipped"], path).status == 0)
        let refused = try binary(["revert", "\(paidSeq)"], path)
        #expect(refused.status == 1)
        #expect(refused.error.split(separator: "\n").count == 1)
        #expect(refused.error.contains("later entry #\(paidSeq + 1) (orders[1] update status) changed the same rows again; nothing was written"))
        #expect(refused.error.contains("--overwrite-later-changes"))
        #expect(try binary(["get", "orders", "1", "status"], path).output == "shipped\n")
        let forced = try binary(["revert", "\(paidSeq)", "--overwrite-later-changes"], path)
        #expect(forced.status == 0, "\(forced.error)")
        #expect(try binary(["get", "orders", "1", "status"], path).output == "new\n")
    }

    @Test func badSeqsAreUsageErrors() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        for bad in ["12..14", "x", "5...3", "0"] {
            let result = try binary(["revert", bad], path)
            #expect(result.status == 2, "\(bad): \(result.error)")
            #expect(result.error.contains("give one like 12 or 12...15"), "\(bad): \(result.error)")
        }
        let past = try binary(["revert", "900"], path)
        #expect(past.status == 1 && past.error.contains("give a range inside it"))
    }
}
