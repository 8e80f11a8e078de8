// A test that imports the kit can use the signals it tests: `import SignalsTesting` alone
// brings `PassthroughSubject`, `MutableProperty` and the operators, as the README shows.
@_exported import Signals
