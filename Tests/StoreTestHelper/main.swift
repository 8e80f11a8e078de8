import Foundation
import SignalStore

// A second process for the cross-process tests.
//
//   StoreTestHelper write DB MIGRATIONS SQL [INTEGER…]
//       Opens a Store on DB with the migrations in MIGRATIONS, runs SQL through it (binding the
//       integers), prints the store's last change seq, and exits.
//   StoreTestHelper migrate DB MIGRATIONS
//       Prints "opening", opens a Store on DB (applying the migrations), prints "migrated".

let arguments = Array(CommandLine.arguments.dropFirst())
let usage = "usage: StoreTestHelper write DB MIGRATIONS SQL [INTEGER…] | migrate DB MIGRATIONS\n"
guard arguments.count >= 3, ["write", "migrate"].contains(arguments[0]), arguments[0] == "migrate" || arguments.count >= 4 else {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}
do {
    if arguments[0] == "migrate" { FileHandle.standardOutput.write(Data("opening\n".utf8)) }
    let store = try Store(path: arguments[1], migrations: URL(fileURLWithPath: arguments[2]))
    if arguments[0] == "migrate" {
        print("migrated")
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
