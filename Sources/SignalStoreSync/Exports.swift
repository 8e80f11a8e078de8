@_exported import SignalStore
