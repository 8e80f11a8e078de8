import Signals
import Testing

@Suite("Disposables")
struct DisposableTests {
    @Test func anyDisposableRunsOnce() {
        let count = Counter()
        let disposable = AnyDisposable { count.increment() }
        #expect(!disposable.isDisposed)
        disposable.dispose()
        disposable.dispose()
        #expect(count.count == 1)
        #expect(disposable.isDisposed)
    }

    @Test func compositeDisposesAllAndLateAdditionsAtOnce() {
        let count = Counter()
        let composite = CompositeDisposable([AnyDisposable { count.increment() }])
        composite += AnyDisposable { count.increment() }
        composite.add { count.increment() }
        composite.dispose()
        #expect(count.count == 3)
        composite.add { count.increment() }
        #expect(count.count == 4)
        #expect(composite.isDisposed)
    }

    @Test func compositeRemoveDoesNotDispose() {
        let member = AnyDisposable()
        let composite = CompositeDisposable([member])
        composite.remove(member)
        composite.dispose()
        #expect(!member.isDisposed)
    }

    @Test func serialDisposesThePreviousInner() {
        let serial = SerialDisposable()
        let first = AnyDisposable()
        let second = AnyDisposable()
        serial.inner = first
        serial.inner = second
        #expect(first.isDisposed)
        #expect(!second.isDisposed)
        serial.dispose()
        #expect(second.isDisposed)
        let late = AnyDisposable()
        serial.inner = late
        #expect(late.isDisposed)
    }

    @Test func scopedDisposesOnDeinit() {
        let inner = AnyDisposable()
        var scoped: ScopedDisposable? = ScopedDisposable(inner)
        #expect(!inner.isDisposed)
        _ = scoped
        scoped = nil
        #expect(inner.isDisposed)
    }

    @Test func disposeBagDisposesOnDeinitAndAfterEmptying() {
        let subject = PassthroughSubject<Int, Never>()
        var bag: DisposeBag? = DisposeBag()
        subject.subscribe(onValue: { _ in }).disposed(by: bag!)
        subject.subscribe(onValue: { _ in }).disposed(by: bag!)
        #expect(subject.subscriberCount == 2)
        bag = nil
        #expect(subject.subscriberCount == 0)

        let reused = DisposeBag()
        reused.dispose()
        let late = AnyDisposable()
        late.disposed(by: reused)
        #expect(late.isDisposed)
    }
}
