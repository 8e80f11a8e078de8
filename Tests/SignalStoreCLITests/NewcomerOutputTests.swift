import Foundation
import SignalStore
@testable import SignalStoreCLI
import Testing

/// What a newcomer following the README meets: a key that exists, a value set to itself, a
/// watch that starts past the feed's end, an unknown command.
@Suite(.ownThread) struct NewcomerOutputTests {
    @Test func insertingAnExistingKeyNamesTheRowAndWhatToRunInstead() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        let before = runCLI(["changes", "--db", path]).output
        let result = runCLI(["insert", "orders", "id=1", "purchase_num=5", "status=open", "--db", path])
        #expect(result.status == 1)
        #expect(result.error == "error: row 1 exists in 'orders'; change it with `signalstore set orders 1 COLUMN=VALUE…`, or remove it with `signalstore delete orders 1` first (nothing was changed)\n")
        #expect(runCLI(["changes", "--db", path]).output == before, "nothing was written")
    }

    @Test func aValueSetToItselfSaysUnchanged() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        let result = runCLI(["set", "orders", "2", "status=paid", "purchase_num=3", "--db", path])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.outputLines == [
            "COLUMN        OLD      NEW",
            "status        paid     (unchanged)",
            "purchase_num  2     →  3",
        ])
    }

    @Test func watchingPastTheFeedsEndSaysItWaits() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        let stop = StopRequest()
        let result = StopRequestResult()
        // Stopped at once: the note comes before the watch starts following, so it is printed
        // whenever the stop arrives.
        stop.fire()
        Thread.detachNewThread { result.set(runCLI(["watch", "orders", "--since", "99", "--db", path], stop: stop)) }
        let finished = try #require(result.wait())
        #expect(finished.status == 0)
        #expect(finished.error == "note: the feed ends at seq 2, nothing after 99 yet; waiting for changes (Ctrl-C to stop)\n")
    }

    @Test func anUnknownCommandIsALowercaseErrorAsEveryOther() {
        let result = runCLI(["frobnicate"])
        #expect(result.status == 2)
        #expect(result.error.hasPrefix("error: unknown command 'frobnicate'"))
    }
}
