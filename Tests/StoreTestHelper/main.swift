import Foundation
import SignalStore

// A second process for the cross-process tests.
//
//   StoreTestHelper write DB MIGRATIONS SQL [INTEGER…]
//       Opens a Store on DB with the migrations in MIGRATIONS, runs SQL through it (binding the
//       integers), prints the store's last change seq, and exits.
//   StoreTestHelper migrate DB MIGRATIONS
//       Prints "opening", opens a Store on DB (applying the migrations), prints "migrated".
//   StoreTestHelper consume DB MIGRATIONS NAME LAST
//       Follows the durable consumer NAME: prints each entry's seq, then acknowledges it; exits
//       after seq LAST (or runs until killed).

let arguments = Array(CommandLine.arguments.dropFirst())
let usage = "usage: StoreTestHelper write DB MIGRATIONS SQL [INTEGER…] | migrate DB MIGRATIONS | consume DB MIGRATIONS NAME LAST\n"
guard arguments.count >= 3, ["write", "migrate", "consume"].contains(arguments[0]), arguments[0] == "migrate" || arguments.count >= 4 else {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}
do {
    if arguments[0] == "migrate" { FileHandle.standardOutput.write(Data("opening\n".utf8)) }
    let store = try Store(path: arguments[1], migrations: URL(fileURLWithPath: arguments[2]))
    if arguments[0] == "migrate" {
        print("migrated")
    } else if arguments[0] == "consume" {
        let name = arguments[3]
        let last = Int64(arguments.count > 4 ? arguments[4] : "") ?? .max
        let done = DispatchSemaphore(value: 0)
        let subscription = store.changes(consumer: name).subscribe(onValue: { change in
            FileHandle.standardOutput.write(Data("\(change.seq)\n".utf8))
            do {
                try store.acknowledge(through: change.seq, consumer: name)
            } catch {
                FileHandle.standardError.write(Data("error: \(error)\n".utf8))
                exit(1)
            }
            if change.seq >= last { done.signal() }
        }, onFailure: { error in
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            exit(1)
        })
        done.wait()
        subscription.dispose()
    } else {
        let values = arguments.dropFirst(4).compactMap { Int64($0) }.map(SQLiteValue.integer)
        try store.execute(arguments[3], arguments: values)
        print(try store.lastChangeSeq)
    }
    store.close()
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
