import Foundation
import SignalStore

/// A view in the style of DESIGN.md's example: a badge bound to the order's count, a status
/// shown through a main-actor closure. It records what it showed and on which thread.
final class RecordingBadgeView {
    var text = ""
    private(set) var statuses: [String] = []
    private(set) var updatesOffTheMainThread = 0
    private let bag = DisposeBag()

    init(order: Order) {
        order.signal(for: \.purchaseNum).map { "× \($0)" }
            .bind(to: self, \.text)
            .disposed(by: bag)
        order.signal(for: \.status)
            .subscribeOnMain { [weak self] status in self?.show(status) }
            .disposed(by: bag)
    }

    func show(_ status: String) {
        if !isOnMainQueue() { updatesOffTheMainThread += 1 }
        statuses.append(status)
    }
}

/// A view that only binds, and writes what it receives to a log outside itself, so a test can
/// see that a released view receives nothing.
final class LoggingView {
    var count = 0 {
        didSet { log.append(count) }
    }
    private let log: CountLog

    init(order: Order, log: CountLog) {
        self.log = log
        // No dispose bag: the binding ends by itself when the view is released.
        order.signal(for: \.purchaseNum).bind(to: self, \.count)
    }
}

/// The counts a ``LoggingView`` received.
final class CountLog {
    private(set) var counts: [Int] = []

    func append(_ count: Int) {
        counts.append(count)
    }
}
