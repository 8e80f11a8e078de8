import Foundation

// The other processes of the reliability suites.
//
//   ReliabilityHelper crash-writer DB MIGRATIONS SEED
//   ReliabilityHelper writer DB MIGRATIONS TAG COUNT
//   ReliabilityHelper watcher DB MIGRATIONS

let arguments = Array(CommandLine.arguments.dropFirst())
switch (arguments.first, arguments.count) {
case ("crash-writer", 4):
    runCrashWriter(path: arguments[1], migrations: URL(fileURLWithPath: arguments[2]), seed: UInt64(arguments[3]) ?? 1)
case ("writer", 5):
    runConcurrentWriter(path: arguments[1], migrations: URL(fileURLWithPath: arguments[2]), tag: Int64(arguments[3]) ?? 1, count: Int(arguments[4]) ?? 100)
case ("watcher", 3):
    runWatcher(path: arguments[1], migrations: URL(fileURLWithPath: arguments[2]))
default:
    fail("usage: ReliabilityHelper crash-writer DB MIGRATIONS SEED | writer DB MIGRATIONS TAG COUNT | watcher DB MIGRATIONS")
}
