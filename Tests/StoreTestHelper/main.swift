import Foundation
import SignalStore

// A second process for the cross-process tests.
//
//   StoreTestHelper write DB MIGRATIONS SQL [INTEGER…]
//       Opens a Store on DB with the migrations in MIGRATIONS, runs SQL through it (binding the
//       integers), prints the store's last change seq, and exits.

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 4, arguments[0] == "write" else {
    FileHandle.standardError.write(Data("usage: StoreTestHelper write DB MIGRATIONS SQL [INTEGER…]\n".utf8))
    exit(2)
}
do {
    let store = try Store(path: arguments[1], migrations: URL(fileURLWithPath: arguments[2]))
    let values = arguments.dropFirst(4).compactMap { Int64($0) }.map(SQLiteValue.integer)
    try store.execute(arguments[3], arguments: values)
    print(try store.lastChangeSeq)
    store.close()
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
