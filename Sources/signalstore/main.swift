import Foundation
import Signals

// The `signalstore` command. For now it has one subcommand, `demo`, which shows the reactive
// core; the full command-line tool (swift-argument-parser, database commands) replaces this file.

/// Prints a line; the demo's only output channel.
func say(_ line: String) {
    print(line)
}

/// The demo: one order's purchase number drives three views, with replay, re-entrant writes,
/// a weak-target view and a two-way binding.
func runDemo() {
    say("SignalStore demo: the reactive core (persistence arrives with the store).\n")
    let purchaseNum = MutableProperty(1)

    say("1. Three views bind to order 42's purchaseNum; each gets the current value at once:")
    let bag = DisposeBag()
    purchaseNum.signal.subscribe(onValue: { say("   [list]   qty \($0)") }).disposed(by: bag)
    purchaseNum.signal.map { "\($0 * 12) €" }.subscribe(onValue: { say("   [detail] total \($0)") }).disposed(by: bag)
    purchaseNum.signal.filter { $0 >= 5 }.subscribe(onValue: { say("   [badge]  bulk order (\($0))") }).disposed(by: bag)

    say("\n2. Setting the value notifies every view before the assignment returns:")
    purchaseNum.value = 3

    say("\n3. A view that writes from its callback: the write is queued, not nested,")
    say("   so every view sees 5 first, then the corrected 4:")
    let corrector = purchaseNum.signal.subscribe(onValue: { value in
        if value == 5 { purchaseNum.value = 4 }
    })
    purchaseNum.value = 5
    corrector.dispose()

    say("\n4. A two-way binding with an input field; it cannot loop:")
    let field = MutableProperty(0)
    let binding = bind(purchaseNum, field)
    say("   field follows the model: \(field.value)")
    field.value = 7
    say("   model follows the field: \(purchaseNum.value)")
    binding.dispose()

    say("\nDone: every subscription is released with the bag.")
}

let arguments = CommandLine.arguments.dropFirst()
switch arguments.first {
case "demo":
    runDemo()
default:
    FileHandle.standardError.write(Data("error: unknown command; usage: signalstore demo\n".utf8))
    exit(2)
}
