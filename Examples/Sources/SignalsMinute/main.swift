import Signals

let purchaseNum = MutableProperty(1)
let bag = DisposeBag()

// Each view receives the current value at once (replay), then every change.
purchaseNum.signal.subscribe(onValue: { print("list:", $0) }).disposed(by: bag)
purchaseNum.signal
    .map { $0 * 12 }
    .removeDuplicates()
    .subscribe(onValue: { print("total:", $0, "€") })
    .disposed(by: bag)

purchaseNum.value = 3   // both views are updated before this line returns
